// CameraRig: the camera-animation lecture's camera — keyed positions and view directions on a
// Hermite path
// ("where?"), a distance–time curve ("when?") — returning the camera frame and its motion.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tractrix/motion/motion_sample.hpp"

namespace tractrix {

template <class S>
struct CameraKey {
  Vector3<S> position;
  Vector3<S> view_direction = Vector3<S>::Zero();  // zero: look where the path goes
};

enum class CameraTangents {
  view_direction,  // path tangents along the keyed view directions, scaled by the chord length
  catmull_rom,     // Kochanek–Bartels tangents from neighbouring keys (Catmull–Rom with the
                   // default shape); view directions only steer the view
};

template <class S>
struct CameraShot {
  Frame<S> frame;  // forward = view direction, up from the up source (world +Y by default)
  MotionSample<S> motion;
};

template <class S>
class CameraRig {
 public:
  // At least 2 keys, all finite. With CameraTangents::view_direction the key's tangent is its
  // unit view direction times the mean of the adjacent chords, so the direction bends the path
  // without changing its speed much; keys without a view direction use the Catmull–Rom tangent.
  static Expected<CameraRig> build(const std::vector<CameraKey<S>>& keys, TimeProfile<S> profile,
                                   CameraTangents tangents = CameraTangents::view_direction,
                                   bool closed = false,
                                   std::optional<UpSource<S>> up = std::nullopt,
                                   const KochanekBartels<S>& shape = {}) {
    if (keys.size() < 2)
      return make_error(ErrorCode::too_few_points, "camera keys: " + std::to_string(keys.size()) +
                                                       " given, at least 2 needed");
    std::vector<Vector3<S>> points;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (!keys[i].position.allFinite() || !keys[i].view_direction.allFinite())
        return make_error(ErrorCode::non_finite,
                          "camera key " + std::to_string(i) + ": non-finite");
      points.push_back(keys[i].position);
    }
    auto spline = Path<S, 3>::kochanek_bartels(points, shape, closed);
    if (!spline) return spline.error();
    if (tangents == CameraTangents::view_direction) {
      const std::size_t n = keys.size();
      std::vector<Vector3<S>> key_tangents;
      for (std::size_t i = 0; i < n; ++i) {
        const Vector3<S> catmull = spline->evaluate(S(static_cast<double>(i))).tangent;
        const S direction_norm = keys[i].view_direction.norm();
        if (!(direction_norm > S(0))) {
          key_tangents.push_back(catmull);
          continue;
        }
        const bool has_prev = closed || i > 0, has_next = closed || i + 1 < n;
        S chord = S(0);
        int count = 0;
        if (has_prev) chord += (points[i] - points[(i + n - 1) % n]).norm(), ++count;
        if (has_next) chord += (points[(i + 1) % n] - points[i]).norm(), ++count;
        key_tangents.push_back(keys[i].view_direction / direction_norm * (chord / S(count)));
      }
      spline = Path<S, 3>::from_hermite_keys(points, key_tangents, closed);
      if (!spline) return spline.error();
    }
    auto table = ArcLengthTable<S>::build(*spline);
    if (!table) return table.error();
    if (!(table->length() > S(0)))
      return make_error(ErrorCode::out_of_range, "camera path: zero length");
    if (!up) up = UpSource<S>::world().value();
    CameraRig rig(std::move(*spline), std::move(*table), std::move(profile), std::move(*up));
    for (const auto& key : keys)
      rig.view_directions_.push_back(key.view_direction);
    return rig;
  }

  // A fixed point to look at instead of the keyed directions.
  CameraRig look_at_point(const Vector3<S>& target) const {
    CameraRig copy = *this;
    copy.target_ = target;
    copy.target_path_ = std::nullopt;
    return copy;
  }

  // A target moving along a second path: at each time it sits at the same fraction of that path's
  // arc length as the camera's profile gives (E(t)), so both arrive together.
  Expected<CameraRig> look_at_path(const Path<S, 3>& target_path) const {
    auto table = ArcLengthTable<S>::build(target_path);
    if (!table) return table.error();
    CameraRig copy = *this;
    copy.target_ = std::nullopt;
    copy.target_path_.emplace(target_path);
    copy.target_table_ = std::move(*table);
    return copy;
  }

  const Path<S, 3>& path() const noexcept { return path_; }
  const ArcLengthTable<S>& table() const noexcept { return table_; }
  const TimeProfile<S>& profile() const noexcept { return profile_; }

  // The camera at `time`: the motion sample, and a frame looking along the view direction, which
  // is interpolated between the keys by the path parameter (slerp of unit directions), the path
  // tangent where a key has none, or towards the look-at target.
  CameraShot<S> at(S time) const noexcept {
    CameraShot<S> shot;
    shot.motion = sample(path_, table_, profile_, time, up_);
    Vector3<S> forward = shot.motion.tangent;
    if (target_) {
      forward = *target_ - shot.motion.position;
    } else if (target_path_) {
      const S fraction = profile_.at(time).value;
      const S t = refine_parameter(*target_path_, target_table_, fraction * target_table_.length());
      forward = target_path_->point(t) - shot.motion.position;
    } else {
      const auto [segment, u] = path_.locate(shot.motion.parameter);
      const std::size_t n = view_directions_.size();
      const Vector3<S> a = direction_or_tangent(segment);
      const Vector3<S> b = direction_or_tangent((segment + 1) % n);
      forward = slerp(a, b, u);
    }
    shot.frame = look_at(shot.motion.position, forward,
                         up_.up_at(shot.motion.distance, table_.length(), shot.motion.position,
                                   shot.motion.tangent));
    return shot;
  }

 private:
  CameraRig(Path<S, 3> path, ArcLengthTable<S> table, TimeProfile<S> profile, UpSource<S> up)
      : path_(std::move(path)),
        table_(std::move(table)),
        profile_(std::move(profile)),
        up_(std::move(up)) {}

  // The keyed direction of a key, or the path tangent at that key.
  Vector3<S> direction_or_tangent(std::size_t key) const noexcept {
    const Vector3<S>& d = view_directions_[key];
    if (d.norm() > S(0)) return d.normalized();
    return path_.unit_tangent(S(static_cast<double>(key)));
  }

  static Vector3<S> slerp(const Vector3<S>& a, const Vector3<S>& b, S u) noexcept {
    const S angle = angle_between(a, b);
    if (!(angle > S(1e-6))) return ((S(1) - u) * a + u * b).normalized();
    const S sa = std::sin(angle);
    if (!(sa > S(1e-6)))
      return (S(1) - u) * a + u * b;  // opposite keys: look_at's fallback decides
    return (std::sin((S(1) - u) * angle) / sa) * a + (std::sin(u * angle) / sa) * b;
  }

  Path<S, 3> path_;
  ArcLengthTable<S> table_;
  TimeProfile<S> profile_;
  UpSource<S> up_;
  std::vector<Vector3<S>> view_directions_;
  std::optional<Vector3<S>> target_;
  std::optional<Path<S, 3>> target_path_;
  ArcLengthTable<S> target_table_;
};

}  // namespace tractrix
