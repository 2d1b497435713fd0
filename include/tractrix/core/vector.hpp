// Fixed-size Eigen vector aliases used throughout tractrix.
#pragma once

#include <cmath>

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross

namespace tractrix {

template <class S, int D>
using Vector = Eigen::Matrix<S, D, 1>;

template <class S>
using Vector2 = Vector<S, 2>;
template <class S>
using Vector3 = Vector<S, 3>;

using Vector2d = Vector2<double>;
using Vector3d = Vector3<double>;
using Vector2f = Vector2<float>;
using Vector3f = Vector3<float>;

// Angle between two 3D directions from atan2(|a × b|, a · b): accurate near 0 and π, unlike acos.
// Any lengths; 0 if either is zero.
template <class A, class B>
typename A::Scalar angle_between(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  using std::atan2;
  return atan2(a.cross(b).norm(), a.dot(b));
}

// A unit vector perpendicular to v (|v| > 0): the cross product with the coordinate axis least
// aligned with v, so the result is well conditioned. The one fallback wherever a direction
// perpendicular to another is needed and none is given (frames, cone readers, pole vectors).
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
  return v.cross(axis).normalized();
}

// True when every coefficient is finite (no NaN, no infinity).
template <class Derived>
bool all_finite(const Eigen::MatrixBase<Derived>& v) noexcept {
  return v.allFinite();
}

}  // namespace tractrix
