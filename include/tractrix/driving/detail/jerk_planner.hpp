/// @file
/// The engine behind `JerkTrajectory` (driving/jerk_trajectory.hpp): the time-optimal
/// two-change profile in its peak velocity, the dip and bump families, and fitting a profile to
/// a given duration. Not API. Templated on the planning scalar only, so float and double
/// trajectories share one instantiation (both plan in double).
//
// The facts behind it are those of Berscheid and Kröger, "Jerk-limited Real-time Trajectory
// Generation with Arbitrary Target States" (RSS 2021); the formulation here is tractrix's own:
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
// at its own speed is a bump of the velocity in closed form (bump()). Two common moves skip the
// search: rest to rest (rest_to_rest(), the peak in closed form) and a cruise at the velocity
// limit that a bound proves fastest (bounded_cruise()). Checked against Ruckig on 40 000 random
// states inside the limits: the same durations to 1e-10.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "tractrix/core/numeric.hpp"
#include "tractrix/core/polynomial.hpp"

namespace tractrix::detail {

// The time of the fastest change of velocity by `change` (>= 0) from and to zero acceleration
// under an acceleration limit and a jerk: jerk up and down (2√(Δ/J)) below the knee Δ = A²/J,
// with a hold at A above it (Δ/A + A/J).
template <class P>
P velocity_change_time(P change, P limit, P jerk) noexcept {
  using std::sqrt;
  return change <= limit * limit / jerk ? P(2) * sqrt(change / jerk)
                                        : change / limit + limit / jerk;
}

template <class P>
struct JerkPlanner {
  // At most: the acceleration braked to its limit, the velocity braked to its limit (a jerk and a
  // hold), three phases for the first velocity change, a cruise, three for the second.
  static constexpr int max_phases = 10;

  struct Limits {
    P velocity, acceleration, deceleration, jerk;
    P reverse;  // the most negative velocity's size (velocity: the most positive)
    // The velocity limit on the side of `sign` (> 0: forward).
    P speed(P sign) const noexcept { return sign > P(0) ? velocity : reverse; }
    // v inside [−reverse, velocity], each widened by `slack` (a factor).
    bool holds(P v, P slack = P(1)) const noexcept {
      return v <= velocity * slack && -v <= reverse * slack;
    }
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
    P peak;               // v_p, where the first change ends
    P lead = P(0);        // a first phase of jerk lead_jerk that only eases the acceleration
    P lead_jerk = P(0);   // (the dip profiles; then first is empty and second does the rest)
    P trail = P(0);       // a last phase of trail_jerk after the second change that only eases
    P trail_jerk = P(0);  // the acceleration into the target's (the dips mirrored in time)
    P gap = P(0);         // how far apart its halves meet (rounding, for a sound plan)
  };

