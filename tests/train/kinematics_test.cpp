#include <cmath>
#include <type_traits>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "support/shapes.hpp"
#include "tractrix/train/kinematics.hpp"

using namespace tractrix;
using namespace tractrix::test;

TEMPLATE_TEST_CASE("on a circle every bogie feels v^2/R sideways and a along the track",
                   "[train][kinematics]", float, double) {
  using S = TestType;
  const S radius = S(60), v = S(25), a = S(1.5);
  const auto track = *Track<S>::build(MeasuredPath<S>::build(circle<S>(radius, 64)));
  for (auto spacing : {Spacing::arc, Spacing::chord}) {
    const auto solver = *TrainSolver<S>::build(
        track, {{S(15), S(10)}, {S(15), S(10)}, {S(12), S(9)}}, {Wrap::automatic, spacing});
    const auto poses = solver.solve(S(30));
    const auto motions = train_kinematics(solver, poses, v, a);
    // On a circle every chord of the same length subtends the same arc, so chord spacing moves
    // every bogie at the head's speed too.
    // (Float's own: contract's 64000 eps would let a tangential acceleration of the wrong sign
    // pass.)
    const S tol = std::is_same<S, float>::value ? S(256) * eps<S>() : S(1e-7);
    for (const auto& m : motions) {
      for (const BogieMotion<S>* b : {&m.front, &m.rear}) {
        CHECK(std::abs(b->speed - v) <= tol * v);
        CHECK(std::abs(b->tangential_acceleration - a) <= tol * v * v / radius);
        // The cubic circle's curvature ripples by ~4e-7 of 1/R (its Δθ⁶ radial error differentiated
        // twice over a segment), more than its position error: that bounds the lateral check.
        // In float, r'' itself is the limit: a second difference of control points ~R apart that
        // comes out ~R·Δθ², i.e. ~100× smaller, so it keeps ~100·eps of relative precision.
        const S curvature_ripple = std::max(S(1e-6), S(4096) * eps<S>());
        CHECK(std::abs(b->lateral_acceleration - v * v / radius) <=
              curvature_ripple * v * v / radius);
        // a_t + a_n = a, and the normal part is perpendicular to the velocity.
        const Vector3<S> normal =
            b->acceleration - b->tangential_acceleration * b->velocity / b->speed;
        CHECK(std::abs(normal.dot(b->velocity)) <= tol * v * v * v / radius);
        CHECK(std::abs(normal.norm() - b->lateral_acceleration) <= S(4) * tol * v * v / radius);
      }
    }
  }
}

TEST_CASE("lateral acceleration is finite wherever kappa v^2 is", "[train][kinematics]") {
  // y = x²/L over x in [-L, L] as one cubic Bézier (the quadratic (-L, L), (0, -L), (L, L) raised
  // to degree 3): κ(x) = (2/L) / (1 + (2x/L)²)^(3/2) in closed form. With L = 1e10 and v = 1e158,
  // v² = 1e316 overflows but κv² ≤ 2e306 does not.
  const double L = 1e10, v = 1e158;
  const Bezier<double, 3, 3> b{{Vector3d(-L, L, 0), Vector3d(-L / 3, -L / 3, 0),
                                Vector3d(L / 3, -L / 3, 0), Vector3d(L, L, 0)}};
  const auto track = *Track<double>::build(
      MeasuredPath<double>::build(Path<double, 3>::from_segments({b}, Closure::open)));
  for (auto spacing : {Spacing::arc, Spacing::chord}) {
    const auto solver =
        *TrainSolver<double>::build(track, {{1e9, 8e8}, {1e9, 8e8}}, {Wrap::clamp, spacing});
    const auto poses = solver.solve(track.length() / 2 + 1e9);
    const auto motions = train_kinematics(solver, poses, v, 0.0);
    for (std::size_t i = 0; i < poses.size(); ++i) {
      const std::pair<const Frame<double>*, const BogieMotion<double>*> bogies[] = {
          {&poses[i].front, &motions[i].front}, {&poses[i].rear, &motions[i].rear}};
      for (const auto& [frame, m] : bogies) {
        const long double x = frame->origin.x(), slope = 2 * x / L;
        const long double kappa = (2 / (long double)L) / std::pow(1 + slope * slope, 1.5L);
        const long double expected = kappa * m->speed * m->speed;
        REQUIRE(std::isfinite(m->lateral_acceleration));
        CHECK(m->acceleration.allFinite());
        CHECK(std::abs(m->lateral_acceleration / expected - 1) <= 1e-9L);
        CHECK(m->speed >= 0.5 * v);  // the bogies move, so κv² is not trivially 0
      }
    }
  }
}

