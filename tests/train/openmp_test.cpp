// The OpenMP solve (TRACTRIX_OPENMP with -fopenmp; off by default) against the serial one.
// Built as its own binary only where CMake finds OpenMP.
#include <omp.h>

#include <random>
#include <vector>

#include "support/catch.hpp"
#include "support/same_pose.hpp"
#include "support/shapes.hpp"
#include "tractrix/train/train_solver.hpp"

using namespace tractrix;
using namespace tractrix::test;

TEMPLATE_TEST_CASE("the OpenMP solve gives the serial solve's bits", "[train][openmp]", float,
                   double) {
  using S = TestType;
  std::mt19937_64 rng(97);
  std::uniform_real_distribution<double> length(8, 20), ratio(0.5, 0.8);
  std::vector<Wagon<S>> wagons(3000);  // over the 1024-wagon threshold; ~1.6 laps of the loop
  for (auto& w : wagons) {
    w.length = S(length(rng));
    w.bogie_distance = w.length * S(ratio(rng));
  }
  const auto track = *Track<S>::build(MeasuredPath<S>::build(trefoil<S>(64, S(2000))));
  // Arc spacing only: chord spacing solves serially (each wagon's chord starts from the one
  // before), so there is no parallel solve to compare.
  const auto solver = *TrainSolver<S>::build(track, wagons, {Wrap::circular, Spacing::arc});
  std::vector<WagonPose<S>> serial(wagons.size()), parallel(wagons.size());
  solver.solve(S(0.37) * track.length(), serial.data(), 0, wagons.size());
  for (const int threads : {1, 2, 3, 7}) {
    omp_set_num_threads(threads);
    solver.solve(S(0.37) * track.length(), parallel.data());
    bool all_same = true;
    for (std::size_t i = 0; i < wagons.size(); ++i)
      all_same = all_same && same_pose(serial[i], parallel[i]);
    INFO("threads " << threads);
    CHECK(all_same);
  }
}
