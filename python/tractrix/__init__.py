"""tractrix for Python: curves, exact arc length, moving frames and trains on tracks.

The same C++ headers as the library (double precision), vectorized over numpy arrays: every
per-frame query takes a scalar or an array of distances (or times) and returns arrays, and a train
solve returns every wagon's poses in one call. Inputs may be float32 or float64 (or integers) and
any memory layout; they are read as float64. Outputs are float64.

Conventions (the C++ library's):
  * rotation matrices are (3, 3) with the local axes as columns: side, up, forward;
  * quaternions are (x, y, z, w) with w >= 0;
  * distances are along the curve from its start; closed curves wrap them.

Building anything from user data raises ValueError with the library's message (which names the
field and the value); wrong dtypes raise TypeError and wrong shapes ValueError, naming the argument.

    import numpy as np, tractrix as tx
    keys = [(0, 0, 0), (80, 0, 10), (80, 5, 60), (0, 0, 50)]
    track = tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(keys, closed=True)))
    train = tx.TrainSolver(track, [(18, 12), (14, 9), (14, 9)])
    poses = train.solve(np.linspace(0, track.length, 240))   # 240 frames × 3 wagons
    poses.body_quaternion.shape                               # (240, 3, 4)
"""

from __future__ import annotations

import enum
import math
import operator
from typing import Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _tractrix as _core

__version__: str = _core.__version__  # include/tractrix/version.hpp

__all__ = [
    "Path",
    "MeasuredPath",
    "Track",
    "Frames",
    "ClosestPoints",
    "TrainSolver",
    "Network",
    "NetworkPoints",
    "SwitchSettings",
    "Route",
    "TrainPoses",
    "TRAIN_PARTS",
    "WagonStatus",
    "TimeProfile",
    "ProfileSamples",
    "SpeedLimits",
    "SpeedPlan",
    "PlanSamples",
    "CameraRig",
    "CameraShots",
    "PoseReader",
    "StretchChain",
    "TwoBonePoses",
    "HorizontalSegment",
    "VerticalSegment",
    "CantSegment",
    "Alignment",
    "AlignmentPoints",
    "read_landxml",
]

ArrayLike = Union[float, Sequence[float], Sequence[Sequence[float]], np.ndarray]


# ---------------------------------------------------------------------------------------------
# Argument checks: every array reaching the compiled core is C-contiguous float64 of the shape
# it expects. Anything else is converted (float32, integers, strided views) or rejected here,
# with the argument's name.


def _real(name: str, value: object) -> np.ndarray:
    try:
        array = np.asarray(value)
    except Exception as error:  # ragged lists and the like
        raise ValueError(f"{name}: not an array of numbers ({error})") from None
    kind = array.dtype.kind
    if kind not in "fiu" or (kind == "f" and array.dtype.itemsize > 8):
        raise TypeError(
            f"{name}: expected float32 or float64 numbers, got dtype {array.dtype}"
            + (" (convert with .astype(np.float64) if the precision loss is fine)"
               if kind == "f" else ""))
    return np.asarray(array, dtype=np.float64, order="C")


def _points(name: str, value: object) -> np.ndarray:
    """An (N, 3) array of points (how many: the library's check)."""
    array = _real(name, value)
    if array.ndim != 2 or array.shape[1] != 3:
        raise ValueError(f"{name}: expected an (N, 3) array of points, got shape {array.shape}")
    return array


def _rows(name: str, value: object, columns: int, meaning: str) -> np.ndarray:
    """An (N, columns) array; an empty list or 1-D array is N = 0."""
    array = _real(name, value)
    if array.ndim == 1 and array.size == 0:
        array = array.reshape(0, columns)
    if array.ndim != 2 or array.shape[1] != columns:
        raise ValueError(f"{name}: expected (N, {columns}) rows of {meaning}, got shape "
                         f"{array.shape}")
    return array


def _vector(name: str, value: object) -> np.ndarray:
    array = _real(name, value)
    if array.shape != (3,):
        raise ValueError(f"{name}: expected 3 numbers (x, y, z), got shape {array.shape}")
    return array


def _values(name: str, value: object) -> Tuple[np.ndarray, Tuple[int, ...]]:
    """Scalars or an array of any shape, flattened; and the shape to give the results."""
    # One query a frame: a Python or numpy float, or an int, skips the array checks.
    if isinstance(value, (float, int)) and not isinstance(value, bool):
        try:
            return np.array((value,), dtype=np.float64), ()
        except OverflowError:
            raise ValueError(f"{name}: an integer of {len(str(abs(value)))} digits is beyond "
                             "float64") from None
    array = _real(name, value)
    return array.reshape(-1), array.shape


def _keys(name: str, value: object) -> np.ndarray:
    """A 1-D array of key values (lengths, times, distances, angles): other shapes are refused,
    not flattened."""
    array = _real(name, value)
    if array.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, got shape {array.shape}")
    return array


def _gaps(squared: np.ndarray, point: np.ndarray, query: np.ndarray) -> np.ndarray:
    """sqrt(squared) — the library's squared distances — except where the square lost digits to
    underflow (gaps below ~1e-146: one of 1e-170 read 0) or overflowed (gaps beyond ~1.3e154 read
    inf): there |point − query| scaled by its largest component."""
    gaps = np.sqrt(squared)
    small = (squared < np.finfo(np.float64).tiny / np.finfo(np.float64).eps) | (
        np.isinf(squared) & np.isfinite(query).all(axis=-1))
    if small.any():
        d = point[small] - query[small]
        largest = np.abs(d).max(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            scaled = d / largest[:, None]
            gaps[small] = np.where(largest == 0, 0.0,
                                   largest * np.sqrt((scaled * scaled).sum(axis=-1)))
    return gaps


def _vectors(name: str, value: object) -> Tuple[np.ndarray, Tuple[int, ...]]:
    """One (3,) vector or an (..., 3) array, as (N, 3); and the leading shape."""
    array = _real(name, value)
    if array.ndim == 0 or array.shape[-1] != 3:
        raise ValueError(f"{name}: expected (3,) or (..., 3) points, got shape {array.shape}")
    return array.reshape(-1, 3), array.shape[:-1]


def _matrices(name: str, value: object) -> Tuple[np.ndarray, Tuple[int, ...]]:
    array = _real(name, value)
    if array.ndim < 2 or array.shape[-2:] != (3, 3):
        raise ValueError(f"{name}: expected (3, 3) or (..., 3, 3) matrices, got shape {array.shape}")
    return array.reshape(-1, 3, 3), array.shape[:-2]


def _pair(name: str, value: object, what: str) -> Tuple[object, object]:
    """Two items, or an error naming the argument (a number given alone: TypeError)."""
    try:
        count = len(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name}: expected {what}, got {type(value).__name__}") from None
    if count != 2:
        raise ValueError(f"{name}: expected {what}")
    return value[0], value[1]  # type: ignore[index]


def _scalar(name: str, value: object) -> float:
    # float("2") would read a string, and float(True) a bool (refused in arrays too)
    if isinstance(value, (str, bytes, bool, np.bool_)):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__}")
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__}") from None
    except OverflowError:
        raise ValueError(f"{name}: a number beyond float64") from None


