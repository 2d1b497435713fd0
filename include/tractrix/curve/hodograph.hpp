/// @file
/// The hodograph r'(u) of a cubic segment and the arc length it integrates to: speed, the
/// parameters where the speed has a minimum, and an adaptive Gauss–Legendre quadrature that stays
/// exact through cusps.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "tractrix/core/gauss_legendre.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/curve/segment.hpp"

namespace tractrix {

/// The derivative r'(u) = a·u² + b·u + c of a cubic segment, stored as {a, b, c} in 3D (2D and
/// 1D segments pad with zeros). Evaluating the vector keeps the speed's error at
/// eps·(|a|u² + |b|u + |c|) even near a cusp, where the square root of a squared-speed
/// polynomial would lose half the digits.
template <class S>
struct Hodograph {
  std::array<S, 9> coefficients{};  ///< a_x, a_y, a_z, b_x, b_y, b_z, c_x, c_y, c_z

  /// The hodograph of a segment in 1, 2 or 3 dimensions: c = 3 d0, b = 6 (d1 − d0),
  /// a = 3 (d0 − 2 d1 + d2) with d_j = P_{j+1} − P_j.
  template <int D>
  static Hodograph of(const Bezier<S, D, 3>& segment) {
    static_assert(D >= 1 && D <= 3, "a hodograph is kept for segments in 1, 2 or 3 dimensions");
    const auto& p = segment.points;
    const Vector<S, D> d0 = p[1] - p[0], d1 = p[2] - p[1], d2 = p[3] - p[2];
    const Vector<S, D> c = S(3) * d0, b = S(6) * (d1 - d0), a = S(3) * (d0 - S(2) * d1 + d2);
    Hodograph h;
    for (std::size_t k = 0; k < static_cast<std::size_t>(D); ++k) {
      const Eigen::Index i = static_cast<Eigen::Index>(k);
      h.coefficients[k] = a[i];
      h.coefficients[3 + k] = b[i];
      h.coefficients[6 + k] = c[i];
    }
    return h;
  }

  /// The speed |r'(u)|: length per unit u.
  S speed(S u) const noexcept {
    using std::sqrt;
    const auto& q = coefficients;
    const S x = (q[0] * u + q[3]) * u + q[6];
    const S y = (q[1] * u + q[4]) * u + q[7];
    const S z = (q[2] * u + q[5]) * u + q[8];
    return sqrt(x * x + y * y + z * z);
  }

  /// The 5-point Gauss–Legendre rule for the arc length over [u0, u1] (accurate only where the
  /// speed is smooth: SpeedQuadrature decides where that is).
  S rule(S u0, S u1) const noexcept {
    return detail::GaussLegendre5<S>::integrate([this](S u) { return speed(u); }, u0, u1);
  }
};

/// ∫ |r'(u)| du over parts of one cubic segment, to a tolerance per unit u.
///
/// The 5-point rule on an interval is compared with the sum of the rule on its three thirds. That
// estimate is trustworthy only where the speed is analytic well beyond the interval: sqrt(|r'|²)
/// is singular where |r'(z)|² = 0, at a cusp (real z, a kink) or next to a near-cusp or a tight
/// turn (complex z). An interval is judged only when the speed keeps those points away from it:
/// |r'(z)| ≥ |r'(x)| − |y|·|r''(x)| − y²·|a| at z = x + iy, so where min |r'| ≥ ½·w·(max |r''| +
/// |a|·w) on an interval of width w no singularity lies within w/2 of it. There the Bernstein
/// ellipses through the nearest possible singularity have ρ ≥ 2.4 for the whole interval and
/// ρ ≥ 6.2 for each third, so the thirds' error is below 1e-3 of the whole's (ρ⁻¹⁰ per rule): the
/// difference measures the whole's error and bounds the thirds' by far, and the two cannot agree
/// by accident. Elsewhere the interval is split at the speed's minimum inside it, or in thirds,
/// down to 3⁻²⁵ of its width: after a split at a cusp each side is analytic, and towards a
/// near-cusp the pieces shrink geometrically.
template <class S>
class SpeedQuadrature {
 public:
  /// Deepest subdivision: 3⁻²⁵ ≈ 1e-12 of an interval, where a cusp's kink weighs ~1e-24 of it.
  static constexpr int max_depth = 25;

