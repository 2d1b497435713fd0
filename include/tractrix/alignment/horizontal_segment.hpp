/// @file
/// The segments of an alignment's horizontal layout, as IFC 4.3 defines them
/// (`IfcAlignmentHorizontalSegment`), and what a point of a layout is.
///
/// Conventions (IFC's): x east, y north; a direction is in radians counterclockwise from +x; a
/// radius is positive for a curve turning left (counterclockwise), negative turning right, and 0
/// means infinite (straight).
#pragma once

#include <cstdint>

#include "tractrix/core/vector.hpp"

namespace tractrix {

/// The kinds of horizontal segment, as IFC 4.3's `IfcAlignmentHorizontalSegmentTypeEnum`. The
/// curvature κ along a segment of length L, at u = s / L, from κ0 = 1/start_radius to
/// κ1 = 1/end_radius (Δ = κ1 − κ0):
// clang-format off
/// | type | curvature |
/// |---|---|
/// | line | 0 |
/// | circular_arc | κ0 (start_radius = end_radius) |
/// | clothoid | κ0 + Δ u |
/// | cubic | the cubic parabola y = x³ / (6 R L) — see HorizontalSegment |
/// | helmert_curve | κ0 + 2Δu² for u ≤ ½, κ0 + Δ(1 − 2(1 − u)²) after |
/// | bloss_curve | κ0 + Δ(3u² − 2u³) |
/// | cosine_curve | κ0 + Δ(1 − cos πu) / 2 |
/// | sine_curve | κ0 + Δ(u − sin(2πu) / 2π) |
/// | viennese_bend | κ0 + Δ(35u⁴ − 84u⁵ + 70u⁶ − 20u⁷) − (420 h Δψ / L²) u²(1 − 4u + 5u² − 2u³) |
// clang-format on
enum class HorizontalType : std::uint8_t {
  line,
  circular_arc,
  clothoid,
  cubic,
  helmert_curve,
  bloss_curve,
  cosine_curve,
  sine_curve,
  viennese_bend,
};

/// IFC's name of a type: `"CLOTHOID"`.
inline const char* to_string(HorizontalType type) noexcept {
  switch (type) {
    case HorizontalType::line:
      return "LINE";
    case HorizontalType::circular_arc:
      return "CIRCULARARC";
    case HorizontalType::clothoid:
      return "CLOTHOID";
    case HorizontalType::cubic:
      return "CUBIC";
    case HorizontalType::helmert_curve:
      return "HELMERTCURVE";
    case HorizontalType::bloss_curve:
      return "BLOSSCURVE";
    case HorizontalType::cosine_curve:
      return "COSINECURVE";
    case HorizontalType::sine_curve:
      return "SINECURVE";
    case HorizontalType::viennese_bend:
      return "VIENNESEBEND";
  }
  return "unknown";
}

/// One horizontal segment, with IFC's `IfcAlignmentHorizontalSegment` attributes.
template <class S>
struct HorizontalSegment {
  HorizontalType type = HorizontalType::line;   ///< the curve
  Vector2<S> start_point = Vector2<S>::Zero();  ///< where it starts (x east, y north)
  S start_direction = S(0);  ///< its direction there, radians counterclockwise from +x
  S start_radius = S(0);     ///< signed radius at the start: > 0 turning left, 0 straight
  S end_radius = S(0);       ///< signed radius at the end, as start_radius
  S length = S(0);           ///< along the curve, ≥ 0 (0: IFC's closing segment)
  /// The Viennese bend's height h of the vehicles' centre of gravity above the track (IFC's
  /// GravityCenterLineHeight); 0 for the other types.
  S gravity_center_height = S(0);
  /// The Viennese bend's change of bank angle ψ from its start to its end, radians, taken from
  /// the cant layout over the same stretch: ψ = (cant right − cant left) / rail head distance
  /// (> 0 banked to the left). The bend's curvature has the term −h·ψ''(s); 0 for other types.
  S bank_angle_change = S(0);
};

/// A point of a horizontal layout.
template <class S>
struct HorizontalPoint {
  Vector2<S> position;  ///< x east, y north
  Vector2<S> tangent;   ///< unit, along increasing distance
  S direction;          ///< the tangent's angle, radians counterclockwise from +x (not wrapped)
  S curvature;          ///< signed: > 0 turning left
};

/// Where a point lies against a horizontal layout: the railway's chainage (as a distance along
/// the layout) and lateral offset.
template <class S>
struct HorizontalProjection {
  S distance;        ///< along the layout, of its point nearest the query
  S offset;          ///< across the layout's tangent there: > 0 to the left
  Vector2<S> point;  ///< the layout's point nearest the query
};

/// How far apart consecutive segments may be where one ends and the next starts.
struct HorizontalTolerance {
  /// The largest gap, as a fraction of the layout's scale (its length or its largest
  /// coordinate, the larger). 0: 1e-9 (double) or 64 eps (float).
  double relative_gap = 0.0;
  /// The largest difference of direction, in radians. 0: 1e-9 (double) or 64 eps (float).
  double angle = 0.0;
};

}  // namespace tractrix
