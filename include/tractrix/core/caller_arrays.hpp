/// @file
/// Engines' own memory: points read from, and poses written to, arrays of the caller's own types
/// (float or double, any record size), so no conversion loop sits between an engine and tractrix.
#pragma once

#include <cstddef>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <Eigen/Geometry>

#include "tractrix/core/engine_axes.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/vector.hpp"

namespace tractrix {

namespace detail {
// Whether `count` records `stride` bytes apart span more than any object can (a stride that was
// negative before it became a size_t: a pointer walked past the address space).
inline bool spans_past_memory(std::size_t count, std::size_t stride) noexcept {
  constexpr std::size_t largest =
      static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
  return count > 1 && stride > largest / (count - 1);
}
}  // namespace detail

/// `count` points, `stride_bytes` apart, each three consecutive T (x, y, z) at the start of its
/// record: an engine's `struct V { float x, y, z; }` array is PointArray<float>{&v[0].x, n,
/// sizeof(V)}. T is float or double. `axes` are the engine's the points are in (the same as the
/// outputs' WagonPoseArrays::axes): they are read into tractrix's, so keys read from a Unity or
/// Unreal scene and poses written back land where the engine drew the keys.
template <class T>
struct PointArray {
  static_assert(std::is_floating_point<T>::value, "PointArray: float or double coordinates");
  const T* first = nullptr;                  ///< x of the first point (null only with count 0)
  std::size_t count = 0;                     ///< how many points
  std::size_t stride_bytes = 3 * sizeof(T);  ///< bytes from one record to the next (≥ 3 T)
  EngineAxes axes = EngineAxes::tractrix();  ///< the engine's axes the points are given in

  /// Bytes a point takes: 3 T (a record may be longer).
  std::size_t record_bytes() const noexcept { return 3 * sizeof(T); }
  /// Point i (i < count, unchecked) converted to S, in tractrix's axes.
  template <class S>
  Vector3<S> at(std::size_t i) const noexcept {
    // Read through memcpy: the record type is the caller's, not T[].
    T xyz[3];
    std::memcpy(xyz, reinterpret_cast<const char*>(first) + i * stride_bytes, sizeof(xyz));
    const Vector3<S> p(static_cast<S>(xyz[0]), static_cast<S>(xyz[1]), static_cast<S>(xyz[2]));
    return axes.is_tractrix() ? p : axes.to_tractrix(p);
  }
  /// All `count` points, converted to S, in tractrix's axes.
  template <class S>
  std::vector<Vector3<S>> to_vector() const {
    std::vector<Vector3<S>> points(count);
    for (std::size_t i = 0; i < count; ++i)
      points[i] = at<S>(i);
    return points;
  }
};

/// `count` vectors written to the caller's records, `stride_bytes` apart, each three consecutive T
/// (x, y, z) at the start of its record: PointArray's layout, for output (points, tangents).
template <class T>
struct VectorArray {
  static_assert(std::is_floating_point<T>::value, "VectorArray: float or double coordinates");
  T* first = nullptr;                        ///< x of the first record (null only with count 0)
  std::size_t count = 0;                     ///< how many records
  std::size_t stride_bytes = 3 * sizeof(T);  ///< bytes from one record to the next (≥ 3 T)

