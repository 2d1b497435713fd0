// ArcLengthTable: distance along a Path ↔ path parameter, after the seed lecture's table
// (constant u steps, binary search, linear interpolation), with an exact Gauss–Legendre mode.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tractrix/core/gauss_legendre.hpp"
#include "tractrix/curve/path.hpp"

namespace tractrix {

enum class ArcLengthMethod {
  chord,           // the seed's table: summed chords; length error O(h²) in the step h
  gauss_legendre,  // exact per interval: adaptive 5-point Gauss–Legendre on the speed |r'(u)|
};

template <class S>
class ArcLengthTable {
 public:
  // The hodograph r'(u) = c + b·u + a·u² of one cubic segment, stored as {a, b, c} in 3D (2D and
  // 1D paths pad with zeros). Evaluating the vector keeps the speed accurate to eps·|r'| even near
  // a cusp, where the square root of a squared-speed polynomial would lose half the digits.
  using Hodograph = std::array<S, 9>;

  static constexpr int max_samples_per_segment = 1 << 20;
  // Deepest split of one interval: 2^-30 of a segment, where a cusp's error is ~2^-60 of it.
  static constexpr int max_depth = 30;

  // Entries at u = 0, 1/k, …, 1 in every segment (k = samples_per_segment, 1..2^20).
  template <int D>
  static Expected<ArcLengthTable> build(const Path<S, D>& path, int samples_per_segment = 16,
                                        ArcLengthMethod method = ArcLengthMethod::gauss_legendre) {
    if (samples_per_segment < 1 || samples_per_segment > max_samples_per_segment)
      return make_error(ErrorCode::out_of_range,
                        "samples_per_segment: " + std::to_string(samples_per_segment) +
                            " not in [1, " + std::to_string(max_samples_per_segment) + "]");
    ArcLengthTable table;
    table.samples_ = samples_per_segment;
    table.closed_ = path.closed();
    table.method_ = method;
    const std::size_t n = path.size();
    const std::size_t k = static_cast<std::size_t>(samples_per_segment);
    table.hodographs_.reserve(n);
    table.distances_.reserve(n * k + 1);
    table.distances_.push_back(S(0));
    table.end_speeds_.reserve(n * k);
    if (method == ArcLengthMethod::gauss_legendre) table.adaptive_.reserve(n * k);
    const S step = S(1) / S(samples_per_segment);
    S total = S(0);
    for (std::size_t i = 0; i < n; ++i) {
      const auto& segment = path.segment(i);
      table.hodographs_.push_back(hodograph(segment));
      const Hodograph& q = table.hodographs_.back();
      // Tolerance per unit u, from the control polygon (an upper bound of the segment's length).
      S polygon = S(0);
      for (std::size_t j = 0; j < 3; ++j)
        polygon += (segment.points[j + 1] - segment.points[j]).norm();
      const S tolerance = S(8) * epsilon<S>() * polygon;
      Vector<S, D> previous = segment.points[0];
      for (std::size_t j = 0; j < k; ++j) {
        const S u0 = S(j) * step;
        const S u1 = j + 1 == k ? S(1) : S(j + 1) * step;
        if (method == ArcLengthMethod::chord) {
          const Vector<S, D> current = j + 1 == k ? segment.points[3] : point_at(segment, u1);
          total += (current - previous).norm();
          previous = current;
        } else {
          bool refined = false;
          total += integrate_adaptive(q, u0, u1, tolerance * (u1 - u0), max_depth, refined);
          table.adaptive_.push_back(refined ? 1 : 0);
        }
        table.distances_.push_back(total);
        // dt/ds = 1/|r'| at both ends of the interval, for the Hermite inverse.
        table.end_speeds_.push_back({speed(q, u0), speed(q, u1)});
      }
    }
    table.tolerance_scale_ = total;
    return table;
  }

