/// @file
/// `CameraRig`: the camera-animation lecture's camera — keyed positions and view directions on a
/// Hermite path ("where?"), a distance–time curve or a jerk-limited trajectory ("when?") —
/// returning the camera frame and its motion.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tractrix/motion/motion_sample.hpp"

namespace tractrix {

/// One key of a camera move: where the camera passes, and where it looks there.
template <class S>
struct CameraKey {
  Vector3<S> position;  ///< a point the camera's path passes through, in world coordinates
  /// where the camera looks at this key, any length (only its direction counts); zero: look
  /// where the path goes
  Vector3<S> view_direction = Vector3<S>::Zero();
};

/// How CameraRig::build chooses the path's tangents at the keys.
enum class CameraTangents {
  /// path tangents along the keyed view directions, as long as the mean length of the adjacent
  /// chords
  view_direction,
  /// Kochanek–Bartels tangents from neighbouring keys (Catmull–Rom with the default shape); view
  /// directions only steer the view
  catmull_rom,
};

/// How CameraRig::build shapes the path through the keys.
template <class S>
struct CameraRigSettings {
  CameraTangents tangents = CameraTangents::view_direction;  ///< where the key tangents come from
  Closure closure = Closure::open;  ///< open, or closed back to the first key
  /// the shape of the Kochanek–Bartels tangents (and of keys without a view direction)
  KochanekBartels<S> shape = {};
  ArcLengthSettings arc_length = {};  ///< how the path's arc-length table is built
};

/// The camera at one time: its frame and the motion of its position along the path.
template <class S>
struct CameraShot {
  Frame<S> frame;  ///< forward = view direction, up from the up source (world +Y by default)
  MotionSample<S> motion;  ///< position, speed and acceleration along the path
};

/// A camera moved along a Hermite path through keyed positions, looking along keyed view
/// directions (or at a fixed point, or at a point moving along a second path), timed by a
/// TimeProfile or driven by a JerkTrajectory. Immutable: with_up and the look_at_ members return
/// changed copies, which share the paths.
template <class S>
class CameraRig {
 public:
  /// The rig through `keys`, timed by `profile` over the whole path. With
  /// CameraTangents::view_direction the key's tangent is its unit view direction times the mean
  /// length of the adjacent chords, so the direction bends the path without changing its speed
  /// much; keys without a view direction keep the Kochanek–Bartels tangent of settings.shape. Up is
  /// world +Y until with_up() says otherwise. Errors: too_few_points for fewer than 2 keys,
  /// non_finite for a key with a NaN or infinite position or view direction; the path
  /// factories' (Path::kochanek_bartels, Path::from_hermite_keys) pass through, and
  /// MeasuredPath::build's with their code (out_of_range for keys that all coincide).
  static Expected<CameraRig> build(const std::vector<CameraKey<S>>& keys, TimeProfile<S> profile,
                                   const CameraRigSettings<S>& settings = {}) {
    if (keys.size() < 2)
      return make_error(
          ErrorCode::too_few_points,
          "camera keys: " + detail::number_text(keys.size()) + " given, at least 2 needed");
    std::vector<Vector3<S>> points;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (!keys[i].position.allFinite() || !keys[i].view_direction.allFinite())
        return make_error(ErrorCode::non_finite,
                          "camera key " + detail::number_text(i) + ": non-finite");
      points.push_back(keys[i].position);
    }
    const bool closed = settings.closure == Closure::closed;
    auto spline = Path<S, 3>::kochanek_bartels(points, settings.shape, settings.closure);
    if (!spline) return spline.error();
    if (settings.tangents == CameraTangents::view_direction) {
      const std::size_t n = keys.size();
      std::vector<Vector3<S>> key_tangents;
      for (std::size_t i = 0; i < n; ++i) {
        const Vector3<S> catmull = spline->evaluate(S(static_cast<double>(i))).tangent;
        // A zero direction keeps the spline's tangent; normalized_or keeps any other's digits
        // (directions of 1e200 or 1e-200 overflowed or vanished in their norm).
        const Vector3<S> direction =
            normalized_or(keys[i].view_direction, Vector3<S>(Vector3<S>::Zero()));
        if (!(direction.squaredNorm() > S(0))) {
          key_tangents.push_back(catmull);
          continue;
        }
        const bool has_prev = closed || i > 0, has_next = closed || i + 1 < n;
        S chord = S(0);
        int count = 0;
        if (has_prev) chord += (points[i] - points[(i + n - 1) % n]).norm(), ++count;
        if (has_next) chord += (points[(i + 1) % n] - points[i]).norm(), ++count;
        key_tangents.push_back(direction * (chord / S(count)));
      }
      spline = Path<S, 3>::from_hermite_keys(points, key_tangents, settings.closure);
      if (!spline) return spline.error();
    }
    auto path = MeasuredPath<S>::build(std::move(*spline), settings.arc_length);
    if (!path) return make_error(path.error().code, "camera " + path.error().message);
    CameraRig rig(std::move(*path), std::move(profile));
    for (const auto& key : keys)
      rig.view_directions_.push_back(key.view_direction);
    return rig;
  }

