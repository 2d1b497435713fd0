// Curve evaluation and arc-length lookups against their peers, in one run:
// - cubic point + tangent: tractrix de_casteljau, Eigen's unsupported Spline<double, 3, 3>
//   (derivatives up to order 1), and a power-basis Horner evaluation (the arithmetic floor);
// - Path::evaluate (segment lookup + De Casteljau);
// - ArcLengthTable: parameter_at on a 100 000-entry table (random and sorted queries),
//   the exact parameter_at, and table build (also on every shape of the track family).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <unsupported/Eigen/Splines>

#include "track_family.hpp"
#include "tractrix/tractrix.hpp"

namespace {

using tractrix::Vector3d;
using Cubic = tractrix::Bezier<double, 3, 3>;

constexpr int curve_count = 1024;
constexpr int query_count = 4096;

std::vector<Cubic> random_cubics() {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> coordinate(-10, 10);
  std::vector<Cubic> cubics(curve_count);
  for (auto& c : cubics)
    for (auto& p : c.points)
      p = Vector3d(coordinate(rng), coordinate(rng), coordinate(rng));
  return cubics;
}

std::vector<double> random_parameters(double hi) {
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> u(0, hi);
  std::vector<double> values(query_count);
  for (auto& v : values)
    v = u(rng);
  return values;
}

void BM_DeCasteljauPointTangent(benchmark::State& state) {
  const auto cubics = random_cubics();
  const auto us = random_parameters(1);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto pt = tractrix::de_casteljau(cubics[i % curve_count], us[i % query_count]);
    benchmark::DoNotOptimize(pt);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DeCasteljauPointTangent);

void BM_EigenSplinePointTangent(benchmark::State& state) {
  using Spline = Eigen::Spline<double, 3, 3>;
  const auto cubics = random_cubics();
  std::vector<Spline> splines;
  Eigen::Array<double, 1, 8> knots;
  knots << 0, 0, 0, 0, 1, 1, 1, 1;  // one Bézier piece as a clamped B-spline
  for (const auto& c : cubics) {
    Eigen::Matrix<double, 3, 4> controls;
    for (int j = 0; j < 4; ++j)
      controls.col(j) = c.points[static_cast<std::size_t>(j)];
    splines.emplace_back(knots, controls);
  }
  const auto us = random_parameters(1);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto d = splines[i % curve_count].derivatives(us[i % query_count], 1);
    benchmark::DoNotOptimize(d);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EigenSplinePointTangent);

// Power basis r(u) = ((a u + b) u + c) u + d, r'(u) = (3a u + 2b) u + c: the arithmetic floor.
void BM_HornerPointTangent(benchmark::State& state) {
  struct Power {
    Vector3d a, b, c, d;
  };
  std::vector<Power> powers;
  for (const auto& cubic : random_cubics()) {
    const auto& p = cubic.points;
    powers.push_back({-p[0] + 3 * p[1] - 3 * p[2] + p[3], 3 * p[0] - 6 * p[1] + 3 * p[2],
                      -3 * p[0] + 3 * p[1], p[0]});
  }
  const auto us = random_parameters(1);
  std::size_t i = 0;
  for (auto _ : state) {
    const Power& c = powers[i % curve_count];
    const double u = us[i % query_count];
    const Vector3d point = ((c.a * u + c.b) * u + c.c) * u + c.d;
    const Vector3d tangent = (3 * c.a * u + 2 * c.b) * u + c.c;
    benchmark::DoNotOptimize(point);
    benchmark::DoNotOptimize(tangent);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HornerPointTangent);

tractrix::Path<double> random_loop(int keys) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> wobble(0.8, 1.2);
  std::vector<Vector3d> points;
  for (int k = 0; k < keys; ++k) {
    const double angle = 2 * 3.141592653589793 * k / keys;
    const double radius = 1000 * wobble(rng);
    points.emplace_back(radius * std::cos(angle), 50 * wobble(rng), radius * std::sin(angle));
  }
  return *tractrix::Path<double>::catmull_rom(points, tractrix::Closure::closed);
}

void BM_PathEvaluate(benchmark::State& state) {
  const auto path = random_loop(curve_count);
  const auto ts = random_parameters(path.end_parameter());
  std::size_t i = 0;
  for (auto _ : state) {
    const auto pt = path.evaluate(ts[i % query_count]);
    benchmark::DoNotOptimize(pt);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PathEvaluate);

// 6250 segments × 16 samples = 100 000 entries.
const tractrix::Path<double>& big_path() {
  static const auto path = random_loop(6250);
  return path;
}
const tractrix::ArcLengthTable<double>& big_table() {
  static const auto table = *tractrix::ArcLengthTable<double>::build(big_path(), {16});
  return table;
}

void BM_ParameterAtRandom(benchmark::State& state) {
  const auto& table = big_table();
  const auto ss = random_parameters(table.length());
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(table.parameter_at_linear(ss[i % query_count]));
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParameterAtRandom);

void BM_ParameterAtSorted(benchmark::State& state) {
  const auto& table = big_table();
  auto ss = random_parameters(table.length());
  std::sort(ss.begin(), ss.end());
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(table.parameter_at_linear(ss[i % query_count]));
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParameterAtSorted);

// The exact inverse (quintic Hermite, Newton where flagged) on the same random distances.
void BM_ParameterAtExactRandom(benchmark::State& state) {
  const auto& table = big_table();
  const auto ss = random_parameters(table.length());
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(table.parameter_at(ss[i % query_count]));
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParameterAtExactRandom);

void BM_TableBuild(benchmark::State& state) {
  const auto method = state.range(0) == 0 ? tractrix::ArcLengthMethod::chord
                                          : tractrix::ArcLengthMethod::gauss_legendre;
  const auto path = random_loop(1000);
  for (auto _ : state) {
    auto table = tractrix::ArcLengthTable<double>::build(path, {16, method});
    benchmark::DoNotOptimize(table);
  }
  state.SetItemsProcessed(state.iterations() * 1000 * 16);  // entries built
  state.SetLabel(state.range(0) == 0 ? "chord" : "gauss_legendre");
}
BENCHMARK(BM_TableBuild)->Arg(0)->Arg(1);

// Gauss–Legendre table build on every track shape of the family, at 16 entries per segment
// (second argument 16) and at the automatic, adaptive density (0). Items: segments; counters:
// the table's entries and bytes per segment.
template <class S>
void BM_TableBuildFamily(benchmark::State& state) {
  const auto shape = tractrix::bench::track_shapes[state.range(0)];
  const auto path = tractrix::bench::track_path_as<S>(shape);
  const int density = static_cast<int>(state.range(1));
  std::size_t entries = 0, bytes = 0;
  for (auto _ : state) {
    auto table = tractrix::ArcLengthTable<S>::build(path, {density});
    benchmark::DoNotOptimize(table);
    entries = table->entry_count();
    bytes = table->memory_bytes();
  }
  const double segments = static_cast<double>(path.size());
  state.SetItemsProcessed(state.iterations() * static_cast<long>(path.size()));
  state.counters["entries_per_segment"] = static_cast<double>(entries) / segments;
  state.counters["bytes_per_segment"] = static_cast<double>(bytes) / segments;
  state.SetLabel(tractrix::bench::name_of(shape));
}
BENCHMARK_TEMPLATE(BM_TableBuildFamily, double)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5}, {16, 0}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_TableBuildFamily, float)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5}, {0}})
    ->Unit(benchmark::kMillisecond);

