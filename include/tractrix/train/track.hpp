/// @file
/// `Track`: a measured path and an up source, queried by distance; the single-path track of the
/// track concept (train/track_concept.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "tractrix/core/caller_arrays.hpp"
#include "tractrix/curve/compiled_path.hpp"
#include "tractrix/curve/measured_path.hpp"
#include "tractrix/frame/up_source.hpp"
#include "tractrix/train/wagon.hpp"

namespace tractrix {

/// A measured path and an up source, queried by distance s in the path's units from its start
/// (wrapped on loops, clamped on open track). Copies share the path, its table and any
/// rotation-minimizing frames, so one track serves any number of trains.
template <class S>
class Track {
 public:
  using Sample = typename MeasuredPath<S>::Sample;  ///< point, unit tangent and path parameter
  using Cursor = std::size_t;  ///< a table entry (ArcLengthTable::parameter_at); any value is safe

  /// A track on `path` with world +Y up unless an up source is given, which must fit the path
  /// (UpSource::check_fits: its mismatched_topology error, prefixed "track: ", otherwise). The
  /// path's table density (ArcLengthSettings) sets how often the Hermite inverse that places
  /// bogies needs a Newton step (at the automatic density only where 256 intervals a segment do
  /// not suffice: cusps, near-repeated keys, zero end tangents), never its accuracy.
  static Expected<Track> build(MeasuredPath<S> path,
                               UpSource<S> up = UpSource<S>::world().value()) {
    if (auto error = up.check_fits(path))
      return make_error(error->code, "track: " + error->message);
    return Track(std::move(path), std::move(up));
  }
  /// The result of MeasuredPath::build; its error, if it holds one, passes through.
  static Expected<Track> build(Expected<MeasuredPath<S>> path,
                               UpSource<S> up = UpSource<S>::world().value()) {
    if (!path) return path.error();
    return build(std::move(*path), std::move(up));
  }
  /// A track from a measured path and an up source that may each hold an error; either step's
  /// error passes through (the path's first).
  static Expected<Track> build(Expected<MeasuredPath<S>> path, Expected<UpSource<S>> up) {
    if (!path) return path.error();
    if (!up) return make_error(up.error().code, "track: " + up.error().message);
    return build(std::move(*path), std::move(*up));
  }

  /// This track sampling through a CompiledPath of its measured path: polynomials in the
  /// distance, so a sample is one cell found by index and two Horner sums instead of a table
  /// search, an inverse and De Casteljau — a quarter of the instructions per sample on gentle
  /// track (`benchmarks/README.md`, "Compiled tracks"). Positions stay within the measured path's
  /// 1e-12·length (CompiledPath's accuracy); samples give the same point, tangent and
  /// parameter to that accuracy, so trains, kinematics and frames run unchanged. Costs a build
  /// (2.9–8.3× the table's) and cells beside the table; copies share both.
  Track compiled() const {
    Track out = *this;
    if (!out.compiled_) out.compiled_ = CompiledPath<S>::build(path_);
    return out;
  }
  /// The compiled path behind sample, or null for a track that samples its measured path.
  const CompiledPath<S>* compiled_path() const noexcept {
    return compiled_ ? &*compiled_ : nullptr;
  }
  /// The distances of the path's knots, where its curvature may jump: each segment's start,
  /// ascending from 0 (what compiled chord offsets split their cells at).
  std::vector<S> knot_distances() const {
    std::vector<S> knots;
    for (std::size_t i = 0; i < path_.path().size(); ++i)
      knots.push_back(path_.distance_at(static_cast<S>(i)));
    return knots;
  }

  /// The measured path the track runs along.
  const MeasuredPath<S>& path() const noexcept { return path_; }
  /// Where the track's up comes from.
  const UpSource<S>& up_source() const noexcept { return up_; }
  /// The track's length (> 0).
  S length() const noexcept { return path_.length(); }
  /// Whether the track is a loop.
  bool closed() const noexcept { return path_.closed(); }

