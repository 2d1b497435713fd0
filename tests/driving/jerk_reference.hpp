// Independent references for the jerk-limited planners' tests, in long double: the fastest
// velocity change phase by phase, the time-optimal duration by a scan of the peak velocity, the
// braking time by bisection on the motion; and the checks shared by the driving tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"

namespace tractrix::test {

using L = long double;

// ---- An independent reference, in long double ----------------------------------------------
// The fastest velocity change written out phase by phase (jerk toward the peak acceleration,
// hold at the limit, jerk back to zero) and integrated step by step; the time-optimal duration
// as the best of every profile through a peak velocity v_p: a scan of v_p over [−v_max, v_max]
// (uniform, and dense near the places where a half changes shape), each sign change of the
// distance error refined by bisection, plus the cruises at ±v_max, plus the profiles that only
// ease the start's acceleration first. (The durations also agree with Ruckig's to 1e-10 on
// 40 000 random states: see benchmarks/README.md.)
struct RefChange {
  L distance, time;
};
inline RefChange ref_change(L v, L a, L target, L jerk, L amax, L dmax) {
  const L natural = v + a * std::fabs(a) / (2 * jerk);
  const L sign = target >= natural ? 1 : -1;
  const L limit = sign > 0 ? amax : dmax;
  const L a0 = sign * a, change = sign * (target - v);
  L peak = std::sqrt(std::max(L(0), jerk * change + a0 * a0 / 2)), hold = 0;
  if (peak > limit) {
    peak = limit;
    hold = (change - (limit * limit - a0 * a0 / 2) / jerk) / limit;
  }
  const L times[3] = {(peak - a0) / jerk, hold, peak / jerk};
  const L jerks[3] = {sign * jerk, 0, -sign * jerk};
  L p = 0, vel = v, acc = a, t_total = 0;
  for (int k = 0; k < 3; ++k) {
    const L t = times[k], j = jerks[k];
    p += vel * t + acc * t * t / 2 + j * t * t * t / 6;
    vel += acc * t + j * t * t / 2;
    acc += j * t;
    t_total += t;
  }
  return {p, t_total};
}

// The duration at the root of error(x, time) between lo and hi, where it changes sign: 80
// bisections in long double.
template <class Error>
L root_time(Error error, L lo, L hi, bool low_negative) {
  L time = 0;
  for (int k = 0; k < 80; ++k) {
    const L mid = (lo + hi) / 2;
    ((error(mid, time) < 0) == low_negative ? lo : hi) = mid;
  }
  error((lo + hi) / 2, time);
  return time;
}

inline L reference_duration(L v, L a, L distance, L target, const JerkLimits<double>& lim) {
  const L j = lim.max_jerk, amax = lim.max_acceleration, dmax = lim.max_deceleration;
  // The peak velocity's range: [−vmin, vmax] (the reverse limit's size, and the forward one).
  const L vmax = lim.max_velocity, vmin = lim.reverse_velocity(), span = std::max(vmax, vmin);
  auto error = [&](L vp, L& time) {
    const RefChange first = ref_change(v, a, vp, j, amax, dmax);
    const RefChange second = ref_change(vp, 0, target, j, amax, dmax);
    time = first.time + second.time;
    return first.distance + second.distance - distance;
  };
  std::vector<L> grid;
  for (int i = 0; i <= 3000; ++i)
    grid.push_back(-vmin + (vmax + vmin) * i / 3000);
  const L natural = v + a * std::fabs(a) / (2 * j);
  for (L centre :
       {natural, target, v - a * a / (2 * j) + amax * amax / j,
        v + a * a / (2 * j) - dmax * dmax / j, target - amax * amax / j, target + dmax * dmax / j})
    for (L offset = span * 1e-13L; offset < span; offset *= 1.5L)
      for (L side : {L(-1), L(1)}) {
        const L x = centre + side * offset;
        if (x > -vmin && x < vmax) grid.push_back(x);
      }
  std::sort(grid.begin(), grid.end());
  L best = std::numeric_limits<L>::infinity(), time = 0;
  L previous_x = grid[0], previous_e = error(grid[0], time);
  if (previous_e == 0) best = std::min(best, time);
  for (std::size_t i = 1; i < grid.size(); ++i) {
    const L x = grid[i], e = error(x, time);
    if (e == 0) best = std::min(best, time);
    if ((previous_e < 0) != (e < 0))
      best = std::min(best, root_time(error, previous_x, x, previous_e < 0));
    previous_x = x;
    previous_e = e;
  }
  for (L edge : {vmax, -vmin}) {
    const L e = error(edge, time);
    const L cruise = -e / edge;
    if (cruise >= 0) best = std::min(best, time + cruise);
  }
  // And the profiles that only ease the start's acceleration (jerk against it for τ, keeping its
  // sign) before one fastest change to the target velocity: a scan of τ, refined likewise.
  if (a != 0) {
    const L sign = a > 0 ? 1 : -1, longest = std::fabs(a) / j;
    auto eased = [&](L tau, L& t) {
      const L v1 = v + a * tau - sign * j * tau * tau / 2;
      const L a1 = a - sign * j * tau;
      const L p1 = v * tau + a * tau * tau / 2 - sign * j * tau * tau * tau / 6;
      const RefChange change = ref_change(v1, a1, target, j, amax, dmax);
      // Inside the velocity limit: where the change first runs on against its direction, its
      // turning point (the natural velocity) must be.
      const L turn = v1 + a1 * std::fabs(a1) / (2 * j);
      const bool over = (turn > vmax * (1 + 1e-12L) || -turn > vmin * (1 + 1e-12L)) &&
                        ((target >= turn) != (a1 > 0));
      t = over ? std::numeric_limits<L>::infinity() : tau + change.time;
      return p1 + change.distance - distance;
    };
    L previous_tau = 0, t = 0;
    L previous_error = eased(0, t);
    for (int i = 1; i <= 4000; ++i) {
      const L tau = longest * i / 4000, e = eased(tau, t);
      if ((previous_error < 0) != (e < 0))
        best = std::min(best, root_time(eased, previous_tau, tau, previous_error < 0));
      previous_tau = tau;
      previous_error = e;
    }
  }
  return best;
}

// The phases integrated again in long double from the start: where they end.
template <class S>
AxisState<L> integrate_phases(const JerkTrajectory<S>& tr, const AxisState<S>& from) {
  L p = from.position, v = from.velocity, a = from.acceleration;
  for (int k = 0; k < tr.phase_count(); ++k) {
    const L t = tr.phase(k).duration, j = tr.phase(k).jerk;
    p += v * t + a * t * t / 2 + j * t * t * t / 6;
    v += a * t + j * t * t / 2;
    a += j * t;
  }
  return {p, v, a};
}

template <class S>
JerkLimits<S> random_limits(std::mt19937_64& rng) {
  return {uniform<S>(rng, S(0.1), S(3)), uniform<S>(rng, S(0.1), S(3)),
          uniform<S>(rng, S(0.1), S(3)), uniform<S>(rng, S(0.1), S(3))};
}

// A state the limits can hold: acceleration inside its limits, and a velocity that stays inside
// its limits (forwards and, with one of its own, backwards) while the acceleration is brought
// to zero.
template <class S>
bool holdable(S v, S a, const JerkLimits<S>& lim) {
  const S natural = v + a * std::abs(a) / (S(2) * lim.max_jerk);
  const S back = lim.reverse_velocity();
  return v <= lim.max_velocity && -v <= back && natural <= lim.max_velocity && -natural <= back &&
         a <= lim.max_acceleration && -a <= lim.max_deceleration;
}

// Limits held from the first sample at which the state is holdable on: sampled values, and
// finite differences of sampled positions (velocity by first differences, acceleration by
// second; their truncation error is bounded by the jerk limit). Returns the largest relative
// excess of the sampled values.
template <class S>
double limit_excess(const JerkTrajectory<S>& tr, const JerkLimits<S>& lim, int steps,
                    double fd_tolerance) {
  double worst = 0;
  bool inside = false, was_inside = false;
  const double T = double(tr.duration());
  if (!(T > 0)) return 0;
  const double dt = T / steps;
  const double vmax = lim.max_velocity, vback = lim.reverse_velocity();
  const double amax = lim.max_acceleration, dmax = lim.max_deceleration, jmax = lim.max_jerk;
  for (int k = 0; k <= steps; ++k) {
    const AxisSample<S> s = tr.at(S(k * dt));
    was_inside = inside;
    if (!inside) inside = holdable(s.velocity, s.acceleration, lim);
    if (!inside) continue;
    worst =
        std::max({worst, (double(s.velocity) - vmax) / vmax, (-double(s.velocity) - vback) / vback,
                  (double(s.acceleration) - amax) / amax, (-double(s.acceleration) - dmax) / dmax,
                  (std::abs(double(s.jerk)) - jmax) / jmax});
    if (was_inside && k + 1 <= steps) {
      const double p0 = double(tr.at(S((k - 1) * dt)).position);
      const double p1 = double(s.position);
      const double p2 = double(tr.at(S((k + 1) * dt)).position);
      const double fd_velocity = (p2 - p0) / (2 * dt);
      const double fd_acceleration = (p2 - 2 * p1 + p0) / (dt * dt);
      // Truncation: within a phase the central differences of a cubic are exact in velocity to
      // jmax·dt²/6 and in acceleration exactly; across a phase change they are off by less than
      // amax·dt and jmax·dt. Rounding of the sampled positions adds 4 eps·|p| over dt or dt².
      const double rounding = 4 * double(eps<S>()) * (std::abs(p0) + std::abs(p1) + std::abs(p2));
      CHECK(fd_velocity <= vmax * (1 + fd_tolerance) + std::max(amax, dmax) * dt + rounding / dt);
      CHECK(-fd_velocity <= vback * (1 + fd_tolerance) + std::max(amax, dmax) * dt + rounding / dt);
      CHECK(fd_acceleration <= amax * (1 + fd_tolerance) + jmax * dt + rounding / (dt * dt));
      CHECK(-fd_acceleration <= dmax * (1 + fd_tolerance) + jmax * dt + rounding / (dt * dt));
    }
  }
  return worst;
}

// A trajectory that meets a fixed duration: exactly that long, and so are its phases together
// (1e-12), its phases (integrated again in long double) ending on the target — the position
// within 1e-12 of `scale`, the velocity and acceleration within 1e-12 of their (smaller)
// limits — and inside the limits at `samples` samples.
template <class S>
void check_meets(const JerkTrajectory<S>& tr, S duration, const AxisState<S>& from,
                 const AxisState<S>& target, const JerkLimits<S>& lim, double scale,
                 int samples = 400) {
  CHECK(tr.duration() == duration);
  L phases = 0;
  for (int k = 0; k < tr.phase_count(); ++k)
    phases += tr.phase(k).duration;
  CHECK(std::abs(double(phases) - double(duration)) <= 1e-12 * double(duration));
  const AxisState<L> arrived = integrate_phases(tr, from);
  CHECK(std::abs(double(arrived.position) - target.position) <= 1e-12 * scale);
  CHECK(std::abs(double(arrived.velocity) - target.velocity) <= 1e-12 * lim.max_velocity);
  CHECK(std::abs(double(arrived.acceleration) - target.acceleration) <=
        1e-12 * std::min(lim.max_acceleration, lim.max_deceleration));
  CHECK(limit_excess(tr, lim, samples, 1e-6) <= 1e-12);
}

// How long braking takes from beyond the limits, found by bisection on the motion itself in long
// double: the acceleration brought to its limit at full jerk, then, where the speed is beyond
// v_max or the acceleration carries it past, jerk towards braking (held at the braking limit
// once there) until the speed is back at v_max — the first time after its peak that it is — or
// until easing the braking at full jerk would carry the velocity to −v_max (Ruckig's rule; a
// start already that far, v − a²/2J past −v_max, is not braked).
inline L reference_braking(const AxisState<double>& from, const JerkLimits<double>& lim) {
  const L j = lim.max_jerk, amax = lim.max_acceleration, dmax = lim.max_deceleration;
  L v = from.velocity, a = from.acceleration, t0 = 0;
  if (a > amax || a < -dmax) {  // the acceleration brake: jerk ∓J to the limit
    const L target = a > amax ? amax : -dmax;
    t0 = std::fabs(a - target) / j;
    v += (a + target) / 2 * t0;
    a = target;
  }
  const L natural = v + a * std::fabs(a) / (2 * j), vmax = lim.max_velocity;
  const L sign = ((a > 0 && natural > vmax) || (v > vmax && v - a * a / (2 * j) > -vmax))    ? 1
                 : ((a < 0 && natural < -vmax) || (v < -vmax && v + a * a / (2 * j) < vmax)) ? -1
                                                                                             : 0;
  if (sign == 0) return t0;
  const L u0 = sign * v, b = sign * a, limit = sign > 0 ? dmax : amax;
  const L hold_at = (b + limit) / j;
  const auto rate = [&](L t) { return t <= hold_at ? b - j * t : -limit; };
  const auto speed = [&](L t) {
    return t <= hold_at ? u0 + b * t - j * t * t / 2
                        : u0 + b * hold_at - j * hold_at * hold_at / 2 - limit * (t - hold_at);
  };
  // Braking goes on while the speed is beyond v_max and easing at full jerk from there would not
  // carry it past −v_max (its natural velocity u − rate²/2J stays above −v_max).
  const auto braking = [&](L t) {
    return speed(t) > vmax && speed(t) - rate(t) * rate(t) / (2 * j) > -vmax;
  };
  L lo = std::max(L(0), b / j), hi = lo + 1;  // the speed falls from its peak at b/J
  if (!braking(lo)) return t0 + lo;
  while (braking(hi))
    hi = lo + 2 * (hi - lo);
  for (int i = 0; i < 200; ++i) {
    const L mid = (lo + hi) / 2;
    (braking(mid) ? lo : hi) = mid;
  }
  return t0 + (lo + hi) / 2;
}

}  // namespace tractrix::test
