#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/motion/time_profile.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {
template <class S>
std::vector<TimeProfile<S>> all_profiles() {
  return {*TimeProfile<S>::constant(S(4)),
          *TimeProfile<S>::sine(S(4)),
          *TimeProfile<S>::sine_pieces(S(4), ease_fractions(S(0.2), S(0.7))),
          *TimeProfile<S>::parabolic(S(4), ease_fractions(S(0.3), S(0.6))),
          *TimeProfile<S>::trapezoidal(S(100), S(20), S(8)),
          *TimeProfile<S>::trapezoidal(S(10), S(20), S(8)),
          *TimeProfile<S>::s_curve(S(100), S(10), S(5), S(10)),
          *TimeProfile<S>::s_curve(S(5), S(10), S(5), S(10)),
          *TimeProfile<S>::s_curve(S(100), S(2), S(5), S(10)),
          *TimeProfile<S>::keyed({S(0), S(1), S(1.5), S(4)}, {S(0), S(0.1), S(0.7), S(1)})};
}
}  // namespace

TEMPLATE_TEST_CASE("profiles run from 0 to 1, monotone and continuous in value and slope",
                   "[motion][profile]", float, double) {
  using S = TestType;
  for (const auto& p : all_profiles<S>()) {
    const S T = p.duration();
    CHECK(p.at(S(0)).value == S(0));
    CHECK(p.at(T).value == S(1));
    CHECK(p.at(-T).value == S(0));
    CHECK(p.at(std::numeric_limits<S>::quiet_NaN()).value == S(0));
    // Before the start and after the end the move holds still: no rate, no acceleration (a
    // constant-speed move read its speed after its end, where the position no longer moved).
    for (const S outside : {-T, -eps<S>() * T, T * (1 + S(4) * eps<S>()), S(3) * T}) {
      const auto held = p.at(outside);
      INFO("t = " << outside << " of " << T);
      CHECK(held.value == (outside < S(0) ? S(0) : S(1)));
      CHECK(held.rate == S(0));
      CHECK(held.acceleration == S(0));
    }
    S previous = S(0);
    const int steps = 4000;
    const S dt = T / S(steps);
    for (int i = 1; i <= steps; ++i) {
      const auto a = p.at(dt * S(i));
      CHECK(a.value >= previous - S(4) * eps<S>());
      CHECK(a.rate >= -S(64) * eps<S>() / T);
      // Continuous value and slope: steps agree with the rate (no jumps at piece boundaries).
      CHECK(std::abs(a.value - previous - dt * (a.rate + p.at(dt * S(i - 1)).rate) / S(2)) <=
            S(2e-4) * dt / T + S(8) * eps<S>());
      previous = a.value;
    }
  }
}

TEMPLATE_TEST_CASE("sine pieces and parabolic eases end on 1 exactly and never pass it",
                   "[motion][profile]", float, double) {
  // Its pieces sum their terms to 1 at T only to rounding: above 1 by up to 2 eps for 38 % of
  // random fractions, and short of it for others; the cruise too where it runs to the end.
  using S = TestType;
  auto rng = make_rng(211);
  for (int n = 0; n < property_count(500); ++n) {
    // Every third without an ease-out (the cruise runs to the end), every fifth without an
    // ease-in.
    const S k1 = n % 5 == 0 ? S(0) : uniform<S>(rng, S(0.01), S(0.5));
    const S k2 = n % 3 == 0 ? S(1) : uniform<S>(rng, std::max(k1, S(0.01)), S(0.99));
    // (The parabolic ease's cruise to the end, t2 = 1, summed to 1 + 1 ulp for 6 % of t1.)
    for (const auto& p : {TimeProfile<S>::sine_pieces(S(3), ease_fractions(k1, k2)),
                          TimeProfile<S>::parabolic(S(3), ease_fractions(k1, k2))}) {
      REQUIRE(p);
      INFO("k1 " << k1 << ", k2 " << k2);
      CHECK(p->at(S(3)).value == S(1));
      for (int i = 0; i <= 200; ++i)
        CHECK(p->at(S(3) * (S(1) - S(i) * S(1e-4))).value <= S(1));
    }
  }
}

