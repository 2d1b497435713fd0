// Instruction counts under callgrind (not built by CMake): building jerk-limited plans, per plan,
// on 500 random moves with limits in [0.1, 3] — rest to rest, from moving states inside the
// limits, to targets with an acceleration of their own, and fixed durations of 1.3× the
// optimum. The same moves as benchmarks/ruckig/planning_benchmark.cpp's regimes, fewer of them.
#include <valgrind/callgrind.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "tractrix/driving/jerk_trajectory.hpp"
using namespace tractrix;

namespace {
struct Move {
  JerkLimits<double> limits;
  AxisState<double> from, target;
  double duration = 0;
};
}  // namespace

int main(int argc, char** argv) {
  const char* regime = argc > 1 ? argv[1] : "rest";
  const bool rest = std::strcmp(regime, "rest") == 0,
             accelerating = std::strcmp(regime, "accelerating") == 0,
             fixed = std::strcmp(regime, "fixed") == 0;
  std::mt19937_64 rng(46);
  std::uniform_real_distribution<double> unit(-1, 1), limit(0.1, 3);
  std::vector<Move> moves;
  while (moves.size() < 500) {
    Move m;
    m.limits = {limit(rng), limit(rng), limit(rng), limit(rng)};
    const JerkLimits<double>& l = m.limits;
    const double j = l.max_jerk;
    m.from = {unit(rng) * 2, rest ? 0 : unit(rng) * l.max_velocity,
              rest ? 0 : unit(rng) * std::min(l.max_acceleration, l.max_deceleration)};
    if (std::abs(m.from.velocity + m.from.acceleration * std::abs(m.from.acceleration) / (2 * j)) >
        l.max_velocity)
      continue;
    m.target = {m.from.position + unit(rng) * 5, rest ? 0 : unit(rng) * l.max_velocity,
                accelerating ? unit(rng) * std::min(l.max_acceleration, l.max_deceleration) : 0};
    const double came_from =
        m.target.velocity - m.target.acceleration * std::abs(m.target.acceleration) / (2 * j);
    if (std::abs(came_from) > l.max_velocity) continue;
    if (fixed) {
      const auto fastest = JerkTrajectory<double>::to_position(m.from, m.target, l);
      if (!fastest) continue;
      m.duration = fastest->duration() * 1.3;
      if (!JerkTrajectory<double>::to_position_in(m.duration, m.from, m.target, l)) continue;
    }
    moves.push_back(m);
  }
  double sink = 0;
  CALLGRIND_START_INSTRUMENTATION;
  for (const Move& m : moves) {
    const auto tr =
        fixed ? JerkTrajectory<double>::to_position_in(m.duration, m.from, m.target, m.limits)
              : JerkTrajectory<double>::to_position(m.from, m.target, m.limits);
    sink += tr ? tr->duration() : 0;
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%f\n", sink);
}
