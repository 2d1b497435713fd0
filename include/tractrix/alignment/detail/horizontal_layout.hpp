/// @file
/// Internal: HorizontalLayout's data, its build (checks, curvature laws, series cells) and its
/// query.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tractrix/alignment/detail/graph_series.hpp"
#include "tractrix/alignment/detail/heading_series.hpp"
#include "tractrix/alignment/detail/run_search.hpp"
#include "tractrix/alignment/horizontal_segment.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/field_checks.hpp"
#include "tractrix/core/numeric.hpp"

namespace tractrix::detail {

// One cell of a segment: its centre point and its polynomial's coefficients
// (coefficients[first + 2(k − 1)], [… + 1]: x and y of w^k, k = 1 … degree, w in [−1, 1]).
template <class S>
struct HorizontalCell {
  S x, y;
  std::uint32_t first, degree;
};

// The most series cells a segment may have: ~2000 radians of turning.
constexpr std::size_t horizontal_most_cells = std::size_t(1) << 12;

// A segment of positive length as queries see it.
template <class S>
struct HorizontalRun {
  S start, length, cells_per_length;
  std::uint32_t first_cell, cell_count;
  double heading0;       // the segment's start direction
  CurvatureShape shape;  // its curvature law (not for a cubic parabola)
  bool cubic;            // a cubic parabola: direction and curvature from the cells' derivatives
  double end_direction;
  Vector2<S> start_tangent;  // (cos, sin) of heading0: the tangent where a cell's derivative is 0
  // A disc holding every cell's disc (closest points skip the run's cells outside it).
  Vector2<S> centre = Vector2<S>::Zero();
  S reach = S(0);
};

template <class S>
struct HorizontalData {
  std::vector<HorizontalSegment<S>> segments;
  std::vector<S> starts;  // per segment
  std::vector<HorizontalRun<S>> runs;
  std::vector<S> run_starts;  // per run, for the search
  std::vector<HorizontalCell<S>> cells;
  std::vector<S> coefficients;
  std::vector<S> cell_reach;  // per cell: no point of it is farther than this from its centre
  S length;
};

// The disc of a run's cells: centred between the extreme cell centres, reaching every cell's
// disc.
template <class S>
void fill_run_disc(HorizontalRun<S>& run, const HorizontalData<S>& data) {
  Vector2<S> low(data.cells[run.first_cell].x, data.cells[run.first_cell].y), high = low;
  for (std::uint32_t i = run.first_cell; i < run.first_cell + run.cell_count; ++i) {
    const Vector2<S> c(data.cells[i].x, data.cells[i].y);
    low = low.cwiseMin(c);
    high = high.cwiseMax(c);
  }
  run.centre = S(0.5) * (low + high);
  run.reach = S(0);
  for (std::uint32_t i = run.first_cell; i < run.first_cell + run.cell_count; ++i)
    run.reach =
        std::max(run.reach, (Vector2<S>(data.cells[i].x, data.cells[i].y) - run.centre).norm() +
                                data.cell_reach[i]);
  run.reach *= S(1 + 1e-6);
}

inline double radius_curvature(double radius) noexcept {
  return !exactly_equal(radius, 0.0) ? 1.0 / radius : 0.0;
}

// The curvature law of a segment (in double, whatever S is).
template <class S>
CurvatureShape curvature_shape(const HorizontalSegment<S>& segment) {
  const double k0 = radius_curvature(double(segment.start_radius)),
               k1 = radius_curvature(double(segment.end_radius)), delta = k1 - k0;
  CurvatureShape shape;
  shape.length = double(segment.length);
  auto& p = shape.laws[0].poly;
  p[0] = k0;
  switch (segment.type) {
    case HorizontalType::line:
    case HorizontalType::cubic:  // refused by check_segment
      p[0] = 0;
      break;
    case HorizontalType::circular_arc:
      break;
    case HorizontalType::clothoid:
      p[1] = delta;
      break;
    case HorizontalType::helmert_curve: {
      shape.law_count = 2;
      p[2] = 2 * delta;
      auto& q = shape.laws[1].poly;  // κ0 + Δ(1 − 2(1 − u)²) = κ0 − Δ + 4Δu − 2Δu²
      q[0] = k0 - delta;
      q[1] = 4 * delta;
      q[2] = -2 * delta;
      break;
    }
    case HorizontalType::bloss_curve:
      p[2] = 3 * delta;
      p[3] = -2 * delta;
      break;
    case HorizontalType::cosine_curve:  // κ0 + Δ/2 − (Δ/2) cos(πu)
      p[0] = k0 + 0.5 * delta;
      shape.laws[0].wave_amplitude = -0.5 * delta;
      shape.laws[0].wave_frequency = pi<double>();
      break;
    case HorizontalType::sine_curve:  // κ0 + Δu − (Δ/2π) sin(2πu), sin x = cos(x − π/2)
      p[1] = delta;
      shape.laws[0].wave_amplitude = -delta / (2 * pi<double>());
      shape.laws[0].wave_frequency = 2 * pi<double>();
      shape.laws[0].wave_phase = -0.5 * pi<double>();
      break;
    case HorizontalType::viennese_bend:
      p[4] = 35 * delta;
      p[5] = -84 * delta;
      p[6] = 70 * delta;
      p[7] = -20 * delta;
      {  // −h ψ''(s), ψ(u) = ψ0 + Δψ (35u⁴ − 84u⁵ + 70u⁶ − 20u⁷)
        const double c = -420 * double(segment.gravity_center_height) *
                         double(segment.bank_angle_change) / (shape.length * shape.length);
        p[2] += c;
        p[3] += -4 * c;
        p[4] += 5 * c;
        p[5] += -2 * c;
      }
      break;
  }
  return shape;
}

inline std::string segment_name(std::size_t i, HorizontalType type) {
  return "horizontal segment " + std::to_string(i) + " (" + to_string(type) + ")";
}

// The checks of one segment's own attributes: true, or the error naming the segment.
template <class S>
Expected<bool> check_segment(std::size_t i, const HorizontalSegment<S>& g) {
  const std::string name = segment_name(i, g.type);
  const std::pair<const char*, S> fields[] = {{"start_point.x", g.start_point.x()},
                                              {"start_point.y", g.start_point.y()},
                                              {"start_direction", g.start_direction},
                                              {"start_radius", g.start_radius},
                                              {"end_radius", g.end_radius},
                                              {"length", g.length},
                                              {"gravity_center_height", g.gravity_center_height},
                                              {"bank_angle_change", g.bank_angle_change}};
  if (auto error = non_finite_field(name, fields)) return std::move(*error);
  if (g.type == HorizontalType::cubic && exactly_equal(radius_curvature(double(g.start_radius)),
                                                       radius_curvature(double(g.end_radius))))
    return make_error(ErrorCode::out_of_range,
                      name + ": a cubic parabola needs different start and end radii (both " +
                          number_text(g.start_radius) + ")");
  if (g.type == HorizontalType::cubic && g.length > S(0)) {
    // y = a x³ has curvature y'' / (1 + y'²)^1.5, not y'' = 6ax: where its own slope is large
    // (near-equal radii put its entry far out; a long transition for its radius its end), the
    // radii it is given are not the radii it has. Refused beyond 10 % (|y'| > 0.27); the end is
    // judged at x0 + L, a little past it.
    const double k0 = radius_curvature(double(g.start_radius)),
                 k1 = radius_curvature(double(g.end_radius)), L = double(g.length);
    const double a = (k1 - k0) / (6 * L), x0 = k0 * L / (k1 - k0);
    const double slope = std::max(std::abs(3 * a * x0 * x0), std::abs(3 * a * (x0 + L) * (x0 + L)));
    if (!(slope <= 0.27))
      return make_error(ErrorCode::out_of_range,
                        name + ": the cubic parabola y = x³/(6RL) from radius " +
                            number_text(g.start_radius) + " to " + number_text(g.end_radius) +
                            " over " + number_text(g.length) + " reaches a slope of " +
                            number_text(slope) +
                            " in its own axes, where its curvature is more than 10 % off the "
                            "radius given; a clothoid is the transition this asks for");
  }
  if (g.length < S(0))
    return make_error(ErrorCode::out_of_range,
                      name + ": length " + number_text(g.length) + " is negative");
  if (g.type == HorizontalType::line &&
      (!exactly_equal(g.start_radius, S(0)) || !exactly_equal(g.end_radius, S(0))))
    return make_error(ErrorCode::out_of_range,
                      name + ": a line's radii must be 0 (infinite); start_radius " +
                          number_text(g.start_radius) + ", end_radius " +
                          number_text(g.end_radius));
  if (g.type == HorizontalType::circular_arc) {
    using std::abs;
    if (exactly_equal(g.start_radius, S(0)))
      return make_error(ErrorCode::out_of_range, name + ": an arc's radius must not be 0");
    if (!(abs(g.end_radius - g.start_radius) <= S(1e-9) * abs(g.start_radius)) &&
        !exactly_equal(g.end_radius, S(0)))
      return make_error(ErrorCode::out_of_range,
                        name + ": an arc's end_radius " + number_text(g.end_radius) +
                            " differs from its start_radius " + number_text(g.start_radius));
  }
  return true;
}

// Appends a cell: its centre, and its coefficients up to the last above `trim`.
template <class S, class Coefficient>
void push_cell(HorizontalData<S>& data, std::complex<double> centre, const Coefficient* c,
               int highest, double trim) {
  int degree = highest;
  while (degree > 1 && std::abs(c[degree]) <= trim)
    --degree;
  data.cells.push_back(HorizontalCell<S>{S(centre.real()), S(centre.imag()),
                                         static_cast<std::uint32_t>(data.coefficients.size()),
                                         static_cast<std::uint32_t>(degree)});
  double reach = double(highest - degree + 1) * trim;  // what trimming left out, and more
  for (int k = 1; k <= degree; ++k)
    reach += std::abs(c[k]);
  data.cell_reach.push_back(S(reach * (1 + 1e-6)));
  for (int k = 1; k <= degree; ++k) {
    data.coefficients.push_back(S(std::real(c[k])));
    data.coefficients.push_back(S(std::imag(c[k])));
  }
}

// The cells of a cubic parabola y = a x³ (a = Δκ / 6L) from x0 = κ0 L / Δκ, where its curvature
// y'' is κ0, along the curve for the segment's length (IFC's SegmentLength is the length along
// the curve), placed so that x0 lies on the start point in the start direction. The abscissa is
// carried from cell to cell by its series; each cell's is re-expanded about the cell's centre.
template <class S>
bool fill_cubic_cells(HorizontalRun<S>& run, const HorizontalSegment<S>& g, HorizontalData<S>& data,
                      std::size_t most) {
  const double k0 = radius_curvature(double(g.start_radius)),
               k1 = radius_curvature(double(g.end_radius)), L = run.shape.length;
  const double a = (k1 - k0) / (6 * L), x0 = k0 * L / (k1 - k0);
  const double tilt = std::atan(3 * a * x0 * x0);
  const std::complex<double> turn = std::polar(1.0, run.heading0 - tilt);
  const std::complex<double> origin(double(g.start_point.x()), double(g.start_point.y()));
  // Cells short enough for the series anywhere the abscissa can reach (|x − x0| ≤ L).
  double limit = 1e300;
  for (int i = 0; i <= 64; ++i)
    limit = std::min(limit, cubic_step_limit(a, x0 + L * i / 64.0));
  const double guess = std::ceil(L / (2 * limit));
  if (!(guess < double(most)) || !std::isfinite(x0) || !std::isfinite(tilt)) return false;
  std::size_t count = std::max<std::size_t>(1, static_cast<std::size_t>(guess));
  for (;; count += std::max<std::size_t>(1, count / 4)) {
    if (count > most) return false;
    const std::size_t first = data.cells.size(), first_coefficient = data.coefficients.size();
    const double half = 0.5 * L / double(count), trim = double(epsilon<S>()) * half / 64;
    double x = x0;
    bool fits = true;
    GraphSeries to_centre, around;
    std::array<std::complex<double>, graph_series_degree + 1> c{};
    for (std::size_t m = 0; m < count && fits; ++m) {
      fits = graph_abscissa_series({0, 0, 3 * a}, x, half, to_centre);
      const double xc = series_value(to_centre, 1.0);
      fits = fits && graph_abscissa_series({0, 0, 3 * a}, xc, half, around);
      const GraphSeries y = series_product(series_product(around, around), around);
      // The centre relative to x0's point: (xc − x0, a (xc³ − x0³)), the difference factored.
      const std::complex<double> centre(xc - x0, a * (xc - x0) * (xc * xc + xc * x0 + x0 * x0));
      for (std::size_t k = 1; k < c.size(); ++k)
        c[k] = turn * std::complex<double>(around[k], a * y[k]);
      push_cell(data, origin + turn * centre, c.data(), graph_series_degree, trim);
      x = series_value(around, 1.0);
    }
    if (fits) {
      run.first_cell = static_cast<std::uint32_t>(first);
      run.cell_count = static_cast<std::uint32_t>(count);
      run.cells_per_length = S(double(count) / L);
      run.end_direction = run.heading0 + std::atan(3 * a * x * x) - tilt;
      return true;
    }
    data.cells.resize(first);
    data.cell_reach.resize(first);
    data.coefficients.resize(first_coefficient);
  }
}

// Fills one run's cells; false when the segment turns too far for the cell limit.
template <class S>
bool fill_cells(HorizontalRun<S>& run, const HorizontalSegment<S>& g, HorizontalData<S>& data) {
  // A segment turning thousands of radians (a clothoid wound into a tight spiral) is no railway's
  // or road's: it would need this many cells of at most ~2 rad each.
  constexpr std::size_t most_cells = horizontal_most_cells;
  if (run.cubic) return fill_cubic_cells(run, g, data, most_cells);
  // Cells turning by at most 0.1 rad keep a position polynomial of degree ~8 (a query's Horner
  // steps are its cost); a segment that would need more cells than allowed so takes cells of up
  // to 2 rad (degree ~20).
  std::size_t count = series_cell_count(run.shape, run.heading0, most_cells, 0.1);
  if (count == 0) count = series_cell_count(run.shape, run.heading0, most_cells, 2.0);
  if (count == 0) return false;
  run.first_cell = static_cast<std::uint32_t>(data.cells.size());
  run.cell_count = static_cast<std::uint32_t>(count);
  run.cells_per_length = S(double(count) / run.shape.length);
  const double half = 0.5 / double(count);
  const double trim = double(epsilon<S>()) * half * run.shape.length / 64;  // below rounding
  std::complex<double> start(double(g.start_point.x()), double(g.start_point.y()));
  SeriesCell cell;
  for (std::size_t m = 0; m < count; ++m) {
    const double centre = (2 * double(m) + 1) * half;
    series_cell(run.shape, centre, half, run.heading0 + run.shape.heading(centre), cell);
    // The centre: the start minus the polynomial at w = −1; the next start: it at w = +1.
    std::complex<double> back = 0.0, ahead = 0.0;
    for (int k = series_degree + 1; k >= 1; --k) {
      const auto c = cell.c[static_cast<std::size_t>(k)];
      back += (k % 2 == 0) ? c : -c;
      ahead += c;
    }
    const std::complex<double> middle = start - back;
    push_cell(data, middle, cell.c.data(), series_degree + 1, trim);
    start = middle + ahead;
  }
  run.end_direction = run.heading0 + run.shape.heading(1.0);
  return true;
}

// The end of run `r` (its last cell at w = 1) and its direction there.
template <class S>
std::pair<Vector2<S>, double> run_end(const HorizontalData<S>& data, const HorizontalRun<S>& r) {
  const auto& cell = data.cells[r.first_cell + r.cell_count - 1];
  Vector2<S> end(cell.x, cell.y);
  for (std::uint32_t k = 0; k < cell.degree; ++k) {
    end.x() += data.coefficients[cell.first + 2 * k];
    end.y() += data.coefficients[cell.first + 2 * k + 1];
  }
  return {end, r.end_direction};
}

// The difference of two directions, wrapped to [0, π].
inline double direction_gap(double a, double b) noexcept {
  const double d = std::remainder(a - b, 2 * pi<double>());
  return std::abs(d);
}

template <class S>
Expected<HorizontalData<S>> build_horizontal(const std::vector<HorizontalSegment<S>>& segments,
                                             HorizontalTolerance tolerance) {
  if (segments.empty()) return make_error(ErrorCode::empty_input, "horizontal layout: no segments");
  if (auto error =
          bad_tolerance<S>("horizontal layout: tolerance",
                           {{"relative_gap", tolerance.relative_gap}, {"angle", tolerance.angle}}))
    return std::move(*error);
  HorizontalData<S> data;
  data.segments = segments;
  S length = S(0), scale = S(0);
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const auto valid = check_segment(i, segments[i]);
    if (!valid) return valid.error();
    data.starts.push_back(length);
    length += segments[i].length;
    scale = std::max({scale, abs(segments[i].start_point.x()), abs(segments[i].start_point.y())});
  }
  if (!(length > S(0)))
    return make_error(ErrorCode::out_of_range, "horizontal layout: its length is 0");
  if (!std::isfinite(length) || !std::isnormal(length) || !(length > S(64) * epsilon<S>() * scale))
    return make_error(ErrorCode::out_of_range, "horizontal layout: its length " +
                                                   number_text(length) +
                                                   " is not one its coordinates (up to " +
                                                   number_text(scale) + ") can resolve");
  data.length = length;
  scale = std::max(scale, length);
  const double eps64 = 64.0 * double(epsilon<S>());
  const double gap_limit =
      (tolerance.relative_gap > 0 ? tolerance.relative_gap : std::max(1e-9, eps64)) * double(scale);
  const double angle_limit = tolerance.angle > 0 ? tolerance.angle : std::max(1e-9, eps64);
  bool have_end = false;
  Vector2<S> end_point;
  double end_direction = 0;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const auto& g = segments[i];
    const std::string name = segment_name(i, g.type);
    if (have_end) {
      const double gap = double((g.start_point - end_point).norm());
      if (!(gap <= gap_limit))
        return make_error(ErrorCode::not_continuous,
                          name + " starts " + number_text(gap) +
                              " away from where the one before ends (tolerance " +
                              number_text(gap_limit) + ")");
      const double turn = direction_gap(double(g.start_direction), end_direction);
      if (!(turn <= angle_limit))
        return make_error(ErrorCode::not_continuous,
                          name + " starts " + number_text(turn) +
                              " rad off the direction the one before ends in (tolerance " +
                              number_text(angle_limit) + " rad)");
    }
    if (exactly_equal(g.length, S(0))) continue;
    HorizontalRun<S> run{
        data.starts[i],
        g.length,
        S(0),
        0,
        0,
        double(g.start_direction),
        curvature_shape(g),
        g.type == HorizontalType::cubic,
        0.0,
        Vector2<S>(S(std::cos(double(g.start_direction))), S(std::sin(double(g.start_direction))))};
    if (!fill_cells(run, g, data))
      return make_error(ErrorCode::out_of_range,
                        name + ": turns too far over its length (it would need more than " +
                            std::to_string(horizontal_most_cells) + " series cells)");
    fill_run_disc(run, data);
    std::tie(end_point, end_direction) = run_end(data, run);
    have_end = true;
    data.runs.push_back(run);
    data.run_starts.push_back(run.start);
  }
  return data;
}

