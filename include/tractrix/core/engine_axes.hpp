/// @file
/// `EngineAxes`: tractrix's axes renamed to an engine's (Z up, left-handed, another forward), as a
/// signed permutation of the world axes and one of the object's own axes, applied where poses are
/// written into the engine's memory.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

#include <Eigen/Core>

#include "tractrix/core/expected.hpp"
#include "tractrix/core/vector.hpp"

namespace tractrix {

/// An engine's axes, as two signed permutations of tractrix's. Axes are numbered ±1, ±2, ±3 for
/// ±x, ±y, ±z. world()[i] is the engine's world axis that tractrix's world axis i lands on;
/// local()[i] the engine object axis that a tractrix frame's axis i (side, up, forward) lands on.
/// tractrix is Y up and right-handed, and a frame's side is x = up × forward: the left of the
/// direction of travel. An engine of the other handedness mirrors both maps, so rotations stay
/// rotations. The maps are read-only: custom axes come from make(), which checks them (an axis
/// outside ±1…±3 would write outside a record, mixed handedness turns rotations into
/// reflections).
class EngineAxes {
 public:
  using Map = int[3];  ///< an axis number (±1, ±2, ±3) for each of x, y, z

  /// tractrix's own axes.
  constexpr EngineAxes() noexcept = default;

  /// tractrix's own axes; also glTF's, and raylib's / OpenGL's for models that face +Z.
  static constexpr EngineAxes tractrix() noexcept { return {}; }
  /// Whether these are tractrix's own axes (nothing to remap: writers skip point() and
  /// rotation()).
  constexpr bool is_tractrix() const noexcept {
    return world_[0] == 1 && world_[1] == 2 && world_[2] == 3 && local_[0] == 1 && local_[1] == 2 &&
           local_[2] == 3;
  }
  /// Unity: Y up, left-handed (world x mirrored, as its importers do); objects face +Z, +X right.
  static constexpr EngineAxes unity() noexcept { return {-1, 2, 3, -1, 2, 3}; }
  /// Unreal: Z up, left-handed, world (x, y, z) → (x, z, y); objects face +X, +Y right, +Z up.
  static constexpr EngineAxes unreal() noexcept { return {1, 3, 2, -2, 3, 1}; }
  /// Godot: Y up, right-handed like tractrix; objects face −Z, +X right — Vector3.FORWARD, the
  /// way cameras and look_at() nodes face. Meshes imported from glTF or Blender face +Z with +X
  /// on their left (Vector3.MODEL_FRONT): tractrix()'s axes; use tractrix() for those.
  static constexpr EngineAxes godot() noexcept { return {1, 2, 3, -1, 2, -3}; }
  /// Blender: Z up, right-handed, world (x, y, z) → (x, −z, y) as its glTF importer maps it;
  /// objects face −Y with +Z up, so +X is the object's own left.
  static constexpr EngineAxes blender() noexcept { return {1, 3, -2, 1, 3, -2}; }

  /// Custom axes, checked: each map names every axis once, and both have the same handedness.
  /// Errors: out_of_range for an axis outside ±1…±3 or named twice, or for maps of different
  /// handedness.
  static Expected<EngineAxes> make(const Map& world, const Map& local) {
    if (auto error = check("world", world)) return std::move(*error);
    if (auto error = check("local", local)) return std::move(*error);
    if (handedness(world) != handedness(local))
      return make_error(ErrorCode::out_of_range,
                        "axes: world and local maps differ in handedness (rotations would become "
                        "reflections); mirror both or neither");
    return EngineAxes(world[0], world[1], world[2], local[0], local[1], local[2]);
  }

  /// For each tractrix world axis (x, y, z), the engine world axis it lands on (±1, ±2, ±3).
  const Map& world() const noexcept { return world_; }
  /// For each tractrix frame axis (side, up, forward), the engine object axis it lands on.
  const Map& local() const noexcept { return local_; }

  /// A tractrix world point (or direction) in the engine's world axes.
  template <class S>
  Vector3<S> point(const Vector3<S>& p) const noexcept {
    Vector3<S> out;
    for (int i = 0; i < 3; ++i)
      out[index(world_[i])] = sign<S>(world_[i]) * p[i];
    return out;
  }
  /// An engine world point (or direction) in tractrix's axes: the inverse of point(), for keys
  /// read from the engine (PointArray::axes).
  template <class S>
  Vector3<S> to_tractrix(const Vector3<S>& p) const noexcept {
    Vector3<S> out;
    for (int i = 0; i < 3; ++i)
      out[i] = sign<S>(world_[i]) * p[index(world_[i])];
    return out;
  }
  /// A frame's rotation (columns side, up, forward in tractrix's world) as the engine object's
  /// rotation in the engine's world: W · R · Lᵀ for the signed permutations W and L.
  template <class S>
  Eigen::Matrix<S, 3, 3> rotation(const Eigen::Matrix<S, 3, 3>& r) const noexcept {
    Eigen::Matrix<S, 3, 3> out;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        out(index(world_[i]), index(local_[j])) = sign<S>(world_[i]) * sign<S>(local_[j]) * r(i, j);
    return out;
  }

 private:
  constexpr EngineAxes(int w0, int w1, int w2, int l0, int l1, int l2) noexcept
      : world_{w0, w1, w2}, local_{l0, l1, l2} {}

  int world_[3] = {1, 2, 3};
  int local_[3] = {1, 2, 3};

  static constexpr int index(int axis) noexcept { return (axis < 0 ? -axis : axis) - 1; }
  template <class S>
  static constexpr S sign(int axis) noexcept {
    return axis < 0 ? S(-1) : S(1);
  }
  // +1 or −1: the determinant of the signed permutation.
  static int handedness(const Map& map) noexcept {
    int parity = 1;
    for (int i = 0; i < 3; ++i)
      for (int j = i + 1; j < 3; ++j)
        if (index(map[i]) > index(map[j])) parity = -parity;
    for (int i = 0; i < 3; ++i)
      if (map[i] < 0) parity = -parity;
    return parity;
  }
  [[nodiscard]] static std::optional<Error> check(const char* name, const Map& map) {
    bool seen[3] = {false, false, false};
    for (int i = 0; i < 3; ++i) {
      const int a = map[i];
      if (a == 0 || a < -3 || a > 3 || seen[index(a)])
        return make_error(ErrorCode::out_of_range,
                          std::string(name) + ": axis " + detail::number_text(i) + " is " +
                              detail::number_text(a) +
                              "; each of ±1, ±2, ±3 (±x, ±y, ±z) must appear once");
      seen[index(a)] = true;
    }
    return std::nullopt;
  }
};

}  // namespace tractrix
