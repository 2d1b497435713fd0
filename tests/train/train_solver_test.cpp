#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "support/same_pose.hpp"
#include "support/seed_train_driver.hpp"
#include "support/shapes.hpp"
#include "tractrix/train/head_position.hpp"
#include "tractrix/train/train_solver.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

template <class S>
std::vector<Wagon<S>> mixed_train(std::mt19937_64& rng, int count, S scale = S(1)) {
  std::vector<Wagon<S>> wagons;
  for (int i = 0; i < count; ++i) {
    const S length = scale * uniform<S>(rng, S(8), S(20));
    wagons.push_back({length, length * uniform<S>(rng, S(0.5), S(0.8)), scale * S(1)});
  }
  return wagons;
}

template <class S>
void check_frames(const WagonPose<S>& pose) {
  const S tol = S(64) * eps<S>();
  for (const Frame<S>* f : {&pose.front, &pose.rear, &pose.body}) {
    CHECK((f->rotation.transpose() * f->rotation - Eigen::Matrix<S, 3, 3>::Identity()).norm() <=
          tol);
    CHECK(std::abs(f->rotation.determinant() - S(1)) <= tol);
  }
  // Body and bogies all face the direction of travel.
  CHECK(pose.body.forward().dot(pose.front.forward()) > S(0));
  CHECK(pose.body.forward().dot(pose.rear.forward()) > S(0));
}

// The bogie at `distance` sits on the exact arc-length point of the track.
template <class S>
S off_track(const Track<S>& track, const Frame<S>& bogie, S distance) {
  return (track.path().point_at(distance) - bogie.origin).norm();
}

}  // namespace

TEMPLATE_TEST_CASE("bogies are exact on random curvy loops, for both spacings", "[train]", double) {
  using S = TestType;
  auto rng = make_rng(71);
  for (int n = 0; n < property_count(4); ++n) {
    const auto path =
        *Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 12, S(300)), Closure::closed);
    const auto measured = *Track<S>::build(MeasuredPath<S>::build(path));
    REQUIRE(measured.compiled_path() == nullptr);
    REQUIRE(measured.compiled().compiled_path() != nullptr);
    const auto wagons = mixed_train<S>(rng, 40);
    const S length = measured.length();
    for (const auto& track : {measured, measured.compiled()})
      for (auto spacing : {Spacing::chord, Spacing::arc, Spacing(-1)}) {
        // Spacing(-1): chord spacing with compiled chords.
        const bool compiled_chords = spacing == Spacing(-1);
        if (compiled_chords) spacing = Spacing::chord;
        auto solver = *TrainSolver<S>::build(track, wagons, {Wrap::automatic, spacing});
        if (compiled_chords) solver = solver.compiled_chords();
        const auto poses = solver.solve(uniform<S>(rng, S(0), length));
        REQUIRE(poses.size() == wagons.size());
        for (std::size_t i = 0; i < poses.size(); ++i) {
          const auto& p = poses[i];
          INFO("case " << n << ", wagon " << i << (track.compiled_path() ? ", compiled" : "")
                       << (compiled_chords ? ", compiled chords" : ""));
          check_frames(p);
          CHECK(off_track(track, p.front, p.front_distance) <= 1e-9 * length);
          CHECK(off_track(track, p.rear, p.rear_distance) <= 1e-9 * length);
          if (spacing == Spacing::chord) {
            CHECK(std::abs((p.front.origin - p.rear.origin).norm() - wagons[i].bogie_distance) <=
                  1e-9 * length);
          } else {
            CHECK(std::abs(detail::wrap(p.front_distance - p.rear_distance, length) -
                           wagons[i].bogie_distance) <= 1e-9 * length);
          }
          if (i + 1 < poses.size()) {
            const S gap = wagons[i].length - wagons[i].bogie_distance;
            if (spacing == Spacing::chord)
              CHECK(std::abs((poses[i + 1].front.origin - p.rear.origin).norm() - gap) <=
                    1e-9 * length);
            else
              CHECK(std::abs(detail::wrap(p.front_distance - poses[i + 1].front_distance, length) -
                             wagons[i].length) <= 1e-9 * length);
          }
        }
      }
  }
}

TEMPLATE_TEST_CASE("on a circle chord spacing gives the closed-form geometry", "[train]", double) {
  using S = TestType;
  const S radius = S(25);
  const auto measured = *Track<S>::build(MeasuredPath<S>::build(circle<S>(radius, 64)));
  const S d = S(12);
  // The 64-segment cubic circle is accurate to ~1.6e-11·R (see up_source_test).
  const S circle_error = S(2.7e-4) * std::pow(S(4) / S(64), S(6)) * radius;
  for (const auto& track : {measured, measured.compiled()})
    for (S head : {S(0), S(10), S(100)}) {
      const auto plain = *TrainSolver<S>::build(track, {{S(16), d}, {S(16), d}});
      for (const auto& solver : {plain, plain.compiled_chords()})
        for (const auto& pose : solver.solve(head)) {
          const Vector3<S> a = pose.front.origin, b = pose.rear.origin;
          const S angle =
              detail::angle_between(Vector3<S>(a.x(), 0, a.z()), Vector3<S>(b.x(), 0, b.z()));
          CHECK(std::abs(angle - S(2) * std::asin(d / (S(2) * radius))) <=
                S(8) * circle_error / radius);
          const S mid = Vector3<S>(pose.body_midpoint.x(), 0, pose.body_midpoint.z()).norm();
          CHECK(std::abs(mid - std::sqrt(radius * radius - d * d / S(4))) <= S(8) * circle_error);
        }
    }
}

TEMPLATE_TEST_CASE("on a circle arc spacing and couplers are the closed form", "[train]", double) {
  // The circle (R cos θ, 0, R sin θ) from θ = 0: a distance s is the point at θ = s/R, so each
  // bogie is placed by its wagon's offset from the head alone (not by the distances the solver
  // reports). The coupler stands front_overhang ahead of the front bogie along the body's
  // chord, rear to front.
  using S = TestType;
  const S radius = S(25);
  const auto measured = *Track<S>::build(MeasuredPath<S>::build(circle<S>(radius, 64)));
  const S circle_error = S(2.7e-4) * std::pow(S(4) / S(64), S(6)) * radius;
  const std::vector<Wagon<S>> wagons{{S(16), S(12), S(2)}, {S(14), S(9), S(1.5)}, {S(16), S(12)}};
  auto on_circle = [&](S s) {
    return Vector3<S>(radius * std::cos(s / radius), 0, radius * std::sin(s / radius));
  };
  for (const auto& track : {measured, measured.compiled()})
    for (const Spacing spacing : {Spacing::arc, Spacing::chord}) {
      const auto solver = *TrainSolver<S>::build(track, wagons, {Wrap::automatic, spacing});
      for (const S head : {S(0), S(10), S(100), S(-7)}) {
        const auto poses = solver.solve(head);
        S front = head;
        for (std::size_t i = 0; i < wagons.size(); ++i) {
          INFO("head " << head << ", wagon " << i);
          const WagonPose<S>& pose = poses[i];
          if (spacing == Spacing::arc) {
            CHECK((pose.front.origin - on_circle(front)).norm() <= S(8) * circle_error);
            CHECK((pose.rear.origin - on_circle(front - wagons[i].bogie_distance)).norm() <=
                  S(8) * circle_error);
          }
          const Vector3<S> chord = pose.front.origin - pose.rear.origin;
          const Vector3<S> coupler =
              pose.front.origin + wagons[i].front_overhang * chord / chord.norm();
          CHECK((pose.coupler - coupler).norm() <= S(64) * eps<S>() * radius);
          // On the circle's chord through the bogies, produced ahead of the front one.
          CHECK(std::abs((pose.coupler - pose.rear.origin).norm() -
                         (chord.norm() + wagons[i].front_overhang)) <= S(64) * eps<S>() * radius);
          front -= wagons[i].length;
        }
      }
    }
}

// A game places a 471-unit loop thousands of units from the world origin and solves in float.
// Reference: the closed-form circle (centre + R(cos θ, 0, sin θ), θ = s / R), computed in double
// from the solver's float output. The float promise: within 4 eps of the coordinates' magnitude
// (the larger of the track's length and its largest coordinate), which is why solving in
// track-local coordinates keeps the errors at the track's own scale.
TEMPLATE_TEST_CASE("far from the origin chord trains build and solve within the float promise",
                   "[train]", float, double) {
  using S = TestType;
  const double radius = 75;
  // The 64-segment cubic circle is accurate to ~1.6e-11·R; arc lengths to that too.
  const double shape = 2.7e-4 * std::pow(4.0 / 64.0, 6.0) * radius * 8;
  for (const double distance : {0.0, 1e4, 1e6}) {
    for (const bool local : {false, true}) {
      INFO("centre " << distance << " from the origin, " << (local ? "local" : "world")
                     << " coordinates");
      const Eigen::Vector3d centre(distance, distance / 2, -distance);
      const Vector3<S> offset = centre.cast<S>();
      // Local: the track authored around its own centre, solved there, and placed by the engine
      // (here in double). A float track authored 10⁶ out is already rounded to 0.06 units, so
      // moving it back cannot recover its shape: author, or keep in double, what is far out.
      const Path<S> path =
          local ? circle<S>(S(radius), 64) : *circle<S>(S(radius), 64).translated(offset);
      const Eigen::Vector3d shift = local ? centre : Eigen::Vector3d::Zero();
      TrainOptions options;
      options.spacing = Spacing::chord;
      const auto solver =
          TrainSolver<S>::build(Track<S>::build(MeasuredPath<S>::build(path)),
                                std::vector<Wagon<S>>(20, Wagon<S>{S(10), S(4)}), options);
      REQUIRE(solver);
      const double scale = std::max<double>(solver->track().length(), path.extent());
      const double promise = 4 * double(eps<S>()) * scale + shape;
      for (const S head : {S(0), S(100), S(300), S(471)}) {
        const auto poses = solver->solve(head);
        const auto at = [&](const Frame<S>& f) {
          return Eigen::Vector3d(f.origin.template cast<double>() + shift);
        };
        const double theta = double(head) / radius;
        CHECK((at(poses[0].front) - centre -
               radius * Eigen::Vector3d(std::cos(theta), 0, std::sin(theta)))
                  .norm() <= promise);
        for (std::size_t i = 0; i < poses.size(); ++i) {
          const Eigen::Vector3d front = at(poses[i].front), rear = at(poses[i].rear);
          CHECK(std::abs((front - centre).norm() - radius) <= promise);
          CHECK(std::abs((rear - centre).norm() - radius) <= promise);
          CHECK(std::abs((front - rear).norm() - 4) <= promise);
          if (i + 1 < poses.size())
            CHECK(std::abs((rear - at(poses[i + 1].front)).norm() - 6) <= promise);
        }
      }
    }
  }
}

