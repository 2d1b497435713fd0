// One axis (a distance along a track, a camera dolly's travel) moved from any state to a target
// under limits on velocity, acceleration, braking and jerk: the time-optimal jerk-limited
// trajectory, rebuilt whenever the plan changes ("online"). The facts behind it are those of
// Berscheid and Kröger, "Jerk-limited Real-time Trajectory Generation with Arbitrary Target
// States" (RSS 2021); the formulation here is tractrix's own:
//
// Most time-optimal profiles to a target (s*, v*, 0) are two velocity changes joined at the peak
// velocity v_p where the acceleration crosses zero: the fastest change from the current (v, a) to
// (v_p, 0), then the fastest from (v_p, 0) to (v*, 0); only at v_p = ±v_max may a cruise sit
// between them (the velocity limit is the only place time can be spent at constant speed). A
// fastest velocity change is jerk ±J, a hold at an acceleration limit, jerk ∓J, so both halves
// are in closed form in v_p, and so is the distance d(v_p) they cover. The profile is the root of
// d(v_p) = s* − s with the shortest duration, or a cruise at ±v_max. On each stretch of v_p where
// the halves keep their shape, d(v_p) = D is a polynomial equation of degree <= 6 in a square
// root of v_p; every real root is found (interval_roots). One more family has no zero of the
// acceleration to join at: a start accelerating towards a target it would overrun eases its
// acceleration without reversing it, then changes to the target velocity (jerk −J, +J, hold,
// −J); its length is found by scanning the easing time (dipped()). A cruise moved on a short way
// at its own speed is a bump of the velocity in closed form (bump()). Checked against Ruckig on
// 40 000 random states inside the limits: the same durations to 1e-10.
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
#include "tractrix/core/polynomial.hpp"

namespace tractrix {

// Where an axis is and how it moves.
template <class S>
struct AxisState {
  S position = S(0);
  S velocity = S(0);
  S acceleration = S(0);
};

// An axis state at a time of a trajectory, with the jerk acting then.
template <class S>
struct AxisSample {
  S position = S(0);
  S velocity = S(0);
  S acceleration = S(0);
  S jerk = S(0);
};

namespace detail {
// The time of the fastest change of velocity by `change` (>= 0) from and to zero acceleration
// under an acceleration limit and a jerk: jerk up and down (2√(Δ/J)) below the knee Δ = A²/J,
// with a hold at A above it (Δ/A + A/J).
template <class P>
P velocity_change_time(P change, P limit, P jerk) noexcept {
  using std::sqrt;
  return change <= limit * limit / jerk ? P(2) * sqrt(change / jerk)
                                        : change / limit + limit / jerk;
}
}  // namespace detail

// Limits of a jerk-limited trajectory, all positive and finite: |velocity| <= max_velocity,
// −max_deceleration <= acceleration <= max_acceleration (signed: deceleration is the negative
// acceleration that brakes a forward move), |jerk| <= max_jerk.
template <class S>
struct JerkLimits {
  S max_velocity = S(0);
  S max_acceleration = S(0);
  S max_deceleration = S(0);
  S max_jerk = S(0);

  // An error naming `who` if a limit is not positive and finite.
  [[nodiscard]] std::optional<Error> error(const std::string& who) const {
    for (S v : {max_velocity, max_acceleration, max_deceleration, max_jerk})
      if (!std::isfinite(v) || !(v > S(0)))
        return make_error(ErrorCode::out_of_range,
                          who +
                              ": max_velocity, max_acceleration, max_deceleration and "
                              "max_jerk must be positive and finite");
    return std::nullopt;
  }
};

template <class S>
class JerkTrajectory {
 public:
  // At most: the acceleration braked to its limit, three phases for the first velocity change,
  // a cruise, three for the second.
  static constexpr int max_phases = 8;

  // A stretch of constant jerk, with the state it starts from.
  struct Phase {
    S start_time = S(0);
    S duration = S(0);
    S jerk = S(0);
    AxisState<S> start;
  };

  // The time-optimal trajectory from `from` to (position, velocity, acceleration 0). A state
  // beyond the limits (too fast, or accelerating harder than they allow) first brakes back inside
  // them as fast as the jerk limit allows (braking_duration()); the rest is time-optimal from
  // there. Errors: limits not positive and finite, |velocity| > max_velocity, a non-finite state
  // or target.
  static Expected<JerkTrajectory> to_position(const AxisState<S>& from, S position, S velocity,
                                              const JerkLimits<S>& limits) {
    if (auto error = input_error("to_position", from, position, velocity, limits))
      return std::move(*error);
    Builder b(from);
    const Limits lim = b.brake(limits);
    const auto plan = fastest(b.state, P(position), P(velocity), lim);
    if (!plan)
      return make_error(ErrorCode::no_solution,
                        "to_position: no profile found (please report the state and limits)");
    b.add_plan(*plan, P(position), P(velocity), b.time + plan->duration);
    return made(b, position, velocity);
  }

  // The trajectory that reaches the same target exactly `duration` seconds from now (fitting a
  // move to an edit's timing): the same two velocity changes with a cruise at a lower peak
  // velocity, inside the limits. A duration within a few units of S's rounding of the
  // time-optimal one (e.g. to_position(...).duration() in float) gives the time-optimal
  // trajectory. Errors as to_position, and: a duration shorter than the time-optimal one (the
  // message gives it); a duration no such profile fits (some targets that need a reversal can be
  // reached in the shortest time and after a gap, not in between).
  static Expected<JerkTrajectory> to_position_in(S duration, const AxisState<S>& from, S position,
                                                 S velocity, const JerkLimits<S>& limits) {
    if (auto error = input_error("to_position_in", from, position, velocity, limits))
      return std::move(*error);
    if (!std::isfinite(duration) || !(duration >= S(0)))
      return make_error(ErrorCode::out_of_range, "to_position_in: duration " +
                                                     detail::number_text(duration) +
                                                     " is not finite and non-negative");
    Builder b(from);
    const Limits lim = b.brake(limits);
    const auto fast = fastest(b.state, P(position), P(velocity), lim);
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
      b.add_plan(*fast, P(position), P(velocity), b.time + fast->duration);
      return made(b, position, velocity);
    }
    // A cruise at a lower peak velocity; where none fits, the time-optimal profile under a lower
    // jerk limit whose duration is the one asked for (bisection of the limit: the time-optimal
    // duration grows as the jerk limit shrinks).
    auto plan = fitted(b.state, P(position), P(velocity), lim, remaining);
    if (!plan) plan = softened(b.state, P(position), P(velocity), lim, remaining);
    if (!plan)
      return make_error(ErrorCode::no_solution,
                        "to_position_in: no jerk-limited profile reaches the target in exactly " +
                            detail::number_text(duration) + " s (the time-optimal takes " +
                            detail::number_text(b.time + shortest) + " s)");
    b.add_plan(*plan, P(position), P(velocity), P(duration));
    return made(b, position, velocity);
  }

