// Driving a train along a track or route: the speed limits a driver reads from the line (signed
// sections, the curvature the passengers feel, stations), and the fastest jerk-limited run under
// them — when the train will be where, at what speed.
//
// Limits are piecewise constant along the line, as railways sign them. A limit applies to the
// whole train: the head may speed up only once the last wagon has left a slower section
// (SpeedLimits::for_train). The plan brakes to reach each lower limit where it starts and speeds
// up after each one ends: the velocity at every change of limit is the highest the two sides and
// the braking and acceleration on either side allow (backward and forward passes over the
// sections), with the acceleration back at zero there, and each section between is the fastest
// jerk-limited move between its two ends (JerkTrajectory::between_cruises). Stations stop the
// train exactly on their mark for their dwell time.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"
#include "tractrix/driving/speed_limits.hpp"

namespace tractrix {

// A stop: the head halts at `position` and stands for `dwell` seconds.
template <class S>
struct StationStop {
  S position = S(0);
  S dwell = S(0);
};

// The fastest run of a train's head along the line under speed limits and motion limits,
// stopping at stations: position, velocity, acceleration and jerk at any time, and when it
// passes any point.
template <class S>
class SpeedPlan {
 public:
  // From `start` (a position on the line, a velocity >= 0, any acceleration) to a stop at `end`,
  // stopping on the way at each station after the start (or on it, arriving: still moving, to
  // rounding) and before `end` for its dwell time.
  // `motion` limits acceleration, braking and jerk; its max_velocity caps every limit. The
  // first section is planned from the start state as it is (JerkTrajectory::to_position), so a
  // replan from a running plan's state_at(t) — a limit raised or lowered, a new stop — continues
  // it with velocity and acceleration unbroken (a replan with nothing changed is not always as
  // fast as the rest of the plan it starts from: from inside a move that passed a boundary below
  // both limits it may ease its acceleration at that boundary). An acceleration beyond its
  // limit at the start eases back at full jerk. A start
  // faster than the limits ahead allow brakes at full power and is over the limit for a while:
  // overspeed_distance() says how far. A station the start stands on is not after it: to
  // replan while a train stands at a station, pass what is left of its dwell as `hold`
  // (dwell_left(t) of the plan it stands in), and the new plan stands that long first. Errors:
  // limits, positions or stations out of range; a stop the train can no longer make; a hold
  // from a start not at rest.
  static Expected<SpeedPlan> build(const SpeedLimits<S>& limits, const JerkLimits<S>& motion,
                                   const AxisState<S>& start, S end,
                                   std::vector<StationStop<S>> stations = {}, S hold = S(0)) {
    auto from = checked_start(limits, motion, start, end, hold);
    if (!from) return from.error();
    auto stops = stops_ahead(limits, motion, *from, end, std::move(stations));
    if (!stops) return stops.error();
    SpeedPlan plan;
    plan.start_ = start.position;
    AxisState<S> at = *from;
    S time = S(0);
    // Standing at rest where `at` is, from `time` for `seconds`.
    const auto stand = [&](S seconds) -> std::optional<Error> {
      auto standing = JerkTrajectory<S>::to_velocity(at, S(0), motion);
      if (!standing) return standing.error();
      plan.push(time, std::move(*standing), time + seconds, at.position, true);
      time += seconds;
      return std::nullopt;
    };
    if (hold > S(0))
      if (auto error = stand(hold)) return *error;
    for (std::size_t k = 0; k < stops->size(); ++k) {
      const StationStop<S>& stop = (*stops)[k];
      if (auto error = plan.add_leg(limits, motion, at, time, stop.position)) return *error;
      at = {stop.position, S(0), S(0)};
      if (k + 1 < stops->size() || stop.dwell > S(0))
        if (auto error = stand(stop.dwell)) return *error;
    }
    if (plan.pieces_.empty())  // already at the end, at rest: a plan of standing there
      if (auto error = stand(S(0))) return *error;
    if (auto error = plan.move_lost_to_rounding()) return *error;
    plan.duration_ = time;
    plan.end_ = end;
    plan.piece_starts_.reserve(plan.pieces_.size());
    for (const Piece& p : plan.pieces_)
      plan.piece_starts_.push_back(p.start_time);
    return plan;
  }

