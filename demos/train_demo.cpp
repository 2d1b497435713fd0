// The train demo: a mixed train on a banked figure-eight with a bridge, drawn as an animated SVG.
// Run with --help for the options; the track file format is described there and in the README.
// This file holds the library calls; train_demo_drawing.hpp writes the pictures.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <tractrix/tractrix.hpp>

#include <tractrix/io/track_file.hpp>
#include "train_demo_drawing.hpp"

namespace {

using S = double;
using tractrix::Vector3d;
constexpr S pi = 3.14159265358979323846;

const char* usage = R"(usage: train_demo [options]

Runs a train along a track and writes an animated SVG (one lap) with three panels: the track
from above with the train, arc versus chord bogie spacing on the tightest curve, and the lateral
acceleration along the track.

options:
  --wagons N        wagons behind the locomotive (default 30)
  --spacing MODE    chord (rigid bodies, default) or arc (the TrainDriver plugin's spacing)
  --wrap MODE       automatic (default), circular, clamp or extend
  --speed V         train speed in units per second (default 20)
  --frames N        animation frames per lap (default 120)
  --output PATH     SVG to write (default train.svg)
  --track FILE      load the track from FILE instead of the built-in figure-eight
  --csv FILE        also write every frame's poses as CSV
  --help            this text

track file: one key per line, "x,y,z,tx,ty,tz" or "x,y,z,tx,ty,tz,roll" (tangent dr/dt at the
key, roll in radians about the tangent; every key has a roll or none does); blank lines and
lines starting with # are skipped; a line "open" or "closed" (default closed) before the keys
sets the topology. At least 2 keys.
)";

struct Options {
  int wagons = 30;
  tractrix::Spacing spacing = tractrix::Spacing::chord;
  tractrix::Wrap wrap = tractrix::Wrap::automatic;
  S speed = 20;
  int frames = 120;
  std::string output = "train.svg";
  std::string track_file, csv_file;
};

using train_demo::fail;

using tractrix::io::track_file::parse_number;

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) fail("option " + arg + " needs a value (see --help)");
      return argv[++i];
    };
    auto count = [&](const std::string& text, int lo, int hi) {
      const auto v = parse_number(text);
      if (!v || *v != std::floor(*v) || *v < lo || *v > hi)
        fail(arg + ": '" + text + "' is not a whole number in [" + std::to_string(lo) + ", " +
             std::to_string(hi) + "]");
      return static_cast<int>(*v);
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << usage;
      std::exit(0);
    } else if (arg == "--wagons") {
      o.wagons = count(value(), 0, 100000);
    } else if (arg == "--frames") {
      o.frames = count(value(), 2, 100000);
    } else if (arg == "--spacing") {
      const std::string v = value();
      if (v == "chord")
        o.spacing = tractrix::Spacing::chord;
      else if (v == "arc")
        o.spacing = tractrix::Spacing::arc;
      else
        fail("--spacing: '" + v + "' is not chord or arc");
    } else if (arg == "--wrap") {
      const std::string v = value();
      if (v == "automatic")
        o.wrap = tractrix::Wrap::automatic;
      else if (v == "circular")
        o.wrap = tractrix::Wrap::circular;
      else if (v == "clamp")
        o.wrap = tractrix::Wrap::clamp;
      else if (v == "extend")
        o.wrap = tractrix::Wrap::extend;
      else
        fail("--wrap: '" + v + "' is not automatic, circular, clamp or extend");
    } else if (arg == "--speed") {
      const std::string v = value();
      const auto s = parse_number(v);
      if (!s || *s <= 0) fail("--speed: '" + v + "' is not a positive number");
      o.speed = *s;
    } else if (arg == "--output") {
      o.output = value();
    } else if (arg == "--track") {
      o.track_file = value();
    } else if (arg == "--csv") {
      o.csv_file = value();
    } else {
      fail("unknown option '" + arg + "' (see --help)");
    }
  }
  return o;
}

struct TrackData {
  tractrix::MeasuredPath<S> path;
  std::vector<S> key_rolls;  // one per key, or empty
};

// The built-in track: a figure-eight whose two lobes cross on a bridge (the track climbs 8 units
// on one side of the crossing and dips on the other), keyed by Hermite points with exact tangents.
TrackData default_track() {
  std::vector<Vector3d> points, tangents;
  const int keys = 24;
  const S a = 160, b = 90, h = 8;
  const S step = 2 * pi / keys;
  for (int k = 0; k < keys; ++k) {
    const S t = step * k;
    points.emplace_back(a * std::sin(t), h * std::cos(t), b * std::sin(t) * std::cos(t));
    tangents.emplace_back(step * a * std::cos(t), -step * h * std::sin(t),
                          step * b * std::cos(2 * t));
  }
  auto path = tractrix::MeasuredPath<S>::build(
      tractrix::Path<S>::from_hermite_keys(points, tangents, tractrix::Closure::closed));
  if (!path) fail("built-in track: " + path.error().message);
  return {std::move(*path), {}};
}

TrackData load_track(const std::string& file) {
  std::ifstream in(file);
  if (!in) fail("cannot read track file '" + file + "'");
  auto track = tractrix::io::track_file::read(in, file);
  if (!track) fail(track.error().message);
  return {std::move(track->path), std::move(track->key_rolls)};
}

