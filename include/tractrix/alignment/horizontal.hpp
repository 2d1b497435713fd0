/// @file
/// The horizontal layout of an alignment, as IFC 4.3 defines it (`IfcAlignmentHorizontal`): a
/// chain of segments — lines, circular arcs and transition curves — each given by its start point,
/// start direction, signed start and end radius and length. Position, unit tangent, direction and
/// signed curvature at a distance along, exact: every segment is evaluated from its curvature law
/// by power series (alignment/detail/heading_series.hpp), without tables or inversion.
/// Segment types and
/// conventions: alignment/horizontal_segment.hpp. Distances are along the horizontal projection,
/// from the layout's start; railway stationing adds its start station outside this class.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tractrix/alignment/detail/horizontal_closest.hpp"
#include "tractrix/alignment/detail/horizontal_layout.hpp"
#include "tractrix/alignment/horizontal_segment.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/vector.hpp"

namespace tractrix {

/// A horizontal layout: segments chained end to start, queried by distance along it.
/// Immutable after build(); copies share the data, and any number of threads read it at once.
template <class S>
class HorizontalLayout {
 public:
  /// The layout of `segments`, in order. Each segment starts where it is given to start; each
  /// must start within the tolerance of where the one before it ends, in the direction it ends.
  ///
  /// Errors (the message names the segment by index and type): empty_input for no segments;
  /// non_finite for a NaN or infinite attribute; out_of_range for a negative length, a total
  /// length of 0, a circular arc with a radius of 0 or an end radius other than its start radius
  /// (0 is read as the start radius), a line with a radius, a cubic parabola with equal radii,
  /// a segment turning through thousands of radians (more than 4096 series cells), or a tolerance
  /// that is negative or not finite; not_continuous for a segment that does not start where (or in
  /// the direction) the one before ends, naming the gap or the angle.
  static Expected<HorizontalLayout> build(const std::vector<HorizontalSegment<S>>& segments,
                                          HorizontalTolerance tolerance = {}) {
    auto data = detail::build_horizontal(segments, tolerance);
    if (!data) return data.error();
    return HorizontalLayout(std::make_shared<const detail::HorizontalData<S>>(std::move(*data)));
  }

  /// The length along the horizontal, > 0.
  S length() const noexcept { return data_->length; }
  /// How many segments (those of length 0 included).
  std::size_t segment_count() const noexcept { return data_->segments.size(); }
  /// Segment `i` as it was given.
  const HorizontalSegment<S>& segment(std::size_t i) const noexcept { return data_->segments[i]; }
  /// The distance along the layout where segment `i` starts.
  S segment_start(std::size_t i) const noexcept { return data_->starts[i]; }

  /// The point at `distance` along the layout, clamped to [0, length()]. `segment` is a cursor:
  /// the segment the last query found, tried first (any value is valid). noexcept and total:
  /// a NaN distance gives the start.
  HorizontalPoint<S> at(S distance, std::size_t& segment) const noexcept {
    return detail::horizontal_at(*data_, distance, segment);
  }
  /// at() without a cursor.
  HorizontalPoint<S> at(S distance) const noexcept {
    std::size_t segment = 0;
    return at(distance, segment);
  }

  /// The layout's point nearest `q`, its distance along the layout, and q's offset across the
  /// tangent there (> 0 left). Exact to rounding: every cell that could hold a nearer point is
  /// searched (segments, then their cells, by bounding discs), in each the squared distance's
  /// minima are found by Newton's method in brackets. Where q is nearest an end, the end, with the
  /// offset across its tangent. O(segments) for the bounds, then the cells of the few segments in
  /// reach.
  HorizontalProjection<S> closest_point(const Vector2<S>& q) const {
    const auto nearest = detail::horizontal_nearest(*data_, q);
    std::size_t cursor = 0;
    const HorizontalPoint<S> there = at(nearest.distance, cursor);
    const Vector2<S> away = q - nearest.point;
    return {nearest.distance, there.tangent.x() * away.y() - there.tangent.y() * away.x(),
            nearest.point};
  }

 private:
  explicit HorizontalLayout(std::shared_ptr<const detail::HorizontalData<S>> data)
      : data_(std::move(data)) {}
  std::shared_ptr<const detail::HorizontalData<S>> data_;
};

}  // namespace tractrix
