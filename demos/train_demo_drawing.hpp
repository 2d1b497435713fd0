// The train demo's drawing: an animated SVG of one lap with two analysis panels, and the CSV of
// every pose. Only output here; the library calls that compute the scene are in train_demo.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#if defined(_WIN32)
#include <io.h>
#else
#include <unistd.h>
#endif

#include <tractrix/tractrix.hpp>

namespace train_demo {

using S = double;
using tractrix::Vector3d;

[[noreturn]] inline void fail(const std::string& message) {
  std::cerr << "train_demo: " << message << "\n";
  std::exit(2);
}

// Everything the pictures show, computed by the library in train_demo.cpp.
struct Scene {
  std::vector<tractrix::Wagon<S>> wagons;
  bool chord_spacing = true;
  S length = 0, speed = 0, lap_time = 0;
  std::vector<std::vector<tractrix::WagonPose<S>>> lap;  // the poses of every animation frame
  std::vector<Vector3d> outline;                         // the track, for the top view
  // The tightest curve: one wagon placed by arc and by chord spacing, the track around it and
  // around its two rear bogies.
  S wheelbase = 0;
  tractrix::WagonPose<S> arc_pose, chord_pose;
  std::vector<Vector3d> tight_curve, around_rear_bogies;
  // Lateral acceleration v²κ at evenly spaced distances along the track.
  std::vector<S> lateral;
  S max_lateral = 0, max_lateral_at = 0;
};

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
inline void progress(const char* what, std::size_t done, std::size_t total) {
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

inline std::string rectangle(const View& view, const tractrix::Frame<S>& frame, S back, S ahead,
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

// A wagon as three polygons — body (in `body_fill`) and both bogies — whose corners are keyed
// over `frames` frames of `duration` (an SVG time, "12.5s"); pose_of(f) is its pose in frame f.
template <class PoseOf>
void animated_wagon(std::ostream& out, const View& view, const tractrix::Wagon<S>& wagon,
                    const std::string& body_fill, const std::string& duration, std::size_t frames,
                    PoseOf pose_of) {
  const S ahead = wagon.front_overhang + 0.5, back = wagon.bogie_distance + 1.5;
  auto shape = [&](int part, const tractrix::WagonPose<S>& p) {
    if (part == 0) return rectangle(view, p.body, back, ahead, 1.6);
    return rectangle(view, part == 1 ? p.front : p.rear, 1.2, 1.2, 1.9);
  };
  for (int part = 0; part < 3; ++part) {
    out << "<polygon fill='" << (part == 0 ? body_fill : "#222") << "' fill-opacity='0.85' points='"
        << shape(part, pose_of(0)) << "'><animate attributeName='points' dur='" << duration
        << "' repeatCount='indefinite' values='";
    for (std::size_t f = 0; f < frames; ++f)
      out << shape(part, pose_of(f)) << (f + 1 < frames ? ";" : "");
    out << "'/></polygon>\n";
  }
}

inline void write_svg(const Scene& scene, const std::string& file) {
  const std::size_t frame_count = scene.lap.size();
  S min_x = 1e300, max_x = -1e300, min_z = 1e300, max_z = -1e300;
  for (const Vector3d& p : scene.outline) {
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

  AtomicFile svg(file);
  auto& out = svg.stream();
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << page_width << "' height='"
      << page_height << "' viewBox='0 0 " << page_width << " " << page_height
      << "' font-family='sans-serif' font-size='13'>\n<rect width='100%' height='100%' "
         "fill='white'/>\n";
  out << "<text x='20' y='30' font-size='18'>tractrix train demo: " << scene.wagons.size()
      << " wagons, track " << std::lround(scene.length) << " units, "
      << (scene.chord_spacing ? "chord" : "arc") << " spacing</text>\n";
  out << "<text x='20' y='50'>Track from above (the bridge crosses in the middle); the train runs "
         "one lap in "
      << std::lround(scene.lap_time) << " s.</text>\n";
  out << "<polyline fill='none' stroke='#888' stroke-width='3' points='";
  for (const auto& p : scene.outline)
    out << top.at(p) << " ";
  out << "'/>\n";
  // The animated train: every body and bogie a polygon whose points are keyed per frame.
  std::ostringstream lap_time;
  lap_time << scene.lap_time << "s";
  for (std::size_t w = 0; w < scene.wagons.size(); ++w) {
    animated_wagon(out, top, scene.wagons[w], w == 0 ? "#c0392b" : "#2e86c1", lap_time.str(),
                   frame_count,
                   [&](std::size_t f) -> const tractrix::WagonPose<S>& { return scene.lap[f][w]; });
    progress("writing SVG animation", w + 1, scene.wagons.size());
  }

  // Panel 2: arc versus chord spacing on the tightest curve, magnified.
  {
    const S x0 = 20, y0 = panels_top, size = 500;
    const S d = scene.wheelbase;
    const auto& arc_pose = scene.arc_pose;
    const auto& chord_pose = scene.chord_pose;
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
    for (const Vector3d& p : scene.tight_curve)
      out << project(p) << " ";
    out << "'/>\n";
    // A straight line between two points of the panel, in the given stroke.
    auto line = [&](const char* stroke, const Vector3d& from, const Vector3d& to) {
      std::string a = project(from), b = project(to);
      out << "<line " << stroke << " x1='" << a.replace(a.find(','), 1, "' y1='") << "' x2='"
          << b.replace(b.find(','), 1, "' y2='") << "'/>\n";
    };
    line("stroke='#e67e22' stroke-width='3'", arc_pose.front.origin, arc_pose.rear.origin);
    line("stroke='#27ae60' stroke-width='3' stroke-dasharray='6 4'", chord_pose.front.origin,
         chord_pose.rear.origin);
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
    for (const Vector3d& p : scene.around_rear_bogies) {
      const auto [px, py] = magnify(p);
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
    const S top_value = std::max(scene.max_lateral * 1.1, 1e-9);
    out << "<rect x='" << x0 << "' y='" << y0 << "' width='" << w << "' height='" << h
        << "' fill='none' stroke='#ccc'/>\n<text x='" << x0 << "' y='" << y0 - 8
        << "'>Lateral acceleration v²κ at " << scene.speed
        << " units/s, along the track</text>\n<polyline fill='none' stroke='#8e44ad' "
           "stroke-width='2' points='";
    const std::size_t plot_samples = scene.lateral.size();
    for (std::size_t i = 0; i < plot_samples; ++i) {
      out << x0 + w * static_cast<S>(i) / static_cast<S>(plot_samples) << ","
          << y0 + h - h * scene.lateral[i] / top_value << " ";
    }
    out << "'/>\n<text x='" << x0 + 4 << "' y='" << y0 + 14 << "'>" << top_value
        << "</text><text x='" << x0 + 4 << "' y='" << y0 + h - 4 << "'>0</text>\n<text x='" << x0
        << "' y='" << y0 + h + 20 << "'>0 to " << std::lround(scene.length)
        << " units along the track; peak " << scene.max_lateral << " units/s² at "
        << std::lround(scene.max_lateral_at) << "</text>\n";
  }
  out << "</svg>\n";
  svg.commit();
}

inline void write_csv(const Scene& scene, const std::string& file) {
  const std::size_t frame_count = scene.lap.size();
  {
    AtomicFile csv(file);
    auto& c = csv.stream();
    c << "frame,time,wagon,front_distance,rear_distance,front_x,front_y,front_z,rear_x,rear_y,rear_"
         "z,"
         "body_qw,body_qx,body_qy,body_qz\n";
    c.precision(10);
    for (std::size_t f = 0; f < frame_count; ++f) {
      for (std::size_t w = 0; w < scene.wagons.size(); ++w) {
        const auto& p = scene.lap[f][w];
        const auto q = p.body.quaternion();
        c << f << "," << scene.lap_time * static_cast<S>(f) / static_cast<S>(frame_count) << ","
          << w << "," << p.front_distance << "," << p.rear_distance << "," << p.front.origin.x()
          << "," << p.front.origin.y() << "," << p.front.origin.z() << "," << p.rear.origin.x()
          << "," << p.rear.origin.y() << "," << p.rear.origin.z() << "," << q.w() << "," << q.x()
          << "," << q.y() << "," << q.z() << "\n";
      }
      progress("writing CSV", f + 1, frame_count);
    }
    csv.commit();
  }
}

}  // namespace train_demo
