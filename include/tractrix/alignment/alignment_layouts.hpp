/// @file
/// What an alignment is built from (its three layouts, as a reader produces them), and the rail
/// heads' positions an alignment reports.
#pragma once

#include <vector>

#include "tractrix/alignment/cant_segment.hpp"
#include "tractrix/alignment/horizontal_segment.hpp"
#include "tractrix/alignment/vertical_segment.hpp"
#include "tractrix/core/vector.hpp"

namespace tractrix {

/// An alignment's three layouts as a reader produces them (IFC's `IfcAlignment`, LandXML's
/// `Alignment`): only the horizontal one is required.
template <class S>
struct AlignmentLayouts {
  std::vector<HorizontalSegment<S>>
      horizontal;  ///< the plan, ending with IFC's 0-length segment or not
  std::vector<VerticalSegment<S>> vertical;  ///< the profile; empty: flat at height 0
  std::vector<CantSegment<S>> cant;          ///< empty: no cant
  S rail_head_distance = S(1.5);  ///< between the rail heads, for the cant (IFC's RailHeadDistance)
  S start_station = S(0);         ///< the chainage of the horizontal start (LandXML's staStart)
  HorizontalTolerance horizontal_tolerance{};  ///< continuity of the plan
  VerticalTolerance vertical_tolerance{};      ///< continuity of the profile
  double cant_relative_gap = 0.0;              ///< continuity of the cant (CantLayout::build)
};

/// An alignment's search state for a caller that queries nearby distances in turn (a train, a
/// sweep): the segments its last query found in each layout. Value-initialized is valid, and so
/// is any value.
struct AlignmentCursor {
  std::size_t horizontal = 0;  ///< a horizontal segment's index
  std::size_t vertical = 0;    ///< a vertical segment's
  std::size_t cant = 0;        ///< a cant segment's
};

/// The positions of the two rail heads at a point of an alignment.
template <class S>
struct RailHeads {
  Vector3<S> left;   ///< the left rail head, looking along the alignment
  Vector3<S> right;  ///< the right one
};

/// Where a point lies against an alignment, as railways state it: the chainage and the lateral
/// offset in plan, the elevation above the alignment there.
template <class S>
struct AlignmentProjection {
  S horizontal_distance;  ///< along the horizontal layout, of the plan's point nearest the query
  S station;              ///< the chainage there: start_station + horizontal_distance
  S offset;               ///< across the plan's tangent there, in plan: > 0 to the left
  S elevation;            ///< the query's height above the alignment's point there
  S length;               ///< the length along the 3-D curve there (what sample() takes)
  Vector3<S> point;       ///< the alignment's point there
};

}  // namespace tractrix
