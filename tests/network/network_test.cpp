// Networks and routes: a route through several pieces against the same geometry as one curve,
// trains through a switch in small steps, reversal, switches thrown under traffic, bad networks.
#include <algorithm>
#include <clocale>
#include <cmath>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/catch.hpp"
#include "support/pieces.hpp"
#include "support/properties.hpp"
#include "support/reference_closest_point.hpp"
#include "support/same_pose.hpp"
#include "support/shapes.hpp"
#include "tractrix/io/network_file.hpp"
#include "tractrix/network/route.hpp"
#include "tractrix/train/kinematics.hpp"
#include "tractrix/train/train_solver.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

using Segments = std::vector<CubicBezier<double, 3>>;

struct Split {
  Network<double> network;
  std::vector<Step> steps;
};

// `path` cut at `cuts` (segment indices, increasing, ending at path.size()) into pieces joined end
// to end; the pieces with odd index are stored turned round and driven backwards.
Split split(const Path<double, 3>& path, const std::vector<std::size_t>& cuts,
            const UpSource<double>& up, bool turn_odd = true) {
  std::vector<Track<double>> pieces;
  std::vector<Step> steps;
  std::size_t begin = 0;
  for (std::size_t k = 0; k < cuts.size(); ++k) {
    const bool turn = turn_odd && k % 2 == 1;
    pieces.push_back(piece_of(path, begin, cuts[k], turn, up));
    steps.push_back({k, turn ? Direction::backward : Direction::forward});
    begin = cuts[k];
  }
  std::vector<std::vector<PieceEnd>> joints;
  const std::size_t joined = path.closed() ? steps.size() : steps.size() - 1;
  for (std::size_t k = 0; k < joined; ++k)
    joints.push_back({steps[k].exit(), steps[(k + 1) % steps.size()].entry()});
  auto network = Network<double>::build(std::move(pieces), joints);
  REQUIRE(network);
  return {*network, steps};
}

std::vector<Wagon<double>> train_of(int count) {
  std::vector<Wagon<double>> wagons;
  for (int i = 0; i < count; ++i)
    wagons.push_back({12.0 + 3.0 * (i % 3), 8.0 + (i % 2), 1.0});
  return wagons;
}

// Poses of the same train on the route and on the single curve agree to `tolerance` (positions,
// distances) and to tolerance / length in the rotations.
void check_same_poses(const std::vector<WagonPose<double>>& route,
                      const std::vector<WagonPose<double>>& curve, double tolerance,
                      double length) {
  REQUIRE(route.size() == curve.size());
  for (std::size_t i = 0; i < route.size(); ++i) {
    INFO("wagon " << i);
    CHECK((route[i].front.origin - curve[i].front.origin).norm() <= tolerance);
    CHECK((route[i].rear.origin - curve[i].rear.origin).norm() <= tolerance);
    CHECK((route[i].coupler - curve[i].coupler).norm() <= tolerance);
    CHECK(std::abs(route[i].front_distance - curve[i].front_distance) <= tolerance);
    CHECK(std::abs(route[i].rear_distance - curve[i].rear_distance) <= tolerance);
    CHECK(route[i].status == curve[i].status);
    for (auto part :
         {&WagonPose<double>::front, &WagonPose<double>::rear, &WagonPose<double>::body})
      CHECK(((route[i].*part).rotation - (curve[i].*part).rotation).norm() <=
            1e3 * tolerance / length);
  }
}

// The piece and piece distance a bogie reports, against step boundaries summed here (long
// double) from the pieces' lengths. Past an open route's end (Wrap::extend) the end piece's
// distance runs on beyond it.
void check_places(const Route<double>& route, const std::vector<WagonPose<double>>& poses,
                  Wrap wrap = Wrap::clamp) {
  std::vector<long double> starts{0.0L};
  for (std::size_t i = 0; i < route.size(); ++i)
    starts.push_back(starts.back() + route.network().piece(route.step(i).piece).length());
  const long double length = starts.back();
  for (const auto& pose : poses) {
    for (const auto& [distance, place] : {std::pair{pose.front_distance, pose.front_place},
                                          {pose.rear_distance, pose.rear_place}}) {
      long double s = distance;
      if (route.closed()) s -= length * std::floor(s / length);
      if (wrap != Wrap::extend) s = std::clamp(s, 0.0L, length);
      std::size_t i = 0;
      while (i + 1 < route.size() && s >= starts[i + 1])
        ++i;
      // A bogie within rounding of a joint may report either side of it.
      const bool near_joint =
          std::abs(s - starts[i]) < 1e-9L * length || std::abs(s - starts[i + 1]) < 1e-9L * length;
      if (near_joint) continue;
      const Step& step = route.step(i);
      const long double piece_length = starts[i + 1] - starts[i];
      const long double local = s - starts[i];
      CHECK(place.piece == step.piece);
      CHECK(std::abs(place.distance -
                     (step.direction == Direction::forward ? local : piece_length - local)) <=
            1e-9L * length);
    }
  }
}

}  // namespace

TEST_CASE("a compiled network's pieces are each piece compiled, in one block that outlives it",
          "[network]") {
  // Network::compiled copies every piece's cells into one block shared by the pieces: each must
  // sample and measure exactly as that piece compiled on its own, and a piece (or its compiled
  // path) kept after the network and every route are gone must still read its cells (the
  // sanitizer builds see a block freed too early).
  const auto up = *UpSource<double>::world();
  const auto path = trefoil<double>(24, 20.0);
  std::optional<Track<double>> kept_piece;
  std::optional<CompiledPath<double>> kept_path;
  std::vector<Track<double>> alone;
  {
    const Split s = split(path, {5, 8, 13, 21, 24}, up);
    const Network<double> compiled = s.network.compiled().compiled();  // twice: copied again
    for (std::size_t p = 0; p < compiled.piece_count(); ++p) {
      alone.push_back(s.network.piece(p).compiled());
      const CompiledPath<double>& in_block = *compiled.piece_compiled(p);
      const CompiledPath<double>& own = *alone.back().compiled_path();
      REQUIRE(in_block.cell_count() == own.cell_count());
      CHECK(in_block.memory_bytes() == own.memory_bytes());
      std::size_t cursor = 0;
      for (int k = 0; k <= 100; ++k) {
        const double d = own.length() * k / 100.0;
        const auto a = in_block.sample(d, cursor), b = own.sample(d);
        CHECK(a.point == b.point);
        CHECK(a.tangent == b.tangent);
        CHECK(a.parameter == b.parameter);
        CHECK(in_block.distance_at(b.parameter) == own.distance_at(b.parameter));
      }
    }
    kept_piece = compiled.piece(2);
    kept_path = *compiled.piece_compiled(3);
  }
  std::size_t kept_cursor = 0, alone_cursor = 0;
  for (int k = 0; k <= 50; ++k) {
    const double d = kept_piece->length() * k / 50.0;
    CHECK(kept_piece->sample(d, kept_cursor).point == alone[2].sample(d, alone_cursor).point);
    const double e = kept_path->length() * k / 50.0;
    CHECK(kept_path->sample(e).point == alone[3].compiled_path()->sample(e).point);
  }
}

TEST_CASE("a closed route of several pieces gives the poses of the same loop as one curve",
          "[network]") {
  const auto up = *UpSource<double>::world();
  for (const auto& path : {trefoil<double>(24, 20.0), circle<double>(60.0, 12)}) {
    const std::size_t n = path.size();
    const Split s = split(path, {n / 4, n / 4 + 2, n / 2 + 1, n - 3, n}, up);
    const auto route = Route<double>::build(s.network, s.steps, Closure::closed);
    REQUIRE(route);
    const auto whole = *Track<double>::build(MeasuredPath<double>::build(path), up);
    REQUIRE(std::abs(route->length() - whole.length()) <= 1e-12 * whole.length());
    // The route's knots are the curve's, whichever way its pieces are stored.
    const auto route_knots = route->knot_distances(), curve_knots = whole.knot_distances();
    REQUIRE(route_knots.size() == curve_knots.size());
    for (std::size_t k = 0; k < route_knots.size(); ++k)
      CHECK(std::abs(route_knots[k] - curve_knots[k]) <= 1e-9 * whole.length());
    for (Spacing spacing : {Spacing::chord, Spacing::arc}) {
      INFO((spacing == Spacing::chord ? "chord" : "arc"));
      const auto wagons = train_of(9);
      const auto on_route =
          TrainSolver<double, Route<double>>::build(*route, wagons, {Wrap::automatic, spacing});
      const auto on_curve = TrainSolver<double>::build(whole, wagons, {Wrap::automatic, spacing});
      REQUIRE(on_route);
      REQUIRE(on_curve);
      const auto compiled_route = on_route->compiled_chords();
      CHECK(compiled_route.has_compiled_chords() == (spacing == Spacing::chord));
      // The same route on the network with its pieces compiled (Network::compiled).
      const Network<double> compiled_network = s.network.compiled();
      CHECK(s.network.piece_compiled(0) == nullptr);
      CHECK(compiled_network.piece_compiled(0) != nullptr);
      CHECK(compiled_network.compiled().piece_compiled(1) != nullptr);
      const auto compiled_path_route =
          *Route<double>::build(compiled_network, s.steps, Closure::closed);
      const auto on_compiled = *TrainSolver<double, Route<double>>::build(
          compiled_path_route, wagons, {Wrap::automatic, spacing});
      // The route samples the compiled pieces themselves, bit for bit.
      typename Route<double>::Cursor route_cursor{};
      for (int k = 0; k < 200; ++k) {
        const double d = compiled_path_route.length() * k / 200.0;
        const auto at = compiled_path_route.sample(d, route_cursor);
        const auto& step = s.steps[at.step];
        const auto piece = compiled_network.piece_compiled(step.piece)->sample(at.piece_distance);
        CHECK(at.point == piece.point);
        CHECK(at.tangent == (step.direction == Direction::forward
                                 ? piece.tangent
                                 : Vector3<double>(-piece.tangent)));
      }
      // Heads spread over the loop and over several laps, so wagons straddle every joint.
      for (int k = -7; k < 40; ++k) {
        const double head = route->length() * k / 13.0 + 0.37;
        const auto a = on_route->solve(head);
        check_same_poses(a, on_curve->solve(head), 1e-9 * whole.length(), whole.length());
        check_places(*route, a);
        // On compiled pieces: the same poses, and places on the same pieces.
        const auto c = on_compiled.solve(head);
        check_same_poses(c, a, 1e-9 * whole.length(), whole.length());
        check_places(*route, c);
        // A route's chords compiled: the same poses.
        if (spacing == Spacing::chord && k % 5 == 0)
          check_same_poses(compiled_route.solve(head), a, 1e-9 * whole.length(), whole.length());
        const auto b = on_curve->solve(head);
        const auto ma = train_kinematics(*on_route, a, 2.0, 0.3);
        const auto mb = train_kinematics(*on_curve, b, 2.0, 0.3);
        for (std::size_t i = 0; i < a.size(); ++i) {
          CHECK(a[i].lap == b[i].lap);
          CHECK((ma[i].rear.acceleration - mb[i].rear.acceleration).norm() <= 1e-6);
          CHECK(std::abs(ma[i].rear.speed - mb[i].rear.speed) <= 1e-9);
        }
      }
    }
  }
}