  /// Bytes a vector takes: 3 T (a record may be longer).
  std::size_t record_bytes() const noexcept { return 3 * sizeof(T); }
  /// Writes `v` as record i (i < count, unchecked), in the engine's world axes (a signed
  /// permutation: points and directions alike).
  template <class S>
  void write(std::size_t i, const Vector3<S>& v,
             const EngineAxes& axes = EngineAxes::tractrix()) const noexcept {
    const Vector3<S> w = axes.point(v);
    const T xyz[3] = {static_cast<T>(w.x()), static_cast<T>(w.y()), static_cast<T>(w.z())};
    std::memcpy(reinterpret_cast<char*>(first) + i * stride_bytes, xyz, sizeof(xyz));
  }
};

/// How a pose is laid out in an engine's record. Both matrix layouts hold the same 4×4 matrix M
/// that maps a wagon's local point v (a column) to the world, M·v: rotation columns side, up,
/// forward, then the position, last row 0 0 0 1; they differ only in the order of its 16 numbers,
/// so the way to tell which one an engine takes is where its translation sits in memory.
enum class PoseLayout {
  /// Position x, y, z, then the rotation as a unit quaternion x, y, z, w with w >= 0: 7 T, 28
  /// bytes in float — the layout of Unity's (Vector3, Quaternion) and glTF nodes. Not Unreal's
  /// FTransform (rotation first, then translation and scale, each padded to four) nor Godot's
  /// Transform3D (a 3×3 basis, then the origin): write those from a record of this layout.
  /// Between frames, interpolate along the shorter arc (w >= 0 fixes the sign of each record, not
  /// the hemisphere of its neighbour).
  position_quaternion,
  /// M column by column (element (row r, column c) at [4c + r]): the translation at [12], [13],
  /// [14]. What OpenGL's and GLSL's mat4, glm::mat4, Eigen's default Matrix4f, bgfx and
  /// Vulkan/OpenGL instance attributes take; row-vector APIs that store the translation in the
  /// fourth row — DirectXMath's XMFLOAT4X4, Unreal's FMatrix — hold the same 16 numbers in the
  /// same order.
  matrix_column_major,
  /// M row by row (element (row r, column c) at [4r + c]): the translation at [3], [7], [11].
  /// What raylib's `Matrix` takes (its fields are declared row by row: m0, m4, m8, m12 first, so
  /// the translation m12, m13, m14 sits at [3], [7], [11]), as do a C-order numpy array used as
  /// `M @ v`, an Eigen RowMajor matrix, and an HLSL `row_major float4x4` used as mul(M, v).
  matrix_row_major,
};

/// `count` poses, `stride_bytes` apart, each at the start of its record in `layout`, so poses can
/// land inside an engine's own instance structs. Rotations are written in the engine's axes
/// (EngineAxes: tractrix's own by default).
template <class T>
struct PoseArray {
  static_assert(std::is_floating_point<T>::value, "PoseArray: float or double coordinates");
  T* first = nullptr;                        ///< the first record (null only with count 0)
  std::size_t count = 0;                     ///< how many records
  std::size_t stride_bytes = 7 * sizeof(T);  ///< bytes from one record to the next
  PoseLayout layout = PoseLayout::position_quaternion;  ///< what each record holds

  /// Records of position + quaternion (PoseLayout::position_quaternion); stride 0 means packed
  /// (7 T).
  static PoseArray poses(T* first, std::size_t count, std::size_t stride_bytes = 0) noexcept {
    return {first, count, stride_bytes ? stride_bytes : 7 * sizeof(T),
            PoseLayout::position_quaternion};
  }
  /// Records of column-major 4×4 matrices (PoseLayout::matrix_column_major: OpenGL, glm, bgfx,
  /// DirectXMath); stride 0 means packed (16 T).
  static PoseArray matrices(T* first, std::size_t count, std::size_t stride_bytes = 0) noexcept {
    return {first, count, stride_bytes ? stride_bytes : 16 * sizeof(T),
            PoseLayout::matrix_column_major};
  }
  /// Records of row-major 4×4 matrices (PoseLayout::matrix_row_major: raylib's `Matrix`, numpy);
  /// stride 0 means packed (16 T).
  static PoseArray matrices_row_major(T* first, std::size_t count,
                                      std::size_t stride_bytes = 0) noexcept {
    return {first, count, stride_bytes ? stride_bytes : 16 * sizeof(T),
            PoseLayout::matrix_row_major};
  }

  /// Bytes one pose takes in this layout: 7 T or 16 T.
  std::size_t record_bytes() const noexcept {
    return (layout == PoseLayout::position_quaternion ? 7 : 16) * sizeof(T);
  }
  /// Whether the records can be written: memory behind a non-zero count, records at least a pose
  /// long (shorter ones would overlap), and not spanning past the address space.
  bool writable() const noexcept {
    return (count == 0 || first != nullptr) && stride_bytes >= record_bytes() &&
           !detail::spans_past_memory(count, stride_bytes);
  }

  /// Writes pose i (i < count, unchecked) in `layout`: `origin` and the frame `rotation` (columns
  /// side, up, forward), both in tractrix's world, remapped to the engine's `axes`.
  template <class S>
  void write(std::size_t i, const Vector3<S>& origin, const Eigen::Matrix<S, 3, 3>& rotation,
             const EngineAxes& axes = EngineAxes::tractrix()) const noexcept {
    // tractrix's own axes skip the remap: its scattered stores cost more than the record itself.
    if (axes.is_tractrix())
      write_record(i, origin, rotation);
    else
      write_record(i, axes.point(origin), axes.rotation(rotation));
  }

