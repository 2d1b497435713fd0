// A camera flight: keyed positions and view directions on a Hermite path, driven by a sine-pieces
// distance–time curve. Writes camera.svg (or the path given): the path from above with the camera's
// view every half second, and the distance–time diagram (the seed lecture's Weg-Zeit-Diagramm).
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <tractrix/tractrix.hpp>

int main(int argc, char** argv) {
  using namespace tractrix;
  const std::string output = argc > 1 ? argv[1] : "camera.svg";
  const std::vector<CameraKey<double>> keys{{{0, 2, 0}, {1, 0, 0.3}},
                                            {{40, 4, 10}, {0.5, -0.1, 1}},
                                            {{50, 6, 50}, {-0.4, 0, 1}},
                                            {{10, 3, 70}, {-1, 0, -0.2}},
                                            {{-20, 2, 40}, {0, -0.3, -1}}};
  const double duration = 12;
  const auto profile = *TimeProfile<double>::sine_pieces(duration, ease_fractions(0.25, 0.75));
  const auto rig = *CameraRig<double>::build(keys, profile);
  const double length = rig.path().length();

  std::ofstream out(output);
  if (!out) return std::fprintf(stderr, "camera_path: cannot write '%s'\n", output.c_str()), 2;
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='1000' height='480' "
         "font-family='sans-serif' "
         "font-size='13'>\n<rect width='100%' height='100%' fill='white'/>\n";
  auto top = [](const Vector3d& p) {
    return std::to_string(60 + 5 * (p.x() + 25)) + "," + std::to_string(40 + 5 * p.z());
  };
  out << "<text x='20' y='24'>camera path from above; the view every 0.5 s</text>\n<polyline "
         "fill='none' stroke='#888' "
         "stroke-width='2' points='";
  for (int i = 0; i <= 400; ++i)
    out << top(rig.path().point_at(length * i / 400)) << " ";
  out << "'/>\n";
  double max_speed = 0, max_normal = 0;
  for (double t = 0; t <= duration + 1e-9; t += 0.5) {
    const auto shot = rig.at(t);
    const Vector3d tip = shot.motion.position + 6 * shot.frame.forward();
    out << "<line stroke='#c0392b' stroke-width='2' x1='"
        << top(shot.motion.position).replace(top(shot.motion.position).find(','), 1, "' y1='")
        << "' x2='" << top(tip).replace(top(tip).find(','), 1, "' y2='") << "'/>\n";
    max_speed = std::max(max_speed, shot.motion.speed);
    max_normal = std::max(max_normal, shot.motion.normal_acceleration.norm());
  }
  out << "<text x='540' y='24'>distance–time diagram: s(t), sine ease in/out (k1 = 0.25, k2 = "
         "0.75)</text>\n"
         "<rect x='540' y='40' width='420' height='400' fill='none' stroke='#ccc'/>\n<polyline "
         "fill='none' "
         "stroke='#2e86c1' stroke-width='2' points='";
  for (int i = 0; i <= 300; ++i) {
    const double t = duration * i / 300;
    out << 540 + 420 * t / duration << "," << 440 - 400 * profile.at(t).value << " ";
  }
  out << "'/>\n<text x='545' y='456'>0 s</text><text x='930' y='456'>" << duration
      << " s</text><text x='545' y='56'>" << static_cast<long>(length) << " units</text>\n</svg>\n";
  out.close();
  if (!out) return std::fprintf(stderr, "camera_path: cannot write '%s'\n", output.c_str()), 2;
  std::printf(
      "path length %.2f units over %.1f s; peak speed %.2f units/s; peak normal acceleration %.2f "
      "units/s^2\n",
      length, duration, max_speed, max_normal);
  std::printf("wrote %s\n", output.c_str());
}
