// UpSource: where "up" comes from along a path — world up, a rail curve, or rotation-minimizing
// frames — with an optional roll profile on top. One interface for tracks and cameras.
#pragma once

#include <cmath>
#include <optional>
#include <utility>

#include "tractrix/curve/arc_length.hpp"
#include "tractrix/frame/frame.hpp"
#include "tractrix/frame/moving_frames.hpp"
#include "tractrix/frame/roll_profile.hpp"

namespace tractrix {

// How a rail point is matched to a path point.
enum class RailMatch {
  // Same fraction of each curve's own arc length: right when rail and path are drawn alike but
  // differ in length (the TrainDriver plugin used the raw spline parameter, wrong when the rail is
  // longer).
  normalized_arc_length,
  // The rail point in the path's normal plane (the rail crossing the plane through the path point
  // perpendicular to the tangent), found by Newton from the normalized match: right when the rail
  // is parameterized differently from the path.
  closest_point,
};

template <class S>
class UpSource {
 public:
  enum class Kind { world, rail, rotation_minimizing };

  // A fixed world up (default +Y; Z-up engines pass +Z).
  static Expected<UpSource> world(const Vector3<S>& up = Vector3<S>::UnitY()) {
    if (!up.allFinite()) return make_error(ErrorCode::non_finite, "world up: non-finite");
    if (!(up.norm() > S(0))) return make_error(ErrorCode::out_of_range, "world up: zero length");
    UpSource source;
    source.world_up_ = up.normalized();
    return source;
  }

  // Up = offset from the path point to the matched rail point, projected onto the normal plane.
  static Expected<UpSource> rail(const Path<S, 3>& rail_path,
                                 RailMatch match = RailMatch::normalized_arc_length) {
    auto table = ArcLengthTable<S>::build(rail_path);
    if (!table) return table.error();
    if (!(table->length() > S(0))) return make_error(ErrorCode::out_of_range, "rail: zero length");
    UpSource source;
    source.kind_ = Kind::rail;
    source.rail_.emplace(rail_path);
    source.rail_table_ = std::move(*table);
    source.rail_match_ = match;
    return source;
  }

  static Expected<UpSource> rotation_minimizing(
      const Path<S, 3>& path, const ArcLengthTable<S>& table,
      const Vector3<S>& initial_up = Vector3<S>::UnitY()) {
    auto frames = RotationMinimizingFrames<S>::build(path, table, initial_up);
    if (!frames) return frames.error();
    UpSource source;
    source.kind_ = Kind::rotation_minimizing;
    source.rmf_.emplace(std::move(*frames));
    return source;
  }

  // The same source with a roll profile applied about the tangent on top (right-handed about
  // forward: positive roll turns up towards −side).
  UpSource with_roll(RollProfile<S> roll) const {
    UpSource copy = *this;
    copy.roll_.emplace(std::move(roll));
    return copy;
  }

  Kind kind() const noexcept { return kind_; }
  // The rail of a rail source, else nullptr.
  const Path<S, 3>* rail_path() const noexcept { return rail_ ? &*rail_ : nullptr; }
  // True for world up without roll: up_at is then world_up() wherever it is asked.
  bool is_constant() const noexcept { return kind_ == Kind::world && !roll_; }
  const Vector3<S>& world_up() const noexcept { return world_up_; }

  // The up direction (unit, perpendicular to the tangent unless it had to fall back) at arc length
  // s of a path of length path_length, where the path has this point and unit tangent.
  Vector3<S> up_at(S s, S path_length, const Vector3<S>& point,
                   const Vector3<S>& unit_tangent) const noexcept {
    Vector3<S> up = world_up_;
    if (kind_ == Kind::rail)
      up = rail_up(s, path_length, point, unit_tangent);
    else if (kind_ == Kind::rotation_minimizing)
      up = rmf_->up_at(s, point, unit_tangent);
    if (roll_) {
      // Make up perpendicular first, so the roll is an angle in the normal plane.
      up = look_at(point, unit_tangent, up).up();
      up = rotate_about(up, unit_tangent, roll_->angle_at(s));
    }
    return up;
  }

  // The full frame at arc length s of a path with its table (s wrapped or clamped by the table).
  Frame<S> frame_at(const Path<S, 3>& path, const ArcLengthTable<S>& table, S s) const noexcept {
    s = table.normalize_distance(s);
    const S t = refine_parameter(path, table, s);
    const Vector3<S> point = path.point(t);
    const Vector3<S> tangent = path.unit_tangent(t);
    return look_at(point, tangent, up_at(s, table.length(), point, tangent));
  }

 private:
  Vector3<S> rail_up(S s, S path_length, const Vector3<S>& point,
                     const Vector3<S>& tangent) const noexcept {
    const S fraction = path_length > S(0) ? s / path_length : S(0);
    const S rail_length = rail_table_.length();
    S tau = refine_parameter(*rail_, rail_table_, fraction * rail_length);
    Vector3<S> rail_point = rail_->point(tau);
    if (rail_match_ == RailMatch::closest_point) {
      // Newton on g(τ) = (rail(τ) − point) · tangent, kept only while it converges.
      for (int iteration = 0; iteration < 16; ++iteration) {
        const auto at = rail_->evaluate(tau);
        const S g = (at.point - point).dot(tangent);
        const S slope = at.tangent.dot(tangent);
        if (!(std::abs(slope) > S(0))) break;
        const S next = tau - g / slope;
        if (!std::isfinite(next)) break;
        tau = rail_->closed() ? wrap(next, rail_->end_parameter())
                              : clamp_or_low(next, S(0), rail_->end_parameter());
        rail_point = rail_->point(tau);
        if (std::abs(g) <= S(4) * epsilon<S>() * rail_length) break;
      }
    }
    const Vector3<S> offset = rail_point - point;
    const Vector3<S> up = offset - offset.dot(tangent) * tangent;
    const S norm = up.norm();
    // A rail point on the tangent line gives no direction: fall back to world up.
    return norm > S(0) ? Vector3<S>(up / norm) : world_up_;
  }

  Kind kind_ = Kind::world;
  Vector3<S> world_up_ = Vector3<S>::UnitY();
  std::optional<Path<S, 3>> rail_;
  ArcLengthTable<S> rail_table_;
  RailMatch rail_match_ = RailMatch::normalized_arc_length;
  std::optional<RotationMinimizingFrames<S>> rmf_;
  std::optional<RollProfile<S>> roll_;
};

}  // namespace tractrix