 private:
  template <class S>
  void write_record(std::size_t i, const Vector3<S>& p,
                    const Eigen::Matrix<S, 3, 3>& r) const noexcept {
    char* record = reinterpret_cast<char*>(first) + i * stride_bytes;
    if (layout != PoseLayout::position_quaternion) {
      const auto t = [](S v) noexcept { return static_cast<T>(v); };
      // The same matrix in two orders: element (row, column) at [4 column + row] or [4 row +
      // column].
      const T columns[16] = {t(r(0, 0)), t(r(1, 0)), t(r(2, 0)), T(0),   //
                             t(r(0, 1)), t(r(1, 1)), t(r(2, 1)), T(0),   //
                             t(r(0, 2)), t(r(1, 2)), t(r(2, 2)), T(0),   //
                             t(p.x()),   t(p.y()),   t(p.z()),   T(1)};  //
      const T rows[16] = {t(r(0, 0)), t(r(0, 1)), t(r(0, 2)), t(p.x()),  //
                          t(r(1, 0)), t(r(1, 1)), t(r(1, 2)), t(p.y()),  //
                          t(r(2, 0)), t(r(2, 1)), t(r(2, 2)), t(p.z()),  //
                          T(0),       T(0),       T(0),       T(1)};     //
      std::memcpy(record, layout == PoseLayout::matrix_row_major ? rows : columns, sizeof(rows));
      return;
    }
    Eigen::Quaternion<S> q(r);
    if (q.w() < S(0)) q.coeffs() = -q.coeffs();
    const T pose[7] = {static_cast<T>(p.x()), static_cast<T>(p.y()), static_cast<T>(p.z()),
                       static_cast<T>(q.x()), static_cast<T>(q.y()), static_cast<T>(q.z()),
                       static_cast<T>(q.w())};
    std::memcpy(record, pose, sizeof(pose));
  }
};

namespace detail {

// Why a caller's array (PointArray, VectorArray, PoseArray) named `name`, of records that each
// hold a `what`, cannot be used: no memory behind a non-zero count, a stride shorter than a
// record (records would overlap), or records spanning past memory. An empty array (count 0) is
// a part not wanted, and fine.
template <class Array>
[[nodiscard]] std::optional<Error> array_error(const std::string& name, const Array& array,
                                               const std::string& what) {
  if (array.count == 0) return std::nullopt;
  if (!array.first)
    return make_error(
        ErrorCode::empty_input,
        name + ": null pointer for " + detail::number_text(array.count) + " " + what + "s");
  if (array.stride_bytes < array.record_bytes())
    return make_error(ErrorCode::out_of_range,
                      name + ": stride " + detail::number_text(array.stride_bytes) +
                          " bytes is shorter than a " + what + " (" +
                          detail::number_text(array.record_bytes()) + " bytes)");
  if (spans_past_memory(array.count, array.stride_bytes))
    return make_error(ErrorCode::out_of_range,
                      name + ": stride " + detail::number_text(array.stride_bytes) + " bytes for " +
                          detail::number_text(array.count) + " " + what +
                          "s spans past memory (a negative stride?)");
  return std::nullopt;
}

// Why an output array cannot take `needed` records: array_error's reasons, or too few records.
template <class Array>
[[nodiscard]] std::optional<Error> output_error(const std::string& name, const Array& array,
                                                std::size_t needed, const std::string& what) {
  if (auto error = array_error(name, array, what)) return error;
  if (array.count > 0 && array.count < needed)
    return make_error(ErrorCode::out_of_range, name + ": " + detail::number_text(array.count) +
                                                   " " + what + "s for " +
                                                   detail::number_text(needed) + " distances");
  return std::nullopt;
}

// Distances a many-distance query cannot read: none behind a non-zero count.
template <class S>
[[nodiscard]] std::optional<Error> distances_error(const S* distances, std::size_t count) {
  if (count > 0 && !distances)
    return make_error(ErrorCode::empty_input,
                      "distances: null pointer for " + detail::number_text(count) + " distances");
  return std::nullopt;
}

}  // namespace detail

}  // namespace tractrix
