// The cone reader and stretchy IK, from hostile bytes.
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "tractrix/rig/pose_reader.hpp"
#include "tractrix/rig/stretch_ik.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tractrix;
  fuzz::Input in(data, size);
  PoseReaderSettings<double> settings;
  const PoseAxis axes[] = {PoseAxis::x,          PoseAxis::y,          PoseAxis::z,
                           PoseAxis::negative_x, PoseAxis::negative_y, PoseAxis::negative_z};
  const PoseFalloff falloffs[] = {PoseFalloff::linear,       PoseFalloff::smoothstep,
                                  PoseFalloff::smootherstep, PoseFalloff::ease_in,
                                  PoseFalloff::ease_out,     PoseFalloff::gaussian};
  settings.target_axis = axes[in.byte() % 6];
  settings.falloff = falloffs[in.byte() % 6];
  settings.cone = {in.number(), in.number()};
  if (in.flag()) settings.elliptical_y = ConeRange<double>{in.number(), in.number()};
  settings.reversed = in.flag();
  if (in.flag()) settings.twist = ConeRange<double>{in.number(), in.number()};
  if (auto reader = PoseReader<double>::build(settings)) {
    for (int q = 0; q < 4; ++q) {
      Eigen::Matrix3d a, b;
      for (int i = 0; i < 9; ++i)
        a(i / 3, i % 3) = in.number();
      for (int i = 0; i < 9; ++i)
        b(i / 3, i % 3) = in.number();
      const double w = reader->weight(a, b);
      fuzz::require(w >= 0 && w <= 1, "weight in [0, 1]");
    }
  }
  std::vector<double> bones(static_cast<std::size_t>(in.count(0, 5)));
  for (auto& b : bones)
    b = in.number();
  StretchSettings<double> stretch;
  stretch.max_stretch = in.flag() ? in.number() : std::numeric_limits<double>::infinity();
  stretch.soft = in.flag() ? in.number() : 0.0;
  stretch.squash = in.flag();
  auto chain = StretchChain<double>::build(bones, stretch);
  if (!chain) return 0;
  const double distance = in.number(), scale = in.number();
  const Vector3d root = in.vector(), goal = in.vector(), pole = in.vector();
  const double pose_scale = in.number();
  // The documented range: finite magnitudes within [1e-100, 1e100] (products and quotients of two
  // must fit); non-finite input has documented fallbacks. Beyond it, values may overflow.
  auto in_range = [](double x) {
    return !std::isfinite(x) || x == 0 || (std::abs(x) < 1e100 && std::abs(x) > 1e-100);
  };
  bool usable = in_range(distance) && in_range(scale) && in_range(pose_scale);
  for (double b : bones)
    usable = usable && in_range(b);
  for (const Vector3d* v : {&root, &goal, &pole})
    for (int i = 0; i < 3; ++i)
      usable = usable && in_range((*v)[i]);
  if (!usable) return 0;
  const auto global_scale = GlobalScale<double>::from(scale);
  if (global_scale)
    for (double l : chain->lengths(distance, *global_scale))
      // An infinite distance is beyond any reach: max_stretch's cap, itself infinite when the
      // stretch is unlimited.
      fuzz::require(l >= 0 && (std::isfinite(l) || (std::isinf(distance) && distance > 0)),
                    "bone length finite for a finite distance");
  const auto pose_global_scale = GlobalScale<double>::from(pose_scale);
  if (pose_global_scale) {  // any bone count: others than two are solved as two
    const auto pose = chain->two_bone(root, goal, pole, *pose_global_scale);
    fuzz::require(pose.knee.allFinite() && pose.end.allFinite() &&
                      pose.upper_rotation.allFinite() && pose.lower_rotation.allFinite(),
                  "two-bone finite");
  }
  return 0;
}