// Many distances at once: 10⁴ sleepers evenly spaced along each track of the family, point and
// unit tangent into packed caller arrays. batch: MeasuredPath::sample(distances, n, points,
// tangents); per call: sample(s) one at a time, stored by hand; floor: the power-basis Horner
// point and tangent at parameters found beforehand, stored (no distance inverse, no
// normalization). Items: distances.
struct Sleepers {
  tractrix::MeasuredPath<double> path;
  std::vector<double> distances;
  std::vector<double> points, tangents;
  explicit Sleepers(long shape)
      : path(*tractrix::MeasuredPath<double>::build(
            tractrix::bench::track_path(tractrix::bench::track_shapes[shape]))) {
    const int count = 10000;
    for (int i = 0; i < count; ++i)
      distances.push_back(path.length() * (i + 0.5) / count);
    points.resize(3 * distances.size());
    tangents.resize(3 * distances.size());
  }
  void finish(benchmark::State& state, long shape) const {
    state.SetItemsProcessed(state.iterations() * static_cast<long>(distances.size()));
    state.SetLabel(tractrix::bench::name_of(tractrix::bench::track_shapes[shape]));
  }
};

void BM_SleepersBatch(benchmark::State& state) {
  Sleepers s(state.range(0));
  const tractrix::VectorArray<double> points{s.points.data(), s.distances.size()};
  const tractrix::VectorArray<double> tangents{s.tangents.data(), s.distances.size()};
  for (auto _ : state) {
    auto error = s.path.samples_at(s.distances.data(), s.distances.size(), points, tangents);
    benchmark::DoNotOptimize(error);
    benchmark::ClobberMemory();
  }
  s.finish(state, state.range(0));
}
BENCHMARK(BM_SleepersBatch)->DenseRange(0, 5);

