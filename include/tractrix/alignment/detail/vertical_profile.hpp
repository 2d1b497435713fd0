/// @file
/// Internal: VerticalLayout's data, its build and its closed-form queries.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "tractrix/alignment/detail/graph_series.hpp"
#include "tractrix/alignment/detail/horizontal_layout.hpp"
#include "tractrix/alignment/detail/run_search.hpp"
#include "tractrix/alignment/vertical_segment.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/field_checks.hpp"
#include "tractrix/core/gauss_legendre.hpp"
#include "tractrix/core/numeric.hpp"

namespace tractrix::detail {

// A segment of positive horizontal length, with what its queries need: for an arc its signed
// radius and the sine and cosine of its start angle θs = atan(gs).
template <class S>
struct VerticalRun {
  VerticalType type;
  S start, length, height, gs, ge;
  S radius, sin_start, cos_start;
  S profile_start;          // the length along the profile from the layout's start
  S profile_length = S(0);  // the run's own, from its start to its end
  // A parabola's inverse, x(σ), as series cells uniform in the length along it (none: Newton).
  std::uint32_t first_cell = 0, cell_count = 0;
  S cells_per_length = S(0);
  // A clothoid: its plane curve in data.clothoids (x along, y up, from the run's start) and its
  // length Λ along itself.
  std::uint32_t clothoid = 0;
  S curve_length = S(0);
};

// One cell of a parabola's inverse: x = centre + Σ_{k=1..degree} c_k w^k, w in [−1, 1].
template <class S>
struct InverseCell {
  S centre;
  std::uint32_t first, degree;
};

template <class S>
struct VerticalData {
  std::vector<VerticalSegment<S>> segments;
  std::vector<VerticalRun<S>> runs;
  std::vector<S> run_starts, run_profile_starts;
  std::vector<InverseCell<S>> inverse_cells;
  std::vector<S> inverse_coefficients;
  std::vector<HorizontalData<S>> clothoids;
  S end;
};

// sin and cos of atan(g), without forming the angle.
template <class S>
std::pair<S, S> gradient_angle(S g) noexcept {
  using std::sqrt;
  const S norm = sqrt(S(1) + g * g);
  return {g / norm, S(1) / norm};
}

// A clothoid run's point t along the horizontal from its start, and its length along itself
// there: Newton on x(σ) − t, whose slope cos θ is at least 1/50 (the steepest gradient), from
// the proportional guess; two or three steps from it.
template <class S>
std::pair<S, HorizontalPoint<S>> clothoid_at(const VerticalData<S>& data, const VerticalRun<S>& r,
                                             S t) noexcept {
  const HorizontalData<S>& curve = data.clothoids[r.clothoid];
  S sigma = t * (r.curve_length / r.length);
  std::size_t cursor = 0;
  HorizontalPoint<S> point = horizontal_at(curve, sigma, cursor);
  for (int i = 0; i < 12; ++i) {
    const S step = (point.position.x() - t) / point.tangent.x();
    using std::abs;
    if (!(abs(step) > S(4) * epsilon<S>() * r.curve_length)) break;
    sigma = std::min(std::max(sigma - step, S(0)), r.curve_length);
    point = horizontal_at(curve, sigma, cursor);
  }
  return {sigma, point};
}

// A run's height, gradient and curvature at t in [0, length] from its start.
template <class S>
VerticalPoint<S> run_at(const VerticalData<S>& data, const VerticalRun<S>& r, S t) noexcept {
  using std::sqrt;
  switch (r.type) {
    case VerticalType::clothoid: {
      const HorizontalPoint<S> p = clothoid_at(data, r, t).second;
      return {r.height + p.position.y(), p.tangent.y() / p.tangent.x(), p.curvature};
    }
    case VerticalType::constant_gradient:
      return {r.height + r.gs * t, r.gs, S(0)};
    case VerticalType::parabolic_arc: {
      const S rate = (r.ge - r.gs) / r.length, g = r.gs + rate * t;
      const S norm = sqrt(S(1) + g * g);
      return {r.height + t * (r.gs + S(0.5) * rate * t), g, rate / (norm * norm * norm)};
    }
    case VerticalType::circular_arc:
    default: {
      // sin θ = sin θs + t / R; z − z0 = R (cos θs − cos θ) = t (sin θ + sin θs) / (cos θs + cos
      // θ).
      const S sine = std::min(std::max(r.sin_start + t / r.radius, S(-1)), S(1));
      const S cosine = sqrt((S(1) - sine) * (S(1) + sine));
      const S denominator = r.cos_start + cosine;
      const S rise = denominator > S(0) ? t * (sine + r.sin_start) / denominator : S(0);
      return {r.height + rise, cosine > S(0) ? sine / cosine : S(0), S(1) / r.radius};
    }
  }
}

// The length along the profile of a run from its start to t.
template <class S>
S run_profile_length(const VerticalData<S>& data, const VerticalRun<S>& r, S t) noexcept {
  using std::sqrt;
  switch (r.type) {
    case VerticalType::clothoid:
      return t >= r.length ? r.curve_length : clothoid_at(data, r, t).first;
    case VerticalType::constant_gradient:
      return t * sqrt(S(1) + r.gs * r.gs);
    case VerticalType::parabolic_arc: {
      // ∫ sqrt(1 + g²) dx with g linear in x: Gauss–Legendre on panels over which g changes by at
      // most 1/50 (sqrt(1 + g²) is analytic within ±i of them: the rule's error is far below
      // rounding there).
      const S rate = (r.ge - r.gs) / r.length;
      using std::abs;
      using std::ceil;
      const int panels = 1 + static_cast<int>(std::min(ceil(abs(rate * t) * S(50)), S(8192)));
      S sum = S(0);
      for (int p = 0; p < panels; ++p) {
        const S a = t * S(p) / S(panels), b = t * S(p + 1) / S(panels);
        sum += GaussLegendre5<S>::integrate(
            [&](S x) {
              const S g = r.gs + rate * x;
              return sqrt(S(1) + g * g);
            },
            a, b);
      }
      return sum;
    }
    case VerticalType::circular_arc:
    default: {
      // R (θ − θs), with sin(θ − θs) = (t/R)(cos θs + sin θs (sin θs + sin θ) / (cos θs + cos θ)).
      const S sine = std::min(std::max(r.sin_start + t / r.radius, S(-1)), S(1));
      const S cosine = sqrt((S(1) - sine) * (S(1) + sine));
      const S sum_cos = r.cos_start + cosine;
      const S turn_sin =
          sum_cos > S(0)
              ? t / r.radius * (r.cos_start + r.sin_start * (r.sin_start + sine) / sum_cos)
              : S(0);
      using std::atan2;
      return r.radius * atan2(turn_sin, cosine * r.cos_start + sine * r.sin_start);
    }
  }
}

// The t in [0, length] of a run where its profile length is `length`.
template <class S>
S run_distance_at(const VerticalData<S>& data, const VerticalRun<S>& r, S length) noexcept {
  using std::sqrt;
  switch (r.type) {
    case VerticalType::constant_gradient:
      return length / sqrt(S(1) + r.gs * r.gs);
    case VerticalType::clothoid: {
      std::size_t cursor = 0;
      const S x = horizontal_at(data.clothoids[r.clothoid], length, cursor).position.x();
      return std::min(std::max(x, S(0)), r.length);
    }
    case VerticalType::circular_arc: {
      // θ = θs + δ, δ = length / R: t = R (sin θ − sin θs) = 2R cos(θs + δ/2) sin(δ/2).
      const S half = S(0.5) * length / r.radius;
      using std::cos;
      using std::sin;
      const S cos_mid = r.cos_start * cos(half) - r.sin_start * sin(half);
      return S(2) * r.radius * cos_mid * sin(half);
    }
    case VerticalType::parabolic_arc:
    default: {
      if (r.cell_count > 0) {  // the inverse's series
        const S scaled = clamp_or_low(length * r.cells_per_length, S(0), S(r.cell_count));
        const std::uint32_t m = std::min(static_cast<std::uint32_t>(scaled), r.cell_count - 1);
        const S w = S(2) * (scaled - S(m)) - S(1);
        const InverseCell<S>& cell = data.inverse_cells[r.first_cell + m];
        const S* c = data.inverse_coefficients.data() + cell.first;
        S sum = S(0);
        for (std::uint32_t k = cell.degree; k >= 1; --k)
          sum = (sum + c[k - 1]) * w;
        return std::min(std::max(cell.centre + sum, S(0)), r.length);
      }
      // Newton on profile length − length, whose slope sqrt(1 + g²) ≥ 1 is smooth: from the
      // chord's guess it converges in a few steps; kept inside [0, X].
      S t = std::min(length / sqrt(S(1) + S(0.25) * (r.gs + r.ge) * (r.gs + r.ge)), r.length);
      for (int i = 0; i < 16; ++i) {
        const S g = r.gs + (r.ge - r.gs) / r.length * t;
        const S step = (run_profile_length(data, r, t) - length) / sqrt(S(1) + g * g);
        t = std::min(std::max(t - step, S(0)), r.length);
        using std::abs;
        if (!(abs(step) > S(4) * epsilon<S>() * r.length)) break;
      }
      return t;
    }
  }
}

// The steepest gradient a profile may have: 50 (88.9°). Beyond it a height over distance is all
// but vertical, and lengths along it lose the digits the rest keeps.
constexpr double steepest_gradient = 50;

inline std::string vertical_name(std::size_t i, VerticalType type) {
  return "vertical segment " + std::to_string(i) + " (" + to_string(type) + ")";
}

template <class S>
Expected<VerticalRun<S>> vertical_run(std::size_t i, const VerticalSegment<S>& g) {
  const std::string name = vertical_name(i, g.type);
  const std::pair<const char*, S> fields[] = {
      {"start_distance", g.start_distance}, {"horizontal_length", g.horizontal_length},
      {"start_height", g.start_height},     {"start_gradient", g.start_gradient},
      {"end_gradient", g.end_gradient},     {"end_radius", g.end_radius}};
  if (auto error = non_finite_field(name, fields)) return std::move(*error);
  if (g.horizontal_length < S(0))
    return make_error(
        ErrorCode::out_of_range,
        name + ": horizontal_length " + number_text(g.horizontal_length) + " is negative");
  for (const auto& [field, value] : {std::pair<const char*, S>{"start_gradient", g.start_gradient},
                                     std::pair<const char*, S>{"end_gradient", g.end_gradient}})
    if (!(std::abs(value) <= S(steepest_gradient)))
      return make_error(ErrorCode::out_of_range, name + ": " + field + " " + number_text(value) +
                                                     " is steeper than " +
                                                     number_text(steepest_gradient) +
                                                     " (88.9°): a profile is a height over "
                                                     "distance, and this one is all but vertical");
  VerticalRun<S> r{g.type,
                   g.start_distance,
                   g.horizontal_length,
                   g.start_height,
                   g.start_gradient,
                   g.end_gradient,
                   S(0),
                   S(0),
                   S(1),
                   S(0)};
  using std::abs;
  const S scale = std::max(abs(g.start_gradient), abs(g.end_gradient)) + S(1);
  if (g.type == VerticalType::constant_gradient &&
      !(abs(g.end_gradient - g.start_gradient) <= S(64) * epsilon<S>() * scale))
    return make_error(ErrorCode::out_of_range,
                      name + ": end_gradient " + number_text(g.end_gradient) +
                          " differs from start_gradient " + number_text(g.start_gradient));
  if (g.type == VerticalType::parabolic_arc && g.horizontal_length > S(0) &&
      !std::isfinite((g.end_gradient - g.start_gradient) / g.horizontal_length))
    return make_error(ErrorCode::out_of_range,
                      name + ": a parabolic arc's change of gradient over its horizontal_length " +
                          number_text(g.horizontal_length) + " is not finite");
  if (g.type == VerticalType::circular_arc) {
    const auto [sin_s, cos_s] = gradient_angle(g.start_gradient);
    const S sin_e = gradient_angle(g.end_gradient).first;
    if (!(abs(sin_e - sin_s) > S(0)) || !std::isfinite(g.horizontal_length / (sin_e - sin_s)))
      return make_error(ErrorCode::out_of_range,
                        name + ": a circular arc needs start and end gradients that differ (" +
                            number_text(g.start_gradient) + " and " + number_text(g.end_gradient) +
                            " give no finite radius)");
    r.radius = g.horizontal_length / (sin_e - sin_s);
    r.sin_start = sin_s;
    r.cos_start = cos_s;
  }
  return r;
}

// A parabola's inverse x(σ) as series cells (graph_series.hpp: its slope is gs + r x, r = (ge −
// gs) / X); the zeros of 1 + slope² are 1/|r| from the real axis, so a cell of half-length
// 1/(8|r|) converges fast. Left without cells (Newton answers) where it would need too many.
template <class S>
void fill_inverse(VerticalRun<S>& run, double length, VerticalData<S>& data) {
  const double X = double(run.length), r = double(run.ge - run.gs) / X;
  const std::array<double, 3> slope{double(run.gs), r, 0.0};
  const double limit = std::abs(r) > 0 ? 1 / (8 * std::abs(r)) : 1e300;
  std::size_t count =
      std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(length / (2 * limit))));
  for (; count <= 1024; count *= 2) {
    const std::size_t first = data.inverse_cells.size(),
                      first_coefficient = data.inverse_coefficients.size();
    const double half = 0.5 * length / double(count), trim = double(epsilon<S>()) * half / 64;
    double x = 0;
    bool fits = true;
    GraphSeries to_centre, around;
    for (std::size_t m = 0; m < count && fits; ++m) {
      fits = graph_abscissa_series(slope, x, half, to_centre);
      fits = fits && graph_abscissa_series(slope, series_value(to_centre, 1.0), half, around);
      int degree = graph_series_degree;
      while (degree > 1 && std::abs(around[static_cast<std::size_t>(degree)]) <= trim)
        --degree;
      data.inverse_cells.push_back(
          {S(around[0]),
           static_cast<std::uint32_t>(first_coefficient +
                                      (data.inverse_coefficients.size() - first_coefficient)),
           static_cast<std::uint32_t>(degree)});
      for (int k = 1; k <= degree; ++k)
        data.inverse_coefficients.push_back(S(around[static_cast<std::size_t>(k)]));
      x = series_value(around, 1.0);
    }
    if (fits) {
      run.first_cell = static_cast<std::uint32_t>(first);
      run.cell_count = static_cast<std::uint32_t>(count);
      run.cells_per_length = S(double(count) / length);
      return;
    }
    data.inverse_cells.resize(first);
    data.inverse_coefficients.resize(first_coefficient);
  }
}

