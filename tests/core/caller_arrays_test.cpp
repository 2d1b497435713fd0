// Engine outputs: poses written as position + quaternion or as 4×4 matrices in either order, in
// tractrix's axes or an engine's. Expected values are written out per engine from its documented
// conventions (which axis is up, which way objects face), not from EngineAxes' own tables.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "support/reference_arc_length.hpp"
#include "support/shapes.hpp"
#include "tractrix/core/caller_arrays.hpp"
#include "tractrix/core/engine_axes.hpp"
#include "tractrix/frame/frame.hpp"
#include "tractrix/train/track.hpp"
#include "tractrix/train/train_solver.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

// An engine's convention, spelled out: where a tractrix world vector lands, and which columns of
// the engine object's rotation are its right, up and forward (a negative index: the column is
// minus that direction).
struct Convention {
  const char* name;
  EngineAxes axes;
  std::function<Eigen::Vector3d(const Eigen::Vector3d&)> to_engine;
  int right_column, up_column, forward_column;  // 1-based, signed
};

std::vector<Convention> conventions() {
  using V = Eigen::Vector3d;
  return {
      // tractrix: side = up × forward is the left of travel.
      {"tractrix", EngineAxes::tractrix(), [](const V& v) { return v; }, -1, 2, 3},
      // Unity: left-handed Y up (x mirrored), objects: +X right, +Y up, +Z forward.
      {"unity", EngineAxes::unity(), [](const V& v) { return V(-v.x(), v.y(), v.z()); }, 1, 2, 3},
      // Unreal: left-handed Z up, (x, y, z) → (x, z, y); objects: +X forward, +Y right, +Z up.
      {"unreal", EngineAxes::unreal(), [](const V& v) { return V(v.x(), v.z(), v.y()); }, 2, 3, 1},
      // Godot: tractrix's world; objects: +X right, +Y up, −Z forward.
      {"godot", EngineAxes::godot(), [](const V& v) { return v; }, 1, 2, -3},
      // Blender: right-handed Z up, (x, y, z) → (x, −z, y); objects: −Y forward, +Z up, −X right.
      {"blender", EngineAxes::blender(), [](const V& v) { return V(v.x(), -v.z(), v.y()); }, -1, 3,
       -2},
  };
}

Eigen::Vector3d column(const Eigen::Matrix3d& m, int signed_index) {
  const Eigen::Vector3d c = m.col(std::abs(signed_index) - 1);
  return signed_index < 0 ? Eigen::Vector3d(-c) : c;
}

template <class S>
Frame<S> random_frame(std::mt19937_64& rng) {
  Eigen::Quaternion<S> q(uniform<S>(rng, S(-1), S(1)), uniform<S>(rng, S(-1), S(1)),
                         uniform<S>(rng, S(-1), S(1)), uniform<S>(rng, S(-1), S(1)));
  const Vector3<S> origin(uniform<S>(rng, S(-50), S(50)), uniform<S>(rng, S(-50), S(50)),
                          uniform<S>(rng, S(-50), S(50)));
  return Frame<S>::from_quaternion(origin, q);
}

// An engine's instance record: a matrix or a pose, then fields of its own.
template <class T>
struct Instance {
  T transform[16];
  unsigned color;
  unsigned id;
};

}  // namespace