  /// A quadrature of `hodograph`'s speed to `tolerance_per_u` (arc length per unit u). Keeps a
  /// reference to the hodograph: it must outlive the quadrature.
  SpeedQuadrature(const Hodograph<S>& hodograph, S tolerance_per_u) noexcept
      : hodograph_(hodograph), tolerance_per_u_(tolerance_per_u) {}
  /// Deleted: a temporary hodograph would not outlive the quadrature.
  SpeedQuadrature(const Hodograph<S>&&, S) = delete;

  /// The arc length from u0 to u1 (0 ≤ u0 ≤ u1 ≤ 1). `thirds`, when given, receives the arc
  /// lengths from u0 to u0 + w/3 and to u0 + 2w/3 (w = u1 − u0), as accurate as the total, or NaN
  /// where the interval was split elsewhere or is below the scalar's resolution. At most 512
  /// splits a call: past them, or at max_depth, the pieces' rule is taken as it is.
  S integrate(S u0, S u1, std::array<S, 2>* thirds = nullptr) noexcept {
    if (minimum_count_ < 0) analyse();
    budget_ = 512;
    refined_ = false;
    return integrate(u0, u1, tolerance_per_u_ * (u1 - u0), max_depth, thirds);
  }

  /// True when the last integrate() call had to split its interval.
  bool refined() const noexcept { return refined_; }

  /// Whether [u0, u1] is clear of the speed's singularities by half its width, so that
  /// integrate() may judge it without splitting: where it is not, integrate() splits (a table
  /// build halves such an interval without integrating it first).
  bool clear(S u0, S u1) noexcept {
    if (minimum_count_ < 0) analyse();
    return assess(u0, u1).clear;
  }

 private:
  // The 5-point rule on each part between consecutive edges and on all of [edges[0], edges[3]].
  // The 20 speeds are evaluated as one Eigen array, in SIMD lanes (std::sqrt in a loop is not
  // vectorized where it may set errno).
  void rules(const S (&edges)[4], S& whole, S (&parts)[3]) const noexcept {
    using Rule = detail::GaussLegendre5<S>;
    using Nodes = Eigen::Array<S, 20, 1>;
    // Node positions as fractions of the interval: the thirds' nodes, then the whole's.
    static const Nodes fractions = [] {
      Nodes f;
      for (Eigen::Index p = 0; p < 4; ++p)
        for (Eigen::Index k = 0; k < 5; ++k) {
          const S node = (S(1) + Rule::nodes[static_cast<std::size_t>(k)]) / S(2);
          f[5 * p + k] = p < 3 ? (S(p) + node) / S(3) : node;
        }
      return f;
    }();
    const Nodes u = edges[0] + (edges[3] - edges[0]) * fractions;
    const auto& q = hodograph_.coefficients;
    const Nodes x = (q[0] * u + q[3]) * u + q[6];
    const Nodes y = (q[1] * u + q[4]) * u + q[7];
    const Nodes z = (q[2] * u + q[5]) * u + q[8];
    const Nodes v = (x * x + y * y + z * z).sqrt();
    for (Eigen::Index p = 0; p < 4; ++p) {
      const std::size_t i = static_cast<std::size_t>(p);
      S sum = S(0);
      for (Eigen::Index k = 0; k < 5; ++k)
        sum += Rule::weights[static_cast<std::size_t>(k)] * v[5 * p + k];
      const S a = p < 3 ? edges[i] : edges[0], b = p < 3 ? edges[i + 1] : edges[3];
      (p < 3 ? parts[i] : whole) = sum * (S(0.5) * (b - a));
    }
  }

  // |r'(u)|² and |r''(u)|² of the unit-scaled hodograph.
  S unit_speed_squared(S u) const noexcept {
    S sum = S(0);
    for (std::size_t k = 0; k < 3; ++k) {
      const S v = (unit_[k] * u + unit_[3 + k]) * u + unit_[6 + k];
      sum += v * v;
    }
    return sum;
  }
  S unit_acceleration_squared(S u) const noexcept {
    S sum = S(0);
    for (std::size_t k = 0; k < 3; ++k) {
      const S v = S(2) * unit_[k] * u + unit_[3 + k];
      sum += v * v;
    }
    return sum;
  }

