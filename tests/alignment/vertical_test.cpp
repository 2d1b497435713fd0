// Vertical layouts against closed forms evaluated in long double by other formulas than the
// library's: the circle's explicit height and its angle by asin, the parabola's profile length
// by its antiderivative (g sqrt(1 + g²) + asinh g) / 2.
#include <cmath>
#include <string>
#include <vector>

#include "support/catch.hpp"
#include "tractrix/alignment/vertical.hpp"

using namespace tractrix;

namespace {

template <class S>
VerticalSegment<S> vertical(VerticalType type, double start, double length, double height,
                            double gs, double ge) {
  return VerticalSegment<S>{type, S(start), S(length), S(height), S(gs), S(ge)};
}

// A profile: 2 % up, a crest arc to −1.5 %, a sag parabola to +3 %, a constant 3 %, then a
// closing segment of length 0.
struct Reference {
  long double x0 = 1000, z0 = 52.5;
  long double arc_length = 800, parabola_length = 600, line_length = 300;
  long double g0 = 0.02L, g1 = -0.015L, g2 = 0.03L;
};

std::vector<VerticalSegment<double>> profile(const Reference& r) {
  // The arc's end height by the library-independent formula below.
  const long double sa = r.g0 / std::sqrt(1 + r.g0 * r.g0), ca = 1 / std::sqrt(1 + r.g0 * r.g0);
  const long double sb = r.g1 / std::sqrt(1 + r.g1 * r.g1);
  const long double R = r.arc_length / (sb - sa);
  const long double arc_end =
      r.z0 + R * ca -
      std::copysign(1.0L, R) * std::sqrt(R * R - std::pow(r.arc_length + R * sa, 2));
  const long double parabola_end =
      arc_end + r.g1 * r.parabola_length + (r.g2 - r.g1) * r.parabola_length / 2;
  const double x1 = double(r.x0 + r.arc_length),
               x2 = double(r.x0 + r.arc_length + r.parabola_length);
  return {
      vertical<double>(VerticalType::circular_arc, double(r.x0), double(r.arc_length), double(r.z0),
                       double(r.g0), double(r.g1)),
      vertical<double>(VerticalType::parabolic_arc, x1, double(r.parabola_length), double(arc_end),
                       double(r.g1), double(r.g2)),
      vertical<double>(VerticalType::constant_gradient, x2, double(r.line_length),
                       double(parabola_end), double(r.g2), double(r.g2)),
      vertical<double>(VerticalType::constant_gradient, x2 + double(r.line_length), 0,
                       double(parabola_end + r.g2 * r.line_length), double(r.g2), double(r.g2))};
}

}  // namespace

TEST_CASE("a vertical circular arc is a circle and its profile length is R times its turn",
          "[alignment]") {
  const Reference r;
  const auto layout = VerticalLayout<double>::build(profile(r));
  REQUIRE(layout);
  const long double sa = r.g0 / std::sqrt(1 + r.g0 * r.g0), ca = 1 / std::sqrt(1 + r.g0 * r.g0);
  const long double sb = r.g1 / std::sqrt(1 + r.g1 * r.g1);
  const long double R = r.arc_length / (sb - sa);
  CHECK(R < 0);  // a crest
  const long double cx = r.x0 - R * sa, cz = r.z0 + R * ca;
  for (int i = 0; i <= 200; ++i) {
    const long double t = r.arc_length * i / 200;
    const auto p = layout->at(double(r.x0 + t));
    CHECK(std::fabs(std::hypot(r.x0 + t - cx, p.height - cz) - std::fabs(R)) <= 1e-12L * 100);
    const long double z = cz - std::copysign(1.0L, R) * std::sqrt(R * R - std::pow(t + R * sa, 2));
    CHECK(std::fabs(p.height - z) <= 1e-12L * 100);
    const long double sine = sa + t / R, gradient = sine / std::sqrt(1 - sine * sine);
    CHECK(std::fabs(p.gradient - gradient) <= 1e-15L);
    if (i < 200)
      CHECK(p.curvature == Approx(double(1 / R)).epsilon(1e-14));  // at its end: the next
    const long double along = R * (std::asin(sine) - std::asin(sa));
    CHECK(std::fabs(layout->profile_length(double(r.x0 + t)) - along) <= 1e-12L * 800);
    CHECK(std::fabs(layout->distance_at_profile_length(double(along)) - (r.x0 + t)) <=
          1e-12L * 2000);
  }
}

