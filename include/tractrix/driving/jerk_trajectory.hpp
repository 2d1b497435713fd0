/// @file
/// `JerkTrajectory`: one axis (a distance along a track, a camera dolly's travel) moved from any
/// state to a target under limits on velocity, acceleration, braking and jerk — the
/// time-optimal jerk-limited trajectory, rebuilt whenever the plan changes ("online"). Its
/// planner is detail/jerk_planner.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/driving/detail/jerk_planner.hpp"

namespace tractrix {

/// Where an axis is and how it moves: a position in the axis's units (a distance along a track),
/// and its first two time derivatives.
template <class S>
struct AxisState {
  S position = S(0);      ///< in the axis's units
  S velocity = S(0);      ///< units per second
  S acceleration = S(0);  ///< units per second²
};

/// An axis state at a time of a trajectory, with the jerk acting then.
template <class S>
struct AxisSample {
  S position = S(0);      ///< in the axis's units
  S velocity = S(0);      ///< units per second
  S acceleration = S(0);  ///< units per second²
  S jerk = S(0);          ///< units per second³, the jerk acting from that time on
};

/// Where an axis goes furthest each way over a trajectory's phases, and when: a crane's or a
/// dolly's reach, checked against its travel before the move is run.
template <class S>
struct PositionExtrema {
  S min = S(0);          ///< the least position, in the axis's units
  S max = S(0);          ///< the greatest position
  S time_of_min = S(0);  ///< seconds from the start; the first such time
  S time_of_max = S(0);  ///< seconds from the start; the first such time
};

/// Limits of a jerk-limited trajectory, all positive and finite: −max_reverse_velocity <=
/// velocity <= max_velocity, −max_deceleration <= acceleration <= max_acceleration (signed:
/// deceleration is the negative acceleration that brakes a forward move), |jerk| <= max_jerk.
/// max_reverse_velocity 0 (the default) is max_velocity: the same limit both ways.
template <class S>
struct JerkLimits {
  S max_velocity = S(0);          ///< units per second
  S max_acceleration = S(0);      ///< units per second², the most positive acceleration
  S max_deceleration = S(0);      ///< units per second², the most negative acceleration's size
  S max_jerk = S(0);              ///< units per second³
  S max_reverse_velocity = S(0);  ///< units per second, backwards; 0: max_velocity

  /// The velocity limit backwards (a size): max_reverse_velocity, or max_velocity for 0.
  S reverse_velocity() const noexcept {
    return max_reverse_velocity > S(0) ? max_reverse_velocity : max_velocity;
  }

  /// An out_of_range error naming `who` if a limit is not positive and finite; std::nullopt
  /// otherwise.
  [[nodiscard]] std::optional<Error> error(const std::string& who) const {
    for (S v : {max_velocity, max_acceleration, max_deceleration, max_jerk})
      if (!std::isfinite(v) || !(v > S(0)))
        return make_error(ErrorCode::out_of_range,
                          who +
                              ": max_velocity, max_acceleration, max_deceleration and "
                              "max_jerk must be positive and finite");
    if (!std::isfinite(max_reverse_velocity) || !(max_reverse_velocity >= S(0)))
      return make_error(ErrorCode::out_of_range,
                        who + ": max_reverse_velocity must be finite and >= 0 (0: max_velocity)");
    return std::nullopt;
  }
};

/// A move of one axis from any state to a target under JerkLimits: a run of phases of constant
/// jerk, planned once (in double, also for float) and sampled at any time. Rebuilt whenever the
/// target changes ("online"): a new trajectory from state_at(t) of the old one keeps position,
/// velocity and acceleration continuous. Times are seconds from the trajectory's start.
///
/// After duration() the axis goes on at the target's velocity and acceleration (at(), time_at()):
/// with an acceleration, past any limit in time — a hand-over to whatever moves it next.
///
/// Errors of every factory: out_of_range for limits that are not positive and finite, a target
/// velocity beyond max_velocity or the reverse limit, a target acceleration beyond its limit, or
/// a target the limits reach only from beyond a velocity limit (v* − a*|a*|/2J outside them, as
/// Ruckig rules; a start that is the target is there); non_finite for a start state or a
/// target that is not finite; out_of_range where state, target and limits lie so many orders of
/// magnitude apart that a duration or a state overflows S, or the planned phases would not join;
/// no_solution where the planner finds no profile at all (please report the state and limits).
template <class S>
class JerkTrajectory {
  template <class>
  friend class SyncedTrajectory;  // plans an axis again from its braked start

 public:
  /// The most phases a trajectory has: the acceleration braked to its limit, the velocity braked
  /// to its limit (a jerk and a hold), three phases for the first velocity change, a cruise,
  /// three for the second.
  static constexpr int max_phases = detail::JerkPlanner<double>::max_phases;

  /// A stretch of constant jerk, with the state it starts from.
  struct Phase {
    S start_time = S(0);  ///< seconds from the trajectory's start
    S duration = S(0);    ///< seconds
    S jerk = S(0);        ///< units per second³, constant over the phase
    AxisState<S> start;   ///< the state at start_time
  };

