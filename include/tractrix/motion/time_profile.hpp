/// @file
/// `TimeProfile`: distance–time curves (the camera-animation lecture's "Weg-Zeit-Diagramm"): time
/// t in [0, T] → normalized distance E in [0, 1], with E(0) = 0, E(T) = 1, monotone, and its first
/// and second derivatives. Ease curves after Parent, "Computer Animation: Algorithms and
/// Techniques" (3rd ed.), §3.2.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tractrix/core/cubic_hermite.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"

namespace tractrix {

/// A time profile at one time: E and its first two time derivatives.
template <class S>
struct ProfileSample {
  S value = S(0);         ///< E(t), normalized distance in [0, 1]
  S rate = S(0);          ///< dE/dt (per second)
  S acceleration = S(0);  ///< d²E/dt² (per second²)
};

/// Where an ease-in ends and an ease-out starts, as fractions of the profile's duration (not
/// seconds): 0 <= ease_in_end <= ease_out_start <= 1. The constructor is explicit, so a call names
/// the unit: parabolic(6.0, ease_fractions(0.3, 0.6)).
template <class S>
struct EaseFractions {
  /// The two fractions, unchecked (the profile that takes them checks them).
  explicit EaseFractions(S ease_in_end_fraction, S ease_out_start_fraction) noexcept
      : ease_in_end(ease_in_end_fraction), ease_out_start(ease_out_start_fraction) {}
  S ease_in_end;     ///< the fraction of the duration at which the ease-in ends
  S ease_out_start;  ///< the fraction of the duration at which the ease-out starts
};

/// EaseFractions with the scalar type deduced: ease_fractions(0.3, 0.6).
template <class S>
EaseFractions<S> ease_fractions(S ease_in_end, S ease_out_start) noexcept {
  return EaseFractions<S>(ease_in_end, ease_out_start);
}

/// A distance–time curve: the normalized distance E(t) a move has covered at time t (seconds, or
/// the caller's time unit throughout), rising monotonically from E(0) = 0 to E(T) = 1 over the
/// duration T, with its rate and acceleration. Every output of at() is finite: the factories
/// reject durations and limits whose acceleration would overflow. A move of distance 0 has
/// duration 0 and is done at every time.
///
/// Errors of every factory: out_of_range for a duration that is not finite and positive, or so
/// short that the acceleration (~1/T²) overflows.
template <class S>
class TimeProfile {
 public:
  /// Constant speed: E = t/T.
  static Expected<TimeProfile> constant(S duration) { return make(Constant{}, duration); }
  /// Sine ease-in/ease-out: E = (1 − cos(π t/T)) / 2 (Parent Eq. 3.8).
  static Expected<TimeProfile> sine(S duration) {
    return make(Sine{}, duration, detail::pi<S>() * detail::pi<S>() / S(2));
  }
  /// Sine ease-in until k1·T, constant speed, sine ease-out from k2·T (Parent Eq. 3.9–3.11), with
  /// k1, k2 the fractions. Phases shorter than eps of the duration are dropped. Errors also:
  /// out_of_range for fractions outside 0 <= k1 <= k2 <= 1.
  static Expected<TimeProfile> sine_pieces(S duration, const EaseFractions<S>& fractions) {
    if (auto error = phase_error("sine_pieces", fractions)) return std::move(*error);
    S k1 = fractions.ease_in_end, k2 = fractions.ease_out_start;
    snap_phases(k1, k2);
    const S speed =
        S(1) / (S(2) * k1 / detail::pi<S>() + k2 - k1 + S(2) * (S(1) - k2) / detail::pi<S>());
    const S w = detail::pi<S>() / S(2);  // |E''|·T² peaks at speed·w/k1 and speed·w/(1 − k2)
    return make(SinePieces{k1, k2, speed}, duration,
                std::max({S(1), k1 > S(0) ? speed * w / k1 : S(0),
                          k2 < S(1) ? speed * w / (S(1) - k2) : S(0)}));
  }
  /// Constant acceleration until t1·T, constant speed, constant deceleration from t2·T (Parent
  /// Eq. 3.13–3.15), with t1, t2 the fractions. Phases shorter than eps of the duration are
  /// dropped. Errors also: out_of_range for fractions outside 0 <= t1 <= t2 <= 1.
  static Expected<TimeProfile> parabolic(S duration, const EaseFractions<S>& fractions) {
    if (auto error = phase_error("parabolic", fractions)) return std::move(*error);
    S t1 = fractions.ease_in_end, t2 = fractions.ease_out_start;
    snap_phases(t1, t2);
    const Parabolic ramps = Parabolic::of(t1, t2);
    return make(ramps, duration, ramps.peak_acceleration());
  }
  /// Trapezoidal velocity over a distance with a speed limit and an acceleration limit (equal
  /// deceleration), in the distance's units per second and per second²: the duration follows; a
  /// triangle when the speed limit is never reached. A distance of 0 is a move already done:
  /// duration 0, E = 1 at every time. Errors also: out_of_range for a limit that is not positive
  /// and finite, or a distance that is negative or not finite.
  static Expected<TimeProfile> trapezoidal(S distance, S max_speed, S max_acceleration) {
    if (!(distance >= S(0)) || !(max_speed > S(0)) || !(max_acceleration > S(0)) ||
        !std::isfinite(distance) || !std::isfinite(max_speed) || !std::isfinite(max_acceleration))
      return make_error(ErrorCode::out_of_range,
                        "trapezoidal: max_speed and max_acceleration must be positive and "
                        "finite, the distance finite and not negative");
    if (!(distance > S(0))) return done();
    using std::sqrt;
    S v = max_speed;
    S ramp = v / max_acceleration;
    S duration = S(2) * ramp + (distance - v * ramp) / v;
    if (v * ramp >= distance) {  // triangle: the ramps meet before reaching the speed limit
      v = sqrt(distance) * sqrt(max_acceleration);  // the product under- or overflows in float
      ramp = v / max_acceleration;
      duration = S(2) * ramp;
    }
    // In normalized time the trapezoid is the parabolic ease with t1 = ramp/T and a deceleration
    // of the same length t1: not 1 − t2 = 1 − (1 − t1), which loses t1's digits when t1 is small
    // (and brakes harder than the limit). No phase is snapped away: at 1e16 t1 is 1e-16, and the
    // ramp is still there.
    S t1 = ramp / duration;
    if (!std::isfinite(t1) || !(t1 <= S(0.5))) t1 = S(0.5);  // a bad duration: make() reports it
    // Below what normalized time can hold (its acceleration 1/t1 overflows, D·a/v² ~ 1e308 in
    // double, 1e38 in float) the ramps are dropped: a step to the cruise speed.
    if (!std::isfinite(S(1) / t1)) t1 = S(0);
    const Parabolic ramps = Parabolic::of(t1, S(1) - t1, t1);
    return make(ramps, duration, ramps.peak_acceleration());
  }
  /// Jerk-limited S-curve over a distance with limits on speed, acceleration and jerk (the
  /// distance's units per second, second², second³): seven phases (jerk +J, constant acceleration,
  /// jerk −J, cruise, and the mirror image), symmetric. Where the distance is too short for the
  /// speed limit, the peak speed is lowered (in closed form) until the two ramps meet; where the
  /// speed limit is too low for the acceleration limit, the constant-acceleration phase vanishes.
  /// The duration follows from the limits. A distance of 0 is a move already done, as for
  /// trapezoidal. Errors also: out_of_range for a limit that is not positive and finite, a
  /// distance that is negative or not finite, limits too small for the distance, or speed and
  /// acceleration limits that overflow when divided by the distance.
  static Expected<TimeProfile> s_curve(S distance, S max_speed, S max_acceleration, S max_jerk) {
    for (S v : {max_speed, max_acceleration, max_jerk})
      if (!std::isfinite(v) || !(v > S(0)))
        return make_error(ErrorCode::out_of_range,
                          "s_curve: max_speed, max_acceleration and max_jerk must be positive and "
                          "finite, the distance finite and not negative");
    if (!std::isfinite(distance) || !(distance >= S(0)))
      return make_error(ErrorCode::out_of_range,
                        "s_curve: max_speed, max_acceleration and max_jerk must be positive and "
                        "finite, the distance finite and not negative");
    if (!(distance > S(0))) return done();
    using std::sqrt;
    const S knee = max_acceleration * (max_acceleration / max_jerk);  // lowest v reaching A
    // Time to speed up from 0 to v; the distance covered is v/2 times it (symmetry).
    auto ramp_time = [&](S v) {
      return v >= knee ? v / max_acceleration + max_acceleration / max_jerk
                       : S(2) * sqrt(v / max_jerk);
    };
    // Where the ramps would overrun the distance, the peak speed at which they just meet,
    // v · ramp_time(v) = D, in closed form. Reaching the acceleration limit (v >= A²/J):
    // D = v²/A + vA/J, the positive root of v² + (A²/J) v − AD = 0, written without
    // cancellation as 2AD / (A²/J + √((A²/J)² + 4AD)). Below it, D = 2 v^{3/2} / √J:
    // v = (D/2)^{2/3} J^{1/3}.
    S peak = max_speed;
    if (peak * ramp_time(peak) > distance) {
      using std::cbrt;
      using std::hypot;
      if (knee * ramp_time(knee) <= distance) {
        const S root = hypot(knee, S(2) * sqrt(max_acceleration) * sqrt(distance));
        peak = S(2) * max_acceleration * (distance / (knee + root));
      } else {
        const S c = cbrt(S(0.5) * distance);
        peak = c * c * cbrt(max_jerk);
      }
      peak = std::min(peak, max_speed);
      // Rounded up, the ramps would overrun D by an ulp: no room to cruise, and the mirrored
      // half would start below where the first ended (E stepping back at T/2). Down to the last
      // peak whose ramps fit: an ulp or two.
      using std::nextafter;
      for (int i = 0; i < 16 && peak * ramp_time(peak) > distance; ++i)
        peak = nextafter(peak, S(0));
    }
    if (!(peak > S(0)))
      return make_error(ErrorCode::out_of_range, "s_curve: limits too small for the distance");
    const S ramp = ramp_time(peak);
    const S jerk_time = peak >= knee ? max_acceleration / max_jerk : sqrt(peak / max_jerk);
    const S cruise = (distance - peak * ramp) / peak;
    // E' and E'' are speed and acceleration over the distance: representable, or rejected.
    if (!std::isfinite(peak / distance) || !std::isfinite(max_acceleration / distance))
      return make_error(ErrorCode::out_of_range,
                        "s_curve: max_speed and max_acceleration over the distance overflow");
    return make(SCurve{distance, peak, max_jerk, jerk_time, ramp},
                S(2) * ramp + (cruise > S(0) ? cruise : S(0)));
  }