def _integer(name: str, value: object, low: int, high: int) -> int:
    try:
        if isinstance(value, (bool, np.bool_)):  # operator.index(True) is 1
            raise TypeError
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name}: expected an integer, got {type(value).__name__}") from None
    if not low <= number <= high:
        raise ValueError(f"{name}: {number} not in [{low}, {high}]")
    return number


def _choice(name: str, value: str, choices: Sequence[str]) -> str:
    if value not in choices:
        raise ValueError(f"{name}: {value!r} is not one of {', '.join(map(repr, choices))}")
    return value


class _Immutable:
    """Objects that never change once built (curves, tracks, networks, solvers, profiles, rigs)
    share their data: a copy, shallow or deep, is the object itself."""

    __slots__ = ()

    def __copy__(self):  # type: ignore[no-untyped-def]
        return self

    def __deepcopy__(self, memo: dict):  # type: ignore[no-untyped-def]
        return self


# ---------------------------------------------------------------------------------------------
# Curves


class Path(_Immutable):
    """A piecewise cubic Bézier curve, open or closed, by parameter t in [0, segment_count].

    Build it with one of the static methods; measure it with MeasuredPath to query by distance.
    """

    __slots__ = ("_core",)

    def __init__(self, core: _core.Path) -> None:
        self._core = core

    @staticmethod
    def catmull_rom(points: ArrayLike, closed: bool = False) -> "Path":
        """Through (N, 3) key points, tangent (P[i+1] − P[i−1]) / 2 at each; N >= 2."""
        return Path.kochanek_bartels(points, closed=closed)

    @staticmethod
    def kochanek_bartels(points: ArrayLike, tension: float = 0.0, bias: float = 0.0,
                         continuity: float = 0.0, closed: bool = False) -> "Path":
        """Through (N, 3) key points with Kochanek–Bartels tangents (all zero: Catmull–Rom).
        continuity −1 makes box corners, +1 inverted (overshooting) ones."""
        return Path(_core.Path.kochanek_bartels(
            _points("points", points), _scalar("tension", tension), _scalar("bias", bias),
            _scalar("continuity", continuity), bool(closed)))

    @staticmethod
    def hermite(points: ArrayLike, tangents: ArrayLike, closed: bool = False) -> "Path":
        """Through (N, 3) key points with the given (N, 3) derivatives dr/dt (t: 1 per segment)."""
        return Path(_core.Path.hermite(_points("points", points), _points("tangents", tangents),
                                       bool(closed)))

    @staticmethod
    def bezier(controls: ArrayLike, closed: bool = False) -> "Path":
        """From (N, 4, 3) control points of cubic Bézier segments that meet end to start."""
        array = _real("controls", controls)
        if array.ndim != 3 or array.shape[1:] != (4, 3):
            raise ValueError(
                f"controls: expected (N, 4, 3) control points, got shape {array.shape}")
        return Path(_core.Path.bezier(array, bool(closed)))

    @property
    def segment_count(self) -> int:
        return self._core.segment_count

    @property
    def closed(self) -> bool:
        return self._core.closed

    @property
    def controls(self) -> np.ndarray:
        """The (segment_count, 4, 3) Bézier control points."""
        out = np.empty((self.segment_count, 4, 3))
        self._core.controls(out)
        return out

    def evaluate(self, t: ArrayLike) -> Tuple[np.ndarray, np.ndarray]:
        """Points and derivatives dr/dt at parameters t (wrapped on closed paths, clamped on
        open ones): two arrays of shape t.shape + (3,)."""
        flat, shape = _values("t", t)
        points, tangents = np.empty((flat.size, 3)), np.empty((flat.size, 3))
        self._core.evaluate(flat, points, tangents)
        return points.reshape(shape + (3,)), tangents.reshape(shape + (3,))

    def __repr__(self) -> str:
        return f"Path({self.segment_count} segments, {'closed' if self.closed else 'open'})"


class ClosestPoints:
    """closest_point's answer: `distance` along the curve, the `point` on it, and `gap`, the
    distance from the query to that point (NaN for a non-finite query)."""

    __slots__ = ("distance", "point", "gap")

    def __init__(self, distance: np.ndarray, point: np.ndarray, gap: np.ndarray) -> None:
        self.distance, self.point, self.gap = distance, point, gap


class _Measured(_Immutable):
    """length and closed, shared by the measured classes (MeasuredPath, Track, Route)."""

    __slots__ = ()
    _core: object

    @property
    def length(self) -> float:
        """The exact arc length."""
        return self._core.length  # type: ignore[attr-defined]

    @property
    def closed(self) -> bool:
        return self._core.closed  # type: ignore[attr-defined]


