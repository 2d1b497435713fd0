// Frame queries along a path, per sample, against a bare point + tangent evaluation in the same
// run: world up, rail, roll profile on world up, rotation-minimizing frames.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "frame_loop.hpp"
#include "tractrix/tractrix.hpp"

namespace {

using S = double;
using tractrix::Vector3d;

struct Setup {
  tractrix::MeasuredPath<S> path, rail;
  std::vector<S> distances;
};

const Setup& setup() {
  static const Setup s = [] {
    auto [path, rail] = tractrix::bench::frame_loop_and_rail();
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<S> d(0, path.length());
    std::vector<S> distances(4096);
    for (auto& x : distances)
      x = d(rng);
    return Setup{std::move(path), std::move(rail), std::move(distances)};
  }();
  return s;
}

// The bare evaluation a frame query needs anyway: exact distance → parameter, point and tangent.
void BM_PointTangentAtDistance(benchmark::State& state) {
  const auto& s = setup();
  std::size_t i = 0, cursor = 0;
  for (auto _ : state) {
    const S t = s.path.parameter_at(s.distances[i++ % 4096], cursor);
    benchmark::DoNotOptimize(s.path.path().evaluate(t));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PointTangentAtDistance);

void frame_query(benchmark::State& state, const tractrix::UpSource<S>& up) {
  const auto& s = setup();
  std::size_t i = 0, cursor = 0;
  for (auto _ : state) {
    const S distance = s.distances[i++ % 4096];
    const S t = s.path.parameter_at(distance, cursor);
    const auto pt = s.path.path().evaluate(t);
    const Vector3d tangent = pt.tangent.normalized();
    benchmark::DoNotOptimize(tractrix::look_at(
        pt.point, tangent, up.up_at(distance, s.path.length(), pt.point, tangent)));
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_FrameWorldUp(benchmark::State& state) {
  frame_query(state, *tractrix::UpSource<S>::world());
}
BENCHMARK(BM_FrameWorldUp);

void BM_FrameRail(benchmark::State& state) {
  frame_query(state, *tractrix::UpSource<S>::rail(setup().rail));
}
BENCHMARK(BM_FrameRail);

void BM_FrameRailClosestPoint(benchmark::State& state) {
  frame_query(state,
              *tractrix::UpSource<S>::rail(setup().rail, tractrix::RailMatch::closest_point));
}
BENCHMARK(BM_FrameRailClosestPoint);

void BM_FrameWorldUpWithRoll(benchmark::State& state) {
  const S length = setup().path.length();
  auto roll = *tractrix::RollProfile<S>::build({0, length / 4, length / 2, 3 * length / 4},
                                               {0, 0.2, -0.1, 0.3}, length);
  frame_query(state, tractrix::UpSource<S>::world()->with_roll(roll));
}
BENCHMARK(BM_FrameWorldUpWithRoll);

void BM_FrameRotationMinimizing(benchmark::State& state) {
  frame_query(state, *tractrix::UpSource<S>::rotation_minimizing(setup().path));
}
BENCHMARK(BM_FrameRotationMinimizing);

}  // namespace

BENCHMARK_MAIN();
