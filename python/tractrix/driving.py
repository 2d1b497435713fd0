"""Driving: speed limits along a track and the jerk-limited speed plan under them."""

from __future__ import annotations

from typing import Optional, Tuple, Union

import numpy as np

from . import _tractrix as _core
from ._checks import _real, _Result, _rows, _values, _scalar, _integer, _Immutable, ArrayLike
from .track import Track
from .network import Route
from .alignment import Alignment


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


class PlanSamples(_Result):
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
