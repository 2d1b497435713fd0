#include <cmath>
#include <limits>

#include "support/catch.hpp"
#include "tractrix/core/loop_distance.hpp"

using namespace tractrix;

// Expectations are exact: distances built as k·length + d from numbers every step represents.
TEMPLATE_TEST_CASE("LoopDistance::wrapped splits a distance into laps and a remainder exactly",
                   "[core]", float, double) {
  using S = TestType;
  using L = LoopDistance<S>;
  const S length = 8;
  const L ahead = L::wrapped(S(8 * 1000 + 3.5), length);
  CHECK(ahead.distance == S(3.5));
  CHECK(ahead.lap == 1000);
  const L behind = L::wrapped(S(-8 * 3 + 0.25), length);  // −23.75: three laps back, then 0.25
  CHECK(behind.distance == S(0.25));
  CHECK(behind.lap == -3);
  const L on_start = L::wrapped(S(-16), length);
  CHECK(on_start.distance == S(0));
  CHECK(on_start.lap == -2);
  // Past 2^24 a float quotient holds no whole counts: 2^30 = 3 · 357913941 + 1.
  const L far = L::wrapped(S(1073741824.0), S(3));
  CHECK(far.distance == S(1));
  CHECK(far.lap == 357913941LL);
}

TEMPLATE_TEST_CASE("LoopDistance lap counts saturate and NaN is the start", "[core]", float,
                   double) {
  using S = TestType;
  using L = LoopDistance<S>;
  const L huge = L::wrapped(std::numeric_limits<S>::max(), S(1));
  CHECK(huge.lap == L::most_laps);
  CHECK(huge.distance >= S(0));
  CHECK(huge.distance < S(1));
  CHECK(L::wrapped(-std::numeric_limits<S>::max(), S(1)).lap == -L::most_laps);
  const L nan = L::wrapped(std::numeric_limits<S>::quiet_NaN(), S(5));
  CHECK(nan.distance == S(0));
  CHECK(nan.lap == 0);
  CHECK(L{S(1), L::most_laps - 1}.plus_laps(5).lap == L::most_laps);
  CHECK(L{S(1), -L::most_laps + 1}.plus_laps(-5).lap == -L::most_laps);
  CHECK(L{S(1), 7}.plus_laps(-9).lap == -2);
}

TEMPLATE_TEST_CASE("LoopDistance::on_loop steps within a lap and wraps beyond", "[core]", float,
                   double) {
  using S = TestType;
  using L = LoopDistance<S>;
  const S length = 10;
  // Already on the loop: unchanged.
  const L on = L{S(4), 3}.on_loop(length);
  CHECK(on.distance == S(4));
  CHECK(on.lap == 3);
  // One step either way, laps counted from the lap given.
  const L back = L{S(-2.5), 3}.on_loop(length);
  CHECK(back.distance == S(7.5));
  CHECK(back.lap == 2);
  const L on_ahead = L{S(12.5), 3}.on_loop(length);
  CHECK(on_ahead.distance == S(2.5));
  CHECK(on_ahead.lap == 4);
  // Just behind the seam: −tiny + length rounds to length, which is the next lap's 0.
  const S tiny = std::numeric_limits<S>::denorm_min();
  const L seam = L{-tiny, 3}.on_loop(length);
  CHECK(seam.distance == S(0));
  CHECK(seam.lap == 3);
  // Many laps out: the exact wrap, its laps added to the ones given.
  const L far = L{S(-10 * 50 + 6), 3}.on_loop(length);
  CHECK(far.distance == S(6));
  CHECK(far.lap == 3 - 50);
  const L far_ahead = L{S(10 * 50 + 6), -1}.on_loop(length);
  CHECK(far_ahead.distance == S(6));
  CHECK(far_ahead.lap == 49);
}
