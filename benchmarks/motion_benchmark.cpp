// A motion sample (profile + exact arc length + derivatives + frame) per call, against a bare
// point + tangent evaluation at a parameter in the same run.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "tractrix/tractrix.hpp"

namespace {

using tractrix::Vector3d;

const tractrix::Path<double>& path() {
  static const auto p = [] {
    std::vector<Vector3d> keys;
    for (int k = 0; k < 64; ++k)
      keys.emplace_back(100 * std::cos(k * 0.1), 10 * std::sin(k * 0.3),
                        100 * std::sin(k * 0.1) + k);
    return *tractrix::Path<double>::catmull_rom(keys, tractrix::Closure::open);
  }();
  return p;
}

std::vector<double> times(double hi) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(0, hi);
  std::vector<double> v(4096);
  for (auto& x : v)
    x = u(rng);
  return v;
}

void BM_BareEvaluate(benchmark::State& state) {
  const auto ts = times(path().end_parameter());
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(path().evaluate(ts[i++ % 4096]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BareEvaluate);

void BM_MotionSample(benchmark::State& state) {
  const auto measured = *tractrix::MeasuredPath<double>::build(path());
  const auto profile =
      *tractrix::TimeProfile<double>::sine_pieces(10.0, tractrix::ease_fractions(0.2, 0.8));
  const auto up = *tractrix::UpSource<double>::world();
  const auto ts = times(10);
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(tractrix::sample(measured, profile, ts[i++ % 4096], up));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MotionSample);

// Building a jerk-limited S-curve (V = 10, A = 5, J = 10) per regime, by the distance: 100
// cruises at V; 15 meets at a peak that reaches A (A²/J = 2.5 <= v < 10); 1 meets below A. The
// trapezoid with the same V and A is the peer.
void BM_SCurveBuild(benchmark::State& state) {
  const double distances[] = {100, 15, 1};
  const double distance = distances[state.range(0)];
  for (auto _ : state) {
    auto profile = tractrix::TimeProfile<double>::s_curve(distance, 10, 5, 10);
    benchmark::DoNotOptimize(profile);
  }
  const char* regimes[] = {"cruise", "reaches A", "below A"};
  state.SetLabel(regimes[state.range(0)]);
}
BENCHMARK(BM_SCurveBuild)->DenseRange(0, 2);

void BM_TrapezoidBuild(benchmark::State& state) {
  for (auto _ : state) {
    auto profile = tractrix::TimeProfile<double>::trapezoidal(100, 10, 5);
    benchmark::DoNotOptimize(profile);
  }
}
BENCHMARK(BM_TrapezoidBuild);

}  // namespace

BENCHMARK_MAIN();
