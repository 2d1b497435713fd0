// Path + ArcLengthTable construction and every query, from hostile bytes.
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "tractrix/curve/arc_length.hpp"
#include "tractrix/curve/measured_path.hpp"

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
  const ArcLengthSettings settings{
      samples, in.flag() ? ArcLengthMethod::chord : ArcLengthMethod::gauss_legendre};
  // The measured path owns the table; where it is refused, the table alone is tried (both refuse
  // a zero-length path, so this is the table's own refusals and successes).
  auto measured = MeasuredPath<double>::build(*path, settings);
  auto table = measured ? Expected<ArcLengthTable<double>>(measured->table())
                        : ArcLengthTable<double>::build(*path, settings);
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
  // Closest points: in range, and never farther than any point of the path tried beside them.
  if (!measured) return 0;
  ClosestPointCursor<double> tracker;
  for (int q = 0; q < 4; ++q) {
    const Vector3d query = in.vector();
    for (const auto& got :
         {measured->closest_point(query), measured->closest_point(query, tracker)}) {
      if (!query.allFinite()) {
        fuzz::require(std::isnan(got.squared_distance), "non-finite query: NaN");
        continue;
      }
      fuzz::require(got.parameter >= 0 && got.parameter <= end, "closest parameter in range");
      fuzz::require(got.distance >= 0 && got.distance <= measured->length() * (1 + 1e-12),
                    "closest distance in range");
      if (!std::isfinite(got.squared_distance)) continue;  // overflowed: coordinates near 1e154
      // Points are found to the rounding of the coordinates: eps times their magnitude.
      const double slack =
          64 * detail::epsilon<double>() * (path->extent() + query.cwiseAbs().maxCoeff());
      for (int k = 0; k <= 16; ++k) {
        const double other = (path->point(end * k / 16) - query).squaredNorm();
        fuzz::require(got.squared_distance <= other + 2 * std::sqrt(other) * slack + slack * slack,
                      "closest is nearest");
      }
    }
  }
  // Measured against another length (a network's size, ArcLengthSettings::length_scale): refused
  // when not a finite length >= 0 or on a chord table; otherwise the same ranges hold.
  const double scale = in.number();
  const auto scaled = ArcLengthTable<double>::build(*path, {samples, settings.method, scale});
  fuzz::require(
      bool(scaled) == (scale == 0.0 || (scale > 0.0 && std::isfinite(scale) &&
                                        settings.method == ArcLengthMethod::gauss_legendre)),
      "length_scale refused exactly when invalid");
  if (!scaled) return 0;
  for (int q = 0; q < 4; ++q) {
    const double u = scaled->parameter_at(in.number()), d = scaled->distance_at(in.number());
    fuzz::require(std::isfinite(u) && u >= 0 && u <= end, "scaled parameter in range");
    fuzz::require(std::isfinite(d) && d >= 0 && d <= scaled->length() * (1 + 1e-12),
                  "scaled distance in range");
  }
  return 0;
}
