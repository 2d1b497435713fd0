"""Engine axes: tractrix's poses renamed to a DCC's or an engine's axes and quaternion order.

tractrix is Y up and right-handed; a frame's columns are side, up, forward, with side the left of
the direction of travel. An engine names those axes differently (Blender: Z up, objects facing
-Y; Unreal: Z up and left-handed) and may store quaternions w first (Blender). EngineAxes holds
the two signed permutations the C++ library's EngineAxes holds (core/engine_axes.hpp) and the
engine's quaternion order, and applies them to numpy arrays: world points, rotations and
quaternions out, world points back in (keys read from the engine).
"""

from __future__ import annotations

from typing import Iterable, Tuple

import numpy as np

from . import _tractrix as _core
from ._checks import _choice, _real

_ORDERS = ("xyzw", "wxyz")


def _axis_map(name: str, value: Iterable[int]) -> Tuple[int, int, int]:
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name}: expected three axis numbers (±1, ±2, ±3), got {value!r}")
    try:
        items = tuple(value)
    except TypeError:
        raise TypeError(f"{name}: expected three axis numbers (±1, ±2, ±3), got "
                        f"{type(value).__name__}") from None
    if len(items) != 3 or not all(isinstance(a, (int, np.integer)) and not isinstance(a, bool)
                                  for a in items):
        raise TypeError(f"{name}: expected three axis numbers (±1, ±2, ±3), got {items!r}")
    return (int(items[0]), int(items[1]), int(items[2]))


def _rotation_quaternion(matrix: np.ndarray) -> np.ndarray:
    """(x, y, z, w) of a rotation whose entries are 0 and ±1 (a proper signed permutation)."""
    m = matrix
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > -0.5:  # trace 3 (identity) or 1 (a half turn about no axis of these) or -1
        w = 0.5 * np.sqrt(1.0 + trace)
        return np.array([(m[2, 1] - m[1, 2]) / (4 * w), (m[0, 2] - m[2, 0]) / (4 * w),
                         (m[1, 0] - m[0, 1]) / (4 * w), w])
    i = int(np.argmax(np.diag(m)))
    j, k = (i + 1) % 3, (i + 2) % 3
    q = np.empty(4)
    q[i] = 0.5 * np.sqrt(1.0 + m[i, i] - m[j, j] - m[k, k])
    q[j] = (m[j, i] + m[i, j]) / (4 * q[i])
    q[k] = (m[k, i] + m[i, k]) / (4 * q[i])
    q[3] = (m[k, j] - m[j, k]) / (4 * q[i])
    return q


def _left(q: np.ndarray) -> np.ndarray:
    """The 4×4 matrix of p ↦ q ⊗ p, quaternions (x, y, z, w)."""
    x, y, z, w = q
    return np.array([[w, -z, y, x], [z, w, -x, y], [-y, x, w, z], [-x, -y, -z, w]])


def _right(q: np.ndarray) -> np.ndarray:
    """The 4×4 matrix of p ↦ p ⊗ q, quaternions (x, y, z, w)."""
    x, y, z, w = q
    return np.array([[w, z, -y, x], [-z, w, x, y], [y, -x, w, z], [-x, -y, -z, w]])