TEMPLATE_TEST_CASE("poses land in engines' axes as quaternions and column-major matrices",
                   "[core][caller_arrays]", float, double) {
  using T = TestType;
  auto rng = make_rng(151);
  const double tolerance = 16 * static_cast<double>(std::numeric_limits<T>::epsilon()) * 64;
  for (const Convention& c : conventions()) {
    INFO(c.name);
    for (int n = 0; n < property_count(20); ++n) {
      const Frame<double> frame = random_frame<double>(rng);
      const Eigen::Vector3d left = frame.side();
      const Eigen::Vector3d position = c.to_engine(frame.origin);
      const Eigen::Vector3d right = c.to_engine(-left), up = c.to_engine(frame.up()),
                            forward = c.to_engine(frame.forward());

      std::vector<Instance<T>> matrices(3), poses(3);
      for (auto& r : matrices)
        r.color = 0xA5A5A5A5u;
      for (auto& r : poses)
        r.color = 0xA5A5A5A5u;
      const auto as_matrix =
          PoseArray<T>::matrices(matrices[0].transform, matrices.size(), sizeof(Instance<T>));
      const auto as_pose =
          PoseArray<T>::poses(poses[0].transform, poses.size(), sizeof(Instance<T>));
      REQUIRE(as_matrix.writable());
      as_matrix.write(1, frame.origin, frame.rotation, c.axes);
      as_pose.write(1, frame.origin, frame.rotation, c.axes);

      // Column-major: element (row r, column k) at [4k + r]; the last row is 0 0 0 1.
      const T* m = matrices[1].transform;
      Eigen::Matrix3d rotation;
      for (int k = 0; k < 3; ++k)
        for (int r = 0; r < 3; ++r)
          rotation(r, k) = static_cast<double>(m[4 * k + r]);
      CHECK((column(rotation, c.right_column) - right).norm() <= tolerance);
      CHECK((column(rotation, c.up_column) - up).norm() <= tolerance);
      CHECK((column(rotation, c.forward_column) - forward).norm() <= tolerance);
      CHECK(std::abs(rotation.determinant() - 1) <= tolerance);
      for (int k = 0; k < 3; ++k)
        CHECK(m[4 * k + 3] == T(0));
      CHECK((Eigen::Vector3d(m[12], m[13], m[14]) - position).norm() <= tolerance * 50);
      CHECK(m[15] == T(1));
      CHECK(matrices[1].color == 0xA5A5A5A5u);  // the record's own fields untouched
      CHECK(matrices[0].transform[0] == T(0));  // other records untouched

      // Position, then the quaternion x, y, z, w (w >= 0) of the same rotation.
      const T* p = poses[1].transform;
      CHECK((Eigen::Vector3d(p[0], p[1], p[2]) - position).norm() <= tolerance * 50);
      const Eigen::Quaterniond q(static_cast<double>(p[6]), static_cast<double>(p[3]),
                                 static_cast<double>(p[4]), static_cast<double>(p[5]));
      CHECK(q.w() >= 0);
      CHECK(std::abs(q.norm() - 1) <= tolerance);
      CHECK((q.toRotationMatrix() - rotation).norm() <= 2 * tolerance);
      CHECK(p[7] == T(0));  // nothing past the 7 values
    }
  }
}

namespace {

// raylib's Matrix, declared as raylib declares it (raymath.h): fields row by row, m0 m4 m8 m12
// first, the translation in m12, m13, m14; its Vector3Transform computes x' = m0 x + m4 y + m8 z
// + m12 (and likewise with m1.., m2..).
struct RaylibMatrix {
  float m0, m4, m8, m12;
  float m1, m5, m9, m13;
  float m2, m6, m10, m14;
  float m3, m7, m11, m15;
};

Eigen::Vector3d raylib_transform(const RaylibMatrix& m, const Eigen::Vector3d& v) {
  const auto x = static_cast<float>(v.x()), y = static_cast<float>(v.y()),
             z = static_cast<float>(v.z());
  return {double(m.m0 * x + m.m4 * y + m.m8 * z + m.m12),
          double(m.m1 * x + m.m5 * y + m.m9 * z + m.m13),
          double(m.m2 * x + m.m6 * y + m.m10 * z + m.m14)};
}

}  // namespace