  /// Keys (t_i, E_i) from (0, 0) to (T, 1), times strictly increasing, values non-decreasing,
  /// joined by a monotone C¹ cubic (Fritsch & Carlson 1980): it passes through every key, never
  /// overshoots, never goes backwards. A query is O(log K). Errors also: too_few_points for fewer
  /// than 2 keys, mismatched_sizes for arrays of different lengths, non_finite for a NaN or
  /// infinite key, out_of_range for times not increasing, keys so close the acceleration
  /// overflows, values decreasing, or keys not running from (0, 0) to (T, 1).
  static Expected<TimeProfile> keyed(std::vector<S> times, std::vector<S> values) {
    if (times.size() < 2)
      return make_error(
          ErrorCode::too_few_points,
          "profile keys: " + detail::number_text(times.size()) + " given, at least 2 needed");
    if (times.size() != values.size())
      return make_error(ErrorCode::mismatched_sizes,
                        "profile values: " + detail::number_text(values.size()) + " for " +
                            detail::number_text(times.size()) + " times");
    for (std::size_t i = 0; i < times.size(); ++i) {
      if (!std::isfinite(times[i]) || !std::isfinite(values[i]))
        return make_error(ErrorCode::non_finite,
                          "profile key " + detail::number_text(i) + ": non-finite");
      if (i > 0 && !(times[i] > times[i - 1]))
        return make_error(ErrorCode::out_of_range, "profile key " + detail::number_text(i) +
                                                       ": time " + detail::number_text(times[i]) +
                                                       " not after " +
                                                       detail::number_text(times[i - 1]));
      // The cubic's second derivative on an interval is (6 dy − (4 m0 + 2 m1) dt) / dt², and the
      // monotone slopes are at most 3 dy/dt with dy <= 1: |E''| <= 24/dt². A bound of 1/dt² would
      // let keys through whose E'' overflows (a motion sample's acceleration then inf · 0 = NaN).
      if (i > 0 && !std::isfinite(S(24) / ((times[i] - times[i - 1]) * (times[i] - times[i - 1]))))
        return make_error(ErrorCode::out_of_range,
                          "profile key " + detail::number_text(i) +
                              ": too close to the previous key (the acceleration, up to 24/dt^2, "
                              "overflows)");
      if (i > 0 && values[i] < values[i - 1])
        return make_error(ErrorCode::out_of_range, "profile key " + detail::number_text(i) +
                                                       ": value " + detail::number_text(values[i]) +
                                                       " decreases");
    }
    if (!detail::exactly_equal(times.front(), S(0)) ||
        !detail::exactly_equal(values.front(), S(0)) || !detail::exactly_equal(values.back(), S(1)))
      return make_error(ErrorCode::out_of_range, "profile keys: must run from (0, 0) to (T, 1)");
    const S duration = times.back();
    const std::vector<S> slopes = monotone_slopes(times, values);
    using W = typename Keyed::Wide;
    return make(Keyed{std::vector<W>(times.begin(), times.end()),
                      std::vector<W>(values.begin(), values.end()),
                      std::vector<W>(slopes.begin(), slopes.end())},
                duration);
  }

