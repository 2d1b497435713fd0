/// @file
/// Internal: the point of a horizontal layout nearest a query point. Every cell has a disc that
/// holds it (its centre and the sum of its coefficients' sizes), every run (segment) a disc that
/// holds its cells'; runs, then each run's cells, are searched nearest disc first, each only while
/// its disc could hold a nearer point than the best so far. In a cell, the squared distance's
/// derivative (P(w) − q)·P'(w) is sampled at 17 points and each rise through 0 refined by Newton's
/// method kept inside its bracket; the cell's ends are candidates too.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "tractrix/alignment/detail/horizontal_layout.hpp"

namespace tractrix::detail {

// A cell's polynomial (no constant term) and its first two derivatives at w.
template <class S>
struct CellJet {
  Vector2<S> p, d1, d2;
};
template <class S>
CellJet<S> cell_jet(const S* c, std::uint32_t degree, S w) noexcept {
  CellJet<S> jet{Vector2<S>::Zero(), Vector2<S>::Zero(), Vector2<S>::Zero()};
  for (std::uint32_t k = degree; k >= 1; --k) {
    const Vector2<S> ck(c[2 * std::size_t(k - 1)], c[2 * std::size_t(k - 1) + 1]);
    jet.d2 = jet.d2 * w + S(2) * jet.d1;
    jet.d1 = jet.d1 * w + jet.p;
    jet.p = jet.p * w + ck;
  }
  // p so far is P(w)/w: shift once more for the missing constant term.
  jet.d2 = jet.d2 * w + S(2) * jet.d1;
  jet.d1 = jet.d1 * w + jet.p;
  jet.p = jet.p * w;
  return jet;
}

// The w in [−1, 1] of cell `cell` nearest q (relative to the cell's centre) and its squared
// distance.
template <class S>
std::pair<S, S> nearest_in_cell(const S* c, std::uint32_t degree, const Vector2<S>& q) noexcept {
  const auto slope = [&](S w) {
    const CellJet<S> j = cell_jet(c, degree, w);
    return std::pair<S, CellJet<S>>{(j.p - q).dot(j.d1), j};
  };
  S best_w = S(-1), best = (cell_jet(c, degree, S(-1)).p - q).squaredNorm();
  const S at_end = (cell_jet(c, degree, S(1)).p - q).squaredNorm();
  if (at_end < best) {
    best = at_end;
    best_w = S(1);
  }
  constexpr int samples = 16;
  S lo = S(-1), f_lo = slope(lo).first;
  for (int i = 1; i <= samples; ++i) {
    const S hi = S(-1) + S(2 * i) / S(samples), f_hi = slope(hi).first;
    if (f_lo < S(0) && f_hi >= S(0)) {  // a minimum of the squared distance in [lo, hi]
      S a = lo, b = hi, w = S(0.5) * (lo + hi);
      for (int iteration = 0; iteration < 60; ++iteration) {
        const auto [f, j] = slope(w);
        if (f < S(0))
          a = w;
        else
          b = w;
        const S curvature = j.d1.squaredNorm() + (j.p - q).dot(j.d2);
        S next = curvature > S(0) ? w - f / curvature : S(0.5) * (a + b);
        if (!(next > a && next < b)) next = S(0.5) * (a + b);
        using std::abs;
        const bool done = abs(next - w) <= S(4) * epsilon<S>() || b - a <= S(4) * epsilon<S>();
        w = next;
        if (done) break;
      }
      const S d = (cell_jet(c, degree, w).p - q).squaredNorm();
      if (d < best) {
        best = d;
        best_w = w;
      }
    }
    lo = hi;
    f_lo = f_hi;
  }
  return {best_w, best};
}

template <class S>
struct HorizontalNearest {
  S distance;        // along the layout
  Vector2<S> point;  // on it
  S squared_gap;     // |q − point|²
};

template <class S>
HorizontalNearest<S> horizontal_nearest(const HorizontalData<S>& data, const Vector2<S>& q) {
  // The start is the first candidate: a point of the layout even where q is too far for any
  // squared distance to be finite. A q that is not a point gets the start.
  std::size_t cursor = 0;
  const Vector2<S> start = horizontal_at(data, S(0), cursor).position;
  HorizontalNearest<S> best{S(0), start, (start - q).squaredNorm()};
  if (!q.allFinite()) return best;
  // Every run's lower bound; the nearest run searched first, then the runs still in reach of
  // the best so far in ascending order while they could win (a full sort of hundreds of bounds
  // would cost more than the search), and in each run its cells likewise.
  std::vector<std::pair<S, std::uint32_t>> runs, cells;
  runs.reserve(data.runs.size());
  for (std::uint32_t r = 0; r < data.runs.size(); ++r) {
    const S gap = (data.runs[r].centre - q).norm() - data.runs[r].reach;
    runs.emplace_back(std::max(gap, S(0)), r);
  }
  const auto search_run = [&](const HorizontalRun<S>& run) {
    cells.clear();
    for (std::uint32_t i = run.first_cell; i < run.first_cell + run.cell_count; ++i) {
      const HorizontalCell<S>& cell = data.cells[i];
      const S gap = (Vector2<S>(cell.x, cell.y) - q).norm() - data.cell_reach[i];
      cells.emplace_back(std::max(gap, S(0)), i);
    }
    std::sort(cells.begin(), cells.end());
    for (const auto& [bound, index] : cells) {
      if (bound * bound > best.squared_gap) break;
      const HorizontalCell<S>& cell = data.cells[index];
      const Vector2<S> centre(cell.x, cell.y);
      const S* c = data.coefficients.data() + cell.first;
      const auto [w, gap] = nearest_in_cell(c, cell.degree, Vector2<S>(q - centre));
      if (gap < best.squared_gap) {
        const S cell_length = S(1) / run.cells_per_length;
        const S along = run.start + (S(index - run.first_cell) + S(0.5) * (w + S(1))) * cell_length;
        best = {std::min(along, data.length), centre + cell_jet(c, cell.degree, w).p, gap};
      }
    }
  };
  const auto nearest = std::min_element(runs.begin(), runs.end());
  search_run(data.runs[nearest->second]);
  std::swap(*nearest, runs.back());
  runs.pop_back();
  runs.erase(std::remove_if(runs.begin(), runs.end(),
                            [&](const auto& r) { return r.first * r.first > best.squared_gap; }),
             runs.end());
  std::sort(runs.begin(), runs.end());
  for (const auto& [bound, r] : runs) {
    if (bound * bound > best.squared_gap) break;
    search_run(data.runs[r]);
  }
  return best;
}

}  // namespace tractrix::detail
