// Fixed-size Eigen vector aliases used throughout tractrix.
#pragma once

#include <Eigen/Core>

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

// True when every coefficient is finite (no NaN, no infinity).
template <class Derived>
bool all_finite(const Eigen::MatrixBase<Derived>& v) noexcept {
  return v.allFinite();
}

}  // namespace tractrix