  /// The duration T (seconds); 0 for a move of distance 0.
  S duration() const noexcept { return duration_; }

  /// The first time E reaches `value`: when a move of distance D passes value·D ("when does the
  /// train reach the station"). Values at or below 0 (and NaN) give 0; at or above what E reaches
  /// at the end, the first time it gets there. Newton on E(t) − value inside a bracket, taken
  /// only while it at least halves the step before it (else bisection, as rtsafe), then
  /// bisection of the last few eps of the duration and wherever E is flat, so the first time is
  /// found, not any. Where E arrives at rest the time is as exact as E's rounding allows there:
  /// about √eps of the duration at a stop or a trapezoid's end, ∛eps at an s-curve's end (no
  /// acceleration there either); at a keyed profile's key where its slope is 0, to the stretch
  /// before the key over which the cubic lies within E's rounding of it.
  S time_at(S value) const noexcept {
    if (!(value > S(0)) || !(duration_ > S(0))) return S(0);
    const S end = at(duration_).value;
    if (value > end) value = end;
    S lo = S(0), hi = duration_;  // E(lo) < value <= E(hi)
    const S resolution = S(4) * detail::epsilon<S>() * duration_;
    S t = value * duration_;  // exact for a constant profile
    S last_step = duration_, step_before = duration_;
    bool newton = true;
    using std::abs;
    for (int iteration = 0; iteration < 200 && hi - lo > resolution; ++iteration) {
      const ProfileSample<S> e = at(t);
      (e.value >= value ? hi : lo) = t;
      S next = lo + S(0.5) * (hi - lo);
      S step = S(0.5) * (hi - lo);
      if (newton && e.rate > S(0)) {
        const S newton_step = (e.value - value) / e.rate;
        if (abs(newton_step) <= resolution) {
          // Converged: the first time is within a few resolutions of t. Bracket it there.
          newton = false;
          const S near = e.value >= value ? std::max(lo, t - S(2) * resolution)
                                          : std::min(hi, t + S(2) * resolution);
          (at(near).value >= value ? hi : lo) = near;
          next = lo + S(0.5) * (hi - lo);
        } else if (t - newton_step > lo && t - newton_step < hi &&
                   S(2) * abs(newton_step) < step_before) {
          next = t - newton_step;
          step = abs(newton_step);
        }
      }
      step_before = last_step;
      last_step = step;
      t = next;
    }
    return hi;
  }