// A tight loop (radius 5) far out, chords up to 0.99 of its diameter: their far bogies lie where
// the track runs nearly along the chord's sphere, and in float 10⁵ out its tangents are off by up
// to 0.1 rad. The search stepped over the narrow stretch where the chord is reached (a Newton
// step 40 times too long, or one chord back from a point next to it) and fell back to arc
// spacing, 128 eps of the coordinates off. Reference: the closed-form chord.
TEMPLATE_TEST_CASE("chord searches on a tight loop far out never step over the root", "[train]",
                   float, double) {
  using S = TestType;
  const Eigen::Vector3d centre(1e5, 5e4, -1e5);
  const Path<S> path = *circle<S>(S(5), 64).translated(centre.cast<S>());
  for (const double fraction : {0.9, 0.95, 0.97, 0.985, 0.99}) {
    const S chord = S(10 * fraction);
    INFO("chord " << chord);
    TrainOptions options;
    options.spacing = Spacing::chord;
    const auto solver =
        TrainSolver<S>::build(Track<S>::build(MeasuredPath<S>::build(path)),
                              std::vector<Wagon<S>>(3, Wagon<S>{chord, chord}), options);
    REQUIRE(solver);
    const double promise =
        4 * double(eps<S>()) * std::max<double>(solver->track().length(), path.extent());
    for (int k = 0; k < 1000; ++k) {
      const S head = solver->track().length() * S(k) / S(1000);
      for (const auto& pose : solver->solve(head))
        CHECK(std::abs((pose.front.origin.template cast<double>() -
                        pose.rear.origin.template cast<double>())
                           .norm() -
                       double(chord)) <= promise);
    }
  }
  // 10⁶ out a float circle of radius 5 is rounded to 1/16 of a unit: a chord of 0.99 of its
  // diameter is refused at build, and the message says the rounding may be why.
  if (std::is_same<S, float>::value) {
    TrainOptions options;
    options.spacing = Spacing::chord;
    const auto coarse = TrainSolver<S>::build(
        Track<S>::build(MeasuredPath<S>::build(
            *circle<S>(S(5), 64).translated(Vector3<S>(S(1e6), S(5e5), S(-1e6))))),
        {{S(9.9), S(9.9)}}, options);
    REQUIRE(!coarse);
    CHECK(coarse.error().code == ErrorCode::no_solution);
    CHECK(coarse.error().message.find("round too coarsely") != std::string::npos);
  }
}

// An oval (straights of 40, half circles of radius 10) far out, chords just wider than its turns:
// behind the head the far straight runs along the chord's sphere, 0.01–0.1 inside it, for 40
// units, where every Newton step looks like one that may leap. Shortening them all crawled until
// the search ran out of steps and left bogies 8 units off the chord (found by review).
TEMPLATE_TEST_CASE("chord searches along an oval's far straight reach the chord", "[train]", float,
                   double) {
  using S = TestType;
  using V = Vector3<S>;
  const double offset = std::is_same<S, float>::value ? 1e3 : 1e6;
  std::vector<V> keys, tangents;
  const auto key = [&](double x, double z, double tx, double tz) {
    keys.emplace_back(S(x + offset), S(0), S(z + offset));
    tangents.emplace_back(S(tx), S(0), S(tz));
  };
  for (int i = 0; i < 4; ++i)  // the near straight, +x, then the far one, −x
    key(10.0 * i, 0, 10, 0);
  const double step = detail::pi<double>() / 8, handle = 4 * std::tan(step / 4) * 10;
  for (int i = 0; i < 8; ++i) {
    const double angle = -detail::pi<double>() / 2 + step * i;
    key(40 + 10 * std::cos(angle), 10 + 10 * std::sin(angle), -handle * std::sin(angle),
        handle * std::cos(angle));
  }
  for (int i = 0; i < 4; ++i)
    key(40 - 10.0 * i, 20, -10, 0);
  for (int i = 0; i < 8; ++i) {
    const double angle = detail::pi<double>() / 2 + step * i;
    key(10 * std::cos(angle), 10 + 10 * std::sin(angle), -handle * std::sin(angle),
        handle * std::cos(angle));
  }
  const auto path = Path<S>::from_hermite_keys(keys, tangents, Closure::closed);
  REQUIRE(path);
  const auto track = Track<S>::build(MeasuredPath<S>::build(*path));
  REQUIRE(track);
  for (const S chord : {S(20.1), S(20.5)}) {
    INFO("chord " << chord);
    const auto solver = TrainSolver<S>::build(*track, {{chord, chord}}, {Wrap::circular});
    REQUIRE(solver);
    const double promise =
        std::max(4 * double(eps<S>()) * std::max<double>(track->length(), path->extent()),
                 2e-12 * double(track->length()));
    for (int k = 0; k < 1000; ++k) {
      const S head = track->length() * S(k) / S(1000);
      const auto pose = solver->solve(head)[0];
      INFO("head " << head);
      CHECK(std::abs((pose.front.origin.template cast<double>() -
                      pose.rear.origin.template cast<double>())
                         .norm() -
                     double(chord)) <= promise);
    }
  }
}

TEMPLATE_TEST_CASE("a chord wider than the track is rejected where it fails", "[train]", float,
                   double) {
  using S = TestType;
  // No two points of a circle of radius 20 are more than 40 apart.
  TrainOptions options;
  options.spacing = Spacing::chord;
  const auto solver =
      TrainSolver<S>::build(Track<S>::build(MeasuredPath<S>::build(circle<S>(S(20), 16))),
                            {{S(20), S(10)}, {S(60), S(45)}}, options);
  REQUIRE(!solver);
  CHECK(solver.error().code == ErrorCode::no_solution);
  CHECK(solver.error().message ==
        "wagon 1: no track point lies 45 (a bogie chord) behind distance 0 within "
        "one lap (the track is narrower than the chord there)");
  // Just inside the diameter the chord exists everywhere, its far bogie near the antipode, where
  // the track runs along the chord's sphere.
  const auto wide = TrainSolver<S>::build(
      Track<S>::build(MeasuredPath<S>::build(circle<S>(S(20), 16))), {{S(40), S(39.5)}}, options);
  REQUIRE(wide);
  for (const S head : {S(0), S(31), S(77.5)}) {
    const auto pose = wide->solve(head)[0];
    CHECK(std::abs((pose.front.origin - pose.rear.origin).norm() - S(39.5)) <=
          S(contract<S>(1e-12)) * wide->track().length());
  }
}

TEMPLATE_TEST_CASE("a chord past a hairpin that nearly reaches it is found, not leapt over",
                   "[train]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // Behind key 0 the track turns in a hairpin whose tip is 4.6 from key 0, runs back past it 2
  // away, and leaves along z = 2: the first point 5 behind key 0 is on that run. At the tip the
  // track runs along the sphere of radius 5 around key 0 (g = |P − p|² − 25 ≈ −4, slope ≈ 0),
  // where a Newton step leapt whole laps and the chord was reported unsolvable.
  const auto track = Track<S>::build(MeasuredPath<S>::build(
      Path<S, 3>::catmull_rom({V(0, 0, 0), V(6, 0, -2), V(13, 0, -1), V(14, 0, S(2.5)), V(9, 0, 2),
                               V(4, 0, 2), V(0, 0, 2), V(-3, 0, 2), V(S(-4.5), 0, 1), V(-3, 0, 0)},
                              Closure::closed)));
  REQUIRE(track);
  const auto plain =
      TrainSolver<S>::build(*track, {{S(6), S(5)}}, {Wrap::circular, Spacing::chord});
  REQUIRE(plain);
  for (const auto& solver : {*plain, plain->compiled_chords()}) {
    INFO((solver.has_compiled_chords() ? "compiled chords" : "searched"));
    const auto pose = solver.solve(S(0))[0];
    const V p = track->path().point_at(S(0));
    CHECK(std::abs(static_cast<double>((pose.rear.origin - p).norm()) - 5) <=
          contract<S>(1e-12) * static_cast<double>(track->length()));
    CHECK(pose.rear.origin.x() > S(3.5));  // on the run along z = 2, beyond the tip
    CHECK(std::abs(pose.rear.origin.z() - S(2)) < S(0.2));
    // The first such point: brute force over the track behind key 0, by parameter (not distance),
    // finds every point between it and key 0 closer than 5.
    const auto& path = track->path().path();
    const double rear_t = static_cast<double>(track->path().parameter_at(pose.rear_distance));
    const double end = static_cast<double>(path.end_parameter());
    for (int k = 1; k < 20000; ++k) {
      const double t = rear_t + (end - rear_t) * k / 20000.0;
      CHECK((path.point(static_cast<S>(t)) - p).norm() < S(5));
    }
  }
}

// Compiled chords against the chord's definition, not against the search: the rear bogie is a
// chord away from the front one, and every track point between them (brute force along the
// track) is nearer than the chord, so it is the first such point behind.
TEMPLATE_TEST_CASE("compiled chords find the first track point a chord behind, open and closed",
                   "[train]", float, double) {
  using S = TestType;
  auto rng = make_rng(135);
  for (int n = 0; n < property_count(3); ++n) {
    const auto keys = random_loop_points<S>(rng, 10, S(100));
    for (const Closure closure : {Closure::closed, Closure::open}) {
      const auto track =
          *Track<S>::build(MeasuredPath<S>::build(*Path<S, 3>::catmull_rom(keys, closure)));
      const S length = track.length();
      const auto wagons = mixed_train<S>(rng, 12);
      const std::vector<Wrap> wraps = closure == Closure::closed
                                          ? std::vector<Wrap>{Wrap::circular}
                                          : std::vector<Wrap>{Wrap::clamp, Wrap::extend};
      for (const Wrap wrap : wraps) {
        const auto plain = *TrainSolver<S>::build(track, wagons, {wrap, Spacing::chord});
        const auto compiled = plain.compiled_chords();
        REQUIRE(compiled.has_compiled_chords());
        CHECK(compiled.compiled_chord_bytes() > 0);
        CHECK(plain.compiled_chord_bytes() == 0);
        for (int k = 0; k < 12; ++k) {
          const S head = uniform<S>(rng, S(-0.1) * length, S(1.1) * length);
          const auto poses = compiled.solve(head);
          const auto searched = plain.solve(head);
          std::size_t cursor = 0;
          for (std::size_t i = 0; i < poses.size(); ++i) {
            const WagonPose<S>& p = poses[i];
            INFO("case " << n << (closure == Closure::closed ? ", closed" : ", open") << ", wrap "
                         << int(wrap) << ", head " << head << ", wagon " << i);
            CHECK(p.status == searched[i].status);
            if (p.status != WagonStatus::on_track) continue;
            const S d = wagons[i].bogie_distance;
            const S tolerance = contract<S>(1e-12) * length;
            CHECK(std::abs((p.front.origin - p.rear.origin).norm() - d) <= tolerance);
            // The same root as the search's (another root lies a good part of a chord away).
            const S apart =
                closure == Closure::closed
                    ? detail::wrap(p.rear_distance - searched[i].rear_distance + length / 2,
                                   length) -
                          length / 2
                    : p.rear_distance - searched[i].rear_distance;
            CHECK(std::abs(apart) <= S(1e-3) * d);
            const S behind = closure == Closure::closed
                                 ? detail::wrap(p.front_distance - p.rear_distance, length)
                                 : p.front_distance - p.rear_distance;
            for (int j = 1; j < 64; ++j) {
              const S x = p.front_distance - behind * S(j) / S(64);
              const Vector3<S> q = track.sample_extended(x, cursor).point;
              CHECK((q - p.front.origin).norm() < d + tolerance);
            }
          }
        }
      }
    }
  }
}