// A cubic parabola's direction and curvature at w from its cell's polynomial: the turn of the
// first derivative from the start direction, and (P' × P'') / |P'|³ (the same in any
// parameter).
template <class S>
void cubic_turning(const HorizontalRun<S>& run, const HorizontalCell<S>& cell, const S* c, S w,
                   S dx, S dy, HorizontalPoint<S>& point) noexcept {
  S ddx = S(0), ddy = S(0);
  for (std::uint32_t k = cell.degree; k >= 2; --k) {
    const S factor = S(k) * S(k - 1);
    ddx = ddx * w + factor * c[2 * std::size_t(k - 1)];
    ddy = ddy * w + factor * c[2 * std::size_t(k - 1) + 1];
  }
  const S cos0 = run.start_tangent.x(), sin0 = run.start_tangent.y();
  using std::atan2;
  using std::sqrt;
  point.direction = S(run.heading0) + atan2(cos0 * dy - sin0 * dx, cos0 * dx + sin0 * dy);
  const S speed2 = dx * dx + dy * dy;
  point.curvature = speed2 > S(0) ? (dx * ddy - dy * ddx) / (speed2 * sqrt(speed2)) : S(0);
}

template <class S>
HorizontalPoint<S> horizontal_at(const HorizontalData<S>& data, S distance,
                                 std::size_t& cursor) noexcept {
  const S s = clamp_or_low(distance, S(0), data.length);
  const HorizontalRun<S>& run = data.runs[run_of(data.run_starts, s, cursor)];
  const S local = std::min(std::max(s - run.start, S(0)), run.length);
  // In [0, cells]: a segment so short that cells per length overflows gives inf or NaN here.
  const S scaled = clamp_or_low(local * run.cells_per_length, S(0), S(run.cell_count));
  const std::uint32_t m = std::min(static_cast<std::uint32_t>(scaled), run.cell_count - 1);
  const S v = S(2) * (scaled - S(m)) - S(1);  // w in [−1, 1]
  const HorizontalCell<S>& cell = data.cells[run.first_cell + m];
  const S* c = data.coefficients.data() + cell.first;
  // Horner for the polynomial (no constant term) and its derivative together.
  const std::size_t top = 2 * std::size_t(cell.degree - 1);
  S px = c[top], py = c[top + 1], dx = S(0), dy = S(0);
  for (std::size_t k = top; k > 0;) {
    k -= 2;
    dx = dx * v + px;
    dy = dy * v + py;
    px = px * v + c[k];
    py = py * v + c[k + 1];
  }
  dx = dx * v + px;
  dy = dy * v + py;
  px *= v;
  py *= v;
  HorizontalPoint<S> point;
  point.position = Vector2<S>(cell.x + px, cell.y + py);
  point.tangent = normalized_or(Vector2<S>(dx, dy), run.start_tangent);
  if (run.cubic) {
    cubic_turning(run, cell, c, v, dx, dy, point);
  } else {
    const double u = double(local) / run.shape.length;
    point.direction = S(run.heading0 + run.shape.heading(u));
    point.curvature = S(run.shape.curvature(u));
  }
  return point;
}

}  // namespace tractrix::detail
