/// @file
/// The segments of an alignment's cant layout, as IFC 4.3 defines them
/// (`IfcAlignmentCantSegment`), and what a point of a cant layout is.
///
/// Conventions (IFC's): distances are along the horizontal layout from its start; a cant value is
/// a rail head's height above the vertical layout (the outer rail raised: the right rail in a
/// curve to the left); the bank angle ψ = asin((right − left) / rail head distance) is > 0 when
/// the right rail is higher (the track leans to the left). A value of 0 for one rail makes it the
/// pivot; left = −right turns the track about its centre line.
#pragma once

#include <cstdint>

namespace tractrix {

/// A cant segment's kind, as IFC 4.3's `IfcAlignmentCantSegmentTypeEnum`. Each rail's elevation
/// goes from its start to its end value as v0 + F(ξ)(v1 − v0), ξ = distance / horizontal length:
// clang-format off
/// | type | F(ξ) |
/// |---|---|
/// | constant_cant | 0 (the start values throughout) |
/// | linear_transition | ξ |
/// | helmert_curve | 2ξ² for ξ ≤ ½, 1 − 2(1 − ξ)² after |
/// | bloss_curve | ξ²(3 − 2ξ) |
/// | cosine_curve | (1 − cos πξ) / 2 |
/// | sine_curve | ξ − sin(2πξ) / 2π |
/// | viennese_bend | ξ⁴(35 − 84ξ + 70ξ² − 20ξ³), applied to the bank angle ψ and the centre's elevation |
// clang-format on
enum class CantType : std::uint8_t {
  constant_cant,
  linear_transition,
  helmert_curve,
  bloss_curve,
  cosine_curve,
  sine_curve,
  viennese_bend,
};

/// IFC's name of a type: `"LINEARTRANSITION"`.
inline const char* to_string(CantType type) noexcept {
  switch (type) {
    case CantType::constant_cant:
      return "CONSTANTCANT";
    case CantType::linear_transition:
      return "LINEARTRANSITION";
    case CantType::helmert_curve:
      return "HELMERTCURVE";
    case CantType::bloss_curve:
      return "BLOSSCURVE";
    case CantType::cosine_curve:
      return "COSINECURVE";
    case CantType::sine_curve:
      return "SINECURVE";
    case CantType::viennese_bend:
      return "VIENNESEBEND";
  }
  return "unknown";
}

/// One cant segment, with IFC's `IfcAlignmentCantSegment` attributes (IFC's optional end values
/// are the start values when absent: pass them so).
template <class S>
struct CantSegment {
  CantType type = CantType::constant_cant;  ///< the transition
  S start_distance = S(0);     ///< where it starts, along the horizontal layout (StartDistAlong)
  S horizontal_length = S(0);  ///< its length along the horizontal, ≥ 0
  S start_cant_left = S(0);    ///< the left rail head's elevation at the start
  S end_cant_left = S(0);      ///< … at the end
  S start_cant_right = S(0);   ///< the right rail head's elevation at the start
  S end_cant_right = S(0);     ///< … at the end
};

/// The cant at a distance along the horizontal.
template <class S>
struct CantPoint {
  S left;   ///< the left rail head's elevation above the vertical layout
  S right;  ///< the right rail head's
  S bank;   ///< ψ = asin((right − left) / rail head distance), radians; > 0 leaning left
};

}  // namespace tractrix
