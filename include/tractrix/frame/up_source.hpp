/// @file
/// `UpSource`: where "up" comes from along a path — world up, a rail curve, or rotation-minimizing
/// frames — with an optional roll profile on top. One interface for tracks and cameras.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "tractrix/curve/measured_path.hpp"
#include "tractrix/frame/frame.hpp"
#include "tractrix/frame/moving_frames.hpp"
#include "tractrix/frame/roll_profile.hpp"

namespace tractrix {

/// How a rail point is matched to a path point.
enum class RailMatch {
  /// Same fraction of each curve's own arc length: right when rail and path are drawn alike but
  /// differ in length (the TrainDriver plugin used the raw spline parameter, wrong when the rail
  /// is longer).
  normalized_arc_length,
  /// The rail point in the path's normal plane (the rail crossing the plane through the path
  /// point perpendicular to the tangent), found by Newton from the normalized match — or from the
  /// rail's nearest point, where that lies within half the crossing found: right when the rail is
  /// parameterized differently from the path, even drawn from another start round a loop.
  closest_point,
};

/// Where the up hint along a path comes from: a fixed world up, a rail curve, or
/// rotation-minimizing frames, with an optional RollProfile on top. Copies share a rail's data
/// and the frames.
template <class S>
class UpSource {
 public:
  /// A fixed world up (default +Y; Z-up engines pass +Z), normalized. Errors: non_finite for a
  /// NaN or infinite up, out_of_range for a zero one.
  static Expected<UpSource> world(const Vector3<S>& up = Vector3<S>::UnitY()) {
    if (!up.allFinite()) return make_error(ErrorCode::non_finite, "world up: non-finite");
    if (up.isZero(S(0))) return make_error(ErrorCode::out_of_range, "world up: zero length");
    return UpSource(World{normalized_or(up, Vector3<S>(Vector3<S>::UnitY()))});
  }

  /// Up = offset from the path point to the matched rail point, projected onto the normal plane
  /// (world +Y where the rail point lies on the tangent line). The rail is measured by its caller
  /// (its table density is the caller's choice) and shared. Returns an Expected like every other
  /// source (a measured rail always makes one), so sources are built and passed on alike:
  /// Track::build(path, UpSource<S>::rail(rail)).
  static Expected<UpSource> rail(MeasuredPath<S> rail_path,
                                 RailMatch match = RailMatch::normalized_arc_length) {
    return UpSource(Rail{std::move(rail_path), match});
  }
  /// The rail the step before measured; its error passes through.
  static Expected<UpSource> rail(Expected<MeasuredPath<S>> rail_path,
                                 RailMatch match = RailMatch::normalized_arc_length) {
    if (!rail_path) return rail_path.error();
    return rail(std::move(*rail_path), match);
  }

  /// Rotation-minimizing frames along `path` at 16 parameters a segment, from `initial_up` at
  /// distance 0. Errors: non_finite for a NaN or infinite initial_up.
  static Expected<UpSource> rotation_minimizing(
      const MeasuredPath<S>& path, const Vector3<S>& initial_up = Vector3<S>::UnitY()) {
    return rotation_minimizing(RotationMinimizingFrames<S>::build(path, initial_up));
  }
  /// Rotation-minimizing frames built at any density (RotationMinimizingFrames::build's
  /// per_segment); their error passes through.
  static Expected<UpSource> rotation_minimizing(Expected<RotationMinimizingFrames<S>> frames) {
    if (!frames) return frames.error();
    return UpSource(
        MinimalTwist{std::make_shared<const RotationMinimizingFrames<S>>(std::move(*frames))});
  }

  /// The same source with a roll profile applied about the tangent on top (right-handed about
  /// forward: positive roll turns up towards −side), in place of any roll it had.
  UpSource with_roll(RollProfile<S> roll) const {
    UpSource copy = *this;
    copy.roll_.emplace(std::move(roll));
    return copy;
  }

