/// @file
/// `Path`: a piecewise cubic Bézier curve, open or closed, built from segments or from keys
/// (Hermite, Catmull–Rom, Kochanek–Bartels).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tractrix/core/assert.hpp"
#include "tractrix/core/caller_arrays.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/curve/de_casteljau.hpp"

namespace tractrix {

/// Kochanek–Bartels shape parameters (Kochanek & Bartels 1984, Eq. 8–9), the same at every key.
/// All zero is Catmull–Rom. Each must be finite; values outside [−1, 1] are taken as given.
template <class S>
struct KochanekBartels {
  S tension = S(0);  ///< +1 tightens to straight lines, −1 loosens
  S bias = S(0);     ///< +1 leans towards the incoming chord, −1 towards the outgoing one
  /// 0 keeps C1; −1 box corners (the path arrives along the chord before a key and leaves along
  /// the one after), +1 inverted corners (it overshoots).
  S continuity = S(0);
};

/// Whether a path returns to its start: a closed path adds the segment from the last key back to
/// the first and wraps its parameter; an open one clamps it.
enum class Closure {
  open,   ///< ends at its last key; the parameter is clamped to [0, size()]
  closed  ///< returns to its first key; the parameter wraps modulo size()
};

/// A piecewise cubic Bézier curve in D dimensions, open or closed. Parameter t in [0, size()]:
/// floor(t) picks the segment and t − floor(t) is the segment's own u. Closed paths wrap t, open
/// paths clamp it, and a NaN t reads as 0. Built only through the factories, which check the
/// user data and return an Expected; a Path holds at least one segment, all control points
/// finite.
template <class S, int D = 3>
class Path {
 public:
  using Point = Vector<S, D>;       ///< a point or a derivative of the curve
  using Segment = Bezier<S, D, 3>;  ///< one cubic piece, u in [0, 1]

  /// From Bézier segments. Consecutive segments must meet (and a closed path must close) within
  /// 1024·eps times the largest coordinate; such tiny gaps are snapped shut. Errors: empty_input
  /// for no segments, non_finite for a NaN or infinite control point, not_continuous for a wider
  /// gap.
  static Expected<Path> from_segments(std::vector<Segment> segments, Closure closure) {
    const bool closed = closure == Closure::closed;
    if (segments.empty()) return make_error(ErrorCode::empty_input, "segments: empty");
    S extent = S(0);
    for (std::size_t i = 0; i < segments.size(); ++i) {
      if (!detail::all_finite(segments[i]))
        return make_error(ErrorCode::non_finite,
                          "segment " + detail::number_text(i) + ": non-finite control point");
      for (const auto& p : segments[i].points)
        extent = std::max(extent, p.cwiseAbs().maxCoeff());
    }
    const S tolerance = S(1024) * detail::epsilon<S>() * extent;
    const std::size_t joints = closed ? segments.size() : segments.size() - 1;
    for (std::size_t i = 0; i < joints; ++i) {
      Segment& next = segments[(i + 1) % segments.size()];
      const S gap = (segments[i].points[3] - next.points[0]).norm();
      if (gap > tolerance)
        return make_error(ErrorCode::not_continuous,
                          "segment " + detail::number_text(i) + ": end is " +
                              detail::number_text(double(gap)) +
                              " away from the start of segment " +
                              detail::number_text((i + 1) % segments.size()) + " (tolerance " +
                              detail::number_text(double(tolerance)) + ")");
      next.points[0] = segments[i].points[3];
    }
    return Path(std::move(segments), closed);
  }

  /// From key points and their derivatives dr/dt (t advancing by 1 per segment). A closed path
  /// adds the segment from the last key back to the first. Errors: mismatched_sizes when the
  /// counts differ, empty_input or too_few_points for fewer than 2 points, non_finite for a NaN
  /// or infinite key or tangent, or tangents so large the control points overflow.
  static Expected<Path> from_hermite_keys(const std::vector<Point>& points,
                                          const std::vector<Point>& tangents, Closure closure) {
    if (points.size() != tangents.size())
      return make_error(ErrorCode::mismatched_sizes,
                        "tangents: " + detail::number_text(tangents.size()) + " for " +
                            detail::number_text(points.size()) + " points");
    if (auto error = check_points(points)) return std::move(*error);
    for (std::size_t i = 0; i < tangents.size(); ++i)
      if (!tangents[i].allFinite())
        return make_error(ErrorCode::non_finite,
                          "tangent " + detail::number_text(i) + ": non-finite");
    return from_directed_keys(points, tangents, tangents, closure == Closure::closed);
  }

