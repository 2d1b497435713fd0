// Trains on a network against trains on one curve of the same geometry: each family track cut
// into pieces (joined end to end), 1000 trains of 20 wagons, each on its own short route as a
// game keeps one (Route::around), solved by solve_trains into one buffer; the peers are the same
// 1000 trains on the track as one curve, and one train of 20 000 wagons on it.
// Closest point on a network of 10^4 pieces of 100 segments (10^6 segments; rows of hand-placed
// keys 1 unit apart), exact, beside what engines do: a brute-force search over points baked
// every 0.2 units along the pieces (its error is printed).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "network_trains.hpp"
#include "track_family.hpp"

namespace {

using namespace tractrix;
using bench::TrackShape;

using bench::train;
using bench::trains;
using bench::wagons_per_train;
using Fixture = bench::NetworkTrains;

Fixture make(TrackShape shape, Spacing spacing, int compiled = 0) {
  return bench::network_trains(shape, spacing, compiled);
}

void BM_TrainsOnRoutes(benchmark::State& state) {
  const auto shape = bench::track_shapes[state.range(0)];
  const auto spacing = state.range(1) ? Spacing::arc : Spacing::chord;
  // 1: Network::compiled (one block); 2: pieces compiled one by one (a block each)
  const int compiled = static_cast<int>(state.range(2));
  Fixture f = make(shape, spacing, compiled);
  for (auto _ : state) {
    solve_trains(f.on_routes.data(), f.route_heads.data(), trains, f.poses.data());
    benchmark::DoNotOptimize(f.poses.data());
  }
  state.SetLabel(std::string(bench::name_of(shape)) + (state.range(1) ? " arc" : " chord") +
                 (compiled == 1   ? " compiled"
                  : compiled == 2 ? " compiled piece by piece"
                                  : ""));
  state.counters["ns/wagon"] = benchmark::Counter(
      double(trains * wagons_per_train),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_TrainsOnOneCurve(benchmark::State& state) {
  const auto shape = bench::track_shapes[state.range(0)];
  const auto spacing = state.range(1) ? Spacing::arc : Spacing::chord;
  Fixture f = make(shape, spacing);
  for (auto _ : state) {
    solve_trains(f.on_curve.data(), f.curve_heads.data(), trains, f.poses.data());
    benchmark::DoNotOptimize(f.poses.data());
  }
  state.SetLabel(std::string(bench::name_of(shape)) + (state.range(1) ? " arc" : " chord"));
  state.counters["ns/wagon"] = benchmark::Counter(
      double(trains * wagons_per_train),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_OneLongTrain(benchmark::State& state) {
  const auto shape = bench::track_shapes[state.range(0)];
  const auto spacing = state.range(1) ? Spacing::arc : Spacing::chord;
  auto whole = *Track<double>::build(MeasuredPath<double>::build(bench::track_path(shape)));
  const bool compiled = state.range(2) != 0;  // Track::compiled
  if (compiled) whole = whole.compiled();
  std::vector<Wagon<double>> wagons;
  for (std::size_t k = 0; k < trains; ++k)
    for (const auto& w : train())
      wagons.push_back(w);
  const auto solver = *TrainSolver<double>::build(whole, wagons, {Wrap::circular, spacing});
  std::vector<WagonPose<double>> poses(wagons.size());
  for (auto _ : state) {
    solver.solve(100.0, poses.data());
    benchmark::DoNotOptimize(poses.data());
  }
  state.SetLabel(std::string(bench::name_of(shape)) + (state.range(1) ? " arc" : " chord") +
                 (compiled ? " compiled" : ""));
  state.counters["ns/wagon"] =
      benchmark::Counter(double(wagons.size()), benchmark::Counter::kIsIterationInvariantRate |
                                                    benchmark::Counter::kInvert);
}

// Arguments: track shape, arc (0 chord), compiled (0 measured; routes and the long train only;
// 2, routes on pieces compiled one by one).
void shapes(benchmark::internal::Benchmark* b) {
  for (int shape : {0, 1, 2, 3, 4, 5})
    for (int arc : {0, 1})
      for (int compiled : {0, 1})
        b->Args({shape, arc, compiled});
}
void shapes_piece_by_piece(benchmark::internal::Benchmark* b) {
  for (int shape : {0, 1, 2, 3, 4, 5})
    for (int arc : {0, 1})
      b->Args({shape, arc, 2});
}
void shapes_measured(benchmark::internal::Benchmark* b) {
  for (int shape : {0, 1, 2, 3, 4, 5})
    for (int arc : {0, 1})
      b->Args({shape, arc, 0});
}

BENCHMARK(BM_TrainsOnRoutes)->Apply(shapes)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TrainsOnRoutes)->Apply(shapes_piece_by_piece)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TrainsOnOneCurve)->Apply(shapes_measured)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OneLongTrain)->Apply(shapes)->Unit(benchmark::kMicrosecond);

// 100 rows of 100 pieces, each piece 100 Catmull–Rom segments through keys 1 unit apart with
// ±0.3 of jitter; rows 20 units apart. `rows` scales it down for a quick run.
struct Grid {
  Network<double> network;
  std::vector<Vector3<double>> baked;  // every 0.2 units along every piece
  std::vector<Vector3<double>> queries;
  std::vector<Vector3<double>> walk;  // a point moving 0.5 a step, 3 units beside a row
};

const Grid& grid() {
  static const Grid g = [] {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> jitter(-0.3, 0.3), unit(0.0, 1.0);
    std::vector<Track<double>> pieces;
    const int rows = 100, per_row = 100, segments = 100;
    // Pieces measured to 1e-12 of the network's size (its rows' lengths, a lower bound of its
    // length), as one curve of that length would be (ArcLengthSettings::length_scale).
    const double network_size = double(rows) * per_row * segments;
    for (int r = 0; r < rows; ++r)
      for (int p = 0; p < per_row; ++p) {
        std::vector<Vector3<double>> keys;
        for (int k = 0; k <= segments; ++k)
          keys.emplace_back(p * segments + k, jitter(rng), 20.0 * r + jitter(rng));
        pieces.push_back(*Track<double>::build(
            MeasuredPath<double>::build(Path<double>::catmull_rom(keys, Closure::open),
                                        {0, ArcLengthMethod::gauss_legendre, network_size})));
      }
    std::vector<Vector3<double>> baked;
    for (const auto& piece : pieces)
      for (double s = 0.0; s <= piece.length(); s += 0.2)
        baked.push_back(piece.path().point_at(s));
    std::vector<Vector3<double>> queries;
    for (int q = 0; q < 1024; ++q)
      queries.emplace_back(unit(rng) * per_row * segments, 5.0 * (unit(rng) - 0.5),
                           unit(rng) * 20.0 * rows);
    // Along a row 3 units beside it, 0.5 units a step with ±0.2 of jitter; every 2000 steps
    // (1000 units, ten pieces) the point jumps to another row.
    std::vector<Vector3<double>> walk;
    for (int leg = 0; leg < 10; ++leg) {
      const double row = std::floor(unit(rng) * rows), x0 = unit(rng) * (per_row - 10) * segments;
      for (int k = 0; k < 2000; ++k)
        walk.emplace_back(x0 + 0.5 * k, 0.4 * (unit(rng) - 0.5),
                          20.0 * row + 3.0 + 0.4 * (unit(rng) - 0.5));
    }
    return Grid{*Network<double>::build(std::move(pieces), {}), std::move(baked),
                std::move(queries), std::move(walk)};
  }();
  return g;
}

void BM_NetworkClosestExact(benchmark::State& state) {
  const Grid& g = grid();
  std::size_t q = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(g.network.closest_point(g.queries[q]));
    q = (q + 1) % g.queries.size();
  }
  state.SetLabel("10^6 segments, 10^4 pieces");
}

void BM_NetworkClosestBaked(benchmark::State& state) {
  const Grid& g = grid();
  std::size_t q = 0;
  double worst = 0.0;
  for (auto _ : state) {
    double best = std::numeric_limits<double>::infinity();
    for (const auto& p : g.baked)
      best = std::min(best, (p - g.queries[q]).squaredNorm());
    benchmark::DoNotOptimize(best);
    state.PauseTiming();
    const double exact = std::sqrt(g.network.closest_point(g.queries[q]).squared_distance);
    worst = std::max(worst, std::sqrt(best) - exact);
    state.ResumeTiming();
    q = (q + 1) % g.queries.size();
  }
  state.counters["worst error"] = worst;
  state.SetLabel(std::to_string(g.baked.size()) + " baked points");
}

// The moving point: the global search at every step against a NetworkPointCursor that follows.
void BM_NetworkClosestMovingGlobal(benchmark::State& state) {
  const Grid& g = grid();
  std::size_t q = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(g.network.closest_point(g.walk[q]));
    q = (q + 1) % g.walk.size();
  }
  state.SetLabel("10^6 segments, a point moving 0.5 a step");
}

void BM_NetworkClosestMovingCursor(benchmark::State& state) {
  const Grid& g = grid();
  NetworkPointCursor<double> cursor;
  std::size_t q = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(g.network.closest_point(g.walk[q], cursor));
    q = (q + 1) % g.walk.size();
  }
  state.counters["global searches %"] =
      100.0 * static_cast<double>(cursor.global_searches()) / static_cast<double>(cursor.queries());
  state.SetLabel("10^6 segments, a point moving 0.5 a step");
}

BENCHMARK(BM_NetworkClosestExact);
BENCHMARK(BM_NetworkClosestMovingGlobal);
BENCHMARK(BM_NetworkClosestMovingCursor);
BENCHMARK(BM_NetworkClosestBaked)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