class EngineAxes:
    """An engine's axes: world[i] is the engine's world axis tractrix's world axis i (x, y, z)
    lands on, local[i] the engine object axis a frame's axis i (side, up, forward) lands on, each
    ±1, ±2, ±3 for ±x, ±y, ±z; quaternion_order "xyzw" or "wxyz" (Blender's). Custom maps are
    checked by the library: each axis once, both maps of one handedness (rotations stay
    rotations). The presets are the C++ library's, plus Maya's and Blender's quaternion order.

        axes = tx.EngineAxes.blender()
        path = tx.Path.bezier(axes.to_tractrix(controls))      # Blender's points in
        train = tx.TrainSolver(tx.Track(tx.MeasuredPath(path)), wagons, axes=axes)
        train.solve(heads).body_quaternion                      # w, x, y, z in Blender's world
    """

    __slots__ = ("world", "local", "quaternion_order", "_world_index", "_world_sign",
                 "_local_index", "_local_sign", "_quaternion_map")

    def __init__(self, world: Iterable[int] = (1, 2, 3), local: Iterable[int] = (1, 2, 3),
                 quaternion_order: str = "xyzw") -> None:
        self.world = _axis_map("world", world)
        self.local = _axis_map("local", local)
        _core.check_engine_axes(self.world, self.local)
        self.quaternion_order = _choice("quaternion_order", quaternion_order, _ORDERS)
        self._world_index = np.array([abs(a) - 1 for a in self.world])
        self._world_sign = np.array([1.0 if a > 0 else -1.0 for a in self.world])
        self._local_index = np.array([abs(a) - 1 for a in self.local])
        self._local_sign = np.array([1.0 if a > 0 else -1.0 for a in self.local])
        # R' = W·R·Lᵀ; with both maps improper, (−W)·R·(−L)ᵀ is the same rotation of proper ones.
        w_matrix, l_matrix = np.zeros((3, 3)), np.zeros((3, 3))
        w_matrix[self._world_index, np.arange(3)] = self._world_sign
        l_matrix[self._local_index, np.arange(3)] = self._local_sign
        if np.linalg.det(w_matrix) < 0:
            w_matrix, l_matrix = -w_matrix, -l_matrix
        q_w, q_l = _rotation_quaternion(w_matrix), _rotation_quaternion(l_matrix)
        q_l_inverse = q_l * np.array([-1.0, -1.0, -1.0, 1.0])
        mapping = _left(q_w) @ _right(q_l_inverse)
        # Entries are 0, ±1/2, ±1/√2 or ±1: snapped, so no rounding is added to the poses.
        exact = np.array([0.0, 0.5, np.sqrt(0.5), 1.0])
        magnitude = exact[np.abs(np.abs(mapping)[..., None] - exact).argmin(axis=-1)]
        self._quaternion_map = np.sign(mapping) * magnitude

    @classmethod
    def tractrix(cls) -> "EngineAxes":
        """tractrix's own axes (Y up, right-handed, objects facing +Z); glTF's too."""
        return cls()

    @classmethod
    def maya(cls) -> "EngineAxes":
        """Maya: Y up, right-handed, objects facing +Z with +X on their left: tractrix's axes."""
        return cls()

    @classmethod
    def blender(cls) -> "EngineAxes":
        """Blender: Z up, right-handed, world (x, y, z) → (x, −z, y) as its glTF importer maps it;
        objects face −Y with +Z up (+X their own left); quaternions w, x, y, z."""
        return cls((1, 3, -2), (1, 3, -2), "wxyz")

    @classmethod
    def unity(cls) -> "EngineAxes":
        """Unity: Y up, left-handed (world x mirrored, as its importers do); objects face +Z, +X
        right."""
        return cls((-1, 2, 3), (-1, 2, 3))

    @classmethod
    def unreal(cls) -> "EngineAxes":
        """Unreal: Z up, left-handed, world (x, y, z) → (x, z, y); objects face +X, +Y right,
        +Z up."""
        return cls((1, 3, 2), (-2, 3, 1))

    @classmethod
    def godot(cls) -> "EngineAxes":
        """Godot: Y up, right-handed; objects face −Z, +X right (cameras, look_at() nodes).
        Meshes imported from glTF face +Z: use tractrix() for those."""
        return cls((1, 2, 3), (-1, 2, -3))

    def point(self, points: object) -> np.ndarray:
        """tractrix world points (or directions) (..., 3) in the engine's world axes."""
        p = _real("points", points)
        out = np.empty_like(p)
        out[..., self._world_index] = p * self._world_sign
        return out

    def to_tractrix(self, points: object) -> np.ndarray:
        """Engine world points (..., 3) in tractrix's axes: the inverse of point(), for keys read
        from the engine."""
        p = _real("points", points)
        return p[..., self._world_index] * self._world_sign

    def rotation(self, rotations: object) -> np.ndarray:
        """Frame rotations (..., 3, 3), columns side, up, forward in tractrix's world, as the
        engine object's rotation in the engine's world: W·R·Lᵀ."""
        r = _real("rotations", rotations)
        out = np.empty_like(r)
        out[..., self._world_index[:, None], self._local_index[None, :]] = (
            r * self._world_sign[:, None] * self._local_sign[None, :])
        return out

    def quaternion(self, quaternions: object) -> np.ndarray:
        """Quaternions (..., 4) x, y, z, w of tractrix's frames as the engine's, in its order,
        with w >= 0 (continuous_quaternions makes keys continuous instead)."""
        q = _real("quaternions", quaternions)
        out = q @ self._quaternion_map.T
        out *= np.where(out[..., 3:] < 0, -1.0, 1.0)
        return out[..., [3, 0, 1, 2]] if self.quaternion_order == "wxyz" else out

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, EngineAxes) and self.world == other.world
                and self.local == other.local and self.quaternion_order == other.quaternion_order)

    def __hash__(self) -> int:
        return hash((self.world, self.local, self.quaternion_order))

    def __repr__(self) -> str:
        return (f"EngineAxes(world={self.world}, local={self.local}, "
                f"quaternion_order={self.quaternion_order!r})")