TEST_CASE("an open route of several pieces gives the poses of the same line as one curve",
          "[network]") {
  const auto up = *UpSource<double>::world();
  const auto loop = trefoil<double>(24, 20.0);
  Segments segments;
  for (std::size_t i = 0; i < 18; ++i)
    segments.push_back(loop.segment(i));
  const auto path = *Path<double, 3>::from_segments(segments, Closure::open);
  const Split s = split(path, {3, 4, 9, 15, 18}, up);
  const auto route = Route<double>::build(s.network, s.steps);
  REQUIRE(route);
  const auto whole = *Track<double>::build(MeasuredPath<double>::build(path), up);
  for (Wrap wrap : {Wrap::clamp, Wrap::extend})
    for (Spacing spacing : {Spacing::chord, Spacing::arc}) {
      INFO((spacing == Spacing::chord ? "chord " : "arc ")
           << (wrap == Wrap::clamp ? "clamp" : "extend"));
      const auto wagons = train_of(7);
      const auto on_route =
          *TrainSolver<double, Route<double>>::build(*route, wagons, {wrap, spacing});
      const auto on_curve = *TrainSolver<double>::build(whole, wagons, {wrap, spacing});
      // From before the start (buffer stop) to past the end.
      for (int k = -3; k <= 30; ++k) {
        const double head = whole.length() * k / 26.0;
        const auto a = on_route.solve(head);
        check_same_poses(a, on_curve.solve(head), 1e-9 * whole.length(), whole.length());
        check_places(*route, a, wrap);
      }
    }
}

TEST_CASE("pieces banked by their own roll: a route of forward pieces is the banked curve",
          "[network]") {
  const auto roll = *RollProfile<double>::build({0.0}, {0.3});
  const auto up = UpSource<double>::world().value().with_roll(roll);
  const auto path = circle<double>(60.0, 12);
  const Split s = split(path, {3, 7, 12}, up, false);
  const auto route = *Route<double>::build(s.network, s.steps, Closure::closed);
  REQUIRE(route.constant_up() == nullptr);
  const auto whole = *Track<double>::build(MeasuredPath<double>::build(path), up);
  const auto wagons = train_of(6);
  const auto on_route = *TrainSolver<double, Route<double>>::build(route, wagons);
  const auto on_curve = *TrainSolver<double>::build(whole, wagons);
  for (int k = 0; k < 20; ++k) {
    const double head = route.length() * k / 7.0;
    check_same_poses(on_route.solve(head), on_curve.solve(head), 1e-9 * whole.length(),
                     whole.length());
  }
}

TEST_CASE("locate: route distance to piece and piece distance on straight pieces", "[network]") {
  // Three straight pieces of lengths 10, 20 and 5 (exact), the middle one stored backwards.
  const auto straight = [](Vector3<double> a, Vector3<double> b) { return straight_piece(a, b); };
  std::vector<Track<double>> pieces{straight({0, 0, 0}, {10, 0, 0}),
                                    straight({30, 0, 0}, {10, 0, 0}),
                                    straight({30, 0, 0}, {35, 0, 0})};
  const auto network = *Network<double>::build(
      pieces, {{{0, End::end}, {1, End::end}}, {{1, End::start}, {2, End::start}}});
  const auto route = *Route<double>::build(
      network, {{0, Direction::forward}, {1, Direction::backward}, {2, Direction::forward}});
  CHECK(std::abs(route.length() - 35.0) <= 1e-13);
  const struct {
    double s;
    std::size_t piece;
    double distance;
  } expected[] = {{0, 0, 0},  {4, 0, 4},  {10.5, 1, 19.5}, {29, 1, 1},
                  {31, 2, 1}, {35, 2, 5}, {50, 2, 5},      {-3, 0, 0}};
  for (const auto& e : expected) {
    INFO("s = " << e.s);
    const auto place = route.locate(e.s);
    CHECK(place.piece == e.piece);
    CHECK(std::abs(place.piece_distance - e.distance) <= 1e-12);
  }
  // The reversed route: distance s there is 35 − s here.
  const Route<double> back = route.reversed();
  CHECK(back.step(0) == Step{2, Direction::backward});
  CHECK(back.locate(35.0 - 10.5).piece == 1);
  CHECK(std::abs(back.locate(35.0 - 10.5).piece_distance - 19.5) <= 1e-12);
  // Tangents along the route: +x everywhere, also on the piece stored backwards.
  Route<double>::Cursor cursor;
  for (double s = 0.0; s <= 35.0; s += 0.5) {
    const auto at = route.sample(s, cursor);
    CHECK((at.point - Vector3<double>(s, 0, 0)).norm() <= 1e-12);
    CHECK((at.tangent - Vector3<double>(1, 0, 0)).norm() <= 1e-12);
  }
}

TEST_CASE("distances_at: a closest point on the network as a distance along a route", "[network]") {
  // The straight pieces of the locate test: 0 along x from 0 to 10, 1 stored from 30 back to 10
  // and driven backwards, 2 from 30 to 35. Route distance is x.
  const auto straight = [](Vector3<double> a, Vector3<double> b) { return straight_piece(a, b); };
  std::vector<Track<double>> pieces{
      straight({0, 0, 0}, {10, 0, 0}), straight({30, 0, 0}, {10, 0, 0}),
      straight({30, 0, 0}, {35, 0, 0}), straight({0, 5, 0}, {9, 5, 0})};
  const auto network = *Network<double>::build(
      pieces, {{{0, End::end}, {1, End::end}}, {{1, End::start}, {2, End::start}}});
  const auto route = *Route<double>::build(
      network, {{0, Direction::forward}, {1, Direction::backward}, {2, Direction::forward}});
  // A point beside the line projects onto x: its route distance is its x (a closed form), on
  // the forward pieces and on the one driven backwards alike.
  for (const double x : {0.0, 3.25, 10.0, 12.5, 29.0, 31.0, 35.0}) {
    INFO("x = " << x);
    const auto nearest = network.closest_point(Vector3<double>(x, -2, 1));
    const std::vector<double> along = route.distances_at(nearest);
    REQUIRE(along.size() == 1);
    CHECK(std::abs(along[0] - x) <= 1e-12 * route.length());
    // The reversed route passes it at length − x.
    const std::vector<double> back = route.reversed().distances_at(nearest);
    REQUIRE(back.size() == 1);
    CHECK(std::abs(back[0] - (35.0 - x)) <= 1e-12 * route.length());
  }
  // Nearest to piece 3, which the route does not pass: no distance. Nor for a piece not in the
  // network. A distance off the piece is clamped onto it.
  const auto off_route = network.closest_point(Vector3<double>(4, 6, 0));
  CHECK(off_route.piece == 3);
  CHECK(route.distances_at(off_route).empty());
  CHECK(route.distances_at(PiecePlace<double>{7, 1.0}).empty());
  for (const auto& [given, expected] : {std::pair{25.0, 10.0}, std::pair{-4.0, 30.0}}) {
    const std::vector<double> clamped = route.distances_at(PiecePlace<double>{1, given});
    REQUIRE(clamped.size() == 1);
    CHECK(std::abs(clamped[0] - expected) <= 1e-12 * route.length());
  }
}

TEST_CASE("distances_at undoes locate on a closed route of pieces driven both ways", "[network]") {
  // A loop cut into five pieces, the odd ones stored backwards: for every route distance s,
  // locate's piece and piece distance lead back to s, and to nothing else.
  std::vector<Vector3<double>> keys;
  for (int k = 0; k < 12; ++k)
    keys.emplace_back(40 * std::cos(k * 0.5236), 3 * std::sin(k * 1.3), 25 * std::sin(k * 0.5236));
  const auto path = *Path<double, 3>::catmull_rom(keys, Closure::closed);
  const Split cut = split(path, {2, 5, 7, 10, 12}, UpSource<double>::world().value());
  const auto route = *Route<double>::build(cut.network, cut.steps, Closure::closed);
  for (double s = 0.0; s < route.length(); s += route.length() / 97.0) {
    INFO("s = " << s);
    const auto place = route.locate(s);
    const std::vector<double> along =
        route.distances_at(PiecePlace<double>{place.piece, place.piece_distance});
    REQUIRE(along.size() == 1);
    CHECK(std::abs(along[0] - s) <= 1e-12 * route.length());
  }
}

TEST_CASE("distances_at: the end of a loop's last step is its start, 0 and not length()",
          "[network]") {
  // Loops of pieces cut at random: the last step's exit end is the seam, given as a distance in
  // [0, length()) like every other (length() itself is the start once more).
  std::mt19937_64 rng = make_rng(47);
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<Vector3<double>> keys;
    for (int k = 0; k < 12; ++k)
      keys.emplace_back(uniform<double>(rng, 20, 60) * std::cos(k * 0.5236),
                        uniform<double>(rng, -3, 3),
                        uniform<double>(rng, 20, 60) * std::sin(k * 0.5236));
    const auto path = *Path<double, 3>::catmull_rom(keys, Closure::closed);
    std::vector<std::size_t> cuts;
    for (std::size_t c = 1; c < 12; ++c)
      if (uniform<double>(rng, 0, 1) < 0.35) cuts.push_back(c);
    cuts.push_back(12);
    const Split cut = split(path, cuts, UpSource<double>::world().value(), trial % 2 == 0);
    const auto route = *Route<double>::build(cut.network, cut.steps, Closure::closed);
    const Step& last = route.step(route.size() - 1);
    const double exit =
        last.direction == Direction::forward ? cut.network.piece(last.piece).length() : 0.0;
    const std::vector<double> seam = route.distances_at(PiecePlace<double>{last.piece, exit});
    INFO("trial " << trial << ": the seam at " << (seam.empty() ? -1.0 : seam[0]) << " of "
                  << route.length());
    REQUIRE(seam.size() == 1);
    CHECK(seam[0] >= 0.0);
    CHECK(seam[0] < route.length());
    CHECK(std::min(seam[0], route.length() - seam[0]) <= 1e-12 * route.length());
  }
}

namespace {

// A main line through a switch: piece 0 straight along +x to the origin, then piece 1 straight
// on, or piece 2 curving off towards +z (a circular arc of radius `radius`, tangent to +x at the
// switch). Piece 3 is a siding continuing piece 2; piece 4 comes back to piece 0's start from the
// far side (a buffer stop at its end).
struct Junction {
  Network<double> network;
  double radius;
};

Path<double, 3> arc_path(double radius, double from, double to, int keys, Vector3<double> centre) {
  std::vector<Vector3<double>> points, tangents;
  const double step = (to - from) / (keys - 1);
  const double factor = 4.0 * std::tan(step / 4.0);
  for (int k = 0; k < keys; ++k) {
    const double a = from + step * k;
    points.push_back(centre + radius * Vector3<double>(std::sin(a), 0, -std::cos(a)));
    tangents.push_back(factor * radius * Vector3<double>(std::cos(a), 0, std::sin(a)));
  }
  return *Path<double, 3>::from_hermite_keys(points, tangents, Closure::open);
}

Junction junction(double radius = 150.0) {
  const auto straight = [](Vector3<double> a, Vector3<double> b) { return straight_piece(a, b); };
  const Vector3<double> centre(0, 0, radius);
  const double turn = 0.5;
  const Vector3<double> end_of_arc =
      centre + radius * Vector3<double>(std::sin(turn), 0, -std::cos(turn));
  const Vector3<double> heading(std::cos(turn), 0, std::sin(turn));
  std::vector<Track<double>> pieces{
      straight({-200, 0, 0}, {0, 0, 0}), straight({0, 0, 0}, {200, 0, 0}),
      *Track<double>::build(MeasuredPath<double>::build(arc_path(radius, 0.0, turn, 6, centre))),
      straight(end_of_arc, end_of_arc + 80.0 * heading), straight({-300, 0, 0}, {-200, 0, 0})};
  auto network = Network<double>::build(pieces, {{{0, End::end}, {1, End::start}, {2, End::start}},
                                                 {{2, End::end}, {3, End::start}},
                                                 {{4, End::end}, {0, End::start}}});
  REQUIRE(network);
  return {*network, radius};
}

}  // namespace

