// The OpenMP train solves (built with TRACTRIX_OPENMP and -fopenmp) on 1 and 2 threads, in one
// run. BM_TrainSolverThreads: one long arc-spaced train, 10⁵ and 10⁶ wagons on a 10⁴-segment
// loop, into WagonPose (arguments: wagons, threads). BM_ManyTrains: 1000 trains of 1000 wagons
// on tracks of the family, measured and compiled (chord spacing also with compiled chords), into
// an engine's compact float poses (the centred body: position + quaternion, 28 bytes) and,
// beside them, into WagonPose (368 bytes).
// CPU time would add up the threads' time, so the timings here are real (wall-clock) time.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <string>
#include <vector>

#include "track_family.hpp"
#include "train_fixtures.hpp"

namespace {

using tractrix::bench::S;

void BM_TrainSolverThreads(benchmark::State& state) {
  const long count = state.range(0);
  const int threads = static_cast<int>(state.range(1));
  const auto& t = tractrix::bench::track(10000);
  const auto solver = *tractrix::TrainSolver<S>::build(
      t, tractrix::bench::make_train(count), {tractrix::Wrap::circular, tractrix::Spacing::arc});
  std::vector<tractrix::WagonPose<S>> poses(static_cast<std::size_t>(count));
  omp_set_num_threads(threads);
  for (auto _ : state) {
    solver.solve(0.37 * t.length(), poses.data());
    benchmark::DoNotOptimize(poses.data());
    benchmark::ClobberMemory();
  }
  tractrix::bench::count_wagons(state, count);  // with UseRealTime: wall-clock per wagon
}
BENCHMARK(BM_TrainSolverThreads)
    ->Args({100000, 1})
    ->Args({100000, 2})
    ->Args({1000000, 1})
    ->Args({1000000, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// Arguments: track shape (family index), spacing (0 arc, 1 chord), compiled (0/1), output (0
// compact float poses, 1 WagonPose), threads.
void BM_ManyTrains(benchmark::State& state) {
  using tractrix::bench::S;
  const auto shape = tractrix::bench::track_shapes[state.range(0)];
  const auto spacing = state.range(1) ? tractrix::Spacing::chord : tractrix::Spacing::arc;
  // compiled: 1 the track, 2 the track and the chords (TrainSolver::compiled_chords).
  const bool compiled = state.range(2) != 0, chords = state.range(2) == 2,
             compact = state.range(3) == 0;
  const int threads = static_cast<int>(state.range(4));
  auto track = *tractrix::Track<S>::build(
      tractrix::MeasuredPath<S>::build(tractrix::bench::track_path(shape)));
  if (compiled) track = track.compiled();
  constexpr std::size_t trains = 1000, wagons = 1000, total = trains * wagons;
  std::vector<tractrix::Wagon<S>> train;
  for (std::size_t i = 0; i < wagons; ++i)
    train.push_back({4.0 + double(i % 3), 2.5 + 0.5 * double(i % 2)});
  auto first = *tractrix::TrainSolver<S>::build(track, train, {tractrix::Wrap::circular, spacing});
  if (chords) first = first.compiled_chords();  // compiled once; the copies share it
  std::vector<tractrix::TrainSolver<S>> solvers(trains, first);
  std::vector<S> heads;
  for (std::size_t k = 0; k < trains; ++k)
    heads.push_back(track.length() * double(k) / double(trains));
  std::vector<float> records(compact ? 7 * total : 0);
  std::vector<tractrix::WagonPose<S>> poses(compact ? 0 : total);
  tractrix::WagonPoseArrays<float> out;
  out.body_centered = tractrix::PoseArray<float>::poses(records.data(), records.size() / 7);
  omp_set_num_threads(threads);
  for (auto _ : state) {
    if (compact) {
      tractrix::solve_trains(solvers.data(), heads.data(), trains, out);
    } else {
      // The WagonPose batch has no threads of its own: split the trains as an engine would.
#pragma omp parallel for schedule(static)
      for (std::size_t k = 0; k < trains; ++k)
        solvers[k].solve(heads[k], poses.data() + k * wagons);
    }
    for (S& head : heads)
      head += 0.37;
    benchmark::DoNotOptimize(records.data());
    benchmark::DoNotOptimize(poses.data());
    benchmark::ClobberMemory();
  }
  state.SetLabel(std::string(tractrix::bench::name_of(shape)) + (compiled ? " compiled" : "") +
                 (chords ? " chords" : "") + (compact ? " compact" : " WagonPose"));
}

void many_trains(benchmark::internal::Benchmark* b) {
  for (long shape : {0L, 2L})
    for (long spacing : {0L, 1L})
      for (long compiled : {0L, 1L, 2L})
        for (long output : {0L, 1L})
          for (long threads : {1L, 2L})
            if (compiled < 2 || (spacing == 1 && output == 0))
              b->Args({shape, spacing, compiled, output, threads});
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_ManyTrains)->Apply(many_trains);

}  // namespace

BENCHMARK_MAIN();