  // The fastest move from a cruise at `from_velocity` to one at `to_velocity` over the distance
  // from `start` to `end`, never reversing: speed up to a peak (v_max, or lower where the
  // distance is short), cruise, slow down; acceleration 0 at both ends. A speed plan's section
  // between two speed signs, and the S-curve with moving ends. Both velocities in [0, v_max].
  // Errors as to_position, and: a distance too short to change between the two velocities
  // (no_solution, with the distance needed).
  static Expected<JerkTrajectory> between_cruises(S start, S end, S from_velocity, S to_velocity,
                                                  const JerkLimits<S>& limits) {
    if (auto error = cruises_error(start, end, from_velocity, to_velocity, limits))
      return std::move(*error);
    Builder b({start, from_velocity, S(0)});
    const Limits lim = b.brake(limits);
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
      // phases end on the end (in float, left out, that slack was 4 ulps at positions near 50).
      if (shortest < P(0) && low > P(0)) cruise = -shortest / low;
    } else {
      peak = detail::bracketed_root(covered, low, peak, shortest, at_limit);
    }
    // A peak a hair above the faster end: raising it by a few ulps would cover far more than
    // the distance left over (the change's distance grows as the root of its size). Between
    // equal speeds that is a bump, in closed form; otherwise a cruise at that end covers it
    // instead, at most 5e-7 slower (the bump's time saved grows with its height).
    const Problem pr = problem(b.state, P(end), v2, lim);
    if (peak > low && peak - low <= P(1e-6) * low && -shortest > rounding) {
      if (detail::exactly_equal(v1, v2)) {
        if (const auto bumped = bump(pr)) {
          b.add_plan(*bumped, P(end), v2, b.time + bumped->duration);
          return made(b, end, to_velocity, rounding);
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
      plan = plan_through(pr, peak, P(0), gap);
    } else {
      plan = plan_at(pr, peak, cruise);
    }
    b.add_plan(plan, P(end), v2, b.time + plan.duration);
    // Up to the rounding less than the change needs is taken as enough: its phases end past
    // the end by as much.
    return made(b, end, to_velocity, rounding);
  }

  // Velocity control: reach `velocity` as fast as possible from `from` and hold it. The
  // trajectory's duration is when the velocity is reached; after it the axis cruises on.
  static Expected<JerkTrajectory> to_velocity(const AxisState<S>& from, S velocity,
                                              const JerkLimits<S>& limits) {
    if (auto error = input_error("to_velocity", from, S(0), velocity, limits))
      return std::move(*error);
    Builder b(from);
    const Limits lim = b.brake(limits);
    b.add_change(velocity_change(b.state.velocity, b.state.acceleration, P(velocity), lim));
    b.state.velocity = P(velocity);
    b.state.acceleration = P(0);
    return made(b, S(b.state.position), velocity);
  }

  // The velocity a state reaches when its acceleration is brought to zero as fast as the jerk
  // limit allows: v + a|a|/2J. Beyond ±v_max, the state cannot be held inside the limit.
  static S eased_velocity(const AxisState<S>& state, S max_jerk) noexcept {
    return S(natural_velocity(P(state.velocity), P(state.acceleration), P(max_jerk)));
  }

  // When the target state is reached; after it the axis moves on at the target velocity.
  S duration() const noexcept { return duration_; }
  // How long the start spent braking back inside the limits (0 for a state inside them).
  S braking_duration() const noexcept { return braking_; }
  // The state reached at duration() (exactly the target given).
  AxisState<S> target() const noexcept { return end_; }

  // The state at time t, with the jerk acting from t on: before 0 the start (at rest in jerk),
  // from duration() on the target moving on at its velocity. O(1): at most max_phases phases.
  // NaN gives the start.
  AxisSample<S> at(S t) const noexcept {
    if (!(t >= S(0))) {
      const AxisState<S>& s = count_ > 0 ? phases_[0].start : end_;
      return {s.position, s.velocity, s.acceleration, S(0)};
    }
    if (!(t < duration_)) {
      const S dt = std::isfinite(t) ? t - duration_ : S(0);
      return {end_.position + end_.velocity * dt, end_.velocity, S(0), S(0)};
    }
    std::size_t i = count_ > 0 ? static_cast<std::size_t>(count_ - 1) : 0;
    while (i > 0 && t < phases_[i].start_time)
      --i;
    return evaluate(phases_[i], t);
  }

  // The state at time t, to plan the next trajectory from (a retarget mid-move: the new
  // trajectory starts with this position, velocity and acceleration, so they stay continuous).
  AxisState<S> state_at(S t) const noexcept {
    const AxisSample<S> s = at(t);
    return {s.position, s.velocity, s.acceleration};
  }

  // The first time the axis is at `position`: when does it reach the station. +infinity if it
  // never gets there (also after duration(), moving on at the target velocity). A position
  // between where the phases end (their rounded times and jerks, integrated) and the target
  // they were planned to — an ulp or so in float — is reached at duration().
  S time_at(S position) const noexcept {
    if (!std::isfinite(position)) return std::numeric_limits<S>::infinity();
    P reached = P(0);
    for (int i = 0; i < count_; ++i) {
      const Phase& ph = phases_[static_cast<std::size_t>(i)];
      const P c[4] = {P(ph.start.position) - P(position), P(ph.start.velocity),
                      P(ph.start.acceleration) / P(2), P(ph.jerk) / P(6)};
      if (!(c[0] < P(0)) && !(c[0] > P(0))) return ph.start_time;
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
    if ((gap > S(0) && end_.velocity > S(0)) || (gap < S(0) && end_.velocity < S(0)))
      return duration_ + gap / end_.velocity;
    return std::numeric_limits<S>::infinity();
  }

  int phase_count() const noexcept { return count_; }
  const Phase& phase(int i) const noexcept { return phases_[static_cast<std::size_t>(i)]; }

 private:
  // Plans are made in double also for float trajectories: the equations in v_p lose too much in
  // float, and a plan is made once per change, sampled many times.
  using P = std::conditional_t<(sizeof(S) < sizeof(double)), double, S>;

  struct Limits {
    P velocity, acceleration, deceleration, jerk;
  };
  struct State {
    P position, velocity, acceleration;
  };
  // A fastest velocity change: jerk `jerk` for t1, hold for t2, jerk −`jerk` for t3.
  struct Change {
    P t1, t2, t3, jerk;
  };
  // First change to v_p, a cruise there, second change to the target velocity.
  struct Plan {
    Change first, second;
    P cruise, duration;
    P peak;              // v_p, where the first change ends
    P lead = P(0);       // a first phase of jerk lead_jerk that only eases the acceleration
    P lead_jerk = P(0);  // (the dip profiles; then first is empty and second does the rest)
    P gap = P(0);        // how far apart its halves meet (rounding, for a sound plan)
  };

  // Phases in P while planning; the trajectory stores them in S.
  struct Builder {
    explicit Builder(const AxisState<S>& from)
        : origin{P(from.position), P(from.velocity), P(from.acceleration)}, state(origin) {}
    State origin;  // where the trajectory must start
    State state;
    P time = P(0);
    struct Item {
      P duration, jerk;
      State start;
      P start_time;
    };
    std::array<Item, max_phases> items{};
    int count = 0;
    int braking_count = 0;

    void add(P duration, P jerk) {
      if (!(duration > P(0))) return;
      items[static_cast<std::size_t>(count++)] = {duration, jerk, state, time};
      state = integrate(state, jerk, duration);
      time += duration;
    }
    void add_change(const Change& c) {
      add(c.t1, c.jerk);
      add(c.t2, P(0));
      add(c.t3, -c.jerk);
    }
    // Brings an acceleration beyond its limits back to the limit at full jerk. Returns the
    // limits in P. (A velocity beyond its limit, or one the acceleration will carry beyond it,
    // needs no phase of its own: every peak velocity v_p is inside the limit, and the first
    // change, the fastest there is toward it, brakes as hard as the limits allow.)
    Limits brake(const JerkLimits<S>& limits) {
      const Limits lim{P(limits.max_velocity), P(limits.max_acceleration),
                       P(limits.max_deceleration), P(limits.max_jerk)};
      if (state.acceleration > lim.acceleration)
        add((state.acceleration - lim.acceleration) / lim.jerk, -lim.jerk);
      else if (state.acceleration < -lim.deceleration)
        add((-lim.deceleration - state.acceleration) / lim.jerk, lim.jerk);
      // Rounding of the phase: exactly at the limit.
      state.acceleration =
          std::min(std::max(state.acceleration, -lim.deceleration), lim.acceleration);
      braking_count = count;
      return lim;
    }
    // The plan's phases. The first change and the cruise run on from the start; the second
    // change is integrated back from the target, so the trajectory ends exactly on it — except
    // its first phase where nothing comes before it, which starts on the start. Where the
    // trajectory passes from forward to backward, the two differ by the plan's rounding (a few
    // eps of the distance; near the border between one velocity change and two, up to 1e-8).
    void add_plan(const Plan& plan, P position, P velocity, P end_time) {
      add(plan.lead, plan.lead_jerk);
      add_change(plan.first);
      if (plan.cruise > P(0)) {
        // The first change ends at (v_p, 0) by construction: exactly, for the cruise to hold.
        state.velocity = plan.peak;
        state.acceleration = P(0);
        add(plan.cruise, P(0));
      }
      const std::array<std::pair<P, P>, 3> tail{{{plan.second.t1, plan.second.jerk},
                                                 {plan.second.t2, P(0)},
                                                 {plan.second.t3, -plan.second.jerk}}};
      // Its states laid out back from the end, so that it ends exactly on the target; its times
      // forward from the start, so that they ascend and the first phases keep their own times
      // however long the last ones are (placed back from an end 1e298 s away, a start 3 s in
      // would round to 0). A fixed duration still ends on end_time: it is the trajectory's.
      State end{position, velocity, P(0)};
      std::array<State, 3> starts{};
      for (std::size_t k = tail.size(); k-- > 0;) {
        if (tail[k].first > P(0)) end = integrate(end, tail[k].second, -tail[k].first);
        starts[k] = end;
      }
      for (std::size_t k = 0; k < tail.size(); ++k) {
        if (!(tail[k].first > P(0))) continue;
        // A plan that is only its second change starts on the start, not on the target's
        // rounding of it: the plan's rounding moves to the join after it.
        const State& start = count == 0 ? state : starts[k];
        items[static_cast<std::size_t>(count++)] = {tail[k].first, tail[k].second, start, time};
        time += tail[k].first;
      }
      state = {position, velocity, P(0)};
      time = end_time;
    }
  };

  static State integrate(const State& s, P jerk, P t) noexcept {
    return {s.position + t * (s.velocity + t * (s.acceleration / P(2) + t * jerk / P(6))),
            s.velocity + t * (s.acceleration + t * jerk / P(2)), s.acceleration + t * jerk};
  }

  // The velocity reached by bringing the acceleration to zero at once.
  static P natural_velocity(P v, P a, P jerk) noexcept {
    using std::abs;
    return v + a * abs(a) / (P(2) * jerk);
  }

  // The fastest change from (v, a) to (target, 0), a inside the limits.
  static Change velocity_change(P v, P a, P target, const Limits& lim) noexcept {
    const P j = lim.jerk;
    const P natural = natural_velocity(v, a, j);
    const bool up = target >= natural;
    const P sign = up ? P(1) : P(-1);
    const P limit = up ? lim.acceleration : lim.deceleration;
    const P a0 = sign * a, change = sign * (target - v);
    // Peak acceleration without a hold: 2ap² − a0² = 2J·change.
    const P peak2 = j * change + a0 * a0 / P(2);
    using std::abs;
    using std::sqrt;
    P peak = sqrt(std::max(peak2, P(0)));
    // A target within the rounding of v of the natural velocity is the natural velocity: the
    // change only brings the acceleration to zero. (Solved as it stands, the few ulps of v
    // between them become an acceleration bump of √(J·ulp) — far more time and distance than the
    // ulps are worth — or, where a0 > 0 and v + a|a|/2J rounds the a² term away, a peak below
    // a0 that no phase reaches.)
    Change c{P(0), P(0), P(0), sign * j};
    if (abs(target - natural) <= P(4) * detail::epsilon<P>() * (abs(v) + abs(target))) {
      (a0 > P(0) ? c.t3 : c.t1) = abs(a0) / j;
      return c;
    }
    if (peak > limit) {
      peak = limit;
      c.t2 = std::max((change - (limit * limit - a0 * a0 / P(2)) / j) / limit, P(0));
    }
    // (peak − a0)/J without cancellation when both are positive.
    c.t1 = a0 > P(0) ? std::max(j * change - a0 * a0 / P(2), P(0)) / (j * (peak + a0))
                     : (peak - a0) / j;
    if (peak >= limit) c.t1 = (limit - a0) / j;
    c.t1 = std::max(c.t1, P(0));
    c.t3 = peak / j;
    return c;
  }

  // ---- The closed form of the two-change profile in its peak velocity v_p -------------------
  //
  // The first change, shaped up (+J first, v_p >= the natural velocity) or down, is the tail (or
  // an extension) of a symmetric change from a virtual start (w, 0): w = v ∓ a²/2J, reached from
  // (v, a) by a prefix of signed duration ∓a/J. A symmetric change by Δ = |v_p − w| under
  // acceleration limit L takes τ(Δ) = 2√(Δ/J) (Δ <= L²/J) or Δ/L + L/J, and covers
  // (w + v_p)/2 · τ (it is symmetric). So d(v_p) = prefix + (w + v_p)τ_A/2 + (v* + v_p)τ_B/2.
  struct FirstShape {
    P sign, w, limit, prefix_time, prefix_distance;
  };
  static FirstShape first_shape(const State& s, bool up, const Limits& lim) noexcept {
    const P j = lim.jerk, a = s.acceleration;
    const P sign = up ? P(1) : P(-1);
    const P t = -sign * a / j;  // signed: negative where the virtual start lies behind
    return {sign, s.velocity - sign * a * a / (P(2) * j), up ? lim.acceleration : lim.deceleration,
            t, s.velocity * t + a * t * t / P(2) + sign * j * t * t * t / P(6)};
  }

  struct Problem {
    State start;
    P distance, target_velocity;
    Limits lim;
    FirstShape up, down;
    P natural;
    // Distance and duration of the two changes meeting at v_p (no cruise).
    void at(P vp, P& distance_out, P& time_out) const noexcept {
      using std::abs;
      const FirstShape& f = vp >= natural ? up : down;
      const P ta = detail::velocity_change_time(abs(vp - f.w), f.limit, lim.jerk);
      const P limit_b = target_velocity >= vp ? lim.acceleration : lim.deceleration;
      const P tb = detail::velocity_change_time(abs(target_velocity - vp), limit_b, lim.jerk);
      distance_out =
          f.prefix_distance + (f.w + vp) / P(2) * ta + (target_velocity + vp) / P(2) * tb;
      time_out = f.prefix_time + ta + tb;
    }
  };

  // Polynomials in the stretch's variable x, degree <= 6.
  struct Poly {
    std::array<P, 7> c{};
    static Poly constant(P k) {
      Poly p;
      p.c[0] = k;
      return p;
    }
    static Poly monomial(P k, int degree) {
      Poly p;
      p.c[static_cast<std::size_t>(degree)] = k;
      return p;
    }
    Poly operator+(const Poly& o) const {
      Poly r;
      for (std::size_t k = 0; k < c.size(); ++k)
        r.c[k] = c[k] + o.c[k];
      return r;
    }
    Poly operator-(const Poly& o) const { return *this + o * P(-1); }
    Poly operator*(P k) const {
      Poly r;
      for (std::size_t i = 0; i < c.size(); ++i)
        r.c[i] = c[i] * k;
      return r;
    }
    Poly operator*(const Poly& o) const {
      Poly r;
      for (std::size_t i = 0; i < c.size(); ++i)
        for (std::size_t k = 0; i + k < c.size(); ++k)
          r.c[i + k] += c[i] * o.c[k];
      return r;
    }
    P operator()(P x) const { return detail::horner(c.data(), 6, x); }
  };

  // Every v_p in [−v_max, v_max] at which the two changes, with a cruise of
  // `fixed_duration` − T(v_p) at v_p when a duration is fixed (< 0: no cruise), cover the
  // distance; calls found(v_p) for each. Stretches are searched in the order of the shortest
  // duration they could hold, and skipped once that is no shorter than bound() (the best found so
  // far, or the fixed duration).
  template <class Found, class Bound>
  // Known debt, not a deliberate exception: 152 lines of case analysis.
  // NOLINTNEXTLINE(readability-function-size): to be split (docs/development.md)
  static void peak_velocities(const Problem& pr, P fixed_duration, Found found, Bound bound) {
    using std::abs;
    using std::sqrt;
    const P j = pr.lim.jerk, vt = pr.target_velocity, vmax = pr.lim.velocity;
    const P amax = pr.lim.acceleration, dmax = pr.lim.deceleration;
    // Where a half changes shape: the natural velocity, its holds, the target velocity, its holds.
    std::array<P, 8> cuts{-vmax,
                          vmax,
                          pr.natural,
                          pr.up.w + amax * amax / j,
                          pr.down.w - dmax * dmax / j,
                          vt,
                          vt - amax * amax / j,
                          vt + dmax * dmax / j};
    for (P& x : cuts)
      x = std::min(std::max(x, -vmax), vmax);
    std::sort(cuts.begin(), cuts.end());
    const bool fixed = fixed_duration >= P(0);
    const P root_j = sqrt(j);
    auto residual = [&](P vp, P& time) {
      P d;
      pr.at(vp, d, time);
      P r = d - pr.distance;
      if (fixed) r += vp * (fixed_duration - time);
      return r;
    };
    // A root, if its two changes fit in the fixed duration.
    auto root = [&](P vp) {
      P time, d;
      pr.at(vp, d, time);
      if (fixed && time > fixed_duration * (P(1) + P(64) * detail::epsilon<P>())) return;
      found(vp);
    };
    // A candidate that is a root only if its residual is within rounding.
    auto accept = [&](P vp) {
      P time, d;
      pr.at(vp, d, time);
      if (fixed && time > fixed_duration * (P(1) + P(64) * detail::epsilon<P>())) return;
      const P r = residual(vp, time);
      const P scale = abs(pr.distance) + abs(pr.up.prefix_distance) +
                      (abs(pr.up.w) + abs(pr.down.w) + abs(vt) + P(2) * abs(vp)) *
                          (time + abs(pr.up.prefix_time) + (fixed ? fixed_duration : P(0)));
      if (abs(r) <= P(256) * detail::epsilon<P>() * scale) found(vp);
    };
    struct Stretch {
      P lo, hi, shortest;
    };
    std::array<Stretch, 7> stretches{};
    std::size_t stretch_count = 0;
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      const P lo = cuts[k], hi = cuts[k + 1];
      if (!(hi > lo)) continue;
      // Each half's duration is monotone in v_p on a stretch: the least at one of its ends.
      const P mid = lo + (hi - lo) / P(2);
      const FirstShape& f = mid >= pr.natural ? pr.up : pr.down;
      const P limit_b = mid > vt ? dmax : amax;
      const P ta = std::min(detail::velocity_change_time(abs(lo - f.w), f.limit, j),
                            detail::velocity_change_time(abs(hi - f.w), f.limit, j));
      const P tb = std::min(detail::velocity_change_time(abs(vt - lo), limit_b, j),
                            detail::velocity_change_time(abs(vt - hi), limit_b, j));
      Stretch st{lo, hi, f.prefix_time + ta + tb};
      std::size_t at = stretch_count++;
      for (; at > 0 && stretches[at - 1].shortest > st.shortest; --at)
        stretches[at] = stretches[at - 1];
      stretches[at] = st;
    }
    for (std::size_t k = 0; k < stretch_count; ++k) {
      const P lo = stretches[k].lo, hi = stretches[k].hi;
      if (!(stretches[k].shortest <= bound())) break;
      accept(lo);
      accept(hi);
      const P mid = lo + (hi - lo) / P(2);
      const FirstShape& f = mid >= pr.natural ? pr.up : pr.down;
      const bool hold_a = abs(mid - f.w) > f.limit * f.limit / j;
      const P rho = mid > vt ? P(1) : P(-1);  // the second change goes down (+1) or up
      const P limit_b = mid > vt ? dmax : amax;
      const bool hold_b = abs(mid - vt) > limit_b * limit_b / j;
      // The variable x and v_p(x), τ_A(x), τ_B(x) as polynomials; z = √(zz(x)) where both
      // halves are without a hold (τ_B = 2z/√J).
      Poly vp, ta, tb, zz;
      bool has_z = false;
      P xlo, xhi;
      if (!hold_a) {  // x = √|v_p − w|
        vp = Poly::constant(f.w) + Poly::monomial(f.sign, 2);
        ta = Poly::monomial(P(2) / root_j, 1);
        const Poly change_b = (vp - Poly::constant(vt)) * rho;
        if (hold_b) {
          tb = change_b * (P(1) / limit_b) + Poly::constant(limit_b / j);
        } else {
          has_z = true;
          zz = change_b;
        }
        xlo = sqrt(abs(lo - f.w));
        xhi = sqrt(abs(hi - f.w));
      } else if (!hold_b) {  // x = √|v_p − v*|
        vp = Poly::constant(vt) + Poly::monomial(rho, 2);
        tb = Poly::monomial(P(2) / root_j, 1);
        ta = (vp - Poly::constant(f.w)) * (f.sign / f.limit) + Poly::constant(f.limit / j);
        xlo = sqrt(abs(lo - vt));
        xhi = sqrt(abs(hi - vt));
      } else {  // x = v_p
        vp = Poly::monomial(P(1), 1);
        ta = (vp - Poly::constant(f.w)) * (f.sign / f.limit) + Poly::constant(f.limit / j);
        tb = (vp - Poly::constant(vt)) * (rho / limit_b) + Poly::constant(limit_b / j);
        xlo = lo;
        xhi = hi;
      }
      if (xlo > xhi) std::swap(xlo, xhi);
      // residual = R(x) + z·Q(x)
      Poly r = Poly::constant(f.prefix_distance - pr.distance) +
               (Poly::constant(f.w) + vp) * ta * P(0.5) + (Poly::constant(vt) + vp) * tb * P(0.5);
      Poly q = has_z ? (Poly::constant(vt) + vp) * (P(1) / root_j) : Poly{};
      if (fixed) {
        r = r + vp * (Poly::constant(fixed_duration - f.prefix_time) - ta - tb);
        if (has_z) q = q - vp * (P(2) / root_j);
      }
      // Every root of G(x) = R + zQ is a root of E = R² − z²Q² (or of R where there is no z),
      // found by interval_roots: G keeps its sign between consecutive roots of E, so samples of G
      // halfway between them bracket each of its roots, which false position on G itself then finds
      // to the last bits (E's roots alone lose digits where two are close).
      const Poly equation = has_z ? r * r - zz * q * q : r;
      auto g = [&](P x) {
        const P z = has_z ? sqrt(std::max(zz(x), P(0))) : P(0);
        return r(x) + z * q(x);
      };
      P roots[detail::max_root_degree], turns[detail::max_root_degree - 1];
      int turn_count = 0;
      const int root_count =
          detail::interval_roots(equation.c.data(), 6, xlo, xhi, roots, turns, &turn_count);
      auto consider = [&](P x) { accept(std::min(std::max(vp(x), lo), hi)); };
      P sample_x = xlo, sample_g = g(xlo);
      for (int i = 0; i <= root_count; ++i) {
        const P next_x = i < root_count ? (i + 1 < root_count ? (roots[i] + roots[i + 1]) / P(2)
                                                              : (roots[i] + xhi) / P(2))
                                        : xhi;
        const P next_g = g(next_x);
        if ((sample_g < P(0) && next_g > P(0)) || (sample_g > P(0) && next_g < P(0))) {
          const P x = detail::bracketed_root(g, sample_x, next_x, sample_g, next_g);
          root(std::min(std::max(vp(x), lo), hi));
        } else if (!(next_g < P(0)) && !(next_g > P(0))) {
          root(std::min(std::max(vp(next_x), lo), hi));
        }
        sample_x = next_x;
        sample_g = next_g;
      }
      // Where G touches zero without changing sign (a double root), E's roots and turns.
      for (int i = 0; i < root_count; ++i)
        consider(roots[i]);
      for (int i = 0; i < turn_count; ++i)
        consider(turns[i]);
    }
  }

  static Problem problem(const State& s, P position, P velocity, const Limits& lim) {
    Problem pr{s,
               position - s.position,
               velocity,
               lim,
               first_shape(s, true, lim),
               first_shape(s, false, lim),
               natural_velocity(s.velocity, s.acceleration, lim.jerk)};
    return pr;
  }

  static P change_time(const Change& c) noexcept { return c.t1 + c.t2 + c.t3; }

  // The plan through v_p with a cruise there, and how far apart its two halves meet: the first
  // change integrated from the start, the cruise and second change back from the target.
  static Plan plan_through(const Problem& pr, P vp, P cruise, P& gap) {
    Plan plan;
    plan.first = velocity_change(pr.start.velocity, pr.start.acceleration, vp, pr.lim);
    plan.second = velocity_change(vp, P(0), pr.target_velocity, pr.lim);
    plan.cruise = cruise;
    plan.peak = vp;
    plan.duration = change_time(plan.first) + cruise + change_time(plan.second);
    State a{P(0), pr.start.velocity, pr.start.acceleration};
    a = integrate(a, plan.first.jerk, plan.first.t1);
    a = integrate(a, P(0), plan.first.t2);
    a = integrate(a, -plan.first.jerk, plan.first.t3);
    State b{pr.distance, pr.target_velocity, P(0)};
    b = integrate(b, -plan.second.jerk, -plan.second.t3);
    b = integrate(b, P(0), -plan.second.t2);
    b = integrate(b, plan.second.jerk, -plan.second.t1);
    b = integrate(b, P(0), -cruise);
    gap = a.position - b.position;
    return plan;
  }

  // The plan through a root v_p of the closed form, polished so that its halves meet: the
  // closed form measures the first change from a virtual start that may lie far behind (a
  // strong acceleration under a weak jerk limit), and loses digits there that the phases do not.
  // With a cruise at ±v_max its length absorbs the gap; else Newton on v_p (with the cruise
  // that keeps a fixed duration, when one is given).
  static Plan plan_at(const Problem& pr, P vp, P cruise, P fixed_duration = P(-1)) {
    using std::abs;
    const bool fixed = fixed_duration >= P(0);
    auto cruise_at = [&](P v) {
      if (!fixed) return cruise;
      P d, t;
      pr.at(v, d, t);
      return std::max(fixed_duration - t, P(0));
    };
    P gap;
    Plan plan = plan_through(pr, vp, cruise_at(vp), gap);
    plan.gap = gap;
    if (!fixed && cruise > P(0) && cruise - gap / vp >= P(0)) {
      plan.cruise -= gap / vp;
      plan.duration -= gap / vp;
      plan.gap = P(0);
      return plan;
    }
    // Halves that meet within the rounding of the move need nothing more (most plans).
    const P scale = abs(pr.distance) + (abs(pr.start.velocity) + pr.lim.velocity) * plan.duration;
    if (abs(gap) <= P(8) * detail::epsilon<P>() * scale) {
      if (fixed) plan.duration = fixed_duration;
      return plan;
    }
    // Bisection of the gap in a bracket grown from a few ulps around v_p (the gap is steep
    // where a half is nearly empty: no derivative to trust there).
    const P vmax = pr.lim.velocity;
    auto gap_at = [&](P v) {
      P g;
      plan_through(pr, v, cruise_at(v), g);
      return g;
    };
    P width = P(4) * detail::epsilon<P>() * std::max(abs(vp), vmax);
    P lo = vp, hi = vp, gap_lo = gap, gap_hi = gap;
    for (int k = 0; k < 48 && (gap_lo < P(0)) == (gap_hi < P(0)); ++k, width *= P(2)) {
      lo = std::max(vp - width, -vmax);
      hi = std::min(vp + width, vmax);
      gap_lo = gap_at(lo);
      gap_hi = gap_at(hi);
    }
    if ((gap_lo < P(0)) != (gap_hi < P(0)) && (gap < P(0) || gap > P(0))) {
      const bool low_negative = gap_lo < P(0);
      for (int k = 0; k < 100; ++k) {
        const P mid = lo + (hi - lo) / P(2);
        if (!(mid > lo && mid < hi)) break;
        const P g = gap_at(mid);
        if (!(g < P(0)) && !(g > P(0))) {
          lo = hi = mid;
          break;
        }
        ((g < P(0)) == low_negative ? lo : hi) = mid;
      }
      P polished_gap;
      const P polished = abs(gap_at(lo)) < abs(gap_at(hi)) ? lo : hi;
      const Plan polished_plan = plan_through(pr, polished, cruise_at(polished), polished_gap);
      if (abs(polished_gap) < abs(gap)) {
        plan = polished_plan;
        plan.gap = polished_gap;
      }
    }
    if (fixed) plan.duration = fixed_duration;
    return plan;
  }

  // The time-optimal plan from a state inside the limits.
  static std::optional<Plan> fastest(const State& s, P position, P velocity, const Limits& lim) {
    const Problem pr = problem(s, position, velocity, lim);
    if (auto plan = bump(pr)) return plan;
    // Every candidate, fastest first: the cruises at ±v_max, every root, the fastest dip.
    struct Candidate {
      P time, vp, cruise;
    };
    std::array<Candidate, 64> candidates{};
    std::size_t count = 0;
    P best_time = std::numeric_limits<P>::infinity();
    auto add = [&](P time, P vp, P cruise) {
      best_time = std::min(best_time, time);
      if (count < candidates.size()) candidates[count++] = {time, vp, cruise};
    };
    // Cruises at ±v_max; and at the start's natural velocity or the target's, a move that only
    // settles the acceleration, or only changes once, around a cruise. Those two are never
    // faster than a small bump of v_p beside them (a root below), but where the bump's v_p lies
    // within about 1e-7 of them its halves cannot be made to meet (v_p − v loses its digits)
    // and the cruise is the move: at most 2e-7 slower (bump() takes the common case exactly).
    for (P edge : {lim.velocity, -lim.velocity, pr.natural, velocity}) {
      using std::abs;
      if (!(abs(edge) <= lim.velocity) || !(abs(edge) > P(0))) continue;
      P d, t;
      pr.at(edge, d, t);
      const P cruise = (pr.distance - d) / edge;
      if (cruise >= P(0)) add(t + cruise, edge, cruise);
    }
    peak_velocities(
        pr, P(-1),
        [&](P vp) {
          P d, t;
          pr.at(vp, d, t);
          add(t, vp, P(0));
        },
        [&] { return best_time; });
    std::optional<Plan> dip = dipped(pr, best_time * (P(1) + P(1e-9)));
    std::sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(count),
              [](const Candidate& a, const Candidate& b) { return a.time < b.time; });
    // The first whose halves meet within rounding. Two candidates nearly the same move (a
    // cruise, and a change of a few ulps of v_p at each end of it) can swap places by the
    // rounding of v_p; the one that is not sound gives way.
    using std::abs;
    auto sound = [&](const Plan& plan) {
      const P scale = abs(pr.distance) + (abs(pr.start.velocity) + pr.lim.velocity) * plan.duration;
      return abs(plan.gap) <= P(1e-10) * scale;
    };
    // Polishing a root whose halves meet badly can end on another root, far slower (a bump of
    // v_p lost to rounding became a reversal: 0.25 s for a 1.4e-8 s move); such a plan waits
    // until the candidates it would pass have been tried.
    std::optional<Plan> first, slower;
    for (std::size_t i = 0; i < count; ++i) {
      const Candidate& c = candidates[i];
      if (dip && dip->duration < c.time && sound(*dip) &&
          (!slower || dip->duration < slower->duration))
        return dip;
      if (slower && slower->duration <= c.time) return slower;
      Plan plan = plan_at(pr, c.vp, c.cruise);
      if (sound(plan)) {
        if (plan.duration <= c.time * (P(1) + P(1e-9))) return plan;
        if (!slower || plan.duration < slower->duration) slower = plan;
      }
      if (!first) first = plan;
    }
    if (dip && sound(*dip) && (!slower || dip->duration < slower->duration)) return dip;
    if (slower) return slower;
    if (first) return first;
    return dip;
  }

