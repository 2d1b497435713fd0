"""Trains: wagons chained along a track, a route or an alignment."""

from __future__ import annotations

import enum
from typing import Dict, Iterable, Optional, Tuple, Union

import numpy as np

from . import _tractrix as _core
from ._checks import _real, _flag, _names, _Result, _values, _choice, _Immutable, ArrayLike
from .axes import EngineAxes
from .quaternion import continuous_quaternions
from .track import Track
from .network import Route
from .alignment import Alignment


class WagonStatus(enum.IntEnum):
    """Where a wagon stands (TrainPoses.status): on the track, held at an end of open track
    (wrap "clamp"), or compressed there (its bogies closer than bogie_distance)."""

    ON_TRACK = 0
    HELD_AT_END = 1
    COMPRESSED = 2


TRAIN_PARTS = (
    "front_position", "front_rotation", "front_quaternion",
    "rear_position", "rear_rotation", "rear_quaternion",
    "body_position", "body_rotation", "body_quaternion",
    "body_midpoint", "coupler", "front_distance", "rear_distance", "lap", "status",
    "front_piece", "front_piece_distance", "rear_piece", "rear_piece_distance",
)
_INTEGER_PARTS = {"lap": np.int64, "status": np.int8, "front_piece": np.int64,
                  "rear_piece": np.int64}
_PART_SHAPES = {"position": (3,), "rotation": (3, 3), "quaternion": (4,), "midpoint": (3,),
                "coupler": (3,)}


class TrainPoses(_Result):
    """Every wagon's poses from TrainSolver.solve, each an array with leading shape
    heads.shape + (wagons,):

    front_/rear_position, _rotation, _quaternion: the bogies' frames (forward = track tangent);
    body_position (the front bogie, the TrainDriver plugin's pivot), body_rotation,
    body_quaternion: the body (forward = front − rear); body_midpoint: halfway between the bogies,
    where most meshes are modelled around; coupler: front_overhang ahead of the front bogie;
    front_distance, rear_distance: along the track; lap (int64): whole laps of the front bogie on
    a loop; status (int8): a WagonStatus; front_piece, rear_piece (int64) and
    front_piece_distance, rear_piece_distance: the network piece under each bogie and the distance
    along that piece in its own direction (piece 0 and the track distance on a Track). Parts not
    asked for are None.
    """

    __slots__ = TRAIN_PARTS

    def __init__(self, parts: dict) -> None:
        for name in TRAIN_PARTS:
            setattr(self, name, parts.get(name))