TEST_CASE("row-major matrices are what raylib's Matrix and numpy's M @ v take",
          "[core][caller_arrays]") {
  auto rng = make_rng(152);
  for (int n = 0; n < property_count(20); ++n) {
    const Frame<double> frame = random_frame<double>(rng);
    // A point in the wagon's own axes (side, up, forward) and where it lands in the world.
    const Eigen::Vector3d local(uniform<double>(rng, -2, 2), uniform<double>(rng, -2, 2),
                                uniform<double>(rng, -9, 9));
    const Eigen::Vector3d world = frame.origin + frame.rotation * local;

    RaylibMatrix rows[2] = {}, columns[2] = {};
    static_assert(sizeof(RaylibMatrix) == 16 * sizeof(float), "raylib's Matrix is 16 floats");
    PoseArray<float>::matrices_row_major(&rows[0].m0, 2).write(1, frame.origin, frame.rotation);
    PoseArray<float>::matrices(&columns[0].m0, 2).write(1, frame.origin, frame.rotation);
    CHECK((raylib_transform(rows[1], local) - world).norm() <= 1e-4);
    CHECK(rows[1].m12 == float(frame.origin.x()));
    CHECK(rows[1].m14 == float(frame.origin.z()));
    CHECK(rows[1].m3 == 0.0f);
    CHECK(rows[1].m15 == 1.0f);
    CHECK(rows[0].m0 == 0.0f);  // the record before untouched
    // Column-major into raylib's struct: the translation lands in m3, m7, m11 and the rotation
    // is transposed, the mistake this layout exists to prevent.
    CHECK(columns[1].m3 == float(frame.origin.x()));
    CHECK(columns[1].m12 == 0.0f);

    // numpy's C order (element (r, c) at [4r + c]) used as M @ (v, 1), in double.
    double m[16];
    PoseArray<double>::matrices_row_major(m, 1).write(0, frame.origin, frame.rotation);
    for (int r = 0; r < 3; ++r) {
      const double x =
          m[4 * r] * local.x() + m[4 * r + 1] * local.y() + m[4 * r + 2] * local.z() + m[4 * r + 3];
      CHECK(std::abs(x - world[r]) <= 1e-12);
    }
    CHECK(m[12] == 0.0);
    CHECK(m[15] == 1.0);
  }
  CHECK(PoseArray<float>::matrices_row_major(nullptr, 0).record_bytes() == 64u);
  CHECK(PoseArray<float>::matrices_row_major(nullptr, 0).stride_bytes == 64u);
}

TEMPLATE_TEST_CASE("the compact pose is 28 bytes and records must hold their layout",
                   "[core][caller_arrays]", float, double) {
  using T = TestType;
  T buffer[64] = {};
  CHECK(PoseArray<T>::poses(buffer, 2).stride_bytes == 7 * sizeof(T));
  CHECK(PoseArray<T>::matrices(buffer, 2).stride_bytes == 16 * sizeof(T));
  if (sizeof(T) == 4) CHECK(PoseArray<T>::poses(buffer, 2).record_bytes() == 28u);
  PoseArray<T> short_records = PoseArray<T>::matrices(buffer, 2, 7 * sizeof(T));
  CHECK_FALSE(short_records.writable());
  CHECK(PoseArray<T>::poses(buffer, 2, 7 * sizeof(T)).writable());
  CHECK_FALSE(PoseArray<T>::poses(nullptr, 2).writable());
  CHECK(PoseArray<T>::poses(nullptr, 0).writable());
  // A negative stride turned size_t walks the pointer round the address space: refused.
  const std::size_t backwards = std::size_t(0) - 7 * sizeof(T);
  CHECK_FALSE(PoseArray<T>::poses(buffer + 7, 2, backwards).writable());
  const auto key_error =
      Path<T, 3>::catmull_rom(PointArray<T>{buffer + 3, 2, backwards}, Closure::open);
  REQUIRE_FALSE(key_error);
  CHECK(key_error.error().message == "points: stride " + std::to_string(backwards) +
                                         " bytes for 2 points spans past memory (a negative "
                                         "stride?)");
}

TEST_CASE("arrays may span up to the largest object and no further", "[core][caller_arrays]") {
  // Records are `stride` apart, so n of them reach (n − 1)·stride past the first: at most
  // PTRDIFF_MAX, the largest object. Checked by arithmetic only; nothing here is read.
  float buffer[7] = {};
  constexpr std::size_t largest = static_cast<std::size_t>(PTRDIFF_MAX);
  const auto fits = [&](std::size_t count, std::size_t stride) {
    return PoseArray<float>::poses(buffer, count, stride).writable();
  };
  CHECK(fits(1, SIZE_MAX));  // one record: its stride is never walked
  CHECK(fits(2, largest));
  CHECK_FALSE(fits(2, largest + 1));
  CHECK(fits(3, largest / 2));
  CHECK_FALSE(fits(3, largest / 2 + 1));
  CHECK(fits(1001, largest / 1000));
  CHECK_FALSE(fits(1001, largest / 1000 + 1));
}