  // A cruise at v moved on a short way D at the same speed (a train told to stop a little
  // further on, still at speed): the velocity raised to v + x² and back, jerk +J, −J, −J, +J for
  // x/√J each, where 2(2|v| + x²)x = |D|√J — the most distance any jerk-limited move from
  // (v, 0) to (v, 0) covers in its time, so the fastest while it stays below the acceleration
  // limits' knee and v_max. In closed form because the roots in v_p cannot resolve it: their
  // v_p − v is a difference of numbers near v, and x² below about 1e-7·v lost its digits there
  // (the move came out as a cruise, up to 2e-7 slower, or not at all).
  static std::optional<Plan> bump(const Problem& pr) {
    using std::abs;
    using std::sqrt;
    const P v = pr.start.velocity, j = pr.lim.jerk;
    if (!detail::exactly_equal(pr.start.acceleration, P(0)) ||
        !detail::exactly_equal(pr.target_velocity, v) || !(pr.distance / v > P(0)))
      return std::nullopt;
    const P speed = abs(v), goal = abs(pr.distance) * sqrt(j);
    if (!(speed > P(0))) return std::nullopt;  // from rest: the roots in v_p resolve it
    // Newton on 2x³ + 4|v|x − goal, convex for x > 0, from the right of its root: the nearer
    // of the roots of 4|v|x = goal and 2x³ = goal (from the first alone, a slow speed moved far
    // took more than 64 steps).
    const auto residual = [&](P y) { return (P(2) * y * y + P(4) * speed) * y - goal; };
    using std::cbrt;
    P x = std::min(goal / (P(4) * speed), cbrt(goal / P(2)));
    for (int k = 0; k < 64; ++k) {
      const P next = x - residual(x) / (P(6) * x * x + P(4) * speed);
      if (!(next < x)) break;
      x = next;
    }
    if (!(abs(residual(x)) <= P(16) * detail::epsilon<P>() * goal)) return std::nullopt;
    const P knee = std::min(pr.lim.acceleration, pr.lim.deceleration);
    if (!std::isfinite(x) || !(x * x <= knee * knee / j) || !(speed + x * x <= pr.lim.velocity))
      return std::nullopt;
    const P t = x / sqrt(j), sign = v > P(0) ? P(1) : P(-1);
    Plan plan{};
    plan.first = Change{t, P(0), t, sign * j};
    plan.second = Change{t, P(0), t, -sign * j};
    plan.cruise = P(0);
    plan.duration = P(4) * t;
    plan.peak = v + sign * x * x;
    return plan;
  }

