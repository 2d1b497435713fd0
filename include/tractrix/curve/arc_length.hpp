/// @file
/// `ArcLengthTable`: distance along a Path ↔ path parameter, after the camera-animation lecture's
/// table (constant u steps, binary search, linear interpolation), with an exact Gauss–Legendre
/// mode. MeasuredPath holds one; the table is filled by detail/arc_length_builder.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "tractrix/core/assert.hpp"
#include "tractrix/core/attributes.hpp"
#include "tractrix/curve/detail/arc_length_inverse.hpp"
#include "tractrix/curve/hodograph.hpp"
#include "tractrix/curve/path.hpp"

namespace tractrix {

template <class S>
class ArcLengthTable;
namespace detail {
template <class S, int D>
struct ArcLengthTableBuilder;
}  // namespace detail

/// How an ArcLengthTable measures distances between its entries.
enum class ArcLengthMethod {
  chord,           ///< the lecture's table: summed chords; length error O(h²) in the step h
  gauss_legendre,  ///< exact per interval: adaptive Gauss–Legendre on the speed (SpeedQuadrature)
};

/// How a table is built. An explicit density k puts entries at u = 0, 1/k, …, 1 in every segment
/// (k = samples_per_segment, 1..2^20); the automatic density (0) places them where the curve
/// needs them: each segment starts as one interval, halved until the interval's quintic inverse
/// and its 5-point quadrature meet their tolerances unaided, at most 256 to a segment (one or two
/// on gentle segments, many only about slow, sharp turns). Exact tables are exact at every
/// density; density trades memory for the Hermite inverse's speed (an interval left flagged costs
/// a Newton step). Chord tables (the lecture's) take 16 per segment when automatic.
struct ArcLengthSettings {
  /// The automatic density, by name: {ArcLengthSettings::automatic, ArcLengthMethod::chord}.
  static constexpr int automatic = 0;
  /// Entries per segment, evenly spaced in u: 1..2^20, or `automatic` (0).
  int samples_per_segment = automatic;
  ArcLengthMethod method = ArcLengthMethod::gauss_legendre;  ///< chord or exact
  /// The length the exact inverse's tolerance (1e-12 in double) is relative to, where it exceeds
  /// the path's own; 0 (the default) means the path's own length. A finite value >= 0, for
  /// gauss_legendre tables only (a chord table refuses any other than 0). Pieces of a network
  /// measured against the whole network's length keep the absolute accuracy one curve of that
  /// length has, with no more entries than that curve has.
  double length_scale = 0.0;
};

/// Distance along a Path ↔ path parameter: entries of (parameter, distance from t = 0) with an
/// inverse per interval between entries, made by build() (a default-constructed table is empty
/// and must not be queried). Queries never change it; copies are independent. The three
/// conversions are distance_at(t), parameter_at(s) and the lecture's parameter_at_linear(s): s is
/// the distance along the path in its coordinates' units, t the path parameter (Path's). Closed
/// paths wrap s into [0, length()) and t into [0, segment_count()); open paths clamp them to
/// [0, length()] and [0, segment_count()]; NaN reads as 0.
template <class S>
class ArcLengthTable {
  template <class, int>
  friend struct detail::ArcLengthTableBuilder;

 public:
  /// The largest explicit density, 2^20 entries per segment.
  static constexpr int max_samples_per_segment = 1 << 20;
  /// Automatic exact tables halve an interval at most this often: 256 intervals a segment.
  static constexpr int automatic_depth = 8;
  /// The entries per segment of an automatic chord table.
  static constexpr int automatic_chord = 16;

