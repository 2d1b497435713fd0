// The alignment demo: a LandXML alignment (plan, profile and cant) read, a train driven along it
// under the speed limits its curvature and cant allow, drawn as an animated SVG: the plan with the
// train, curvature and cant against chainage, the profile, and the locomotive seen from behind,
// leaning with the cant. Run with --help for the options.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <tractrix/io/landxml.hpp>
#include <tractrix/tractrix.hpp>

namespace {

using tractrix::Vector2d;
using tractrix::Vector3d;
using Track = tractrix::Alignment<double>;

const char* usage = R"(usage: alignment_demo [options]

Reads a LandXML 1.2 alignment, drives a train along it under the speed limits its curvature and
cant allow (SpeedLimits::from_cant, SpeedPlan), and writes an animated SVG.

options:
  --file PATH       the LandXML file (default: the valley line, demos/alignments)
  --output PATH     SVG to write (default alignment.svg)
  --frames N        animation frames (default 240)
  --help            this text
)";

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "alignment_demo: " << message << "\n";
  std::exit(2);
}

// A point of the page from a value in [lo, hi] mapped onto [a, b].
double map(double v, double lo, double hi, double a, double b) {
  return a + (v - lo) / (hi - lo) * (b - a);
}

std::string xy(double x, double y) {
  char text[48];
  std::snprintf(text, sizeof text, "%.1f,%.1f", x, y);
  return text;
}