  // The profiles whose acceleration never passes through zero before the end: jerk against the
  // start's acceleration for a while, only easing it (it keeps its sign), then the fastest change
  // to the target velocity (a start accelerating towards a target it would otherwise overrun:
  // jerk −J, +J, hold, −J). The first phase's length τ in (0, |a|/J) is found where the distance
  // comes out right: the distance is smooth in τ between the few τ where the change's shape or
  // hold starts, and each piece is scanned and its sign changes refined. The fastest such
  // profile, if faster than `bound`.
  static std::optional<Plan> dipped(const Problem& pr, P bound) {
    using std::abs;
    const P a0 = pr.start.acceleration, j = pr.lim.jerk;
    if (!(a0 < P(0)) && !(a0 > P(0))) return std::nullopt;
    const P sign = a0 > P(0) ? P(1) : P(-1);
    const P longest = abs(a0) / j;
    struct Candidate {
      State eased;
      Change change;
      P time, error;
    };
    auto at = [&](P tau) {
      Candidate c;
      c.eased = integrate({P(0), pr.start.velocity, a0}, -sign * j, tau);
      c.change =
          velocity_change(c.eased.velocity, c.eased.acceleration, pr.target_velocity, pr.lim);
      State e = integrate(c.eased, c.change.jerk, c.change.t1);
      e = integrate(e, P(0), c.change.t2);
      e = integrate(e, -c.change.jerk, c.change.t3);
      c.time = tau + change_time(c.change);
      c.error = e.position - pr.distance;
      return c;
    };
    // Inside the velocity limit throughout: the eased phase moves monotonically, the change
    // peaks at its natural velocity or ends at the target's.
    auto inside = [&](const Candidate& c) {
      const P natural = natural_velocity(c.eased.velocity, c.eased.acceleration, j);
      const bool overshoots = (c.change.jerk > P(0)) != (c.eased.acceleration > P(0));
      return !overshoots || abs(natural) <= pr.lim.velocity * (P(1) + P(16) * detail::epsilon<P>());
    };
    std::optional<Plan> best;
    P best_time = bound;
    auto consider = [&](P tau) {
      const Candidate c = at(tau);
      if (!(c.time < best_time) || !inside(c)) return;
      Plan plan{};
      plan.lead = tau;
      plan.lead_jerk = -sign * j;
      plan.second = c.change;
      plan.duration = c.time;
      plan.peak = pr.target_velocity;
      plan.gap = c.error;
      best = plan;
      best_time = c.time;
    };
    const int steps = 64;
    P previous_tau = P(0);
    Candidate previous = at(P(0));
    for (int k = 1; k <= steps; ++k) {
      const P tau = longest * P(k) / P(steps);
      const Candidate now = at(tau);
      if ((previous.error < P(0)) != (now.error < P(0))) {
        auto error = [&](P t) { return at(t).error; };
        consider(detail::bracketed_root(error, previous_tau, tau, previous.error, now.error));
      }
      previous_tau = tau;
      previous = now;
    }
    return best;
  }

