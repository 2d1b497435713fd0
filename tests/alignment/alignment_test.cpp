// Alignments as tracks, against closed forms: trains on a circular arc (bogies on the circle,
// exactly apart), a clothoid's curvature linear in distance, a constant gradient's length, a
// vertical circle's curvature, the cant's bank angle in the frames and between the rail heads.
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "support/catch.hpp"
#include "support/reference_alignment.hpp"
#include "tractrix/alignment/alignment.hpp"
#include "tractrix/alignment/fitted_track.hpp"
#include "tractrix/camera/camera_rig.hpp"
#include "tractrix/driving/speed_limits.hpp"
#include "tractrix/network/route.hpp"
#include "tractrix/train/kinematics.hpp"
#include "tractrix/train/train_solver.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

template <class S>
HorizontalSegment<S> plan(HorizontalType type, double x, double y, double direction, double r0,
                          double r1, double length) {
  HorizontalSegment<S> g;
  g.type = type;
  g.start_point = Vector2<S>(S(x), S(y));
  g.start_direction = S(direction);
  g.start_radius = S(r0);
  g.end_radius = S(r1);
  g.length = S(length);
  return g;
}

// A straight of 100 m along +x from (2000, 3000), then a left arc of radius 500 for 600 m.
template <class S>
AlignmentLayouts<S> line_and_arc() {
  AlignmentLayouts<S> layouts;
  layouts.horizontal = {plan<S>(HorizontalType::line, 2000, 3000, 0, 0, 0, 100),
                        plan<S>(HorizontalType::circular_arc, 2100, 3000, 0, 500, 500, 600)};
  return layouts;
}

template <class S>
S tolerance(double relative) {
  return S(std::max(relative, 64.0 * double(std::numeric_limits<S>::epsilon())));
}

}  // namespace

TEMPLATE_TEST_CASE("a train on an arc of an alignment has its bogies on the circle, exactly apart",
                   "[alignment][train]", float, double) {
  using S = TestType;
  const auto alignment = Alignment<S>::build(line_and_arc<S>());
  REQUIRE(alignment);
  CHECK(alignment->length() == S(700));
  const std::vector<Wagon<S>> wagons{{S(20), S(14), S(1)}, {S(18), S(12)}, {S(18), S(12)}};
  const Vector3<S> centre(2100, 3500, 0);
  const S scale = S(3500) * tolerance<S>(1e-12);
  for (Spacing spacing : {Spacing::chord, Spacing::arc}) {
    const auto solver =
        *TrainSolver<S, Alignment<S>>::build(*alignment, wagons, {Wrap::clamp, spacing});
    for (S head : {S(200), S(455.5), S(699)}) {
      const auto poses = solver.solve(head);
      for (std::size_t i = 0; i < wagons.size(); ++i) {
        INFO("wagon " << i << " head " << head);
        const auto& pose = poses[i];
        CHECK(std::abs((pose.front.origin - centre).norm() - S(500)) <= scale);
        CHECK(std::abs((pose.rear.origin - centre).norm() - S(500)) <= scale);
        // Chord spacing: the bogie distance straight; arc spacing: the angle it subtends on R.
        const S chord = (pose.front.origin - pose.rear.origin).norm();
        const S expected = spacing == Spacing::chord
                               ? wagons[i].bogie_distance
                               : S(1000) * std::sin(wagons[i].bogie_distance / S(1000));
        CHECK(std::abs(chord - expected) <= scale);
        // Flat and uncanted: up is +z, forward the circle's tangent.
        CHECK(pose.front.up().z() >= S(1) - tolerance<S>(1e-15));
        const Vector3<S> radial = (pose.front.origin - centre).normalized();
        CHECK(std::abs(pose.front.forward().dot(radial)) <= S(16) * tolerance<S>(1e-15));
      }
    }
  }
}

TEST_CASE("an alignment's curvature is the plan's: a clothoid's is linear in distance",
          "[alignment]") {
  AlignmentLayouts<double> layouts;
  layouts.horizontal = {plan<double>(HorizontalType::clothoid, 10, 20, 0.3, 0, -400, 150)};
  const auto alignment = Alignment<double>::build(layouts);
  REQUIRE(alignment);
  Alignment<double>::Cursor cursor;
  for (int i = 0; i <= 30; ++i) {
    const double s = 5.0 * i;
    const auto at = alignment->sample(s, cursor);
    const Vector3d k = alignment->curvature_vector(at);
    CHECK(std::fabs(k.norm() - s / (400.0 * 150.0)) <= 1e-15);
    // Turning right: κN points to the right of the tangent.
    if (i > 0) CHECK(k.dot(Vector3d::UnitZ().cross(at.tangent)) < 0);
    CHECK(std::fabs(k.dot(at.tangent)) <= 1e-18);
  }
}