  // When the head stops at the end (dwell at the last stop included).
  S duration() const noexcept { return duration_; }
  // The state at time t (before 0 the start; after duration() standing at the end). O(log
  // sections).
  AxisSample<S> at(S t) const noexcept {
    if (!(t > S(0))) return pieces_.front().move.at(S(0));
    if (!(t < duration_)) return {end_, S(0), S(0), S(0)};  // at rest on the end
    const Piece& p = pieces_[piece_at(t)];
    return p.move.at(t - p.start_time);
  }
  // The state at time t, to replan from.
  AxisState<S> state_at(S t) const noexcept {
    const AxisSample<S> s = at(t);
    return {s.position, s.velocity, s.acceleration};
  }
  // How long the head still stands at a station (or at the start, a hold) at time t: 0 while
  // it moves and from duration() on. A replan from state_at(t) takes it as its hold.
  S dwell_left(S t) const noexcept {
    if (!(t < duration_)) return S(0);
    const Piece& p = pieces_[piece_at(t)];
    return p.standing ? p.end_time - std::max(t, S(0)) : S(0);
  }
  // The first time the head reaches `position` (+infinity beyond the end). O(log sections).
  S time_at(S position) const noexcept {
    if (std::isnan(position)) return S(0);  // NaN: the start, as every query
    if (!(position <= end_)) return std::numeric_limits<S>::infinity();
    if (!(position > pieces_.front().move.at(S(0)).position)) return S(0);
    // Positions never decrease: the first piece ending at or past the position holds it.
    std::size_t lo = 0, hi = pieces_.size();
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (pieces_[mid].end_position < position)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo >= pieces_.size()) lo = pieces_.size() - 1;
    const Piece& p = pieces_[lo];
    // A move's end is where it is first at its target (it never goes back): exactly, not where
    // the flat arrival rounds to the same position a little earlier.
    const S until = p.end_time - p.start_time;
    if (detail::exactly_equal(position, p.end_position))
      return p.start_time + std::min(p.move.duration(), until);
    return p.start_time + std::min(p.move.time_at(position), until);
  }
  // How far from the start the head ran over its limit (0 unless a replan lowered a limit under
  // the train, or closer ahead than it can brake for): it brakes at full power until inside.
  S overspeed_distance() const noexcept { return overspeed_; }
  // The moves the plan is made of (sections, and standing at stations), in order.
  std::size_t size() const noexcept { return pieces_.size(); }
  S piece_start_time(std::size_t i) const noexcept { return pieces_[i].start_time; }
  const JerkTrajectory<S>& piece(std::size_t i) const noexcept { return pieces_[i].move; }

 private:
  // build's start, checked: finite, in order on the line, a hold only from rest, and a state
  // the jerk limit can bring to rest without reversing. A velocity a few ulps below zero (a
  // plan's own state in the last instants of its approach carries that rounding) is rest.
  static Expected<AxisState<S>> checked_start(const SpeedLimits<S>& limits,
                                              const JerkLimits<S>& motion,
                                              const AxisState<S>& start, S end, S hold) {
    if (auto error = motion.error("speed plan")) return std::move(*error);
    if (!std::isfinite(start.position) || !std::isfinite(start.velocity) ||
        !std::isfinite(start.acceleration) || !std::isfinite(end))
      return make_error(ErrorCode::non_finite, "speed plan: start or end not finite");
    if (!(hold >= S(0)) || !std::isfinite(hold))
      return make_error(ErrorCode::out_of_range, "speed plan: hold " + detail::number_text(hold) +
                                                     " is not a finite time >= 0");
    if (hold > S(0) && !(detail::exactly_equal(start.velocity, S(0)) &&
                         detail::exactly_equal(start.acceleration, S(0))))
      return make_error(ErrorCode::out_of_range,
                        "speed plan: a hold of " + detail::number_text(hold) +
                            " s needs a start at rest (velocity " +
                            detail::number_text(start.velocity) + ", acceleration " +
                            detail::number_text(start.acceleration) + ")");
    // The line's highest speed: the scale of a plan's velocities, and of their rounding.
    S fastest = S(0);
    for (std::size_t i = 0; i < limits.size(); ++i)
      fastest = std::max(fastest, limits.limit(i));
    fastest = std::max(std::min(fastest, motion.max_velocity), start.velocity);
    const S slowest = -S(64) * detail::epsilon<S>() * fastest;
    AxisState<S> from = start;
    if (from.velocity < S(0) && from.velocity >= slowest) from.velocity = S(0);
    // ... and a position a few ulps past the end it is settling on is at that end.
    const bool settling_past_end = end < from.position &&
                                   from.position - end <= position_rounding(end, from.position) &&
                                   settling_on(from, end, motion);
    if (!(start.position >= S(0)) || !(end <= limits.length()) ||
        !(end >= start.position || settling_past_end))
      return make_error(ErrorCode::out_of_range,
                        "speed plan: need 0 <= start " + detail::number_text(start.position) +
                            " <= end " + detail::number_text(end) + " <= the line's length " +
                            detail::number_text(limits.length()));
    if (!(from.velocity >= S(0)))
      return make_error(ErrorCode::out_of_range,
                        "speed plan: start velocity " + detail::number_text(start.velocity) +
                            " is negative (plan along a reversed route to go backwards)");
    // Braking harder than the jerk limit can release before the train stops: every motion from
    // there reverses (a plan's own states never do, up to rounding). A plan's state on its last
    // approach to rest carries the rounding of the phase it is on — of the velocities the plan
    // runs at, up to the line's highest limit — not of its own tiny velocity: v and a²/2J there
    // are both nearly zero.
    const S eased = JerkTrajectory<S>::eased_velocity(from, motion.max_jerk);
    if (eased < -S(64) * detail::epsilon<S>() * (S(2) * from.velocity - eased + fastest))
      return make_error(ErrorCode::out_of_range,
                        "speed plan: start deceleration " +
                            detail::number_text(start.acceleration) +
                            " stops the train before the jerk limit can release it (it would "
                            "reverse)");
    return from;
  }

