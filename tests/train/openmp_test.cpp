// The OpenMP solve (TRACTRIX_OPENMP with -fopenmp; off by default) against the serial one.
// Built as its own binary only where CMake finds OpenMP.
#include <omp.h>

#include <algorithm>
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

TEST_CASE("the OpenMP batch and engine-array solves give the serial bits", "[train][openmp]") {
  using S = double;
  std::mt19937_64 rng(98);
  std::uniform_real_distribution<double> length(8, 20), ratio(0.5, 0.8);
  const auto track = *Track<S>::build(MeasuredPath<S>::build(trefoil<S>(64, S(2000))));
  // 40 trains of 0 to 120 wagons (over the 1024-wagon threshold together), arc and chord.
  std::vector<TrainSolver<S>> trains;
  std::vector<S> heads;
  std::size_t total = 0;
  for (int k = 0; k < 40; ++k) {
    // Trains without wagons at the start, in the middle and at the end too.
    const bool empty = k == 13 || k == 14 || k == 39;
    std::vector<Wagon<S>> wagons(empty ? 0 : static_cast<std::size_t>(k * 37 % 121));
    for (auto& w : wagons) {
      w.length = length(rng);
      w.bogie_distance = w.length * ratio(rng);
    }
    total += wagons.size();
    trains.push_back(*TrainSolver<S>::build(
        track, wagons, {Wrap::circular, k % 2 ? Spacing::chord : Spacing::arc}));
    heads.push_back(length(rng) * 300);
  }
  REQUIRE(total >= 1024);
  std::vector<float> serial(7 * total), parallel(7 * total);
  WagonPoseArrays<float> out;
  out.body_centered = PoseArray<float>::poses(serial.data(), total);
  CHECK(solve_trains(trains.data(), heads.data(), trains.size(), out, 0, trains.size()) == total);
  // One long arc-spaced train into arrays: split over the threads inside the train.
  std::vector<Wagon<S>> long_train(3000, Wagon<S>{S(12), S(8)});
  const auto one = *TrainSolver<S>::build(track, long_train, {Wrap::circular, Spacing::arc});
  std::vector<double> one_serial(7 * 3000), one_parallel(7 * 3000);
  WagonPoseArrays<double> one_out;
  one_out.front = PoseArray<double>::poses(one_serial.data(), 3000);
  CHECK(one.solve(S(123), one_out, 0, 3000) == 3000u);
  for (const int threads : {1, 2, 3, 7}) {
    INFO("threads " << threads);
    omp_set_num_threads(threads);
    out.body_centered.first = parallel.data();
    std::fill(parallel.begin(), parallel.end(), -7.0f);
    CHECK(solve_trains(trains.data(), heads.data(), trains.size(), out) == total);
    CHECK(parallel == serial);
    one_out.front.first = one_parallel.data();
    CHECK(one.solve(S(123), one_out) == 3000u);
    CHECK(one_parallel == one_serial);
  }
}