const char* colour_of(tractrix::HorizontalType type) {
  switch (type) {
    case tractrix::HorizontalType::line:
      return "#7f8c8d";
    case tractrix::HorizontalType::circular_arc:
      return "#c0392b";
    case tractrix::HorizontalType::clothoid:
      return "#2e86c1";
    default:
      return "#27ae60";
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string file = ALIGNMENT_DEMO_DEFAULT_FILE, output = "alignment.svg";
  std::size_t frames = 240;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) fail(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--help") return std::cout << usage, 0;
    if (arg == "--file")
      file = value();
    else if (arg == "--output")
      output = value();
    else if (arg == "--frames")
      frames = static_cast<std::size_t>(std::max(2, std::min(100000, std::atoi(value().c_str()))));
    else
      fail("unknown option " + arg + "\n" + usage);
  }
  const auto read = tractrix::io::landxml::read(file);
  if (!read) fail(read.error().message);
  const auto& first = read->front();
  const Track& line = first.alignment;

  // The train, the limits its line allows it, and the fastest jerk-limited run under them.
  const std::vector<tractrix::Wagon<double>> wagons{{20.5, 15.0, 2.5},
                                                    {26.4, 19.0, 3.7},
                                                    {26.4, 19.0, 3.7},
                                                    {26.4, 19.0, 3.7},
                                                    {26.4, 19.0, 3.7}};
  double train_length = 0;
  for (const auto& w : wagons)
    train_length += w.length;
  tractrix::CantLimits<double> cant_limits;
  cant_limits.max_velocity = 33.3;  // 120 km/h
  cant_limits.cant_deficiency = 0.10;
  cant_limits.section_length = 10;
  const auto limits =
      tractrix::SpeedLimits<double>::from_cant(line, cant_limits).and_then([&](const auto& l) {
        return l.for_train(train_length);
      });
  if (!limits) fail(limits.error().message);
  const double run = line.length() - train_length - 5;
  const auto plan =
      tractrix::SpeedPlan<double>::build(*limits, {33.3, 0.7, 0.9, 0.4}, {0, 0, 0}, run, {});
  if (!plan) fail(plan.error().message);
  const auto solver = tractrix::TrainSolver<double, Track>::build(line, wagons, {});
  if (!solver) fail(solver.error().message);
  std::vector<std::vector<tractrix::WagonPose<double>>> shots;
  std::vector<double> heads, speeds;
  for (std::size_t f = 0; f < frames; ++f) {
    const auto state = plan->at(plan->duration() * double(f) / double(frames - 1));
    heads.push_back(train_length + state.position);
    speeds.push_back(state.velocity);
    shots.push_back(solver->solve(heads.back()));
  }

  // The line, every 2 m of the plan: where, its curvature and cant, its height.
  struct Point {
    double x, s, along;
    Vector3d p;
    double curvature, cant;
    tractrix::HorizontalType type;
  };
  std::vector<Point> points;
  const auto& plan_layout = line.horizontal();
  Track::Cursor cursor;
  for (double x = 0; x <= plan_layout.length() + 1e-9; x += 2) {
    const auto at = line.at_station(x, cursor);
    std::size_t segment = 0;
    while (segment + 1 < plan_layout.segment_count() &&
           plan_layout.segment_start(segment + 1) <= x &&
           plan_layout.segment(segment + 1).length > 0)
      ++segment;
    points.push_back({x, line.station(x), line.length_at(x), at.point, at.plan_curvature,
                      at.cant_right - at.cant_left, plan_layout.segment(segment).type});
  }
  // The plan is drawn turned so that its start-to-end chord runs across the page.
  const Vector3d chord = points.back().p - points.front().p;
  const double turn = -std::atan2(chord.y(), chord.x());
  const auto turned = [&](const Vector3d& p) {
    const Vector3d d = p - points.front().p;
    return Vector2d(std::cos(turn) * d.x() - std::sin(turn) * d.y(),
                    std::sin(turn) * d.x() + std::cos(turn) * d.y());
  };
  double min_x = 1e300, max_x = -1e300, min_y = 1e300, max_y = -1e300, min_z = 1e300,
         max_z = -1e300, max_k = 0;
  for (const auto& q : points) {
    const Vector2d t = turned(q.p);
    min_x = std::min(min_x, t.x()), max_x = std::max(max_x, t.x());
    min_y = std::min(min_y, t.y()), max_y = std::max(max_y, t.y());
    min_z = std::min(min_z, q.p.z()), max_z = std::max(max_z, q.p.z());
    max_k = std::max(max_k, std::abs(q.curvature));
  }

  std::ofstream out(output);
  if (!out) fail("cannot write " + output);
  const double width = 1200, plan_top = 80, plan_height = 400;
  const double scale = std::min((width - 80) / (max_x - min_x), plan_height / (max_y - min_y));
  const auto page = [&](const Vector3d& p) {
    const Vector2d t = turned(p);
    return xy(40 + (t.x() - min_x) * scale, plan_top + 20 + (max_y - t.y()) * scale);
  };
  // The still a viewer without animation shows: a moment in the first curve.
  const std::size_t still = frames * 3 / 10;
  std::ostringstream dur;
  dur << plan->duration() << "s";
  // The panels below the plan, from where it ends.
  const double plan_bottom = plan_top + 20 + (max_y - min_y) * scale + 20;
  const double k_top = plan_bottom + 70, z_top = k_top + 210, section_top = z_top + 170;
  const double page_height = section_top + 170;
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='1200' height='" << page_height
      << "' viewBox='0 0 1200 " << page_height
      << "' font-family='sans-serif' font-size='13'>\n<rect width='100%' height='100%' "
         "fill='white'/>\n";
  out << "<text x='20' y='30' font-size='18'>tractrix alignment demo: " << first.name << ", "
      << std::lround(plan_layout.length()) << " m of LandXML plan, profile and cant</text>\n";
  out << "<text x='20' y='52'>Grey straights, blue clothoids, red arcs, green Bloss curves; the "
         "train runs at the speeds its curvature and cant allow ("
      << std::lround(plan->duration()) << " s, top speed "
      << std::lround(*std::max_element(speeds.begin(), speeds.end()) * 3.6) << " km/h).</text>\n";
  // The plan, by segment type, with chainage ticks.
  for (std::size_t i = 1; i < points.size(); ++i)
    out << "<line stroke='" << colour_of(points[i].type) << "' stroke-width='4' x1='"
        << page(points[i - 1].p).replace(page(points[i - 1].p).find(','), 1, "' y1='") << "' x2='"
        << page(points[i].p).replace(page(points[i].p).find(','), 1, "' y2='") << "'/>\n";
  for (std::size_t i = 0; i < points.size(); i += 125)
    out << "<text x='" << page(points[i].p).substr(0, page(points[i].p).find(',')) << "' y='"
        << page(points[i].p).substr(page(points[i].p).find(',') + 1) << "' dy='-10' font-size='11'>"
        << std::lround(points[i].s) << "</text>\n";
  // The train: each body a polygon keyed per frame, its corners from the body frame.
  for (std::size_t w = 0; w < wagons.size(); ++w) {
    const auto corners = [&](const tractrix::WagonPose<double>& pose) {
      const auto& b = pose.body;
      const double back = wagons[w].bogie_distance + 2, ahead = wagons[w].front_overhang;
      std::string text;
      for (const Vector3d& c : {Vector3d(-6, 0, -back), Vector3d(6, 0, -back),
                                Vector3d(6, 0, ahead), Vector3d(-6, 0, ahead)})
        text += page(b.to_world(c)) + " ";
      return text;
    };
    out << "<polygon fill='" << (w == 0 ? "#d35400" : "#34495e") << "' points='"
        << corners(shots[still][w]) << "'><animate attributeName='points' dur='" << dur.str()
        << "' repeatCount='indefinite' values='";
    for (std::size_t f = 0; f < frames; ++f)
      out << corners(shots[f][w]) << (f + 1 < frames ? ";" : "");
    out << "'/></polygon>\n";
  }
  out << "<text x='40' y='" << plan_bottom + 10
      << "' font-size='11'>(wagons drawn 12 m wide to be seen at this scale)</text>\n";

  // Curvature and cant against chainage.
  const double chart_left = 60, chart_right = 1160, k_height = 150;
  const double s0 = points.front().s, s1 = points.back().s;
  out << "<text x='20' y='" << k_top - 12 << "'>Curvature (blue, 1/m) and cant (orange, m: > 0 "
      << "right rail high) against chainage: linear clothoid ramps, S-shaped Bloss "
         "ramps</text>\n<line stroke='#ccc' x1='"
      << chart_left << "' x2='" << chart_right << "' y1='" << k_top + k_height / 2 << "' y2='"
      << k_top + k_height / 2 << "'/>\n";
  const auto chart = [&](auto value, double range, const char* colour) {
    out << "<polyline fill='none' stroke='" << colour << "' stroke-width='2' points='";
    for (const auto& q : points)
      out << xy(map(q.s, s0, s1, chart_left, chart_right),
                k_top + k_height / 2 - value(q) / range * k_height / 2)
          << " ";
    out << "'/>\n";
  };
  chart([](const Point& q) { return q.curvature; }, max_k * 1.1, "#2e86c1");
  chart([](const Point& q) { return q.cant; }, 0.15, "#e67e22");

  // The profile, exaggerated, with the locomotive's place on it.
  const double z_height = 120;
  out << "<text x='20' y='" << z_top - 12 << "'>Profile: elevation " << std::lround(min_z) << "–"
      << std::lround(max_z)
      << " m against chainage (heights exaggerated); a parabola and a 20 km vertical "
         "circle</text>\n<polyline fill='none' stroke='#8e44ad' stroke-width='2' points='";
  const auto profile_at = [&](double s, double z) {
    return xy(map(s, s0, s1, chart_left, chart_right),
              z_top + z_height - (z - min_z) / (max_z - min_z) * z_height);
  };
  for (const auto& q : points)
    out << profile_at(q.s, q.p.z()) << " ";
  std::vector<std::string> place;
  for (std::size_t f = 0; f < frames; ++f) {
    const auto& front = shots[f][0].front;
    place.push_back(
        profile_at(line.station(line.horizontal_at(shots[f][0].front_distance)), front.origin.z()));
  }
  out << "'/>\n<circle r='6' fill='#d35400' cx='" << place[still].substr(0, place[still].find(','))
      << "' cy='" << place[still].substr(place[still].find(',') + 1)
      << "'><animate attributeName='cx' dur='" << dur.str()
      << "' repeatCount='indefinite' values='";
  for (std::size_t f = 0; f < frames; ++f)
    out << place[f].substr(0, place[f].find(',')) << (f + 1 < frames ? ";" : "");
  out << "'/><animate attributeName='cy' dur='" << dur.str()
      << "' repeatCount='indefinite' values='";
  for (std::size_t f = 0; f < frames; ++f)
    out << place[f].substr(place[f].find(',') + 1) << (f + 1 < frames ? ";" : "");
  out << "'/></circle>\n";

  // The locomotive from behind: its rail heads and its body, leaning with the cant.
  const double cx = 600, cy = section_top + 150, zoom = 28;
  out << "<text x='20' y='" << section_top << "'>The locomotive from behind, to scale: rail heads "
      << line.rail_head_distance()
      << " m apart (dots), its body leaning with the cant "
         "(asin(cant / rail head distance))</text>\n<line stroke='#ccc' x1='420' x2='780' y1='"
      << cy << "' y2='" << cy << "'/>\n";
  const auto section = [&](std::size_t f) {
    const auto& pose = shots[f][0];
    Track::Cursor c;
    const auto at = line.sample(pose.front_distance, c);
    const Vector3d left = Vector3d::UnitZ().cross(at.tangent).normalized();
    const auto local = [&](const Vector3d& p) {
      return xy(cx - (p - at.point).dot(left) * zoom, cy - (p - at.point).z() * zoom);
    };
    const auto rails = line.rail_heads(at);
    std::string body;
    for (const Vector3d& corner : {Vector3d(-1.5, 0.4, 0), Vector3d(1.5, 0.4, 0),
                                   Vector3d(1.5, 4.0, 0), Vector3d(-1.5, 4.0, 0)})
      body +=
          local(pose.front.origin + pose.front.side() * corner.x() + pose.front.up() * corner.y()) +
          " ";
    return std::vector<std::string>{body, local(rails.left), local(rails.right)};
  };
  std::vector<std::vector<std::string>> sections;
  for (std::size_t f = 0; f < frames; ++f)
    sections.push_back(section(f));
  out << "<polygon fill='#d35400' fill-opacity='0.8' points='" << sections[still][0]
      << "'><animate attributeName='points' dur='" << dur.str()
      << "' repeatCount='indefinite' values='";
  for (std::size_t f = 0; f < frames; ++f)
    out << sections[f][0] << (f + 1 < frames ? ";" : "");
  out << "'/></polygon>\n";
  for (std::size_t rail = 1; rail <= 2; ++rail) {
    const std::string& at = sections[still][rail];
    out << "<circle r='5' fill='#222' cx='" << at.substr(0, at.find(',')) << "' cy='"
        << at.substr(at.find(',') + 1) << "'>";
    for (const char* axis : {"cx", "cy"}) {
      out << "<animate attributeName='" << axis << "' dur='" << dur.str()
          << "' repeatCount='indefinite' values='";
      for (std::size_t f = 0; f < frames; ++f) {
        const std::string& p = sections[f][rail];
        out << (axis[1] == 'x' ? p.substr(0, p.find(',')) : p.substr(p.find(',') + 1))
            << (f + 1 < frames ? ";" : "");
      }
      out << "'/>";
    }
    out << "</circle>\n";
  }
  out << "</svg>\n";
  if (!out) fail("cannot write " + output);
  std::printf("%s: %.3f m plan, %.3f m 3-D, %zu limit sections, run %.1f s; wrote %s\n",
              first.name.c_str(), plan_layout.length(), line.length(), limits->size(),
              plan->duration(), output.c_str());
  return 0;
}