  // Phases in P while planning; the trajectory stores them in its own scalar.
  struct Builder {
    explicit Builder(const State& from) : origin(from), state(from) {}
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
    // limits. (brake_velocity() then brings a velocity beyond its limit back.)
    Limits brake(const Limits& lim) {
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
    // Brings a velocity beyond ±v_max — or one the acceleration carries past it even under full
    // jerk — back to the limit as fast as the jerk allows (Ruckig's rule): jerk towards braking
    // until the velocity is at the limit or the acceleration at its braking limit, then a hold
    // there until the velocity is at the limit; the plan starts from there (a ≠ 0 in general).
    // Braking stops early where going on would carry the velocity past the opposite limit
    // (its natural velocity, reached by easing at full jerk, gets there first): the plan takes
    // over from that state, still beyond the limit, and eases as it brakes. A start whose
    // braking already has that (v − a²/2J past the opposite limit) is left to the plan.
    void brake_velocity(const Limits& lim) {
      using std::sqrt;
      const P v = state.velocity, a = state.acceleration, j = lim.jerk;
      const P natural = JerkPlanner::natural_velocity(v, a, j), braked = v - a * a / (P(2) * j),
              unbraked = v + a * a / (P(2) * j);
      const P up = lim.velocity, down = lim.reverse;
      const int side = (a > P(0) && natural > up) || (v > up && braked > -down)        ? 1
                       : (a < P(0) && natural < -down) || (v < -down && unbraked < up) ? -1
                                                                                       : 0;
      if (side == 0) return;
      const P sign = P(side);
      // In the braking direction: u the speed, b its rate; braking is b < 0, at most `limit`.
      // vmax: this side's limit; far: the opposite one's size.
      const P vmax = lim.speed(sign), far = lim.speed(-sign);
      const P u = sign * v, b = sign * a, over = u - vmax;
      const P limit = sign > P(0) ? lim.deceleration : lim.acceleration;
      // u + b t − J t²/2 = v_max: the later root (u passes the limit on its way down), written
      // without cancellation for either sign of b.
      const P root = sqrt(std::max(b * b + P(2) * j * over, P(0)));
      const P to_limit = b >= P(0) ? (b + root) / j : P(2) * over / (root - b);
      const P to_hold = (b + limit) / j;
      // The natural velocity u − b(t)²/2J falls as u + 2bt − Jt² − b²/2J: at −v_max when
      // Jt² − 2bt − (u + v_max − b²/2J) = 0.
      const P to_opposite = (b + sqrt(std::max(b * b / P(2) + j * (u + far), P(0)))) / j;
      if (to_hold < std::min(to_limit, to_opposite)) {
        add(std::max(to_hold, P(0)), -sign * j);
        state.acceleration = -sign * limit;
        // Held at −L from speed u_h: at the limit after (u_h − v_max)/L, the natural velocity
        // u_h − Lt − L²/2J at −v_max after (u_h + v_max − L²/2J)/L.
        const P held = sign * state.velocity;
        const P to_v = (held - vmax) / limit;
        const P to_far = (held + far - limit * limit / (P(2) * j)) / limit;
        add(std::max(std::min(to_v, to_far), P(0)), P(0));
        if (to_v <= to_far) state.velocity = sign * vmax;  // rounding: exactly at the limit
      } else {
        add(std::min(to_limit, to_opposite), -sign * j);
        if (to_limit <= to_opposite) state.velocity = sign * vmax;
      }
      braking_count = count;
    }
    // The plan's phases. The first change and the cruise run on from the start; the second
    // change is integrated back from the target, so the trajectory ends exactly on it — except
    // its first phase where nothing comes before it, which starts on the start. Where the
    // trajectory passes from forward to backward, the two differ by the plan's rounding (a few
    // eps of the distance; near the border between one velocity change and two, up to 1e-8).
    void add_plan(const Plan& plan, const State& target, P end_time) {
      add(plan.lead, plan.lead_jerk);
      add_change(plan.first);
      if (plan.cruise > P(0)) {
        // The first change ends at (v_p, 0) by construction: exactly, for the cruise to hold.
        state.velocity = plan.peak;
        state.acceleration = P(0);
        add(plan.cruise, P(0));
      }
      const std::array<std::pair<P, P>, 4> tail{{{plan.second.t1, plan.second.jerk},
                                                 {plan.second.t2, P(0)},
                                                 {plan.second.t3, -plan.second.jerk},
                                                 {plan.trail, plan.trail_jerk}}};
      // Its states laid out back from the end, so that it ends exactly on the target; its times
      // forward from the start, so that they ascend and the first phases keep their own times
      // however long the last ones are (placed back from an end 1e298 s away, a start 3 s in
      // would round to 0). A fixed duration still ends on end_time: it is the trajectory's.
      State end = target;
      std::array<State, 4> starts{};
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
      state = target;
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

  // The fastest change from (v, a) to (target, a_end) by jerk ±J, a hold at an acceleration
  // limit, jerk ∓J, each phase possibly empty (a_end = 0: velocity_change). Its peak acceleration
  // p, at or beyond both ends' accelerations on the side of the first jerk σ, solves
  // target − v = σ(2p² − a² − a_end²)/2J; a peak beyond the limit holds at it instead. Up to two
  // peaks on each side: the fastest. Nothing where no such change exists.
  static std::optional<Change> change_to(P v, P a, P target, P a_end, const Limits& lim) noexcept {
    if (!(a_end < P(0)) && !(a_end > P(0))) return velocity_change(v, a, target, lim);
    using std::sqrt;
    const P j = lim.jerk, dv = target - v, ends = (a * a + a_end * a_end) / P(2);
    std::optional<Change> best;
    P best_time = std::numeric_limits<P>::infinity();
    for (P sigma : {P(1), P(-1)}) {
      const P limit = sigma > P(0) ? lim.acceleration : lim.deceleration;
      const P bound = sigma > P(0) ? std::max(a, a_end) : std::min(a, a_end);
      const P p2 = sigma * j * dv + ends;
      if (!(p2 >= P(0))) continue;
      for (P p : {sqrt(p2), -sqrt(p2)}) {
        if (sigma * p < sigma * bound) continue;
        Change c{sigma * (p - a) / j, P(0), sigma * (p - a_end) / j, sigma * j};
        if (sigma * p > limit) {
          // Held at σ·limit for the velocity the two ramps to and from it leave.
          const P held = sigma * limit;
          const P ramps = sigma * (P(2) * limit * limit - a * a - a_end * a_end) / (P(2) * j);
          c = Change{sigma * (held - a) / j, std::max((dv - ramps) / held, P(0)),
                     sigma * (held - a_end) / j, sigma * j};
        }
        const P time = change_time(c);
        if (time < best_time) {
          best_time = time;
          best = c;
        }
      }
    }
    return best;
  }

  // ---- The closed form of the two-change profile in its peak velocity v_p -------------------
  //
  // The first change, shaped up (+J first, v_p >= the natural velocity) or down, is the tail (or
  // an extension) of a symmetric change from a virtual start (w, 0): w = v ∓ a²/2J, reached from
  // (v, a) by a prefix of signed duration ∓a/J. A symmetric change by Δ = |v_p − w| under
  // acceleration limit L takes τ(Δ) = 2√(Δ/J) (Δ <= L²/J) or Δ/L + L/J, and covers
  // (w + v_p)/2 · τ (it is symmetric). The second change is a first change run backwards in
  // time: from (v_p, 0) to the target's (v*, a*) it is, reversed and mirrored, the change from
  // (v*, −a*) to v_p under the acceleration and deceleration limits swapped — with a virtual end
  // e of its own (e = v* where a* = 0). So d(v_p) = prefix_A + (w + v_p)τ_A/2 + prefix_B +
  // (e + v_p)τ_B/2.
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

  // The limits of a move run backwards in time: its accelerations are the forward move's
  // decelerations.
  static Limits mirrored(const Limits& lim) noexcept {
    return {lim.velocity, lim.deceleration, lim.acceleration, lim.jerk, lim.reverse};
  }

  struct Problem {
    State start;
    P distance, target_velocity, target_acceleration;
    Limits lim;
    FirstShape up, down;          // the first change's shapes, from the start
    FirstShape end_up, end_down;  // the second change's, from the target mirrored in time
    P natural, end_natural;       // where each change's shape turns: v + a|a|/2J, v* − a*|a*|/2J
    const FirstShape& first_of(P vp) const noexcept { return vp >= natural ? up : down; }
    const FirstShape& second_of(P vp) const noexcept {
      return vp >= end_natural ? end_up : end_down;
    }
    // Distance and duration of the two changes meeting at v_p (no cruise).
    void at(P vp, P& distance_out, P& time_out) const noexcept {
      using std::abs;
      const FirstShape& f = first_of(vp);
      const FirstShape& e = second_of(vp);
      const P ta = detail::velocity_change_time(abs(vp - f.w), f.limit, lim.jerk);
      const P tb = detail::velocity_change_time(abs(vp - e.w), e.limit, lim.jerk);
      distance_out =
          f.prefix_distance + (f.w + vp) / P(2) * ta + e.prefix_distance + (e.w + vp) / P(2) * tb;
      time_out = f.prefix_time + ta + e.prefix_time + tb;
    }
  };

  // Polynomials in the stretch's variable x, degree <= 6 (higher terms of a product dropped),
  // with the degree they are known to have at most: the products skip the zeros above it.
  struct Poly {
    std::array<P, 7> c{};
    std::size_t n = 0;
    static Poly constant(P k) {
      Poly p;
      p.c[0] = k;
      return p;
    }
    static Poly monomial(P k, int degree) {
      Poly p;
      p.n = static_cast<std::size_t>(degree);
      p.c[p.n] = k;
      return p;
    }
    Poly operator+(const Poly& o) const {
      Poly r;
      r.n = std::max(n, o.n);
      for (std::size_t k = 0; k <= r.n; ++k)
        r.c[k] = c[k] + o.c[k];
      return r;
    }
    Poly operator-(const Poly& o) const { return *this + o * P(-1); }
    Poly operator*(P k) const {
      Poly r;
      r.n = n;
      for (std::size_t i = 0; i <= n; ++i)
        r.c[i] = c[i] * k;
      return r;
    }
    Poly operator*(const Poly& o) const {
      Poly r;
      r.n = std::min(n + o.n, r.c.size() - 1);
      for (std::size_t i = 0; i <= n; ++i)
        for (std::size_t k = 0; k <= o.n && i + k <= r.n; ++k)
          r.c[i + k] += c[i] * o.c[k];
      return r;
    }
    P operator()(P x) const { return detail::horner(c.data(), static_cast<int>(n), x); }
  };

  // Where a half changes shape, clamped to [−v_max, v_max] and sorted: each change's turn
  // (the start's natural velocity, the target's) and where each starts holding an acceleration.
  static std::array<P, 8> shape_cuts(const Problem& pr) {
    const P j = pr.lim.jerk, vmax = pr.lim.velocity, vmin = -pr.lim.reverse;
    const auto hold = [j](const FirstShape& f) { return f.w + f.sign * f.limit * f.limit / j; };
    std::array<P, 8> cuts{vmin,          vmax,           pr.natural,        hold(pr.up),
                          hold(pr.down), pr.end_natural, hold(pr.end_down), hold(pr.end_up)};
    for (P& x : cuts)
      x = std::min(std::max(x, vmin), vmax);
    std::sort(cuts.begin(), cuts.end());
    return cuts;
  }

  // A stretch of v_p between two cuts, the least and most duration each change has on it, and
  // the shortest duration the two can have on it.
  struct Stretch {
    P lo, hi, shortest;
    P first_least, first_most, second_least, second_most;
  };
  struct Stretches {
    std::array<Stretch, 7> items{};
    std::size_t count = 0;
  };

  // The least time a move without a cruise covers the distance in, with v_p in [lo, hi]: every
  // velocity of its changes lies between the start's, the target's, their natural velocities
  // (where a change's acceleration passes zero) and v_p, so it covers at most the fastest of
  // them that way times its duration. 0 for no distance, infinity where none goes that way.
  static P by_distance(const Problem& pr, P lo, P hi) noexcept {
    using std::abs;
    const P d = pr.distance;
    if (!(d < P(0)) && !(d > P(0))) return P(0);
    const P reach =
        d > P(0)
            ? std::max({pr.start.velocity, pr.natural, pr.target_velocity, pr.end_natural, hi})
            : -std::min({pr.start.velocity, pr.natural, pr.target_velocity, pr.end_natural, lo});
    return reach > P(0) ? abs(d) / reach : std::numeric_limits<P>::infinity();
  }

  // The non-empty stretches between the cuts, shortest first.
  static Stretches stretches_by_shortest(const Problem& pr, const std::array<P, 8>& cuts) {
    using std::abs;
    const P j = pr.lim.jerk;
    Stretches out;
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      const P lo = cuts[k], hi = cuts[k + 1];
      if (!(hi > lo)) continue;
      // Each half's duration is monotone in v_p on a stretch: the least at one of its ends.
      const P mid = lo + (hi - lo) / P(2);
      const FirstShape& f = pr.first_of(mid);
      const FirstShape& e = pr.second_of(mid);
      const P ta_lo = detail::velocity_change_time(abs(lo - f.w), f.limit, j),
              ta_hi = detail::velocity_change_time(abs(hi - f.w), f.limit, j),
              tb_lo = detail::velocity_change_time(abs(lo - e.w), e.limit, j),
              tb_hi = detail::velocity_change_time(abs(hi - e.w), e.limit, j);
      const P ta = std::min(ta_lo, ta_hi), tb = std::min(tb_lo, tb_hi);
      // Nor shorter than the distance allows (a hair less: rounding must not skip a root).
      const Stretch st{lo,
                       hi,
                       std::max(f.prefix_time + e.prefix_time + ta + tb,
                                by_distance(pr, lo, hi) * (P(1) - P(1e-9))),
                       ta,
                       std::max(ta_lo, ta_hi),
                       tb,
                       std::max(tb_lo, tb_hi)};
      std::size_t at = out.count++;
      for (; at > 0 && out.items[at - 1].shortest > st.shortest; --at)
        out.items[at] = out.items[at - 1];
      out.items[at] = st;
    }
    return out;
  }

  // The residual on one stretch as G(x) = R(x) + z(x)·Q(x) in a variable x that makes both halves
  // polynomial: x = √|v_p − w| while the first change has no hold, else x = √|v_p − e| while the
  // second has none, else x = v_p. z = √(zz(x)) where neither half holds (τ_B = 2z/√J).
  struct StretchEquation {
    Poly vp, ta, tb, zz, r, q;
    bool has_z = false;
    P xlo = P(0), xhi = P(0);

    P g(P x) const {
      using std::sqrt;
      const P z = has_z ? sqrt(std::max(zz(x), P(0))) : P(0);
      return r(x) + z * q(x);
    }
    // Every root of G is a root of E = R² − z²Q² (or of R where there is no z).
    Poly squared() const { return has_z ? r * r - zz * q * q : r; }
  };

  static StretchEquation stretch_equation(const Problem& pr, const Stretch& st, P fixed_duration) {
    using std::abs;
    using std::sqrt;
    const P j = pr.lim.jerk, root_j = sqrt(j);
    const P lo = st.lo, hi = st.hi, mid = lo + (hi - lo) / P(2);
    const FirstShape& f = pr.first_of(mid);
    const FirstShape& e = pr.second_of(mid);
    const bool hold_a = abs(mid - f.w) > f.limit * f.limit / j;
    const bool hold_b = abs(mid - e.w) > e.limit * e.limit / j;
    // A change's duration where it holds its acceleration limit, linear in v_p.
    const auto held = [j](const Poly& vp, const FirstShape& shape) {
      return (vp - Poly::constant(shape.w)) * (shape.sign / shape.limit) +
             Poly::constant(shape.limit / j);
    };
    StretchEquation eq;
    if (!hold_a) {
      eq.vp = Poly::constant(f.w) + Poly::monomial(f.sign, 2);
      eq.ta = Poly::monomial(P(2) / root_j, 1);
      if (hold_b) {
        eq.tb = held(eq.vp, e);
      } else {
        eq.has_z = true;
        eq.zz = (eq.vp - Poly::constant(e.w)) * e.sign;
      }
      eq.xlo = sqrt(abs(lo - f.w));
      eq.xhi = sqrt(abs(hi - f.w));
    } else if (!hold_b) {
      eq.vp = Poly::constant(e.w) + Poly::monomial(e.sign, 2);
      eq.tb = Poly::monomial(P(2) / root_j, 1);
      eq.ta = held(eq.vp, f);
      eq.xlo = sqrt(abs(lo - e.w));
      eq.xhi = sqrt(abs(hi - e.w));
    } else {
      eq.vp = Poly::monomial(P(1), 1);
      eq.ta = held(eq.vp, f);
      eq.tb = held(eq.vp, e);
      eq.xlo = lo;
      eq.xhi = hi;
    }
    if (eq.xlo > eq.xhi) std::swap(eq.xlo, eq.xhi);
    eq.r = Poly::constant(f.prefix_distance + e.prefix_distance - pr.distance) +
           (Poly::constant(f.w) + eq.vp) * eq.ta * P(0.5) +
           (Poly::constant(e.w) + eq.vp) * eq.tb * P(0.5);
    eq.q = eq.has_z ? (Poly::constant(e.w) + eq.vp) * (P(1) / root_j) : Poly{};
    if (fixed_duration >= P(0)) {
      eq.r = eq.r + eq.vp * (Poly::constant(fixed_duration - f.prefix_time - e.prefix_time) -
                             eq.ta - eq.tb);
      if (eq.has_z) eq.q = eq.q - eq.vp * (P(2) / root_j);
    }
    return eq;
  }

  // Reports peak velocities to `found`: those whose two changes fit in the fixed duration (if
  // one is fixed), and, for candidates not found as sign changes, only those whose residual is
  // within rounding of zero.
  template <class Found>
  struct PeakReport {
    const Problem& pr;
    P fixed_duration;
    Found& found;

    bool fixed() const { return fixed_duration >= P(0); }
    // Whether the profile through v_p, `time` long without a cruise, fits in the fixed duration:
    // within 1e-12 of it, or of what a few ulps of v_p move its duration. A root's duration
    // carries the rounding of its v_p, steep where a change is nearly empty (τ grows as √Δ);
    // a duration on the profile list must be met (no_sooner() steps to them), and the list's
    // roots are of another equation, rounded their own way.
    bool fits(P vp, P time) const {
      using std::abs;
      if (!fixed() || !(time > fixed_duration * (P(1) + P(1e-12)))) return true;
      const P step = P(64) * detail::epsilon<P>() * std::max(abs(vp), pr.lim.velocity);
      P d, below, above;
      pr.at(vp - step, d, below);
      pr.at(vp + step, d, above);
      return !(std::min(below, above) > fixed_duration * (P(1) + P(1e-12)));
    }
    // A root found as a sign change of the residual.
    void root(P vp) const {
      P time, d;
      pr.at(vp, d, time);
      if (fits(vp, time)) found(vp);
    }
    // A candidate that is a root only if its residual is within rounding.
    void candidate(P vp) const {
      using std::abs;
      P time, d;
      pr.at(vp, d, time);
      if (!fits(vp, time)) return;
      P r = d - pr.distance;
      if (fixed()) r += vp * (fixed_duration - time);
      if (abs(r) <= candidate_rounding(pr, vp, time, fixed() ? fixed_duration : P(0))) found(vp);
    }
  };

  // How far from zero a candidate's residual may be and still be taken for a root: rounding of
  // the distance's terms, at v_p, with the changes `time` long (and a cruise that keeps a fixed
  // duration). Grows with |v_p| and the time.
  static P candidate_rounding(const Problem& pr, P vp, P time, P fixed_duration) noexcept {
    using std::abs;
    const P scale =
        abs(pr.distance) + abs(pr.up.prefix_distance) + abs(pr.end_up.prefix_distance) +
        (abs(pr.up.w) + abs(pr.down.w) + (abs(pr.end_up.w) + abs(pr.end_down.w)) / P(2) +
         P(2) * abs(vp)) *
            (time + abs(pr.up.prefix_time) + abs(pr.end_up.prefix_time) + fixed_duration);
    return P(256) * detail::epsilon<P>() * scale;
  }

  // The roots of G on one stretch. Every root of G is one of E, and E is monotone between its
  // turns (the roots of its derivative), so each piece between them holds at most one root of
  // G, bracketed by G's signs at the piece's ends; false position on G itself finds it to the
  // last bits (E loses digits where two of its roots are close). Where G touches zero without
  // changing sign (a double root, or two roots closer than rounding), E turns: the turns are
  // candidates.
  template <class Found>
  static void roots_on_stretch(const StretchEquation& e, const Stretch& st,
                               const PeakReport<Found>& report) {
    const auto g = [&e](P x) { return e.g(x); };
    const auto clamped = [&](P x) { return std::min(std::max(e.vp(x), st.lo), st.hi); };
    const Poly equation = e.squared();
    std::array<P, detail::max_root_degree> slope{};
    for (std::size_t k = 0; k < slope.size(); ++k)
      slope[k] = P(k + 1) * equation.c[k + 1];
    P turns[detail::max_root_degree - 1];
    const int turn_count =
        detail::interval_roots(slope.data(), detail::max_root_degree - 1, e.xlo, e.xhi, turns);
    const int degree = static_cast<int>(equation.n);
    P sample_x = e.xlo, sample_g = g(e.xlo);
    for (int i = 0; i <= turn_count; ++i) {
      const P next_x = i < turn_count ? turns[i] : e.xhi;
      const P next_g = g(next_x);
      if ((sample_g < P(0) && next_g > P(0)) || (sample_g > P(0) && next_g < P(0))) {
        const P root = detail::bracketed_root(g, sample_x, next_x, sample_g, next_g);
        report.root(clamped(root));
        // And E's root there, a candidate: where G is flat its rounding can leave G's root a
        // few digits off, where E's is sharper. Newton on E from G's root, inside the piece.
        P x = root;
        for (int k = 0; k < 3 && degree > 0; ++k) {
          const P step = equation(x) / detail::horner(slope.data(), degree - 1, x);
          const P next = x - step;
          if (!(next > sample_x && next < next_x) || !(step < P(0) || step > P(0))) break;
          x = next;
        }
        if (x < root || x > root) report.candidate(clamped(x));
      } else if (!(next_g < P(0)) && !(next_g > P(0))) {
        report.root(clamped(next_x));
      }
      sample_x = next_x;
      sample_g = next_g;
    }
    for (int i = 0; i < turn_count; ++i)
      report.candidate(clamped(turns[i]));
  }

  // Whether the residual cannot vanish on a stretch (so that it holds no root, nor a candidate
  // at its ends), by interval arithmetic: each change's duration lies between its least and most
  // there, v_p and w + v_p between their values at the ends; each product then lies between its
  // corners'. Widened by 1e-9 of the terms' size, so that rounding never skips a root, and by
  // at least what a candidate at either end may be off (candidate_rounding()).
  static bool misses(const Problem& pr, const Stretch& st, P fixed_duration) {
    using std::abs;
    const P lo = st.lo, hi = st.hi, mid = lo + (hi - lo) / P(2);
    const FirstShape& f = pr.first_of(mid);
    const FirstShape& e = pr.second_of(mid);
    struct Range {
      P lo, hi;
      P size() const noexcept { return std::max(abs(lo), abs(hi)); }
    };
    const auto product = [](Range x, Range y) {
      const P c0 = x.lo * y.lo, c1 = x.lo * y.hi, c2 = x.hi * y.lo, c3 = x.hi * y.hi;
      return Range{std::min({c0, c1, c2, c3}), std::max({c0, c1, c2, c3})};
    };
    const Range ta{st.first_least, st.first_most}, tb{st.second_least, st.second_most};
    const Range da = product({(f.w + lo) / P(2), (f.w + hi) / P(2)}, ta);
    const Range db = product({(e.w + lo) / P(2), (e.w + hi) / P(2)}, tb);
    const P base = f.prefix_distance + e.prefix_distance - pr.distance;
    Range r{base + da.lo + db.lo, base + da.hi + db.hi};
    P size =
        abs(f.prefix_distance) + abs(e.prefix_distance) + abs(pr.distance) + da.size() + db.size();
    if (fixed_duration >= P(0)) {  // + v_p (T − T(v_p)): the cruise that keeps the duration
      const P rest = fixed_duration - f.prefix_time - e.prefix_time;
      const Range cruise = product({lo, hi}, {rest - ta.hi - tb.hi, rest - ta.lo - tb.lo});
      r = {r.lo + cruise.lo, r.hi + cruise.hi};
      size += std::max(abs(lo), abs(hi)) * (abs(rest) + ta.hi + tb.hi);
    }
    const P longest = abs(f.prefix_time) + abs(e.prefix_time) + ta.hi + tb.hi;
    const P slack =
        std::max(P(1e-9) * size, candidate_rounding(pr, std::max(abs(lo), abs(hi)), longest,
                                                    std::max(fixed_duration, P(0))));
    return r.lo > slack || r.hi < -slack;
  }

  // Every v_p in [−v_max, v_max] at which the two changes, with a cruise of
  // `fixed_duration` − T(v_p) at v_p when a duration is fixed (< 0: no cruise), cover the
  // distance; calls found(v_p) for each. Stretches are searched in the order of the shortest
  // duration they could hold, and skipped once that is no shorter than bound() (the best found so
  // far, or the fixed duration).
  template <class Found, class Bound>
  static void peak_velocities(const Problem& pr, P fixed_duration, Found found, Bound bound) {
    const PeakReport<Found> report{pr, fixed_duration, found};
    const Stretches stretches = stretches_by_shortest(pr, shape_cuts(pr));
    for (std::size_t k = 0; k < stretches.count; ++k) {
      const Stretch& st = stretches.items[k];
      if (!(st.shortest <= bound())) break;
      if (misses(pr, st, fixed_duration)) continue;
      report.candidate(st.lo);
      report.candidate(st.hi);
      roots_on_stretch(stretch_equation(pr, st, fixed_duration), st, report);
    }
  }

  // From `s` to `target`'s position, velocity and acceleration.
  static Problem problem(const State& s, const State& target, const Limits& lim) {
    const State end{P(0), target.velocity, -target.acceleration};  // mirrored in time
    const Limits back = mirrored(lim);
    Problem pr{s,
               target.position - s.position,
               target.velocity,
               target.acceleration,
               lim,
               first_shape(s, true, lim),
               first_shape(s, false, lim),
               first_shape(end, true, back),
               first_shape(end, false, back),
               natural_velocity(s.velocity, s.acceleration, lim.jerk),
               natural_velocity(end.velocity, end.acceleration, lim.jerk)};
    return pr;
  }

  // The target's state, and the problem run backwards in time: from the target (v*, −a*) to
  // the start (v, −a) over the same distance, under the accelerations swapped.
  static State target_of(const Problem& pr) noexcept {
    return {pr.start.position + pr.distance, pr.target_velocity, pr.target_acceleration};
  }
  static Problem reversed(const Problem& pr) {
    return problem({P(0), pr.target_velocity, -pr.target_acceleration},
                   {pr.distance, pr.start.velocity, -pr.start.acceleration}, mirrored(pr.lim));
  }

  // The fastest change from (v_p, 0) to the target's (v*, a*): the first change of the problem
  // run backwards, from (v*, −a*) to v_p, its phases in reverse order.
  static Change second_change(const Problem& pr, P vp) noexcept {
    const Change back =
        velocity_change(pr.target_velocity, -pr.target_acceleration, vp, mirrored(pr.lim));
    return {back.t3, back.t2, back.t1, -back.jerk};
  }

  static P change_time(const Change& c) noexcept { return c.t1 + c.t2 + c.t3; }

  // The plan through v_p with a cruise there, and how far apart its two halves meet: the first
  // change integrated from the start, the cruise and second change back from the target.
  static Plan plan_through(const Problem& pr, P vp, P cruise, P& gap) {
    Plan plan;
    plan.first = velocity_change(pr.start.velocity, pr.start.acceleration, vp, pr.lim);
    plan.second = second_change(pr, vp);
    plan.cruise = cruise;
    plan.peak = vp;
    plan.duration = change_time(plan.first) + cruise + change_time(plan.second);
    State a{P(0), pr.start.velocity, pr.start.acceleration};
    a = integrate(a, plan.first.jerk, plan.first.t1);
    a = integrate(a, P(0), plan.first.t2);
    a = integrate(a, -plan.first.jerk, plan.first.t3);
    State b{pr.distance, pr.target_velocity, pr.target_acceleration};
    b = integrate(b, -plan.second.jerk, -plan.second.t3);
    b = integrate(b, P(0), -plan.second.t2);
    b = integrate(b, plan.second.jerk, -plan.second.t1);
    // The cruise at exactly (v_p, 0), as the trajectory runs it: the few ulps of acceleration the
    // second change leaves, over a cruise of 10⁵ s, would move it by 1e-6.
    b = integrate({b.position, vp, P(0)}, P(0), -cruise);
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
    const P vmax = pr.lim.velocity, vmin = -pr.lim.reverse;
    auto gap_at = [&](P v) {
      P g;
      plan_through(pr, v, cruise_at(v), g);
      return g;
    };
    P width = P(4) * detail::epsilon<P>() * std::max({abs(vp), vmax, -vmin});
    P lo = vp, hi = vp, gap_lo = gap, gap_hi = gap;
    for (int k = 0; k < 48 && (gap_lo < P(0)) == (gap_hi < P(0)); ++k, width *= P(2)) {
      lo = std::max(vp - width, vmin);
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
      // With a fixed duration, not a v_p whose changes alone take longer (the bracket can grow
      // onto another, slower root: its phases would outlast the duration they are given).
      if (abs(polished_gap) < abs(gap) &&
          (!fixed || !(polished_plan.duration > fixed_duration * (P(1) + P(1e-12))))) {
        plan = polished_plan;
        plan.gap = polished_gap;
      }
    }
    if (fixed) plan.duration = fixed_duration;
    return plan;
  }

  // Whether a plan's halves meet within rounding of the move (1e-10 of its scale).
  static bool sound(const Problem& pr, const Plan& plan) noexcept {
    using std::abs;
    const P scale = abs(pr.distance) + (abs(pr.start.velocity) + pr.lim.velocity) * plan.duration;
    return abs(plan.gap) <= P(1e-10) * scale;
  }

  // A cruise at the velocity limit that no move beats, without searching v_p: the start does
  // not slow along the distance (v, a >= 0 that way) and the target is met slowing or steady
  // (v* >= 0, a* <= 0). Then the fastest change from the start up to the limit bounds the
  // velocity of every move at each time (a move above it somewhere would have to brake harder
  // than the jerk allows to stay under the limit), and the fastest change down to the target,
  // run back from the end, bounds it before the end. Both bounds rise with time and are never
  // negative, so in less time than the cruise the least of them covers less than the distance,
  // and so does every move. Most long moves are these.
  static std::optional<Plan> bounded_cruise(const Problem& pr) {
    const P d = pr.distance;
    if (!(d < P(0)) && !(d > P(0))) return std::nullopt;
    const P sign = d > P(0) ? P(1) : P(-1);
    if (sign * pr.start.velocity < P(0) || sign * pr.start.acceleration < P(0) ||
        sign * pr.target_velocity < P(0) || sign * pr.target_acceleration > P(0) ||
        !pr.lim.holds(pr.natural) || !pr.lim.holds(pr.end_natural))
      return std::nullopt;
    const P edge = sign * pr.lim.speed(sign);
    if (!(sign * edge > P(0))) return std::nullopt;
    P covered, time;
    pr.at(edge, covered, time);
    const P cruise = (d - covered) / edge;
    if (!(cruise >= P(0))) return std::nullopt;
    Plan plan = plan_at(pr, edge, cruise);
    if (!sound(pr, plan)) return std::nullopt;
    return plan;
  }

  // Rest to rest (the S-curve, under acceleration and deceleration limits of their own) without
  // a cruise: one peak u = |v_p| towards the target, where the distance u/2 (τ_up(u) + τ_down(u))
  // grows with u, so the root is the one in the piece the distance falls in: 2u^(3/2)/√J below
  // both knees (u³ in closed form), a quartic in √u with positive coefficients between them
  // (Newton from the piece's top, monotone), a quadratic in u above both. The signed peak
  // velocity; nothing where the move is not rest to rest or cruises at the limit.
  static std::optional<P> rest_peak(const Problem& pr) {
    using std::sqrt;
    const P d = pr.distance, zero = P(0);
    if (!detail::exactly_equal(pr.start.velocity, zero) ||
        !detail::exactly_equal(pr.start.acceleration, zero) ||
        !detail::exactly_equal(pr.target_velocity, zero) ||
        !detail::exactly_equal(pr.target_acceleration, zero) || !(d < zero || d > zero))
      return std::nullopt;
    const P sign = d > zero ? P(1) : P(-1), goal = sign * d, j = pr.lim.jerk;
    const P speed = pr.lim.speed(sign);
    // The knees, where each change starts holding its limit: the nearer first.
    P near = sign > zero ? pr.lim.acceleration : pr.lim.deceleration;
    P far = sign > zero ? pr.lim.deceleration : pr.lim.acceleration;
    if (far < near) std::swap(near, far);
    const auto covered = [&](P u) {
      P distance, time;
      pr.at(sign * u, distance, time);
      return sign * distance;
    };
    if (!(covered(speed) > goal)) return std::nullopt;  // a cruise (or none)
    const P knee_near = std::min(near * near / j, speed), knee_far = std::min(far * far / j, speed);
    if (!(covered(knee_near) < goal)) return sign * std::cbrt(goal * goal * j / P(4));
    if (!(covered(knee_far) < goal)) {
      // x²/2 (x²/L + L/J + 2x/√J) = D in x = √u, L the nearer limit (it holds, the other not).
      const P root_j = sqrt(j);
      const auto f = [&](P x) {
        return x * x * (x * x / near + near / j + P(2) * x / root_j) / P(2) - goal;
      };
      P x = sqrt(knee_far);
      for (int k = 0; k < 64; ++k) {
        const P slope = x * (P(2) * x * x / near + near / j + P(3) * x / root_j);
        const P next = x - f(x) / slope;
        if (!(next < x)) break;
        x = next;
      }
      return sign * x * x;
    }
    const P a = (P(1) / near + P(1) / far) / P(2), b = (near + far) / (P(2) * j);
    return sign * (P(2) * goal / (b + sqrt(b * b + P(4) * a * goal)));
  }

  // Rest to rest through rest_peak(): the same v_p as the search finds; plan_at() joins the
  // halves as for it (and would mend a v_p a little off, at the cost of its bisection, which is
  // why the test checks the peak itself).
  static std::optional<Plan> rest_to_rest(const Problem& pr) {
    const std::optional<P> vp = rest_peak(pr);
    if (!vp) return std::nullopt;
    Plan plan = plan_at(pr, *vp, P(0));
    if (!sound(pr, plan)) return std::nullopt;
    return plan;
  }

  // The time-optimal plan from a state inside the limits.
  static std::optional<Plan> fastest(const State& s, const State& target, const Limits& lim) {
    const Problem pr = problem(s, target, lim);
    if (auto plan = on_arc(pr)) return plan;
    if (auto plan = bump(pr)) return plan;
    if (auto plan = bounded_cruise(pr)) return plan;
    if (auto plan = rest_to_rest(pr)) return plan;
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
    for (P edge : {lim.velocity, -lim.reverse, pr.natural, pr.end_natural}) {
      using std::abs;
      if (!lim.holds(edge) || !(abs(edge) > P(0))) continue;
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
    if (auto end_dip = dipped_end(pr, dip ? dip->duration : best_time * (P(1) + P(1e-9))))
      dip = end_dip;
    std::sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(count),
              [](const Candidate& a, const Candidate& b) { return a.time < b.time; });
    // The first whose halves meet within rounding. Two candidates nearly the same move (a
    // cruise, and a change of a few ulps of v_p at each end of it) can swap places by the
    // rounding of v_p; the one that is not sound gives way.
    // Polishing a root whose halves meet badly can end on another root, far slower (a bump of
    // v_p lost to rounding becomes a reversal); such a plan waits until the candidates it would
    // pass have been tried.
    std::optional<Plan> first, slower;
    for (std::size_t i = 0; i < count; ++i) {
      const Candidate& c = candidates[i];
      if (dip && dip->duration < c.time && sound(pr, *dip) &&
          (!slower || dip->duration < slower->duration))
        return dip;
      if (slower && slower->duration <= c.time) return slower;
      Plan plan = plan_at(pr, c.vp, c.cruise);
      if (sound(pr, plan)) {
        if (plan.duration <= c.time * (P(1) + P(1e-9))) return plan;
        if (!slower || plan.duration < slower->duration) slower = plan;
      }
      if (!first) first = plan;
    }
    if (dip && sound(pr, *dip) && (!slower || dip->duration < slower->duration)) return dip;
    if (slower) return slower;
    if (first) return first;
    return dip;
  }

  // The durations of every profile that reaches the target without a cruise inside v_max (each
  // root in v_p), and with one at ±v_max, ascending; at most 32. Where a target cannot be
  // reached in some durations past the optimum, the first duration met after that gap is one
  // of these (Berscheid and Kröger's blocked intervals end on a profile's duration). `turns`:
  // whether the profile's two changes have opposite jerks (speeding up, then slowing down, or
  // the reverse: jerk signs + − − + or − + + −), as the cruises at ±v_max have.
  struct Durations {
    std::array<P, 32> items{};
    std::array<bool, 32> turns{};
    std::array<P, 32> peaks{};  // each profile's v_p (a cruise's: ±v_max)
    std::size_t count = 0;
  };
  static Durations profile_durations(const State& s, const State& target, const Limits& lim) {
    const Problem pr = problem(s, target, lim);
    Durations out;
    for (P edge : {lim.velocity, -lim.reverse}) {
      P d, t;
      pr.at(edge, d, t);
      const P cruise = (pr.distance - d) / edge;
      if (cruise >= P(0)) add_to(out, t + cruise, true, edge);
    }
    // Each root whose halves meet (a sound profile; a root the rounding made is not one).
    peak_velocities(
        pr, P(-1),
        [&](P vp) {
          const Plan plan = plan_at(pr, vp, P(0));
          if (!sound(pr, plan)) return;
          // A change of no length turns either way.
          const bool first = plan.first.t1 + plan.first.t3 > P(0);
          const bool second = plan.second.t1 + plan.second.t3 > P(0);
          add_to(out, plan.duration,
                 !first || !second || (plan.first.jerk > P(0)) != (plan.second.jerk > P(0)),
                 plan.peak);
        },
        [] { return std::numeric_limits<P>::infinity(); });
    // Ascending; a root reported twice (a sign change and a candidate, or a stretch's end) is
    // one profile, turning if either report does.
    std::array<std::size_t, 32> order{};
    for (std::size_t i = 0; i < out.count; ++i)
      order[i] = i;
    std::sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(out.count),
              [&](std::size_t a, std::size_t b) { return out.items[a] < out.items[b]; });
    Durations sorted;
    for (std::size_t k = 0; k < out.count; ++k) {
      const P time = out.items[order[k]];
      const bool turns = out.turns[order[k]];
      if (sorted.count > 0 && !(time > sorted.items[sorted.count - 1] * (P(1) + P(1e-9))))
        sorted.turns[sorted.count - 1] = sorted.turns[sorted.count - 1] || turns;
      else
        add_to(sorted, time, turns, out.peaks[order[k]]);
    }
    return sorted;
  }
  static void add_to(Durations& d, P time, bool turns, P peak) {
    if (d.count == d.items.size() || !std::isfinite(time)) return;
    d.items[d.count] = time;
    d.peaks[d.count] = peak;
    d.turns[d.count++] = turns;
  }