  S length() const noexcept { return distances_.back(); }
  bool closed() const noexcept { return closed_; }
  ArcLengthMethod method() const noexcept { return method_; }
  int samples_per_segment() const noexcept { return samples_; }
  std::size_t segment_count() const noexcept { return hodographs_.size(); }
  // Accumulated distance at every entry; entry i sits at parameter i / samples_per_segment().
  const std::vector<S>& distances() const noexcept { return distances_; }
  const Hodograph& hodograph(std::size_t segment) const noexcept { return hodographs_[segment]; }

  // Arc length from t = 0 to t. Closed paths wrap t into [0, size()) and return [0, length());
  // open paths clamp t. gauss_legendre: exact (quadrature from the entry below); chord: linear
  // interpolation between entries, the exact inverse of parameter_at.
  S distance_at(S t) const noexcept {
    const S end = S(hodographs_.size());
    t = closed_ ? wrap(t, end) : clamp_or_low(t, S(0), end);
    const std::size_t entry = entry_below(t);
    const S t0 = parameter_of(entry);
    if (method_ == ArcLengthMethod::chord) {
      const S fraction = (t - t0) * S(samples_);
      return distances_[entry] + fraction * (distances_[entry + 1] - distances_[entry]);
    }
    return distances_[entry] + distance_within(entry, t);
  }

  // The seed's lookup: binary search for the next larger entry, then linear interpolation of t.
  // Closed paths wrap s into [0, length()); open paths clamp it to [0, length()]; NaN gives 0.
  S parameter_at(S s) const noexcept {
    s = normalize_distance(s);
    const auto upper = std::upper_bound(distances_.begin(), distances_.end(), s);
    if (upper == distances_.end()) return S(hodographs_.size());
    const std::size_t hi = static_cast<std::size_t>(upper - distances_.begin());
    const std::size_t lo = hi - 1;  // distances_[0] = 0 <= s, so hi >= 1
    const S fraction = (s - distances_[lo]) / (distances_[hi] - distances_[lo]);
    return (S(lo) + fraction) / S(samples_);
  }

  // Hermite inverse: t(s) on each table interval is the cubic through both entries with slopes
  // dt/ds = 1/|r'(t)|, limited to 3× the secant slope (Fritsch–Carlson), which keeps t(s) monotone
  // where the speed vanishes. Error O(h⁴) on regular curves, so with a Gauss–Legendre table it is
  // close to refine_parameter without any iteration. `cursor` is the entry found last time: queries
  // that move a little (a sweep along sorted distances) walk from it in O(1) instead of searching.
  // s is wrapped or clamped as in parameter_at.
  S parameter_at_hermite(S s, std::size_t& cursor) const noexcept {
    s = normalize_distance(s);
    const std::size_t last = distances_.size() - 2;
    std::size_t i = cursor > last ? last : cursor;
    if (s < distances_[i] || s > distances_[i + 1]) {
      // Walk a few entries, then give up and search: sweeps stay O(1), jumps stay O(log n).
      int steps = 0;
      while (s < distances_[i] && i > 0 && steps < 8)
        --i, ++steps;
      while (s > distances_[i + 1] && i < last && steps < 8)
        ++i, ++steps;
      if (s < distances_[i] || s > distances_[i + 1]) {
        const auto upper = std::upper_bound(distances_.begin(), distances_.end(), s);
        const std::size_t hi = static_cast<std::size_t>(upper - distances_.begin());
        i = hi == 0 ? 0 : std::min(hi - 1, last);
      }
    }
    cursor = i;
    const S h = distances_[i + 1] - distances_[i];
    const S dt = S(1) / S(samples_);
    const S t0 = parameter_of(i);
    if (!(h > S(0))) return t0;
    const S x = (s - distances_[i]) / h;
    const auto& speeds = end_speeds_[i];
    const S limit = S(3) * dt;
    const S m0 = speeds[0] * limit > h ? h / speeds[0] : limit;
    const S m1 = speeds[1] * limit > h ? h / speeds[1] : limit;
    const S x2 = x * x, x3 = x2 * x;
    return t0 + (x3 - S(2) * x2 + x) * m0 + (S(3) * x2 - S(2) * x3) * dt + (x3 - x2) * m1;
  }
  S parameter_at_hermite(S s) const noexcept {
    std::size_t cursor = 0;
    return parameter_at_hermite(s, cursor);
  }

