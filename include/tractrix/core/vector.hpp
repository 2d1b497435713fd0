/// @file
/// Fixed-size Eigen vector aliases used throughout tractrix, and two direction helpers.
#pragma once

#include <cmath>

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross

#include "tractrix/core/attributes.hpp"
#include "tractrix/core/numeric.hpp"

namespace tractrix {

/// A column vector of D scalars.
template <class S, int D>
using Vector = Eigen::Matrix<S, D, 1>;

/// A 2-D vector.
template <class S>
using Vector2 = Vector<S, 2>;
/// A 3-D vector.
template <class S>
using Vector3 = Vector<S, 3>;

using Vector2d = Vector2<double>;  ///< 2-D, double
using Vector3d = Vector3<double>;  ///< 3-D, double
using Vector2f = Vector2<float>;   ///< 2-D, float
using Vector3f = Vector3<float>;   ///< 3-D, float

namespace detail {
// Angle between two 3D directions from atan2(|a × b|, a · b): accurate near 0 and π, unlike acos.
// Any finite lengths (each is scaled by the power of two nearest its largest component first, an
// exact scaling, so neither the cross product nor the dot product overflows or underflows: 1e160
// or 1e-170 in double, 1e20 in float); 0 if either is zero.
template <class A, class B>
typename A::Scalar angle_between(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  using S = typename A::Scalar;
  const S a_size = a.cwiseAbs().maxCoeff(), b_size = b.cwiseAbs().maxCoeff();
  if (!(a_size > S(0)) || !(b_size > S(0))) return S(0);
  using std::ilogb;
  using std::scalbn;
  const int ea = ilogb(a_size), eb = ilogb(b_size);  // scalbn: no 2^1074 formed for subnormals
  const Eigen::Matrix<S, 3, 1> x = a.unaryExpr([ea](S v) { return scalbn(v, -ea); }),
                               y = b.unaryExpr([eb](S v) { return scalbn(v, -eb); });
  using std::atan2;
  return atan2(x.cross(y).norm(), x.dot(y));
}

}  // namespace detail

/// v scaled to unit length, or `fallback` where v is zero or not finite. A finite v whose squared
/// norm overflows or loses digits to underflow (components beyond ~1e154 or below ~1e-146 in
/// double, 1e19 and 3e-16 in float) is divided by its largest component first, so its direction
/// keeps full precision at any finite size. That branch is rarely taken; the usual one costs a
/// squared norm, a square root and a divide.
template <class S, int D>
TRACTRIX_FORCE_INLINE Vector<S, D> normalized_or(const Vector<S, D>& v,
                                                 const Vector<S, D>& fallback) noexcept {
  const S norm2 = v.squaredNorm();
  if (norm2 >= std::numeric_limits<S>::min() / detail::epsilon<S>() &&
      norm2 <= std::numeric_limits<S>::max()) {
    using std::sqrt;
    return v * (S(1) / sqrt(norm2));
  }
  if (!v.allFinite()) return fallback;
  const S largest = v.cwiseAbs().maxCoeff();
  if (!(largest > S(0))) return fallback;
  const Vector<S, D> scaled = v / largest;  // largest component ±1: squares in range
  return scaled / scaled.norm();
}

/// A unit vector perpendicular to v (|v| > 0): the cross product with the coordinate axis least
/// aligned with v, so the result is well conditioned. The one fallback wherever a direction
/// perpendicular to another is needed and none is given (frames, cone readers, pole vectors).
template <class S>
Vector3<S> any_perpendicular(const Vector3<S>& v) {
  const Vector3<S> a = v.cwiseAbs();
  Vector3<S> axis = Vector3<S>::Zero();
  if (a.x() <= a.y() && a.x() <= a.z())
    axis.x() = S(1);
  else if (a.y() <= a.z())
    axis.y() = S(1);
  else
    axis.z() = S(1);
  return normalized_or(Vector3<S>(v.cross(axis)), axis);
}

namespace detail {
// True when every coefficient is finite (no NaN, no infinity).
template <class Derived>
bool all_finite(const Eigen::MatrixBase<Derived>& v) noexcept {
  return v.allFinite();
}

}  // namespace detail

}  // namespace tractrix