TEST_CASE(
    "keys read in an engine's axes and poses written in them land where the engine drew "
    "the keys",
    "[core][caller_arrays]") {
  // A straight track 300 long, along tractrix's +x at height 5, spelled in each engine's own
  // coordinates (its convention's map), read with the same axes the poses are written in: every
  // front bogie lies on the engine's line and faces along it. Without the keys' axes, Unity's
  // mirrored x put the train at −x of the keys and Unreal's swapped y and z stood the track up.
  for (const Convention& c : conventions()) {
    INFO(c.name);
    std::vector<float> records;
    for (int i = 0; i < 4; ++i) {
      const Eigen::Vector3d key = c.to_engine(Eigen::Vector3d(100.0 * i, 5, 0));
      records.insert(records.end(), {float(key.x()), float(key.y()), float(key.z()), -1.0f});
    }
    PointArray<float> keys{records.data(), 4, 4 * sizeof(float)};
    keys.axes = c.axes;
    const auto track = *Track<double>::build(
        MeasuredPath<double>::build(Path<double, 3>::catmull_rom(keys, Closure::open)));
    const auto train = *TrainSolver<double>::build(track, std::vector<Wagon<double>>(3, {20, 12}));
    std::vector<float> poses(3 * 7);
    WagonPoseArrays<float> out;
    out.front = PoseArray<float>::poses(poses.data(), 3);
    out.axes = c.axes;
    REQUIRE(train.solve(150.0, out) == 3);
    for (int k = 0; k < 3; ++k) {
      const float* pose = &poses[static_cast<std::size_t>(7 * k)];
      const Eigen::Vector3d expected = c.to_engine(Eigen::Vector3d(150.0 - 20 * k, 5, 0));
      CHECK((Eigen::Vector3d(pose[0], pose[1], pose[2]) - expected).norm() <= 1e-4);
      const Eigen::Matrix3d rotation =
          Eigen::Quaterniond(pose[6], pose[3], pose[4], pose[5]).toRotationMatrix();
      CHECK((column(rotation, c.forward_column) - c.to_engine(Eigen::Vector3d::UnitX())).norm() <=
            1e-6);
      CHECK((column(rotation, c.up_column) - c.to_engine(Eigen::Vector3d::UnitY())).norm() <= 1e-6);
    }
  }
}

// Custom axes come only from make(): an unchecked map wrote outside the pose (an axis of 4) or
// turned rotations into reflections (mixed handedness).
static_assert(!std::is_aggregate_v<EngineAxes>);
static_assert(!std::is_constructible_v<EngineAxes, int, int, int, int, int, int>);

TEST_CASE("custom engine axes are checked", "[core][caller_arrays]") {
  const auto made = EngineAxes::make({1, 3, -2}, {1, 3, -2});
  REQUIRE(made);
  CHECK(made->world()[1] == 3);
  CHECK(made->local()[2] == -2);
  // tractrix's (x, y, z) lands on (x, −z, y): the world y axis becomes z, z becomes −y.
  CHECK(made->point(Eigen::Vector3d(1, 2, 3)) == Eigen::Vector3d(1, -3, 2));
  const auto repeated = EngineAxes::make({1, 1, 3}, {1, 2, 3});
  REQUIRE_FALSE(repeated);
  CHECK(repeated.error().message ==
        "world: axis 1 is 1; each of ±1, ±2, ±3 (±x, ±y, ±z) must appear once");
  CHECK_FALSE(EngineAxes::make({1, 2, 3}, {0, 2, 3}));
  CHECK_FALSE(EngineAxes::make({1, 2, 3}, {4, 2, 3}));
  const auto mixed = EngineAxes::make({-1, 2, 3}, {1, 2, 3});
  REQUIRE_FALSE(mixed);
  CHECK(mixed.error().code == ErrorCode::out_of_range);
  // Every preset passes its own check.
  for (const EngineAxes& preset :
       {EngineAxes::tractrix(), EngineAxes::unity(), EngineAxes::unreal(), EngineAxes::godot(),
        EngineAxes::blender()})
    CHECK(EngineAxes::make(preset.world(), preset.local()));
}

