/// @file
/// `RotationMinimizingFrames` along a path: Wang, Jüttler, Zheng & Liu 2008, "Computation of
/// rotation minimizing frames", double reflection (their Eq. 5–6 and Algorithm 1).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "tractrix/core/numeric.hpp"
#include "tractrix/curve/measured_path.hpp"
#include "tractrix/frame/frame.hpp"

namespace tractrix {

namespace detail {
// One double-reflection step: carries the reference vector r from (x0, t0) to (x1, t1). Where the
// two points coincide to rounding (a query at a table entry; a corner), the chord x1 − x0 has no
// direction, and skipping the first reflection would leave the second alone, a mirror; the
// minimal rotation taking t0 to t1 carries r instead (the limit of the double reflection as
// x1 → x0). "To rounding" is 16 eps of the coordinates' magnitude: far from the origin in float
// (1e5) that is 0.2 units, where the minimal rotation is still a good step.
template <class S>
Vector3<S> double_reflect(const Vector3<S>& r, const Vector3<S>& x0, const Vector3<S>& t0,
                          const Vector3<S>& x1, const Vector3<S>& t1) noexcept {
  const Vector3<S> v1 = x1 - x0;
  const S c1 = v1.squaredNorm();
  const S noise =
      S(16) * detail::epsilon<S>() * std::max(x0.cwiseAbs().maxCoeff(), x1.cwiseAbs().maxCoeff());
  if (!(c1 > noise * noise)) {
    // Rodrigues for the rotation about t0 × t1 by the angle between them.
    const Vector3<S> axis = t0.cross(t1);
    const S cosine = t0.dot(t1);
    if (!(cosine > S(-1) + detail::epsilon<S>()))
      return r;  // opposite tangents: no unique rotation
    return r + axis.cross(r) + axis.cross(axis.cross(r)) / (S(1) + cosine);
  }
  const Vector3<S> r_left = r - (S(2) / c1) * v1.dot(r) * v1;
  const Vector3<S> t_left = t0 - (S(2) / c1) * v1.dot(t0) * v1;
  const Vector3<S> v2 = t1 - t_left;
  const S c2 = v2.squaredNorm();
  return c2 > S(0) ? Vector3<S>(r_left - (S(2) / c2) * v2.dot(r_left) * v2) : r_left;
}
}  // namespace detail

/// Up vectors that turn as little as possible about the tangent, precomputed at `per_segment`
/// evenly spaced parameters of every segment (their distances exact) and carried to any query
/// point by one more double-reflection step from the entry below (so a query is O(log n), O(1)
/// given the entry, and 4th-order accurate everywhere: the twist error falls 16× per doubling of
/// per_segment). On closed paths the holonomy (the twist the frame gains over one lap) is spread
/// evenly along arc length, so the frame at the seam matches itself. Copies share the path.
template <class S>
class RotationMinimizingFrames {
 public:
  static constexpr int default_per_segment = 16;  ///< entries per segment unless asked otherwise