  /// Whether this source can give up vectors along `path`: a rail must be open or closed like the
  /// path (otherwise the bank jumps where one wraps and the other does not), and
  /// rotation-minimizing frames must have been built on the same curve (same closure and length;
  /// a copy of the path, or the same curve measured at another density). std::nullopt if it
  /// fits, else a mismatched_topology error naming what differs.
  [[nodiscard]] std::optional<Error> check_fits(const MeasuredPath<S>& path) const {
    if (const MeasuredPath<S>* rail = rail_path(); rail && rail->closed() != path.closed())
      return make_error(ErrorCode::mismatched_topology,
                        std::string("the rail is ") + (rail->closed() ? "closed" : "open") +
                            " but the path is " + (path.closed() ? "closed" : "open"));
    if (const RotationMinimizingFrames<S>* rmf = frames()) {
      const MeasuredPath<S>& own = rmf->path();
      using std::abs;
      // Exact tables of one curve agree to 1e-12 of the length at any density in double, 64 eps
      // in float (not double's 1e-12 scaled by the epsilons: in float that lets frames built on a
      // visibly different curve through).
      const S tolerance = S(8) * std::max(S(1e-12), S(64) * detail::epsilon<S>()) * path.length();
      if (own.closed() != path.closed() || !(abs(own.length() - path.length()) <= tolerance))
        return make_error(ErrorCode::mismatched_topology,
                          "the rotation-minimizing frames were built on another path (length " +
                              detail::number_text(own.length()) + ", " +
                              (own.closed() ? "closed" : "open") + "; this one " +
                              detail::number_text(path.length()) + ", " +
                              (path.closed() ? "closed" : "open") + ")");
    }
    return std::nullopt;
  }

  /// The rail of a rail source, else nullptr.
  const MeasuredPath<S>* rail_path() const noexcept {
    const Rail* rail = std::get_if<Rail>(&kind_);
    return rail ? &rail->path : nullptr;
  }
  /// The rotation-minimizing frames of such a source, else nullptr.
  const RotationMinimizingFrames<S>* frames() const noexcept {
    const MinimalTwist* twist = std::get_if<MinimalTwist>(&kind_);
    return twist ? twist->frames.get() : nullptr;
  }
  /// True for world up without roll: up_at is then world_up() wherever it is asked.
  bool is_constant() const noexcept { return std::holds_alternative<World>(kind_) && !roll_; }
  /// The world up of a world source (unit); +Y, the fallback, for the other kinds.
  const Vector3<S>& world_up() const noexcept {
    const World* world = std::get_if<World>(&kind_);
    return world ? world->up : fallback();
  }

  /// The unit up hint at arc length s of a path of length path_length, where the path has this
  /// point and unit tangent: look_at(point, tangent, hint) is the frame. Rail, rotation-minimizing
  /// and rolled sources give it perpendicular to the tangent (unless a rail had to fall back);
  /// world up is given as it is.
  Vector3<S> up_at(S s, S path_length, const Vector3<S>& point,
                   const Vector3<S>& unit_tangent) const noexcept {
    Vector3<S> up = fallback();
    if (const World* world = std::get_if<World>(&kind_))
      up = world->up;
    else if (const Rail* rail = std::get_if<Rail>(&kind_))
      up = rail_up(*rail, s, path_length, point, unit_tangent);
    else if (const MinimalTwist* twist = std::get_if<MinimalTwist>(&kind_))
      up = twist->frames->up_at(s, point, unit_tangent);
    if (roll_) {
      // Make up perpendicular first, so the roll is an angle in the normal plane.
      up = look_at(point, unit_tangent, up).up();
      up = rotate_about(up, unit_tangent, roll_->angle_at(s));
    }
    return up;
  }

