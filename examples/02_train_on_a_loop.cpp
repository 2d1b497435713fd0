// 02 — a train on a loop. A closed track, one measured path shared by two trains (rigid wagons
// spaced by chords, and the TrainDriver plugin's arc spacing), and an open track where the train
// runs into the end and is held there.
#include <cstdio>
#include <vector>

#include <tractrix/tractrix.hpp>

int main() {
  using namespace tractrix;
  const auto fail = [](const Error& e) { return std::printf("%s\n", e.message.c_str()), 1; };
  const std::vector<Vector3d> keys{{0, 0, 0}, {120, 0, 20}, {140, 4, 110}, {10, 2, 90}};
  const auto track = Track<double>::build(
      MeasuredPath<double>::build(Path<double>::catmull_rom(keys, Closure::closed)));
  if (!track) return fail(track.error());
  // A locomotive and three wagons: {length, bogie_distance, front_overhang}.
  const std::vector<Wagon<double>> wagons{{18, 12, 1}, {14, 9, 0.5}, {14, 9, 0.5}, {14, 9, 0.5}};
  const auto rigid = TrainSolver<double>::build(*track, wagons);  // chord spacing
  const auto along = TrainSolver<double>::build(*track, wagons, {Wrap::automatic, Spacing::arc});
  if (!rigid) return fail(rigid.error());
  if (!along) return fail(along.error());
  std::printf("track length %.3f; both trains share its table: %s\n", track->length(),
              rigid->track().path().shares_data_with(along->track().path()) ? "yes" : "no");

  // The locomotive just past the seam: the wagons behind it are on the lap before (lap −1).
  const double head = 5;
  const auto a = rigid->solve(head), b = along->solve(head);
  std::printf("%5s %10s %10s %6s %12s %12s\n", "wagon", "front s", "rear s", "lap", "|f-r| chord",
              "|f-r| arc");
  for (std::size_t i = 0; i < wagons.size(); ++i)
    std::printf("%5zu %10.4f %10.4f %6lld %12.6f %12.6f\n", i, a[i].front_distance,
                a[i].rear_distance, a[i].lap, (a[i].front.origin - a[i].rear.origin).norm(),
                (b[i].front.origin - b[i].rear.origin).norm());

  // Open track, clamped: driven past the end, the locomotive is held there and says so.
  const auto line = Track<double>::build(MeasuredPath<double>::build(
      Path<double>::catmull_rom({{0, 0, 0}, {30, 0, 0}, {60, 0, 5}}, Closure::open)));
  if (!line) return fail(line.error());
  const auto held = TrainSolver<double>::build(*line, wagons);  // automatic: clamp
  if (!held) return fail(held.error());
  const char* names[] = {"on track", "held at end", "compressed"};
  for (const auto& pose : held->solve(line->length() + 30))
    std::printf("front %8.4f rear %8.4f: %s\n", pose.front_distance, pose.rear_distance,
                names[static_cast<int>(pose.status)]);
}
