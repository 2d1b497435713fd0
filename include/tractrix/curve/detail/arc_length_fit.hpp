/// @file
/// The engine behind CompiledPath (curve/compiled_path.hpp): a cell's polynomials in arc length,
/// fitted at Chebyshev–Lobatto nodes, checked between them and halved until they hold. Not API.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "tractrix/core/attributes.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/core/vector.hpp"

#include <Eigen/LU>

namespace tractrix::detail {

// The degree of a cell's polynomials. Seven: on track whose radius is a few cells long a
// degree-7 fit reaches 1e-12 of the length in one cell a segment, where degree 5 needs three or
// four (more bytes, not fewer).
inline constexpr int fit_degree = 7;

// One cell: on distances [mid − half, mid + half] the point (components 0..D−1) and the path
// parameter (component D) as polynomials in x = (s − mid)·inv_half ∈ [−1, 1], power form,
// coefficient k of every component together. inv_half = 0 marks a cell no polynomial fits (a
// cusp): its samples come from the measured path.
template <class S, int D>
struct FittedCell {
  static constexpr std::size_t components = static_cast<std::size_t>(D) + 1;
  S mid = S(0), inv_half = S(0);
  std::array<std::array<S, components>, fit_degree + 1> coefficients{};
};

// Whether a polynomial holds on the cell (not a cell left to the measured path).
template <class S, int D>
TRACTRIX_FORCE_INLINE bool fitted(const FittedCell<S, D>& cell) noexcept {
  return cell.inv_half > S(0);
}

// A cell's value and its derivative in s at distance s (Horner on both at once).
template <class S, int D>
TRACTRIX_FORCE_INLINE void evaluate_cell(const FittedCell<S, D>& cell, S s, S* value,
                                         S* slope) noexcept {
  const S x = (s - cell.mid) * cell.inv_half;
  const auto& c = cell.coefficients;
  for (int k = 0; k <= D; ++k) {
    value[k] = c[fit_degree][static_cast<std::size_t>(k)];
    slope[k] = S(0);
  }
  for (int j = fit_degree - 1; j >= 0; --j) {
    for (int k = 0; k <= D; ++k) {
      slope[k] = slope[k] * x + value[k];
      value[k] = value[k] * x + c[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)];
    }
  }
  for (int k = 0; k < D; ++k)
    slope[k] *= cell.inv_half;
}

// The unit tangent from a slope that is unit to the fit's accuracy (the curve is parameterized
// by arc length): one Newton step for 1/√q from 1, no square root or division. Exact to
// 3/8·(q − 1)² relative, below rounding wherever the fit holds its tangent tolerance.
template <class S, int D>
TRACTRIX_FORCE_INLINE void unit_from_slope(const S* slope, S* unit) noexcept {
  S q = S(0);
  for (int k = 0; k < D; ++k)
    q += slope[k] * slope[k];
  const S scale = (S(3) - q) * S(0.5);
  for (int k = 0; k < D; ++k)
    unit[k] = slope[k] * scale;
}

// x_j = cos(πj/N), j = 0..N: the Chebyshev–Lobatto nodes, both ends included, so neighbouring
// cells agree exactly where they meet.
inline double lobatto_node(int j) noexcept {
  const double pi = 3.14159265358979323846;
  return std::cos(pi * j / fit_degree);
}

// Power-form coefficients on [−1, 1] of the polynomial through values f_j at x_j (the DCT-I
// gives its Chebyshev series, expanded through T_{k+1} = 2x·T_k − T_{k−1}).
inline std::array<double, fit_degree + 1> fit_power_form(
    const std::array<double, fit_degree + 1>& f) noexcept {
  constexpr int n = fit_degree;
  const double pi = 3.14159265358979323846;
  std::array<double, n + 1> chebyshev{};
  for (int k = 0; k <= n; ++k) {
    double sum = 0;
    for (int j = 0; j <= n; ++j) {
      const double w = (j == 0 || j == n) ? 0.5 : 1.0;
      sum += w * f[static_cast<std::size_t>(j)] * std::cos(pi * j * k / n);
    }
    chebyshev[static_cast<std::size_t>(k)] = sum * (2.0 / n) * ((k == 0 || k == n) ? 0.5 : 1.0);
  }
  std::array<double, n + 1> power{}, previous{}, current{}, next{};
  previous[0] = 1;  // T_0
  current[1] = 1;   // T_1
  power[0] = chebyshev[0];
  for (int i = 0; i <= n; ++i)
    power[static_cast<std::size_t>(i)] += chebyshev[1] * current[static_cast<std::size_t>(i)];
  for (int k = 2; k <= n; ++k) {
    next.fill(0);
    for (int i = 0; i < n; ++i)
      next[static_cast<std::size_t>(i) + 1] += 2 * current[static_cast<std::size_t>(i)];
    for (int i = 0; i <= n; ++i)
      next[static_cast<std::size_t>(i)] -= previous[static_cast<std::size_t>(i)];
    for (int i = 0; i <= n; ++i)
      power[static_cast<std::size_t>(i)] +=
          chebyshev[static_cast<std::size_t>(k)] * next[static_cast<std::size_t>(i)];
    previous = current;
    current = next;
  }
  return power;
}

