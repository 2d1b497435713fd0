// Scalar helpers shared by every layer: tolerances from epsilon, wrapping, clamping.
#pragma once

#include <cmath>
#include <limits>

namespace tractrix {

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

namespace detail {
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
}  // namespace detail

// Wraps x into [0, period). fmod is exact, so many laps lose no precision beyond that of x itself.
// Non-finite x gives 0. The in-range test stays small enough to inline; fmod is out of line.
template <class S>
inline S wrap(S x, S period) noexcept {
  if (x >= S(0) && x < period) return x;
  return detail::wrap_slow(x, period);
}

}  // namespace tractrix
