// The frame benchmarks' track: a 256-key closed Catmull–Rom loop of radius ~500 that wobbles in
// and out and up and down, with a rail 1 out and 1.5 up from it (frame_benchmark and the
// callgrind driver callgrind/frame_queries.cpp measure on the same one).
#pragma once

#include <cmath>
#include <utility>
#include <vector>

#include "tractrix/tractrix.hpp"

namespace tractrix::bench {

// The loop and its rail, measured.
inline std::pair<MeasuredPath<double>, MeasuredPath<double>> frame_loop_and_rail() {
  std::vector<Vector3d> points, rail_points;
  for (int k = 0; k < 256; ++k) {
    const double angle = 2 * 3.141592653589793 * k / 256;
    const double r = 500 * (1 + 0.1 * std::sin(5 * angle));
    points.emplace_back(r * std::cos(angle), 20 * std::sin(3 * angle), r * std::sin(angle));
    rail_points.emplace_back((r + 1) * std::cos(angle), 20 * std::sin(3 * angle) + 1.5,
                             (r + 1) * std::sin(angle));
  }
  return {*MeasuredPath<double>::build(Path<double>::catmull_rom(points, Closure::closed)),
          *MeasuredPath<double>::build(Path<double>::catmull_rom(rail_points, Closure::closed))};
}

}  // namespace tractrix::bench