  /// The full frame at distance s along `path` (wrapped or clamped to it, NaN as 0), a path this
  /// source fits (check_fits): origin on the path, forward its unit tangent, up from this
  /// source.
  Frame<S> frame_at(const MeasuredPath<S>& path, S s) const noexcept {
    std::size_t cursor = 0;
    return frame_at(path, s, cursor);
  }
  /// The same, with the table cursor of a sweep (ArcLengthTable::parameter_at): the same frame,
  /// found in O(1) when s moves a little from the last query.
  Frame<S> frame_at(const MeasuredPath<S>& path, S s, std::size_t& cursor) const noexcept {
    s = path.wrap_or_clamp(s);
    const auto at = path.sample(s, cursor);
    Frame<S> frame;
    detail::look_at_unit(frame, at.point, at.tangent,
                         up_at(s, path.length(), at.point, at.tangent));
    return frame;
  }

 private:
  struct World {
    Vector3<S> up;
  };
  struct Rail {
    MeasuredPath<S> path;
    RailMatch match;
  };
  struct MinimalTwist {
    std::shared_ptr<const RotationMinimizingFrames<S>> frames;  // shared by copies
  };
  using Kind = std::variant<World, Rail, MinimalTwist>;

  explicit UpSource(Kind kind) : kind_(std::move(kind)) {}

  Vector3<S> rail_up(const Rail& rail, S s, S path_length, const Vector3<S>& point,
                     const Vector3<S>& tangent) const noexcept {
    const Path<S, 3>& curve = rail.path.path();
    const S fraction = path_length > S(0) ? s / path_length : S(0);
    const S rail_length = rail.path.length();
    const S tau = rail.path.parameter_at(fraction * rail_length);
    Vector3<S> rail_point;
    if (rail.match == RailMatch::normalized_arc_length) {
      rail_point = curve.point(tau);
    } else {
      rail_point = plane_crossing(curve, tau, point, tangent, rail_length);
      // From the normalized match Newton may reach a crossing of the normal plane across a loop
      // (a rail drawn from another start: up would point over the loop). Where a rail point lies
      // within half that crossing's distance, Newton again from the nearest rail point, keeping
      // the nearer crossing. The bounded search is a descent of the rail's box tree.
      const S crossing2 = (rail_point - point).squaredNorm();
      if (const auto nearer = rail.path.closest_point_within(point, S(0.25) * crossing2)) {
        const Vector3<S> other =
            plane_crossing(curve, nearer->parameter, point, tangent, rail_length);
        if ((other - point).squaredNorm() < crossing2) rail_point = other;
      }
    }
    const Vector3<S> offset = rail_point - point;
    const Vector3<S> up = offset - offset.dot(tangent) * tangent;
    const S norm = up.norm();
    // A rail point on the tangent line gives no direction: fall back to world +Y.
    return norm > S(0) ? Vector3<S>(up / norm) : fallback();
  }

  // Where the rail crosses the normal plane of (point, tangent), by Newton on
  // g(τ) = (rail(τ) − point) · tangent from τ, kept only while it converges.
  static Vector3<S> plane_crossing(const Path<S, 3>& curve, S tau, const Vector3<S>& point,
                                   const Vector3<S>& tangent, S rail_length) noexcept {
    Vector3<S> rail_point = curve.point(tau);
    for (int iteration = 0; iteration < 16; ++iteration) {
      const auto at = curve.evaluate(tau);
      const S g = (at.point - point).dot(tangent);
      const S slope = at.tangent.dot(tangent);
      if (!(std::abs(slope) > S(0))) break;
      const S next = tau - g / slope;
      if (!std::isfinite(next)) break;
      tau = curve.closed() ? detail::wrap(next, curve.end_parameter())
                           : detail::clamp_or_low(next, S(0), curve.end_parameter());
      rail_point = curve.point(tau);
      if (std::abs(g) <= S(4) * detail::epsilon<S>() * rail_length) break;
    }
    return rail_point;
  }

  static const Vector3<S>& fallback() noexcept {
    static const Vector3<S> y = Vector3<S>::UnitY();
    return y;
  }

  Kind kind_;
  std::optional<RollProfile<S>> roll_;
};

}  // namespace tractrix