  /// E and its time derivatives at time t in [0, T] (NaN gives 0). Before 0 and after T the move
  /// holds its start or its end, at rest: E = 0 or 1, its derivatives 0 (not those at the nearer
  /// end: a move past its end stands still). A move of distance 0 (duration 0) is done at every
  /// time: E = 1, at rest.
  ProfileSample<S> at(S t) const noexcept {
    if (!(duration_ > S(0))) return {S(1), S(0), S(0)};
    if (t < S(0)) return {S(0), S(0), S(0)};  // every shape starts on E = 0 and ends on 1
    if (t > duration_) return {S(1), S(0), S(0)};
    t = detail::clamp_or_low(t, S(0), duration_);  // NaN: 0
    // By index, not std::visit: GCC does not inline the visitor's dispatch, a cost as large as a
    // keyed profile's query itself.
    if (const auto* keyed = std::get_if<Keyed>(&shape_)) return keyed->at(t, duration_);
    if (const auto* curve = std::get_if<SCurve>(&shape_)) return curve->at(t, duration_);
    if (const auto* pieces = std::get_if<SinePieces>(&shape_)) return pieces->at(t, duration_);
    if (const auto* ramps = std::get_if<Parabolic>(&shape_)) return ramps->at(t, duration_);
    if (const auto* sine = std::get_if<Sine>(&shape_)) return sine->at(t, duration_);
    return Constant{}.at(t, duration_);
  }

