/// @file
/// Internal: the real roots of small polynomials (degree <= 6) inside an interval, none missed.
/// The closest-point quintic and the jerk-limited planner's equations in its peak velocity both
/// need every root, not the one a Newton iteration happens to find.
#pragma once

#include <algorithm>
#include <cmath>

#include "tractrix/core/numeric.hpp"

namespace tractrix {
namespace detail {

// The highest degree interval_roots takes.
constexpr int max_root_degree = 6;

template <class S>
S horner(const S* c, int degree, S x) noexcept {
  S p = c[degree];
  for (int k = degree - 1; k >= 0; --k)
    p = p * x + c[k];
  return p;
}

// The root in (lo, hi) of a polynomial monotone there (or with only that root there), with p(lo)
// of sign `low_negative` and p(hi) of the other: Newton kept inside the bracket, bisecting when a
// step would leave it or shrinks the bracket too slowly; stops at a step of 2 eps of the
// interval's magnitude (at least 1: the unit interval's roots stop at 2 eps).
template <class S>
S monotone_root(const S* c, const S* derivative, int degree, S lo, S hi,
                bool low_negative) noexcept {
  using std::abs;
  const S resolution = S(2) * detail::epsilon<S>() * std::max({S(1), abs(lo), abs(hi)});
  S step_before = hi - lo, step = step_before;
  S x = lo + S(0.5) * (hi - lo);
  for (int iteration = 0; iteration < 256; ++iteration) {
    const S p = horner(c, degree, x);
    if (!(p < S(0)) && !(p > S(0))) return x;
    if ((p < S(0)) == low_negative)
      lo = x;
    else
      hi = x;
    const S slope = horner(derivative, degree - 1, x);
    const S newton = x - p / slope;
    if (!(newton > lo && newton < hi) || abs(S(2) * p) > abs(step_before * slope)) {
      step_before = step;
      step = S(0.5) * (hi - lo);
      x = lo + step;
    } else {
      step_before = step;
      step = p / slope;
      x = newton;
    }
    if (abs(step) <= resolution) return x;
  }
  return x;
}

// The real roots in the open interval (lo, hi) of Σ c[k] x^k (degree <= max_root_degree),
// ascending; returns how many. The roots of the derivative (recursively) cut the interval into
// pieces on which the polynomial is monotone, so each piece holds at most one root and a sign
// change brackets it: no root is missed, whatever their spacing. A double root that rounding
// lifts off zero has no sign change; the derivative's roots, written to `turns` (at most
// degree − 1) when it is given, are where to look for it.
template <class S>
int interval_roots(const S* c, int degree, S lo, S hi, S* roots, S* turns = nullptr,
                   int* turn_count = nullptr) noexcept {
  if (turn_count) *turn_count = 0;
  while (degree > 0 && !(c[degree] < S(0)) && !(c[degree] > S(0)))
    --degree;
  if (degree <= 0) return 0;
  if (degree == 1) {
    const S r = -c[0] / c[1];
    if (!(r > lo && r < hi)) return 0;
    roots[0] = r;
    return 1;
  }
  S derivative[max_root_degree];
  for (int k = 0; k < degree; ++k)
    derivative[k] = S(k + 1) * c[k + 1];
  S critical[max_root_degree - 1];
  const int critical_count = interval_roots(derivative, degree - 1, lo, hi, critical);
  if (turns) {
    std::copy(critical, critical + critical_count, turns);
    *turn_count = critical_count;
  }
  int count = 0;
  S a = lo, pa = horner(c, degree, lo);
  for (int j = 0; j <= critical_count; ++j) {
    const S b = j < critical_count ? critical[j] : hi;
    const S pb = horner(c, degree, b);
    if (a > lo && !(pa < S(0)) && !(pa > S(0)))
      roots[count++] = a;  // exactly on a critical point
    else if ((pa < S(0) && pb > S(0)) || (pa > S(0) && pb < S(0)))
      roots[count++] = monotone_root(c, derivative, degree, a, b, pa < S(0));
    a = b;
    pa = pb;
  }
  return count;
}

// The real roots in (0, 1), as interval_roots.
template <class S>
int unit_interval_roots(const S* c, int degree, S* roots, S* turns = nullptr,
                        int* turn_count = nullptr) noexcept {
  return interval_roots(c, degree, S(0), S(1), roots, turns, turn_count);
}

}  // namespace detail
}  // namespace tractrix