  // The stations after `from` and before `end`, in order, then the end (dwell 0). A station the
  // start is arriving on (to rounding, still moving) is still ahead of it; one it stands on is
  // not.
  static Expected<std::vector<StationStop<S>>> stops_ahead(const SpeedLimits<S>& limits,
                                                           const JerkLimits<S>& motion,
                                                           const AxisState<S>& from, S end,
                                                           std::vector<StationStop<S>> stations) {
    std::sort(
        stations.begin(), stations.end(),
        [](const StationStop<S>& a, const StationStop<S>& b) { return a.position < b.position; });
    std::vector<StationStop<S>> stops;
    for (const StationStop<S>& st : stations) {
      if (!std::isfinite(st.position) || !std::isfinite(st.dwell) || !(st.dwell >= S(0)) ||
          st.position < S(0) || st.position > limits.length())
        return make_error(ErrorCode::out_of_range,
                          "station at " + detail::number_text(st.position) + " (dwell " +
                              detail::number_text(st.dwell) +
                              "): off the line, or a negative or non-finite dwell");
      if ((st.position > from.position ||
           (from.position - st.position <= position_rounding(st.position, from.position) &&
            settling_on(from, st.position, motion))) &&
          st.position < end)
        stops.push_back(st);
    }
    stops.push_back({end, S(0)});
    return stops;
  }

  // Holds and dwells so long that a move after them rounds away (a hold of 1e30 s before a 70 s
  // run: the head stood, then was at the end) are refused, not planned.
  std::optional<Error> move_lost_to_rounding() const {
    for (const Piece& p : pieces_)
      if (p.move.duration() > S(0) && !(p.start_time + p.move.duration() > p.start_time))
        return make_error(ErrorCode::out_of_range,
                          "speed plan: a move of " + detail::number_text(p.move.duration()) +
                              " s starting at " + detail::number_text(p.start_time) +
                              " s is lost to the rounding of the time (a hold or dwell too long)");
    return std::nullopt;
  }

  struct Piece {
    S start_time;
    JerkTrajectory<S> move;
    S end_time;      // when the next piece takes over (a stop's dwell, a braking cut short)
    S end_position;  // where
    bool standing;   // at rest at a station (or the start's hold) until end_time
  };
  void push(S start_time, JerkTrajectory<S> move, S end_time, S end_position,
            bool standing = false) {
    pieces_.push_back({start_time, std::move(move), end_time, end_position, standing});
  }
  // The piece that runs at time t (the first before 0).
  std::size_t piece_at(S t) const noexcept {
    const auto upper = std::upper_bound(piece_starts_.begin(), piece_starts_.end(), t);
    return upper == piece_starts_.begin()
               ? 0
               : static_cast<std::size_t>(upper - piece_starts_.begin()) - 1;
  }