class MeasuredPath(_Measured):
    """A path and its arc-length table, built together and queried by distance.

    samples_per_segment: table entries per segment, 1 to 1048576, or 0: automatic (each segment's
    entries where it needs them, one to 256; a chord table takes 16). method:
    "gauss_legendre" (exact: distances to 1e-12 of the length, or of length_scale where
    larger, at any density) or "chord" (the lecture's table of summed chords, O(h²)).
    length_scale: the length the exact table's 1e-12 is relative to where it exceeds the path's
    own — a network's pieces measured against the network's size keep one long curve's accuracy
    with its fewer entries (0: the path's own; a chord table refuses any other).
    """

    __slots__ = ("_core",)

    def __init__(self, path: Path, samples_per_segment: int = 0,
                 method: str = "gauss_legendre", length_scale: float = 0.0) -> None:
        if isinstance(path, _core.MeasuredPath):
            self._core = path
            return
        if not isinstance(path, Path):
            raise TypeError(f"path: expected a tractrix.Path, got {type(path).__name__}")
        _choice("method", method, ("gauss_legendre", "chord"))
        self._core = _core.MeasuredPath.build(
            path._core, _integer("samples_per_segment", samples_per_segment, -(1 << 31),
                                           (1 << 31) - 1),
            method == "chord", _scalar("length_scale", length_scale))

    @property
    def path(self) -> Path:
        return Path(self._core.path)

    def sample(self, s: ArrayLike) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Points, unit tangents (s.shape + (3,)) and path parameters (s.shape) at distances s."""
        flat, shape = _values("s", s)
        points, tangents, parameters = np.empty((flat.size, 3)), np.empty((flat.size, 3)), \
            np.empty(flat.size)
        self._core.samples(flat, points, tangents, parameters)
        return points.reshape(shape + (3,)), tangents.reshape(shape + (3,)), \
            parameters.reshape(shape)

    def point_at(self, s: ArrayLike) -> np.ndarray:
        """Points at distances s: shape s.shape + (3,)."""
        flat, shape = _values("s", s)
        out = np.empty(shape + (3,))
        self._core.points_at(flat, out)
        return out

    def tangent_at(self, s: ArrayLike) -> np.ndarray:
        """Unit tangents at distances s: shape s.shape + (3,)."""
        flat, shape = _values("s", s)
        out = np.empty(shape + (3,))
        self._core.tangents_at(flat, out)
        return out

    def parameter_at(self, s: ArrayLike, linear: bool = False) -> np.ndarray:
        """Path parameters at distances s (exact inverse; linear=True: the lecture's binary search
        and linear interpolation)."""
        flat, shape = _values("s", s)
        out = np.empty(shape)
        self._core.parameter_at(flat, out, bool(linear))
        return out

    def distance_at(self, t: ArrayLike) -> np.ndarray:
        """Distances along the path at path parameters t."""
        flat, shape = _values("t", t)
        out = np.empty(shape)
        self._core.distance_at(flat, out)
        return out

    def curvature_at(self, s: ArrayLike) -> np.ndarray:
        """Curvature (1 / radius) at distances s."""
        flat, shape = _values("s", s)
        out = np.empty(shape)
        self._core.curvature_at(flat, out)
        return out

    def closest_point(self, query: ArrayLike) -> ClosestPoints:
        """The exact nearest point of the whole path to each (3,) or (..., 3) query."""
        flat, shape = _vectors("query", query)
        n = flat.shape[0]
        distance, point, squared = np.empty(n), np.empty((n, 3)), np.empty(n)
        self._core.closest_points(flat, distance, point, squared)
        return ClosestPoints(distance.reshape(shape), point.reshape(shape + (3,)),
                             _gaps(squared, point, flat).reshape(shape))

    def __repr__(self) -> str:
        return (f"MeasuredPath(length={self.length:.6g}, "
                f"{'closed' if self.closed else 'open'}, {self._core.path.segment_count} segments)")


# ---------------------------------------------------------------------------------------------
# Tracks and trains


class Frames:
    """Frames along a track: `position` (..., 3), `rotation` (..., 3, 3) with columns side, up,
    forward, and the same rotation as `quaternion` (..., 4) x, y, z, w with w >= 0."""

    __slots__ = ("position", "rotation", "quaternion")

    def __init__(self, position: np.ndarray, rotation: np.ndarray, quaternion: np.ndarray) -> None:
        self.position, self.rotation, self.quaternion = position, rotation, quaternion


class Track(_Measured):
    """A measured path with an up source, which banks the frames along it.

    up: the world up (default +Y); with rotation_minimizing=True the up at the start of
    rotation-minimizing frames instead. rail: a MeasuredPath beside the track (up points from the
    track towards it), matched by "normalized_arc_length" or "closest_point". roll: (distances,
    angles) keys of a roll about the tangent on top (radians, C¹ between keys; repeating every lap
    on a closed track).
    """

    __slots__ = ("_core",)

    def __init__(self, path: MeasuredPath, up: ArrayLike = (0.0, 1.0, 0.0), *,
                 rail: Optional[MeasuredPath] = None, rail_match: str = "normalized_arc_length",
                 rotation_minimizing: bool = False,
                 roll: Optional[Tuple[ArrayLike, ArrayLike]] = None) -> None:
        if isinstance(path, _core.Track):
            self._core = path
            return
        if not isinstance(path, MeasuredPath):
            raise TypeError(f"path: expected a tractrix.MeasuredPath, got {type(path).__name__}")
        if rail is not None and not isinstance(rail, MeasuredPath):
            raise TypeError(f"rail: expected a tractrix.MeasuredPath, got {type(rail).__name__}")
        if rail is not None and rotation_minimizing:
            raise ValueError("up: give a rail or rotation_minimizing, not both")
        _choice("rail_match", rail_match, ("normalized_arc_length", "closest_point"))
        kind = "rail" if rail is not None else (
            "rotation_minimizing" if rotation_minimizing else "world")
        roll_distances = roll_angles = None
        if roll is not None:
            roll_distances, roll_angles = _pair("roll", roll, "(distances, angles)")
            roll_distances = _keys("roll distances", roll_distances)
            roll_angles = _keys("roll angles", roll_angles)
        self._core = _core.Track.build(path._core, kind, _vector("up", up),
                                       rail._core if rail is not None else None,
                                       rail_match == "closest_point", roll_distances, roll_angles)

    @property
    def path(self) -> MeasuredPath:
        return MeasuredPath(self._core.path)

    def frame_at(self, s: ArrayLike) -> Frames:
        """Frames at distances s (forward = the tangent, up from the up source)."""
        flat, shape = _values("s", s)
        position, rotation = np.empty(shape + (3,)), np.empty(shape + (3, 3))
        quaternion = np.empty(shape + (4,))
        self._core.frames_at(flat, position, rotation, quaternion)
        return Frames(position, rotation, quaternion)

    def __repr__(self) -> str:
        return f"Track(length={self.length:.6g}, {'closed' if self.closed else 'open'})"


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


class TrainPoses:
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
    on open track), "circular", "clamp" or "extend".
    """

    __slots__ = ("_core", "_track")

    def __init__(self, track: Union[Track, "Route", "Alignment"], wagons: ArrayLike,
                 spacing: str = "chord", wrap: str = "automatic") -> None:
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
        solver = (_core.RouteTrainSolver if isinstance(track, Route) else
                  _core.AlignmentTrainSolver if isinstance(track, Alignment) else
                  _core.TrainSolver)
        self._core = solver.build(track._core, rows, spacing == "arc", wrap)
        self._track = track

    @property
    def wagon_count(self) -> int:
        return self._core.wagon_count

    @property
    def track(self) -> Union[Track, "Route", "Alignment"]:
        return self._track

    def solve(self, head: ArrayLike, parts: Iterable[str] = TRAIN_PARTS,
              out: Optional[TrainPoses] = None) -> TrainPoses:
        """Every wagon's poses with the front bogie of wagon 0 at distance `head` along the track:
        a scalar gives arrays of (wagons, …), an array of heads (one per frame, say) arrays of
        head.shape + (wagons, …), in one call. `parts` picks the outputs (fewer is faster); `out`,
        the TrainPoses of an earlier solve of the same shape, has those parts written over
        instead of new arrays (a per-frame loop then allocates nothing; parts not asked for keep
        what they held) and is returned. Stateless: the same head always gives the same poses."""
        flat, shape = _values("head", head)
        if out is not None:
            flat = flat.copy()  # the heads may live in an array `out` is about to overwrite
        n = self.wagon_count
        arrays = {}
        for name in parts:
            if name not in TRAIN_PARTS:
                raise ValueError(f"parts: {name!r} is not one of {', '.join(TRAIN_PARTS)}")
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
        if out is not None:
            return out
        return TrainPoses(arrays)

    def __repr__(self) -> str:
        return f"TrainSolver({self.wagon_count} wagons on {self._track!r})"


# ---------------------------------------------------------------------------------------------
# Networks

_ENDS = ("start", "end")
_DIRECTIONS = ("forward", "backward")


def _piece_and(name: str, value: Tuple[int, str], words: Sequence[str]) -> Tuple[int, bool]:
    """(piece, word) → (piece, word is words[1])."""
    try:
        piece, word = value
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected (piece, {' or '.join(map(repr, words))}), "
                         f"got {value!r}") from None
    if isinstance(piece, (bool, np.bool_)) or not isinstance(piece, (int, np.integer)) \
            or not 0 <= piece < 1 << 63:
        raise ValueError(f"{name}: piece must be a non-negative integer, got {piece!r}")
    return int(piece), _choice(name, word, words) == words[1]


class NetworkPoints:
    """Network.closest_point's answer: the `piece` (int64), the `distance` along it, the `point`
    and `gap`, the distance from the query (NaN for a non-finite query)."""

    __slots__ = ("piece", "distance", "point", "gap")

    def __init__(self, piece: np.ndarray, distance: np.ndarray, point: np.ndarray,
                 gap: np.ndarray) -> None:
        self.piece, self.distance, self.point, self.gap = piece, distance, point, gap


