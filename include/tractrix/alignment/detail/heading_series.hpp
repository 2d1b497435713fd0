/// @file
/// Internal: the position along a plane curve given by its curvature as a function of distance,
/// as exact power series. Every horizontal segment of an alignment is such a curve: its heading
/// is the integral of its curvature, its position the integral of (cos, sin) of its heading.
/// Over a cell of length h centred at c, with s = c + (h/2)·w for w in [−1, 1],
///
///   ψ(w) = heading(c + h w / 2) − heading(c) = Σ f_j w^j       (j ≥ 1, from the curvature's
///                                                               Taylor series at c)
///   E(w) = exp(i ψ(w)) = Σ e_k w^k,   (k + 1) e_{k+1} = i Σ_{j=0..k} (j + 1) f_{j+1} e_{k−j}
///   z(c + h w / 2) − z(c) = exp(i heading(c)) · (h/2) · Σ e_k w^{k+1} / (k + 1)
///
/// (E' = i ψ' E gives the recurrence). Each |e_k| is at most b_k, the same recurrence run on the
/// |f_j| (the series of exp(Σ |f_j| w^j)), so the part of the series after degree N is at most
/// Σ_{k>N} b_k of the half cell's length at any w. Cells are made short enough that this tail is
/// below 2^-57 (measured on the b_k up to degree 2N, which decay geometrically there): a cell's
/// polynomial is the curve to the last bit of double, with no quadrature, no table, no inversion.
#pragma once

#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <vector>

#include "tractrix/core/numeric.hpp"

namespace tractrix::detail {

// Curvature over a stretch of a segment as a function of u = s / length:
// κ(u) = Σ poly[k] u^k + wave_amplitude · cos(wave_frequency · u + wave_phase).
struct CurvatureLaw {
  static constexpr int max_degree = 7;
  std::array<double, max_degree + 1> poly{};
  double wave_amplitude = 0, wave_frequency = 0, wave_phase = 0;

  double at(double u) const noexcept {
    double k = poly[max_degree];
    for (int i = max_degree - 1; i >= 0; --i)
      k = k * u + poly[static_cast<std::size_t>(i)];
    if (!exactly_equal(wave_amplitude, 0.0))
      k += wave_amplitude * std::cos(wave_frequency * u + wave_phase);
    return k;
  }

  // ∫_0^u κ(w) dw.
  double integral(double u) const noexcept {
    double sum = poly[max_degree] / (max_degree + 1);
    for (int i = max_degree - 1; i >= 0; --i)
      sum = sum * u + poly[static_cast<std::size_t>(i)] / (i + 1);
    sum *= u;
    if (!exactly_equal(wave_amplitude, 0.0))
      sum += wave_amplitude / wave_frequency *
             (std::sin(wave_frequency * u + wave_phase) - std::sin(wave_phase));
    return sum;
  }

  // The Taylor coefficients of κ(u0 + d·v) in v: out[m] for m < count.
  void taylor(double u0, double d, double* out, int count) const noexcept {
    // The polynomial shifted to u0 (repeated synthetic division), then scaled by d^m.
    std::array<double, max_degree + 1> c = poly;
    for (int m = 0; m <= max_degree; ++m)
      for (int k = max_degree - 1; k >= m; --k)
        c[static_cast<std::size_t>(k)] += u0 * c[static_cast<std::size_t>(k) + 1];
    double scale = 1, wave_scale = wave_amplitude;
    const double step = wave_frequency * d, angle = wave_frequency * u0 + wave_phase;
    for (int m = 0; m < count; ++m) {
      out[m] = m <= max_degree ? c[static_cast<std::size_t>(m)] * scale : 0.0;
      if (!exactly_equal(wave_amplitude, 0.0)) {
        // d^m/dx^m cos(x) = cos(x + m π/2).
        out[m] += wave_scale * std::cos(angle + m * 0.5 * pi<double>());
        wave_scale *= step / (m + 1);
      }
      scale *= d;
    }
  }
};

// A segment's curvature: one law over the whole length, or two that meet at u = 1/2 (the
// Helmert curve's halves). Heading relative to the segment's start, in radians.
struct CurvatureShape {
  std::array<CurvatureLaw, 2> laws{};
  int law_count = 1;
  double length = 0;

