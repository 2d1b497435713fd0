// Building a plan: tractrix's JerkTrajectory and SyncedTrajectory beside Ruckig (built from its
// public source for this benchmark only), on the same moves in one run, per regime: rest to
// rest, from a cruise, from any state inside the limits to a moving target, from beyond the
// limits, to a target accelerating, a fixed duration, from a cruise to a stop 20–200 away (most
// of them cruise at the limit on the way), and three axes synchronized in time. Each
// regime is 256 random moves, cycled. Build: configure with -DTRACTRIX_RUCKIG_SOURCE=<a checkout of
// Ruckig> (benchmarks/README.md, "Planning against Ruckig").
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <random>
#include <ruckig/ruckig.hpp>
#include <vector>

#include "tractrix/driving/jerk_trajectory.hpp"
#include "tractrix/driving/synced_trajectory.hpp"

namespace {

using namespace tractrix;

struct Move {
  JerkLimits<double> limits;
  AxisState<double> from;
  double target = 0, velocity = 0, duration = 0;  // duration: for the fixed-duration regime
  double acceleration = 0;                        // the target's
};

enum class Regime { rest, cruise, inside, beyond, fixed, accelerating, far };

std::vector<Move> moves(Regime regime) {
  std::mt19937_64 rng(46 + static_cast<int>(regime));
  std::uniform_real_distribution<double> unit(-1, 1), limit(0.1, 3);
  std::vector<Move> out;
  while (out.size() < 256) {
    Move m;
    m.limits = {limit(rng), limit(rng), limit(rng), limit(rng)};
    const JerkLimits<double>& l = m.limits;
    const double scale = regime == Regime::beyond ? 2.5 : 1;
    m.from = {unit(rng) * 2, unit(rng) * l.max_velocity * scale,
              unit(rng) * std::min(l.max_acceleration, l.max_deceleration) * scale};
    if (regime == Regime::rest) m.from.velocity = 0;
    if (regime == Regime::rest || regime == Regime::cruise || regime == Regime::far)
      m.from.acceleration = 0;
    const double natural =
        m.from.velocity + m.from.acceleration * std::abs(m.from.acceleration) / (2 * l.max_jerk);
    if (regime != Regime::beyond && std::abs(natural) > l.max_velocity) continue;
    m.target = m.from.position + unit(rng) * 5;
    if (regime == Regime::far)  // 20 to 200 away, either way: mostly a cruise at the limit
      m.target = m.from.position + (unit(rng) < 0 ? -1 : 1) * (110 + 90 * unit(rng));
    m.velocity = regime == Regime::rest || regime == Regime::cruise || regime == Regime::far
                     ? 0
                     : unit(rng) * l.max_velocity;
    if (regime == Regime::accelerating) {
      // A target reached from inside the limits: v* − a*|a*|/2J inside them.
      m.acceleration =
          -l.max_deceleration + (unit(rng) + 1) / 2 * (l.max_acceleration + l.max_deceleration);
      if (std::abs(m.velocity - m.acceleration * std::abs(m.acceleration) / (2 * l.max_jerk)) >
          l.max_velocity)
        continue;
    }
    if (regime == Regime::fixed) {
      const auto fastest = JerkTrajectory<double>::to_position(m.from, m.target, m.velocity, l);
      if (!fastest) continue;
      m.duration = fastest->duration() * 1.3;
      if (!JerkTrajectory<double>::to_position_in(m.duration, m.from, m.target, m.velocity, l))
        continue;  // a blocked duration: both planners would search past it
    }
    out.push_back(m);
  }
  return out;
}

void tractrix_plan(benchmark::State& state, Regime regime) {
  const std::vector<Move> all = moves(regime);
  std::size_t i = 0;
  for (auto _ : state) {
    const Move& m = all[i++ % all.size()];
    auto tr = regime == Regime::fixed
                  ? JerkTrajectory<double>::to_position_in(m.duration, m.from, m.target, m.velocity,
                                                           m.limits)
                  : JerkTrajectory<double>::to_position(
                        m.from, AxisState<double>{m.target, m.velocity, m.acceleration}, m.limits);
    benchmark::DoNotOptimize(tr);
  }
}

void ruckig_plan(benchmark::State& state, Regime regime) {
  const std::vector<Move> all = moves(regime);
  ruckig::Ruckig<1> otg;
  ruckig::InputParameter<1> input;
  ruckig::Trajectory<1> trajectory;
  std::size_t i = 0;
  for (auto _ : state) {
    const Move& m = all[i++ % all.size()];
    input.current_position = {m.from.position};
    input.current_velocity = {m.from.velocity};
    input.current_acceleration = {m.from.acceleration};
    input.target_position = {m.target};
    input.target_velocity = {m.velocity};
    input.target_acceleration = {m.acceleration};
    input.max_velocity = {m.limits.max_velocity};
    input.max_acceleration = {m.limits.max_acceleration};
    input.min_acceleration = std::array<double, 1>{-m.limits.max_deceleration};
    input.max_jerk = {m.limits.max_jerk};
    if (regime == Regime::fixed) input.minimum_duration = m.duration;
    benchmark::DoNotOptimize(otg.calculate(input, trajectory));
    benchmark::DoNotOptimize(trajectory);
  }
}

// Three axes from any state inside the limits, synchronized in time.
std::vector<std::array<Move, 3>> synced_moves() {
  const std::vector<Move> single = moves(Regime::inside);
  std::vector<std::array<Move, 3>> out;
  for (std::size_t i = 0; i + 2 < single.size(); i += 3)
    out.push_back({single[i], single[i + 1], single[i + 2]});
  return out;
}

void tractrix_synced(benchmark::State& state) {
  const auto all = synced_moves();
  std::size_t i = 0;
  std::vector<AxisState<double>> from(3);
  std::vector<double> target(3), velocity(3);
  std::vector<JerkLimits<double>> limits(3);
  for (auto _ : state) {
    const auto& m = all[i++ % all.size()];
    for (std::size_t k = 0; k < 3; ++k) {
      from[k] = m[k].from;
      target[k] = m[k].target;
      velocity[k] = m[k].velocity;
      limits[k] = m[k].limits;
    }
    auto tr = SyncedTrajectory<double>::to_position(from, target, velocity, limits);
    benchmark::DoNotOptimize(tr);
  }
}

void ruckig_synced(benchmark::State& state) {
  const auto all = synced_moves();
  ruckig::Ruckig<3> otg;
  ruckig::InputParameter<3> input;
  ruckig::Trajectory<3> trajectory;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& m = all[i++ % all.size()];
    for (std::size_t k = 0; k < 3; ++k) {
      input.current_position[k] = m[k].from.position;
      input.current_velocity[k] = m[k].from.velocity;
      input.current_acceleration[k] = m[k].from.acceleration;
      input.target_position[k] = m[k].target;
      input.target_velocity[k] = m[k].velocity;
      input.target_acceleration[k] = 0;
      input.max_velocity[k] = m[k].limits.max_velocity;
      input.max_acceleration[k] = m[k].limits.max_acceleration;
      input.max_jerk[k] = m[k].limits.max_jerk;
    }
    input.min_acceleration =
        std::array<double, 3>{-m[0].limits.max_deceleration, -m[1].limits.max_deceleration,
                              -m[2].limits.max_deceleration};
    benchmark::DoNotOptimize(otg.calculate(input, trajectory));
    benchmark::DoNotOptimize(trajectory);
  }
}

}  // namespace

