// Track: a measured path and an up source, queried by distance. Copies share the path, its table
// and any rotation-minimizing frames, so one track serves any number of trains.
#pragma once

#include <string>
#include <utility>

#include "tractrix/curve/measured_path.hpp"
#include "tractrix/frame/up_source.hpp"

namespace tractrix {

template <class S>
class Track {
 public:
  using Sample = typename MeasuredPath<S>::Sample;

  // World +Y unless an up source is given. The path's table density (ArcLengthSettings) sets how
  // often the Hermite inverse that places bogies needs a Newton step, never its accuracy.
  static Expected<Track> build(MeasuredPath<S> path,
                               UpSource<S> up = UpSource<S>::world().value()) {
    // A rail matched along a loop must be a loop too (and an open one open): otherwise the bank
    // jumps where one wraps and the other does not.
    if (const MeasuredPath<S>* rail = up.rail_path(); rail && rail->closed() != path.closed())
      return make_error(ErrorCode::mismatched_topology,
                        std::string("track: the rail is ") + (rail->closed() ? "closed" : "open") +
                            " but the track is " + (path.closed() ? "closed" : "open"));
    return Track(std::move(path), std::move(up));
  }
  // The result of MeasuredPath::build; its error, if it holds one, passes through.
  static Expected<Track> build(Expected<MeasuredPath<S>> path,
                               UpSource<S> up = UpSource<S>::world().value()) {
    if (!path) return path.error();
    return build(std::move(*path), std::move(up));
  }

  const MeasuredPath<S>& path() const noexcept { return path_; }
  const UpSource<S>& up_source() const noexcept { return up_; }
  S length() const noexcept { return path_.length(); }
  bool closed() const noexcept { return path_.closed(); }

  // Point and unit tangent at distance s (wrapped on loops, clamped on open track), exact to 1e-12
  // of the length (MeasuredPath::sample); cursor as in ArcLengthTable::parameter_at.
  Sample sample(S s, std::size_t& cursor) const noexcept { return path_.sample(s, cursor); }
  // As sample, but open track continues straight along its end tangents past either end.
  Sample sample_extended(S s, std::size_t& cursor) const noexcept {
    return path_.sample_extended(s, cursor);
  }

  // Up direction at distance s for a point with this unit tangent.
  Vector3<S> up_at(S s, const Vector3<S>& point, const Vector3<S>& tangent) const noexcept {
    return up_.up_at(path_.wrap_or_clamp(s), length(), point, tangent);
  }
  // The frame at distance s: forward along the track, up from the up source.
  Frame<S> frame_at(S s) const noexcept { return up_.frame_at(path_, s); }

 private:
  Track(MeasuredPath<S> path, UpSource<S> up) : path_(std::move(path)), up_(std::move(up)) {}

  MeasuredPath<S> path_;
  UpSource<S> up_;
};

}  // namespace tractrix
