"""Networks of tracks joined at switches, and routes through them."""

from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

import numpy as np

from . import _tractrix
from . import _tractrix as _core
from ._checks import (_flag, _Result, _gaps, _vectors, _scalar, _integer, _choice, _Immutable,
                      _wrap, ArrayLike)
from .curve import _Measured
from .track import Track


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


class NetworkPoints(_Result):
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
        return _wrap(Track, self._core.piece(i))

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
    _core: _tractrix.Route

    def __init__(self, network: Network, steps: Sequence[Tuple[int, str]],
                 closed: bool = False) -> None:
        if not isinstance(network, Network):
            raise TypeError(f"network: expected a tractrix.Network, got {type(network).__name__}")
        self._core = _core.Route.build(
            network._core, [_piece_and(f"steps[{i}]", step, _DIRECTIONS)
                            for i, step in enumerate(steps)], _flag("closed", closed))
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
        return _wrap(Route, _core.Route.follow(network._core, settings._core, piece, backward,
                                               _scalar("min_length", min_length)),
                     _network=network)

    @property
    def network(self) -> Network:
        return self._network

    @property
    def steps(self) -> list:
        """The steps as (piece, "forward"|"backward")."""
        return [(piece, _DIRECTIONS[backward]) for piece, backward in self._core.steps()]

    def reversed(self) -> "Route":
        """The same walk driven the other way."""
        return _wrap(Route, self._core.reversed(), _network=self._network)

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
        return _wrap(Route, route, _network=self._network), moved
