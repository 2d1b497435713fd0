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

// The fits' systems, one row a datum, one column a power of x.
using FitMatrix = Eigen::Matrix<double, fit_degree + 1, fit_degree + 1>;
using FitVector = Eigen::Matrix<double, fit_degree + 1, 1>;

// x_j = cos(πj/m), j = 0..m: the Chebyshev–Lobatto nodes on [−1, 1], x_0 = 1 the cell's end and
// x_m = −1 its start, so neighbouring cells agree exactly where they meet.
inline double lobatto_node(int j, int m) noexcept {
  const double pi = 3.14159265358979323846;
  return std::cos(pi * j / m);
}

// Where a degree-7 fit is checked, j = 0..6: the midpoints (in angle) between its Lobatto nodes,
// on [−1, 1].
inline double check_node(int j) noexcept {
  const double pi = 3.14159265358979323846;
  return std::cos(pi * (j + 0.5) / fit_degree);
}

// What a fit is given. `values`: the values at the degree-7 Lobatto nodes (the parameter's fit).
// `hermite`: the values at the degree-3 Lobatto nodes, then the x-derivatives there (the
// point's fit: derivatives from the path, not from neighbouring values, so a node's rounding is
// not magnified by 1/h). Hermite data's first hermite_nodes rows are values.
enum class FitData { values, hermite };
inline constexpr int hermite_nodes = (fit_degree + 1) / 2;

// The abscissa of datum `row` of a fit, and whether that datum is a derivative.
inline double fit_node(FitData kind, int row) noexcept {
  return kind == FitData::values ? lobatto_node(row, fit_degree)
                                 : lobatto_node(row % hermite_nodes, hermite_nodes - 1);
}
inline bool fit_derivative(FitData kind, int row) noexcept {
  return kind == FitData::hermite && row >= hermite_nodes;
}

// Power-form coefficients on [−1, 1] from a fit's data: the inverse of its (confluent)
// Vandermonde system, formed once for each kind. The data are taken relative to the first value
// (the cell's end), so the system's conditioning multiplies the rounding of the cell's size, not
// of the coordinates'.
template <FitData kind>
FitVector power_form(FitVector data) noexcept {
  constexpr int n = fit_degree + 1;
  static const FitMatrix inverse = [] {
    FitMatrix m;
    for (int row = 0; row < n; ++row) {
      const double x = fit_node(kind, row);
      for (int k = 0; k < n; ++k)
        m(row, k) = !fit_derivative(kind, row) ? std::pow(x, k)
                    : k == 0                   ? 0.0
                                               : k * std::pow(x, k - 1);
    }
    return FitMatrix(m.fullPivLu().inverse());
  }();
  const double origin = data(0);
  for (int row = 0; row < n; ++row)
    if (!fit_derivative(kind, row)) data(row) -= origin;
  FitVector power = inverse * data;
  power(0) += origin;
  return power;
}

// Cells over `first` (a span with s0, s1 and depth), in order of distance: each span is fitted
// by fit(span, cell) or, where that fails, halved by halve(span) (a pair, the nearer half
// first) until it is `max_depth` halvings deep; there it becomes a cell with no fit (inv_half
// 0), and a run of such cells is one cell. Zero-length spans make no cell. The halving behind
// CompiledPath and the compiled chord offsets.
template <class S, class Cell, class Span, class Fit, class Halve>
void fit_by_halving(const Span& first, int max_depth, const Fit& fit, const Halve& halve,
                    std::vector<Cell>& cells, std::vector<S>& starts) {
  std::vector<Span> stack{first};  // the top is the cell nearest the start
  while (!stack.empty()) {
    const Span span = stack.back();
    stack.pop_back();
    if (!(span.s1 > span.s0)) continue;
    Cell cell;
    const bool fits = fit(span, cell);
    if (fits || span.depth >= max_depth) {
      if (!fits) cell.inv_half = 0;
      const bool extends = !fitted(cell) && !cells.empty() && !fitted(cells.back());
      if (!extends) {
        starts.push_back(static_cast<S>(span.s0));
        cells.push_back(cell);
      }
      continue;
    }
    const auto [nearer, farther] = halve(span);
    stack.push_back(farther);
    stack.push_back(nearer);
  }
}

