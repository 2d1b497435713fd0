// The trains and tracks of the train benchmarks: random wagons, wobbly closed loops sized to
// 1.3× the longest train, built once per size and cached.
#pragma once

#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "tractrix/tractrix.hpp"

namespace tractrix::bench {

using S = double;

inline constexpr S mean_wagon_length = 15;

inline std::vector<tractrix::Wagon<S>> make_train(long count) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<S> length(10, 20), ratio(0.55, 0.8);
  std::vector<tractrix::Wagon<S>> wagons(static_cast<std::size_t>(count));
  for (auto& w : wagons) {
    w.length = length(rng);
    w.bogie_distance = w.length * ratio(rng);
  }
  return wagons;
}

// A wobbly loop through `segments` keys whose length is ~1.3× the longest train it carries.
inline const tractrix::Path<S>& loop(long segments) {
  static std::map<long, std::unique_ptr<tractrix::Path<S>>> cache;
  auto& slot = cache[segments];
  if (!slot) {
    const S radius = 1.3 * 1e6 * mean_wagon_length / (2 * 3.141592653589793);
    std::vector<Vector3<S>> points;
    for (long k = 0; k < segments; ++k) {
      const S angle = 2 * 3.141592653589793 * static_cast<S>(k) / static_cast<S>(segments);
      const S r = radius * (1 + 0.1 * std::sin(5 * angle));
      points.emplace_back(r * std::cos(angle), 0.01 * radius * std::sin(3 * angle),
                          r * std::sin(angle));
    }
    slot = std::make_unique<tractrix::Path<S>>(
        *tractrix::Path<S>::catmull_rom(points, Closure::closed));
  }
  return *slot;
}

inline const tractrix::Track<S>& track(long segments) {
  static std::map<long, std::unique_ptr<tractrix::Track<S>>> cache;
  auto& slot = cache[segments];
  if (!slot)
    slot = std::make_unique<Track<S>>(*Track<S>::build(MeasuredPath<S>::build(loop(segments))));
  return *slot;
}

// Items per second and ns_per_wagon (CPU time per wagon, as an inverted rate).
inline void count_wagons(benchmark::State& state, long wagons) {
  state.SetItemsProcessed(state.iterations() * wagons);
  state.counters["ns_per_wagon"] = benchmark::Counter(
      static_cast<double>(wagons) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace tractrix::bench