// The chord-offset fit itself, against a root function given in closed form: smooth between
// its knots (any guess within the fit's tolerance, none outside [0, length)), and with a jump
// (no guess about it, exact guesses away from it).
TEST_CASE("compiled chord offsets follow a closed-form root and give no guess where it jumps",
          "[train]") {
  const double length = 100, pi = 3.141592653589793;
  const std::vector<double> knots{0, 25, 50, 75};
  const auto smooth = [&](double s) { return s - (3 + 0.5 * std::sin(2 * pi * s / length)); };
  const double tolerance = 1e-12;
  const auto fitted = detail::fit_chord_offsets<double>(3.0, length, knots, smooth, tolerance, 8);
  std::size_t cursor = 0, guesses = 0;
  for (int k = 0; k < 4000; ++k) {
    const double s = length * k / 4000.0;
    const double guess = fitted.root_guess(s, length, cursor);
    if (std::isnan(guess)) continue;
    ++guesses;
    CHECK(std::abs(guess - smooth(s)) <= 2 * tolerance);
  }
  CHECK(guesses == 4000u);  // the smooth root fits everywhere
  CHECK(std::isnan(fitted.root_guess(-1.0, length, cursor)));
  CHECK(std::isnan(fitted.root_guess(length, length, cursor)));
  // A root that jumps by 2 at s = 40 (as where the first root behind moves to another stretch
  // of track): no polynomial holds across it, and none is guessed there.
  const auto jumping = [&](double s) { return smooth(s) - (s >= 40 ? 2.0 : 0.0); };
  const auto broken = detail::fit_chord_offsets<double>(3.0, length, knots, jumping, tolerance, 8);
  guesses = 0;
  for (int k = 0; k < 4000; ++k) {
    const double s = length * k / 4000.0;
    const double guess = broken.root_guess(s, length, cursor);
    if (std::isnan(guess)) {
      CHECK(std::abs(s - 40) <= length / 256);  // only cells about the jump hold no guess
      continue;
    }
    ++guesses;
    CHECK(std::abs(guess - jumping(s)) <= 2 * tolerance);
  }
  CHECK(guesses >= 3900u);
}

// Behind this head the track runs out to 28.9 from the bogie, falls back to 21.8, then rises
// past the chord (30.32) 60.1 behind: the first root. A Newton step from 45 behind leapt that
// rise, and the rear bogie was put 97.1 behind (found by an independent review's scan).
TEST_CASE("a chord past a bulge of track that rises past it and falls back is found, not leapt",
          "[train]") {
  using V = Vector3<double>;
  const std::vector<V> keys{{21.882384588074203, -0.84104032065897061, 0},
                            {18.774268379181699, -3.4673624423374507, 8.3588428280926887},
                            {8.6629451089429121, 0.67291428680103627, 9.6211752532703425},
                            {9.6201436825763817, -2.926929292706042, 29.607757837125842},
                            {-2.7683038905840216, -3.1604814621310364, 26.338652135058741},
                            {-18.289722116493309, 1.9080941275888563, 31.678727962082604},
                            {-8.4952594907402901, -2.2578438260095828, 6.1721673064639875},
                            {-13.433795600688148, 1.1369040606027037, 2.855441403060142},
                            {-21.21765628939751, -2.6970830022671652, -4.5099520675706488},
                            {-24.598228678886709, -4.160958896429837, -17.87165924881231},
                            {-17.651158460706792, -0.17163368437208504, -30.572703266393386},
                            {-4.4485248772753518, 2.4358546186883556, -42.324886966073187},
                            {14.198326223453366, -1.7441746654977801, -43.697954873366143},
                            {21.150600942201137, -2.4789950307274116, -23.490122102566684},
                            {26.628836933938281, 4.8418279114442573, -11.85592205939273}};
  const auto track = *Track<double>::build(
      MeasuredPath<double>::build(Path<double, 3>::catmull_rom(keys, Closure::open)));
  const double chord = 30.3183834, head = 110.113751;
  for (const Wrap wrap : {Wrap::clamp, Wrap::extend}) {
    const auto plain =
        *TrainSolver<double>::build(track, {{chord + 1, chord}}, {wrap, Spacing::chord});
    for (const auto& solver : {plain, plain.compiled_chords()}) {
      INFO("wrap " << int(wrap) << (solver.has_compiled_chords() ? ", compiled chords" : ""));
      const auto pose = solver.solve(head)[0];
      CHECK(std::abs((pose.front.origin - pose.rear.origin).norm() - chord) <=
            1e-12 * track.length());
      // Brute force: every track point between the bogies is nearer than the chord.
      std::size_t cursor = 0;
      const double behind = pose.front_distance - pose.rear_distance;
      CHECK(behind < 61.0);
      for (int j = 1; j < 2000; ++j) {
        const double x = pose.front_distance - behind * j / 2000.0;
        CHECK((track.sample(x, cursor).point - pose.front.origin).norm() < chord);
      }
    }
  }
}

TEMPLATE_TEST_CASE("a chord many chords of track behind the bogie is found: leaving a coil",
                   "[train]", double) {
  using S = TestType;
  using V = Vector3<S>;
  // 40 turns of radius 1 (nothing on the coil is 3 away from anything else on it), then out to
  // x = 30 and back: a bogie on the coil's far end finds its rear bogie 250 units of track
  // behind, past 80 chords. The search stopped after 40 steps and returned where it was.
  std::vector<V> keys;
  for (int i = 0; i <= 40 * 12; ++i) {
    const S angle = S(2) * detail::pi<S>() * S(i) / S(12);
    keys.emplace_back(std::cos(angle), std::sin(angle), S(0.02) * S(i) / S(12));
  }
  keys.insert(keys.end(), {V(5, 0, 1), V(30, 0, S(0.5)), V(5, 0, -1)});
  const auto track =
      Track<S>::build(MeasuredPath<S>::build(Path<S, 3>::catmull_rom(keys, Closure::closed)));
  REQUIRE(track);
  const auto plain =
      TrainSolver<S>::build(*track, {{S(3.5), S(3)}}, {Wrap::circular, Spacing::chord});
  REQUIRE(plain);
  const auto compiled = plain->compiled_chords();
  for (int k = 0; k < 1000; ++k) {
    const S head = track->length() * S(k / 2) / S(500);
    const auto pose = (k % 2 ? compiled : *plain).solve(head)[0];
    INFO("head " << head << (k % 2 ? ", compiled chords" : ""));
    CHECK(std::abs((pose.front.origin - pose.rear.origin).norm() - S(3)) <=
          contract<S>(1e-12) * track->length());
  }
}

TEMPLATE_TEST_CASE("loops repeat every lap and have no seam, also with a rail at 100%", "[train]",
                   float, double) {
  using S = TestType;
  const auto path = circle<S>(S(40), 24);
  const auto rail = circle<S>(S(41), 24, S(1.2));
  const auto track = *Track<S>::build(MeasuredPath<S>::build(path),
                                      *UpSource<S>::rail(*MeasuredPath<S>::build(rail)));
  const S length = track.length();
  std::mt19937_64 rng(73);
  const auto solver = *TrainSolver<S>::build(track, mixed_train<S>(rng, 5));
  for (S head : {S(0), S(17.5), length}) {
    const auto base = solver.solve(head);
    for (int laps : {1, -1, 1000, -1000}) {
      const S shifted = head + S(laps) * length;
      // head + laps·length is itself rounded; that rounding moves the train along the track.
      const S rounding =
          std::abs((shifted - S(laps) * length) - head) + S(4) * eps<S>() * std::abs(shifted);
      const auto other = solver.solve(shifted);
      for (std::size_t i = 0; i < base.size(); ++i) {
        CHECK((base[i].front.origin - other[i].front.origin).norm() <=
              S(2) * rounding + contract<S>(1e-9) * length);
        CHECK((base[i].body.rotation - other[i].body.rotation).norm() <=
              S(2) * rounding / S(10) + contract<S>(1e-9));
        // Laps and distance together are the unwrapped distance; exactly at a lap boundary the
        // rounded head may fall on either side of it, so compare the sum.
        const S unwrapped_gap = S(other[i].lap - base[i].lap - laps) * length +
                                (other[i].front_distance - base[i].front_distance);
        CHECK(std::abs(unwrapped_gap) <= S(2) * rounding + S(64) * eps<S>() * length);
      }
    }
  }
  // Exactly at 100% (the TrainDriver plugin's rail bug) equals 0%; just before is close.
  const auto start = solver.solve(S(0)), end = solver.solve(length),
             before = solver.solve(length * (S(1) - S(1e-5)));
  for (std::size_t i = 0; i < start.size(); ++i) {
    CHECK((start[i].front.rotation - end[i].front.rotation).norm() <= contract<S>(1e-10));
    CHECK((start[i].front.rotation - before[i].front.rotation).norm() <= S(1e-3));
    CHECK(end[i].front.up().allFinite());
  }
}

