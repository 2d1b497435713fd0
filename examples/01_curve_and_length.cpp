// 01 — a curve and its length. The camera-animation lecture's three-patch Hermite path: its
// arc-length table by summed chords (the lecture's method) and exactly, and the parameter for a
// distance by the lecture's lookup and by the exact inverse.
#include <cstdio>
#include <vector>

#include <tractrix/tractrix.hpp>

int main() {
  using namespace tractrix;
  // Four keys with tangents dr/dt: three Hermite patches, as in the lecture's example.
  const std::vector<Vector2d> points{{0, 0}, {14, 10}, {28, 0}, {42, 12}};
  const std::vector<Vector2d> tangents{{20, 30}, {20, 0}, {10, -20}, {20, 30}};
  const int samples = 8;  // u steps of 0.125, as in the lecture's table
  const auto path = MeasuredPath<double, 2>::build(
      Path<double, 2>::from_hermite_keys(points, tangents, Closure::open), {samples});
  if (!path) return std::printf("%s\n", path.error().message.c_str()), 1;
  const auto chord = ArcLengthTable<double>::build(path->path(), {samples, ArcLengthMethod::chord});
  if (!chord) return std::printf("%s\n", chord.error().message.c_str()), 1;

  const auto& exact = path->table();
  std::printf("%6s %8s %14s %14s %12s\n", "u", "patch", "chord s", "exact s", "normalized");
  for (std::size_t i = 0; i < exact.distances().size(); ++i) {
    const std::size_t patch = i == 0 ? 0 : (i - 1) / samples;
    const double u = i == 0 ? 0.0 : static_cast<double>((i - 1) % samples + 1) / samples;
    std::printf("%6.3f %8zu %14.4f %14.4f %12.4f\n", u, patch, chord->distances()[i],
                exact.distances()[i], exact.distances()[i] / path->length());
  }
  std::printf("chord length %.6f, exact length %.6f: chords are %.4f%% short (O(h^2))\n",
              chord->length(), path->length(), 100 * (1 - chord->length() / path->length()));

  // Constant speed: the parameter t for evenly spaced distances s, by the lecture's lookup
  // (binary search + linear interpolation) and by the exact inverse; and back to s.
  std::printf("\n%10s %12s %12s %14s\n", "s", "t (lookup)", "t (exact)", "s(t exact)");
  for (int k = 0; k <= 8; ++k) {
    const double s = path->length() * k / 8;
    const double t = path->parameter_at(s);
    std::printf("%10.4f %12.6f %12.6f %14.10f\n", s, path->parameter_at_linear(s), t,
                path->distance_at(t));
  }
  const Vector2d middle = path->point_at(path->length() / 2);
  std::printf("halfway along: (%.4f, %.4f)\n", middle.x(), middle.y());
}