TEST_CASE("switches: settings choose the leg, the joint knows its sides", "[network]") {
  const Junction j = junction();
  CHECK(j.network.joint_count() == 3);
  CHECK(j.network.side(0, 0).size() == 1);                // piece 0's end: the switch's toe
  CHECK(j.network.side(0, 1).size() == 2);                // pieces 1 and 2: its legs
  CHECK(!j.network.joint_of({1, End::end}).has_value());  // a buffer stop
  SwitchSettings settings = j.network.default_settings();
  const auto main_line = *Route<double>::follow(j.network, settings, {4, Direction::forward});
  CHECK(!main_line.closed());
  REQUIRE(main_line.size() == 3);
  CHECK(main_line.step(2) == Step{1, Direction::forward});
  CHECK(!settings.set({2, End::start}));
  const auto siding = *Route<double>::follow(j.network, settings, {4, Direction::forward});
  REQUIRE(siding.size() == 4);
  CHECK(siding.step(2) == Step{2, Direction::forward});
  CHECK(siding.step(3) == Step{3, Direction::forward});
  // Coming back from the siding through the switch set for it: onto piece 0, backwards.
  const auto back = *Route<double>::follow(j.network, settings, {3, Direction::backward});
  REQUIRE(back.size() == 4);
  CHECK(back.step(2) == Step{0, Direction::backward});
  // Set the other way, the same walk enters the switch by the leg it is not set to.
  CHECK(!settings.set({1, End::start}));
  const auto blocked = Route<double>::follow(j.network, settings, {3, Direction::backward});
  REQUIRE(!blocked);
  CHECK(blocked.error().message.find("joint 0 is entered from piece 2 start") != std::string::npos);
  CHECK(blocked.error().message.find("set to piece 1 start") != std::string::npos);
  // A length limit stops the walk at the end of the piece that reaches it.
  const auto short_walk =
      *Route<double>::follow(j.network, settings, {4, Direction::forward}, 150.0);
  CHECK(short_walk.size() == 2);
  // Settings are the network's: a buffer stop, the switch's toe and a plain joint's ends are no
  // legs; another network's settings are refused.
  CHECK(settings.set({1, End::end}).has_value());
  CHECK(settings.set({0, End::end}).has_value());
  CHECK(settings.set({3, End::start}).has_value());
  CHECK(settings.set({9, End::start}).has_value());
  CHECK(settings.selected(0, 1) == PieceEnd{1, End::start});  // unchanged by the refusals
  const Junction other = junction();
  CHECK(!Route<double>::follow(other.network, settings, {4, Direction::forward}));
}

TEST_CASE("a switch leg stored towards the switch with a zero end handle is on its own side",
          "[network]") {
  // Piece 2 arrives at the switch heading −x (P2 == P3 there: a zero end handle). Its end tangent
  // was read backwards (+x): the build put it on the toe's side, refused the route from the toe
  // onto it and accepted one from it straight onto piece 1, turning back through the switch.
  const auto straight = [](Vector3<double> a, Vector3<double> b) { return straight_piece(a, b); };
  const Bezier<double, 3, 3> leg{{Vector3<double>(30, 0, 10), Vector3<double>(20, 0, 0),
                                  Vector3<double>(0, 0, 0), Vector3<double>(0, 0, 0)}};
  const std::vector<Track<double>> pieces{
      straight({-30, 0, 0}, {0, 0, 0}), straight({0, 0, 0}, {30, 0, 0}),
      *Track<double>::build(
          MeasuredPath<double>::build(Path<double, 3>::from_segments({leg}, Closure::open)))};
  const auto network =
      Network<double>::build(pieces, {{{0, End::end}, {1, End::start}, {2, End::end}}});
  REQUIRE(network);
  REQUIRE(network->side(0, 0).size() == 1);
  CHECK(network->side(0, 0)[0] == PieceEnd{0, End::end});
  CHECK(Route<double>::build(*network, {{0, Direction::forward}, {2, Direction::backward}}));
  CHECK(!Route<double>::build(*network, {{2, Direction::forward}, {1, Direction::forward}}));
  // The same end joined alone to a piece that starts with a zero handle too.
  const Bezier<double, 3, 3> on{{Vector3<double>(0, 0, 0), Vector3<double>(0, 0, 0),
                                 Vector3<double>(20, 0, 0), Vector3<double>(30, 0, 10)}};
  const Bezier<double, 3, 3> in{{Vector3<double>(-30, 0, 0), Vector3<double>(-20, 0, 0),
                                 Vector3<double>(0, 0, 0), Vector3<double>(0, 0, 0)}};
  auto piece = [](const Bezier<double, 3, 3>& b) {
    return *Track<double>::build(
        MeasuredPath<double>::build(Path<double, 3>::from_segments({b}, Closure::open)));
  };
  CHECK(Network<double>::build({piece(in), piece(on)}, {{{0, End::end}, {1, End::start}}}));
}

TEST_CASE("a train through a switch in small head steps: every bogie moves continuously",
          "[network]") {
  const Junction j = junction(120.0);
  SwitchSettings settings = j.network.default_settings();
  REQUIRE(!settings.set({2, End::start}));
  const auto route = *Route<double>::follow(j.network, settings, {4, Direction::forward});
  for (Spacing spacing : {Spacing::chord, Spacing::arc}) {
    INFO((spacing == Spacing::chord ? "chord" : "arc"));
    const auto train =
        *TrainSolver<double, Route<double>>::build(route, train_of(8), {Wrap::clamp, spacing});
    const double step = 0.01;
    auto previous = train.solve(150.0);
    bool crossed = false;
    for (double head = 150.0 + step; head < 500.0; head += step) {
      const auto poses = train.solve(head);
      for (std::size_t i = 0; i < poses.size(); ++i) {
        // A bogie on a chord chain moves at most (1 + chord·κ)-times the head; here < 1.1.
        const double stretch = 1.1;
        for (auto part : {&WagonPose<double>::front, &WagonPose<double>::rear}) {
          const Frame<double>& a = poses[i].*part;
          const Frame<double>& b = previous[i].*part;
          const double moved = (a.origin - b.origin).norm();
          if (!(moved <= stretch * step + 1e-9 * route.length())) {
            FAIL_CHECK("wagon " << i << " jumped " << moved << " at head " << head);
          }
          // Frames turn at most κ · (distance moved) plus rounding: no kink at the joint.
          const double turned = std::acos(std::min(1.0, a.forward().dot(b.forward())));
          if (!(turned <= moved / j.radius * 1.01 + 1e-7)) {
            FAIL_CHECK("wagon " << i << " turned " << turned << " at head " << head);
          }
        }
        crossed = crossed || (poses[i].front_place.piece == 2 && poses[i].rear_place.piece == 0);
      }
      previous = poses;
    }
    CHECK(crossed);  // some wagon straddled the switch
  }
}

TEST_CASE("reversal: the reversed train on the reversed route stands where the train stood",
          "[network]") {
  const auto roll = *RollProfile<double>::build({0.0, 40.0}, {0.0, 0.4});
  const auto up = UpSource<double>::world().value().with_roll(roll);
  const auto loop = trefoil<double>(24, 20.0);
  Segments segments;
  for (std::size_t i = 0; i < 18; ++i)
    segments.push_back(loop.segment(i));
  const auto path = *Path<double, 3>::from_segments(segments, Closure::open);
  for (bool closed : {false, true}) {
    const Split s = closed ? split(loop, {5, 9, 16, 20, 24}, up) : split(path, {3, 8, 13, 18}, up);
    const auto route =
        *Route<double>::build(s.network, s.steps, closed ? Closure::closed : Closure::open);
    const Route<double> back = route.reversed();
    for (Spacing spacing : {Spacing::chord, Spacing::arc}) {
      INFO((closed ? "loop " : "line ") << (spacing == Spacing::chord ? "chord" : "arc"));
      const auto wagons = train_of(6);
      const auto forwards = *TrainSolver<double, Route<double>>::build(
          route, wagons, {closed ? Wrap::circular : Wrap::extend, spacing});
      const auto backwards = *TrainSolver<double, Route<double>>::build(
          back, reversed_train(wagons), {closed ? Wrap::circular : Wrap::extend, spacing});
      for (int k = 0; k < 12; ++k) {
        const double head = route.length() * (0.45 + 0.5 * k / 12.0);
        const auto a = forwards.solve(head);
        const auto b = backwards.solve(route.length() - a.back().rear_distance);
        for (std::size_t i = 0; i < a.size(); ++i) {
          const auto& x = a[i];
          const auto& y = b[a.size() - 1 - i];
          const double tol = 1e-9 * route.length();
          CHECK((x.front.origin - y.rear.origin).norm() <= tol);
          CHECK((x.rear.origin - y.front.origin).norm() <= tol);
          // Facing the other way, leaning the same way: each piece's own roll.
          CHECK((x.front.forward() + y.rear.forward()).norm() <= 1e-9);
          CHECK((x.front.up() - y.rear.up()).norm() <= 1e-9);
          CHECK(x.front_place.piece == y.rear_place.piece);
          CHECK(std::abs(x.front_place.distance - y.rear_place.distance) <= tol);
        }
      }
    }
  }
}

TEST_CASE("a switch thrown under a train moves no wagon; the next route follows it", "[network]") {
  const Junction j = junction();
  SwitchSettings settings = j.network.default_settings();
  REQUIRE(!settings.set({2, End::start}));
  const auto wagons = train_of(10);
  double train_length = 0.0;
  for (const auto& w : wagons)
    train_length += w.length;
  // A short route, as a game keeps it: piece 0 only.
  auto route = *Route<double>::build(j.network, {{0, Direction::forward}});
  double head = 150.0;
  auto moved = route.around(head, train_length, settings, 200.0, 20.0);
  REQUIRE(moved);
  CHECK(moved->route.step(0) == Step{4, Direction::forward});  // 20 behind the last bogie
  CHECK(moved->route.step(moved->route.size() - 1) == Step{3, Direction::forward});
  route = moved->route;
  head = moved->head;
  // Drive onto the siding until the train straddles the switch, then throw it.
  head += 250.0 - 150.0;
  auto train = *TrainSolver<double, Route<double>>::build(route, wagons, {Wrap::clamp});
  const auto before = train.solve(head);
  REQUIRE(before.front().front_place.piece == 2);
  REQUIRE(before.back().rear_place.piece == 0);
  REQUIRE(!settings.set({1, End::start}));
  const auto after = route.around(head, train_length, settings, 100.0, 20.0);
  REQUIRE(after);
  train = *TrainSolver<double, Route<double>>::build(after->route, wagons, {Wrap::clamp});
  const auto poses = train.solve(after->head);
  for (std::size_t i = 0; i < poses.size(); ++i) {
    CHECK((poses[i].front.origin - before[i].front.origin).norm() <= 1e-9 * route.length());
    CHECK((poses[i].rear.origin - before[i].rear.origin).norm() <= 1e-9 * route.length());
    CHECK(poses[i].front_place.piece == before[i].front_place.piece);
  }
  // Ahead of the head the siding goes on: the train is on its leg, whatever the switch says.
  CHECK(after->route.step(after->route.size() - 1) == Step{3, Direction::forward});
  // A train wholly before the switch takes the new setting.
  const auto fresh =
      *Route<double>::build(j.network, {{4, Direction::forward}, {0, Direction::forward}});
  const auto ahead = fresh.around(250.0, 60.0, settings, 100.0, 0.0);
  REQUIRE(ahead);
  CHECK(ahead->route.step(ahead->route.size() - 1) == Step{1, Direction::forward});
}

