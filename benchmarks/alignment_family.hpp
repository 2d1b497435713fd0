// A family of alignments for benchmarks: mainline (20 km of straights, clothoids and arcs of
// 1200–2000 m radius), tram (14 km of 25–60 m radius curves on 20 m clothoids), transitions (every
// transition type in turn into 600 m arcs) and mainline_3d (the mainline with a rolling profile of
// parabolic vertical curves and cant ramped along its clothoids). Built by chaining segments,
// each starting where the library says the one before ends.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "tractrix/tractrix.hpp"

namespace tractrix::bench {

enum class AlignmentShape { mainline, tram, transitions, mainline_3d };
inline constexpr AlignmentShape alignment_shapes[] = {
    AlignmentShape::mainline, AlignmentShape::tram, AlignmentShape::transitions,
    AlignmentShape::mainline_3d};

inline const char* name_of(AlignmentShape shape) {
  switch (shape) {
    case AlignmentShape::mainline:
      return "mainline";
    case AlignmentShape::tram:
      return "tram";
    case AlignmentShape::transitions:
      return "transitions";
    case AlignmentShape::mainline_3d:
      return "mainline_3d";
  }
  return "?";
}

struct PlanPiece {
  HorizontalType type;
  double start_radius, end_radius, length;
};

// The pieces chained from a projected-grid origin: each segment starts at the previous one's end
// point and direction.
inline std::vector<HorizontalSegment<double>> chained(const std::vector<PlanPiece>& pieces) {
  std::vector<HorizontalSegment<double>> plan;
  Vector2d at(2600000, 1200000);
  double direction = 0.3;
  for (const PlanPiece& p : pieces) {
    HorizontalSegment<double> g;
    g.type = p.type, g.start_point = at, g.start_direction = direction;
    g.start_radius = p.start_radius, g.end_radius = p.end_radius, g.length = p.length;
    if (g.type == HorizontalType::viennese_bend) g.gravity_center_height = 1.8;
    plan.push_back(g);
    const auto one = *HorizontalLayout<double>::build({g});
    const auto end = one.at(g.length);
    at = end.position;
    direction = end.direction;
  }
  return plan;
}

// A curve of radius `radius` (signed) entered and left by `transition`s of `type`.
inline void add_curve(std::vector<PlanPiece>& pieces, HorizontalType type, double radius,
                      double transition, double arc, double straight) {
  pieces.push_back({HorizontalType::line, 0, 0, straight});
  pieces.push_back({type, 0, radius, transition});
  pieces.push_back({HorizontalType::circular_arc, radius, radius, arc});
  pieces.push_back({type, radius, 0, transition});
}

inline AlignmentLayouts<double> alignment_layouts(AlignmentShape shape) {
  std::vector<PlanPiece> pieces;
  switch (shape) {
    case AlignmentShape::mainline:
    case AlignmentShape::mainline_3d:
      for (int i = 0; i < 17; ++i)
        add_curve(pieces, HorizontalType::clothoid, (i % 2 ? -1 : 1) * (i % 3 ? 1200.0 : 2000.0),
                  150, 500, 380);
      break;
    case AlignmentShape::tram:
      for (int i = 0; i < 100; ++i)
        add_curve(pieces, HorizontalType::clothoid, (i % 2 ? -1 : 1) * (25.0 + 5 * (i % 8)), 20, 40,
                  60);
      break;
    case AlignmentShape::transitions: {
      const HorizontalType types[] = {HorizontalType::clothoid,    HorizontalType::helmert_curve,
                                      HorizontalType::bloss_curve, HorizontalType::cosine_curve,
                                      HorizontalType::sine_curve,  HorizontalType::viennese_bend,
                                      HorizontalType::cubic};
      for (int i = 0; i < 42; ++i)
        add_curve(pieces, types[i % 7], (i % 2 ? -1 : 1) * 600.0, 100, 200, 80);
      break;
    }
  }
  AlignmentLayouts<double> layouts;
  layouts.horizontal = chained(pieces);
  if (shape == AlignmentShape::mainline_3d) {
    // ±1.2 % gradients joined by 600 m parabolas every 2.5 km.
    double x = 0, z = 400, g = 0.012;
    double length = 0;
    for (const auto& p : pieces)
      length += p.length;
    while (x + 2500 < length) {
      layouts.vertical.push_back({VerticalType::constant_gradient, x, 1900, z, g, g});
      z += 1900 * g, x += 1900;
      layouts.vertical.push_back({VerticalType::parabolic_arc, x, 600, z, g, -g});
      z += 600 * g + (-2 * g) * 600 / 2, x += 600;
      g = -g;
    }
    layouts.vertical.push_back({VerticalType::constant_gradient, x, length - x, z, g, g});
    // Cant of 100 mm ramped along each curve's transitions, the outer rail raised.
    double s = 0;
    for (std::size_t i = 0; i < pieces.size(); i += 4) {
      const double straight = pieces[i].length, transition = pieces[i + 1].length,
                   arc = pieces[i + 2].length;
      const bool left = pieces[i + 1].end_radius > 0;
      const double l = left ? 0 : 0.1, r = left ? 0.1 : 0;
      layouts.cant.push_back({CantType::constant_cant, s, straight, 0, 0, 0, 0});
      s += straight;
      layouts.cant.push_back({CantType::linear_transition, s, transition, 0, l, 0, r});
      s += transition;
      layouts.cant.push_back({CantType::constant_cant, s, arc, l, l, r, r});
      s += arc;
      layouts.cant.push_back({CantType::linear_transition, s, transition, l, 0, r, 0});
      s += transition;
    }
  }
  return layouts;
}

}  // namespace tractrix::bench
