/// @file
/// `PoseReader`: a pose-space cone reader (the 3ds Max pose-reader script's controller, with its
/// remap done properly): the angle between the reader's z axis and a chosen axis of a target,
/// remapped to a weight that is 1 inside an inner cone and 0 outside an outer cone, optionally
/// reversed, elliptical, and multiplied by a twist reader.
#pragma once

#include <cmath>
#include <optional>
#include <string>

#include <Eigen/Geometry>

#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/core/vector.hpp"

namespace tractrix {

/// The axis of the target that the reader's z axis is compared with.
enum class PoseAxis {
  x,           ///< the target's +x
  y,           ///< the target's +y
  z,           ///< the target's +z
  negative_x,  ///< the target's −x
  negative_y,  ///< the target's −y
  negative_z   ///< the target's −z
};

/// Shape of the transition from 1 (at the inner cone) to 0 (at the outer cone), as f(t) with t the
/// position across the zone: the weight is 1 − f(t).
enum class PoseFalloff {
  linear,        ///< the 3ds Max script: f = t
  smoothstep,    ///< 3t² − 2t³, C¹ at both edges
  smootherstep,  ///< 6t⁵ − 15t⁴ + 10t³, C² at both edges
  ease_in,       ///< t²: leaves the pose slowly
  ease_out,      ///< 1 − (1 − t)²: leaves the pose quickly
  gaussian,      ///< exp(−4t²), rescaled so it is exactly 1 at t = 0 and exactly 0 at t = 1
};

/// Two half-angles (radians, 0 <= inner <= outer <= π) between which a weight falls from 1 to 0.
template <class S>
struct ConeRange {
  S inner;  ///< half-angle (radians) inside which the weight is 1
  S outer;  ///< half-angle beyond which the weight is 0
};

/// What a PoseReader reads and how it remaps it; checked by PoseReader::build.
template <class S>
struct PoseReaderSettings {
  PoseAxis target_axis = PoseAxis::z;  ///< the target axis compared with the reader's z
  /// The cone around the reader's z axis: the same half-angles in every direction.
  ConeRange<S> cone{S(0.2), S(1.0)};
  /// An elliptical cone, asked for explicitly: `cone` then holds the half-angles towards the
  /// reader's x axis and this the half-angles towards its y axis.
  std::optional<ConeRange<S>> elliptical_y;
  PoseFalloff falloff = PoseFalloff::linear;  ///< the shape of the fall from 1 to 0
  bool reversed = false;  ///< true: the weight is 1 − w (0 at the pose, 1 away from it)
  /// Optional twist reader: |twist about the reader's z| remapped the same way, multiplied in. The
  /// twist is the target's about its aimed axis, 0 where the target is the shortest turn from the
  /// reader that aims that axis along the reader's z (for negative_z: the half turn about x).
  std::optional<ConeRange<S>> twist;
};

namespace detail {
template <class S>
S falloff_raw(PoseFalloff falloff, S t) noexcept {
  using std::exp;
  switch (falloff) {
    case PoseFalloff::linear:
      return S(1) - t;
    // Both steps are point-symmetric, 1 − f(t) = f(1 − t): past the middle the weight is computed
    // as f(1 − t), whose 1 − t is exact there, instead of as 1 − f(t), which cancels as t nears 1
    // (and would leave the small weight many times too large, and not monotone, in float).
    case PoseFalloff::smoothstep: {
      if (t < S(0.5)) return S(1) - t * t * (S(3) - S(2) * t);
      const S u = S(1) - t;
      return u * u * (S(3) - S(2) * u);
    }
    case PoseFalloff::smootherstep: {
      if (t < S(0.5)) return S(1) - t * t * t * (t * (t * S(6) - S(15)) + S(10));
      const S u = S(1) - t;
      return u * u * u * (u * (u * S(6) - S(15)) + S(10));
    }
    case PoseFalloff::ease_in:  // 1 − t², as (1 − t)(1 + t) past the middle: no cancellation
      return t < S(0.5) ? S(1) - t * t : (S(1) - t) * (S(1) + t);
    case PoseFalloff::ease_out:
      return (S(1) - t) * (S(1) - t);
    // (e^(−4t²) − e^(−4)) / (1 − e^(−4)) = expm1(4(1 − t²)) / expm1(4), with 1 − t² as
    // (1 − t)(1 + t): no difference of nearly equal terms near t = 1, where the first form loses
    // all but a few bits of the small weight.
    case PoseFalloff::gaussian: {
      using std::expm1;
      return expm1(S(4) * (S(1) - t) * (S(1) + t)) / expm1(S(4));
    }
  }
  return S(1) - t;
}
}  // namespace detail

/// The falloff weight 1 − f(t) for t in [0, 1] (clamped outside, NaN as 0), in [0, 1]; exactly 1
/// at t <= 0 and 0 at t >= 1; monotone up to rounding (a few ulps).
template <class S>
S falloff_weight(PoseFalloff falloff, S t) noexcept {
  return detail::clamp_or_low(detail::falloff_raw(falloff, detail::clamp_or_low(t, S(0), S(1))),
                              S(0), S(1));
}

/// A cone reader: weight() is 1 while a target's chosen axis lies within the inner cone about the
/// reader's z axis, falls to 0 across to the outer cone, and stays 0 beyond (the reverse when
/// reversed). Built by build(), which checks the settings.
template <class S>
class PoseReader {
 public:
  using Matrix3 = Eigen::Matrix<S, 3, 3>;  ///< an orientation: columns are the local x, y, z axes

