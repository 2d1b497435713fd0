// Random moves from states inside the limits, and JerkTrajectory::to_position's duration for
// each, one per line: "max_velocity max_acceleration max_deceleration max_jerk position velocity
// acceleration target_position target_velocity duration". compare.py solves the same moves with
// Ruckig and compares. Usage: durations <count> <seed>.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "tractrix/driving/jerk_trajectory.hpp"

int main(int argc, char** argv) {
  using namespace tractrix;
  if (argc < 3) return std::printf("usage: durations <count> <seed>\n"), 1;
  const int count = std::atoi(argv[1]);
  std::mt19937_64 rng(static_cast<std::uint64_t>(std::atoll(argv[2])));
  std::uniform_real_distribution<double> unit(-1, 1), limit(0.1, 3);
  for (int i = 0; i < count; ++i) {
    const JerkLimits<double> lim{limit(rng), limit(rng), limit(rng), limit(rng)};
    AxisState<double> from{unit(rng) * 2, unit(rng) * lim.max_velocity,
                           unit(rng) * lim.max_acceleration};
    if (i % 4 == 0) from.acceleration = 0;
    from.acceleration = std::max(from.acceleration, -lim.max_deceleration);
    // Inside the limits: the velocity stays inside while the acceleration is brought to zero.
    const double natural =
        from.velocity + from.acceleration * std::abs(from.acceleration) / (2 * lim.max_jerk);
    if (std::abs(natural) > lim.max_velocity) {
      --i;
      continue;
    }
    const double target = from.position + unit(rng) * 5;
    const double velocity = i % 3 == 0 ? 0 : unit(rng) * lim.max_velocity;
    const auto trajectory = JerkTrajectory<double>::to_position(from, target, velocity, lim);
    if (!trajectory) return std::printf("case %d: %s\n", i, trajectory.error().message.c_str()), 1;
    std::printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", lim.max_velocity,
                lim.max_acceleration, lim.max_deceleration, lim.max_jerk, from.position,
                from.velocity, from.acceleration, target, velocity, trajectory->duration());
  }
}
