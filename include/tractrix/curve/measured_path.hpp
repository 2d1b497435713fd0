/// @file
/// `MeasuredPath`: a Path and its arc-length table, built together and queried by distance. The
/// one currency of the layers above curve/: tracks, rails, rotation-minimizing frames, camera
/// paths.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "tractrix/core/caller_arrays.hpp"
#include "tractrix/curve/arc_length.hpp"
#include "tractrix/curve/closest_point.hpp"
#include "tractrix/curve/detail/past_ends.hpp"
#include "tractrix/curve/path.hpp"
#include "tractrix/curve/path_bounds.hpp"

namespace tractrix {

template <class S>
class Network;

/// A Path with its arc-length table and segment boxes, queried by distance. Immutable once
/// built. Copies share the path and the table (a reference count, no data copied), so any number
/// of tracks, trains and cameras can hold the same measured path, from any thread.
///
/// Coordinates: t is the path parameter (Path's), s the distance along the path from t = 0, and
/// s / length() the normalized distance of the camera-animation lecture. Queries by distance are
/// named *_at(s); Path's own queries take t. Closed paths wrap s and t, open paths clamp them,
/// and a NaN reads as 0.
template <class S, int D = 3>
class MeasuredPath {
 public:
  using Point = Vector<S, D>;  ///< a point or a direction

  /// A point at a distance: position, unit tangent and the path parameter it sits at.
  struct Sample {
    Point point;    ///< the path's point
    Point tangent;  ///< the unit tangent, in the direction of increasing s
    S parameter;    ///< the path parameter t of the point
  };

  /// Measures `path` (exact Gauss–Legendre table by default). A path of zero length has no
  /// direction to move in and is rejected (by the table). Errors: ArcLengthTable::build's —
  /// out_of_range for settings out of range, a zero-length path or one too small to measure in S,
  /// non_finite for a length that overflows.
  static Expected<MeasuredPath> build(Path<S, D> path, ArcLengthSettings settings = {}) {
    auto table = ArcLengthTable<S>::build(path, settings);
    if (!table) return table.error();
    PathBounds<S, D> bounds(path);
    return MeasuredPath(
        std::make_shared<const Data>(Data{std::move(path), std::move(*table), std::move(bounds)}));
  }
  /// The result of a Path factory, measured; its error, if it holds one, passes through.
  static Expected<MeasuredPath> build(Expected<Path<S, D>> path, ArcLengthSettings settings = {}) {
    if (!path) return path.error();
    return build(std::move(*path), settings);
  }

  /// The path measured.
  const Path<S, D>& path() const noexcept { return data_->path; }
  /// Its arc-length table.
  const ArcLengthTable<S>& table() const noexcept { return data_->table; }
  /// The path's length, in its coordinates' units (> 0).
  S length() const noexcept { return data_->table.length(); }
  /// Whether the path is closed (distances wrap) or open (distances clamp).
  bool closed() const noexcept { return data_->path.closed(); }

  /// Parameter at distance s (ArcLengthTable::parameter_at: exact to 1e-12 of the length on the
  /// default Gauss–Legendre table).
  S parameter_at(S s) const noexcept { return table().parameter_at(s); }
  /// parameter_at for a sweep: `cursor`, the table entry found last time, lets queries that move
  /// a little walk from it instead of searching (any value is safe; start at 0).
  S parameter_at(S s, std::size_t& cursor) const noexcept {
    return table().parameter_at(s, cursor);
  }
  /// Distance at parameter t: exact on Gauss–Legendre tables, the chords' interpolation on chord
  /// tables.
  S distance_at(S t) const noexcept { return table().distance_at(t); }
  /// The lecture's table lookup (binary search, linear interpolation): O(h²) in the entry spacing.
  S parameter_at_linear(S s) const noexcept { return table().parameter_at_linear(s); }
  /// s wrapped (closed) into [0, length()) or clamped (open) into [0, length()]; NaN gives 0.
  S wrap_or_clamp(S s) const noexcept { return table().wrap_or_clamp(s); }

  /// Point and unit tangent at distance s, `cursor` as parameter_at's. Where the speed is too
  /// small for a direction (a cusp) or its square overflows, the tangent is Path::unit_tangent's.
  Sample sample(S s, std::size_t& cursor) const noexcept {
    // Reads the members where it uses them, not through lookup(): a lookup built up front for
    // every query spills registers in the callers.
    const S t = parameter_at(s, cursor);
    Sample out;
    if (!sample_from(path().evaluate(t), t, length(), out))
      out.tangent = tangent_where_slow(path().lookup(), t);
    return out;
  }