TEST_CASE("a constant gradient: the 3-D length, the heights and the stations both ways",
          "[alignment]") {
  auto layouts = line_and_arc<double>();
  layouts.vertical = {{VerticalType::constant_gradient, 0, 700, 12.5, 0.025, 0.025}};
  layouts.start_station = 1000;
  const auto alignment = Alignment<double>::build(layouts);
  REQUIRE(alignment);
  const double stretch = std::sqrt(1 + 0.025 * 0.025);
  CHECK(std::fabs(alignment->length() - 700 * stretch) <= 1e-12 * 700);
  Alignment<double>::Cursor cursor;
  for (double x : {0.0, 99.0, 100.0, 350.25, 700.0}) {
    const double s = alignment->length_at(x);
    CHECK(std::fabs(s - x * stretch) <= 1e-12 * 700);
    CHECK(std::fabs(alignment->horizontal_at(s) - x) <= 1e-12 * 700);
    const auto at = alignment->sample(s, cursor);
    CHECK(std::fabs(at.point.z() - (12.5 + 0.025 * x)) <= 1e-12 * 700);
    CHECK(std::fabs(at.tangent.z() - 0.025 / stretch) <= 1e-15);
    CHECK(alignment->station(at.horizontal_distance) == Approx(1000 + x));
  }
  // A train's bogies are their distance apart in 3-D.
  const std::vector<Wagon<double>> wagons{{20, 14}, {18, 12}};
  const auto solver = *TrainSolver<double, Alignment<double>>::build(*alignment, wagons, {});
  const auto poses = solver.solve(400.0);
  CHECK(std::fabs((poses[0].front.origin - poses[0].rear.origin).norm() - 14) <= 1e-9);
  CHECK(std::fabs((poses[1].front.origin - poses[1].rear.origin).norm() - 12) <= 1e-9);
}

TEST_CASE("a vertical arc under a straight: the alignment curves up by 1/R in a sag",
          "[alignment]") {
  AlignmentLayouts<double> layouts;
  layouts.horizontal = {plan<double>(HorizontalType::line, 0, 0, 1.0, 0, 0, 400)};
  // From −1 % to +1.5 % over 400 m: R = 400 / (sin θe − sin θs) > 0, a sag.
  layouts.vertical = {{VerticalType::circular_arc, 0, 400, 30, -0.01, 0.015}};
  const auto alignment = Alignment<double>::build(layouts);
  REQUIRE(alignment);
  const long double se = 0.015L / std::sqrt(1 + 0.015L * 0.015L),
                    ss = -0.01L / std::sqrt(1 + 0.01L * 0.01L);
  const long double R = 400 / (se - ss);
  // Its 3-D length is R times the turn.
  CHECK(std::fabs(alignment->length() - R * (std::asin(se) - std::asin(ss))) <= 1e-12L * 400);
  Alignment<double>::Cursor cursor;
  for (double s = 0; s < alignment->length(); s += 37) {
    const auto at = alignment->sample(s, cursor);
    const Vector3d k = alignment->curvature_vector(at);
    CHECK(std::fabs(k.norm() - 1 / R) <= 1e-14L / R);
    CHECK(k.dot(alignment->up_at(s, at)) > 0);  // toward the sky in a sag
  }
}

TEST_CASE("cant banks the frames by its angle and sets the rail heads apart by their distance",
          "[alignment]") {
  auto layouts = line_and_arc<double>();
  layouts.rail_head_distance = 1.5;
  // Ramp 0 → 120 mm on the right rail along the straight (the outer rail of the left arc), then
  // constant; the left rail is the pivot.
  layouts.cant = {{CantType::linear_transition, 0, 100, 0, 0, 0, 0.12},
                  {CantType::constant_cant, 100, 600, 0, 0, 0.12, 0.12}};
  const auto alignment = Alignment<double>::build(layouts);
  REQUIRE(alignment);
  CHECK(alignment->constant_up() == nullptr);
  const std::vector<Wagon<double>> wagons{{20, 14}};
  const auto solver = *TrainSolver<double, Alignment<double>>::build(*alignment, wagons, {});
  for (double head : {50.0, 300.0}) {
    const auto pose = solver.solve(head)[0];
    const double cant = head < 100 ? 0.12 * head / 100 : 0.12, bank = std::asin(cant / 1.5);
    // The front bogie's up leans left (toward the arc's centre) by the bank angle, about its
    // forward axis, from +z.
    const Vector3d left = Vector3d::UnitZ().cross(pose.front.forward()).normalized();
    CHECK(std::fabs(std::atan2(pose.front.up().dot(left), pose.front.up().z()) - bank) <= 1e-12);
    Alignment<double>::Cursor cursor;
    const auto at = alignment->sample(pose.front_distance, cursor);
    const auto rails = alignment->rail_heads(at);
    CHECK(std::fabs((rails.right - rails.left).norm() - 1.5) <= 1e-12);
    CHECK(std::fabs(rails.right.z() - rails.left.z() - cant) <= 1e-12);
    CHECK(rails.left.z() == at.point.z());  // the pivot
  }
}

