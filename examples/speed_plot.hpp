// The speed plot of example 10: speed against distance along the line, the limits for the
// train's head as steps and each plan as a curve, written as an SVG file.
#pragma once

#include <cstdio>
#include <utility>
#include <vector>

#include <tractrix/driving/speed_plan.hpp>

inline bool write_speed_plot(
    const char* file,
    const std::vector<std::pair<const tractrix::SpeedLimits<double>*, const char*>>& limit_lines,
    const std::vector<std::pair<const tractrix::SpeedPlan<double>*, const char*>>& plans) {
  std::FILE* out = std::fopen(file, "w");
  if (!out) return false;
  const double width = 900, height = 300, top = 32, length = limit_lines.front().first->length();
  auto x = [&](double s) { return 40 + s / length * (width - 60); };
  auto y = [&](double v) { return height - 30 - v / 32 * (height - 30 - top); };
  std::fprintf(out,
               "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
               "font-family='sans-serif' font-size='12'>\n<rect width='100%%' height='100%%' "
               "fill='white'/>\n",
               width, height);
  std::fprintf(out,
               "<text x='40' y='18'>speed (m/s) along the line (m): limit for the head "
               "(red; orange with a restriction), planned (blue), replanned after the "
               "restriction (green)</text>\n");
  for (int v = 0; v <= 30; v += 10)
    std::fprintf(out,
                 "<line x1='40' x2='%.0f' y1='%.1f' y2='%.1f' stroke='#ddd'/><text x='8' "
                 "y='%.1f'>%d</text>\n",
                 width - 20, y(v), y(v), y(v) + 4, v);
  for (double s = 0; s <= length; s += 500)
    std::fprintf(out, "<text x='%.1f' y='%.0f'>%.0f</text>\n", x(s) - 10, height - 10, s);
  for (const auto& [limits, colour] : limit_lines) {
    std::fprintf(out, "<polyline fill='none' stroke='%s' stroke-width='1.5' points='", colour);
    for (std::size_t i = 0; i < limits->size(); ++i)
      std::fprintf(out, "%.1f,%.1f %.1f,%.1f ", x(limits->start(i)), y(limits->limit(i)),
                   x(limits->end(i)), y(limits->limit(i)));
    std::fprintf(out, "'/>\n");
  }
  for (const auto& [plan, colour] : plans) {
    std::fprintf(out, "<polyline fill='none' stroke='%s' stroke-width='2' points='", colour);
    for (int k = 0; k <= 2000; ++k) {
      const tractrix::AxisSample<double> s = plan->at(plan->duration() * k / 2000);
      std::fprintf(out, "%.1f,%.1f ", x(s.position), y(s.velocity));
    }
    std::fprintf(out, "'/>\n");
  }
  std::fprintf(out, "</svg>\n");
  return std::fclose(out) == 0;
}