TEST_CASE("bad networks and routes are named errors", "[network]") {
  const auto straight = [](Vector3<double> a, Vector3<double> b) { return straight_piece(a, b); };
  const auto a = straight({0, 0, 0}, {10, 0, 0});
  const auto b = straight({10, 0, 0}, {20, 0, 0});
  auto message = [](const Expected<Network<double>>& n) {
    REQUIRE(!n);
    return n.error().message;
  };
  // Ends that do not meet.
  const auto gap = Network<double>::build({a, straight({10.5, 0, 0}, {20, 0, 0})},
                                          {{{0, End::end}, {1, End::start}}});
  CHECK(message(gap).find("joint 0: piece 0 end and piece 1 start are 0.5") != std::string::npos);
  // A kink.
  const auto kink = Network<double>::build({a, straight({10, 0, 0}, {20, 1, 0})},
                                           {{{0, End::end}, {1, End::start}}});
  CHECK(message(kink).find("tangents of piece 0 end and piece 1 start") != std::string::npos);
  // Piece 1 runs back over piece 0 from where piece 0 ends: a kink of π.
  const auto same = Network<double>::build({a, straight({10, 0, 0}, {0, 0, 0})},
                                           {{{0, End::end}, {1, End::start}}});
  CHECK(message(same) ==
        "joint 0: the tangents of piece 0 end and piece 1 start are 3.14159265 rad from "
        "collinear (tolerance 1e-06)");
  // Kinks past 90° are named by their angle θ (the turn from piece 0's direction, +x, to piece
  // 1's, (cos θ, sin θ)); a two-end joint's message gave π − θ, and under a tolerance of 0.2 rad
  // a kink of 170° came back as "all 2 ends point the same way".
  for (const auto& [degrees, text] :
       std::vector<std::pair<double, std::string>>{{100.0, "1.74532925"},
                                                   {135.0, "2.35619449"},
                                                   {170.0, "2.96705973"},
                                                   {179.0, "3.12413936"}}) {
    const double theta = degrees * std::acos(-1.0) / 180.0;
    const auto kinked = straight({10, 0, 0}, {10 + 10 * std::cos(theta), 10 * std::sin(theta), 0});
    INFO(degrees);
    CHECK(message(Network<double>::build({a, kinked}, {{{0, End::end}, {1, End::start}}},
                                         {0.0, 0.2})) ==
          "joint 0: the tangents of piece 0 end and piece 1 start are " + text +
              " rad from collinear (tolerance 0.2)");
  }
  // Three ends all pointing one way: no two continue each other.
  CHECK(message(Network<double>::build(
                    {a, straight({10, 0, 0}, {0, 0, 0}), straight({10, 0, 0}, {0, 1e-9, 0})},
                    {{{0, End::end}, {1, End::start}, {2, End::start}}}))
            .find("all 3 ends point the same way") != std::string::npos);
  // One end listed twice in a joint.
  CHECK(message(Network<double>::build({a, b}, {{{0, End::end}, {0, End::end}}})) ==
        "joint 0: piece 0 end is listed twice");
  // One end in two joints, a joint of one end, a piece that is not there, a closed piece.
  CHECK(message(Network<double>::build(
                    {a, b}, {{{0, End::end}, {1, End::start}}, {{0, End::end}, {1, End::start}}}))
            .find("already in joint 0") != std::string::npos);
  CHECK(message(Network<double>::build({a, b}, {{{0, End::end}}})).find("lists 1 piece ends") !=
        std::string::npos);
  CHECK(message(Network<double>::build({a, b}, {{{0, End::end}, {7, End::start}}}))
            .find("piece 7 start") != std::string::npos);
  // An index that was -1 in the caller's signed arithmetic is named as -1, not as 2^64 - 1.
  const std::size_t minus_one = ~std::size_t(0), minus_two = minus_one - 1;
  CHECK(message(Network<double>::build({a, b}, {{{0, End::end}, {minus_one, End::start}}})) ==
        "joint 0: piece -1 start: the network has 2 pieces");
  CHECK(to_string(Step{minus_two, Direction::backward}) == "piece -2 backward");
  CHECK(to_string(PieceEnd{std::size_t(1) << 63, End::end}) == "piece -9223372036854775808 end");
  CHECK(to_string(PieceEnd{(std::size_t(1) << 63) - 1, End::end}) ==
        "piece 9223372036854775807 end");
  const auto ring = *Track<double>::build(MeasuredPath<double>::build(circle<double>(5.0, 4)));
  CHECK(message(Network<double>::build({a, ring}, {})).find("piece 1 is closed") !=
        std::string::npos);
  CHECK(message(Network<double>::build({}, {})).find("no pieces") != std::string::npos);
  // A looser tolerance accepts the gap.
  CHECK(Network<double>::build({a, straight({10.5, 0, 0}, {20, 0, 0})},
                               {{{0, End::end}, {1, End::start}}}, {0.1, 0.0}));
  // An angle given replaces the default either way: the kink above, atan(1/10) =
  // 0.0996686525 rad, passes a tolerance of 0.1 and not one of 0.099; one of atan(1e-7) passes
  // the default 1e-6 but not 1e-8.
  const std::vector<std::vector<PieceEnd>> joined{{{0, End::end}, {1, End::start}}};
  CHECK(Network<double>::build({a, straight({10, 0, 0}, {20, 1, 0})}, joined, {0.0, 0.1}));
  CHECK(message(
            Network<double>::build({a, straight({10, 0, 0}, {20, 1, 0})}, joined, {0.0, 0.099})) ==
        "joint 0: the tangents of piece 0 end and piece 1 start are 0.0996686525 rad "
        "from collinear (tolerance 0.099)");
  const auto slight = straight({10, 0, 0}, {20, 1e-6, 0});
  CHECK(Network<double>::build({a, slight}, joined));
  CHECK(message(Network<double>::build({a, slight}, joined, {0.0, 1e-8}))
            .find("are 1e-07 rad from collinear (tolerance 1e-08)") != std::string::npos);
  // A tolerance that is no number >= 0 is refused, not taken for the default (NaN and negative
  // values were, and an infinite one let any gap and kink through).
  for (const JointTolerance bad : {JointTolerance{-1.0, 0.0}, JointTolerance{0.0, std::nan("")},
                                   JointTolerance{HUGE_VAL, 0.0}}) {
    const auto refused = Network<double>::build({a, b}, {{{0, End::end}, {1, End::start}}}, bad);
    REQUIRE(!refused);
    CHECK(refused.error().code == ErrorCode::out_of_range);
  }
  CHECK(message(Network<double>::build({a, b}, {{{0, End::end}, {1, End::start}}}, {-1.0, 0.0})) ==
        "network: joint tolerance relative_gap -1 is not a finite number >= 0 in this scalar type "
        "(0: the default)");

  const auto network = *Network<double>::build({a, b, straight({20, 0, 0}, {30, 0, 0})},
                                               {{{0, End::end}, {1, End::start}}});
  auto route_message = [](const Expected<Route<double>>& r) {
    REQUIRE(!r);
    return r.error().message;
  };
  // Across unjoined ends: piece 1's end is a buffer stop.
  CHECK(route_message(Route<double>::build(network, {{0, Direction::forward},
                                                     {1, Direction::forward},
                                                     {2, Direction::forward}}))
            .find("piece 1 end is a buffer stop") != std::string::npos);
  // Turning back at a joint.
  CHECK(route_message(
            Route<double>::build(network, {{0, Direction::forward}, {0, Direction::backward}}))
            .find("same side of joint 0") != std::string::npos);
  // Leaving the network; closing a route that does not close; no steps.
  CHECK(route_message(
            Route<double>::build(network, {{0, Direction::forward}, {9, Direction::forward}}))
            .find("leaves the network") != std::string::npos);
  CHECK(route_message(Route<double>::build(network,
                                           {{0, Direction::forward}, {1, Direction::forward}},
                                           Closure::closed))
            .find("does not continue step 1") != std::string::npos);
  CHECK(route_message(Route<double>::build(network, {})).find("no steps") != std::string::npos);
}

TEST_CASE(
    "network closest point: the global minimum over all pieces, against long double brute "
    "force",
    "[network]") {
  std::mt19937_64 rng = make_rng(41);
  for (const std::size_t count : {std::size_t(1), std::size_t(30), std::size_t(300)}) {
    INFO(count << " pieces");
    // Pieces of 1–4 segments scattered in a box of side 400, in no order, joined nowhere.
    std::vector<Track<double>> pieces;
    std::vector<Path<double, 3>> paths;
    for (std::size_t k = 0; k < count; ++k) {
      const Vector3<double> at = random_vector<double, 3>(rng, 200.0);
      std::vector<Vector3<double>> keys{at};
      const int keys_count = 2 + static_cast<int>(rng() % 4);
      for (int j = 1; j < keys_count; ++j)
        keys.push_back(keys.back() + random_vector<double, 3>(rng, 12.0));
      paths.push_back(*Path<double, 3>::catmull_rom(keys, Closure::open));
      pieces.push_back(*Track<double>::build(MeasuredPath<double>::build(paths.back())));
    }
    const auto network = *Network<double>::build(pieces, {});
    const auto compiled = network.compiled();  // the winner measured on its cells
    int unique = 0;
    for (int trial = 0; trial < 60; ++trial) {
      Vector3<double> q;
      const int kind = trial % 4;
      if (kind == 0) {
        q = random_vector<double, 3>(rng, 220.0);  // anywhere
      } else if (kind == 1) {
        q = random_vector<double, 3>(rng, 1e5);  // far away
      } else {
        // On a piece, or a hair off it.
        const auto& piece = pieces[rng() % count];
        q = piece.path().point_at(uniform<double>(rng, 0.0, piece.length())) +
            (kind == 2 ? 0.0 : 0.5) * random_vector<double, 3>(rng, 1.0);
      }
      INFO("query " << q.transpose());
      const auto got = network.closest_point(q);
      const auto on_cells = compiled.closest_point(q);
      CHECK(on_cells.squared_distance == got.squared_distance);
      long double best = std::numeric_limits<long double>::infinity(),
                  second = std::numeric_limits<long double>::infinity();
      std::size_t best_piece = 0;
      Reference best_reference;
      // The full reference (its arc lengths are costly) only on pieces that can hold the
      // minimum: a piece's sampled distance less how far its samples may lie from its nearest
      // point (half a sample step at the largest speed) is a lower bound of its distance.
      std::vector<long double> sampled(count), slack(count);
      long double nearest_sampled = std::numeric_limits<long double>::infinity();
      for (std::size_t k = 0; k < count; ++k) {
        sampled[k] = std::numeric_limits<long double>::infinity();
        for (std::size_t i = 0; i < paths[k].size(); ++i) {
          const auto& b = paths[k].segment(i);
          long double speed = 0;
          for (std::size_t j = 0; j < 3; ++j)
            speed += 3 * static_cast<long double>((b.points[j + 1] - b.points[j]).norm());
          slack[k] = std::max(slack[k], speed / 1024);
          const LongPoint lq{q[0], q[1], q[2]};
          for (int j = 0; j <= 512; ++j)
            sampled[k] = std::min(sampled[k], std::sqrt(squared_to(b, j / 512.0L, lq)));
        }
        nearest_sampled = std::min(nearest_sampled, sampled[k]);
      }
      for (std::size_t k = 0; k < count; ++k) {
        if (sampled[k] - 2 * slack[k] > nearest_sampled) continue;  // cannot be the nearest
        const Reference r = reference(paths[k], q);
        if (r.squared < best) {
          second = std::min(second, best);
          best = r.squared, best_piece = k, best_reference = r;
        } else {
          second = std::min(second, r.squared);
        }
      }
      const double d = std::sqrt(static_cast<double>(best));
      CHECK(std::abs(std::sqrt(got.squared_distance) - d) <= 1e-12 * (400.0 + d));
      CHECK(std::abs((got.point - q).squaredNorm() - got.squared_distance) <=
            1e-12 * (1.0 + got.squared_distance));
      // Where the nearest piece and point are clearly the nearest, the same piece and distance.
      const long double margin = 1e-6L * (1 + best);
      if (second - best > margin && best_reference.second - best > margin &&
          best_reference.curvature_term > 1e-3L) {
        ++unique;
        CHECK(got.piece == best_piece);
        CHECK(std::abs(static_cast<long double>(got.distance) - best_reference.distance) <=
              1e-9L * (1 + pieces[best_piece].length() + std::sqrt(best) * 1e-3L));
        CHECK(on_cells.piece == best_piece);
        CHECK(std::abs(static_cast<long double>(on_cells.distance) - best_reference.distance) <=
              1e-9L * (1 + pieces[best_piece].length() + std::sqrt(best) * 1e-3L));
      }
    }
    CHECK(unique >= 40);
  }
  // A non-finite query: piece 0's start and a NaN squared distance.
  const auto straight = straight_piece(Vector3<double>(1, 2, 3), Vector3<double>(4, 2, 3));
  const auto one = *Network<double>::build({straight}, {});
  const auto nan = one.closest_point({std::nan(""), 0, 0});
  CHECK(std::isnan(nan.squared_distance));
  CHECK(nan.point == Vector3<double>(1, 2, 3));
  const auto exact = one.closest_point({2.5, 7, 3});
  CHECK(std::abs(exact.distance - 1.5) <= 1e-13);
  CHECK(std::abs(exact.squared_distance - 25.0) <= 1e-12);
}