TEST_CASE("an alignment's Viennese bend takes its bank from the cant: the BIM Fit Check's points",
          "[alignment]") {
  // buildingSMART Germany's BIM Fit Check atomic test set, VienneseBend TS1 and TS3 (the points
  // quoted in horizontal_test.cpp): 100 m from straight to R 300 and back, h = 1.8 m, the cant
  // ramping 0 → 100 mm (and back) on rails 1.5 m apart. Built here from a cant layout, as an
  // alignment reads it, not with the bank change given by hand.
  struct Case {
    double r0, r1, c0, c1, x100, y100;
  };
  for (const Case& c : {Case{0, 300, 0, 0.1, 99.7631986781913, 4.49991547594814},
                        Case{300, 0, 0.1, 0, 99.1273217104727, 12.1127676566252}}) {
    AlignmentLayouts<double> layouts;
    auto bend = plan<double>(HorizontalType::viennese_bend, 0, 0, 0, c.r0, c.r1, 100);
    bend.gravity_center_height = 1.8;
    layouts.horizontal = {bend};
    layouts.cant = {{CantType::viennese_bend, 0, 100, 0, 0, c.c0, c.c1}};
    const auto alignment = Alignment<double>::build(layouts);
    REQUIRE(alignment);
    const Vector2d end = alignment->horizontal().at(100.0).position;
    CHECK((end - Vector2d(c.x100, c.y100)).norm() <= 2e-13);
  }
  // The cant's own Viennese bend moves the bank angle by its shape: half way, half the bank.
  AlignmentLayouts<double> layouts;
  layouts.horizontal = {plan<double>(HorizontalType::line, 0, 0, 0, 0, 0, 100)};
  layouts.cant = {{CantType::viennese_bend, 0, 100, 0, 0, 0, 0.1}};
  CHECK(Alignment<double>::build(layouts)->cant_at(50.0).bank ==
        Approx(0.5 * std::asin(0.1 / 1.5)));
}

TEST_CASE("an alignment is total beyond its ends and names the layout that failed", "[alignment]") {
  const auto alignment = Alignment<double>::build(line_and_arc<double>());
  REQUIRE(alignment);
  Alignment<double>::Cursor cursor;
  const auto before = alignment->sample_extended(-10.0, cursor);
  CHECK((before.point - Vector3d(1990, 3000, 0)).norm() <= 1e-9);
  const auto clamped = alignment->sample(-10.0, cursor);
  CHECK((clamped.point - Vector3d(2000, 3000, 0)).norm() <= 1e-9);
  const auto nan = alignment->sample(std::nan(""), cursor);
  CHECK((nan.point - Vector3d(2000, 3000, 0)).norm() <= 1e-9);
  const auto end = alignment->sample(700.0, cursor);
  const auto past = alignment->sample_extended(705.0, cursor);
  CHECK((past.point - (end.point + 5 * end.tangent)).norm() <= 1e-9);
  CHECK(alignment->knot_distances() == std::vector<double>{0, 100});

  auto layouts = line_and_arc<double>();
  layouts.vertical = {{VerticalType::constant_gradient, 0, 700, 0, 0.01, 0.02}};
  auto result = Alignment<double>::build(layouts);
  REQUIRE(!result);
  CHECK(result.error().message.find("vertical segment 0 (CONSTANTGRADIENT)") == 0);
  layouts = line_and_arc<double>();
  layouts.cant = {{CantType::constant_cant, 0, 700, 0, 0, 0, 2}};
  result = Alignment<double>::build(layouts);
  REQUIRE(!result);
  CHECK(result.error().message.find("more than the rail head distance") != std::string::npos);
  layouts = line_and_arc<double>();
  layouts.horizontal[1].start_point.x() += 1;
  CHECK(Alignment<double>::build(layouts).error().code == ErrorCode::not_continuous);
}

