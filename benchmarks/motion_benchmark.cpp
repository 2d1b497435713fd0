// A motion sample (profile + exact arc length + derivatives + frame) per call, against a bare
// point + tangent evaluation at a parameter in the same run.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "track_family.hpp"
#include "tractrix/tractrix.hpp"

namespace {

using tractrix::Vector3d;

const tractrix::Path<double>& path() {
  static const auto p = [] {
    std::vector<Vector3d> keys;
    for (int k = 0; k < 64; ++k)
      keys.emplace_back(100 * std::cos(k * 0.1), 10 * std::sin(k * 0.3),
                        100 * std::sin(k * 0.1) + k);
    return *tractrix::Path<double>::catmull_rom(keys, tractrix::Closure::open);
  }();
  return p;
}

std::vector<double> times(double hi) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(0, hi);
  std::vector<double> v(4096);
  for (auto& x : v)
    x = u(rng);
  return v;
}

void BM_BareEvaluate(benchmark::State& state) {
  const auto ts = times(path().end_parameter());
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(path().evaluate(ts[i++ % 4096]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BareEvaluate);

void BM_MotionSample(benchmark::State& state) {
  const auto measured = *tractrix::MeasuredPath<double>::build(path());
  const auto profile =
      *tractrix::TimeProfile<double>::sine_pieces(10.0, tractrix::ease_fractions(0.2, 0.8));
  const auto up = *tractrix::UpSource<double>::world();
  const auto ts = times(10);
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(tractrix::sample(measured, profile, ts[i++ % 4096], up));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MotionSample);

// Building a jerk-limited S-curve (V = 10, A = 5, J = 10) per regime, by the distance: 100
// cruises at V; 15 meets at a peak that reaches A (A²/J = 2.5 <= v < 10); 1 meets below A. The
// trapezoid with the same V and A is the peer.
void BM_SCurveBuild(benchmark::State& state) {
  const double distances[] = {100, 15, 1};
  const double distance = distances[state.range(0)];
  for (auto _ : state) {
    auto profile = tractrix::TimeProfile<double>::s_curve(distance, 10, 5, 10);
    benchmark::DoNotOptimize(profile);
  }
  const char* regimes[] = {"cruise", "reaches A", "below A"};
  state.SetLabel(regimes[state.range(0)]);
}
BENCHMARK(BM_SCurveBuild)->DenseRange(0, 2);

void BM_TrapezoidBuild(benchmark::State& state) {
  for (auto _ : state) {
    auto profile = tractrix::TimeProfile<double>::trapezoidal(100, 10, 5);
    benchmark::DoNotOptimize(profile);
  }
}
BENCHMARK(BM_TrapezoidBuild);

// The jerk-limited planner beside the S-curve, V = 10, A = D = 5, J = 10: rest to rest by the
// S-curve's three distances (the same profile, planned from any state instead of in closed form
// for rest-to-rest), then 4096 random moves from moving states to moving targets, the same from
// states beyond the limits (braking first), fixed durations 1–3× the optimal, and velocity
// control.
struct JerkCase {
  tractrix::AxisState<double> from;
  double position, velocity, duration;
};
const tractrix::JerkLimits<double> jerk_limits{10, 5, 5, 10};

std::vector<JerkCase> jerk_cases(bool beyond_limits) {
  std::mt19937_64 rng(beyond_limits ? 12 : 11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<JerkCase> cases;
  while (cases.size() < 4096) {
    JerkCase c{{0, u(rng) * 10, u(rng) * 5}, u(rng) * 50, u(rng) * 10, 0};
    const double natural =
        c.from.velocity + c.from.acceleration * std::abs(c.from.acceleration) / 20;
    if (beyond_limits) {
      c.from.velocity *= 2;
      c.from.acceleration *= 2;
      if (std::abs(natural) <= 10 && std::abs(c.from.acceleration) <= 5) continue;
    } else if (std::abs(natural) > 10) {
      continue;
    }
    const auto fastest =
        tractrix::JerkTrajectory<double>::to_position(c.from, c.position, c.velocity, jerk_limits);
    c.duration = fastest->duration() * (1 + (u(rng) + 1));
    cases.push_back(c);
  }
  return cases;
}

void BM_JerkRestToRest(benchmark::State& state) {
  const double distances[] = {100, 15, 1};
  const double distance = distances[state.range(0)];
  for (auto _ : state) {
    auto trajectory =
        tractrix::JerkTrajectory<double>::to_position({0, 0, 0}, distance, 0, jerk_limits);
    benchmark::DoNotOptimize(trajectory);
  }
  const char* regimes[] = {"cruise", "reaches A", "below A"};
  state.SetLabel(regimes[state.range(0)]);
}
BENCHMARK(BM_JerkRestToRest)->DenseRange(0, 2);

void BM_JerkFromAnyState(benchmark::State& state) {
  const auto cases = jerk_cases(state.range(0) == 1);
  std::size_t i = 0;
  for (auto _ : state) {
    const JerkCase& c = cases[i++ % cases.size()];
    auto trajectory =
        tractrix::JerkTrajectory<double>::to_position(c.from, c.position, c.velocity, jerk_limits);
    benchmark::DoNotOptimize(trajectory);
  }
  state.SetLabel(state.range(0) == 1 ? "beyond the limits" : "inside the limits");
}
BENCHMARK(BM_JerkFromAnyState)->DenseRange(0, 1);

void BM_JerkFixedDuration(benchmark::State& state) {
  const auto cases = jerk_cases(false);
  std::size_t i = 0;
  for (auto _ : state) {
    const JerkCase& c = cases[i++ % cases.size()];
    auto trajectory = tractrix::JerkTrajectory<double>::to_position_in(
        c.duration, c.from, c.position, c.velocity, jerk_limits);
    benchmark::DoNotOptimize(trajectory);
  }
}
BENCHMARK(BM_JerkFixedDuration);

void BM_JerkVelocityControl(benchmark::State& state) {
  const auto cases = jerk_cases(false);
  std::size_t i = 0;
  for (auto _ : state) {
    const JerkCase& c = cases[i++ % cases.size()];
    auto trajectory =
        tractrix::JerkTrajectory<double>::to_velocity(c.from, c.velocity, jerk_limits);
    benchmark::DoNotOptimize(trajectory);
  }
}
BENCHMARK(BM_JerkVelocityControl);

// Sampling: a trajectory's state at a random time, and when it reaches a random position, beside
// the S-curve profile's sample.
void BM_JerkSample(benchmark::State& state) {
  const auto cases = jerk_cases(false);
  const auto trajectory = *tractrix::JerkTrajectory<double>::to_position(
      cases[0].from, cases[0].position, cases[0].velocity, jerk_limits);
  const auto ts = times(trajectory.duration());
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(trajectory.at(ts[i++ % 4096]));
}
BENCHMARK(BM_JerkSample);

void BM_SCurveSample(benchmark::State& state) {
  const auto profile = *tractrix::TimeProfile<double>::s_curve(15, 10, 5, 10);
  const auto ts = times(profile.duration());
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(profile.at(ts[i++ % 4096]));
}
BENCHMARK(BM_SCurveSample);

void BM_JerkTimeAt(benchmark::State& state) {
  const auto trajectory =
      *tractrix::JerkTrajectory<double>::to_position({0, -5, 3}, 40, 2, jerk_limits);
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u(-5, 40);
  std::vector<double> stations(4096);
  for (auto& x : stations)
    x = u(rng);
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(trajectory.time_at(stations[i++ % 4096]));
}
BENCHMARK(BM_JerkTimeAt);

// Speed plans. A 10⁴-segment wobbly loop (radius ~10 000, keys ~6 units apart) and the track
// family: limits from a lateral acceleration of 1 per 25-unit section (8 curvature samples
// each), lowered by 100 random zones and held for a 200-unit train; a run from 0 round the loop
// to a stop, through 10 stations. Motion: v 40, a 1, braking 1.2, jerk 0.5.
const tractrix::JerkLimits<double> train_motion{40, 1, 1.2, 0.5};

tractrix::Track<double> plan_track(int shape) {
  using namespace tractrix;
  if (shape < 0) {
    const int keys = 10000;
    std::vector<Vector3d> points;
    for (int k = 0; k < keys; ++k) {
      const double angle = 2 * 3.141592653589793 * k / keys;
      const double r = 10000 * (1 + 0.05 * std::sin(7 * angle) + 0.01 * std::sin(60 * angle));
      points.emplace_back(r * std::cos(angle), 30 * std::sin(5 * angle), r * std::sin(angle));
    }
    return *Track<double>::build(
        MeasuredPath<double>::build(*Path<double>::catmull_rom(points, Closure::closed)));
  }
  return *Track<double>::build(MeasuredPath<double>::build(
      tractrix::bench::track_path(tractrix::bench::track_shapes[static_cast<std::size_t>(shape)])));
}

std::string plan_label(int shape, const tractrix::Track<double>& track) {
  const std::string name =
      shape < 0 ? "wobbly 10^4"
                : tractrix::bench::name_of(
                      tractrix::bench::track_shapes[static_cast<std::size_t>(shape)]);
  return name + ", " + std::to_string(track.path().path().size()) + " segments";
}

tractrix::SpeedLimits<double> plan_limits(const tractrix::Track<double>& track) {
  using namespace tractrix;
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<SpeedZone<double>> zones;
  for (int z = 0; z < 100; ++z) {
    const double start = u(rng) * track.length();
    zones.push_back({start, start + 50 + 450 * u(rng), 10 + 25 * u(rng)});
  }
  CurvatureLimits<double> curves;
  curves.max_velocity = 40.0;
  curves.lateral_acceleration = 1.0;
  curves.section_length = 25.0;
  return *SpeedLimits<double>::from_curvature(track, curves)->with_zones(zones)->for_train(200);
}

std::vector<tractrix::StationStop<double>> plan_stations(double length) {
  std::vector<tractrix::StationStop<double>> stations;
  for (int k = 1; k <= 10; ++k)
    stations.push_back({length * k / 11, 30});
  return stations;
}

void plan_shapes(benchmark::internal::Benchmark* b) {
  b->Arg(-1);
  for (int shape : {0, 1, 2, 4, 5})
    b->Arg(shape);
}

void BM_SpeedLimitsBuild(benchmark::State& state) {
  const auto track = plan_track(static_cast<int>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(plan_limits(track));
  const auto limits = plan_limits(track);
  state.SetLabel(plan_label(static_cast<int>(state.range(0)), track) + ", " +
                 std::to_string(limits.size()) + " limit sections");
}
BENCHMARK(BM_SpeedLimitsBuild)->Apply(plan_shapes)->Unit(benchmark::kMillisecond);

void BM_SpeedPlanBuild(benchmark::State& state) {
  const auto track = plan_track(static_cast<int>(state.range(0)));
  const auto limits = plan_limits(track);
  const auto stations = plan_stations(track.length());
  for (auto _ : state)
    benchmark::DoNotOptimize(tractrix::SpeedPlan<double>::build(limits, train_motion, {0, 0, 0},
                                                                track.length(), stations));
  const auto plan = *tractrix::SpeedPlan<double>::build(limits, train_motion, {0, 0, 0},
                                                        track.length(), stations);
  state.SetLabel(plan_label(static_cast<int>(state.range(0)), track) + ", " +
                 std::to_string(plan.size()) + " moves");
}
BENCHMARK(BM_SpeedPlanBuild)->Apply(plan_shapes)->Unit(benchmark::kMillisecond);

void BM_SpeedPlanSample(benchmark::State& state) {
  const auto track = plan_track(static_cast<int>(state.range(0)));
  const auto plan = *tractrix::SpeedPlan<double>::build(
      plan_limits(track), train_motion, {0, 0, 0}, track.length(), plan_stations(track.length()));
  const auto ts = times(plan.duration());
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(plan.at(ts[i++ % 4096]));
  state.SetLabel(plan_label(static_cast<int>(state.range(0)), track));
}
BENCHMARK(BM_SpeedPlanSample)->Apply(plan_shapes);

}  // namespace

BENCHMARK_MAIN();
