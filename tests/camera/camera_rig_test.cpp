#include <cmath>
#include <limits>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/camera/camera_rig.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {
// A curve with very uneven parametric speed: keys bunched at one end, tangents of mixed size.
MeasuredPath<double> uneven_path() {
  const std::vector<Vector3d> points{
      {0, 0, 0}, {1, 0, 0.2}, {1.5, 0.3, 0.4}, {30, 2, 10}, {60, 0, -5}};
  const std::vector<Vector3d> tangents{
      {0.2, 0, 0}, {0.8, 0.1, 0.2}, {3, 0.5, 1}, {40, 0, 10}, {5, -1, -20}};
  return *MeasuredPath<double>::build(
      Path<double, 3>::from_hermite_keys(points, tangents, Closure::open));
}
}  // namespace

TEST_CASE("constant-speed sampling is constant speed on an uneven curve", "[motion][sample]") {
  const auto path = uneven_path();
  const auto profile = *TimeProfile<double>::constant(10.0);
  const auto up = *UpSource<double>::world();
  const double target = path.length() / 10.0;
  // Speed measured independently: central differences of sampled positions; h = 1e-6 s keeps the
  // chord-vs-arc error (v·h·κ)²/24 negligible even in the curve's tight bend.
  const double h = 1e-6;
  double worst = 0, integral = 0;
  const int samples = 10000;
  for (int i = 0; i < samples; ++i) {
    const double t = 10.0 * (i + 0.5) / samples;
    const auto a = sample(path, profile, t - h, up), b = sample(path, profile, t + h, up);
    worst = std::max(worst, std::abs((b.position - a.position).norm() / (2 * h) / target - 1));
    integral += sample(path, profile, t, up).speed * (10.0 / samples);  // midpoint rule
  }
  INFO("worst relative speed error " << worst);
  CHECK(worst <= 1e-6);
  // ∫ ṡ dt = length, and the end position at T is the path's end, exactly.
  CHECK(std::abs(integral - path.length()) <= 1e-9 * path.length());
  CHECK(sample(path, profile, 10.0, up).position ==
        path.path().segment(path.path().size() - 1).points[3]);
}

TEST_CASE("velocity and acceleration are exact and split into tangential and normal parts",
          "[motion][sample]") {
  const auto path = uneven_path();
  const auto up = *UpSource<double>::world();
  for (const auto& profile : {*TimeProfile<double>::sine(6.0),
                              *TimeProfile<double>::parabolic(6.0, ease_fractions(0.3, 0.6))}) {
    for (int i = 1; i < 60; ++i) {
      const double t = 6.0 * i / 60 + 0.0123;
      const auto m = sample(path, profile, t, up);
      const double h = 1e-4;
      const auto a = sample(path, profile, t - h, up), b = sample(path, profile, t + h, up);
      const Vector3d velocity = (b.position - a.position) / (2 * h);
      const Vector3d acceleration = (b.position - 2 * m.position + a.position) / (h * h);
      const double scale = m.acceleration.norm() + m.velocity.norm() + 1;
      CHECK((velocity - m.velocity).norm() <= 1e-6 * scale);
      CHECK((acceleration - m.acceleration).norm() <= 1e-3 * scale);
      // a_n ⟂ v (1e-12 relative); with the difference check on a, that pins the split.
      CHECK(std::abs(m.normal_acceleration.dot(m.velocity)) <= 1e-12 * scale * scale);
      CHECK(m.frame.forward().cross(m.tangent).norm() <= 1e-12);
    }
  }
  // Conversions round-trip: parameter → distance → normalized → parameter.
  for (double t : {0.0, 0.7, 2.2, 3.9}) {
    const double f = path.distance_at(t) / path.length();
    CHECK(std::abs(path.parameter_at(f * path.length()) - t) <= 1e-10);
  }
}

TEST_CASE("the normal acceleration is finite wherever its true value is", "[motion][sample]") {
  // y = x²/L over x in [-L, L] as one cubic Bézier (the quadratic (-L, L), (0, -L), (L, L)
  // raised to degree 3); at its vertex, half-way along, κ = 2/L along +y. With L = 1e150 and
  // ṡ = 1e200, ṡ² overflows but κṡ² = 2e250 does not.
  const double L = 1e150, speed = 1e200;
  const Bezier<double, 3, 3> b{{Vector3d(-L, L, 0), Vector3d(-L / 3, -L / 3, 0),
                                Vector3d(L / 3, -L / 3, 0), Vector3d(L, L, 0)}};
  const auto path =
      *MeasuredPath<double>::build(Path<double, 3>::from_segments({b}, Closure::open));
  const auto up = *UpSource<double>::world(Vector3d::UnitZ());
  const auto m = sample_at_distance(path, path.length() / 2, speed, 0.0, up);
  CHECK(m.normal_acceleration.allFinite());
  CHECK(m.acceleration.allFinite());
  CHECK(std::abs(m.normal_acceleration.y() / 2e250 - 1) <= 1e-9);
  CHECK(std::abs(m.normal_acceleration.x()) <= 1e-6 * 2e250);
}

