/// @file
/// Internal: the abscissa of a graph y(x) as a power series in its arc length s, for the
/// horizontal layout's cubic parabola (y = a x³, slope 3a x²) and the vertical layout's parabolic
/// arcs (slope gs + r x). With slope p(x), x(s) solves x' = (1 + p(x)²)^(-1/2); its Taylor series
/// is computed term by term (series arithmetic: p(x(s)), its square, and the power −1/2 by its
/// recurrence). The series converges within the distance to the nearest complex zero of
/// 1 + p(x)²; cells are kept to an eighth of it and their last terms checked.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstddef>

namespace tractrix::detail {

constexpr int graph_series_degree = 20;
using GraphSeries = std::array<double, graph_series_degree + 1>;

// c = a * b, truncated to the series' degree.
inline GraphSeries series_product(const GraphSeries& a, const GraphSeries& b) noexcept {
  GraphSeries c{};
  for (std::size_t i = 0; i < c.size(); ++i)
    for (std::size_t j = 0; i + j < c.size(); ++j)
      c[i + j] += a[i] * b[j];
  return c;
}

// The Taylor series in v of x(s0 + step·v) on the graph whose slope is p(x) = slope[0] +
// slope[1] x + slope[2] x², from x(s0) = x0, and whether its last terms are below rounding
// (false: the step is too long for the series).
inline bool graph_abscissa_series(const std::array<double, 3>& slope, double x0, double step,
                                  GraphSeries& x) noexcept {
  constexpr int N = graph_series_degree;
  x = GraphSeries{};
  x[0] = x0;
  GraphSeries q{}, r{};  // q = 1 + p(x)², r = q^(-1/2), both as far as x is known
  for (int k = 0; k < N; ++k) {
    // q_k needs x_0 … x_k: the k-th coefficient of 1 + p(x)².
    const GraphSeries square = series_product(x, x);
    GraphSeries p{};
    for (std::size_t i = 0; i < p.size(); ++i)
      p[i] = slope[1] * x[i] + slope[2] * square[i];
    p[0] += slope[0];
    q[static_cast<std::size_t>(k)] =
        (k == 0 ? 1.0 : 0.0) + series_product(p, p)[static_cast<std::size_t>(k)];
    if (k == 0) {
      r[0] = 1 / std::sqrt(q[0]);
    } else {
      // r = q^α: k q0 r_k = Σ_{j=1..k} (α j − (k − j)) q_j r_{k−j}, α = −1/2.
      double sum = 0;
      for (int j = 1; j <= k; ++j)
        sum += (-0.5 * j - (k - j)) * q[static_cast<std::size_t>(j)] *
               r[static_cast<std::size_t>(k - j)];
      r[static_cast<std::size_t>(k)] = sum / (k * q[0]);
    }
    x[static_cast<std::size_t>(k) + 1] = step * r[static_cast<std::size_t>(k)] / (k + 1);
  }
  const double tail = std::abs(x[N]) + std::abs(x[N - 1]);
  return tail <= 0x1p-60 * std::abs(step);
}

// The cubic parabola's longest step from x that keeps the series well inside its convergence:
// an eighth of the distance to the nearest zero of 1 + 9a²x⁴ (infinite for a = 0).
inline double cubic_step_limit(double a, double x) noexcept {
  if (!(std::abs(a) > 0)) return 1e300;
  const double radius = 1 / std::sqrt(3 * std::abs(a));
  double nearest = 1e300;
  for (int m = 0; m < 4; ++m) {
    const std::complex<double> zero = std::polar(radius, (2 * m + 1) * 0.7853981633974483);
    nearest = std::min(nearest, std::abs(zero - x));
  }
  return nearest / 8;
}

inline double series_value(const GraphSeries& c, double v) noexcept {
  double sum = c[graph_series_degree];
  for (int k = graph_series_degree - 1; k >= 0; --k)
    sum = sum * v + c[static_cast<std::size_t>(k)];
  return sum;
}

}  // namespace tractrix::detail