TEST_CASE("profile derivatives match central differences", "[motion][profile]") {
  for (const auto& p : all_profiles<double>()) {
    const double T = p.duration(), h = 1e-5 * T;
    for (int i = 1; i < 100; ++i) {
      // Off every piece boundary and key (they sit at multiples of 0.05·T or at 2.5 s, 5 s), where
      // the second derivative jumps by design and a difference quotient would straddle the jump.
      const double t = T * (i + 0.3) / 100.0;
      const auto a = p.at(t);
      CHECK(std::abs((p.at(t + h).value - p.at(t - h).value) / (2 * h) - a.rate) <= 1e-6 / T);
      CHECK(std::abs((p.at(t + h).rate - p.at(t - h).rate) / (2 * h) - a.acceleration) <=
            1e-4 / (T * T) + 1e-6 * std::abs(a.acceleration));
    }
  }
}

TEST_CASE("ease curves match Parent's published and derived values", "[motion][profile]") {
  // Parent (3rd ed.) §3.2.1: sine ease-in/out at 1/4 is (1 − cos(π/4))/2 = 0.1464466...
  CHECK(std::abs(TimeProfile<double>::sine(1.0)->at(0.25).value - 0.14644660940672624) <= 1e-15);
  // Sine pieces k1 = 0.2, k2 = 0.8 (Parent Eq. 3.9–3.11), derived here: v0 = 1/(0.6 + 0.8/π),
  // E(0.1) = v0·(0.4/π)·(1 − cos(π/4)) = 0.0436338...
  const double v0 = 1 / (0.6 + 0.8 / 3.141592653589793);
  CHECK(std::abs(TimeProfile<double>::sine_pieces(1.0, ease_fractions(0.2, 0.8))->at(0.1).value -
                 v0 * 0.4 / 3.141592653589793 * (1 - std::cos(3.141592653589793 / 4))) <= 1e-15);
  CHECK(std::abs(TimeProfile<double>::sine_pieces(1.0, ease_fractions(0.2, 0.8))->at(0.5).rate -
                 v0) <= 1e-15);
  // Parabolic t1 = 0.2, t2 = 0.8 (Parent Eq. 3.13–3.15): v0 = 2/(1 + t2 − t1) = 1.25,
  // E(0.1) = v0·0.1²/(2·0.2) = 0.03125, E(0.5) = 0.125 + 1.25·0.3 = 0.5.
  const auto parabolic = *TimeProfile<double>::parabolic(1.0, ease_fractions(0.2, 0.8));
  CHECK(std::abs(parabolic.at(0.1).value - 0.03125) <= 1e-15);
  CHECK(std::abs(parabolic.at(0.5).value - 0.5) <= 1e-15);
  // Trapezoid: 100 units at ≤ 20/s with 8/s²: ramps of 2.5 s covering 25 each, 2.5 s at 20 → 7.5 s.
  const auto trapezoid = *TimeProfile<double>::trapezoidal(100, 20, 8);
  CHECK(std::abs(trapezoid.duration() - 7.5) <= 1e-12);
  CHECK(std::abs(trapezoid.at(3.75).rate * 100 - 20) <= 1e-12);
  CHECK(std::abs(trapezoid.at(1.0).acceleration * 100 - 8) <= 1e-12);
  // Triangle when the limit is never reached: 10 units at 8/s² peak at √80 after √(10/8) s.
  CHECK(std::abs(TimeProfile<double>::trapezoidal(10, 20, 8)->duration() -
                 2 * std::sqrt(10.0 / 8)) <= 1e-12);
}