TEMPLATE_TEST_CASE(
    "clamp keeps open track in range, where the TrainDriver plugin sent the rear bogie to the far "
    "end",
    "[train]", double) {
  using S = TestType;
  using V = Vector3<S>;
  const auto path = *Path<S, 3>::catmull_rom(
      {V(0, 0, 0), V(50, 0, 10), V(100, 5, 0), V(150, 0, 20)}, Closure::open);
  const auto track = *Track<S>::build(MeasuredPath<S>::build(path));
  const std::vector<Wagon<S>> wagons{{S(15), S(10)}, {S(15), S(10)}, {S(15), S(10)}};
  for (auto spacing : {Spacing::chord, Spacing::arc}) {
    const auto solver = *TrainSolver<S>::build(track, wagons, {Wrap::clamp, spacing});
    for (S head : {S(-5), S(0), S(3), S(20), track.length() + S(7)}) {
      for (const auto& p : solver.solve(head)) {
        CHECK(p.front_distance >= S(0));
        CHECK(p.front_distance <= track.length());
        CHECK(p.rear_distance >= S(0));
        CHECK(p.rear_distance <= p.front_distance);
        CHECK(p.rear.origin.x() <= p.front.origin.x() + S(1e-9));  // never at the far end
      }
    }
  }
  // The TrainDriver port, with its front bogie 3 units from the start, puts the rear bogie near the
  // far end.
  SeedTrainDriver<S> seed(path, 16);
  std::vector<typename SeedTrainDriver<S>::CarPose> seed_poses(1);
  seed.run({wagons[0]}, S(3) / track.length(), false, seed_poses.data());
  CHECK(seed_poses[0].wheel2.origin.x() > S(100));
  // Extend continues straight past the ends instead.
  const auto extended = *TrainSolver<S>::build(track, wagons, {Wrap::extend, Spacing::arc});
  const auto poses = extended.solve(S(3));
  CHECK(poses[0].rear_distance == S(3) - S(10));
  const V start_tangent = path.unit_tangent(S(0));
  CHECK((poses[0].rear.origin - (path.point(S(0)) - S(7) * start_tangent)).norm() <= 1e-9);
  CHECK(poses[2].rear.origin.allFinite());
}

TEMPLATE_TEST_CASE("scale, reparameterization and reversal leave the train unchanged", "[train]",
                   double) {
  using S = TestType;
  std::mt19937_64 rng(79);
  const auto points = random_loop_points<S>(rng, 9, S(200));
  const auto path = *Path<S, 3>::catmull_rom(points, Closure::closed);
  const auto wagons = mixed_train<S>(rng, 10);
  const auto solver =
      *TrainSolver<S>::build(*Track<S>::build(MeasuredPath<S>::build(path)), wagons);
  const auto base = solver.solve(S(123));
  // Track, wagons and head scaled by 3: positions scale by 3, rotations stay.
  std::vector<Vector3<S>> scaled_points;
  for (const auto& p : points)
    scaled_points.push_back(S(3) * p);
  std::vector<Wagon<S>> scaled_wagons;
  for (const auto& w : wagons)
    scaled_wagons.push_back({S(3) * w.length, S(3) * w.bogie_distance, S(3) * w.front_overhang});
  const auto big = *TrainSolver<S>::build(
      *Track<S>::build(
          MeasuredPath<S>::build(Path<S, 3>::catmull_rom(scaled_points, Closure::closed))),
      scaled_wagons);
  const auto scaled = big.solve(S(369));
  const S length = solver.track().length();
  for (std::size_t i = 0; i < base.size(); ++i) {
    CHECK((scaled[i].rear.origin - S(3) * base[i].rear.origin).norm() <= 3e-9 * length);
    CHECK((scaled[i].body.rotation - base[i].body.rotation).norm() <= 1e-9);
  }
  // Only the track scaled (TrainDriver's bug 3): the wheelbase is still the wagon's.
  const auto track_only = *TrainSolver<S>::build(big.track(), wagons);
  for (const auto& p : track_only.solve(S(50)))
    CHECK(std::abs((p.front.origin - p.rear.origin).norm() - wagons[0].bogie_distance) <=
          0.9 * wagons[0].bogie_distance);
  for (std::size_t i = 0; i < wagons.size(); ++i) {
    const auto p = track_only.solve(S(50))[i];
    CHECK(std::abs((p.front.origin - p.rear.origin).norm() - wagons[i].bogie_distance) <=
          1e-9 * length);
  }

  // The same circle from 8 or 64 segments: the same poses, to the 8-segment circle's own error.
  const auto coarse = *TrainSolver<S>::build(
      *Track<S>::build(MeasuredPath<S>::build(circle<S>(S(30), 8))), {{S(12), S(8)}});
  const auto fine = *TrainSolver<S>::build(
      *Track<S>::build(MeasuredPath<S>::build(circle<S>(S(30), 64))), {{S(12), S(8)}});
  const S coarse_error = S(2.7e-4) * std::pow(S(0.5), S(6)) * S(30);
  for (S head : {S(0), S(40), S(100)}) {
    const auto a = coarse.solve(head)[0], b = fine.solve(head)[0];
    CHECK((a.front.origin - b.front.origin).norm() <= S(20) * coarse_error);
    CHECK((a.rear.origin - b.rear.origin).norm() <= S(20) * coarse_error);
  }

  // Reversal: on the reversed path with its head at length − rear distance, the bogies swap.
  const auto reversed = *TrainSolver<S>::build(
      *Track<S>::build(MeasuredPath<S>::build(path.reversed())), {wagons[0]});
  const auto one = solver.solve(S(77))[0];
  const auto back = reversed.solve(length - one.rear_distance)[0];
  CHECK((back.front.origin - one.rear.origin).norm() <= 1e-9 * length);
  CHECK((back.rear.origin - one.front.origin).norm() <= 1e-9 * length);
}

TEMPLATE_TEST_CASE("solve is stateless and writes into a caller buffer", "[train]", float, double) {
  using S = TestType;
  std::mt19937_64 rng(83);
  const auto solver = *TrainSolver<S>::build(
      *Track<S>::build(MeasuredPath<S>::build(circle<S>(S(100), 16))), mixed_train<S>(rng, 20));
  std::vector<WagonPose<S>> first(20), again(20);
  solver.solve(S(10), first.data());
  (void)solver.solve(S(400));
  solver.solve(S(10), again.data());
  for (std::size_t i = 0; i < first.size(); ++i) {
    CHECK(first[i].body.rotation == again[i].body.rotation);
    CHECK(first[i].rear.origin == again[i].rear.origin);
  }
  CHECK(solver.solve(std::numeric_limits<S>::quiet_NaN())[0].front.origin.allFinite());
  CHECK(TrainSolver<S>::head_distance_from_normalized(S(1.25), S(80)) == S(100));
}

TEMPLATE_TEST_CASE("solve_each hands over the poses solve writes, in order", "[train]", float,
                   double) {
  using S = TestType;
  using V = Vector3<S>;
  std::mt19937_64 rng(97);
  const auto loop = *Track<S>::build(MeasuredPath<S>::build(trefoil<S>(24, S(40))));
  const auto open = *Track<S>::build(MeasuredPath<S>::build(Path<S, 3>::catmull_rom(
      {V(0, 0, 0), V(50, 0, 10), V(100, 5, 0), V(150, 0, 20)}, Closure::open)));
  const auto wagons = mixed_train<S>(rng, 60);
  for (const auto& [track, options] :
       {std::pair{&loop, TrainOptions{Wrap::circular, Spacing::chord}},
        std::pair{&loop, TrainOptions{Wrap::circular, Spacing::arc}},
        std::pair{&open, TrainOptions{Wrap::clamp, Spacing::chord}}}) {
    const auto solver = *TrainSolver<S>::build(*track, wagons, options);
    for (const S head : {S(-30), S(5), S(700)}) {
      const std::vector<WagonPose<S>> whole = solver.solve(head);
      std::size_t next = 0;
      solver.solve_each(head, [&](std::size_t j, const WagonPose<S>& pose) {
        CHECK(j == next++);
        CHECK(pose.front.origin == whole[j].front.origin);
        CHECK(pose.rear.rotation == whole[j].rear.rotation);
        CHECK(pose.body.rotation == whole[j].body.rotation);
        CHECK(pose.body_midpoint == whole[j].body_midpoint);
        CHECK(pose.rear_distance == whole[j].rear_distance);
        CHECK(pose.lap == whole[j].lap);
        CHECK(pose.status == whole[j].status);
      });
      CHECK(next == wagons.size());
    }
  }
}

TEMPLATE_TEST_CASE("a train solved in ranges gives the same bits as solved whole", "[train]", float,
                   double) {
  using S = TestType;
  using V = Vector3<S>;
  std::mt19937_64 rng(89);
  const auto loop = *Track<S>::build(MeasuredPath<S>::build(trefoil<S>(24, S(40))));
  const auto open = *Track<S>::build(MeasuredPath<S>::build(Path<S, 3>::catmull_rom(
      {V(0, 0, 0), V(50, 0, 10), V(100, 5, 0), V(150, 0, 20)}, Closure::open)));
  // 60 wagons of 8–20: shorter than the trefoil loop; 400: several laps long (the fmod path).
  for (const int count : {60, 400}) {
    const auto wagons = mixed_train<S>(rng, count);
    struct Case {
      const Track<S>* track;
      TrainOptions options;
    };
    for (const Case& c :
         {Case{&loop, {Wrap::circular, Spacing::arc}},
          Case{&loop, {Wrap::circular, Spacing::chord}}, Case{&open, {Wrap::clamp, Spacing::arc}},
          Case{&open, {Wrap::extend, Spacing::arc}}}) {
      if (c.options.spacing == Spacing::chord && count > 60) continue;  // chord: one lap is enough
      const auto solver = *TrainSolver<S>::build(*c.track, wagons, c.options);
      for (const S head : {S(0), S(0.37) * c.track->length(), S(-3.5) * c.track->length()}) {
        std::vector<WagonPose<S>> whole(wagons.size()), parts(wagons.size());
        solver.solve(head, whole.data());
        const std::size_t n = wagons.size(), a = n / 3, b = n / 3 + n / 4;
        solver.solve(head, parts.data(), b, n);  // out of order on purpose
        solver.solve(head, parts.data(), 0, a);
        solver.solve(head, parts.data(), a, b);
        solver.solve(head, parts.data(), b, b);  // empty: writes nothing
        bool all_same = true;
        for (std::size_t i = 0; i < n; ++i)
          all_same = all_same && same_pose(whole[i], parts[i]);
        CHECK(all_same);
      }
    }
  }
}