 private:
  // Kinds whose shape is one curve of x = t/T in [0, 1]: derivatives scale by 1/T and 1/T².
  static ProfileSample<S> in_time(const ProfileSample<S>& n, S duration) noexcept {
    const S k = S(1) / duration;
    return {n.value, n.rate * k, n.acceleration * k * k};
  }

  struct Constant {
    ProfileSample<S> at(S t, S duration) const noexcept {
      return in_time({t / duration, S(1), S(0)}, duration);
    }
  };

  struct Sine {
    ProfileSample<S> at(S t, S duration) const noexcept {
      using std::cos;
      using std::sin;
      const S p = detail::pi<S>(), x = t / duration;
      return in_time({(S(1) - cos(p * x)) / S(2), p / S(2) * sin(p * x), p * p / S(2) * cos(p * x)},
                     duration);
    }
  };

  struct SinePieces {
    S ease_in_end, ease_out_start, speed;  // fractions of the duration; cruise speed in 1/T
    ProfileSample<S> at(S t, S duration) const noexcept {
      using std::cos;
      using std::sin;
      const S p = detail::pi<S>(), x = t / duration;
      const S k1 = ease_in_end, k2 = ease_out_start, v = speed;
      // The pieces' terms sum to 1 at x = 1 only to a few rounding errors, on either side (up to
      // 2 eps above 1, also where the cruise runs to the end): E ends on 1 exactly and never
      // passes it.
      const auto ending = [x](S value) { return x < S(1) ? (value < S(1) ? value : S(1)) : S(1); };
      if (x < k1) {
        const S w = p / (S(2) * k1);
        return in_time({ending(v / w * (S(1) - cos(w * x))), v * sin(w * x), v * w * cos(w * x)},
                       duration);
      }
      const S head = S(2) * k1 / p * v;
      if (x <= k2) return in_time({ending(head + v * (x - k1)), v, S(0)}, duration);
      const S w = p / (S(2) * (S(1) - k2));
      const S y = x - k2;
      return in_time(
          {ending(head + v * (k2 - k1) + v / w * sin(w * y)), v * cos(w * y), -v * w * sin(w * y)},
          duration);
    }
  };

