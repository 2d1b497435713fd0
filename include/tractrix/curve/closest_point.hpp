// Closest point on a path to a point in space: the exact global minimum of the distance, per
// segment from the real roots of a quintic, across segments by branch and bound over PathBounds;
// and a cursor for a point that moves a little each frame (a player, a vehicle, a camera target).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <utility>

#include "tractrix/core/attributes.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/core/polynomial.hpp"
#include "tractrix/core/weak_owner.hpp"
#include "tractrix/curve/path.hpp"
#include "tractrix/curve/path_bounds.hpp"

namespace tractrix {

template <class S, int D>
class MeasuredPath;

// The nearest point of a path to a query point (MeasuredPath::closest_point).
template <class S, int D = 3>
struct ClosestPoint {
  S distance = S(0);   // along the path, from its start: the 1-D answer ("offset on the curve")
  S parameter = S(0);  // path parameter t of the same point
  Vector<S, D> point = Vector<S, D>::Zero();
  // |point − query|²; NaN when the query was not finite (and then the rest is the path's start).
  S squared_distance = S(0);
};

namespace detail {

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
// |r'| where the expanded quintic's does not; the nearest minimum reached wins. A query on the
// curve beside a cusp ended 1.0e-9 from it in double (6.8e-4 in float); beside a near-cusp's small
// loop, on the loop's other branch. Rare (cusps): out of line.
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
    // the spacing of numbers at |q|, which tilted a nearly straight segment's tangent and moved
    // the foot of a query 10⁵ away by 1.7e-9 along a 10-unit segment.
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

}  // namespace detail

// Follows a query point that moves a little between calls (MeasuredPath::closest_point with a
// cursor): a player, a vehicle beside the track, a camera target. When it searches, it also keeps
// the segments whose boxes lie within a radius R of that query q0, sorted by their box distance:
// R = 2·(nearest distance) + 2·(mean box diagonal of a segment), or less where more than
// `capacity` segments lie that near (then R is the box distance of the farthest kept). A later
// query q, m = |q − q0| away, solves the last answer's segment, then the kept ones nearest box
// first, stopping at the first box farther than the best answer plus m; every segment not kept
// is at least R − m away, so an answer nearer than R − m is the global one (the same as without
// a cursor, up to ties). Otherwise — the point jumped or drifted about R/2 — it searches
// globally again; global_searches() counts those. Cheaper than the global search where segments
// are about as long as the query is far from the path (1.9–3.0× fewer instructions on five
// tracks of the benchmark family); where they are much shorter the list is rebuilt often and
// the cursor costs more than the global search (2.1× with 0.06-unit segments 2 units away:
// benchmarks/README.md, "Closest point"). No allocation: the list
// lives in the cursor (capacity entries). One cursor per moving point and path.
template <class S, int D = 3>
class ClosestPointCursor {
 public:
  std::size_t queries() const noexcept { return queries_; }
  std::size_t global_searches() const noexcept { return global_searches_; }
  // Forget the state: the next call searches globally.
  void reset() noexcept { owner_.reset(); }

 private:
  friend class MeasuredPath<S, D>;
  using Point = Vector<S, D>;
  static constexpr std::size_t capacity = 256;
  struct Candidate {
    S box_distance;  // squared while the list is built, then its root
    std::size_t segment;
    typename PathBounds<S, D>::Box box;
  };
  static bool nearer(const Candidate& x, const Candidate& y) noexcept {
    return x.box_distance < y.box_distance;
  }

  // `owner` is the measured path's shared data: held weakly, so a path destroyed and another
  // built at the same address is not mistaken for it.
  template <class Owner>
  detail::Nearest<S> nearest(const Path<S, D>& path, const PathBounds<S, D>& bounds, const Point& q,
                             const std::shared_ptr<Owner>& owner) {
    using std::sqrt;
    ++queries_;
    detail::Nearest<S> best;
    if (detail::held_owner_is(owner_, owner)) {
      const S moved = (q - origin_).norm();
      // The last answer's segment first: its distance bounds the rest from the start.
      detail::nearest_on_segment(path.segment(last_), last_, q, best);
      S best_distance = sqrt(best.squared_distance);
      for (std::size_t k = 0; k < kept_; ++k) {
        const Candidate& candidate = candidates_[k];
        if (!(candidate.box_distance - moved < best_distance)) break;
        if (candidate.segment == last_ ||
            !(PathBounds<S, D>::squared_distance(candidate.box, q) < best.squared_distance))
          continue;
        // As the global search: the chord bound before the quintic.
        const auto& segment = path.segment(candidate.segment);
        const S lower = detail::segment_lower_bound(segment, q);
        if (!(lower * lower < best.squared_distance)) continue;
        detail::nearest_on_segment(segment, candidate.segment, q, best);
        best_distance = sqrt(best.squared_distance);
      }
      if (best_distance <= radius_ - moved) {
        last_ = best.segment;
        return best;
      }
    }
    ++global_searches_;
    best = detail::nearest_on_path(path, bounds, q, best);
    owner_ = owner;
    last_ = best.segment;
    origin_ = q;
    // The `capacity` segments with the nearest boxes within the radius: appended while there is
    // room (most lists stay shorter), then a max-heap on the box distance whose top lowers the
    // tree search's bound.
    S reach = S(2) * sqrt(best.squared_distance) + S(2) * bounds.mean_diagonal();
    reach *= reach;
    kept_ = 0;
    bounds.search(q, reach, [&](std::size_t i, S& bound2) {
      const auto box = PathBounds<S, D>::segment_box(path.segment(i));
      const S box2 = PathBounds<S, D>::squared_distance(box, q);
      if (!(box2 < bound2)) return;
      if (kept_ < capacity) {
        candidates_[kept_++] = Candidate{box2, i, box};
        if (kept_ < capacity) return;
        std::make_heap(candidates_.begin(), candidates_.end(), nearer);
      } else {
        std::pop_heap(candidates_.begin(), candidates_.end(), nearer);
        candidates_.back() = Candidate{box2, i, box};
        std::push_heap(candidates_.begin(), candidates_.end(), nearer);
      }
      bound2 = candidates_[0].box_distance;
    });
    // Every segment left out is at least this far from q: pruned by a box (or evicted) no nearer
    // than the bound when it was left out, and the bound only fell.
    radius_ = sqrt(reach);
    std::sort(candidates_.begin(), candidates_.begin() + static_cast<std::ptrdiff_t>(kept_),
              nearer);
    for (std::size_t k = 0; k < kept_; ++k)
      candidates_[k].box_distance = sqrt(candidates_[k].box_distance);
    return best;
  }

  std::weak_ptr<const void> owner_;
  Point origin_ = Point::Zero();
  S radius_ = S(0);
  std::array<Candidate, capacity> candidates_{};
  std::size_t kept_ = 0;
  std::size_t last_ = 0;  // the segment of the last answer
  std::size_t queries_ = 0, global_searches_ = 0;
};

}  // namespace tractrix
