// 03 — a camera path. Keyed positions and view directions on a Hermite path ("where?"), a sine
// ease in and out ("when?"), then the same flight looking at a fixed point.
#include <cstdio>
#include <vector>

#include <tractrix/tractrix.hpp>

int main() {
  using namespace tractrix;
  const std::vector<CameraKey<double>> keys{{{0, 2, 0}, {1, 0, 0.3}},
                                            {{40, 4, 10}, {0.5, -0.1, 1}},
                                            {{50, 6, 50}, {-0.4, 0, 1}},
                                            {{10, 3, 70}, {-1, 0, -0.2}}};
  const double duration = 12;
  // Ease in over the first quarter of the duration, out over the last: fractions, not seconds.
  const auto profile = TimeProfile<double>::sine_pieces(duration, ease_fractions(0.25, 0.75));
  if (!profile) return std::printf("%s\n", profile.error().message.c_str()), 1;
  const auto rig = CameraRig<double>::build(keys, *profile);
  if (!rig) return std::printf("%s\n", rig.error().message.c_str()), 1;
  std::printf("path length %.3f units over %.0f s\n", rig->path().length(), duration);

  std::printf("%5s %26s %9s %26s %9s\n", "t", "position", "speed", "looking along", "a_normal");
  for (double t = 0; t <= duration; t += 1.5) {
    const CameraShot<double> shot = rig->at(t);
    const Vector3d& p = shot.motion.position;
    const Vector3d f = shot.frame.forward();
    std::printf("%5.1f  (%7.3f, %6.3f, %7.3f) %9.4f  (%6.3f, %6.3f, %6.3f) %9.4f\n", t, p.x(),
                p.y(), p.z(), shot.motion.speed, f.x(), f.y(), f.z(),
                shot.motion.normal_acceleration.norm());
  }

  // The same flight, always looking at the origin.
  const auto aimed = rig->look_at_point(Vector3d::Zero());
  const CameraShot<double> end = aimed.at(duration);
  std::printf("at the end, looking at the origin along (%.4f, %.4f, %.4f)\n",
              end.frame.forward().x(), end.frame.forward().y(), end.frame.forward().z());
}
