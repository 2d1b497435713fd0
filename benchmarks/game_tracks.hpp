// Game-sized tracks and short trains for game_benchmark.cpp and callgrind/game_trains.cpp: a
// curvy 32-key loop of ~500 units (gentle, tight hairpins, noisy hand-placed keys), the long
// gentle loop the long-train reference runs on, and trains of 8–12-unit wagons. Seeded.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "tractrix/tractrix.hpp"

namespace tractrix::bench {

enum class GameTrack { gentle, tight, noisy };

// A ~500-unit loop through 32 keys: radius 80 with a wobble and hills; tight adds hairpin
// swings of ±6 units per key, noisy ±40 % of the key spacing of jitter.
template <class S>
Track<S> game_track(GameTrack shape) {
  const double pi = 3.141592653589793, radius = 80;
  const int keys = 32;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(-1, 1);
  const double spacing = 2 * pi * radius / keys;
  std::vector<Vector3<S>> points;
  for (int k = 0; k < keys; ++k) {
    const double angle = 2 * pi * k / keys;
    double r = radius * (1 + 0.15 * std::sin(3 * angle));
    if (shape == GameTrack::tight) r += (k % 2 ? 6 : -6);
    Eigen::Vector3d p(r * std::cos(angle), 4 * std::sin(2 * angle), r * std::sin(angle));
    if (shape == GameTrack::noisy)
      p += 0.4 * spacing * Eigen::Vector3d(unit(rng), 0.2 * unit(rng), unit(rng));
    points.push_back(p.cast<S>());
  }
  return *Track<S>::build(MeasuredPath<S>::build(Path<S>::catmull_rom(points, Closure::closed)));
}

// The long-train reference: a gentle loop 1.3× the train's length (as train_benchmark's).
template <class S>
Track<S> long_track(long wagons) {
  const double pi = 3.141592653589793, radius = 1.3 * 10.0 * static_cast<double>(wagons) / (2 * pi);
  std::vector<Vector3<S>> points;
  for (int k = 0; k < 1000; ++k) {
    const double angle = 2 * pi * k / 1000;
    const double r = radius * (1 + 0.1 * std::sin(5 * angle));
    points.emplace_back(static_cast<S>(r * std::cos(angle)),
                        static_cast<S>(0.01 * radius * std::sin(3 * angle)),
                        static_cast<S>(r * std::sin(angle)));
  }
  return *Track<S>::build(MeasuredPath<S>::build(Path<S>::catmull_rom(points, Closure::closed)));
}

template <class S>
std::vector<Wagon<S>> game_train(long count) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> length(8, 12), ratio(0.55, 0.8);
  std::vector<Wagon<S>> wagons(static_cast<std::size_t>(count));
  for (auto& w : wagons) {
    const double l = length(rng);
    w.length = static_cast<S>(l);
    w.bogie_distance = static_cast<S>(l * ratio(rng));
  }
  return wagons;
}

}  // namespace tractrix::bench