  /// Catmull–Rom: the tangent at key i is (P[i+1] − P[i−1]) / 2. Open ends use the mirrored
  /// neighbour, so the end tangent is the end chord. Errors as kochanek_bartels.
  static Expected<Path> catmull_rom(const std::vector<Point>& points, Closure closure) {
    return kochanek_bartels(points, KochanekBartels<S>{}, closure);
  }

  /// Kochanek–Bartels tangents from tension, bias and continuity (uniform parameter), each key's
  /// arriving and leaving tangents from the chords before and after it. Errors: empty_input or
  /// too_few_points for fewer than 2 points, non_finite for a NaN or infinite point or shape
  /// parameter, or control points that overflow.
  static Expected<Path> kochanek_bartels(const std::vector<Point>& points,
                                         const KochanekBartels<S>& shape, Closure closure) {
    const bool closed = closure == Closure::closed;
    if (auto error = check_points(points)) return std::move(*error);
    if (!std::isfinite(shape.tension) || !std::isfinite(shape.bias) ||
        !std::isfinite(shape.continuity))
      return make_error(ErrorCode::non_finite, "kochanek_bartels: non-finite shape parameter");
    const std::size_t n = points.size();
    std::vector<Point> incoming(n), outgoing(n);
    const S t = shape.tension, b = shape.bias, c = shape.continuity;
    // The arriving tangent weighs the chord before by (1 − c), the leaving one by (1 + c).
    const S in_prev = (1 - t) * (1 + b) * (1 - c) / 2, in_next = (1 - t) * (1 - b) * (1 + c) / 2;
    const S out_prev = (1 - t) * (1 + b) * (1 + c) / 2, out_next = (1 - t) * (1 - b) * (1 - c) / 2;
    for (std::size_t i = 0; i < n; ++i) {
      Point before, after;  // chords P[i] − P[i−1] and P[i+1] − P[i]
      if (closed) {
        before = points[i] - points[(i + n - 1) % n];
        after = points[(i + 1) % n] - points[i];
      } else {
        after = i + 1 < n ? Point(points[i + 1] - points[i]) : Point(points[i] - points[i - 1]);
        before = i > 0 ? Point(points[i] - points[i - 1]) : after;
      }
      incoming[i] = in_prev * before + in_next * after;
      outgoing[i] = out_prev * before + out_next * after;
    }
    return from_directed_keys(points, incoming, outgoing, closed);
  }

  /// from_hermite_keys from an engine's own arrays (PointArray: float or double, any record size,
  /// read into tractrix's axes); 3D only. Errors also for an array that cannot be read (a null
  /// pointer behind a non-zero count, a stride shorter than a point).
  template <class T, int E = D, std::enable_if_t<E == 3, int> = 0>
  static Expected<Path> from_hermite_keys(const PointArray<T>& points,
                                          const PointArray<T>& tangents, Closure closure) {
    if (auto error = detail::array_error("points", points, "point")) return std::move(*error);
    if (auto error = detail::array_error("tangents", tangents, "tangent")) return std::move(*error);
    return from_hermite_keys(points.template to_vector<S>(), tangents.template to_vector<S>(),
                             closure);
  }
  /// catmull_rom from an engine's PointArray; 3D only (errors as from_hermite_keys' overload).
  template <class T, int E = D, std::enable_if_t<E == 3, int> = 0>
  static Expected<Path> catmull_rom(const PointArray<T>& points, Closure closure) {
    if (auto error = detail::array_error("points", points, "point")) return std::move(*error);
    return catmull_rom(points.template to_vector<S>(), closure);
  }
  /// kochanek_bartels from an engine's PointArray; 3D only (errors as from_hermite_keys'
  /// overload).
  template <class T, int E = D, std::enable_if_t<E == 3, int> = 0>
  static Expected<Path> kochanek_bartels(const PointArray<T>& points,
                                         const KochanekBartels<S>& shape, Closure closure) {
    if (auto error = detail::array_error("points", points, "point")) return std::move(*error);
    return kochanek_bartels(points.template to_vector<S>(), shape, closure);
  }

  /// The number of segments (at least 1).
  std::size_t size() const noexcept { return segments_.size(); }
  /// Whether the path returns to its start (Closure::closed).
  bool closed() const noexcept { return closed_; }
  /// Segment i (i < size(), unchecked).
  const Segment& segment(std::size_t i) const noexcept { return segments_[i]; }
  /// All segments, in order.
  const std::vector<Segment>& segments() const noexcept { return segments_; }
  /// The largest parameter value, size().
  S end_parameter() const noexcept { return end_; }
  /// The largest absolute coordinate of any control point: the magnitude rounding is relative to.
  /// Far from the origin (a float track 10⁴ units out resolves to 1e-3) tolerances scale with it.
  S extent() const noexcept { return extent_; }

