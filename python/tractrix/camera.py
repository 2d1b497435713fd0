"""Camera rigs: a camera along a path, looking at keys."""

from __future__ import annotations

from typing import Optional

import numpy as np

from . import _tractrix as _core
from ._checks import (_flag, _Result, _points, _vector, _values, _scalar, _integer, _choice,
                      _Immutable, _wrap, ArrayLike)
from .curve import MeasuredPath
from .motion import TimeProfile


class CameraShots(_Result):
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
            keys, directions, profile._core, tangents == "catmull_rom", _flag("closed", closed),
            _scalar("tension", tension), _scalar("bias", bias),
            _scalar("continuity", continuity),
            _integer("samples_per_segment", samples_per_segment, -(1 << 31), (1 << 31) - 1))

    @property
    def path(self) -> MeasuredPath:
        return _wrap(MeasuredPath, self._core.path)

    @property
    def duration(self) -> float:
        return self._core.profile.duration

    def with_world_up(self, up: ArrayLike) -> "CameraRig":
        """The same rig with another fixed world up (Z-up scenes: (0, 0, 1))."""
        return _wrap(CameraRig, self._core.with_world_up(_vector("up", up)))

    def with_rotation_minimizing_up(self, initial_up: ArrayLike = (0.0, 1.0, 0.0)) -> "CameraRig":
        """The same rig with rotation-minimizing frames along its path (no roll from the world)."""
        return _wrap(CameraRig, self._core.with_rotation_minimizing_up(_vector("initial_up", initial_up)))

    def look_at_point(self, target: ArrayLike) -> "CameraRig":
        """The same rig looking at a fixed point (finite: ValueError otherwise). Where the camera
        stands on the target it looks along +z, the library's look-at fallback."""
        point = _vector("target", target)
        if not np.isfinite(point).all():
            raise ValueError(f"target: {point.tolist()} is not finite")
        return _wrap(CameraRig, self._core.look_at_point(point))

    def look_at_path(self, target: MeasuredPath) -> "CameraRig":
        """The same rig looking at a target moving along `target`: at each time the same fraction
        of that path's length as the camera's profile gives, so both arrive together."""
        if not isinstance(target, MeasuredPath):
            raise TypeError(f"target: expected a tractrix.MeasuredPath, got {type(target).__name__}")
        return _wrap(CameraRig, self._core.look_at_path(target._core))

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