  /// A reader with these settings. Errors: non_finite for a NaN or infinite half-angle,
  /// out_of_range for a half-angle outside [0, π] or inner > outer (inner == outer is a step).
  static Expected<PoseReader> build(const PoseReaderSettings<S>& settings) {
    auto check = [](const ConeRange<S>& range, const char* name, S limit) -> std::optional<Error> {
      const std::string field(name);
      if (!std::isfinite(range.inner) || !std::isfinite(range.outer))
        return make_error(ErrorCode::non_finite, field + ": non-finite angle");
      if (range.inner < S(0) || range.outer > limit)
        return make_error(ErrorCode::out_of_range, field + ": angles must lie in [0, " +
                                                       detail::number_text(limit) + "], got [" +
                                                       detail::number_text(range.inner) + ", " +
                                                       detail::number_text(range.outer) + "]");
      if (range.inner > range.outer)
        return make_error(ErrorCode::out_of_range,
                          field + ": inner " + detail::number_text(range.inner) +
                              " exceeds outer " + detail::number_text(range.outer));
      return std::nullopt;
    };
    if (auto e = check(settings.cone, "cone", detail::pi<S>())) return *e;
    if (settings.elliptical_y)
      if (auto e = check(*settings.elliptical_y, "elliptical_y", detail::pi<S>())) return *e;
    if (settings.twist)
      if (auto e = check(*settings.twist, "twist", detail::pi<S>())) return *e;
    return PoseReader(settings);
  }

  /// The settings it was built with.
  const PoseReaderSettings<S>& settings() const noexcept { return settings_; }

  /// The weight in [0, 1] for a reader and a target orientation (columns are the local axes;
  /// scale in the matrices is ignored: each axis is normalized). Zero-length axes give weight 0
  /// (1 reversed).
  S weight(const Matrix3& reader, const Matrix3& target) const noexcept {
    const Matrix3 turned = aimed_frame(target);
    // normalized_or: axes of any finite length (1e200 or 1e-170 in double), none overflowing.
    const Vector3<S> zero = Vector3<S>::Zero();
    const Vector3<S> a = normalized_or(Vector3<S>(reader.col(2)), zero);
    const Vector3<S> b = normalized_or(Vector3<S>(turned.col(2)), zero);
    if (!(a.squaredNorm() > S(0)) || !(b.squaredNorm() > S(0)))
      return settings_.reversed ? S(1) : S(0);
    const S angle = detail::angle_between(a, b);
    const ConeRange<S>& cone = settings_.cone;
    S w;
    if (settings_.elliptical_y) {
      // Direction of the tilt in the reader's x–y plane picks the elliptical radius.
      const S px = b.dot(normalized_or(Vector3<S>(reader.col(0)), zero));
      const S py = b.dot(normalized_or(Vector3<S>(reader.col(1)), zero));
      const ConeRange<S>& y = *settings_.elliptical_y;
      w = remap(angle, elliptical(cone.inner, y.inner, px, py),
                elliptical(cone.outer, y.outer, px, py));
    } else {
      w = remap(angle, cone.inner, cone.outer);
    }
    if (settings_.twist)
      w *= remap(std::abs(twist(reader, turned)), settings_.twist->inner, settings_.twist->outer);
    return settings_.reversed ? S(1) - w : w;
  }

