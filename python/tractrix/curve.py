"""Curves: Bézier paths and their exact arc length."""

from __future__ import annotations

from typing import Optional, Tuple, Union

import numpy as np

from . import _nurbs, _tractrix
from . import _tractrix as _core
from ._checks import (_real, _flag, _Result, _points, _values, _gaps, _vectors, _scalar,
                      _integer, _choice, _keys, _Immutable, ArrayLike)


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
            _scalar("continuity", continuity), _flag("closed", closed)))

    @staticmethod
    def hermite(points: ArrayLike, tangents: ArrayLike, closed: bool = False) -> "Path":
        """Through (N, 3) key points with the given (N, 3) derivatives dr/dt (t: 1 per segment)."""
        return Path(_core.Path.hermite(_points("points", points), _points("tangents", tangents),
                                       _flag("closed", closed)))

    @staticmethod
    def bezier(controls: ArrayLike, closed: bool = False) -> "Path":
        """From (N, 4, 3) control points of cubic Bézier segments that meet end to start."""
        array = _real("controls", controls)
        if array.ndim != 3 or array.shape[1:] != (4, 3):
            raise ValueError(
                f"controls: expected (N, 4, 3) control points, got shape {array.shape}")
        return Path(_core.Path.bezier(array, _flag("closed", closed)))

    @staticmethod
    def bezier_spline(knots: ArrayLike, left_handles: ArrayLike, right_handles: ArrayLike,
                      closed: bool = False) -> "Path":
        """Through (N, 3) knots with their (N, 3) left and right handles, as DCCs store Bézier
        splines (Blender's BezierSplinePoint co, handle_left, handle_right): segment i runs from
        knot i by its right handle and knot i+1's left handle; closed adds the segment from the
        last knot back to the first. N >= 2."""
        points = _points("knots", knots)
        left, right = _points("left_handles", left_handles), _points("right_handles", right_handles)
        if left.shape != points.shape or right.shape != points.shape:
            raise ValueError(f"left_handles, right_handles: expected one per knot "
                             f"({len(points)}), got {len(left)} and {len(right)}")
        is_closed = _flag("closed", closed)
        if len(points) < 2:
            raise ValueError(f"knots: a spline needs at least 2, got {len(points)}")
        following = np.roll(np.arange(len(points)), -1)[:len(points) if is_closed else -1]
        ahead = np.arange(len(following))
        controls = np.stack([points[ahead], right[ahead], left[following], points[following]], 1)
        return Path.bezier(controls, is_closed)

    @staticmethod
    def nurbs(controls: ArrayLike, weights: Optional[ArrayLike] = None, order: int = 4,
              closed: bool = False, endpoint: bool = False, tolerance: float = 0.0) -> "Path":
        """A NURBS curve on a uniform knot vector, as DCCs make them (Blender's NURBS splines):
        (N, 3) control points, (N,) positive weights (None: all 1), order 2 to 6 (degree + 1);
        closed: periodic; endpoint: clamped, from the first control point to the last; neither:
        open uniform (the curve starts inside the control polygon). Order 4 or less without
        weights is exact (cubic Bézier pieces, one a knot span); otherwise pieces are halved
        until within `tolerance` of the curve (0: 1e-7 of the control points' extent, what
        float32 coordinates resolve; at least 1e-12 of it)."""
        pieces = _nurbs_pieces(controls, weights, order, closed, endpoint, tolerance)
        return Path.bezier(pieces.controls, pieces.closed)

    @staticmethod
    def nurbs_tilt(tilts: ArrayLike, controls: ArrayLike, weights: Optional[ArrayLike] = None,
                   order: int = 4, closed: bool = False, endpoint: bool = False,
                   tolerance: float = 0.0, per_segment: int = 8) -> Tuple[np.ndarray, np.ndarray]:
        """A NURBS curve's per-control-point tilt (radians), blended by the curve's own rational
        basis as Blender does: (t, angles), `per_segment` keys a segment of the path
        Path.nurbs builds from the same arguments; with a MeasuredPath m of it,
        Track(m, roll=(m.distance_at(t), angles))."""
        pieces = _nurbs_pieces(controls, weights, order, closed, endpoint, tolerance)
        values = _keys("tilts", tilts)
        if len(values) != len(_real("controls", controls)):
            raise ValueError(f"tilts: expected one per control point "
                             f"({len(_real('controls', controls))}), got {len(values)}")
        per = _integer("per_segment", per_segment, 1, 1024)
        count = len(pieces.controls)
        t = np.arange(count * per + (0 if pieces.closed else 1)) / per
        return t, pieces.scalar_at(values, t)

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