  struct Parabolic {
    // Fractions of the duration; cruise speed in 1/T; the deceleration's length 1 − t2, held
    // exactly where the caller knows it better than 1 − t2 rounds it (a trapezoid's is t1).
    S ease_in_end, ease_out_start, speed, ease_out_length;
    static Parabolic of(S t1, S t2) noexcept { return of(t1, t2, S(1) - t2); }
    static Parabolic of(S t1, S t2, S tail) noexcept {
      return {t1, t2, S(2) / ((S(1) - t1) + (S(1) - tail)), tail};
    }
    // The largest |E''|·T²: the ramps' constant acceleration (at least 1, for the check of 1/T²).
    S peak_acceleration() const noexcept {
      return std::max({S(1), ease_in_end > S(0) ? speed / ease_in_end : S(0),
                       ease_out_length > S(0) ? speed / ease_out_length : S(0)});
    }
    ProfileSample<S> at(S t, S duration) const noexcept {
      const S x = t / duration;
      const S t1 = ease_in_end, t2 = ease_out_start, v = speed;
      if (x < t1) return in_time({v * x * x / (S(2) * t1), v * x / t1, v / t1}, duration);
      if (x <= t2) {
        // With no ease-out (t2 = 1) the cruise runs to the end, where its terms sum to 1 only to
        // rounding (at times an ulp above): E ends on 1 exactly and never passes it.
        const S value = v * t1 / S(2) + v * (x - t1);
        return in_time({x < S(1) ? std::min(value, S(1)) : S(1), v, S(0)}, duration);
      }
      // The deceleration measured back from the end: E(1) is 1 exactly, and E never passes it.
      const S z = S(1) - x, tail = ease_out_length;
      return in_time({S(1) - v * z * z / (S(2) * tail), v * z / tail, -v / tail}, duration);
    }
  };

  struct SCurve {
    S distance, peak, jerk, jerk_time, ramp;  // world units and seconds

    // Distance, speed and acceleration after time x (<= ramp) of the speeding-up half.
    ProfileSample<S> ramp_at(S x) const noexcept {
      const S j = jerk, tj = jerk_time, v = peak;
      const S a = j * tj;              // the acceleration reached (limit or lowered)
      const S half = v * ramp / S(2);  // distance of the whole ramp
      if (x <= tj) return {j * x * x * x / S(6), j * x * x / S(2), j * x};
      if (x <= ramp - tj) {
        const S y = x - tj, v1 = j * tj * tj / S(2), s1 = j * tj * tj * tj / S(6);
        return {s1 + v1 * y + a * y * y / S(2), v1 + a * y, a};
      }
      // Mirror of the first jerk phase. x may exceed the ramp by rounding (the caller's
      // duration − t against its duration − ramp): then the ramp's end, not the cubic beyond it.
      const S y = ramp - x > S(0) ? ramp - x : S(0);
      return {half - v * y + j * y * y * y / S(6), v - j * y * y / S(2), j * y};
    }

    ProfileSample<S> at(S t, S duration) const noexcept {
      ProfileSample<S> r;
      if (t <= ramp) {
        r = ramp_at(t);
      } else if (t < duration - ramp) {
        r = {peak * ramp / S(2) + peak * (t - ramp), peak, S(0)};
      } else {
        const ProfileSample<S> m = ramp_at(duration - t);
        r = {distance - m.value, m.rate, -m.acceleration};
      }
      return {detail::clamp_or_low(r.value / distance, S(0), S(1)), r.rate / distance,
              r.acceleration / distance};
    }
  };

  struct Keyed {
    // The keys of a float profile are evaluated in double: the cubic's float rounding can step
    // E back by a few ulps inside an interval; rounded from double, E is as monotone as the
    // cubic.
    using Wide = std::conditional_t<(sizeof(S) < sizeof(double)), double, S>;
    std::vector<Wide> times, values, slopes;
    ProfileSample<S> at(S t, S) const noexcept {
      const auto c = detail::cubic_hermite(times, values, slopes, Wide(t));
      // Monotone pieces stay between their keys; rounding must not step outside them either.
      return {S(detail::clamp_or_low(c.value, values[c.interval], values[c.interval + 1])),
              S(c.first), S(c.second)};
    }
  };