  // A plan of exactly `duration` (at least the time-optimal one's): the longest cruise.
  static std::optional<Plan> fitted(const State& s, P position, P velocity, const Limits& lim,
                                    P duration) {
    const Problem pr = problem(s, position, velocity, lim);
    bool any = false;
    P best_vp = P(0), best_cruise = P(-1);
    const P limit = duration * (P(1) + P(64) * detail::epsilon<P>());
    peak_velocities(
        pr, duration,
        [&](P vp) {
          P d, t;
          pr.at(vp, d, t);
          const P cruise = std::max(duration - t, P(0));
          if (cruise > best_cruise) {
            any = true;
            best_cruise = cruise;
            best_vp = vp;
          }
        },
        [&] { return limit; });
    if (!any) return std::nullopt;
    return plan_at(pr, best_vp, best_cruise, duration);
  }

  // The time-optimal plan under the jerk limit scaled down until it takes `duration`.
  static std::optional<Plan> softened(const State& s, P position, P velocity, const Limits& lim,
                                      P duration) {
    auto with_jerk = [&](P scale) {
      Limits soft = lim;
      soft.jerk = lim.jerk * scale;
      return fastest(s, position, velocity, soft);
    };
    // No lower than the jerk that brings the start's acceleration to zero just at ±v_max: a
    // weaker one carries it past (the first change eases the acceleration at the jerk it is
    // given). A start already carried past under the full limit is not softened.
    const P a = s.acceleration, room = lim.velocity - (a > P(0) ? s.velocity : -s.velocity);
    const bool settled = !(a < P(0)) && !(a > P(0));
    const P floor = settled ? P(0) : a * a / (P(2) * lim.jerk * room);
    if (!settled && (!(room > P(0)) || !(floor < P(1)))) return std::nullopt;
    P hi = P(1), lo = P(1);  // duration(hi) <= duration < duration(lo)
    std::optional<Plan> slow;
    // Down to a millionth of the jerk limit: below that the profile's own numbers lose more
    // digits than the duration asked for has.
    for (int k = 0; k < 20 && lo > floor; ++k) {
      lo = std::max(lo * P(0.5), floor);
      slow = with_jerk(lo);
      if (!slow) return std::nullopt;
      if (slow->duration > duration) break;
      hi = lo;
    }
    if (!slow || !(slow->duration > duration)) return std::nullopt;
    std::optional<Plan> fast = with_jerk(hi);
    for (int k = 0; k < 200 && fast; ++k) {
      const P mid = lo + (hi - lo) / P(2);
      if (!(mid > lo && mid < hi)) break;
      auto plan = with_jerk(mid);
      if (!plan) return std::nullopt;
      if (plan->duration > duration)
        lo = mid;
      else {
        hi = mid;
        fast = plan;
      }
    }
    using std::abs;
    if (!fast || abs(fast->duration - duration) > P(1e-12) * duration) return std::nullopt;
    fast->duration = duration;
    return fast;
  }

