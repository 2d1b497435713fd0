/// @file
/// Internal: the LandXML reader's profile (ProfAlign → vertical segments) and cant (CantStation
/// → cant segments), and the whole document's alignments.
#pragma once

#include <pugixml.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "tractrix/io/detail/landxml_reader.hpp"

namespace tractrix::io::landxml::detail {

// A ProfAlign element: a PVI, or a vertical curve about one.
struct ProfileNode {
  double station, height, length, radius;
  bool parabola, circle;
  pugi::xml_node node;
};

inline Expected<std::vector<ProfileNode>> profile_nodes(const Source& source,
                                                        const pugi::xml_node& prof_align) {
  std::vector<ProfileNode> nodes;
  for (pugi::xml_node node : prof_align.children()) {
    if (node.type() != pugi::node_element) continue;
    const std::string kind = Source::local_name(node);
    if (kind != "PVI" && kind != "ParaCurve" && kind != "CircCurve")
      return source.error(node,
                          "is not a profile element this reader knows (PVI, ParaCurve, "
                          "CircCurve)");
    const auto values = numbers_in(source, node, 2);
    if (!values) return values.error();
    ProfileNode p{(*values)[0], (*values)[1], 0, 0, kind == "ParaCurve", kind == "CircCurve", node};
    if (p.parabola) {
      const auto length = number(source, node, "length");
      if (!length) return length.error();
      if (!(*length > 0)) return source.error(node, "length must be > 0");
      p.length = *length;
    }
    if (p.circle) {
      const auto radius = number(source, node, "radius");
      if (!radius) return radius.error();
      if (!(*radius > 0)) return source.error(node, "radius must be > 0");
      p.radius = *radius;
    }
    if (!nodes.empty() && !(p.station > nodes.back().station))
      return source.error(node, "its station does not follow the one before");
    nodes.push_back(p);
  }
  if (nodes.size() < 2) return source.error(prof_align, "needs at least two PVIs");
  if (nodes.front().parabola || nodes.front().circle || nodes.back().parabola ||
      nodes.back().circle)
    return source.error(
        nodes.front().parabola || nodes.front().circle ? nodes.front().node : nodes.back().node,
        "a profile must start and end at a PVI, not on a vertical curve");
  return nodes;
}

// The vertical segments of a ProfAlign: constant gradients between the vertical curves, each
// curve tangent to the gradients on either side of its PVI; `origin` is the plan's staStart.
inline Expected<bool> read_profile(const Source& source, const pugi::xml_node& prof_align,
                                   double origin, double relative_gap,
                                   std::vector<VerticalSegment<double>>& profile,
                                   std::vector<pugi::xml_node>& nodes) {
  const auto points = profile_nodes(source, prof_align);
  if (!points) return points.error();
  const std::vector<ProfileNode>& p = *points;
  std::vector<double> gradient;
  for (std::size_t i = 0; i + 1 < p.size(); ++i)
    gradient.push_back((p[i + 1].height - p[i].height) / (p[i + 1].station - p[i].station));
  double x = p.front().station, z = p.front().height;  // where the profile has reached
  const auto add = [&](VerticalType type, double to, double start_height, double gs, double ge,
                       const pugi::xml_node& node) {
    profile.push_back({type, x - origin, to - x, start_height, gs, ge});
    nodes.push_back(node);
  };
  for (std::size_t i = 1; i + 1 < p.size(); ++i) {
    const double g_in = gradient[i - 1], g_out = gradient[i];
    double a = p[i].station, b = a, za = p[i].height;
    VerticalType type = VerticalType::constant_gradient;
    if (p[i].parabola && !tractrix::detail::exactly_equal(g_in, g_out)) {
      a = p[i].station - p[i].length / 2;
      b = p[i].station + p[i].length / 2;
      za = p[i].height - g_in * p[i].length / 2;
      type = VerticalType::parabolic_arc;
    } else if (p[i].circle && !tractrix::detail::exactly_equal(g_in, g_out)) {
      const double t1 = std::atan(g_in), t2 = std::atan(g_out);
      const double tangent = p[i].radius * std::tan(std::abs(t2 - t1) / 2);
      a = p[i].station - tangent * std::cos(t1);
      b = p[i].station + tangent * std::cos(t2);
      za = p[i].height - tangent * std::sin(t1);
      type = VerticalType::circular_arc;
    }
    // Curves that meet in the file's decimals may overlap by rounding: within the gap allowed
    // they are made to meet.
    const double slack =
        relative_gap * std::max({std::abs(x), std::abs(p[i + 1].station), std::abs(p[i].height)});
    if (a < x && a >= x - slack) a = x;
    if (b > p[i + 1].station && b <= p[i + 1].station + slack) b = p[i + 1].station;
    if (a < x || b > p[i + 1].station)
      return source.error(p[i].node, "its vertical curve reaches past the PVI before or after");
    if (a > x) add(VerticalType::constant_gradient, a, z, g_in, g_in, p[i - 1].node);
    if (b > a) {
      x = a;
      add(type, b, za, g_in, g_out, p[i].node);
    }
    // Where the curve (or the PVI) hands over to the next gradient.
    x = b;
    z = p[i].height + g_out * (b - p[i].station);
  }
  if (p.back().station > x)
    add(VerticalType::constant_gradient, p.back().station, z, gradient.back(), gradient.back(),
        p[p.size() - 2].node);
  return true;
}

// The cant of a Cant element: its stations joined by linear transitions.
inline Expected<bool> read_cant(const Source& source, const pugi::xml_node& cant, double origin,
                                double cant_unit, std::vector<CantSegment<double>>& segments,
                                std::vector<pugi::xml_node>& nodes) {
  const std::string pivot = trimmed(cant.attribute("rotationPoint").value());
  if (!pivot.empty() && pivot != "insideRail" && pivot != "outsideRail" && pivot != "center" &&
      pivot != "leftRail" && pivot != "rightRail")
    return source.error(cant,
                        "rotationPoint '" + pivot +
                            "' is not insideRail, outsideRail, center, leftRail or rightRail");
  struct Station {
    double at, left, right;
  };
  std::vector<Station> stations;
  std::vector<pugi::xml_node> station_nodes;
  for (const pugi::xml_node& node : children(cant, "CantStation")) {
    const auto at = number(source, node, "station");
    const auto given = number(source, node, "appliedCant", 0.0);
    if (!at) return at.error();
    if (!given) return given.error();
    const double applied = *given * cant_unit;
    const std::string side = trimmed(node.attribute("curvature").value());
    if (!tractrix::detail::exactly_equal(applied, 0.0) && side != "cw" && side != "ccw")
      return source.error(node, "a cant needs curvature=\"cw\" or \"ccw\" (which rail is high)");
    // ccw: the right rail is high. The pivot stays at 0.
    const bool right_high = side != "cw";
    const bool high_pivot = pivot == "outsideRail" || (pivot == "leftRail" && !right_high) ||
                            (pivot == "rightRail" && right_high);
    const double high = high_pivot ? 0 : pivot == "center" ? applied / 2 : applied;
    const double low = high - applied;
    if (!stations.empty() && !(*at - origin > stations.back().at))
      return source.error(node, "its station does not follow the one before");
    stations.push_back({*at - origin, right_high ? low : high, right_high ? high : low});
    station_nodes.push_back(node);
  }
  if (stations.size() < 2) return source.error(cant, "needs at least two CantStations");
  for (std::size_t i = 0; i + 1 < stations.size(); ++i) {
    const Station &a = stations[i], &b = stations[i + 1];
    const bool constant = tractrix::detail::exactly_equal(a.left, b.left) &&
                          tractrix::detail::exactly_equal(a.right, b.right);
    segments.push_back({constant ? CantType::constant_cant : CantType::linear_transition, a.at,
                        b.at - a.at, a.left, b.left, a.right, b.right});
    nodes.push_back(station_nodes[i]);
  }
  return true;
}

// "horizontal segment 3 (…": 3, when message starts with `prefix`.
inline std::optional<std::size_t> segment_index(const std::string& message,
                                                const std::string& prefix) {
  if (message.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  return static_cast<std::size_t>(std::strtoull(message.c_str() + prefix.size(), nullptr, 10));
}

// The error of building an alignment, prefixed with where its segment came from.
inline Error located(const Source& source, const Error& error, const pugi::xml_node& alignment,
                     const std::vector<pugi::xml_node>& plan,
                     const std::vector<pugi::xml_node>& profile,
                     const std::vector<pugi::xml_node>& cant) {
  for (const auto& [prefix, nodes] :
       {std::pair<const char*, const std::vector<pugi::xml_node>*>{"horizontal segment ", &plan},
        {"vertical segment ", &profile},
        {"cant segment ", &cant}})
    if (const auto i = segment_index(error.message, prefix); i && *i < nodes->size())
      return Error{error.code, source.at((*nodes)[*i]) + error.message};
  return Error{error.code, source.at(alignment) + error.message};
}

template <class Settings, class Result>
Expected<Result> read_alignment(const Source& source, const pugi::xml_node& node,
                                const Settings& settings, double cant_unit) {
  AlignmentLayouts<double> layouts;
  const auto start = number(source, node, "staStart", 0.0);
  if (!start) return start.error();
  layouts.start_station = *start;
  layouts.rail_head_distance = settings.rail_head_distance;
  layouts.horizontal_tolerance = {settings.relative_gap, settings.angle};
  // Gradient breaks at bare PVIs are the file's design; everything else must meet.
  layouts.vertical_tolerance = {settings.relative_gap, 10.0};
  layouts.cant_relative_gap = settings.relative_gap;
  std::vector<pugi::xml_node> plan, profile, cant;
  const auto plan_read =
      read_plan(source, node, settings.gravity_center_height, layouts.horizontal, plan);
  if (!plan_read) return plan_read.error();
  if (const pugi::xml_node prof_align = child(child(node, "Profile"), "ProfAlign")) {
    const auto read =
        read_profile(source, prof_align, *start, settings.relative_gap, layouts.vertical, profile);
    if (!read) return read.error();
  }
  if (const pugi::xml_node cant_node = child(node, "Cant")) {
    const auto read = read_cant(source, cant_node, *start, cant_unit, layouts.cant, cant);
    if (!read) return read.error();
  }
  auto built = tractrix::Alignment<double>::build(layouts);
  if (!built) return located(source, built.error(), node, plan, profile, cant);
  return Result{node.attribute("name").value(), std::move(layouts), std::move(*built)};
}

// What one unit of appliedCant is in the file's linear unit: LandXML's schema gives cant in
// millimetres (Metric) or inches (Imperial). Without <Units>, metres and millimetres.
inline Expected<double> cant_unit_of(const Source& source, const pugi::xml_node& root) {
  const pugi::xml_node units = child(root, "Units");
  const pugi::xml_node metric = child(units, "Metric"), imperial = child(units, "Imperial");
  if (imperial) {
    const std::string linear = trimmed(imperial.attribute("linearUnit").value());
    if (linear.empty() || linear == "foot" || linear == "USSurveyFoot") return 1.0 / 12;
    if (linear == "inch") return 1.0;
    return source.error(imperial, "linearUnit '" + linear + "' is not one this reader knows");
  }
  const std::string linear = metric ? trimmed(metric.attribute("linearUnit").value()) : "";
  if (linear.empty() || linear == "meter") return 1e-3;
  if (linear == "millimeter") return 1.0;
  if (linear == "centimeter") return 0.1;
  if (linear == "kilometer") return 1e-6;
  return source.error(metric, "linearUnit '" + linear + "' is not one this reader knows");
}

template <class Settings, class Result = landxml::Alignment>
Expected<std::vector<Result>> read_document(const std::string& text, const std::string& name,
                                            const Settings& settings) {
  pugi::xml_document document;
  const pugi::xml_parse_result parsed = document.load_buffer(text.data(), text.size());
  const Source source{text, name};
  if (!parsed) {
    const std::ptrdiff_t offset = parsed.offset;
    const auto line =
        1 + std::count(text.begin(),
                       text.begin() + std::min<std::ptrdiff_t>(offset, std::ptrdiff_t(text.size())),
                       '\n');
    return make_error(ErrorCode::out_of_range,
                      name + ":" + std::to_string(line) + ": not XML: " + parsed.description());
  }
  const pugi::xml_node root = document.document_element();
  if (Source::local_name(root) != "LandXML")
    return source.error(root, "the document is not LandXML (its root is not <LandXML>)");
  const auto cant_unit = cant_unit_of(source, root);
  if (!cant_unit) return cant_unit.error();
  std::vector<Result> alignments;
  for (const pugi::xml_node& group : children(root, "Alignments"))
    for (const pugi::xml_node& node : children(group, "Alignment")) {
      auto one = read_alignment<Settings, Result>(source, node, settings, *cant_unit);
      if (!one) return one.error();
      alignments.push_back(std::move(*one));
    }
  if (alignments.empty())
    return make_error(ErrorCode::empty_input, name + ": no <Alignment> in <Alignments>");
  return alignments;
}

}  // namespace tractrix::io::landxml::detail
