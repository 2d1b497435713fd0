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

namespace {

// A vertical clothoid in long double, by other means than the library's: composite Simpson
// (extrapolated) of cos and sin of its quadratic heading, its length by bisection (the library
// sums exp(i·heading) series and solves its length by the Illinois method on Gauss–Legendre
// sums).
struct ClothoidReference {
  long double theta0, turn, ke, length = 0, ks = 0;

  long double heading(long double sigma) const {
    return theta0 + ks * sigma + (ke - ks) * sigma * sigma / (2 * length);
  }
  // (x, z) at sigma from the start: Simpson's rule on n intervals.
  std::array<long double, 2> simpson(long double sigma, int n) const {
    const long double h = sigma / n;
    long double x = 0, z = 0;
    for (int k = 0; k <= n; ++k) {
      const long double w = (k == 0 || k == n) ? 1 : (k % 2 == 1 ? 4 : 2);
      x += w * std::cos(heading(h * k));
      z += w * std::sin(heading(h * k));
    }
    return {x * h / 3, z * h / 3};
  }
  // ... and with its step halved, extrapolated (Boole's rule): an error of order h^6, far below
  // the tests' tolerances on the tightest clothoid here.
  std::array<long double, 2> point(long double sigma) const {
    const auto coarse = simpson(sigma, 1000), fine = simpson(sigma, 2000);
    return {(16 * fine[0] - coarse[0]) / 15, (16 * fine[1] - coarse[1]) / 15};
  }
  // Fits the length to a horizontal extent X: the shortest (the first of 1000 steps up to 2X
  // past X), by bisection.
  void fit(long double X) {
    long double low = X, high = X;
    do {
      low = high;
      high += X / 1000;
      length = high;
      ks = 2 * turn / length - ke;
    } while (point(length)[0] < X && high < 2 * X);
    for (int i = 0; i < 80; ++i) {
      length = (low + high) / 2;
      ks = 2 * turn / length - ke;
      (point(length)[0] < X ? low : high) = length;
    }
  }
  long double sigma_at(long double x) const {
    long double low = 0, high = length;
    for (int i = 0; i < 70; ++i) {
      const long double mid = (low + high) / 2;
      (point(mid)[0] < x ? low : high) = mid;
    }
    return (low + high) / 2;
  }
};

void check_vertical_clothoid(long double gs, long double ge, long double X, long double R) {
  ClothoidReference c{std::atan(gs), std::atan(ge) - std::atan(gs), R != 0 ? 1 / R : 0};
  c.fit(X);
  const long double x0 = 250, z0 = 40;
  VerticalSegment<double> g{
      VerticalType::clothoid, double(x0), double(X), double(z0), double(gs), double(ge), double(R)};
  const auto layout = VerticalLayout<double>::build({g});
  REQUIRE(layout);
  const long double before = layout->profile_length(double(x0));
  for (int i = 0; i <= 12; ++i) {
    const long double t = X * i / 12, sigma = c.sigma_at(t);
    const auto p = layout->at(double(x0 + t));
    CHECK(std::fabs(p.height - (z0 + c.point(sigma)[1])) <= 1e-12L * X);
    const long double slope = std::tan(c.heading(sigma));
    CHECK(std::fabs(p.gradient - slope) <= 1e-14L * (1 + slope * slope));  // 1e-14 of the angle
    CHECK(std::fabs(p.curvature - (c.ks + (c.ke - c.ks) * sigma / c.length)) <= 1e-14L / X);
    CHECK(std::fabs(layout->profile_length(double(x0 + t)) - before - sigma) <= 1e-12L * X);
    CHECK(std::fabs(layout->distance_at_profile_length(double(before + sigma)) - (x0 + t)) <=
          1e-12L * X);
  }
}

}  // namespace

