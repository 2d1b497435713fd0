// Instruction counts under callgrind (not built by CMake): see benchmarks/README.md, "Frames".
// frame_benchmark's loop and rail, 4096 random distances, one kind of query per run: `bare`
// (exact distance → point + tangent), `world`, `roll` (world up + a roll profile), `rmf`
// (rotation-minimizing), `rail` (matched by normalized arc length), `rail_closest` (by closest
// point in the normal plane). Build with -Ibenchmarks.
#include <valgrind/callgrind.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "frame_loop.hpp"
#include "tractrix/tractrix.hpp"

using namespace tractrix;

int main(int argc, char** argv) {
  const std::string kind = argc > 1 ? argv[1] : "bare";
  const auto [path, rail] = bench::frame_loop_and_rail();
  const double length = path.length();
  std::optional<UpSource<double>> up;
  if (kind == "world") up = *UpSource<double>::world();
  if (kind == "roll")
    up = UpSource<double>::world()->with_roll(*RollProfile<double>::build(
        {0, length / 4, length / 2, 3 * length / 4}, {0, 0.2, -0.1, 0.3}, length));
  if (kind == "rmf") up = *UpSource<double>::rotation_minimizing(path);
  if (kind == "rail") up = *UpSource<double>::rail(rail);
  if (kind == "rail_closest") up = *UpSource<double>::rail(rail, RailMatch::closest_point);
  if (!up && kind != "bare") {
    std::fprintf(stderr, "usage: frame_queries bare|world|roll|rmf|rail|rail_closest\n");
    return 1;
  }
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> uniform(0, length);
  std::vector<double> distances(4096);
  for (auto& x : distances)
    x = uniform(rng);
  double sum = 0;
  std::size_t cursor = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (const double distance : distances) {
    const double t = path.parameter_at(distance, cursor);
    const auto pt = path.path().evaluate(t);
    if (!up) {
      sum += pt.point.x() + pt.tangent.x();
      continue;
    }
    const Vector3d tangent = pt.tangent.normalized();
    sum +=
        look_at(pt.point, tangent, up->up_at(distance, length, pt.point, tangent)).rotation(0, 1);
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%s: %zu queries, sum %.9f\n", kind.c_str(), distances.size(), sum);
}