  SpeedPlan() = default;

  // The highest w <= cap to which a cruise at v changes within `distance` (acceleration
  // `limit`), the same as the highest v <= cap braking to w within it under the braking limit:
  // the fastest change between cruises covers (v + w)/2 · τ(Δ), τ = 2√(Δ/J) below A²/J and
  // Δ/A + A/J above, so Δ solves (2v + Δ)·√(Δ/J) = d (a cubic in √Δ) or
  // (2v + Δ)(Δ/A + A/J)/2 = d (a quadratic).
  static S reach(S v, S distance, S cap, S limit, S jerk) noexcept {
    using std::cbrt;
    using std::sqrt;
    if (!(cap > v)) return cap;
    const S knee = limit * limit / jerk;
    auto covered = [&](S change) {
      return (S(2) * v + change) / S(2) * detail::velocity_change_time(change, limit, jerk);
    };
    if (covered(cap - v) <= distance) return cap;
    S change;
    if (covered(knee) >= distance) {
      // x = √(Δ/J): J x³ + 2v x − d = 0, one positive root; Cardano without cancellation.
      const S p = S(2) * v / jerk, q = distance / (S(2) * jerk);
      const S u = cbrt(q + sqrt(q * q + p * p * p / S(27)));
      const S x = u - p / (S(3) * u);
      change = jerk * x * x;
    } else {
      // Δ²/(2A) + Δ(v/A + A/2J) + (vA/J − d) = 0, the positive root written without
      // cancellation.
      const S a2 = S(1) / (S(2) * limit), b = v / limit + limit / (S(2) * jerk);
      const S c = v * limit / jerk - distance;
      change = S(-2) * c / (b + sqrt(b * b - S(4) * a2 * c));
    }
    // Rounding may leave it a hair long: the change is the part of the distance, not more.
    S w = std::min(cap, v + std::max(change, S(0)));
    for (int i = 0; i < 8 && covered(w - v) > distance; ++i)
      w = std::nextafter(w, v);
    return w;
  }

  // A state on `stop` but for rounding, still moving (a plan's state in the last instants of its
  // approach): the release of its acceleration, if that cannot move it farther than the
  // position's rounding either way — |x(t) − x0| <= T·(|v0| + T·(|a0|/2 + J·T/6)) over the
  // release's T. (Its velocity may dip to −1e-16 on the way: the rounding of the plan's
  // velocities, not of this tiny one.) None for a state at rest, or a fast one placed on the stop.
  static std::optional<JerkTrajectory<S>> settling_on(const AxisState<S>& at, S stop,
                                                      const JerkLimits<S>& motion) {
    if (!moving(at)) return std::nullopt;
    auto rest = JerkTrajectory<S>::to_velocity(at, S(0), motion);
    if (!rest) return std::nullopt;
    using std::abs;
    const S resolution = position_rounding(stop, at.position);
    const S T = rest->duration();
    const S excursion =
        T * (abs(at.velocity) + T * (abs(at.acceleration) / S(2) + motion.max_jerk * T / S(6)));
    if (excursion > resolution || abs(rest->target().position - stop) > resolution)
      return std::nullopt;
    return std::move(*rest);
  }

