// 08 — tractrix in a game: float, a loop authored around its own centre (the engine would place
// it 4096 units out), a head advanced every frame that never grows, and each wagon's body written
// straight into the engine's instance buffer as a column-major 4×4 matrix, centred between the
// bogies. Draws nothing; the buffer is what glDrawArraysInstanced would take (raylib's Matrix,
// declared row by row, takes PoseArray::matrices_row_major instead). Builds with engines' flags
// (-fno-exceptions -fno-rtti -Wfloat-equal ...).
#include <cmath>
#include <cstdio>
#include <vector>

#include <tractrix/tractrix.hpp>

// The engine's own per-instance record.
struct Instance {
  float model[16];  // column-major: rotation columns, then the position, last row 0 0 0 1
  unsigned color;
};

int main() {
  using namespace tractrix;
  // A curvy loop of ~530 units in track-local coordinates: float resolves 3e-5 units here, against
  // 5e-4 at 4096 units out. The engine's parent transform puts the centre where the level has it.
  const float pi = 3.14159265f;
  std::vector<Vector3<float>> keys;
  for (int k = 0; k < 24; ++k) {
    const float angle = 2 * pi * static_cast<float>(k) / 24;
    const float radius = 80 * (1 + 0.15f * std::sin(3 * angle));
    keys.emplace_back(radius * std::cos(angle), 4 * std::sin(2 * angle), radius * std::sin(angle));
  }
  const auto track = Track<float>::build(
      MeasuredPath<float>::build(Path<float>::catmull_rom(keys, Closure::closed)));
  if (!track) return std::printf("track: %s\n", track.error().message.c_str()), 1;
  // 20 wagons: length 10, bogies 7 apart, coupler 1 ahead of the front bogie.
  const auto train = TrainSolver<float>::build(*track, std::vector<Wagon<float>>(20, {10, 7, 1}),
                                               {Wrap::circular, Spacing::chord});
  if (!train) return std::printf("train: %s\n", train.error().message.c_str()), 1;

  std::vector<Instance> instances(20, Instance{{}, 0xffffffffu});
  WagonPoseArrays<float> out;
  out.body_centered =
      PoseArray<float>::matrices(instances[0].model, instances.size(), sizeof(Instance));
  out.axes = EngineAxes::tractrix();  // OpenGL / raylib: Y up, right-handed, models facing +Z
  if (auto error = out.error()) return std::printf("arrays: %s\n", error->message.c_str()), 1;

  // Ten minutes at 60 Hz and 24 units/s: the head stays in [0, length) and counts laps.
  HeadPosition<float> head(*track);
  for (int frame = 0; frame < 36000; ++frame) {
    head.advance(24.0f / 60.0f);
    train->solve(head.distance(), out);
    // Here an engine would upload `instances` and draw 20 wagons in one call.
  }
  const float* m = instances[0].model;
  std::printf("after 36000 frames: lap %lld, head %.3f of %.3f\n", head.lap(), head.distance(),
              track->length());
  std::printf("wagon 0 centre (%.3f, %.3f, %.3f), forward (%.3f, %.3f, %.3f)\n", m[12], m[13],
              m[14], m[8], m[9], m[10]);
  // 36000 · 0.4 = 14400 units travelled, whatever float's rounding of 0.4 per frame did.
  const double travelled = static_cast<double>(head.lap()) * track->length() + head.distance();
  std::printf("travelled %.2f units (exact: %.2f)\n", travelled, 36000.0 * double(24.0f / 60.0f));
}
