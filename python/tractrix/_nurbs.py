"""NURBS curves as cubic Bézier pieces, for Path.nurbs.

A B-spline of degree 3 or less without weights is a cubic polynomial on each knot span: the
Bézier piece with the span's end points and end derivatives (a cubic Hermite piece) is that
polynomial, exactly. Weights or a higher degree make spans that no cubic is; those are halved
until the pieces are within the tolerance of the curve at the same parameters.

Knot vectors are the uniform ones DCCs make (Blender's, with its Endpoint and Cyclic options):
open uniform (0, 1, 2, …; the curve starts inside the control polygon), clamped (the curve starts
at the first control point and ends at the last) and periodic (closed).
"""

from __future__ import annotations

from typing import List, Tuple

import numpy as np


def knots_of(count: int, order: int, closed: bool, endpoint: bool) -> np.ndarray:
    """The knot vector for `count` control points (closed: before wrapping order − 1 of them)."""
    if closed:
        return np.arange(count + 2 * order - 1, dtype=float)
    if endpoint:
        inner = np.arange(1, count - order + 1, dtype=float)
        return np.concatenate([np.zeros(order), inner, np.full(order, count - order + 1.0)])
    return np.arange(count + order, dtype=float)


def _de_boor(points: np.ndarray, knots: np.ndarray, degree: int, span: int, u: float) -> np.ndarray:
    """The B-spline of these (homogeneous) points at u, on knot span `span`."""
    d = points[span - degree:span + 1].copy()
    for r in range(1, degree + 1):
        for j in range(degree, r - 1, -1):
            left, right = knots[j + span - degree], knots[j + 1 + span - r]
            alpha = (u - left) / (right - left)
            d[j] = (1.0 - alpha) * d[j - 1] + alpha * d[j]
    return d[degree]


class _Curve:
    """A NURBS curve in homogeneous coordinates (w·x, w·y, w·z, w) and its derivative curve."""

    def __init__(self, points: np.ndarray, weights: np.ndarray, knots: np.ndarray,
                 degree: int) -> None:
        self.h = np.concatenate([points * weights[:, None], weights[:, None]], axis=1)
        self.knots, self.degree = knots, degree
        gaps = knots[degree + 1:degree + len(self.h)] - knots[1:len(self.h)]
        self.dh = degree * (self.h[1:] - self.h[:-1]) / gaps[:, None]

    def at(self, span: int, u: float) -> Tuple[np.ndarray, np.ndarray]:
        """The point and its derivative d/du at u, on knot span `span`."""
        a = _de_boor(self.h, self.knots, self.degree, span, u)
        if self.degree == 1:
            da = self.dh[span - 1]
        else:
            da = _de_boor(self.dh, self.knots[1:-1], self.degree - 1, span - 1, u)
        point = a[:3] / a[3]
        return point, (da[:3] - da[3] * point) / a[3]


def _piece(p0: np.ndarray, d0: np.ndarray, p1: np.ndarray, d1: np.ndarray,
           du: float) -> np.ndarray:
    return np.array([p0, p0 + d0 * (du / 3.0), p1 - d1 * (du / 3.0), p1])


def _bezier_at(controls: np.ndarray, t: float) -> np.ndarray:
    s = 1.0 - t
    return (s * s * s * controls[0] + 3.0 * s * s * t * controls[1]
            + 3.0 * s * t * t * controls[2] + t * t * t * controls[3])


class Pieces:
    """A NURBS curve as Bézier pieces: `controls` (M, 4, 3), and for each piece its knot span and
    the parameters (a, b) it covers, linearly (piece parameter t is u = a + t (b − a))."""

    def __init__(self, points: np.ndarray, weights: np.ndarray, order: int, closed: bool,
                 endpoint: bool) -> None:
        if closed:
            points = np.concatenate([points, points[:order - 1]])
            weights = np.concatenate([weights, weights[:order - 1]])
            knots = knots_of(len(points) - order + 1, order, True, False)
        else:
            knots = knots_of(len(points), order, False, endpoint)
        self.curve = _Curve(points, weights, knots, order - 1)
        self.weights, self.knots, self.order, self.closed = weights, knots, order, closed
        self.controls = np.empty((0, 4, 3))
        self.spans: List[Tuple[int, float, float]] = []

    def fit(self, tolerance: float) -> "Pieces":
        pieces: List[np.ndarray] = []
        curve, knots = self.curve, self.knots
        for span in range(curve.degree, len(curve.h)):
            a, b = knots[span], knots[span + 1]
            if b > a:
                _fit(curve, span, a, b, curve.at(span, a), curve.at(span, b), tolerance, 0,
                     pieces, self.spans)
        self.controls = np.array(pieces)
        if self.closed:  # the same point, whichever end it was computed from
            self.controls[-1, 3] = self.controls[0, 0]
        return self

    def scalar_at(self, values: np.ndarray, t: np.ndarray) -> np.ndarray:
        """Per-control-point values (a DCC's tilt) blended by the curve's own rational basis, at
        path parameters t (piece index + piece parameter)."""
        if self.closed:
            values = np.concatenate([values, values[:self.order - 1]])
        h = np.stack([values * self.weights, self.weights], axis=1)
        out = np.empty(len(t))
        for i, x in enumerate(t):
            piece = min(int(x), len(self.spans) - 1)
            span, a, b = self.spans[piece]
            blended = _de_boor(h, self.knots, self.curve.degree, span, a + (x - piece) * (b - a))
            out[i] = blended[0] / blended[1]
        return out


def _fit(curve: _Curve, span: int, a: float, b: float, start: Tuple[np.ndarray, np.ndarray],
         end: Tuple[np.ndarray, np.ndarray], tolerance: float, depth: int,
         pieces: List[np.ndarray], spans: List[Tuple[int, float, float]]) -> None:
    piece = _piece(start[0], start[1], end[0], end[1], b - a)
    checks = [(t, curve.at(span, a + t * (b - a))[0]) for t in (0.25, 0.5, 0.75)]
    error = max(float(np.linalg.norm(_bezier_at(piece, t) - point)) for t, point in checks)
    if error <= tolerance or depth >= 24 or not np.isfinite(error):
        pieces.append(piece)
        spans.append((span, a, b))
        return
    middle = 0.5 * (a + b)
    at_middle = curve.at(span, middle)
    _fit(curve, span, a, middle, start, at_middle, tolerance, depth + 1, pieces, spans)
    _fit(curve, span, middle, b, at_middle, end, tolerance, depth + 1, pieces, spans)
