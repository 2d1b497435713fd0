// Alignments: a plan's point + tangent on every horizontal segment type; trains on the alignment
// family against the same train on the gentle cubic loop (measured and compiled) in the same
// run; building each alignment. With the LandXML reader: reading a 20 km file.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "alignment_family.hpp"
#include "track_family.hpp"
#include "tractrix/tractrix.hpp"
#include "train_fixtures.hpp"
#if defined(TRACTRIX_BENCH_LANDXML)
#include "tractrix/io/landxml.hpp"
#endif

namespace {

using S = double;
using tractrix::HorizontalType;

const HorizontalType every_type[] = {
    HorizontalType::line,         HorizontalType::circular_arc,  HorizontalType::clothoid,
    HorizontalType::cubic,        HorizontalType::helmert_curve, HorizontalType::bloss_curve,
    HorizontalType::cosine_curve, HorizontalType::sine_curve,    HorizontalType::viennese_bend};

// Point + tangent at pseudo-random distances along one 100 m segment of each type (from
// straight to R 300; the arc R 300), with its cursor.
void BM_PlanPoint(benchmark::State& state) {
  const HorizontalType type = every_type[state.range(0)];
  tractrix::HorizontalSegment<S> g;
  g.type = type;
  g.start_point = {2600000, 1200000};
  g.start_radius = type == HorizontalType::circular_arc ? 300 : 0;
  g.end_radius = type == HorizontalType::line ? 0 : 300;
  g.length = 100;
  if (type == HorizontalType::viennese_bend)
    g.gravity_center_height = 1.8, g.bank_angle_change = 0.066;
  const auto layout = *tractrix::HorizontalLayout<S>::build({g});
  std::size_t cursor = 0;
  S s = 0, sum = 0;
  for (auto _ : state) {
    s += 37.77;
    if (s > 100) s -= 100;
    const auto p = layout.at(s, cursor);
    sum += p.position.x() + p.tangent.y();
    benchmark::DoNotOptimize(sum);
  }
  state.SetLabel(tractrix::to_string(type));
}

std::vector<tractrix::Wagon<S>> wagons() {
  std::vector<tractrix::Wagon<S>> w;
  for (int i = 0; i < 2000; ++i)
    w.push_back({4.0 + (i % 3), 2.5 + 0.5 * (i % 2)});
  return w;
}

// The 2000-wagon train of train_benchmark's family on each alignment, its head moving along.
void BM_TrainOnAlignment(benchmark::State& state, tractrix::Spacing spacing) {
  const auto shape = tractrix::bench::alignment_shapes[state.range(0)];
  const auto alignment = *tractrix::Alignment<S>::build(tractrix::bench::alignment_layouts(shape));
  const auto solver = *tractrix::TrainSolver<S, tractrix::Alignment<S>>::build(
      alignment, wagons(), {tractrix::Wrap::clamp, spacing});
  std::vector<tractrix::WagonPose<S>> poses(2000);
  S head = 10500;
  for (auto _ : state) {
    solver.solve(head, poses.data());
    head += 0.37;
    if (head > alignment.length() - 100) head = 10500;
    benchmark::DoNotOptimize(poses.data());
    benchmark::ClobberMemory();
  }
  tractrix::bench::count_wagons(state, 2000);
  state.SetLabel(tractrix::bench::name_of(shape));
}

// The same train on the gentle cubic loop, measured (0) and compiled (1): the reference.
void BM_TrainOnGentleLoop(benchmark::State& state, tractrix::Spacing spacing) {
  auto track = *tractrix::Track<S>::build(tractrix::MeasuredPath<S>::build(
      tractrix::bench::track_path(tractrix::bench::TrackShape::gentle)));
  if (state.range(0) == 1) track = track.compiled();
  const auto solver =
      *tractrix::TrainSolver<S>::build(track, wagons(), {tractrix::Wrap::circular, spacing});
  std::vector<tractrix::WagonPose<S>> poses(2000);
  S head = 100;
  for (auto _ : state) {
    solver.solve(head, poses.data());
    head += 0.37;
    benchmark::DoNotOptimize(poses.data());
    benchmark::ClobberMemory();
  }
  tractrix::bench::count_wagons(state, 2000);
  state.SetLabel(state.range(0) == 1 ? "gentle, compiled" : "gentle, measured");
}

// The chainage, offset and elevation of points 3 m beside each alignment at pseudo-random
// places along it (no cursor: every query searches the whole alignment).
void BM_AlignmentClosest(benchmark::State& state) {
  const auto shape = tractrix::bench::alignment_shapes[state.range(0)];
  const auto alignment = *tractrix::Alignment<S>::build(tractrix::bench::alignment_layouts(shape));
  std::vector<tractrix::Vector3d> queries;
  tractrix::Alignment<S>::Cursor cursor;
  for (int i = 0; i < 512; ++i)
    queries.push_back(
        alignment.sample(alignment.length() * ((i * 193) % 512) / 512.0, cursor).point +
        tractrix::Vector3d(3.0, -2.0, 1.0));
  std::size_t i = 0;
  for (auto _ : state) {
    auto found = alignment.closest_point(queries[i++ % queries.size()]);
    benchmark::DoNotOptimize(found);
  }
  state.SetLabel(tractrix::bench::name_of(shape));
}

void BM_BuildAlignment(benchmark::State& state) {
  const auto shape = tractrix::bench::alignment_shapes[state.range(0)];
  const auto layouts = tractrix::bench::alignment_layouts(shape);
  for (auto _ : state) {
    auto built = tractrix::Alignment<S>::build(layouts);
    benchmark::DoNotOptimize(built);
  }
  state.counters["segments"] = double(layouts.horizontal.size());
  state.SetLabel(tractrix::bench::name_of(shape));
}

#if defined(TRACTRIX_BENCH_LANDXML)
// The mainline_3d alignment (20 km: 68 plan elements, its profile as PVIs and parabolas, its
// cant as stations) written as LandXML, then read and built.
std::string mainline_landxml() {
  const auto layouts =
      tractrix::bench::alignment_layouts(tractrix::bench::AlignmentShape::mainline_3d);
  const auto plan = *tractrix::HorizontalLayout<S>::build(layouts.horizontal);
  std::ostringstream out;
  out.precision(12);
  const auto ne = [&](const tractrix::Vector2d& p) {
    std::ostringstream t;
    t.precision(15);
    t << p.y() << " " << p.x();
    return t.str();
  };
  out << "<?xml version=\"1.0\"?>\n<LandXML version=\"1.2\"><Alignments><Alignment name=\"m\" "
         "staStart=\"0\"><CoordGeom>\n";
  for (std::size_t i = 0; i < plan.segment_count(); ++i) {
    const auto& g = plan.segment(i);
    const auto end = plan.at(plan.segment_start(i) + g.length).position;
    const tractrix::Vector2d ahead(std::cos(g.start_direction), std::sin(g.start_direction));
    if (g.type == HorizontalType::line) {
      out << "<Line><Start>" << ne(g.start_point) << "</Start><End>" << ne(end)
          << "</End></Line>\n";
    } else if (g.type == HorizontalType::circular_arc) {
      const tractrix::Vector2d centre =
          g.start_point + g.start_radius * tractrix::Vector2d(-ahead.y(), ahead.x());
      out << "<Curve rot=\"" << (g.start_radius > 0 ? "ccw" : "cw") << "\" radius=\""
          << std::abs(g.start_radius) << "\" length=\"" << g.length << "\"><Start>"
          << ne(g.start_point) << "</Start><Center>" << ne(centre) << "</Center><End>" << ne(end)
          << "</End></Curve>\n";
    } else {
      const double radius = g.start_radius != 0 ? g.start_radius : g.end_radius;
      const auto r = [](double v) {
        return v == 0 ? std::string("INF") : std::to_string(std::abs(v));
      };
      out << "<Spiral spiType=\"clothoid\" rot=\"" << (radius > 0 ? "ccw" : "cw") << "\" length=\""
          << g.length << "\" radiusStart=\"" << r(g.start_radius) << "\" radiusEnd=\""
          << r(g.end_radius) << "\"><Start>" << ne(g.start_point) << "</Start><PI>"
          << ne(g.start_point + 0.5 * g.length * ahead) << "</PI><End>" << ne(end)
          << "</End></Spiral>\n";
    }
  }
  out << "</CoordGeom><Profile><ProfAlign>\n";
  const auto& v = layouts.vertical;
  out << "<PVI>0 " << v.front().start_height << "</PVI>\n";
  for (std::size_t i = 1; i + 1 < v.size(); i += 2) {
    const double pvi = v[i].start_distance + v[i].horizontal_length / 2;
    const double z = v[i].start_height + v[i].start_gradient * v[i].horizontal_length / 2;
    out << "<ParaCurve length=\"" << v[i].horizontal_length << "\">" << pvi << " " << z
        << "</ParaCurve>\n";
  }
  const auto& last = v.back();
  out << "<PVI>" << last.start_distance + last.horizontal_length << " "
      << last.start_height + last.start_gradient * last.horizontal_length << "</PVI>\n";
  out << "</ProfAlign></Profile><Cant rotationPoint=\"insideRail\">\n";
  for (const auto& c : layouts.cant) {
    const double cant = 1000 * std::max(c.start_cant_left, c.start_cant_right);  // millimetres
    out << "<CantStation station=\"" << c.start_distance << "\" appliedCant=\"" << cant
        << "\" curvature=\"" << (c.start_cant_right >= c.start_cant_left ? "ccw" : "cw")
        << "\"/>\n";
  }
  out << "<CantStation station=\"" << plan.length() << "\" appliedCant=\"0\"/>\n";
  out << "</Cant></Alignment></Alignments></LandXML>\n";
  return out.str();
}

void BM_ReadLandXML(benchmark::State& state) {
  const std::string text = mainline_landxml();
  tractrix::io::landxml::ReadSettings settings;
  settings.angle = 1e-5;  // the PIs here are approximate: directions come from Start→PI
  for (auto _ : state) {
    auto read = tractrix::io::landxml::parse(text, "mainline.xml", settings);
    if (!read) state.SkipWithError(read.error().message.c_str());
    benchmark::DoNotOptimize(read);
  }
  state.counters["bytes"] = double(text.size());
}
#endif

}  // namespace

BENCHMARK(BM_PlanPoint)->DenseRange(0, 8);
BENCHMARK(BM_AlignmentClosest)->DenseRange(0, 3);
BENCHMARK_CAPTURE(BM_TrainOnAlignment, arc, tractrix::Spacing::arc)
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_TrainOnGentleLoop, arc, tractrix::Spacing::arc)
    ->DenseRange(0, 1)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_TrainOnAlignment, chord, tractrix::Spacing::chord)
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_TrainOnGentleLoop, chord, tractrix::Spacing::chord)
    ->DenseRange(0, 1)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BuildAlignment)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);
#if defined(TRACTRIX_BENCH_LANDXML)
BENCHMARK(BM_ReadLandXML)->Unit(benchmark::kMillisecond);
#endif
BENCHMARK_MAIN();