  /// The time-optimal trajectory from `from` to (position, velocity, acceleration 0). A start
  /// accelerating harder than the limits allow first brings its acceleration back to the limit at
  /// full jerk; a start faster than max_velocity, or one its acceleration carries past it, is
  /// then braked back to it as fast as the jerk allows (jerk towards braking, a hold at the
  /// braking limit if reached) — braking_duration() covers both. Braking stops early where
  /// going on would carry the velocity past the opposite limit (easing from there would reach
  /// it); the plan then eases as it brakes. The rest is time-optimal from there (Ruckig's rule:
  /// the same durations).
  /// Errors: those of every factory.
  static Expected<JerkTrajectory> to_position(const AxisState<S>& from, S position, S velocity,
                                              const JerkLimits<S>& limits) {
    return to_position(from, AxisState<S>{position, velocity, S(0)}, limits);
  }

  /// The time-optimal trajectory from `from` to a target state with any acceleration: a moving
  /// thing caught up with, a hand-over to a move that goes on accelerating. As to_position
  /// above, which is this with target acceleration 0. After duration() the axis goes on at the
  /// target's acceleration (at()). Errors: those of every factory, and out_of_range for a target
  /// acceleration beyond its limits, or one that brings the axis to the target from beyond a
  /// velocity limit (v* − a*|a*|/2J outside them; Ruckig's rule, stricter than need be
  /// where a short move at constant acceleration would arrive so).
  static Expected<JerkTrajectory> to_position(const AxisState<S>& from, const AxisState<S>& target,
                                              const JerkLimits<S>& limits) {
    if (auto error = input_error("to_position", from, target, limits)) return std::move(*error);
    // A start that is the target is there (also one its acceleration carries past a limit).
    if (same_state(from, target)) return made(Builder(state_in(from)), target);
    return fastest_from(braked(from, target, limits), target);
  }

  /// The trajectory that reaches the same target as to_position exactly `duration` seconds from
  /// its start (fitting a move to an edit's timing): the same two velocity changes with a cruise
  /// at a lower peak velocity, inside the limits; where no such cruise fits, the time-optimal
  /// profile under a lowered jerk limit, an acceleration that waves or holds below its limit on
  /// the way, or the time-optimal profile under lowered acceleration limits. duration() is then
  /// `duration`. A duration no more than a few units of S's rounding shorter than the
  /// time-optimal one (e.g. to_position(...).duration() in float) gives the time-optimal
  /// trajectory. Errors: those of every factory, and out_of_range for a duration that is
  /// negative or not finite, or shorter than the time-optimal one (the message gives it);
  /// no_solution for a duration no profile within the limits meets — some targets that need a
  /// reversal are reached in the shortest time and again after a gap, not in between (the
  /// message gives the time-optimal duration and the next one that is met).
  static Expected<JerkTrajectory> to_position_in(S duration, const AxisState<S>& from, S position,
                                                 S velocity, const JerkLimits<S>& limits) {
    return to_position_in(duration, from, AxisState<S>{position, velocity, S(0)}, limits);
  }

  /// to_position_in to a target state with any acceleration (see to_position).
  static Expected<JerkTrajectory> to_position_in(S duration, const AxisState<S>& from,
                                                 const AxisState<S>& target,
                                                 const JerkLimits<S>& limits) {
    if (auto error = input_error("to_position_in", from, target, limits)) return std::move(*error);
    if (!std::isfinite(duration) || !(duration >= S(0)))
      return make_error(ErrorCode::out_of_range, "to_position_in: duration " +
                                                     detail::number_text(duration) +
                                                     " is not finite and non-negative");
    const Braked start = braked(from, target, limits);
    auto exact = fixed(duration, start, target);
    if (exact || exact.error().code != ErrorCode::no_solution) return exact;
    const auto fastest = fastest_from(start, target);
    if (!fastest) return exact;
    const auto next = no_sooner(duration, S(0), start, *fastest, target);
    return refused(duration, P(fastest->duration()),
                   next ? std::optional<S>(next->duration()) : std::nullopt);
  }

  /// The trajectory to the same target as to_position arriving at the earliest time no sooner
  /// than `duration` (and than the time-optimal one) that a profile within the limits meets; for
  /// a `cycle` > 0, on a whole number of cycles (a controller's period). A duration
  /// to_position_in cannot meet is stepped past. Errors: those of every factory, and
  /// out_of_range for a duration or cycle that is negative or not finite.
  static Expected<JerkTrajectory> to_position_no_sooner(S duration, S cycle,
                                                        const AxisState<S>& from, S position,
                                                        S velocity, const JerkLimits<S>& limits) {
    return to_position_no_sooner(duration, cycle, from, AxisState<S>{position, velocity, S(0)},
                                 limits);
  }

