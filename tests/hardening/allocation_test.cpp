// Counts heap allocations (this binary replaces the global operator new) to prove that the
// per-frame calls allocate nothing: solve into a caller buffer, the table lookups, frame queries,
// motion samples, camera shots, the cone reader and stretchy IK into a buffer.
#include <cstdlib>
#include <optional>
#include <vector>

#include "support/catch.hpp"
#include "support/shapes.hpp"
#include "tractrix/tractrix.hpp"

#include "support/counting_new.hpp"

using namespace tractrix;

TEST_CASE("per-frame calls allocate nothing", "[hardening][allocation]") {
  const auto path = *MeasuredPath<double>::build(test::circle<double>(50, 16));
  const auto& table = path.table();
  const auto rail = *MeasuredPath<double>::build(test::circle<double>(51, 16, 1.0));
  const auto roll = *RollProfile<double>::build({0.0, 100.0}, {0.1, -0.1}, path.length());
  const std::vector<UpSource<double>> sources{
      *UpSource<double>::world(), *UpSource<double>::rail(rail),
      *UpSource<double>::rail(rail, RailMatch::closest_point),
      *UpSource<double>::rotation_minimizing(path), UpSource<double>::world()->with_roll(roll)};
  std::vector<Wagon<double>> wagons(50, Wagon<double>{6, 4, 0.5});
  const auto chord = *TrainSolver<double>::build(*Track<double>::build(path, sources[1]), wagons);
  const auto arc = *TrainSolver<double>::build(*Track<double>::build(path, sources[3]), wagons,
                                               {Wrap::automatic, Spacing::arc});
  std::vector<WagonPose<double>> poses(wagons.size());
  std::vector<WagonMotion<double>> motions(wagons.size());
  const auto profile = *TimeProfile<double>::keyed({0.0, 1.0, 3.0}, {0.0, 0.4, 1.0});
  const auto camera = *CameraRig<double>::build(
      {{{0, 0, 0}, {1, 0, 0}}, {{10, 1, 5}, {}}, {{20, 0, 0}, {1, 0, -1}}}, profile);
  PoseReaderSettings<double> reader_settings;
  reader_settings.twist = ConeRange<double>{0.1, 0.5};
  const auto reader = *PoseReader<double>::build(reader_settings);
  const auto chain = *StretchChain<double>::build({5, 5});
  double lengths[2];
  double sink = 0;

  std::vector<float> engine_records(wagons.size() * 8);  // 7 floats a pose and one of padding
  WagonPoseArrays<float> engine_arrays;
  engine_arrays.body = {engine_records.data(), wagons.size(), 8 * sizeof(float)};
  const TrainSolver<double> batch[2] = {chord, arc};
  std::vector<float> batch_records(16 * 2 * wagons.size());
  WagonPoseArrays<float> batch_arrays;
  batch_arrays.body_centered =
      PoseArray<float>::matrices_row_major(batch_records.data(), 2 * wagons.size());
  // Sleepers: points, tangents and frames at many distances into caller records.
  std::vector<double> sleepers(40), sleeper_points(3 * 40), sleeper_tangents(3 * 40),
      sleeper_matrices(16 * 40);
  const auto sleeper_track = *Track<double>::build(path, sources[3]);

  ClosestPointCursor<double> follower;

  Counting scope;
  std::size_t cursor = 0;
  for (int i = 0; i < 100; ++i) {
    const double s = i * 3.7;
    sink += table.parameter_at_linear(s) + table.parameter_at(s, cursor) + table.parameter_at(s) +
            table.distance_at(0.1 * i);
    for (const auto& up : sources)
      sink += up.frame_at(path, s).up().x();
    chord.solve(s, poses.data());
    arc.solve(s, poses.data());
    train_kinematics(arc, poses.data(), 10.0, 1.0, motions.data());
    sink += static_cast<double>(arc.solve(s, engine_arrays));
    const double heads[2] = {s, s + 40};
    sink += static_cast<double>(solve_trains(batch, heads, 2, batch_arrays));
    for (std::size_t k = 0; k < sleepers.size(); ++k)
      sleepers[k] = s + 2.5 * static_cast<double>(k);
    sink += path.samples_at(sleepers.data(), sleepers.size(),
                            VectorArray<double>{sleeper_points.data(), sleepers.size()},
                            VectorArray<double>{sleeper_tangents.data(), sleepers.size()})
                ? 1
                : 0;
    sink += sleeper_track.frames_at(
                sleepers.data(), sleepers.size(),
                PoseArray<double>::matrices(sleeper_matrices.data(), sleepers.size()))
                ? 1
                : 0;
    sink +=
        sample(path, profile, 0.03 * i, sources[0]).speed + camera.at(0.03 * i).frame.forward().x();
    sink += reader.weight(Eigen::Matrix3d::Identity(),
                          Eigen::AngleAxisd(0.01 * i, Vector3d::UnitX()).toRotationMatrix());
    const Vector3d near_track =
        path.point_at(s) + Vector3d(1, 2, 0) + (i % 10 == 9 ? 70 : 0) * Vector3d::UnitX();
    sink += path.closest_point(near_track).distance +
            path.closest_point(near_track, follower).squared_distance;
    chain.lengths(8.0 + 0.05 * i, GlobalScale<double>(), lengths);
    sink += lengths[0] +
            chain.two_bone(Vector3d::Zero(), Vector3d(9, 0, 0), Vector3d(0, 1, 0), {}).knee.y();
  }
  const long made = scope.made();
#if defined(TRACTRIX_SANITIZED)
  WARN("allocation counting is off under sanitizers: operator new belongs to ASan");
  (void)made;
#else
  CHECK(made == 0);
#endif
  CHECK(std::isfinite(sink));
  CHECK(follower.global_searches() > 1);  // the cursor rebuilt its list inside the counted scope
}

