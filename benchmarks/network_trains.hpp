// 1000 trains of 20 wagons on a family track cut into pieces, each train on its own short route
// (Route::around, as a game keeps one), and the same trains on the track as one curve: shared by
// network_benchmark and callgrind/network_trains.cpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include <tractrix/tractrix.hpp>

#include "track_family.hpp"

namespace tractrix::bench {

constexpr std::size_t trains = 1000, wagons_per_train = 20;

inline std::vector<Wagon<double>> train() {
  std::vector<Wagon<double>> w;
  for (std::size_t i = 0; i < wagons_per_train; ++i)
    w.push_back({4.0 + double(i % 3), 3.0 + 0.5 * double(i % 2)});
  return w;
}

// The track's segments cut into `pieces` pieces of (about) equal segment counts, each measured to
// 1e-12 of `length_scale` (ArcLengthSettings; 0: of its own length); with `compile_each`, each
// piece compiled on its own before the network is built (its cells in heap blocks of their own,
// not in the one block Network::compiled makes).
inline Network<double> network_of(const Path<double>& path, std::size_t pieces,
                                  double length_scale = 0.0, bool compile_each = false) {
  std::vector<Track<double>> tracks;
  std::vector<std::vector<PieceEnd>> joints;
  const std::size_t n = path.size();
  for (std::size_t k = 0; k < pieces; ++k) {
    std::vector<CubicBezier<double, 3>> segments;
    for (std::size_t i = n * k / pieces; i < n * (k + 1) / pieces; ++i)
      segments.push_back(path.segment(i));
    tracks.push_back(*Track<double>::build(
        MeasuredPath<double>::build(Path<double>::from_segments(segments, Closure::open),
                                    {0, ArcLengthMethod::gauss_legendre, length_scale})));
    if (compile_each) tracks.back() = tracks.back().compiled();
    joints.push_back({{k, End::end}, {(k + 1) % pieces, End::start}});
  }
  // Catmull–Rom joins are G1 to rounding; hand the checks a tolerance that says so.
  return *Network<double>::build(std::move(tracks), joints, {1e-9, 1e-6});
}

struct NetworkTrains {
  std::vector<TrainSolver<double, Route<double>>> on_routes;
  std::vector<TrainSolver<double>> on_curve;
  std::vector<double> route_heads, curve_heads;
  std::vector<WagonPose<double>> poses;
};

// `compiled`: 1, the network's pieces and the whole curve compiled (Network::compiled: the
// pieces' cells in one block; Track::compiled); 2, the same but each piece compiled on its own
// before Network::build (its own heap blocks, what Network::compiled did before the block).
inline NetworkTrains network_trains(TrackShape shape, Spacing spacing, int compiled = 0) {
  const Path<double> path = track_path(shape);
  const std::size_t pieces = std::min<std::size_t>(10000, path.size());
  auto whole = *Track<double>::build(MeasuredPath<double>::build(path));
  // The pieces as accurate as the whole curve: 1e-12 of its length, not of each piece's.
  Network<double> network = network_of(path, pieces, whole.length(), compiled == 2);
  if (compiled == 1) network = network.compiled();
  if (compiled != 0) whole = whole.compiled();
  const SwitchSettings settings = network.default_settings();
  NetworkTrains f;
  double train_length = 0.0;
  for (const auto& w : train())
    train_length += w.length;
  for (std::size_t k = 0; k < trains; ++k) {
    const std::size_t start = k * pieces / trains;
    // The route a moving train holds: its own pieces and a little beyond, either way.
    const auto seed =
        *Route<double>::follow(network, settings, {start, Direction::forward}, train_length + 10.0);
    const auto moved = *seed.around(train_length + 5.0, train_length, settings, 10.0, 10.0);
    f.on_routes.push_back(
        *TrainSolver<double, Route<double>>::build(moved.route, train(), {Wrap::clamp, spacing}));
    f.route_heads.push_back(moved.head);
    f.on_curve.push_back(*TrainSolver<double>::build(whole, train(), {Wrap::circular, spacing}));
    f.curve_heads.push_back(whole.length() * double(k) / double(trains) + train_length + 5.0);
  }
  f.poses.resize(trains * wagons_per_train);
  return f;
}

}  // namespace tractrix::bench
