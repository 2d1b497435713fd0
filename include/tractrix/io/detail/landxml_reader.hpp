/// @file
/// Internal: the LandXML reader's steps — finding elements, reading numbers and points, and
/// turning CoordGeom, ProfAlign and Cant elements into IFC 4.3 layouts — each error naming the
/// source, line and element.
#pragma once

#include <pugixml.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tractrix/alignment/alignment.hpp"
#include "tractrix/io/track_file.hpp"

namespace tractrix::io::landxml::detail {

// The document's text and name, for "name:line: <Element>: " prefixes.
struct Source {
  const std::string& text;
  const std::string& name;

  std::string at(const pugi::xml_node& node) const {
    const std::ptrdiff_t offset = node.offset_debug();
    std::size_t line = 1;
    if (offset >= 0)
      line += static_cast<std::size_t>(std::count(
          text.begin(),
          text.begin() + std::min<std::ptrdiff_t>(offset, std::ptrdiff_t(text.size())), '\n'));
    return name + ":" + std::to_string(line) + ": <" + local_name(node) + ">: ";
  }
  Error error(const pugi::xml_node& node, const std::string& what) const {
    return Error{ErrorCode::out_of_range, at(node) + what};
  }
  static std::string local_name(const pugi::xml_node& node) {
    const char* name = node.name();
    const char* colon = std::strrchr(name, ':');
    return colon ? colon + 1 : name;
  }
};

// Children named `name` (any namespace prefix).
inline std::vector<pugi::xml_node> children(const pugi::xml_node& node, const char* name) {
  std::vector<pugi::xml_node> found;
  for (pugi::xml_node child : node.children())
    if (child.type() == pugi::node_element && Source::local_name(child) == name)
      found.push_back(child);
  return found;
}
inline pugi::xml_node child(const pugi::xml_node& node, const char* name) {
  const auto found = children(node, name);
  return found.empty() ? pugi::xml_node() : found.front();
}

inline std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// A number attribute: required (an error when absent) or with a fallback.
inline Expected<double> number(const Source& source, const pugi::xml_node& node,
                               const char* attribute, std::optional<double> fallback = {}) {
  const pugi::xml_attribute a = node.attribute(attribute);
  if (!a) {
    if (fallback) return *fallback;
    return source.error(node, std::string("needs the attribute ") + attribute);
  }
  const auto value = track_file::parse_number(trimmed(a.value()));
  if (!value || !std::isfinite(*value))
    return source.error(node, std::string(attribute) + " '" + a.value() + "' is not a number");
  return *value;
}

// A radius attribute as a curvature: "INF" (or absent) is 0.
inline Expected<double> curvature_of(const Source& source, const pugi::xml_node& node,
                                     const char* attribute) {
  const std::string text = trimmed(node.attribute(attribute).value());
  if (text.empty() || text == "INF" || text == "-INF" || text == "inf" || text == "Infinity")
    return 0.0;
  const auto value = track_file::parse_number(text);
  if (!value || !(*value > 0))
    return source.error(node,
                        std::string(attribute) + " '" + text + "' is not a positive number or INF");
  return 1 / *value;
}

// The numbers of an element's text: "northing easting [elevation]" for points.
inline Expected<std::vector<double>> numbers_in(const Source& source, const pugi::xml_node& node,
                                                std::size_t least) {
  std::vector<double> values;
  std::istringstream words(node.child_value());
  std::string word;
  while (words >> word) {
    const auto value = track_file::parse_number(word);
    if (!value || !std::isfinite(*value))
      return source.error(node, "'" + word + "' is not a number");
    values.push_back(*value);
  }
  if (values.size() < least)
    return source.error(
        node, "needs " + std::to_string(least) + " numbers, has " + std::to_string(values.size()));
  return values;
}

// A point child ("Start", "End", "Center", "PI") as (easting, northing).
inline Expected<Vector2d> point(const Source& source, const pugi::xml_node& element,
                                const char* name) {
  const pugi::xml_node node = child(element, name);
  if (!node) return source.error(element, std::string("needs a <") + name + "> point");
  const auto values = numbers_in(source, node, 2);
  if (!values) return values.error();
  return Vector2d((*values)[1], (*values)[0]);
}

inline double direction(const Vector2d& from, const Vector2d& to) {
  return std::atan2(to.y() - from.y(), to.x() - from.x());
}

// rot="cw" turns right (−1), "ccw" left (+1).
inline Expected<double> turning(const Source& source, const pugi::xml_node& node) {
  const std::string rot = trimmed(node.attribute("rot").value());
  if (rot == "ccw") return 1.0;
  if (rot == "cw") return -1.0;
  return source.error(node, "rot '" + rot + "' is neither cw nor ccw");
}

inline Expected<HorizontalType> spiral_type(const Source& source, const pugi::xml_node& node) {
  const std::string type = trimmed(node.attribute("spiType").value());
  const std::pair<const char*, HorizontalType> known[] = {
      {"clothoid", HorizontalType::clothoid},
      {"bloss", HorizontalType::bloss_curve},
      {"cosine", HorizontalType::cosine_curve},
      {"sinusoid", HorizontalType::sine_curve},
      {"biquadratic", HorizontalType::helmert_curve},
      {"weinerBogen", HorizontalType::viennese_bend},
      {"cubicParabola", HorizontalType::cubic}};
  for (const auto& [name, value] : known)
    if (type == name) return value;
  return source.error(node, "spiType '" + type +
                                "' is not supported (clothoid, bloss, cosine, sinusoid, "
                                "biquadratic, weinerBogen, cubicParabola are)");
}

// One CoordGeom element as an IFC horizontal segment.
inline Expected<HorizontalSegment<double>> plan_segment(const Source& source,
                                                        const pugi::xml_node& node,
                                                        double direction_before,
                                                        double gravity_center_height) {
  const std::string kind = Source::local_name(node);
  HorizontalSegment<double> g;
  const auto start = point(source, node, "Start");
  if (!start) return start.error();
  g.start_point = *start;
  if (kind == "Line") {
    const auto end = point(source, node, "End");
    if (!end) return end.error();
    g.type = HorizontalType::line;
    // A line of no length has no direction of its own: it keeps the one it continues.
    g.start_direction = (*end - *start).norm() > 0 ? direction(*start, *end) : direction_before;
    const auto length = number(source, node, "length", (*end - *start).norm());
    if (!length) return length.error();
    g.length = *length;
  } else if (kind == "Curve") {
    const auto centre = point(source, node, "Center");
    const auto end = point(source, node, "End");
    const auto sense = turning(source, node);
    if (!centre) return centre.error();
    if (!end) return end.error();
    if (!sense) return sense.error();
    const auto radius = number(source, node, "radius", (*start - *centre).norm());
    if (!radius) return radius.error();
    if (!(*radius > 0)) return source.error(node, "radius must be > 0");
    // The sweep from Start to End about the centre, in the curve's sense, in (0, 2π].
    double sweep = *sense * (direction(*centre, *end) - direction(*centre, *start));
    sweep =
        std::fmod(sweep + 8 * tractrix::detail::pi<double>(), 2 * tractrix::detail::pi<double>());
    if (!(sweep > 0)) sweep = 2 * tractrix::detail::pi<double>();
    const auto length = number(source, node, "length", *radius * sweep);
    if (!length) return length.error();
    g.type = HorizontalType::circular_arc;
    g.start_direction = direction(*centre, *start) + *sense * 0.5 * tractrix::detail::pi<double>();
    g.start_radius = g.end_radius = *sense * *radius;
    g.length = *length;
  } else {  // Spiral
    const auto type = spiral_type(source, node);
    const auto pi_point = point(source, node, "PI");
    const auto sense = turning(source, node);
    const auto length = number(source, node, "length");
    const auto k0 = curvature_of(source, node, "radiusStart");
    const auto k1 = curvature_of(source, node, "radiusEnd");
    for (const Error* e : {type ? nullptr : &type.error(), pi_point ? nullptr : &pi_point.error(),
                           sense ? nullptr : &sense.error(), length ? nullptr : &length.error(),
                           k0 ? nullptr : &k0.error(), k1 ? nullptr : &k1.error()})
      if (e) return *e;
    if (!((*pi_point - *start).norm() > 0))
      return source.error(node, "its PI is its Start: no start direction");
    g.type = *type;
    g.start_direction = direction(*start, *pi_point);
    if (g.type == HorizontalType::viennese_bend) g.gravity_center_height = gravity_center_height;
    g.start_radius = *k0 > 0 ? *sense / *k0 : 0.0;
    g.end_radius = *k1 > 0 ? *sense / *k1 : 0.0;
    g.length = *length;
  }
  return g;
}

// The plan: every Line, Curve and Spiral of the CoordGeom, in order, with each one's node.
inline Expected<bool> read_plan(const Source& source, const pugi::xml_node& alignment,
                                double gravity_center_height,
                                std::vector<HorizontalSegment<double>>& plan,
                                std::vector<pugi::xml_node>& nodes) {
  const pugi::xml_node geometry = child(alignment, "CoordGeom");
  if (!geometry) return source.error(alignment, "needs a <CoordGeom>");
  for (pugi::xml_node node : geometry.children()) {
    if (node.type() != pugi::node_element) continue;
    const std::string kind = Source::local_name(node);
    if (kind != "Line" && kind != "Curve" && kind != "Spiral")
      return source.error(node, "is not a plan element this reader knows (Line, Curve, Spiral)");
    double before = 0;  // the direction the last element ends in
    if (!plan.empty()) {
      const auto last = HorizontalLayout<double>::build({plan.back()});
      before = last ? last->at(plan.back().length).direction : plan.back().start_direction;
    }
    const auto segment = plan_segment(source, node, before, gravity_center_height);
    if (!segment) return segment.error();
    plan.push_back(*segment);
    nodes.push_back(node);
  }
  if (plan.empty()) return source.error(geometry, "has no Line, Curve or Spiral");
  return true;
}

}  // namespace tractrix::io::landxml::detail

#include "tractrix/io/detail/landxml_profile.hpp"
