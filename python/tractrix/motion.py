"""Time profiles: distance against time."""

from __future__ import annotations


import numpy as np

from . import _tractrix as _core
from ._checks import _Result, _values, _keys, _scalar, _Immutable, ArrayLike


class ProfileSamples(_Result):
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