class SwitchSettings:
    """Which leg each switch of a network is set to (Network.default_settings(): the first leg
    listed at each joint). Kept apart from the shared network: throw switches here."""

    __slots__ = ("_core",)

    def __init__(self, core: _core.SwitchSettings) -> None:
        self._core = core

    def set(self, piece: int, end: str) -> "SwitchSettings":
        """Sets the switch at that piece end ("start" or "end") to lead to it; returns self."""
        self._core.set(*_piece_and("leg", (piece, end), _ENDS))
        return self

    def copy(self) -> "SwitchSettings":
        """Settings of their own, to throw switches in without changing these."""
        return SwitchSettings(self._core.copy())

    def __copy__(self) -> "SwitchSettings":
        return self.copy()

    def __deepcopy__(self, memo: dict) -> "SwitchSettings":
        return self.copy()


class Network(_Immutable):
    """Open tracks (pieces) joined end to end. joints: per joint, the (piece, "start"|"end")
    ends that meet there — two for a plain joint, three or more for a switch; an end in no joint
    is a buffer stop. Left out (None), the joints are found: ends within the gap tolerance of
    each other meet. Every joint is checked (gap and tangent angle; relative_gap of the
    network's scale and angle in radians loosen the defaults for hand-placed data)."""

    __slots__ = ("_core",)

    def __init__(self, pieces: Sequence[Track],
                 joints: Optional[Sequence[Sequence[Tuple[int, str]]]] = None,
                 relative_gap: float = 0.0, angle: float = 0.0) -> None:
        cores = []
        for i, piece in enumerate(pieces):
            if not isinstance(piece, Track):
                raise TypeError(f"pieces[{i}]: expected a tractrix.Track, got "
                                f"{type(piece).__name__}")
            cores.append(piece._core)
        gap, turn = _scalar("relative_gap", relative_gap), _scalar("angle", angle)
        if joints is None:
            self._core = _core.Network.join_ends(cores, gap, turn)
            return
        ends = [[_piece_and(f"joints[{j}]", end, _ENDS) for end in joint]
                for j, joint in enumerate(joints)]
        self._core = _core.Network.build(cores, ends, gap, turn)

    @property
    def piece_count(self) -> int:
        return self._core.piece_count

    @property
    def joint_count(self) -> int:
        return self._core.joint_count

    def piece(self, i: int) -> Track:
        i = _integer("piece", i, -(1 << 63), (1 << 63) - 1)
        if not 0 <= i < self.piece_count:
            raise IndexError(f"piece {i}: the network has {self.piece_count} pieces")
        return Track(self._core.piece(i))

    def default_settings(self) -> SwitchSettings:
        return SwitchSettings(self._core.default_settings())

    def closest_point(self, query: ArrayLike) -> NetworkPoints:
        """The exact nearest point of the whole network to each (3,) or (..., 3) query."""
        flat, shape = _vectors("query", query)
        n = flat.shape[0]
        piece, distance, point, squared = (np.empty(n, dtype=np.int64), np.empty(n),
                                           np.empty((n, 3)), np.empty(n))
        self._core.closest_points(flat, piece, distance, point, squared)
        gaps = _gaps(squared, point, flat)
        return NetworkPoints(piece.reshape(shape), distance.reshape(shape),
                             point.reshape(shape + (3,)), gaps.reshape(shape))


class Route(_Measured):
    """A walk through a network: (piece, "forward"|"backward") steps, each continuing the one
    before (checked). closed=True makes it a loop: the first step must then continue the last.
    A TrainSolver runs on it like on a Track."""

    __slots__ = ("_core", "_network")

    def __init__(self, network: Network, steps: Sequence[Tuple[int, str]],
                 closed: bool = False) -> None:
        if not isinstance(network, Network):
            raise TypeError(f"network: expected a tractrix.Network, got {type(network).__name__}")
        if isinstance(steps, _core.Route):
            self._core = steps
        else:
            self._core = _core.Route.build(
                network._core, [_piece_and(f"steps[{i}]", step, _DIRECTIONS)
                                for i, step in enumerate(steps)], bool(closed))
        self._network = network

    @staticmethod
    def follow(network: Network, settings: SwitchSettings, start: Tuple[int, str],
               min_length: float = math.inf) -> "Route":
        """The walk a train takes from `start` with these switch settings: until a buffer stop,
        back at the start (closed), or at least min_length long."""
        if not isinstance(network, Network):
            raise TypeError(f"network: expected a tractrix.Network, got {type(network).__name__}")
        if not isinstance(settings, SwitchSettings):
            raise TypeError(f"settings: expected tractrix.SwitchSettings, got "
                            f"{type(settings).__name__}")
        piece, backward = _piece_and("start", start, _DIRECTIONS)
        return Route(network, _core.Route.follow(network._core, settings._core, piece, backward,
                                                 _scalar("min_length", min_length)))

    @property
    def network(self) -> Network:
        return self._network

    @property
    def steps(self) -> list:
        """The steps as (piece, "forward"|"backward")."""
        return [(piece, _DIRECTIONS[backward]) for piece, backward in self._core.steps()]

    def reversed(self) -> "Route":
        """The same walk driven the other way."""
        return Route(self._network, self._core.reversed())

    def distances_at(self, piece: int, distance: float) -> List[float]:
        """The route distances at which the route passes `distance` along `piece` (in the
        piece's own direction, clamped onto it): one per step over that piece, ascending; empty
        where the route does not pass it. A Network.closest_point's piece and distance become a
        distance along the route this way."""
        piece, _ = _piece_and("piece", (piece, "forward"), _DIRECTIONS)
        return list(self._core.distances_at(piece, _scalar("distance", distance)))

    def around(self, head: float, train_length: float, settings: SwitchSettings,
               ahead: float, behind: float) -> Tuple["Route", float]:
        """The route a moving train asks for next: the steps under it (train_length behind head)
        kept, so a switch thrown under the train moves no wagon, and beyond them the steps the
        settings lead to, ahead past the head and behind past the last bogie. Returns the new
        route and the head's distance on it."""
        if not isinstance(settings, SwitchSettings):
            raise TypeError(f"settings: expected tractrix.SwitchSettings, got "
                            f"{type(settings).__name__}")
        route, moved = self._core.around(_scalar("head", head),
                                         _scalar("train_length", train_length), settings._core,
                                         _scalar("ahead", ahead), _scalar("behind", behind))
        return Route(self._network, route), moved


# ---------------------------------------------------------------------------------------------
# Alignments (IFC 4.3's names and conventions: x east, y north, z up; radii > 0 turning left, 0
# straight; a vertical radius > 0 a sag; cant each rail head's height over the profile)

_HORIZONTAL_TYPES = ("LINE", "CIRCULARARC", "CLOTHOID", "CUBIC", "HELMERTCURVE", "BLOSSCURVE",
                     "COSINECURVE", "SINECURVE", "VIENNESEBEND")
_VERTICAL_TYPES = ("CONSTANTGRADIENT", "CIRCULARARC", "PARABOLICARC", "CLOTHOID")
_CANT_TYPES = ("CONSTANTCANT", "LINEARTRANSITION", "HELMERTCURVE", "BLOSSCURVE", "COSINECURVE",
               "SINECURVE", "VIENNESEBEND")