TEST_CASE("cameras look along keyed directions, or where the path goes", "[motion][camera]") {
  const auto profile = *TimeProfile<double>::sine(8.0);
  // Keys with view directions: met exactly at the keys.
  const std::vector<CameraKey<double>> keys{{{0, 2, 0}, {1, 0, 0}},
                                            {{20, 3, 5}, {0.6, 0, 0.8}},
                                            {{30, 2, 25}, {0, -0.2, 1}},
                                            {{25, 5, 40}, {-1, 0, 0.2}}};
  // Directions of any finite length: 1e200 overflowed their norm (tangents of 0, the path bent
  // 2.7 units off), 1e-200 underflowed it (taken as no direction).
  for (const double length : {1.0, 1e200, 1e-200}) {
    std::vector<CameraKey<double>> scaled = keys;
    for (auto& key : scaled)
      key.view_direction *= length;
    const auto rig = *CameraRig<double>::build(scaled, profile);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const double distance = rig.path().distance_at(static_cast<double>(k));
      // The time at which the sine profile reaches this key: invert E(t) = s/L by bisection.
      double lo = 0, hi = 8;
      for (int i = 0; i < 200; ++i) {
        const double mid = (lo + hi) / 2;
        (profile.at(mid).value * rig.path().length() < distance ? lo : hi) = mid;
      }
      const auto shot = rig.at(lo);
      INFO("directions of length " << length << ", key " << k);
      CHECK(shot.frame.forward().cross(keys[k].view_direction.normalized()).norm() <= 1e-6);
      CHECK(shot.frame.forward().dot(keys[k].view_direction) > 0);
      // The path through the keys' positions, its tangent there along the keyed direction.
      CHECK((rig.path().path().evaluate(static_cast<double>(k)).point - keys[k].position).norm() <=
            1e-12 * 50);
      CHECK(rig.path()
                .path()
                .evaluate(static_cast<double>(k))
                .tangent.normalized()
                .dot(keys[k].view_direction.normalized()) >= 1 - 1e-12);
      // Its length: the mean of the chords beside the key (the one chord at an end).
      const double before = k > 0 ? (keys[k].position - keys[k - 1].position).norm() : 0;
      const double after =
          k + 1 < keys.size() ? (keys[k + 1].position - keys[k].position).norm() : 0;
      const double chords = (before + after) / ((k > 0) + (k + 1 < keys.size()));
      CHECK(std::abs(rig.path().path().evaluate(static_cast<double>(k)).tangent.norm() - chords) <=
            1e-12 * chords);
    }
  }
  const auto rig = *CameraRig<double>::build(keys, profile);
  // Between keys the view turns by slerp in the segment's parameter: halfway through a segment
  // it looks along the bisector of the two keys' directions.
  for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
    const double distance = rig.path().distance_at(static_cast<double>(k) + 0.5);
    double lo = 0, hi = 8;
    for (int i = 0; i < 200; ++i) {
      const double mid = (lo + hi) / 2;
      (profile.at(mid).value * rig.path().length() < distance ? lo : hi) = mid;
    }
    const Vector3d bisector =
        (keys[k].view_direction.normalized() + keys[k + 1].view_direction.normalized())
            .normalized();
    INFO("segment " << k);
    CHECK(rig.at(lo).frame.forward().dot(bisector) >= 1 - 1e-9);
  }
  // Positions only: the camera looks where the path goes.
  std::vector<CameraKey<double>> positions;
  for (const auto& k : keys)
    positions.push_back({k.position, Vector3d::Zero()});
  CameraRigSettings<double> catmull_rom;
  catmull_rom.tangents = CameraTangents::catmull_rom;
  const auto plain = *CameraRig<double>::build(positions, profile, catmull_rom);
  for (double t = 0.1; t < 8; t += 0.37) {
    const auto shot = plain.at(t);
    CHECK(shot.frame.forward().dot(shot.motion.tangent) > 0.7);
  }
  // Kochanek–Bartels shape: tension 1 stops the path at every key (zero tangent there).
  CameraRigSettings<double> tension = catmull_rom;
  tension.shape = KochanekBartels<double>{1, 0, 0};
  const auto tight = *CameraRig<double>::build(positions, profile, tension);
  CHECK(tight.path().path().evaluate(1.0).tangent.norm() <= 1e-12);
  CHECK(plain.path().path().evaluate(1.0).tangent.norm() > 1);
  // A look-at target wins over the keyed directions.
  const auto aimed = rig.look_at_point(Vector3d(10, 0, 10));
  const auto shot = aimed.at(3.0);
  CHECK(shot.frame.forward()
            .cross((Vector3d(10, 0, 10) - shot.motion.position).normalized())
            .norm() <= 1e-12);
}