TEST_CASE("a vertical parabola's gradient is linear and its profile length the antiderivative's",
          "[alignment]") {
  const Reference r;
  const auto layout = VerticalLayout<double>::build(profile(r));
  REQUIRE(layout);
  const auto& seg = layout->segment(1);
  const long double x1 = seg.start_distance, z1 = seg.start_height, X = r.parabola_length;
  const auto F = [](long double g) { return (g * std::sqrt(1 + g * g) + std::asinh(g)) / 2; };
  const long double before = layout->profile_length(double(x1));
  for (int i = 0; i <= 150; ++i) {
    const long double t = X * i / 150, g = r.g1 + (r.g2 - r.g1) * t / X;
    const auto p = layout->at(double(x1 + t));
    CHECK(std::fabs(p.height - (z1 + r.g1 * t + (r.g2 - r.g1) * t * t / (2 * X))) <= 1e-12L * 100);
    CHECK(std::fabs(p.gradient - g) <= 1e-16L);
    if (i < 150)
      CHECK(p.curvature == Approx(double((r.g2 - r.g1) / X / std::pow(1 + g * g, 1.5L))));
    const long double along = X / (r.g2 - r.g1) * (F(g) - F(r.g1));
    CHECK(std::fabs(layout->profile_length(double(x1 + t)) - before - along) <= 1e-12L * 2000);
    CHECK(std::fabs(layout->distance_at_profile_length(double(before + along)) - (x1 + t)) <=
          1e-12L * 2000);
  }
}

TEST_CASE("a vertical layout continues along its end gradients and is total", "[alignment]") {
  const Reference r;
  const auto layout = VerticalLayout<double>::build(profile(r));
  REQUIRE(layout);
  CHECK(layout->start_distance() == 1000.0);
  CHECK(layout->end_distance() == 2700.0);
  const auto before = layout->at(900.0);
  CHECK(before.height == Approx(52.5 - 100 * 0.02));
  CHECK(before.gradient == 0.02);
  const auto end = layout->at(2700.0);
  const auto after = layout->at(2800.0);
  CHECK(after.height == Approx(end.height + 100 * 0.03));
  CHECK(layout->profile_length(900.0) == Approx(-100 * std::sqrt(1 + 0.02 * 0.02)));
  CHECK(layout->distance_at_profile_length(-100 * std::sqrt(1 + 0.02 * 0.02)) == Approx(900.0));
  CHECK(std::isfinite(layout->at(std::nan("")).height));
  CHECK(std::isfinite(layout->profile_length(std::nan(""))));
  CHECK(std::isfinite(layout->distance_at_profile_length(std::nan(""))));
  // Float: the same profile to float's precision.
  std::vector<VerticalSegment<float>> floats;
  for (const auto& g : profile(r))
    floats.push_back({g.type, float(g.start_distance), float(g.horizontal_length),
                      float(g.start_height), float(g.start_gradient), float(g.end_gradient)});
  const auto f = VerticalLayout<float>::build(floats);
  REQUIRE(f);
  for (double x = 1000; x <= 2700; x += 17)
    CHECK(std::fabs(f->at(float(x)).height - layout->at(x).height) <= 1e-6 * 2700);
}

TEST_CASE("vertical layouts that do not continue, or bad attributes, are errors", "[alignment]") {
  const Reference r;
  auto segments = profile(r);
  segments[1].start_height += 0.01;
  auto result = VerticalLayout<double>::build(segments);
  REQUIRE(!result);
  CHECK(result.error().code == ErrorCode::not_continuous);
  CHECK(result.error().message.find("vertical segment 1 (PARABOLICARC) starts at height") == 0);
  segments = profile(r);
  segments[2].start_gradient = 0.031;
  segments[2].end_gradient = 0.031;
  result = VerticalLayout<double>::build(segments);
  REQUIRE(!result);
  CHECK(result.error().message.find("gradient break") != std::string::npos);
  // A break within the tolerance given passes; the next segment then starts below the steeper
  // line's end.
  result = VerticalLayout<double>::build(segments, VerticalTolerance{0, 0.01});
  REQUIRE(!result);
  CHECK(result.error().message.find("vertical segment 3 (CONSTANTGRADIENT) starts at height") == 0);
  segments = profile(r);
  segments[2].start_distance += 1;
  CHECK(VerticalLayout<double>::build(segments).error().message.find("starts at distance") !=
        std::string::npos);
  segments = profile(r);
  segments[0].end_gradient = segments[0].start_gradient;
  CHECK(VerticalLayout<double>::build({segments[0]}).error().code == ErrorCode::out_of_range);
  segments[0].horizontal_length = std::nan("");
  CHECK(VerticalLayout<double>::build({segments[0]}).error().code == ErrorCode::non_finite);
  CHECK(!VerticalLayout<double>::build({}));
}
