// Instructions per track sample under callgrind (not built by CMake; benchmarks/README.md,
// "Compiled tracks", and the gate in benchmarks/callgrind/gate.py). Arguments: measured|compiled,
// sweep|random, and a track of the benchmark family (0 gentle, 1 tight, 2 noisy, 3 tiny,
// 4 mountain, 5 straights). 20 000 samples: sorted distances with a cursor (a train's bogies,
// frame after frame), or random ones with a fresh cursor.
#include <valgrind/callgrind.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "track_family.hpp"
#include "tractrix/tractrix.hpp"

using namespace tractrix;

// The counted loop, out of line: its code is the sample's, not whatever the compiler made of it
// after inlining the track's build into main (that moved the count by 24 instructions a sample
// when only the build's code changed).
__attribute__((noinline)) double sample_all(const Track<double>& track,
                                            const std::vector<double>& q, bool sweep) {
  double sink = 0;
  std::size_t cursor = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (double s : q) {
    std::size_t fresh = 0;
    // Every part of the sample is used: a sum of one coordinate lets the compiler drop the rest.
    const auto sample = track.sample(s, sweep ? cursor : fresh);
    sink += sample.point.sum() + sample.tangent.sum() + sample.parameter;
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  return sink;
}

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  const bool compiled = argv[1][0] == 'c', sweep = argv[2][0] == 's';
  const auto shape = bench::track_shapes[std::atoi(argv[3]) % 6];
  auto track = *Track<double>::build(MeasuredPath<double>::build(
      Path<double>::catmull_rom(bench::track_keys(shape), Closure::closed)));
  if (compiled) track = track.compiled();
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, track.length());
  std::vector<double> q(20000);
  for (auto& x : q)
    x = u(rng);
  if (sweep) std::sort(q.begin(), q.end());
  std::printf("%f\n", sample_all(track, q, sweep));
}