TEST_CASE("s-curves honour their speed, acceleration and jerk limits", "[motion][profile]") {
  // D = 100, V = 10, A = 5, J = 10: jerk phases A/J = 0.5 s, constant acceleration V/A − A/J = 1.5
  // s, so each ramp takes 2.5 s and covers V·2.5/2 = 12.5; cruise (100 − 25)/10 = 7.5 s → T = 12.5
  // s.
  const auto full = *TimeProfile<double>::s_curve(100, 10, 5, 10);
  CHECK(std::abs(full.duration() - 12.5) <= 1e-12);
  CHECK(std::abs(full.at(6.0).rate * 100 - 10) <= 1e-12);
  CHECK(std::abs(full.at(1.5).acceleration * 100 - 5) <= 1e-12);
  CHECK(std::abs(full.at(0.25).acceleration * 100 - 2.5) <= 1e-12);  // J·t in the first jerk phase
  // Every case, in world units (E × distance): speed <= V, |acceleration| <= A, |jerk| <= J.
  const double distances[] = {100, 5, 100}, speeds[] = {10, 10, 2};
  for (int k = 0; k < 3; ++k) {
    const double D = distances[k];
    const auto p = *TimeProfile<double>::s_curve(D, speeds[k], 5, 10);
    const double dt = p.duration() / 20000;
    double max_speed = 0, max_acceleration = 0, max_jerk = 0;
    for (int i = 0; i < 20000; ++i) {
      const auto a = p.at(dt * i), b = p.at(dt * (i + 1));
      max_speed = std::max(max_speed, a.rate * D);
      max_acceleration = std::max(max_acceleration, std::abs(a.acceleration) * D);
      max_jerk = std::max(max_jerk, std::abs(b.acceleration - a.acceleration) * D / dt);
    }
    INFO("case " << k << ": speed " << max_speed << ", acceleration " << max_acceleration
                 << ", jerk " << max_jerk);
    CHECK(max_speed <= speeds[k] * (1 + 1e-9));
    CHECK(max_acceleration <= 5 * (1 + 1e-9));
    CHECK(max_jerk <= 10 * (1 + 1e-6));
  }
  CHECK(TimeProfile<double>::s_curve(10, 0, 1, 1).error().code == ErrorCode::out_of_range);
}

TEMPLATE_TEST_CASE("keyed profiles pass through every key and never go backwards",
                   "[motion][profile]", float, double) {
  using S = TestType;
  // Steep then flat keys: a plain cubic spline would overshoot here.
  const std::vector<S> t{S(0), S(1), S(1.2), S(3), S(3.1), S(5)},
      e{S(0), S(0.05), S(0.6), S(0.62), S(0.99), S(1)};
  const auto p = *TimeProfile<S>::keyed(t, e);
  for (std::size_t i = 0; i < t.size(); ++i)
    CHECK(std::abs(p.at(t[i]).value - e[i]) <= S(4) * eps<S>());
  S previous = S(0);
  for (int i = 0; i <= 5000; ++i) {
    const auto a = p.at(S(5) * S(i) / S(5000));
    CHECK(a.value >= previous);
    CHECK(a.value <= S(1));
    CHECK(a.rate >= -S(16) * eps<S>());
    previous = a.value;
  }
}

TEMPLATE_TEST_CASE("keyed profiles on random keys never step back, float's included",
                   "[motion][profile]", float, double) {
  // Evaluated in float, the cubic stepped E back by 1-3 ulps inside an interval for 1 in 15
  // random key sets (E near 1 over a long interval).
  using S = TestType;
  auto rng = make_rng(212);
  for (int n = 0; n < property_count(300); ++n) {
    const int count = 3 + n % 6;
    std::vector<S> t{S(0)}, e{S(0)};
    for (int k = 1; k < count; ++k) {
      t.push_back(t.back() + uniform<S>(rng, S(0.05), k == count - 2 ? S(80) : S(2)));
      e.push_back(k + 1 == count ? S(1) : std::min(S(1), e.back() + uniform<S>(rng, S(0), S(0.4))));
    }
    const auto p = TimeProfile<S>::keyed(t, e);
    REQUIRE(p);
    S previous = S(0);
    bool monotone = true;
    for (int i = 0; i <= 4000; ++i) {
      const S value = p->at(t.back() * S(i) / S(4000)).value;
      monotone = monotone && value >= previous;
      previous = value;
    }
    CHECK(monotone);
  }
}