// ∫_0^1 cos(θs + (2T − p) u + (p − T) u²) du: the horizontal extent per unit length of a
// clothoid turning by T whose end curvature times its length is p (its heading is quadratic in
// u = σ/Λ). Gauss–Legendre on panels over which the heading changes by at most 1/16: far below
// rounding for an integrand this smooth.
inline double clothoid_extent(double theta0, double turn, double p) {
  const double a = 2 * turn - p, b = p - turn;
  const int panels =
      1 + static_cast<int>(std::min(std::ceil((std::abs(a) + std::abs(b)) * 16), 4096.0));
  double sum = 0;
  for (int k = 0; k < panels; ++k)
    sum += GaussLegendre5<double>::integrate(
        [&](double u) { return std::cos(theta0 + u * (a + b * u)); }, double(k) / panels,
        double(k + 1) / panels);
  return sum;
}

// The smallest length Λ ≥ X of a clothoid turning by `turn` from θs, its end curvature ke, whose
// horizontal extent Λ·I(ke Λ) is X (I ≤ 1, so none is shorter): bracketed upwards from X in steps
// of 5 %, then the Illinois method until the bracket is at rounding. NaN where no length up to
// 64 X fits (a clothoid that would pass a vertical on the way).
inline double clothoid_length(double theta0, double turn, double ke, double X) {
  const auto f = [&](double length) {
    return length * clothoid_extent(theta0, turn, ke * length) - X;
  };
  double a = X, fa = f(a);
  if (!(fa < 0)) return exactly_equal(fa, 0.0) ? X : std::nan("");
  double b = 1.05 * a, fb = f(b);
  while (fb < 0 && b < 64 * X) {
    a = b, fa = fb;
    b *= 1.05, fb = f(b);
  }
  if (!(fb >= 0)) return std::nan("");
  for (int k = 0; k < 200 && std::abs(b - a) > 4 * epsilon<double>() * b; ++k) {
    const double c = (a * fb - b * fa) / (fb - fa), fc = f(c);
    if (exactly_equal(fc, 0.0)) return c;
    if ((fc > 0) == (fb > 0))
      fa *= 0.5;  // Illinois: the end kept twice has its value halved
    else
      a = b, fa = fb;
    b = c, fb = fc;
  }
  return b;
}