  /// The angle (radians, in [0, π]) between the reader's z axis and the target axis, from
  /// atan2(|a × b|, a · b): full relative precision near 0 and near π, where acos loses half.
  S angle(const Matrix3& reader, const Matrix3& target) const noexcept {
    return detail::angle_between(reader.col(2), Vector3<S>(aimed_frame(target).col(2)));
  }

  /// Twist (radians, in (−π, π]) of the target relative to the reader about the reader's z axis,
  /// from the swing–twist decomposition of the relative rotation q = swing · twist:
  /// twist = 2·atan2(q_z, q_w). A pure swing gives 0; a 180° swing (q_z = q_w = 0) gives 0, not
  /// NaN. Both matrices are orthonormalized first, keeping their z axes.
  static S twist(const Matrix3& reader, const Matrix3& target) noexcept {
    const Matrix3 relative = orthonormal(reader).transpose() * orthonormal(target);
    const Eigen::Quaternion<S> q(relative);
    using std::atan2;
    S angle = S(2) * atan2(q.z(), q.w());
    if (angle > detail::pi<S>()) angle -= S(2) * detail::pi<S>();
    if (angle <= -detail::pi<S>()) angle += S(2) * detail::pi<S>();
    return angle;
  }

 private:
  explicit PoseReader(const PoseReaderSettings<S>& settings) : settings_(settings) {}

  // The target's frame turned by a quarter or half turn so that its aimed axis (the target axis
  // the cone reads) is its z: the twist is about that axis. Decomposed about the target's own z
  // instead, a target aimed by −z would be a 180° swing at the pose (q_z = q_w = 0, so its twist
  // would read 0 whatever it was), and one aimed by x or y would read part of its swing as twist
  // away from the pose.
  Matrix3 aimed_frame(const Matrix3& t) const noexcept {
    Matrix3 m;
    switch (settings_.target_axis) {
      case PoseAxis::z:
        return t;
      case PoseAxis::x:  // · R_y(π/2)
        m << -t.col(2), t.col(1), t.col(0);
        return m;
      case PoseAxis::y:  // · R_x(−π/2)
        m << t.col(0), -t.col(2), t.col(1);
        return m;
      case PoseAxis::negative_x:  // · R_y(−π/2)
        m << t.col(2), t.col(1), -t.col(0);
        return m;
      case PoseAxis::negative_y:  // · R_x(π/2)
        m << t.col(0), t.col(2), -t.col(1);
        return m;
      case PoseAxis::negative_z:  // · R_x(π)
        m << t.col(0), -t.col(1), -t.col(2);
        return m;
    }
    return t;
  }

  // Radius of the ellipse with half-axes (along_x, along_y) in direction (px, py); exactly the
  // common radius when both are equal, and either one when there is no direction (at the pose).
  static S elliptical(S along_x, S along_y, S px, S py) noexcept {
    if (detail::exactly_equal(along_x, along_y)) return along_x;
    const S c = px * along_y, s = py * along_x;
    const S denominator = std::sqrt(c * c + s * s);
    if (!(denominator > S(0))) return along_x < along_y ? along_x : along_y;
    return along_x * along_y * std::sqrt(px * px + py * py) / denominator;
  }

  S remap(S angle, S inner, S outer) const noexcept {
    if (!(outer > inner)) return angle <= inner ? S(1) : S(0);  // a step at the shared angle
    return falloff_weight(settings_.falloff, (angle - inner) / (outer - inner));
  }

  static Matrix3 orthonormal(const Matrix3& m) noexcept {
    // Gram–Schmidt on the columns, keeping z exact: scale and mild shear drop out.
    const Vector3<S> z = normalized_or(Vector3<S>(m.col(2)), Vector3<S>(Vector3<S>::UnitZ()));
    Vector3<S> x = normalized_or(Vector3<S>(m.col(0)), Vector3<S>(Vector3<S>::Zero()));
    x = normalized_or(Vector3<S>(x - x.dot(z) * z), any_perpendicular(z));
    Matrix3 r;
    r.col(0) = x;
    r.col(1) = z.cross(x);
    r.col(2) = z;
    return r;
  }

  PoseReaderSettings<S> settings_;
};

}  // namespace tractrix