// The Hermite nodes: the point and its unit tangent are matched at x = cos(πj/3), j = 0..3
// (both ends, so neighbouring cells meet with the same point and tangent).
inline constexpr int hermite_nodes = (fit_degree + 1) / 2;
// The data of one component: values at the Hermite nodes, then x-derivatives.
inline constexpr std::size_t hermite_data = 2 * static_cast<std::size_t>(hermite_nodes);
inline double hermite_node(int j) noexcept {
  const double pi = 3.14159265358979323846;
  return std::cos(pi * j / (hermite_nodes - 1));
}

// Power-form coefficients on [−1, 1] of the degree-7 polynomial with values f_j = data[j] and
// x-derivatives data[4 + j] at the Hermite nodes: the confluent Vandermonde system, its inverse
// formed once.
inline std::array<double, fit_degree + 1> hermite_power_form(
    const std::array<double, hermite_data>& data) noexcept {
  constexpr int n = fit_degree + 1;
  using Matrix = Eigen::Matrix<double, n, n>;
  static const Matrix inverse = [] {
    Matrix m = Matrix::Zero();
    for (int j = 0; j < hermite_nodes; ++j) {
      const double x = hermite_node(j);
      for (int k = 0; k < n; ++k) {
        m(j, k) = std::pow(x, k);
        m(hermite_nodes + j, k) = k == 0 ? 0.0 : k * std::pow(x, k - 1);
      }
    }
    return Matrix(m.fullPivLu().inverse());
  }();
  Eigen::Matrix<double, n, 1> b;
  for (int i = 0; i < n; ++i)
    b(i) = data[static_cast<std::size_t>(i)];
  const Eigen::Matrix<double, n, 1> c = inverse * b;
  std::array<double, n> out{};
  for (int i = 0; i < n; ++i)
    out[static_cast<std::size_t>(i)] = c(i);
  return out;
}

// Fits a measured path cell by cell. `Measured` answers parameter_at(s), and its path
// evaluate(t) (point and dr/dt) and unit_tangent(t). Cells split at the knots (a segment's
// polynomial pieces meet there only with C¹ continuity) and are halved until the position holds
// `position_tolerance` and the unit tangent `tangent_tolerance` at the midpoints between the
// nodes; a cell halved `max_depth` times without fitting (a cusp) is left to the measured path.
template <class S, int D, class Measured>
struct ArcLengthFitter {
  const Measured& measured;
  double position_tolerance, tangent_tolerance;
  double rounding;  // of the points: eps of the largest coordinate
  int max_depth;
  std::vector<FittedCell<S, D>> cells;
  std::vector<S> starts;  // cell i covers [starts[i], starts[i + 1])

  struct Span {
    double s0, s1, t0, t1;
    int depth;
  };

  // Cells over [s0, s1], the segment between parameters t0 and t1, in order of distance.
  void fit_segment(double s0, double s1, double t0, double t1) {
    std::vector<Span> stack{{s0, s1, t0, t1, 0}};  // the top is the cell nearest the start
    while (!stack.empty()) {
      const Span span = stack.back();
      stack.pop_back();
      if (!(span.s1 > span.s0)) continue;  // a zero-length segment: no cell
      FittedCell<S, D> cell;
      if (fit(span, cell) || span.depth >= max_depth) {
        if (!(span.depth < max_depth)) cell.inv_half = S(0);  // no fit: the measured path's
        // A run of cells left to the measured path is one cell.
        const bool extends = !fitted(cell) && !cells.empty() && !fitted(cells.back());
        if (!extends) {
          starts.push_back(static_cast<S>(span.s0));
          cells.push_back(cell);
        }
        continue;
      }
      const double s_mid = 0.5 * (span.s0 + span.s1);
      const double t_mid = parameter(s_mid, span.t0, span.t1);
      stack.push_back({s_mid, span.s1, t_mid, span.t1, span.depth + 1});
      stack.push_back({span.s0, s_mid, span.t0, t_mid, span.depth + 1});
    }
  }

  // The parameter at s, kept inside the span's parameters.
  double parameter(double s, double t0, double t1) const {
    const double t = static_cast<double>(measured.parameter_at(static_cast<S>(s)));
    return t < t0 ? t0 : (t > t1 ? t1 : t);
  }

