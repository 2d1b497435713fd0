// Compiled chord offsets: for one chord d, the distance δ(s) from a bogie at s back to the first
// track point d away in a straight line, as degree-7 polynomials in s per cell, so that chord
// spacing's search starts where the answer is and usually ends at its first sample
// (TrainSolver::compiled_chords). δ is smooth between the track's knots and the distances whose
// chord ends on a knot (there the curvature at the chord's far end jumps), so cells split at
// both; cells that still do not fit after max_depth halvings give no guess, and the search runs
// as it would without them.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "tractrix/curve/detail/arc_length_fit.hpp"
#include "tractrix/curve/detail/cell_index.hpp"

namespace tractrix::detail {

template <class S>
struct ChordOffsetFunction {
  S chord = S(0);
  std::vector<FittedCell<S, 0>> cells;  // δ(s); a cell with inv_half 0 has no guess
  CellIndex<S> index;

  // The first root's distance s − δ(s) as the fit has it, or NaN where no cell fits or s is
  // outside [0, length). `cursor`: the cell found last time (a hint). The polynomial is summed
  // by Estrin's scheme: the guess is on the chord chain's critical path, where Horner's seven
  // dependent steps would be latency a chord search does not have.
  TRACTRIX_FORCE_INLINE S root_guess(S s, S length, std::size_t& cursor) const noexcept {
    if (!(s >= S(0) && s < length)) return std::numeric_limits<S>::quiet_NaN();
    const FittedCell<S, 0>& cell = cells[index.find(s, cursor)];
    if (!fitted(cell)) return std::numeric_limits<S>::quiet_NaN();
    return s - evaluate_scalar_cell(cell, s);
  }

  std::size_t memory_bytes() const noexcept {
    return sizeof(*this) + cells.size() * sizeof(FittedCell<S, 0>) + index.memory_bytes();
  }
};

// Cells over [s0, s1], halved until δ fits, in order of distance.
template <class S, class Root>
void fit_span(double s0, double s1, const Root& root, double tolerance, int max_depth,
              std::vector<FittedCell<S, 0>>& cells, std::vector<S>& starts) {
  struct Span {
    double s0, s1;
    int depth;
  };
  fit_by_halving<S>(
      Span{s0, s1, 0}, max_depth,
      [&](const Span& span, FittedCell<S, 0>& cell) {
        return fit_scalar_cell(
            span.s0, span.s1, [&root](double s) { return s - root(s); }, tolerance, cell);
      },
      [](const Span& span) {
        const double mid = 0.5 * (span.s0 + span.s1);
        return std::pair<Span, Span>{{span.s0, mid, span.depth + 1},
                                     {mid, span.s1, span.depth + 1}};
      },
      cells, starts);
}

// The distances in (a, b) where the root passes a knot. Between two knots the root is a smooth
// function of s, growing where the chord is solved smoothly, so each crossing is found by
// regula falsi with the Illinois halving, bracketed. Roots are unwrapped: a knot k stands for
// k + m·length.
template <class Root>
void add_far_end_breaks(const std::vector<double>& knots, double length, double a, double b,
                        double root_a, double root_b, const Root& root,
                        std::vector<double>& breaks) {
  if (!(root_a < root_b) || !std::isfinite(root_a) || !std::isfinite(root_b)) return;
  const double lap = std::floor(root_a / length) * length;
  auto first = std::lower_bound(knots.begin(), knots.end(), root_a - lap);
  for (double base = lap; base <= root_b; base += length, first = knots.begin()) {
    for (auto knot = first; knot != knots.end(); ++knot) {
      const double k = base + *knot;
      if (!(k > root_a)) continue;
      if (!(k < root_b)) break;
      // f(s) = r(s) − k changes sign on [lo, hi].
      double lo = a, hi = b, f_lo = root_a - k, f_hi = root_b - k;
      int side = 0;  // which end stayed last time (Illinois: halve its value when it stays twice)
      for (int step = 0; step < 100 && hi - lo > 1e-15 * length; ++step) {
        double s = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
        if (!(s > lo && s < hi)) s = 0.5 * (lo + hi);
        const double f = root(s) - k;
        if (!std::isfinite(f)) return;  // no root somewhere inside: leave it to the fit
        if (f < 0) {
          lo = s, f_lo = f;
          if (side == -1) f_hi *= 0.5;
          side = -1;
        } else {
          hi = s, f_hi = f;
          if (side == 1) f_lo *= 0.5;
          side = 1;
        }
        if (std::abs(f) <= 1e-15 * length) break;
      }
      breaks.push_back(0.5 * (lo + hi));
    }
  }
}

// Fits δ over [0, length) for `chord`. `root(s)` is the first root behind s, as exact as the
// track's samples allow (NaN where there is none on the track); `knots` the track's knot
// distances (ascending, 0 first). δ is checked at the midpoints between the nodes to within
// `tolerance`.
template <class S, class Root>
ChordOffsetFunction<S> fit_chord_offsets(S chord, double length, const std::vector<double>& knots,
                                         const Root& root, double tolerance, int max_depth) {
  ChordOffsetFunction<S> out;
  out.chord = chord;
  std::vector<S> starts;
  // Breaks: the knots, and between two knots a and b every distance whose chord ends on a knot
  // (r(s) = k for a knot k between r(a) and r(b), the roots unwrapped on a loop).
  std::vector<double> breaks = knots;
  std::vector<double> at_knot(knots.size());
  for (std::size_t i = 0; i < knots.size(); ++i)
    at_knot[i] = root(knots[i]);
  for (std::size_t i = 0; i + 1 < knots.size(); ++i)
    add_far_end_breaks(knots, length, knots[i], knots[i + 1], at_knot[i], at_knot[i + 1], root,
                       breaks);
  if (!knots.empty() && knots.back() < length)
    add_far_end_breaks(knots, length, knots.back(), length, at_knot.back(), root(length), root,
                       breaks);
  breaks.push_back(length);
  std::sort(breaks.begin(), breaks.end());
  for (std::size_t i = 0; i + 1 < breaks.size(); ++i)
    if (breaks[i + 1] > breaks[i])
      fit_span(breaks[i], breaks[i + 1], root, tolerance, max_depth, out.cells, starts);
  if (starts.empty()) {  // nothing to fit: one cell with no guess
    starts.push_back(S(0));
    out.cells.push_back(FittedCell<S, 0>{});
  }
  out.index = CellIndex<S>::build(std::move(starts), length);
  return out;
}

}  // namespace tractrix::detail