  // The Hermite inverse polished by one Newton step on the exact distance (gauss_legendre tables;
  // chord tables return the Hermite value). Newton converges quadratically from the Hermite error,
  // so one step reaches round-off on regular curves; the step is kept inside the entry's interval.
  S parameter_at_exact(S s, std::size_t& cursor) const noexcept {
    s = normalize_distance(s);
    const S t = parameter_at_hermite(s, cursor);
    if (method_ == ArcLengthMethod::chord) return t;
    const std::size_t entry = cursor;
    const S residual = distances_[entry] + distance_within(entry, t) - s;
    const S v = speed_at(t);
    if (!(v > S(0))) return t;
    const S refined = t - residual / v;
    const S lo = parameter_of(entry), hi = parameter_of(entry + 1);
    return refined < lo ? lo : (refined > hi ? hi : refined);
  }

  // The seed's normalized table: f = s / length() in [0, 1] (wrapped on closed paths).
  S parameter_at_normalized(S f) const noexcept { return parameter_at(f * length()); }

  // Wraps (closed) or clamps (open) a distance into the table's range; NaN gives 0.
  S normalize_distance(S s) const noexcept {
    return closed_ ? wrap(s, length()) : clamp_or_low(s, S(0), length());
  }

  // Index of the entry at or below parameter t (t already in range), at most entries − 2.
  std::size_t entry_below(S t) const noexcept {
    const std::size_t last = distances_.size() - 2;
    const S scaled = t * S(samples_);
    if (!(scaled > S(0))) return 0;  // truncation below is floor for positive values
    const std::size_t entry = static_cast<std::size_t>(scaled);
    return entry > last ? last : entry;
  }
  S parameter_of(std::size_t entry) const noexcept { return S(entry) / S(samples_); }

  // Parametric speed |dr/dt| at parameter t (already in range), from the stored hodograph.
  S speed_at(S t) const noexcept {
    std::size_t segment = t > S(0) ? static_cast<std::size_t>(t) : 0;
    if (segment >= hodographs_.size()) segment = hodographs_.size() - 1;
    return speed(hodographs_[segment], t - S(segment));
  }

  // Exact arc length from entry to t (t within that entry's interval); gauss_legendre tables only.
  S distance_within(std::size_t entry, S t) const noexcept {
    const std::size_t segment = entry / static_cast<std::size_t>(samples_);
    const S u0 = parameter_of(entry) - S(segment);
    const S u = t - S(segment);
    if (!(u > u0)) return S(0);
    const Hodograph& q = hodographs_[segment];
    if (!adaptive_[entry]) return integrate(q, u0, u);
    bool refined = false;
    const S tolerance = S(8) * epsilon<S>() * tolerance_scale_ * (u - u0);
    return integrate_adaptive(q, u0, u, tolerance, max_depth, refined);
  }

  static S speed(const Hodograph& h, S u) noexcept {
    using std::sqrt;
    const S x = (h[0] * u + h[3]) * u + h[6];
    const S y = (h[1] * u + h[4]) * u + h[7];
    const S z = (h[2] * u + h[5]) * u + h[8];
    return sqrt(x * x + y * y + z * z);
  }

 private:
  template <int D>
  static Vector<S, D> point_at(const Bezier<S, D, 3>& segment, S u) {
    return de_casteljau(segment, u).point;
  }

  // r'(u) = c + b u + a u² with c = 3 d0, b = 6 (d1 − d0), a = 3 (d0 − 2 d1 + d2), d_j = P_{j+1} −
  // P_j.
  template <int D>
  static Hodograph hodograph(const Bezier<S, D, 3>& segment) {
    static_assert(D >= 1 && D <= 3, "ArcLengthTable supports paths in 1, 2 or 3 dimensions");
    const auto& p = segment.points;
    const Vector<S, D> d0 = p[1] - p[0], d1 = p[2] - p[1], d2 = p[3] - p[2];
    const Vector<S, D> c = S(3) * d0, b = S(6) * (d1 - d0), a = S(3) * (d0 - S(2) * d1 + d2);
    Hodograph h{};
    for (int i = 0; i < D; ++i) {
      h[static_cast<std::size_t>(i)] = a[i];
      h[static_cast<std::size_t>(3 + i)] = b[i];
      h[static_cast<std::size_t>(6 + i)] = c[i];
    }
    return h;
  }