  /// Measures `path` as `settings` ask (ArcLengthSettings). Errors: out_of_range for a
  /// samples_per_segment outside [0, 2^20], a path of 2^31 segments or more, a path of zero
  /// length (all control points equal), one too small to measure in S (below √(smallest normal /
  /// eps) across: 1e-146 in double, 3.1e-16 in float), a length_scale that is negative or not
  /// finite in S, or a non-zero length_scale for a chord table; non_finite for a length that
  /// overflows S.
  template <int D>
  static Expected<ArcLengthTable> build(const Path<S, D>& path, ArcLengthSettings settings = {}) {
    const int samples_per_segment = settings.samples_per_segment;
    if (samples_per_segment < 0 || samples_per_segment > max_samples_per_segment)
      return make_error(ErrorCode::out_of_range,
                        "samples_per_segment: " + detail::number_text(samples_per_segment) +
                            " not in [1, " + detail::number_text(max_samples_per_segment) +
                            "] (or 0, automatic)");
    if (path.size() >= std::size_t(1) << 31)
      return make_error(ErrorCode::out_of_range, "path: more than 2^31 segments");
    // Speeds are measured through their squares, which lose their digits below the smallest
    // normal number. Refused below √(smallest normal / eps), where speeds down to √eps of the
    // size still square to normal numbers: 1e-146 in double, 3.1e-16 in float.
    const S size = path_size(path);
    // Distances on a path of zero length have no direction to move in (every conversion would
    // divide by the length); refused before any entry is built. Any other path has a length.
    if (!(size > S(0)) && std::isfinite(size))
      return make_error(ErrorCode::out_of_range, "path: zero length (all control points equal)");
    using std::sqrt;
    const S smallest = sqrt(std::numeric_limits<S>::min() / detail::epsilon<S>());
    if (size > S(0) && size < smallest)
      return make_error(ErrorCode::out_of_range,
                        "path: " + detail::number_text(double(size)) +
                            " across, too small to measure in this scalar type (squared speeds "
                            "lose their digits below " +
                            detail::number_text(double(smallest)) + "); scale it up");
    const S length_scale = static_cast<S>(settings.length_scale);
    if (!(settings.length_scale >= 0.0) || !std::isfinite(length_scale))
      return make_error(ErrorCode::out_of_range,
                        "length_scale: " + detail::number_text(settings.length_scale) +
                            " is not a finite length >= 0 in this scalar type");
    const bool exact = settings.method == ArcLengthMethod::gauss_legendre;
    if (!exact && settings.length_scale > 0.0)
      return make_error(ErrorCode::out_of_range,
                        "length_scale: " + detail::number_text(settings.length_scale) +
                            " given to a chord table (it sets the exact table's tolerance; chord "
                            "tables have none)");
    const int uniform = samples_per_segment > 0 ? samples_per_segment : exact ? 0 : automatic_chord;
    return build_at(path, uniform, settings.method, length_scale);
  }

 private:
  // Tables come from build() (its builder fills an empty one): a default-constructed table has
  // no entries, and its queries would read past them.
  ArcLengthTable() = default;
  // The largest coordinate difference between the first control point and any other.
  template <int D>
  static S path_size(const Path<S, D>& path) noexcept {
    if (path.size() == 0) return S(0);
    const auto origin = path.segment(0).points[0];
    S size = S(0);
    for (std::size_t i = 0; i < path.size(); ++i)
      for (const auto& p : path.segment(i).points)
        size = std::max(size, (p - origin).cwiseAbs().maxCoeff());
    return size;
  }

  // `uniform` entries per segment, or 0: adaptive (exact tables only).
  template <int D>
  static Expected<ArcLengthTable> build_at(const Path<S, D>& path, int uniform,
                                           ArcLengthMethod method, S length_scale) {
    detail::ArcLengthTableBuilder<S, D> builder(path, uniform, method, length_scale);
    for (std::size_t i = 0; i < path.size(); ++i) {
      builder.start_segment(i);
      if (uniform > 0)
        builder.uniform_segment();
      else
        builder.adaptive_segment();
    }
    if (!std::isfinite(
            builder.total))  // (an infinite total leaves NaN in `lost`, and entries behind)
      return make_error(ErrorCode::non_finite,
                        "path: its length overflows (coordinates too large for this scalar type)");
    ArcLengthTable& table = builder.table;
    table.segment_first_.push_back(table.inverse_.size());
    table.inverse_.push_back({S(static_cast<std::ptrdiff_t>(path.size()))});  // the end's parameter
    table.tolerance_scale_ = table.distances_.back();
    table.length_ = table.distances_.back();
    table.accuracy_length_ = std::max(table.length_, length_scale);
    // A copy holds exactly what was kept, its arrays allocated one after the other: a network's
    // many small tables then lie as compactly as one.
    ArcLengthTable compact = table;
    return compact;
  }

