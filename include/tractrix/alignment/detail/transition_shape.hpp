/// @file
/// Internal: the shape functions F(ξ) of IFC 4.3's transitions (EN 13803's), rising from 0 at
/// ξ = 0 to 1 at ξ = 1. A transition's value is v0 + F(ξ)·(v1 − v0); the cant layout applies them
/// to rail elevations and bank angles, the horizontal layout (as polynomial laws) to curvature.
#pragma once

#include <cmath>
#include <cstdint>

#include "tractrix/core/numeric.hpp"

namespace tractrix::detail {

enum class TransitionShape : std::uint8_t {
  constant,
  linear,
  helmert,
  bloss,
  cosine,
  sine,
  viennese
};

inline double transition_fraction(TransitionShape shape, double xi) noexcept {
  switch (shape) {
    case TransitionShape::constant:
      return 0;
    case TransitionShape::linear:
      return xi;
    case TransitionShape::helmert:
      return xi <= 0.5 ? 2 * xi * xi : 1 - 2 * (1 - xi) * (1 - xi);
    case TransitionShape::bloss:
      return xi * xi * (3 - 2 * xi);
    case TransitionShape::cosine:
      return 0.5 * (1 - std::cos(pi<double>() * xi));
    case TransitionShape::sine:
      return xi - std::sin(2 * pi<double>() * xi) / (2 * pi<double>());
    case TransitionShape::viennese:
      return xi * xi * xi * xi * (35 + xi * (-84 + xi * (70 - 20 * xi)));
  }
  return xi;
}

}  // namespace tractrix::detail
