"""Driving: speed limits along a track and the jerk-limited speed plan under them; one axis, or
several together, moved from any state to a target under jerk-limited motion."""

from __future__ import annotations

from typing import Optional, Tuple, Union

import numpy as np

from . import _tractrix as _core
from . import _tractrix
from ._checks import (_real, _Result, _rows, _values, _scalar, _integer, _Immutable, _wrap,
                      ArrayLike)
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
    """A plan at times t: `position`, `velocity`, `acceleration` and `jerk` (for a
    SyncedTrajectory, one column per axis)."""

    __slots__ = ("position", "velocity", "acceleration", "jerk")

    def __init__(self, position: np.ndarray, velocity: np.ndarray, acceleration: np.ndarray,
                 jerk: np.ndarray) -> None:
        self.position, self.velocity = position, velocity
        self.acceleration, self.jerk = acceleration, jerk


def _samples(core: Union[_core.SpeedPlan, _core.JerkTrajectory, _core.WaypointTrajectory],
             t: ArrayLike) -> PlanSamples:
    """A compiled one-axis plan at times t, each array shaped as t."""
    flat, shape = _values("t", t)
    out = [np.empty(flat.size) for _ in range(4)]
    core.at(flat, *out)
    return PlanSamples(*(a.reshape(shape) for a in out))


def _first_times(core: Union[_core.SpeedPlan, _core.JerkTrajectory],
                 position: ArrayLike) -> np.ndarray:
    """When a compiled one-axis plan first reaches each position, shaped as position."""
    flat, shape = _values("position", position)
    out = np.empty(flat.size)
    core.time_at(flat, out)
    return out.reshape(shape)


class SpeedPlan(_Immutable):
    """The fastest run of a train's head along the line under speed limits and jerk-limited
    motion, from `start` (position, velocity, acceleration) to a stop at `end` (the line's end
    if None), stopping at each station (position, dwell seconds[, arrival]) on the way.

    A timetable: a station's arrival (seconds from the plan's start; 0 or omitted: none) and
    `arrival` for the end are the earliest times the head may get there. A leg the fastest run
    would finish sooner runs under a lower top speed and arrives on time; one already late runs
    as fast as it can. Trains told to arrive at once: the latest of their fastest arrivals, as
    each one's `arrival`.

    A replan from a running plan's state_at(t) continues it with velocity and acceleration
    unbroken; during a dwell pass hold=plan.dwell_left(t), or the replan leaves at once.
    Raises ValueError with the library's message (limits out of range, a stop the train can no
    longer make, a hold from a start not at rest)."""

    __slots__ = ("_core",)

    def __init__(self, limits: SpeedLimits, max_velocity: float, max_acceleration: float,
                 max_deceleration: float, max_jerk: float,
                 start: Union[float, Tuple[float, float, float]] = 0.0,
                 end: Optional[float] = None, stations: ArrayLike = (),
                 hold: float = 0.0, arrival: float = 0.0) -> None:
        if not isinstance(limits, SpeedLimits):
            raise TypeError(f"limits: expected tractrix.SpeedLimits, got {type(limits).__name__}")
        state = _real("start", start)
        if state.ndim == 0:
            state = np.array([state, 0.0, 0.0])
        if state.shape != (3,):
            raise ValueError("start: expected a position or (position, velocity, acceleration), "
                             f"got shape {state.shape}")
        stops = _rows("stations", stations, (2, 3), "position, dwell[, arrival]")
        if stops.shape[1] == 2:  # no arrival times
            stops = np.column_stack([stops, np.zeros(len(stops))])
        self._core = _core.SpeedPlan.build(
            limits._core, _scalar("max_velocity", max_velocity),
            _scalar("max_acceleration", max_acceleration),
            _scalar("max_deceleration", max_deceleration), _scalar("max_jerk", max_jerk),
            float(state[0]), float(state[1]), float(state[2]),
            limits.length if end is None else _scalar("end", end), stops,
            _scalar("hold", hold), _scalar("arrival", arrival))

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
        return _samples(self._core, t)

    def time_at(self, position: ArrayLike) -> np.ndarray:
        """The first time the head reaches each position (inf beyond the end)."""
        return _first_times(self._core, position)

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


