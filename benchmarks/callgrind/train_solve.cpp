// Instruction counts under callgrind (not built by CMake): see benchmarks/README.md, "API 0.2".
// Compiles against 0.1 headers too (the #else branch), for old/new comparisons.
#include <valgrind/callgrind.h>
#include <cmath>
#include <cstdio>
#include <vector>
#include "tractrix/tractrix.hpp"
using namespace tractrix;
int main(int argc, char** argv) {
  const bool chord = argc > 1 && argv[1][0] == 'c';
  const bool rail = argc > 2 && argv[2][0] == 'r';
  std::vector<Vector3d> pts, rpts;
  const int segments = 100;
  for (int k = 0; k < segments; ++k) {
    const double a = 2 * 3.141592653589793 * k / segments, r = 30000 * (1 + 0.1 * std::sin(5 * a));
    pts.emplace_back(r * std::cos(a), 300 * std::sin(3 * a), r * std::sin(a));
    rpts.emplace_back((r + 1) * std::cos(a), 300 * std::sin(3 * a) + 1.5, (r + 1) * std::sin(a));
  }
#if __has_include("tractrix/curve/measured_path.hpp")
  auto path = *MeasuredPath<double>::build(Path<double>::catmull_rom(pts, Closure::closed));
  auto up = rail ? *UpSource<double>::rail(*MeasuredPath<double>::build(
                       Path<double>::catmull_rom(rpts, Closure::closed)))
                 : *UpSource<double>::world();
  auto track = *Track<double>::build(path, up);
#else
  auto path = *Path<double>::catmull_rom(pts, true);
  auto up = rail ? *UpSource<double>::rail(*Path<double>::catmull_rom(rpts, true))
                 : *UpSource<double>::world();
  auto track = *Track<double>::build(path, up);
#endif
  std::vector<Wagon<double>> wagons;
  for (int i = 0; i < 10000; ++i)
    wagons.push_back({15.0 + (i % 7), 10.0 + (i % 5)});
  auto solver = *TrainSolver<double>::build(
      track, wagons, {Wrap::circular, chord ? Spacing::chord : Spacing::arc});
  std::vector<WagonPose<double>> poses(wagons.size());
  solver.solve(100.0, poses.data());
  CALLGRIND_START_INSTRUMENTATION;
  for (int r = 0; r < 5; ++r)
    solver.solve(100.0 + r * 37.0, poses.data());
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%f\n", poses[77].body.origin.x());
}