 public:
  /// The path's length, in its coordinates' units (> 0): the exact arc length on gauss_legendre
  /// tables, the sum of the chords on chord tables.
  S length() const noexcept { return length_; }
  /// The length parameter_at's tolerance is relative to: the larger of length() and
  /// ArcLengthSettings::length_scale.
  S accuracy_length() const noexcept { return accuracy_length_; }
  /// Whether the path measured is closed (distances and parameters wrap) or open (they clamp).
  bool closed() const noexcept { return closed_; }
  /// How the table measures: chord or gauss_legendre.
  ArcLengthMethod method() const noexcept { return method_; }
  /// The entries per segment where they are evenly spaced in u: the explicit density asked for,
  /// or 16 for an automatic chord table; 0 for an automatic exact table, whose entries sit where
  /// each segment needs them (is_adaptive(); entry_parameter).
  int samples_per_segment() const noexcept { return samples_; }
  /// True for an automatic exact table: entries placed per segment where the curve needs them.
  bool is_adaptive() const noexcept { return samples_ == 0; }
  /// The path's segment count: its end parameter.
  std::size_t segment_count() const noexcept { return hodographs_.size(); }
  /// Accumulated distance at every entry, from 0 at the first, never decreasing
  /// (entry_count() + 1 values: the last is the length).
  const std::vector<S>& distances() const noexcept { return distances_; }
  /// The number of intervals between entries (the entries, not counting the path's end).
  std::size_t entry_count() const noexcept { return distances_.size() - 1; }
  /// The path parameter of entry i (i <= entry_count(), unchecked: the last is the path's end).
  S entry_parameter(std::size_t i) const noexcept { return inverse_[i][0]; }
  /// Bytes the table holds (what its vectors hold, not their spare capacity).
  std::size_t memory_bytes() const noexcept {
    return sizeof(*this) + distances_.size() * sizeof(S) +
           hodographs_.size() * sizeof(Hodograph<S>) + adaptive_.size() +
           segment_of_.size() * sizeof(std::uint32_t) +
           segment_first_.size() * sizeof(std::size_t) + inverse_.size() * sizeof(inverse_[0]);
  }

  /// Arc length from t = 0 to t (wrapped or clamped as the class says).
  /// gauss_legendre: exact (quadrature from the entry below); chord: linear interpolation
  /// between entries, the exact inverse of parameter_at_linear.
  S distance_at(S t) const noexcept {
    const S end = S(hodographs_.size());
    t = closed_ ? detail::wrap(t, end) : detail::clamp_or_low(t, S(0), end);
    const std::size_t entry = entry_below(t);
    const S t0 = parameter_of(entry);
    if (method_ == ArcLengthMethod::chord) {
      const S fraction = (t - t0) / (parameter_of(entry + 1) - t0);
      return distances_[entry] + fraction * (distances_[entry + 1] - distances_[entry]);
    }
    // At most the length: the entry's distance plus the rest of the segment could round an ulp
    // past it at the end (float), where the length itself is a compensated sum.
    return std::min(distances_[entry] + distance_within(entry, t), length());
  }

  /// The parameter at distance s (wrapped or clamped as the class says), the inverse of
  /// distance_at: on gauss_legendre tables |distance_at(t) − s| ≤ 1e-12·length() in double,
  /// 64 eps·length() in float (of length_scale where that was larger). On each table interval
  /// t(s) is the quintic that matches t, dt/ds = 1/|r'| and d²t/ds² = −(r'·r'')/|r'|⁴ at both
  /// entries, error O(h⁶); where build() found it short of the tolerance (near cusps, on coarse
  /// tables) Newton on the exact distance polishes it. Intervals where the speed nearly vanishes
  /// use the cubic with slopes limited to 3× the secant (Fritsch–Carlson), which keeps t(s)
  /// monotone there. `cursor` is the entry found last time, updated: queries that move a little
  /// (a sweep along sorted distances) walk from it in O(1) instead of searching; any value is
  /// safe, and the result does not depend on it. On chord tables the distances are chords, so
  /// the result inverts those. At and past the end of an open path: segment_count() exactly.
  TRACTRIX_FORCE_INLINE S parameter_at(S s, std::size_t& cursor) const noexcept {
    // Forced inline: every bogie and camera sample runs it. It reads the members where it uses
    // them, not through a Lookup built up front (which cost register spills).
    s = wrap_or_clamp(s);
    if (!(s < length())) return S(hodographs_.size());  // the end of an open path, exactly
    const S t = detail::hermite_in_range(distances_.data(), inverse_.data(), distances_.size() - 2,
                                         s, cursor);
    if (method_ == ArcLengthMethod::chord || !(adaptive_[cursor] & needs_newton)) return t;
    return polish(cursor, s - distances_[cursor], t);
  }
  /// parameter_at(s, cursor) with a fresh cursor: a search from the first entry.
  S parameter_at(S s) const noexcept {
    std::size_t cursor = 0;
    return parameter_at(s, cursor);
  }