TEST_CASE(
    "speed limits from cant: v = sqrt(g R (D + I) / b) on the arc, the line's on the straight",
    "[alignment][driving]") {
  auto layouts = line_and_arc<double>();
  layouts.rail_head_distance = 1.5;
  // A left arc: the right rail raised 120 mm all along the arc, none on the straight.
  layouts.cant = {{CantType::constant_cant, 0, 100, 0, 0, 0, 0},
                  {CantType::linear_transition, 100, 0, 0, 0, 0, 0.12},
                  {CantType::constant_cant, 100, 600, 0, 0, 0.12, 0.12}};
  const auto alignment = Alignment<double>::build(layouts);
  REQUIRE(alignment);
  CantLimits<double> cant;
  cant.max_velocity = 60;
  cant.cant_deficiency = 0.1;
  cant.section_length = 50;
  const auto limits = SpeedLimits<double>::from_cant(*alignment, cant);
  REQUIRE(limits);
  CHECK(limits->at(20.0) == 60.0);
  const double arc = std::sqrt(9.80665 * 500 * (0.12 + 0.1) / 1.5);  // 26.82 m/s
  CHECK(limits->at(400.0) == Approx(arc).epsilon(1e-14));
  // The section holding the arc's start already has it.
  CHECK(limits->at(110.0) == Approx(arc).epsilon(1e-14));
  // The same arc turning right under the same cant leans out: D = −0.12.
  layouts.horizontal[1].start_radius = layouts.horizontal[1].end_radius = -500;
  const auto wrong = Alignment<double>::build(layouts);
  REQUIRE(wrong);
  const auto error = SpeedLimits<double>::from_cant(*wrong, cant);
  REQUIRE(!error);
  CHECK(error.error().message.find("leans out of its curve") != std::string::npos);
  cant.cant_deficiency = 0.15;
  const auto outward = SpeedLimits<double>::from_cant(*wrong, cant);
  REQUIRE(outward);
  CHECK(outward->at(400.0) == Approx(std::sqrt(9.80665 * 500 * 0.03 / 1.5)).epsilon(1e-14));
  cant.cant_deficiency = -1;
  CHECK(!SpeedLimits<double>::from_cant(*alignment, cant));
}

TEST_CASE("the closest point on an alignment is the circle's and the line's, with the offset",
          "[alignment]") {
  auto layouts = line_and_arc<double>();
  layouts.vertical = {{VerticalType::constant_gradient, 0, 700, 5, 0.01, 0.01}};
  layouts.start_station = 2500;
  const auto alignment = Alignment<double>::build(layouts);
  REQUIRE(alignment);
  std::mt19937_64 rng(44);
  std::uniform_real_distribution<double> along(-20, 720), across(-60, 60), up(-5, 15);
  for (int i = 0; i < 400; ++i) {
    const double t = along(rng), side = across(rng);
    // A point `side` to the left of the line (t < 100) or of the arc at length t.
    Vector3d q;
    double x = 0, offset = 0;
    if (t < 100) {
      q = Vector3d(2000 + t, 3000 + side, up(rng));
      x = std::max(t, 0.0);
      offset = side;
    } else {
      const double angle = std::min(t - 100, 600.0) / 500;  // from the centre (2100, 3500)
      const double r = 500 - side;
      q = Vector3d(2100 + r * std::sin(angle), 3500 - r * std::cos(angle), up(rng));
      x = 100 + std::min(t - 100, 600.0);
      offset = side;
    }
    if (t > 700) continue;  // past the end the nearest point is the end, checked below
    const auto p = alignment->closest_point(q);
    INFO("t " << t << " side " << side);
    CHECK(std::fabs(p.horizontal_distance - x) <= 1e-9);
    CHECK(std::fabs(p.offset - offset) <= 1e-9);
    CHECK(std::fabs(p.station - (2500 + x)) <= 1e-9);
    CHECK(std::fabs(p.elevation - (q.z() - 5 - 0.01 * x)) <= 1e-9);
    CHECK(std::fabs(p.length - x * std::sqrt(1 + 1e-4)) <= 1e-9);
  }
  const auto before = alignment->closest_point(Vector3d(1980, 3003, 0));
  CHECK(before.horizontal_distance == 0.0);
  CHECK(before.offset == Approx(3));
}

