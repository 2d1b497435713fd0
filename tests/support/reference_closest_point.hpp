// The nearest point of a path by brute force in long double, for tests of the exact closest-point
// searches (MeasuredPath, Network): shares nothing with the library's search.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "support/reference_arc_length.hpp"
#include "tractrix/curve/path.hpp"

namespace tractrix::test {

using LongPoint = std::array<long double, 3>;

// The nearest point by brute force in long double, sharing nothing with the library's search:
// every segment sampled in Bernstein form at 512 parameters; around each sampled local minimum of
// the squared distance, the sign change of (r − q)·r' (also Bernstein, long double) is bisected
// to the last bit. Also reports the nearest local minimum elsewhere on the path, so a test knows
// when two branches are (nearly) equally near and the answer's position is a tie.
struct Reference {
  long double squared = std::numeric_limits<long double>::infinity();
  long double distance = 0;  // along the path (tanh–sinh arc lengths, ReferenceArcLength)
  long double second = std::numeric_limits<long double>::infinity();  // elsewhere
  long double curvature_term = 0;  // d²(|r − q|²)/ds² / 2 at the answer: small = ill-conditioned
};

template <class S>
LongPoint point_of(const Bezier<S, 3, 3>& b, long double u, int derivative = 0) {
  const long double v = 1 - u;
  LongPoint out{};
  for (std::size_t k = 0; k < 3; ++k) {
    const Eigen::Index c = static_cast<Eigen::Index>(k);
    const long double p0 = b.points[0][c], p1 = b.points[1][c], p2 = b.points[2][c],
                      p3 = b.points[3][c];
    if (derivative == 0)
      out[k] = v * v * v * p0 + 3 * u * v * v * p1 + 3 * u * u * v * p2 + u * u * u * p3;
    else if (derivative == 1)
      out[k] = 3 * (v * v * (p1 - p0) + 2 * u * v * (p2 - p1) + u * u * (p3 - p2));
    else
      out[k] = 6 * (v * (p2 - 2 * p1 + p0) + u * (p3 - 2 * p2 + p1));
  }
  return out;
}

template <class S>
long double squared_to(const Bezier<S, 3, 3>& b, long double u, const LongPoint& q) {
  const LongPoint p = point_of(b, u);
  long double sum = 0;
  for (std::size_t k = 0; k < 3; ++k)
    sum += (p[k] - q[k]) * (p[k] - q[k]);
  return sum;
}

template <class S>
long double slope(const Bezier<S, 3, 3>& b, long double u, const LongPoint& q) {
  const LongPoint p = point_of(b, u), d = point_of(b, u, 1);
  long double sum = 0;
  for (std::size_t k = 0; k < 3; ++k)
    sum += (p[k] - q[k]) * d[k];
  return sum;
}

template <class S>
Reference reference(const Path<S, 3>& path, const Vector3<S>& query) {
  const LongPoint q{query[0], query[1], query[2]};
  struct Minimum {
    std::size_t segment;
    long double u, squared, along;
  };
  std::vector<Minimum> minima;
  long double before = 0;
  const int samples = 512;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const auto& b = path.segment(i);
    const ReferenceArcLength arc(b);
    std::vector<long double> f(samples + 1);
    for (int j = 0; j <= samples; ++j)
      f[static_cast<std::size_t>(j)] = squared_to(b, static_cast<long double>(j) / samples, q);
    for (int j = 0; j <= samples; ++j) {
      const std::size_t k = static_cast<std::size_t>(j);
      if (j > 0 && f[k - 1] < f[k]) continue;
      if (j < samples && f[k + 1] < f[k]) continue;
      long double lo = std::max(0.0L, (j - 1.0L) / samples);
      long double hi = std::min(1.0L, (j + 1.0L) / samples);
      long double u = static_cast<long double>(j) / samples;
      // Bisect the derivative's sign change (− before the minimum, + after) where there is one;
      // an end of the bracket may be a cusp, where the derivative is exactly 0.
      const long double slope_lo = slope(b, lo, q), slope_hi = slope(b, hi, q);
      if (slope_lo <= 0 && slope_hi >= 0 && (slope_lo < 0 || slope_hi > 0)) {
        for (int it = 0; it < 128; ++it) {
          const long double mid = (lo + hi) / 2;
          (slope(b, mid, q) < 0 ? lo : hi) = mid;
        }
        u = (lo + hi) / 2;
      } else if (j > 0 && j < samples) {
        continue;  // a flat sample plateau, not a minimum
      }
      minima.push_back({i, u, squared_to(b, u, q), before + arc.distance(u)});
    }
    before += arc.length();
  }
  Reference out;
  const long double total = before;
  std::size_t best = 0;
  for (std::size_t m = 0; m < minima.size(); ++m)
    if (minima[m].squared < minima[best].squared) best = m;
  out.squared = minima[best].squared;
  out.distance = minima[best].along;
  for (const auto& m : minima) {
    long double apart = std::abs(m.along - out.distance);
    if (path.closed()) apart = std::min(apart, total - apart);
    if (apart > 1e-6L * total) out.second = std::min(out.second, m.squared);
  }
  // d²/ds² of |r − q|²/2 = 1 + (r − q)·r''/|r'|² − ((r − q)·r')(r'·r'')/|r'|⁴; at a minimum
  // inside a segment the last term vanishes.
  const auto& b = path.segment(minima[best].segment);
  const LongPoint p = point_of(b, minima[best].u), d1 = point_of(b, minima[best].u, 1),
                  d2 = point_of(b, minima[best].u, 2);
  long double pd2 = 0, speed2 = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    pd2 += (p[k] - q[k]) * d2[k];
    speed2 += d1[k] * d1[k];
  }
  out.curvature_term = 1 + pd2 / speed2;
  return out;
}

}  // namespace tractrix::test
