// Track + TrainSolver construction and solve, from hostile bytes.
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "tractrix/train/kinematics.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tractrix;
  fuzz::Input in(data, size);
  const bool closed = in.flag();
  std::vector<Vector3d> points(static_cast<std::size_t>(in.count(2, 8)));
  for (auto& p : points)
    p = in.vector();
  auto path = MeasuredPath<double>::build(
      Path<double>::catmull_rom(points, closed ? Closure::closed : Closure::open),
      {in.count(1, 16)});
  auto track = Track<double>::build(std::move(path));
  if (!track) return 0;
  std::vector<Wagon<double>> wagons(static_cast<std::size_t>(in.count(0, 12)));
  for (auto& w : wagons)
    w = {in.mostly_finite() / 10, in.mostly_finite() / 10, in.byte() % 4 == 0 ? in.number() : 0.0};
  const Wrap wraps[] = {Wrap::automatic, Wrap::circular, Wrap::clamp, Wrap::extend};
  TrainOptions options{wraps[in.byte() % 4], in.flag() ? Spacing::arc : Spacing::chord};
  auto solver = TrainSolver<double>::build(*track, wagons, options);
  if (!solver) return 0;
  std::vector<WagonPose<double>> poses(wagons.size());
  std::vector<WagonMotion<double>> motions(wagons.size());
  for (int q = 0; q < 3; ++q) {
    solver->solve(in.number(), poses.data());
    for (const auto& p : poses) {
      fuzz::require_frame(p.front);
      fuzz::require_frame(p.rear);
      fuzz::require_frame(p.body);
      fuzz::require(std::isfinite(p.front_distance) && std::isfinite(p.rear_distance),
                    "distances finite");
      if (track->closed())
        fuzz::require(p.front_distance >= 0 && p.front_distance < track->length(),
                      "loop distance in range");
      if (options.wrap == Wrap::clamp || (options.wrap == Wrap::automatic && !track->closed()))
        fuzz::require(p.rear_distance >= 0 && p.front_distance <= track->length(),
                      "clamped distance in range");
    }
    // Finite speeds and accelerations below 1e100 give finite motion (κv² and s″v² fit).
    const double speed = in.mostly_finite(), acceleration = in.mostly_finite();
    if (!(std::abs(speed) < 1e100) || !(std::abs(acceleration) < 1e100)) continue;
    train_kinematics(*solver, poses.data(), speed, acceleration, motions.data());
    for (const auto& m : motions)
      fuzz::require(m.front.acceleration.allFinite() && m.rear.velocity.allFinite(),
                    "kinematics finite");
  }
  return 0;
}