class HorizontalSegment(NamedTuple):
    """IfcAlignmentHorizontalSegment: type (an IFC name, "CLOTHOID"), start_point (x, y),
    start_direction (radians counterclockwise from +x), start_radius and end_radius (> 0 turning
    left, 0 straight), length (along the curve), and for a VIENNESEBEND its
    gravity_center_height (its bank_angle_change comes from the cant when there is one)."""

    type: str
    start_point: Tuple[float, float]
    start_direction: float
    start_radius: float = 0.0
    end_radius: float = 0.0
    length: float = 0.0
    gravity_center_height: float = 0.0
    bank_angle_change: float = 0.0


class VerticalSegment(NamedTuple):
    """IfcAlignmentVerticalSegment: type ("PARABOLICARC"), start_distance (along the
    horizontal), horizontal_length, start_height, start_gradient and end_gradient (dz/dx), and
    for a CLOTHOID its end_radius (IFC's RadiusOfCurvature: > 0 a sag, 0 infinite)."""

    type: str
    start_distance: float
    horizontal_length: float
    start_height: float
    start_gradient: float
    end_gradient: float
    end_radius: float = 0.0


class CantSegment(NamedTuple):
    """IfcAlignmentCantSegment: type ("LINEARTRANSITION"), start_distance, horizontal_length,
    and each rail head's elevation at the start and end (IFC's optional ends: pass the start's)."""

    type: str
    start_distance: float
    horizontal_length: float
    start_cant_left: float
    end_cant_left: float
    start_cant_right: float
    end_cant_right: float


def _segment_rows(name: str, segments: Sequence[tuple], types: Sequence[str], kind: type,
                  width: int) -> np.ndarray:
    """Segments as the core's rows: the type's index in `types`, then the fields in order."""
    rows = np.zeros((len(segments), width))
    for i, segment in enumerate(segments):
        if not isinstance(segment, kind):
            raise TypeError(f"{name}[{i}]: expected a tractrix.{kind.__name__}, got "
                            f"{type(segment).__name__}")
        if segment.type not in types:
            raise ValueError(f"{name}[{i}]: type {segment.type!r} is not one of "
                             f"{', '.join(types)}")
        values: List[float] = []
        for field, value in zip(kind._fields[1:], segment[1:]):
            where = f"{name}[{i}].{field}"
            if field == "start_point":
                point = _real(where, value)
                if point.shape != (2,):
                    raise ValueError(f"{where}: expected (x, y), got shape {point.shape}")
                values += [float(point[0]), float(point[1])]
            else:
                values.append(_scalar(where, value))
        rows[i] = [types.index(segment.type), *values]
    return rows


def _segments_of(rows: Sequence[float], width: int, types: Sequence[str],
                 kind: type) -> Tuple[tuple, ...]:
    array = np.asarray(rows, dtype=np.float64).reshape(-1, width)
    out = []
    for row in array:
        values = [float(v) for v in row[1:]]
        if kind is HorizontalSegment:
            values = [(values[0], values[1]), *values[2:]]
        out.append(kind(types[int(row[0])], *values))
    return tuple(out)


class AlignmentPoints:
    """Where points lie against an alignment (Alignment.closest_point), as railways state it:
    `horizontal_distance` along the plan and its `station` (chainage), the lateral `offset` in
    plan (> 0 left), the `elevation` above the alignment there, the `length` along the 3-D curve
    there (what sample and trains take) and the alignment's `point` there."""

    __slots__ = ("horizontal_distance", "station", "offset", "elevation", "length", "point")

    def __init__(self, values: np.ndarray, point: np.ndarray) -> None:
        (self.horizontal_distance, self.station, self.offset, self.elevation,
         self.length) = (values[..., k] for k in range(5))
        self.point = point


