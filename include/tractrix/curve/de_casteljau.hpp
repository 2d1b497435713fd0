/// @file
/// De Casteljau evaluation of Bézier segments: point and tangent in one pass, derivatives,
/// splitting.
#pragma once

#include <array>
#include <cstddef>
#include <utility>

#include "tractrix/core/attributes.hpp"
#include "tractrix/curve/segment.hpp"

namespace tractrix {

/// A point on a curve and its tangent dr/du (not normalized: its length is the parametric speed).
template <class S, int D>
struct PointTangent {
  Vector<S, D> point;    ///< r(u)
  Vector<S, D> tangent;  ///< r'(u)
};

namespace detail {
template <class S, int D>
inline Vector<S, D> lerp(const Vector<S, D>& a, const Vector<S, D>& b, S u, S one_minus_u) {
  // (1 − u) a + u b is exact at both ends, unlike a + u (b − a).
  return one_minus_u * a + u * b;
}
}  // namespace detail

/// Point and tangent at u. The levels of De Casteljau's scheme are built down to the last two
/// points Q0, Q1; then r(u) = (1 − u) Q0 + u Q1 and r'(u) = Degree · (Q1 − Q0).
template <class S, int D, int N>
TRACTRIX_FORCE_INLINE PointTangent<S, D> de_casteljau(const Bezier<S, D, N>& b, S u) noexcept {
  const S v = S(1) - u;
  if constexpr (N == 3) {
    // The hot case written out per coordinate on raw scalars: no copy of the control points, and
    // no expression templates, which an unoptimized (-O0) build runs as dozens of calls per
    // operation (optimized code is the same either way).
    const S *p0 = b.points[0].data(), *p1 = b.points[1].data(), *p2 = b.points[2].data(),
            *p3 = b.points[3].data();
    PointTangent<S, D> out;
    S* point = out.point.data();
    S* tangent = out.tangent.data();
    for (int c = 0; c < D; ++c) {
      const S a0 = v * p0[c] + u * p1[c], a1 = v * p1[c] + u * p2[c], a2 = v * p2[c] + u * p3[c];
      const S q0 = v * a0 + u * a1, q1 = v * a1 + u * a2;
      point[c] = v * q0 + u * q1;
      tangent[c] = S(3) * (q1 - q0);
    }
    return out;
  } else {  // in the else, so cubics do not instantiate the loop (a smaller, inlinable body)
    std::array<Vector<S, D>, static_cast<std::size_t>(N) + 1> level = b.points;
    for (std::size_t k = N; k > 1; --k)
      for (std::size_t i = 0; i < k; ++i)
        level[i] = detail::lerp<S, D>(level[i], level[i + 1], u, v);
    return {detail::lerp<S, D>(level[0], level[1], u, v), S(N) * (level[1] - level[0])};
  }
}

/// The order-th derivative d^k r / du^k at u, for 0 <= order <= N (0 outside that range).
/// Forward differences give the control points of the k-th hodograph (times N!/(N−k)!), which
/// De Casteljau then evaluates.
template <class S, int D, int N>
Vector<S, D> derivative(const Bezier<S, D, N>& b, S u, int order) noexcept {
  if (order < 0 || order > N) return Vector<S, D>::Zero();
  std::array<Vector<S, D>, static_cast<std::size_t>(N) + 1> level = b.points;
  const std::size_t k_max = static_cast<std::size_t>(order);
  S factor = S(1);
  for (std::size_t k = 0; k < k_max; ++k) {
    for (std::size_t i = 0; i < N - k; ++i)
      level[i] = level[i + 1] - level[i];
    factor *= S(N - k);
  }
  const S v = S(1) - u;
  for (std::size_t k = N - k_max; k > 0; --k)
    for (std::size_t i = 0; i < k; ++i)
      level[i] = detail::lerp<S, D>(level[i], level[i + 1], u, v);
  return factor * level[0];
}

/// Splits at u into the parts over [0, u] and [u, 1], each reparameterized to [0, 1].
template <class S, int D, int N>
std::pair<Bezier<S, D, N>, Bezier<S, D, N>> split(const Bezier<S, D, N>& b, S u) noexcept {
  const S v = S(1) - u;
  Bezier<S, D, N> left, right;
  std::array<Vector<S, D>, static_cast<std::size_t>(N) + 1> level = b.points;
  for (std::size_t k = 0; k <= N; ++k) {
    left.points[k] = level[0];
    right.points[N - k] = level[N - k];
    for (std::size_t i = 0; i < N - k; ++i)
      level[i] = detail::lerp<S, D>(level[i], level[i + 1], u, v);
  }
  return {left, right};
}

}  // namespace tractrix