def _limits(max_velocity: float, max_acceleration: float, max_jerk: float,
            max_deceleration: Optional[float],
            max_reverse_velocity: Optional[float]) -> np.ndarray:
    """The limits as the core takes them; deceleration and reverse velocity default to the
    acceleration and the velocity (0 for the reverse: the same limit both ways)."""
    amax = _scalar("max_acceleration", max_acceleration)
    return np.array([
        _scalar("max_velocity", max_velocity), amax,
        amax if max_deceleration is None else _scalar("max_deceleration", max_deceleration),
        _scalar("max_jerk", max_jerk),
        0.0 if max_reverse_velocity is None else _scalar("max_reverse_velocity",
                                                         max_reverse_velocity)])


def _state(name: str, value: object) -> Tuple[float, float, float]:
    state = _real(name, value)
    if state.ndim == 0:
        return (float(state), 0.0, 0.0)
    if state.shape != (3,):
        raise ValueError(f"{name}: expected a position or (position, velocity, acceleration), "
                         f"got shape {state.shape}")
    return (float(state[0]), float(state[1]), float(state[2]))


class JerkTrajectory(_Immutable):
    """One axis (a distance along a track, a dolly's travel) moved from any state to a target
    under limits on velocity, acceleration, deceleration (the negative acceleration's size; the
    acceleration's if None) and jerk: the time-optimal jerk-limited trajectory, built in a few
    microseconds, so it can be rebuilt whenever the target changes (from `state_at(t)` of the old
    one: position, velocity and acceleration stay continuous). A start beyond the limits brakes
    back inside first. Raises ValueError with the library's message.

    Build with `to_position`, `to_position_in` (a fixed duration), `to_position_no_sooner` (the
    earliest duration met from a time on) or `to_velocity`."""

    __slots__ = ("_core",)
    _core: _tractrix.JerkTrajectory

    def __init__(self) -> None:
        raise TypeError("build a JerkTrajectory with to_position, to_position_in, "
                        "to_position_no_sooner or to_velocity")

    @staticmethod
    def to_position(start: ArrayLike, position: float, velocity: float = 0.0, *,
                    max_velocity: float, max_acceleration: float, max_jerk: float,
                    max_deceleration: Optional[float] = None,
                    max_reverse_velocity: Optional[float] = None,
                    acceleration: float = 0.0) -> "JerkTrajectory":
        """The fastest move from start (a position, or position, velocity, acceleration) to
        position, arriving at velocity with `acceleration` (after the duration the axis goes on
        at that acceleration)."""
        core = _core.JerkTrajectory.to_position(
            *_state("start", start), _scalar("position", position),
            _scalar("velocity", velocity), _scalar("acceleration", acceleration),
            _limits(max_velocity, max_acceleration, max_jerk, max_deceleration,
                    max_reverse_velocity))
        return _wrap(JerkTrajectory, core)

    @staticmethod
    def to_position_in(duration: float, start: ArrayLike, position: float,
                       velocity: float = 0.0, *, max_velocity: float, max_acceleration: float,
                       max_jerk: float, max_deceleration: Optional[float] = None,
                       max_reverse_velocity: Optional[float] = None,
                       acceleration: float = 0.0) -> "JerkTrajectory":
        """The same target reached exactly `duration` seconds from the start (at least the
        fastest move's duration). A duration no profile within the limits meets raises
        ValueError naming the next one that is met."""
        core = _core.JerkTrajectory.to_position_in(
            _scalar("duration", duration), *_state("start", start),
            _scalar("position", position), _scalar("velocity", velocity),
            _scalar("acceleration", acceleration),
            _limits(max_velocity, max_acceleration, max_jerk, max_deceleration,
                    max_reverse_velocity))
        return _wrap(JerkTrajectory, core)

    @staticmethod
    def to_position_no_sooner(duration: float, start: ArrayLike, position: float,
                              velocity: float = 0.0, *, max_velocity: float,
                              max_acceleration: float, max_jerk: float,
                              max_deceleration: Optional[float] = None,
                              max_reverse_velocity: Optional[float] = None,
                              acceleration: float = 0.0, cycle: float = 0.0) -> "JerkTrajectory":
        """The same target reached at the earliest time no sooner than `duration` (and the
        fastest move's) that a profile within the limits meets, on a whole number of `cycle`
        seconds for a cycle > 0: past a duration no profile meets, the next one that is."""
        core = _core.JerkTrajectory.to_position_no_sooner(
            _scalar("duration", duration), _scalar("cycle", cycle), *_state("start", start),
            _scalar("position", position), _scalar("velocity", velocity),
            _scalar("acceleration", acceleration),
            _limits(max_velocity, max_acceleration, max_jerk, max_deceleration,
                    max_reverse_velocity))
        return _wrap(JerkTrajectory, core)

    @staticmethod
    def to_velocity(start: ArrayLike, velocity: float, *, max_velocity: float,
                    max_acceleration: float, max_jerk: float,
                    max_deceleration: Optional[float] = None,
                    max_reverse_velocity: Optional[float] = None) -> "JerkTrajectory":
        """Velocity control: reach velocity as fast as possible and hold it."""
        core = _core.JerkTrajectory.to_velocity(
            *_state("start", start), _scalar("velocity", velocity),
            _limits(max_velocity, max_acceleration, max_jerk, max_deceleration,
                    max_reverse_velocity))
        return _wrap(JerkTrajectory, core)

    @property
    def duration(self) -> float:
        """When the target is reached (seconds); after it the axis moves on at its velocity and
        acceleration."""
        return self._core.duration

    @property
    def braking_duration(self) -> float:
        """How long a start beyond the limits took to get back inside them (0 for one inside)."""
        return self._core.braking_duration

    @property
    def position_extrema(self) -> Tuple[float, float, float, float]:
        """(least position, greatest position, time of the least, time of the greatest) over
        [0, duration]: in closed form, the first times they are reached."""
        low, high, t_low, t_high = self._core.position_extrema
        return (low, high, t_low, t_high)

    def at(self, t: ArrayLike) -> PlanSamples:
        """The axis at times t (before 0 the start; after the duration the target moving on)."""
        return _samples(self._core, t)

    def state_at(self, t: float) -> Tuple[float, float, float]:
        """(position, velocity, acceleration) at time t: the start of a replan."""
        sample = self.at(_scalar("t", t))
        return (float(sample.position), float(sample.velocity), float(sample.acceleration))

    def time_at(self, position: ArrayLike) -> np.ndarray:
        """The first time the axis is at each position (inf for one never reached)."""
        return _first_times(self._core, position)