  // (|r'|²)'/2 = r'·r'' = C(u), a cubic: 2|a|²u³ + 3(a·b)u² + (|b|² + 2a·c)u + b·c. Its roots
  // where it turns from negative to positive are the speed's minima.
  S slope(S u) const noexcept {
    return ((cubic_[3] * u + cubic_[2]) * u + cubic_[1]) * u + cubic_[0];
  }

  // Finds the minima and the segment-wide bounds; on first use, so a chord table pays nothing.
  void analyse() noexcept {
    // The analysis runs on the hodograph scaled to unit size, so squares neither overflow nor
    // underflow whatever the coordinates; only the speed integrated is the real one.
    using std::abs;
    S largest = S(0);
    for (S v : hodograph_.coefficients)
      largest = std::max(largest, abs(v));
    // Divided, not multiplied by 1/largest: that reciprocal overflows for subnormal coordinates.
    const bool usable = largest > S(0) && std::isfinite(largest);
    for (std::size_t k = 0; k < 9; ++k)
      unit_[k] = usable ? hodograph_.coefficients[k] / largest : S(0);
    a_norm_ = std::sqrt(unit_[0] * unit_[0] + unit_[1] * unit_[1] + unit_[2] * unit_[2]);
    minimum_count_ = 0;
    const auto dot = [this](std::size_t i, std::size_t j) {
      return unit_[i] * unit_[j] + unit_[i + 1] * unit_[j + 1] + unit_[i + 2] * unit_[j + 2];
    };
    cubic_ = {dot(3, 6), dot(3, 3) + S(2) * dot(0, 6), S(3) * dot(0, 3), S(2) * dot(0, 0)};
    // Split [0, 1] where C' = 3c₃u² + 2c₂u + c₁ vanishes, so C is monotone on each piece.
    std::array<S, 4> cuts{S(0), S(1), S(1), S(1)};
    std::size_t count = 1;
    const S qa = S(3) * cubic_[3], qb = S(2) * cubic_[2], qc = cubic_[1];
    using std::sqrt;
    if (!detail::exactly_equal(qa, S(0))) {
      const S discriminant = qb * qb - S(4) * qa * qc;
      if (discriminant > S(0)) {
        const S root = sqrt(discriminant);
        const S q = S(-0.5) * (qb + (qb < S(0) ? -root : root));  // no cancellation
        S r0 = q / qa, r1 = !detail::exactly_equal(q, S(0)) ? qc / q : r0;
        if (r0 > r1) std::swap(r0, r1);
        for (S r : {r0, r1})
          if (r > cuts[count - 1] && r < S(1)) cuts[count++] = r;
      }
    } else if (!detail::exactly_equal(qb, S(0))) {
      const S r = -qc / qb;
      if (r > S(0) && r < S(1)) cuts[count++] = r;
    }
    cuts[count] = S(1);
    for (std::size_t i = 0; i < count; ++i) {
      S lo = cuts[i], hi = cuts[i + 1];
      if (!(slope(lo) < S(0) && slope(hi) > S(0))) continue;
      // Newton on C, kept inside the bracket by bisection.
      S u = S(0.5) * (lo + hi);
      for (int step = 0; step < 100; ++step) {
        const S value = slope(u);
        (value < S(0) ? lo : hi) = u;
        const S derivative = (qa * u + qb) * u + qc;
        S next = u - value / derivative;
        if (!(next > lo && next < hi)) next = S(0.5) * (lo + hi);
        if (detail::exactly_equal(next, u) || !(next > lo && next < hi)) break;
        u = next;
      }
      if (u > S(0) && u < S(1)) minima_[static_cast<std::size_t>(minimum_count_++)] = u;
    }
    // Segment-wide bounds, so that assess() can pass most intervals without looking closer.
    slowest_ = std::min(unit_speed_squared(S(0)), unit_speed_squared(S(1)));
    for (int i = 0; i < minimum_count_; ++i)
      slowest_ = std::min(slowest_, unit_speed_squared(minima_[static_cast<std::size_t>(i)]));
    bend_ = sqrt(std::max(unit_acceleration_squared(S(0)), unit_acceleration_squared(S(1))));
  }

