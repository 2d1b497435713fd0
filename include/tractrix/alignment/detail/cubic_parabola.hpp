/// @file
/// Internal: the cubic parabola y = a x³ as power series in its arc length, for the horizontal
/// layout's CUBIC segments. Its abscissa along the arc, x(s), solves x' = (1 + 9a²x⁴)^(-1/2);
/// the ODE's Taylor series is computed term by term (series arithmetic: x², x⁴, and the power
/// −1/2 by its recurrence), and y = a x³ follows by products. The series of x(s) converges
/// within the distance from x to the nearest zero of 1 + 9a²x⁴ (|x| = (3|a|)^(-1/2), at ±45° and
/// ±135°): cells are kept to an eighth of it and their last terms checked.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstddef>

namespace tractrix::detail {

constexpr int cubic_series_degree = 20;
using CubicSeries = std::array<double, cubic_series_degree + 1>;

// c = a * b, truncated to the series' degree.
inline CubicSeries series_product(const CubicSeries& a, const CubicSeries& b) noexcept {
  CubicSeries c{};
  for (std::size_t i = 0; i < c.size(); ++i)
    for (std::size_t j = 0; i + j < c.size(); ++j)
      c[i + j] += a[i] * b[j];
  return c;
}

// The Taylor series in v of x(s0 + step·v) on y = a x³, from x(s0) = x0, and whether its last
// terms are below rounding (false: the step is too long for the series).
inline bool cubic_abscissa_series(double a, double x0, double step, CubicSeries& x) noexcept {
  constexpr int N = cubic_series_degree;
  x = CubicSeries{};
  x[0] = x0;
  CubicSeries q{}, r{};  // q = 1 + 9a²x⁴, r = q^(-1/2), both as far as x is known
  const double k9 = 9 * a * a;
  for (int k = 0; k < N; ++k) {
    // q_k needs x_0 … x_k: x⁴'s k-th coefficient.
    const CubicSeries square = series_product(x, x), fourth = series_product(square, square);
    q[static_cast<std::size_t>(k)] =
        (k == 0 ? 1.0 : 0.0) + k9 * fourth[static_cast<std::size_t>(k)];
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

// The longest step from x along the arc that keeps the series well inside its convergence:
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

inline double series_value(const CubicSeries& c, double v) noexcept {
  double sum = c[cubic_series_degree];
  for (int k = cubic_series_degree - 1; k >= 0; --k)
    sum = sum * v + c[static_cast<std::size_t>(k)];
  return sum;
}

}  // namespace tractrix::detail