BENCHMARK_CAPTURE(tractrix_plan, rest, Regime::rest);
BENCHMARK_CAPTURE(ruckig_plan, rest, Regime::rest);
BENCHMARK_CAPTURE(tractrix_plan, cruise, Regime::cruise);
BENCHMARK_CAPTURE(ruckig_plan, cruise, Regime::cruise);
BENCHMARK_CAPTURE(tractrix_plan, inside, Regime::inside);
BENCHMARK_CAPTURE(ruckig_plan, inside, Regime::inside);
BENCHMARK_CAPTURE(tractrix_plan, beyond, Regime::beyond);
BENCHMARK_CAPTURE(ruckig_plan, beyond, Regime::beyond);
BENCHMARK_CAPTURE(tractrix_plan, fixed, Regime::fixed);
BENCHMARK_CAPTURE(ruckig_plan, fixed, Regime::fixed);
BENCHMARK_CAPTURE(tractrix_plan, accelerating, Regime::accelerating);
BENCHMARK_CAPTURE(ruckig_plan, accelerating, Regime::accelerating);
BENCHMARK_CAPTURE(tractrix_plan, far, Regime::far);
BENCHMARK_CAPTURE(ruckig_plan, far, Regime::far);
BENCHMARK(tractrix_synced);
BENCHMARK(ruckig_synced);
BENCHMARK_MAIN();
