// SyncedTrajectory and WaypointTrajectory.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "driving/jerk_reference.hpp"
#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"
#include "tractrix/driving/synced_trajectory.hpp"
#include "tractrix/driving/waypoint_trajectory.hpp"
#include "tractrix/motion/time_profile.hpp"

using namespace tractrix;
using namespace tractrix::test;

// ---- Several axes: SyncedTrajectory --------------------------------------------------------

namespace {

// Axis i of a synced trajectory inside its limits at every sample, and on its target from its
// arrival on.
void check_axis(const SyncedTrajectory<double>& tr, std::size_t i, const JerkLimits<double>& lim,
                double target, double target_velocity) {
  const double T = tr.duration(i);
  for (int k = 0; k <= 400; ++k) {
    const AxisSample<double> s = tr.at(i, T * k / 400);
    CHECK(std::abs(s.velocity) <= lim.max_velocity * (1 + 1e-12));
    CHECK(s.acceleration <= lim.max_acceleration * (1 + 1e-12));
    CHECK(-s.acceleration <= lim.max_deceleration * (1 + 1e-12));
    CHECK(std::abs(s.jerk) <= lim.max_jerk * (1 + 1e-12));
  }
  const AxisSample<double> end = tr.at(i, T);
  CHECK(std::abs(end.position - target) <= 1e-12 * (1 + std::abs(target)));
  CHECK(std::abs(end.velocity - target_velocity) <= 1e-12 * (1 + lim.max_velocity));
  CHECK(end.acceleration == 0);
}

}  // namespace

TEST_CASE("synced trajectory: time synchronization arrives together at the slowest optimum",
          "[motion][jerk][synced]") {
  auto rng = make_rng(158);
  for (int i = 0; i < property_count(100); ++i) {
    std::vector<AxisState<double>> from;
    std::vector<double> to, velocity;
    std::vector<JerkLimits<double>> limits;
    long double slowest = 0;
    const bool rest = i % 2 == 0;
    for (int axis = 0; axis < 3; ++axis) {
      limits.push_back(random_limits<double>(rng));
      const JerkLimits<double>& lim = limits.back();
      double v = 0, a = 0;
      if (!rest) {
        // A start the limits can hold.
        do {
          v = uniform<double>(rng, -1, 1) * lim.max_velocity;
          a = uniform<double>(rng, -1, 1) * std::min(lim.max_acceleration, lim.max_deceleration);
        } while (!holdable(v, a, lim));
      }
      from.push_back({uniform<double>(rng, -3, 3), v, a});
      to.push_back(uniform<double>(rng, -5, 5));
      velocity.push_back(rest ? 0 : uniform<double>(rng, -1, 1) * lim.max_velocity);
      slowest = std::max(slowest, reference_duration(v, a, to.back() - from.back().position,
                                                     velocity.back(), lim));
    }
    INFO("case " << i);
    const auto tr = SyncedTrajectory<double>::to_position(from, to, velocity, limits);
    REQUIRE(tr);
    CHECK(tr->synchronization() == Synchronization::time);
    CHECK(tr->duration() >= double(slowest) * (1 - 1e-10));
    // From rest every duration past the optimum is met (a lower cruise): the slowest's.
    if (rest) CHECK(std::abs(tr->duration() - double(slowest)) <= 1e-10 * double(slowest));
    for (std::size_t axis = 0; axis < 3; ++axis) {
      CHECK(tr->duration(axis) == tr->duration());
      check_axis(*tr, axis, limits[axis], to[axis], velocity[axis]);
    }
    // Without synchronization each axis keeps its own optimum.
    const auto free =
        SyncedTrajectory<double>::to_position(from, to, velocity, limits, Synchronization::none);
    REQUIRE(free);
    double latest = 0;
    for (std::size_t axis = 0; axis < 3; ++axis) {
      const long double own =
          reference_duration(from[axis].velocity, from[axis].acceleration,
                             to[axis] - from[axis].position, velocity[axis], limits[axis]);
      CHECK(std::abs(free->duration(axis) - double(own)) <= 1e-10 * double(own + 1));
      latest = std::max(latest, free->duration(axis));
    }
    CHECK(free->duration() == latest);
  }
}