TEST_CASE("network closest point with a cursor: a moving point gets the global answer",
          "[network]") {
  // Rows of pieces (5 rows 6 units apart, 8 pieces of 6 jittered keys each, ends touching) and a
  // point drifting along them 0.3 a step, jittered, with a jump now and then. The reference is each
  // piece's own global search, taken piece by piece: no network tree and no cursor.
  std::mt19937_64 rng = make_rng(43);
  std::vector<Track<double>> pieces;
  for (int row = 0; row < 5; ++row)
    for (int k = 0; k < 8; ++k) {
      std::vector<Vector3<double>> keys;
      for (int j = 0; j <= 5; ++j)
        keys.emplace_back(5.0 * k + j, uniform<double>(rng, -0.2, 0.2),
                          6.0 * row + (j == 0 || j == 5 ? 0.0 : uniform<double>(rng, -1.0, 1.0)));
      pieces.push_back(*Track<double>::build(
          MeasuredPath<double>::build(Path<double, 3>::catmull_rom(keys, Closure::open))));
    }
  const auto network = *Network<double>::build(pieces, {});
  const auto compiled = network.compiled();
  NetworkPointCursor<double> cursor, compiled_cursor;
  Vector3<double> q(1, 2, 1);
  int unique = 0;
  for (int step = 0; step < 1500; ++step) {
    if (step % 200 == 199 || q.x() > 45)
      q = Vector3<double>(uniform<double>(rng, -5, 45), uniform<double>(rng, -3, 3),
                          uniform<double>(rng, -5, 30));
    else
      q += Vector3<double>(0.3, 0, 0) + 0.1 * random_vector<double, 3>(rng, 1.0);
    INFO("step " << step << ", query " << q.transpose());
    const auto got = network.closest_point(q, cursor);
    const auto on_cells = compiled.closest_point(q, compiled_cursor);
    CHECK(on_cells.squared_distance == got.squared_distance);
    double best = std::numeric_limits<double>::infinity(),
           second = std::numeric_limits<double>::infinity();
    std::size_t best_piece = 0;
    double best_distance = 0.0;
    for (std::size_t p = 0; p < pieces.size(); ++p) {
      const auto at = pieces[p].path().closest_point(q);
      if (at.squared_distance < best) {
        second = best;
        best = at.squared_distance, best_piece = p, best_distance = at.distance;
      } else {
        second = std::min(second, at.squared_distance);
      }
    }
    CHECK(std::abs(got.squared_distance - best) <= 1e-12 * (1.0 + best));
    if (second - best > 1e-6 * (1.0 + best)) {
      ++unique;
      CHECK(got.piece == best_piece);
      CHECK(std::abs(got.distance - best_distance) <= 1e-9);
      CHECK(on_cells.piece == best_piece);
      CHECK(std::abs(on_cells.distance - best_distance) <= 1e-9);
    }
  }
  CHECK(unique >= 1000);
  CHECK(cursor.queries() == 1500);
  // Mostly answered from the pieces kept near the last search (49 global searches when
  // written): the walk covers 450 units over 40 pieces.
  CHECK(cursor.global_searches() < 150);
  // A network of at most 16 pieces keeps them all: one global search, then never again.
  const auto small = *Network<double>::build({pieces[0], pieces[1], pieces[9]}, {});
  NetworkPointCursor<double> all;
  for (int step = 0; step < 50; ++step) {
    const Vector3<double> far(step * 37.0, -step * 11.0, 3.0);
    const auto got = small.closest_point(far, all);
    const auto global = small.closest_point(far);
    CHECK(got.piece == global.piece);
    CHECK(std::abs(got.squared_distance - global.squared_distance) <=
          1e-12 * (1.0 + global.squared_distance));
  }
  CHECK(all.global_searches() == 1);
  // The big network's cursor taken to the small network: it searches there (its last piece,
  // 20-something, is no piece of the small one) and answers as the small network does.
  for (const auto& at : {Vector3<double>(12, 0, 18), Vector3<double>(2, 0, 0.5)}) {
    const auto got = small.closest_point(at, cursor);
    const auto global = small.closest_point(at);
    CHECK(got.piece == global.piece);
    CHECK(got.squared_distance == global.squared_distance);
  }
  // A non-finite query answers as without a cursor and leaves the cursor's state alone.
  const std::size_t before = cursor.queries();
  const auto nan = network.closest_point(Vector3<double>(std::nan(""), 0, 0), cursor);
  CHECK(std::isnan(nan.squared_distance));
  CHECK(nan.point == network.closest_point(Vector3<double>(std::nan(""), 0, 0)).point);
  CHECK(cursor.queries() == before);
}

TEST_CASE("around with chord spacing: the last bogie's own distance keeps every bogie in place",
          "[network]") {
  // A helix of radius 10 cut into quarter turns, wagons of 12 with bogies 12 apart: on the curve
  // the chords' arcs add 4.35 to the 60 the lengths sum to, so `train_length` = 60 with nothing
  // kept behind dropped the step under the last bogie, which jumped 4.28. The documented
  // length — head − the last pose's rear_distance — moves no bogie.
  const double radius = 10.0, quarter = 3.141592653589793 / 2;
  const double handle = 4 * std::tan(quarter / 4);
  std::vector<Vector3<double>> points, tangents;
  for (int i = 0; i < 13; ++i) {
    const double angle = i * quarter;
    points.emplace_back(radius * std::cos(angle), 0.1 * angle, radius * std::sin(angle));
    tangents.emplace_back(-handle * radius * std::sin(angle), 0.1 * quarter,
                          handle * radius * std::cos(angle));
  }
  const auto helix = *Path<double, 3>::from_hermite_keys(points, tangents, Closure::open);
  const Split cut =
      split(helix, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, *UpSource<double>::world(), false);
  const auto route = *Route<double>::build(cut.network, cut.steps);
  const std::vector<Wagon<double>> wagons(5, {12.0, 12.0});
  const auto settings = cut.network.default_settings();
  const TrainOptions options{Wrap::clamp, Spacing::chord};
  const auto train = *TrainSolver<double, Route<double>>::build(route, wagons, options);
  for (double head = 70.0; head < route.length() - 20.0; head += 0.5) {
    const auto before = train.solve(head);
    const auto moved = route.around(head, head - before.back().rear_distance, settings, 10.0, 0.0);
    REQUIRE(moved);
    const auto after = TrainSolver<double, Route<double>>::build(moved->route, wagons, options)
                           ->solve(moved->head);
    for (std::size_t i = 0; i < after.size(); ++i) {
      INFO("head " << head << ", wagon " << i);
      CHECK((after[i].rear.origin - before[i].rear.origin).norm() <= 1e-9 * route.length());
      CHECK(after[i].status == before[i].status);
    }
  }
}

TEST_CASE("around: a switch thrown behind the train, a train longer than its route, far ahead",
          "[network]") {
  const Junction j = junction();
  SwitchSettings settings = j.network.default_settings();
  REQUIRE(!settings.set({2, End::start}));
  const auto route = *Route<double>::follow(j.network, settings, {4, Direction::forward});
  // The rear 10 past the switch; the switch thrown back for the next train.
  const double head = route.step_start(2) + 70.0;
  REQUIRE(!settings.set({1, End::start}));
  const auto moved = route.around(head, 60.0, settings, 10.0, 20.0);
  REQUIRE(moved);
  // Behind the train the walk meets the switch set against it and stops there, as at a buffer
  // stop: the route starts on the siding's curve, where the rear bogie is.
  CHECK(moved->route.step(0) == Step{2, Direction::forward});
  CHECK(std::abs(moved->head - 70.0) <= 1e-12 * route.length());
  // Driving on, the siding continues ahead of the head.
  CHECK(moved->route.step(moved->route.size() - 1) == Step{3, Direction::forward});

  // A train longer than its one-piece route: the route grows behind it until it holds the train.
  const auto short_route = *Route<double>::build(j.network, {{1, Direction::forward}});
  const auto grown = short_route.around(50.0, 300.0, settings, 10.0, 20.0);
  REQUIRE(grown);
  CHECK(grown->route.step(0) == Step{4, Direction::forward});
  CHECK(std::abs(grown->head - (100.0 + 200.0 + 50.0)) <= 1e-9);
  // A head past the end of the route: piece 1 ends at a buffer stop, nothing more to add.
  const auto past = short_route.around(230.0, 10.0, settings, 10.0, 0.0);
  REQUIRE(past);
  CHECK(past->route.size() == 1);

  // A length of more laps than a route takes is an error, not a walk without end.
  const auto ring = circle<double>(50.0, 8);
  const Split loop = split(ring, {2, 4, 6, 8}, *UpSource<double>::world());
  const auto piece_route = *Route<double>::build(loop.network, {loop.steps[0]});
  const auto endless = piece_route.around(10.0, 5.0, loop.network.default_settings(), 1e12, 0.0);
  REQUIRE(!endless);
  CHECK(endless.error().message.find(" steps (the limit: 4 a piece + 1024) cover ") !=
        std::string::npos);
  // A long one it does hold: round the loop several times.
  const auto laps = piece_route.around(10.0, 5.0, loop.network.default_settings(), 2000.0, 0.0);
  REQUIRE(laps);
  CHECK(laps->route.length() >= 2000.0);

  // A closed route needs no walk, but another network's settings are still an error.
  const auto closed_route = *Route<double>::build(loop.network, loop.steps, Closure::closed);
  const auto unchanged = closed_route.around(10.0, 5.0, loop.network.default_settings(), 1e3, 0.0);
  REQUIRE(unchanged);
  CHECK(unchanged->route.closed());
  CHECK(unchanged->route.length() == closed_route.length());
  const auto foreign = closed_route.around(10.0, 5.0, j.network.default_settings(), 10.0, 0.0);
  REQUIRE(!foreign);
  CHECK(foreign.error().message == "route: the switch settings were made for another network");
}