  /// The frames along `path`, starting from `initial_up`, the up hint at distance 0 (made
  /// perpendicular to the tangent there), at `per_segment` entries a segment. Errors: non_finite
  /// for a NaN or infinite initial_up, out_of_range for per_segment outside
  /// [1, ArcLengthTable::max_samples_per_segment].
  static Expected<RotationMinimizingFrames> build(
      const MeasuredPath<S>& path, const Vector3<S>& initial_up = Vector3<S>::UnitY(),
      int per_segment = default_per_segment) {
    if (!initial_up.allFinite()) return make_error(ErrorCode::non_finite, "initial_up: non-finite");
    if (per_segment < 1 || per_segment > ArcLengthTable<S>::max_samples_per_segment)
      return make_error(ErrorCode::out_of_range,
                        "per_segment: " + detail::number_text(per_segment) + " not in [1, " +
                            detail::number_text(ArcLengthTable<S>::max_samples_per_segment) + "]");
    RotationMinimizingFrames frames(path);
    const std::size_t k = static_cast<std::size_t>(per_segment);
    const std::size_t n = path.path().size() * k + 1;
    frames.distances_.reserve(n);
    frames.points_.reserve(n);
    frames.tangents_.reserve(n);
    frames.ups_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t segment = std::min(i / k, path.path().size() - 1);
      const S u = S(static_cast<std::ptrdiff_t>(i - segment * k)) / S(per_segment);
      const S t = S(static_cast<std::ptrdiff_t>(segment)) + u;
      frames.points_.push_back(path.path().point(t));
      frames.tangents_.push_back(path.path().unit_tangent(t));
      // The last entry is the path's end: its length (distance_at wraps a closed path's end to
      // 0, and on long float paths segment + u may round up to it). Never decreasing.
      const S d =
          i + 1 == n || !(t < path.path().end_parameter()) ? path.length() : path.distance_at(t);
      frames.distances_.push_back(
          frames.distances_.empty() ? d : std::max(frames.distances_.back(), d));
    }
    frames.ups_.push_back(look_at(frames.points_[0], frames.tangents_[0], initial_up).up());
    for (std::size_t i = 1; i < n; ++i) {
      // At a key the step ends on the tangent the path arrives with, then turns by the minimal
      // rotation to the one it leaves with: a corner's turn is its own, not spread over the
      // step before it (spread, it twists the frame beyond the corner's turn, an error falling
      // only as h^1.5). On a closed path the last entry is the seam's key.
      const bool key = i % k == 0;
      const Vector3<S> arriving = key ? path.path().end_tangent(i / k - 1) : frames.tangents_[i];
      Vector3<S> r = detail::double_reflect(frames.ups_[i - 1], frames.points_[i - 1],
                                            frames.tangents_[i - 1], frames.points_[i], arriving);
      if (key)
        r = detail::double_reflect(r, frames.points_[i], arriving, frames.points_[i],
                                   frames.tangents_[i]);
      // Remove the drift rounding adds: keep r unit and perpendicular to the tangent.
      r -= r.dot(frames.tangents_[i]) * frames.tangents_[i];
      frames.ups_.push_back(r.normalized());
    }
    if (path.closed()) {
      frames.holonomy_ = signed_angle(frames.ups_.back(), frames.ups_.front(), frames.tangents_[0]);
      for (std::size_t i = 1; i < n; ++i)
        frames.ups_[i] = rotate_about(frames.ups_[i], frames.tangents_[i],
                                      frames.holonomy_ * frames.distances_[i] / path.length());
    }
    return frames;
  }

  /// Unit up vector at arc length s, perpendicular to `unit_tangent`, where the path has `point`
  /// and `unit_tangent`. A closed path wraps s into [0, length) (any number of laps, as the point
  /// was found); on an open one, at and past the end (the point on its straight extension) the up
  /// comes from the last entry, so the straight run does not bend. NaN is the start.
  Vector3<S> up_at(S s, const Vector3<S>& point, const Vector3<S>& unit_tangent) const noexcept {
    if (path_.closed() || std::isnan(s)) s = detail::wrap(s, path_.length());
    const std::size_t entry =
        s >= distances_.back() ? distances_.size() - 1 : detail::interval_of(distances_, s);
    Vector3<S> r =
        detail::double_reflect(ups_[entry], points_[entry], tangents_[entry], point, unit_tangent);
    if (!detail::exactly_equal(holonomy_, S(0)))
      r = rotate_about(r, unit_tangent, holonomy_ * (s - distances_[entry]) / path_.length());
    return r;
  }

  /// The path the frames were built on (shared, not copied).
  const MeasuredPath<S>& path() const noexcept { return path_; }
  /// The twist (radians, in (−π, π]) an unclosed rotation-minimizing frame gains over one lap of
  /// a closed path; 0 on an open one.
  S holonomy() const noexcept { return holonomy_; }
  /// The number of entries: segments × per_segment + 1 (the last at the path's end).
  std::size_t size() const noexcept { return ups_.size(); }
  /// The unit up vector of an entry (entry < size(), unchecked), the holonomy's share included.
  const Vector3<S>& up(std::size_t entry) const noexcept { return ups_[entry]; }

 private:
  explicit RotationMinimizingFrames(MeasuredPath<S> path) : path_(std::move(path)) {}

  MeasuredPath<S> path_;  // shared, not copied
  std::vector<S> distances_;
  std::vector<Vector3<S>> points_, tangents_, ups_;
  S holonomy_ = S(0);
};

}  // namespace tractrix
