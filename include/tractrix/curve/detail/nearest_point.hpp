/// @file
/// The engine behind closest points (curve/closest_point.hpp): the nearest point of one cubic
/// segment to a query from the real roots of a quintic, and of a path by branch and bound over
/// its segments' boxes (PathBounds). Not API.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>

#include "tractrix/core/attributes.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/core/polynomial.hpp"
#include "tractrix/curve/path.hpp"
#include "tractrix/curve/path_bounds.hpp"

namespace tractrix::detail {

template <class S>
struct Nearest {
  std::size_t segment = 0;
  S u = S(0);
  S squared_distance = std::numeric_limits<S>::infinity();
};

// Whether Bernstein coefficients b[0..5] settle their polynomial's roots in the interval: all
// beyond `margin` of zero with at most one sign change (no root, or exactly one, bracketed).
template <class S>
bool bernstein_settled(const S* b, S margin, int& changes) noexcept {
  bool robust = true;
  changes = 0;
  for (std::size_t j = 0; j < 6; ++j) {
    using std::abs;
    robust = robust && abs(b[j]) > margin;
    if (j > 0 && (b[j] < S(0)) != (b[j - 1] < S(0))) ++changes;
  }
  return robust && changes <= 1;
}

// The roots in (lo, hi) of the quintic whose Bernstein coefficients over that interval are `b`,
// when the coefficients settle them (bernstein_settled), after halving up to `depth` times. Appends
// them to `roots` (at most 2^depth) and returns true; false where some part stays unsettled.
template <class S>
bool bernstein_roots(const S* quintic, const S* derivative, const std::array<S, 6>& b, S lo, S hi,
                     S margin, int depth, S* roots, int& count) noexcept {
  int changes = 0;
  if (bernstein_settled(b.data(), margin, changes)) {
    if (changes == 1) roots[count++] = monotone_root(quintic, derivative, 5, lo, hi, b[0] < S(0));
    return true;
  }
  if (depth == 0) return false;
  std::array<S, 6> w = b, left{}, right{};
  for (std::size_t r = 0; r < 6; ++r) {
    left[r] = w[0];
    right[5 - r] = w[5 - r];
    for (std::size_t j = 0; j + r < 5; ++j)
      w[j] = S(0.5) * (w[j] + w[j + 1]);
  }
  const S middle = lo + S(0.5) * (hi - lo);
  return bernstein_roots(quintic, derivative, left, lo, middle, margin, depth - 1, roots, count) &&
         bernstein_roots(quintic, derivative, right, middle, hi, margin, depth - 1, roots, count);
}

// The nearest point of a segment, r(u) − q = ((a u + b) u + c) u + d, about a root u of its
// quintic (r − q)·r' whose rounding (`margin`) may have moved it far (the quintic's slope,
// |r'|² + (r − q)·r'', vanishes beside a cusp or at a tangential minimum): re-found on the
// squared distance itself, from u and from each of 17 points across the stretch where the
// quintic lies within its rounding (|f + f't + f''t²/2| <= margin) that is nearer than its
// neighbours, by Newton on (r − q)·r' as that product, whose rounding shrinks with |r − q| and
// |r'| where the expanded quintic's does not; the nearest minimum reached wins, so a query beside
// a cusp ends on the cusp, and one beside a near-cusp's small loop on the right branch. Rare
// (cusps): out of line.
template <class S, int D>
TRACTRIX_NOINLINE S polished_root(const Vector<S, D>& a, const Vector<S, D>& b,
                                  const Vector<S, D>& c, const Vector<S, D>& d, const S* derivative,
                                  S margin, S u) noexcept {
  using V = Vector<S, D>;
  using std::abs;
  using std::min;
  using std::sqrt;
  const auto squared_at = [&](S v) { return (((a * v + b) * v + c) * v + d).squaredNorm(); };
  const S slope = abs(horner(derivative, 4, u));
  const S second[4] = {derivative[1], S(2) * derivative[2], S(3) * derivative[3],
                       S(4) * derivative[4]};
  const S bend = abs(horner(second, 3, u));
  const S reach = min({slope > S(0) ? margin / slope : S(1),
                       bend > S(0) ? sqrt(S(2) * margin / bend) : S(1), S(0.125)});
  // (r − q)·r' as that product, its derivative |r'|² + (r − q)·r'', and |r'|².
  struct Slope {
    S value, curvature, speed2;
  };
  const auto slope_at = [&](S v) {
    const V r = ((a * v + b) * v + c) * v + d;
    const V r1 = (S(3) * a * v + S(2) * b) * v + c;
    const S speed2 = r1.squaredNorm();
    return Slope{r.dot(r1), speed2 + r.dot(S(6) * a * v + S(2) * b), speed2};
  };
  // The minimum of the basin v lies in: Newton steps (Gauss–Newton's where the distance is not
  // convex), each halved until it lowers the squared distance; then, where the squared
  // distance no longer resolves the steps (its rounding hides moves below √eps of u at a
  // flat minimum), Newton on the slope alone while the slope shrinks.
  const auto descend = [&](S v) {
    S v_squared = squared_at(v);
    for (int step = 0; step < 32; ++step) {
      const Slope at = slope_at(v);
      const S curvature = at.curvature > S(0) ? at.curvature : at.speed2;
      if (!(curvature > S(0))) break;
      S move = -at.value / curvature, next = v, next_squared = v_squared;
      for (int halving = 0; halving < 24 && !(next_squared < v_squared);
           ++halving, move *= S(0.5)) {
        next = detail::clamp_or_low(v + move, S(0), S(1));
        next_squared = squared_at(next);
      }
      if (!(next_squared < v_squared)) break;
      const bool settled = abs(next - v) <= S(4) * detail::epsilon<S>();
      v = next, v_squared = next_squared;
      if (settled) break;
    }
    Slope at = slope_at(v);
    for (int step = 0; step < 4 && at.curvature > S(0); ++step) {
      const S next = detail::clamp_or_low(v - at.value / at.curvature, S(0), S(1));
      const Slope next_at = slope_at(next);
      if (!(abs(next_at.value) < abs(at.value))) break;
      v = next, at = next_at;
    }
    return std::pair<S, S>{v, squared_at(v)};
  };
  // From the candidate, and from every point of the 17 nearer than both its neighbours.
  auto [found, found_squared] = descend(u);
  S samples[17];
  for (int k = 0; k < 17; ++k)
    samples[k] = squared_at(detail::clamp_or_low(u + reach * S(k - 8) / S(8), S(0), S(1)));
  for (int k = 0; k < 17; ++k) {
    if ((k > 0 && !(samples[k] < samples[k - 1])) || (k < 16 && !(samples[k] < samples[k + 1])))
      continue;
    const auto [v, v_squared] =
        descend(detail::clamp_or_low(u + reach * S(k - 8) / S(8), S(0), S(1)));
    if (v_squared < found_squared) found = v, found_squared = v_squared;
  }
  return found;
}

// One segment against a query point q: r(u) − q = a u³ + b u² + c u + d with d = P0 − q, and the
// squared distance's derivative, twice the quintic (r − q)·r' = 3a·a u⁵ + 5a·b u⁴ + (4a·c + 2b·b)
// u³
// + 3(a·d + b·c) u² + (2b·d + c·c) u + c·d, with its derivative and its rounding.
template <class S, int D>
struct SegmentQuintic {
  using V = Vector<S, D>;
  V a, b, c, d;
  S quintic[6];
  S derivative[5];
  // The norms' products that bound each coefficient; the quintic's rounding is a few eps of it.
  S magnitude;
  // The rounding of the dot products and of the conversion to Bernstein form; halving adds at
  // most 5 eps of the largest coefficient (itself at most `magnitude`) a level: the margin
  // holds three levels of it.
  S margin;