TEST_CASE("the closest point on a chain of transitions is the long double brute force's",
          "[alignment]") {
  // Clothoid in, Bloss out, sine, Viennese bend: the reference samples each densely and
  // refines by golden sections in long double.
  std::vector<HorizontalSegment<double>> segments;
  long double x = 0, y = 0, direction = 0.4;
  const std::pair<HorizontalType, std::array<double, 3>> parts[] = {
      {HorizontalType::clothoid, {0, 250, 120}},
      {HorizontalType::bloss_curve, {250, -400, 90}},
      {HorizontalType::sine_curve, {-400, 0, 80}},
      {HorizontalType::viennese_bend, {0, 300, 100}}};
  std::vector<ReferenceHorizontal> references;
  std::vector<long double> starts;
  long double start = 0;
  for (const auto& [type, r] : parts) {
    segments.push_back(
        plan<double>(type, double(x), double(y), double(direction), r[0], r[1], r[2]));
    references.emplace_back(segments.back());
    starts.push_back(start);
    const auto end = references.back().position(r[2]);
    x = end[0];
    y = end[1];
    direction = references.back().direction(r[2]);
    start += r[2];
  }
  const auto layout = HorizontalLayout<double>::build(segments);
  REQUIRE(layout);
  const auto reference_at = [&](long double s) {
    std::size_t k = 0;
    while (k + 1 < starts.size() && starts[k + 1] <= s)
      ++k;
    return references[k].position(s - starts[k]);
  };
  // The reference's points every 0.1, once for every query.
  std::vector<std::array<long double, 2>> grid;
  for (int k = 0; k <= 3900; ++k)
    grid.push_back(reference_at(k * 0.1L));
  std::mt19937_64 rng(45);
  std::uniform_real_distribution<double> spread(-150, 450);
  for (int i = 0; i < 40; ++i) {
    const Vector2d q(spread(rng), spread(rng) * 0.5);
    const auto gap = [&](long double s) {
      const auto p = reference_at(s);
      return std::hypot(p[0] - q.x(), p[1] - q.y());
    };
    long double best_s = 0, best = gap(0);
    for (int k = 1; k <= 3900; ++k) {
      const long double g =
          std::hypot(grid[std::size_t(k)][0] - q.x(), grid[std::size_t(k)][1] - q.y());
      if (g < best) best = g, best_s = k * 0.1L;
    }
    long double a = std::max(0.0L, best_s - 0.1L), b = std::min(390.0L, best_s + 0.1L);
    for (int k = 0; k < 80; ++k) {  // golden sections
      const long double c = b - (b - a) * 0.6180339887L, d = a + (b - a) * 0.6180339887L;
      if (gap(c) < gap(d))
        b = d;
      else
        a = c;
    }
    const auto p = layout->closest_point(q);
    INFO("q " << q.transpose());
    const long double nearest = 0.5L * (a + b);
    CHECK(std::fabs((q - p.point).norm() - gap(nearest)) <= 1e-9);
    CHECK(std::fabs(p.distance - nearest) <= 1e-6);  // the distance is flat at a minimum
    if (nearest > 1e-6L && nearest < 390 - 1e-6L)    // not an end: q is straight across
      CHECK(std::fabs(std::fabs(p.offset) - gap(nearest)) <= 1e-9);
  }
}

TEST_CASE("train kinematics on an alignment's arc: every bogie at the head's speed, v^2 / R across",
          "[alignment][train]") {
  const auto alignment = Alignment<double>::build(line_and_arc<double>());
  REQUIRE(alignment);
  const std::vector<Wagon<double>> wagons{{20, 14}, {18, 12}, {18, 12}};
  for (Spacing spacing : {Spacing::arc, Spacing::chord}) {
    const auto solver =
        *TrainSolver<double, Alignment<double>>::build(*alignment, wagons, {Wrap::clamp, spacing});
    const auto poses = solver.solve(500.0);  // the whole train on the circle of radius 500
    std::vector<WagonMotion<double>> motion(wagons.size());
    train_kinematics(solver, poses.data(), 12.0, 0.5, motion.data());
    for (const auto& m : motion)
      for (const BogieMotion<double>* b : {&m.front, &m.rear}) {
        // On a circle both spacings move every bogie with the head (a rigid chord turns about
        // the centre): speed 12, tangential 0.5, lateral 144 / 500.
        CHECK(std::fabs(b->speed - 12) <= 1e-9);
        CHECK(std::fabs(b->tangential_acceleration - 0.5) <= 1e-9);
        CHECK(std::fabs(b->lateral_acceleration - 144.0 / 500) <= 1e-9);
      }
  }
}

