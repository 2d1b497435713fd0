// The OpenMP train solve (built with TRACTRIX_OPENMP and -fopenmp) on 1 and 2 threads, in one
// run: arc spacing, 10⁵ and 10⁶ wagons on a 10⁴-segment loop. Arguments: wagons, threads.
// CPU time would add up the threads' time, so the timings here are real (wall-clock) time.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <vector>

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

}  // namespace

BENCHMARK_MAIN();
