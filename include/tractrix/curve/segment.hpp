/// @file
/// Curve segments as plain aggregates: cubic Hermite and Bézier of any degree, and conversions.
#pragma once

#include <array>

#include "tractrix/core/vector.hpp"

namespace tractrix {

/// Cubic Hermite segment: end points and end derivatives (per unit u).
template <class S, int D = 3>
struct Hermite {
  Vector<S, D> p0;  ///< r(0)
  Vector<S, D> m0;  ///< r'(0)
  Vector<S, D> p1;  ///< r(1)
  Vector<S, D> m1;  ///< r'(1)
};

/// Bézier segment of the given degree (>= 1): Degree + 1 control points, parameter u in [0, 1].
template <class S, int D = 3, int Degree = 3>
struct Bezier {
  static_assert(Degree >= 1, "a Bezier segment needs degree >= 1");
  static constexpr int degree = Degree;  ///< the polynomial degree
  /// The control points P0 … P_Degree: the curve starts at the first and ends at the last.
  std::array<Vector<S, D>, static_cast<std::size_t>(Degree) + 1> points;
};

/// The cubic Bézier segment: what a Path is made of.
template <class S, int D = 3>
using CubicBezier = Bezier<S, D, 3>;

/// Hermite → Bézier: P0 = p0, P1 = p0 + m0/3, P2 = p1 − m1/3, P3 = p1 (r'(0) = 3 (P1 − P0)).
template <class S, int D>
Bezier<S, D, 3> to_bezier(const Hermite<S, D>& h) {
  const S third = S(1) / S(3);
  return Bezier<S, D, 3>{{h.p0, h.p0 + third * h.m0, h.p1 - third * h.m1, h.p1}};
}

/// Bézier → Hermite: the inverse of to_bezier.
template <class S, int D>
Hermite<S, D> to_hermite(const Bezier<S, D, 3>& b) {
  const auto& p = b.points;
  return Hermite<S, D>{p[0], S(3) * (p[1] - p[0]), p[3], S(3) * (p[3] - p[2])};
}

namespace detail {
// True when every control point is finite.
template <class S, int D, int Degree>
bool all_finite(const Bezier<S, D, Degree>& b) noexcept {
  for (const auto& p : b.points)
    if (!p.allFinite()) return false;
  return true;
}

}  // namespace detail

}  // namespace tractrix