TEST_CASE("an alignment's knots are where its plan or profile segments start, along the 3-D curve",
          "[alignment]") {
  auto layouts = line_and_arc<double>();
  // Two constant-gradient segments (the second starting at 300 along the horizontal).
  layouts.vertical = {{VerticalType::constant_gradient, 0, 300, 10, 0.02, 0.02},
                      {VerticalType::constant_gradient, 300, 400, 16, 0.02, 0.02}};
  const auto alignment = Alignment<double>::build(layouts);
  REQUIRE(alignment);
  const double stretch = std::sqrt(1 + 0.02 * 0.02);
  const auto knots = alignment->knot_distances();
  REQUIRE(knots.size() == 3);
  CHECK(knots[0] == 0.0);
  CHECK(std::fabs(knots[1] - 100 * stretch) <= 1e-12);
  CHECK(std::fabs(knots[2] - 300 * stretch) <= 1e-12);
}

TEST_CASE("banked up on a grade is perpendicular to the tangent and leans by the bank angle",
          "[alignment]") {
  auto layouts = line_and_arc<double>();
  layouts.vertical = {{VerticalType::constant_gradient, 0, 700, 10, 0.03, 0.03}};
  layouts.cant = {{CantType::constant_cant, 0, 700, 0, 0, 0.09, 0.09}};
  const auto alignment = Alignment<double>::build(layouts);
  REQUIRE(alignment);
  Alignment<double>::Cursor cursor;
  for (double s : {50.0, 350.0, 650.0}) {
    const auto at = alignment->sample(s, cursor);
    const Vector3d up = alignment->up_at(s, at);
    CHECK(std::fabs(up.norm() - 1) <= 1e-15);
    CHECK(std::fabs(up.dot(at.tangent)) <= 1e-15);
    // Unbanked, up would be +z made perpendicular to the tangent in its vertical plane.
    const Vector3d side = Vector3d::UnitZ().cross(at.tangent).normalized();
    const Vector3d level = at.tangent.cross(side);
    CHECK(std::fabs(std::atan2(up.dot(side), up.dot(level)) - std::asin(0.09 / 1.5)) <= 1e-15);
  }
}

TEST_CASE("float alignments: closest points, stations both ways, limits from cant", "[alignment]") {
  auto layouts = line_and_arc<float>();
  layouts.vertical = {{VerticalType::parabolic_arc, 0, 700, 5, 0.01f, -0.01f}};
  layouts.cant = {{CantType::constant_cant, 0, 700, 0, 0, 0.1f, 0.1f}};
  const auto alignment = Alignment<float>::build(layouts);
  REQUIRE(alignment);
  const float tolerance = 64 * 1.2e-7f * 3500;  // 64 float eps of the coordinates
  // A point 7 m left of the arc, 120 m into it.
  const double angle = 120.0 / 500;
  const Vector3f q(float(2100 + 493 * std::sin(angle)), float(3500 - 493 * std::cos(angle)), 20);
  const auto p = alignment->closest_point(q);
  CHECK(std::fabs(p.horizontal_distance - 220) <= tolerance);
  CHECK(std::fabs(p.offset - 7) <= tolerance);
  // The parabola's profile length, by its antiderivative in long double.
  const auto F = [](long double g) { return (g * std::sqrt(1 + g * g) + std::asinh(g)) / 2; };
  for (float x : {100.f, 350.f, 690.f}) {
    const long double g = 0.01L - 0.02L * x / 700;
    const long double along = 700 / -0.02L * (F(g) - F(0.01L));
    CHECK(std::fabs(alignment->length_at(x) - along) <= 1e-5L * 700);
    CHECK(std::fabs(alignment->horizontal_at(float(along)) - x) <= 1e-5f * 700);
  }
  CantLimits<float> cant;
  cant.max_velocity = 60, cant.cant_deficiency = 0.1f, cant.section_length = 50;
  const auto limits = SpeedLimits<float>::from_cant(*alignment, cant);
  REQUIRE(limits);
  CHECK(limits->at(400.f) == Approx(std::sqrt(9.80665 * 500 * 0.2 / 1.5)).epsilon(1e-5));
}

