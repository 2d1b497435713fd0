"""Quaternion keys without flips: each quaternion in the hemisphere of the one before.

q and −q are one rotation; tractrix returns the one with w >= 0, so consecutive poses of a wagon
turning through a half turn change sign, and an animation system interpolating the keys
component by component (Blender's f-curves, a game's nlerp) swings the wagon the long way round
between them. continuous_quaternions picks, key after key, the sign nearer the key before.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ._checks import _real


def continuous_quaternions(quaternions: object, axis: int = 0,
                           after: Optional[object] = None) -> np.ndarray:
    """The quaternions (..., 4) in either order, each negated where needed so that its dot product
    with the one before it along `axis` (time for an array of frames) is not negative; the first
    ones follow `after` (the keys of the frame before, shaped like one slice along axis), or are
    kept as they are. Returns a new array."""
    q = _real("quaternions", quaternions)
    if q.ndim < 2 or q.shape[-1] != 4:
        raise ValueError(f"quaternions: expected (..., N, 4) keys, got shape {q.shape}")
    if not isinstance(axis, int) or isinstance(axis, bool) or not -q.ndim + 1 <= axis < q.ndim - 1:
        raise ValueError(f"axis: expected an axis of the keys' {q.ndim - 1} leading dimensions, "
                         f"got {axis!r}")
    q = np.moveaxis(q, axis % (q.ndim - 1), 0)
    before = np.empty_like(q)
    before[1:] = q[:-1]
    if after is None:
        before[0] = q[0]
    else:
        first = _real("after", after)
        if first.shape != q.shape[1:]:
            raise ValueError(f"after: expected the keys before, of shape {q.shape[1:]}, got "
                             f"{first.shape}")
        before[0] = first
    flips = np.where(np.einsum("...i,...i->...", q, before) < 0, -1.0, 1.0)
    out = q * np.cumprod(flips, axis=0)[..., None]
    return np.moveaxis(out, 0, axis % (q.ndim - 1))
