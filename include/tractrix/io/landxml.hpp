/// @file
/// Reads the alignments of a LandXML 1.2 file: the plan (`CoordGeom`: `Line`, `Curve`, `Spiral`),
/// the profile (`Profile`/`ProfAlign`: `PVI`, `ParaCurve`, `CircCurve`) and the cant
/// (`Cant`/`CantStation`), as AlignmentLayouts and built Alignments. Opt-in: part of the
/// tractrix::landxml target (which needs pugixml), not of tractrix.hpp.
///
/// How LandXML maps to IFC 4.3's layouts:
/// - Points are "northing easting": x is the second number, y the first. Lengths are in the
///   file's linear unit, unchanged. Directions come from the geometry (Start to End, Start to
///   Center, Start to PI), not from the files' direction attributes.
/// - A `Spiral`'s spiType: clothoid → CLOTHOID, bloss → BLOSSCURVE, cosine → COSINECURVE,
///   sinusoid → SINECURVE, biquadratic → HELMERTCURVE, weinerBogen → VIENNESEBEND,
///   cubicParabola → CUBIC; the others are refused. radiusStart/radiusEnd "INF" is straight;
///   rot="cw" makes the radii negative (IFC's sign: > 0 turning left).
/// - The profile's stations are chainages (staStart is the plan's first); a `ParaCurve` of
///   length L at a PVI runs from L/2 before it to L/2 after, horizontally; a `CircCurve` is the
///   vertical circle of its radius tangent to both gradients.
/// - A `CantStation`'s appliedCant (millimetres in a Metric file, inches in an Imperial one, as
///   LandXML's schema has it; converted to the file's linear unit) goes to the rail its curvature
///   ("ccw": the right rail, "cw": the left) makes the high one, turning about the Cant's
///   rotationPoint (insideRail: the low rail stays, outsideRail: the high one, center: the centre
///   line, leftRail / rightRail: that rail); stations are joined by linear transitions. LandXML
///   gives the gauge, not IFC's rail head distance, nor a Viennese bend's centre-of-gravity
///   height: those come from ReadSettings.
/// - A zero-length Line (Start = End) keeps the direction of the element before it.
///
/// Every error names the file (or the source name given), the line and the element:
/// "valley.xml:12: <Spiral>: spiType 'radioid' is not supported (...)".
#pragma once

#include <pugixml.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tractrix/alignment/alignment.hpp"

namespace tractrix::io::landxml {

/// What a LandXML file does not say, and how exact its rounded numbers must meet.
struct ReadSettings {
  /// IFC's RailHeadDistance for the cant (LandXML's gauge is the distance between the rails'
  /// inner edges; the heads' centres are ~65 mm further apart on standard gauge).
  double rail_head_distance = 1.5;
  /// How far one plan element may start from where the one before ends, and profile elements
  /// likewise, as a fraction of the alignment's scale (its length or largest coordinate).
  /// Files print rounded numbers: 1e-9 of a 2.6e6 m coordinate is 2.6 mm.
  double relative_gap = 1e-9;
  /// How far one plan element's start direction may differ from the end direction of the one
  /// before, radians. Directions from rounded points are good to ~1e-8.
  double angle = 1e-6;
  /// The Viennese bends' (weinerBogen) height of the centre of gravity, which LandXML does not
  /// carry (IFC's GravityCenterLineHeight; the BIM Fit Check test set uses 1.8 m).
  double gravity_center_height = 0.0;
};

/// One alignment of the file.
struct Alignment {
  std::string name;                            ///< its name attribute
  tractrix::AlignmentLayouts<double> layouts;  ///< as read
  tractrix::Alignment<double> alignment;       ///< built from them
};

}  // namespace tractrix::io::landxml

#include "tractrix/io/detail/landxml_reader.hpp"

namespace tractrix::io::landxml {

/// The alignments of a LandXML document held in `text`; `source` names it in errors.
/// Errors: empty_input for a document without alignments; out_of_range for XML that does not
/// parse, a missing or bad element or attribute, or an unsupported element; and the errors of
/// Alignment::build (non_finite, out_of_range, not_continuous), each naming the element it came
/// from.
inline Expected<std::vector<Alignment>> parse(const std::string& text,
                                              const std::string& source = "LandXML",
                                              const ReadSettings& settings = {}) {
  return detail::read_document(text, source, settings);
}

/// The alignments of the LandXML file at `path`, as parse(); out_of_range when it cannot be read.
inline Expected<std::vector<Alignment>> read(const std::string& path,
                                             const ReadSettings& settings = {}) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return make_error(ErrorCode::out_of_range, path + ": cannot be opened for reading");
  std::ostringstream text;
  text << file.rdbuf();
  return parse(text.str(), path, settings);
}

}  // namespace tractrix::io::landxml
