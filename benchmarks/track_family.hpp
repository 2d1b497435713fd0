// A family of track shapes for benchmarks, so no speed claim rests on one friendly curve:
// gentle (a wobbly loop), tight (hairpin zigzags: slow, sharply turning segments),
// noisy (hand-placed keys: jitter of ±40 % of the key spacing and some nearly repeated keys) and
// tiny (100 000 short segments). Closed Catmull–Rom loops, seeded, in double.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tractrix/tractrix.hpp"

namespace tractrix::bench {

enum class TrackShape { gentle, tight, noisy, tiny };
inline constexpr TrackShape track_shapes[] = {TrackShape::gentle, TrackShape::tight,
                                              TrackShape::noisy, TrackShape::tiny};

inline const char* name_of(TrackShape shape) {
  switch (shape) {
    case TrackShape::gentle:
      return "gentle";
    case TrackShape::tight:
      return "tight";
    case TrackShape::noisy:
      return "noisy";
    case TrackShape::tiny:
      return "tiny";
  }
  return "?";
}

inline std::vector<Vector3<double>> track_keys(TrackShape shape) {
  const double pi = 3.141592653589793, radius = 1000;
  const int keys = shape == TrackShape::tiny ? 100000 : 1000;
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> unit(-1, 1);
  const double spacing = 2 * pi * radius / keys;
  std::vector<Vector3<double>> points;
  for (int k = 0; k < keys; ++k) {
    const double angle = 2 * pi * k / keys;
    double r = radius * (1 + 0.1 * std::sin(5 * angle));
    Vector3<double> p(r * std::cos(angle), 20 * std::sin(3 * angle), r * std::sin(angle));
    if (shape == TrackShape::tight) {
      // Every key swings 3 key spacings in or out: hairpins with slow, tightly turning segments.
      r += (k % 2 ? 3 : -3) * spacing;
      p = Vector3<double>(r * std::cos(angle), p.y(), r * std::sin(angle));
    } else if (shape == TrackShape::noisy) {
      p += 0.4 * spacing * Vector3<double>(unit(rng), unit(rng), unit(rng));
      if (k % 37 == 0 && !points.empty())
        p = points.back() + 1e-3 * spacing * Vector3<double>::UnitX();
    }
    points.push_back(p);
  }
  return points;
}

inline Path<double> track_path(TrackShape shape) {
  return *Path<double>::catmull_rom(track_keys(shape), Closure::closed);
}

}  // namespace tractrix::bench