TEST_CASE("chord-spacing kinematics match differences of the solver", "[train][kinematics]") {
  using S = double;
  auto rng = make_rng(97);
  const auto path =
      *Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 10, S(150)), Closure::closed);
  const auto track = *Track<S>::build(MeasuredPath<S>::build(path));
  std::vector<Wagon<S>> wagons;
  for (int i = 0; i < 12; ++i)
    wagons.push_back({uniform<S>(rng, 10, 18), uniform<S>(rng, 6, 9)});
  const auto solver = *TrainSolver<S>::build(track, wagons);
  const S head = 321, h = 1e-2, length = track.length();
  const auto poses = solver.solve(head), ahead = solver.solve(head + h),
             behind = solver.solve(head - h);
  // With v = 1 and a = 0: speed = s'(h) and tangential acceleration = s''(h).
  const auto motions = train_kinematics(solver, poses, S(1), S(0));
  auto unwrap = [&](S d) { return std::remainder(d, length); };
  for (std::size_t i = 0; i < poses.size(); ++i) {
    INFO("wagon " << i);
    const S first = unwrap(ahead[i].rear_distance - behind[i].rear_distance) / (2 * h);
    const S second = (unwrap(ahead[i].rear_distance - poses[i].rear_distance) -
                      unwrap(poses[i].rear_distance - behind[i].rear_distance)) /
                     (h * h);
    // Central differences: O(h²) truncation; the second difference also loses eps·L/h².
    CHECK(std::abs(motions[i].rear.speed - first) <= 1e-6);
    CHECK(std::abs(motions[i].rear.tangential_acceleration - second) <= 1e-4);
    CHECK(motions[i].rear.speed > 0.9);
  }
  // Front bogies too (wagon i > 0 stands a chord behind the one before), at v = 2 and a = 0.5:
  // speed v·s', tangential acceleration a·s' + v²·s''.
  const S v = 2, a = 0.5;
  const auto moving = train_kinematics(solver, poses, v, a);
  for (std::size_t i = 0; i < poses.size(); ++i) {
    INFO("wagon " << i);
    const S first = unwrap(ahead[i].front_distance - behind[i].front_distance) / (2 * h);
    const S second = (unwrap(ahead[i].front_distance - poses[i].front_distance) -
                      unwrap(poses[i].front_distance - behind[i].front_distance)) /
                     (h * h);
    CHECK(std::abs(moving[i].front.speed - v * first) <= 2e-6);
    CHECK(std::abs(moving[i].front.tangential_acceleration - (a * first + v * v * second)) <= 4e-4);
    if (i > 0) CHECK(std::abs(first - 1) > 1e-3);  // a chord behind: s' is not the head's
  }
  // The first wagons' poses alone (what an engine draws) give their motions; the vector sized the
  // result by the poses but read and wrote one per wagon of the train (past both buffers).
  const std::vector<WagonPose<S>> first(poses.begin(), poses.begin() + 5);
  const auto some = train_kinematics(solver, first, S(1), S(0));
  REQUIRE(some.size() == 5);
  for (std::size_t i = 0; i < some.size(); ++i) {
    CHECK(some[i].rear.speed == motions[i].rear.speed);
    CHECK(some[i].rear.tangential_acceleration == motions[i].rear.tangential_acceleration);
  }
  CHECK(train_kinematics(solver, std::vector<WagonPose<S>>{}, S(1), S(0)).empty());
}

TEMPLATE_TEST_CASE("past the far end a clamped train stops with its locomotive, for both spacings",
                   "[train][kinematics]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // A straight open track along x from 0 to 150: distances are x, chords are arcs.
  const auto track = *Track<S>::build(MeasuredPath<S>::build(*Path<S, 3>::catmull_rom(
      {V(0, 0, 0), V(50, 0, 0), V(100, 0, 0), V(150, 0, 0)}, Closure::open)));
  const std::vector<Wagon<S>> wagons(4, Wagon<S>{S(15), S(10)});
  const S tol = S(1e-9) + S(64) * eps<S>() * S(150);
  for (auto spacing : {Spacing::arc, Spacing::chord}) {
    INFO((spacing == Spacing::arc ? "arc" : "chord"));
    const auto solver = *TrainSolver<S>::build(track, wagons, {Wrap::clamp, spacing});
    // Wagon k's bogies stand where the train stopped, 150 − 15k and 10 behind it: arc spacing
    // had piled every wagon onto the locomotive at the end (front 150, rear 140 each).
    for (S head : {S(155), S(240)}) {
      const auto poses = solver.solve(head);
      const auto motions = train_kinematics(solver, poses, S(10), S(2));
      for (std::size_t k = 0; k < poses.size(); ++k) {
        INFO("head " << head << ", wagon " << k);
        CHECK(std::abs(poses[k].front.origin.x() - (S(150) - S(15) * S(k))) <= tol);
        CHECK(std::abs(poses[k].rear.origin.x() - (S(140) - S(15) * S(k))) <= tol);
        CHECK(poses[k].status == (k == 0 ? WagonStatus::held_at_end : WagonStatus::on_track));
        // Nothing moves: the rear bogie of a held locomotive was reported at the head's speed.
        for (const BogieMotion<S>* b : {&motions[k].front, &motions[k].rear}) {
          CHECK(b->speed == S(0));
          CHECK(b->tangential_acceleration == S(0));
        }
      }
    }
    // Before the end every bogie moves with the head.
    const auto poses = solver.solve(S(100));
    for (const auto& m : train_kinematics(solver, poses, S(10), S(2))) {
      CHECK(std::abs(m.front.speed - S(10)) <= S(10) * tol);
      CHECK(std::abs(m.rear.speed - S(10)) <= S(10) * tol);
    }
  }
}