  // between_cruises' inputs: to_position's checks, both velocities in [0, v_max], end >= start.
  static std::optional<Expected<JerkTrajectory>> cruises_error(S start, S end, S from_velocity,
                                                               S to_velocity,
                                                               const JerkLimits<S>& limits) {
    if (auto error =
            input_error("between_cruises", {start, from_velocity, S(0)}, end, to_velocity, limits))
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
                                                             const AxisState<S>& from, S position,
                                                             S velocity,
                                                             const JerkLimits<S>& limits) {
    if (auto error = limits.error(what)) return Expected<JerkTrajectory>(std::move(*error));
    if (!std::isfinite(from.position) || !std::isfinite(from.velocity) ||
        !std::isfinite(from.acceleration) || !std::isfinite(position) || !std::isfinite(velocity))
      return Expected<JerkTrajectory>(
          make_error(ErrorCode::non_finite, std::string(what) + ": state or target not finite"));
    using std::abs;
    if (abs(velocity) > limits.max_velocity)
      return Expected<JerkTrajectory>(make_error(
          ErrorCode::out_of_range, std::string(what) + ": target velocity " +
                                       detail::number_text(velocity) + " beyond max_velocity " +
                                       detail::number_text(limits.max_velocity)));
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
  static Expected<JerkTrajectory> made(const Builder& b, S position, S velocity,
                                       P position_allowance = P(0)) {
    JerkTrajectory t(b, position, velocity);
    bool finite = std::isfinite(t.duration_) && std::isfinite(t.end_.position);
    using std::abs;
    P position_scale = abs(P(position)), velocity_scale = abs(P(velocity)),
      acceleration_scale = P(0);
    for (int i = 0; i < b.count; ++i) {
      const auto& item = b.items[static_cast<std::size_t>(i)];
      const Phase& ph = t.phases_[static_cast<std::size_t>(i)];
      finite = finite && std::isfinite(ph.start_time) && std::isfinite(ph.duration) &&
               std::isfinite(ph.jerk) && std::isfinite(ph.start.position) &&
               std::isfinite(ph.start.velocity) && std::isfinite(ph.start.acceleration);
      const P d = item.duration, j = abs(item.jerk), a = abs(item.start.acceleration),
              v = abs(item.start.velocity);
      position_scale += abs(item.start.position) + d * (v + d * (a / P(2) + d * j / P(6)));
      velocity_scale += v + d * (a + d * j / P(2));
      acceleration_scale += a + d * j;
    }
    if (!finite || !std::isfinite(position_scale) || !std::isfinite(velocity_scale) ||
        !std::isfinite(acceleration_scale))
      return make_error(ErrorCode::out_of_range,
                        "jerk trajectory: state, target and limits too far apart in scale (a "
                        "duration or an intermediate state overflows)");
    const auto count = static_cast<std::size_t>(b.count);
    // 1e-7: a sound plan's halves meet within 1e-10 of the move; near the border between one
    // velocity change and two, the plan taken when none is sound can leave 1e-8.
    const auto apart = [&](const State& x, const State& y) {
      return abs(x.position - y.position) >
                 std::max(P(1e-7) * position_scale, position_allowance) ||
             abs(x.velocity - y.velocity) > P(1e-7) * velocity_scale ||
             abs(x.acceleration - y.acceleration) > P(1e-7) * acceleration_scale;
    };
    // The first phase starts on the start (it is laid back from the target where the plan is
    // only a second change), each next one where the one before it ends, and the last ends on
    // the target.
    // (No phase at all: the start is the target.)
    bool joined = !apart(b.origin, count == 0 ? b.state : b.items[0].start);
    for (std::size_t i = 0; i < count && joined; ++i) {
      const auto& item = b.items[i];
      const State end = integrate(item.start, item.jerk, item.duration);
      // (The end in P: a float trajectory's end rounds to S only when it is stored.)
      const State next = i + 1 < count ? b.items[i + 1].start : b.state;
      joined = !apart(end, next);
    }
    if (!joined)
      return make_error(ErrorCode::out_of_range,
                        "jerk trajectory: limits too far apart in scale for a reliable profile "
                        "(its phases would not join)");
    return t;
  }

  JerkTrajectory(const Builder& b, S position, S velocity) {
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
    end_ = {position, velocity, S(0)};
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