namespace {

// Each segment after the first starts where the one before ends, in its direction.
void chain_starts(std::vector<HorizontalSegment<double>>& plan) {
  for (std::size_t i = 1; i < plan.size(); ++i) {
    const auto end = HorizontalLayout<double>::build({plan[i - 1]})->at(plan[i - 1].length);
    plan[i].start_point = end.position;
    plan[i].start_direction = end.direction;
  }
}

// The largest distance of a track's points from an alignment (by the alignment's own closest
// point, found by a different search than the fit's), and the largest angle between their ups.
struct FitError {
  double distance = 0, up = 0;
};
FitError fit_error(const Track<double>& track, const Alignment<double>& alignment, int samples) {
  FitError worst;
  for (int i = 0; i <= samples; ++i) {
    const double d = track.length() * i / samples;
    const Frame<double> frame = track.frame_at(d);
    const auto near = alignment.closest_point(frame.origin);
    worst.distance = std::max(worst.distance, std::hypot(near.offset, near.elevation));
    Alignment<double>::Cursor cursor;
    const auto at = alignment.sample(near.length, cursor);
    const Vector3d up = alignment.up_at(near.length, at);
    worst.up = std::max(worst.up, std::acos(std::min(1.0, up.dot(frame.up()))));
  }
  return worst;
}

}  // namespace

TEST_CASE("an alignment fitted as a track stays within its tolerance, banked by its cant",
          "[alignment]") {
  AlignmentLayouts<double> layouts;
  layouts.horizontal = {plan<double>(HorizontalType::line, 5000, 8000, 0.4, 0, 0, 150),
                        plan<double>(HorizontalType::clothoid, 0, 0, 0, 0, 350, 90),
                        plan<double>(HorizontalType::circular_arc, 0, 0, 0, 350, 350, 200),
                        plan<double>(HorizontalType::bloss_curve, 0, 0, 0, 350, 0, 90),
                        plan<double>(HorizontalType::line, 0, 0, 0, 0, 0, 120)};
  chain_starts(layouts.horizontal);
  layouts.vertical = {{VerticalType::constant_gradient, 0, 200, 80, 0.012, 0.012},
                      {VerticalType::parabolic_arc, 200, 250, 82.4, 0.012, -0.008},
                      {VerticalType::constant_gradient, 450, 200, 82.9, -0.008, -0.008}};
  layouts.cant = {{CantType::constant_cant, 0, 150, 0, 0, 0, 0},
                  {CantType::linear_transition, 150, 90, 0, 0, 0, 0.1},
                  {CantType::constant_cant, 240, 200, 0, 0, 0.1, 0.1},
                  {CantType::bloss_curve, 440, 90, 0, 0, 0.1, 0},
                  {CantType::constant_cant, 530, 120, 0, 0, 0, 0}};
  const auto alignment = Alignment<double>::build(layouts);
  REQUIRE(alignment);
  for (double tolerance : {1e-6, 1e-4}) {
    TrackFit<double> fit;
    fit.tolerance = tolerance;
    fit.bank_tolerance = tolerance;
    const auto track = fitted_track(*alignment, fit);
    REQUIRE(track);
    CHECK(std::fabs(track->length() - alignment->length()) <= tolerance);
    const FitError error = fit_error(*track, *alignment, 2000);
    CHECK(error.distance <= tolerance);
    CHECK(error.up <= tolerance + 1e-9);  // plus the tangents' own difference
    CHECK(track->path().path().size() < (tolerance < 1e-5 ? 200u : 60u));
  }
  // Flat and without cant: up is +z everywhere, as the alignment's.
  layouts.vertical.clear();
  layouts.cant.clear();
  const auto flat = fitted_track(*Alignment<double>::build(layouts));
  REQUIRE(flat);
  CHECK(flat->up_source().is_constant());
  CHECK(fit_error(*flat, *Alignment<double>::build(layouts), 500).distance <= 1e-6);
  // Tolerances the coordinates cannot resolve, or not numbers, are refused.
  TrackFit<double> tight;
  tight.tolerance = 1e-13;
  CHECK(fitted_track(*alignment, tight).error().code == ErrorCode::out_of_range);
  tight.tolerance = std::nan("");
  CHECK(fitted_track(*alignment, tight).error().message.find("track fit: tolerance") == 0);
  // Float: to what float resolves at these coordinates (64 eps of ~9000).
  AlignmentLayouts<float> floats;
  for (const auto& g : layouts.horizontal)
    floats.horizontal.push_back(plan<float>(g.type, g.start_point.x(), g.start_point.y(),
                                            g.start_direction, g.start_radius, g.end_radius,
                                            g.length));
  const auto single = Alignment<float>::build(floats);
  REQUIRE(single);
  TrackFit<float> loose;  // (float resolves 64 eps of ~9000 = 0.07 at the least)
  loose.tolerance = 0.1f;
  const auto float_track = fitted_track(*single, loose);
  REQUIRE(float_track);
  CHECK(std::fabs(float_track->length() - single->length()) <= 0.1f);
  // Against the double alignment: within the tolerance plus float's rounding at ~9000.
  const auto exact = *Alignment<double>::build(layouts);
  for (int i = 0; i <= 200; ++i) {
    const float d = float_track->length() * float(i) / 200;
    const Vector3f p = float_track->frame_at(d).origin;
    const auto near = exact.closest_point(p.cast<double>());
    CHECK(std::hypot(near.offset, near.elevation) <= 0.1 + 4e-3);
    CHECK(std::fabs(near.length - double(d)) <= 0.1 + 4e-3);
  }
}

