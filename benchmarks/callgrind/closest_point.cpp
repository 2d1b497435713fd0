// Instruction counts under callgrind (not built by CMake): see benchmarks/README.md, "Closest
// point". A point 2 units beside a track of the benchmark family (0 gentle, 1 tight, 2 noisy,
// 3 tiny, 4 mountain, 5 straights) moves 0.5 units per query for 10⁴ queries; `cursor` follows it
// with a ClosestPointCursor, `global` searches the whole track each time; a third argument
// `compiled` asks the track's CompiledPath (the distance along from its cells, no quadrature).
// Build with -Ibenchmarks.
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "track_family.hpp"
#include "tractrix/tractrix.hpp"

using namespace tractrix;

// The queries on one kind of path, out of line. (It does not make each kind's code what it
// would be alone: the search functions both kinds call are no longer inlined once a program
// runs both, and the measured figure is 2072 here against 1864 in a measured-only build —
// benchmarks/README.md, "Instruction-count gate".)
template <class Searched>
__attribute__((noinline)) double run(const Searched& path, const std::vector<Vector3d>& points,
                                     bool with_cursor, ClosestPointCursor<double>& cursor) {
  double sum = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (const auto& q : points)
    sum += with_cursor ? path.closest_point(q, cursor).distance : path.closest_point(q).distance;
  CALLGRIND_STOP_INSTRUMENTATION;
  return sum;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: closest_point 0..5 cursor|global [compiled]\n");
    return 1;
  }
  const auto shape = bench::track_shapes[std::atoi(argv[1]) % 6];
  const bool with_cursor = std::strcmp(argv[2], "cursor") == 0;
  const bool on_cells = argc > 3 && std::strcmp(argv[3], "compiled") == 0;
  const auto path = *MeasuredPath<double>::build(bench::track_path(shape));
  const auto compiled = CompiledPath<double>::build(path);
  std::vector<Vector3d> points;
  for (int i = 0; i < 10000; ++i) {
    const auto at = path.sample(0.5 * i);
    points.push_back(at.point + 2 * at.tangent.cross(Vector3d::UnitY()).normalized());
  }
  ClosestPointCursor<double> cursor;
  const double sum = on_cells ? run(compiled, points, with_cursor, cursor)
                              : run(path, points, with_cursor, cursor);
  std::printf("%s %s%s: sum of distances %.6f, global searches %zu\n", bench::name_of(shape),
              argv[2], on_cells ? " compiled" : "", sum, cursor.global_searches());
}