  // Appends the run from `at` to a stop at `stop`.
  // Known debt, not a deliberate exception: 249 lines with recursion inside lambdas and a rollback.
  // NOLINTNEXTLINE(readability-function-size): to be split (docs/development.md)
  [[nodiscard]] std::optional<Error> add_leg(const SpeedLimits<S>& limits,
                                             const JerkLimits<S>& motion, AxisState<S> at, S& time,
                                             S stop) {
    if (!(stop > at.position)) {
      if (auto rest = settling_on(at, stop, motion)) {
        const S T = rest->duration();
        push(time, std::move(*rest), time + T, stop);
        time += T;
        return std::nullopt;
      }
      if (moving(at))
        return make_error(ErrorCode::no_solution, "speed plan: already at the stop at " +
                                                      detail::number_text(stop) +
                                                      " and still moving");
      return std::nullopt;
    }
    // Section boundaries between here and the stop, and their limits.
    std::vector<S> x{at.position}, cap;
    for (std::size_t i = limits.section_at(at.position); i < limits.size(); ++i) {
      cap.push_back(std::min(limits.limit(i), motion.max_velocity));
      const S next = limits.end(i);
      if (!(next < stop)) break;
      x.push_back(next);
    }
    x.push_back(stop);
    const std::size_t n = x.size() - 1;  // sections
    // Velocities at the boundaries: the lower limit of the two sides, then what braking to the
    // next allows (backward) and what speeding up from the last allows (forward).
    std::vector<S> v(n + 1);
    v[0] = at.velocity;
    v[n] = S(0);
    for (std::size_t i = 1; i < n; ++i)
      v[i] = std::min(cap[i - 1], cap[i]);
    for (std::size_t i = n - 1; i >= 1; --i)
      v[i] = reach(v[i + 1], x[i + 1] - x[i], v[i], motion.max_deceleration, motion.max_jerk);
    const bool settled = !(at.acceleration < S(0)) && !(at.acceleration > S(0));
    // The first section from the start as it is: a cruise like any boundary, or the
    // time-optimal move to the first boundary's velocity, or braking to a cruise first.
    std::size_t first = 0;
    // The first move from the state as it is (not from a cruise), and the limit it runs under.
    std::optional<JerkTrajectory<S>> lead;
    S lead_cap = cap[0];
    JerkLimits<S> first_section = motion;
    first_section.max_velocity = cap[0];
    // (A velocity a few ulps over a limit is at it, to the limit's rounding.)
    auto inside = [](S velocity, S limit) {
      return velocity <= limit * (S(1) + S(4) * detail::epsilon<S>());
    };
    bool direct = settled && inside(at.velocity, cap[0]) &&
                  inside(at.velocity, reach(v[1], x[1] - x[0], cap[0], motion.max_deceleration,
                                            motion.max_jerk));
    if (!direct) {
      // Accelerating, or over the section's own limit (lowered under the train): the
      // time-optimal move from the state as it is to the first boundary; where that is out of
      // reach without reversing (a running plan's move may pass a boundary below both limits
      // without easing its acceleration there, and a replan from inside it must do the same),
      // to a later one under the lowest limit on the way.
      std::optional<JerkTrajectory<S>> chosen;
      std::size_t chosen_at = 0;
      S lowest = cap[0];
      const S natural = JerkTrajectory<S>::eased_velocity(at, motion.max_jerk);
      for (std::size_t k = 1; k <= n && k <= 16; ++k) {
        lowest = std::min(lowest, cap[k - 1]);
        // Past the first boundary only from a state the lower limits can hold as it is (to
        // their rounding: a float plan's own state, speeding up to a zone's limit for a move
        // through it, eased 1 ulp over that limit, and no other move could stop in time).
        if (k > 1 && !(inside(at.velocity, lowest) && inside(natural, lowest))) break;
        JerkLimits<S> through = motion;
        through.max_velocity = lowest;
        auto move = JerkTrajectory<S>::to_position(at, x[k], std::min(v[k], lowest), through);
        bool forward = move && never_reverses(*move, lowest);
        if (k == 1 && move && !forward) {
          // The boundary's velocity (from the backward pass) is out of reach from this state
          // (leaving a station, the plan itself reached it only just): the fastest velocity
          // there that is, by bisection — a lower target is reached without reversing.
          std::optional<JerkTrajectory<S>> reachable;
          S lo = S(0), hi = std::min(v[1], lowest);
          for (int i = 0; i < 48 && hi - lo > S(4) * detail::epsilon<S>() * hi; ++i) {
            const S mid = lo + (hi - lo) / S(2);
            if (auto trial = forward_move(at, x[1], mid, lowest, motion)) {
              lo = mid;
              reachable = std::move(*trial);
            } else {
              hi = mid;
            }
          }
          if (reachable) move = std::move(*reachable), forward = true;
        }
        if (!forward) continue;
        chosen = std::move(*move);
        chosen_at = k;
        break;
      }
      if (chosen) {
        note_overspeed(*chosen, at.position, cap[0], at.position, chosen->target().position);
        v[chosen_at] = chosen->target().velocity;
        lead = std::move(chosen);
        lead_cap = lowest;
        first = chosen_at;
        direct = true;
      }
    }
    if (!direct) {
      // Too fast for what is ahead, or a start that cannot make the first boundary from its
      // acceleration: bring the acceleration to zero, braking down to the first boundary's
      // velocity at full power, and plan on from the cruise it ends in — or, where the head
      // reaches the boundary first, from the state it has there.
      // (A full-power brake ends "on" a stop within rounding of it.)
      const auto on_stop = [&](const JerkTrajectory<S>& brake) {
        return std::abs(brake.target().position - stop) <=
               relative_rounding() * (std::abs(stop) + at.velocity * brake.duration());
      };
      std::optional<JerkTrajectory<S>> to_rest;
      // The full-power brake to rest, ending on the stop or short of it: on from rest there, not
      // a jump onto the stop.
      const auto brake_to_rest = [&]() -> std::optional<Error> {
        // Over a section's limit where it runs over it before slowing under it.
        for (std::size_t i = 0; i < n; ++i)
          note_overspeed(*to_rest, at.position, cap[i], x[i], x[i + 1]);
        const AxisState<S> rest = to_rest->target();
        const bool short_of_it = rest.position < stop;
        push(time, *to_rest, time + to_rest->duration(), short_of_it ? rest.position : stop);
        time += to_rest->duration();
        return short_of_it ? add_leg(limits, motion, rest, time, stop) : std::nullopt;
      };
      if (x[1] < stop) {
        // A state on the stop's own braking curve, to rounding (a running plan's, braking
        // through a boundary for the stop beyond it): brake to rest at full power through the
        // boundaries. Braking to the first boundary's velocity would ease off before it and
        // miss the stop by far more than the state's rounding (by 6e-3 from a float state 1e-5
        // past the curve).
        first_section.max_velocity = std::max(cap[0], at.velocity);
        if (auto full = JerkTrajectory<S>::to_velocity(at, S(0), first_section))
          to_rest = std::move(*full);
        if (to_rest && on_stop(*to_rest)) return brake_to_rest();
      }
      const S target =
          std::min(std::max(JerkTrajectory<S>::eased_velocity(at, motion.max_jerk), S(0)), v[1]);
      first_section.max_velocity = std::max({cap[0], at.velocity, target});
      auto braking = JerkTrajectory<S>::to_velocity(at, target, first_section);
      if (!braking)
        return make_error(braking.error().code, "speed plan: " + braking.error().message);
      const JerkTrajectory<S>& brake = *braking;
      AxisState<S> next = brake.target();
      if (next.position > x[1]) {
        // The stop itself: braking at full power ends on it, within rounding, or beyond it.
        if (!(x[1] < stop) && next.position > stop && !on_stop(brake))
          return make_error(ErrorCode::no_solution,
                            "speed plan: cannot stop at " + detail::number_text(stop) +
                                " from this state (braking at full power ends at " +
                                detail::number_text(next.position) + ")");
        if (!(x[1] < stop)) {  // it ends on the stop, to rounding: the leg is done
          note_overspeed(brake, at.position, cap[0], at.position, stop);
          push(time, brake, time + brake.duration(), stop);
          time += brake.duration();
          return std::nullopt;
        }
        // Braking that ends on the boundary but for the rounding of its phases ends there, at
        // rest in acceleration: cut a few ulps short it would hand the next leg an acceleration
        // of rounding, and a leg from a moving acceleration cannot merge its first section.
        if (next.position - x[1] >
            S(4) * detail::epsilon<S>() *
                (std::abs(x[1]) + std::abs(at.position) + at.velocity * brake.duration()))
          next = brake.state_at(brake.time_at(x[1]));
        next.position = x[1];
      }
      const std::size_t pieces_before = pieces_.size();
      const S time_before = time, overspeed_before = overspeed_;
      note_overspeed(brake, at.position, cap[0], at.position, next.position);
      const bool cut = detail::exactly_equal(next.position, x[1]) && brake.target().position > x[1];
      const S used = cut ? brake.time_at(x[1]) : brake.duration();
      push(time, brake, time + used, next.position);
      time += used;
      auto error = add_leg(limits, motion, next, time, stop);
      if (!error || !to_rest || !(to_rest->target().position < stop)) return error;
      // Braking to the boundary's velocity eased off too early to stop after it (a limit
      // dropping again before the stop), but braking to rest at full power ends short of the
      // stop: that, then on from rest.
      pieces_.erase(pieces_.begin() + static_cast<std::ptrdiff_t>(pieces_before), pieces_.end());
      time = time_before;
      overspeed_ = overspeed_before;
      return brake_to_rest();
    }
    for (std::size_t i = first + 1; i < n; ++i)
      v[i] = reach(v[i - 1], x[i] - x[i - 1], v[i], motion.max_acceleration, motion.max_jerk);
    // Each section the fastest move between its boundary velocities. Where a boundary's velocity
    // is below both sides' limits (passed while speeding up or braking for something further
    // on), holding the acceleration at zero there only loses time: the two sections become one
    // move under the lower limit if that is faster.
    auto move_over = [&](std::size_t a, std::size_t b, S limit) {
      JerkLimits<S> m = motion;
      m.max_velocity = std::max({limit, v[a], v[b]});
      return JerkTrajectory<S>::between_cruises(x[a], x[b], v[a], v[b], m);
    };
    // The first move from the state merges like any other: from an acceleration of a few ulps
    // (a braking that ends on a boundary, to rounding) as from a cruise. Merged, it is the
    // time-optimal move from the state to the later boundary under the lower limit.
    const S natural = JerkTrajectory<S>::eased_velocity(at, motion.max_jerk);
    auto from_state = [&](std::size_t b, S limit) {
      return forward_move(at, x[b], std::min(v[b], limit), limit, motion);
    };
    if (lead && first >= n) {  // the first move reached the stop
      push(time, *lead, time + lead->duration(), lead->target().position);
      time += lead->duration();
      return std::nullopt;
    }
    if (first >= n) return std::nullopt;  // the first move reached the stop
    bool run_from_state = bool(lead);
    std::size_t run_start = first;
    S run_cap = lead ? lead_cap : cap[first];
    Expected<JerkTrajectory<S>> run =
        lead ? Expected<JerkTrajectory<S>>(*lead) : move_over(first, first + 1, run_cap);
    if (!run) return make_error(run.error().code, "speed plan: " + run.error().message);
    for (std::size_t i = lead ? first : first + 1; i <= n; ++i) {
      if (i < n) {
        auto next = move_over(i, i + 1, cap[i]);
        if (!next) return make_error(next.error().code, "speed plan: " + next.error().message);
        const S lower = std::min(run_cap, cap[i]);
        const bool start_inside = run_from_state
                                      ? inside(at.velocity, lower) && inside(natural, lower)
                                      : inside(v[run_start], lower);
        // (Both ends of the merged move inside the lower limit: it never exceeds it.)
        if (v[i] < lower * (S(1) - S(64) * detail::epsilon<S>()) && start_inside &&
            v[i + 1] <= lower) {
          std::optional<JerkTrajectory<S>> merged;
          if (run_from_state) {
            merged = from_state(i + 1, lower);
          } else if (auto m = move_over(run_start, i + 1, lower)) {
            merged = std::move(*m);
          }
          if (merged && merged->duration() < run->duration() + next->duration()) {
            run = std::move(*merged);
            run_cap = lower;
            continue;
          }
        }
        push(time, *run, time + run->duration(), run->target().position);
        time += run->duration();
        run = std::move(next);
        run_start = i;
        run_cap = cap[i];
        run_from_state = false;
      } else {
        push(time, *run, time + run->duration(), run->target().position);
        time += run->duration();
      }
    }
    return std::nullopt;
  }

