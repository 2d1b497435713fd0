#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"
#include "tractrix/driving/synced_trajectory.hpp"
#include "tractrix/driving/waypoint_trajectory.hpp"
#include "tractrix/motion/time_profile.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

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
RefChange ref_change(L v, L a, L target, L jerk, L amax, L dmax) {
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

L reference_duration(L v, L a, L distance, L target, const JerkLimits<double>& lim) {
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
    if ((previous_e < 0) != (e < 0)) {
      L lo = previous_x, hi = x;
      const bool low_negative = previous_e < 0;
      for (int k = 0; k < 80; ++k) {
        const L mid = (lo + hi) / 2;
        ((error(mid, time) < 0) == low_negative ? lo : hi) = mid;
      }
      error((lo + hi) / 2, time);
      best = std::min(best, time);
    }
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
      if ((previous_error < 0) != (e < 0)) {
        L lo = previous_tau, hi = tau;
        const bool low_negative = previous_error < 0;
        for (int k = 0; k < 80; ++k) {
          const L mid = (lo + hi) / 2;
          ((eased(mid, t) < 0) == low_negative ? lo : hi) = mid;
        }
        eased((lo + hi) / 2, t);
        best = std::min(best, t);
      }
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
// its limit while the acceleration is brought to zero.
template <class S>
bool holdable(S v, S a, const JerkLimits<S>& lim) {
  const S natural = v + a * std::abs(a) / (S(2) * lim.max_jerk);
  return std::abs(v) <= lim.max_velocity && std::abs(natural) <= lim.max_velocity &&
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
  const double vmax = lim.max_velocity, amax = lim.max_acceleration;
  const double dmax = lim.max_deceleration, jmax = lim.max_jerk;
  for (int k = 0; k <= steps; ++k) {
    const AxisSample<S> s = tr.at(S(k * dt));
    was_inside = inside;
    if (!inside) inside = holdable(s.velocity, s.acceleration, lim);
    if (!inside) continue;
    worst =
        std::max({worst, (std::abs(double(s.velocity)) - vmax) / vmax,
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
      CHECK(std::abs(fd_velocity) <=
            vmax * (1 + fd_tolerance) + std::max(amax, dmax) * dt + rounding / dt);
      CHECK(fd_acceleration <= amax * (1 + fd_tolerance) + jmax * dt + rounding / (dt * dt));
      CHECK(-fd_acceleration <= dmax * (1 + fd_tolerance) + jmax * dt + rounding / (dt * dt));
    }
  }
  return worst;
}

}  // namespace

TEST_CASE("jerk trajectory: rest to rest is today's S-curve", "[motion][jerk]") {
  auto rng = make_rng(151);
  const int cases = property_count(300);
  for (int i = 0; i < cases; ++i) {
    const double distance = uniform<double>(rng, 0.01, 100);
    const double v = uniform<double>(rng, 0.1, 10), a = uniform<double>(rng, 0.1, 10);
    const double j = uniform<double>(rng, 0.1, 10);
    const double start = uniform<double>(rng, -50, 50);
    INFO("case " << i << ": D " << distance << " v " << v << " a " << a << " j " << j);
    const auto curve = TimeProfile<double>::s_curve(distance, v, a, j);
    const auto tr =
        JerkTrajectory<double>::to_position({start, 0, 0}, start + distance, 0, {v, a, a, j});
    REQUIRE(curve);
    REQUIRE(tr);
    CHECK(std::abs(tr->duration() - curve->duration()) <= 1e-12 * curve->duration());
    for (int k = 0; k <= 50; ++k) {
      const double t = curve->duration() * k / 50;
      const ProfileSample<double> e = curve->at(t);
      const AxisSample<double> s = tr->at(t);
      CHECK(std::abs(s.position - (start + e.value * distance)) <= 1e-11 * (distance + 50));
      CHECK(std::abs(s.velocity - e.rate * distance) <= 1e-11 * v);
      CHECK(std::abs(s.acceleration - e.acceleration * distance) <= 1e-10 * a);
    }
  }
}

TEST_CASE("jerk trajectory: a reverse velocity limit of its own", "[motion][jerk]") {
  SECTION("rest to rest backwards is the S-curve under the reverse limit") {
    auto rng = make_rng(160);
    for (int i = 0; i < property_count(200); ++i) {
      const double distance = uniform<double>(rng, 0.01, 100);
      const double v = uniform<double>(rng, 0.1, 10), back = uniform<double>(rng, 0.1, 10);
      const double a = uniform<double>(rng, 0.1, 10), j = uniform<double>(rng, 0.1, 10);
      INFO("case " << i << ": D " << distance << " v " << v << " back " << back);
      JerkLimits<double> lim{v, a, a, j};
      lim.max_reverse_velocity = back;
      const auto backward = JerkTrajectory<double>::to_position({0, 0, 0}, -distance, 0, lim);
      const auto forward = JerkTrajectory<double>::to_position({0, 0, 0}, distance, 0, lim);
      const auto back_curve = TimeProfile<double>::s_curve(distance, back, a, j);
      const auto curve = TimeProfile<double>::s_curve(distance, v, a, j);
      REQUIRE(backward);
      REQUIRE(forward);
      CHECK(std::abs(backward->duration() - back_curve->duration()) <=
            1e-12 * back_curve->duration());
      CHECK(std::abs(forward->duration() - curve->duration()) <= 1e-12 * curve->duration());
    }
  }
  SECTION("from any state: time-optimal under both limits, inside them") {
    auto rng = make_rng(161);
    for (int i = 0; i < property_count(300); ++i) {
      JerkLimits<double> lim = random_limits<double>(rng);
      lim.max_reverse_velocity = uniform<double>(rng, 0.1, 3);
      const double back = lim.max_reverse_velocity;
      double v = 0, a = 0;
      do {  // a start the limits can hold
        v = uniform<double>(rng, -back, lim.max_velocity);
        a = uniform<double>(rng, -lim.max_deceleration, lim.max_acceleration);
      } while (v + a * std::abs(a) / (2 * lim.max_jerk) > lim.max_velocity ||
               -(v + a * std::abs(a) / (2 * lim.max_jerk)) > back);
      const double distance = uniform<double>(rng, -5, 5);
      const double target_velocity = uniform<double>(rng, -back, lim.max_velocity);
      INFO("case " << i << ": v " << v << " a " << a << " D " << distance << " v* "
                   << target_velocity);
      const auto tr =
          JerkTrajectory<double>::to_position({0, v, a}, distance, target_velocity, lim);
      REQUIRE(tr);
      const L expected = reference_duration(v, a, distance, target_velocity, lim);
      CHECK(std::abs(tr->duration() - double(expected)) <= 1e-9 * double(expected + 1));
      for (int k = 0; k <= 400; ++k) {
        const double s = tr->at(tr->duration() * k / 400).velocity;
        CHECK(s <= lim.max_velocity * (1 + 1e-12));
        CHECK(-s <= back * (1 + 1e-12));
      }
    }
  }
  SECTION("bad input") {
    JerkLimits<double> lim{2, 1, 1, 1};
    lim.max_reverse_velocity = 0.5;
    const auto beyond = JerkTrajectory<double>::to_position({0, 0, 0}, 1, -1, lim);
    REQUIRE_FALSE(beyond);
    CHECK(beyond.error().message.find("beyond the reverse limit -0.5") != std::string::npos);
    lim.max_reverse_velocity = -1;
    CHECK(JerkTrajectory<double>::to_position({0, 0, 0}, 1, 0, lim).error().code ==
          ErrorCode::out_of_range);
  }
}

TEST_CASE("jerk trajectory: velocity control in closed form", "[motion][jerk]") {
  SECTION("from a cruise: ramp, hold at the limit, ramp") {
    auto rng = make_rng(152);
    for (int i = 0; i < property_count(500); ++i) {
      const JerkLimits<double> lim = random_limits<double>(rng);
      const double v0 = uniform<double>(rng, -1, 1) * lim.max_velocity;
      const double v1 = uniform<double>(rng, -1, 1) * lim.max_velocity;
      const auto tr = JerkTrajectory<double>::to_velocity({1, v0, 0}, v1, lim);
      REQUIRE(tr);
      const double change = std::abs(v1 - v0), j = lim.max_jerk;
      const double limit = v1 > v0 ? lim.max_acceleration : lim.max_deceleration;
      const double expected =
          change >= limit * limit / j ? change / limit + limit / j : 2 * std::sqrt(change / j);
      INFO("case " << i << ": " << v0 << " -> " << v1);
      CHECK(std::abs(tr->duration() - expected) <= 1e-12 * (expected + 1));
      // Symmetric ramps: the distance covered is the mean velocity times the duration.
      const AxisSample<double> end = tr->at(tr->duration());
      CHECK(std::abs(end.position - (1 + (v0 + v1) / 2 * expected)) <= 1e-12 * (1 + expected));
      CHECK(end.velocity == v1);
      // And on: the velocity is held.
      const AxisSample<double> later = tr->at(tr->duration() + 2);
      CHECK(later.velocity == v1);
      CHECK(std::abs(later.position - (end.position + 2 * v1)) <= 1e-12 * (1 + std::abs(v1)));
    }
  }
  SECTION("accelerating while the target is behind: jerk through zero, then back") {
    // (v, a) = (0, 1), J = 1, target 0: jerk −1 from a = 1 to −1/√2, then +1 back to zero,
    // 1 + √2 s; the acceleration limit (2) is not reached.
    const auto tr = JerkTrajectory<double>::to_velocity({0, 0, 1}, 0, {5, 2, 2, 1});
    REQUIRE(tr);
    CHECK(std::abs(tr->duration() - (1 + std::sqrt(2.0))) <= 1e-15 * 3);
    CHECK(std::abs(tr->at(1 + 1 / std::sqrt(2.0)).acceleration + 1 / std::sqrt(2.0)) <= 1e-15);
    CHECK(std::abs(tr->at(tr->duration()).velocity) <= 0);
    // Easing a = 1 to zero at once under J = 1 adds a²/2J = 0.5; braking at −3 takes 4.5 off.
    CHECK(JerkTrajectory<double>::eased_velocity({0, 0, 1}, 1) == 0.5);
    CHECK(JerkTrajectory<double>::eased_velocity({0, 1, -3}, 1) == -3.5);
  }
}

TEST_CASE("jerk trajectory: from any state, time-optimal, exact at the end, inside the limits",
          "[motion][jerk]") {
  auto rng = make_rng(153);
  const int cases = property_count(2500);
  int shorter_than_reference = 0;
  for (int i = 0; i < cases; ++i) {
    const JerkLimits<double> lim = random_limits<double>(rng);
    AxisState<double> from{uniform<double>(rng, -10, 10),
                           uniform<double>(rng, -1, 1) * lim.max_velocity,
                           uniform<double>(rng, -1, 1) * lim.max_acceleration};
    if (i % 4 == 0) from.acceleration = 0;
    from.acceleration = std::max(from.acceleration, -lim.max_deceleration);
    if (!holdable(from.velocity, from.acceleration, lim)) {
      --i;
      continue;
    }
    const double distance = uniform<double>(rng, -5, 5);
    const double target_velocity = i % 3 == 0 ? 0 : uniform<double>(rng, -1, 1) * lim.max_velocity;
    const double target = from.position + distance;
    INFO("case " << i << ": v " << from.velocity << " a " << from.acceleration << " D " << distance
                 << " v* " << target_velocity << " limits " << lim.max_velocity << " "
                 << lim.max_acceleration << " " << lim.max_deceleration << " " << lim.max_jerk);
    const auto tr = JerkTrajectory<double>::to_position(from, target, target_velocity, lim);
    REQUIRE(tr);
    CHECK(tr->braking_duration() == 0);
    // The final state exact.
    const AxisSample<double> end = tr->at(tr->duration());
    CHECK(end.position == target);
    CHECK(end.velocity == target_velocity);
    CHECK(end.acceleration == 0);
    // The phases, integrated again from the start, arrive there.
    const AxisState<L> arrived = integrate_phases(*tr, from);
    const double scale = std::abs(distance) + lim.max_velocity * double(tr->duration()) + 1;
    CHECK(std::abs(double(arrived.position - target)) <= 1e-12 * scale);
    CHECK(std::abs(double(arrived.velocity - target_velocity)) <= 1e-12 * lim.max_velocity);
    CHECK(std::abs(double(arrived.acceleration)) <= 1e-12 * lim.max_acceleration);
    // Continuous: each phase starts where the one before it ends.
    for (int k = 1; k < tr->phase_count(); ++k) {
      const auto& before = tr->phase(k - 1);
      const AxisSample<double> joined = tr->at(tr->phase(k).start_time);
      const double t = before.duration;
      const double p =
          before.start.position +
          t * (before.start.velocity + t * (before.start.acceleration / 2 + t * before.jerk / 6));
      CHECK(std::abs(p - joined.position) <= 1e-12 * scale);
    }
    // Inside the limits (to 1e-12 of each), by samples and by finite differences.
    CHECK(limit_excess(*tr, lim, 400, 1e-6) <= 1e-12);
    // No profile is faster: the reference's best is not shorter (to 1e-9).
    const L reference =
        reference_duration(from.velocity, from.acceleration, distance, target_velocity, lim);
    CHECK(double(tr->duration()) <= double(reference) * (1 + 1e-9));
    if (double(tr->duration()) < double(reference) * (1 - 1e-9)) ++shorter_than_reference;
  }
  // The reference scans a grid: a root in a gap narrower than its spacing escapes it (then the
  // profile found here, valid by the checks above, is shorter). Rare, or the scan is broken.
  CHECK(shorter_than_reference <= cases / 200);
}

TEST_CASE("jerk trajectory: profiles that only ease the acceleration, and near-cruises",
          "[motion][jerk]") {
  // From (v, a) = (−0.75, 1) to v* = 0.5 at the same place, all limits 1: jerk −1, +1, a hold at
  // the acceleration limit, −1 — the acceleration never reaches zero before the end. Ruckig
  // 0.19's duration: 1.8600 s (phases 0.3317, 0.3317, 0.1966, 1.0).
  const auto eased = JerkTrajectory<double>::to_position({0, -0.75, 1}, 0, 0.5, {1, 1, 1, 1});
  REQUIRE(eased);
  CHECK(std::abs(eased->duration() - 1.86) <= 1e-4);
  CHECK(eased->phase_count() == 4);
  CHECK(eased->at(eased->duration() / 2).acceleration > 0.6);
  CHECK(limit_excess(*eased, JerkLimits<double>{1, 1, 1, 1}, 1000, 1e-6) <= 1e-12);
  // At v_max with nothing to change, a short move is a cruise, not a change of a few ulps of
  // the velocity and back (whose duration rounds to about the same).
  const JerkLimits<double> limits{24.818551306525325, 21.242190425087667, 21.242190425087667,
                                  0.07985868048337777};
  const auto cruise =
      JerkTrajectory<double>::to_position({-0.88079055485002311, limits.max_velocity, 0},
                                          -0.87095252224929631, limits.max_velocity, limits);
  REQUIRE(cruise);
  CHECK(cruise->phase_count() == 1);
  CHECK(cruise->at(cruise->duration() / 2).velocity == limits.max_velocity);
  // Limits so far apart that the phases would not join are refused, not returned broken.
  const auto apart = JerkTrajectory<double>::to_position({0, 1, 1e-9}, 1e-3, 1, {1, 1e-9, 1, 1});
  if (apart) {
    CHECK(apart->at(apart->duration()).position == 1e-3);
    CHECK(limit_excess(*apart, JerkLimits<double>{1, 1e-9, 1, 1}, 1000, 1e-3) <= 1e-9);
  } else {
    CHECK(apart.error().code == ErrorCode::out_of_range);
  }
  // Braking from 217.6 overshoots the stop at 328.1 (it ends at 359.6) and the way back may
  // accelerate at 5e-297: the velocity left by braking is rounded at 1e-13, and removing that at
  // 5e-297 takes 1e283 s and 1e270 units. Refused (the phases cannot join), never a trajectory
  // that starts anywhere but the start.
  const JerkLimits<double> lopsided{325.36, 4.9565942547385552e-297, 273.12, 207.52};
  const AxisState<double> braking{217.6361083984375, 217.6361083984375, -113.2965087890625};
  const auto back = JerkTrajectory<double>::to_position(braking, 328.094482421875, 0, lopsided);
  if (back) {
    CHECK(back->at(0).position == braking.position);
    CHECK(back->at(back->duration()).position == 328.094482421875);
    CHECK(limit_excess(*back, lopsided, 1000, 1e-9) <= 1e-9);
  } else {
    CHECK(back.error().code == ErrorCode::out_of_range);
  }
  // Braking from 454.7 (over the limit, decelerating) for 3 s, then turning round at 5e-297
  // to pass the start again at +217.6 — 8.8e298 s later. Its first seconds keep their own
  // times: at 0 it is at the start, and 1 ms in it has moved as the start state says.
  const AxisState<double> fast{294.8455810546875, 454.6966552734375, -232.940673828125};
  const auto round =
      JerkTrajectory<double>::to_position(fast, 80.9173583984375, 217.6361083984375, lopsided);
  if (round) {
    CHECK(round->at(0).position == fast.position);
    CHECK(round->at(0).velocity == fast.velocity);
    const double h = 1e-3;  // jerk at most 207.52 in the first phase: a cubic term under 4e-8
    CHECK(std::abs(round->at(h).position -
                   (fast.position + h * fast.velocity + h * h / 2 * fast.acceleration)) <= 1e-7);
    for (int i = 1; i < round->phase_count(); ++i)
      CHECK(round->phase(i).start_time >= round->phase(i - 1).start_time);
  } else {
    CHECK(round.error().code == ErrorCode::out_of_range);
  }
  // A plan that is only its second change is laid back from the target; with a deceleration
  // limit of 5e-324 that landed 2300 units before the start. It must start on the start.
  const JerkLimits<double> denormal{499.9847412109375, 32.745361328125, 4.9406564584124654e-324,
                                    785.21728515625};
  const AxisState<double> slow{-215.2252197265625, 143.035888671875, 0};
  const auto tail_only =
      JerkTrajectory<double>::to_position(slow, 999.969482421875, 499.9847412109375, denormal);
  if (tail_only) {
    CHECK(tail_only->at(0).position == slow.position);
    CHECK(tail_only->at(0).velocity == slow.velocity);
  } else {
    CHECK(tail_only.error().code == ErrorCode::out_of_range);
  }
}

TEST_CASE(
    "jerk trajectory: a short way ahead at the speed already held is a bump, never a reversal",
    "[motion][jerk]") {
  // From (v, 0) to (D ahead, v) the fastest move raises the velocity to v + Δ and back, each
  // change 2√(Δ/J) long without a hold: D = 2(2v + Δ)√(Δ/J), T = 4√(Δ/J) (a little under D/v).
  // Solved for x = √Δ by bisection in long double. Where Δ is below the rounding of v the move
  // is a cruise at v, and T rounds to D/v. Before, such moves reversed (17.9 s for 1e-3 at v = 1),
  // were refused as "limits too far apart", or returned no phase at all and jumped to the target.
  struct Case {
    double position, velocity;
    JerkLimits<double> limits;
  };
  const Case cases[] = {
      {0, 1, {2, 1, 1, 0.1}},   {0, 1, {2, 1, 1, 1}},
      {0, 10, {20, 1, 1, 1}},   {1000, 1, {2, 1, 1, 1}},
      {-3, -3, {7, 2, 0.5, 3}}, {5.0987531, -0.000946480548, {0.0568, 0.0205, 8.75, 36.6}}};
  for (const Case& c : cases)
    for (int k = 1; k <= 12; ++k) {
      const double distance = c.velocity * std::pow(10.0, -k);
      const double target = c.position + distance;
      const L moved = L(target) - L(c.position);  // what the doubles say, exactly (Sterbenz)
      const L speed = std::fabs(L(c.velocity)), j = c.limits.max_jerk;
      L lo = 0, hi = std::sqrt(std::fabs(moved) / speed * std::sqrt(j));
      for (int i = 0; i < 200; ++i) {
        const L x = (lo + hi) / 2;
        (2 * (2 * speed + x * x) * x / std::sqrt(j) < std::fabs(moved) ? lo : hi) = x;
      }
      const L optimal = 4 * lo / std::sqrt(j);
      // (The closed form holds while neither change reaches an acceleration limit.)
      const L knee = std::min(c.limits.max_acceleration, c.limits.max_deceleration);
      const bool closed_form =
          lo * lo <= knee * knee / j && speed + lo * lo <= c.limits.max_velocity;
      INFO("from " << c.position << " at " << c.velocity << ", " << distance << " ahead");
      const auto tr = JerkTrajectory<double>::to_position({c.position, c.velocity, 0}, target,
                                                          c.velocity, c.limits);
      REQUIRE(tr);
      if (closed_form) CHECK(std::fabs(L(tr->duration()) - optimal) <= 1e-9L * optimal);
      CHECK(L(tr->duration()) <= std::fabs(moved) / speed * (1 + 1e-12L));
      const AxisState<L> arrived =
          integrate_phases(*tr, AxisState<double>{c.position, c.velocity, 0});
      CHECK(std::fabs(arrived.position - L(target)) <=
            1e-9L * std::fabs(moved) + 4 * eps<double>() * std::fabs(L(c.position)));
      CHECK(std::fabs(arrived.velocity - L(c.velocity)) <= 1e-12L * speed);
      for (int i = 0; i <= 100; ++i)
        CHECK(tr->at(tr->duration() * i / 100).velocity * c.velocity >=
              c.velocity * c.velocity * (1 - 1e-9));
    }
  // A slow cruise moved far: the bump is then mostly the cubic (Newton from 4|v|x = D√J alone
  // ran out of steps: refused, or a 0.68-unit jump between phases).
  for (const double v : {1e-12, 1.5e-6, 1.2e-6}) {
    const double distance = v < 1e-9 ? 1 : 1e8;
    const JerkLimits<double> wide =
        v < 1e-9 ? JerkLimits<double>{1e5, 1e3, 1e3, 1} : JerkLimits<double>{1e8, 1e8, 1e8, 1};
    L lo = 0, hi = 1e4;
    for (int i = 0; i < 300; ++i) {
      const L x = (lo + hi) / 2;
      (2 * (2 * L(v) + x * x) * x < L(distance) ? lo : hi) = x;
    }
    INFO("at " << v << ", " << distance << " ahead");
    const auto tr = JerkTrajectory<double>::to_position({0, v, 0}, distance, v, wide);
    REQUIRE(tr);
    CHECK(std::fabs(L(tr->duration()) - 4 * lo) <= 1e-12L * 4 * lo);
    CHECK(std::fabs(integrate_phases(*tr, AxisState<double>{0, v, 0}).position - L(distance)) <=
          1e-12L * distance);
  }
  for (int k = 1; k <= 8; ++k) {
    const float distance = std::pow(10.0f, float(-k));
    L lo = 0, hi = distance;  // v = 1, J = 1: 2(2 + x²)x = D
    for (int i = 0; i < 200; ++i) {
      const L x = (lo + hi) / 2;
      (2 * (2 + x * x) * x < L(distance) ? lo : hi) = x;
    }
    const auto tr = JerkTrajectory<float>::to_position({0, 1, 0}, distance, 1, {2, 1, 1, 1});
    REQUIRE(tr);
    CHECK(std::fabs(L(tr->duration()) - 4 * lo) <= 4 * eps<float>() * 4 * lo);
    const AxisState<L> arrived = integrate_phases(*tr, AxisState<float>{0, 1, 0});
    CHECK(std::fabs(arrived.position - L(distance)) <= 8 * eps<float>() * L(distance));
  }
}

TEST_CASE("jerk trajectory: between equal cruises a short distance is the bump too",
          "[motion][jerk]") {
  // Snapped to a plain cruise where the peak lay within 1e-6 of the speed: 4e-7 slower.
  const JerkLimits<double> lim{0.226348, 0.0328964, 0.00657728, 0.177728};
  for (const double distance : {4.2958e-4, 1e-6, 3e-3}) {
    const double v = 0.136461;
    const L moved = L(10 + distance) - 10;  // the distance the doubles hold
    L lo = 0, hi = 1;
    for (int i = 0; i < 200; ++i) {
      const L x = (lo + hi) / 2;
      (2 * (2 * L(v) + x * x) * x / std::sqrt(L(lim.max_jerk)) < moved ? lo : hi) = x;
    }
    const L optimal = 4 * lo / std::sqrt(L(lim.max_jerk));
    const auto tr = JerkTrajectory<double>::between_cruises(10, 10 + distance, v, v, lim);
    REQUIRE(tr);
    CHECK(std::fabs(L(tr->duration()) - optimal) <= 1e-12L * optimal);
    CHECK(std::fabs(integrate_phases(*tr, AxisState<double>{10, v, 0}).position -
                    L(10 + distance)) <= 1e-12L);
  }
}

TEST_CASE("between cruises too close, the error says how far the change needs", "[motion][jerk]") {
  // From 0 to 10 under acceleration 2 and jerk 1: the change is past the knee A²/J = 4, so it
  // takes 10/2 + 2/1 = 7 s at a mean velocity of 5: 35 units. Given 20, it is refused.
  const JerkLimits<double> lim{20, 2, 2, 1};
  const auto tr = JerkTrajectory<double>::between_cruises(100, 120, 0, 10, lim);
  REQUIRE_FALSE(tr);
  CHECK(tr.error().code == ErrorCode::no_solution);
  CHECK(tr.error().message == "between_cruises: 20 is too short to change from 0 to 10 (needs 35)");
  const auto enough = JerkTrajectory<double>::between_cruises(100, 135, 0, 10, lim);
  REQUIRE(enough);
  CHECK(std::abs(enough->duration() - 7) <= 1e-12);
}

TEST_CASE("jerk trajectory: a duration met under a softer jerk stays inside the velocity limit",
          "[motion][jerk]") {
  // The start's acceleration, eased at the full jerk limit, leaves the velocity at −1.1034,
  // inside 1.107; a jerk lowered to stretch the move to a longer duration carried it to −1.244.
  // Every duration is met inside the limits or refused.
  const JerkLimits<double> lim{1.107, 1.655, 2.454, 2.163};
  const AxisState<double> from{0, -0.1246, -2.0577};
  const auto fastest = JerkTrajectory<double>::to_position(from, -0.8829, 0.9568, lim);
  REQUIRE(fastest);
  int refused = 0;
  for (int i = 1; i <= 60; ++i) {
    const double duration = fastest->duration() * (1 + i / 60.0);
    INFO("duration " << duration);
    const auto tr = JerkTrajectory<double>::to_position_in(duration, from, -0.8829, 0.9568, lim);
    if (!tr) {
      CHECK(tr.error().code == ErrorCode::no_solution);
      ++refused;
      continue;
    }
    CHECK(limit_excess(*tr, lim, 4000, 1e-6) <= 1e-12);
  }
  CHECK(refused < 60);
}

TEST_CASE("jerk trajectory: well-scaled moves build and start exactly on the start",
          "[motion][jerk]") {
  // Targets just past one velocity change's distance (the border between one change and two),
  // where the planner's halves meet 1e-8 of the move apart: built, not refused as badly scaled.
  const JerkLimits<double> near{0.11519119123263212, 0.017194232785901809, 0.0063373127795603636,
                                0.0077654495205339673};
  const AxisState<double> from{-0.013465221840404214, 0.057094170217528634, 0};
  const auto border =
      JerkTrajectory<double>::to_position(from, 0.05871686405657342, 0.060042911358708491, near);
  REQUIRE(border);
  CHECK(border->at(0).position == from.position);
  CHECK(border->at(border->duration()).position == 0.05871686405657342);
  const JerkLimits<float> near_f{2.3395543f, 0.030813802f, 0.80926681f, 0.94760877f};
  const AxisState<float> from_f{-2.1870089f, 2.2089097f, 0};
  const auto border_f = JerkTrajectory<float>::to_position(from_f, 0.66402179f, 1.7064683f, near_f);
  REQUIRE(border_f);
  CHECK(border_f->at(0).position == from_f.position);
  // A plan that is only its second change, laid back from the target, starts on the start
  // exactly (it was a few ulps off).
  const JerkLimits<double> one{10.868780467947873, 52.363946409909829, 1.3575490066070457,
                               79.968836733842053};
  const AxisState<double> moving{0.22022666240934452, -9.6786566309165796, 0};
  const auto second_only = JerkTrajectory<double>::to_position(moving, -3.1469215616918143, 0, one);
  REQUIRE(second_only);
  CHECK(second_only->at(0).position == moving.position);
  CHECK(second_only->at(0).velocity == moving.velocity);
  // Float velocity changes: the end compared in the plan's own precision, not after rounding to
  // float (96 in 100 were refused).
  int refused = 0;
  for (int i = 1; i <= 100; ++i) {
    const float v = 0.01f * static_cast<float>(i);
    const auto change = JerkTrajectory<float>::to_velocity({0.1f, 0, 0}, v, {2, 1, 1, 1});
    if (!change) {
      ++refused;
      continue;
    }
    CHECK(change->at(change->duration()).velocity == v);
    // v² / 2 covered at once at A = 1, J = 1 from rest: v < A²/J, so t = 2√(v/J) and the
    // distance is v·t/2 = v^1.5 — in closed form.
    const double distance = std::pow(static_cast<double>(v), 1.5);
    CHECK(std::abs(static_cast<double>(change->target().position) - 0.1 - distance) <=
          1e-6 * (1 + distance));
  }
  CHECK(refused == 0);
}

// How long braking takes from beyond the limits, found by bisection on the motion itself in long
// double: the acceleration brought to its limit at full jerk, then, where the speed is beyond
// v_max or the acceleration carries it past, jerk towards braking (held at the braking limit
// once there) until the speed is back at v_max — the first time after its peak that it is — or
// until easing the braking at full jerk would carry the velocity to −v_max (Ruckig's rule; a
// start already that far, v − a²/2J past −v_max, is not braked).
L reference_braking(const AxisState<double>& from, const JerkLimits<double>& lim) {
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

TEST_CASE("jerk trajectory: states beyond the limits brake back inside and stay there",
          "[motion][jerk]") {
  auto rng = make_rng(154);
  for (int i = 0; i < property_count(1000); ++i) {
    const JerkLimits<double> lim = random_limits<double>(rng);
    const AxisState<double> from{0, uniform<double>(rng, -2, 2) * lim.max_velocity,
                                 uniform<double>(rng, -2, 2) * lim.max_acceleration};
    const double target = uniform<double>(rng, -5, 5);
    const double target_velocity = uniform<double>(rng, -1, 1) * lim.max_velocity;
    INFO("case " << i << ": v " << from.velocity << " a " << from.acceleration);
    const auto tr = JerkTrajectory<double>::to_position(from, target, target_velocity, lim);
    REQUIRE(tr);
    const double over =
        from.acceleration > lim.max_acceleration    ? from.acceleration - lim.max_acceleration
        : -from.acceleration > lim.max_deceleration ? -from.acceleration - lim.max_deceleration
                                                    : 0;
    const double braking = double(reference_braking(from, lim));
    CHECK(std::abs(tr->braking_duration() - braking) <= 1e-12 * (1 + braking));
    if (over > 0) CHECK(std::abs(tr->at(0).jerk) == lim.max_jerk);
    // Where braking brought the velocity back to the limit, it stays inside from there on.
    // (Where going on would have carried it past the opposite limit first, the plan's first
    // change brakes instead, as before: then braking_duration() is the acceleration brake's.)
    const double braked = std::abs(tr->at(tr->braking_duration()).velocity);
    if (tr->braking_duration() > over / lim.max_jerk &&
        std::abs(braked - lim.max_velocity) <= 1e-12 * lim.max_velocity) {
      for (int k = 1; k <= 200; ++k) {
        const double t =
            tr->braking_duration() + (tr->duration() - tr->braking_duration()) * k / 200;
        CHECK(std::abs(tr->at(t).velocity) <= lim.max_velocity * (1 + 1e-12));
      }
    }
    CHECK(tr->at(tr->duration()).position == target);
    CHECK(limit_excess(*tr, lim, 400, 1e-6) <= 1e-12);
    const auto velocity = JerkTrajectory<double>::to_velocity(from, target_velocity, lim);
    REQUIRE(velocity);
    CHECK(limit_excess(*velocity, lim, 400, 1e-6) <= 1e-12);
  }
}

TEST_CASE("jerk trajectory: starts beyond the velocity limit take Ruckig's durations",
          "[motion][jerk]") {
  // Cases an outside check found slower than Ruckig (or still beyond v_max when braking at full
  // jerk had finished), as v_max a_max d_max j_max p0 v0 a0 p* v*, with the durations Ruckig
  // 0.19.4 (PyPI) gives for them: its velocity brake, then its time-optimal profile.
  const double cases[][10] = {
      {8.535445297425726, 2.8155485240889018, 8.4045823668673894, 0.12589624372001113,
       48.795184557826815, 9.4100670093946004, 0, 79.84992530554986, -7.4842158903329015,
       24.48183701643302},
      {331.18670940262808, 3512.6074820450635, 10284.404441920735, 1317.4999304618616,
       307.58971230445479, -491.70535761778751, 0, -34.099609063319598, 0, 1.4200130668219053},
      {0.23518378569259052, 0.37586344854331138, 0.21024905349802256, 0.29541655281245993,
       0.20635185239138959, -0.19500701371446316, -0.18342819574350805, -0.24035167359757073, 0,
       2.8064607259612853},
      {47.006972752233189, 27.063398277176681, 54.908297500376953, 21.595206045979442,
       -109.14899727296553, -73.633687634330215, 23.481966003971664, -278.22409275907359, 0,
       5.462163420863564},
      {368.45608154712602, 434.12197686167559, 664.04478301557549, 94.058636752291719,
       179.29421677292672, -613.23199901674002, 122.83876465808177, -1538.2558369727994, 0,
       9.60130785334672},
      // Braking that would carry the velocity past the opposite limit: Ruckig brakes until
      // easing from there would reach it, and plans on from that state (tractrix planned from
      // the start instead, 3.66, 4.16 and 1.18 s: shorter, but 0.1–0.6 s longer beyond the
      // limits).
      {1.099649451569908, 0.15687333301577505, 2.687805881499669, 1.415622392322109,
       -1.390436545718722, 2.2820346799047297, -1.8762908452346567, 2.6560999855584555,
       0.4628797544454438, 20.250559127104488},
      {1.1114805417690559, 0.19426607349317748, 1.6948471705208086, 0.37106725750289105,
       -2.5914088479512225, 2.2927685657194505, -1.1818860848900927, -1.11082316736838,
       -0.6975188842643649, 21.018666451870917},
      {0.3445410598328277, 2.103700159163089, 2.519466701537965, 1.0436189830244316,
       1.2720770551292464, 0.7674630121099238, -0.7479435567302007, 1.8085168684531059,
       0.2505264011155452, 4.509214123352163}};
  for (const auto& c : cases) {
    const JerkLimits<double> lim{c[0], c[1], c[2], c[3]};
    const AxisState<double> from{c[4], c[5], c[6]};
    const auto tr = JerkTrajectory<double>::to_position(from, c[7], c[8], lim);
    REQUIRE(tr);
    INFO("v0 " << c[5]);
    CHECK(std::abs(tr->duration() - c[9]) <= 1e-12 * c[9]);
    CHECK(std::abs(tr->braking_duration() - double(reference_braking(from, lim))) <= 1e-12);
    CHECK(limit_excess(*tr, lim, 400, 1e-6) <= 1e-12);
    // Braked back to the limit: inside from there on.
    const double braked = std::abs(tr->at(tr->braking_duration()).velocity);
    if (std::abs(braked - lim.max_velocity) > 1e-12 * lim.max_velocity) continue;
    for (int k = 0; k <= 200; ++k) {
      const double t = tr->braking_duration() + (tr->duration() - tr->braking_duration()) * k / 200;
      CHECK(std::abs(tr->at(t).velocity) <= lim.max_velocity * (1 + 1e-12));
    }
  }
}

TEST_CASE("jerk trajectory: a fixed duration is met exactly, inside the limits", "[motion][jerk]") {
  auto rng = make_rng(155);
  SECTION("rest to rest and cruises: every duration from the optimal one on") {
    for (int i = 0; i < property_count(500); ++i) {
      const JerkLimits<double> lim = random_limits<double>(rng);
      const double v0 = i % 2 ? 0 : uniform<double>(rng, 0, 1) * lim.max_velocity;
      const double distance = uniform<double>(rng, 0.5, 20) + v0 * v0 / lim.max_deceleration +
                              v0 * lim.max_deceleration / lim.max_jerk;
      const auto fastest = JerkTrajectory<double>::to_position({0, v0, 0}, distance, 0, lim);
      REQUIRE(fastest);
      const double duration = fastest->duration() * uniform<double>(rng, 1, 4);
      INFO("case " << i << ": v0 " << v0 << " D " << distance << " T " << duration);
      const auto tr =
          JerkTrajectory<double>::to_position_in(duration, {0, v0, 0}, distance, 0, lim);
      REQUIRE(tr);
      CHECK(tr->duration() == duration);
      const AxisState<L> arrived = integrate_phases(*tr, AxisState<double>{0, v0, 0});
      CHECK(std::abs(double(arrived.position) - distance) <= 1e-12 * (distance + 1));
      CHECK(limit_excess(*tr, lim, 400, 1e-6) <= 1e-12);
    }
  }
  SECTION("from any state: met exactly where it is met; the optimal duration always") {
    int met = 0;
    const int cases = property_count(1000);
    for (int i = 0; i < cases; ++i) {
      const JerkLimits<double> lim = random_limits<double>(rng);
      const AxisState<double> from{0, uniform<double>(rng, -1, 1) * lim.max_velocity,
                                   uniform<double>(rng, -0.5, 0.5) * lim.max_deceleration};
      const double distance = uniform<double>(rng, -5, 5);
      const double target_velocity = uniform<double>(rng, -1, 1) * lim.max_velocity;
      const auto fastest =
          JerkTrajectory<double>::to_position(from, distance, target_velocity, lim);
      REQUIRE(fastest);
      const auto same = JerkTrajectory<double>::to_position_in(fastest->duration(), from, distance,
                                                               target_velocity, lim);
      REQUIRE(same);
      CHECK(std::abs(same->duration() - fastest->duration()) <=
            4 * eps<double>() * fastest->duration());
      const double duration = fastest->duration() * uniform<double>(rng, 1, 3);
      const auto tr =
          JerkTrajectory<double>::to_position_in(duration, from, distance, target_velocity, lim);
      if (!tr) {
        CHECK(tr.error().code == ErrorCode::no_solution);
        continue;
      }
      ++met;
      CHECK(tr->duration() == duration);
      // Where the phases end (at(duration) returns the target itself).
      const AxisState<L> arrived = integrate_phases(*tr, from);
      CHECK(std::abs(double(arrived.position) - distance) <=
            1e-12 * (std::abs(distance) + lim.max_velocity * duration));
      CHECK(std::abs(double(arrived.velocity) - target_velocity) <= 1e-12 * lim.max_velocity);
      CHECK(limit_excess(*tr, lim, 200, 1e-6) <= 1e-12);
    }
    // Targets that must reverse to take longer have durations no profile meets (they would be
    // reached in the shortest time, and again after a gap); in this mix they are a few percent.
    CHECK(met >= cases * 9 / 10);
  }
  SECTION("durations Ruckig meets, where neither a cruise nor a softer jerk fits them") {
    // v_max a_max d_max j_max p0 v0 a0 p* v* T: each T met by Ruckig 0.19.4 (minimum_duration
    // T gives a trajectory of exactly T); refused by tractrix before its acceleration could
    // wave, or hold below its limit. The first two are from the outside check's report.
    const double cases[][10] = {
        {0.15218576488198268, 1.3649440993009845, 1.2283245356575019, 0.28134676210387083,
         -0.10249734517291165, 0.14662561388842668, -0.24138901379507594, -0.1005817251572287,
         -0.075128066356596274, 1.85589},
        {99.047128829820423, 720.1993556400231, 1029.9903610326787, 2410.810798784215,
         36.422534741017444, -82.682380918165805, 585.84723101122074, 33.423389981339355,
         35.241343842359157, 0.436205},
        {2.8008274655824215, 0.5506016595760727, 1.3799185566354568, 1.3175545847712609,
         -0.5517499461614017, 1.838962345228012, 0.17664837335017522, 2.88695792970943,
         0.5890195551161922, 2.734825860976902},
        {1.759757066971001, 1.9403943511293968, 0.21733258001231498, 2.4629733241754677,
         -1.9861491639837765, 0.0929545267979505, 0.181903647885859, -0.5568367768292983,
         1.6030550643314905, 1.641838610995638},
        {1.759757066971001, 1.9403943511293968, 0.21733258001231498, 2.4629733241754677,
         -1.9861491639837765, 0.0929545267979505, 0.181903647885859, -0.5568367768292983,
         1.6030550643314905, 1.7200214019954303},
        {1.9090020675057116, 1.6173747922351303, 0.2624620005932279, 0.35541455838397495,
         -2.0530796598394345, 1.199233269121213, 0.1133403463345687, 0.8680112697537821,
         1.5027117684659743, 2.175794064491712},
        {2.128393297058424, 1.035586271343846, 0.4432700654001308, 1.8974504260255305,
         2.7392937325508626, -0.1273037776002293, 0.09854362436647883, 0.6964804387572263,
         -1.2917612387445268, 2.952309058763082},
        {2.4258338276359597, 1.4461263468923329, 1.3730758863112884, 0.5707792840769287,
         -2.193646436113692, 1.3341321686199963, -0.0854865904253512, -0.3534562294247321,
         0.8455350502273822, 1.71818808193347},
        {2.0598028607413936, 2.761700117337071, 2.699915737637706, 1.8512567819849566,
         -0.7817749530813591, -1.9224854437912318, 2.6800322636579073, -0.7435259794434925,
         1.1947191866078677, 2.323279673700033},
        {2.0598028607413936, 2.761700117337071, 2.699915737637706, 1.8512567819849566,
         -0.7817749530813591, -1.9224854437912318, 2.6800322636579073, -0.7435259794434925,
         1.1947191866078677, 2.7456941598273117},
        {2.8177860958623397, 1.932650940542932, 2.241035062281463, 0.7987867873229404,
         -2.9738200299602484, 0.7749584172090599, -0.007832900584516977, 1.5519542206447836,
         2.0189939686606966, 3.2987882229422896},
        {2.388673339197714, 2.2544331913600186, 1.9258031284975683, 2.3618138537564577,
         2.6444502218216037, -0.009204092808530618, -1.6097686853466437, 2.0770713781446135,
         -0.06647853642284694, 1.7037609985537878}};
    for (const auto& c : cases) {
      const JerkLimits<double> lim{c[0], c[1], c[2], c[3]};
      const AxisState<double> from{c[4], c[5], c[6]};
      INFO("T " << c[9]);
      const auto tr = JerkTrajectory<double>::to_position_in(c[9], from, c[7], c[8], lim);
      REQUIRE(tr);
      CHECK(tr->duration() == c[9]);
      const AxisState<L> arrived = integrate_phases(*tr, from);
      const double scale = std::abs(c[4]) + std::abs(c[7]) + c[0] * c[9];
      CHECK(std::abs(double(arrived.position) - c[7]) <= 1e-12 * scale);
      CHECK(std::abs(double(arrived.velocity) - c[8]) <= 1e-12 * c[0]);
      CHECK(std::abs(double(arrived.acceleration)) <= 1e-12 * std::max(c[1], c[2]));
      CHECK(limit_excess(*tr, lim, 400, 1e-6) <= 1e-12);
    }
  }
  SECTION("shorter than the optimal duration is an error that names it") {
    const auto tr = JerkTrajectory<double>::to_position_in(0.5, {0, 0, 0}, 10, 0, {1, 1, 1, 1});
    REQUIRE_FALSE(tr);
    CHECK(tr.error().code == ErrorCode::out_of_range);
    CHECK(tr.error().message.find("shorter than the time-optimal") != std::string::npos);
  }
}

TEST_CASE("jerk trajectory: time_at is the first time the position is reached", "[motion][jerk]") {
  auto rng = make_rng(156);
  for (int i = 0; i < property_count(300); ++i) {
    const JerkLimits<double> lim = random_limits<double>(rng);
    const AxisState<double> from{0, uniform<double>(rng, -1, 1) * lim.max_velocity, 0};
    const double target = uniform<double>(rng, -5, 5);
    const auto tr = JerkTrajectory<double>::to_position(from, target, 0, lim);
    REQUIRE(tr);
    const double station = target * uniform<double>(rng, -0.5, 1);
    const double t = tr->time_at(station);
    INFO("case " << i << ": station " << station << " target " << target);
    // Dense samples: the first crossing, found independently.
    const int steps = 20000;
    double first = std::numeric_limits<double>::infinity();
    double before = tr->at(0).position - station;
    if (before == 0) first = 0;
    for (int k = 1; k <= steps && !(first < std::numeric_limits<double>::infinity()); ++k) {
      const double now = tr->at(tr->duration() * k / steps).position - station;
      if ((before < 0) != (now < 0) || now == 0) first = tr->duration() * k / steps;
      before = now;
    }
    if (std::isfinite(first)) {
      REQUIRE(std::isfinite(t));
      CHECK(t <= first + 1e-12);
      CHECK(t >= first - tr->duration() / steps - 1e-12);
      CHECK(std::abs(tr->at(t).position - station) <= 1e-12 * (std::abs(station) + 10));
    } else {
      CHECK_FALSE(std::isfinite(t));
    }
  }
  // Half way through a symmetric move from rest to rest is half its time (the middle is where
  // the first half's phases end and the second's start: their rounding apart).
  for (int i = 0; i < property_count(300); ++i) {
    const double distance = uniform<double>(rng, 0.01, 50);
    JerkLimits<double> lim = random_limits<double>(rng);
    lim.max_deceleration = lim.max_acceleration;
    const auto tr = JerkTrajectory<double>::to_position({1, 0, 0}, 1 + distance, 0, lim);
    REQUIRE(tr);
    INFO("case " << i << ": distance " << distance);
    CHECK(std::abs(tr->time_at(1 + distance / 2) - tr->duration() / 2) <= 1e-9 * tr->duration());
  }
  const auto moving = JerkTrajectory<double>::to_velocity({0, 0, 0}, 2, {4, 2, 2, 1});
  REQUIRE(moving);
  // 0 to 2 m/s under jerk 1 without reaching the acceleration limit: 2√(2/1) s; then it cruises
  // on.
  CHECK(std::abs(moving->duration() - 2 * std::sqrt(2.0)) <= 1e-15 * 4);
  CHECK(std::abs(moving->time_at(100) -
                 (moving->duration() + (100 - moving->at(moving->duration()).position) / 2)) <=
        1e-12 * 100);
  CHECK_FALSE(std::isfinite(moving->time_at(-1)));
}

TEST_CASE("jerk trajectory: position extrema", "[motion][jerk]") {
  SECTION("a reversal's turning point in closed form") {
    // From v0 to −v0 without reaching the acceleration limit: jerk −J for √(2v0/J), where the
    // velocity is v0 − J t²/2 = 0, then +J. The turning point is at
    // v0 t − J t³/6 = (2/3) v0 √(2v0/J).
    const double v0 = 1.5, j = 0.75;
    const auto tr = JerkTrajectory<double>::to_velocity({2, v0, 0}, -v0, {3, 5, 5, j});
    REQUIRE(tr);
    const PositionExtrema<double> e = tr->position_extrema();
    const double turn = std::sqrt(2 * v0 / j);
    CHECK(std::abs(e.max - (2 + 2.0 / 3 * v0 * turn)) <= 1e-14 * 4);
    CHECK(std::abs(e.time_of_max - turn) <= 1e-14 * turn);
    // The change is symmetric (mean velocity 0): it ends where it started, which is the least
    // position, first reached at 0.
    CHECK(std::abs(tr->target().position - 2) <= 1e-15 * 4);
    CHECK(e.min == 2);
    CHECK(e.time_of_min == 0);
  }
  SECTION("no position of the move is beyond them, and they are reached") {
    auto rng = make_rng(157);
    for (int i = 0; i < property_count(300); ++i) {
      const JerkLimits<double> lim = random_limits<double>(rng);
      const AxisState<double> from{uniform<double>(rng, -2, 2),
                                   uniform<double>(rng, -1.5, 1.5) * lim.max_velocity,
                                   uniform<double>(rng, -1.5, 1.5) * lim.max_acceleration};
      const auto tr = JerkTrajectory<double>::to_position(
          from, uniform<double>(rng, -5, 5), uniform<double>(rng, -1, 1) * lim.max_velocity, lim);
      REQUIRE(tr);
      const PositionExtrema<double> e = tr->position_extrema();
      INFO("case " << i);
      // Dense samples, each sample's neighbourhood refined by golden-section search on at():
      // the extremes of the motion found without the phases' velocity roots.
      const int steps = 4000;
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (int k = 0; k <= steps; ++k) {
        const double p = tr->at(tr->duration() * k / steps).position;
        lo = std::min(lo, p);
        hi = std::max(hi, p);
      }
      const double scale = 1e-12 * (10 + std::abs(e.min) + std::abs(e.max));
      CHECK(e.min <= lo + scale);
      CHECK(e.max >= hi - scale);
      // Within what the sampling can miss: |v| dt/2 at a turn is 0 (v = 0 there), so the gap is
      // |a| (dt/2)²/2 at most.
      const double dt = tr->duration() / steps;
      const double miss = 2 * lim.max_acceleration * dt * dt + scale;
      CHECK(lo - e.min <= miss + std::abs(from.acceleration) * dt * dt);
      CHECK(e.max - hi <= miss + std::abs(from.acceleration) * dt * dt);
      CHECK(std::abs(tr->at(e.time_of_min).position - e.min) <= scale);
      CHECK(std::abs(tr->at(e.time_of_max).position - e.max) <= scale);
    }
  }
}

TEST_CASE("jerk trajectory: zero-length moves, float, and bad input", "[motion][jerk]") {
  SECTION("already there") {
    const auto tr = JerkTrajectory<double>::to_position({3, 0, 0}, 3, 0, {1, 1, 1, 1});
    REQUIRE(tr);
    CHECK(tr->duration() == 0);
    CHECK(tr->at(5).position == 3);
    CHECK(tr->time_at(3) == 0);
    const auto held = JerkTrajectory<double>::to_velocity({3, 1, 0}, 1, {1, 1, 1, 1});
    REQUIRE(held);
    CHECK(held->duration() == 0);
    CHECK(held->at(2).position == 5);
  }
  SECTION("float: planned in double, exact at the end, inside the limits") {
    auto rng = make_rng(157);
    for (int i = 0; i < property_count(500); ++i) {
      const JerkLimits<float> lim = random_limits<float>(rng);
      const AxisState<float> from{uniform<float>(rng, -10, 10),
                                  uniform<float>(rng, -1, 1) * lim.max_velocity, 0};
      const float target = from.position + uniform<float>(rng, -5, 5);
      const float target_velocity = uniform<float>(rng, -1, 1) * lim.max_velocity;
      const auto tr = JerkTrajectory<float>::to_position(from, target, target_velocity, lim);
      REQUIRE(tr);
      CHECK(tr->at(tr->duration()).position == target);
      CHECK(tr->at(tr->duration()).velocity == target_velocity);
      const auto as_double = JerkTrajectory<double>::to_position(
          {from.position, from.velocity, 0}, target, target_velocity,
          {lim.max_velocity, lim.max_acceleration, lim.max_deceleration, lim.max_jerk});
      REQUIRE(as_double);
      CHECK(std::abs(double(tr->duration()) - as_double->duration()) <=
            1e-6 * as_double->duration());
      // Sampled in float: limits to float rounding.
      CHECK(limit_excess(*tr, lim, 200, 1e-3) <= 1e-5);
      // The duration as float returns it, rounded either way, is the time-optimal one; 1e-4
      // shorter is not.
      const auto same =
          JerkTrajectory<float>::to_position_in(tr->duration(), from, target, target_velocity, lim);
      REQUIRE(same);
      CHECK(std::abs(same->duration() - tr->duration()) <= 4 * eps<float>() * tr->duration());
      CHECK(same->at(same->duration()).position == target);
      if (tr->duration() > 0)
        CHECK(JerkTrajectory<float>::to_position_in(tr->duration() * (1 - 1e-4f), from, target,
                                                    target_velocity, lim)
                  .error()
                  .code == ErrorCode::out_of_range);
    }
  }
  SECTION("errors name what is wrong") {
    const JerkLimits<double> good{1, 1, 1, 1};
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const JerkLimits<double>& bad :
         {JerkLimits<double>{-1, 1, 1, 1}, JerkLimits<double>{1, 0, 1, 1},
          JerkLimits<double>{1, 1, nan, 1},
          JerkLimits<double>{1, 1, 1, std::numeric_limits<double>::infinity()}}) {
      const auto tr = JerkTrajectory<double>::to_position({}, 1, 0, bad);
      REQUIRE_FALSE(tr);
      CHECK(tr.error().code == ErrorCode::out_of_range);
      CHECK(tr.error().message.find("max_jerk") != std::string::npos);
    }
    const auto fast = JerkTrajectory<double>::to_position({}, 1, 2, good);
    REQUIRE_FALSE(fast);
    CHECK(fast.error().message.find("target velocity 2") != std::string::npos);
    const auto fast_velocity = JerkTrajectory<double>::to_velocity({}, -1.5, good);
    REQUIRE_FALSE(fast_velocity);
    CHECK(JerkTrajectory<double>::to_position({nan, 0, 0}, 1, 0, good).error().code ==
          ErrorCode::non_finite);
    CHECK(JerkTrajectory<double>::to_position({}, nan, 0, good).error().code ==
          ErrorCode::non_finite);
    CHECK(JerkTrajectory<double>::to_position_in(nan, {}, 1, 0, good).error().code ==
          ErrorCode::out_of_range);
  }
}

TEST_CASE("jerk trajectory: between cruises with just enough distance for one change in float",
          "[motion][jerk]") {
  // A speed plan's section between two zone boundaries: the distance is what the one change
  // from 8.83 to 9.87 takes, to the rounding of the float velocities the plan computed — 1.44e-5
  // more. The two phases of the change ended that short of the end (4 ulps there, more than 1e-7
  // of the positions' scale) and the move was refused as "its phases would not join" (45 float
  // plans from rest in 10⁵ on random lines with zones). The slack is cruised at the faster end.
  const float start = 30.4859657f, end = 51.2579536f, v1 = 8.83098316f, v2 = 9.87291527f;
  const JerkLimits<float> lim{22.9481812f, 1.89421225f, 1.17409074f, 0.844788849f};
  const auto tr = JerkTrajectory<float>::between_cruises(start, end, v1, v2, lim);
  REQUIRE(tr);
  CHECK(tr->at(0).position == start);
  CHECK(tr->at(0).velocity == v1);
  CHECK(tr->at(tr->duration()).position == end);
  CHECK(tr->at(tr->duration()).velocity == v2);
  // The phases themselves reach the end (integrated in long double from the start: 8.5e-7 off,
  // from the float durations and jerks; they ended 1.44e-5 short without the cruise), and so
  // does the trajectory an ulp of time before its end.
  const AxisState<L> reached = integrate_phases(*tr, AxisState<float>{start, v1, 0});
  CHECK(std::abs(reached.position - L(end)) <= L(eps<float>()) * L(end));
  CHECK(std::abs(reached.velocity - L(v2)) <= 4 * L(eps<float>()) * L(v2));
  const float before = std::nextafter(tr->duration(), 0.0f);
  CHECK(std::abs(tr->at(before).position - end) <= eps<float>() * end);
  // The closed form of one change below the acceleration limit (Δv < a²/J): jerk J for √(Δv/J),
  // then −J as long; the distance is the mean velocity times 2√(Δv/J), plus the slack's cruise.
  const L dv = L(v2) - L(v1), jerk = lim.max_jerk;
  const L change = 2 * std::sqrt(dv / jerk);
  const L slack = (L(end) - L(start)) - (L(v1) + L(v2)) / 2 * change;
  CHECK(dv < L(lim.max_acceleration) * L(lim.max_acceleration) / jerk);
  CHECK(slack >= 0);
  CHECK(slack <= 2e-5L);
  CHECK(std::abs(L(tr->duration()) - (change + slack / L(v2))) <= 1e-6L * change);
  // The velocity rises from v1 to v2 and never beyond, under every limit (to float rounding).
  float previous = v1;
  for (int k = 1; k <= 200; ++k) {
    const AxisSample<float> s = tr->at(tr->duration() * float(k) / 200);
    CHECK(s.velocity >= previous - 4 * eps<float>() * v2);
    CHECK(s.velocity <= v2 * (1 + 4 * eps<float>()));
    previous = s.velocity;
  }
  CHECK(limit_excess(*tr, lim, 200, 1e-3) <= 1e-5);
  // A near-v_max cruise moved on 3.1e-7 at its speed (its roots in v_p ended 11 ulps off the
  // target, and it was refused): the bump in closed form, ending on the target.
  const AxisState<float> cruising{0.12752983f, 1.85546315f, 0};
  const JerkLimits<float> tight{1.85546327f, 1.46058953f, 0.0107912803f, 0.785968304f};
  const auto on = JerkTrajectory<float>::to_position(cruising, 0.127530143f, 1.85546315f, tight);
  REQUIRE(on);
  const L moved = L(0.127530143f) - L(cruising.position);
  CHECK(std::fabs(L(on->duration()) - moved / L(cruising.velocity)) <= 1e-6L * on->duration());
  CHECK(std::fabs(integrate_phases(*on, cruising).position - L(0.127530143f)) <=
        2 * eps<float>() * L(0.127530143f));
}

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