TEMPLATE_TEST_CASE("rotation-minimizing tracks carry trains round a vertical loop", "[train]",
                   double) {
  using S = TestType;
  const auto loop = *MeasuredPath<S>::build(vertical_loop<S>(S(15), 32));
  const auto track = *Track<S>::build(loop, *UpSource<S>::rotation_minimizing(loop));
  const auto solver = *TrainSolver<S>::build(track, {{S(6), S(4)}, {S(6), S(4)}});
  Frame<S> previous = solver.solve(S(0))[0].body;
  for (S head = S(0.1); head < track.length(); head += S(0.1)) {
    const auto p = solver.solve(head)[0];
    check_frames(p);
    CHECK(detail::angle_between(previous.up(), p.body.up()) < S(0.05));  // no flip at the top
    previous = p.body;
  }
}

TEMPLATE_TEST_CASE("the TrainDriver port agrees with arc spacing where it is exact",
                   "[train][seed]", double) {
  using S = TestType;
  using V = Vector3<S>;
  // A straight track with uniform speed: TrainDriver's chord table is exact there.
  const auto straight = *Path<S, 3>::from_hermite_keys({V(0, 0, 0), V(0, 0, 300)},
                                                       {V(0, 0, 300), V(0, 0, 300)}, Closure::open);
  const std::vector<Wagon<S>> wagons{{S(20), S(14)}, {S(18), S(12)}, {S(18), S(12)}};
  const auto solver = *TrainSolver<S>::build(*Track<S>::build(MeasuredPath<S>::build(straight)),
                                             wagons, {Wrap::clamp, Spacing::arc});
  SeedTrainDriver<S> seed(straight, 16);
  std::vector<typename SeedTrainDriver<S>::CarPose> seed_poses(wagons.size());
  seed.run(wagons, S(200) / S(300), false, seed_poses.data());
  const auto poses = solver.solve(S(200));
  for (std::size_t i = 0; i < wagons.size(); ++i) {
    CHECK((poses[i].front.origin - seed_poses[i].wheel1.origin).norm() <= 1e-10);
    CHECK((poses[i].rear.origin - seed_poses[i].wheel2.origin).norm() <= 1e-10);
    CHECK((poses[i].body.rotation - seed_poses[i].body.rotation).norm() <= 1e-12);
    CHECK((poses[i].front.rotation - seed_poses[i].wheel1.rotation).norm() <= 1e-12);
  }
  // On a curvy loop its lossy table misplaces the rear bogie by O(h²) of the table step, where
  // tractrix stays within 1e-9 of the length.
  std::mt19937_64 rng(89);
  const auto loop =
      *Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 10, S(300)), Closure::closed);
  const auto track = *Track<S>::build(MeasuredPath<S>::build(loop));
  const auto arc = *TrainSolver<S>::build(track, wagons, {Wrap::circular, Spacing::arc});
  SeedTrainDriver<S> loop_seed(loop, 4);
  loop_seed.run(wagons, S(0.3), true, seed_poses.data());
  const auto ours = arc.solve(S(0.3) * track.length());
  S seed_error = 0;
  for (std::size_t i = 0; i < wagons.size(); ++i) {
    CHECK(off_track(track, ours[i].rear, ours[i].rear_distance) <= 1e-9 * track.length());
    seed_error = std::max(seed_error, (seed_poses[i].wheel2.origin - ours[i].rear.origin).norm());
  }
  INFO("TrainDriver port rear-bogie error " << seed_error);
  CHECK(seed_error > 1e-4);
}

TEMPLATE_TEST_CASE("bad trains are rejected at construction, naming wagon and field",
                   "[train][errors]", float, double) {
  using S = TestType;
  const auto track = *Track<S>::build(MeasuredPath<S>::build(circle<S>(S(5), 16)));
  const S nan = std::numeric_limits<S>::quiet_NaN();
  CHECK(TrainSolver<S>::build(track, {})->solve(S(1)).empty());
  CHECK(TrainSolver<S>::build(track, {{S(4), S(2)}, {S(4), S(0)}}).error().message ==
        "wagon 1: bogie_distance " + detail::number_text(S(0)) + " is not positive");
  CHECK(TrainSolver<S>::build(track, {{S(10), S(12.5)}}).error().message ==
        "wagon 0: bogie_distance " + detail::number_text(S(12.5)) + " exceeds length " +
            detail::number_text(S(10)));
  // A negative length is named as such, not as a bogie distance exceeding it.
  CHECK(TrainSolver<S>::build(track, {{S(-10), S(5)}}).error().message ==
        "wagon 0: length " + detail::number_text(S(-10)) + " is not positive");
  CHECK(TrainSolver<S>::build(track, {{S(4), nan}}).error().code == ErrorCode::non_finite);
  CHECK(TrainSolver<S>::build(track, {{S(4), S(2), S(-1)}}).error().code ==
        ErrorCode::out_of_range);
  // A wheelbase of 11 on a circle of radius 5 (diameter 10) has no chord solution.
  CHECK(TrainSolver<S>::build(track, {{S(12), S(11)}}).error().code == ErrorCode::no_solution);
  CHECK(TrainSolver<S>::build(track, {{S(12), S(11)}}, {Wrap::automatic, Spacing::arc}));
  CHECK(TrainSolver<S>::build(track, {{S(4), S(2)}}, {Wrap::clamp, Spacing::chord}).error().code ==
        ErrorCode::out_of_range);
  using V = Vector3<S>;
  const auto open = *Track<S>::build(
      MeasuredPath<S>::build(Path<S, 3>::catmull_rom({V(0, 0, 0), V(9, 0, 0)}, Closure::open)));
  CHECK(TrainSolver<S>::build(open, {{S(4), S(2)}}, {Wrap::circular, Spacing::chord})
            .error()
            .message == "wrap: circular needs a closed track");
  // A rail must share the track's topology.
  const auto open_rail = *UpSource<S>::rail(
      *MeasuredPath<S>::build(Path<S, 3>::catmull_rom({V(0, 1, 0), V(9, 1, 0)}, Closure::open)));
  const auto mixed = Track<S>::build(MeasuredPath<S>::build(circle<S>(S(5), 16)), open_rail);
  REQUIRE_FALSE(mixed);
  CHECK(mixed.error().code == ErrorCode::mismatched_topology);
  CHECK(mixed.error().message == "track: the rail is open but the path is closed");
  // Rotation-minimizing frames must be those of the track's curve.
  const auto loop = *MeasuredPath<S>::build(circle<S>(S(5), 16));
  const auto other = *MeasuredPath<S>::build(circle<S>(S(6), 16));
  const auto foreign = Track<S>::build(loop, *UpSource<S>::rotation_minimizing(other));
  REQUIRE_FALSE(foreign);
  CHECK(foreign.error().code == ErrorCode::mismatched_topology);
  CHECK(foreign.error().message.rfind(
            "track: the rotation-minimizing frames were built on another path (length ", 0) == 0);
  // A curve 1/2000 longer is another curve in float too (its tolerance was 4.3e-3 of the
  // length: frames of a loop with a key moved by 0.3 passed); the same curve measured at another
  // density is the same.
  const auto longer = *MeasuredPath<S>::build(circle<S>(S(5.0025), 16));
  CHECK_FALSE(Track<S>::build(loop, *UpSource<S>::rotation_minimizing(longer)));
  for (int density : {1, 3, 33}) {
    const auto remeasured =
        *MeasuredPath<S>::build(circle<S>(S(5), 16), ArcLengthSettings{density});
    CHECK(Track<S>::build(loop, *UpSource<S>::rotation_minimizing(remeasured)));
  }
  // Each build passes the error of the step before it through, unchanged.
  const auto chained = TrainSolver<S>::build(
      Track<S>::build(MeasuredPath<S>::build(Path<S, 3>::catmull_rom({V(1, 2, 3)}, Closure::open))),
      {{S(4), S(2)}});
  REQUIRE_FALSE(chained);
  CHECK(chained.error().message == "points: 1 given, at least 2 needed");
  const auto zero = TrainSolver<S>::build(
      Track<S>::build(
          MeasuredPath<S>::build(Path<S, 3>::catmull_rom({V(1, 2, 3), V(1, 2, 3)}, Closure::open))),
      {{S(4), S(2)}});
  CHECK(zero.error().message == "path: zero length (all control points equal)");
  // The same curve measured at another density fits.
  const auto dense = *MeasuredPath<S>::build(circle<S>(S(5), 16), {64});
  CHECK(Track<S>::build(loop, *UpSource<S>::rotation_minimizing(dense)));
  CHECK(Track<S>::build(
      MeasuredPath<S>::build(Path<S, 3>::catmull_rom({V(0, 0, 0), V(9, 0, 0)}, Closure::open)),
      open_rail));
}