class TrainSolver(_Immutable):
    """Wagons chained along a track (a Track, or a network's Route).

    wagons: (N, 2) or (N, 3) rows of length (front bogie to the next wagon's front bogie),
    bogie_distance (front to rear bogie) and optionally front_overhang (coupler ahead of the front
    bogie). spacing: "chord" (rigid bodies: straight-line bogie distances) or "arc" (distances
    along the track, the TrainDriver plugin's way). wrap: "automatic" (circular on a loop, clamp
    on open track), "circular", "clamp" or "extend". axes: an EngineAxes the poses come out in
    (positions, rotations and quaternions in the engine's world, axes and quaternion order; the
    track itself stays in tractrix's axes: build it from axes.to_tractrix(keys)).
    """

    __slots__ = ("_core", "_track", "_axes")

    def __init__(self, track: Union[Track, "Route", "Alignment"], wagons: ArrayLike,
                 spacing: str = "chord", wrap: str = "automatic", *,
                 axes: Optional[EngineAxes] = None) -> None:
        if axes is not None and not isinstance(axes, EngineAxes):
            raise TypeError(f"axes: expected a tractrix.EngineAxes, got {type(axes).__name__}")
        if not isinstance(track, (Track, Route, Alignment)):
            raise TypeError(
                f"track: expected a tractrix.Track, Route or Alignment, got {type(track).__name__}")
        rows = _real("wagons", wagons)
        if rows.ndim != 2 or rows.shape[1] not in (2, 3):
            raise ValueError(
                "wagons: expected (N, 2) rows of length, bogie_distance or (N, 3) with "
                f"front_overhang, got shape {rows.shape}")
        if rows.shape[1] == 2:
            rows = np.concatenate([rows, np.zeros((rows.shape[0], 1))], axis=1)
        _choice("spacing", spacing, ("chord", "arc"))
        _choice("wrap", wrap, ("automatic", "circular", "clamp", "extend"))
        arc = spacing == "arc"
        self._core: Union[_core.TrainSolver, _core.RouteTrainSolver, _core.AlignmentTrainSolver]
        if isinstance(track, Route):
            self._core = _core.RouteTrainSolver.build(track._core, rows, arc, wrap)
        elif isinstance(track, Alignment):
            self._core = _core.AlignmentTrainSolver.build(track._core, rows, arc, wrap)
        else:
            self._core = _core.TrainSolver.build(track._core, rows, arc, wrap)
        self._track = track
        self._axes = None if axes is None or axes == EngineAxes() else axes

    @property
    def wagon_count(self) -> int:
        return self._core.wagon_count

    @property
    def track(self) -> Union[Track, "Route", "Alignment"]:
        return self._track

    @property
    def axes(self) -> EngineAxes:
        return self._axes if self._axes is not None else EngineAxes()

    def solve(self, head: ArrayLike, parts: Iterable[str] = TRAIN_PARTS,
              out: Optional[TrainPoses] = None, *, continuous: bool = False,
              after: Optional[TrainPoses] = None) -> TrainPoses:
        """Every wagon's poses with the front bogie of wagon 0 at distance `head` along the track:
        a scalar gives arrays of (wagons, …), an array of heads (one per frame, say) arrays of
        head.shape + (wagons, …), in one call. `parts` picks the outputs (fewer is faster); `out`,
        the TrainPoses of an earlier solve of the same shape, has those parts written over
        instead of new arrays (a per-frame loop then allocates nothing; parts not asked for keep
        what they held) and is returned. Stateless: the same head always gives the same poses.

        Quaternions come with w >= 0, so a wagon's keys can change sign from frame to frame:
        continuous=True puts each in the hemisphere of the one before along the heads' first axis
        (frames); `after`, the poses of the frame before (a live loop), does the same starting
        from those — keys an animation system interpolates without flips."""
        _flag("continuous", continuous)
        if after is not None and not isinstance(after, TrainPoses):
            raise TypeError(f"after: expected the TrainPoses of the frame before, got "
                            f"{type(after).__name__}")
        flat, shape = _values("head", head)
        if out is not None:
            flat = flat.copy()  # the heads may live in an array `out` is about to overwrite
        n = self.wagon_count
        arrays = {}
        names = _names("parts", parts, TRAIN_PARTS)
        # The keys before, read now: `out` may be `after`, about to be overwritten.
        before = {name: np.array(getattr(after, name)) for name in names
                  if after is not None and name.endswith("quaternion")}
        for name, keys in before.items():
            if keys.shape != shape[1:] + (n, 4):
                raise ValueError(f"after: {name} is {keys.shape}, not the shape of one frame's "
                                 f"keys {shape[1:] + (n, 4)}")
        for name in names:
            dtype = _INTEGER_PARTS.get(name, np.float64)
            wanted = shape + (n,) + _PART_SHAPES.get(name.rsplit("_", 1)[-1], ())
            if out is None:
                arrays[name] = np.empty(wanted, dtype=dtype)
                continue
            given = getattr(out, name, None)
            if not (isinstance(given, np.ndarray) and given.shape == wanted
                    and given.dtype == dtype and given.flags.c_contiguous
                    and given.flags.writeable):
                raise ValueError(
                    f"out: {name} must be a writeable C-contiguous {np.dtype(dtype)} array of "
                    f"shape {wanted}, got "
                    + (f"{given.dtype} {given.shape}" if isinstance(given, np.ndarray)
                       else type(given).__name__))
            arrays[name] = given
        if arrays:
            self._core.solve(flat, {name: a.reshape((flat.size * n,) + a.shape[len(shape) + 1:])
                                    for name, a in arrays.items()})
        self._engine_poses(arrays, shape, n, continuous, before)
        if out is not None:
            return out
        return TrainPoses(arrays)

    def _engine_poses(self, arrays: Dict[str, np.ndarray], shape: Tuple[int, ...], n: int,
                      continuous: bool, before: Dict[str, np.ndarray]) -> None:
        """The poses in the engine's axes, and quaternion keys made continuous, in place."""
        for name, a in arrays.items():
            kind = name.rsplit("_", 1)[-1]
            if self._axes is not None and kind in ("position", "midpoint", "coupler"):
                a[...] = self._axes.point(a)
            elif self._axes is not None and kind == "rotation":
                a[...] = self._axes.rotation(a)
            elif kind == "quaternion":
                if self._axes is not None:
                    a[...] = self._axes.quaternion(a)
                if name in before:
                    keys = a if shape else a[None]
                    keys[...] = continuous_quaternions(keys, 0, before[name])
                elif continuous and shape:
                    a[...] = continuous_quaternions(a, 0)

    def __repr__(self) -> str:
        return f"TrainSolver({self.wagon_count} wagons on {self._track!r})"