  /// to_position_no_sooner to a target state with any acceleration (see to_position).
  static Expected<JerkTrajectory> to_position_no_sooner(S duration, S cycle,
                                                        const AxisState<S>& from,
                                                        const AxisState<S>& target,
                                                        const JerkLimits<S>& limits) {
    if (auto error = input_error("to_position_no_sooner", from, target, limits))
      return std::move(*error);
    if (!std::isfinite(duration) || !(duration >= S(0)) || !std::isfinite(cycle) ||
        !(cycle >= S(0)))
      return make_error(ErrorCode::out_of_range,
                        "to_position_no_sooner: duration and cycle must be finite and >= 0");
    return no_sooner(duration, cycle, from, target, limits);
  }

  /// The fastest move from a cruise at `from_velocity` to one at `to_velocity` over the distance
  /// from `start` to `end`, never reversing: speed up to a peak (v_max, or lower where the
  /// distance is short), cruise, slow down; acceleration 0 at both ends. A speed plan's section
  /// between two speed signs, and the S-curve with moving ends. A distance short of what the
  /// change needs by no more than its rounding is taken as enough (the phases may end that
  /// little past `end`; target() is `end`). Errors: those of every factory, and out_of_range for
  /// a velocity outside [0, max_velocity] or an end before the start; no_solution for a distance
  /// too short to change between the two velocities (the message gives the distance needed).
  static Expected<JerkTrajectory> between_cruises(S start, S end, S from_velocity, S to_velocity,
                                                  const JerkLimits<S>& limits) {
    if (auto error = cruises_error(start, end, from_velocity, to_velocity, limits))
      return std::move(*error);
    Builder b(State{P(start), P(from_velocity), P(0)});
    const Limits lim = b.brake(limits_in(limits));
    // Velocities within rounding of each other (a start a few ulps over a limit, cruising on
    // at it) are one: a change of a few ulps would need v·2√(Δv/J) of distance for nothing.
    using std::abs;
    const P v1 = P(from_velocity), distance = P(end) - P(start);
    const P v2 =
        abs(P(to_velocity) - v1) <= P(4) * P(detail::epsilon<S>()) * std::max(v1, P(to_velocity))
            ? v1
            : P(to_velocity);
    const P j = lim.jerk;
    // Distance of the fastest change between two cruises (symmetric: the mean velocity times
    // the duration).
    auto change_distance = [&](P from, P to) {
      using std::abs;
      const P limit = to >= from ? lim.acceleration : lim.deceleration;
      return (from + to) / P(2) * detail::velocity_change_time(abs(to - from), limit, j);
    };
    auto covered = [&](P peak) {
      return change_distance(v1, peak) + change_distance(peak, v2) - distance;
    };
    const P low = std::max(v1, v2);
    const P shortest = covered(low);
    // Within rounding of just enough (a speed plan's boundary velocities are computed so, and
    // its positions rounded to S): the change alone, cruising off any slack at the faster end.
    const P rounding = P(16) * P(detail::epsilon<S>()) * (distance + abs(shortest));
    if (shortest > rounding)
      return make_error(ErrorCode::no_solution,
                        "between_cruises: " + detail::number_text(double(distance)) +
                            " is too short to change from " + detail::number_text(double(v1)) +
                            " to " + detail::number_text(double(v2)) + " (needs " +
                            detail::number_text(double(shortest + distance)) + ")");
    // The distance covered grows with the peak: a cruise at v_max, or the peak that fits.
    P peak = lim.velocity, cruise = P(0);
    const P at_limit = covered(peak);
    if (at_limit <= P(0)) {
      cruise = -at_limit / peak;
    } else if (shortest >= -rounding) {
      peak = low;
      // Up to the rounding more than the change needs: cruised at the faster end, so the
      // phases end on the end.
      if (shortest < P(0) && low > P(0)) cruise = -shortest / low;
    } else {
      peak = detail::bracketed_root(covered, low, peak, shortest, at_limit);
    }
    // A peak a hair above the faster end: raising it by a few ulps would cover far more than
    // the distance left over (the change's distance grows as the root of its size). Between
    // equal speeds that is a bump, in closed form; otherwise a cruise at that end covers it
    // instead, at most 5e-7 slower (the bump's time saved grows with its height).
    const State target{P(end), v2, P(0)};
    const Problem pr = Planner::problem(b.state, target, lim);
    if (peak > low && peak - low <= P(1e-6) * low && -shortest > rounding) {
      if (detail::exactly_equal(v1, v2)) {
        if (const auto bumped = Planner::bump(pr)) {
          b.add_plan(*bumped, target, b.time + bumped->duration);
          return made(b, {end, to_velocity, S(0)}, rounding);
        }
      }
      peak = low;
      cruise = -shortest / low;
    }
    Plan plan;
    if (detail::exactly_equal(peak, low) && !(cruise > P(0))) {
      // Just the one change (within rounding of the distance): not polished into a second
      // change of a few ulps of velocity, whose length the rounding of v_p cannot resolve.
      P gap;
      plan = Planner::plan_through(pr, peak, P(0), gap);
    } else {
      plan = Planner::plan_at(pr, peak, cruise);
    }
    b.add_plan(plan, target, b.time + plan.duration);
    // Up to the rounding less than the change needs is taken as enough: its phases end past
    // the end by as much.
    return made(b, {end, to_velocity, S(0)}, rounding);
  }