  // A plan of `duration` where it is a listed profile's own (within 1e-12, as fits() allows):
  // that profile, its v_p polished from the list's for the duration. Where no_sooner() steps
  // out of a gap it asks for these; the fixed-duration roots, of another equation, can round
  // past them where that equation is flat in v_p (a hold at a small acceleration limit).
  static std::optional<Plan> listed(const Problem& pr, const Durations& all, P duration) {
    using std::abs;
    for (std::size_t i = 0; i < all.count; ++i) {
      if (!(abs(all.items[i] - duration) <= P(1e-12) * duration)) continue;
      const Plan plan = plan_at(pr, all.peaks[i], P(0), duration);
      if (sound(pr, plan)) return plan;
    }
    return std::nullopt;
  }

  // Whether no profile within the limits reaches the target in `duration`, by Berscheid and
  // Kröger's blocked intervals: the turning profiles (an odd number of them, the fastest
  // first) pair up past the fastest, and no duration between a pair is met. With five, the
  // pairs are the second and third with the fourth and fifth, or the second and fifth with the
  // third and fourth; only what both block counts. Not known to be blocked: false (an even
  // number, where rounding merged or lost a profile; a fastest turning profile that is not the
  // time-optimal move, `shortest`, as where that is a dip, which the list leaves out; or a
  // duration within 1e-9 of an end).
  static bool blocked(const Durations& all, P duration, P shortest) {
    std::array<P, 32> d{};
    std::size_t n = 0;
    for (std::size_t i = 0; i < all.count; ++i)
      if (all.turns[i]) d[n++] = all.items[i];
    using std::abs;
    if (n == 0 || !(abs(d[0] - shortest) <= P(1e-9) * shortest)) return false;
    const auto inside = [&](std::size_t i, std::size_t j) {
      return duration > d[i] * (P(1) + P(1e-9)) && duration < d[j] * (P(1) - P(1e-9));
    };
    if (n == 3) return inside(1, 2);
    if (n == 5) return inside(1, 2) || inside(3, 4);
    return false;
  }