TEST_CASE("a key without a view direction keeps the spline's tangent", "[motion][camera]") {
  const auto profile = *TimeProfile<double>::constant(4.0);
  const std::vector<CameraKey<double>> keys{
      {{0, 2, 0}, {1, 0, 0}}, {{20, 3, 5}, Vector3d::Zero()}, {{30, 2, 25}, {0, -0.2, 1}}};
  const auto rig = *CameraRig<double>::build(keys, profile);
  // Kochanek–Bartels with no tension, bias or continuity is Catmull–Rom: at an inner key, half
  // the difference of its neighbours.
  const Vector3d catmull_rom = (keys[2].position - keys[0].position) / 2;
  CHECK((rig.path().path().evaluate(1.0).tangent - catmull_rom).norm() <=
        1e-12 * catmull_rom.norm());
  // The keyed ones are still the keyed directions, at the mean chord beside the key.
  const Vector3d first = rig.path().path().evaluate(0.0).tangent;
  CHECK((first - Vector3d(1, 0, 0) * (keys[1].position - keys[0].position).norm()).norm() <=
        1e-12 * first.norm());
}

TEST_CASE("between opposite view directions the camera turns through look_at's fallback",
          "[motion][camera]") {
  // Up, then down, along a path in x: no plane to turn in, so the view is the straight blend
  // (1 − u)·a + u·b — along a before the middle of the segment and along b after it.
  const auto profile = *TimeProfile<double>::constant(4.0);
  const std::vector<CameraKey<double>> keys{{{0, 0, 0}, {0, 0, 1}}, {{10, 0, 0}, {0, 0, -1}}};
  const auto rig = *CameraRig<double>::build(keys, profile);
  int before = 0, after = 0;
  for (double t = 0.05; t < 4; t += 0.1) {
    const auto shot = rig.at(t);
    const double u = shot.motion.parameter;
    INFO("t " << t << ", u " << u);
    if (u < 0.45) {
      CHECK(shot.frame.forward().z() >= 1 - 1e-12);
      ++before;
    } else if (u > 0.55) {
      CHECK(shot.frame.forward().z() <= -1 + 1e-12);
      ++after;
    }
  }
  CHECK(before >= 10);
  CHECK(after >= 10);
}

TEST_CASE("a camera can follow a target moving along a second path", "[motion][camera]") {
  const auto profile = *TimeProfile<double>::sine(5.0);
  const std::vector<CameraKey<double>> keys{{{0, 5, 0}}, {{30, 5, 10}}, {{60, 5, 0}}};
  const auto target = *MeasuredPath<double>::build(
      Path<double, 3>::from_hermite_keys({Vector3d(0, 0, 40), Vector3d(60, 0, 40)},
                                         {Vector3d(60, 0, 0), Vector3d(60, 0, 0)}, Closure::open));
  const auto rig = CameraRig<double>::build(keys, profile)->look_at_path(target);
  for (double t = 0; t <= 5.0; t += 0.25) {
    // The target sits at the same fraction of its straight path (length 60) as E(t).
    const Vector3d expected = Vector3d(60 * profile.at(t).value, 0, 40);
    const auto shot = rig.at(t);
    CHECK(shot.frame.forward().cross((expected - shot.motion.position).normalized()).norm() <=
          1e-9);
  }
}

TEST_CASE("a camera driven laps round a closed path starts its look-at path again each lap",
          "[motion][camera][jerk]") {
  const std::vector<CameraKey<double>> keys{
      {{10, 2, 0}}, {{0, 2, 10}}, {{-10, 2, 0}}, {{0, 2, -10}}};
  CameraRigSettings<double> settings;
  settings.closure = Closure::closed;
  const auto target = *MeasuredPath<double>::build(
      Path<double, 3>::from_hermite_keys({Vector3d(0, 0, 40), Vector3d(60, 0, 40)},
                                         {Vector3d(60, 0, 0), Vector3d(60, 0, 0)}, Closure::open));
  const auto rig = CameraRig<double>::build(keys, *TimeProfile<double>::constant(1.0), settings)
                       ->look_at_path(target);
  const double length = rig.path().length();
  // One and a half laps, coming to rest half way round the second: the target stands half way
  // along its straight path (length 60), not held at its end as the first lap left it.
  const auto move = *JerkTrajectory<double>::to_position({0, 0, 0}, 1.5 * length, 0, {8, 4, 6, 10});
  const CameraShot<double> end = rig.at(move, move.duration());
  REQUIRE(std::abs(end.motion.distance - 1.5 * length) <= 1e-12 * length);
  const Vector3d expected = Vector3d(30, 0, 40) - end.motion.position;
  CHECK(end.frame.forward().cross(expected.normalized()).norm() <= 1e-12);
  // Whole laps end where the target's path ends, as the profile-driven camera does.
  for (double laps : {1.0, 2.0}) {
    const auto round =
        *JerkTrajectory<double>::to_position({0, 0, 0}, laps * length, 0, {8, 4, 6, 10});
    const CameraShot<double> last = rig.at(round, round.duration());
    INFO(laps << " laps");
    CHECK(last.frame.forward()
              .cross((Vector3d(60, 0, 40) - last.motion.position).normalized())
              .norm() <= 1e-12);
  }
}

