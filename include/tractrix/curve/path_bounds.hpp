/// @file
/// `PathBounds`: axis-aligned boxes over runs of a path's segments, in a balanced tree, for
/// queries that need "which segments can be within this distance of a point" (closest point)
/// without looking at every segment.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <vector>

#include "tractrix/curve/path.hpp"

namespace tractrix {

/// A tree of boxes over a path's segments. A Bézier segment lies inside the convex hull of its
/// control points, so the box of the control points bounds it. Leaves hold runs of `leaf_size`
/// consecutive segments (consecutive segments are neighbours in space, so the boxes stay tight);
/// a node's box bounds its two children's. The tree is implicit: node 1 is the root, node k has
/// children 2k and 2k + 1, leaves fill the last level (padding leaves are empty boxes, infinitely
/// far from everything). Memory: between n/2 and n boxes of 2·D scalars for n ≥ 4 segments (the
/// leaf level is padded to a power of two).
template <class S, int D = 3>
class PathBounds {
 public:
  using Point = Vector<S, D>;                  ///< a point, and a box's corner
  static constexpr std::size_t leaf_size = 4;  ///< segments per leaf

  /// An axis-aligned box; an empty one has lo = +inf and hi = −inf.
  struct Box {
    Point lo,  ///< the smallest coordinate on each axis
        hi;    ///< the largest coordinate on each axis
  };

  /// An empty tree: search() visits nothing and root() is the empty box.
  PathBounds() = default;
  /// The tree over the boxes of a path's segments.
  explicit PathBounds(const Path<S, D>& path) {
    std::vector<Box> boxes(path.size());
    for (std::size_t i = 0; i < path.size(); ++i)
      boxes[i] = segment_box(path.segment(i));
    build(boxes);
  }
  /// The tree over any items' boxes (a network's pieces); search() then visits item indices.
  /// Items listed next to each other should lie near each other, as a path's segments do, or the
  /// leaves' boxes grow large.
  explicit PathBounds(const std::vector<Box>& items) { build(items); }

  /// How many segments (or items) the tree holds.
  std::size_t segment_count() const noexcept { return segments_; }
  /// The box of everything (empty boxes are +inf to −inf).
  Box root() const noexcept {
    if (boxes_.empty()) {
      constexpr S inf = std::numeric_limits<S>::infinity();
      return Box{Point::Constant(inf), Point::Constant(-inf)};
    }
    return boxes_[1];
  }
  /// The mean diagonal of the segments' boxes: the size of a segment, for a loop segment too (0
  /// for an empty tree).
  S mean_diagonal() const noexcept { return mean_diagonal_; }

  /// The box of one segment's control points.
  static Box segment_box(const Bezier<S, D, 3>& segment) noexcept {
    Box box{segment.points[0], segment.points[0]};
    for (std::size_t j = 1; j < 4; ++j) {
      box.lo = box.lo.cwiseMin(segment.points[j]);
      box.hi = box.hi.cwiseMax(segment.points[j]);
    }
    return box;
  }

  /// Squared distance from q to the box: 0 inside, +inf for an empty box.
  static S squared_distance(const Box& box, const Point& q) noexcept {
    S sum = S(0);
    for (int c = 0; c < D; ++c) {
      const S below = box.lo[c] - q[c], above = q[c] - box.hi[c];
      const S gap = std::max(S(0), std::max(below, above));
      sum += gap * gap;
    }
    return sum;
  }

  /// Branch and bound: calls visit(segment, bound2) for every segment in a leaf whose box is
  /// closer to q than sqrt(bound2), nearer leaves first. The visitor may lower bound2 (the best
  /// squared distance found so far); later nodes are skipped against the lowered value.
  template <class Visit>
  void search(const Point& q, S& bound2, Visit&& visit) const {
    if (segments_ == 0) return;
    // Depth-first with the farther child pushed first: at most one pending node per level.
    std::array<std::size_t, 2 * std::numeric_limits<std::size_t>::digits> stack;
    std::size_t top = 0;
    stack[top++] = 1;
    while (top > 0) {
      const std::size_t node = stack[--top];
      if (!(squared_distance(boxes_[node], q) < bound2)) continue;
      if (node >= first_leaf_) {
        const std::size_t begin = (node - first_leaf_) * leaf_size;
        const std::size_t end = std::min(segments_, begin + leaf_size);
        for (std::size_t i = begin; i < end; ++i)
          visit(i, bound2);
        continue;
      }
      const S left = squared_distance(boxes_[2 * node], q);
      const S right = squared_distance(boxes_[2 * node + 1], q);
      const std::size_t nearer = left <= right ? 2 * node : 2 * node + 1;
      if (std::max(left, right) < bound2) stack[top++] = nearer ^ 1;
      if (std::min(left, right) < bound2) stack[top++] = nearer;
    }
  }

 private:
  void build(const std::vector<Box>& items) {
    segments_ = items.size();
    const std::size_t leaves = (segments_ + leaf_size - 1) / leaf_size;
    first_leaf_ = 1;
    while (first_leaf_ < leaves)
      first_leaf_ *= 2;
    constexpr S inf = std::numeric_limits<S>::infinity();
    boxes_.assign(2 * first_leaf_, Box{Point::Constant(inf), Point::Constant(-inf)});
    S diagonals = S(0);
    for (std::size_t i = 0; i < segments_; ++i) {
      Box& leaf = boxes_[first_leaf_ + i / leaf_size];
      leaf.lo = leaf.lo.cwiseMin(items[i].lo);
      leaf.hi = leaf.hi.cwiseMax(items[i].hi);
      diagonals += (items[i].hi - items[i].lo).norm();
    }
    mean_diagonal_ = segments_ > 0 ? diagonals / S(segments_) : S(0);
    for (std::size_t k = first_leaf_ - 1; k >= 1; --k) {
      boxes_[k].lo = boxes_[2 * k].lo.cwiseMin(boxes_[2 * k + 1].lo);
      boxes_[k].hi = boxes_[2 * k].hi.cwiseMax(boxes_[2 * k + 1].hi);
    }
  }

  std::size_t segments_ = 0;
  std::size_t first_leaf_ = 1;
  S mean_diagonal_ = S(0);
  std::vector<Box> boxes_;
};

}  // namespace tractrix