  /// The same path moved by `offset`. Moving a track near the origin (e.g. by minus its first key)
  /// before measuring keeps float arithmetic at the track's own scale; add the offset back where
  /// the engine places the result (a parent transform). A non-finite offset (or one that
  /// overflows a coordinate) is a non_finite error.
  Expected<Path> translated(const Point& offset) const {
    std::vector<Segment> moved = segments_;
    for (auto& segment : moved)
      for (auto& p : segment.points)
        p += offset;
    return from_segments(std::move(moved), closed_ ? Closure::closed : Closure::open);
  }

  /// What evaluate and unit_tangent read, as a pointer to the segments and copies of the cached
  /// sizes: valid while the path lives (a copy has its own). A network keeps one per piece with
  /// its table's (ArcLengthTable::Lookup), so a bogie entering a piece reads no Path object.
  class Lookup {
   public:
    /// Path::evaluate on the path this was taken from.
    PointTangent<S, D> evaluate(S t) const noexcept {
      const auto [i, u] = Path::locate(t, end_, last_, closed_);
      return de_casteljau(segments_[i], u);
    }
    /// Path::unit_tangent on the path this was taken from.
    Point unit_tangent(S t) const noexcept {
      const auto [i, u] = Path::locate(t, end_, last_, closed_);
      return Path::unit_tangent(segments_[i], u);
    }

   private:
    friend class Path;
    const Segment* segments_ = nullptr;
    std::ptrdiff_t last_ = -1;
    S end_ = S(0);
    bool closed_ = false;
  };
  /// This path's Lookup; valid while this path lives.
  Lookup lookup() const noexcept {
    Lookup out;
    out.segments_ = segments_.data();
    out.last_ = last_;
    out.end_ = end_;
    out.closed_ = closed_;
    return out;
  }

  /// Segment index and local u in [0, 1] for a parameter: closed paths wrap t, open paths clamp
  /// it to [0, size()] (t = size() is u = 1 on the last segment); a NaN t maps to 0.
  std::pair<std::size_t, S> locate(S t) const noexcept { return locate(t, end_, last_, closed_); }

  /// Point and tangent dr/dt at t (the tangent is not normalized: its length is the speed per
  /// unit of t).
  PointTangent<S, D> evaluate(S t) const noexcept {
    const auto [i, u] = locate(t);
    return de_casteljau(segments_[i], u);
  }
  /// The point at t.
  Point point(S t) const noexcept { return evaluate(t).point; }
  /// d^k r / dt^k at t for k = order in 0..3; zero for any other order.
  Point derivative(S t, int order) const noexcept {
    const auto [i, u] = locate(t);
    return tractrix::derivative(segments_[i], u, order);
  }

  /// Unit tangent at t. Where the speed vanishes (a cusp, a zero end tangent, a zero-length
  /// segment) it is the limit of the tangent from ahead — the direction of the first non-zero
  /// higher derivative — or, at an open path's end, from behind: there r'(t) ≈ r''(end)·(t − end)
  /// points against r'' (the second derivative flips, the third does not). +x of the path's own
  /// axes if the segment is a single point.
  Point unit_tangent(S t) const noexcept {
    const auto [i, u] = locate(t);
    return unit_tangent(segments_[i], u);
  }
  /// The unit tangent at the end of segment i (i < size(), unchecked), from behind: where the
  /// path arrives at key i + 1. unit_tangent(i + 1) is where it leaves; they differ at a corner (a
  /// key without G1 continuity, Kochanek–Bartels continuity ≠ 0).
  Point end_tangent(std::size_t i) const noexcept { return unit_tangent(segments_[i], S(1)); }

  /// Curvature vector dT/ds = κN at t, in 1/length: (r'' − (r''·T) T) / |r'|² with T = r'/|r'|.
  /// Zero where the speed vanishes or is so small that κ is not representable (at a cusp the limit
  /// is unbounded).
  Point curvature_vector(S t) const noexcept {
    const auto [i, u] = locate(t);
    const Point d1 = tractrix::derivative(segments_[i], u, 1);
    const Point d2 = tractrix::derivative(segments_[i], u, 2);
    const S speed2 = d1.squaredNorm();
    if (!(speed2 > S(0))) return Point::Zero();
    const Point k = (d2 - (d2.dot(d1) / speed2) * d1) / speed2;
    return k.allFinite() ? k : Point::Zero();
  }

