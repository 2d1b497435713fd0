// The seed lecture's arc-length table for a three-patch Hermite path: u, patch, accumulated
// length from summed chords (the lecture's method), exactly (Gauss–Legendre), and normalized.
#include <cstdio>
#include <vector>

#include <tractrix/tractrix.hpp>

int main() {
  using namespace tractrix;
  // Four keys with tangents: three Hermite patches, as in the lecture's example.
  const std::vector<Vector2d> points{{0, 0}, {14, 10}, {28, 0}, {42, 12}};
  const std::vector<Vector2d> tangents{{20, 30}, {20, 0}, {10, -20}, {20, 30}};
  const auto path = *Path<double, 2>::from_hermite_keys(points, tangents, Closure::open);
  const int samples = 8;  // u steps of 0.125, as in the lecture's table
  const auto chord = *ArcLengthTable<double>::build(path, {samples, ArcLengthMethod::chord});
  const auto exact =
      *ArcLengthTable<double>::build(path, {samples, ArcLengthMethod::gauss_legendre});
  std::printf("%6s %8s %14s %14s %12s\n", "u", "H-patch", "chord s", "exact s", "normalized");
  for (std::size_t i = 0; i < chord.distances().size(); ++i) {
    const std::size_t patch = i == 0 ? 0 : (i - 1) / samples;
    const double u = i == 0 ? 0.0 : static_cast<double>((i - 1) % samples + 1) / samples;
    std::printf("%6.3f %8zu %14.4f %14.4f %12.4f\n", u, patch, chord.distances()[i],
                exact.distances()[i], exact.distances()[i] / exact.length());
  }
  std::printf("chord length %.6f, exact length %.6f: chords are %.4f%% short (O(h^2))\n",
              chord.length(), exact.length(), 100 * (1 - chord.length() / exact.length()));
  // Constant speed: the parameter for evenly spaced distances (the lecture's binary search +
  // linear interpolation) against the exact inverse.
  std::printf("\n%10s %12s %12s\n", "s", "t (lookup)", "t (exact)");
  for (int k = 0; k <= 8; ++k) {
    const double s = exact.length() * k / 8;
    std::printf("%10.4f %12.6f %12.6f\n", s, exact.parameter_at_linear(s), exact.parameter_at(s));
  }
}