void BM_SleepersPerCall(benchmark::State& state) {
  Sleepers s(state.range(0));
  for (auto _ : state) {
    for (std::size_t i = 0; i < s.distances.size(); ++i) {
      const auto at = s.path.sample(s.distances[i]);
      std::copy(at.point.data(), at.point.data() + 3, &s.points[3 * i]);
      std::copy(at.tangent.data(), at.tangent.data() + 3, &s.tangents[3 * i]);
    }
    benchmark::ClobberMemory();
  }
  s.finish(state, state.range(0));
}
BENCHMARK(BM_SleepersPerCall)->DenseRange(0, 5);

// The same on the compiled path (CompiledPath::sample with a cursor, stored by hand): a cell
// found by the cursor and two Horner sums of degree 7.
void BM_SleepersCompiled(benchmark::State& state) {
  Sleepers s(state.range(0));
  const auto compiled = tractrix::CompiledPath<double>::build(s.path);
  for (auto _ : state) {
    std::size_t cursor = 0;
    for (std::size_t i = 0; i < s.distances.size(); ++i) {
      const auto at = compiled.sample(s.distances[i], cursor);
      std::copy(at.point.data(), at.point.data() + 3, &s.points[3 * i]);
      std::copy(at.tangent.data(), at.tangent.data() + 3, &s.tangents[3 * i]);
    }
    benchmark::ClobberMemory();
  }
  s.finish(state, state.range(0));
}
BENCHMARK(BM_SleepersCompiled)->DenseRange(0, 5);

void BM_SleepersFloor(benchmark::State& state) {
  Sleepers s(state.range(0));
  struct Power {
    Vector3d a, b, c, d;
  };
  std::vector<Power> powers;
  for (const auto& segment : s.path.path().segments()) {
    const auto& p = segment.points;
    powers.push_back({-p[0] + 3 * p[1] - 3 * p[2] + p[3], 3 * p[0] - 6 * p[1] + 3 * p[2],
                      -3 * p[0] + 3 * p[1], p[0]});
  }
  std::vector<double> ts;
  for (double d : s.distances)
    ts.push_back(s.path.parameter_at(d));
  for (auto _ : state) {
    for (std::size_t i = 0; i < ts.size(); ++i) {
      const auto segment = static_cast<std::size_t>(ts[i]);
      const double u = ts[i] - static_cast<double>(segment);
      const Power& c = powers[segment];
      const Vector3d point = ((c.a * u + c.b) * u + c.c) * u + c.d;
      const Vector3d tangent = (3 * c.a * u + 2 * c.b) * u + c.c;
      std::copy(point.data(), point.data() + 3, &s.points[3 * i]);
      std::copy(tangent.data(), tangent.data() + 3, &s.tangents[3 * i]);
    }
    benchmark::ClobberMemory();
  }
  s.finish(state, state.range(0));
}
BENCHMARK(BM_SleepersFloor)->DenseRange(0, 5);

