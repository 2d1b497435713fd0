// The train demo: a mixed train on a banked figure-eight with a bridge, drawn as an animated SVG.
// Run with --help for the options; the track file format is described there and in the README.
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

#if defined(_WIN32)
#include <io.h>
#else
#include <unistd.h>
#endif

#include <tractrix/tractrix.hpp>

#include "track_file.hpp"

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
  --spacing MODE    chord (rigid bodies, default) or arc (the seed's spacing along the track)
  --wrap MODE       automatic (default), circular, clamp or extend
  --speed V         train speed in units per second (default 20)
  --frames N        animation frames per lap (default 120)
  --output PATH     SVG to write (default train.svg)
  --track FILE      load the track from FILE instead of the built-in figure-eight
  --csv FILE        also write every frame's poses as CSV
  --help            this text

track file: one key per line, "x,y,z,tx,ty,tz" or "x,y,z,tx,ty,tz,roll" (tangent dr/dt at the
key, roll in radians about the tangent); blank lines and lines starting with # are skipped; a
line "open" or "closed" (default closed) sets the topology. At least 2 keys.
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

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "train_demo: " << message << "\n";
  std::exit(2);
}

using track_file::parse_number;

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
  auto track = track_file::read(in, file);
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

// Writes through a temporary file and renames it into place, so no partial file is ever left.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path) : path_(std::move(path)), temporary_(path_ + ".tmp") {
    out_.open(temporary_, std::ios::binary);
    if (!out_) fail("cannot write '" + path_ + "' (cannot create '" + temporary_ + "')");
  }
  std::ofstream& stream() { return out_; }
  void commit() {
    out_.close();
    if (!out_ || std::rename(temporary_.c_str(), path_.c_str()) != 0) {
      std::remove(temporary_.c_str());
      fail("cannot write '" + path_ + "'");
    }
  }
  ~AtomicFile() {
    if (out_.is_open()) {
      out_.close();
      std::remove(temporary_.c_str());
    }
  }

 private:
  std::string path_, temporary_;
  std::ofstream out_;
};

// A progress line on stderr for long writes, redrawn in place; only when stderr is a terminal,
// so logs and ctest output stay clean.
void progress(const char* what, std::size_t done, std::size_t total) {
#if defined(_WIN32)
  const bool terminal = _isatty(_fileno(stderr)) != 0;
#else
  const bool terminal = isatty(fileno(stderr)) != 0;
#endif
  if (!terminal || total < 200) return;
  if (done % std::max<std::size_t>(1, total / 50) == 0 || done == total) {
    std::fprintf(stderr, "\r%s %3d%%", what,
                 static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total)));
    if (done == total) std::fprintf(stderr, "\n");
  }
}

// Plane projection for the top view: x right, z down the page.
struct View {
  S min_x, min_z, scale, offset_x, offset_y;
  std::string at(const Vector3d& p) const {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.2f,%.2f", offset_x + (p.x() - min_x) * scale,
                  offset_y + (p.z() - min_z) * scale);
    return buffer;
  }
};

