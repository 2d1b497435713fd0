// look_at, Euler angles and every up source (rail, roll, rotation-minimizing), from hostile bytes.
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "tractrix/frame/euler.hpp"
#include "tractrix/frame/up_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tractrix;
  fuzz::Input in(data, size);
  const Vector3d origin = in.vector();
  const Vector3d forward{in.number(), in.number(), in.number()};  // braces: evaluated in order
  const Vector3d hint{in.number(), in.number(), in.number()};
  const auto f = look_at(origin.allFinite() ? origin : Vector3d::Zero(), forward, hint);
  fuzz::require_frame(f);
  const Vector3d angles = euler_angles(f.rotation, EulerOrder::hpb);
  fuzz::require((from_euler(angles, EulerOrder::hpb) - f.rotation).norm() < 1e-9, "hpb round trip");

  std::vector<Vector3d> points(static_cast<std::size_t>(in.count(2, 7))), rail_points;
  for (auto& p : points)
    p = in.vector();
  for (const auto& p : points)
    rail_points.push_back(p + in.vector() / 100);
  const bool closed = in.flag();
  const Closure closure = closed ? Closure::closed : Closure::open;
  auto path =
      MeasuredPath<double>::build(Path<double>::catmull_rom(points, closure), {in.count(1, 16)});
  auto rail = MeasuredPath<double>::build(Path<double>::catmull_rom(rail_points, closure));
  if (!path || !rail) return 0;
  std::vector<UpSource<double>> sources;
  const Vector3d world_up = in.vector();
  if (auto s = UpSource<double>::world(world_up)) sources.push_back(*s);
  const auto match = in.flag() ? RailMatch::closest_point : RailMatch::normalized_arc_length;
  sources.push_back(*UpSource<double>::rail(*rail, match));
  const Vector3d initial_up = in.vector();
  if (auto s = UpSource<double>::rotation_minimizing(*path, initial_up)) sources.push_back(*s);
  std::vector<double> roll_distances{in.mostly_finite(), in.mostly_finite()};
  std::vector<double> roll_angles{in.number(), in.number()};
  if (auto roll =
          RollProfile<double>::build(roll_distances, roll_angles, closed ? path->length() : 0.0))
    if (!sources.empty()) sources.push_back(sources.back().with_roll(*roll));
  for (const auto& source : sources)
    for (int q = 0; q < 4; ++q)
      fuzz::require_frame(source.frame_at(*path, in.number()));
  return 0;
}
