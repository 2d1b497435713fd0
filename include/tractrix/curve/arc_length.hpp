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
    // A copy holds exactly what was kept, its arrays allocated one after the other: a network's
    // many small tables then lie as compactly as one.
    ArcLengthTable compact = table;
    return compact;
  }

 public:
  /// The path's length, in its coordinates' units (> 0): the exact arc length on gauss_legendre
  /// tables, the sum of the chords on chord tables.
  S length() const noexcept { return length_; }
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
    const S t =
        hermite_in_range(distances_.data(), inverse_.data(), distances_.size() - 2, s, cursor);
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
      const S t = hermite_in_range(distances_, inverse_, last_, s, cursor);
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

  // The Hermite inverse for s already in [0, length()], on the entries' distances and inverse
  // records; `last` is the last interval.
  static S hermite_in_range(const S* distances, const std::array<S, 6>* inverse, std::size_t last,
                            S s, std::size_t& cursor) noexcept {
    std::size_t i = cursor > last ? last : cursor;
    // The interval is canonical (the last entry at or below s, as gallop finds it), so the
    // result never depends on where the cursor came from.
    if (s < distances[i] || (!(s < distances[i + 1]) && i < last))
      i = gallop(distances, last, s, i);
    cursor = i;
    return inverse_within(distances, inverse, i, s);
  }

  // Interval i's inverse at s.
  static S inverse_within(const S* distances, const std::array<S, 6>* inverse, std::size_t i,
                          S s) noexcept {
    const S h = distances[i + 1] - distances[i];
    const S t0 = inverse[i][0];
    if (!(h > S(0))) return t0;
    const S x = (s - distances[i]) / h;
    const auto& a = inverse[i];
    const S t = t0 + x * (a[1] + x * (a[2] + x * (a[3] + x * (a[4] + x * a[5]))));
    // Rounding in the coefficient sum must not step outside the interval (or past the path end).
    const S t1 = inverse[i + 1][0];
    return t < t0 ? t0 : (t > t1 ? t1 : t);
  }

  // The entry whose interval holds s (in range), searched outwards from `from` with doubling
  // steps, then by bisection: O(log gap) for a query gap entries away, so sorted sweeps stay
  // cheap however dense the table is, and a jump across the table costs no more than a search.
  static std::size_t gallop(const S* distances, std::size_t last, S s, std::size_t from) noexcept {
    std::size_t lo, hi;  // distances[lo] <= s < distances[hi] once bracketed
    if (s < distances[from]) {
      std::size_t step = 1;
      hi = from;
      lo = from;
      while (lo > 0 && s < distances[lo]) {
        hi = lo;
        lo = lo > step ? lo - step : 0;
        step *= 2;
      }
    } else {
      std::size_t step = 1;
      lo = from;
      hi = from + 1;
      while (hi < last + 1 && !(s < distances[hi])) {
        lo = hi;
        hi = hi + step > last + 1 ? last + 1 : hi + step;
        step *= 2;
      }
    }
    const auto upper = std::upper_bound(distances + static_cast<std::ptrdiff_t>(lo),
                                        distances + static_cast<std::ptrdiff_t>(hi) + 1, s);
    const std::size_t above = static_cast<std::size_t>(upper - distances);
    return above == 0 ? 0 : std::min(above - 1, last);
  }

  // Interval i's inverse at s.
  S inverse_within(std::size_t i, S s) const noexcept {
    return inverse_within(distances_.data(), inverse_.data(), i, s);
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

  // Power coefficients of the interval's inverse t(x) − t0, x = (s − s0)/h (see parameter_at),
  // into inverse_[entry][1..5]; entry + 1's parameter must be set.
  void set_inverse_piece(std::size_t entry) noexcept {
    const auto c = inverse_piece(entry);
    for (std::size_t j = 0; j < 5; ++j)
      inverse_[entry][j + 1] = c[j];
  }
  std::array<S, 5> inverse_piece(std::size_t entry) const noexcept {
    const std::size_t segment = segment_of_[entry];
    const auto& q = hodographs_[segment].coefficients;
    const S base = S(static_cast<std::ptrdiff_t>(segment));
    const S u0 = parameter_of(entry) - base;
    const S u1 = parameter_of(entry + 1) - base;
    const S dt = u1 - u0;
    const S h = distances_[entry + 1] - distances_[entry];
    if (!(h > S(0))) return {S(0), S(0), S(0), S(0), S(0)};
    // Derivatives with respect to x: t_x = h/v, t_xx = −h² (r'·r'')/v⁴.
    S m[2], c[2];
    bool regular = true;
    const S u_end[2] = {u0, u1};
    for (int e = 0; e < 2; ++e) {
      const S u = u_end[e];
      S d1[3], d2[3];
      for (std::size_t k = 0; k < 3; ++k) {
        d1[k] = (q[k] * u + q[3 + k]) * u + q[6 + k];
        d2[k] = S(2) * q[k] * u + q[3 + k];
      }
      // |r'| and the unit tangent with the magnitude factored out first, so nothing is squared
      // twice: the plain −h²(r'·r'')/|r'|⁴ overflows for coordinates near 1e77.
      using std::abs;
      const S largest = std::max({abs(d1[0]), abs(d1[1]), abs(d1[2])});
      S v = S(0), along = S(0);
      if (largest > S(0)) {
        const S x = d1[0] / largest, y = d1[1] / largest, z = d1[2] / largest;
        const S unit_norm = std::sqrt(x * x + y * y + z * z);
        v = largest * unit_norm;
        along = (x * d2[0] + y * d2[1] + z * d2[2]) / unit_norm;  // T · r''
      }
      // Regular when dt/ds stays within 3× the secant: the Fritsch–Carlson bound. Not where r''
      // overflows (control points near the scalar's range: |r'| finite, 2·q·u not), which made
      // t'' and every coefficient NaN.
      if (!(S(3) * dt * v > h) || !std::isfinite(v) || !std::isfinite(along)) {
        regular = false;
        m[e] = S(3) * dt;
        c[e] = S(0);
        continue;
      }
      m[e] = h / v;
      c[e] = -m[e] * m[e] * (along / v);  // h² t'' with t'' = −(T·r'')/|r'|³
    }
    if (!regular) {
      // Cubic Hermite with limited slopes: a1 = m0, a2 = 3Δ − 2m0 − m1, a3 = m0 + m1 − 2Δ.
      return {m[0], S(3) * dt - S(2) * m[0] - m[1], m[0] + m[1] - S(2) * dt, S(0), S(0)};
    }
    // Quintic Hermite in power form.
    return {m[0], c[0] / S(2),
            S(10) * dt - S(6) * m[0] - S(4) * m[1] - S(1.5) * c[0] + S(0.5) * c[1],
            S(-15) * dt + S(8) * m[0] + S(7) * m[1] + S(1.5) * c[0] - c[1],
            S(6) * dt - S(3) * m[0] - S(3) * m[1] - S(0.5) * c[0] + S(0.5) * c[1]};
  }

  // The distance by which interval i's inverse misses, sampled where symmetry cannot hide it:
  // at the parameters a third and two thirds into the interval, whose exact distances the
  // quadrature gave for free (`thirds`; NaN where it split the interval elsewhere: then infinity,
  // which makes the interval always polish). On a segment symmetric about the interval's middle
  // the error is antisymmetric about it, so a check at the middle alone reads zero there.
  // `bend` bounds |r''| on the segment, and so how fast the speed changes between parameters.
  S inverse_error(std::size_t i, const std::array<S, 2>& thirds, S bend,
                  bool coarse) const noexcept {
    using std::abs;
    const std::size_t segment = segment_of_[i];
    const Hodograph<S>& q = hodographs_[segment];
    const S base = S(static_cast<std::ptrdiff_t>(segment));
    const S u0 = parameter_of(i) - base, u1 = parameter_of(i + 1) - base;
    const S w = u1 - u0;
    S worst = S(0);
    for (std::size_t k = 0; k < 2; ++k) {
      if (std::isnan(thirds[k])) return std::numeric_limits<S>::infinity();
      const S u = u0 + S(k + 1) * w / S(3);
      const S miss = abs(inverse_within(i, distances_[i] + thirds[k]) - base - u);
      worst = std::max(worst, (q.speed(u) + S(0.5) * bend * miss) * miss);
    }
    // Where the speed varies a lot the thirds sit far from the middle in distance, where the
    // error of a quintic peaks; the middle is then checked too, with a quadrature. So are the
    // quarters on a `coarse` interval (one whose tolerance length_scale sets, above the path's
    // own): there the error is far from its asymptotic shape and may change sign near the
    // thirds, where it then reads well below its peak.
    const S h = distances_[i + 1] - distances_[i];
    const bool spread = !(thirds[0] >= S(0.2) * h && thirds[0] <= S(0.45) * h &&
                          thirds[1] >= S(0.55) * h && thirds[1] <= S(0.8) * h);
    const S fractions[3] = {S(0.5), S(0.25), S(0.75)};
    for (std::size_t k = 0; k < 3; ++k) {
      if (!(coarse || (spread && k == 0))) continue;
      const S at = distances_[i] + fractions[k] * h;
      const S t = inverse_within(i, at);
      worst = std::max(worst, abs(distances_[i] + distance_within(i, t) - at));
    }
    return worst;
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
  // distances_.back(), kept beside the arrays' pointers: every query wraps or clamps by it, and
  // the last entry is a cache line of its own on a table walked from piece to piece.
  S length_ = S(0);
  int samples_ = 1;
  bool closed_ = false;
  ArcLengthMethod method_ = ArcLengthMethod::gauss_legendre;
};

}  // namespace tractrix

#include "tractrix/curve/detail/arc_length_builder.hpp"