  TRACTRIX_FORCE_INLINE SegmentQuintic(const Bezier<S, D, 3>& segment, const V& q) noexcept {
    // a, b and c from the control points themselves, not shifted by q: each P_j − q rounds to
    // the spacing of numbers at |q|, which would tilt a nearly straight segment's tangent for a
    // query far away, and move its foot along the segment.
    const V& p0 = segment.points[0];
    const V& p1 = segment.points[1];
    const V& p2 = segment.points[2];
    const V& p3 = segment.points[3];
    c = S(3) * (p1 - p0);
    b = S(3) * ((p0 - p1) + (p2 - p1));
    a = (p3 - p0) + S(3) * (p1 - p2);
    d = p0 - q;
    quintic[0] = c.dot(d);
    quintic[1] = S(2) * b.dot(d) + c.dot(c);
    quintic[2] = S(3) * (a.dot(d) + b.dot(c));
    quintic[3] = S(4) * a.dot(c) + S(2) * b.dot(b);
    quintic[4] = S(5) * a.dot(b);
    quintic[5] = S(3) * a.dot(a);
    for (int i = 0; i < 5; ++i)
      derivative[i] = S(i + 1) * quintic[i + 1];
    using std::sqrt;
    const S na = sqrt(a.squaredNorm()), nb = sqrt(b.squaredNorm()), nc = sqrt(c.squaredNorm()),
            nd = sqrt(d.squaredNorm());
    magnitude = nc * nd + S(2) * nb * nd + nc * nc + S(3) * (na * nd + nb * nc) + S(4) * na * nc +
                S(2) * nb * nb + S(5) * na * nb + S(3) * na * na;
    margin = S(64) * detail::epsilon<S>() * magnitude;
  }
  S squared_at(S u) const noexcept { return (((a * u + b) * u + c) * u + d).squaredNorm(); }

