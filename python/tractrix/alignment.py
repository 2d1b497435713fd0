"""Alignments: IFC 4.3's horizontal, vertical and cant layouts, exact, and LandXML files.

IFC 4.3's names and conventions: x east, y north, z up; radii > 0 turning left, 0 straight; a
vertical radius > 0 a sag; cant each rail head's height over the profile."""

from __future__ import annotations

from typing import Any, List, NamedTuple, Sequence, Tuple

import numpy as np

from . import _tractrix
from . import _tractrix as _core
from ._checks import _real, _Result, _values, _pair, _scalar, _wrap, ArrayLike
from .curve import _Measured
from .track import Frames, Track, _frames_at



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


def _segment_rows(name: str, segments: Sequence[Any], types: Sequence[str], kind: Any,
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
                 kind: Any) -> Tuple[Any, ...]:
    array = np.asarray(rows, dtype=np.float64).reshape(-1, width)
    out = []
    for row in array:
        values: List[Any] = [float(v) for v in row[1:]]
        if kind is HorizontalSegment:
            values = [(values[0], values[1]), *values[2:]]
        out.append(kind(types[int(row[0])], *values))
    return tuple(out)


class AlignmentPoints(_Result):
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
    _core: _tractrix.Alignment

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
    def _of(cls, core: _tractrix.Alignment, name: str, rows: Tuple[list, list, list]) -> "Alignment":
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
        return _frames_at(self._core.frames_at, s)

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
        return _wrap(Track, _core.fitted_track(self._core, _scalar("tolerance", tolerance),
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