  // A target on the start's arc at full jerk — or the start itself: reached by that one phase,
  // the fastest there is (no acceleration changes faster), within the limits if its velocity
  // stays inside them. Found here because the families above meet it only at the edge of a
  // scan, where the rounding of the changes' times hides it.
  static std::optional<Plan> on_arc(const Problem& pr) {
    using std::abs;
    const P a0 = pr.start.acceleration, a1 = pr.target_acceleration, j = pr.lim.jerk;
    const P jerk = a1 >= a0 ? j : -j, t = abs(a1 - a0) / j;
    const State end = integrate({P(0), pr.start.velocity, a0}, jerk, t);
    // On it to the rounding of the phase, and of the positions' difference — not a target a few
    // ulps of the position away from a start that stays (that is a move: bump()).
    const P eps = detail::epsilon<P>();
    const P speeds = abs(pr.start.velocity) + abs(pr.target_velocity) + abs(a0) * t;
    const P positions =
        t > P(0) ? abs(pr.start.position) + abs(pr.start.position + pr.distance) : P(0);
    if (abs(end.velocity - pr.target_velocity) > P(64) * eps * speeds ||
        abs(end.position - pr.distance) > P(4) * eps * positions + P(64) * eps * speeds * t)
      return std::nullopt;
    // The velocity's turn inside the phase, if any, must be inside the limits.
    const P turn = -a0 / jerk;
    if (turn > P(0) && turn < t &&
        !pr.lim.holds(integrate({P(0), pr.start.velocity, a0}, jerk, turn).velocity))
      return std::nullopt;
    Plan plan{};
    plan.lead = t;
    plan.lead_jerk = jerk;
    plan.duration = t;
    plan.peak = pr.target_velocity;
    plan.gap = end.position - pr.distance;
    return plan;
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
        !detail::exactly_equal(pr.target_acceleration, P(0)) ||
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
    if (!std::isfinite(x) || !(x * x <= knee * knee / j) || !(speed + x * x <= pr.lim.speed(v)))
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
    if (!dips_within(pr, bound)) return std::nullopt;
    const P sign = a0 > P(0) ? P(1) : P(-1);
    const P longest = abs(a0) / j;
    struct Candidate {
      State eased;
      Change change;
      P time, error;
      bool valid;
    };
    auto at = [&](P tau) {
      Candidate c{};
      c.eased = integrate({P(0), pr.start.velocity, a0}, -sign * j, tau);
      const std::optional<Change> change =
          change_to(c.eased.velocity, c.eased.acceleration, pr.target_velocity,
                    pr.target_acceleration, pr.lim);
      c.valid = change.has_value();
      if (!c.valid) return c;
      c.change = *change;
      State e = integrate(c.eased, c.change.jerk, c.change.t1);
      e = integrate(e, P(0), c.change.t2);
      e = integrate(e, -c.change.jerk, c.change.t3);
      c.time = tau + change_time(c.change);
      c.error = e.position - pr.distance;
      return c;
    };
    // Inside the velocity limit throughout: the eased phase moves monotonically, the change
    // peaks at its natural velocity or ends at the target's — or, where its acceleration passes
    // zero on the way to a target's a* of the other sign, at the target's natural velocity.
    auto inside = [&](const Candidate& c) {
      const P slack = P(1) + P(16) * detail::epsilon<P>();
      const P natural = natural_velocity(c.eased.velocity, c.eased.acceleration, j);
      const bool overshoots = (c.change.jerk > P(0)) != (c.eased.acceleration > P(0));
      const P peak = c.eased.acceleration + c.change.jerk * c.change.t1;
      const bool turns = (peak > P(0) && pr.target_acceleration < P(0)) ||
                         (peak < P(0) && pr.target_acceleration > P(0));
      return (!overshoots || pr.lim.holds(natural, slack)) &&
             (!turns || pr.lim.holds(pr.end_natural, slack));
    };
    std::optional<Plan> best;
    P best_time = bound;
    auto consider = [&](P tau) {
      const Candidate c = at(tau);
      if (!c.valid || !(c.time < best_time) || !inside(c)) return;
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
    // 24 samples: the same durations as 64 on 40 000 random states (Ruckig's, to 1e-10) and
    // 18 % fewer instructions a plan from a moving state.
    constexpr int steps = 24;
    std::array<P, steps + 1> taus{}, errors{}, times{};
    const auto error = [&](P t) { return at(t).error; };
    for (int k = 0; k <= steps; ++k) {
      const auto i = static_cast<std::size_t>(k);
      taus[i] = longest * P(k) / P(steps);
      const Candidate now = at(taus[i]);
      errors[i] = now.error;
      times[i] = now.valid ? now.time : std::numeric_limits<P>::infinity();
      if (k > 0 && std::isfinite(times[i - 1] + times[i]) &&
          (errors[i - 1] < P(0)) != (errors[i] < P(0)))
        consider(detail::bracketed_root(error, taus[i - 1], taus[i], errors[i - 1], errors[i]));
    }
    // A root on the scan's ends has no sign change beside it: where the error there is within
    // rounding of zero, the move is the change alone (no easing first: the start is the target,
    // or on its way to it at full jerk) or eases all the way.
    for (std::size_t i : {std::size_t(0), std::size_t(steps)})
      if (std::isfinite(times[i]) && abs(errors[i]) <= rounding(pr, times[i])) consider(taus[i]);
    twin_roots(taus, errors, times, best_time, error, consider);
    return best;
  }

  // Whether a dip can be shorter than `bound`. None is shorter than least_time(), and its
  // velocity stays between the start's, the target's and the natural velocities where its
  // acceleration may pass zero (easing keeps the start's: the change's first phase passes zero
  // there, its last at the target's), so it covers between the slowest of them and the fastest
  // times its duration T, which bounds T from both sides. To a target at rest in acceleration,
  // a dip whose change keeps the acceleration's sign moves the velocity monotonically from the
  // start's to the target's; one whose change reverses it is the profile through the start's
  // natural velocity, found among the roots.
  static bool dips_within(const Problem& pr, P bound) {
    const P v = pr.start.velocity, target = pr.target_velocity, d = pr.distance;
    const bool settles = detail::exactly_equal(pr.target_acceleration, P(0));
    if (settles && !(pr.start.acceleration * (target - v) > P(0))) return false;
    const P slow =
        settles ? std::min(v, target) : std::min({v, target, pr.natural, pr.end_natural});
    const P fast =
        settles ? std::max(v, target) : std::max({v, target, pr.natural, pr.end_natural});
    P least = least_time(pr), most = bound;
    // fast·T >= d and slow·T <= d, each a bound on T (or on the sign of d where the speed is 0).
    if (fast > P(0))
      least = std::max(least, d / fast);
    else if (fast < P(0))
      most = std::min(most, d / fast);
    else if (d > P(0))
      return false;
    if (slow < P(0))
      least = std::max(least, d / slow);
    else if (slow > P(0))
      most = std::min(most, d / slow);
    else if (d < P(0))
      return false;
    return least < most * (P(1) + P(1e-9));
  }

  // How far a move's phases may end from the target for rounding, over `time`: the rounding of
  // its positions, and what fastest() takes as sound (1e-10 of the move's scale) — a change
  // whose peak acceleration is small loses digits of its times to the velocities' rounding.
  static P rounding(const Problem& pr, P time) noexcept {
    using std::abs;
    return P(256) * detail::epsilon<P>() *
               (abs(pr.start.position) + abs(pr.start.position + pr.distance)) +
           P(1e-10) * (abs(pr.distance) + (abs(pr.start.velocity) + pr.lim.velocity) * time);
  }

  // Two roots between neighbouring samples of a scan leave no sign change: where the error comes
  // closest to zero between two others of its sign, and a parabola through the three says it
  // may cross, its extreme (golden section) brackets both — if they could beat `best_time`
  // (kept up to date by `consider`, which takes each root). A heuristic, not a bound: a pair
  // the parabola does not foresee (at a kink of the error) is not looked for.
  template <std::size_t N, class Error, class Consider>
  static void twin_roots(const std::array<P, N>& taus, const std::array<P, N>& errors,
                         const std::array<P, N>& times, const P& best_time, Error error,
                         Consider consider) {
    for (std::size_t i = 1; i + 1 < N; ++i) {
      const P s = errors[i] < P(0) ? P(-1) : P(1);
      const P f0 = s * errors[i - 1], f1 = s * errors[i], f2 = s * errors[i + 1];
      const P least = std::min({times[i - 1], times[i], times[i + 1]}),
              spread = std::max({times[i - 1], times[i], times[i + 1]}) - least;
      if (!(f0 > P(0)) || !(f2 > P(0)) || f1 > f0 || f1 > f2 || !(least - spread < best_time))
        continue;
      // The parabola's vertex: first place to look.
      const P curve = f0 - P(2) * f1 + f2;
      if (!(curve > P(0)) || f1 - (f2 - f0) * (f2 - f0) / (P(8) * curve) > P(0)) continue;
      const P vertex = taus[i] + (taus[i + 1] - taus[i]) * (f0 - f2) / (P(2) * curve);
      const auto crossing =
          below_zero([&](P t) { return s * error(t); }, taus[i - 1], taus[i + 1], vertex);
      if (!crossing) continue;
      consider(detail::bracketed_root(error, taus[i - 1], crossing->first, errors[i - 1],
                                      s * crossing->second));
      consider(detail::bracketed_root(error, crossing->first, taus[i + 1], s * crossing->second,
                                      errors[i + 1]));
    }
  }

  // Where f, positive at a and b, comes below zero between them: at `guess`, or the least f by
  // golden section (a few steps: to a percent of [a, b]), stopped as soon as one is below zero;
  // the place and f there, or nothing.
  template <class F>
  static std::optional<std::pair<P, P>> below_zero(F f, P a, P b, P guess) {
    if (guess > a && guess < b) {
      const P at_guess = f(guess);
      if (at_guess < P(0)) return std::make_pair(guess, at_guess);
    }
    const P golden = P(0.6180339887498949);
    P x1 = b - golden * (b - a), x2 = a + golden * (b - a);
    P f1 = f(x1), f2 = f(x2);
    for (int k = 0; k < 10 && f1 > P(0) && f2 > P(0); ++k) {
      if (f1 < f2) {
        b = x2, x2 = x1, f2 = f1, x1 = b - golden * (b - a), f1 = f(x1);
      } else {
        a = x1, x1 = x2, f1 = f2, x2 = a + golden * (b - a), f2 = f(x2);
      }
    }
    if (f1 < P(0)) return std::make_pair(x1, f1);
    if (f2 < P(0)) return std::make_pair(x2, f2);
    return std::nullopt;
  }

  // No move from the start to the target without a cruise (a dip has none) is shorter than the
  // fastest change of its velocity and acceleration alone, nor than by_distance() allows with
  // no v_p beyond those velocities (a hair less: rounding must not rule out a profile).
  static P least_time(const Problem& pr) {
    const std::optional<Change> change =
        change_to(pr.start.velocity, pr.start.acceleration, pr.target_velocity,
                  pr.target_acceleration, pr.lim);
    const P least = change ? change_time(*change) : P(0);
    const P v = pr.start.velocity;
    return std::max(least, by_distance(pr, v, v)) * (P(1) - P(1e-9));
  }

  // The dips run backwards in time: a target accelerating (a* ≠ 0) reached by a change whose
  // acceleration does not pass zero before a last phase only eases it into a* (jerk +J, hold,
  // −J, +J for a target accelerating forwards). The dip of the problem reversed, its phases in
  // reverse order.
  static std::optional<Plan> dipped_end(const Problem& pr, P bound) {
    if (!(pr.target_acceleration < P(0)) && !(pr.target_acceleration > P(0))) return std::nullopt;
    const std::optional<Plan> back = dipped(reversed(pr), bound);
    if (!back) return std::nullopt;
    Plan plan{};
    plan.second = Change{back->second.t3, back->second.t2, back->second.t1, -back->second.jerk};
    plan.trail = back->lead;
    plan.trail_jerk = back->lead_jerk;
    plan.duration = back->duration;
    plan.peak = pr.target_velocity;
    plan.gap = back->gap;
    return plan;
  }

  // A plan of exactly `duration` whose acceleration does not settle at zero on the way: a start
  // that must spend time but has no cruise to spend it in, and whose profiles under a softer
  // limit jump past the duration. A first stretch of t1 at jerk J' = ±J (held at the
  // acceleration limit if it gets there), reaching a1, then jerk −J' for t2, then one of
  //   a wave: J', −J' for t3, t4, where the acceleration and the duration fix
  //     t3 = (T − t1 − a1/J')/2 and t4 = (T − t1 + a1/J')/2 − t2;
  //   a hold below the limit and a last J': h, t3 with t3 = t2 − a1/J', h = T − t1 − t2 − t3;
  //   a hold and a last −J': h, t3 with t3 = a1/J' − t2, h = T − t1 − t2 − t3.
  // In each the target velocity is then a quadratic in t2, and t1 is scanned for the distance
  // as in dipped(). Inside the limits throughout, or nothing. (Written for a target acceleration
  // a* of 0; for another, a1 − a* takes a1's place: the last phases end on a* instead.)
  enum class Wave { wave, hold_up, hold_down };
  // The phases of waved(): durations and jerks, how far from the distance they end, and
  // whether they stay inside the limits.
  struct WaveShape {
    P t[5], jerk[5];
    P error;
    bool valid;
  };
  static std::optional<Plan> waved(const Problem& pr, P duration) {
    using std::abs;
    const P a0 = pr.start.acceleration, T = duration;
    // The phases at (t1, t2); returns the velocity error.
    const auto phases = [&](Wave shape, P js, P t1, P t2, WaveShape& w) {
      // The first stretch: to the limit in its direction, and held there.
      const P limit = js > P(0) ? pr.lim.acceleration : -pr.lim.deceleration;
      const P to_limit = std::max((limit - a0) / js, P(0));
      const P ramp = std::min(t1, to_limit), a1 = ramp < t1 ? limit : a0 + js * ramp;
      const P rest = (a1 - pr.target_acceleration) / js;  // a1/J' where the target's a* is 0
      P t3 = P(0), last = P(0);
      switch (shape) {
        case Wave::wave:
          t3 = (T - t1 - rest) / P(2);
          last = (T - t1 + rest) / P(2) - t2;
          break;
        case Wave::hold_up:
          last = t2 - rest;
          t3 = T - t1 - t2 - last;
          break;
        case Wave::hold_down:
          last = rest - t2;
          t3 = T - t1 - t2 - last;
          break;
      }
      w = WaveShape{
          {ramp, t1 - ramp, t2, t3, last},
          {js, P(0), -js, shape == Wave::wave ? js : P(0), shape == Wave::hold_down ? -js : js},
          P(0),
          false};
      if (shape == Wave::wave) w.jerk[4] = -js;
      State e{P(0), pr.start.velocity, a0};
      bool inside = t2 >= P(0) && t3 >= P(0) && last >= P(0);
      const P slack = P(1) + P(16) * detail::epsilon<P>();
      // All integrated, also where a duration is negative: the velocity error is the same
      // quadratic in t2 there, which branches() samples.
      for (int k = 0; k < 5; ++k) {
        const P jk = w.jerk[k];
        // The velocity's turn inside the phase (where the acceleration crosses zero).
        const P turn = jk < P(0) || jk > P(0) ? -e.acceleration / jk : P(-1);
        if (turn > P(0) && turn < w.t[k])
          inside = inside && pr.lim.holds(integrate(e, jk, turn).velocity, slack);
        e = integrate(e, jk, w.t[k]);
        inside = inside && e.acceleration <= pr.lim.acceleration * slack &&
                 -e.acceleration <= pr.lim.deceleration * slack && pr.lim.holds(e.velocity, slack);
      }
      w.error = e.position - pr.distance;
      w.valid = inside;
      return e.velocity - pr.target_velocity;
    };
    // The t2 of each branch at t1 in [0, T − t1] (the velocity error is exactly quadratic in t2:
    // three samples).
    const auto branches = [&](Wave shape, P js, P t1, P* roots) {
      const P hi = T - t1;
      if (!(hi > P(0))) return 0;
      WaveShape w;
      const P h = hi / P(2);
      const P f0 = phases(shape, js, t1, P(0), w), f1 = phases(shape, js, t1, h, w),
              f2 = phases(shape, js, t1, hi, w);
      const P c2 = (f2 - P(2) * f1 + f0) / (P(2) * h * h);
      const P c1 = (f1 - f0) / h - c2 * h;
      const P c[3] = {f0, c1, c2};
      return detail::interval_roots(c, 2, P(0), hi, roots);
    };
    for (Wave shape : {Wave::wave, Wave::hold_up, Wave::hold_down})
      for (P js : {pr.lim.jerk, -pr.lim.jerk})
        for (int branch = 0; branch < 2; ++branch)
          if (auto plan = wave_branch(pr, T, js, [&](P t1, WaveShape& w) {
                P roots[2];
                if (branch >= branches(shape, js, t1, roots)) return false;
                phases(shape, js, t1, roots[branch], w);
                return true;
              }))
            return plan;
    return std::nullopt;
  }

  // One branch of waved(): the distance error scanned in t1 over [0, T] and refined at a
  // sign change, also where the branch starts or ends between two samples (its t2 leaving the
  // range, often steeply: the last t1 on the valid side by bisection).
  template <class At>
  static std::optional<Plan> wave_branch(const Problem& pr, P T, P js, At at) {
    using std::abs;
    const auto error = [&](P t1, bool& valid) {
      WaveShape w{};
      valid = at(t1, w) && w.valid;
      return valid ? w.error : P(0);
    };
    const auto edge = [&](P valid_t, P invalid_t) {
      for (int k = 0; k < 60; ++k) {
        const P mid = valid_t + (invalid_t - valid_t) / P(2);
        if (detail::exactly_equal(mid, valid_t) || detail::exactly_equal(mid, invalid_t)) break;
        bool ok = false;
        error(mid, ok);
        (ok ? valid_t : invalid_t) = mid;
      }
      return valid_t;
    };
    const auto solved = [&](P a, P b, P ea, P eb) -> std::optional<Plan> {
      bool ok = false;
      const P root = detail::bracketed_root([&](P x) { return error(x, ok); }, a, b, ea, eb);
      WaveShape w{};
      if (!at(root, w) || !w.valid) return std::nullopt;
      const P scale = abs(pr.distance) + (abs(pr.start.velocity) + pr.lim.velocity) * T;
      if (!(abs(w.error) <= P(1e-10) * scale)) return std::nullopt;
      // As two changes: the first stretch (ramp, hold) and −J', then the last two phases.
      Plan plan{};
      plan.first = Change{w.t[0], w.t[1], w.t[2], js};
      plan.second = w.jerk[3] < P(0) || w.jerk[3] > P(0) ? Change{w.t[3], P(0), w.t[4], js}
                                                         : Change{P(0), w.t[3], w.t[4], -w.jerk[4]};
      plan.duration = T;
      plan.peak = pr.target_velocity;
      plan.gap = w.error;
      return plan;
    };
    const int steps = 64;
    bool previous_valid = false;
    P previous_t = P(0), previous_e = error(P(0), previous_valid);
    for (int k = 1; k <= steps; ++k) {
      const P t1 = T * P(k) / P(steps);
      bool valid = false;
      const P e = error(t1, valid);
      P from = previous_t, from_e = previous_e, to = t1, to_e = e;
      bool bracket = valid && previous_valid;
      if (previous_valid && !valid) {
        to = edge(previous_t, t1);
        to_e = error(to, bracket);
      } else if (!previous_valid && valid) {
        from = edge(t1, previous_t);
        from_e = error(from, bracket);
      }
      if (bracket && (from_e < P(0)) != (to_e < P(0)))
        if (auto plan = solved(from, to, from_e, to_e)) return plan;
      previous_t = t1;
      previous_e = e;
      previous_valid = valid;
    }
    return std::nullopt;
  }

  // A plan of exactly `duration` (at least the time-optimal one's): the longest cruise.
  static std::optional<Plan> fitted(const State& s, const State& target, const Limits& lim,
                                    P duration) {
    const Problem pr = problem(s, target, lim);
    bool any = false;
    P best_vp = P(0), best_cruise = P(-1);
    const P limit = duration * (P(1) + P(1e-12));  // as PeakReport::fits()
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

  // Which limits softened() lowers.
  enum class Soften { jerk, acceleration, deceleration, accelerations };

  // The time-optimal plan under some limits scaled down until it takes `duration`: the jerk (a
  // slower S), or the accelerations (a hold at a level below the limit, where the jerk's
  // profile would jump past the duration asked for).
  static std::optional<Plan> softened(const State& s, const State& target, const Limits& lim,
                                      P duration, Soften which = Soften::jerk) {
    const bool jerk = which == Soften::jerk;
    const bool up = which == Soften::acceleration || which == Soften::accelerations;
    const bool down = which == Soften::deceleration || which == Soften::accelerations;
    auto with_scale = [&](P scale) {
      Limits soft = lim;
      if (jerk) soft.jerk = lim.jerk * scale;
      if (up) soft.acceleration = lim.acceleration * scale;
      if (down) soft.deceleration = lim.deceleration * scale;
      return fastest(s, target, soft);
    };
    // No lower than the jerk that brings the start's acceleration to zero just at ±v_max (a
    // weaker one carries it past: the first change eases the acceleration at the jerk it is
    // given), nor than the one that does so for the target's run backwards. A state already
    // carried past under the full limit is not softened. Acceleration limits no lower than the
    // start's acceleration or the target's.
    P floor = P(0);
    for (const State& x : {s, State{P(0), target.velocity, -target.acceleration}}) {
      const P a = x.acceleration;
      if (!jerk || (!(a < P(0)) && !(a > P(0)))) continue;
      const P room = a > P(0) ? lim.velocity - x.velocity : lim.reverse + x.velocity;
      if (!(room > P(0))) return std::nullopt;
      floor = std::max(floor, a * a / (P(2) * lim.jerk * room));
    }
    for (P a : {s.acceleration, target.acceleration}) {
      if (up && a > P(0)) floor = std::max(floor, a / lim.acceleration);
      if (down && a < P(0)) floor = std::max(floor, -a / lim.deceleration);
    }
    if (!(floor < P(1))) return std::nullopt;
    P hi = P(1), lo = P(1);  // duration(hi) <= duration < duration(lo)
    std::optional<Plan> slow, fast;
    // Down to a millionth of the limit: below that the profile's own numbers lose more digits
    // than the duration asked for has.
    for (int k = 0; k < 20 && lo > floor; ++k) {
      lo = std::max(lo * P(0.5), floor);
      slow = with_scale(lo);
      if (!slow) return std::nullopt;
      if (slow->duration > duration) break;
      hi = lo;
      fast = slow;
    }
    if (!slow || !(slow->duration > duration)) return std::nullopt;
    if (!fast) fast = with_scale(hi);
    if (!fast) return std::nullopt;
    return crossing(duration, lo, hi, slow->duration, *fast, with_scale);
  }

  // The plan under the scale in (lo, hi) whose time-optimal duration is `duration`, from
  // d(lo) = slow_duration > duration >= d(hi), fast's. d does not grow with the scale (weaker
  // limits never make the fastest move shorter), so it crosses the duration once: at a root,
  // or at a jump, where the fastest profile changes shape and the duration is not met. Eight
  // halvings, then false position (Illinois) while it converges, then bisection. A jump shows
  // as ends whose durations stop closing in: a duration continuous in the scale (algebraic in
  // it: at worst like a square or cube root at a branch point) closes in by 2^(-16/3) or more
  // while the bracket shrinks 2^16-fold, by far more than half.
  template <class WithScale>
  static std::optional<Plan> crossing(P duration, P lo, P hi, P slow_duration, Plan fast,
                                      WithScale with_scale) {
    using std::abs;
    const P tolerance = P(1e-13) * duration;
    P f_lo = slow_duration - duration, f_hi = fast.duration - duration;  // f_lo > 0 >= f_hi
    std::optional<Plan> met;
    // At x: the plan there, the bracket moved to it; false where no plan is found.
    const auto at = [&](P x) {
      std::optional<Plan> plan = with_scale(x);
      if (!plan) return false;
      const P f = plan->duration - duration;
      if (abs(f) <= tolerance) met = plan;
      if (f > P(0)) {
        lo = x;
        f_lo = f;
      } else {
        hi = x;
        f_hi = f;
        fast = *plan;
      }
      return true;
    };
    const auto between = [&](P x) { return x > lo && x < hi; };
    const auto mid = [&] { return lo + (hi - lo) / P(2); };
    for (int k = 0; k < 8 && !met && between(mid()); ++k)
      if (!at(mid())) return std::nullopt;
    const P width = hi - lo, spread = f_lo - f_hi;
    const auto jumped = [&] { return hi - lo <= width / P(65536) && f_lo - f_hi >= spread / P(2); };
    // Illinois: the value at an end kept twice in a row is halved, so both ends close in.
    P w_lo = f_lo, w_hi = f_hi;
    for (int k = 0, kept = 0; k < 16 && !met && !jumped(); ++k) {
      P x = lo + w_lo * (hi - lo) / (w_lo - w_hi);
      if (!between(x)) x = mid();
      if (!between(x)) break;
      const P before = lo;
      if (!at(x)) return std::nullopt;
      const int moved = lo > before ? -1 : 1;  // −1: lo moved, hi kept
      if (moved < 0) w_lo = f_lo;
      if (moved > 0) w_hi = f_hi;
      if (moved == kept && moved < 0) w_hi /= P(2);
      if (moved == kept && moved > 0) w_lo /= P(2);
      kept = moved;
    }
    for (int k = 0; k < 200 && !met && between(mid()) && !jumped(); ++k)
      if (!at(mid())) return std::nullopt;
    if (!met && abs(f_hi) <= P(1e-12) * duration) met = fast;
    if (met) met->duration = duration;
    return met;
  }
};

}  // namespace tractrix::detail
