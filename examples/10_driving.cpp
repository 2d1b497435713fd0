// 10 — driving a train. Speed limits read from the line (its curves under a lateral-acceleration
// limit, a slow zone, held until the last wagon has left), the fastest jerk-limited run under
// them with a station stop, a replan when a restriction comes in; `10_driving plot.svg` plots it.
#include <cstdio>
#include <vector>

#include <tractrix/tractrix.hpp>

#include "speed_plot.hpp"

int main(int argc, char** argv) {
  using namespace tractrix;
  // About 2.2 km of line: a straight, an S-bend of ~150 m radius, a straight, a tighter curve.
  const auto track =
      Track<double>::build(MeasuredPath<double>::build(Path<double>::catmull_rom({{0, 0, 0},
                                                                                  {400, 0, 0},
                                                                                  {600, 0, 60},
                                                                                  {700, 0, 220},
                                                                                  {850, 0, 330},
                                                                                  {1300, 0, 350},
                                                                                  {1500, 0, 420},
                                                                                  {1520, 0, 560},
                                                                                  {1400, 0, 700},
                                                                                  {1300, 0, 900}},
                                                                                 Closure::open)));
  if (!track) return std::printf("%s\n", track.error().message.c_str()), 1;
  // 30 m/s line speed, 0.8 m/s² lateral (per 20 m section), a 12 m/s bridge, a 150 m train.
  auto limits_with = [&](const std::vector<SpeedZone<double>>& zones) {
    return SpeedLimits<double>::from_curvature(*track, 30.0, 0.8, 20.0)
        ->with_zones(zones)
        ->for_train(150);
  };
  const auto limits = limits_with({{1000, 1150, 12}});
  const JerkLimits<double> motion{30, 0.7, 0.9, 0.4};  // m/s, m/s², m/s² braking, m/s³
  const std::vector<StationStop<double>> stations{{1600, 30}};
  const double length = track->length();
  const auto plan = SpeedPlan<double>::build(*limits, motion, {0, 0, 0}, length, stations);
  if (!limits || !plan) return std::printf("no plan\n"), 1;
  std::printf("line %.1f m, %zu limit sections, run %.1f s\n%8s %8s %8s %8s\n", length,
              limits->size(), plan->duration(), "s (m)", "limit", "speed", "t (s)");
  for (double s = 0; s <= length; s += 200) {
    const double t = plan->time_at(s);
    std::printf("%8.0f %8.2f %8.2f %8.1f\n", s, limits->at(s), plan->at(t).velocity, t);
  }
  const double arrival = plan->time_at(1600);
  std::printf("station at 1600 m: arrives %.2f s, at %.6f m, speed %.1f, leaves %.2f s\n", arrival,
              plan->at(arrival).position, plan->at(arrival).velocity, arrival + 30);
  // 10 s in, still speeding up, an 8 m/s restriction over 1800–1900 m comes in: replan from the
  // state the train is in; position, velocity and acceleration carry over unchanged.
  const AxisState<double> now = plan->state_at(10);
  const auto replan = SpeedPlan<double>::build(*limits_with({{1000, 1150, 12}, {1800, 1900, 8}}),
                                               motion, now, length, stations);
  if (!replan) return std::printf("%s\n", replan.error().message.c_str()), 1;
  std::printf("replan at 10 s (v %.3f, a %.3f): continues v %.3f, a %.3f; %.1f s later\n",
              now.velocity, now.acceleration, replan->at(0).velocity, replan->at(0).acceleration,
              10 + replan->duration() - plan->duration());
  if (argc > 1 && write_speed_plot(argv[1], *limits, {{&*replan, "#3a3"}, {&*plan, "#36c"}}))
    std::printf("wrote %s\n", argv[1]);
}