  // A root u of the quintic as the distance can tell it. One that the quintic's rounding (a few
  // eps of its magnitude, not the margin's 64) moves by more than √eps of the parameter, where
  // the product (r − q)·r' rounds √eps times less (|r − q|·|r'| below √eps of the magnitude:
  // beside a cusp), is re-found (polished_root). Elsewhere — a query near its centre of
  // curvature, where both round alike, or any root of an ordinary segment, float's included —
  // the root is as good as the distance can say.
  S refined_root(S u) const noexcept {
    using std::abs;
    using std::sqrt;
    const S root_eps = sqrt(detail::epsilon<S>());
    if (S(4) * detail::epsilon<S>() * magnitude > root_eps * abs(horner(derivative, 4, u))) {
      const V r = ((a * u + b) * u + c) * u + d, r1 = (S(3) * a * u + S(2) * b) * u + c;
      if (r.squaredNorm() * r1.squaredNorm() < detail::epsilon<S>() * magnitude * magnitude)
        return polished_root(a, b, c, d, derivative, margin, u);
    }
    return u;
  }
};

// Lowers `best` to the nearest point of one segment when that is nearer. Its minima are among the
// quintic's roots and the ends; the quartic's roots (where the quintic turns) are tried as well,
// so a tangential minimum that rounding lifts off zero is not lost.
template <class S, int D>
void nearest_on_segment(const Bezier<S, D, 3>& segment, std::size_t index, const Vector<S, D>& q,
                        Nearest<S>& best) noexcept {
  const SegmentQuintic<S, D> f(segment, q);
  const S(&quintic)[6] = f.quintic;
  const S(&derivative)[5] = f.derivative;
  const S margin = f.margin;
  const auto consider = [&](S u) {
    const S squared = f.squared_at(u);
    if (squared < best.squared_distance) best = Nearest<S>{index, u, squared};
  };
  const auto consider_root = [&](S u) { consider(f.refined_root(u)); };
  // A turn of the quintic: a root too where the quintic is within its rounding of zero there.
  const auto consider_turn = [&](S u) {
    using std::abs;
    if (abs(horner(quintic, 5, u)) <= margin)
      consider_root(u);
    else
      consider(u);
  };
  // Most segments of a track are nearly straight, and their quintic has at most one root in
  // (0, 1). Its Bernstein coefficients say so cheaply (Descartes' rule in the Bernstein basis:
  // the roots in an interval are at most, and of the parity of, the coefficients' sign changes
  // there) when no coefficient is within rounding of zero — the rounding of the dot products
  // above and of the conversion, bounded by the norms' products. Then: no sign change, the
  // minimum is an end; one, exactly one root, bracketed by the ends. Where the coefficients
  // change sign more often than the quintic does (a query far from a short segment), halving the
  // interval (de Casteljau on the coefficients) settles it; otherwise the full isolation below.
  {
    const S* k = quintic;
    const S bernstein[6] = {k[0],
                            k[0] + k[1] / S(5),
                            k[0] + S(0.4) * k[1] + k[2] / S(10),
                            k[0] + S(0.6) * k[1] + S(0.3) * k[2] + k[3] / S(10),
                            k[0] + S(0.8) * k[1] + S(0.6) * k[2] + S(0.4) * k[3] + k[4] / S(5),
                            k[0] + k[1] + k[2] + k[3] + k[4] + k[5]};
    // Settled over the whole interval (the common case, checked inline), or after halving.
    int changes = 0;
    if (bernstein_settled(bernstein, margin, changes)) {
      consider(S(0));
      if (changes == 1)
        consider_root(monotone_root(quintic, derivative, 5, S(0), S(1), k[0] < S(0)));
      consider(S(1));
      return;
    }
    S found[8];
    int found_count = 0;
    if (bernstein_roots(
            quintic, derivative,
            {bernstein[0], bernstein[1], bernstein[2], bernstein[3], bernstein[4], bernstein[5]},
            S(0), S(1), margin, 3, found, found_count)) {
      consider(S(0));
      for (int j = 0; j < found_count; ++j)
        consider_root(found[j]);
      consider(S(1));
      return;
    }
  }
  S roots[5], turns[4];
  int turn_count = 0;
  const int root_count = unit_interval_roots(quintic, 5, roots, turns, &turn_count);
  consider(S(0));
  for (int j = 0; j < root_count; ++j)
    consider_root(roots[j]);
  for (int j = 0; j < turn_count; ++j)
    consider_turn(turns[j]);
  consider(S(1));
}

// A lower bound of the distance from q to a cubic segment, tight for the nearly straight segments
// tracks are made of: the segment lies in its control points' hull, and the hull lies within w
// of the chord P0P3, w the farther of P1 and P2 from it (the chord thickened by w is convex and
// holds all four points). So |r(u) − q| ≥ dist(q, chord) − w. Where a box test passes for
// every segment a row of short segments long, this passes for the one or two near the foot.
template <class S, int D>
S segment_lower_bound(const Bezier<S, D, 3>& segment, const Vector<S, D>& q) noexcept {
  const Vector<S, D>& a = segment.points[0];
  const Vector<S, D> chord = segment.points[3] - a;
  const S chord2 = chord.squaredNorm();
  if (!std::isfinite(chord2)) return S(0);  // coordinates beyond ~1e154: no bound
  auto to_chord = [&](const Vector<S, D>& p) {
    const Vector<S, D> ap = p - a;
    S t = chord2 > S(0) ? ap.dot(chord) / chord2 : S(0);
    t = t < S(0) ? S(0) : (t > S(1) ? S(1) : t);
    return (ap - t * chord).norm();
  };
  using std::max;
  using std::sqrt;
  const S w = max(to_chord(segment.points[1]), to_chord(segment.points[2]));
  // Less the rounding of these distances (absolute: of the size of |q − P0| and the chord), so
  // rounding never skips the nearest segment.
  const S rounding = S(16) * detail::epsilon<S>() * ((q - a).norm() + sqrt(chord2));
  return max(S(0), to_chord(q) - w - rounding);
}

// The global minimum over the path: branch and bound over the segment boxes, starting from `best`
// (a candidate already known, or the empty one).
template <class S, int D>
Nearest<S> nearest_on_path(const Path<S, D>& path, const PathBounds<S, D>& bounds,
                           const Vector<S, D>& q, Nearest<S> best) noexcept {
  S bound = best.squared_distance;
  bounds.search(q, bound, [&](std::size_t i, S& bound2) {
    const auto& segment = path.segment(i);
    if (!(PathBounds<S, D>::squared_distance(PathBounds<S, D>::segment_box(segment), q) < bound2))
      return;
    const S lower = segment_lower_bound(segment, q);
    if (!(lower * lower < bound2)) return;
    nearest_on_segment(segment, i, q, best);
    bound2 = std::min(bound2, best.squared_distance);
  });
  return best;
}

}  // namespace tractrix::detail