TEST_CASE("a turnout's diverging alignment joins a network, and a train takes it", "[alignment]") {
  // The main line along +x through a switch at x = 60; the diverging track leaves it there by a
  // clothoid into a right-hand arc of radius 190 (a 1:9-like turnout, bent).
  const auto build = [](std::vector<HorizontalSegment<double>> segments) {
    AlignmentLayouts<double> layouts;
    layouts.horizontal = std::move(segments);
    return *fitted_track(*Alignment<double>::build(layouts));
  };
  std::vector<HorizontalSegment<double>> turn{
      plan<double>(HorizontalType::clothoid, 60, 0, 0, 0, -190, 30),
      plan<double>(HorizontalType::circular_arc, 0, 0, 0, -190, -190, 60)};
  chain_starts(turn);
  std::vector<Track<double>> pieces{
      build({plan<double>(HorizontalType::line, 0, 0, 0, 0, 0, 60)}),
      build({plan<double>(HorizontalType::line, 60, 0, 0, 0, 0, 140)}), build(turn)};
  AlignmentLayouts<double> diverging;
  diverging.horizontal = turn;
  const auto reference = *Alignment<double>::build(diverging);
  const auto network =
      Network<double>::build(pieces, {{{0, End::end}, {1, End::start}, {2, End::start}}});
  REQUIRE(network);
  auto settings = network->default_settings();
  REQUIRE(!settings.set({2, End::start}));
  const auto route = Route<double>::follow(*network, settings, {0, Direction::forward});
  REQUIRE(route);
  CHECK(route->length() == Approx(60 + reference.length()).epsilon(1e-9));
  const auto train =
      TrainSolver<double, Route<double>>::build(*route, {{20, 14}, {20, 14}, {20, 14}}, {});
  REQUIRE(train);
  for (double head : {75.0, 110.0, 140.0}) {
    for (const auto& pose : train->solve(head)) {
      for (const Frame<double>* bogie : {&pose.front, &pose.rear}) {
        if (bogie->origin.x() < 60) {  // still on the main line before the switch
          CHECK(std::fabs(bogie->origin.y()) <= 1e-6);
          continue;
        }
        const auto near = reference.closest_point(bogie->origin);
        CHECK(std::fabs(near.offset) <= 1e-6);
      }
      CHECK((pose.front.origin - pose.rear.origin).norm() == Approx(14).epsilon(1e-9));
    }
  }
}

TEST_CASE("a camera follows a target along an alignment through its fitted path", "[alignment]") {
  // A chase camera keyed beside the line looks at a point running along the alignment's fitted
  // path in step with it: at every time its forward axis points at the alignment's point at the
  // same fraction of its length (to the fit's micrometre over the camera's 40 m).
  AlignmentLayouts<double> layouts;
  layouts.horizontal = {plan<double>(HorizontalType::clothoid, 100, 50, 0.2, 0, 300, 120),
                        plan<double>(HorizontalType::circular_arc, 0, 0, 0, 300, 300, 150)};
  chain_starts(layouts.horizontal);
  layouts.vertical = {{VerticalType::constant_gradient, 0, 270, 20, 0.01, 0.01}};
  const auto alignment = *Alignment<double>::build(layouts);
  const auto track = *fitted_track(alignment);
  const std::vector<CameraKey<double>> keys{
      {Vector3d(90, 80, 40)}, {Vector3d(200, 120, 45)}, {Vector3d(300, 200, 50)}};
  const auto rig = CameraRig<double>::build(keys, *TimeProfile<double>::constant(10.0));
  REQUIRE(rig);
  const auto chase = rig->look_at_path(track.path());
  for (double t : {0.0, 2.5, 5.0, 9.0}) {
    const CameraShot<double> shot = chase.at(t);
    Alignment<double>::Cursor cursor;
    const Vector3d target = alignment.sample(alignment.length() * t / 10.0, cursor).point;
    const Vector3d toward = (target - shot.frame.origin).normalized();
    CHECK(toward.dot(shot.frame.forward()) >= 1 - 1e-12);
  }
}
