// Test shapes built from Hermite keys with exact derivatives: circles, vertical loops, a trefoil.
#pragma once

#include <cmath>
#include <vector>

#include "tractrix/curve/path.hpp"

namespace tractrix::test {

// A closed curve through count keys of r(θ), θ = phase + 2πk/count, with Hermite tangents
// dr/dθ·Δθ scaled by 4 tan(Δθ/4)/Δθ (the classic Bézier circle factor, which makes circles
// accurate to ~Δθ⁶).
template <class S, class Position, class Derivative>
Path<S, 3> closed_curve(int count, S phase, Position position, Derivative derivative) {
  std::vector<Vector3<S>> points, tangents;
  const long double step = 2.0L * 3.14159265358979323846264338327950288L / count;
  const long double factor = 4.0L * std::tan(step / 4.0L);
  for (int k = 0; k < count; ++k) {
    const long double theta = static_cast<long double>(phase) + step * k;
    points.push_back(position(theta).template cast<S>());
    tangents.push_back((factor * derivative(theta)).template cast<S>());
  }
  return *Path<S, 3>::from_hermite_keys(points, tangents, Closure::closed);
}

using Vector3l = Eigen::Matrix<long double, 3, 1>;

// Horizontal circle of radius r at height y, counter-clockwise seen from +Y... starting at phase.
template <class S>
Path<S, 3> circle(S radius, int count, S y = S(0), S phase = S(0)) {
  const long double r = radius, h = y;
  return closed_curve<S>(
      count, phase, [&](long double t) { return Vector3l(r * std::cos(t), h, r * std::sin(t)); },
      [&](long double t) { return Vector3l(-r * std::sin(t), 0, r * std::cos(t)); });
}

// A vertical loop of radius r in the X–Y plane (a roller-coaster loop), centred at (0, r, 0).
template <class S>
Path<S, 3> vertical_loop(S radius, int count) {
  const long double r = radius;
  return closed_curve<S>(
      count, S(0), [&](long double t) { return Vector3l(r * std::sin(t), r - r * std::cos(t), 0); },
      [&](long double t) { return Vector3l(r * std::cos(t), r * std::sin(t), 0); });
}

// Trefoil knot (sin t + 2 sin 2t, cos t − 2 cos 2t, −sin 3t), scaled.
template <class S>
Path<S, 3> trefoil(int count, S scale = S(1)) {
  const long double c = scale;
  return closed_curve<S>(
      count, S(0),
      [&](long double t) {
        return Vector3l(c * (std::sin(t) + 2 * std::sin(2 * t)),
                        c * (std::cos(t) - 2 * std::cos(2 * t)), -c * std::sin(3 * t));
      },
      [&](long double t) {
        return Vector3l(c * (std::cos(t) + 4 * std::cos(2 * t)),
                        c * (-std::sin(t) + 4 * std::sin(2 * t)), -3 * c * std::cos(3 * t));
      });
}

}  // namespace tractrix::test