class Alignment(_Measured):
    """A railway alignment as IFC 4.3 defines it (plan, profile, cant) as one 3-D curve that
    trains run on (TrainSolver takes it like a Track; frames come banked by the cant).

    Two distances, and each query says which it takes: `s`, the length along the 3-D curve
    (sample, frame_at, rail_heads, trains), and `x`, the distance along the horizontal (at_station,
    cant_at; the chainage is start_station + x). length_at(x) and horizontal_at(s) convert.

    horizontal: HorizontalSegments (required); vertical: VerticalSegments (empty: flat at height
    0); cant: CantSegments. horizontal_tolerance (gap as a fraction of the scale, angle in
    radians), vertical_tolerance (gap, gradient) and cant_gap: how far consecutive segments may
    miss each other (0: 1e-9). Errors raise ValueError naming the segment and the gap.
    """

    __slots__ = ("_core", "horizontal", "vertical", "cant", "name")

    def __init__(self, horizontal: Sequence[HorizontalSegment],
                 vertical: Sequence[VerticalSegment] = (), cant: Sequence[CantSegment] = (), *,
                 rail_head_distance: float = 1.5, start_station: float = 0.0,
                 horizontal_tolerance: Tuple[float, float] = (0.0, 0.0),
                 vertical_tolerance: Tuple[float, float] = (0.0, 0.0), cant_gap: float = 0.0,
                 name: str = "") -> None:
        h = _segment_rows("horizontal", horizontal, _HORIZONTAL_TYPES, HorizontalSegment, 9)
        v = _segment_rows("vertical", vertical, _VERTICAL_TYPES, VerticalSegment, 7)
        c = _segment_rows("cant", cant, _CANT_TYPES, CantSegment, 7)
        gap, angle = _pair("horizontal_tolerance", horizontal_tolerance, "(gap, angle)")
        vgap, gradient = _pair("vertical_tolerance", vertical_tolerance, "(gap, gradient)")
        tolerances = np.array([_scalar("horizontal_tolerance", gap),
                               _scalar("horizontal_tolerance", angle),
                               _scalar("vertical_tolerance", vgap),
                               _scalar("vertical_tolerance", gradient),
                               _scalar("cant_gap", cant_gap)])
        self._core = _core.Alignment.build(h.reshape(-1), v.reshape(-1), c.reshape(-1),
                                           _scalar("rail_head_distance", rail_head_distance),
                                           _scalar("start_station", start_station), tolerances)
        self.horizontal = tuple(horizontal)
        self.vertical = tuple(vertical)
        self.cant = tuple(cant)
        self.name = str(name)

    @classmethod
    def _of(cls, core: "_core.Alignment", name: str, rows: Tuple[list, list, list]) -> "Alignment":
        alignment = cls.__new__(cls)
        alignment._core = core
        alignment.horizontal = _segments_of(rows[0], 9, _HORIZONTAL_TYPES, HorizontalSegment)
        alignment.vertical = _segments_of(rows[1], 7, _VERTICAL_TYPES, VerticalSegment)
        alignment.cant = _segments_of(rows[2], 7, _CANT_TYPES, CantSegment)
        alignment.name = name
        return alignment

    @property
    def horizontal_length(self) -> float:
        """The plan's length (x runs over [0, horizontal_length])."""
        return self._core.horizontal_length

    @property
    def start_station(self) -> float:
        return self._core.start_station

    @property
    def rail_head_distance(self) -> float:
        return self._core.rail_head_distance

    def sample(self, s: ArrayLike) -> Tuple[np.ndarray, np.ndarray]:
        """Points and unit tangents at lengths s along the 3-D curve (clamped to it)."""
        flat, shape = _values("s", s)
        points, tangents = np.empty(shape + (3,)), np.empty(shape + (3,))
        self._core.samples(flat, False, points, tangents)
        return points, tangents

    def at_station(self, x: ArrayLike) -> Tuple[np.ndarray, np.ndarray]:
        """Points and unit tangents at distances x along the horizontal (clamped to it)."""
        flat, shape = _values("x", x)
        points, tangents = np.empty(shape + (3,)), np.empty(shape + (3,))
        self._core.samples(flat, True, points, tangents)
        return points, tangents

    def length_at(self, x: ArrayLike) -> np.ndarray:
        """The length along the 3-D curve at x along the horizontal (exact)."""
        flat, shape = _values("x", x)
        out = np.empty(shape)
        self._core.lengths(flat, True, out)
        return out

    def horizontal_at(self, s: ArrayLike) -> np.ndarray:
        """The distance along the horizontal at length s along the 3-D curve: length_at's
        inverse."""
        flat, shape = _values("s", s)
        out = np.empty(shape)
        self._core.lengths(flat, False, out)
        return out

    def frame_at(self, s: ArrayLike) -> Frames:
        """Frames at lengths s: forward the tangent, up +z banked by the cant."""
        flat, shape = _values("s", s)
        position, rotation = np.empty(shape + (3,)), np.empty(shape + (3, 3))
        quaternion = np.empty(shape + (4,))
        self._core.frames_at(flat, position, rotation, quaternion)
        return Frames(position, rotation, quaternion)

    def shape_at(self, s: ArrayLike) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """At lengths s: the plan's signed curvature (> 0 turning left), the gradient dz/dx and
        the bank angle (radians, > 0 leaning left)."""
        flat, shape = _values("s", s)
        out = np.empty(shape + (3,))
        self._core.shape_at(flat, out)
        return out[..., 0], out[..., 1], out[..., 2]

    def cant_at(self, x: ArrayLike) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cant at distances x along the horizontal: each rail head's elevation over the
        profile (left, right) and the bank angle (radians, > 0 leaning left); zeros without a
        cant layout."""
        flat, shape = _values("x", x)
        out = np.empty(shape + (3,))
        self._core.cant_at(flat, out)
        return out[..., 0], out[..., 1], out[..., 2]

    def rail_heads(self, s: ArrayLike) -> Tuple[np.ndarray, np.ndarray]:
        """The left and right rail heads' positions at lengths s, each raised by its cant."""
        flat, shape = _values("s", s)
        left, right = np.empty(shape + (3,)), np.empty(shape + (3,))
        self._core.rail_heads(flat, left, right)
        return left, right

    def as_track(self, tolerance: float = 0.0, bank_tolerance: float = 0.0) -> Track:
        """The alignment as a Track, where one is required (a Network's pieces: a turnout's
        diverging alignment joined to the main line): cubic Hermite pieces within `tolerance` of
        the alignment's curve (0: 1e-6 in its length unit), up +z rolled by the cant within
        `bank_tolerance` radians (0: 1e-6). Trains on the alignment alone take it directly."""
        return Track(_core.fitted_track(self._core, _scalar("tolerance", tolerance),
                                        _scalar("bank_tolerance", bank_tolerance)))

    def closest_point(self, query: ArrayLike) -> AlignmentPoints:
        """Where points (..., 3) lie against the alignment: chainage, offset and elevation."""
        array = _real("query", query)
        if array.shape[-1:] != (3,):
            raise ValueError(f"query: expected points (..., 3), got shape {array.shape}")
        shape = array.shape[:-1]
        values, points = np.empty(shape + (5,)), np.empty(shape + (3,))
        self._core.closest_points(array.reshape(-1), values, points)
        return AlignmentPoints(values, points)

    def __repr__(self) -> str:
        return (f"Alignment({self.name + ', ' if self.name else ''}length={self.length:.6g}, "
                f"{len(self.horizontal)} horizontal, {len(self.vertical)} vertical, "
                f"{len(self.cant)} cant segments)")


def read_landxml(path: str, *, text: str = "", rail_head_distance: float = 1.5,
                 relative_gap: float = 1e-9, angle: float = 1e-6,
                 gravity_center_height: float = 0.0) -> List[Alignment]:
    """The alignments of a LandXML 1.2 file (or of `text`, with `path` naming it in errors), in
    file order, each with its name and segments: the plan (Line, Curve, Spiral), the profile
    (PVI, ParaCurve, CircCurve) and the cant (CantStation), mapped to IFC 4.3's layouts as the C++
    reader does (docs/alignments.md). rail_head_distance and gravity_center_height are what
    LandXML does not carry; relative_gap and angle how far rounded elements may miss each other.
    Errors raise ValueError naming the file, line and element."""
    rows = _core.read_landxml(str(path), str(text),
                              _scalar("rail_head_distance", rail_head_distance),
                              _scalar("relative_gap", relative_gap), _scalar("angle", angle),
                              _scalar("gravity_center_height", gravity_center_height))
    return [Alignment._of(core, name, (h, v, c)) for name, core, h, v, c in rows]


# ---------------------------------------------------------------------------------------------
# Motion


class ProfileSamples:
    """A time profile at times t: `value` E(t) in [0, 1] (the fraction of the move), `rate`
    dE/dt (per second) and `acceleration` d²E/dt²."""

    __slots__ = ("value", "rate", "acceleration")

    def __init__(self, value: np.ndarray, rate: np.ndarray, acceleration: np.ndarray) -> None:
        self.value, self.rate, self.acceleration = value, rate, acceleration