// Cant: each key banks into its curve, tan(roll) = v²κ/g (what balances the lateral
// acceleration at the design speed), limited to 0.12 rad; the sign follows the turn about +Y.
std::vector<S> cant_from_curvature(const tractrix::Path<S>& path, S speed) {
  std::vector<S> rolls;
  const S g = 9.81;
  for (std::size_t k = 0; k < path.size(); ++k) {
    const Vector3d d1 = path.derivative(S(k), 1), d2 = path.derivative(S(k), 2);
    const S speed2 = d1.squaredNorm();
    if (!(speed2 > 0)) {  // a key with a zero tangent: no direction to bank against
      rolls.push_back(0);
      continue;
    }
    const Vector3d horizontal_turn = d1.cross(d2) / (speed2 * std::sqrt(speed2));
    const S signed_curvature = horizontal_turn.y();
    rolls.push_back(std::clamp(std::atan(speed * speed * signed_curvature / g), S(-0.12), S(0.12)));
  }
  return rolls;
}

std::vector<tractrix::Wagon<S>> make_train(int wagons) {
  std::vector<tractrix::Wagon<S>> train{{20, 13, 2}};  // the locomotive
  const tractrix::Wagon<S> kinds[] = {{14, 9, 1}, {16, 11, 1}, {12, 8, 1}, {18, 12.5, 1}};
  for (int i = 0; i < wagons; ++i)
    train.push_back(kinds[i % 4]);
  return train;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  TrackData data = options.track_file.empty() ? default_track() : load_track(options.track_file);
  const auto& path = data.path;
  const bool rolls_from_file = !data.key_rolls.empty();
  if (data.key_rolls.empty()) data.key_rolls = cant_from_curvature(path.path(), options.speed);
  std::vector<S> key_distances;
  for (std::size_t k = 0; k < data.key_rolls.size(); ++k)
    key_distances.push_back(path.distance_at(S(k)));
  if (!path.closed()) key_distances.back() = path.length();
  auto roll = tractrix::RollProfile<S>::build(key_distances, data.key_rolls,
                                              path.closed() ? path.length() : S(0));
  if (!roll)
    fail((rolls_from_file ? options.track_file + ": roll column: " : "cant from curvature: ") +
         roll.error().message);
  const auto up = tractrix::UpSource<S>::world()->with_roll(*roll);
  auto track = tractrix::Track<S>::build(path, up);
  if (!track) fail("track: " + track.error().message);
  const auto wagons = make_train(options.wagons);
  auto solver = tractrix::TrainSolver<S>::build(*track, wagons, {options.wrap, options.spacing});
  if (!solver) fail(solver.error().message);
  const S length = track->length();
  const S head_start = 0.25 * length;
  const S lap_time = length / options.speed;

  // Solve time per frame, measured over many solves into one buffer.
  std::vector<tractrix::WagonPose<S>> poses(wagons.size());
  const int repeats = 2000;
  const auto begin = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r)
    solver->solve(head_start + S(r) * 0.01, poses.data());
  const double solve_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count() /
      repeats;

  // What the pictures show: the lateral acceleration along the track, the frames of one lap, and
  // one wagon on the tightest curve placed by arc and by chord spacing.
  train_demo::Scene scene;
  scene.wagons = wagons;
  scene.chord_spacing = options.spacing == tractrix::Spacing::chord;
  scene.length = length;
  scene.speed = options.speed;
  scene.lap_time = lap_time;
  const int plot_samples = 600;
  for (int i = 0; i < plot_samples; ++i) {
    const S s = length * i / plot_samples;
    scene.lateral.push_back(track->path().curvature_at(s) * options.speed * options.speed);
    if (scene.lateral.back() > scene.max_lateral)
      scene.max_lateral = scene.lateral.back(), scene.max_lateral_at = s;
  }
  for (int f = 0; f < options.frames; ++f)
    scene.lap.push_back(solver->solve(head_start + length * f / options.frames));
  for (int i = 0; i <= 800; ++i)
    scene.outline.push_back(track->path().point_at(length * i / 800));
  const S d = scene.wheelbase = wagons[1].bogie_distance;
  const S head = scene.max_lateral_at + d / 2;
  scene.arc_pose =
      tractrix::TrainSolver<S>::build(*track, {wagons[1]}, {options.wrap, tractrix::Spacing::arc})
          ->solve(head)[0];
  scene.chord_pose =
      tractrix::TrainSolver<S>::build(*track, {wagons[1]}, {options.wrap, tractrix::Spacing::chord})
          ->solve(head)[0];
  for (int i = -60; i <= 60; ++i)
    scene.tight_curve.push_back(track->path().point_at(head - d / 2 + d * 1.2 * i / 60));
  const S shift = (scene.arc_pose.rear.origin - scene.chord_pose.rear.origin).norm();
  for (int i = -20; i <= 20; ++i)
    scene.around_rear_bogies.push_back(
        track->path().point_at(scene.chord_pose.rear_distance + shift * 0.1 * i));

  train_demo::write_svg(scene, options.output);
  if (!options.csv_file.empty()) train_demo::write_csv(scene, options.csv_file);

  std::printf("track length      %.2f units (%s)\n", length,
              data.path.closed() ? "closed" : "open");
  std::printf("wagons            %zu (locomotive + %d)\n", wagons.size(), options.wagons);
  std::printf("solve time        %.2f us per frame (%.1f ns per wagon)\n", solve_us,
              1000 * solve_us / static_cast<double>(wagons.size()));
  std::printf("max lateral accel %.3f units/s^2 at %.1f units along the track (speed %.1f)\n",
              scene.max_lateral, scene.max_lateral_at, options.speed);
  std::printf("wrote             %s\n", options.output.c_str());
  if (!options.csv_file.empty()) std::printf("wrote             %s\n", options.csv_file.c_str());
  return 0;
}