  /// What sample reads, as plain pointers into this path's data (valid while a MeasuredPath
  /// sharing it lives): a network keeps one per piece.
  struct Lookup {
    typename ArcLengthTable<S>::Lookup table;  ///< the table's entries
    typename Path<S, D>::Lookup path;          ///< the path's segments
  };
  /// This path's Lookup, valid while a MeasuredPath sharing its data lives.
  Lookup lookup() const noexcept { return {table().lookup(), path().lookup()}; }
  /// sample(s, cursor) through a lookup: the same values.
  TRACTRIX_FORCE_INLINE static Sample sample_with(const Lookup& lookup, S s,
                                                  std::size_t& cursor) noexcept {
    const S t = lookup.table.parameter_at(s, cursor);
    Sample out;
    if (!sample_from(lookup.path.evaluate(t), t, lookup.table.length(), out))
      out.tangent = tangent_where_slow(lookup.path, t);
    return out;
  }
  /// Point and unit tangent at distance s (sample(s, cursor) with a fresh cursor).
  Sample sample(S s) const noexcept {
    std::size_t cursor = 0;
    return sample(s, cursor);
  }

  /// As sample, but an open path continues straight along its end tangents past either end (the
  /// parameter stays at the end's).
  Sample sample_extended(S s, std::size_t& cursor) const noexcept {
    S beyond;
    return detail::sample_past_ends(*this, s, cursor, beyond);
  }

  /// Points and unit tangents at `count` distances, written straight into the caller's arrays
  /// (sleepers along a track, lamp posts, particles) in the engine's axes; either array may be
  /// empty (count 0: not wanted). The same values as sample(s) one by one, at the cost of a sweep:
  /// sorted distances walk the table from one entry to the next. An array that cannot take
  /// `count` results (or a null `distances` behind a non-zero count) is named in the returned
  /// error and nothing is written; std::nullopt on success. 3-D paths.
  template <class T>
  [[nodiscard]] std::optional<Error> samples_at(
      const S* distances, std::size_t count, const VectorArray<T>& points,
      const VectorArray<T>& tangents = {}, const EngineAxes& axes = EngineAxes::tractrix()) const {
    static_assert(D == 3, "MeasuredPath::samples_at: 3-D paths");
    if (auto error = detail::output_error("points", points, count, "point")) return error;
    if (auto error = detail::output_error("tangents", tangents, count, "tangent")) return error;
    if (auto error = detail::distances_error(distances, count)) return error;
    std::size_t cursor = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const Sample at = sample(distances[i], cursor);
      if (points.count) points.write(i, at.point, axes);
      if (tangents.count) tangents.write(i, at.tangent, axes);
    }
    return std::nullopt;
  }

  /// Point at distance s.
  Point point_at(S s) const noexcept { return path().point(parameter_at(s)); }
  /// Unit tangent at distance s (Path::unit_tangent: defined through cusps).
  Point tangent_at(S s) const noexcept { return path().unit_tangent(parameter_at(s)); }
  /// Curvature vector dT/ds = κN at distance s (Path::curvature_vector), in 1/length.
  Point curvature_vector_at(S s) const noexcept { return path().curvature_vector(parameter_at(s)); }
  /// Curvature κ ≥ 0 at distance s, in 1/length (0 where the speed vanishes); stableNorm, so a
  /// huge finite κ does not overflow.
  S curvature_at(S s) const noexcept { return curvature_vector_at(s).stableNorm(); }

  /// The point of the path nearest to `query`, and its distance along the path: the global
  /// minimum over the whole path, not over samples (a track has several local minima). Each
  /// segment's candidates are the real roots of the quintic (r(u) − q)·r'(u) and its ends, found
  /// to the rounding of u; segments whose control-point box is farther than the best so far are
  /// skipped (PathBounds), so a query looks at a few segments, not all. `distance` is the
  /// distance_at of the point's parameter. Where two points of the path are equally near (a query
  /// on an axis of symmetry, at a centre of curvature) either may come back; the squared distance
  /// is the minimum either way. A non-finite query gives the path's start with a NaN
  /// squared_distance; where squared distances overflow (coordinates beyond ~1e19 in float,
  /// ~1e154 in double) every point compares equal and the start comes back.
  ClosestPoint<S, D> closest_point(const Point& query) const noexcept {
    if (!query.allFinite()) return not_finite();
    return closest_of(detail::nearest_on_path(path(), data_->bounds, query, detail::Nearest<S>{}),
                      query);
  }
  /// The same for a point that moves a little between calls: only the segments kept near the last
  /// search, while the answer stays within their radius; a global search when it jumps
  /// (ClosestPointCursor says when, and what it costs). One cursor per moving point and path.
  ClosestPoint<S, D> closest_point(const Point& query,
                                   ClosestPointCursor<S, D>& cursor) const noexcept {
    if (!query.allFinite()) return not_finite();
    return closest_of(nearest_with(query, cursor), query);
  }