TEST_CASE("bad camera input is rejected, degenerate paths stay finite",
          "[motion][camera][errors]") {
  const auto profile = *TimeProfile<double>::constant(1.0);
  CHECK(CameraRig<double>::build({{{0, 0, 0}}}, profile).error().code == ErrorCode::too_few_points);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(CameraRig<double>::build({{{0, 0, 0}}, {{nan, 0, 0}}}, profile).error().message ==
        "camera key 1: non-finite");
  CHECK(CameraRig<double>::build({{{1, 1, 1}}, {{1, 1, 1}}}, profile).error().code ==
        ErrorCode::out_of_range);
  // A cusp in the path: finite outputs everywhere.
  const auto cusp = *MeasuredPath<double>::build(
      Path<double, 3>::from_segments({Bezier<double, 3, 3>{{Vector3d(0, 0, 0), Vector3d(1, 1, 0),
                                                            Vector3d(0, 1, 0), Vector3d(1, 0, 0)}}},
                                     Closure::open));
  for (double t = 0; t <= 1.0; t += 0.01) {
    const auto m = sample(cusp, profile, t, *UpSource<double>::world());
    CHECK(m.acceleration.allFinite());
    CHECK(m.frame.rotation.allFinite());
  }
}

TEST_CASE("a camera driven by a jerk-limited move is retargeted mid-move without a jolt",
          "[motion][camera][jerk]") {
  const std::vector<CameraKey<double>> keys{
      {{0, 2, 0}, {}}, {{10, 3, 5}, {}}, {{20, 2, 0}, {}}, {{30, 4, -5}, {}}, {{40, 2, 0}, {}}};
  const auto rig = *CameraRig<double>::build(keys, *TimeProfile<double>::constant(1.0));
  const double length = rig.path().length();
  const JerkLimits<double> limits{8, 4, 6, 10};
  // The dolly sets off for the end of the path; 40 % of the way into that move the director
  // asks for a stop at the first third, behind where it will be able to stop: the new move
  // brakes, reverses and comes back, starting from the state the old one had reached.
  const auto first = *JerkTrajectory<double>::to_position({0, 0, 0}, length, 0, limits);
  const double join = 0.4 * first.duration();
  const auto second =
      *JerkTrajectory<double>::to_position(first.state_at(join), length / 3, 0, limits);
  auto camera = [&](double t) { return t < join ? rig.at(first, t) : rig.at(second, t - join); };
  const CameraShot<double> before = rig.at(first, join), after = rig.at(second, 0);
  CHECK((before.motion.position - after.motion.position).norm() <= 1e-12 * length);
  CHECK((before.motion.velocity - after.motion.velocity).norm() <= 1e-12 * limits.max_velocity);
  CHECK((before.motion.acceleration - after.motion.acceleration).norm() <=
        1e-12 * limits.max_acceleration);
  CHECK(before.motion.speed > 1);  // moving at the join, and not from rest after it
  // Independently, from positions alone: central differences across the join agree with the
  // one-sided ones before it (velocity to O(h²), acceleration to O(h·jerk)).
  const double h = 1e-3;
  auto p = [&](double t) { return camera(t).motion.position; };
  const Vector3d across_v = (p(join + h) - p(join - h)) / (2 * h);
  const Vector3d across_a = (p(join + h) - 2 * p(join) + p(join - h)) / (h * h);
  const Vector3d before_v = (3 * p(join) - 4 * p(join - h) + p(join - 2 * h)) / (2 * h);
  const Vector3d before_a = (p(join) - 2 * p(join - h) + p(join - 2 * h)) / (h * h);
  CHECK((across_v - before_v).norm() <= 1e-4 * limits.max_velocity);
  CHECK((across_a - before_a).norm() <= 2e-2 * limits.max_acceleration);
  CHECK((across_v - before.motion.velocity).norm() <= 1e-4 * limits.max_velocity);
  // The retarget is honoured: the camera comes to rest at the first third.
  const CameraShot<double> end = rig.at(second, second.duration());
  CHECK(std::abs(end.motion.distance - length / 3) <= 1e-12 * length);
  CHECK(end.motion.speed == 0);
}