TEST_CASE("synced trajectory: a common duration one axis cannot meet moves on past its gap",
          "[motion][jerk][synced]") {
  // An axis that must reverse (moving back at 0.68 to a target 1.17 behind, arriving at 1.0):
  // it arrives at the earliest in 1.468 s, and next from 2.897 s on — Ruckig 0.19.4 blocks the
  // durations between too (with minimum_duration 1.908 it returns 2.897228541821897 s). A
  // second axis whose optimum, 1.9 s, falls inside that gap.
  const JerkLimits<double> lim{1.65, 0.93, 2.59, 1.39};
  const AxisState<double> from{0, -0.68, 0.4};
  const double target = -1.17, target_velocity = -1.0;
  const auto own = JerkTrajectory<double>::to_position(from, target, target_velocity, lim);
  REQUIRE(own);
  REQUIRE(own->duration() < 1.5);
  const auto refused =
      JerkTrajectory<double>::to_position_in(1.9, from, target, target_velocity, lim);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ErrorCode::no_solution);
  CHECK(refused.error().message.find("the time-optimal takes 1.46796391 s; the next duration met "
                                     "is 2.89722854 s") != std::string::npos);
  const auto next =
      JerkTrajectory<double>::to_position_no_sooner(1.9, 0, from, target, target_velocity, lim);
  REQUIRE(next);
  CHECK(std::abs(next->duration() - 2.897228541821897) <= 1e-12 * 2.9);
  // On whole cycles of 0.25 s: 3 s, the first after the gap's end.
  const auto cycled =
      JerkTrajectory<double>::to_position_no_sooner(1.9, 0.25, from, target, target_velocity, lim);
  REQUIRE(cycled);
  CHECK(std::abs(cycled->duration() - 3) <= 1e-13);
  CHECK(JerkTrajectory<double>::to_position_no_sooner(-1, 0, from, target, target_velocity, lim)
            .error()
            .code == ErrorCode::out_of_range);
  // Rest to rest under v 1, a 1, j 1 without reaching the acceleration (v_p <= a²/j): each change
  // takes 2√(v_p/j), so T = 4√(v_p/j) and D = v_p T/2; for T = 1.9, v_p = (T/4)².
  const double T2 = 1.9, distance = (T2 / 4) * (T2 / 4) * T2 / 2;
  const JerkLimits<double> slow{1, 1, 1, 1};
  const std::vector<AxisState<double>> starts{from, {0, 0, 0}};
  const auto tr = SyncedTrajectory<double>::to_position(starts, {target, distance},
                                                        {target_velocity, 0}, {lim, slow});
  REQUIRE(tr);
  // Ruckig's time synchronization of the same two axes: 2.897228541821897 s.
  CHECK(std::abs(tr->duration() - 2.897228541821897) <= 1e-12 * 2.9);
  // The earliest after the gap: the axis refuses a duration a hair shorter.
  CHECK_FALSE(JerkTrajectory<double>::to_position_in(tr->duration() * (1 - 1e-9), from, target,
                                                     target_velocity, lim));
  check_axis(*tr, 0, lim, target, target_velocity);
  check_axis(*tr, 1, slow, distance, 0);
  const auto second = JerkTrajectory<double>::to_position({0, 0, 0}, distance, 0, slow);
  REQUIRE(second);
  CHECK(std::abs(second->duration() - T2) <= 1e-14 * T2);
}

