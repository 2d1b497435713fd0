/// @file
/// The cant layout of an alignment, as IFC 4.3 defines it (`IfcAlignmentCant`): the elevation of
/// each rail head over the vertical layout, and the bank angle it gives, as functions of the
/// distance along the horizontal layout. Segment types and conventions:
/// alignment/cant_segment.hpp.
#pragma once

#include <memory>
#include <vector>

#include "tractrix/alignment/cant_segment.hpp"
#include "tractrix/alignment/detail/cant_profile.hpp"
#include "tractrix/core/expected.hpp"

namespace tractrix {

namespace detail {
struct LayoutAccess;
}

/// A cant layout: segments in order of distance, each starting where the one before ends, with
/// the cant it ended with. Immutable after build(); copies share the data.
template <class S>
class CantLayout {
 public:
  /// The layout of `segments`, in order, for rails `rail_head_distance` apart (IFC's
  /// RailHeadDistance: ~1.5 m for standard gauge). `relative_gap`: how far apart one segment's
  /// end and the next one's start may be, in distance and in cant, as a fraction of the layout's
  /// scale; 0: 1e-9 (double) or 64 eps (float).
  ///
  /// Errors (naming the segment by index and type): out_of_range for a rail head distance that is
  /// not > 0, a negative length, rails further apart in height than the rail head distance, a
  /// constant cant whose end differs from its start, a total length of 0, or a bad tolerance;
  /// empty_input for no segments; non_finite for a NaN or infinite value; not_continuous for a
  /// segment that does not start where, or with the cant, the one before ends.
  static Expected<CantLayout> build(S rail_head_distance,
                                    const std::vector<CantSegment<S>>& segments,
                                    double relative_gap = 0.0) {
    auto data = detail::build_cant(rail_head_distance, segments, relative_gap);
    if (!data) return data.error();
    return CantLayout(std::make_shared<const detail::CantData<S>>(std::move(*data)));
  }

  /// The distance between the rail heads.
  S rail_head_distance() const noexcept { return data_->rail_head_distance; }
  /// How many segments (those of length 0 included).
  std::size_t segment_count() const noexcept { return data_->segments.size(); }
  /// Segment `i` as it was given.
  const CantSegment<S>& segment(std::size_t i) const noexcept { return data_->segments[i]; }

  /// The cant at `distance` along the horizontal layout; before the first segment and after the
  /// last, their end values. noexcept and total: NaN gives the start.
  CantPoint<S> at(S distance) const noexcept {
    std::size_t cursor = 0;
    return at(distance, cursor);
  }
  /// at() with a cursor: the segment the last query found, tried first (any value is valid).
  CantPoint<S> at(S distance, std::size_t& cursor) const noexcept {
    return detail::cant_at(*data_, distance, cursor).point();
  }

 private:
  friend struct detail::LayoutAccess;
  explicit CantLayout(std::shared_ptr<const detail::CantData<S>> data) : data_(std::move(data)) {}
  std::shared_ptr<const detail::CantData<S>> data_;
};

}  // namespace tractrix
