// A switch: a main line and a siding curving off it (a 0.25-rad arc of radius 150). A train follows
// it onto the siding; thrown under the train, it moves no wagon, and the next route runs under it.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tractrix/tractrix.hpp"

using namespace tractrix;
using V = Vector3<double>;

Track<double> piece(const V& a, const V& ta, const V& b, const V& tb) {  // fixed keys: valid
  return *Track<double>::build(MeasuredPath<double>::build(
      Path<double, 3>::from_hermite_keys({a, b}, {ta, tb}, Closure::open)));
}

int main() {
  const auto fail = [](const Error& e) { return std::printf("%s\n", e.message.c_str()), 1; };
  // The arc: radius 150 from the origin along +x, turning 0.25 rad towards +z (one Hermite
  // piece with the circle's tangent lengths, 4·tan(θ/4)·r: a circle to 1e-8 of its radius).
  const double r = 150.0, turn = 0.25, k = 4.0 * std::tan(turn / 4.0) * r;
  const V arc_end(r * std::sin(turn), 0, r - r * std::cos(turn));
  const V heading(std::cos(turn), 0, std::sin(turn));
  const auto network = Network<double>::build(
      {piece({-200, 0, 0}, {200, 0, 0}, {0, 0, 0}, {200, 0, 0}),  // 0: main line to the switch
       piece({0, 0, 0}, {200, 0, 0}, {200, 0, 0}, {200, 0, 0}),   // 1: straight on
       piece({0, 0, 0}, {k, 0, 0}, arc_end, k * heading),         // 2: the siding's curve
       piece(arc_end, 60.0 * heading, arc_end + 60.0 * heading, 60.0 * heading)},  // 3: siding
      {{{0, End::end}, {1, End::start}, {2, End::start}}, {{2, End::end}, {3, End::start}}});
  if (!network) return fail(network.error());

  SwitchSettings switches = network->default_settings();  // set to piece 1: straight on
  if (auto error = switches.set({2, End::start})) return fail(*error);  // now to the siding
  const auto route = Route<double>::follow(*network, switches, {0, Direction::forward});
  if (!route) return fail(route.error());
  std::printf("route: %zu pieces, %.3f long (arc %.3f = r·turn %.3f)\n", route->size(),
              route->length(), network->piece(2).length(), r * turn);
  const auto train = TrainSolver<double, Route<double>>::build(
      *route, std::vector<Wagon<double>>(4, {16, 11}), {Wrap::clamp, Spacing::chord});
  if (!train) return fail(train.error());
  const auto poses = train->solve(225.0);  // the head 25 past the switch
  for (const auto& pose : poses)
    std::printf("front on piece %zu at %7.3f, rear on piece %zu at %7.3f\n", pose.front_place.piece,
                pose.front_place.distance, pose.rear_place.piece, pose.rear_place.distance);
  // Thrown back under the train: the next route keeps the pieces under it.
  if (auto error = switches.set({1, End::start})) return fail(*error);
  const auto next = route->around(225.0, 64.0, switches, 50.0, 10.0);
  if (!next) return fail(next.error());
  const auto moved_train =
      TrainSolver<double, Route<double>>::build(next->route, train->wagons(), train->options());
  if (!moved_train) return fail(moved_train.error());
  const auto again = moved_train->solve(next->head);
  double moved = 0.0;  // the largest move of any bogie
  for (std::size_t i = 0; i < poses.size(); ++i)
    moved = std::max({moved, (again[i].front.origin - poses[i].front.origin).norm(),
                      (again[i].rear.origin - poses[i].rear.origin).norm()});
  std::printf("switch thrown under the train: wagons moved %.1e, route ends on piece %zu\n", moved,
              next->route.step(next->route.size() - 1).piece);
}