TEST_CASE("a vertical clothoid's curvature is linear in its length, ending at its radius",
          "[alignment]") {
  // Into a sag of radius 8000 from −1 % to +0.5 %: its start curvature comes out 0, and X is the
  // extent of that clothoid (2 T R long).
  {
    ClothoidReference c{std::atan(-0.01L), std::atan(0.005L) - std::atan(-0.01L), 1 / 8000.0L};
    c.length = 2 * c.turn * 8000;
    c.ks = 0;
    const long double X = c.point(c.length)[0];
    check_vertical_clothoid(-0.01L, 0.005L, X, 8000);
    const auto layout = VerticalLayout<double>::build(
        {{VerticalType::clothoid, 0, double(X), 0, -0.01, 0.005, 8000}});
    REQUIRE(layout);
    CHECK(std::fabs(layout->at(0.0).curvature) <= 1e-15);
    CHECK(layout->profile_length(double(X)) == Approx(double(c.length)).epsilon(1e-14));
  }
  check_vertical_clothoid(0.03L, 0.01L, 150, 0);       // out of a crest to a gradient
  check_vertical_clothoid(0.02L, -0.01L, 200, -5000);  // crest to tighter crest
  check_vertical_clothoid(-0.04L, 0.03L, 300, 2500);   // curvature changing sign inside
  // Steep and near the fold where two lengths fit (R -38 fits one 149 long, R -37.5 only one
  // 159.5 long): the shortest is found.
  check_vertical_clothoid(0.0L, 0.2L, 100, -37.5L);
}

TEST_CASE("vertical clothoids chain with arcs and refuse what no clothoid joins", "[alignment]") {
  // A gradient, a clothoid into a sag arc of radius 6000, the arc: continuity checked by build.
  const double R = 6000, g0 = -0.012, turn_to = std::atan(g0) + 0.01;
  ClothoidReference c{std::atan(-0.012L), 0.01L, 1 / 6000.0L};
  c.length = 2 * c.turn * 6000;
  c.ks = 0;
  const auto end = c.point(c.length);
  const double g1 = std::tan(turn_to), x1 = 100 + double(end[0]);
  const double g2 = std::tan(std::asin(std::sin(turn_to) + 200 / R));  // the arc: radius R
  const auto layout = VerticalLayout<double>::build(
      {{VerticalType::constant_gradient, 0, 100, 20, g0, g0},
       {VerticalType::clothoid, 100, double(end[0]), 20 + 100 * g0, g0, g1, R},
       {VerticalType::circular_arc, x1, 200, 20 + 100 * g0 + double(end[1]), g1, g2}});
  REQUIRE(layout);
  CHECK(layout->at(x1 + 100).curvature == Approx(1 / R).epsilon(1e-9));
  // Float: the same clothoid to float's precision.
  const auto f = VerticalLayout<float>::build(
      {{VerticalType::clothoid, 100.f, float(end[0]), 18.8f, float(g0), float(g1), float(R)}});
  REQUIRE(f);
  CHECK(std::fabs(f->at(float(x1)).height - (18.8 + double(end[1]))) <= 1e-6 * 200);
  // A clothoid so sharp for its length that its gradient passes 50 on the way.
  const auto steep =
      VerticalLayout<double>::build({{VerticalType::clothoid, 0, 10, 0, 0, 1, -0.5}});
  REQUIRE(!steep);
  CHECK(steep.error().code == ErrorCode::out_of_range);
  CHECK(steep.error().message.find("vertical segment 0 (CLOTHOID): no clothoid") == 0);
  CHECK(steep.error().message.find("passing 50") != std::string::npos);
  // One that winds so tightly (R 0.001 over 100) that no length up to 64 X reaches X.
  const auto wound =
      VerticalLayout<double>::build({{VerticalType::clothoid, 0, 100, 0, 0, 0, 0.001}});
  REQUIRE(!wound);
  CHECK(wound.error().message.find("(none up to 64 times as long along itself)") !=
        std::string::npos);
  CHECK(VerticalLayout<double>::build({{VerticalType::clothoid, 0, 10, 0, 0, 0.1, std::nan("")}})
            .error()
            .code == ErrorCode::non_finite);
}
