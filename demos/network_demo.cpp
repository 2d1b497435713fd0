// The network demo: three trains on an oval with a passing loop and a siding, drawn as an animated
// SVG. A through train runs the main line, a second train takes the passing loop, and a shunter
// pulls out of the siding and backs in along the route that Route::around gives it; the switch is
// thrown back for the main line while the shunter straddles it, and no wagon moves. Run with
// --help for the options. network_demo_drawing.hpp writes the picture.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <tractrix/tractrix.hpp>

#include <tractrix/io/network_file.hpp>
#include "network_demo_drawing.hpp"

namespace {

using S = double;
using tractrix::Direction;
using tractrix::End;
using tractrix::Route;
using tractrix::Step;
using tractrix::Vector3d;
using Solver = tractrix::TrainSolver<S, Route<S>>;
using network_demo::fail;

const char* usage = R"(usage: network_demo [options]

Three trains on a network of track pieces joined by switches, written as an animated SVG of one
cycle: a through train on the main line, a second one through the passing loop, and a shunter
that backs into the siding while the switch is thrown under it.

options:
  --network FILE   the network to load (default: the passing loop of demos/networks; a file
                   of your own needs pieces named as in that one)
  --output PATH    SVG to write (default network.svg)
  --help           this text
)";

#ifndef NETWORK_DEMO_DEFAULT_NETWORK
#define NETWORK_DEMO_DEFAULT_NETWORK "passing_loop.net"
#endif

// Along the track from the head to the last wagon's rear bogie (arc spacing; chord spacing on
// these gentle curves is within a few thousandths of it).
S train_length(const std::vector<tractrix::Wagon<S>>& wagons) {
  S length = 0;
  for (std::size_t i = 0; i + 1 < wagons.size(); ++i)
    length += wagons[i].length;
  return length + wagons.back().bogie_distance;
}

template <class T>
T checked(tractrix::Expected<T> value, const std::string& what) {
  if (!value) fail(what + ": " + value.error().message);
  return std::move(*value);
}

// The route distance where the first step on `piece` starts.
S start_of(const Route<S>& route, std::size_t piece) {
  for (std::size_t i = 0; i < route.size(); ++i)
    if (route.step(i).piece == piece) return route.step_start(i);
  fail("the route does not pass piece " + std::to_string(piece));
}

}  // namespace

