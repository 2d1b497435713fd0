// Engine outputs: poses written as position + quaternion or as column-major 4×4 matrices, in
// tractrix's axes or an engine's. Expected values are written out per engine from its documented
// conventions (which axis is up, which way objects face), not from EngineAxes' own tables.
#include <cstring>
#include <functional>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/core/caller_arrays.hpp"
#include "tractrix/core/engine_axes.hpp"
#include "tractrix/frame/frame.hpp"

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
}

TEST_CASE("custom engine axes are checked", "[core][caller_arrays]") {
  CHECK(EngineAxes::make({1, 3, -2}, {1, 3, -2}));
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
    CHECK(EngineAxes::make(preset.world, preset.local));
}