TEMPLATE_TEST_CASE("bad profiles are rejected", "[motion][profile][errors]", float, double) {
  using S = TestType;
  const S nan = std::numeric_limits<S>::quiet_NaN();
  CHECK(TimeProfile<S>::constant(S(0)).error().message ==
        "duration: " + detail::number_text(S(0)) + " is not positive");
  CHECK(TimeProfile<S>::sine(nan).error().code == ErrorCode::out_of_range);
  CHECK(TimeProfile<S>::sine_pieces(S(1), ease_fractions(S(0.8), S(0.2))).error().code ==
        ErrorCode::out_of_range);
  CHECK(TimeProfile<S>::parabolic(S(1), ease_fractions(S(-0.1), S(0.2))).error().code ==
        ErrorCode::out_of_range);
  // Seconds passed where fractions belong: the message names the unit.
  CHECK(TimeProfile<S>::parabolic(S(6), ease_fractions(S(1.5), S(4.5))).error().message ==
        "parabolic: need 0 <= ease_in_end <= ease_out_start <= 1, fractions of the duration (not "
        "seconds), got ease_in_end " +
            detail::number_text(S(1.5)) + ", ease_out_start " + detail::number_text(S(4.5)));
  CHECK(TimeProfile<S>::trapezoidal(S(10), S(0), S(1)).error().code == ErrorCode::out_of_range);
  // Limits whose E'' = acceleration / distance is not representable are rejected, not sampled
  // into infinities (a distance near the smallest normal with a sizeable acceleration; found by
  // the fuzzer).
  const S tiny = std::numeric_limits<S>::min() * S(64);
  const auto overflowing = TimeProfile<S>::trapezoidal(tiny, S(1000), S(1000));
  REQUIRE_FALSE(overflowing);
  CHECK(overflowing.error().code == ErrorCode::out_of_range);
  CHECK_FALSE(TimeProfile<S>::s_curve(tiny, S(1000), S(1000), S(1000)));
  CHECK_FALSE(TimeProfile<S>::sine_pieces(std::sqrt(tiny), ease_fractions(S(1e-6), S(0.5))));
  CHECK(TimeProfile<S>::keyed({S(0)}, {S(0)}).error().code == ErrorCode::too_few_points);
  CHECK(TimeProfile<S>::keyed({S(0), S(1), S(1)}, {S(0), S(0.5), S(1)}).error().message ==
        "profile key 2: time " + detail::number_text(S(1)) + " not after " +
            detail::number_text(S(1)));
  CHECK(TimeProfile<S>::keyed({S(0), S(1), S(2)}, {S(0), S(0.5), S(0.4)}).error().code ==
        ErrorCode::out_of_range);
  CHECK(TimeProfile<S>::keyed({S(0), S(1)}, {S(0), nan}).error().code == ErrorCode::non_finite);
  CHECK(TimeProfile<S>::keyed({S(0), S(1)}, {S(0), S(0.5)}).error().code ==
        ErrorCode::out_of_range);
  // Keys so close that the cubic's acceleration, 6 dy/dt² and more, overflows though 1/dt² does
  // not: refused (they were taken, E'' was inf, and a motion sample's acceleration NaN).
  const S close = S(2) / std::sqrt(std::numeric_limits<S>::max());  // 1/dt² = max / 4
  const auto steep = TimeProfile<S>::keyed({S(0), close, S(1)}, {S(0), S(1), S(1)});
  REQUIRE_FALSE(steep);
  CHECK(steep.error().message.find("profile key 1: too close to the previous key") == 0);
  // Far enough apart for the bound: every derivative finite.
  const S apart = S(8) / std::sqrt(std::numeric_limits<S>::max());  // 24/dt² = 3 max / 8
  const auto fine = TimeProfile<S>::keyed({S(0), apart, S(1)}, {S(0), S(1), S(1)});
  REQUIRE(fine);
  for (const S t : {S(0), apart / S(2), apart, S(0.5)}) {
    const auto a = fine->at(t);
    CHECK((std::isfinite(a.value) && std::isfinite(a.rate) && std::isfinite(a.acceleration)));
  }
}

TEMPLATE_TEST_CASE("a move of distance 0 is done: duration 0, E = 1 and at rest at every time",
                   "[motion][profile]", float, double) {
  using S = TestType;
  const S nan = std::numeric_limits<S>::quiet_NaN();
  for (const auto& profile : {TimeProfile<S>::trapezoidal(S(0), S(2), S(1)),
                              TimeProfile<S>::s_curve(S(0), S(2), S(1), S(1))}) {
    REQUIRE(profile);
    CHECK(profile->duration() == S(0));
    for (const S t : {S(-1), S(0), S(0.5), S(1e30), nan}) {
      const ProfileSample<S> at = profile->at(t);
      CHECK(at.value == S(1));
      CHECK(at.rate == S(0));
      CHECK(at.acceleration == S(0));
    }
  }
  // Still refused: a negative or non-finite distance, and limits that are not positive.
  CHECK(TimeProfile<S>::trapezoidal(S(-1), S(2), S(1)).error().message ==
        "trapezoidal: max_speed and max_acceleration must be positive and finite, the distance "
        "finite and not negative");
  CHECK_FALSE(TimeProfile<S>::s_curve(S(-0.5), S(2), S(1), S(1)));
  CHECK_FALSE(TimeProfile<S>::s_curve(nan, S(2), S(1), S(1)));
  CHECK_FALSE(TimeProfile<S>::s_curve(S(0), S(0), S(1), S(1)));
  CHECK_FALSE(TimeProfile<S>::trapezoidal(S(0), S(2), -S(1)));
}