TEST_CASE("synced trajectory: phase synchronization moves on the straight line",
          "[motion][jerk][synced]") {
  auto rng = make_rng(159);
  int checked = 0;
  for (int i = 0; i < property_count(100); ++i) {
    std::vector<JerkLimits<double>> limits;
    std::vector<AxisState<double>> from;
    std::vector<double> to, velocity;
    double u[3], norm = 0;
    for (double& c : u) {
      c = uniform<double>(rng, -1, 1);
      norm += c * c;
    }
    norm = std::sqrt(norm);
    const double length = uniform<double>(rng, 0.1, 8);
    // Along the line: a start speed and acceleration, a target speed (every other case rest).
    const bool rest = i % 2 == 0;
    const double s_v = rest ? 0 : uniform<double>(rng, -0.3, 0.3);
    const double s_a = rest ? 0 : uniform<double>(rng, -0.1, 0.1);
    const double s_target = rest ? 0 : uniform<double>(rng, 0, 0.3);
    // The line's limits: the strictest of the axes' over |u_i| (an axis going backwards along
    // the line brakes its acceleration with its own).
    JerkLimits<double> line{1e300, 1e300, 1e300, 1e300};
    for (int axis = 0; axis < 3; ++axis) {
      const double ui = u[axis] / norm;
      limits.push_back(random_limits<double>(rng));
      const JerkLimits<double>& lim = limits.back();
      const double p = uniform<double>(rng, -3, 3);
      from.push_back({p, s_v * ui, s_a * ui});
      to.push_back(p + length * ui);
      velocity.push_back(s_target * ui);
      const double w = std::abs(ui);
      line.max_velocity = std::min(line.max_velocity, lim.max_velocity / w);
      line.max_acceleration = std::min(line.max_acceleration,
                                       (ui > 0 ? lim.max_acceleration : lim.max_deceleration) / w);
      line.max_deceleration = std::min(line.max_deceleration,
                                       (ui > 0 ? lim.max_deceleration : lim.max_acceleration) / w);
      line.max_jerk = std::min(line.max_jerk, lim.max_jerk / w);
    }
    INFO("case " << i);
    if (std::abs(s_target) > line.max_velocity) continue;  // a target velocity an axis refuses
    const auto tr =
        SyncedTrajectory<double>::to_position(from, to, velocity, limits, Synchronization::phase);
    REQUIRE(tr);
    // A start the line's limits cannot hold is synchronized in time instead.
    if (!holdable(s_v, s_a, line)) {
      CHECK(tr->synchronization() == Synchronization::time);
      continue;
    }
    ++checked;
    CHECK(tr->synchronization() == Synchronization::phase);
    // The time-optimal move along the line, by the long-double reference.
    const long double expected = reference_duration(s_v, s_a, length, s_target, line);
    CHECK(std::abs(tr->duration() - double(expected)) <= 1e-10 * double(expected));
    // Every sample on the line through start and target.
    for (int k = 0; k <= 200; ++k) {
      const double t = tr->duration() * k / 200;
      double d[3], along = 0;
      for (std::size_t axis = 0; axis < 3; ++axis) {
        d[axis] = tr->at(axis, t).position - from[axis].position;
        along += d[axis] * u[axis] / norm;
      }
      double across = 0;
      for (std::size_t axis = 0; axis < 3; ++axis)
        across += std::pow(d[axis] - along * u[axis] / norm, 2);
      CHECK(std::sqrt(across) <= 1e-12 * (length + 6));
    }
    for (std::size_t axis = 0; axis < 3; ++axis) {
      check_axis(*tr, axis, limits[axis], to[axis], velocity[axis]);
      // Extrema by axis: the line's mapped through the axis's share.
      const PositionExtrema<double> e = tr->position_extrema(axis);
      CHECK(std::abs(tr->at(axis, e.time_of_min).position - e.min) <= 1e-12 * 10);
      CHECK(std::abs(tr->at(axis, e.time_of_max).position - e.max) <= 1e-12 * 10);
      CHECK(e.min <= std::min(from[axis].position, to[axis]) + 1e-12 * 10);
      CHECK(e.max >= std::max(from[axis].position, to[axis]) - 1e-12 * 10);
    }
  }
  CHECK(checked >= property_count(100) / 2);
  // A start each axis holds but the line does not (the strictest jerk, 0.1, eases the
  // acceleration 0.5 too slowly for the second axis's velocity limit, 1): in time, inside.
  const std::vector<JerkLimits<double>> mixed{{10, 1, 1, 0.1}, {1, 1, 1, 100}};
  const auto slow_ease = SyncedTrajectory<double>::to_position(
      {{0, 0.9, 0.5}, {0, 0.9, 0.5}}, {20, 20}, {0, 0}, mixed, Synchronization::phase);
  REQUIRE(slow_ease);
  CHECK(slow_ease->synchronization() == Synchronization::time);
  check_axis(*slow_ease, 1, mixed[1], 20, 0);
  // A start velocity across the line: time synchronization instead.
  const std::vector<JerkLimits<double>> lim(2, JerkLimits<double>{1, 1, 1, 1});
  const auto across = SyncedTrajectory<double>::to_position({{0, 0, 0}, {0, 0.5, 0}}, {1, 0},
                                                            {0, 0}, lim, Synchronization::phase);
  REQUIRE(across);
  CHECK(across->synchronization() == Synchronization::time);
}