  /// Velocity control: reach `velocity` as fast as possible from `from` and hold it. The
  /// trajectory's duration is when the velocity is reached; after it the axis cruises on, and
  /// target() is where the velocity is reached. Errors: those of every factory.
  static Expected<JerkTrajectory> to_velocity(const AxisState<S>& from, S velocity,
                                              const JerkLimits<S>& limits) {
    if (auto error = input_error("to_velocity", from, {S(0), velocity, S(0)}, limits))
      return std::move(*error);
    Builder b(state_in(from));
    const Limits lim = b.brake(limits_in(limits));
    b.add_change(
        Planner::velocity_change(b.state.velocity, b.state.acceleration, P(velocity), lim));
    b.state.velocity = P(velocity);
    b.state.acceleration = P(0);
    return made(b, {S(b.state.position), velocity, S(0)});
  }

  /// The velocity a state reaches when its acceleration is brought to zero as fast as the jerk
  /// limit allows: v + a|a|/2J, for a positive `max_jerk` (unchecked). Beyond ±v_max, the state
  /// cannot be held inside the limit.
  static S eased_velocity(const AxisState<S>& state, S max_jerk) noexcept {
    return S(Planner::natural_velocity(P(state.velocity), P(state.acceleration), P(max_jerk)));
  }

  /// When the target state is reached (seconds); after it the axis moves on at the target's
  /// velocity and acceleration. 0 for a start that is the target.
  S duration() const noexcept { return duration_; }
  /// How long the start spent getting back inside the limits (seconds): an acceleration beyond
  /// its limit brought back to it, then a velocity beyond max_velocity (or one the acceleration
  /// carries past it) braked back to it. 0 for a start inside. Where braking stopped early (going
  /// on would have carried the velocity past the opposite limit), the velocity is still beyond
  /// its limit then, and the plan's first change, which brings it inside, is not counted.
  S braking_duration() const noexcept { return braking_; }
  /// The state reached at duration(): exactly the target given (for to_velocity, the position
  /// where the velocity is reached, acceleration 0).
  AxisState<S> target() const noexcept { return end_; }

  /// The state at time t, with the jerk acting from t on: before 0 the start (jerk 0), from
  /// duration() on the target moving on at its velocity and acceleration (jerk 0; +infinity: the
  /// target itself). O(1): at most max_phases phases. NaN gives the start.
  AxisSample<S> at(S t) const noexcept {
    if (!(t >= S(0))) {
      const AxisState<S>& s = count_ > 0 ? phases_[0].start : end_;
      return {s.position, s.velocity, s.acceleration, S(0)};
    }
    if (!(t < duration_)) {
      const S dt = std::isfinite(t) ? t - duration_ : S(0), a = end_.acceleration;
      return {end_.position + dt * (end_.velocity + dt * a / S(2)), end_.velocity + dt * a, a,
              S(0)};
    }
    std::size_t i = count_ > 0 ? static_cast<std::size_t>(count_ - 1) : 0;
    while (i > 0 && t < phases_[i].start_time)
      --i;
    return evaluate(phases_[i], t);
  }

  /// The state at time t, to plan the next trajectory from (a retarget mid-move: the new
  /// trajectory starts with this position, velocity and acceleration, so they stay continuous).
  AxisState<S> state_at(S t) const noexcept {
    const AxisSample<S> s = at(t);
    return {s.position, s.velocity, s.acceleration};
  }

  /// The first time the axis is at `position`: when does it reach the station. A position past
  /// the target where the target's velocity and acceleration carry the axis is reached after
  /// duration(), moving on at them; +infinity for a position never reached, or one not finite. A
  /// position between where the phases end (their rounded times and jerks, integrated) and the
  /// target they were planned to — an ulp or so in float — is reached at duration().
  S time_at(S position) const noexcept {
    if (!std::isfinite(position)) return std::numeric_limits<S>::infinity();
    P reached = P(0);
    for (int i = 0; i < count_; ++i) {
      const Phase& ph = phases_[static_cast<std::size_t>(i)];
      const P c[4] = {P(ph.start.position) - P(position), P(ph.start.velocity),
                      P(ph.start.acceleration) / P(2), P(ph.jerk) / P(6)};
      if (!(c[0] < P(0)) && !(c[0] > P(0))) return ph.start_time;
      // Between where the phase before ended and where this one starts (their rounding apart):
      // reached as this one starts.
      if (i > 0 && (P(position) - reached) * c[0] >= P(0)) return ph.start_time;
      P roots[3];
      if (detail::interval_roots(c, 3, P(0), P(ph.duration), roots) > 0)
        return ph.start_time + S(roots[0]);
      const P d = P(ph.duration);
      reached = P(ph.start.position) + d * (c[1] + d * (c[2] + d * c[3]));
    }
    if (count_ > 0 && (P(position) - reached) * (P(end_.position) - P(position)) >= P(0))
      return duration_;
    const S gap = position - end_.position;
    if (!(gap < S(0)) && !(gap > S(0))) return duration_;
    const S a = end_.acceleration, v = end_.velocity;
    if (!(a < S(0)) && !(a > S(0))) {
      if ((gap > S(0) && v > S(0)) || (gap < S(0) && v < S(0))) return duration_ + gap / v;
      return std::numeric_limits<S>::infinity();
    }
    // Moving on at the target's acceleration: a/2·x² + v·x = gap, its least root x >= 0
    // (written without cancellation).
    using std::sqrt;
    const P disc = P(v) * P(v) + P(2) * P(a) * P(gap);
    if (!(disc >= P(0))) return std::numeric_limits<S>::infinity();
    const P q = -(P(v) + (v >= S(0) ? sqrt(disc) : -sqrt(disc))) / P(2);
    P least = std::numeric_limits<P>::infinity();
    for (P x : {q / (P(a) / P(2)), -P(gap) / q})
      if (x >= P(0) && x < least) least = x;
    return duration_ + S(least);
  }