TEST_CASE("trains share their track: 1000 solvers on a 10^6-segment track hold one table",
          "[hardening][allocation][share]") {
  // A wobbly loop of 10^6 segments, one table entry per segment (the table's size is what
  // matters here, not its density).
  const long segments = 1000000;
  std::vector<Vector3d> keys;
  keys.reserve(static_cast<std::size_t>(segments));
  for (long k = 0; k < segments; ++k) {
    const double angle = 2 * 3.141592653589793 * static_cast<double>(k) / segments;
    const double r = 1e6 * (1 + 0.01 * std::sin(7 * angle));
    keys.emplace_back(r * std::cos(angle), 10 * std::sin(3 * angle), r * std::sin(angle));
  }
  auto path = Path<double>::catmull_rom(keys, Closure::closed);
  REQUIRE(path);
  long long measured_bytes = 0;
  std::optional<Track<double>> track;
  {
    Counting scope;
    auto measured = MeasuredPath<double>::build(std::move(*path), {1});
    REQUIRE(measured);
    track.emplace(*Track<double>::build(std::move(*measured)));
    measured_bytes = scope.bytes();
  }
  const std::vector<Wagon<double>> wagons{{18, 12}, {14, 9}, {14, 9}};
  std::vector<TrainSolver<double>> solvers;
  solvers.reserve(1000);
  long long solver_bytes = 0;
  {
    Counting scope;
    for (int i = 0; i < 1000; ++i)
      solvers.push_back(*TrainSolver<double>::build(*track, wagons));
    solver_bytes = scope.bytes();
  }
  // Every solver refers to the one measured path: nothing of the path or table was copied.
  for (const auto& solver : solvers)
    CHECK(solver.track().path().shares_data_with(track->path()));
  // And the poses are those of the track: the first and the last solver agree.
  CHECK(solvers.front().solve(1234.5)[2].body.origin ==
        solvers.back().solve(1234.5)[2].body.origin);
#if defined(TRACTRIX_SANITIZED)
  WARN("byte counting is off under sanitizers: operator new belongs to ASan");
  (void)measured_bytes;
  (void)solver_bytes;
#else
  // Measuring allocates the table, ~120 bytes a segment (the path, 96 bytes a segment, is moved
  // in); a solver holds its wagons, their offsets and a few handles: under 1 kB each.
  INFO("measured path " << measured_bytes << " bytes, 1000 solvers " << solver_bytes << " bytes");
  CHECK(measured_bytes > 100LL * segments);
  CHECK(solver_bytes < 1000LL * 1000);
#endif
}

TEST_CASE("a compiled network holds every piece's compiled data in one block",
          "[hardening][allocation][share]") {
  // Network::compiled copies each piece's compiled data (header, cells, index, distance cells)
  // into one block: its allocations do not grow with the pieces, where a copy a piece would be
  // six or more each. The pieces are compiled first, so only the copying is counted.
  const auto allocations_for = [](int count) {
    std::vector<Track<double>> pieces;
    for (int k = 0; k < count; ++k) {
      const double x = 10.0 * k;
      const std::vector<Vector3d> keys{Vector3d(x, 0, 0), Vector3d(x + 3, 1, 0),
                                       Vector3d(x + 6, 0, 1), Vector3d(x + 9, 1, 0)};
      pieces.push_back(Track<double>::build(MeasuredPath<double>::build(
                                                *Path<double>::catmull_rom(keys, Closure::open)))
                           ->compiled());
    }
    const auto network = *Network<double>::build(pieces, {});
    Counting scope;
    const auto compiled = network.compiled();
    const long made = scope.made();
    CHECK(compiled.piece_compiled(static_cast<std::size_t>(count - 1)) != nullptr);
    return made;
  };
  const long few = allocations_for(10), many = allocations_for(80);
  INFO("allocations: " << few << " for 10 pieces, " << many << " for 80");
#if !defined(TRACTRIX_SANITIZED)
  CHECK(many - few < 20);
#endif
}