  // The polynomials: the point's through its values and unit tangents at the Hermite nodes
  // (derivatives taken from the path, not from neighbouring values, so a node's rounding is not
  // magnified by 1/h), the parameter's through its values at the Lobatto nodes. True when they
  // hold the tolerances between the nodes.
  bool fit(const Span& span, FittedCell<S, D>& cell) const {
    constexpr int n = fit_degree;
    const double mid = 0.5 * (span.s0 + span.s1), half = 0.5 * (span.s1 - span.s0);
    std::array<double, n + 1> parameters{};
    for (int j = 0; j <= n; ++j) {
      // Node 0 is the span's end (x = 1), node n its start: their parameters are known exactly.
      const double s = mid + half * lobatto_node(j);
      parameters[static_cast<std::size_t>(j)] = j == 0   ? span.t1
                                                : j == n ? span.t0
                                                         : parameter(s, span.t0, span.t1);
    }
    std::array<std::array<double, hermite_data>, static_cast<std::size_t>(D)> data{};
    for (int j = 0; j < hermite_nodes; ++j) {
      const double s = mid + half * hermite_node(j);
      const double t = j == 0                   ? span.t1
                       : j == hermite_nodes - 1 ? span.t0
                                                : parameter(s, span.t0, span.t1);
      const auto point = measured.path().evaluate(static_cast<S>(t)).point;
      const auto direction = measured.path().unit_tangent(static_cast<S>(t));
      for (std::size_t k = 0; k < std::size_t(D); ++k) {
        data[k][static_cast<std::size_t>(j)] = double(point[Eigen::Index(k)]);
        data[k][static_cast<std::size_t>(hermite_nodes) + static_cast<std::size_t>(j)] =
            half * double(direction[Eigen::Index(k)]);
      }
    }
    cell.mid = static_cast<S>(mid);
    cell.inv_half = static_cast<S>(1.0 / half);
    for (std::size_t k = 0; k <= std::size_t(D); ++k) {
      // Fitted relative to the cell's end point, so the system's conditioning multiplies the
      // rounding of the cell's size, not of the coordinates'.
      std::array<double, fit_degree + 1> power;
      if (k < std::size_t(D)) {
        auto relative = data[k];
        const double origin = relative[0];
        for (int j = 0; j < hermite_nodes; ++j)
          relative[static_cast<std::size_t>(j)] -= origin;
        power = hermite_power_form(relative);
        power[0] += origin;
      } else {
        power = fit_power_form(parameters);
      }
      for (std::size_t i = 0; i <= std::size_t(n); ++i)
        cell.coefficients[i][k] = static_cast<S>(power[i]);
    }
    return holds(span, cell);
  }

  // Whether the cell's point and unit tangent, as sample computes them, are within tolerance of
  // the measured path's at the midpoints between the nodes.
  bool holds(const Span& span, const FittedCell<S, D>& cell) const {
    const double pi = 3.14159265358979323846;
    const double mid = 0.5 * (span.s0 + span.s1), half = 0.5 * (span.s1 - span.s0);
    // The points' own rounding, divided by the cell's size, limits how well any fit can follow
    // the direction: a short cell far from the origin is held to that instead.
    // Nor can a fit within the position tolerance resolve a direction finer than that tolerance
    // over the cell's size.
    const double tangent_limit =
        std::max({tangent_tolerance, 32 * rounding / half, 4 * position_tolerance / half});
    for (int j = 0; j < fit_degree; ++j) {
      const double s = mid + half * std::cos(pi * (j + 0.5) / fit_degree);
      const double t = parameter(s, span.t0, span.t1);
      S value[static_cast<std::size_t>(D) + 1], slope[static_cast<std::size_t>(D) + 1],
          unit[static_cast<std::size_t>(D)];
      evaluate_cell(cell, static_cast<S>(s), value, slope);
      unit_from_slope<S, D>(slope, unit);
      const auto at = measured.path().evaluate(static_cast<S>(t));
      const auto& exact = at.point;
      const auto direction = measured.path().unit_tangent(static_cast<S>(t));
      double position2 = 0, tangent2 = 0;
      for (int k = 0; k < D; ++k) {
        const double dp = double(value[k]) - double(exact[k]);
        const double dt = double(unit[k]) - double(direction[k]);
        position2 += dp * dp;
        tangent2 += dt * dt;
      }
      // The parameter as exact as the point: the point at the fitted parameter within tolerance.
      const double along = std::abs(double(value[D]) - t) * double(at.tangent.norm());
      if (!(position2 <= position_tolerance * position_tolerance) ||
          !(along <= position_tolerance) || !(tangent2 <= tangent_limit * tangent_limit))
        return false;
    }
    return true;
  }
};

}  // namespace tractrix::detail