  /// What parameter_at reads, as plain pointers into a table and copies of its scalars, valid
  /// while the table lives where it is: the Newton polish reads the table itself, so a move
  /// would leave it dangling on flagged intervals. Hence only MeasuredPath makes one, for its
  /// table in shared data that never moves (MeasuredPath::lookup); a network keeps one per piece,
  /// so a bogie entering a piece reaches its entries directly. A default-constructed Lookup
  /// points at no table and must not be queried.
  class Lookup {
   public:
    /// ArcLengthTable::parameter_at(s, cursor) on the table it was made from.
    TRACTRIX_FORCE_INLINE S parameter_at(S s, std::size_t& cursor) const noexcept {
      s = closed_ ? detail::wrap(s, length_) : detail::clamp_or_low(s, S(0), length_);
      if (!(s < length_)) return end_;
      const S t = detail::hermite_in_range(distances_, inverse_, last_, s, cursor);
      if (!exact_ || !(adaptive_[cursor] & needs_newton)) return t;
      return table_->polish(cursor, s - distances_[cursor], t);
    }
    /// The table's length().
    S length() const noexcept { return length_; }

   private:
    friend class ArcLengthTable;
    const S* distances_ = nullptr;
    const std::array<S, 6>* inverse_ = nullptr;
    const std::uint8_t* adaptive_ = nullptr;
    const ArcLengthTable* table_ = nullptr;  // for the Newton polish
    std::size_t last_ = 0;                   // the last interval
    S length_ = S(0), end_ = S(0);           // end_: the path's end parameter
    bool closed_ = false, exact_ = false;    // exact_: gauss_legendre
  };

 private:
  template <class, int>
  friend class MeasuredPath;
  Lookup lookup() const noexcept {
    Lookup out;
    out.distances_ = distances_.data();
    out.inverse_ = inverse_.data();
    out.adaptive_ = adaptive_.data();
    out.table_ = this;
    out.last_ = distances_.size() - 2;
    out.length_ = length_;
    out.end_ = S(hodographs_.size());
    out.closed_ = closed_;
    out.exact_ = method_ == ArcLengthMethod::gauss_legendre;
    return out;
  }

 public:
  /// The camera-animation lecture's lookup: s wrapped or clamped as the class says, a binary
  /// search for the next larger entry, then linear interpolation of t. Error O(h²) in the entry
  /// spacing; kept for comparison and for tools that reproduce the lecture's numbers.
  S parameter_at_linear(S s) const noexcept {
    s = wrap_or_clamp(s);
    const std::size_t lo = detail::interval_of(distances_, s);
    const S h = distances_[lo + 1] - distances_[lo];
    // distances_[lo] <= s <= distances_[lo + 1]; h is 0 only for a zero-length last interval,
    // where s is the length: the end of the path.
    const S fraction = h > S(0) ? (s - distances_[lo]) / h : S(1);
    const S t0 = parameter_of(lo);
    return t0 + fraction * (parameter_of(lo + 1) - t0);
  }

  /// A distance in the table's range: wrapped into [0, length()) on a closed path, clamped to
  /// [0, length()] on an open one; NaN gives 0.
  S wrap_or_clamp(S s) const noexcept {
    return closed_ ? detail::wrap(s, length()) : detail::clamp_or_low(s, S(0), length());
  }