  /// The least and greatest position over [0, duration()] and when they are first reached: the
  /// ends of the phases and where a phase's velocity crosses zero (each phase's velocity is a
  /// quadratic in time, so in closed form). After duration() the axis moves on at the target's
  /// velocity and acceleration, unbounded, and that is not included. A start that is the
  /// target: its position.
  PositionExtrema<S> position_extrema() const noexcept {
    const AxisState<S>& first = count_ > 0 ? phases_[0].start : end_;
    PositionExtrema<S> e{first.position, first.position, S(0), S(0)};
    const auto visit = [&e](S position, S time) {
      if (position < e.min) {
        e.min = position;
        e.time_of_min = time;
      }
      if (position > e.max) {
        e.max = position;
        e.time_of_max = time;
      }
    };
    for (int i = 0; i < count_; ++i) {
      const Phase& ph = phases_[static_cast<std::size_t>(i)];
      // v + a x + j x²/2 = 0 inside the phase.
      const P c[3] = {P(ph.start.velocity), P(ph.start.acceleration), P(ph.jerk) / P(2)};
      P roots[2];
      const int n = detail::interval_roots(c, 2, P(0), P(ph.duration), roots);
      for (int k = 0; k < n; ++k)
        visit(evaluate(ph, ph.start_time + S(roots[k])).position, ph.start_time + S(roots[k]));
      // The phase's end: where the next one starts, or the target.
      const bool last = i + 1 == count_;
      const Phase& next = phases_[static_cast<std::size_t>(last ? i : i + 1)];
      visit(last ? end_.position : next.start.position, last ? duration_ : next.start_time);
    }
    return e;
  }

  /// The number of phases, at most max_phases (0 for a start that is the target).
  int phase_count() const noexcept { return count_; }
  /// Phase i, 0 <= i < phase_count() (unchecked), in the order they run: start times ascending,
  /// each starting where the one before it ends (to rounding).
  const Phase& phase(int i) const noexcept { return phases_[static_cast<std::size_t>(i)]; }

 private:
  // Plans are made in double also for float trajectories: the equations in v_p lose too much in
  // float, and a plan is made once per change, sampled many times.
  using P = std::conditional_t<(sizeof(S) < sizeof(double)), double, S>;
  using Planner = detail::JerkPlanner<P>;
  using Limits = typename Planner::Limits;
  using State = typename Planner::State;
  using Plan = typename Planner::Plan;
  using Problem = typename Planner::Problem;
  using Builder = typename Planner::Builder;

  // A start braked back inside the limits, and the time-optimal plan from there (if found).
  struct Braked {
    Builder builder;
    Limits limits;
    std::optional<Plan> fastest;
  };
  static Braked braked(const AxisState<S>& from, const AxisState<S>& target,
                       const JerkLimits<S>& limits) {
    Braked out{Builder(state_in(from)), {}, std::nullopt};
    out.limits = out.builder.brake(limits_in(limits));
    out.builder.brake_velocity(out.limits);
    out.fastest = Planner::fastest(out.builder.state, state_in(target), out.limits);
    return out;
  }

  static Expected<JerkTrajectory> fastest_from(const Braked& start, const AxisState<S>& target) {
    if (!start.fastest)
      return make_error(ErrorCode::no_solution,
                        "to_position: no profile found (please report the state and limits)");
    Builder b = start.builder;
    b.add_plan(*start.fastest, state_in(target), b.time + start.fastest->duration);
    return made(b, target);
  }