std::string rectangle(const View& view, const tractrix::Frame<S>& frame, S back, S ahead,
                      S half_width) {
  const Vector3d corners[] = {
      frame.to_world({-half_width, 0, -back}), frame.to_world({half_width, 0, -back}),
      frame.to_world({half_width, 0, ahead}), frame.to_world({-half_width, 0, ahead})};
  std::string points;
  for (const auto& c : corners)
    points += view.at(c) + " ";
  points.pop_back();
  return points;
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

  // Lateral acceleration along the track at the demo speed.
  const int plot_samples = 600;
  std::vector<S> lateral(plot_samples);
  S max_lateral = 0, max_lateral_at = 0;
  for (int i = 0; i < plot_samples; ++i) {
    const S s = length * i / plot_samples;
    lateral[static_cast<std::size_t>(i)] =
        track->path().curvature_at(s) * options.speed * options.speed;
    if (lateral[static_cast<std::size_t>(i)] > max_lateral)
      max_lateral = lateral[static_cast<std::size_t>(i)], max_lateral_at = s;
  }

  // Frames of the animated lap.
  const std::size_t frame_count = static_cast<std::size_t>(options.frames);
  std::vector<std::vector<tractrix::WagonPose<S>>> lap(frame_count);
  for (std::size_t f = 0; f < frame_count; ++f)
    lap[f] = solver->solve(head_start + length * static_cast<S>(f) / static_cast<S>(frame_count));

  // View box of the top view.
  S min_x = 1e300, max_x = -1e300, min_z = 1e300, max_z = -1e300;
  std::vector<Vector3d> outline;
  for (int i = 0; i <= 800; ++i) {
    const Vector3d p = track->path().point_at(length * i / 800);
    outline.push_back(p);
    min_x = std::min(min_x, p.x()), max_x = std::max(max_x, p.x());
    min_z = std::min(min_z, p.z()), max_z = std::max(max_z, p.z());
  }
  // Top view across the page; the two analysis panels below it.
  const S page_width = 1200, margin = 20;
  const S scale =
      std::min((page_width - 2 * margin) / (max_x - min_x), 420 / std::max(max_z - min_z, S(1e-9)));
  const View top{min_x, min_z, scale,
                 margin + (page_width - 2 * margin - (max_x - min_x) * scale) / 2, 70};
  const S panels_top = 70 + (max_z - min_z) * scale + 60;
  const S page_height = panels_top + 560;

  AtomicFile svg(options.output);
  auto& out = svg.stream();
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << page_width << "' height='"
      << page_height << "' viewBox='0 0 " << page_width << " " << page_height
      << "' font-family='sans-serif' font-size='13'>\n<rect width='100%' height='100%' "
         "fill='white'/>\n";
  out << "<text x='20' y='30' font-size='18'>tractrix train demo: " << wagons.size()
      << " wagons, track " << std::lround(length) << " units, "
      << (options.spacing == tractrix::Spacing::chord ? "chord" : "arc") << " spacing</text>\n";
  out << "<text x='20' y='50'>Track from above (the bridge crosses in the middle); the train runs "
         "one lap in "
      << std::lround(lap_time) << " s.</text>\n";
  out << "<polyline fill='none' stroke='#888' stroke-width='3' points='";
  for (const auto& p : outline)
    out << top.at(p) << " ";
  out << "'/>\n";
  // The animated train: every body and bogie a polygon whose points are keyed per frame.
  const auto& first = lap[0];
  for (std::size_t w = 0; w < wagons.size(); ++w) {
    const S ahead = wagons[w].front_overhang + 0.5;
    const S back = wagons[w].bogie_distance + 1.5;
    struct Part {
      const char* fill;
      std::string (*shape)(const View&, const tractrix::WagonPose<S>&, S, S);
    };
    auto body = [](const View& v, const tractrix::WagonPose<S>& p, S b, S a) {
      return rectangle(v, p.body, b, a, 1.6);
    };
    auto front = [](const View& v, const tractrix::WagonPose<S>& p, S, S) {
      return rectangle(v, p.front, 1.2, 1.2, 1.9);
    };
    auto rear = [](const View& v, const tractrix::WagonPose<S>& p, S, S) {
      return rectangle(v, p.rear, 1.2, 1.2, 1.9);
    };
    const Part parts[] = {{w == 0 ? "#c0392b" : "#2e86c1", body}, {"#222", front}, {"#222", rear}};
    for (const auto& part : parts) {
      out << "<polygon fill='" << part.fill << "' fill-opacity='0.85' points='"
          << part.shape(top, first[w], back, ahead) << "'><animate attributeName='points' dur='"
          << lap_time << "s' repeatCount='indefinite' values='";
      for (std::size_t f = 0; f < frame_count; ++f) {
        out << part.shape(top, lap[f][w], back, ahead) << (f + 1 < frame_count ? ";" : "");
      }
      out << "'/></polygon>\n";
    }
    progress("writing SVG animation", w + 1, wagons.size());
  }

  // Panel 2: arc versus chord spacing on the tightest curve, magnified.
  {
    const S x0 = 20, y0 = panels_top, size = 500;
    const S d = wagons[1].bogie_distance;
    auto arc_solver = *tractrix::TrainSolver<S>::build(*track, {wagons[1]},
                                                       {options.wrap, tractrix::Spacing::arc});
    auto chord_solver = *tractrix::TrainSolver<S>::build(*track, {wagons[1]},
                                                         {options.wrap, tractrix::Spacing::chord});
    const S head = max_lateral_at + d / 2;
    const auto arc_pose = arc_solver.solve(head)[0];
    const auto chord_pose = chord_solver.solve(head)[0];
    const Vector3d centre = 0.5 * (arc_pose.front.origin + arc_pose.rear.origin);
    const S zoom = size / (2.4 * d);
    const tractrix::Frame<S> local =
        tractrix::look_at(centre, arc_pose.body.forward(), Vector3d::UnitY());
    auto project = [&](const Vector3d& p) {
      const Vector3d q = local.to_local(p);
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.2f,%.2f", x0 + size / 2 + q.x() * zoom,
                    y0 + size / 2 - q.z() * zoom);
      return std::string(buffer);
    };
    const S arc_chord = (arc_pose.front.origin - arc_pose.rear.origin).norm();
    const S shift = (arc_pose.rear.origin - chord_pose.rear.origin).norm();
    out << "<rect x='" << x0 << "' y='" << y0 << "' width='" << size << "' height='" << size
        << "' fill='none' stroke='#ccc'/>\n<text x='" << x0 << "' y='" << y0 - 8
        << "'>Tightest curve: arc vs chord spacing (wheelbase " << d << ")</text>\n";
    out << "<polyline fill='none' stroke='#888' stroke-width='2' points='";
    for (int i = -60; i <= 60; ++i) {
      std::size_t cursor = 0;
      out << project(track->sample(head - d / 2 + d * 1.2 * i / 60, cursor).point) << " ";
    }
    out << "'/>\n";
    out << "<line stroke='#e67e22' stroke-width='3' x1='"
        << project(arc_pose.front.origin)
               .replace(project(arc_pose.front.origin).find(','), 1, "' y1='")
        << "' x2='"
        << project(arc_pose.rear.origin)
               .replace(project(arc_pose.rear.origin).find(','), 1, "' y2='")
        << "'/>\n";
    out << "<line stroke='#27ae60' stroke-width='3' stroke-dasharray='6 4' x1='"
        << project(chord_pose.front.origin)
               .replace(project(chord_pose.front.origin).find(','), 1, "' y1='")
        << "' x2='"
        << project(chord_pose.rear.origin)
               .replace(project(chord_pose.rear.origin).find(','), 1, "' y2='")
        << "'/>\n";
    char line1[200], line2[200];
    std::snprintf(line1, sizeof line1,
                  "orange, arc spacing: bogies %.4f apart in a straight line (body %.2f%% short)",
                  arc_chord, 100 * (1 - arc_chord / d));
    std::snprintf(line2, sizeof line2,
                  "green, chord spacing: exactly %.4f apart; its rear bogie sits %.4f further back",
                  d, shift);
    out << "<text x='" << x0 << "' y='" << y0 + size + 20 << "'>" << line1 << "</text>\n<text x='"
        << x0 << "' y='" << y0 + size + 38 << "'>" << line2 << "</text>\n";
    // Inset: the two rear bogies magnified until their separation spans 160 pixels.
    const S ix = x0 + 20, iy = y0 + 20, inset = 200;
    const Vector3d inset_centre = 0.5 * (arc_pose.rear.origin + chord_pose.rear.origin);
    const S inset_zoom = 160 / std::max(shift, S(1e-12));
    auto magnify = [&](const Vector3d& p) {
      const Vector3d q = local.to_local(p) - local.to_local(inset_centre);
      return std::pair<S, S>{ix + inset / 2 + q.x() * inset_zoom,
                             iy + inset / 2 - q.z() * inset_zoom};
    };
    out << "<rect x='" << ix << "' y='" << iy << "' width='" << inset << "' height='" << inset
        << "' fill='#fdfdfd' stroke='#999'/>\n<polyline fill='none' stroke='#888' stroke-width='2' "
           "points='";
    for (int i = -20; i <= 20; ++i) {
      std::size_t cursor = 0;
      const auto [px, py] =
          magnify(track->sample(chord_pose.rear_distance + shift * 0.1 * i, cursor).point);
      if (std::abs(px - ix - inset / 2) < inset / 2 && std::abs(py - iy - inset / 2) < inset / 2)
        out << px << "," << py << " ";
    }
    out << "'/>\n";
    const auto [ax, ay] = magnify(arc_pose.rear.origin);
    const auto [cx, cy] = magnify(chord_pose.rear.origin);
    out << "<circle cx='" << ax << "' cy='" << ay << "' r='6' fill='#e67e22'/>\n<circle cx='" << cx
        << "' cy='" << cy << "' r='6' fill='#27ae60'/>\n<text x='" << ix + 6 << "' y='"
        << iy + inset + 16 << "'>inset: rear bogies, magnified " << std::lround(inset_zoom * 1)
        << " px/unit</text>\n";
  }

  // Panel 3: lateral acceleration along the track.
  {
    const S x0 = 640, y0 = panels_top, w = 540, h = 500;
    const S top_value = std::max(max_lateral * 1.1, 1e-9);
    out << "<rect x='" << x0 << "' y='" << y0 << "' width='" << w << "' height='" << h
        << "' fill='none' stroke='#ccc'/>\n<text x='" << x0 << "' y='" << y0 - 8
        << "'>Lateral acceleration v²κ at " << options.speed
        << " units/s, along the track</text>\n<polyline fill='none' stroke='#8e44ad' "
           "stroke-width='2' points='";
    for (int i = 0; i < plot_samples; ++i) {
      out << x0 + w * i / plot_samples << ","
          << y0 + h - h * lateral[static_cast<std::size_t>(i)] / top_value << " ";
    }
    out << "'/>\n<text x='" << x0 + 4 << "' y='" << y0 + 14 << "'>" << top_value
        << "</text><text x='" << x0 + 4 << "' y='" << y0 + h - 4 << "'>0</text>\n<text x='" << x0
        << "' y='" << y0 + h + 20 << "'>0 to " << std::lround(length)
        << " units along the track; peak " << max_lateral << " units/s² at "
        << std::lround(max_lateral_at) << "</text>\n";
  }
  out << "</svg>\n";
  svg.commit();

  if (!options.csv_file.empty()) {
    AtomicFile csv(options.csv_file);
    auto& c = csv.stream();
    c << "frame,time,wagon,front_distance,rear_distance,front_x,front_y,front_z,rear_x,rear_y,rear_"
         "z,"
         "body_qw,body_qx,body_qy,body_qz\n";
    c.precision(10);
    for (std::size_t f = 0; f < frame_count; ++f) {
      for (std::size_t w = 0; w < wagons.size(); ++w) {
        const auto& p = lap[f][w];
        const auto q = p.body.quaternion();
        c << f << "," << lap_time * static_cast<S>(f) / static_cast<S>(frame_count) << "," << w
          << "," << p.front_distance << "," << p.rear_distance << "," << p.front.origin.x() << ","
          << p.front.origin.y() << "," << p.front.origin.z() << "," << p.rear.origin.x() << ","
          << p.rear.origin.y() << "," << p.rear.origin.z() << "," << q.w() << "," << q.x() << ","
          << q.y() << "," << q.z() << "\n";
      }
      progress("writing CSV", f + 1, frame_count);
    }
    csv.commit();
  }

  std::printf("track length      %.2f units (%s)\n", length,
              data.path.closed() ? "closed" : "open");
  std::printf("wagons            %zu (locomotive + %d)\n", wagons.size(), options.wagons);
  std::printf("solve time        %.2f us per frame (%.1f ns per wagon)\n", solve_us,
              1000 * solve_us / static_cast<double>(wagons.size()));
  std::printf("max lateral accel %.3f units/s^2 at %.1f units along the track (speed %.1f)\n",
              max_lateral, max_lateral_at, options.speed);
  std::printf("wrote             %s\n", options.output.c_str());
  if (!options.csv_file.empty()) std::printf("wrote             %s\n", options.csv_file.c_str());
  return 0;
}