  using Shape = std::variant<Constant, Sine, SinePieces, Parabolic, SCurve, Keyed>;

  TimeProfile(Shape shape, S duration) : shape_(std::move(shape)), duration_(duration) {}

  // The fractions must satisfy 0 <= ease_in_end <= ease_out_start <= 1; the error names the
  // profile, both values and the unit (seconds passed by mistake are the likely cause).
  [[nodiscard]] static std::optional<Error> phase_error(const char* profile,
                                                        const EaseFractions<S>& f) {
    const S start = f.ease_in_end, end = f.ease_out_start;
    if (std::isfinite(start) && std::isfinite(end) && start >= S(0) && end >= start && end <= S(1))
      return std::nullopt;
    return make_error(ErrorCode::out_of_range,
                      std::string(profile) +
                          ": need 0 <= ease_in_end <= ease_out_start <= 1, fractions of the "
                          "duration (not seconds), got ease_in_end " +
                          detail::number_text(start) + ", ease_out_start " +
                          detail::number_text(end));
  }

  // Ease phases shorter than epsilon of the duration are removed: their rates (π/2k1, v/t1) would
  // overflow, and they are invisible anyway.
  static void snap_phases(S& start, S& end) noexcept {
    if (start < detail::epsilon<S>()) start = S(0);
    if (S(1) - end < detail::epsilon<S>()) end = S(1);
    if (end < start) end = start;
  }

  // The move of distance 0 (at() answers it without the shape).
  static TimeProfile done() { return TimeProfile(Constant{}, S(0)); }

  // peak: the shape's largest |E''|·T² (1 where it has none larger); its E'' must be
  // representable, so every output of at() is finite.
  static Expected<TimeProfile> make(Shape shape, S duration, S peak = S(1)) {
    if (!std::isfinite(duration) || !(duration > S(0)))
      return make_error(ErrorCode::out_of_range,
                        "duration: " + detail::number_text(duration) + " is not positive");
    if (!std::isfinite(peak / (duration * duration)))
      return make_error(ErrorCode::out_of_range,
                        "duration: " + detail::number_text(duration) +
                            " is too short (the acceleration, ~1/T^2, overflows)");
    return TimeProfile(std::move(shape), duration);
  }

  // Fritsch–Carlson: secant-mean slopes, zero at flat secants and sign changes, then limited so
  // that α² + β² <= 9 on every interval, which makes each cubic piece monotone.
  static std::vector<S> monotone_slopes(const std::vector<S>& t, const std::vector<S>& y) {
    const std::size_t n = t.size();
    std::vector<S> secant(n - 1), m(n);
    for (std::size_t i = 0; i + 1 < n; ++i)
      secant[i] = (y[i + 1] - y[i]) / (t[i + 1] - t[i]);
    m[0] = secant[0];
    m[n - 1] = secant[n - 2];
    for (std::size_t i = 1; i + 1 < n; ++i)
      m[i] = (secant[i - 1] > S(0) && secant[i] > S(0)) ? (secant[i - 1] + secant[i]) / S(2) : S(0);
    for (std::size_t i = 0; i + 1 < n; ++i) {
      if (!(secant[i] > S(0))) {
        m[i] = m[i + 1] = S(0);
        continue;
      }
      const S alpha = m[i] / secant[i], beta = m[i + 1] / secant[i];
      const S r = alpha * alpha + beta * beta;
      if (!std::isfinite(r)) {  // a denormal secant: ratios not representable, treat as flat
        m[i] = m[i + 1] = S(0);
        continue;
      }
      if (r > S(9)) {
        const S tau = S(3) / std::sqrt(r);
        m[i] = tau * alpha * secant[i];
        m[i + 1] = tau * beta * secant[i];
      }
    }
    return m;
  }

  Shape shape_;
  S duration_;
};

}  // namespace tractrix