TEST_CASE("synced trajectory: targets that accelerate", "[motion][jerk][synced]") {
  // On the start's arc at full jerk: from rest, jerk J for t reaches (Jt³/6, Jt²/2, Jt), and no
  // move gets there sooner than t. Two axes whose jerk limits are their shares of a line's unit
  // jerk, u = (0.6, -0.8), each to its share of the line's state after t = 2: both alone, in
  // time and on the line, exactly 2 s.
  const double u[2] = {0.6, -0.8}, t = 2;
  std::vector<JerkLimits<double>> limits;
  std::vector<AxisState<double>> from, target;
  for (double ui : u) {
    const double w = std::abs(ui);
    limits.push_back({10 * w, 10 * w, 10 * w, w});
    from.push_back({1, 0, 0});
    target.push_back({1 + ui * t * t * t / 6, ui * t * t / 2, ui * t});
  }
  for (Synchronization sync :
       {Synchronization::time, Synchronization::phase, Synchronization::none}) {
    const auto tr = SyncedTrajectory<double>::to_position(from, target, limits, sync);
    REQUIRE(tr);
    INFO("synchronization " << int(sync));
    CHECK(tr->synchronization() == sync);
    CHECK(std::abs(tr->duration() - t) <= 1e-12 * t);
    for (std::size_t i = 0; i < 2; ++i) {
      const AxisSample<double> end = tr->at(i, tr->duration());
      CHECK(std::abs(end.position - target[i].position) <= 1e-12);
      CHECK(std::abs(end.velocity - target[i].velocity) <= 1e-12);
      CHECK(std::abs(end.acceleration - target[i].acceleration) <= 1e-12);
      // After the arrival each axis goes on at its target's acceleration: p + v·h + a·h²/2.
      const double h = 0.5;
      const AxisSample<double> on = tr->at(i, tr->duration() + h);
      const AxisState<double>& e = target[i];
      CHECK(std::abs(on.position - (e.position + e.velocity * h + e.acceleration * h * h / 2)) <=
            1e-12);
      CHECK(std::abs(on.velocity - (e.velocity + e.acceleration * h)) <= 1e-12);
      CHECK(on.acceleration == e.acceleration);
    }
  }
  // Three axes of random limits from random states inside them to targets accelerating either
  // way (reached from inside: v* − a*|a*|/2J within the velocity limit): each axis's phases,
  // integrated again in long double, end on its target state at the common duration, no sooner
  // than the slowest axis's own optimum, inside the limits.
  auto rng = make_rng(171);
  for (int k = 0; k < property_count(60); ++k) {
    std::vector<AxisState<double>> starts, ends;
    std::vector<JerkLimits<double>> lims;
    double slowest = 0;
    for (int axis = 0; axis < 3; ++axis) {
      lims.push_back(random_limits<double>(rng));
      const JerkLimits<double>& lim = lims.back();
      double v = 0, a = 0, ve = 0, ae = 0;
      do {
        v = uniform<double>(rng, -1, 1) * lim.max_velocity;
        a = uniform<double>(rng, -1, 1) * std::min(lim.max_acceleration, lim.max_deceleration);
      } while (!holdable(v, a, lim));
      do {
        ve = uniform<double>(rng, -1, 1) * lim.max_velocity;
        ae = uniform<double>(rng, -lim.max_deceleration, lim.max_acceleration);
      } while (!holdable(ve, -ae, lim));
      starts.push_back({uniform<double>(rng, -3, 3), v, a});
      ends.push_back({uniform<double>(rng, -5, 5), ve, ae});
      const auto own = JerkTrajectory<double>::to_position(starts.back(), ends.back(), lim);
      REQUIRE(own);
      slowest = std::max(slowest, own->duration());
    }
    INFO("case " << k);
    const auto tr = SyncedTrajectory<double>::to_position(starts, ends, lims);
    REQUIRE(tr);
    CHECK(tr->duration() >= slowest * (1 - 1e-12));
    for (std::size_t axis = 0; axis < 3; ++axis) {
      CHECK(tr->duration(axis) == tr->duration());
      const AxisState<L> end = integrate_phases(tr->axis(axis), starts[axis]);
      const JerkLimits<double>& lim = lims[axis];
      CHECK(std::abs(double(end.position) - ends[axis].position) <=
            1e-12 * (5 + lim.max_velocity * tr->duration()));
      CHECK(std::abs(double(end.velocity) - ends[axis].velocity) <= 1e-12 * lim.max_velocity);
      CHECK(std::abs(double(end.acceleration) - ends[axis].acceleration) <=
            1e-12 * std::min(lim.max_acceleration, lim.max_deceleration));
      CHECK(limit_excess(tr->axis(axis), lim, 400, 1e-6) <= 1e-12);
    }
  }
  // On a line: starts and targets whose velocities and accelerations lie along a random
  // direction u. Where the line's limits (the strictest of the axes') hold the start and reach
  // the target, the axes move on it: the line's move, its phases integrated again in long
  // double, ends at length along u, each axis on its target state (p, v, a = its share of the
  // line's), every sample on the line and inside each axis's limits.
  int on_line = 0;
  for (int k = 0; k < property_count(60); ++k) {
    double dir[3], norm = 0;
    for (double& x : dir) {
      x = uniform<double>(rng, -1, 1);
      norm += x * x;
    }
    for (double& x : dir)
      x /= std::sqrt(norm);
    std::vector<JerkLimits<double>> lims;
    for (int axis = 0; axis < 3; ++axis)
      lims.push_back(random_limits<double>(rng));
    const double length = uniform<double>(rng, 0.5, 5), sv = uniform<double>(rng, -0.5, 0.5),
                 sa = uniform<double>(rng, -0.3, 0.3), ev = uniform<double>(rng, -0.5, 0.5),
                 ea = uniform<double>(rng, -0.3, 0.3);
    std::vector<AxisState<double>> starts, ends;
    bool each_axis_can = true;  // each axis's own limits hold its start and reach its target
    for (std::size_t axis = 0; axis < 3; ++axis) {
      const double p = uniform<double>(rng, -3, 3);
      starts.push_back({p, sv * dir[axis], sa * dir[axis]});
      ends.push_back({p + length * dir[axis], ev * dir[axis], ea * dir[axis]});
      const JerkLimits<double>& lim = lims[axis];
      const JerkLimits<double> backwards{lim.max_velocity, lim.max_deceleration,
                                         lim.max_acceleration, lim.max_jerk};
      each_axis_can = each_axis_can &&
                      holdable(starts[axis].velocity, starts[axis].acceleration, lim) &&
                      holdable(ends[axis].velocity, -ends[axis].acceleration, backwards);
    }
    if (!each_axis_can) continue;
    INFO("line case " << k);
    const auto tr =
        SyncedTrajectory<double>::to_position(starts, ends, lims, Synchronization::phase);
    REQUIRE(tr);
    if (tr->synchronization() != Synchronization::phase) continue;
    ++on_line;
    const AxisState<L> along = integrate_phases(tr->axis(0), AxisState<double>{0, sv, sa});
    CHECK(std::abs(double(along.position) - length) <= 1e-12 * (length + tr->duration()));
    CHECK(std::abs(double(along.velocity) - ev) <= 1e-12);
    CHECK(std::abs(double(along.acceleration) - ea) <= 1e-12);
    for (std::size_t axis = 0; axis < 3; ++axis) {
      const AxisSample<double> end = tr->at(axis, std::nextafter(tr->duration(), 0.0));
      CHECK(std::abs(end.position - ends[axis].position) <= 1e-9);
      CHECK(std::abs(end.velocity - ends[axis].velocity) <= 1e-9);
      CHECK(std::abs(end.acceleration - ends[axis].acceleration) <= 1e-9);
    }
    for (int i = 0; i <= 100; ++i) {
      const double time = tr->duration() * i / 100;
      double offset[3], dot = 0, across = 0;
      for (std::size_t axis = 0; axis < 3; ++axis) {
        const AxisSample<double> x = tr->at(axis, time);
        const JerkLimits<double>& lim = lims[axis];
        CHECK(std::abs(x.velocity) <= lim.max_velocity * (1 + 1e-12));
        CHECK(x.acceleration <= lim.max_acceleration * (1 + 1e-12));
        CHECK(-x.acceleration <= lim.max_deceleration * (1 + 1e-12));
        offset[axis] = x.position - starts[axis].position;
        dot += offset[axis] * dir[axis];
      }
      for (std::size_t axis = 0; axis < 3; ++axis)
        across += std::pow(offset[axis] - dot * dir[axis], 2);
      CHECK(std::sqrt(across) <= 1e-12 * (length + 6));
    }
  }
  CHECK(on_line >= property_count(60) / 2);
  // A target each axis reaches but the line does not (its jerk is the strictest axis's, 0.1,
  // too slow to bring in the deceleration 0.5 from the line's velocity limit): in time.
  const std::vector<JerkLimits<double>> mixed{{10, 1, 1, 0.1}, {1, 1, 1, 100}};
  const auto slow_ease = SyncedTrajectory<double>::to_position(
      {{0, 0, 0}, {0, 0, 0}}, {{20, 0.9, -0.5}, {20, 0.9, -0.5}}, mixed, Synchronization::phase);
  REQUIRE(slow_ease);
  CHECK(slow_ease->synchronization() == Synchronization::time);
  // A target acceleration across the line: in time too.
  const auto across = SyncedTrajectory<double>::to_position(
      {{0, 0, 0}, {0, 0, 0}}, {{1, 0, 0}, {1, 0, 0.1}}, mixed, Synchronization::phase);
  REQUIRE(across);
  CHECK(across->synchronization() == Synchronization::time);
  CHECK(SyncedTrajectory<double>::to_position({{0, 0, 0}}, {{1, 0, 0}, {1, 0, 0}}, mixed)
            .error()
            .code == ErrorCode::mismatched_sizes);
}