class TimeProfile(_Immutable):
    """A distance–time curve E(t): 0 at t = 0, 1 at the duration, never going backwards.
    Multiply by a path's length for a distance."""

    __slots__ = ("_core",)

    def __init__(self, core: _core.TimeProfile) -> None:
        self._core = core

    @staticmethod
    def constant(duration: float) -> "TimeProfile":
        """E = t / T."""
        return TimeProfile(_core.TimeProfile.constant(_scalar("duration", duration)))

    @staticmethod
    def sine(duration: float) -> "TimeProfile":
        """The sine ease in and out over the whole duration."""
        return TimeProfile(_core.TimeProfile.sine(_scalar("duration", duration)))

    @staticmethod
    def sine_pieces(duration: float, ease_in_end: float, ease_out_start: float) -> "TimeProfile":
        """Sine ease-in until ease_in_end, constant speed, sine ease-out from ease_out_start
        (fractions of the duration)."""
        return TimeProfile(_core.TimeProfile.sine_pieces(
            _scalar("duration", duration), _scalar("ease_in_end", ease_in_end),
            _scalar("ease_out_start", ease_out_start)))

    @staticmethod
    def parabolic(duration: float, ease_in_end: float, ease_out_start: float) -> "TimeProfile":
        """Constant acceleration until ease_in_end, constant speed, constant deceleration from
        ease_out_start (fractions of the duration)."""
        return TimeProfile(_core.TimeProfile.parabolic(
            _scalar("duration", duration), _scalar("ease_in_end", ease_in_end),
            _scalar("ease_out_start", ease_out_start)))

    @staticmethod
    def trapezoidal(distance: float, max_speed: float, max_acceleration: float) -> "TimeProfile":
        """The fastest move of `distance` under a speed and an acceleration limit (from rest to
        rest); the duration follows. Distance 0 is a move already done (duration 0, E = 1)."""
        return TimeProfile(_core.TimeProfile.trapezoidal(
            _scalar("distance", distance), _scalar("max_speed", max_speed),
            _scalar("max_acceleration", max_acceleration)))

    @staticmethod
    def s_curve(distance: float, max_speed: float, max_acceleration: float,
                max_jerk: float) -> "TimeProfile":
        """The jerk-limited move of `distance` (rest to rest) under speed, acceleration and jerk
        limits; the duration follows. Distance 0 is a move already done (duration 0, E = 1)."""
        return TimeProfile(_core.TimeProfile.s_curve(
            _scalar("distance", distance), _scalar("max_speed", max_speed),
            _scalar("max_acceleration", max_acceleration), _scalar("max_jerk", max_jerk)))

    @staticmethod
    def keyed(times: ArrayLike, values: ArrayLike) -> "TimeProfile":
        """A monotone cubic through (time, value) keys: times from 0 increasing, values from 0 to
        1 never decreasing."""
        return TimeProfile(_core.TimeProfile.keyed(_keys("times", times),
                                                   _keys("values", values)))

    @property
    def duration(self) -> float:
        return self._core.duration

    def time_at(self, value: ArrayLike) -> np.ndarray:
        """The first time E reaches each value (0 for values at or below 0): when a move of
        distance D passes value·D. Exact to a few eps of the duration; where E arrives at rest,
        to about √eps of it (a stop, a trapezoid's end) or ∛eps (an s-curve's end)."""
        flat, shape = _values("value", value)
        out = np.empty(flat.size)
        self._core.time_at(flat, out)
        return out.reshape(shape)

    def at(self, t: ArrayLike) -> ProfileSamples:
        """E(t) and its derivatives at times t (clamped to [0, duration])."""
        flat, shape = _values("t", t)
        value, rate, acceleration = np.empty(flat.size), np.empty(flat.size), np.empty(flat.size)
        self._core.at(flat, value, rate, acceleration)
        return ProfileSamples(value.reshape(shape), rate.reshape(shape),
                              acceleration.reshape(shape))


