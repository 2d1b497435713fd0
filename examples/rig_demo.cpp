// The rig helpers by eye: the cone reader's weight across a sweep of angles for every falloff,
// and a stretchy two-bone arm reaching for the same goal under three global scales.
#include <cstdio>

#include <tractrix/tractrix.hpp>

int main() {
  using namespace tractrix;
  PoseReaderSettings<double> settings;
  settings.cone = {0.3, 1.2};  // radians
  const char* names[] = {"linear", "smoothstep", "smootherstep", "ease_in", "ease_out", "gaussian"};
  const PoseFalloff falloffs[] = {PoseFalloff::linear,       PoseFalloff::smoothstep,
                                  PoseFalloff::smootherstep, PoseFalloff::ease_in,
                                  PoseFalloff::ease_out,     PoseFalloff::gaussian};
  std::printf("cone reader: inner 0.3 rad, outer 1.2 rad\n%8s", "angle");
  for (const char* name : names)
    std::printf(" %12s", name);
  std::printf("\n");
  for (int i = 0; i <= 16; ++i) {
    const double angle = 1.5 * i / 16;
    const Eigen::Matrix3d target = Eigen::AngleAxisd(angle, Vector3d::UnitX()).toRotationMatrix();
    std::printf("%8.4f", angle);
    for (PoseFalloff f : falloffs) {
      settings.falloff = f;
      std::printf(" %12.6f",
                  PoseReader<double>::build(settings)->weight(Eigen::Matrix3d::Identity(), target));
    }
    std::printf("\n");
  }

  StretchSettings<double> stretch;
  stretch.max_stretch = 1.5;
  const auto arm = *StretchChain<double>::build({5, 5}, stretch);  // the seed's two bones of 5
  std::printf("\nstretchy arm (bones 5 + 5, max stretch 1.5): goal at 12 x scale\n");
  std::printf("%8s %10s %10s %24s %24s\n", "scale", "upper", "lower", "knee", "end");
  for (double scale : {0.5, 1.0, 2.0}) {
    const Vector3d goal(12 * scale, 0, 0);
    const auto pose = arm.two_bone(Vector3d::Zero(), goal, Vector3d(0, 10 * scale, 0),
                                   *GlobalScale<double>::from(scale));
    std::printf("%8.2f %10.4f %10.4f   (%6.3f, %6.3f, %6.3f)   (%6.3f, %6.3f, %6.3f)\n", scale,
                pose.upper_length / scale, pose.lower_length / scale, pose.knee.x(), pose.knee.y(),
                pose.knee.z(), pose.end.x(), pose.end.y(), pose.end.z());
  }
  std::printf("rest-space bone lengths are the same at every scale: 5 + (12 - 10)/2 = 6\n");
}