  // The lowest speed minimum strictly inside (u0, u1), or NaN; and whether the interval is clear
  // of singularities by half its width (see the class comment).
  struct Assessment {
    bool clear;
    S split;
  };
  Assessment assess(S u0, S u1) const noexcept {
    const S w = u1 - u0;
    {
      const S bound = S(0.5) * w * (bend_ + a_norm_ * w);  // |r''| ≤ bend_ on all of [0, 1]
      if (slowest_ >= bound * bound) return {true, std::numeric_limits<S>::quiet_NaN()};
    }
    S slowest = std::min(unit_speed_squared(u0), unit_speed_squared(u1));
    S split = std::numeric_limits<S>::quiet_NaN();
    S split_speed = std::numeric_limits<S>::infinity();
    for (int i = 0; i < minimum_count_; ++i) {
      const S u = minima_[static_cast<std::size_t>(i)];
      if (!(u > u0 && u < u1)) continue;
      const S v = unit_speed_squared(u);
      if (v < split_speed) split_speed = v, split = u;
      slowest = std::min(slowest, v);
    }
    using std::sqrt;
    const S bend = sqrt(std::max(unit_acceleration_squared(u0), unit_acceleration_squared(u1)));
    const S bound = S(0.5) * w * (bend + a_norm_ * w);
    return {slowest >= bound * bound, split};
  }

  S integrate(S u0, S u1, S tolerance, int depth, std::array<S, 2>* thirds) noexcept {
    const S w = u1 - u0;
    const S m1 = u0 + w / S(3), m2 = u0 + S(2) * w / S(3);
    const S nan = std::numeric_limits<S>::quiet_NaN();
    if (thirds) *thirds = {nan, nan};
    if (!(u0 < m1 && m1 < m2 && m2 < u1))
      return hodograph_.rule(u0, u1);  // below the scalar's resolution
    Assessment assessment{true, nan};
    if (depth > 0 && budget_ > 0) assessment = assess(u0, u1);
    if (!assessment.clear && !std::isnan(assessment.split)) {
      refined_ = true;
      --budget_;
      const S split = assessment.split;
      return integrate(u0, split, tolerance * ((split - u0) / w), depth - 1, nullptr) +
             integrate(split, u1, tolerance * ((u1 - split) / w), depth - 1, nullptr);
    }
    S parts[3] = {nan, nan, nan};
    const S edges[4] = {u0, m1, m2, u1};
    if (assessment.clear) {
      S whole = S(0);
      rules(edges, whole, parts);
      const S sum = parts[0] + parts[1] + parts[2];
      using std::abs;
      // The thirds are over 1000× more accurate than the whole here, so a difference of 64×
      // the tolerance leaves them well within it. Below round-off the thirds cannot improve:
      // accept them there too, or a shrinking tolerance would send every smooth piece down to
      // the depth bound. Overflowed speeds cannot be refined (inf − inf = NaN); build() reports
      // the overflow.
      const S difference = abs(whole - sum);
      if (!std::isfinite(sum) || !std::isfinite(whole) || depth == 0 || budget_ <= 0 ||
          difference <= S(64) * tolerance ||
          difference <= S(16) * detail::epsilon<S>() * abs(sum)) {
        if (thirds) *thirds = {parts[0], parts[0] + parts[1]};
        return sum;
      }
    }
    refined_ = true;
    --budget_;
    for (std::size_t i = 0; i < 3; ++i)
      parts[i] = integrate(edges[i], edges[i + 1], tolerance / S(3), depth - 1, nullptr);
    if (thirds) *thirds = {parts[0], parts[0] + parts[1]};
    return parts[0] + parts[1] + parts[2];
  }

  const Hodograph<S>& hodograph_;
  S tolerance_per_u_;
  std::array<S, 9> unit_{};
  std::array<S, 4> cubic_{};
  S a_norm_ = S(0);
  S slowest_ = S(0), bend_ = S(0);  // min |r'|² and max |r''| over [0, 1]
  // Parameters in (0, 1) where the speed has a local minimum, ascending; found on first use.
  std::array<S, 2> minima_{};
  int minimum_count_ = -1;
  int budget_ = 512;  // splits per integrate() call: bounds the work on any input
  bool refined_ = false;
};

}  // namespace tractrix