  // to_position_in from a braked start (input checked), its no_solution without the next
  // duration met.
  static Expected<JerkTrajectory> fixed(S duration, const Braked& start,
                                        const AxisState<S>& target) {
    Builder b = start.builder;
    const Limits& lim = start.limits;
    const auto& fast = start.fastest;
    if (!fast)
      return make_error(ErrorCode::no_solution,
                        "to_position_in: no profile found (please report the state and limits)");
    const P remaining = P(duration) - b.time;
    const P shortest = fast->duration;
    // A duration within rounding of the time-optimal one (as duration() returns it: rounded to S)
    // is the time-optimal one.
    const P rounding = std::max(P(64) * detail::epsilon<P>(), P(4) * P(detail::epsilon<S>())) *
                       (b.time + shortest);
    if (remaining < shortest - rounding)
      return make_error(ErrorCode::out_of_range, "to_position_in: duration " +
                                                     detail::number_text(duration) +
                                                     " is shorter than the time-optimal " +
                                                     detail::number_text(b.time + shortest));
    if (!(remaining > shortest)) {
      b.add_plan(*fast, state_in(target), b.time + fast->duration);
      return made(b, target);
    }
    // A cruise at a lower peak velocity; where none fits, the time-optimal profile under a lower
    // jerk limit whose duration is the one asked for (bisection of the limit: the time-optimal
    // duration grows as the jerk limit shrinks); where that jumps past the duration, an
    // acceleration that waves or holds below its limit instead of settling at zero, or the
    // time-optimal profile under lower acceleration limits. (Checked against Ruckig's
    // fixed-duration plans: no duration it meets refused, in 144 000 random cases.)
    const State to = state_in(target);
    const Problem pr = Planner::problem(b.state, to, lim);
    using Soften = typename Planner::Soften;
    auto plan = Planner::fitted(b.state, to, lim, remaining);
    if (!plan) {
      // A duration in a blocked interval is refused before the searches that would not meet
      // it; a listed profile's own duration is that profile.
      const auto durations = Planner::profile_durations(b.state, to, lim);
      if (Planner::blocked(durations, remaining, shortest))
        return refused(duration, b.time + shortest);
      plan = Planner::listed(pr, durations, remaining);
    }
    if (!plan) plan = Planner::softened(b.state, to, lim, remaining);
    if (!plan) plan = Planner::waved(pr, remaining);
    for (Soften which : {Soften::deceleration, Soften::acceleration, Soften::accelerations})
      if (!plan) plan = Planner::softened(b.state, to, lim, remaining, which);
    if (!plan) return refused(duration, b.time + shortest);
    b.add_plan(*plan, to, P(duration));
    return made(b, target);
  }

  // A duration no profile meets, with the time-optimal one and the next met (where known).
  static Error refused(S duration, P shortest, std::optional<S> next = std::nullopt) {
    return make_error(ErrorCode::no_solution,
                      "to_position_in: no jerk-limited profile reaches the target in exactly " +
                          detail::number_text(duration) + " s (the time-optimal takes " +
                          detail::number_text(shortest) + " s" +
                          (next ? "; the next duration met is " + detail::number_text(*next) + " s"
                                : std::string()) +
                          ")");
  }

  // The move arriving at the earliest time no sooner than `not_before` (and the time-optimal
  // duration), on a whole number of cycles for a cycle > 0. A duration no profile fits (they
  // form a gap past the optimum) is stepped out of, doubling the step, and the gap's end found
  // by bisection — in whole cycles for a cycle > 0.
  // The fewest whole cycles that last `time`: a time that is a whole number of cycles to within
  // its rounding (3259 · 0.01 divides back to 3259.0000000000005) is that number.
  static S whole_cycles(S time, S cycle) noexcept {
    using std::ceil;
    return ceil(time / cycle * (S(1) - S(16) * detail::epsilon<S>()));
  }

  static Expected<JerkTrajectory> no_sooner(S not_before, S cycle, const AxisState<S>& from,
                                            const AxisState<S>& target,
                                            const JerkLimits<S>& limits) {
    const Braked start = braked(from, target, limits);
    auto fastest = fastest_from(start, target);
    if (!fastest) return fastest;
    return no_sooner(not_before, cycle, start, *fastest, target);
  }