  // Notes where a move from `from` runs over `limit` inside the section [begin, end) of the
  // line: up to where it comes under it for good, or the section's end.
  void note_overspeed(const JerkTrajectory<S>& move, S from, S limit, S begin, S end) noexcept {
    const S under = from + over_limit(move, limit);
    if (under > begin) overspeed_ = std::max(overspeed_, std::min(under, end) - start_);
  }
  // Whether a state is still moving: a velocity, or an acceleration that will make one.
  static bool moving(const AxisState<S>& at) noexcept {
    return at.velocity > S(0) || at.acceleration < S(0) || at.acceleration > S(0);
  }
  // The time-optimal move from `at` to `position`, arriving at `velocity`, under `limit`: none
  // where there is no such move or it reverses (never_reverses).
  static std::optional<JerkTrajectory<S>> forward_move(const AxisState<S>& at, S position,
                                                       S velocity, S limit,
                                                       const JerkLimits<S>& motion) {
    JerkLimits<S> through = motion;
    through.max_velocity = limit;
    auto move = JerkTrajectory<S>::to_position(at, position, velocity, through);
    if (!move || !never_reverses(*move, limit)) return std::nullopt;
    return std::move(*move);
  }

  // The rounding, relative, that moves and the states they end in are judged to: 1e-9, or 64 eps
  // where S is float (its phases' rounding).
  static S relative_rounding() noexcept { return std::max(S(1e-9), S(64) * detail::epsilon<S>()); }

