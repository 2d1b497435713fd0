/// @file
/// The segments of an alignment's vertical layout, as IFC 4.3 defines them
/// (`IfcAlignmentVerticalSegment`), and what a point of a profile is.
///
/// Conventions (IFC's): distances are along the horizontal layout from its start; heights are z;
/// a gradient is dz/dx (0.02 is 2 % uphill); a vertical radius is positive for a sag (the profile
/// turning up, counterclockwise in the (distance, height) plane) and negative for a crest.
#pragma once

#include <cstdint>

namespace tractrix {

/// A vertical segment's kind, as IFC 4.3's `IfcAlignmentVerticalSegmentTypeEnum`.
enum class VerticalType : std::uint8_t {
  constant_gradient,  ///< z = z0 + g x
  circular_arc,       ///< a circle in the (distance, height) plane from gradient gs to ge
  parabolic_arc,      ///< z = z0 + gs x + (ge − gs) x² / 2X: the gradient linear in distance
  clothoid,  ///< a clothoid in the (distance, height) plane: curvature linear in its own length
};

/// IFC's name of a type: `"PARABOLICARC"`.
inline const char* to_string(VerticalType type) noexcept {
  switch (type) {
    case VerticalType::constant_gradient:
      return "CONSTANTGRADIENT";
    case VerticalType::circular_arc:
      return "CIRCULARARC";
    case VerticalType::parabolic_arc:
      return "PARABOLICARC";
    case VerticalType::clothoid:
      return "CLOTHOID";
  }
  return "unknown";
}

/// One vertical segment, with IFC's `IfcAlignmentVerticalSegment` attributes. A circular arc's
/// radius is the one its horizontal length and gradients give, R = X / (sin θe − sin θs) with
/// θ = atan(gradient) (IFC's RadiusOfCurvature repeats it and is not needed).
///
/// A clothoid turns from the start gradient's angle to the end gradient's over the horizontal
/// length X with its curvature linear in its own length Λ, from κs to κe = 1 / end_radius. IFC
/// 4.3 names the type ("linear curvature variation") but not which radius RadiusOfCurvature is;
/// tractrix reads it as the end's: a transition into a vertical arc of radius R has end_radius R
/// (its start curvature then comes out 0 where X is that transition's extent), one out of an arc
/// back to a gradient has end_radius 0 (infinite) and starts at the arc's curvature. κs and Λ
/// follow from the two conditions: the turn θe − θs = (κs + κe) Λ / 2, and the horizontal extent
/// ∫ cos θ dσ over Λ equal to X (the shortest Λ where several fit). Curvature is not checked
/// against the neighbouring segments: a file whose exit transition names the arc's radius gets a
/// clothoid that meets heights and gradients but not curvature.
template <class S>
struct VerticalSegment {
  VerticalType type = VerticalType::constant_gradient;  ///< the curve
  S start_distance = S(0);     ///< where it starts, along the horizontal layout (StartDistAlong)
  S horizontal_length = S(0);  ///< X, its length along the horizontal (not along the profile), ≥ 0
  S start_height = S(0);       ///< z at its start
  S start_gradient = S(0);     ///< dz/dx at its start
  S end_gradient = S(0);       ///< dz/dx at its end (equal to the start's for a constant gradient)
  /// A clothoid's signed radius at its end (IFC's RadiusOfCurvature): > 0 a sag, < 0 a crest,
  /// 0 infinite. The other types do not use it (it must still be finite).
  S end_radius = S(0);
};

/// The profile at a distance along the horizontal.
template <class S>
struct VerticalPoint {
  S height;     ///< z
  S gradient;   ///< dz/dx
  S curvature;  ///< of the profile in the (distance, height) plane, per unit of its own length;
                ///< > 0 in a sag
};

/// How far apart consecutive segments may be where one ends and the next starts.
struct VerticalTolerance {
  /// The largest gap in distance or height, as a fraction of the layout's scale (its length or
  /// its largest distance or height, the larger). 0: 1e-9 (double) or 64 eps (float).
  double relative_gap = 0.0;
  /// The largest jump of gradient. 0: 1e-9 (double) or 64 eps (float). A profile with gradient
  /// breaks (LandXML's PVIs without vertical curves) builds with a larger value.
  double gradient = 0.0;
};

}  // namespace tractrix
