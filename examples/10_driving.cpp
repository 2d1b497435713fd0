// 10 — driving a train. Speed limits from the line's curves and a slow zone, held until the last
// wagon has left; the fastest jerk-limited run under them with a station stop; replans when a
// restriction comes in and during the dwell (which it keeps). `10_driving plot.svg` plots them.
#include <cstdio>
#include <vector>

#include <tractrix/tractrix.hpp>
#include "speed_plot.hpp"

int main(int argc, char** argv) {
  using namespace tractrix;
  // About 2.2 km of line: a straight, an S-bend of ~100 m radius, a straight, another curve.
  const std::vector<Vector3d> keys{{0, 0, 0},      {400, 0, 0},    {600, 0, 60},   {700, 0, 220},
                                   {850, 0, 330},  {1300, 0, 350}, {1500, 0, 420}, {1520, 0, 560},
                                   {1400, 0, 700}, {1300, 0, 900}};
  const auto track = Track<double>::build(
      MeasuredPath<double>::build(Path<double>::catmull_rom(keys, Closure::open)));
  if (!track) return std::printf("%s\n", track.error().message.c_str()), 1;
  CurvatureLimits<double> curves;  // by name: 30 m/s line, 0.8 m/s² sideways, per 20 m section
  curves.max_velocity = 30, curves.lateral_acceleration = 0.8, curves.section_length = 20;
  // A 12 m/s bridge, a 150 m train; and_then passes any step's error on to the one check.
  auto limits_with = [&](const std::vector<SpeedZone<double>>& zones) {
    return SpeedLimits<double>::from_curvature(*track, curves)
        .and_then([&](const SpeedLimits<double>& line) { return line.with_zones(zones); })
        .and_then([](const SpeedLimits<double>& held) { return held.for_train(150); });
  };
  const auto limits = limits_with({{1000, 1150, 12}});
  if (!limits) return std::printf("%s\n", limits.error().message.c_str()), 1;
  const JerkLimits<double> motion{30, 0.7, 0.9, 0.4};  // m/s, m/s², m/s² braking, m/s³
  const std::vector<StationStop<double>> stations{{1600, 30}};
  const double length = track->length();
  const auto plan = SpeedPlan<double>::build(*limits, motion, {0, 0, 0}, length, stations);
  if (!plan) return std::printf("%s\n", plan.error().message.c_str()), 1;
  std::printf("line %.1f m, %zu limit sections, run %.1f s; at 600 m limit %.2f, speed %.2f\n",
              length, limits->size(), plan->duration(), limits->at(600),
              plan->at(plan->time_at(600)).velocity);
  const double arrival = plan->time_at(1600);
  std::printf("station at 1600 m: arrives %.2f s, at %.6f m, speed %.1f, leaves %.2f s\n", arrival,
              plan->at(arrival).position, plan->at(arrival).velocity, arrival + 30);
  // 10 s in, an 8 m/s restriction over 1800–1900 m: the replan keeps velocity and acceleration.
  const auto restricted = limits_with({{1000, 1150, 12}, {1800, 1900, 8}});
  if (!restricted) return std::printf("%s\n", restricted.error().message.c_str()), 1;
  const auto replan =
      SpeedPlan<double>::build(*restricted, motion, plan->state_at(10), length, stations);
  if (!replan) return std::printf("%s\n", replan.error().message.c_str()), 1;
  std::printf("replan at 10 s (v %.3f, a %.3f): continues v %.3f, a %.3f; %.1f s later\n",
              plan->at(10).velocity, plan->at(10).acceleration, replan->at(0).velocity,
              replan->at(0).acceleration, 10 + replan->duration() - plan->duration());
  // Replanned 10 s into the dwell, the train stands the 20 s left (dwell_left) before it goes.
  const auto at_station = SpeedPlan<double>::build(*restricted, motion,
                                                   {plan->state_at(arrival + 10), length, stations,
                                                    /* hold: */ plan->dwell_left(arrival + 10)});
  if (!at_station) return std::printf("%s\n", at_station.error().message.c_str()), 1;
  std::printf("replan 10 s into the dwell: stands %.1f s more (at %.3f m at 19.9 s)\n",
              at_station->dwell_left(0), at_station->at(19.9).position);
  if (argc > 1 && write_speed_plot(argv[1], {{&*restricted, "#e90"}, {&*limits, "#c33"}},
                                   {{&*replan, "#3a3"}, {&*plan, "#36c"}}))
    std::printf("wrote %s\n", argv[1]);
}
