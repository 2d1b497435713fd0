// Instruction counts under callgrind (not built by CMake): see benchmarks/README.md, "API 0.2".
// The same source compiles against the 0.1 headers (commit 09f4ded).
#include <valgrind/callgrind.h>
#include <cstdio>
#include <random>
#include <vector>
#include "tractrix/tractrix.hpp"
using namespace tractrix;
int main() {
  auto roll = *RollProfile<double>::build({0, 250, 500, 750}, {0, 0.2, -0.1, 0.3}, 1000.0);
  auto prof = *TimeProfile<double>::keyed({0, 1, 2, 3, 5}, {0, 0.1, 0.5, 0.7, 1});
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(0, 1000);
  std::vector<double> q(20000);
  for (auto& x : q)
    x = u(rng);
  double sink = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (double s : q)
    sink += roll.angle_at(s);
  CALLGRIND_STOP_INSTRUMENTATION;
  CALLGRIND_DUMP_STATS;
  CALLGRIND_START_INSTRUMENTATION;
  for (double s : q) {
    const auto p = prof.at(s / 200);
    sink += p.value + p.rate + p.acceleration;
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%f\n", sink);
}