// Frames for the same sleepers (world up), as column-major 4×4 matrices: Track::frames_at
// against frame_at one at a time written through the same PoseArray.
void BM_SleeperFramesBatch(benchmark::State& state) {
  Sleepers s(state.range(0));
  const auto track = *tractrix::Track<double>::build(s.path);
  std::vector<double> matrices(16 * s.distances.size());
  const auto poses = tractrix::PoseArray<double>::matrices(matrices.data(), s.distances.size());
  for (auto _ : state) {
    auto error = track.frames_at(s.distances.data(), s.distances.size(), poses);
    benchmark::DoNotOptimize(error);
    benchmark::ClobberMemory();
  }
  s.finish(state, state.range(0));
}
BENCHMARK(BM_SleeperFramesBatch)->DenseRange(0, 5);

void BM_SleeperFramesPerCall(benchmark::State& state) {
  Sleepers s(state.range(0));
  const auto track = *tractrix::Track<double>::build(s.path);
  std::vector<double> matrices(16 * s.distances.size());
  const auto poses = tractrix::PoseArray<double>::matrices(matrices.data(), s.distances.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < s.distances.size(); ++i) {
      const auto frame = track.frame_at(s.distances[i]);
      poses.write(i, frame.origin, frame.rotation);
    }
    benchmark::ClobberMemory();
  }
  s.finish(state, state.range(0));
}
BENCHMARK(BM_SleeperFramesPerCall)->DenseRange(0, 5);

}  // namespace

// Closest point on each track of the family. Queries: 1000 points, nine in ten within 50 units of
// the track (random offsets from random points on it), one in ten anywhere in its bounding box.
// exact: MeasuredPath::closest_point (PathBounds branch and bound, quintic roots per segment);
// baked: what engines ship — the track baked into 16 points per segment and every polyline edge
// tried (O(segments)); its counter `max_error` is the largest distance error against the exact
// answer, in units. following: a point 2 units beside the track moving 0.5 units per query (a
// vehicle at 30 m/s and 60 Hz), with a ClosestPointCursor, beside the global search on the same
// points (`global_searches` counts the cursor's fallbacks).
struct ClosestQueries {
  tractrix::MeasuredPath<double> path;
  std::vector<Vector3d> queries;
  explicit ClosestQueries(long shape)
      : path(*tractrix::MeasuredPath<double>::build(
            tractrix::bench::track_path(tractrix::bench::track_shapes[shape]))) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> unit(0, 1);
    Vector3d lo = Vector3d::Constant(1e300), hi = -lo;
    for (const auto& segment : path.path().segments())
      for (const auto& p : segment.points) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
      }
    for (int i = 0; i < 1000; ++i) {
      const Vector3d random(unit(rng), unit(rng), unit(rng));
      if (i % 10 == 9)
        queries.push_back(lo + random.cwiseProduct(hi - lo));
      else
        queries.push_back(path.point_at(unit(rng) * path.length()) +
                          50 * unit(rng) * (2 * random - Vector3d::Ones()).normalized());
    }
  }
  std::vector<Vector3d> following() const {
    std::vector<Vector3d> points;
    for (int i = 0; i < 10000; ++i) {
      const auto at = path.sample(0.5 * i);
      points.push_back(at.point + 2 * at.tangent.cross(Vector3d::UnitY()).normalized());
    }
    return points;
  }
};

