/// @file
/// Internal: keyed cubic Hermite interpolation of a scalar, the one basis behind roll profiles
/// and keyed time profiles.
#pragma once

#include <cstddef>
#include <vector>

#include "tractrix/core/attributes.hpp"
#include "tractrix/core/numeric.hpp"

namespace tractrix::detail {

template <class S>
struct CubicHermiteSample {
  S value;
  S first;               // dy/dx
  S second;              // d²y/dx²
  std::size_t interval;  // keys[interval] <= x < keys[interval + 1], as interval_of finds it
};

// y(x) through the keys (keys[i], values[i]) with slopes dy/dx = slopes[i], one cubic per
// interval: y = h00·y0 + h10·h·m0 + h01·y1 + h11·h·m1 in u = (x − x0)/h, with h00 = 2u³ − 3u² + 1,
// h10 = u³ − 2u² + u, h01 = 3u² − 2u³, h11 = u³ − u². Keys ascending, at least 2; x outside them
// extrapolates the end cubic (callers clamp or wrap first). Inlined, so callers that read only
// the value do not pay for the derivatives.
template <class S>
TRACTRIX_FORCE_INLINE CubicHermiteSample<S> cubic_hermite(const std::vector<S>& keys,
                                                          const std::vector<S>& values,
                                                          const std::vector<S>& slopes,
                                                          S x) noexcept {
  const std::size_t lo = interval_of(keys, x), hi = lo + 1;
  const S h = keys[hi] - keys[lo];
  const S u = (x - keys[lo]) / h;
  const S u2 = u * u, u3 = u2 * u;
  const S y0 = values[lo], y1 = values[hi], m0 = slopes[lo] * h, m1 = slopes[hi] * h;
  const S value = (S(2) * u3 - S(3) * u2 + S(1)) * y0 + (u3 - S(2) * u2 + u) * m0 +
                  (S(3) * u2 - S(2) * u3) * y1 + (u3 - u2) * m1;
  const S d1 = (S(6) * u2 - S(6) * u) * y0 + (S(3) * u2 - S(4) * u + S(1)) * m0 +
               (S(6) * u - S(6) * u2) * y1 + (S(3) * u2 - S(2) * u) * m1;
  const S d2 = (S(12) * u - S(6)) * y0 + (S(6) * u - S(4)) * m0 + (S(6) - S(12) * u) * y1 +
               (S(6) * u - S(2)) * m1;
  return {value, d1 / h, d2 / (h * h), lo};
}

}  // namespace tractrix::detail
