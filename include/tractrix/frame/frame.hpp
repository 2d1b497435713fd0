/// @file
/// Frame: an origin and a rotation whose columns are side (x), up (y) and forward (z), x = y × z.
#pragma once

#include <cmath>
#include <limits>

#include <Eigen/Geometry>

#include "tractrix/core/attributes.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/core/vector.hpp"

namespace tractrix {

/// A right-handed frame: an origin and a rotation whose columns are side (x), up (y) and
/// forward (z), x = y × z.
template <class S>
struct Frame {
  using Matrix3 = Eigen::Matrix<S, 3, 3>;  ///< the rotation's type

  Vector3<S> origin = Vector3<S>::Zero();  ///< where the frame is
  Matrix3 rotation = Matrix3::Identity();  ///< columns: side, up, forward

  Vector3<S> side() const { return rotation.col(0); }     ///< x, the left of travel
  Vector3<S> up() const { return rotation.col(1); }       ///< y
  Vector3<S> forward() const { return rotation.col(2); }  ///< z, the direction of travel

  /// The rotation as a quaternion.
  Eigen::Quaternion<S> quaternion() const { return Eigen::Quaternion<S>(rotation); }
  /// The frame as an Eigen isometry (local → world).
  Eigen::Transform<S, 3, Eigen::Isometry> isometry() const {
    Eigen::Transform<S, 3, Eigen::Isometry> t = Eigen::Transform<S, 3, Eigen::Isometry>::Identity();
    t.linear() = rotation;
    t.translation() = origin;
    return t;
  }

  /// A frame at `origin` rotated by `q` (normalized first).
  static Frame from_quaternion(const Vector3<S>& origin, const Eigen::Quaternion<S>& q) {
    return Frame{origin, q.normalized().toRotationMatrix()};
  }
  /// The frame of an Eigen isometry.
  static Frame from_isometry(const Eigen::Transform<S, 3, Eigen::Isometry>& t) {
    return Frame{t.translation(), t.linear()};
  }

  /// A point given in this frame, in the world.
  Vector3<S> to_world(const Vector3<S>& local_point) const {
    return origin + rotation * local_point;
  }
  /// A direction given in this frame, in the world.
  Vector3<S> direction_to_world(const Vector3<S>& local) const { return rotation * local; }
  /// A world point in this frame's coordinates.
  Vector3<S> to_local(const Vector3<S>& world_point) const {
    return rotation.transpose() * (world_point - origin);
  }

