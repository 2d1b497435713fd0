// Many threads on shared tracks: tracks, routes, networks and measured paths are immutable and
// shared, so any number of threads may query them at once while others copy and drop handles to
// the same data or build new ones. Every thread's answers are compared, bit for bit, with the
// same queries asked by one thread before; the tsan preset runs this binary under
// ThreadSanitizer, which reports any access the sharing does not make safe.
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <thread>
#include <vector>

#include "support/catch.hpp"
#include "support/pieces.hpp"
#include "support/properties.hpp"
#include "support/same_pose.hpp"
#include "tractrix/tractrix.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

// Iterations per thread: TRACTRIX_THREAD_ROUNDS (default 200), so a long run is an environment
// variable away.
int rounds() {
  return static_cast<int>(env_count("TRACTRIX_THREAD_ROUNDS", 200));
}

// Everything the threads share, built once.
struct Scene {
  MeasuredPath<double> path;
  Track<double> track;  // rotation-minimizing up: the frames are shared too
  Network<double> network;
  Route<double> route;
  SpeedLimits<double> limits;
  std::vector<Wagon<double>> wagons;
};

Scene make_scene() {
  std::mt19937_64 rng = make_rng(71);
  const auto points = random_loop_points<double>(rng, 12, 200.0);
  auto path = *MeasuredPath<double>::build(Path<double, 3>::catmull_rom(points, Closure::closed));
  auto track =
      *Track<double>::build(path, UpSource<double>::rotation_minimizing(path, Vector3d::UnitY()));
  // The same loop cut into four pieces joined end to end, the odd ones stored backwards.
  std::vector<Track<double>> pieces;
  std::vector<Step> steps;
  const std::size_t cuts[] = {0, 3, 6, 9, 12};
  for (std::size_t k = 0; k < 4; ++k) {
    const bool turn = k % 2 == 1;
    pieces.push_back(piece_of(path.path(), cuts[k], cuts[k + 1], turn));
    steps.push_back({k, turn ? Direction::backward : Direction::forward});
  }
  std::vector<std::vector<PieceEnd>> joints;
  for (std::size_t k = 0; k < 4; ++k)
    joints.push_back({steps[k].exit(), steps[(k + 1) % 4].entry()});
  auto network = *Network<double>::build(std::move(pieces), joints);
  auto route = *Route<double>::build(network, steps, Closure::closed);
  auto limits = *SpeedLimits<double>::line(track.length(), 30.0)
                     ->with_zones({{0.2 * track.length(), 0.3 * track.length(), 12.0}});
  std::vector<Wagon<double>> wagons;
  for (int i = 0; i < 24; ++i)
    wagons.push_back({12.0 + (i % 3), 9.0});
  return {std::move(path),  std::move(track),  std::move(network),
          std::move(route), std::move(limits), std::move(wagons)};
}

// One thread's work for round r: a bit pattern of everything it asked, to compare.
struct Answers {
  std::vector<WagonPose<double>> on_track, on_route;
  std::vector<Frame<double>> frames;
  std::vector<double> closest, on_network, plan;

  bool operator==(const Answers& o) const {
    for (std::size_t i = 0; i < on_track.size(); ++i)
      if (!same_pose(on_track[i], o.on_track[i]) || !same_pose(on_route[i], o.on_route[i]))
        return false;
    for (std::size_t i = 0; i < frames.size(); ++i)
      if (frames[i].origin != o.frames[i].origin || frames[i].rotation != o.frames[i].rotation)
        return false;
    return closest == o.closest && on_network == o.on_network && plan == o.plan;
  }
};

Answers ask(const Scene& scene, int round) {
  Answers a;
  const double L = scene.track.length(), head = L * (0.013 * round + 0.1);
  // Trains built here on the shared track and route (their solvers copy handles to the data).
  const auto chord =
      *TrainSolver<double>::build(scene.track, scene.wagons, {Wrap::circular, Spacing::chord});
  const auto routed = *TrainSolver<double, Route<double>>::build(scene.route, scene.wagons,
                                                                 {Wrap::circular, Spacing::arc});
  a.on_track = chord.solve(head);
  a.on_route = routed.solve(head);
  for (int k = 0; k < 16; ++k)
    a.frames.push_back(scene.track.frame_at(L * (k + 0.5 * round) / 16));
  ClosestPointCursor<double, 3> cursor;
  NetworkPointCursor<double> network_cursor;
  for (int k = 0; k < 16; ++k) {
    const Vector3d q = scene.path.point_at(L * (k + 0.25 * round) / 16) + Vector3d(3, -2, 1);
    const auto near = scene.path.closest_point(q, cursor);
    a.closest.insert(a.closest.end(), {near.distance, near.squared_distance});
    const auto on = scene.network.closest_point(q, network_cursor);
    a.on_network.insert(a.on_network.end(), {double(on.piece), on.distance});
  }
  const auto plan = *SpeedPlan<double>::build(scene.limits, {30, 1, 1.2, 0.8},
                                              {L * 0.004 * (round % 200), 0, 0}, 0.9 * L);
  for (int k = 0; k <= 8; ++k)
    a.plan.push_back(plan.at(plan.duration() * k / 8).position);
  return a;
}

}  // namespace

TEST_CASE("threads: shared tracks, routes and networks answer every thread as one", "[threads]") {
  const Scene scene = make_scene();
  const int n = rounds();
  std::vector<Answers> expected;
  for (int r = 0; r < n; ++r)
    expected.push_back(ask(scene, r));

  constexpr int askers = 6, builders = 2;
  std::atomic<int> mismatches{0}, built{0};
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < askers; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < n; ++r) {
        const int round = (r + 7 * t) % n;  // the threads ask in different orders
        if (!(ask(scene, round) == expected[std::size_t(round)])) ++mismatches;
      }
    });
  // Meanwhile: handles to the shared data copied and dropped (its reference counts), and new
  // measured paths and tracks built from the shared path and thrown away.
  for (int t = 0; t < builders; ++t)
    threads.emplace_back([&] {
      while (!done.load()) {
        const MeasuredPath<double> copy = scene.path;
        const Track<double> track_copy = scene.track;
        const Route<double> route_copy = scene.route;
        const auto rebuilt = MeasuredPath<double>::build(copy.path());
        const auto track = Track<double>::build(rebuilt, UpSource<double>::world());
        if (rebuilt && track && copy.shares_data_with(scene.path) && route_copy.length() > 0 &&
            track_copy.length() > 0)
          ++built;
      }
    });
  for (int t = 0; t < askers; ++t)
    threads[std::size_t(t)].join();
  done = true;
  for (std::size_t t = askers; t < threads.size(); ++t)
    threads[t].join();
  CHECK(mismatches.load() == 0);
  CHECK(built.load() > 0);
}