// A clothoid run's plane curve (see VerticalSegment): its length from clothoid_length, its start
// curvature 2T/Λ − κe; refused where no length fits or its gradient would pass 50 on the way.
template <class S>
Expected<bool> fit_clothoid(std::size_t i, const VerticalSegment<S>& g, VerticalRun<S>& run,
                            VerticalData<S>& data) {
  const std::string name = vertical_name(i, g.type);
  const double theta0 = std::atan(double(g.start_gradient)),
               turn = std::atan(double(g.end_gradient)) - theta0, X = double(g.horizontal_length);
  const double ke = !exactly_equal(double(g.end_radius), 0.0) ? 1.0 / double(g.end_radius) : 0.0;
  const double length = clothoid_length(theta0, turn, ke, X);
  const double ks = 2 * turn / length - ke, a = ks * length, b = 0.5 * (ke - ks) * length;
  // The steepest point: an end, or where the curvature is 0 inside.
  double steepest = std::max(std::abs(theta0), std::abs(theta0 + turn));
  if (!exactly_equal(b, 0.0) && -a / (2 * b) > 0 && -a / (2 * b) < 1)
    steepest = std::max(steepest, std::abs(theta0 - a * a / (4 * b)));
  const std::string what = name + ": no clothoid with end_radius " + number_text(g.end_radius) +
                           " turns from gradient " + number_text(g.start_gradient) + " to " +
                           number_text(g.end_gradient) + " over horizontal_length " +
                           number_text(g.horizontal_length);
  if (!(length > 0) || !std::isfinite(ks))
    return make_error(ErrorCode::out_of_range,
                      what + " (none up to 64 times as long along itself)");
  if (!(steepest < std::atan(steepest_gradient)))
    return make_error(ErrorCode::out_of_range,
                      what + " without its gradient passing 50 on the way");
  // Curvatures below rounding of the turn are an inflection point: an infinite radius.
  const auto radius = [&](double k) {
    return std::abs(k) * length > 1e-14 * (std::abs(turn) + std::abs(ke) * length) ? S(1.0 / k)
                                                                                   : S(0);
  };
  HorizontalSegment<S> curve;
  curve.start_radius = radius(ks);
  curve.end_radius = radius(ke);
  curve.type = exactly_equal(curve.start_radius, S(0)) && exactly_equal(curve.end_radius, S(0))
                   ? HorizontalType::line
                   : HorizontalType::clothoid;
  curve.start_direction = S(theta0);
  curve.length = S(length);
  auto built = build_horizontal(std::vector<HorizontalSegment<S>>{curve}, HorizontalTolerance{});
  if (!built) return make_error(built.error().code, name + ": " + built.error().message);
  run.clothoid = static_cast<std::uint32_t>(data.clothoids.size());
  run.curve_length = built->length;
  data.clothoids.push_back(std::move(*built));
  return true;
}

