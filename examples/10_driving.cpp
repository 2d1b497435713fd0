// 10 — driving a train. Speed limits read from the line (its curves under a lateral-acceleration
// limit, a signed slow zone, held until the last wagon has left), the fastest jerk-limited run
// under them with a station stop, a replan when a new restriction comes in, and the planned
// speed plotted against the limits: `10_driving plot.svg` writes the plot.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <tractrix/tractrix.hpp>

int main(int argc, char** argv) {
  using namespace tractrix;
  // About 2.3 km of line: a straight, an S-bend of ~150 m radius, a straight, a tighter curve.
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
  const double length = track->length();
  // 30 m/s line speed, 0.8 m/s² lateral in curves (per 20 m section), a 12 m/s bridge, and a
  // 150 m train: each limit holds until its last wagon is off the section.
  const std::vector<SpeedZone<double>> zones{{1000, 1150, 12}};
  const auto limits = SpeedLimits<double>::from_curvature(*track, 30.0, 0.8, 20.0)
                          ->with_zones(zones)
                          ->for_train(150);
  if (!limits) return std::printf("%s\n", limits.error().message.c_str()), 1;
  const JerkLimits<double> motion{30, 0.7, 0.9, 0.4};  // m/s, m/s², m/s² braking, m/s³
  const std::vector<StationStop<double>> stations{{1600, 30}};
  const auto plan = SpeedPlan<double>::build(*limits, motion, {0, 0, 0}, length, stations);
  if (!plan) return std::printf("%s\n", plan.error().message.c_str()), 1;
  std::printf("line %.1f m, %zu limit sections; run %.1f s in %zu moves\n", length, limits->size(),
              plan->duration(), plan->size());
  std::printf("%8s %8s %8s %8s\n", "s (m)", "limit", "speed", "t (s)");
  for (double s = 0; s <= length; s += 200) {
    const double t = plan->time_at(s);
    std::printf("%8.0f %8.2f %8.2f %8.1f\n", s, limits->at(s), plan->at(t).velocity, t);
  }
  const double arrival = plan->time_at(1600);
  std::printf("station at 1600 m: arrives %.2f s, at %.6f m, speed %.1f, leaves %.2f s\n", arrival,
              plan->at(arrival).position, plan->at(arrival).velocity, arrival + 30);

  // A temporary restriction (8 m/s over 1800–1900 m) comes in 10 s into the run, while the train
  // is still speeding up: replan from the
  // state it is in. Position, velocity and acceleration carry over unchanged.
  std::vector<SpeedZone<double>> restricted = zones;
  restricted.push_back({1800, 1900, 8});
  const auto new_limits = SpeedLimits<double>::from_curvature(*track, 30.0, 0.8, 20.0)
                              ->with_zones(restricted)
                              ->for_train(150);
  const AxisState<double> now = plan->state_at(10);
  const auto replan = SpeedPlan<double>::build(*new_limits, motion, now, length, stations);
  if (!replan) return std::printf("%s\n", replan.error().message.c_str()), 1;
  const AxisSample<double> joined = replan->at(0);
  std::printf(
      "replan at 10 s (s %.1f m, v %.3f, a %.3f): continues v %.3f, a %.3f; arrives "
      "%.1f s later than planned\n",
      now.position, now.velocity, now.acceleration, joined.velocity, joined.acceleration,
      10 + replan->duration() - plan->duration());

  if (argc < 2) return 0;
  // Speed against distance: the limits (for the train's head) as steps, the plan as a curve.
  std::FILE* out = std::fopen(argv[1], "w");
  if (!out) return std::printf("cannot write %s\n", argv[1]), 1;
  const double width = 900, height = 300, top = 32;
  auto x = [&](double s) { return 40 + s / length * (width - 60); };
  auto y = [&](double v) { return height - 30 - v / 32 * (height - 30 - top); };
  std::fprintf(out,
               "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
               "font-family='sans-serif' font-size='12'>\n<rect width='100%%' height='100%%' "
               "fill='white'/>\n",
               width, height);
  std::fprintf(out,
               "<text x='40' y='18'>speed (m/s) along the line (m): limit for the head "
               "(red), planned (blue), replanned after a restriction (green)</text>\n");
  for (int v = 0; v <= 30; v += 10)
    std::fprintf(out,
                 "<line x1='40' x2='%.0f' y1='%.1f' y2='%.1f' stroke='#ddd'/><text x='8' "
                 "y='%.1f'>%d</text>\n",
                 width - 20, y(v), y(v), y(v) + 4, v);
  for (double s = 0; s <= length; s += 500)
    std::fprintf(out, "<text x='%.1f' y='%.0f'>%.0f</text>\n", x(s) - 10, height - 10, s);
  std::fprintf(out, "<polyline fill='none' stroke='#c33' stroke-width='1.5' points='");
  for (std::size_t i = 0; i < limits->size(); ++i)
    std::fprintf(out, "%.1f,%.1f %.1f,%.1f ", x(limits->start(i)), y(limits->limit(i)),
                 x(limits->end(i)), y(limits->limit(i)));
  std::fprintf(out, "'/>\n");
  auto curve = [&](const SpeedPlan<double>& p, const char* colour) {
    std::fprintf(out, "<polyline fill='none' stroke='%s' stroke-width='2' points='", colour);
    for (int k = 0; k <= 2000; ++k) {
      const AxisSample<double> s = p.at(p.duration() * k / 2000);
      std::fprintf(out, "%.1f,%.1f ", x(s.position), y(s.velocity));
    }
    std::fprintf(out, "'/>\n");
  };
  curve(*replan, "#3a3");
  curve(*plan, "#36c");
  std::fprintf(out, "</svg>\n");
  std::fclose(out);
  std::printf("wrote %s\n", argv[1]);
}
