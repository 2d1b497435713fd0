/// @file
/// The engine behind ArcLengthTable's inverse (curve/arc_length.hpp): finding the interval that
/// holds a distance, evaluating its piece of t(s), and fitting that piece. Not API.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "tractrix/core/numeric.hpp"
#include "tractrix/curve/hodograph.hpp"

namespace tractrix::detail {

// The relative tolerance exact tables hold their inverse to, a quarter of the promised 1e-12 in
// double (the checks sample the error below its peak); float's is what float resolves, 16 eps.
template <class S>
inline S inverse_tolerance() noexcept {
  return std::max(S(0.25e-12), S(16) * epsilon<S>());
}

// Interval i's inverse at s.
template <class S>
inline S inverse_within(const S* distances, const std::array<S, 6>* inverse, std::size_t i,
                        S s) noexcept {
  const S h = distances[i + 1] - distances[i];
  const S t0 = inverse[i][0];
  if (!(h > S(0))) return t0;
  const S x = (s - distances[i]) / h;
  const auto& a = inverse[i];
  const S t = t0 + x * (a[1] + x * (a[2] + x * (a[3] + x * (a[4] + x * a[5]))));
  // Rounding in the coefficient sum must not step outside the interval (or past the path end).
  const S t1 = inverse[i + 1][0];
  return t < t0 ? t0 : (t > t1 ? t1 : t);
}

// The entry whose interval holds s (in range), searched outwards from `from` with doubling
// steps, then by bisection: O(log gap) for a query gap entries away, so sorted sweeps stay
// cheap however dense the table is, and a jump across the table costs no more than a search.
template <class S>
inline std::size_t gallop(const S* distances, std::size_t last, S s, std::size_t from) noexcept {
  std::size_t lo, hi;  // distances[lo] <= s < distances[hi] once bracketed
  if (s < distances[from]) {
    std::size_t step = 1;
    hi = from;
    lo = from;
    while (lo > 0 && s < distances[lo]) {
      hi = lo;
      lo = lo > step ? lo - step : 0;
      step *= 2;
    }
  } else {
    std::size_t step = 1;
    lo = from;
    hi = from + 1;
    while (hi < last + 1 && !(s < distances[hi])) {
      lo = hi;
      hi = hi + step > last + 1 ? last + 1 : hi + step;
      step *= 2;
    }
  }
  const auto upper = std::upper_bound(distances + static_cast<std::ptrdiff_t>(lo),
                                      distances + static_cast<std::ptrdiff_t>(hi) + 1, s);
  const std::size_t above = static_cast<std::size_t>(upper - distances);
  return above == 0 ? 0 : std::min(above - 1, last);
}

// The Hermite inverse for s already in [0, length()], on the entries' distances and inverse
// records; `last` is the last interval.
template <class S>
inline S hermite_in_range(const S* distances, const std::array<S, 6>* inverse, std::size_t last,
                          S s, std::size_t& cursor) noexcept {
  std::size_t i = cursor > last ? last : cursor;
  // The interval is canonical (the last entry at or below s, as gallop finds it), so the
  // result never depends on where the cursor came from.
  if (s < distances[i] || (!(s < distances[i + 1]) && i < last)) i = gallop(distances, last, s, i);
  cursor = i;
  return inverse_within(distances, inverse, i, s);
}

// Power coefficients of an interval's inverse t(x) − t0, x = (s − s0)/h in [0, 1], on the
// segment whose hodograph is given, between its parameters u0 and u1 that lie h apart in
// distance: the quintic Hermite of t and its first two derivatives at both ends, or, where
// dt/ds leaves 3× the secant (a slow spot), the cubic with limited slopes.
template <class S>
inline std::array<S, 5> inverse_piece(const Hodograph<S>& hodograph, S u0, S u1, S h) noexcept {
  const auto& q = hodograph.coefficients;
  const S dt = u1 - u0;
  if (!(h > S(0))) return {S(0), S(0), S(0), S(0), S(0)};
  // Derivatives with respect to x: t_x = h/v, t_xx = −h² (r'·r'')/v⁴.
  S m[2], c[2];
  bool regular = true;
  const S u_end[2] = {u0, u1};
  for (int e = 0; e < 2; ++e) {
    const S u = u_end[e];
    S d1[3], d2[3];
    for (std::size_t k = 0; k < 3; ++k) {
      d1[k] = (q[k] * u + q[3 + k]) * u + q[6 + k];
      d2[k] = S(2) * q[k] * u + q[3 + k];
    }
    // |r'| and the unit tangent with the magnitude factored out first, so nothing is squared
    // twice: the plain −h²(r'·r'')/|r'|⁴ overflows for coordinates near 1e77.
    using std::abs;
    const S largest = std::max({abs(d1[0]), abs(d1[1]), abs(d1[2])});
    S v = S(0), along = S(0);
    if (largest > S(0)) {
      const S x = d1[0] / largest, y = d1[1] / largest, z = d1[2] / largest;
      const S unit_norm = std::sqrt(x * x + y * y + z * z);
      v = largest * unit_norm;
      along = (x * d2[0] + y * d2[1] + z * d2[2]) / unit_norm;  // T · r''
    }
    // Regular when dt/ds stays within 3× the secant: the Fritsch–Carlson bound. Not where r''
    // overflows (control points near the scalar's range: |r'| finite, 2·q·u not), which made
    // t'' and every coefficient NaN.
    if (!(S(3) * dt * v > h) || !std::isfinite(v) || !std::isfinite(along)) {
      regular = false;
      m[e] = S(3) * dt;
      c[e] = S(0);
      continue;
    }
    m[e] = h / v;
    c[e] = -m[e] * m[e] * (along / v);  // h² t'' with t'' = −(T·r'')/|r'|³
  }
  if (!regular) {
    // Cubic Hermite with limited slopes: a1 = m0, a2 = 3Δ − 2m0 − m1, a3 = m0 + m1 − 2Δ.
    return {m[0], S(3) * dt - S(2) * m[0] - m[1], m[0] + m[1] - S(2) * dt, S(0), S(0)};
  }
  // Quintic Hermite in power form.
  return {m[0], c[0] / S(2), S(10) * dt - S(6) * m[0] - S(4) * m[1] - S(1.5) * c[0] + S(0.5) * c[1],
          S(-15) * dt + S(8) * m[0] + S(7) * m[1] + S(1.5) * c[0] - c[1],
          S(6) * dt - S(3) * m[0] - S(3) * m[1] - S(0.5) * c[0] + S(0.5) * c[1]};
}

}  // namespace tractrix::detail
