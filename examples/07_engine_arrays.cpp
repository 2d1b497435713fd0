// 07 — engines' own arrays. Keys read straight from an engine's vector records, poses written
// straight into its transform records (position + quaternion x, y, z, w): no conversion loop.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <tractrix/tractrix.hpp>

// What an engine might have: its own float vector and transform types.
struct EngineVector {
  float x, y, z;
};
struct EngineTransform {
  float position[3];
  float rotation[4];  // x, y, z, w
  std::uint32_t entity;
};

int main() {
  using namespace tractrix;
  const std::vector<EngineVector> keys{{0, 0, 0}, {120, 0, 20}, {140, 4, 110}, {10, 2, 90}};
  // Keys in the engine's axes: set key_array.axes (and out.axes below) to EngineAxes::unity()
  // or another preset where the engine's differ from tractrix's (Y up, right-handed).
  const PointArray<float> key_array{&keys[0].x, keys.size(), sizeof(EngineVector)};
  const auto track = Track<double>::build(
      MeasuredPath<double>::build(Path<double>::catmull_rom(key_array, Closure::closed)));
  if (!track) return std::printf("%s\n", track.error().message.c_str()), 1;
  const auto train = TrainSolver<double>::build(*track, std::vector<Wagon<double>>(6, {14, 9}));
  if (!train) return std::printf("%s\n", train.error().message.c_str()), 1;

  std::vector<EngineTransform> bodies(6), bogies(6);
  for (std::uint32_t i = 0; i < 6; ++i)
    bodies[i].entity = bogies[i].entity = 100 + i;
  WagonPoseArrays<float> out;
  out.body_centered = {bodies[0].position, bodies.size(), sizeof(EngineTransform)};
  out.front = {bogies[0].position, bogies.size(), sizeof(EngineTransform)};
  if (auto error = out.error()) return std::printf("%s\n", error->message.c_str()), 1;
  for (int frame = 0; frame < 3; ++frame) {
    // Every frame: straight into the engine's records.
    const std::size_t written = train->solve(40.0 * frame, out);
    const EngineTransform& b = bodies[0];
    const float* q = b.rotation;
    std::printf(
        "frame %d: %zu wagons; entity %u: body at (%8.3f, %6.3f, %8.3f), rotation (%.4f, "
        "%.4f, %.4f, %.4f), |q| = %.5f\n",
        frame, written, b.entity, b.position[0], b.position[1], b.position[2], q[0], q[1], q[2],
        q[3], std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]));
  }
}