  /// The same curve traversed backwards: reversed().evaluate(size() − t) is evaluate(t) with the
  /// tangent negated.
  Path reversed() const {
    std::vector<Segment> backwards(segments_.rbegin(), segments_.rend());
    for (auto& s : backwards)
      std::reverse(s.points.begin(), s.points.end());
    return Path(std::move(backwards), closed_);
  }

 private:
  // locate on a path of last + 1 segments whose end parameter is `end`.
  static std::pair<std::size_t, S> locate(S t, S end, std::ptrdiff_t last, bool closed) noexcept {
    // t >= 0 below, so truncation is floor (and avoids a libm call on baseline x86-64).
    if (closed) {
      t = detail::wrap(t, end);  // t < size(), so the index is at most last
      const std::ptrdiff_t i = static_cast<std::ptrdiff_t>(t);
      TRACTRIX_ASSERT(i >= 0 && i <= last);
      return {static_cast<std::size_t>(i), t - static_cast<S>(i)};
    }
    t = detail::clamp_or_low(t, S(0), end);
    std::ptrdiff_t i = static_cast<std::ptrdiff_t>(t);
    if (i > last) i = last;  // t == size() is u = 1 on the last segment
    return {static_cast<std::size_t>(i), t - static_cast<S>(i)};
  }

  // unit_tangent at u on one segment (u = 1 only at an open path's end).
  static Point unit_tangent(const Segment& segment, S u) noexcept {
    // Half the extent, in the max norm: neither it nor its squares overflow at any finite
    // coordinates. A segment near the scalar's range (extent beyond max/64) is taken at unit
    // size, where its derivatives (up to 6 times its extent) cannot overflow; the direction is
    // the same.
    S half = S(0);
    for (const auto& p : segment.points)
      half = std::max(half, (S(0.5) * p - S(0.5) * segment.points[0]).cwiseAbs().maxCoeff());
    const bool huge = half > std::numeric_limits<S>::max() / S(128);
    Segment local = segment;
    if (huge)
      for (auto& p : local.points)
        p /= half;
    const S negligible = S(128) * detail::epsilon<S>() * (huge ? S(1) : half);
    const bool from_behind = u >= S(1);  // only an open path's end locates at u = 1
    for (int order = 1; order <= 3; ++order) {
      const Point d = tractrix::derivative(local, u, order);
      const S size = d.cwiseAbs().maxCoeff();
      if (size > negligible && size > S(0))
        return normalized_or(Point(from_behind && order == 2 ? -d : d), Point(Point::Unit(0)));
    }
    return Point::Unit(0);
  }

  Path(std::vector<Segment> segments, bool closed)
      : segments_(std::move(segments)),
        last_(static_cast<std::ptrdiff_t>(segments_.size()) - 1),
        end_(static_cast<S>(last_ + 1)),
        closed_(closed) {
    for (const auto& segment : segments_)
      for (const auto& p : segment.points)
        extent_ = std::max(extent_, p.cwiseAbs().maxCoeff());
  }

  [[nodiscard]] static std::optional<Error> check_points(const std::vector<Point>& points) {
    if (points.empty()) return make_error(ErrorCode::empty_input, "points: empty");
    if (points.size() < 2)
      return make_error(ErrorCode::too_few_points, "points: 1 given, at least 2 needed");
    for (std::size_t i = 0; i < points.size(); ++i)
      if (!points[i].allFinite())
        return make_error(ErrorCode::non_finite,
                          "point " + detail::number_text(i) + ": non-finite");
    return std::nullopt;
  }

  // Segment i runs from key i (leaving with outgoing[i]) to key i+1 (arriving with incoming[i+1]).
  // Finite keys can still overflow into infinite control points (huge tangents or shape values).
  static Expected<Path> from_directed_keys(const std::vector<Point>& points,
                                           const std::vector<Point>& incoming,
                                           const std::vector<Point>& outgoing, bool closed) {
    const std::size_t n = points.size();
    const std::size_t count = closed ? n : n - 1;
    std::vector<Segment> segments;
    segments.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t j = (i + 1) % n;
      segments.push_back(to_bezier(Hermite<S, D>{points[i], outgoing[i], points[j], incoming[j]}));
      if (!detail::all_finite(segments.back()))
        return make_error(
            ErrorCode::non_finite,
            "segment " + detail::number_text(i) + ": control points overflow (tangents too large)");
    }
    return Path(std::move(segments), closed);
  }

  std::vector<Segment> segments_;
  // Cached for locate(), which runs on every query: the last segment index and size() as S.
  // Signed, since unsigned 64-bit <-> floating conversions cost several instructions.
  std::ptrdiff_t last_ = -1;
  S end_ = S(0);
  bool closed_ = false;
  S extent_ = S(0);
};

}  // namespace tractrix