class SpeedLimits(_Immutable):
    """A piecewise-constant speed limit along a line [0, length]: sections (start, end, limit),
    neighbours with different limits. Build one from a line limit (`line`) or from a Track's or
    Route's curves (`from_curvature`), lower it in zones (`with_zones`) and hold each limit until
    a train's last wagon has left it (`for_train`)."""

    __slots__ = ("_core",)

    def __init__(self, core: _core.SpeedLimits) -> None:
        self._core = core

    @staticmethod
    def line(length: float, max_velocity: float) -> "SpeedLimits":
        """One limit over the whole length."""
        return SpeedLimits(_core.SpeedLimits.line(_scalar("length", length),
                                                  _scalar("max_velocity", max_velocity)))

    @staticmethod
    def from_curvature(line: Union[Track, "Route"], max_velocity: float,
                       lateral_acceleration: float, section_length: float,
                       samples: int = 8) -> "SpeedLimits":
        """The line limit lowered to sqrt(lateral_acceleration / curvature) on the line's curves:
        per section of section_length, the lowest over samples + 1 points of it (sampled, not
        bounded: a bend sharper between the samples is missed)."""
        args = (_scalar("max_velocity", max_velocity),
                _scalar("lateral_acceleration", lateral_acceleration),
                _scalar("section_length", section_length),
                _integer("samples", samples, 1, 1024))
        if isinstance(line, Track):
            return SpeedLimits(_core.SpeedLimits.from_track(line._core, *args))
        if isinstance(line, Route):
            return SpeedLimits(_core.SpeedLimits.from_route(line._core, *args))
        raise TypeError(f"line: expected a tractrix.Track or Route, got {type(line).__name__}")

    @staticmethod
    def from_cant(alignment: "Alignment", max_velocity: float, cant_deficiency: float,
                  section_length: float, gravity: float = 9.80665,
                  samples: int = 8) -> "SpeedLimits":
        """The railway's limit on an alignment: v = sqrt(g R (cant + cant_deficiency) / rail head
        distance) on its curves, the line limit elsewhere; per section of section_length, the
        lowest over samples + 1 points of it. Lengths in the alignment's unit (gravity too)."""
        if not isinstance(alignment, Alignment):
            raise TypeError(
                f"alignment: expected a tractrix.Alignment, got {type(alignment).__name__}")
        return SpeedLimits(_core.SpeedLimits.from_alignment(
            alignment._core, _scalar("max_velocity", max_velocity),
            _scalar("cant_deficiency", cant_deficiency), _scalar("gravity", gravity),
            _scalar("section_length", section_length), _integer("samples", samples, 1, 1024)))

    def with_zones(self, zones: ArrayLike) -> "SpeedLimits":
        """These limits lowered inside each zone, rows of (start, end, limit); a zone never
        raises a limit, and may reach past the line's ends (clipped)."""
        return SpeedLimits(self._core.with_zones(_rows("zones", zones, 3, "start, end, limit")))

    def for_train(self, train_length: float) -> "SpeedLimits":
        """The limits for the head of a train this long: each holds until the last wagon has
        left its section."""
        return SpeedLimits(self._core.for_train(_scalar("train_length", train_length)))

    @property
    def length(self) -> float:
        return self._core.length

    @property
    def sections(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(starts, ends, limits), one entry per section."""
        n = self._core.section_count
        starts, ends, limits = np.empty(n), np.empty(n), np.empty(n)
        self._core.sections(starts, ends, limits)
        return starts, ends, limits

    def at(self, s: ArrayLike) -> np.ndarray:
        """The limit at distances s (clamped to the line)."""
        flat, shape = _values("s", s)
        out = np.empty(flat.size)
        self._core.at(flat, out)
        return out.reshape(shape)


class PlanSamples:
    """A speed plan at times t: `position` along the line, `velocity`, `acceleration` and
    `jerk`."""

    __slots__ = ("position", "velocity", "acceleration", "jerk")

    def __init__(self, position: np.ndarray, velocity: np.ndarray, acceleration: np.ndarray,
                 jerk: np.ndarray) -> None:
        self.position, self.velocity = position, velocity
        self.acceleration, self.jerk = acceleration, jerk


class SpeedPlan(_Immutable):
    """The fastest run of a train's head along the line under speed limits and jerk-limited
    motion, from `start` (position, velocity, acceleration) to a stop at `end` (the line's end
    if None), stopping at each station (position, dwell seconds) on the way.

    A replan from a running plan's state_at(t) continues it with velocity and acceleration
    unbroken; during a dwell pass hold=plan.dwell_left(t), or the replan leaves at once.
    Raises ValueError with the library's message (limits out of range, a stop the train can no
    longer make, a hold from a start not at rest)."""

    __slots__ = ("_core",)

    def __init__(self, limits: SpeedLimits, max_velocity: float, max_acceleration: float,
                 max_deceleration: float, max_jerk: float,
                 start: Union[float, Tuple[float, float, float]] = 0.0,
                 end: Optional[float] = None, stations: ArrayLike = (),
                 hold: float = 0.0) -> None:
        if not isinstance(limits, SpeedLimits):
            raise TypeError(f"limits: expected tractrix.SpeedLimits, got {type(limits).__name__}")
        state = _real("start", start)
        if state.ndim == 0:
            state = np.array([state, 0.0, 0.0])
        if state.shape != (3,):
            raise ValueError("start: expected a position or (position, velocity, acceleration), "
                             f"got shape {state.shape}")
        stops = _rows("stations", stations, 2, "position, dwell")
        self._core = _core.SpeedPlan.build(
            limits._core, _scalar("max_velocity", max_velocity),
            _scalar("max_acceleration", max_acceleration),
            _scalar("max_deceleration", max_deceleration), _scalar("max_jerk", max_jerk),
            float(state[0]), float(state[1]), float(state[2]),
            limits.length if end is None else _scalar("end", end), stops,
            _scalar("hold", hold))

    @property
    def duration(self) -> float:
        """When the head stops at the end (dwells included)."""
        return self._core.duration

    @property
    def overspeed_distance(self) -> float:
        """How far from the start the head runs over its limit (a start faster than the limits
        ahead allow brakes at full power)."""
        return self._core.overspeed_distance

    def at(self, t: ArrayLike) -> PlanSamples:
        """The head at times t (before 0 the start; after the duration at rest on the end)."""
        flat, shape = _values("t", t)
        out = [np.empty(flat.size) for _ in range(4)]
        self._core.at(flat, *out)
        return PlanSamples(*(a.reshape(shape) for a in out))

    def time_at(self, position: ArrayLike) -> np.ndarray:
        """The first time the head reaches each position (inf beyond the end)."""
        flat, shape = _values("position", position)
        out = np.empty(flat.size)
        self._core.time_at(flat, out)
        return out.reshape(shape)

    def dwell_left(self, t: ArrayLike) -> np.ndarray:
        """How long the head still stands at a station (or at the start, a hold) at times t: 0
        while it moves."""
        flat, shape = _values("t", t)
        out = np.empty(flat.size)
        self._core.dwell_left(flat, out)
        return out.reshape(shape)

    def state_at(self, t: float) -> Tuple[float, float, float]:
        """(position, velocity, acceleration) at time t: the start of a replan."""
        sample = self.at(_scalar("t", t))
        return (float(sample.position), float(sample.velocity), float(sample.acceleration))


class CameraShots:
    """A camera rig at times t: `position` (..., 3), `rotation` (..., 3, 3) (columns side, up,
    forward = the view direction), `quaternion` (..., 4) x, y, z, w; the motion along its path:
    `distance`, `speed`, `velocity` (..., 3), `acceleration` (..., 3) split into `tangential`
    (s̈·T) and `normal` (κ·ṡ²·N) parts."""

    __slots__ = ("position", "rotation", "quaternion", "distance", "speed", "velocity",
                 "acceleration", "tangential", "normal")

    def __init__(self, **parts: np.ndarray) -> None:
        for name in self.__slots__:
            setattr(self, name, parts[name])


class CameraRig(_Immutable):
    """A camera on a path through keyed positions, moved by a time profile over its whole length.

    view_directions: (N, 3) directions the camera looks at each key (zero rows: along the path),
    which also bend the path (tangents="view_direction") unless tangents="catmull_rom". It looks
    along the keyed directions (slerped between keys) until look_at_point or look_at_path say
    otherwise; up is world +Y until with_world_up or with_rotation_minimizing_up.
    """

    __slots__ = ("_core",)

    def __init__(self, positions: ArrayLike, profile: "TimeProfile",
                 view_directions: Optional[ArrayLike] = None, tangents: str = "view_direction",
                 closed: bool = False, tension: float = 0.0, bias: float = 0.0,
                 continuity: float = 0.0, samples_per_segment: int = 0) -> None:
        if isinstance(positions, _core.CameraRig):
            self._core = positions
            return
        if not isinstance(profile, TimeProfile):
            raise TypeError(f"profile: expected a tractrix.TimeProfile, got "
                            f"{type(profile).__name__}")
        _choice("tangents", tangents, ("view_direction", "catmull_rom"))
        keys = _points("positions", positions)
        directions = None
        if view_directions is not None:
            directions = _points("view_directions", view_directions)
            if directions.shape != keys.shape:
                raise ValueError(f"view_directions: {directions.shape[0]} for "
                                 f"{keys.shape[0]} positions")
        self._core = _core.CameraRig.build(
            keys, directions, profile._core, tangents == "catmull_rom", bool(closed),
            _scalar("tension", tension), _scalar("bias", bias),
            _scalar("continuity", continuity),
            _integer("samples_per_segment", samples_per_segment, -(1 << 31), (1 << 31) - 1))

    @property
    def path(self) -> MeasuredPath:
        return MeasuredPath(self._core.path)

    @property
    def duration(self) -> float:
        return self._core.profile.duration

    def with_world_up(self, up: ArrayLike) -> "CameraRig":
        """The same rig with another fixed world up (Z-up scenes: (0, 0, 1))."""
        return CameraRig(self._core.with_world_up(_vector("up", up)), None)  # type: ignore[arg-type]

    def with_rotation_minimizing_up(self, initial_up: ArrayLike = (0.0, 1.0, 0.0)) -> "CameraRig":
        """The same rig with rotation-minimizing frames along its path (no roll from the world)."""
        return CameraRig(self._core.with_rotation_minimizing_up(_vector("initial_up", initial_up)),
                         None)  # type: ignore[arg-type]

    def look_at_point(self, target: ArrayLike) -> "CameraRig":
        """The same rig looking at a fixed point (finite: ValueError otherwise). Where the camera
        stands on the target it looks along +z, the library's look-at fallback."""
        point = _vector("target", target)
        if not np.isfinite(point).all():
            raise ValueError(f"target: {point.tolist()} is not finite")
        return CameraRig(self._core.look_at_point(point), None)  # type: ignore[arg-type]

    def look_at_path(self, target: MeasuredPath) -> "CameraRig":
        """The same rig looking at a target moving along `target`: at each time the same fraction
        of that path's length as the camera's profile gives, so both arrive together."""
        if not isinstance(target, MeasuredPath):
            raise TypeError(f"target: expected a tractrix.MeasuredPath, got {type(target).__name__}")
        return CameraRig(self._core.look_at_path(target._core), None)  # type: ignore[arg-type]

    def at(self, t: ArrayLike) -> CameraShots:
        """The camera at times t (clamped to the profile's duration)."""
        flat, shape = _values("t", t)
        n = flat.size
        parts = {name: np.empty((n,) + (() if name in ("distance", "speed") else
                                         (3, 3) if name == "rotation" else
                                         (4,) if name == "quaternion" else (3,)))
                 for name in CameraShots.__slots__}
        self._core.shots(flat, *(parts[name] for name in CameraShots.__slots__))
        return CameraShots(**{name: a.reshape(shape + a.shape[1:]) for name, a in parts.items()})


# ---------------------------------------------------------------------------------------------
# Rig helpers

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
            _FALLOFFS.index(_choice("falloff", falloff, _FALLOFFS)), bool(reversed),
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


class TwoBonePoses:
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
            bool(squash), _scalar("soft", soft))

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
        self._core.two_bone(*flat, _scalar("scale", scale), joints, rotations, lengths)
        return TwoBonePoses(joints.reshape(shape + (3, 3)), rotations.reshape(shape + (2, 3, 3)),
                            lengths.reshape(shape + (2,)))