TEST_CASE("synced trajectory: minimum duration and control cycles", "[motion][jerk][synced]") {
  // Rest to rest over 1 with v 1, a 1, j 1 (v·j = a²: no hold): v_p = (D²j/4)^(1/3) =
  // 0.25^(1/3), T = 2D/v_p.
  const double optimum = 2 / std::cbrt(0.25);
  const std::vector<JerkLimits<double>> lim{{1, 1, 1, 1}};
  const std::vector<AxisState<double>> from{{0, 0, 0}};
  const auto fastest = SyncedTrajectory<double>::to_position(from, {1}, {0}, lim);
  REQUIRE(fastest);
  CHECK(std::abs(fastest->duration() - optimum) <= 1e-14 * optimum);
  for (double cycle : {0.001, 0.01, 0.3, 1.0}) {
    const auto tr = SyncedTrajectory<double>::to_position(from, {1}, {0}, lim,
                                                          Synchronization::time, {0, cycle});
    REQUIRE(tr);
    const double cycles = std::ceil(optimum / cycle);
    INFO("cycle " << cycle);
    CHECK(std::abs(tr->duration() - cycles * cycle) <= 1e-12 * optimum);
    check_axis(*tr, 0, lim[0], 1, 0);
  }
  const auto longer =
      SyncedTrajectory<double>::to_position(from, {1}, {0}, lim, Synchronization::none, {5, 0});
  REQUIRE(longer);
  CHECK(std::abs(longer->duration() - 5) <= 1e-13);
  check_axis(*longer, 0, lim[0], 1, 0);
  // Both: the first whole cycle after the minimum.
  const auto both = SyncedTrajectory<double>::to_position(from, {1}, {0}, lim,
                                                          Synchronization::phase, {4.05, 0.1});
  REQUIRE(both);
  CHECK(std::abs(both->duration() - 4.1) <= 1e-13);
  check_axis(*both, 0, lim[0], 1, 0);
  // Durations that are whole cycles to within their rounding stay so: 3259 · 0.01 divides back
  // to 3259.0000000000005.
  for (double k : {500.0, 3259.0, 19999.0}) {
    const auto whole = SyncedTrajectory<double>::to_position(
        from, {1}, {0}, lim, Synchronization::time, {k * 0.01, 0.01});
    REQUIRE(whole);
    CHECK(whole->duration() == k * 0.01);
  }
  // Two axes on cycles of 0.01: Ruckig 0.19.4 (discrete durations) arrives at 1.11 s.
  const std::vector<JerkLimits<double>> fast(2, JerkLimits<double>{10, 10, 10, 10});
  const auto two =
      SyncedTrajectory<double>::to_position({{0, 0, 0}, {0, 0, 0}}, {0.42163519531249966, 0.01},
                                            {0, 0}, fast, Synchronization::time, {0, 0.01});
  REQUIRE(two);
  CHECK(std::abs(two->duration() - 1.11) <= 1e-14);
  // Float: the same whole cycles, two axes arriving together on the line.
  const auto in_float = SyncedTrajectory<float>::to_position({{0, 0, 0}, {1, 0, 0}}, {1, 3}, {0, 0},
                                                             {{2, 1, 1, 1}, {2, 2, 2, 2}},
                                                             Synchronization::phase, {0, 0.01f});
  REQUIRE(in_float);
  CHECK(in_float->synchronization() == Synchronization::phase);
  const float whole = std::round(in_float->duration() / 0.01f);
  CHECK(std::abs(in_float->duration() - whole * 0.01f) <= 1e-5f);
  CHECK(std::abs(in_float->at(0, in_float->duration()).position - 1) <= 1e-6f);
  CHECK(std::abs(in_float->at(1, in_float->duration()).position - 3) <= 1e-6f);
  CHECK(std::abs(in_float->at(1, in_float->duration() / 2).position -
                 (1 + 2 * in_float->at(0, in_float->duration() / 2).position)) <= 1e-6f);
  // Bad input.
  CHECK(SyncedTrajectory<double>::to_position(from, {1}, {0}, lim, Synchronization::time, {-1, 0})
            .error()
            .code == ErrorCode::out_of_range);
  CHECK(SyncedTrajectory<double>::to_position(from, {1, 2}, {0}, lim).error().code ==
        ErrorCode::mismatched_sizes);
  CHECK(SyncedTrajectory<double>::to_position({}, {}, {}, {}).error().code ==
        ErrorCode::empty_input);
  const auto beyond = SyncedTrajectory<double>::to_position({{0, 0, 0}, {0, 0, 0}}, {1, 1}, {0, 2},
                                                            {lim[0], lim[0]});
  REQUIRE_FALSE(beyond);
  CHECK(beyond.error().message.rfind("axis 1: ", 0) == 0);
}

