// Path + ArcLengthTable construction and every query, from hostile bytes.
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "tractrix/curve/arc_length.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tractrix;
  fuzz::Input in(data, size);
  const bool closed = in.flag();
  std::vector<Vector3d> points(static_cast<std::size_t>(in.count(0, 10)));
  for (auto& p : points)
    p = in.vector();
  const Closure closure = closed ? Closure::closed : Closure::open;
  auto path = in.flag() ? Path<double>::catmull_rom(points, closure)
                        : Path<double>::kochanek_bartels(
                              points, {in.number(), in.number(), in.number()}, closure);
  if (!path) return 0;
  const int samples = in.count(0, 40);
  auto table = ArcLengthTable<double>::build(
      *path, {samples, in.flag() ? ArcLengthMethod::chord : ArcLengthMethod::gauss_legendre});
  if (!table) return 0;
  const double length = table->length(), end = path->end_parameter();
  fuzz::require(std::isfinite(length) && length >= 0, "length finite");
  std::size_t cursor = 0;
  for (int q = 0; q < 8; ++q) {
    const double s = in.number();
    const double t = table->parameter_at_linear(s), e = table->parameter_at(s, cursor),
                 r = table->parameter_at(s);
    for (double v : {t, e, r})
      fuzz::require(std::isfinite(v) && v >= 0 && v <= end, "parameter in range");
    const double d = table->distance_at(in.number());
    fuzz::require(std::isfinite(d) && d >= 0 && d <= length * (1 + 1e-12), "distance in range");
    const auto pt = path->evaluate(in.number());
    fuzz::require(pt.point.allFinite() && pt.tangent.allFinite(), "evaluate finite");
    fuzz::require(path->unit_tangent(in.number()).allFinite(), "unit tangent finite");
  }
  return 0;
}