template <class S>
Expected<VerticalData<S>> build_vertical(const std::vector<VerticalSegment<S>>& segments,
                                         VerticalTolerance tolerance) {
  if (segments.empty()) return make_error(ErrorCode::empty_input, "vertical layout: no segments");
  if (auto error = bad_tolerance<S>(
          "vertical layout: tolerance",
          {{"relative_gap", tolerance.relative_gap}, {"gradient", tolerance.gradient}}))
    return std::move(*error);
  VerticalData<S> data;
  data.segments = segments;
  S scale = S(0);
  using std::abs;
  for (const auto& g : segments)
    scale = std::max({scale, abs(g.start_distance), abs(g.start_distance + g.horizontal_length),
                      abs(g.start_height)});
  const double eps64 = 64.0 * double(epsilon<S>());
  const S gap_limit =
      S(tolerance.relative_gap > 0 ? tolerance.relative_gap : std::max(1e-9, eps64)) * scale;
  const S gradient_limit = S(tolerance.gradient > 0 ? tolerance.gradient : std::max(1e-9, eps64));
  S profile = S(0);
  for (std::size_t i = 0; i < segments.size(); ++i) {
    auto run = vertical_run(i, segments[i]);
    if (!run) return run.error();
    if (i > 0) {
      const VerticalSegment<S>& before = segments[i - 1];
      const S end = before.start_distance + before.horizontal_length;
      const S end_height = before.horizontal_length > S(0)
                               ? run_at(data, data.runs.back(), data.runs.back().length).height
                               : before.start_height;
      const S end_gradient = before.end_gradient;
      const std::string name = vertical_name(i, segments[i].type);
      if (!(abs(segments[i].start_distance - end) <= gap_limit))
        return make_error(ErrorCode::not_continuous,
                          name + " starts at distance " + number_text(segments[i].start_distance) +
                              ", where the one before ends at " + number_text(end));
      if (!(abs(segments[i].start_height - end_height) <= gap_limit))
        return make_error(ErrorCode::not_continuous,
                          name + " starts at height " + number_text(segments[i].start_height) +
                              ", the one before ends at " + number_text(end_height));
      if (!(abs(segments[i].start_gradient - end_gradient) <= gradient_limit))
        return make_error(ErrorCode::not_continuous,
                          name + " starts at gradient " + number_text(segments[i].start_gradient) +
                              ", the one before ends at " + number_text(end_gradient) +
                              " (a gradient break: allow it with VerticalTolerance::gradient)");
    }
    if (!(run->length > S(0))) continue;
    if (run->type == VerticalType::clothoid) {
      const auto fitted = fit_clothoid(i, segments[i], *run, data);
      if (!fitted) return fitted.error();
    }
    run->profile_start = profile;
    const S run_length = run_profile_length(data, *run, run->length);
    run->profile_length = run_length;
    profile += run_length;
    if (run->type == VerticalType::parabolic_arc) fill_inverse(*run, double(run_length), data);
    data.runs.push_back(*run);
    data.run_starts.push_back(run->start);
    data.run_profile_starts.push_back(run->profile_start);
  }
  if (data.runs.empty())
    return make_error(ErrorCode::out_of_range, "vertical layout: its horizontal length is 0");
  data.end = data.runs.back().start + data.runs.back().length;
  return data;
}