  // no_sooner from a braked start whose time-optimal trajectory is `fastest` (SyncedTrajectory
  // keeps both for an axis's second duration).
  static Expected<JerkTrajectory> no_sooner(S not_before, S cycle, const Braked& start,
                                            const JerkTrajectory& fastest,
                                            const AxisState<S>& target) {
    const S shortest = std::max(fastest.duration(), not_before);
    // Durations as whole cycles (k = 0: the shortest itself, without a cycle).
    using std::ceil;
    const S first = cycle > S(0) ? std::max(whole_cycles(shortest, cycle), S(0)) : S(0);
    const auto attempt = [&](S k) {
      const S t = cycle > S(0) ? k * cycle : shortest + k;
      if (!(t > fastest.duration())) return Expected<JerkTrajectory>(fastest);
      return fixed(t, start, target);
    };
    auto found = attempt(first);
    if (found || found.error().code != ErrorCode::no_solution) return found;
    // In a gap: it ends on the duration of a profile that reaches the target, so those past it
    // are tried first, ascending (in whole cycles for a cycle).
    S lo = first;
    const auto ends =
        Planner::profile_durations(start.builder.state, state_in(target), start.limits);
    for (std::size_t i = 0; i < ends.count; ++i) {
      const S end = S(start.builder.time + ends.items[i]);
      const S k = cycle > S(0) ? whole_cycles(end, cycle) : end - shortest;
      if (!(k > lo)) continue;
      found = attempt(k);
      if (found) return found;
      if (found.error().code != ErrorCode::no_solution) return found;
      lo = k;
    }
    // Otherwise step out of the gap (in cycles, or in seconds from a millionth of the duration
    // on) and bisect for its end.
    lo = first;
    S hi = first, step = cycle > S(0) ? S(1) : std::max(S(1e-6) * shortest, S(1e-9));
    for (int k = 0; k < 80 && !found; ++k, step *= S(2)) {
      hi = lo + step;
      found = attempt(hi);
      if (!found && found.error().code != ErrorCode::no_solution) return found;
      if (!found) lo = hi;
    }
    if (!found) return found;
    // The gap's end: the earliest duration that fits.
    for (int k = 0; k < 100; ++k) {
      S mid = lo + (hi - lo) / S(2);
      if (cycle > S(0)) mid = std::floor(mid);
      if (!(mid > lo && mid < hi)) break;
      auto at_mid = attempt(mid);
      if (at_mid) {
        hi = mid;
        found = std::move(at_mid);
      } else {
        lo = mid;
      }
    }
    return found;
  }

  // Bit for bit the same state: a start that is the target.
  static bool same_state(const AxisState<S>& a, const AxisState<S>& b) noexcept {
    return detail::exactly_equal(a.position, b.position) &&
           detail::exactly_equal(a.velocity, b.velocity) &&
           detail::exactly_equal(a.acceleration, b.acceleration);
  }

  static State state_in(const AxisState<S>& s) noexcept {
    return {P(s.position), P(s.velocity), P(s.acceleration)};
  }
  static Limits limits_in(const JerkLimits<S>& l) noexcept {
    return {P(l.max_velocity), P(l.max_acceleration), P(l.max_deceleration), P(l.max_jerk),
            P(l.reverse_velocity())};
  }

  // between_cruises' inputs: to_position's checks, both velocities in [0, v_max], end >= start.
  static std::optional<Expected<JerkTrajectory>> cruises_error(S start, S end, S from_velocity,
                                                               S to_velocity,
                                                               const JerkLimits<S>& limits) {
    if (auto error = input_error("between_cruises", {start, from_velocity, S(0)},
                                 {end, to_velocity, S(0)}, limits))
      return error;
    if (!(from_velocity >= S(0)) || !(to_velocity >= S(0)) || from_velocity > limits.max_velocity ||
        !(end >= start))
      return Expected<JerkTrajectory>(make_error(
          ErrorCode::out_of_range,
          "between_cruises: velocities must lie in [0, max_velocity] and end must not be before "
          "start"));
    return std::nullopt;
  }

  static std::optional<Expected<JerkTrajectory>> input_error(const char* what,
                                                             const AxisState<S>& from,
                                                             const AxisState<S>& target,
                                                             const JerkLimits<S>& limits) {
    using Result = std::optional<Expected<JerkTrajectory>>;
    if (auto error = limits.error(what)) return Expected<JerkTrajectory>(std::move(*error));
    for (S x : {from.position, from.velocity, from.acceleration, target.position, target.velocity,
                target.acceleration})
      if (!std::isfinite(x))
        return Expected<JerkTrajectory>(
            make_error(ErrorCode::non_finite, std::string(what) + ": state or target not finite"));
    const auto out_of_range = [what](const std::string& text) -> Result {
      return Expected<JerkTrajectory>(
          make_error(ErrorCode::out_of_range, std::string(what) + ": " + text));
    };
    const S velocity = target.velocity, a = target.acceleration;
    if (velocity > limits.max_velocity || -velocity > limits.reverse_velocity())
      return out_of_range(
          "target velocity " + detail::number_text(velocity) +
          (velocity > S(0)
               ? " beyond max_velocity " + detail::number_text(limits.max_velocity)
               : " beyond the reverse limit -" + detail::number_text(limits.reverse_velocity())));
    if (a > limits.max_acceleration || -a > limits.max_deceleration)
      return out_of_range("target acceleration " + detail::number_text(a) +
                          " beyond max_acceleration or max_deceleration");
    // Run backwards from the target, the acceleration eased to zero: where the move came from
    // (a start that is the target is there already).
    const S came_from = S(Planner::natural_velocity(P(velocity), -P(a), P(limits.max_jerk)));
    if (!same_state(from, target) &&
        (came_from > limits.max_velocity || -came_from > limits.reverse_velocity()))
      return out_of_range("target (velocity " + detail::number_text(velocity) + ", acceleration " +
                          detail::number_text(a) +
                          ") is reached only from beyond a velocity limit (easing its "
                          "acceleration back in time gives " +
                          detail::number_text(came_from) + ")");
    return std::nullopt;
  }

