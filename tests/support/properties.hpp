// Shared helpers for property tests: seeded random inputs, counts CI can raise, tolerances.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "tractrix/curve/segment.hpp"

namespace tractrix::test {

// A positive count from the environment variable `name`, or `fallback` where it is unset or not a
// positive number: how long the long tests run.
inline long env_count(const char* name, long fallback) {
  const char* text = std::getenv(name);
  const long n = text ? std::atol(text) : 0;
  return n > 0 ? n : fallback;
}

// Number of random cases: base × TRACTRIX_PROPERTY_FACTOR (environment, default 1). CI raises it.
inline int property_count(int base) {
  return base * static_cast<int>(env_count("TRACTRIX_PROPERTY_FACTOR", 1));
}

// Fixed seeds keep failures reproducible; each test's seed is part of its failure messages via
// INFO.
inline std::mt19937_64 make_rng(std::uint64_t seed) {
  return std::mt19937_64(seed);
}

template <class S>
S uniform(std::mt19937_64& rng, S lo, S hi) {
  std::uniform_real_distribution<double> dist(static_cast<double>(lo), static_cast<double>(hi));
  return static_cast<S>(dist(rng));
}

template <class S, int D>
Vector<S, D> random_vector(std::mt19937_64& rng, S scale) {
  Vector<S, D> v;
  for (int i = 0; i < D; ++i)
    v[i] = uniform<S>(rng, -scale, scale);
  return v;
}

template <class S, int D, int N>
Bezier<S, D, N> random_bezier(std::mt19937_64& rng, S scale) {
  Bezier<S, D, N> b;
  for (auto& p : b.points)
    p = random_vector<S, D>(rng, scale);
  return b;
}

// Random key points on a wobbly loop of radius ~scale, so consecutive keys are well separated.
template <class S>
std::vector<Vector<S, 3>> random_loop_points(std::mt19937_64& rng, int count, S scale) {
  std::vector<Vector<S, 3>> points;
  for (int i = 0; i < count; ++i) {
    const double angle = 2.0 * 3.14159265358979323846 * i / count;
    const S radius = scale * uniform<S>(rng, S(0.7), S(1.3));
    points.emplace_back(radius * static_cast<S>(std::cos(angle)),
                        scale * uniform<S>(rng, S(-0.3), S(0.3)),
                        radius * static_cast<S>(std::sin(angle)));
  }
  return points;
}

template <class S>
constexpr S eps() {
  return std::numeric_limits<S>::epsilon();
}

// A tolerance stated for double, and the float promise it stands for: each 1e-12 of double's is
// 64 float eps (7.6e-6), and no float promise is tighter than 16 eps — what float resolves, not
// double's tolerance scaled by the ratio of the epsilons (1e-12 would become 5.4e-4).
template <class S>
S contract(double double_tolerance) {
  if (std::is_same<S, double>::value) return static_cast<S>(double_tolerance);
  const double in_eps = std::max(16.0, 64.0 * double_tolerance / 1e-12);
  return static_cast<S>(in_eps) * eps<S>();
}

}  // namespace tractrix::test