  static S integrate(const Hodograph& q, S u0, S u1) noexcept {
    return GaussLegendre5<S>::integrate([&q](S u) { return speed(q, u); }, u0, u1);
  }

  // Splits where the 5-point rule and its two halves disagree by more than the tolerance
  // (cusps, sharp speed changes); the depth bound keeps a cusp from recursing forever.
  static S integrate_adaptive(const Hodograph& q, S u0, S u1, S tolerance, int depth,
                              bool& refined) noexcept {
    const S mid = S(0.5) * (u0 + u1);
    const S whole = integrate(q, u0, u1);
    const S halves = integrate(q, u0, mid) + integrate(q, mid, u1);
    using std::abs;
    // Below round-off the halves cannot improve: accept them there too, or the shrinking
    // tolerance would send every smooth piece down to the depth bound.
    const S round_off = S(16) * epsilon<S>() * abs(halves);
    if (abs(whole - halves) <= tolerance || abs(whole - halves) <= round_off || depth == 0 ||
        !(mid > u0 && mid < u1))
      return halves;
    refined = true;
    return integrate_adaptive(q, u0, mid, S(0.5) * tolerance, depth - 1, refined) +
           integrate_adaptive(q, mid, u1, S(0.5) * tolerance, depth - 1, refined);
  }

  std::vector<S> distances_;
  std::vector<Hodograph> hodographs_;
  std::vector<std::uint8_t> adaptive_;        // per interval: 1 if its quadrature needed splitting
  std::vector<std::array<S, 2>> end_speeds_;  // per interval: |r'| at its start and its end
  S tolerance_scale_ = S(0);
  int samples_ = 1;
  bool closed_ = false;
  ArcLengthMethod method_ = ArcLengthMethod::gauss_legendre;
};

// Polishes parameter_at(s) into the exact inverse of distance_at: Newton on distance_at(t) − s with
// the speed as derivative, kept inside the table interval that brackets s (bisection where Newton
// would leave it or the speed vanishes). At most 40 steps, so it always terminates. s is wrapped
// (closed) or clamped (open) as in parameter_at. With a chord table, distance_at is already the
// inverse of parameter_at, and parameter_at(s) is returned. `path` must be the table's path.
template <class S, int D>
S refine_parameter(const Path<S, D>& path, const ArcLengthTable<S>& table, S s) noexcept {
  TRACTRIX_ASSERT(path.size() == table.segment_count());
  (void)path;
  if (table.method() == ArcLengthMethod::chord) return table.parameter_at(s);
  s = table.normalize_distance(s);
  const auto& distances = table.distances();
  auto upper = std::upper_bound(distances.begin(), distances.end(), s);
  if (upper == distances.end()) return S(table.segment_count());
  const std::size_t entry = static_cast<std::size_t>(upper - distances.begin()) - 1;
  S lo = table.parameter_of(entry), hi = table.parameter_of(entry + 1);
  const S target = s - distances[entry];
  const S span = distances[entry + 1] - distances[entry];
  S t = lo + (hi - lo) * (target / span);
  const S tolerance = S(2) * epsilon<S>() * table.length();
  using std::abs;
  for (int iteration = 0; iteration < 40; ++iteration) {
    const S residual = table.distance_within(entry, t) - target;
    if (abs(residual) <= tolerance) break;
    if (residual < S(0))
      lo = t;
    else
      hi = t;
    const S speed = table.speed_at(t);
    S next = speed > S(0) ? t - residual / speed : lo - S(1);
    if (!(next > lo && next < hi)) next = S(0.5) * (lo + hi);
    if (next == t) break;
    t = next;
  }
  return t;
}

}  // namespace tractrix