namespace {

// Point and unit tangent of a cubic Bézier at arc length s, in long double: u by bisection on the
// tanh–sinh reference distance (support/reference_arc_length.hpp), then the Bernstein form.
template <class S>
std::pair<Eigen::Vector3d, Eigen::Vector3d> reference_at(const Bezier<S, 3, 3>& b,
                                                         const ReferenceArcLength& reference,
                                                         long double s) {
  long double lo = 0, hi = 1;
  for (int i = 0; i < 80; ++i) {
    const long double mid = (lo + hi) / 2;
    (reference.distance(mid) < s ? lo : hi) = mid;
  }
  const long double u = (lo + hi) / 2, v = 1 - u;
  Eigen::Vector3d point, tangent;
  for (int c = 0; c < 3; ++c) {
    const long double p0 = b.points[0][c], p1 = b.points[1][c], p2 = b.points[2][c],
                      p3 = b.points[3][c];
    point[c] = static_cast<double>(v * v * v * p0 + 3 * v * v * u * p1 + 3 * v * u * u * p2 +
                                   u * u * u * p3);
    tangent[c] =
        static_cast<double>(3 * (v * v * (p1 - p0) + 2 * u * v * (p2 - p1) + u * u * (p3 - p2)));
  }
  return {point, tangent.normalized()};
}

// The curvature |r' × r''| / |r'|³ of the same Bézier at arc length s, in long double.
template <class S>
double curvature_at(const Bezier<S, 3, 3>& b, const ReferenceArcLength& reference, long double s) {
  long double lo = 0, hi = 1;
  for (int i = 0; i < 80; ++i) {
    const long double mid = (lo + hi) / 2;
    (reference.distance(mid) < s ? lo : hi) = mid;
  }
  const long double u = (lo + hi) / 2, v = 1 - u;
  Eigen::Matrix<long double, 3, 1> d1, d2;
  for (int c = 0; c < 3; ++c) {
    const long double p0 = b.points[0][c], p1 = b.points[1][c], p2 = b.points[2][c],
                      p3 = b.points[3][c];
    d1[c] = 3 * (v * v * (p1 - p0) + 2 * u * v * (p2 - p1) + u * u * (p3 - p2));
    d2[c] = 6 * (v * (p2 - 2 * p1 + p0) + u * (p3 - 2 * p2 + p1));
  }
  const long double speed = d1.norm();
  return static_cast<double>(d1.cross(d2).norm() / (speed * speed * speed));
}

// A record an engine might keep per item: a position, a direction, its own fields between.
template <class T>
struct Sleeper {
  T position[3];
  unsigned id;
  T direction[3];
  T spare;
};

}  // namespace

