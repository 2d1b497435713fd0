// Time profiles, motion sampling and the camera rig, from hostile bytes.
#include <cmath>
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "tractrix/camera/camera_rig.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"
#include "tractrix/driving/speed_plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tractrix;
  fuzz::Input in(data, size);
  // Every value decoded in its own statement: argument evaluation order differs between compilers.
  double v[15];
  for (double& x : v)
    x = in.number();
  std::vector<Expected<TimeProfile<double>>> profiles;
  profiles.push_back(TimeProfile<double>::constant(v[0]));
  profiles.push_back(TimeProfile<double>::sine(v[1]));
  profiles.push_back(TimeProfile<double>::sine_pieces(v[2], ease_fractions(v[3], v[4])));
  profiles.push_back(TimeProfile<double>::parabolic(v[5], ease_fractions(v[6], v[7])));
  profiles.push_back(TimeProfile<double>::trapezoidal(v[8], v[9], v[10]));
  profiles.push_back(TimeProfile<double>::s_curve(v[11], v[12], v[13], v[14]));
  std::vector<double> times{0}, values{0};
  const int keys = in.count(0, 6);
  for (int k = 0; k < keys; ++k) {
    const double dt = in.number(), de = in.number();
    times.push_back(times.back() + dt);
    values.push_back(std::min(1.0, values.back() + de));
  }
  times.push_back(times.back() + in.mostly_finite());
  values.push_back(1);
  profiles.push_back(TimeProfile<double>::keyed(times, values));
  for (const auto& p : profiles) {
    if (!p) continue;
    for (int q = 0; q < 4; ++q) {
      const auto e = p->at(in.number());
      fuzz::require(e.value >= 0 && e.value <= 1 + 1e-12, "profile value in [0, 1]");
      fuzz::require(std::isfinite(e.rate) && std::isfinite(e.acceleration),
                    "profile derivatives finite");
    }
    // The first time E reaches a value: inside the move, and E there has reached it (up to E's
    // rounding, which is flat where the move arrives at rest).
    const double value = in.number();
    const double t = p->time_at(value);
    fuzz::require(t >= 0 && t <= p->duration(), "time_at within the duration");
    if (value > 0 && value <= 1) {
      fuzz::require(p->at(t).value >= value - 1e-9, "E at time_at reaches the value");
      // Not late: a little before it, E is still below the value.
      const double before = t - 1e-5 * p->duration();
      if (before > 0)
        fuzz::require(p->at(before).value <= value + 1e-9, "time_at is the first time");
    }
  }
  std::vector<CameraKey<double>> camera(static_cast<std::size_t>(in.count(0, 5)));
  for (auto& k : camera) {
    k.position = in.vector();
    if (in.flag()) k.view_direction = in.vector();
  }
  for (const auto& p : profiles) {
    if (!p) continue;
    CameraRigSettings<double> settings;
    settings.tangents = in.flag() ? CameraTangents::catmull_rom : CameraTangents::view_direction;
    settings.closure = in.flag() ? Closure::closed : Closure::open;
    auto rig = CameraRig<double>::build(camera, *p, settings);
    if (!rig) continue;
    // Speeds scale as length/T and accelerations as length/T²: finite whenever those are (the
    // documented range); beyond it the true value is not representable.
    const double length = rig->path().length(), duration = p->duration();
    const bool representable = length / (duration * duration) < 1e300 && length / duration < 1e300;
    for (int q = 0; q < 3; ++q) {
      const double time = in.number();
      const auto shot = rig->at(time);
      fuzz::require_frame(shot.frame);
      // The profile's own E'' can be far above 1/T² (a trapezoid's short ramp): its speed and
      // acceleration in world units must be representable too.
      const auto e = p->at(time);
      if (!representable || !(std::abs(e.acceleration * length) < 1e300) ||
          !(std::abs(e.rate * length) < 1e300))
        continue;
      fuzz::require(std::isfinite(shot.motion.speed) && std::isfinite(shot.motion.curvature) &&
                        shot.motion.tangential_acceleration.allFinite(),
                    "speed, curvature and tangential acceleration finite");
      // κ·ṡ² is finite wherever the true normal acceleration is representable.
      const double speed = shot.motion.speed;
      if (shot.motion.curvature * speed * speed < 1e300)
        fuzz::require(shot.motion.acceleration.allFinite(), "acceleration finite");
    }
  }
  // The jerk-limited planner from any state: built or refused, never NaN; where built, exact at
  // the end and finite everywhere.
  double w[9];
  for (double& x : w)
    x = in.mostly_finite();
  const JerkLimits<double> limits{std::abs(w[0]), std::abs(w[1]), std::abs(w[2]), std::abs(w[3])};
  const AxisState<double> from{w[4], w[5], w[6]};
  const int kind = in.count(0, 2);
  const auto trajectory = kind == 0 ? JerkTrajectory<double>::to_position(from, w[7], w[8], limits)
                          : kind == 1 ? JerkTrajectory<double>::to_velocity(from, w[8], limits)
                                      : JerkTrajectory<double>::to_position_in(
                                            in.mostly_finite(), from, w[7], w[8], limits);
  if (trajectory) {
    fuzz::require(std::isfinite(trajectory->duration()) && trajectory->duration() >= 0,
                  "trajectory duration finite");
    if (trajectory->duration() > 0) {
      const auto start = trajectory->at(0);
      // (An acceleration within the limits' rounding of zero may start as zero.)
      fuzz::require(start.position == from.position && start.velocity == from.velocity &&
                        std::abs(start.acceleration - from.acceleration) <=
                            1e-12 * (std::abs(from.acceleration) + limits.max_acceleration +
                                     limits.max_deceleration),
                    "trajectory starts on the start");
    }
    if (kind != 1) {
      const auto end = trajectory->at(trajectory->duration());
      fuzz::require(end.position == w[7] && end.velocity == w[8] && end.acceleration == 0,
                    "trajectory ends exactly on the target");
    }
    for (int q = 0; q < 4; ++q) {
      const double time = in.number();
      const auto s = trajectory->at(time);
      fuzz::require(
          std::isfinite(s.velocity) && std::isfinite(s.acceleration) && std::isfinite(s.jerk),
          "trajectory sample finite");
      // After the duration the axis moves on at the target velocity: its position overflows
      // only where the true one does.
      if (std::abs(time) * (1 + std::abs(trajectory->target().velocity)) < 1e300)
        fuzz::require(std::isfinite(s.position), "trajectory position finite");
    }
    const double t = trajectory->time_at(in.number());
    fuzz::require(!std::isnan(t) && t >= 0, "time_at not NaN, not negative");
  }
  // A speed plan from hostile zones, stations and start: built or refused; where built, it ends
  // on the end, never goes backwards and stays finite.
  auto line = SpeedLimits<double>::line(std::abs(in.mostly_finite()), std::abs(in.mostly_finite()));
  if (!line) return 0;
  std::vector<SpeedZone<double>> zones(static_cast<std::size_t>(in.count(0, 4)));
  for (auto& z : zones) {
    z.start = in.mostly_finite();
    z.end = in.mostly_finite();
    z.limit = in.mostly_finite();
  }
  auto zoned = line->with_zones(zones);
  if (!zoned) return 0;
  auto held = zoned->for_train(in.mostly_finite());
  if (!held) return 0;
  std::vector<StationStop<double>> stations(static_cast<std::size_t>(in.count(0, 3)));
  for (auto& st : stations) {
    st.position = in.mostly_finite();
    st.dwell = in.mostly_finite();
    st.arrival = in.mostly_finite();  // a timetable: any time, also negative or not finite
  }
  double p[4];
  for (double& x : p)
    x = in.mostly_finite();
  // (A velocity a hair below zero is a plan's own state at rest, to rounding: kept signed.)
  const double velocity = p[1] < 0 && p[1] > -1e-9 ? p[1] : std::abs(p[1]);
  const double end = std::abs(p[3]);
  const auto plan =
      SpeedPlan<double>::build(*held, limits, {std::abs(p[0]), velocity, p[2]}, end, stations);
  if (!plan) return 0;
  const auto check = [&](const SpeedPlan<double>& built) {
    fuzz::require(std::isfinite(built.duration()) && built.duration() >= 0, "plan duration finite");
    fuzz::require(built.at(built.duration()).position == end, "plan ends on the end");
    double previous = -1;
    for (int q = 0; q <= 16; ++q) {
      const auto s = built.at(built.duration() * q / 16);
      fuzz::require(std::isfinite(s.position) && std::isfinite(s.velocity), "plan sample finite");
      if (q > 0)
        fuzz::require(s.position >= previous - 1e-9 * (1 + std::abs(previous)),
                      "plan never goes backwards");
      previous = s.position;
    }
  };
  check(*plan);
  // A replan from the plan's own state, late in it as often as not: built or refused, and
  // where built, as sound.
  const double late = in.flag() ? 1 - std::ldexp(1.0, -in.count(1, 60)) : in.count(0, 64) / 64.0;
  const auto again = SpeedPlan<double>::build(
      *held, limits, plan->state_at(plan->duration() * late), end, stations);
  if (again) check(*again);
  return 0;
}
