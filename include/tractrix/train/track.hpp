// Track: a path built once with its exact arc-length table and an up source, queried by distance.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "tractrix/curve/arc_length.hpp"
#include "tractrix/frame/up_source.hpp"

namespace tractrix {

template <class S>
class Track {
 public:
  // A point on the track at a distance: position, unit tangent, and the path parameter.
  struct Sample {
    Vector3<S> point;
    Vector3<S> tangent;
    S parameter;
  };

  // Without an up source the track uses world +Y. samples_per_segment sets the table's density:
  // the Hermite inverse that places bogies errs as O(h⁴) in its spacing.
  static Expected<Track> build(Path<S, 3> path, std::optional<UpSource<S>> up = std::nullopt,
                               int samples_per_segment = 16) {
    auto table = ArcLengthTable<S>::build(path, samples_per_segment);
    if (!table) return table.error();
    if (!(table->length() > S(0))) return make_error(ErrorCode::out_of_range, "track: zero length");
    if (!up) {
      up = UpSource<S>::world().value();
    }
    // A rail matched along a loop must be a loop too (and an open one open): otherwise the bank
    // jumps where one wraps and the other does not.
    if (const Path<S, 3>* rail = up->rail_path(); rail && rail->closed() != path.closed())
      return make_error(ErrorCode::mismatched_topology,
                        std::string("track: the rail is ") + (rail->closed() ? "closed" : "open") +
                            " but the track is " + (path.closed() ? "closed" : "open"));
    return Track(std::move(path), std::move(*table), std::move(*up));
  }

  const Path<S, 3>& path() const noexcept { return path_; }
  const ArcLengthTable<S>& table() const noexcept { return table_; }
  const UpSource<S>& up_source() const noexcept { return up_; }
  S length() const noexcept { return table_.length(); }
  bool closed() const noexcept { return path_.closed(); }

  // Point and unit tangent at distance s (wrapped on loops, clamped on open track), through the
  // table's quintic Hermite inverse, Newton-polished where needed (ArcLengthTable::
  // parameter_at_exact: within 1e-12 of the length); cursor as in parameter_at_hermite.
  Sample sample(S s, std::size_t& cursor) const noexcept {
    const S t = table_.parameter_at_exact(s, cursor);
    const auto pt = path_.evaluate(t);
    const S speed = pt.tangent.norm();
    // Below 64 eps of the length the tangent's direction is rounding noise (or 0 at a cusp).
    if (speed > S(64) * epsilon<S>() * length()) return {pt.point, pt.tangent * (S(1) / speed), t};
    return {pt.point, path_.unit_tangent(t), t};
  }

  // As sample, but open track continues straight along its end tangents past either end.
  Sample sample_extended(S s, std::size_t& cursor) const noexcept {
    if (closed() || (s >= S(0) && s <= length())) return sample(s, cursor);
    const bool before = s < S(0);
    Sample end = sample(before ? S(0) : length(), cursor);
    end.point += (before ? s : s - length()) * end.tangent;
    return end;
  }

  // Up direction at distance s for a point with this unit tangent.
  Vector3<S> up_at(S s, const Vector3<S>& point, const Vector3<S>& tangent) const noexcept {
    return up_.up_at(table_.normalize_distance(s), length(), point, tangent);
  }

  // Curvature vector dT/ds = κN at path parameter t (Path::curvature_vector).
  Vector3<S> curvature_vector(S t) const noexcept { return path_.curvature_vector(t); }

  // Curvature κ at distance s (0 where the speed vanishes); stableNorm, so a huge finite κ does
  // not overflow.
  S curvature_at(S s) const noexcept {
    std::size_t cursor = 0;
    return path_.curvature_vector(table_.parameter_at_hermite(s, cursor)).stableNorm();
  }

 private:
  Track(Path<S, 3> path, ArcLengthTable<S> table, UpSource<S> up)
      : path_(std::move(path)), table_(std::move(table)), up_(std::move(up)) {}

  Path<S, 3> path_;
  ArcLengthTable<S> table_;
  UpSource<S> up_;
};

}  // namespace tractrix