  /// The same rig with another up source (e.g. UpSource::rotation_minimizing(rig.path())), which
  /// must fit the rig's path. Errors: UpSource::check_fits' (mismatched_topology), with its code.
  Expected<CameraRig> with_up(UpSource<S> up) const {
    if (auto error = up.check_fits(path_))
      return make_error(error->code, "camera up: " + error->message);
    CameraRig copy = *this;
    copy.up_ = std::move(up);
    return copy;
  }

  /// The same rig looking at a fixed point instead of along the keyed directions (in place of any
  /// look-at path). Where the camera stands on it (or it is not finite) the frame looks along +z,
  /// look_at's fallback for a zero direction.
  CameraRig look_at_point(const Vector3<S>& target) const {
    CameraRig copy = *this;
    copy.target_ = target;
    copy.target_path_ = std::nullopt;
    return copy;
  }

  /// The same rig looking at a target moving along a second path (in place of any fixed point):
  /// at each time it sits at the same fraction of that path's arc length as the camera's profile
  /// gives (E(t)), so both arrive together. The path is shared, not copied.
  CameraRig look_at_path(MeasuredPath<S> target_path) const {
    CameraRig copy = *this;
    copy.target_ = std::nullopt;
    copy.target_path_.emplace(std::move(target_path));
    return copy;
  }

  /// The camera's path through the keys, measured (distances in world units).
  const MeasuredPath<S>& path() const noexcept { return path_; }
  /// Where the camera's up comes from (world +Y unless with_up() changed it).
  const UpSource<S>& up_source() const noexcept { return up_; }
  /// The distance–time curve that at(time) moves the camera by.
  const TimeProfile<S>& profile() const noexcept { return profile_; }

  /// The camera at `time` (seconds) on its profile (sample(path(), profile(), time, up_source())):
  /// the motion sample, and a frame looking along the view direction, which is interpolated
  /// between the keys by the path parameter (slerp of unit directions, the path tangent at a key
  /// standing in for a direction it lacks), or towards the look-at target.
  CameraShot<S> at(S time) const noexcept {
    const MotionSample<S> motion = sample(path_, profile_, time, up_);
    return shot(motion, profile_.at(time).value);
  }

  /// The camera driven along its path by a jerk-limited trajectory instead of the profile: the
  /// trajectory's position is the distance along the path (a dolly move planned, and replanned
  /// from its current state when the director retargets it: JerkTrajectory::state_at, then
  /// to_position from there keeps velocity and acceleration continuous). A look-at path is
  /// followed at the same fraction of its length as the camera has come along the current lap
  /// of a closed path (the target starts its path again with each lap), or of an open one.
  CameraShot<S> at(const JerkTrajectory<S>& trajectory, S time) const noexcept {
    const MotionSample<S> motion = sample(path_, trajectory, time, up_);
    // A lap completed (a distance of exactly k laps, k > 0) is the end of the look-at path.
    S along = path_.wrap_or_clamp(motion.distance);
    if (!(along > S(0)) && motion.distance > S(0)) along = path_.length();
    return shot(motion, along / path_.length());
  }

 private:
  // The frame for a motion sample; `fraction` of the way along a look-at path.
  CameraShot<S> shot(const MotionSample<S>& motion, S fraction) const noexcept {
    CameraShot<S> shot;
    shot.motion = motion;
    Vector3<S> forward = shot.motion.tangent;
    if (target_) {
      forward = *target_ - shot.motion.position;
    } else if (target_path_) {
      forward = target_path_->point_at(fraction * target_path_->length()) - shot.motion.position;
    } else {
      const auto [segment, u] = path_.path().locate(shot.motion.parameter);
      const std::size_t n = view_directions_.size();
      const Vector3<S> a = direction_or_tangent(segment);
      const Vector3<S> b = direction_or_tangent((segment + 1) % n);
      forward = slerp(a, b, u);
    }
    shot.frame = look_at(
        shot.motion.position, forward,
        up_.up_at(shot.motion.distance, path_.length(), shot.motion.position, shot.motion.tangent));
    return shot;
  }

  CameraRig(MeasuredPath<S> path, TimeProfile<S> profile)
      : path_(std::move(path)), profile_(std::move(profile)), up_(UpSource<S>::world().value()) {}

  // The keyed direction of a key, or the path tangent at that key.
  Vector3<S> direction_or_tangent(std::size_t key) const noexcept {
    Vector3<S> d = normalized_or(view_directions_[key], Vector3<S>(Vector3<S>::Zero()));
    if (d.squaredNorm() > S(0)) return d;
    return path_.path().unit_tangent(S(static_cast<double>(key)));
  }

  static Vector3<S> slerp(const Vector3<S>& a, const Vector3<S>& b, S u) noexcept {
    const S angle = detail::angle_between(a, b);
    if (!(angle > S(1e-6))) return ((S(1) - u) * a + u * b).normalized();
    const S sa = std::sin(angle);
    if (!(sa > S(1e-6)))
      return (S(1) - u) * a + u * b;  // opposite keys: look_at's fallback decides
    return (std::sin((S(1) - u) * angle) / sa) * a + (std::sin(u * angle) / sa) * b;
  }

  MeasuredPath<S> path_;
  TimeProfile<S> profile_;
  UpSource<S> up_;
  std::vector<Vector3<S>> view_directions_;
  std::optional<Vector3<S>> target_;
  std::optional<MeasuredPath<S>> target_path_;
};

}  // namespace tractrix
