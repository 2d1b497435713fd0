// Long trains on closed tracks: tractrix's TrainSolver (arc and chord spacing) against a port of
// the seed's TrainDriver algorithm (tests/support/seed_train_driver.hpp) in the same run.
// Arguments: wagons, track segments. Counters: ns_per_wagon, and the spacing error measured on
// 1000 wagons spread along the train before timing (relative to the track length).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "support/seed_train_driver.hpp"
#include "track_family.hpp"
#include "tractrix/tractrix.hpp"
#include "train_fixtures.hpp"

namespace {

using tractrix::bench::loop;
using tractrix::bench::make_train;
using tractrix::bench::S;
using tractrix::bench::track;

S off_track(const tractrix::Track<S>& t, const tractrix::Frame<S>& bogie, S distance) {
  return (t.path().point_at(distance) - bogie.origin).norm();
}

void report(benchmark::State& state, long wagons, S error) {
  tractrix::bench::count_wagons(state, wagons);
  state.counters["spacing_error"] = error;
}

void BM_TrainSolver(benchmark::State& state, tractrix::Spacing spacing) {
  const long count = state.range(0), segments = state.range(1);
  const auto& t = track(segments);
  const auto wagons = make_train(count);
  const auto solver =
      *tractrix::TrainSolver<S>::build(t, wagons, {tractrix::Wrap::circular, spacing});
  std::vector<tractrix::WagonPose<S>> poses(wagons.size());
  const S head = 0.37 * t.length();
  solver.solve(head, poses.data());
  // Accuracy first: the bogies' spacing on 1000 wagons along the train.
  S error = 0;
  for (std::size_t i = 0; i < poses.size(); i += poses.size() / 1000) {
    const auto& p = poses[i];
    error = std::max(
        {error, off_track(t, p.front, p.front_distance), off_track(t, p.rear, p.rear_distance)});
    if (spacing == tractrix::Spacing::chord)
      error = std::max(
          error, std::abs((p.front.origin - p.rear.origin).norm() - wagons[i].bogie_distance));
  }
  for (auto _ : state) {
    solver.solve(head, poses.data());
    benchmark::DoNotOptimize(poses.data());
    benchmark::ClobberMemory();
  }
  report(state, count, error / t.length());
}

void BM_SeedTrainDriver(benchmark::State& state) {
  const long count = state.range(0), segments = state.range(1);
  const auto& path = loop(segments);
  const auto wagons = make_train(count);
  const tractrix::test::SeedTrainDriver<S> seed(path, 16);
  std::vector<tractrix::test::SeedTrainDriver<S>::CarPose> poses(wagons.size());
  seed.run(wagons, 0.37, true, poses.data());
  // Its spacing error: where its rear bogies sit against the exact arc-length point.
  const auto& t = track(segments);
  S error = 0;
  S front = 0.37 * t.length();
  for (std::size_t i = 0; i < poses.size(); ++i) {
    if (i % (poses.size() / 1000) == 0) {
      error =
          std::max(error, off_track(t, poses[i].wheel1, tractrix::detail::wrap(front, t.length())));
      error = std::max(
          error, off_track(t, poses[i].wheel2,
                           tractrix::detail::wrap(front - wagons[i].bogie_distance, t.length())));
    }
    front -= wagons[i].length;
  }
  for (auto _ : state) {
    seed.run(wagons, 0.37, true, poses.data());
    benchmark::DoNotOptimize(poses.data());
    benchmark::ClobberMemory();
  }
  report(state, count, error / t.length());
}

// The output floor: only writing a WagonPose per wagon (360 bytes), no geometry at all.
void BM_WritePosesOnly(benchmark::State& state) {
  const long count = state.range(0);
  std::vector<tractrix::WagonPose<S>> poses(static_cast<std::size_t>(count));
  tractrix::WagonPose<S> value;
  for (auto _ : state) {
    for (auto& p : poses) {
      value.front_distance += 1e-9;
      p = value;
    }
    benchmark::DoNotOptimize(poses.data());
    benchmark::ClobberMemory();
  }
  report(state, count, 0);
}

// Building a solver for 10⁴ wagons of all-distinct lengths (4–6 units, bogies 55–80 % of the
// length) on each track of the family: chord spacing checks every distinct chord is solvable;
// arc spacing, which checks nothing beyond the wagons' fields, is its peer.
void BM_BuildDistinctWagons(benchmark::State& state, tractrix::Spacing spacing) {
  const auto shape = tractrix::bench::track_shapes[state.range(0)];
  const auto t = *tractrix::Track<S>::build(
      tractrix::MeasuredPath<S>::build(tractrix::bench::track_path(shape)));
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<S> length(4, 6), ratio(0.55, 0.8);
  std::vector<tractrix::Wagon<S>> wagons(10000);
  for (auto& w : wagons) {
    w.length = length(rng);
    w.bogie_distance = w.length * ratio(rng);
  }
  for (auto _ : state) {
    auto solver = tractrix::TrainSolver<S>::build(t, wagons, {tractrix::Wrap::circular, spacing});
    if (!solver) state.SkipWithError(solver.error().message.c_str());
    benchmark::DoNotOptimize(solver);
  }
  state.SetLabel(tractrix::bench::name_of(shape));
}

// 2000 wagons of 4–6 units on each track of the family, measured and compiled in the same run
// (Track::compiled; their ratio is what compiling gains).
void BM_TrainOnFamily(benchmark::State& state, tractrix::Spacing spacing, bool compiled,
                      bool chords = false) {
  const auto shape = tractrix::bench::track_shapes[state.range(0)];
  auto t = *tractrix::Track<S>::build(
      tractrix::MeasuredPath<S>::build(tractrix::bench::track_path(shape)));
  if (compiled) t = t.compiled();
  std::vector<tractrix::Wagon<S>> wagons;
  for (int i = 0; i < 2000; ++i)
    wagons.push_back({4.0 + (i % 3), 2.5 + 0.5 * (i % 2)});
  auto solver = *tractrix::TrainSolver<S>::build(t, wagons, {tractrix::Wrap::circular, spacing});
  if (chords) solver = solver.compiled_chords();
  std::vector<tractrix::WagonPose<S>> poses(wagons.size());
  S head = 100;
  for (auto _ : state) {
    solver.solve(head, poses.data());
    head += 0.37;
    benchmark::DoNotOptimize(poses.data());
    benchmark::ClobberMemory();
  }
  tractrix::bench::count_wagons(state, 2000);
  state.SetLabel(tractrix::bench::name_of(shape));
}

// Building on each track of the family: the measured path (its table), and compiling it.
void BM_BuildOnFamily(benchmark::State& state, bool compile) {
  const auto shape = tractrix::bench::track_shapes[state.range(0)];
  const auto path = tractrix::bench::track_path(shape);
  const auto measured = *tractrix::MeasuredPath<S>::build(path);
  for (auto _ : state) {
    if (compile) {
      auto compiled = tractrix::CompiledPath<S>::build(measured);
      benchmark::DoNotOptimize(compiled);
    } else {
      auto built = tractrix::MeasuredPath<S>::build(path);
      benchmark::DoNotOptimize(built);
    }
  }
  state.SetLabel(tractrix::bench::name_of(shape));
}

// Compiling the chords of BM_TrainOnFamily's wagons (five distinct chords) on each track of the
// family, compiled track.
void BM_CompileChordsOnFamily(benchmark::State& state) {
  const auto shape = tractrix::bench::track_shapes[state.range(0)];
  const auto t = tractrix::Track<S>::build(
                     tractrix::MeasuredPath<S>::build(tractrix::bench::track_path(shape)))
                     ->compiled();
  std::vector<tractrix::Wagon<S>> wagons;
  for (int i = 0; i < 2000; ++i)
    wagons.push_back({4.0 + (i % 3), 2.5 + 0.5 * (i % 2)});
  const auto solver = *tractrix::TrainSolver<S>::build(
      t, wagons, {tractrix::Wrap::circular, tractrix::Spacing::chord});
  std::size_t bytes = 0;
  for (auto _ : state) {
    const auto compiled = solver.compiled_chords();
    bytes = compiled.compiled_chord_bytes();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["bytes_per_segment"] = double(bytes) / double(t.path().path().size());
  state.SetLabel(tractrix::bench::name_of(shape));
}

void family(benchmark::internal::Benchmark* b) {
  b->DenseRange(0, 5)->Unit(benchmark::kMicrosecond);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (long segments : {100L, 10000L, 1000000L})
    for (long wagons : {10000L, 100000L, 1000000L})
      b->Args({wagons, segments});
  b->Unit(benchmark::kMillisecond);
}

BENCHMARK_CAPTURE(BM_TrainSolver, arc, tractrix::Spacing::arc)->Apply(sizes);
BENCHMARK_CAPTURE(BM_TrainSolver, chord, tractrix::Spacing::chord)->Apply(sizes);
BENCHMARK(BM_SeedTrainDriver)->Apply(sizes);
BENCHMARK(BM_WritePosesOnly)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BuildDistinctWagons, chord, tractrix::Spacing::chord)
    ->DenseRange(0, 5)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BuildDistinctWagons, arc, tractrix::Spacing::arc)
    ->DenseRange(0, 5)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_CAPTURE(BM_TrainOnFamily, arc_measured, tractrix::Spacing::arc, false)->Apply(family);
BENCHMARK_CAPTURE(BM_TrainOnFamily, arc_compiled, tractrix::Spacing::arc, true)->Apply(family);
BENCHMARK_CAPTURE(BM_TrainOnFamily, chord_measured, tractrix::Spacing::chord, false)->Apply(family);
BENCHMARK_CAPTURE(BM_TrainOnFamily, chord_compiled, tractrix::Spacing::chord, true)->Apply(family);
BENCHMARK_CAPTURE(BM_TrainOnFamily, chord_compiled_chords, tractrix::Spacing::chord, true, true)
    ->Apply(family);
BENCHMARK(BM_CompileChordsOnFamily)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BuildOnFamily, measure, false)->Apply(family);
BENCHMARK_CAPTURE(BM_BuildOnFamily, compile, true)->Apply(family);
BENCHMARK_MAIN();