  /// The nearest point as closest_point(query), but only if it lies nearer than sqrt(bound2):
  /// a search over many paths (a network's pieces) passes the best squared distance so far and
  /// skips the segments that cannot beat it. std::nullopt otherwise, and for a non-finite
  /// query.
  std::optional<ClosestPoint<S, D>> closest_point_within(const Point& query,
                                                         S bound2) const noexcept {
    if (!query.allFinite()) return std::nullopt;
    detail::Nearest<S> seed;
    seed.squared_distance = bound2;
    const auto nearest = detail::nearest_on_path(path(), data_->bounds, query, seed);
    if (!(nearest.squared_distance < bound2)) return std::nullopt;
    ClosestPoint<S, D> out = closest_of(nearest, query);
    // The point is recomputed (de Casteljau): at a tie its distance may round to the bound.
    if (!(out.squared_distance < bound2)) return std::nullopt;
    return out;
  }
  /// The boxes over the path's segments that closest_point searches.
  const PathBounds<S, D>& bounds() const noexcept { return data_->bounds; }

  /// True when both hold the same data (one was copied from the other).
  bool shares_data_with(const MeasuredPath& other) const noexcept { return data_ == other.data_; }

 private:
  // A network's search measures only the piece that wins (closest_of), not each it passes.
  template <class>
  friend class Network;
  template <class, int>
  friend class CompiledPath;

  struct Data {
    Path<S, D> path;
    ArcLengthTable<S> table;
    PathBounds<S, D> bounds;  // for closest_point
  };
  explicit MeasuredPath(std::shared_ptr<const Data> data) : data_(std::move(data)) {}

  // The sample at parameter t from its point and dr/dt; false (tangent not set) where the speed
  // is too small or too large for its direction. Inlined: every bogie runs it.
  TRACTRIX_FORCE_INLINE static bool sample_from(const PointTangent<S, D>& pt, S t, S length,
                                                Sample& out) noexcept {
    out.point = pt.point;
    out.parameter = t;
    // On raw scalars: a debug (-O0) build pays a call per Eigen operation.
    const S* tangent = pt.tangent.data();
    S speed2 = S(0);
    for (int c = 0; c < D; ++c)
      speed2 += tangent[c] * tangent[c];
    using std::sqrt;
    const S speed = sqrt(speed2);
    // Below 64 eps of the length the tangent's direction is rounding noise (or 0 at a cusp);
    // an infinite speed is a square that overflowed (coordinates near 1e154 in double).
    if (!(speed > S(64) * detail::epsilon<S>() * length && speed <= std::numeric_limits<S>::max()))
      return false;
    const S inverse = S(1) / speed;
    S* unit = out.tangent.data();
    for (int c = 0; c < D; ++c)
      unit[c] = tangent[c] * inverse;
    return true;
  }
  // sample's rare branch (Path::unit_tangent), kept out of line (TRACTRIX_NOINLINE says why).
  TRACTRIX_NOINLINE static Point tangent_where_slow(typename Path<S, D>::Lookup path,
                                                    S t) noexcept {
    return path.unit_tangent(t);
  }

  // The nearest segment point through a cursor, not yet measured (closest_of measures it).
  detail::Nearest<S> nearest_with(const Point& query, ClosestPointCursor<S, D>& cursor) const {
    return cursor.nearest(path(), data_->bounds, query, data_);
  }
  ClosestPoint<S, D> closest_of(const detail::Nearest<S>& nearest, const Point& query) const {
    ClosestPoint<S, D> out = located(nearest, query);
    out.distance = distance_at(out.parameter);
    return out;
  }
  // The answer but its distance along the path (what a compiled path measures its own way).
  ClosestPoint<S, D> located(const detail::Nearest<S>& nearest, const Point& query) const {
    ClosestPoint<S, D> out;
    out.parameter = S(nearest.segment) + nearest.u;
    if (closed() && !(out.parameter < path().end_parameter())) out.parameter = S(0);
    out.point = de_casteljau(path().segment(nearest.segment), nearest.u).point;
    out.squared_distance = (out.point - query).squaredNorm();
    return out;
  }
  ClosestPoint<S, D> not_finite() const {
    ClosestPoint<S, D> out;
    out.point = path().segment(0).points[0];
    out.squared_distance = std::numeric_limits<S>::quiet_NaN();
    return out;
  }

  std::shared_ptr<const Data> data_;
};

}  // namespace tractrix
