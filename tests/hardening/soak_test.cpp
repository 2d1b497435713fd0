// A day of running, sped up: a game advancing its trains at 120 Hz for TRACTRIX_SOAK_FRAMES
// frames (default 2·10⁵, about half an hour of play; 10⁷ is a day: see docs/development.md),
// solving one frame in every 997 (a frame is what the game would draw). On a loop the head is a
// HeadPosition: after every frame it is the correctly rounded sum of every step (an exact sum in
// long double, the reference), with its lap count. On a network whose switches are thrown at
// random, the train asks for its route as it goes (Route::around). Every solved frame: finite,
// every bogie on the track (on a piece, within its length), chord spacing equal to the wheelbase;
// no frame allocates, except where the train asks for a new route.
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "support/catch.hpp"
#include "support/counting_new.hpp"
#include "support/pieces.hpp"
#include "support/properties.hpp"
#include "support/shapes.hpp"
#include "tractrix/tractrix.hpp"

using namespace tractrix;

namespace {

long frames() {
  return test::env_count("TRACTRIX_SOAK_FRAMES", 200000);
}

template <class S>
bool finite(const WagonPose<S>& p) {
  return p.front.origin.allFinite() && p.rear.origin.allFinite() && p.body.origin.allFinite() &&
         p.body.rotation.allFinite() && std::isfinite(p.front_distance) &&
         std::isfinite(p.rear_distance);
}

// What went wrong in a run, counted without Catch inside the frame loop (its macros allocate).
struct Faults {
  long drift = 0, laps = 0, not_finite = 0, off_track = 0, spacing = 0, allocations = 0;
  long solved = 0;

  // A solved frame's poses: finite, on the track (`on_track`, the run's own test), each wagon's
  // bogies `tolerance` from its wheelbase apart.
  template <class S, class OnTrack>
  void count(const std::vector<WagonPose<S>>& poses, const std::vector<Wagon<S>>& wagons,
             S tolerance, OnTrack on_track) {
    ++solved;
    for (std::size_t i = 0; i < poses.size(); ++i) {
      const WagonPose<S>& p = poses[i];
      if (!finite(p)) ++not_finite;
      if (!on_track(p)) ++off_track;
      const S chord = (p.front.origin - p.rear.origin).norm();
      if (!(std::abs(chord - wagons[i].bogie_distance) <= tolerance)) ++spacing;
    }
  }
};

// A run without a fault, and one that solved frames.
void check_clean(const Faults& faults, long frames) {
  INFO(faults.solved << " frames solved of " << frames);
  CHECK(faults.solved > 0);
  CHECK(faults.drift == 0);
  CHECK(faults.laps == 0);
  CHECK(faults.not_finite == 0);
  CHECK(faults.off_track == 0);
  CHECK(faults.spacing == 0);
#if !defined(TRACTRIX_SANITIZED)
  CHECK(faults.allocations == 0);
#endif
}

// A speed that changes every few seconds, as a driver's: 0 to 40 units/s, now and then backing.
template <class S>
S speed_at(long frame, std::mt19937_64& rng, S current) {
  if (frame % 600 != 0) return current;
  std::uniform_real_distribution<double> pick(-5.0, 40.0);
  return S(pick(rng));
}

}  // namespace

TEMPLATE_TEST_CASE("soak: a day on a loop keeps the head exact and every wagon in shape", "[soak]",
                   float, double) {
  using S = TestType;
  const auto track = *Track<S>::build(MeasuredPath<S>::build(test::trefoil<S>(48, S(800))));
  const S length = track.length();
  std::vector<Wagon<S>> wagons;
  for (int i = 0; i < 30; ++i)
    wagons.push_back({S(14 + i % 3), S(10)});
  const auto solver = *TrainSolver<S>::build(track, wagons, {Wrap::circular, Spacing::chord});
  std::vector<WagonPose<S>> poses(wagons.size());
  HeadPosition<S> head(track, S(0));
  // The sum of every step as S rounded it, compensated (TwoSum) in long double: within 1e-19
  // of it relative, far inside an ulp of S.
  long double exact = 0, carry = 0;
  std::mt19937_64 rng(101);
  S speed = S(20);
  const S dt = S(1) / S(120);
  Faults faults;
  const long n = frames();
  // The chord search's promise: |chord − wheelbase| within 1e-12 of the length or 2 eps of the
  // coordinates' scale, whichever is larger; twice that for the rounding of this check's own
  // difference of the two points.
  const S tolerance = S(2) * std::max(S(1e-12) * length, S(2) * std::numeric_limits<S>::epsilon() *
                                                             track.coordinate_scale());
  {
    Counting scope;
    for (long frame = 0; frame < n; ++frame) {
      speed = speed_at(frame, rng, speed);
      const S step = speed * dt;
      head.advance(step);
      const long double x = static_cast<long double>(step), sum = exact + x;
      carry += (exact - (sum - (sum - exact))) + (x - (sum - exact));
      exact = sum;
      if (frame % 997 != 0 && frame + 1 != n) continue;
      // The head: the exact sum wrapped, rounded to S (within rounding's half ulp, plus the ulp
      // below the seam where a head rounds onto the length), and its whole laps.
      const long double total = exact + carry;
      const long double lap = std::floor(total / static_cast<long double>(length));
      const long double wrapped = total - lap * static_cast<long double>(length);
      const long double ulp = static_cast<long double>(std::nextafter(length, S(0)) - length);
      if (std::fabs(static_cast<long double>(head.distance()) - wrapped) > std::fabs(ulp))
        ++faults.drift;
      if (head.lap() != static_cast<long long>(lap) &&
          !(std::fabs(wrapped) <= std::fabs(ulp) ||
            std::fabs(wrapped - static_cast<long double>(length)) <= std::fabs(ulp)))
        ++faults.laps;
      solver.solve(head.distance(), poses.data());
      faults.count(poses, wagons, tolerance,
                   [](const WagonPose<S>& p) { return p.status == WagonStatus::on_track; });
    }
    faults.allocations = scope.made();
  }
  check_clean(faults, n);
  // It went somewhere: the mean speed is 17.5 units/s (uniform in [−5, 40]).
  CHECK(std::abs(static_cast<double>(exact)) > 5.0 * double(n) / 120.0);
}