TEMPLATE_TEST_CASE("time_at is the first time a profile reaches a value", "[motion][profile]",
                   float, double) {
  using S = TestType;
  const S eps = std::numeric_limits<S>::epsilon();
  // Closed forms: E = t/T, and the trapezoid over 10 at speed 2 and acceleration 1 (ramps of 2 s
  // covering 0.2 of the distance each, 3 s of cruise): E = t²/20 on the ramp.
  const auto constant = *TimeProfile<S>::constant(S(4));
  for (const S e : {S(0.1), S(0.25), S(0.5), S(0.9)})
    CHECK(std::abs(constant.time_at(e) - S(4) * e) <= S(4) * S(4) * eps);
  const auto trapezoid = *TimeProfile<S>::trapezoidal(S(10), S(2), S(1));
  const S ramp[][2] = {{S(0.05), S(1)}, {S(0.2), S(2)}, {S(0.5), S(3.5)}, {S(0.95), S(6)}};
  for (const auto& [e, t] : ramp)
    CHECK(std::abs(trapezoid.time_at(e) - t) <= S(64) * eps * S(7));
  CHECK(std::abs(trapezoid.time_at(S(0.0125)) - std::sqrt(S(0.25))) <= S(64) * eps * S(7));
  // Ends, NaN, and a move already done.
  CHECK(trapezoid.time_at(S(0)) == S(0));
  CHECK(trapezoid.time_at(S(-1)) == S(0));
  CHECK(trapezoid.time_at(std::numeric_limits<S>::quiet_NaN()) == S(0));
  // Arriving at rest, E's rounding decides the first time it reads 1: within √eps of T.
  const S arrival = S(4) * std::sqrt(eps);
  CHECK(std::abs(trapezoid.time_at(S(2)) - S(7)) <= arrival * S(7));
  CHECK(TimeProfile<S>::s_curve(S(0), S(1), S(1), S(1))->time_at(S(0.5)) == S(0));
  // A flat stretch (a stop at E = 0.5 from t = 1 to 2): the first time, not any time.
  const auto stop = *TimeProfile<S>::keyed({S(0), S(1), S(2), S(3)}, {S(0), S(0.5), S(0.5), S(1)});
  CHECK(std::abs(stop.time_at(S(0.5)) - S(1)) <= arrival * S(3));
  CHECK(stop.time_at(S(0.5)) <= S(1));
  // An s-curve arrives with no acceleration either: ∛eps.
  const auto s_curve = *TimeProfile<S>::s_curve(S(10), S(2), S(1), S(1));
  CHECK(std::abs(s_curve.time_at(S(1)) - s_curve.duration()) <=
        S(4) * std::cbrt(eps) * s_curve.duration());
  // Against plain bisection on E written here: keyed profiles whose Newton steps bounce across
  // an inflection (these came back up to 0.1 of the duration late before steps that do not
  // halve fell back to bisection), and random integer keys.
  auto bisect = [](const TimeProfile<S>& p, S value) {
    S lo = S(0), hi = p.duration();
    for (int i = 0; i < 200; ++i) {
      const S mid = lo + (hi - lo) / S(2);
      (p.at(mid).value >= value ? hi : lo) = mid;
    }
    return hi;
  };
  const auto bounce =
      *TimeProfile<S>::keyed({S(0), S(3), S(4), S(6), S(9)}, {S(0), S(0.1), S(0.4), S(0.7), S(1)});
  CHECK(std::abs(bounce.time_at(S(0.32)) - bisect(bounce, S(0.32))) <= S(64) * eps * S(9));
  std::mt19937_64 keys_rng(11);
  std::uniform_int_distribution<int> step(1, 5);
  std::uniform_real_distribution<double> fraction(0.0, 1.0);
  for (int k = 0; k < property_count(300); ++k) {
    std::vector<S> times{S(0)}, values{S(0)};
    for (int i = 0; i < 2 + k % 5; ++i) {
      times.push_back(times.back() + S(step(keys_rng)));
      values.push_back(values.back() + S(step(keys_rng)));
    }
    const S total = values.back();
    for (S& v : values)
      v /= total;
    values.back() = S(1);
    const auto profile = *TimeProfile<S>::keyed(times, values);
    for (int q = 0; q < 20; ++q) {
      const S e = S(fraction(keys_rng));
      CHECK(std::abs(profile.time_at(e) - bisect(profile, e)) <= S(64) * eps * profile.duration());
    }
  }
  // Every kind, many values: E(time_at(e)) = e to the profile's own resolution, and just before
  // that time E is still below e (the first time).
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const TimeProfile<S> profiles[] = {
      constant,
      trapezoid,
      stop,
      *TimeProfile<S>::sine(S(2.5)),
      *TimeProfile<S>::sine_pieces(S(3), ease_fractions(S(0.2), S(0.7))),
      *TimeProfile<S>::parabolic(S(3), ease_fractions(S(0.3), S(0.6))),
      *TimeProfile<S>::s_curve(S(10), S(2), S(1), S(1)),
      *TimeProfile<S>::s_curve(S(1e-3), S(2), S(1), S(50))};
  for (const auto& profile : profiles) {
    const S T = profile.duration();
    S previous = S(0);
    std::vector<S> values;
    for (int i = 0; i < property_count(2000); ++i)
      values.push_back(S(unit(rng)));
    std::sort(values.begin(), values.end());
    for (const S e : values) {
      const S t = profile.time_at(e);
      REQUIRE(t >= previous - S(8) * eps * T);  // monotone in the value, to the resolution
      previous = t;
      // E at t reaches e, up to E's own rounding there (a few eps, plus the rate times t's).
      const ProfileSample<S> at = profile.at(t);
      CHECK(at.value >= e - S(16) * eps - S(8) * eps * T * at.rate);
      const S before = std::max(S(0), t - S(16) * eps * T);
      CHECK(profile.at(before).value <= e + S(16) * eps);
    }
  }
}

