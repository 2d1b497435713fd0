// Instruction counts under callgrind (not built by CMake): see benchmarks/README.md, "Closest
// point on a network". The network benchmark's grid scaled to `rows` rows of 100 pieces (each
// 100 Catmull–Rom segments through keys 1 unit apart, ±0.3 of jitter, rows 20 units apart) and
// its 1024 random queries, each searched over the whole network. Build with -Ibenchmarks.
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "tractrix/tractrix.hpp"

using namespace tractrix;

int main(int argc, char** argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 10, per_row = 100, segments = 100;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> jitter(-0.3, 0.3), unit(0.0, 1.0);
  std::vector<Track<double>> pieces;
  for (int r = 0; r < rows; ++r)
    for (int p = 0; p < per_row; ++p) {
      std::vector<Vector3d> keys;
      for (int k = 0; k <= segments; ++k)
        keys.emplace_back(p * segments + k, jitter(rng), 20.0 * r + jitter(rng));
      pieces.push_back(*Track<double>::build(
          MeasuredPath<double>::build(Path<double>::catmull_rom(keys, Closure::open))));
    }
  std::vector<Vector3d> queries;
  for (int q = 0; q < 1024; ++q)
    queries.emplace_back(unit(rng) * per_row * segments, 5.0 * (unit(rng) - 0.5),
                         unit(rng) * 20.0 * rows);
  const auto network = *Network<double>::build(std::move(pieces), {});
  double sum = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (const auto& q : queries)
    sum += network.closest_point(q).distance;
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%d rows: sum of distances %.9f over %zu queries\n", rows, sum, queries.size());
}
