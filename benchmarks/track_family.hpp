// A family of track shapes for benchmarks, so no speed claim rests on one friendly curve:
// gentle (a wobbly loop), tight (hairpin zigzags: slow, sharply turning segments),
// noisy (hand-placed keys: jitter of ±40 % of the key spacing and some nearly repeated keys),
// tiny (100 000 short segments), mountain (spiral curls of 6–20 units radius, one to four lengths
// of the 4–6-unit wagons the benchmarks run, on gradients up to ~5 %) and straights (long
// straights joined by short bends of ~15 units radius). Closed Catmull–Rom loops, seeded, in
// double.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tractrix/tractrix.hpp"

namespace tractrix::bench {

enum class TrackShape { gentle, tight, noisy, tiny, mountain, straights };
inline constexpr TrackShape track_shapes[] = {TrackShape::gentle,   TrackShape::tight,
                                              TrackShape::noisy,    TrackShape::tiny,
                                              TrackShape::mountain, TrackShape::straights};

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
    case TrackShape::mountain:
      return "mountain";
    case TrackShape::straights:
      return "straights";
  }
  return "?";
}

// A rounded square of side ~1500 (straights) with bends of radius 15, sampled every ~8 units
// along its length, so the keys are evenly spaced and Catmull–Rom follows the corners.
inline std::vector<Vector3<double>> straights_keys() {
  const double pi = 3.141592653589793, side = 1540, bend = 15, step = 8;
  const double straight = side - 2 * bend, arc = pi / 2 * bend, perimeter = 4 * (straight + arc);
  const int keys = static_cast<int>(perimeter / step);
  std::vector<Vector3<double>> points;
  for (int k = 0; k < keys; ++k) {
    double s = perimeter * k / keys;
    const int leg = static_cast<int>(s / (straight + arc));
    s -= leg * (straight + arc);
    // Leg 0 runs along +x from (−straight/2, −side/2); each leg turns 90° left after its bend.
    const double angle = pi / 2 * leg;
    const Vector3<double> along(std::cos(angle), 0, std::sin(angle)),
        left(-std::sin(angle), 0, std::cos(angle));
    const Vector3<double> start = -straight / 2 * along - side / 2 * left;
    if (s <= straight) {
      points.push_back(start + s * along);
    } else {
      const double a = (s - straight) / bend;  // into the bend
      points.push_back(start + straight * along + bend * std::sin(a) * along +
                       bend * (1 - std::cos(a)) * left);
    }
  }
  return points;
}

// Curls around a loop of radius 1000: a point on a circle of radius 12 turning 300 times while
// its centre goes round once (a prolate trochoid: small spirals, radii 6–20), climbing and
// falling ±60 units twice a lap (gradients up to ~5 %).
inline std::vector<Vector3<double>> mountain_keys() {
  const double pi = 3.141592653589793, radius = 1000, curl = 12;
  const int turns = 300, keys = 6000;
  std::vector<Vector3<double>> points;
  for (int k = 0; k < keys; ++k) {
    const double angle = 2 * pi * k / keys, c = turns * angle;
    points.emplace_back(radius * std::cos(angle) + curl * std::cos(c), 60 * std::sin(2 * angle),
                        radius * std::sin(angle) + curl * std::sin(c));
  }
  return points;
}

inline std::vector<Vector3<double>> track_keys(TrackShape shape) {
  if (shape == TrackShape::straights) return straights_keys();
  if (shape == TrackShape::mountain) return mountain_keys();
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

// The same track in S (keys rounded to S, then the same Catmull–Rom).
template <class S>
Path<S> track_path_as(TrackShape shape) {
  std::vector<Vector3<S>> keys;
  for (const auto& key : track_keys(shape))
    keys.push_back(key.cast<S>());
  return *Path<S>::catmull_rom(keys, Closure::closed);
}

}  // namespace tractrix::bench