template <class S>
VerticalPoint<S> vertical_at(const VerticalData<S>& data, S distance, std::size_t& hint) noexcept {
  const auto& first = data.runs.front();
  if (!(distance >= first.start))  // before the start, and NaN
    return {first.height + first.gs * (std::isnan(distance) ? S(0) : distance - first.start),
            first.gs, S(0)};
  const auto& last = data.runs.back();
  if (distance > data.end) {
    const VerticalPoint<S> end = run_at(data, last, last.length);
    return {end.height + last.ge * (distance - data.end), last.ge, S(0)};
  }
  const auto& run = data.runs[run_of(data.run_starts, distance, hint)];
  return run_at(data, run, std::min(distance - run.start, run.length));
}

template <class S>
S profile_length(const VerticalData<S>& data, S distance, std::size_t& hint) noexcept {
  using std::sqrt;
  const auto& first = data.runs.front();
  if (!(distance >= first.start))
    return std::isnan(distance) ? S(0)
                                : (distance - first.start) * sqrt(S(1) + first.gs * first.gs);
  const auto& last = data.runs.back();
  if (distance > data.end)
    return last.profile_start + last.profile_length +
           (distance - data.end) * sqrt(S(1) + last.ge * last.ge);
  const auto& run = data.runs[run_of(data.run_starts, distance, hint)];
  return run.profile_start +
         run_profile_length(data, run, std::min(distance - run.start, run.length));
}

template <class S>
S distance_at_profile_length(const VerticalData<S>& data, S length, std::size_t& hint) noexcept {
  using std::sqrt;
  const auto& first = data.runs.front();
  if (!(length >= S(0)))
    return first.start + (std::isnan(length) ? S(0) : length / sqrt(S(1) + first.gs * first.gs));
  const auto& last = data.runs.back();
  const S total = last.profile_start + last.profile_length;
  if (length > total) return data.end + (length - total) / sqrt(S(1) + last.ge * last.ge);
  const auto& run = data.runs[run_of(data.run_profile_starts, length, hint)];
  return run.start +
         run_distance_at(data, run, std::min(length - run.profile_start, run.profile_length));
}

}  // namespace tractrix::detail