TEMPLATE_TEST_CASE("soak: a day on a network whose switches are thrown at random", "[soak]", float,
                   double) {
  // An oval with a passing loop (the network demo's, without its siding): the passing loop's two
  // switches thrown at random every few seconds, under the train or not. The train asks for its
  // route every second (Route::around): the steps under it kept, the rest as the switches lead.
  // Between asks no frame allocates.
  using S = TestType;
  std::vector<Track<S>> pieces;
  // The oval: straights 200 long at z = 0 and z = 100, ends of radius 50; the passing loop
  // beside the bottom straight between x = 50 and 150.
  const auto line = [](Vector3<S> a, Vector3<S> b) { return test::straight_piece(a, b); };
  const auto bend = [](Vector3<S> centre, S from) {
    std::vector<Vector3<S>> points, tangents;
    for (int k = 0; k <= 4; ++k) {
      const S a = from + S(k) * S(detail::pi<double>() / 4);
      points.push_back(centre + S(50) * Vector3<S>(std::sin(a), 0, -std::cos(a)));
      tangents.push_back(S(50 * 4 * std::tan(detail::pi<double>() / 16)) *
                         Vector3<S>(std::cos(a), 0, std::sin(a)));
    }
    return *Track<S>::build(
        MeasuredPath<S>::build(Path<S, 3>::from_hermite_keys(points, tangents, Closure::open)));
  };
  using V = Vector3<S>;
  pieces.push_back(line(V(0, 0, 0), V(50, 0, 0)));    // 0
  pieces.push_back(line(V(50, 0, 0), V(150, 0, 0)));  // 1
  pieces.push_back(*Track<S>::build(MeasuredPath<S>::build(Path<S, 3>::from_segments(
      {CubicBezier<S, 3>{{V(50, 0, 0), V(75, 0, 0), V(75, 0, -10), V(100, 0, -10)}},
       CubicBezier<S, 3>{{V(100, 0, -10), V(125, 0, -10), V(125, 0, 0), V(150, 0, 0)}}},
      Closure::open))));                                         // 2
  pieces.push_back(line(V(150, 0, 0), V(200, 0, 0)));            // 3
  pieces.push_back(bend(V(200, 0, 50), S(0)));                   // 4
  pieces.push_back(line(V(200, 0, 100), V(0, 0, 100)));          // 5
  pieces.push_back(bend(V(0, 0, 50), S(detail::pi<double>())));  // 6
  const auto network = *Network<S>::join_ends(std::move(pieces));
  REQUIRE(network.joint_count() == 6);
  SwitchSettings settings = network.default_settings();
  std::vector<Wagon<S>> wagons(6, Wagon<S>{S(16), S(11)});
  const S train_length = S(6 * 16 + 11);
  auto route = *Route<S>::follow(network, settings, {0, Direction::forward}, S(600));
  S head = train_length + S(1);
  auto solver = *TrainSolver<S, Route<S>>::build(route, wagons, {Wrap::clamp, Spacing::chord});
  std::vector<WagonPose<S>> poses(wagons.size());
  std::mt19937_64 rng(103);
  S speed = S(20);
  const S dt = S(1) / S(120);
  const S tolerance =
      S(2) * std::max(S(1e-12) * route.length(),
                      S(2) * std::numeric_limits<S>::epsilon() * route.coordinate_scale());
  Faults faults;
  const long n = frames() / 10;  // each reroute allocates and builds a solver: fewer frames
  for (long frame = 0; frame < n; ++frame) {
    if (frame % 120 == 0) {  // once a second: maybe throw the switches, and ask for the route
      if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
        const bool via_loop = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
        for (const End end : {End::start, End::end})
          if (settings.set({via_loop ? std::size_t(2) : std::size_t(1), end})) ++faults.off_track;
      }
      const auto moved = route.around(head, train_length, settings, S(300), S(20));
      if (!moved) {
        ++faults.off_track;
        break;
      }
      route = moved->route;
      head = moved->head;
      solver = *TrainSolver<S, Route<S>>::build(route, wagons, {Wrap::clamp, Spacing::chord});
    }
    Counting scope;
    speed = std::max(speed_at(frame, rng, speed), S(2));  // forward only: around looks ahead
    head += speed * dt;
    if (frame % 97 == 0) {
      solver.solve(head, poses.data());
      // Both bogies on a piece, within its length.
      faults.count(poses, wagons, tolerance, [&network](const WagonPose<S>& p) {
        for (const PiecePlace<S>& place : {p.front_place, p.rear_place})
          if (place.piece >= network.piece_count() || !(place.distance >= S(0)) ||
              !(place.distance <= network.piece(place.piece).length()))
            return false;
        return true;
      });
    }
    faults.allocations += scope.made();
  }
  check_clean(faults, n);
}
