// 04 — speed profiles. The distance–time curves a camera or a train can follow, side by side,
// then a motion sample along a measured path driven by the jerk-limited one.
#include <cstdio>
#include <vector>

#include <tractrix/tractrix.hpp>

int main() {
  using namespace tractrix;
  // Normalized distance E(t) in [0, 1] over each profile's duration.
  struct Named {
    const char* name;
    Expected<TimeProfile<double>> profile;
  };
  Named profiles[] = {
      {"constant", TimeProfile<double>::constant(10)},
      {"sine", TimeProfile<double>::sine(10)},
      {"sine pieces", TimeProfile<double>::sine_pieces(10, ease_fractions(0.2, 0.8))},
      {"parabolic", TimeProfile<double>::parabolic(10, ease_fractions(0.3, 0.7))},
      // From limits (world units): the duration follows.
      {"trapezoidal", TimeProfile<double>::trapezoidal(200, 25, 5)},
      {"s-curve", TimeProfile<double>::s_curve(200, 25, 5, 4)},
      {"keyed", TimeProfile<double>::keyed({0, 3, 6, 10}, {0, 0.1, 0.8, 1})},
  };
  std::printf("%12s %9s %8s %8s %8s %8s %8s\n", "profile", "duration", "E(T/4)", "E(T/2)",
              "E(3T/4)", "E'(T/2)", "E''(0)");
  for (const Named& n : profiles) {
    if (!n.profile) return std::printf("%s: %s\n", n.name, n.profile.error().message.c_str()), 1;
    const TimeProfile<double>& p = *n.profile;
    const double T = p.duration();
    std::printf("%12s %9.4f %8.4f %8.4f %8.4f %8.4f %8.4f\n", n.name, T, p.at(T / 4).value,
                p.at(T / 2).value, p.at(3 * T / 4).value, p.at(T / 2).rate, p.at(0).acceleration);
  }

  // A point moving along a measured path with the s-curve: speed and acceleration split into the
  // part along the path and the part towards the centre of the curve.
  const auto path = MeasuredPath<double>::build(Path<double>::catmull_rom(
      {{0, 0, 0}, {60, 0, 0}, {100, 0, 40}, {100, 0, 120}}, Closure::open));
  if (!path) return std::printf("%s\n", path.error().message.c_str()), 1;
  const auto drive = TimeProfile<double>::s_curve(path->length(), 20, 4, 2);
  const auto up = UpSource<double>::world();
  if (!drive || !up) return 1;
  std::printf("\npath %.3f long, s-curve %.3f s\n%7s %9s %8s %8s %8s\n", path->length(),
              drive->duration(), "t", "s", "speed", "a_tan", "a_norm");
  for (int i = 0; i <= 8; ++i) {
    const double t = drive->duration() * i / 8;
    const MotionSample<double> m = sample(*path, *drive, t, *up);
    std::printf("%7.3f %9.3f %8.4f %8.4f %8.4f\n", t, m.distance, m.speed,
                m.tangential_acceleration.dot(m.tangent), m.normal_acceleration.norm());
  }
}