TEST_CASE("float: a closed route of pieces gives the poses of the same loop as one curve",
          "[network]") {
  const auto path = circle<float>(60.0f, 12, 0.0f);
  std::vector<Track<float>> pieces;
  std::vector<std::vector<PieceEnd>> joints;
  std::vector<Step> steps;
  for (std::size_t k = 0; k < 4; ++k) {
    const bool turn = k % 2 == 1;
    pieces.push_back(piece_of(path, 3 * k, 3 * k + 3, turn));
    steps.push_back({k, turn ? Direction::backward : Direction::forward});
  }
  for (std::size_t k = 0; k < 4; ++k)
    joints.push_back({steps[k].exit(), steps[(k + 1) % 4].entry()});
  const auto network = Network<float>::build(pieces, joints);
  REQUIRE(network);
  const auto route = *Route<float>::build(*network, steps, Closure::closed);
  const auto whole = *Track<float>::build(MeasuredPath<float>::build(path));
  const float tolerance = 64 * eps<float>() * 60.0f;
  for (Spacing spacing : {Spacing::chord, Spacing::arc}) {
    const std::vector<Wagon<float>> wagons(8, {12.0f, 8.0f});
    const auto a =
        *TrainSolver<float, Route<float>>::build(route, wagons, {Wrap::automatic, spacing});
    const auto b = *TrainSolver<float>::build(whole, wagons, {Wrap::automatic, spacing});
    for (int k = 0; k < 20; ++k) {
      const float head = route.length() * float(k) / 7.0f;
      const auto x = a.solve(head), y = b.solve(head);
      for (std::size_t i = 0; i < x.size(); ++i) {
        CHECK((x[i].front.origin - y[i].front.origin).norm() <= tolerance);
        CHECK((x[i].rear.origin - y[i].rear.origin).norm() <= tolerance);
      }
    }
  }
  // Closest point in float: 10 outside the circle of radius 60.
  const auto near = network->closest_point({70.0f, 0.0f, 0.0f});
  CHECK(std::abs(std::sqrt(near.squared_distance) - 10.0f) <= tolerance);
  // With a cursor, a point circling 10 outside it: 10 away at every step.
  NetworkPointCursor<float> cursor;
  for (int step = 0; step < 200; ++step) {
    const float angle = 0.05f * static_cast<float>(step);
    const auto at =
        network->closest_point({70.0f * std::cos(angle), 0.0f, 70.0f * std::sin(angle)}, cursor);
    CHECK(std::abs(std::sqrt(at.squared_distance) - 10.0f) <= tolerance);
  }
  CHECK(cursor.global_searches() == 1);  // 4 pieces: all kept
}

TEST_CASE("float: a loop cut into pieces far from the origin joins with the default tolerance",
          "[network]") {
  // The trefoil 10³ and 10⁴ units out, rounded to float and cut into pieces of four segments:
  // rounding turns the end tangents by up to 7.7e-6 and 1.2e-4 rad, over float's 64 eps, and
  // every joint was refused as a kink. The joint tolerance now grows with the ends' coordinates
  // next to their handles; a real kink is still refused. The reference for the trains: the same
  // float segments as one curve.
  const auto shape = trefoil<double>(24, 20.0);
  for (const double offset : {1e3, 1e4}) {
    std::vector<CubicBezier<float, 3>> segments;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      CubicBezier<float, 3> b;
      for (std::size_t j = 0; j < 4; ++j)
        b.points[j] = (shape.segment(i).points[j] + Vector3<double>(offset, 0, 0)).cast<float>();
      segments.push_back(b);
    }
    std::vector<Track<float>> pieces;
    std::vector<std::vector<PieceEnd>> joints;
    std::vector<Step> steps;
    const std::size_t count = segments.size() / 4;
    for (std::size_t k = 0; k < count; ++k) {
      const std::vector<CubicBezier<float, 3>> part(segments.begin() + std::ptrdiff_t(4 * k),
                                                    segments.begin() + std::ptrdiff_t(4 * k + 4));
      pieces.push_back(*Track<float>::build(
          MeasuredPath<float>::build(Path<float, 3>::from_segments(part, Closure::open))));
      joints.push_back({{k, End::end}, {(k + 1) % count, End::start}});
      steps.push_back({k, Direction::forward});
    }
    INFO("offset " << offset);
    const auto network = Network<float>::build(pieces, joints);
    REQUIRE(network);
    const auto route = *Route<float>::build(*network, steps, Closure::closed);
    const auto whole = *Track<float>::build(
        MeasuredPath<float>::build(Path<float, 3>::from_segments(segments, Closure::closed)));
    const float tolerance = 64 * eps<float>() * float(offset);
    const std::vector<Wagon<float>> wagons(6, {12.0f, 8.0f});
    for (Spacing spacing : {Spacing::chord, Spacing::arc}) {
      const auto a =
          *TrainSolver<float, Route<float>>::build(route, wagons, {Wrap::automatic, spacing});
      const auto b = *TrainSolver<float>::build(whole, wagons, {Wrap::automatic, spacing});
      for (int k = 0; k < 10; ++k) {
        const float head = route.length() * float(k) / 7.0f;
        const auto x = a.solve(head), y = b.solve(head);
        for (std::size_t i = 0; i < x.size(); ++i)
          CHECK((x[i].rear.origin - y[i].rear.origin).norm() <= tolerance);
      }
    }
    // A piece turned by 0.05 rad about its joint with the one before it is still a kink.
    Path<float, 3> turned = pieces[1].path().path();
    const Vector3<float> pivot = turned.segment(0).points[0];
    const Eigen::Matrix3f rotation =
        Eigen::AngleAxisf(0.05f, Vector3<float>::UnitY()).toRotationMatrix();
    std::vector<CubicBezier<float, 3>> bent;
    for (std::size_t i = 0; i < turned.size(); ++i) {
      CubicBezier<float, 3> b = turned.segment(i);
      for (auto& p : b.points)
        p = pivot + rotation * (p - pivot);
      bent.push_back(b);
    }
    std::vector<Track<float>> kinked = pieces;
    kinked[1] = *Track<float>::build(
        MeasuredPath<float>::build(Path<float, 3>::from_segments(bent, Closure::open)));
    const auto refused = Network<float>::build(kinked, {joints[0]});
    REQUIRE(!refused);
    CHECK(refused.error().message.find("from collinear") != std::string::npos);
  }
}

TEST_CASE("float: chord trains on a route far from the origin hold the float promise",
          "[network]") {
  // Circles cut into eight 45° bends (every other one stored backwards), far from the origin:
  // closed routes round a radius of 50 10⁴ and 10⁶ out (4001 heads over two laps), and an open,
  // clamped route over six bends of radius 200 10⁵ out (3001 heads). Chord spacing; reference:
  // the chords measured in double from the float points, against the single-track promise of 4
  // eps of the scale. Two exits of the chord solve missed it by the points' rounding: a Newton
  // step taken on its prediction (4.4 eps, the first case) and a first sample whose rounding put
  // it past the root, which left an empty bracket (4.2 eps, the last).
  struct Case {
    double radius;
    Vector3<double> centre;
    bool closed;
    std::size_t used;
    double laps;
    int heads;
  };
  for (const Case& c :
       {Case{50.0, {1e4, 0, 0}, true, 8, 2.0, 4000}, Case{50.0, {1e6, 0, 0}, true, 8, 2.0, 4000},
        Case{200.0, {1e5, 3e4, -1e5}, false, 6, 1.1, 3000}}) {
    INFO("radius " << c.radius << ", centre " << c.centre.transpose());
    std::vector<Track<float>> pieces;
    std::vector<Step> steps;
    std::vector<std::vector<PieceEnd>> joints;
    const int count = 8;
    for (int i = 0; i < count; ++i) {
      const long double a0 = 2 * detail::pi<long double>() * i / count,
                        a1 = 2 * detail::pi<long double>() * (i + 1) / count;
      const float handle = float(4.0L / 3.0L * std::tan((a1 - a0) / 4) * c.radius);
      // Ends rounded to float once; handles added in float, as a float tool would place them.
      auto at = [&](long double a) {
        return Vector3<float>(float(c.centre.x() + c.radius * std::cos(a)), float(c.centre.y()),
                              float(c.centre.z() + c.radius * std::sin(a)));
      };
      auto along = [](long double a) {
        return Vector3<float>(float(-std::sin(a)), 0.0f, float(std::cos(a)));
      };
      CubicBezier<float, 3> b;
      b.points = {at(a0), at(a0) + handle * along(a0), at(a1) - handle * along(a1), at(a1)};
      const bool turn = i % 2 == 1;
      if (turn) std::reverse(b.points.begin(), b.points.end());
      pieces.push_back(*Track<float>::build(
          MeasuredPath<float>::build(Path<float, 3>::from_segments({b}, Closure::open))));
      steps.push_back({std::size_t(i), turn ? Direction::backward : Direction::forward});
    }
    for (std::size_t i = 0; i < steps.size(); ++i)
      joints.push_back({steps[i].exit(), steps[(i + 1) % steps.size()].entry()});
    const auto network = Network<float>::build(pieces, joints);
    REQUIRE(network);
    const auto route = *Route<float>::build(
        *network, std::vector<Step>(steps.begin(), steps.begin() + std::ptrdiff_t(c.used)),
        c.closed ? Closure::closed : Closure::open);
    const auto train = *TrainSolver<float, Route<float>>::build(
        route, std::vector<Wagon<float>>(3, {14.0f, 9.0f, 1.0f}),
        {c.closed ? Wrap::circular : Wrap::clamp, Spacing::chord});
    // The scale from the geometry (the largest coordinate, or the route's arcs if longer), not
    // from the route's own coordinate_scale(), which must agree with it.
    const double scale = std::max(c.centre.cwiseAbs().maxCoeff() + c.radius,
                                  2 * detail::pi<double>() * c.radius * double(c.used) / count);
    CHECK(std::abs(double(route.coordinate_scale()) - scale) <= 1e-3 * scale);
    const double promise = 4 * double(eps<float>()) * scale;
    double worst = 0;
    for (int k = 0; k <= c.heads; ++k) {
      const float head = float(c.laps * double(route.length()) * k / c.heads);
      const auto poses = train.solve(head);
      for (std::size_t i = 0; i < poses.size(); ++i) {
        if (poses[i].status != WagonStatus::on_track) continue;  // held at a buffer stop
        const Vector3<double> front = poses[i].front.origin.cast<double>(),
                              rear = poses[i].rear.origin.cast<double>();
        worst = std::max(worst, std::abs((front - rear).norm() - 9.0));
        if (i + 1 < poses.size() && poses[i + 1].status == WagonStatus::on_track)
          worst = std::max(
              worst, std::abs((rear - poses[i + 1].front.origin.cast<double>()).norm() - 5.0));
      }
    }
    CHECK(worst <= promise);
  }
}

