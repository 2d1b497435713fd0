/// @file
/// Internal: Gauss–Legendre quadrature on [a, b], 5 nodes, exact for polynomials of degree 9.
#pragma once

#include <array>
#include <cstddef>

namespace tractrix::detail {

// Nodes on [-1, 1]: 0, ±sqrt(5 − 2 sqrt(10/7)) / 3, ±sqrt(5 + 2 sqrt(10/7)) / 3;
// weights 128/225 and (322 ± 13 sqrt(70)) / 900 (Abramowitz & Stegun, Table 25.4).
template <class S>
struct GaussLegendre5 {
  static constexpr std::array<S, 5> nodes{
      S(-0.906179845938663992797626878299L), S(-0.538469310105683091036314420700L), S(0),
      S(0.538469310105683091036314420700L), S(0.906179845938663992797626878299L)};
  static constexpr std::array<S, 5> weights{
      S(0.236926885056189087514264040720L), S(0.478628670499366468041291514836L),
      S(0.568888888888888888888888888889L), S(0.478628670499366468041291514836L),
      S(0.236926885056189087514264040720L)};

  // Integral of f over [a, b].
  template <class F>
  static S integrate(F&& f, S a, S b) {
    const S half = S(0.5) * (b - a);
    const S mid = S(0.5) * (a + b);
    S sum = S(0);
    for (std::size_t i = 0; i < 5; ++i)
      sum += weights[i] * f(mid + half * nodes[i]);
    return sum * half;
  }
};

}  // namespace tractrix::detail
