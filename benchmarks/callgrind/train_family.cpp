// Instruction counts under callgrind (not built by CMake): see benchmarks/README.md, "API 0.2".
// The same source compiles against the 0.1 headers (commit 09f4ded). Arguments: arc|chord, a
// track of the benchmark family (0 gentle, 1 tight, 2 noisy, 3 tiny, 4 mountain, 5 straights)
// and optional flags: `compiled` (Track::compiled, 0.3), `compact` (the centred body into float
// position + quaternion records, 0.3, instead of WagonPose), `chords` (TrainSolver::
// compiled_chords, 0.3); build with -Ibenchmarks.
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "track_family.hpp"
#include "tractrix/tractrix.hpp"

using namespace tractrix;

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  auto flag = [&](const char* name) {
    for (int i = 3; i < argc; ++i)
      if (std::strcmp(argv[i], name) == 0) return true;
    return false;
  };
  const bool chord = argv[1][0] == 'c';
  const auto shape = bench::track_shapes[std::atoi(argv[2]) % 6];
  const auto keys = bench::track_keys(shape);
#if __has_include("tractrix/curve/measured_path.hpp")
  auto track = *Track<double>::build(
      MeasuredPath<double>::build(Path<double>::catmull_rom(keys, Closure::closed)));
#if __has_include("tractrix/curve/compiled_path.hpp")
  if (flag("compiled")) track = track.compiled();
#endif
#else
  auto track = *Track<double>::build(*Path<double>::catmull_rom(keys, true));
#endif
  std::vector<Wagon<double>> wagons;
  for (int i = 0; i < 2000; ++i)
    wagons.push_back({4.0 + (i % 3), 2.5 + 0.5 * (i % 2)});
  auto solver = *TrainSolver<double>::build(
      track, wagons, {Wrap::circular, chord ? Spacing::chord : Spacing::arc});
  std::vector<WagonPose<double>> poses(wagons.size());
  solver.solve(100.0, poses.data());
#if __has_include("tractrix/curve/compiled_path.hpp")
  if (flag("chords")) solver = solver.compiled_chords();
  if (flag("compact")) {
    std::vector<float> records(7 * wagons.size());
    WagonPoseArrays<float> out;
    out.body_centered = PoseArray<float>::poses(records.data(), wagons.size());
    CALLGRIND_START_INSTRUMENTATION;
    for (int r = 0; r < 5; ++r)
      solver.solve(100.0 + r * 37.0, out);
    CALLGRIND_STOP_INSTRUMENTATION;
    std::printf("%f\n", double(records[7 * 77]));
    return 0;
  }
#endif
  CALLGRIND_START_INSTRUMENTATION;
  for (int r = 0; r < 5; ++r)
    solver.solve(100.0 + r * 37.0, poses.data());
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%f\n", poses[77].body.origin.x());
}