TEST_CASE("a kink after an end handle of rounding size is still a kink", "[network]") {
  // The joint tolerance grows with rounding next to the handle a tangent comes from. A handle of
  // 1e-12 (or 1e-15, where the tangent comes from r'') must not open it to a 60° kink: the
  // tangent is taken from r'' there, and the growth stops at 1e-3 rad (found by review).
  auto check = [](auto at, auto gap) {
    using S = decltype(at);
    using V = Vector3<S>;
    const Bezier<S, 3, 3> in{{V(at - 3, 0, 0), V(at - 2, 0, 0), V(at - gap, 0, 0), V(at, 0, 0)}};
    const S c = S(0.5), d = S(0.8660254037844386);
    const Bezier<S, 3, 3> out{
        {V(at, 0, 0), V(at + c, d, 0), V(at + 2 * c, 2 * d, 0), V(at + 3 * c, 3 * d, 0)}};
    auto piece = [](const Bezier<S, 3, 3>& b) {
      return *Track<S>::build(
          MeasuredPath<S>::build(Path<S, 3>::from_segments({b}, Closure::open)));
    };
    const auto refused =
        Network<S>::build({piece(in), piece(out)}, {{{0, End::end}, {1, End::start}}});
    INFO("joint at " << at << ", end handle " << gap);
    REQUIRE(!refused);
    CHECK(refused.error().message.find("from collinear") != std::string::npos);
  };
  check(1.0, 1e-15);
  check(1.0, 1e-12);
  check(1000.0, 1e-12);
  check(1.0f, 1.2e-7f);
  check(1000.0f, 1.2e-4f);
  check(1000.0f, 1e-2f);
}

TEST_CASE("network files: the example oval with a passing loop and a siding", "[network]") {
  std::ifstream in(std::string(TRACTRIX_DEMOS_DIR) + "/networks/passing_loop.net");
  REQUIRE(in);
  const auto file = tractrix::io::network_file::read(in, "passing_loop.net");
  REQUIRE(file);
  REQUIRE(file->names.size() == 9);
  CHECK(file->names[2] == "passing_loop");
  CHECK(file->network.joint_count() == 7);
  // Round the oval with the switches as listed: straights 400 long and two half circles of
  // radius 50 (cubic quarter circles: within 3e-4 of the radius).
  auto settings = file->network.default_settings();
  const auto main = *Route<double>::follow(file->network, settings, {0, Direction::forward});
  CHECK(main.closed());
  CHECK(main.size() == 7);
  CHECK(std::abs(main.length() - (400.0 + 100.0 * 3.14159265358979)) <= 0.05);
  // Through the passing loop: its switches set for it at both ends.
  REQUIRE(!settings.set({2, End::start}));
  REQUIRE(!settings.set({2, End::end}));
  const auto loop = *Route<double>::follow(file->network, settings, {0, Direction::forward});
  CHECK(loop.closed());
  CHECK(loop.step(1) == Step{2, Direction::forward});
  CHECK(loop.length() > main.length());
  // Set at one end only: the walk meets the other switch set against it.
  REQUIRE(!settings.set({1, End::end}));
  CHECK(!Route<double>::follow(file->network, settings, {0, Direction::forward}));
}

TEST_CASE("join_ends finds the joints a network file lists, and refuses ends that meet at a kink",
          "[network]") {
  std::ifstream in(std::string(TRACTRIX_DEMOS_DIR) + "/networks/passing_loop.net");
  const auto file = tractrix::io::network_file::read(in, "passing_loop.net");
  REQUIRE(file);
  const Network<double>& listed = file->network;
  std::vector<Track<double>> pieces;
  for (std::size_t i = 0; i < listed.piece_count(); ++i)
    pieces.push_back(listed.piece(i));
  const auto found = Network<double>::join_ends(pieces);
  REQUIRE(found);
  // The file's joints (written by hand) as sets of ends, against the joints found.
  const auto ends_of = [](const Network<double>& network, std::size_t j) {
    std::vector<std::pair<std::size_t, int>> ends;
    for (std::uint8_t side = 0; side < 2; ++side)
      for (const PieceEnd& e : network.side(j, side))
        ends.push_back({e.piece, static_cast<int>(e.end)});
    std::sort(ends.begin(), ends.end());
    return ends;
  };
  REQUIRE(found->joint_count() == 7);
  std::vector<std::vector<std::pair<std::size_t, int>>> want, got;
  for (std::size_t j = 0; j < 7; ++j) {
    want.push_back(ends_of(listed, j));
    got.push_back(ends_of(*found, j));
  }
  // Numbered by their lowest end: the one of piece 0's start (bottom_west.start) first.
  REQUIRE(listed.joint_of({0, End::start}));
  CHECK(got[0] == want[*listed.joint_of({0, End::start})]);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  CHECK(got == want);
  // The siding's far end meets nothing: a buffer stop.
  const std::size_t siding = static_cast<std::size_t>(
      std::find(file->names.begin(), file->names.end(), "siding") - file->names.begin());
  REQUIRE(siding < file->names.size());
  CHECK(!listed.joint_of({siding, End::end}));
  CHECK(!found->joint_of({siding, End::end}));
  // The same main line round the oval, with each switch set as the file's default (the first
  // end it lists; join_ends lists a joint's ends by piece, so its defaults may differ).
  const SwitchSettings listed_settings = listed.default_settings();
  SwitchSettings settings = found->default_settings();
  for (std::size_t j = 0; j < listed.joint_count(); ++j)
    for (std::uint8_t side = 0; side < 2; ++side)
      if (listed.side(j, side).size() > 1)
        REQUIRE(!settings.set(listed_settings.selected(j, side)));
  const auto main = *Route<double>::follow(*found, settings, {0, Direction::forward});
  CHECK(main.closed());
  CHECK(main.size() == 7);
  CHECK(std::abs(main.length() - (400.0 + 100.0 * 3.14159265358979)) <= 0.05);
  // Ends that meet at a kink are refused as a listed joint is, not taken for buffer stops; ends
  // farther apart than the gap are two buffer stops.
  const auto straight = [](Vector3<double> a, Vector3<double> b) { return straight_piece(a, b); };
  const auto a = straight({0, 0, 0}, {10, 0, 0});
  const auto kink = Network<double>::join_ends({a, straight({10, 0, 0}, {20, 5, 0})});
  REQUIRE_FALSE(kink);
  CHECK(kink.error().message.find("joint 0: the tangents of piece 0 end and piece 1 start") == 0);
  const auto apart = Network<double>::join_ends({a, straight({10.5, 0, 0}, {20, 0, 0})});
  REQUIRE(apart);
  CHECK(apart->joint_count() == 0);
  // Three ends within the gap of one another chain into one joint: a switch.
  const auto y = Network<double>::join_ends(
      {a, straight({10, 0, 0}, {20, 0, 0}), straight({10, 0, 0}, {20, 1e-7, 0})});
  REQUIRE(y);
  CHECK(y->joint_count() == 1);
  CHECK(y->side(0, 0).size() + y->side(0, 1).size() == 3);
  CHECK(Network<double>::join_ends({}).error().message == "network: no pieces");
}

TEST_CASE("network files: errors name the line and the field", "[network]") {
  auto error = [](const std::string& text) {
    std::istringstream in(text);
    const auto file = tractrix::io::network_file::read(in, "n.net");
    REQUIRE(!file);
    return file.error().message;
  };
  const std::string a = "piece a\n0,0,0\n1,0,0\n2,0,0\n3,0,0\n";
  CHECK(error(a + "piece b\n3,0,0\n4, x ,0\n5,0,0\n6,0,0\n") ==
        "n.net:8: field 2 (y): 'x' is not a finite number");
  CHECK(error(a + "piece b\n3,0\n") == "n.net:7: 2 fields, expected 3 (x, y, z)");
  CHECK(error("piece a\n0,0,0\n1,0,0\n2,0,0\n3,0,0\n4,0,0\n") ==
        "n.net:1: piece 'a': 5 control points; cubic segments need 3k + 1 (4, 7, 10, ...)");
  CHECK(error(a + "joint a.end zz.start\n") ==
        "n.net:6: field 3 'zz.start': no piece 'zz' is defined above this line");
  CHECK(error(a + "joint a.middle\n") ==
        "n.net:6: field 2 'a.middle': 'middle' is no end (start "
        "or end)");
  CHECK(error(a + "joint a\n") ==
        "n.net:6: field 2 'a': a piece end is <piece>.start or <piece>.end");
  CHECK(error(a + "piece a\n") == "n.net:6: piece 'a' is already defined on line 1");
  CHECK(error("1,2,3\n") ==
        "n.net:1: '1,2,3' is no statement (piece, joint, tolerance) and no piece is open for "
        "control points (they follow their 'piece' line, before any joint or tolerance)");
  // Points after a joint line belong to no piece (they were added to the piece above), and a
  // second tolerance line would silently replace the first.
  CHECK(error(a + "piece b\n3,0,0\n4,0,0\n5,0,0\n6,0,0\njoint a.end b.start\n7,0,0\n") ==
        "n.net:12: '7,0,0' is no statement (piece, joint, tolerance) and no piece is open for "
        "control points (they follow their 'piece' line, before any joint or tolerance)");
  CHECK(error(a + "tolerance 0.1 0\ntolerance 0.2 0\n") ==
        "n.net:7: a second 'tolerance' (the first is on line 6)");
  CHECK(error(a + "tolerance 1e-3 x\n") ==
        "n.net:6: field 3 (angle): 'x' is not a finite number >= 0");
  CHECK(error("# nothing\n") == "n.net: no pieces");
  CHECK(error("\v\n\f \n") == "n.net: no pieces");  // white space other than ' ' and '\t'
  // A tolerance too small for a double is refused: it read 0, which asks for the default.
  CHECK(error(a + "tolerance 1e-400 0\n") ==
        "n.net:6: field 2 (gap): '1e-400' is below the smallest double (0 asks for the default)");
  CHECK(error("piece z\n1,1,1\n1,1,1\n1,1,1\n1,1,1\n")
            .find("n.net:1: piece 'z': path: zero length") == 0);
  // The network's own checks, at the joint's line and with the pieces' names.
  CHECK(error(a + "piece b\n3.5,0,0\n4,0,0\n5,0,0\n6,0,0\n\njoint a.end b.start\n") ==
        "n.net:12: joint 0: piece 0 ('a') end and piece 1 ('b') start are 0.5 apart (tolerance "
        "6e-09)");
  // An end in two joints names the other's line (the file numbers no joints); one listed twice.
  const std::string b = "piece b\n3,0,0\n4,0,0\n5,0,0\n6,0,0\n";
  CHECK(error(a + b + "joint a.end b.start\njoint b.start a.end\n") ==
        "n.net:12: joint 1: piece 1 ('b') start is already in joint 0 (line 11)");
  CHECK(error(a + "joint a.end a.end\n") == "n.net:6: joint 0: piece 0 ('a') end is listed twice");
  // A field's white space is any a line holds: "\v0" was no number and printed as '0'.
  {
    std::istringstream in("piece a\n0,0,0\n1,\v0,\f0\r\n2,0,0\n3,0,0\n");
    const auto file = tractrix::io::network_file::read(in, "n.net");
    REQUIRE(file);
    CHECK(file->network.piece(0).length() == Approx(3.0).epsilon(1e-14));
  }
  // A looser tolerance line accepts it.
  std::istringstream loose(
      a + "tolerance 0.1 0\npiece b\n3.5,0,0\n4,0,0\n5,0,0\n6,0,0\njoint a.end b.start\n");
  CHECK(tractrix::io::network_file::read(loose, "n.net"));
}