  // The trajectory, if every phase is representable in S: limits many orders of magnitude
  // apart from the state (a jerk of 1e-300 against a velocity of 1) give durations that are not.
  // The phases must also join: each starts where the one before it ends, to 1e-7 of what
  // rounding can leave there — the states' magnitudes plus what each phase adds to them (the
  // plan computes a start forwards from the state or backwards from the target through the
  // phases between). Limits many orders of magnitude apart can leave far more (a velocity
  // rounded at 1e-13 that a 1e-297 acceleration then takes 1e283 s to remove), and that is
  // refused rather than returned. The bound is summed per phase, not the largest state times the
  // whole duration, so one wrong phase cannot widen it past the gap it opens. Positions may
  // also be `position_allowance` apart (what between_cruises takes as rounding of its distance).
  static Expected<JerkTrajectory> made(const Builder& b, const AxisState<S>& target,
                                       P position_allowance = P(0)) {
    JerkTrajectory t(b, target);
    using std::abs;
    // One pass: the stored phases' sizes (a NaN or infinity among them makes the sum one), the
    // scales, and the largest step between a phase's end and the next start (the first phase
    // starts on the start: it is laid back from the target where the plan is only a second
    // change; the last ends on the target; no phase at all: the start is the target).
    P stored = abs(P(t.duration_)) + abs(P(t.end_.position));
    P position_scale = abs(P(target.position)), velocity_scale = abs(P(target.velocity)),
      acceleration_scale = abs(P(target.acceleration));
    const auto count = static_cast<std::size_t>(b.count);
    State end = b.origin;  // where the phase before ends
    P position_step = P(0), velocity_step = P(0), acceleration_step = P(0);
    const auto step = [&](const State& next) {
      position_step = std::max(position_step, abs(end.position - next.position));
      velocity_step = std::max(velocity_step, abs(end.velocity - next.velocity));
      acceleration_step = std::max(acceleration_step, abs(end.acceleration - next.acceleration));
    };
    for (std::size_t i = 0; i < count; ++i) {
      const auto& item = b.items[i];
      const Phase& ph = t.phases_[i];
      stored += abs(P(ph.start_time)) + abs(P(ph.duration)) + abs(P(ph.jerk)) +
                abs(P(ph.start.position)) + abs(P(ph.start.velocity)) +
                abs(P(ph.start.acceleration));
      const P d = item.duration, j = abs(item.jerk), a = abs(item.start.acceleration),
              v = abs(item.start.velocity);
      position_scale += abs(item.start.position) + d * (v + d * (a / P(2) + d * j / P(6)));
      velocity_scale += v + d * (a + d * j / P(2));
      acceleration_scale += a + d * j;
      step(item.start);
      // (The end in P: a float trajectory's end rounds to S only when it is stored.)
      end = Planner::integrate(item.start, item.jerk, item.duration);
    }
    step(b.state);
    if (!std::isfinite(stored) || !std::isfinite(position_scale) ||
        !std::isfinite(velocity_scale) || !std::isfinite(acceleration_scale))
      return make_error(ErrorCode::out_of_range,
                        "jerk trajectory: state, target and limits too far apart in scale (a "
                        "duration or an intermediate state overflows)");
    // 1e-7: a sound plan's halves meet within 1e-10 of the move; near the border between one
    // velocity change and two, the plan taken when none is sound can leave 1e-8.
    if (position_step > std::max(P(1e-7) * position_scale, position_allowance) ||
        velocity_step > P(1e-7) * velocity_scale ||
        acceleration_step > P(1e-7) * acceleration_scale)
      return make_error(ErrorCode::out_of_range,
                        "jerk trajectory: limits too far apart in scale for a reliable profile "
                        "(its phases would not join)");
    return t;
  }

  JerkTrajectory(const Builder& b, const AxisState<S>& target) {
    count_ = b.count;
    for (int i = 0; i < b.count; ++i) {
      const auto& item = b.items[static_cast<std::size_t>(i)];
      phases_[static_cast<std::size_t>(i)] = {
          S(item.start_time),
          S(item.duration),
          S(item.jerk),
          {S(item.start.position), S(item.start.velocity), S(item.start.acceleration)}};
    }
    duration_ = S(b.time);
    braking_ = b.braking_count > 0
                   ? S(b.items[static_cast<std::size_t>(b.braking_count - 1)].start_time +
                       b.items[static_cast<std::size_t>(b.braking_count - 1)].duration)
                   : S(0);
    end_ = target;
  }

  static AxisSample<S> evaluate(const Phase& ph, S t) noexcept {
    const S x = t - ph.start_time;
    const S j = ph.jerk, a = ph.start.acceleration, v = ph.start.velocity;
    return {ph.start.position + x * (v + x * (a / S(2) + x * j / S(6))), v + x * (a + x * j / S(2)),
            a + x * j, j};
  }

  std::array<Phase, max_phases> phases_{};
  int count_ = 0;
  S duration_ = S(0);
  S braking_ = S(0);
  AxisState<S> end_;
};

}  // namespace tractrix