int main(int argc, char** argv) {
  std::string network_path = NETWORK_DEMO_DEFAULT_NETWORK, output = "network.svg";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << usage;
      return 0;
    }
    if (arg != "--network" && arg != "--output") fail("unknown option " + arg + " (see --help)");
    if (i + 1 >= argc) fail("option " + arg + " needs a value (see --help)");
    (arg == "--network" ? network_path : output) = argv[++i];
  }
  std::ifstream in(network_path);
  if (!in) fail("cannot read '" + network_path + "'");
  const auto file = checked(tractrix::io::network_file::read(in, network_path), "network");
  const tractrix::Network<S>& network = file.network;
  auto piece = [&](const std::string& name) {
    const auto found = std::find(file.names.begin(), file.names.end(), name);
    if (found == file.names.end()) fail(network_path + " has no piece named '" + name + "'");
    return static_cast<std::size_t>(found - file.names.begin());
  };
  const std::size_t siding = piece("siding"), top_east = piece("top_east"),
                    top_west = piece("top_west"), loop = piece("passing_loop");

  // The through train runs the main line as the switches are set by default; the second train
  // asks for the passing loop's legs. Both routes close on themselves.
  tractrix::SwitchSettings main_line = network.default_settings(), via_loop = main_line;
  for (const End end : {End::start, End::end})
    if (auto error = via_loop.set({loop, end})) fail(error->message);
  const Step start{piece("bottom_west"), Direction::forward};
  const auto through_route = checked(Route<S>::follow(network, main_line, start), "main line");
  const auto loop_route = checked(Route<S>::follow(network, via_loop, start), "passing loop");
  if (!through_route.closed() || !loop_route.closed()) fail("the main line is not a loop");

  const tractrix::TrainOptions options{tractrix::Wrap::automatic, tractrix::Spacing::chord};
  const std::vector<tractrix::Wagon<S>> through_wagons(5, {16, 11, 2.5}),
      loop_wagons(4, {18, 12, 2.5}), shunter_wagons(2, {12, 8, 2});
  const Solver circulating[] = {checked(Solver::build(through_route, through_wagons, options), "A"),
                                checked(Solver::build(loop_route, loop_wagons, options), "B")};

  // One cycle: both circulating trains lap in `period`, the loop train half a period ahead.
  const S speed = 15, period = through_route.length() / speed, fps = 10;
  const S loop_speed = loop_route.length() / period;
  const S loop_length = train_length(loop_wagons);
  // The loop train's last bogie is 14 past the siding's switch (the start of top_west), clear of
  // the switch's drawn legs, 1 s into the cycle.
  const S loop_clear = start_of(loop_route, top_west) + loop_length + 14;
  const S loop_head0 = loop_clear - loop_speed * 1.0;
  const S through_head0 = (loop_head0 / loop_route.length() - 0.5) * through_route.length();
  // The shunter starts at the end of the siding, its last bogie 4 short of the buffer stop. The
  // switch is thrown to the siding for it (a train may not run through a switch set against it),
  // and its route out follows the switch.
  tractrix::SwitchSettings world = main_line;  // the switches as the railway has them set
  if (auto error = world.set({siding, End::start})) fail(error->message);
  const S shunter_length = train_length(shunter_wagons);
  const auto out_route = checked(
      Route<S>::follow(network, world, {siding, Direction::backward}, 150), "out of the siding");
  const S siding_length = network.piece(siding).length(), home = shunter_length + 4;
  const S pulled_out = siding_length + shunter_length + 6;  // its last bogie 6 past the switch
  // Each move, out and back, is the library's jerk-limited S-curve from rest to rest: at most 20
  // units/s, 10 units/s² and 25 units/s³.
  const auto shunt =
      checked(tractrix::TimeProfile<S>::s_curve(pulled_out - home, 20, 10, 25), "shunting move");
  const S throw_time = 1.25, pull_start = 1.5, pause = 1.5;  // seconds
  const S back_start = pull_start + shunt.duration() + pause;
  // The head `from` → `to` over the move that begins at `begin`, at time t.
  auto moving = [&](S from, S to, S begin, S t) {
    return from + (to - from) * shunt.at(t - begin).value;
  };
  const Solver shunter_out = checked(Solver::build(out_route, shunter_wagons, options), "shunter");

  // Stopped past the switch, it asks for the route back: the steps under it kept, and behind its
  // last bogie the walk the switch leads to, into the siding.
  const auto back =
      checked(out_route.around(pulled_out, shunter_length, world, 10, siding_length), "back route");
  const Solver shunter_back = checked(Solver::build(back.route, shunter_wagons, options), "back");
  const S back_home = back.head - (pulled_out - home);
  // The route runs from the shunter's rear to its front: backing, it goes the other way.
  std::printf("shunter: backing along %s, then into %s\n",
              file.names[back.route.step(1).piece].c_str(),
              file.names[back.route.step(0).piece].c_str());

  // Halfway in, its front on top_east and its rear in the siding, the switch is thrown back for
  // the main line. The shunter asks for its route again: the steps under it are kept.
  const S throw_back_head = start_of(back.route, top_east) + 0.5 * shunter_length;
  S throw_back_time = back_start;  // when the move passes throw_back_head (bisection)
  for (S step = shunt.duration() / 2; step > 1e-9; step /= 2)
    if (moving(back.head, back_home, back_start, throw_back_time + step) > throw_back_head)
      throw_back_time += step;
  const auto straddling = shunter_back.solve(throw_back_head);
  if (auto error = world.set({top_west, End::start})) fail(error->message);
  const auto again = checked(
      back.route.around(throw_back_head, shunter_length, world, 10, siding_length), "again");
  const Solver shunter_in = checked(Solver::build(again.route, shunter_wagons, options), "in");
  const S shift = again.head - throw_back_head;  // from distances on `back` to those on `again`
  const auto after = shunter_in.solve(again.head);
  S moved = 0;
  for (std::size_t i = 0; i < after.size(); ++i)
    moved = std::max({moved, (after[i].front.origin - straddling[i].front.origin).norm(),
                      (after[i].rear.origin - straddling[i].rear.origin).norm()});
  // Here the steps under it are the whole route, so the new route is the old one: what the
  // switch changed is only where a walk beyond the train would go.
  std::printf(
      "switch thrown back with the shunter's front on %s and its rear on %s: its route "
      "asked again keeps the %zu steps under it, wagons moved %.1e\n",
      file.names[straddling.front().front_place.piece].c_str(),
      file.names[straddling.back().rear_place.piece].c_str(), again.route.size(), moved);

  network_demo::Scene scene;
  scene.period = period;
  scene.trains = {
      {"#2e86c1", through_wagons}, {"#27ae60", loop_wagons}, {"#c0392b", shunter_wagons}};
  for (std::size_t p = 0; p < network.piece_count(); ++p) {
    const auto& path = network.piece(p).path();
    std::vector<Vector3d> outline;
    const int samples = std::max(2, static_cast<int>(path.length()));
    for (int k = 0; k <= samples; ++k)
      outline.push_back(path.sample(path.length() * k / samples).point);
    scene.pieces.push_back(std::move(outline));
  }
  // The siding's switch: the first 10 units of each leg, drawn bold for the one selected.
  for (const std::size_t leg : {top_west, siding})
    scene.switch_legs.push_back({network.piece(leg).path().sample(0.0).point,
                                 network.piece(leg).path().sample(10.0).point});

  const std::size_t frames = static_cast<std::size_t>(std::lround(period * fps));
  std::vector<tractrix::WagonPose<S>> circulating_poses(through_wagons.size() + loop_wagons.size());
  S closest = std::numeric_limits<S>::infinity();
  for (std::size_t f = 0; f < frames; ++f) {
    const S t = period * static_cast<S>(f) / static_cast<S>(frames);
    const S heads[] = {through_head0 + speed * t, loop_head0 + loop_speed * t};
    tractrix::solve_trains(circulating, heads, 2, circulating_poses.data());
    std::vector<tractrix::WagonPose<S>> shunter;
    if (t < back_start)
      shunter = shunter_out.solve(moving(home, pulled_out, pull_start, t));
    else if (t < throw_back_time)
      shunter = shunter_back.solve(moving(back.head, back_home, back_start, t));
    else  // the same motion, continued on the route asked for after the switch was thrown back
      shunter = shunter_in.solve(moving(back.head, back_home, back_start, t) + shift);
    const auto first =
        circulating_poses.begin() + static_cast<std::ptrdiff_t>(through_wagons.size());
    std::vector<std::vector<tractrix::WagonPose<S>>> poses = {
        {circulating_poses.begin(), first}, {first, circulating_poses.end()}, shunter};
    // The closest two bogies of different trains come in the whole cycle.
    for (std::size_t a = 0; a < poses.size(); ++a)
      for (std::size_t b = a + 1; b < poses.size(); ++b)
        for (const auto& p : poses[a])
          for (const auto& q : poses[b])
            for (const auto* x : {&p.front.origin, &p.rear.origin})
              for (const auto* y : {&q.front.origin, &q.rear.origin})
                closest = std::min(closest, (*x - *y).norm());
    scene.frames.push_back(std::move(poses));
    scene.switch_selected.push_back(t >= throw_time && t < throw_back_time ? 1 : 0);
  }
  std::printf("one cycle of %.1f s, %zu frames; closest two bogies of different trains: %.1f\n",
              period, frames, closest);
  if (closest < 5) fail("trains come within " + std::to_string(closest) + " of each other");
  network_demo::write_svg(scene, output);
  std::printf("wrote %s\n", output.c_str());
}
