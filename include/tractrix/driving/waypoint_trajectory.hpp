/// @file
/// `WaypointTrajectory`: one axis moved through a list of waypoints — stops with a dwell (a
/// station), or points passed at a given velocity (a signal passed at line speed) — each reached
/// by the time-optimal jerk-limited move from the state the one before left it in, under that
/// leg's own limits. Each leg is a `JerkTrajectory` (driving/jerk_trajectory.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"

namespace tractrix {

/// A point a WaypointTrajectory reaches: where, at what velocity (0: a stop), how long it stands
/// there (a stop only), and the limits of the move to it (the trajectory's own if empty).
template <class S>
struct Waypoint {
  S position = S(0);                    ///< in the axis's units
  S velocity = S(0);                    ///< when reached; 0 for a stop
  S dwell = S(0);                       ///< seconds standing at a stop, >= 0
  std::optional<JerkLimits<S>> limits;  ///< of the move to it; empty: the trajectory's
};

/// An axis moved from a start through waypoints in order. The move to each is the time-optimal
/// one (JerkTrajectory::to_position) from the state the leg before ended in — at rest after a
/// stop and its dwell, or at the passing velocity with acceleration 0 — so velocity and
/// acceleration are continuous throughout. Passing velocities are given, not chosen: a leg is
/// time-optimal for them, the whole run only as fast as they allow. Times are seconds from the
/// start; sampling is O(log legs).
template <class S>
class WaypointTrajectory {
 public:
  /// The run from `from` through `waypoints` under `limits` (and each waypoint's own, for the
  /// move to it). Errors: empty_input for no waypoints; out_of_range for a dwell that is
  /// negative, not finite or at a waypoint passed at a velocity; those of
  /// JerkTrajectory::to_position for a leg, naming the waypoint.
  static Expected<WaypointTrajectory> through(const AxisState<S>& from,
                                              const std::vector<Waypoint<S>>& waypoints,
                                              const JerkLimits<S>& limits) {
    if (waypoints.empty())
      return make_error(ErrorCode::empty_input, "waypoint trajectory: no waypoints");
    WaypointTrajectory out;
    AxisState<S> state = from;
    S time = S(0);
    for (std::size_t i = 0; i < waypoints.size(); ++i) {
      const Waypoint<S>& w = waypoints[i];
      const std::string who = "waypoint " + std::to_string(i) + ": ";
      if (!std::isfinite(w.dwell) || !(w.dwell >= S(0)) ||
          (w.dwell > S(0) && !detail::exactly_equal(w.velocity, S(0))))
        return make_error(ErrorCode::out_of_range,
                          who + "dwell must be finite, >= 0, and only at a stop (velocity 0)");
      auto leg = JerkTrajectory<S>::to_position(state, w.position, w.velocity,
                                                w.limits ? *w.limits : limits);
      if (!leg) {
        Error e = leg.error();
        e.message = who + e.message;
        return e;
      }
      out.starts_.push_back(time);
      time += leg->duration();
      out.arrivals_.push_back(time);
      time += w.dwell;
      state = {w.position, w.velocity, S(0)};
      out.legs_.push_back(std::move(*leg));
    }
    out.duration_ = time;
    return out;
  }

  /// When the last waypoint is reached and its dwell is over (seconds); after it the axis moves
  /// on at the last waypoint's velocity.
  S duration() const noexcept { return duration_; }
  /// The number of legs: one per waypoint.
  std::size_t leg_count() const noexcept { return legs_.size(); }
  /// The move to waypoint i (i < leg_count(), unchecked), its times from the leg's own start.
  const JerkTrajectory<S>& leg(std::size_t i) const noexcept { return legs_[i]; }
  /// When waypoint i is reached (i < leg_count(), unchecked).
  S arrival(std::size_t i) const noexcept { return arrivals_[i]; }
  /// When the axis leaves waypoint i: its arrival and dwell (i < leg_count(), unchecked).
  S departure(std::size_t i) const noexcept {
    return i + 1 < legs_.size() ? starts_[i + 1] : duration_;
  }

  /// The state at time t, with the jerk acting from t on: before 0 the start, standing at a stop
  /// during its dwell, after duration() the last waypoint moving on at its velocity.
  AxisSample<S> at(S t) const noexcept {
    if (!(t >= S(0))) return legs_.front().at(t);
    // The last leg starting at or before t; past its arrival its own at() holds a stop's
    // position through the dwell, or moves on at the passing velocity.
    const auto next = std::upper_bound(starts_.begin(), starts_.end(), t);
    const auto i =
        static_cast<std::size_t>(std::max<std::ptrdiff_t>(next - starts_.begin(), 1) - 1);
    return legs_[i].at(t - starts_[i]);
  }

 private:
  std::vector<JerkTrajectory<S>> legs_;
  std::vector<S> starts_, arrivals_;
  S duration_ = S(0);
};

}  // namespace tractrix