// ---- Waypoints: WaypointTrajectory ----------------------------------------------------------

TEST_CASE("waypoint trajectory: stops, passing points and legs of their own limits",
          "[motion][jerk][waypoints]") {
  SECTION("stops with dwells: S-curves end to end") {
    auto rng = make_rng(162);
    for (int i = 0; i < property_count(100); ++i) {
      const JerkLimits<double> lim{uniform<double>(rng, 0.5, 5), 1.5, 1.5, 2};
      std::vector<Waypoint<double>> stops;
      double at = uniform<double>(rng, -5, 5), expected = 0;
      const double start = at;
      for (int k = 0; k < 4; ++k) {
        const double step = uniform<double>(rng, -20, 20), dwell = uniform<double>(rng, 0, 3);
        at += step;
        stops.push_back({at, 0, dwell, std::nullopt});
        expected +=
            TimeProfile<double>::s_curve(std::abs(step), lim.max_velocity, 1.5, 2)->duration() +
            dwell;
      }
      const auto run = WaypointTrajectory<double>::through({start, 0, 0}, stops, lim);
      REQUIRE(run);
      INFO("case " << i);
      CHECK(std::abs(run->duration() - expected) <= 1e-12 * expected);
      for (std::size_t k = 0; k < stops.size(); ++k) {
        // On the stop from its arrival to its departure, at rest.
        for (double f : {0.0, 0.5, 1.0}) {
          const double t = run->arrival(k) + f * (run->departure(k) - run->arrival(k));
          const AxisSample<double> s = run->at(t);
          CHECK(std::abs(s.position - stops[k].position) <= 1e-12 * 100);
          CHECK(std::abs(s.velocity) <= 1e-12);
        }
        CHECK(std::abs(run->departure(k) - run->arrival(k) - stops[k].dwell) <= 1e-12 * 100);
      }
    }
  }
  SECTION("passing at line speed, then a stop: closed forms") {
    // Cruising at v_max from 0, a signal at 40 passed at v_max takes 40/v_max; then a stop at
    // 100: cruise until the braking distance v·t_b/2 is left, t_b = v/d + d/J (d²/J < v).
    const JerkLimits<double> lim{10, 2, 2.5, 1};
    const std::vector<Waypoint<double>> points{{40, 10, 0, std::nullopt},
                                               {100, 0, 0, std::nullopt}};
    const auto run = WaypointTrajectory<double>::through({0, 10, 0}, points, lim);
    REQUIRE(run);
    CHECK(std::abs(run->arrival(0) - 4) <= 1e-14 * 4);
    const double brake = 10 / 2.5 + 2.5 / 1, brake_distance = 10 * brake / 2;
    const double expected = 4 + (60 - brake_distance) / 10 + brake;
    CHECK(std::abs(run->duration() - expected) <= 1e-13 * expected);
    const AxisSample<double> passing = run->at(4);
    CHECK(std::abs(passing.position - 40) <= 1e-12 * 40);
    CHECK(std::abs(passing.velocity - 10) <= 1e-12 * 10);
    // Continuous across the join.
    const AxisSample<double> before = run->at(4 - 1e-9), after = run->at(4 + 1e-9);
    CHECK(std::abs(after.position - before.position) <= 1e-7);
    CHECK(std::abs(after.velocity - before.velocity) <= 1e-7);
    CHECK(run->at(1e300).position == 100);
  }
  SECTION("a leg under its own limits") {
    const JerkLimits<double> lim{4, 1, 1, 1}, slow{1, 1, 1, 1};
    const std::vector<Waypoint<double>> stops{{10, 0, 2, std::nullopt}, {20, 0, 0, slow}};
    const auto run = WaypointTrajectory<double>::through({0, 0, 0}, stops, lim);
    REQUIRE(run);
    const double first = TimeProfile<double>::s_curve(10, 4, 1, 1)->duration();
    const double second = TimeProfile<double>::s_curve(10, 1, 1, 1)->duration();
    CHECK(std::abs(run->duration() - (first + 2 + second)) <= 1e-12 * 30);
    for (int k = 0; k <= 200; ++k) {
      const double t = run->departure(0) + (run->duration() - run->departure(0)) * k / 200;
      CHECK(std::abs(run->at(t).velocity) <= 1 + 1e-12);
    }
  }
  SECTION("bad input") {
    const JerkLimits<double> lim{1, 1, 1, 1};
    CHECK(WaypointTrajectory<double>::through({0, 0, 0}, {}, lim).error().code ==
          ErrorCode::empty_input);
    const auto moving_dwell = WaypointTrajectory<double>::through(
        {0, 0, 0}, {{1, 0, 0, std::nullopt}, {2, 0.5, 1, std::nullopt}}, lim);
    REQUIRE_FALSE(moving_dwell);
    CHECK(moving_dwell.error().message.rfind("waypoint 1: ", 0) == 0);
    const auto too_fast =
        WaypointTrajectory<double>::through({0, 0, 0}, {{1, 2, 0, std::nullopt}}, lim);
    REQUIRE_FALSE(too_fast);
    CHECK(too_fast.error().message.rfind("waypoint 0: ", 0) == 0);
  }
}