  const CurvatureLaw& law_at(double u) const noexcept {
    return law_count == 2 && u >= 0.5 ? laws[1] : laws[0];
  }
  double curvature(double u) const noexcept { return law_at(u).at(u); }
  double heading(double u) const noexcept {
    if (law_count == 2 && u >= 0.5)
      return length * (laws[0].integral(0.5) + laws[1].integral(u) - laws[1].integral(0.5));
    return length * laws[0].integral(u);
  }
};

// The series' highest degree of E (the position's is one more).
constexpr int series_degree = 20;
// The largest tail of the majorant series a cell may leave (see the file's comment).
constexpr double series_tail_limit = 0x1p-57;

// One cell's position polynomial: Σ_{k=1..degree} c_k w^k added to the cell's centre, as complex
// (x, y) coefficients, already turned to the heading at the centre.
struct SeriesCell {
  std::array<std::complex<double>, series_degree + 2> c{};
};

// The cell of `shape` centred at u = centre with half-width half (in u; half·length is h/2),
// with heading `heading` there (absolute): its coefficients, or false when the series' tail is
// above the limit (the cell must be shorter).
inline bool series_cell(const CurvatureShape& shape, double centre, double half, double heading,
                        SeriesCell& cell) noexcept {
  constexpr int N = series_degree;
  const double h2 = half * shape.length;
  std::array<double, N> g{};
  shape.law_at(centre).taylor(centre, half, g.data(), N);
  std::array<double, N + 1> f{}, size{};  // f[j] and |f[j]|, j ≥ 1
  for (int j = 1; j <= N; ++j) {
    f[static_cast<std::size_t>(j)] = h2 * g[static_cast<std::size_t>(j) - 1] / j;
    size[static_cast<std::size_t>(j)] = std::abs(f[static_cast<std::size_t>(j)]);
  }
  std::array<std::complex<double>, N + 1> e{};
  std::array<double, 2 * N + 1> b{};
  e[0] = 1.0;
  b[0] = 1.0;
  for (int k = 0; k < 2 * N; ++k) {
    std::complex<double> sum = 0.0;
    double bound = 0;
    for (int j = 0; j <= std::min(k, N - 1); ++j) {
      const auto ej = static_cast<std::size_t>(k - j), fj = static_cast<std::size_t>(j) + 1;
      bound += double(j + 1) * size[fj] * b[ej];
      if (k < N) sum += double(j + 1) * f[fj] * e[ej];
    }
    b[static_cast<std::size_t>(k) + 1] = bound / double(k + 1);
    if (k < N)
      e[static_cast<std::size_t>(k) + 1] =
          std::complex<double>(-sum.imag(), sum.real()) / double(k + 1);
  }
  double tail = 0;
  for (int k = N + 1; k <= 2 * N; ++k)
    tail += b[static_cast<std::size_t>(k)];
  if (!(tail <= series_tail_limit) || !(b.back() <= 1e-3 * series_tail_limit)) return false;
  const std::complex<double> turned = std::polar(h2, heading);
  cell.c[0] = 0.0;
  for (int k = 1; k <= N + 1; ++k)
    cell.c[static_cast<std::size_t>(k)] = turned * e[static_cast<std::size_t>(k) - 1] / double(k);
  return true;
}

// The number of equal cells `shape` needs: a first guess from its largest curvature (a cell turns
// by at most `turn` radians) and its wave's frequency, grown until every cell's series fits; even
// where the shape has two laws, so a cell edge falls on u = 1/2. 0 when more than `most` would be
// needed.
inline std::size_t series_cell_count(const CurvatureShape& shape, double heading0, std::size_t most,
                                     double turn) {
  double largest = 0, frequency = 0;
  for (int i = 0; i <= 64; ++i)
    largest = std::max(largest, std::abs(shape.curvature(i / 64.0)));
  for (int l = 0; l < shape.law_count; ++l)
    frequency =
        std::max(frequency, std::abs(shape.laws[static_cast<std::size_t>(l)].wave_frequency));
  const double guess = std::max(shape.length * largest / turn, frequency / 2);
  if (!(guess < double(most))) return 0;
  std::size_t count = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(guess)));
  SeriesCell cell;
  for (;;) {
    if (shape.law_count == 2 && count % 2 == 1) ++count;
    bool fits = true;
    const double half = 0.5 / double(count);
    for (std::size_t m = 0; m < count && fits; ++m) {
      const double centre = (2 * double(m) + 1) * half;
      fits = series_cell(shape, centre, half, heading0 + shape.heading(centre), cell);
    }
    if (fits) return count;
    count += std::max<std::size_t>(1, count / 4);
    if (count > most) return 0;
  }
}

}  // namespace tractrix::detail