// A one-component cell's value at s (the compiled chord offsets, the compiled path's distance
// cells). Estrin's scheme, not Horner's: three levels of products that run side by side, not
// seven in a row (a chord guess or a closest point waits on it).
static_assert(fit_degree == 7, "evaluate_scalar_cell spells out a degree-7 polynomial");
template <class S>
TRACTRIX_FORCE_INLINE S evaluate_scalar_cell(const FittedCell<S, 0>& cell, S s) noexcept {
  const S x = (s - cell.mid) * cell.inv_half, x2 = x * x, x4 = x2 * x2;
  const auto c = [&cell](std::size_t k) { return cell.coefficients[k][0]; };
  const S low = (c(0) + c(1) * x) + x2 * (c(2) + c(3) * x);
  const S high = (c(4) + c(5) * x) + x2 * (c(6) + c(7) * x);
  return low + x4 * high;
}

// f over [s0, s1] as one degree-7 polynomial, through its values at the Lobatto nodes (the ends
// exactly, so neighbouring cells agree where they meet); true when, as evaluate_scalar_cell
// sums it, it holds `tolerance` at the check nodes between them. False where f is not finite.
template <class S, class F>
bool fit_scalar_cell(double s0, double s1, const F& f, double tolerance, FittedCell<S, 0>& cell) {
  const double mid = 0.5 * (s0 + s1), half = 0.5 * (s1 - s0);
  FitVector data;
  for (int j = 0; j <= fit_degree; ++j) {
    const double s = j == 0 ? s1 : j == fit_degree ? s0 : mid + half * lobatto_node(j, fit_degree);
    data(j) = f(s);
    if (!std::isfinite(data(j))) return false;
  }
  const FitVector power = power_form<FitData::values>(data);
  cell.mid = static_cast<S>(mid);
  cell.inv_half = static_cast<S>(1.0 / half);
  for (std::size_t i = 0; i <= std::size_t(fit_degree); ++i)
    cell.coefficients[i][0] = static_cast<S>(power(Eigen::Index(i)));
  for (int j = 0; j < fit_degree; ++j) {
    const double s = mid + half * check_node(j);
    const double value = f(s);
    if (!std::isfinite(value) ||
        !(std::abs(double(evaluate_scalar_cell(cell, static_cast<S>(s))) - value) <= tolerance))
      return false;
  }
  return true;
}