_SYNCHRONIZATIONS = ("time", "phase", "none")


class SyncedTrajectory(_Immutable):
    """Several axes moved to their targets together, each under its own limits: a camera
    dolly's x, y, z, a crane's slew, trolley and hoist, trains told to arrive at once.

    start: (N, 3) rows of (position, velocity, acceleration), or N positions at rest; target:
    N positions; velocity: N target velocities (0 if None); acceleration: N target
    accelerations (0 if None; after the duration each axis goes on at its own); limits: rows of
    (max_velocity, max_acceleration, max_deceleration, max_jerk[, max_reverse_velocity]), one
    per axis or one row for all (the reverse velocity limit as max_velocity if omitted or 0).
    synchronization: "time" (all arrive together, at the earliest time every axis can meet),
    "phase" (on the straight line from start to target, where the start's velocity and
    acceleration and the target's lie along it; else "time" — see `synchronization`)
    or "none" (each as fast as it can). minimum_duration: no sooner; cycle: on a whole number of
    cycles (a controller's period)."""

    __slots__ = ("_core",)

    def __init__(self, start: ArrayLike, target: ArrayLike, velocity: Optional[ArrayLike] = None,
                 *, limits: ArrayLike, acceleration: Optional[ArrayLike] = None,
                 synchronization: str = "time", minimum_duration: float = 0.0,
                 cycle: float = 0.0) -> None:
        states = _real("start", start)
        if states.ndim == 1:
            states = np.stack([states, np.zeros_like(states), np.zeros_like(states)], axis=1)
        if states.ndim != 2 or states.shape[1] != 3:
            raise ValueError("start: expected N positions or (N, 3) rows of position, velocity, "
                             f"acceleration, got shape {states.shape}")
        n = states.shape[0]
        targets = _real("target", target).reshape(-1)
        speeds = (np.zeros(n) if velocity is None else _real("velocity", velocity).reshape(-1))
        accelerations = (np.zeros(n) if acceleration is None
                         else _real("acceleration", acceleration).reshape(-1))
        rows = _limit_rows(limits, n)
        if (targets.size != n or speeds.size != n or accelerations.size != n
                or rows.shape[0] != n):
            raise ValueError(f"start has {n} axes: target ({targets.size}), velocity "
                             f"({speeds.size}), acceleration ({accelerations.size}) and limits "
                             f"({rows.shape[0]}) must have as many")
        if not isinstance(synchronization, str) or synchronization not in _SYNCHRONIZATIONS:
            raise ValueError(f"synchronization: {synchronization!r} is not one of "
                             + ", ".join(_SYNCHRONIZATIONS))
        self._core = _core.SyncedTrajectory.build(
            np.ascontiguousarray(states),
            np.ascontiguousarray(np.stack([targets, speeds, accelerations], axis=1)), rows,
            _SYNCHRONIZATIONS.index(synchronization),
            _scalar("minimum_duration", minimum_duration), _scalar("cycle", cycle))

    @property
    def duration(self) -> float:
        """When the last axis arrives (with "time" or "phase", every axis)."""
        return self._core.duration

    @property
    def axis_count(self) -> int:
        return self._core.axis_count

    @property
    def durations(self) -> np.ndarray:
        """When each axis arrives."""
        out = np.empty(self._core.axis_count)
        self._core.axis_durations(out)
        return out

    @property
    def synchronization(self) -> str:
        """The synchronization done: as asked, except "phase" where the states do not lie along
        the line from start to target, or the line's limits (the strictest of the axes') do not
        hold the start or reach the target ("time" then)."""
        return _SYNCHRONIZATIONS[self._core.synchronization]

    @property
    def position_extrema(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(least, greatest, time of the least, time of the greatest), one entry per axis."""
        out = [np.empty(self._core.axis_count) for _ in range(4)]
        self._core.extrema(*out)
        return (out[0], out[1], out[2], out[3])

    def at(self, t: ArrayLike) -> PlanSamples:
        """Every axis at times t: arrays of shape t.shape + (N,)."""
        flat, shape = _values("t", t)
        n = self._core.axis_count
        out = [np.empty(flat.size * n) for _ in range(4)]
        self._core.at(flat, *out)
        return PlanSamples(*(a.reshape(shape + (n,)) for a in out))


def _limit_rows(limits: ArrayLike, n: int) -> np.ndarray:
    """(n, 5) rows of (max_velocity, max_acceleration, max_deceleration, max_jerk,
    max_reverse_velocity) from one row of 4 or 5 or n of them (reverse 0: max_velocity)."""
    rows = _real("limits", limits)
    if rows.ndim == 1 and rows.shape[0] in (4, 5):
        rows = np.tile(rows, (n, 1))
    if rows.ndim != 2 or rows.shape[1] not in (4, 5):
        raise ValueError("limits: expected (max_velocity, max_acceleration, max_deceleration, "
                         "max_jerk[, max_reverse_velocity]) or N rows of them, got shape "
                         f"{rows.shape}")
    if rows.shape[1] == 4:
        rows = np.concatenate([rows, np.zeros((rows.shape[0], 1))], axis=1)
    return np.ascontiguousarray(rows)


class WaypointTrajectory(_Immutable):
    """One axis through waypoints: rows of (position, velocity, dwell) — a stop (velocity 0)
    standing `dwell` seconds, or a point passed at `velocity` — each reached by the time-optimal
    jerk-limited move from the state the one before left it in. limits: one row of
    (max_velocity, max_acceleration, max_deceleration, max_jerk[, max_reverse_velocity]), or one
    per waypoint for the move to it. Passing velocities are given, not chosen."""

    __slots__ = ("_core",)

    def __init__(self, start: ArrayLike, waypoints: ArrayLike, *, limits: ArrayLike) -> None:
        state = _state("start", start)
        points = _rows("waypoints", waypoints, 3, "position, velocity, dwell")
        rows = _limit_rows(limits, points.shape[0])
        if rows.shape[0] != points.shape[0]:
            raise ValueError(f"limits: {rows.shape[0]} rows for {points.shape[0]} waypoints")
        self._core = _core.WaypointTrajectory.build(*state, np.ascontiguousarray(points), rows)

    @property
    def duration(self) -> float:
        """When the last waypoint is reached and its dwell is over."""
        return self._core.duration

    @property
    def times(self) -> Tuple[np.ndarray, np.ndarray]:
        """(arrivals, departures): when each waypoint is reached and left."""
        n = self._core.leg_count
        arrivals, departures = np.empty(n), np.empty(n)
        self._core.times(arrivals, departures)
        return arrivals, departures

    def at(self, t: ArrayLike) -> PlanSamples:
        """The axis at times t (standing at a stop through its dwell)."""
        return _samples(self._core, t)