TEST_CASE("float profiles at extreme ratios stay monotone and keep their duration",
          "[motion][profile]") {
  // An s-curve whose cruise end, duration − t against duration − ramp, rounds to the wrong side:
  // the deceleration's cubic was evaluated past its ramp (E jumped 0.015 for one sample).
  const auto s_curve =
      *TimeProfile<float>::s_curve(1.05055498e10f, 29.7866364f, 1.90764445e-6f, 336135.312f);
  const float t = 352693376.0f;
  const float before = s_curve.at(std::nextafter(t, 0.0f)).value;
  const float here = s_curve.at(t).value;
  const float after = s_curve.at(std::nextafter(t, 1e30f)).value;
  CHECK(before <= here);
  CHECK(here <= after);
  CHECK(s_curve.at(t).rate >= 0.0f);
  // A trapezoid whose distance × acceleration is subnormal in float: the triangle's duration is
  // 2·√(D/a) all the same.
  const auto tiny = *TimeProfile<float>::trapezoidal(1.67e-27f, 1.0f, 4.49e-18f);
  const double expected = 2.0 * std::sqrt(1.67e-27 / 4.49e-18);
  CHECK(std::abs(double(tiny.duration()) - expected) <= 1e-6 * expected);
}

namespace {

// The rest-to-rest jerk-limited duration by bisection on the peak speed in long double: the
// shortest move whose two ramps (0 → v → 0 under A and J) fit in D, plus the cruise at v.
long double s_curve_duration(long double D, long double V, long double A, long double J) {
  const auto ramp = [&](long double v) {
    return v * J >= A * A ? v / A + A / J : 2 * std::sqrt(v / J);
  };
  long double v = V;
  if (v * ramp(v) > D) {
    long double lo = 0, hi = V;
    for (int i = 0; i < 300; ++i) {
      const long double mid = (lo + hi) / 2;
      (mid * ramp(mid) > D ? hi : lo) = mid;
    }
    v = lo;
  }
  return 2 * ramp(v) + (D - v * ramp(v)) / v;
}

}  // namespace

