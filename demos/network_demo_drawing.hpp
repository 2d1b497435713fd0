// The network demo's drawing: the pieces from above, every train's wagons animated over one
// cycle, and the siding's switch showing which leg it is set to. Only output here; the library
// calls that compute the scene are in network_demo.cpp. File writing and the top view are the
// train demo's.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <tractrix/tractrix.hpp>

#include "train_demo_drawing.hpp"

namespace network_demo {

using S = double;
using tractrix::Vector3d;

[[noreturn]] inline void fail(const std::string& message) {
  std::cerr << "network_demo: " << message << "\n";
  std::exit(2);
}

struct Train {
  const char* colour;
  std::vector<tractrix::Wagon<S>> wagons;
};

// Everything the picture shows, computed by the library in network_demo.cpp.
struct Scene {
  S period = 0;                                                          // seconds per cycle
  std::vector<Train> trains;                                             // colour and wagons
  std::vector<std::vector<Vector3d>> pieces;                             // each piece's outline
  std::vector<std::vector<std::vector<tractrix::WagonPose<S>>>> frames;  // [frame][train][wagon]
  std::vector<std::pair<Vector3d, Vector3d>> switch_legs;  // the first units of each switch leg
  std::vector<int> switch_selected;                        // per frame: the leg it is set to
};

inline void write_svg(const Scene& scene, const std::string& file) {
  using train_demo::rectangle;
  S min_x = 1e300, max_x = -1e300, min_z = 1e300, max_z = -1e300;
  for (const auto& piece : scene.pieces)
    for (const Vector3d& p : piece) {
      min_x = std::min(min_x, p.x()), max_x = std::max(max_x, p.x());
      min_z = std::min(min_z, p.z()), max_z = std::max(max_z, p.z());
    }
  const S page_width = 1000, margin = 30;
  const S scale = (page_width - 2 * margin) / std::max(max_x - min_x, S(1e-9));
  const train_demo::View top{min_x, min_z, scale, margin, 110};
  const S page_height = 110 + (max_z - min_z) * scale + 40;
  const std::size_t frame_count = scene.frames.size();
  const std::string duration = std::to_string(scene.period) + "s";

  train_demo::AtomicFile svg(file);
  auto& out = svg.stream();
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << page_width << "' height='"
      << page_height << "' viewBox='0 0 " << page_width << " " << page_height
      << "' font-family='sans-serif' font-size='13'>\n<rect width='100%' height='100%' "
         "fill='white'/>\n";
  out << "<text x='20' y='30' font-size='18'>tractrix network demo: three trains, "
      << scene.pieces.size() << " pieces, one cycle of " << std::lround(scene.period)
      << " s</text>\n<text x='20' y='52'><tspan fill='" << scene.trains[0].colour
      << "'>Blue</tspan> runs the main line; <tspan fill='" << scene.trains[1].colour
      << "'>green</tspan> takes the passing loop (bottom); <tspan fill='" << scene.trains[2].colour
      << "'>red</tspan> pulls out of the siding (top) and backs in.</text>\n<text x='20' "
         "y='72'>The switch (orange: the leg it is set to) is set for the siding while red comes "
         "out and "
         "backs in, and thrown back</text>\n<text x='20' y='90'>while red straddles it: red keeps "
         "the route it asked for, and no wagon moves when the switch does.</text>\n";
  // The view from above with z up the page (the file's "top" straight at the top): the drawing
  // mirrored about its middle line.
  out << "<g transform='translate(0," << 2 * 110 + (max_z - min_z) * scale << ") scale(1,-1)'>\n";
  for (const auto& piece : scene.pieces) {
    out << "<polyline fill='none' stroke='#888' stroke-width='3' points='";
    for (const Vector3d& p : piece)
      out << top.at(p) << " ";
    out << "'/>\n";
  }
  // The switch: a bold stroke along the selected leg, switched at the frames where it is thrown.
  auto leg = [&](int k) {
    return top.at(scene.switch_legs[static_cast<std::size_t>(k)].first) + " " +
           top.at(scene.switch_legs[static_cast<std::size_t>(k)].second);
  };
  out << "<polyline fill='none' stroke='#e67e22' stroke-width='6' stroke-linecap='round' points='"
      << leg(scene.switch_selected[0])
      << "'><animate attributeName='points' calcMode='discrete' dur='" << duration
      << "' repeatCount='indefinite' values='";
  for (std::size_t f = 0; f < frame_count; ++f)
    out << leg(scene.switch_selected[f]) << (f + 1 < frame_count ? ";" : "");
  out << "'/></polyline>\n";

  // Every wagon's body and bogies, their corners keyed per frame.
  for (std::size_t k = 0; k < scene.trains.size(); ++k) {
    const auto& wagons = scene.trains[k].wagons;
    for (std::size_t w = 0; w < wagons.size(); ++w)
      animated_wagon(
          out, top, wagons[w], scene.trains[k].colour, duration, frame_count,
          [&](std::size_t f) -> const tractrix::WagonPose<S>& { return scene.frames[f][k][w]; });
  }
  out << "</g>\n</svg>\n";
  svg.commit();
}

}  // namespace network_demo