TEMPLATE_TEST_CASE("points and tangents at many distances land in the caller's records",
                   "[core][caller_arrays]", float, double) {
  using S = TestType;
  auto rng = make_rng(907);
  for (int n = 0; n < property_count(6); ++n) {
    const Bezier<S, 3, 3> b = random_bezier<S, 3, 3>(rng, S(10));
    const auto path = MeasuredPath<S>::build(Path<S, 3>::from_segments({b}, Closure::open));
    REQUIRE(path);
    const ReferenceArcLength reference(b);
    const S length = path->length();
    // Sorted (sleepers), then shuffled, then beyond both ends (clamped) and NaN (taken as 0).
    std::vector<S> distances;
    for (int i = 0; i <= 40; ++i)
      distances.push_back(length * S(i) / S(40));
    for (int i = 0; i < 20; ++i)
      distances.push_back(uniform<S>(rng, S(0), length));
    distances.push_back(-length);
    distances.push_back(S(2) * length);
    distances.push_back(std::numeric_limits<S>::quiet_NaN());
    const std::size_t count = distances.size();
    std::vector<Sleeper<S>> records(count + 1, Sleeper<S>{{S(-9), S(-9), S(-9)}, 77u, {}, S(-9)});
    const VectorArray<S> points{records[0].position, count, sizeof(Sleeper<S>)};
    const VectorArray<S> tangents{records[0].direction, count, sizeof(Sleeper<S>)};
    REQUIRE_FALSE(path->samples_at(distances.data(), count, points, tangents));
    const double tolerance = static_cast<double>(contract<S>(1e-12)) * static_cast<double>(length);
    for (std::size_t i = 0; i < count; ++i) {
      INFO("distance " << distances[i]);
      const S s = std::isnan(distances[i]) ? S(0) : std::clamp(distances[i], S(0), length);
      const auto [point, tangent] = reference_at(b, reference, static_cast<long double>(s));
      const Sleeper<S>& r = records[i];
      const Eigen::Vector3d got_point(r.position[0], r.position[1], r.position[2]);
      const Eigen::Vector3d got_tangent(r.direction[0], r.direction[1], r.direction[2]);
      // A distance error δ moves the point by δ; the tangent turns by κδ, κ from the reference
      // (|r' × r''| / |r'|³ in long double at the same point).
      CHECK((got_point - point).norm() <= 4 * tolerance);
      const double bend = curvature_at(b, reference, static_cast<long double>(s));
      CHECK((got_tangent - tangent).norm() <= 8 * bend * tolerance + 64 * eps<S>());
      CHECK(r.id == 77u);
      CHECK(r.spare == S(-9));
      // The same values as one sample(s) at a time.
      const auto one = path->sample(distances[i]);
      CHECK(got_point == one.point.template cast<double>());
      CHECK(got_tangent == one.tangent.template cast<double>());
    }
    CHECK(records[count].position[0] == S(-9));  // nothing past the last record
  }
}

TEMPLATE_TEST_CASE("frames at many distances land in the caller's records, in engine axes",
                   "[core][caller_arrays]", float, double) {
  using S = TestType;
  const S radius = 50;
  const auto track = Track<S>::build(MeasuredPath<S>::build(circle<S>(radius, 64)));
  REQUIRE(track);
  std::vector<S> distances;
  for (int i = 0; i < 100; ++i)
    distances.push_back(track->length() * S(i) / S(37));  // several laps: wrapped
  std::vector<S> matrices(distances.size() * 16, S(-3));
  const auto poses = PoseArray<S>::matrices(matrices.data(), distances.size());
  REQUIRE_FALSE(track->frames_at(distances.data(), distances.size(), poses, EngineAxes::unreal()));
  // Float's own bounds: a distance wrapped onto the lap rounds by eps of itself (up to ~850), a
  // direction by that over the radius. (contract's 64000 eps allowed frames 22° off.)
  const bool in_float = std::is_same<S, float>::value;
  const double reach = static_cast<double>(distances.back()) + radius;
  const double position_tolerance =
      in_float ? 8 * static_cast<double>(eps<S>()) * reach : 1e-9 * radius * 50;
  const double tolerance =
      in_float ? position_tolerance / radius + 64 * static_cast<double>(eps<S>()) : 1e-9 * radius;
  for (std::size_t i = 0; i < distances.size(); ++i) {
    // The circle (r cos θ, 0, r sin θ) at θ = s / r, travelled counter-clockwise seen from +Y
    // (support/shapes.hpp); world up. Unreal's axes: world (x, y, z) → (x, z, y), objects face
    // +X, +Z up (the world's Y), +Y right.
    const double theta = static_cast<double>(distances[i]) / radius;
    const Eigen::Vector3d centre(radius * std::cos(theta), 0, radius * std::sin(theta));
    const Eigen::Vector3d forward(-std::sin(theta), 0, std::cos(theta));
    const auto to_unreal = [](const Eigen::Vector3d& v) {
      return Eigen::Vector3d(v.x(), v.z(), v.y());
    };
    const S* m = &matrices[16 * i];
    INFO("distance " << distances[i]);
    CHECK((Eigen::Vector3d(m[12], m[13], m[14]) - to_unreal(centre)).norm() <= position_tolerance);
    CHECK((Eigen::Vector3d(m[0], m[1], m[2]) - to_unreal(forward)).norm() <= tolerance);
    CHECK((Eigen::Vector3d(m[8], m[9], m[10]) - Eigen::Vector3d(0, 0, 1)).norm() <= tolerance);
    // Bit for bit frame_at's frame, one at a time.
    std::vector<S> one(16);
    PoseArray<S>::matrices(one.data(), 1)
        .write(0, track->frame_at(distances[i]).origin, track->frame_at(distances[i]).rotation,
               EngineAxes::unreal());
    CHECK(std::equal(one.begin(), one.end(), m));
  }
}