 private:
  // Newton on distance_within(entry, t) = target from t, kept inside the entry's interval
  // (bisection where Newton would leave it or the speed vanishes); stops at 2 eps of the length,
  // or after 40 steps. gauss_legendre tables only.
  S polish(std::size_t entry, S target, S t) const noexcept {
    S lo = parameter_of(entry), hi = parameter_of(entry + 1);
    const S tolerance = S(2) * detail::epsilon<S>() * length();
    using std::abs;
    for (int iteration = 0; iteration < 40; ++iteration) {
      const S residual = distance_within(entry, t) - target;
      if (abs(residual) <= tolerance) break;
      if (residual < S(0))
        lo = t;
      else
        hi = t;
      const S speed = speed_at(t);
      S next = speed > S(0) ? t - residual / speed : lo - S(1);
      if (!(next > lo && next < hi)) next = S(0.5) * (lo + hi);
      if (detail::exactly_equal(next, t)) break;
      t = next;
    }
    return t;
  }

  // Index of the entry at or below parameter t (t already in range), at most entries − 1: the
  // segment's first entry, then the entry within it (by u on a uniform table, else by search).
  std::size_t entry_below(S t) const noexcept {
    const std::size_t segments = hodographs_.size();
    std::size_t segment = t > S(0) ? static_cast<std::size_t>(t) : 0;  // truncation: floor
    if (segment >= segments) segment = segments - 1;
    const std::size_t first = segment_first_[segment], end = segment_first_[segment + 1];
    if (samples_ > 0) {
      const S scaled = (t - S(static_cast<std::ptrdiff_t>(segment))) * S(samples_);
      const std::size_t j = scaled > S(0) ? static_cast<std::size_t>(scaled) : 0;
      return std::min(first + j, end - 1);
    }
    std::size_t lo = first, hi = end;  // inverse_[lo][0] <= t (or lo is the first)
    while (hi - lo > 1) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (inverse_[mid][0] <= t)
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }
  S parameter_of(std::size_t entry) const noexcept { return inverse_[entry][0]; }

  // Parametric speed |dr/dt| at parameter t (already in range), from the stored hodograph.
  S speed_at(S t) const noexcept {
    std::size_t segment = t > S(0) ? static_cast<std::size_t>(t) : 0;
    if (segment >= hodographs_.size()) segment = hodographs_.size() - 1;
    return hodographs_[segment].speed(t - S(segment));
  }

  // Exact arc length from entry to t (t within that entry's interval); gauss_legendre tables only.
  // An interval the build did not split gets one 5-point rule: its error is at most the
  // difference the build accepted, 64 × 8 eps of the segment's control polygon per unit u
  // (~1e-13 of it), inside the 1e-12·length promise; measured errors are at round-off.
  S distance_within(std::size_t entry, S t) const noexcept {
    const std::size_t segment = segment_of_[entry];
    const S base = S(static_cast<std::ptrdiff_t>(segment));
    const S u0 = parameter_of(entry) - base;
    const S u = t - base;
    if (!(u > u0)) return S(0);
    const Hodograph<S>& q = hodographs_[segment];
    if (!(adaptive_[entry] & split_quadrature)) return q.rule(u0, u);
    SpeedQuadrature<S> quadrature(q, S(8) * detail::epsilon<S>() * tolerance_scale_);
    return quadrature.integrate(u0, u);
  }

  std::vector<S> distances_;
  std::vector<Hodograph<S>> hodographs_;
  // Per interval: split_quadrature if its quadrature needed splitting, needs_newton if the quintic
  // inverse alone misses the tolerance of parameter_at.
  static constexpr std::uint8_t split_quadrature = 1, needs_newton = 2;
  std::vector<std::uint8_t> adaptive_;
  std::vector<std::uint32_t> segment_of_;   // per interval: its segment
  std::vector<std::size_t> segment_first_;  // per segment: its first interval; then the count
  // Per interval: its start t0, then t(x) − t0 = Σ a_j x^j (j = 1..5), x = (s − s0)/h in [0, 1];
  // one more record holds the path's end parameter. (The adaptive density keeps them few: about
  // one a segment on gentle track, so a sweep stays out of memory's way.)
  std::vector<std::array<S, 6>> inverse_;
  S tolerance_scale_ = S(0);
  S accuracy_length_ = S(0);  // accuracy_length()
  // distances_.back(), kept beside the arrays' pointers: every query wraps or clamps by it, and
  // the last entry is a cache line of its own on a table walked from piece to piece.
  S length_ = S(0);
  int samples_ = 1;
  bool closed_ = false;
  ArcLengthMethod method_ = ArcLengthMethod::gauss_legendre;
};

}  // namespace tractrix

#include "tractrix/curve/detail/arc_length_builder.hpp"
