// Instruction counts under callgrind (not built by CMake): see benchmarks/README.md, "Closest
// point on a network". The network benchmark's grid scaled to `rows` rows of 100 pieces (each
// 100 Catmull–Rom segments through keys 1 unit apart, ±0.3 of jitter, rows 20 units apart) and
// its 1024 random queries, each searched over the whole network; with `walk` after the rows, the
// benchmark's moving point (10 legs of 2000 steps of 0.5 along a row, 3 units beside it) through
// a NetworkPointCursor; `compiled` last: the network compiled (Network::compiled), whose answers
// measure their distance along on the pieces' cells. Build with -Ibenchmarks.
#include <valgrind/callgrind.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "tractrix/tractrix.hpp"

using namespace tractrix;

int main(int argc, char** argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 10, per_row = 100, segments = 100;
  // Pieces measured to 1e-12 of the network's size, as in network_benchmark.cpp.
  const double network_size = double(rows) * per_row * segments;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> jitter(-0.3, 0.3), unit(0.0, 1.0);
  std::vector<Track<double>> pieces;
  for (int r = 0; r < rows; ++r)
    for (int p = 0; p < per_row; ++p) {
      std::vector<Vector3d> keys;
      for (int k = 0; k <= segments; ++k)
        keys.emplace_back(p * segments + k, jitter(rng), 20.0 * r + jitter(rng));
      pieces.push_back(*Track<double>::build(
          MeasuredPath<double>::build(Path<double>::catmull_rom(keys, Closure::open),
                                      {0, ArcLengthMethod::gauss_legendre, network_size})));
    }
  std::vector<Vector3d> queries;
  for (int q = 0; q < 1024; ++q)
    queries.emplace_back(unit(rng) * per_row * segments, 5.0 * (unit(rng) - 0.5),
                         unit(rng) * 20.0 * rows);
  const bool walking = argc > 2 && std::string(argv[2]) == "walk";
  if (walking) {
    queries.clear();
    for (int leg = 0; leg < 10; ++leg) {
      const double row = std::floor(unit(rng) * rows), x0 = unit(rng) * (per_row - 10) * segments;
      for (int k = 0; k < 2000; ++k)
        queries.emplace_back(x0 + 0.5 * k, 0.4 * (unit(rng) - 0.5),
                             20.0 * row + 3.0 + 0.4 * (unit(rng) - 0.5));
    }
  }
  const bool on_cells = std::string(argv[argc - 1]) == "compiled";
  const auto built = *Network<double>::build(std::move(pieces), {});
  const auto network = on_cells ? built.compiled() : built;
  NetworkPointCursor<double> cursor;
  double sum = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (const auto& q : queries)
    sum += walking ? network.closest_point(q, cursor).distance : network.closest_point(q).distance;
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%d rows%s%s: sum of distances %.9f over %zu queries (%zu global)\n", rows,
              walking ? ", walking with a cursor" : "", on_cells ? ", compiled" : "", sum,
              queries.size(), walking ? cursor.global_searches() : queries.size());
}