  /// this ∘ child: the child frame given in this frame's coordinates, expressed in the world.
  Frame operator*(const Frame& child) const {
    return Frame{origin + rotation * child.origin, rotation * child.rotation};
  }
  /// The world as seen from this frame: inverse() * (*this) is the identity.
  Frame inverse() const {
    const Matrix3 rt = rotation.transpose();
    return Frame{-(rt * origin), rt};
  }
};

using Framed = Frame<double>;  ///< a frame in double
using Framef = Frame<float>;   ///< a frame in float

namespace detail {
// look_at for a forward already of unit length (a track tangent), written in place: skips the
// forward's normalization and the copy of a returned frame (hot loops write straight into poses).
template <class S>
TRACTRIX_FORCE_INLINE void look_at_unit(Frame<S>& frame, const Vector3<S>& origin,
                                        const Vector3<S>& z, const Vector3<S>& up_hint) {
  // Written in scalars through raw pointers: this runs three times per wagon in the TrainSolver;
  // inside a large caller GCC stopped inlining Eigen's small expression kernels here, and an
  // unoptimized (-O0) build pays a call per Eigen accessor.
  const S* zp = z.data();
  const S* up = up_hint.data();
  const S zx = zp[0], zy = zp[1], zz = zp[2];
  S ux = up[0], uy = up[1], uz = up[2];
  S hint_norm2 = ux * ux + uy * uy + uz * uz;
  S xx = uy * zz - uz * zy, xy = uz * zx - ux * zz, xz = ux * zy - uy * zx;  // up_hint × z
  S x_norm2 = xx * xx + xy * xy + xz * xz;
  // A hint whose squares overflow or lose digits to underflow (|hint| beyond ~1e154 or below
  // ~1e-146 in double) is scaled to its largest component first: same direction, squares in range.
  // Tested on x = hint × z, which is in range for every usual hint; rarely taken.
  if (!(x_norm2 >= std::numeric_limits<S>::min() / detail::epsilon<S>() &&
        x_norm2 <= std::numeric_limits<S>::max())) {
    using std::abs;
    const S largest = std::max(abs(ux), std::max(abs(uy), abs(uz)));
    if (largest > S(0) && largest <= std::numeric_limits<S>::max()) {
      ux /= largest, uy /= largest, uz /= largest;
      hint_norm2 = ux * ux + uy * uy + uz * uz;
      xx = uy * zz - uz * zy, xy = uz * zx - ux * zz, xz = ux * zy - uy * zx;
      x_norm2 = xx * xx + xy * xy + xz * xz;
    }
  }
  // A hint nearly parallel to z leaves the cross product with a large relative rounding error,
  // tilting x off the perpendicular; one Gram–Schmidt step against z restores it. Beyond 30°
  // between hint and z (|x|² > 1/4 |hint|²) the error is below 2 eps and the step is skipped.
  if (!(x_norm2 > S(0.25) * hint_norm2)) {
    S along = xx * zx + xy * zy + xz * zz;
    const S before = x_norm2;
    xx -= along * zx, xy -= along * zy, xz -= along * zz;
    x_norm2 = xx * xx + xy * xy + xz * xz;
    // Mostly along z (a hint within a few eps of forward), x keeps a rounding-sized part along z
    // after one step, up to hundreds of eps off orthogonal; a second removes it ("twice is
    // enough"): within 5 eps on 200 000 such hints.
    if (x_norm2 < S(0.25) * before) {
      along = xx * zx + xy * zy + xz * zz;
      xx -= along * zx, xy -= along * zy, xz -= along * zz;
      x_norm2 = xx * xx + xy * xy + xz * xz;
    }
    // A hint within ~1e-146 rad of forward leaves x's squares subnormal, and their sum loses
    // digits: x scaled to its largest component keeps its direction to full precision. (Only
    // here: a hint more than 30° off forward has x's squares in range after the test above.)
    // An x whose components are all below min·1e6 (2e-302 in double) is treated as zero, as an
    // exactly parallel hint is: the fallback below takes over.
    if (!(x_norm2 >= std::numeric_limits<S>::min() / detail::epsilon<S>())) {
      using std::abs;
      const S largest = std::max(abs(xx), std::max(abs(xy), abs(xz)));
      if (largest > std::numeric_limits<S>::min() * S(1e6)) {
        xx /= largest, xy /= largest, xz /= largest;
        x_norm2 = xx * xx + xy * xy + xz * xz;
      }
    }
  }
  using std::sqrt;
  const S x_norm = sqrt(x_norm2);
  // A non-finite hint makes x_norm NaN or infinite, so this test catches it too.
  if (!(x_norm > std::numeric_limits<S>::min() * S(1e6)) || !std::isfinite(x_norm)) {
    // side = axis × forward for the replacement hint, as for any hint: any_perpendicular is
    // forward × axis, which turned these frames upside down.
    const Vector3<S> x = -any_perpendicular(z);
    xx = x.x(), xy = x.y(), xz = x.z();
  } else {
    const S inverse = S(1) / x_norm;  // one divide, not three
    xx *= inverse, xy *= inverse, xz *= inverse;
  }
  const S* o = origin.data();
  S* frame_origin = frame.origin.data();
  frame_origin[0] = o[0], frame_origin[1] = o[1], frame_origin[2] = o[2];
  S* m = frame.rotation.data();  // column-major: columns x, y = z × x, z
  m[0] = xx, m[1] = xy, m[2] = xz;
  m[3] = zy * xz - zz * xy, m[4] = zz * xx - zx * xz, m[5] = zx * xy - zy * xx;
  m[6] = zx, m[7] = zy, m[8] = zz;
}

template <class S>
TRACTRIX_FORCE_INLINE void look_at(Frame<S>& frame, const Vector3<S>& origin,
                                   const Vector3<S>& forward, const Vector3<S>& up_hint) {
  look_at_unit(frame, origin, tractrix::normalized_or(forward, Vector3<S>(Vector3<S>::UnitZ())),
               up_hint);
}

}  // namespace detail

/// The TrainDriver plugin's HPBTarget done right: forward normalized, side = up_hint × forward
/// normalized, up = forward × side (the hint re-orthogonalized), so x = y × z holds for a
/// right-handed frame.
///
/// Fallbacks (never NaN): a zero or non-finite forward becomes +Z; an up_hint that is zero,
/// non-finite, or exactly parallel to forward (|up × forward| underflows) is replaced by the
/// coordinate axis least aligned with forward. Near-parallel hints are used as given: the side
/// vector is computed from the cross product's own direction, which floating point keeps accurate
/// until it underflows, so the frame turns continuously with the hint. Where forward passes exactly
/// through ±up_hint the side must turn (no continuous choice exists on the whole sphere, by the
/// hairy-ball theorem): use rotation-minimizing frames or a rail for tracks that go vertical.
template <class A, class B, class C>
Frame<typename A::Scalar> look_at(const Eigen::MatrixBase<A>& origin,
                                  const Eigen::MatrixBase<B>& forward,
                                  const Eigen::MatrixBase<C>& up_hint) {
  using S = typename A::Scalar;
  Frame<S> frame;
  detail::look_at<S>(frame, origin, forward, up_hint);
  return frame;
}

/// Rotates v about the unit axis by angle (right-handed), Rodrigues' formula.
template <class S>
Vector3<S> rotate_about(const Vector3<S>& v, const Vector3<S>& unit_axis, S angle) {
  using std::cos;
  using std::sin;
  const S c = cos(angle), s = sin(angle);
  return c * v + s * unit_axis.cross(v) + (S(1) - c) * unit_axis.dot(v) * unit_axis;
}

/// Signed angle from a to b about the unit axis (both roughly perpendicular to it), in (−π, π].
template <class S>
S signed_angle(const Vector3<S>& a, const Vector3<S>& b, const Vector3<S>& unit_axis) {
  using std::atan2;
  return atan2(unit_axis.dot(a.cross(b)), a.dot(b));
}

}  // namespace tractrix