// The distance along a path as polynomials in the path parameter t (what CompiledPath::
// distance_at evaluates, a closest point's distance along): cells over each segment, fitted to
// `distance(t)` (in double, exact) by fit_scalar_cell and halved up to `max_depth` times; a cell
// with inv_half 0 where none holds (the measured path answers there). Halved on t, not on s as
// the point's cells are: the distance depends only on the speed |r'(t)|, smooth across the tight
// turns that make the point's cells short.
template <class S, class Distance>
void fit_distances(const Distance& distance, std::size_t segments, double tolerance, int max_depth,
                   std::vector<FittedCell<S, 0>>& cells, std::vector<S>& starts) {
  struct Span {
    double s0, s1;  // parameters (fit_by_halving's names)
    int depth;
  };
  const auto fit = [&](const Span& span, FittedCell<S, 0>& cell) {
    return span.depth < max_depth && fit_scalar_cell(span.s0, span.s1, distance, tolerance, cell);
  };
  const auto halve = [](const Span& span) {
    const double mid = 0.5 * (span.s0 + span.s1);
    return std::pair<Span, Span>{{span.s0, mid, span.depth + 1}, {mid, span.s1, span.depth + 1}};
  };
  for (std::size_t i = 0; i < segments; ++i)
    fit_by_halving<S>(Span{double(i), double(i + 1), 0}, max_depth, fit, halve, cells, starts);
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

  // Cells over [s0, s1], the segment between parameters t0 and t1, in order of distance. (A
  // cell that only fits at max_depth is left to the measured path too.)
  void fit_segment(double s0, double s1, double t0, double t1) {
    fit_by_halving<S>(
        Span{s0, s1, t0, t1, 0}, max_depth,
        [this](const Span& span, FittedCell<S, D>& cell) {
          return span.depth < max_depth && fit(span, cell);
        },
        [this](const Span& span) {
          const double s_mid = 0.5 * (span.s0 + span.s1);
          const double t_mid = parameter(s_mid, span.t0, span.t1);
          return std::pair<Span, Span>{{span.s0, s_mid, span.t0, t_mid, span.depth + 1},
                                       {s_mid, span.s1, t_mid, span.t1, span.depth + 1}};
        },
        cells, starts);
  }

  // The parameter at s, kept inside the span's parameters.
  double parameter(double s, double t0, double t1) const {
    const double t = static_cast<double>(measured.parameter_at(static_cast<S>(s)));
    return t < t0 ? t0 : (t > t1 ? t1 : t);
  }

  // The parameter at value node j of a fit (fit_node), exact at the span's ends.
  double node_parameter(const Span& span, FitData kind, int j) const {
    const int last = kind == FitData::values ? fit_degree : hermite_nodes - 1;
    if (j == 0) return span.t1;
    if (j == last) return span.t0;
    const double s = 0.5 * (span.s0 + span.s1) + 0.5 * (span.s1 - span.s0) * fit_node(kind, j);
    return parameter(s, span.t0, span.t1);
  }

  // The polynomials: the point's through its values and unit tangents (hermite data), the
  // parameter's through its values (values data). True when they hold the tolerances between
  // the nodes.
  bool fit(const Span& span, FittedCell<S, D>& cell) const {
    const double mid = 0.5 * (span.s0 + span.s1), half = 0.5 * (span.s1 - span.s0);
    std::array<FitVector, static_cast<std::size_t>(D) + 1> data;
    for (int j = 0; j <= fit_degree; ++j)
      data[static_cast<std::size_t>(D)](j) = node_parameter(span, FitData::values, j);
    for (int j = 0; j < hermite_nodes; ++j) {
      const S t = static_cast<S>(node_parameter(span, FitData::hermite, j));
      const auto point = measured.path().evaluate(t).point;
      // At the segment's end the tangent is the one it arrives with: unit_tangent(t) there is
      // where the next segment leaves, another direction at a corner (a polyline's knot).
      const auto segment = static_cast<std::size_t>(span.t0);
      const bool at_end = j == 0 && !(span.t1 < double(segment + 1));
      const auto direction =
          at_end ? measured.path().end_tangent(segment) : measured.path().unit_tangent(t);
      for (std::size_t k = 0; k < std::size_t(D); ++k) {
        data[k](j) = double(point[Eigen::Index(k)]);
        data[k](hermite_nodes + j) = half * double(direction[Eigen::Index(k)]);
      }
    }
    cell.mid = static_cast<S>(mid);
    cell.inv_half = static_cast<S>(1.0 / half);
    for (std::size_t k = 0; k <= std::size_t(D); ++k) {
      const FitVector power = k < std::size_t(D) ? power_form<FitData::hermite>(data[k])
                                                 : power_form<FitData::values>(data[k]);
      for (std::size_t i = 0; i <= std::size_t(fit_degree); ++i)
        cell.coefficients[i][k] = static_cast<S>(power(Eigen::Index(i)));
    }
    return holds(span, cell);
  }

  // Whether the cell's point and unit tangent, as sample computes them, are within tolerance of
  // the measured path's at the midpoints between the nodes.
  bool holds(const Span& span, const FittedCell<S, D>& cell) const {
    const double mid = 0.5 * (span.s0 + span.s1), half = 0.5 * (span.s1 - span.s0);
    // The points' own rounding, divided by the cell's size, limits how well any fit can follow
    // the direction: a short cell far from the origin is held to that instead.
    // Nor can a fit within the position tolerance resolve a direction finer than that tolerance
    // over the cell's size.
    const double tangent_limit =
        std::max({tangent_tolerance, 32 * rounding / half, 4 * position_tolerance / half});
    for (int j = 0; j < fit_degree; ++j) {
      const double s = mid + half * check_node(j);
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