TEMPLATE_TEST_CASE("tangents alone, on a loop, in an engine's axes", "[core][caller_arrays]", float,
                   double) {
  using S = TestType;
  const S radius = 50;
  const auto path = MeasuredPath<S>::build(circle<S>(radius, 64));
  REQUIRE(path);
  std::vector<S> distances;
  for (int i = -20; i < 80; ++i)
    distances.push_back(path->length() * S(i) / S(23));  // behind the start and laps on: wrapped
  std::vector<double> tangents(3 * distances.size(), -5.0);  // double records from a float path
  REQUIRE_FALSE(path->samples_at(distances.data(), distances.size(), VectorArray<double>{},
                                 VectorArray<double>{tangents.data(), distances.size()},
                                 EngineAxes::unreal()));
  const bool in_float = std::is_same<S, float>::value;
  const double reach = std::abs(static_cast<double>(distances.back())) + radius;
  const double tolerance = in_float ? 8 * static_cast<double>(eps<S>()) * reach / radius +
                                          64 * static_cast<double>(eps<S>())
                                    : 1e-9 * radius;
  for (std::size_t i = 0; i < distances.size(); ++i) {
    // The circle (r cos θ, 0, r sin θ) at θ = s / r (support/shapes.hpp): tangent
    // (−sin θ, 0, cos θ); in Unreal's world (x, y, z) → (x, z, y).
    const double theta = static_cast<double>(distances[i]) / radius;
    const Eigen::Vector3d expected(-std::sin(theta), std::cos(theta), 0);
    INFO("distance " << distances[i]);
    CHECK((Eigen::Vector3d(tangents[3 * i], tangents[3 * i + 1], tangents[3 * i + 2]) - expected)
              .norm() <= tolerance);
  }
}

TEMPLATE_TEST_CASE("many-distance queries name the array that cannot take them",
                   "[core][caller_arrays]", float, double) {
  using S = TestType;
  const auto track = *Track<S>::build(MeasuredPath<S>::build(circle<S>(S(5), 16)));
  const S distances[3] = {S(1), S(2), S(3)};
  S buffer[64];
  std::fill(std::begin(buffer), std::end(buffer), S(-1));
  const auto& path = track.path();
  CHECK(path.samples_at(distances, 3, VectorArray<S>{buffer, 2})->message ==
        "points: 2 points for 3 distances");
  CHECK(path.samples_at(distances, 3, VectorArray<S>{buffer, 3}, VectorArray<S>{nullptr, 3})
            ->message == "tangents: null pointer for 3 tangents");
  CHECK(path.samples_at(distances, 3, VectorArray<S>{buffer, 3, 2 * sizeof(S)})->message ==
        "points: stride " + std::to_string(2 * sizeof(S)) + " bytes is shorter than a point (" +
            std::to_string(3 * sizeof(S)) + " bytes)");
  CHECK(path.samples_at(static_cast<const S*>(nullptr), 3, VectorArray<S>{buffer, 3})->message ==
        "distances: null pointer for 3 distances");
  CHECK(track.frames_at(distances, 3, PoseArray<S>::poses(buffer, 2))->message ==
        "poses: 2 poses for 3 distances");
  CHECK(track.frames_at(static_cast<const S*>(nullptr), 3, PoseArray<S>::poses(buffer, 3))->code ==
        ErrorCode::empty_input);
  // Nothing was written by a call that failed.
  CHECK(std::all_of(std::begin(buffer), std::end(buffer), [](S x) { return x == S(-1); }));
  // No distances, no arrays: nothing to do, and fine.
  CHECK_FALSE(path.samples_at(distances, 0, VectorArray<S>{}));
  CHECK_FALSE(track.frames_at(distances, 0, PoseArray<S>{}));
}
