"""Tracks: a measured path with an up source, and the frames along it."""

from __future__ import annotations

from typing import Callable, Optional, Tuple

import numpy as np

from . import _tractrix
from . import _tractrix as _core
from ._checks import _flag, _Result, _vector, _values, _keys, _pair, _choice, _wrap, ArrayLike
from .curve import _Measured, MeasuredPath


class Frames(_Result):
    """Frames along a track: `position` (..., 3), `rotation` (..., 3, 3) with columns side, up,
    forward, and the same rotation as `quaternion` (..., 4) x, y, z, w with w >= 0."""

    __slots__ = ("position", "rotation", "quaternion")

    def __init__(self, position: np.ndarray, rotation: np.ndarray, quaternion: np.ndarray) -> None:
        self.position, self.rotation, self.quaternion = position, rotation, quaternion


def _frames_at(frames_at: Callable[..., None], s: ArrayLike) -> Frames:
    """Frames at s (a scalar or any shape) from a compiled frames_at(s, positions, rotations,
    quaternions): a Track's, or an Alignment's."""
    flat, shape = _values("s", s)
    position, rotation = np.empty(shape + (3,)), np.empty(shape + (3, 3))
    quaternion = np.empty(shape + (4,))
    frames_at(flat, position, rotation, quaternion)
    return Frames(position, rotation, quaternion)


class Track(_Measured):
    """A measured path with an up source, which banks the frames along it.

    up: the world up (default +Y); with rotation_minimizing=True the up at the start of
    rotation-minimizing frames instead. rail: a MeasuredPath beside the track (up points from the
    track towards it), matched by "normalized_arc_length" or "closest_point". roll: (distances,
    angles) keys of a roll about the tangent on top (radians, C¹ between keys; repeating every lap
    on a closed track).
    """

    __slots__ = ("_core",)
    _core: _tractrix.Track

    def __init__(self, path: MeasuredPath, up: ArrayLike = (0.0, 1.0, 0.0), *,
                 rail: Optional[MeasuredPath] = None, rail_match: str = "normalized_arc_length",
                 rotation_minimizing: bool = False,
                 roll: Optional[Tuple[ArrayLike, ArrayLike]] = None) -> None:
        if not isinstance(path, MeasuredPath):
            raise TypeError(f"path: expected a tractrix.MeasuredPath, got {type(path).__name__}")
        if rail is not None and not isinstance(rail, MeasuredPath):
            raise TypeError(f"rail: expected a tractrix.MeasuredPath, got {type(rail).__name__}")
        rotation_minimizing = _flag("rotation_minimizing", rotation_minimizing)
        if rail is not None and rotation_minimizing:
            raise ValueError("up: give a rail or rotation_minimizing, not both")
        _choice("rail_match", rail_match, ("normalized_arc_length", "closest_point"))
        kind = "rail" if rail is not None else (
            "rotation_minimizing" if rotation_minimizing else "world")
        roll_distances: Optional[np.ndarray] = None
        roll_angles: Optional[np.ndarray] = None
        if roll is not None:
            distances, angles = _pair("roll", roll, "(distances, angles)")
            roll_distances = _keys("roll distances", distances)
            roll_angles = _keys("roll angles", angles)
        self._core = _core.Track.build(path._core, kind, _vector("up", up),
                                       rail._core if rail is not None else None,
                                       rail_match == "closest_point", roll_distances, roll_angles)

    @property
    def path(self) -> MeasuredPath:
        return _wrap(MeasuredPath, self._core.path)

    def frame_at(self, s: ArrayLike) -> Frames:
        """Frames at distances s (forward = the tangent, up from the up source)."""
        return _frames_at(self._core.frames_at, s)

    def __repr__(self) -> str:
        return f"Track(length={self.length:.6g}, {'closed' if self.closed else 'open'})"
