/// @file
/// `ClosestPoint` and `ClosestPointCursor`: the nearest point of a MeasuredPath to a point in
/// space (MeasuredPath::closest_point). The answer is the exact global minimum of the distance:
/// per segment from the real roots of a quintic, across segments by branch and bound over
/// PathBounds (the search is in detail/nearest_point.hpp). The cursor follows a point that moves
/// a little each frame (a player, a vehicle, a camera target).
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
#include "tractrix/curve/detail/nearest_point.hpp"
#include "tractrix/curve/path.hpp"
#include "tractrix/curve/path_bounds.hpp"

namespace tractrix {

template <class S, int D>
class MeasuredPath;

/// The nearest point of a path to a query point, as MeasuredPath::closest_point returns it.
template <class S, int D = 3>
struct ClosestPoint {
  /// Distance along the path from its start (t = 0) to the point, in the path's units: the 1-D
  /// answer ("offset on the curve"), in [0, length()]. On a closed path the seam reads as 0.
  S distance = S(0);
  S parameter = S(0);                         ///< path parameter t of the same point
  Vector<S, D> point = Vector<S, D>::Zero();  ///< the nearest point itself
  /// |point − query|², in squared path units; NaN when the query was not finite (and then the
  /// rest is the path's start: distance and parameter 0).
  S squared_distance = S(0);
};

/// Follows a query point that moves a little between calls (MeasuredPath::closest_point with a
/// cursor): a player, a vehicle beside the track, a camera target. Default-constructed, its
/// first query searches globally.
///
/// When it searches globally from a query q0, it also keeps the segments whose boxes lie within
/// a radius R of q0, sorted by their box distance: R = 2·(nearest distance) + 2·(mean box
/// diagonal of a segment), or less where more than 256 segments lie that near (then R is the
/// box distance of the farthest kept). A later query q, m = |q − q0| away, solves the last
/// answer's segment, then the kept ones nearest box first, stopping at the first box farther
/// than the best answer plus m. Every segment not kept is at least R − m away, so an answer
/// nearer than R − m is the global one (the same as without a cursor, up to ties). Otherwise
/// (the point jumped, or drifted about R/2) it searches globally again; global_searches()
/// counts those. It pays off where segments are about as long as the query is far from the
/// path; where they are much shorter the list is rebuilt often and the cursor costs more than
/// the global search (benchmarks/README.md, "Closest point").
///
/// No allocation: the list lives in the cursor. One cursor per moving point and path: a cursor
/// last used on another path (or on one since destroyed) searches globally.
template <class S, int D = 3>
class ClosestPointCursor {
 public:
  /// How many queries this cursor has answered (non-finite queries return before reaching it
  /// and are not counted).
  std::size_t queries() const noexcept { return queries_; }
  /// How many of those searched the whole path: the first, the first after reset() or on
  /// another path, and each that moved too far from the last global search.
  std::size_t global_searches() const noexcept { return global_searches_; }
  /// Forgets the kept segments: the next query searches globally. The counts are kept.
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