class ClosestPoints(_Result):
    """closest_point's answer: `distance` along the curve, the `point` on it, and `gap`, the
    distance from the query to that point (NaN for a non-finite query)."""

    __slots__ = ("distance", "point", "gap")

    def __init__(self, distance: np.ndarray, point: np.ndarray, gap: np.ndarray) -> None:
        self.distance, self.point, self.gap = distance, point, gap


class _Measured(_Immutable):
    """length and closed, shared by the measured classes (MeasuredPath, Track, Route)."""

    __slots__ = ()
    _core: Union[_tractrix.MeasuredPath, _tractrix.Track, _tractrix.Route, _tractrix.Alignment]

    @property
    def length(self) -> float:
        """The exact arc length."""
        return self._core.length

    @property
    def closed(self) -> bool:
        return self._core.closed


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
    _core: _tractrix.MeasuredPath

    def __init__(self, path: Path, samples_per_segment: int = 0,
                 method: str = "gauss_legendre", length_scale: float = 0.0) -> None:
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
        self._core.parameter_at(flat, out, _flag("linear", linear))
        return out

    def distance_at(self, t: ArrayLike) -> np.ndarray:
        """Distances along the path at path parameters t."""
        flat, shape = _values("t", t)
        out = np.empty(shape)
        self._core.distance_at(flat, out)
        return out

    def tilt_keys(self, tilts: ArrayLike, per_segment: int = 8) -> Tuple[np.ndarray, np.ndarray]:
        """A DCC's per-knot tilt (radians about the tangent, one a segment end: N + 1 on an open
        path of N segments, N on a closed one) as Track(roll=...) keys: the tilt linear in t
        between knots, as Blender interpolates it, keyed `per_segment` times a segment (between
        keys the roll is the track's C¹ curve through them)."""
        angles = _keys("tilts", tilts)
        n, closed = self.path.segment_count, self.closed
        if len(angles) != n + (0 if closed else 1):
            raise ValueError(f"tilts: expected one per knot ({n + (0 if closed else 1)} on this "
                             f"{'closed' if closed else 'open'} path of {n} segments), got "
                             f"{len(angles)}")
        per = _integer("per_segment", per_segment, 1, 1024)
        t = np.arange(n * per + (0 if closed else 1)) / per
        knot_angles = np.concatenate([angles, angles[:1]]) if closed else angles
        return self.distance_at(t), np.interp(t, np.arange(n + 1.0), knot_angles)

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


def _nurbs_pieces(controls: ArrayLike, weights: Optional[ArrayLike], order: int, closed: bool,
                  endpoint: bool, tolerance: float) -> _nurbs.Pieces:
    """Path.nurbs' arguments checked, and its Bézier pieces."""
    points = _points("controls", controls)
    count = len(points)
    order = _integer("order", order, 2, 6)
    is_closed, clamped = _flag("closed", closed), _flag("endpoint", endpoint)
    if is_closed and clamped:
        raise ValueError("endpoint: a closed (periodic) NURBS curve has no end points; give "
                         "closed or endpoint, not both")
    w = np.ones(count) if weights is None else _keys("weights", weights)
    if w.shape != (count,):
        raise ValueError(f"weights: expected one per control point ({count}), got {w.shape}")
    if not (np.isfinite(points).all() and np.isfinite(w).all()):
        raise ValueError("controls, weights: not finite")
    if not (w > 0).all():
        raise ValueError(f"weights: {float(w[~(w > 0)][0])!r} is not positive")
    if count < order:
        raise ValueError(f"controls: order {order} needs at least {order} control points, "
                         f"got {count}")
    tol = _scalar("tolerance", tolerance)
    if not tol >= 0 or not np.isfinite(tol):
        raise ValueError(f"tolerance: {tol!r} is not a finite non-negative length")
    extent = max(float(np.ptp(points, axis=0).max()), np.finfo(float).tiny)
    tol = 1e-7 * extent if tol == 0 else max(tol, 1e-12 * extent)
    return _nurbs.Pieces(points, w, order, is_closed, clamped).fit(tol)
