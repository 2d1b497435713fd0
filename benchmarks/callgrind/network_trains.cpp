// Instruction counts under callgrind (not built by CMake) for network_benchmark's trains: see
// benchmarks/README.md, "Networks". Arguments: gentle | tight | noisy | tiny | mountain |
// straights, arc | chord, routes | curve | long, and optionally `compiled` (Network::compiled
// and Track::compiled). Counts 20 solves of the 1000 trains of 20 wagons, on their routes or on
// the track as one curve, or of network_benchmark's one long train (the same 20 000 wagons in
// one train on the one curve); build with -Ibenchmarks.
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "network_trains.hpp"

using namespace tractrix;

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5)
    return std::printf("usage: network_trains <track> arc|chord routes|curve|long [compiled]\n"), 2;
  const bool compiled = argc == 5 && std::strcmp(argv[4], "compiled") == 0;
  const char* names[] = {"gentle", "tight", "noisy", "tiny", "mountain", "straights"};
  std::size_t shape = 0;
  while (shape < 6 && std::strcmp(names[shape], argv[1]) != 0)
    ++shape;
  if (shape == 6) return std::printf("unknown track %s\n", argv[1]), 2;
  const Spacing spacing = std::strcmp(argv[2], "arc") == 0 ? Spacing::arc : Spacing::chord;
  const bool routes = std::strcmp(argv[3], "routes") == 0;
  const bool long_train = std::strcmp(argv[3], "long") == 0;
  bench::NetworkTrains f =
      bench::network_trains(bench::track_shapes[shape], spacing, compiled ? 1 : 0);
  // network_benchmark's BM_OneLongTrain: every train's wagons in one train, head at 100.
  auto whole = *Track<double>::build(
      MeasuredPath<double>::build(bench::track_path(bench::track_shapes[shape])));
  if (compiled) whole = whole.compiled();
  std::vector<Wagon<double>> wagons;
  for (std::size_t k = 0; k < bench::trains; ++k)
    for (const auto& w : bench::train())
      wagons.push_back(w);
  const auto one = *TrainSolver<double>::build(whole, wagons, {Wrap::circular, spacing});
  CALLGRIND_START_INSTRUMENTATION;
  for (int k = 0; k < 20; ++k) {
    if (long_train)
      one.solve(100.0, f.poses.data());
    else if (routes)
      solve_trains(f.on_routes.data(), f.route_heads.data(), bench::trains, f.poses.data());
    else
      solve_trains(f.on_curve.data(), f.curve_heads.data(), bench::trains, f.poses.data());
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%s %s %s: %.6f\n", argv[1], argv[2], argv[3], f.poses[777].front.origin.x());
}
