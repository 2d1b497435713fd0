/// @file
/// Scalar helpers shared by every layer, internal to the library (tractrix::detail): tolerances
/// from epsilon, wrapping, clamping, compensated sums, root bracketing. Not API. (Lap counts:
/// core/loop_distance.hpp.)
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace tractrix::detail {

// Machine epsilon of the scalar type.
template <class S>
constexpr S epsilon() noexcept {
  return std::numeric_limits<S>::epsilon();
}

template <class S>
constexpr S pi() noexcept {
  return S(3.141592653589793238462643383279502884L);
}

// Clamps x to [lo, hi]; a NaN x gives lo, so a bad query lands at a defined end.
template <class S>
S clamp_or_low(S x, S lo, S hi) noexcept {
  if (!(x >= lo)) return lo;  // also catches NaN
  if (x > hi) return hi;
  return x;
}

template <class S>
S wrap_slow(S x, S period) noexcept {
  using std::fmod;
  if (!std::isfinite(x) || !(period > S(0))) return S(0);
  S r = fmod(x, period);
  if (r < S(0)) {
    r += period;
    if (r >= period) r = S(0);  // -tiny + period rounds up to period
  }
  return r;
}

// a == b for floating point, spelled so engines' -Wfloat-equal builds stay quiet where an exact
// comparison is meant (a Newton step that no longer moves, a coefficient that is exactly 0).
// False when either is NaN, as == is.
template <class S>
constexpr bool exactly_equal(S a, S b) noexcept {
  return a <= b && a >= b;
}

// What rounding took from sum = a + b (Knuth's TwoSum): a + b == sum + error exactly, whatever
// the magnitudes. Compensated sums carry it into the next addition. (Flags that reassociate
// floating point, -ffast-math among them, fold it to 0 and the sums lose their compensation.)
template <class S>
S rounding_of_sum(S a, S b, S sum) noexcept {
  const S b_part = sum - a;
  const S a_part = sum - b_part;
  return (a - a_part) + (b - b_part);
}

// Wraps x into [0, period). fmod is exact, so many laps lose no precision beyond that of x itself.
// Non-finite x gives 0. The in-range test stays small enough to inline; fmod is out of line.
template <class S>
inline S wrap(S x, S period) noexcept {
  if (x >= S(0) && x < period) return x;
  return wrap_slow(x, period);
}

// The interval [keys[i], keys[i + 1]] to interpolate x in: the last key at or below x, kept in
// [0, keys.size() − 2] so that x below the first key or at and past the last one extrapolates
// from the end interval (callers clamp or wrap x first where they must not). keys ascending, at
// least 2 of them; x not NaN.
template <class S>
std::size_t interval_of(const std::vector<S>& keys, S x) noexcept {
  const auto upper = std::upper_bound(keys.begin(), keys.end(), x);
  const std::size_t above = static_cast<std::size_t>(upper - keys.begin());
  const std::size_t last = keys.size() - 2;
  return above == 0 ? 0 : std::min(above - 1, last);
}

// A root of f in (a, b), where f(a) = fa and f(b) = fb have opposite signs: false position with
// the Illinois modification (the retained end's value halved when the same end is kept twice),
// superlinear without a derivative, and kept inside the bracket. Stops when the estimate moves by
// no more than 2 eps of the bracket's magnitude, or f vanishes.
template <class S, class F>
S bracketed_root(F f, S a, S b, S fa, S fb) noexcept {
  using std::abs;
  const S resolution = S(2) * epsilon<S>() * std::max(abs(a), abs(b));
  S previous = a;
  int kept = 0;  // −1: a kept last time, +1: b kept
  for (int iteration = 0; iteration < 200; ++iteration) {
    S c = a - fa * (b - a) / (fb - fa);
    if (!(c > a && c < b)) c = a + (b - a) / S(2);
    if (!(c > a && c < b)) return c;  // a and b adjacent
    const S fc = f(c);
    if (!(fc < S(0)) && !(fc > S(0))) return c;
    if ((fc < S(0)) == (fb < S(0))) {
      b = c;
      fb = fc;
      if (kept == -1) fa /= S(2);
      kept = -1;
    } else {
      a = c;
      fa = fc;
      if (kept == 1) fb /= S(2);
      kept = 1;
    }
    if (abs(c - previous) <= resolution || b - a <= resolution) return c;
    previous = c;
  }
  return a + (b - a) / S(2);
}

}  // namespace tractrix::detail