void BM_ClosestExact(benchmark::State& state) {
  ClosestQueries c(state.range(0));
  for (auto _ : state)
    for (const auto& q : c.queries)
      benchmark::DoNotOptimize(c.path.closest_point(q));
  state.SetItemsProcessed(state.iterations() * static_cast<long>(c.queries.size()));
  state.SetLabel(tractrix::bench::name_of(tractrix::bench::track_shapes[state.range(0)]));
}
BENCHMARK(BM_ClosestExact)->DenseRange(0, 5);

void BM_ClosestBaked(benchmark::State& state) {
  ClosestQueries c(state.range(0));
  const int per_segment = 16;
  std::vector<Vector3d> baked;
  const auto& path = c.path.path();
  for (std::size_t i = 0; i < path.size(); ++i)
    for (int k = 0; k < per_segment; ++k)
      baked.push_back(path.point(static_cast<double>(i) + static_cast<double>(k) / per_segment));
  baked.push_back(baked.front());
  const auto nearest = [&](const Vector3d& q) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k + 1 < baked.size(); ++k) {
      const Vector3d edge = baked[k + 1] - baked[k];
      const double f = std::clamp((q - baked[k]).dot(edge) / edge.squaredNorm(), 0.0, 1.0);
      best = std::min(best, (baked[k] + f * edge - q).squaredNorm());
    }
    return best;
  };
  for (auto _ : state)
    for (const auto& q : c.queries)
      benchmark::DoNotOptimize(nearest(q));
  double worst = 0;
  for (const auto& q : c.queries)
    worst = std::max(worst, std::abs(std::sqrt(nearest(q)) -
                                     std::sqrt(c.path.closest_point(q).squared_distance)));
  state.counters["max_error"] = worst;
  state.SetItemsProcessed(state.iterations() * static_cast<long>(c.queries.size()));
  state.SetLabel(tractrix::bench::name_of(tractrix::bench::track_shapes[state.range(0)]));
}
BENCHMARK(BM_ClosestBaked)->DenseRange(0, 5)->Unit(benchmark::kMicrosecond);

// Second argument 1: the same on the track's CompiledPath (the distance along from its cells).
void BM_ClosestFollowingCursor(benchmark::State& state) {
  ClosestQueries c(state.range(0));
  const auto compiled = tractrix::CompiledPath<double>::build(c.path);
  const bool on_cells = state.range(1) != 0;
  const auto points = c.following();
  std::size_t searches = 0;
  for (auto _ : state) {
    tractrix::ClosestPointCursor<double> cursor;
    for (const auto& q : points)
      benchmark::DoNotOptimize(on_cells ? compiled.closest_point(q, cursor)
                                        : c.path.closest_point(q, cursor));
    searches = cursor.global_searches();
  }
  state.counters["global_searches"] = static_cast<double>(searches);
  state.SetItemsProcessed(state.iterations() * static_cast<long>(points.size()));
  state.SetLabel(
      std::string(tractrix::bench::name_of(tractrix::bench::track_shapes[state.range(0)])) +
      (on_cells ? " compiled" : ""));
}
BENCHMARK(BM_ClosestFollowingCursor)->ArgsProduct({{0, 1, 2, 3, 4, 5}, {0, 1}});

void BM_ClosestFollowingGlobal(benchmark::State& state) {
  ClosestQueries c(state.range(0));
  const auto points = c.following();
  for (auto _ : state)
    for (const auto& q : points)
      benchmark::DoNotOptimize(c.path.closest_point(q));
  state.SetItemsProcessed(state.iterations() * static_cast<long>(points.size()));
  state.SetLabel(tractrix::bench::name_of(tractrix::bench::track_shapes[state.range(0)]));
}
BENCHMARK(BM_ClosestFollowingGlobal)->DenseRange(0, 5);

BENCHMARK_MAIN();