TEST_CASE("s-curves take the time-optimal duration in every regime", "[motion][profile]") {
  auto rng = make_rng(4411);
  // Regimes by the distance: cruising at V, meeting at a peak that reaches A, meeting below A.
  int seen[3] = {0, 0, 0};
  for (int n = 0; n < property_count(3000); ++n) {
    const double V = std::exp(uniform(rng, -3.0, 3.0)), A = std::exp(uniform(rng, -3.0, 3.0)),
                 J = std::exp(uniform(rng, -3.0, 3.0)), D = std::exp(uniform(rng, -8.0, 8.0));
    const auto profile = TimeProfile<double>::s_curve(D, V, A, J);
    REQUIRE(profile);
    const long double reference = s_curve_duration(D, V, A, J);
    INFO("D " << D << ", V " << V << ", A " << A << ", J " << J);
    CHECK(std::abs(profile->duration() - static_cast<double>(reference)) <=
          4e-15 * static_cast<double>(reference));
    CHECK(profile->at(profile->duration()).value == 1.0);
    // Never backwards, also across the middle, where the two mirrored halves meet.
    double previous = 0, t = profile->duration() / 2;
    for (int i = 0; i < 64; ++i)
      t = std::nextafter(t, 0.0);
    for (int i = 0; i < 128; ++i, t = std::nextafter(t, 1e300)) {
      const double value = profile->at(t).value;
      CHECK(value >= previous);
      previous = value;
    }
    const double knee = A * A / J;  // the lowest speed whose ramp reaches A
    const double ramp_at_knee = knee * J >= A * A ? knee / A + A / J : 2 * std::sqrt(knee / J);
    const double ramp_at_v = V * J >= A * A ? V / A + A / J : 2 * std::sqrt(V / J);
    seen[V * ramp_at_v <= D ? 0 : knee * ramp_at_knee <= D ? 1 : 2] += 1;
  }
  for (int regime = 0; regime < 3; ++regime)
    CHECK(seen[regime] > property_count(3000) / 20);
}

TEST_CASE("trapezoids at extreme ratios brake at the limit and end on the distance",
          "[motion][profile]") {
  // D·a/v² from 1e8 to 1e16: the ramps are 1e-8 to 1e-16 of the duration. Braking used to be
  // computed over 1 − (1 − t1) and exceeded the limit by 6e-9 (1e8) up to 8e-4 (1e14); at 1e16
  // the ramps vanished. The end value overshot D by an ulp in a third of cases.
  auto rng = make_rng(4423);
  for (const double ratio : {1e8, 1e10, 1e12, 1e14, 1e16}) {
    for (int n = 0; n < property_count(200); ++n) {
      const double v = std::exp(uniform(rng, -2.0, 2.0)), a = std::exp(uniform(rng, -2.0, 2.0));
      const double D = ratio * v * v / a * uniform(rng, 1.0, 2.0);
      const auto profile = TimeProfile<double>::trapezoidal(D, v, a);
      REQUIRE(profile);
      const auto& p = *profile;
      const double T = p.duration(), ramp = v / a;
      INFO("ratio " << ratio << ", v " << v << ", a " << a << ", D " << D);
      // Duration: the two ramps' ramp each, the cruise (D − v·ramp)/v, in long double.
      const long double exact = 2.0L * ramp + (static_cast<long double>(D) - 1.0L * v * ramp) / v;
      CHECK(std::abs(T - static_cast<double>(exact)) <= 4e-16 * T);
      // Braking is sampled where times near T resolve it: at 1e16 a step of T is a whole ramp.
      const bool resolved = ramp / 1e3 > 64 * T * std::numeric_limits<double>::epsilon();
      for (const double t : {ramp / 3, T - ramp / 3, T - ramp / 1e3}) {
        if (t > ramp && !resolved) continue;
        const auto s = p.at(t);
        CHECK(std::abs(s.acceleration * D) <= a * (1 + 1e-12));
        CHECK(std::abs(s.acceleration * D) >= a * (1 - 1e-12));
      }
      CHECK(p.at(T).value == 1.0);
      CHECK(p.at(T).value * D == D);
      for (int k = 0; k < 20; ++k)
        CHECK(p.at(T - ramp * k / 20).value <= 1.0);
    }
  }
  // Beyond what normalized time holds (t1 = ramp/T subnormal, D·a/v² = 1e312) the ramps are
  // dropped, not the profile: it still runs from 0 to 1 at the cruise speed.
  const auto extreme = TimeProfile<double>::trapezoidal(1e300, 1e-6, 1);
  REQUIRE(extreme);
  CHECK(std::abs(extreme->duration() - 1e306) <= 1e306 * 1e-15);
  CHECK(extreme->at(extreme->duration() / 2).value == 0.5);
  CHECK(extreme->at(extreme->duration()).value == 1.0);
  CHECK(TimeProfile<float>::trapezoidal(1e10f, 1e-15f, 1.0f));
}
