/// @file
/// Euler angles for DCC users: any Tait–Bryan order, and Cinema 4D's HPB order (the TrainDriver
/// plugin's).
#pragma once

#include <array>
#include <cmath>

#include "tractrix/frame/frame.hpp"

namespace tractrix {

/// R = R_a(angle0) · R_b(angle1) · R_c(angle2) for order "abc" (intrinsic: a first, then the
/// rotated b, then the rotated c).
enum class EulerOrder {
  xyz,       ///< about x, then the rotated y, then the rotated z
  xzy,       ///< about x, then z, then y
  yxz,       ///< about y, then x, then z
  yzx,       ///< about y, then z, then x
  zxy,       ///< about z, then x, then y
  zyx,       ///< about z, then y, then x
  hpb = yxz  ///< Cinema 4D's: heading about up, pitch about side, bank about forward
};

namespace detail {
inline std::array<int, 3> euler_axes(EulerOrder order) {
  switch (order) {
    case EulerOrder::xyz:
      return {0, 1, 2};
    case EulerOrder::xzy:
      return {0, 2, 1};
    case EulerOrder::yxz:
      return {1, 0, 2};
    case EulerOrder::yzx:
      return {1, 2, 0};
    case EulerOrder::zxy:
      return {2, 0, 1};
    case EulerOrder::zyx:
      return {2, 1, 0};
  }
  return {0, 1, 2};
}
}  // namespace detail

/// The rotation matrix of three angles (radians) in the given order.
template <class S>
Eigen::Matrix<S, 3, 3> from_euler(const Vector3<S>& angles, EulerOrder order) {
  const auto axes = detail::euler_axes(order);
  Eigen::Matrix<S, 3, 3> r = Eigen::Matrix<S, 3, 3>::Identity();
  for (int n = 0; n < 3; ++n)
    r = r * Eigen::AngleAxis<S>(angles[n], Vector3<S>::Unit(axes[static_cast<std::size_t>(n)]))
                .toRotationMatrix();
  return r;
}

/// Angles (a, b, c) with b in [−π/2, π/2] and a, c in (−π, π]. At gimbal lock (|b| = π/2, where
/// only a ± c is defined) c is set to 0 and a carries the whole rotation, so from_euler still
/// round-trips. For R = R_i(α) R_j(β) R_k(γ) with parity σ (+1 for cyclic i, j, k): sin β = σ
/// R(i,k), α = atan2(−σ R(j,k), R(k,k)). γ is read from R_i(α)ᵀ R = R_j(β) R_k(γ), whose row j is
/// (σ sin γ, cos γ) at columns (i, j) and cos α R(j,·) + σ sin α R(k,·) in R's entries: those
/// are of size 1 where R(i,j) and R(i,i) are of size cos β, so near gimbal lock the rounding of
/// R's entries does not reach γ divided by cos β, and γ stays consistent with the α taken
/// (from_euler(euler_angles(R)) returns R to rounding however near the lock).
template <class S>
Vector3<S> euler_angles(const Eigen::Matrix<S, 3, 3>& r, EulerOrder order) {
  using std::atan2;
  using std::hypot;
  const auto axes = detail::euler_axes(order);
  const int i = axes[0], j = axes[1], k = axes[2];
  const S sigma = ((j - i + 3) % 3 == 1) ? S(1) : S(-1);
  const S cos_beta = hypot(r(i, i), r(i, j));
  const S beta = atan2(sigma * r(i, k), cos_beta);
  // atan2 gives −π for (−0, x < 0), which a sign flip by σ makes of a +0: a half turn reads π.
  const auto half_open = [](S angle) { return angle > -detail::pi<S>() ? angle : detail::pi<S>(); };
  if (cos_beta <= S(2) * detail::epsilon<S>()) {
    // Gimbal lock (cos β within 2 eps of 0; up to 16 eps was taken for it, and forcing γ = 0
    // there cost the round trip up to 29 float eps): with γ = 0, column j of R is
    // cos α e_j + σ sin α e_k.
    return Vector3<S>(half_open(atan2(sigma * r(k, j), r(j, j))), beta, S(0));
  }
  using std::cos;
  using std::sin;
  const S alpha = half_open(atan2(-sigma * r(j, k), r(k, k)));
  const S ca = cos(alpha), sa = sigma * sin(alpha);
  const S gamma =
      half_open(atan2(sigma * (ca * r(j, i) + sa * r(k, i)), ca * r(j, j) + sa * r(k, j)));
  return Vector3<S>(alpha, beta, gamma);
}

/// Heading, pitch, bank of a frame in Cinema 4D's order (R = R_y(h) R_x(p) R_z(b)) in
/// tractrix's right-handed frame. Cinema 4D itself is left-handed: compare signs before mixing.
template <class S>
Vector3<S> hpb(const Frame<S>& frame) {
  return euler_angles(frame.rotation, EulerOrder::hpb);
}

}  // namespace tractrix
