// 06 — stretchy IK. A two-bone arm that stretches to reach past its length (up to a limit),
// solved under three global scales: the rig scales, the answer scales, nothing else changes.
#include <cstdio>

#include <tractrix/tractrix.hpp>

int main() {
  using namespace tractrix;
  StretchSettings<double> stretch;
  stretch.max_stretch = 1.5;
  const auto arm = StretchChain<double>::build({5, 5}, stretch);  // two bones of 5
  if (!arm) return std::printf("%s\n", arm.error().message.c_str()), 1;
  std::printf("stretchy arm (bones 5 + 5, max stretch 1.5): goal at 12 x scale\n");
  std::printf("%8s %10s %10s %26s %26s\n", "scale", "upper", "lower", "knee", "end");
  for (double value : {0.5, 1.0, 2.0}) {
    const auto scale = GlobalScale<double>::from(value);  // rejects 0, negative and NaN
    if (!scale) return std::printf("%s\n", scale.error().message.c_str()), 1;
    const Vector3d goal(12 * value, 0, 0), pole(0, 10 * value, 0);
    const TwoBonePose<double> pose = arm->two_bone(Vector3d::Zero(), goal, pole, *scale);
    std::printf("%8.2f %10.4f %10.4f   (%6.3f, %6.3f, %6.3f)   (%6.3f, %6.3f, %6.3f)\n", value,
                pose.upper_length / value, pose.lower_length / value, pose.knee.x(), pose.knee.y(),
                pose.knee.z(), pose.end.x(), pose.end.y(), pose.end.z());
  }
  std::printf("rest-space bone lengths are the same at every scale: 5 + (12 - 10)/2 = 6\n");

  // Within reach the arm bends towards the pole instead of stretching.
  const auto bent =
      arm->two_bone(Vector3d::Zero(), Vector3d(8, 0, 0), Vector3d(0, 10, 0), GlobalScale<double>());
  std::printf("goal at 8: knee at (%.4f, %.4f, %.4f), bones %.4f + %.4f\n", bent.knee.x(),
              bent.knee.y(), bent.knee.z(), bent.upper_length, bent.lower_length);
}
