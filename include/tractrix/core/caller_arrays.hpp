// Engines' own memory: points read from, and poses written to, arrays of the caller's own types
// (float or double, any record size), so no conversion loop sits between an engine and tractrix.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

#include <Eigen/Geometry>

#include "tractrix/core/vector.hpp"

namespace tractrix {

// `count` points, `stride_bytes` apart, each three consecutive T (x, y, z) at the start of its
// record: an engine's `struct V { float x, y, z; }` array is PointArray<float>{&v[0].x, n,
// sizeof(V)}. T is float or double.
template <class T>
struct PointArray {
  static_assert(std::is_floating_point<T>::value, "PointArray: float or double coordinates");
  const T* first = nullptr;
  std::size_t count = 0;
  std::size_t stride_bytes = 3 * sizeof(T);

  // Point i converted to S. Read through memcpy: the record type is the caller's, not T[].
  template <class S>
  Vector3<S> at(std::size_t i) const noexcept {
    T xyz[3];
    std::memcpy(xyz, reinterpret_cast<const char*>(first) + i * stride_bytes, sizeof(xyz));
    return {static_cast<S>(xyz[0]), static_cast<S>(xyz[1]), static_cast<S>(xyz[2])};
  }
  template <class S>
  std::vector<Vector3<S>> to_vector() const {
    std::vector<Vector3<S>> points(count);
    for (std::size_t i = 0; i < count; ++i)
      points[i] = at<S>(i);
    return points;
  }
};

// `count` poses, `stride_bytes` apart, each seven consecutive T at the start of its record:
// position x, y, z, then the rotation as a unit quaternion x, y, z, w with w >= 0 — the layout
// of Unity's (Vector3, Quaternion), Unreal's FTransform translation/rotation and glTF nodes. The
// rotation is tractrix's frame (x side, y up, z forward, right-handed); engines with other axes
// compose their fixed change of basis. Between frames, interpolate along the shorter arc (w >= 0
// fixes the sign of each record, not the hemisphere of its neighbour).
template <class T>
struct PoseArray {
  static_assert(std::is_floating_point<T>::value, "PoseArray: float or double coordinates");
  T* first = nullptr;
  std::size_t count = 0;
  std::size_t stride_bytes = 7 * sizeof(T);

  // Whether the records can be written: memory behind a non-zero count, records at least a pose
  // long (shorter ones would overlap).
  bool writable() const noexcept {
    return (count == 0 || first != nullptr) && stride_bytes >= 7 * sizeof(T);
  }

  template <class S>
  void write(std::size_t i, const Vector3<S>& origin,
             const Eigen::Matrix<S, 3, 3>& rotation) const noexcept {
    Eigen::Quaternion<S> q(rotation);
    if (q.w() < S(0)) q.coeffs() = -q.coeffs();
    const T record[7] = {static_cast<T>(origin.x()), static_cast<T>(origin.y()),
                         static_cast<T>(origin.z()), static_cast<T>(q.x()),
                         static_cast<T>(q.y()),      static_cast<T>(q.z()),
                         static_cast<T>(q.w())};
    std::memcpy(reinterpret_cast<char*>(first) + i * stride_bytes, record, sizeof(record));
  }
};

}  // namespace tractrix
