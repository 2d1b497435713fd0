// Frame queries along a path, per sample, against a bare point + tangent evaluation in the same
// run: world up, rail, roll profile on world up, rotation-minimizing frames.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

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
    std::vector<Vector3d> points, rail_points;
    for (int k = 0; k < 256; ++k) {
      const S angle = 2 * 3.141592653589793 * k / 256;
      const S r = 500 * (1 + 0.1 * std::sin(5 * angle));
      points.emplace_back(r * std::cos(angle), 20 * std::sin(3 * angle), r * std::sin(angle));
      rail_points.emplace_back((r + 1) * std::cos(angle), 20 * std::sin(3 * angle) + 1.5,
                               (r + 1) * std::sin(angle));
    }
    using tractrix::Closure;
    auto path =
        *tractrix::MeasuredPath<S>::build(tractrix::Path<S>::catmull_rom(points, Closure::closed));
    auto rail = *tractrix::MeasuredPath<S>::build(
        tractrix::Path<S>::catmull_rom(rail_points, Closure::closed));
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
  frame_query(state, tractrix::UpSource<S>::rail(setup().rail));
}
BENCHMARK(BM_FrameRail);

void BM_FrameRailClosestPoint(benchmark::State& state) {
  frame_query(state, tractrix::UpSource<S>::rail(setup().rail, tractrix::RailMatch::closest_point));
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
