/// @file
/// `LoopDistance`: a distance on a loop, kept in [0, length) with the whole laps it is past the
/// start. The one lap arithmetic of TrainSolver, HeadPosition and the numerics.
#pragma once

#include <cmath>

#include "tractrix/core/attributes.hpp"
#include "tractrix/core/numeric.hpp"

namespace tractrix {

/// A distance along a loop of some length, as a distance in [0, length) and the whole laps it is
/// past the start: lap · length + distance is the distance unwrapped. Kept apart, 1000 laps lose
/// no precision and nothing that samples the loop pays for fmod. Lap counts saturate at ±4e18
/// (a distance 1e300 lengths away has no representable count).
template <class S>
struct LoopDistance {
  S distance = S(0);  ///< along the loop, in [0, length) once placed on it
  long long lap = 0;  ///< whole laps past the start (negative before it)

  /// The largest lap count kept; counts beyond it saturate.
  static constexpr long long most_laps = 4000000000000000000LL;

  /// `unwrapped` on a loop of `length` > 0: wrapped exactly (fmod), its laps counted in long
  /// double (a float quotient holds whole counts only up to 2^24). NaN gives {0, 0}; ±infinity
  /// gives distance 0 with ±most_laps.
  static LoopDistance wrapped(S unwrapped, S length) noexcept {
    const S d = detail::wrap(unwrapped, length);
    return {d, laps_between(unwrapped, d, length)};
  }

  /// Whole lengths between `unwrapped` and `remainder` (its fmod or its wrap by `length`),
  /// counted in long double and saturated.
  static long long laps_between(S unwrapped, S remainder, S length) noexcept {
    using Wide = long double;
    return saturated(std::round((Wide(unwrapped) - Wide(remainder)) / Wide(length)));
  }

  /// This distance placed on a loop of `length` where it lies outside [0, length): by steps of
  /// the length while within a lap of the loop (no fmod, and the same arithmetic for every
  /// wagon whichever lap it is on), by the exact wrap beyond (stepping alone would never end for
  /// a distance many laps out, where s + length rounds to s). Laps are counted either way.
  LoopDistance on_loop(S length) const noexcept {
    if (distance >= S(0) && distance < length) return *this;
    S s = distance;
    if (!(s >= -length && s < S(2) * length)) return wrapped_on(length);
    long long laps = lap;
    if (s < S(0)) s += length, --laps;
    if (s >= length) s -= length, ++laps;  // also −tiny + length, which rounds to length
    return {s, laps};
  }

  /// `more` laps on, saturated.
  LoopDistance plus_laps(long long more) const noexcept { return {distance, plus(lap, more)}; }

 private:
  // Far off the loop (rare): the exact wrap, kept out of line so that callers inline the steps.
  TRACTRIX_NOINLINE LoopDistance wrapped_on(S length) const noexcept {
    const LoopDistance w = wrapped(distance, length);
    return {w.distance, plus(lap, w.lap)};
  }
  static long long saturated(long double laps) noexcept {
    if (std::isnan(laps)) return 0;
    return laps > most_laps    ? most_laps
           : laps < -most_laps ? -most_laps
                               : static_cast<long long>(laps);
  }
  static long long plus(long long laps, long long more) noexcept {
    if (more > 0 && laps > most_laps - more) return most_laps;
    if (more < 0 && laps < -most_laps - more) return -most_laps;
    return laps + more;
  }
};

}  // namespace tractrix
