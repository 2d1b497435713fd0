// 05 — a pose reader. A cone around a bone's rest direction gives a weight from 1 (at rest) to
// 0 (outside the cone), shaped by a falloff: what drives a corrective shape as an elbow bends.
#include <cstdio>

#include <tractrix/tractrix.hpp>

int main() {
  using namespace tractrix;
  PoseReaderSettings<double> settings;
  settings.cone = {0.3, 1.2};  // inner and outer angle, radians: full weight inside 0.3
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
    const Eigen::Matrix3d bent = Eigen::AngleAxisd(angle, Vector3d::UnitX()).toRotationMatrix();
    std::printf("%8.4f", angle);
    for (PoseFalloff f : falloffs) {
      settings.falloff = f;
      const auto reader = PoseReader<double>::build(settings);
      if (!reader) return std::printf("%s\n", reader.error().message.c_str()), 1;
      std::printf(" %12.6f", reader->weight(Eigen::Matrix3d::Identity(), bent));
    }
    std::printf("\n");
  }

  // An elliptical cone is asked for by name: here wider for tilts towards y than towards x.
  settings.falloff = PoseFalloff::linear;
  settings.elliptical_y = ConeRange<double>{0.6, 1.5};
  const auto ellipse = PoseReader<double>::build(settings);
  if (!ellipse) return std::printf("%s\n", ellipse.error().message.c_str()), 1;
  const Eigen::Matrix3d about_x = Eigen::AngleAxisd(0.75, Vector3d::UnitX()).toRotationMatrix();
  const Eigen::Matrix3d about_y = Eigen::AngleAxisd(0.75, Vector3d::UnitY()).toRotationMatrix();
  std::printf("elliptical cone, tilted 0.75 rad towards y: %.4f, towards x: %.4f\n",
              ellipse->weight(Eigen::Matrix3d::Identity(), about_x),
              ellipse->weight(Eigen::Matrix3d::Identity(), about_y));
}
