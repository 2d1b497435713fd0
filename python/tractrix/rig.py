"""Rig helpers: the cone pose reader and stretchy IK."""

from __future__ import annotations

import math
from typing import Optional, Tuple

import numpy as np

from . import _tractrix as _core
from ._checks import (_real, _flag, _Result, _values, _keys, _vectors, _matrices, _pair,
                      _scalar, _choice, _Immutable, ArrayLike)


_AXES = ("x", "y", "z", "-x", "-y", "-z")
_FALLOFFS = ("linear", "smoothstep", "smootherstep", "ease_in", "ease_out", "gaussian")


def _cone(name: str, value: Optional[Tuple[float, float]]) -> Optional[Tuple[float, float]]:
    if value is None:
        return None
    inner, outer = _pair(name, value, "(inner, outer) half-angles in radians")
    return (_scalar(name + " inner", inner), _scalar(name + " outer", outer))


class PoseReader(_Immutable):
    """A cone pose reader (the 3ds Max script's, with falloffs, elliptical cones and a twist
    reader): 1 while the target's axis lies within the inner cone around the reader's z axis, 0
    beyond the outer one.

    cone: (inner, outer) half-angles in radians (towards the reader's x axis when elliptical_y,
    the half-angles towards its y axis, is given). target_axis: "x", "y", "z", "-x", "-y", "-z".
    falloff: "linear", "smoothstep", "smootherstep", "ease_in", "ease_out", "gaussian".
    twist: (inner, outer) range of |twist| about the reader's z, multiplied in.
    """

    __slots__ = ("_core",)

    def __init__(self, cone: Tuple[float, float] = (0.2, 1.0), falloff: str = "linear",
                 target_axis: str = "z", elliptical_y: Optional[Tuple[float, float]] = None,
                 reversed: bool = False, twist: Optional[Tuple[float, float]] = None) -> None:
        inner, outer = _cone("cone", cone)  # type: ignore[misc]
        self._core = _core.PoseReader.build(
            _AXES.index(_choice("target_axis", target_axis, _AXES)), inner, outer,
            _cone("elliptical_y", elliptical_y),
            _FALLOFFS.index(_choice("falloff", falloff, _FALLOFFS)), _flag("reversed", reversed),
            _cone("twist", twist))

    def weight(self, reader: ArrayLike, target: ArrayLike) -> np.ndarray:
        """Weights for reader and target orientations ((3, 3) or (..., 3, 3), local axes as
        columns; scale is ignored), broadcast together: one reader may serve many targets, many
        readers one target."""
        readers, reader_shape = _matrices("reader", reader)
        targets, target_shape = _matrices("target", target)
        try:
            shape = np.broadcast_shapes(reader_shape, target_shape)
        except ValueError:
            raise ValueError(f"reader, target: shapes {reader_shape} and {target_shape} do not "
                             "broadcast") from None
        if readers.shape[0] not in (1, math.prod(shape)):
            readers = np.ascontiguousarray(np.broadcast_to(readers.reshape(reader_shape + (3, 3)),
                                                           shape + (3, 3))).reshape(-1, 3, 3)
        if targets.shape[0] not in (1, math.prod(shape)):
            targets = np.ascontiguousarray(np.broadcast_to(targets.reshape(target_shape + (3, 3)),
                                                           shape + (3, 3))).reshape(-1, 3, 3)
        out = np.empty(math.prod(shape))
        if out.size:  # an empty broadcast has nothing to weigh (the core wants counts of 1 or n)
            self._core.weights(readers, targets, out)
        return out.reshape(shape)


class TwoBonePoses(_Result):
    """StretchChain.two_bone's answer: `joints` (..., 3, 3) rows root, knee, end;
    `upper_rotation`, `lower_rotation` (..., 3, 3), z along the bone, x the knee's hinge (the
    bend plane's normal, the same for both bones) and y = z × x, on the pole's side while the bone
    points ahead along root → goal;
    `upper_length`, `lower_length`, stretched, in world units."""

    __slots__ = ("joints", "upper_rotation", "lower_rotation", "upper_length", "lower_length")

    def __init__(self, joints: np.ndarray, rotations: np.ndarray, lengths: np.ndarray) -> None:
        self.joints = joints
        self.upper_rotation, self.lower_rotation = rotations[..., 0, :, :], rotations[..., 1, :, :]
        self.upper_length, self.lower_length = lengths[..., 0], lengths[..., 1]


class StretchChain(_Immutable):
    """Stretchy IK under a global scale: bone lengths for a root–goal distance, and an analytic
    two-bone solve with a pole.

    split: "equal" (every bone gains the same) or "proportional"; max_stretch: longest chain as a
    multiple of its rest length; stretch_start: stretching begins at this fraction of full reach;
    squash: compress the bones when the goal is nearer than the rest length; soft: the soft-IK
    zone as a fraction of the rest length (0: off).
    """

    __slots__ = ("_core",)

    def __init__(self, rest_lengths: ArrayLike, split: str = "equal",
                 max_stretch: float = math.inf, stretch_start: float = 1.0, squash: bool = False,
                 soft: float = 0.0) -> None:
        _choice("split", split, ("equal", "proportional"))
        self._core = _core.StretchChain.build(
            _keys("rest_lengths", rest_lengths), split == "proportional",
            _scalar("max_stretch", max_stretch), _scalar("stretch_start", stretch_start),
            _flag("squash", squash), _scalar("soft", soft))

    @property
    def bone_count(self) -> int:
        return self._core.bone_count

    @property
    def rest_length(self) -> float:
        return self._core.rest_length

    def lengths(self, distance: ArrayLike, scale: float = 1.0) -> np.ndarray:
        """Bone lengths (rest space) for root–goal distances in world units: distance.shape +
        (bones,)."""
        flat, shape = _values("distance", distance)
        out = np.empty((flat.size, self.bone_count))
        self._core.lengths(flat, _scalar("scale", scale), out)
        return out.reshape(shape + (self.bone_count,))

    def two_bone(self, root: ArrayLike, goal: ArrayLike, pole: ArrayLike,
                 scale: float = 1.0) -> TwoBonePoses:
        """Solves the chain as two bones (its first, and the others as one) for (3,) or
        (..., 3) root, goal and pole positions (broadcast together)."""
        arrays = [_vectors(name, value)[0].reshape(_real(name, value).shape)
                  for name, value in (("root", root), ("goal", goal), ("pole", pole))]
        try:
            root_b, goal_b, pole_b = np.broadcast_arrays(*arrays)
        except ValueError:
            raise ValueError("root, goal, pole: shapes "
                             f"{', '.join(str(a.shape) for a in arrays)} do not broadcast") from None
        shape = root_b.shape[:-1]
        flat = [np.ascontiguousarray(a.reshape(-1, 3)) for a in (root_b, goal_b, pole_b)]
        n = flat[0].shape[0]
        joints, rotations, lengths = np.empty((n, 3, 3)), np.empty((n, 2, 3, 3)), np.empty((n, 2))
        self._core.two_bone(flat[0], flat[1], flat[2], _scalar("scale", scale), joints, rotations,
                            lengths)
        return TwoBonePoses(joints.reshape(shape + (3, 3)), rotations.reshape(shape + (2, 3, 3)),
                            lengths.reshape(shape + (2,)))
