// 11 — a railway alignment as IFC 4.3 gives it: a straight, a clothoid into a 500 m curve and out,
// a crest over the top, cant ramped with the clothoids. A train runs on it as on any track, banked
// by the cant; speed limits from curvature and cant; a signal's chainage and offset.
#include <cmath>
#include <cstdio>
#include <vector>

#include <tractrix/tractrix.hpp>

int main() {
  using namespace tractrix;
  using H = HorizontalType;
  AlignmentLayouts<double> line;
  // Start and end radius (> 0 left, 0 straight), length; each starts where the last one ends.
  const double plan[5][3] = {
      {0, 0, 200}, {0, 500, 100}, {500, 500, 300}, {500, 0, 100}, {0, 0, 200}};
  const H types[5] = {H::line, H::clothoid, H::circular_arc, H::clothoid, H::line};
  HorizontalPoint<double> end{{0, 0}, {1, 0}, 0, 0};
  for (int i = 0; i < 5; ++i) {
    HorizontalSegment<double> g{types[i],   end.position, end.direction,
                                plan[i][0], plan[i][1],   plan[i][2]};
    line.horizontal.push_back(g);
    end = HorizontalLayout<double>::build({g})->at(g.length);
  }
  // +1.5 % to a 400 m crest parabola, then −1 %; 120 mm of cant on the right (outer) rail.
  line.vertical = {{VerticalType::constant_gradient, 0, 300, 100, 0.015, 0.015},
                   {VerticalType::parabolic_arc, 300, 400, 104.5, 0.015, -0.010},
                   {VerticalType::constant_gradient, 700, 200, 105.5, -0.010, -0.010}};
  line.cant = {{CantType::constant_cant, 0, 200, 0, 0, 0, 0},
               {CantType::linear_transition, 200, 100, 0, 0, 0, 0.12},
               {CantType::constant_cant, 300, 300, 0, 0, 0.12, 0.12},
               {CantType::linear_transition, 600, 100, 0, 0, 0.12, 0},
               {CantType::constant_cant, 700, 200, 0, 0, 0, 0}};
  line.start_station = 12000;  // chainage 12+000 at the start
  const auto alignment = Alignment<double>::build(line);
  if (!alignment) return std::printf("%s\n", alignment.error().message.c_str()), 1;
  std::printf("alignment: %.3f m in plan, %.3f m along the 3-D curve\n",
              alignment->horizontal().length(), alignment->length());
  const std::vector<Wagon<double>> wagons(4, Wagon<double>{26.4, 19.0, 3.7});
  const auto front = TrainSolver<double, Alignment<double>>::build(*alignment, wagons, {})
                         ->solve(450.0)[0]
                         .front;  // 450 m along: in the curve
  const Vector3d left = Vector3d::UnitZ().cross(front.forward()).normalized();
  std::printf("locomotive at (%.3f, %.3f, %.3f), banked %.4f rad (asin(0.12 / 1.5) = %.4f)\n",
              front.origin.x(), front.origin.y(), front.origin.z(),
              std::atan2(front.up().dot(left), front.up().z()), std::asin(0.12 / 1.5));
  // Speed limits: v = sqrt(g R (cant + deficiency) / rail head distance) in the curve.
  CantLimits<double> cant;
  cant.max_velocity = 44.4, cant.cant_deficiency = 0.13, cant.section_length = 25;
  std::printf("limit in the curve %.2f m/s (closed form %.2f)\n",
              SpeedLimits<double>::from_cant(*alignment, cant)->at(450),
              std::sqrt(9.80665 * 500 * (0.12 + 0.13) / 1.5));
  // A signal 3.2 m left of the line, 4 m up: its chainage, offset and height.
  Alignment<double>::Cursor cursor;
  const auto at = alignment->sample(500, cursor);
  const auto signal = alignment->closest_point(
      at.point + 3.2 * Vector3d::UnitZ().cross(at.tangent).normalized() + Vector3d(0, 0, 4));
  std::printf("signal: chainage %.3f, offset %.3f m, %.3f m above the alignment\n", signal.station,
              signal.offset, signal.elevation);
}