TEST_CASE("network files: numbers in C notation whatever the process's locale", "[network]") {
  using tractrix::io::network_file::detail::parse_number;
  CHECK(parse_number("1.5") == 1.5);
  CHECK(parse_number("+2.25") == 2.25);
  CHECK(parse_number("-0.125e2") == -12.5);
  CHECK(parse_number("3") == 3.0);
  // Past double's range downwards: a zero of the text's sign; upwards: no number.
  REQUIRE(parse_number("-1e-400"));
  CHECK(*parse_number("-1e-400") == 0.0);
  CHECK(std::signbit(*parse_number("-1e-400")));
  CHECK(!parse_number("1e400"));
  // strtod read these as numbers; hexadecimal floats and specials are none in these files.
  for (const char* text : {"0x1p3", "inf", "nan", "-inf", "+", "+-1", "", "1,5", "1.5x", " 1"})
    CHECK(!parse_number(text));

  // A host that adopted a German user's locale (setlocale(LC_ALL, "") in a DCC application):
  // strtod stopped at the '.', so "0.5" was no number. Checked where such a locale is installed.
  const std::string saved = std::setlocale(LC_NUMERIC, nullptr);
  const char* german = nullptr;
  for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8", "fr_FR.utf8"})
    if (!german && std::setlocale(LC_NUMERIC, name)) german = name;
  if (!german) {
    WARN("no locale with a decimal comma is installed: the locale half is skipped");
    return;
  }
  std::istringstream in("piece a\n0,0,0\n0.5,0,0\n1.5,0,0\n2.5,0,0\n");
  const auto file = tractrix::io::network_file::read(in, "n.net");
  std::setlocale(LC_NUMERIC, saved.c_str());
  INFO(german);
  REQUIRE(file);
  // The control points lie on the x axis, 2.5 apart end to end: a straight piece that long.
  CHECK(file->network.piece(0).length() == Approx(2.5).epsilon(1e-14));
}

TEST_CASE("solve_trains: each train's poses, one after another in one buffer", "[network]") {
  const Junction j = junction();
  const auto route =
      *Route<double>::follow(j.network, j.network.default_settings(), {4, Direction::forward});
  const auto whole = *Track<double>::build(MeasuredPath<double>::build(circle<double>(60.0, 12)));
  const std::vector<TrainSolver<double, Route<double>>> on_route{
      *TrainSolver<double, Route<double>>::build(route, train_of(3), {Wrap::clamp}),
      *TrainSolver<double, Route<double>>::build(route, train_of(5), {Wrap::extend, Spacing::arc})};
  const double heads[] = {120.0, 310.0};
  std::vector<WagonPose<double>> out(8);
  solve_trains(on_route.data(), heads, 2, out.data());
  const auto first = on_route[0].solve(heads[0]), second = on_route[1].solve(heads[1]);
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(same_pose(out[i], first[i]));
  for (std::size_t i = 0; i < 5; ++i)
    CHECK(same_pose(out[3 + i], second[i]));
  // On single tracks too, and none at all writes nothing.
  const std::vector<TrainSolver<double>> on_track{*TrainSolver<double>::build(whole, train_of(4))};
  std::vector<WagonPose<double>> one(4);
  solve_trains(on_track.data(), heads, 1, one.data());
  const auto expected = on_track[0].solve(heads[0]);
  for (std::size_t i = 0; i < 4; ++i)
    CHECK(same_pose(one[i], expected[i]));
  solve_trains(on_track.data(), heads, 0, static_cast<WagonPose<double>*>(nullptr));
}

namespace {

// Straight pieces along +x between the given x's, every other one stored backwards (from its far
// end), joined end to end: the route driving +x over all of them has route distance x − xs[0].
struct Line {
  Network<double> network;
  std::vector<Step> steps;
};

Line straight_line(const std::vector<double>& xs, bool first_backward) {
  std::vector<Track<double>> pieces;
  std::vector<Step> steps;
  for (std::size_t k = 0; k + 1 < xs.size(); ++k) {
    const bool backward = (k % 2 == 0) == first_backward;
    Vector3<double> a(xs[k], 0, 0), b(xs[k + 1], 0, 0);
    if (backward) std::swap(a, b);
    pieces.push_back(straight_piece(a, b));
    steps.push_back({k, backward ? Direction::backward : Direction::forward});
  }
  std::vector<std::vector<PieceEnd>> joints;
  for (std::size_t k = 0; k + 1 < steps.size(); ++k)
    joints.push_back({steps[k].exit(), steps[k + 1].entry()});
  auto network = Network<double>::build(std::move(pieces), joints);
  REQUIRE(network);
  return {*network, steps};
}

}  // namespace

TEST_CASE("a distance exactly on a joint is on the later step, from a cursor left anywhere",
          "[network]") {
  // Joints at x = 10, 30, 35, 50 between straight pieces, every other one stored backwards. At a
  // joint's exact route distance the point is the next piece's entry end: its piece distance 0
  // (forward) or its length (backward), whatever step the cursor was left on.
  const std::vector<double> xs{0, 10, 30, 35, 50, 60};
  const Line line = straight_line(xs, false);
  const auto route = *Route<double>::build(line.network, line.steps);
  for (std::size_t k = 1; k + 1 < xs.size(); ++k) {
    const double s = route.step_start(k);
    REQUIRE(std::abs(s - xs[k]) <= 1e-12 * xs.back());
    // The entry end: 0 on a piece driven forwards, its (measured) length on one driven back.
    const bool forward = line.steps[k].direction == Direction::forward;
    const double entry = forward ? 0.0 : line.network.piece(line.steps[k].piece).length();
    const auto place = route.locate(s);
    INFO("joint " << k << " at " << s);
    CHECK(place.step == k);
    CHECK(place.piece_distance == entry);
    for (std::size_t from = 0; from < route.size(); ++from)
      for (const std::size_t table : {std::size_t(0), std::numeric_limits<std::size_t>::max()}) {
        INFO("cursor on step " << from << ", table entry " << table);
        Route<double>::Cursor cursor{from, table};
        const auto at = route.sample(s, cursor);
        CHECK(at.step == k);
        CHECK(at.piece_distance == entry);
        CHECK(std::abs(at.point.x() - xs[k]) <= 1e-12 * xs.back());
      }
  }
}

TEST_CASE("around with the head or the rear exactly on a joint keeps every bogie where it stood",
          "[network]") {
  // Heads and rears exactly on joints (at the route distances where steps start), and each in
  // turn with the other off a joint: the route around the train puts every bogie where it stood
  // (x, in closed form), on the same piece at the same distance, and sample() from a cursor left
  // elsewhere agrees with locate() there.
  const std::vector<double> xs{0, 10, 30, 35, 50, 60};
  const Line line = straight_line(xs, true);
  const auto route = *Route<double>::build(line.network, line.steps);
  const SwitchSettings settings = line.network.default_settings();
  for (std::size_t h = 1; h + 1 < xs.size(); ++h) {
    const double joint = route.step_start(h), previous = route.step_start(h - 1);
    for (const double rear : {previous, 0.5 * (previous + joint), 0.0})
      for (const double head : {joint, joint - 0.5}) {
        if (!(head > rear)) continue;
        INFO("head " << head << ", rear " << rear);
        const auto moved = route.around(head, head - rear, settings, 3.0, 3.0);
        REQUIRE(moved);
        const Route<double>& next = moved->route;
        // The rear where around() puts it: head − train_length, which may round off the joint.
        for (const double s : {head, head - (head - rear)}) {
          INFO("bogie at " << s);
          const double on_next = moved->head - (head - s);
          Route<double>::Cursor elsewhere{next.size() - 1, 0};
          const auto at = next.sample(on_next, elsewhere);
          const auto there = next.locate(on_next), before = route.locate(s);
          CHECK(std::abs(at.point.x() - route.sample(s, elsewhere).point.x()) <= 1e-12);
          CHECK(at.step == there.step);
          CHECK(at.piece_distance == there.piece_distance);
          CHECK(there.piece == before.piece);
          CHECK(std::abs(there.piece_distance - before.piece_distance) <= 1e-12);
        }
      }
  }
}

TEST_CASE("past the ends of a route stored backwards, piece distances run on the piece's way",
          "[network]") {
  // The first piece is stored from x = 10 back to 0 and the last from 60 back to 50, both
  // driven backwards. Beyond the route's start at x < 0 the first piece's own distance is
  // 10 − x (past its end); beyond the route's end at x > 60 the last piece's is 60 − x (below
  // 0). Bogies there, with Wrap::extend, say so.
  const std::vector<double> xs{0, 10, 30, 35, 50, 60};
  const Line line = straight_line(xs, true);
  REQUIRE(line.steps.front().direction == Direction::backward);
  REQUIRE(line.steps.back().direction == Direction::backward);
  const auto route = *Route<double>::build(line.network, line.steps);
  Route<double>::Cursor cursor;
  for (const double x : {-7.5, -0.25, 60.25, 71.0}) {
    INFO("x = " << x);
    const auto at = route.sample_extended(x, cursor);
    const bool before = x < 0;
    CHECK(at.step == (before ? 0 : route.size() - 1));
    CHECK(std::abs(at.piece_distance - (before ? 10 - x : 60 - x)) <= 1e-12);
    CHECK(std::abs(at.point.x() - x) <= 1e-12);
  }
  // A train of rigid wagons with its head 6 past the end and its tail before the start.
  std::vector<Wagon<double>> wagons(9, Wagon<double>{8.0, 6.0});
  const auto solver =
      *TrainSolver<double, Route<double>>::build(route, wagons, {Wrap::extend, Spacing::chord});
  const auto poses = solver.solve(66.0);
  for (std::size_t i = 0; i < poses.size(); ++i) {
    INFO("wagon " << i);
    const double front = 66.0 - 8.0 * double(i), rear = front - 6.0;  // straight: chord = arc
    for (const auto& [x, place] :
         {std::pair{front, poses[i].front_place}, std::pair{rear, poses[i].rear_place}}) {
      INFO("bogie at " << x);
      const std::size_t k = x < 0 ? 0 : x >= 60 ? 4 : route.locate(x).step;
      CHECK(place.piece == line.steps[k].piece);
      const bool forward = line.steps[k].direction == Direction::forward;
      const double expected = forward ? x - xs[k] : xs[k + 1] - x;
      CHECK(std::abs(place.distance - expected) <= 1e-11);
    }
  }
}

TEST_CASE("the default joint gap tolerance lies between half and five times 1e-9 of the scale",
          "[network]") {
  // Two straight pieces of 100 along x with a gap between them: the network's scale is 100, and
  // the default gap tolerance (double) 1e-9 of it. A gap of half that joins; five times it does
  // not by default, and does under a tolerance of ten times the default.
  const auto piece = [](double from, double to) {
    return straight_piece(Vector3<double>(from, 0, 0), Vector3<double>(to, 0, 0));
  };
  const std::vector<std::vector<PieceEnd>> joint{{{0, End::end}, {1, End::start}}};
  for (const double gap : {0.5e-7, 5e-7}) {
    INFO("gap " << gap);
    const std::vector<Track<double>> pieces{piece(-100, 0), piece(gap, 100 + gap)};
    const auto by_default = Network<double>::build(pieces, joint);
    if (gap < 1e-7) {
      CHECK(by_default);
    } else {
      REQUIRE_FALSE(by_default);
      CHECK(by_default.error().code == ErrorCode::not_continuous);
      CHECK(Network<double>::build(pieces, joint, JointTolerance{1e-8, 0.0}));
    }
  }
}
