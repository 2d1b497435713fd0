/// @file
/// The vertical layout of an alignment, as IFC 4.3 defines it (`IfcAlignmentVertical`): height
/// and gradient as functions of the distance along the horizontal layout, from segments of
/// constant gradient, circular arcs, parabolic arcs and clothoids. The first three are evaluated
/// in closed form, a clothoid by the series the horizontal layout's curves use (and Newton from
/// distance to its own length); the length along the profile (the 3-D length of the alignment
/// over it) and its inverse are exact to rounding.
/// Segment types and conventions: alignment/vertical_segment.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tractrix/alignment/detail/vertical_profile.hpp"
#include "tractrix/alignment/vertical_segment.hpp"
#include "tractrix/core/expected.hpp"

namespace tractrix {

/// A vertical layout: segments in order of distance, each starting where the one before ends.
/// Immutable after build(); copies share the data, and any number of threads read it at once.
template <class S>
class VerticalLayout {
 public:
  /// The layout of `segments`, in order.
  ///
  /// Errors (the message names the segment by index and type): empty_input for no segments;
  /// non_finite for a NaN or infinite attribute; out_of_range for a gradient steeper than 50
  /// (88.9°), a negative horizontal length, a total length of 0, a constant gradient whose end
  /// gradient differs from its start's, a circular arc whose gradients give no finite radius
  /// (equal, or too close for its length), a parabolic arc whose change of gradient over its
  /// length is not finite, a clothoid that cannot join its gradients over its length with its end
  /// radius without passing gradient 50, or a tolerance that is negative or not finite;
  /// not_continuous for a
  /// segment that does not start where the one before ends, at its height, with its gradient,
  /// naming the gap.
  static Expected<VerticalLayout> build(const std::vector<VerticalSegment<S>>& segments,
                                        VerticalTolerance tolerance = {}) {
    auto data = detail::build_vertical(segments, tolerance);
    if (!data) return data.error();
    return VerticalLayout(std::make_shared<const detail::VerticalData<S>>(std::move(*data)));
  }

  /// Where the profile starts, along the horizontal layout.
  S start_distance() const noexcept { return data_->segments.front().start_distance; }
  /// Where it ends, along the horizontal layout.
  S end_distance() const noexcept { return data_->end; }
  /// How many segments (those of length 0 included).
  std::size_t segment_count() const noexcept { return data_->segments.size(); }
  /// Segment `i` as it was given.
  const VerticalSegment<S>& segment(std::size_t i) const noexcept { return data_->segments[i]; }

  /// The profile at `distance` along the horizontal layout. Before the first segment and after
  /// the last it continues along their end gradients. noexcept and total: NaN gives the start.
  VerticalPoint<S> at(S distance) const noexcept {
    std::size_t cursor = 0;
    return at(distance, cursor);
  }
  /// at() with a cursor: the segment the last query found, tried first (any value is valid).
  VerticalPoint<S> at(S distance, std::size_t& cursor) const noexcept {
    return detail::vertical_at(*data_, distance, cursor);
  }

  /// The length along the profile from its start to `distance` along the horizontal layout
  /// (∫ sqrt(1 + g²) dx, in closed form or Gauss–Legendre on short panels: exact to rounding);
  /// negative before the start; continued along the end gradients beyond the ends.
  S profile_length(S distance) const noexcept {
    std::size_t cursor = 0;
    return detail::profile_length(*data_, distance, cursor);
  }
  /// The distance along the horizontal layout where the length along the profile is `length`:
  /// profile_length's inverse (closed form on lines and arcs; on parabolas series cells of the
  /// distance in the length, from the ODE dx/dσ = (1 + g²)^(-1/2), to rounding).
  S distance_at_profile_length(S length) const noexcept {
    std::size_t cursor = 0;
    return distance_at_profile_length(length, cursor);
  }
  /// distance_at_profile_length() with a cursor, as at()'s.
  S distance_at_profile_length(S length, std::size_t& cursor) const noexcept {
    return detail::distance_at_profile_length(*data_, length, cursor);
  }

 private:
  explicit VerticalLayout(std::shared_ptr<const detail::VerticalData<S>> data)
      : data_(std::move(data)) {}
  std::shared_ptr<const detail::VerticalData<S>> data_;
};

}  // namespace tractrix