TEMPLATE_TEST_CASE("arc spacing reports the lap of every bogie around the seam", "[train]", float,
                   double) {
  using S = TestType;
  auto rng = make_rng(83);
  const auto path =
      *Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 10, S(200)), Closure::closed);
  const auto track = *Track<S>::build(MeasuredPath<S>::build(path));
  const auto wagons = mixed_train<S>(rng, 12);
  const auto solver = *TrainSolver<S>::build(track, wagons, {Wrap::circular, Spacing::arc});
  const long double length = track.length();
  // Wagon i's front bogie is Σ_{j<i} length_j behind the head (the meaning of Wagon::length), so
  // its unwrapped distance and lap follow from the head alone, in long double.
  std::vector<long double> behind{0};
  for (const auto& w : wagons)
    behind.push_back(behind.back() + w.length);
  for (int k : {0, 1, 3, -2}) {
    for (std::size_t i = 1; i < wagons.size(); ++i) {
      // The head placed so that wagon i's front bogie falls just behind, on or just past the seam.
      for (long double shift : {-1e-3L, -1e-6L, 0.0L, 1e-6L}) {
        const S head = static_cast<S>(k * length + behind[i] + shift * length);
        const auto poses = solver.solve(head);
        for (std::size_t j = 0; j < poses.size(); ++j) {
          const long double unwrapped = static_cast<long double>(head) - behind[j];
          const long double lap = std::floor(unwrapped / length);
          const long double unwrapped_reported = poses[j].lap * length + poses[j].front_distance;
          INFO("k = " << k << ", wagon " << j << " (seam at wagon " << i << "), shift " << shift);
          CHECK(poses[j].front_distance >= S(0));
          CHECK(poses[j].front_distance < track.length());
          CHECK(std::fabs(unwrapped_reported - unwrapped) <=
                64 * eps<S>() * (length + std::fabs(head)));
          // The lap is the floor, except where the distance rounds onto the seam itself.
          const bool on_seam =
              std::fabs(unwrapped - (lap + 1) * length) <= 64 * eps<S>() * length ||
              std::fabs(unwrapped - lap * length) <= 64 * eps<S>() * length;
          if (!on_seam) CHECK(poses[j].lap == static_cast<long long>(lap));
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("clamp says which wagons are held at an end or compressed", "[train]", float,
                   double) {
  using S = TestType;
  using V = Vector3<S>;
  // A straight open track along x from 0 to 150, so distances are x and chords are arcs.
  const auto path = *Path<S, 3>::catmull_rom({V(0, 0, 0), V(50, 0, 0), V(100, 0, 0), V(150, 0, 0)},
                                             Closure::open);
  const auto track = *Track<S>::build(MeasuredPath<S>::build(path));
  const std::vector<Wagon<S>> wagons(6, Wagon<S>{S(15), S(10)});
  for (auto spacing : {Spacing::chord, Spacing::arc}) {
    const auto solver = *TrainSolver<S>::build(track, wagons, {Wrap::clamp, spacing});
    int counts[3] = {0, 0, 0};
    for (S head : {S(-20), S(0), S(40), S(80), S(150), S(157), S(240)}) {
      for (const auto& p : solver.solve(head)) {
        // The geometry decides, measured on the poses' own positions.
        const S spacing_now = p.front.origin.x() - p.rear.origin.x();
        const bool at_end = p.front.origin.x() <= S(1e-3) || p.rear.origin.x() <= S(1e-3) ||
                            p.front.origin.x() >= S(150) - S(1e-3) ||
                            p.rear.origin.x() >= S(150) - S(1e-3);
        INFO("head " << head << ", front " << p.front.origin.x() << ", rear " << p.rear.origin.x());
        const WagonStatus expected = !at_end                         ? WagonStatus::on_track
                                     : spacing_now < S(10) - S(1e-3) ? WagonStatus::compressed
                                                                     : WagonStatus::held_at_end;
        CHECK(p.status == expected);
        ++counts[static_cast<int>(p.status)];
      }
    }
    // Every status occurs in this run, so none of the checks above is vacuous.
    CHECK(counts[0] > 0);
    CHECK(counts[1] > 0);
    CHECK(counts[2] > 0);
  }
  // Loops and extend never hold a wagon.
  const auto extended = *TrainSolver<S>::build(track, wagons, {Wrap::extend, Spacing::arc});
  for (const auto& p : extended.solve(S(157)))
    CHECK(p.status == WagonStatus::on_track);
}

namespace {
// An open arc of a circle of radius R in the x–z plane from (R, 0, 0), `span` radians, as cubic
// Hermite segments with the usual 4/3·tan(step/4) handles.
template <class S>
Path<S, 3> open_arc(long double radius, long double span, int count) {
  std::vector<Vector3<S>> points, tangents;
  const long double step = span / count, handle = 4 * std::tan(step / 4);
  for (int k = 0; k <= count; ++k) {
    const long double angle = step * k;
    points.emplace_back(S(radius * std::cos(angle)), S(0), S(radius * std::sin(angle)));
    tangents.emplace_back(S(-radius * std::sin(angle) * handle), S(0),
                          S(radius * std::cos(angle) * handle));
  }
  return *Path<S, 3>::from_hermite_keys(points, tangents, Closure::open);
}
}  // namespace

TEMPLATE_TEST_CASE("a chord longer than an open track reaches back is solved past its start",
                   "[train]", float, double) {
  using S = TestType;
  // Three quarters of a circle of radius 20 (diameter 40, length 94.2) and a wagon whose bogies
  // are 50 apart: no track point is 50 away from another, so the rear bogie is on the straight
  // before the start (Wrap::extend: x = 20, z = −e at distance −e) or held at the start (clamp).
  // Chord spacing gave up there and spaced the bogies 38 apart by arc, calling the wagon on
  // track.
  const S radius = S(20), bogies = S(50);
  const auto track = *Track<S>::build(
      MeasuredPath<S>::build(open_arc<S>(20, 1.5L * detail::pi<long double>(), 32)));
  const auto extended =
      *TrainSolver<S>::build(track, {{S(60), bogies}}, {Wrap::extend, Spacing::chord});
  const auto clamped =
      *TrainSolver<S>::build(track, {{S(60), bogies}}, {Wrap::clamp, Spacing::chord});
  const S tol = S(1e-9) + S(64) * eps<S>() * S(100);
  for (S head = S(30); head <= track.length(); head += S(0.25)) {
    INFO("head " << head);
    const WagonPose<S> e = extended.solve(head)[0];
    const Vector3<S> f = e.front.origin;
    // The rear on the straight: (20 − fx)² + fy² + (e + fz)² = 50².
    const long double fx = f.x(), fy = f.y(), fz = f.z();
    const long double across = (radius - fx) * (radius - fx) + fy * fy;
    CHECK(std::abs((e.front.origin - e.rear.origin).norm() - bogies) <= tol);
    CHECK(e.status == WagonStatus::on_track);
    const long double behind = std::sqrt(bogies * bogies - across) - fz;
    CHECK(std::abs(e.rear_distance + S(behind)) <= tol);
    CHECK((e.rear.origin - Vector3<S>(radius, 0, S(-behind))).norm() <= tol);
    // Clamped, the rear is held at the start, nearer than the chord.
    const WagonPose<S> c = clamped.solve(head)[0];
    CHECK(c.rear_distance == S(0));
    CHECK(c.status == WagonStatus::compressed);
  }
}

TEMPLATE_TEST_CASE("wagon offsets are summed without drift in long trains", "[train]", float,
                   double) {
  using S = TestType;
  using V = Vector3<S>;
  const auto track = *Track<S>::build(MeasuredPath<S>::build(
      *Path<S, 3>::catmull_rom({V(0, 0, 0), V(1e5, 0, 0), V(2e5, 0, 0)}, Closure::open)));
  const S length = S(15.3);
  const std::vector<Wagon<S>> wagons(10000, Wagon<S>{length, S(10.1)});
  const auto solver = *TrainSolver<S>::build(track, wagons, {Wrap::extend, Spacing::arc});
  const auto poses = solver.solve(S(0));
  // Against k · length in long double (exact for float's 24 bits times 14): within an ulp of it.
  // A float sum rounded at every wagon ended 15.5 units off at the last (a thousand ulps).
  for (std::size_t k = 0; k < poses.size(); ++k) {
    const long double exact = -static_cast<long double>(k) * static_cast<long double>(length);
    REQUIRE(std::abs(poses[k].front_distance - exact) <= eps<S>() * std::abs(exact));
  }
}

TEST_CASE("chord spacing solves at coordinates of 1e120", "[train]") {
  // The first Halley step multiplied g by the slope, the chord cubed: it overflowed from 1e103
  // and the search fell back to arc spacing (9.95 where the chord is 10).
  for (double scale : {1.0, 1e103, 1e120}) {
    const auto track =
        *Track<double>::build(MeasuredPath<double>::build(circle<double>(30 * scale, 32)));
    const auto solver = *TrainSolver<double>::build(track, {{15 * scale, 10 * scale}},
                                                    {Wrap::automatic, Spacing::chord});
    const auto pose = solver.solve(5 * scale)[0];
    INFO("scale " << scale);
    CHECK(std::abs((pose.front.origin - pose.rear.origin).stableNorm() / scale - 10) <= 1e-9);
    // On the circle the chord 10 subtends an arc of 2R·asin(c / 2R).
    const double arc =
        std::fmod(pose.front_distance - pose.rear_distance + track.length(), track.length());
    CHECK(std::abs(arc / scale - 60 * std::asin(10.0 / 60)) <= 1e-4);
  }
}

TEMPLATE_TEST_CASE("a compressed wagon's body faces along the track, not along rounding", "[train]",
                   float, double) {
  using S = TestType;
  // Arc spacing, clamped: with the head at 15 + a few ulps, wagon 1's front bogie is a few ulps
  // past the start and its rear held at 0. The body's forward was the direction between two
  // points a few ulps apart, swinging by up to 0.64 rad from one ulp of the head to the next.
  const auto track = *Track<S>::build(MeasuredPath<S>::build(open_arc<S>(30, 2.5L, 16)));
  const auto solver =
      *TrainSolver<S>::build(track, {{S(15), S(10)}, {S(15), S(10)}}, {Wrap::clamp, Spacing::arc});
  const Vector3<S> start_tangent = Vector3<S>::UnitZ();  // the arc leaves (30, 0, 0) along +z
  S head = S(15);
  for (int k = 0; k < 40; ++k, head = std::nextafter(head, S(100))) {
    const WagonPose<S> pose = solver.solve(head)[1];
    INFO("head " << head << " (15 + " << k << " ulps), front " << pose.front_distance);
    REQUIRE(pose.front_distance <= S(64) * eps<S>() * S(30));
    CHECK(std::acos(std::min(S(1), pose.body.forward().dot(start_tangent))) <= S(1e-3));
  }
  // A wagon that is not compressed keeps its chord, however many ulps its bogies span: on a float
  // circle of radius 100 10⁵ out, 2¹⁰ ulps are 12 units, and bogies 10 apart had taken the
  // tangent, asin(5 / 100) = 0.05 rad off their chord.
  const auto far = *Track<S>::build(MeasuredPath<S>::build(closed_curve<S>(
      64, S(0),
      [](long double t) { return Vector3l(1e5L + 100 * std::cos(t), 0, 100 * std::sin(t)); },
      [](long double t) { return Vector3l(-100 * std::sin(t), 0, 100 * std::cos(t)); })));
  const auto train =
      *TrainSolver<S>::build(far, {{S(15), S(10)}}, {Wrap::automatic, Spacing::chord});
  for (S at = S(0); at < S(600); at += S(37)) {
    const WagonPose<S> pose = train.solve(at)[0];
    const Vector3<double> chord =
        (pose.front.origin.template cast<double>() - pose.rear.origin.template cast<double>())
            .normalized();
    INFO("head " << at);
    CHECK(std::acos(std::min(1.0, pose.body.forward().template cast<double>().dot(chord))) <= 2e-3);
  }
}

namespace {
// An engine's transform record: position, rotation quaternion (x, y, z, w), and its own flags.
template <class T>
struct EngineTransform {
  T position[3];
  T rotation[4];
  std::uint32_t flags;
};

// v rotated by the unit quaternion (x, y, z, w): v + 2w (q × v) + 2 q × (q × v).
template <class T>
Vector3<double> rotate(const T (&q)[4], const Vector3<double>& v) {
  const Vector3<double> u{static_cast<double>(q[0]), static_cast<double>(q[1]),
                          static_cast<double>(q[2])};
  const Vector3<double> c = u.cross(v);
  return v + 2 * static_cast<double>(q[3]) * c + 2 * u.cross(c);
}

template <class T>
void check_transform(const EngineTransform<T>& record, const Vector3<double>& origin,
                     const Eigen::Matrix3d& rotation, double tolerance) {
  for (int k = 0; k < 3; ++k)
    CHECK(record.position[k] == static_cast<T>(origin[k]));
  double norm2 = 0;
  for (const T component : record.rotation)
    norm2 += static_cast<double>(component) * static_cast<double>(component);
  const double norm = std::sqrt(norm2);
  CHECK(std::abs(norm - 1) <= tolerance);
  CHECK(record.rotation[3] >= T(0));  // one sign for every record: w >= 0
  // The quaternion turns the axes into the frame's side, up and forward.
  for (int axis = 0; axis < 3; ++axis)
    CHECK((rotate(record.rotation, Vector3<double>::Unit(axis)) - rotation.col(axis)).norm() <=
          tolerance);
  CHECK(record.flags == 0xA5A5A5A5u);  // the caller's own field is untouched
}
}  // namespace

TEMPLATE_TEST_CASE("solve writes engines' transform arrays: position and quaternion xyzw",
                   "[train][caller_arrays]", float, double) {
  using T = TestType;
  const double tolerance = 8 * static_cast<double>(std::numeric_limits<T>::epsilon());
  const auto track = *Track<double>::build(
      MeasuredPath<double>::build(circle<double>(80, 16)),
      UpSource<double>::world()->with_roll(*RollProfile<double>::build({0.0}, {0.3})));
  auto rng = make_rng(131);
  const auto train = mixed_train<double>(rng, 9);
  for (Spacing spacing : {Spacing::chord, Spacing::arc}) {
    const auto solver = *TrainSolver<double>::build(track, train, {Wrap::automatic, spacing});
    const auto poses = solver.solve(123.0);
    std::vector<EngineTransform<T>> body(9), front(9), rear(9), centered(5);
    for (auto* records : {&body, &front, &rear, &centered})
      for (auto& r : *records)
        r.flags = 0xA5A5A5A5u;
    const std::size_t stride = sizeof(EngineTransform<T>);
    WagonPoseArrays<T> out;
    out.body = {body[0].position, body.size(), stride};
    out.front = {front[0].position, front.size(), stride};
    out.rear = {rear[0].position, rear.size(), stride};
    // A shorter array: only its count of wagons is written, for every part.
    out.body_centered = {centered[0].position, centered.size(), stride};
    REQUIRE_FALSE(out.error());
    CHECK(solver.solve(123.0, out) == 5u);
    for (std::size_t i = 0; i < 5; ++i) {
      INFO("wagon " << i);
      check_transform(body[i], poses[i].body.origin, poses[i].body.rotation, tolerance);
      check_transform(front[i], poses[i].front.origin, poses[i].front.rotation, tolerance);
      check_transform(rear[i], poses[i].rear.origin, poses[i].rear.rotation, tolerance);
      check_transform(centered[i], poses[i].body_midpoint, poses[i].body.rotation, tolerance);
    }
    for (std::size_t i = 5; i < 9; ++i)
      CHECK(body[i].position[0] == T(0));  // value-initialized, never written
    // Parts left out are skipped.
    std::vector<EngineTransform<T>> only_front(9);
    for (auto& r : only_front)
      r.flags = 0xA5A5A5A5u;
    WagonPoseArrays<T> front_only;
    front_only.front = {only_front[0].position, only_front.size(), stride};
    CHECK(solver.solve(123.0, front_only) == 9u);
    for (std::size_t i = 0; i < 9; ++i)
      check_transform(only_front[i], poses[i].front.origin, poses[i].front.rotation, tolerance);
    // Arrays that cannot be written are named by error() and skipped by solve.
    WagonPoseArrays<T> broken = front_only;
    broken.rear = {nullptr, 9, stride};
    CHECK(broken.error()->message == "rear: null pointer for 9 poses");
    broken.rear = {only_front[0].position, 9, 6 * sizeof(T)};
    CHECK(broken.error()->message == "rear: stride " + std::to_string(6 * sizeof(T)) +
                                         " bytes is shorter than a pose (" +
                                         std::to_string(7 * sizeof(T)) + " bytes)");
    CHECK(solver.solve(123.0, broken) == 9u);  // the front part still written
    CHECK(solver.solve(123.0, WagonPoseArrays<T>{}) == 0u);
    // Matrices in Unreal's axes (Z up, left-handed: world (x, y, z) → (x, z, y); objects face
    // +X with +Z up), 20 values per record: the body's centre and forward, written out here.
    std::vector<T> unreal(9 * 20, T(-7));
    WagonPoseArrays<T> engine;
    engine.body_centered = PoseArray<T>::matrices(unreal.data(), 9, 20 * sizeof(T));
    engine.axes = EngineAxes::unreal();
    REQUIRE_FALSE(engine.error());
    CHECK(solver.solve(123.0, engine) == 9u);
    for (std::size_t i = 0; i < 9; ++i) {
      const T* m = &unreal[20 * i];
      const Vector3<double> c = poses[i].body_midpoint, f = poses[i].body.forward(),
                            u = poses[i].body.up();
      CHECK((Vector3<double>(m[12], m[13], m[14]) - Vector3<double>(c.x(), c.z(), c.y())).norm() <=
            tolerance * 200);
      CHECK((Vector3<double>(m[0], m[1], m[2]) - Vector3<double>(f.x(), f.z(), f.y())).norm() <=
            tolerance);
      CHECK((Vector3<double>(m[8], m[9], m[10]) - Vector3<double>(u.x(), u.z(), u.y())).norm() <=
            tolerance);
      CHECK(m[15] == T(1));
      CHECK(m[16] == T(-7));  // the engine's own fields after the matrix
    }
    engine.body_centered.stride_bytes = 7 * sizeof(T);
    CHECK(engine.error()->message == "body_centered: stride " + std::to_string(7 * sizeof(T)) +
                                         " bytes is shorter than a pose (" +
                                         std::to_string(16 * sizeof(T)) + " bytes)");
  }
}

namespace {
// A batch of trains as a railway's traffic: on a loop with a world up (one up vector for every
// frame) and on a banked trefoil (an up vector per frame), compiled and not, arc and chord
// spacing, one train with no wagons.
template <class S>
std::vector<TrainSolver<S>> mixed_batch(std::mt19937_64& rng) {
  const auto loop = *Track<S>::build(MeasuredPath<S>::build(circle<S>(S(80), 16)));
  const auto banked =
      *Track<S>::build(MeasuredPath<S>::build(trefoil<S>(24, S(60))),
                       UpSource<S>::world()->with_roll(*RollProfile<S>::build({S(0)}, {S(0.3)})));
  std::vector<TrainSolver<S>> trains;
  const Spacing spacings[] = {Spacing::arc, Spacing::chord};
  const int sizes[] = {7, 0, 12, 3, 9, 5};
  for (int k = 0; k < 6; ++k) {
    const Track<S> track = k % 3 == 0 ? loop : k % 3 == 1 ? banked : banked.compiled();
    trains.push_back(*TrainSolver<S>::build(track, mixed_train<S>(rng, sizes[k]),
                                            {Wrap::circular, spacings[k % 2]}));
  }
  return trains;
}
}  // namespace

TEST_CASE("solve_trains writes a batch into engine arrays, whole or by ranges",
          "[train][caller_arrays]") {
  using S = double;
  auto rng = make_rng(133);
  const auto trains = mixed_batch<S>(rng);
  std::vector<S> heads;
  std::size_t total = 0;
  for (const auto& train : trains) {
    heads.push_back(uniform<S>(rng, S(-500), S(500)));
    total += train.wagons().size();
  }
  // The records as each train's WagonPose solve gives them, written by PoseArray alone: front
  // bogies as position + quaternion, bodies centred as row-major matrices, in Unity's axes.
  const EngineAxes axes = EngineAxes::unity();
  std::vector<float> front_expected(7 * total), body_expected(16 * total);
  const auto front_records = PoseArray<float>::poses(front_expected.data(), total);
  const auto body_records = PoseArray<float>::matrices_row_major(body_expected.data(), total);
  std::size_t offset = 0;
  for (std::size_t k = 0; k < trains.size(); ++k)
    for (const WagonPose<S>& pose : trains[k].solve(heads[k])) {
      front_records.write(offset, pose.front.origin, pose.front.rotation, axes);
      body_records.write(offset++, pose.body_midpoint, pose.body.rotation, axes);
    }

  std::vector<float> front(7 * total), body(16 * total);
  auto clear = [&] {
    std::fill(front.begin(), front.end(), -7.0f);
    std::fill(body.begin(), body.end(), -7.0f);
  };
  WagonPoseArrays<float> out;
  out.front = PoseArray<float>::poses(front.data(), total);
  out.body_centered = PoseArray<float>::matrices_row_major(body.data(), total);
  out.axes = axes;
  clear();
  CHECK(solve_trains(trains.data(), heads.data(), trains.size(), out) == total);
  CHECK(front == front_expected);
  CHECK(body == body_expected);
  // Any split into two ranges, as two workers of a job system, writes the same records.
  for (std::size_t split = 0; split <= trains.size(); ++split) {
    INFO("split at train " << split);
    clear();
    const std::size_t first =
        solve_trains(trains.data(), heads.data(), trains.size(), out, 0, split);
    const std::size_t second =
        solve_trains(trains.data(), heads.data(), trains.size(), out, split, trains.size() + 3);
    CHECK(first + second == total);
    CHECK(front == front_expected);
    CHECK(body == body_expected);
  }
  // Arrays shorter than the batch: records up to the shortest part, nothing past them (also
  // where a train's records would start exactly at the end: trains start at 0, 7, 7, 19, 22, 31).
  for (const std::size_t short_count : {total - 6, std::size_t(22), std::size_t(7)}) {
    INFO("body part of " << short_count << " records");
    out.body_centered.count = short_count;
    clear();
    CHECK(solve_trains(trains.data(), heads.data(), trains.size(), out) == short_count);
    CHECK(std::equal(body.begin(), body.begin() + std::ptrdiff_t(16 * short_count),
                     body_expected.begin()));
    CHECK(std::all_of(body.begin() + std::ptrdiff_t(16 * short_count), body.end(),
                      [](float v) { return v == -7.0f; }));
    CHECK(std::all_of(front.begin() + std::ptrdiff_t(7 * short_count), front.end(),
                      [](float v) { return v == -7.0f; }));
  }
  CHECK(solve_trains(trains.data(), heads.data(), trains.size(), WagonPoseArrays<float>{}) == 0u);
  CHECK(solve_trains(trains.data(), heads.data(), 0, out) == 0u);
}

TEMPLATE_TEST_CASE("a solve into engine arrays by ranges writes the whole solve's records",
                   "[train][caller_arrays]", float, double) {
  using S = TestType;
  auto rng = make_rng(134);
  const auto trains = mixed_batch<S>(rng);
  for (const auto& train : trains) {
    const std::size_t n = train.wagons().size();
    std::vector<S> whole(7 * n, S(-7)), ranged(7 * n, S(-7));
    WagonPoseArrays<S> out;
    out.body = PoseArray<S>::poses(whole.data(), n);
    CHECK(train.solve(S(42), out) == n);
    out.body = PoseArray<S>::poses(ranged.data(), n);
    for (std::size_t begin = 0; begin < n; begin += 4)
      CHECK(train.solve(S(42), out, begin, begin + 4) == n);
    CHECK(ranged == whole);
    const auto poses = train.solve(S(42));
    std::vector<S> expected(7 * n);
    for (std::size_t j = 0; j < n; ++j)
      PoseArray<S>::poses(expected.data(), n)
          .write(j, poses[j].body.origin, poses[j].body.rotation);
    CHECK(whole == expected);
  }
}

// HeadPosition against the exact sum of its deltas, kept in long double (64-bit mantissa: sums of
// 10⁶ float deltas are exact there) and wrapped with fmodl.
TEMPLATE_TEST_CASE("a head advanced every frame keeps the exact wrapped sum and counts laps",
                   "[train][head]", float, double) {
  using S = TestType;
  const auto track = *Track<S>::build(MeasuredPath<S>::build(circle<S>(S(75), 16)));
  const long double length = track.length();
  // The distance between a head and the reference, the short way round the loop.
  const auto gap = [&](S head, long double reference) {
    const long double d = std::fabs(static_cast<long double>(head) - reference);
    return std::min(d, length - d);
  };
  SECTION("a million frames of 0.025") {
    const S step = S(0.025);
    HeadPosition<S> head(track);
    S naive = S(0);  // what a game does: head += speed · dt
    const int frames = 1000000;
    for (int i = 0; i < frames; ++i) {
      head.advance(step);
      naive += step;
    }
    if (std::numeric_limits<long double>::digits < 64 && sizeof(S) == sizeof(double)) {
      WARN("long double is double here: no exact reference for a double head");
      return;
    }
    const long double exact = static_cast<long double>(frames) * static_cast<long double>(step);
    CHECK(gap(head.distance(), std::fmod(exact, length)) <= 2 * eps<S>() * length);
    CHECK(head.lap() == static_cast<long long>(std::floor(exact / length)));
    // The same head and laps together, as LoopDistance.
    const LoopDistance<S> both = head.loop_distance();
    CHECK(gap(both.distance, std::fmod(exact, length)) <= 2 * eps<S>() * length);
    CHECK(both.lap == static_cast<long long>(std::floor(exact / length)));
    CHECK(head.distance() >= S(0));
    CHECK(head.distance() < track.length());
    // The naive sum has drifted (float: stalled) far beyond that.
    CHECK(std::fabs(static_cast<long double>(naive) - exact) > 1000 * eps<S>() * length);
  }
  SECTION("steps of exactly one lap") {
    // The exact sum of 10 and whole laps, wrapped, is 10: a lap counted, nothing added (10 + L
    // rounds, and L taken off again would leave 10 an ulp off).
    const S start = S(10) + S(1) / S(3);
    HeadPosition<S> head(track, start);
    for (int i = 1; i <= 5; ++i) {
      head.advance(track.length());
      CHECK(head.distance() == start);
      CHECK(head.lap() == i);
    }
    for (int i = 4; i >= -3; --i) {
      head.advance(-track.length());
      CHECK(head.distance() == start);
      CHECK(head.lap() == i);
    }
  }
  SECTION("random steps both ways, and jumps of many laps") {
    auto rng = make_rng(67);
    HeadPosition<S> head(track, S(10));
    // The reference wrapped every step too: a running long double sum of ±40-lap jumps would
    // itself drift past double's promise.
    long double wrapped = 10;
    long long laps = 0;
    for (int i = 0; i < property_count(100000); ++i) {
      const S step = i % 1000 == 999 ? uniform<S>(rng, S(-40), S(40)) * track.length()
                                     : uniform<S>(rng, S(-0.05), S(0.1));
      head.advance(step);
      wrapped += step;
      const long double whole = std::floor(wrapped / length);
      wrapped -= whole * length;
      laps += static_cast<long long>(whole);
      INFO("step " << i);
      REQUIRE(head.distance() >= S(0));
      REQUIRE(head.distance() < track.length());
      REQUIRE(gap(head.distance(), wrapped) <= 4 * eps<S>() * length);
      if (std::min(wrapped, length - wrapped) > 8 * eps<S>() * length) REQUIRE(head.lap() == laps);
    }
  }
  SECTION("jumps of 10⁷ to 10¹² laps among small steps keep the carry") {
    // Each jump's whole laps are exact in the reference (fmodl), so the wrapped reference is the
    // exact sum. A jump added at its own magnitude rounded the carry away: float drifted 1.6 eps
    // of the length over 200 jumps.
    auto rng = make_rng(71);
    HeadPosition<S> head(track, S(10));
    long double wrapped = 10;
    for (int i = 0; i < property_count(20000); ++i) {
      S step = uniform<S>(rng, S(-0.05), S(0.1));
      if (i % 100 == 99) {
        const S laps = std::pow(S(10), uniform<S>(rng, S(7), S(12)));
        step = (i % 200 == 199 ? -laps : laps) * track.length() + step;
      }
      head.advance(step);
      wrapped += std::fmod(static_cast<long double>(step), length);
      wrapped -= std::floor(wrapped / length) * length;
      INFO("step " << i);
      REQUIRE(head.distance() >= S(0));
      REQUIRE(head.distance() < track.length());
      REQUIRE(gap(head.distance(), wrapped) <= eps<S>() * length);
    }
  }
  SECTION("steps that end within rounding of the seam stay in [0, length)") {
    for (const S tiny : {S(1e-7), S(1e-12), -S(1e-7), std::numeric_limits<S>::denorm_min()}) {
      HeadPosition<S> head(track);
      head.advance(-tiny);
      CHECK(head.distance() >= S(0));
      CHECK(head.distance() < track.length());
      CHECK(gap(head.distance(), tiny > S(0) ? length - tiny : -tiny) <= 2 * eps<S>() * length);
      head.advance(tiny);
      CHECK(head.distance() >= S(0));
      CHECK(head.distance() < track.length());
      CHECK(gap(head.distance(), 0) <= 2 * eps<S>() * length);
    }
    // A train reversing slowly through the seam: each step is below half an ulp of the length, so
    // every one lands within rounding of it. The head was snapped to 0 each time and never moved.
    const S crawl = S(0.25) * eps<S>() * track.length();
    HeadPosition<S> reversing(track);
    const int steps = 4096;
    for (int i = 0; i < steps; ++i)
      reversing.advance(-crawl);
    CHECK(reversing.lap() == -1);
    CHECK(reversing.distance() < track.length());
    CHECK(gap(reversing.distance(), length - steps * static_cast<long double>(crawl)) <=
          2 * eps<S>() * length);
    // A jump of 10¹¹ lengths counts its laps exactly (a float quotient held 2^24 of them).
    HeadPosition<S> jump(track, S(1));
    const S leap = S(1e11) * track.length();
    jump.advance(leap);
    const long double jumped = 1 + static_cast<long double>(leap);
    CHECK(jump.lap() == static_cast<long long>(std::floor(jumped / length)));
    // Laps saturate instead of overflowing.
    HeadPosition<S> far(track);
    for (int i = 0; i < 4; ++i)
      far.advance(std::numeric_limits<S>::max() / S(2));
    CHECK(far.lap() > 0);
    CHECK(far.distance() >= S(0));
    CHECK(far.distance() < track.length());
  }
  SECTION("non-finite steps are ignored; open track is not wrapped") {
    HeadPosition<S> head(track, S(5));
    head.advance(std::numeric_limits<S>::quiet_NaN());
    head.advance(std::numeric_limits<S>::infinity());
    CHECK(head.distance() == S(5));
    CHECK(head.lap() == 0);
    const auto open = *Track<S>::build(MeasuredPath<S>::build(
        Path<S>::catmull_rom({Vector3<S>(0, 0, 0), Vector3<S>(10, 0, 0)}, Closure::open)));
    HeadPosition<S> on_open(open, S(-3));
    on_open.advance(S(25));
    CHECK(on_open.distance() == S(22));
    CHECK(on_open.lap() == 0);
    // A finite step whose sum overflows is ignored too (it left the head NaN for good); the 22
    // carried under the largest distance comes back.
    on_open.advance(std::numeric_limits<S>::max());
    on_open.advance(std::numeric_limits<S>::max());
    CHECK(on_open.distance() == std::numeric_limits<S>::max());
    on_open.advance(-std::numeric_limits<S>::max());
    CHECK(on_open.distance() == S(22));
  }
}

TEMPLATE_TEST_CASE("a bogie distance of many laps on a loop wraps exactly", "[train]", float,
                   double) {
  using S = TestType;
  // A bogie 1e299 (1e30 in float) behind its front on a loop of ~63: the rear was stepped back
  // a lap at a time, and s + length rounds to s there, so the solve never ended (found by
  // fuzz_train). The reference: the exact remainder of the rounded difference, in long double.
  const auto track = Track<S>::build(MeasuredPath<S>::build(test::circle<S>(S(10), 8)));
  REQUIRE(track);
  const S far = std::is_same<S, float>::value ? S(1e30) : S(1e299);
  const auto solver =
      TrainSolver<S>::build(*track, {{far, far}, {S(5), S(4)}}, {Wrap::circular, Spacing::arc});
  REQUIRE(solver);
  const long double length = track->length();
  for (const S head : {S(0), S(3), S(10) * far}) {
    INFO("head " << head);
    const auto poses = solver->solve(head);
    const S difference = poses[0].front_distance - far;
    long double want = std::fmod(static_cast<long double>(difference), length);
    if (want < 0) want += length;
    CHECK(poses[0].rear_distance >= S(0));
    CHECK(poses[0].rear_distance < track->length());
    CHECK(std::abs(static_cast<long double>(poses[0].rear_distance) - want) <=
          4 * eps<S>() * length);
    for (const auto& pose : poses)
      CHECK(pose.rear.origin.allFinite());
  }
}