  // The rounding a plan's own positions near a and b carry (a state in the last instants of its
  // approach to a stop or the end may lie that far past it).
  static S position_rounding(S a, S b) noexcept {
    using std::abs;
    return S(16) * detail::epsilon<S>() * std::max(abs(a), abs(b));
  }

  // The move keeps moving forward: its velocity >= 0 up to the rounding of a state that arrives
  // at rest (relative_rounding() of its largest velocity or of `limit`, the limit it runs under,
  // whichever is less), checked at its phase ends and at the velocity's turning
  // points inside phases. Nor does its position fall back, or pass its target, by more than the
  // positions' rounding and 1e-9 of the move: a velocity that small can still be a reversal where
  // the acceleration limit is smaller still (1e-18 for 1e21 s at 1e-40 runs back 3000 units).
  static bool never_reverses(const JerkTrajectory<S>& move, S limit) noexcept {
    S lowest = S(0), largest = S(0), farthest = move.at(S(0)).position, fall = S(0);
    for_turning_points(move, [&](S, const AxisSample<S>& s) {
      lowest = std::min(lowest, s.velocity);
      largest = std::max(largest, std::abs(s.velocity));
      fall = std::max(fall, farthest - s.position);
      farthest = std::max(farthest, s.position);
    });
    // (A float phase end one ulp past a boundary is not a reversal.)
    const S target = move.target().position, start = move.at(S(0)).position;
    const S rounding = S(1e-9) * std::abs(target - start) +
                       S(4) * detail::epsilon<S>() * (std::abs(target) + std::abs(start));
    return lowest >= -relative_rounding() * std::min(largest, limit) && fall <= rounding &&
           farthest - target <= rounding;
  }
  // How far a move runs until its velocity is at or under `limit` for good (0 if never over):
  // the last phase end or velocity turning point over the limit (the velocity's maxima are
  // among them), then bisection to where it comes down.
  static S over_limit(const JerkTrajectory<S>& move, S limit) noexcept {
    // Over by more than the rounding of a velocity evaluated at a phase's end: a cruise at the
    // limit (or a move easing onto it) evaluates a few ulps over it now and then.
    const S bound = limit * (S(1) + S(64) * detail::epsilon<S>());
    S last_over = S(-1);
    for_turning_points(move, [&](S t, const AxisSample<S>& s) {
      if (s.velocity > bound) last_over = std::max(last_over, t);
    });
    if (last_over < S(0)) return S(0);
    S lo = last_over, hi = move.duration();
    if (move.at(hi).velocity > bound) return move.target().position - move.at(0).position;
    for (int i = 0; i < 200; ++i) {
      const S mid = lo + (hi - lo) / S(2);
      if (!(mid > lo && mid < hi)) break;
      (move.at(mid).velocity > bound ? lo : hi) = mid;
    }
    return move.at(hi).position - move.at(0).position;
  }
  // Calls visit with the move's state at each phase end and each turning point of its velocity
  // (a + j t = 0 inside a phase).
  template <class Visit>
  static void for_turning_points(const JerkTrajectory<S>& move, Visit visit) noexcept {
    for (int i = 0; i < move.phase_count(); ++i) {
      const auto& ph = move.phase(i);
      // The phase's own start as well as at(): where a phase follows one 1e42 s long, its start
      // time rounds onto the end and at() there is the target (a reversal would hide in it).
      visit(ph.start_time,
            AxisSample<S>{ph.start.position, ph.start.velocity, ph.start.acceleration, ph.jerk});
      visit(ph.start_time, move.at(ph.start_time));
      if (ph.jerk < S(0) || ph.jerk > S(0)) {
        const S t = -ph.start.acceleration / ph.jerk;
        if (t > S(0) && t < ph.duration) visit(ph.start_time + t, move.at(ph.start_time + t));
      }
      visit(ph.start_time + ph.duration, move.at(ph.start_time + ph.duration));
    }
  }

  std::vector<Piece> pieces_;
  std::vector<S> piece_starts_;
  S duration_ = S(0);
  S end_ = S(0);
  S overspeed_ = S(0);
  S start_ = S(0);
};

}  // namespace tractrix
