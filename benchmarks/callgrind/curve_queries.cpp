// Instruction counts under callgrind (not built by CMake): see benchmarks/README.md, "API 0.2".
// Compiles against 0.1 headers too (the #else branch), for old/new comparisons.
#include <valgrind/callgrind.h>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>
#include "tractrix/tractrix.hpp"
using namespace tractrix;
int main(int argc, char** argv) {
  const char mode = argv[1][0];
  std::vector<Vector3d> pts;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> wob(0.8, 1.2);
  for (int k = 0; k < 6250; ++k) {
    const double a = 2 * 3.141592653589793 * k / 6250, r = 1000 * wob(rng);
    pts.emplace_back(r * std::cos(a), 50 * wob(rng), r * std::sin(a));
  }
#if __has_include("tractrix/curve/measured_path.hpp")
  auto path = *Path<double>::catmull_rom(pts, Closure::closed);
  auto table = *ArcLengthTable<double>::build(path, {16});
  auto measured = *MeasuredPath<double>::build(path);
  auto linear = [&](double s) { return table.parameter_at_linear(s); };
  auto exact = [&](double s) { return table.parameter_at(s); };
  auto profile = *TimeProfile<double>::sine_pieces(10.0, ease_fractions(0.2, 0.8));
  auto motion = [&](double t) {
    return sample(measured, profile, t, *UpSource<double>::world()).speed;
  };
#else
  auto path = *Path<double>::catmull_rom(pts, true);
  auto table = *ArcLengthTable<double>::build(path, 16);
  auto linear = [&](double s) { return table.parameter_at(s); };
  auto exact = [&](double s) { return refine_parameter(path, table, s); };
  auto profile = *TimeProfile<double>::sine_pieces(10.0, ease_fractions(0.2, 0.8));
  auto motion = [&](double t) {
    return sample(path, table, profile, t, *UpSource<double>::world()).speed;
  };
#endif
  std::uniform_real_distribution<double> u(0, table.length());
  std::vector<double> q(20000);
  for (auto& x : q)
    x = u(rng);
  double sink = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (double s : q)
    sink += mode == 'l' ? linear(s) : mode == 'e' ? exact(s) : motion(s * 10 / table.length());
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%f\n", sink);
}