  /// Point and unit tangent at distance s (wrapped on loops, clamped on open track), exact to
  /// 1e-12 of the length, or of the table's length_scale where larger, on a Gauss–Legendre table
  /// (MeasuredPath::sample; CompiledPath::sample on a compiled track); cursor as in
  /// ArcLengthTable::parameter_at, or a cell of the compiled path.
  Sample sample(S s, std::size_t& cursor) const noexcept {
    if (compiled_) return compiled_->sample(s, cursor);
    return path_.sample(s, cursor);
  }
  /// As sample, but open track continues straight along its end tangents past either end.
  Sample sample_extended(S s, std::size_t& cursor) const noexcept {
    if (compiled_) return compiled_->sample_extended(s, cursor);
    return path_.sample_extended(s, cursor);
  }

  /// The unit up hint at distance s (wrapped or clamped) for a point with this unit tangent
  /// (UpSource::up_at: not made perpendicular to the tangent for world up).
  Vector3<S> up_at(S s, const Vector3<S>& point, const Vector3<S>& tangent) const noexcept {
    return up_.up_at(path_.wrap_or_clamp(s), length(), point, tangent);
  }
  /// The same at a sample of this track (TrainSolver's interface, shared with Route).
  Vector3<S> up_at(S s, const Sample& at) const noexcept { return up_at(s, at.point, at.tangent); }
  /// World up if the up source is a constant one (up_at is then the same everywhere), else null.
  const Vector3<S>* constant_up() const noexcept {
    return up_.is_constant() ? &up_.world_up() : nullptr;
  }
  /// Curvature vector κN at a sample, in 1/length (Path::curvature_vector at its parameter).
  Vector3<S> curvature_vector(const Sample& at) const noexcept {
    return path_.path().curvature_vector(at.parameter);
  }
  /// Where s lies: a single track is piece 0, and the distance is the one asked for.
  PiecePlace<S> place(S s, const Sample&) const noexcept { return {0, s}; }
  /// The size of the numbers a solver on this track works with: its length or its largest
  /// coordinate, whichever is larger. Far from the origin a float step is eps · that coordinate.
  S coordinate_scale() const noexcept { return std::max(path_.length(), path_.path().extent()); }

  /// The frame at distance s: origin on the track, forward along it, up from the up source.
  Frame<S> frame_at(S s) const noexcept { return up_.frame_at(path_, s); }
  /// The frames at `count` distances, written straight into the caller's pose records (engine
  /// layout and axes): the same frames as frame_at one by one, at the cost of a sweep (sorted
  /// distances walk the table from one entry to the next). An array that cannot take `count`
  /// poses, or null distances, is the returned error and nothing is written; std::nullopt on
  /// success (and for an empty pose array, which writes nothing).
  template <class T>
  [[nodiscard]] std::optional<Error> frames_at(
      const S* distances, std::size_t count, const PoseArray<T>& poses,
      const EngineAxes& axes = EngineAxes::tractrix()) const {
    if (auto error = detail::output_error("poses", poses, count, "pose")) return error;
    if (auto error = detail::distances_error(distances, count)) return error;
    if (poses.count == 0) return std::nullopt;  // no part wanted
    std::size_t cursor = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const Frame<S> frame = up_.frame_at(path_, distances[i], cursor);
      poses.write(i, frame.origin, frame.rotation, axes);
    }
    return std::nullopt;
  }

 private:
  Track(MeasuredPath<S> path, UpSource<S> up) : path_(std::move(path)), up_(std::move(up)) {}

  // A network hands its pieces their compiled forms held in one block (Network::compiled).
  template <class>
  friend class Network;
  Track with_compiled(CompiledPath<S> compiled) const {
    Track out = *this;
    out.compiled_ = std::move(compiled);
    return out;
  }

  MeasuredPath<S> path_;
  UpSource<S> up_;
  std::optional<CompiledPath<S>> compiled_;  // compiled(): what sample reads instead of path_
};

}  // namespace tractrix
