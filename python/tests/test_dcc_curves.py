"""Curves as DCCs store them: Bézier knots with handles, NURBS on uniform knots, per-knot tilt.
References are computed here by other methods: Bernstein sums, the Cox–de Boor recursion of the
basis functions in long double, linear interpolation of the tilt."""

import numpy as np
import pytest

import tractrix as tx

RNG = np.random.default_rng(7)
CONTROLS = np.array([(0, 0, 0), (1, 2, 0), (3, 2, 1), (4, 0, 0), (6, 1, 0), (7, 3, 2), (5, 5, 1)],
                    dtype=float)


def bernstein(c, t):
    s = 1 - t
    return s**3 * c[0] + 3 * s * s * t * c[1] + 3 * s * t * t * c[2] + t**3 * c[3]


def test_bezier_spline_is_the_segments_between_knots_and_handles():
    knots = RNG.normal(size=(5, 3)) * 10
    left, right = knots + RNG.normal(size=(5, 3)), knots + RNG.normal(size=(5, 3))
    for closed in (False, True):
        path = tx.Path.bezier_spline(knots, left, right, closed=closed)
        assert path.segment_count == (5 if closed else 4) and path.closed == closed
        for i in range(path.segment_count):
            j = (i + 1) % 5
            c = [knots[i], right[i], left[j], knots[j]]
            for t in (0.0, 0.3, 0.5, 0.9):
                point, _ = path.evaluate(i + t)
                np.testing.assert_allclose(point, bernstein(c, t), rtol=0, atol=1e-13)


def basis(knots, i, p, u):
    """N_{i,p}(u) by the Cox–de Boor recursion, long double (half-open spans)."""
    if p == 0:
        return np.longdouble(1 if knots[i] <= u < knots[i + 1] else 0)
    out = np.longdouble(0)
    if knots[i + p] > knots[i]:
        out += (u - knots[i]) / (knots[i + p] - knots[i]) * basis(knots, i, p - 1, u)
    if knots[i + p + 1] > knots[i + 1]:
        out += (knots[i + p + 1] - u) / (knots[i + p + 1] - knots[i + 1]) * basis(
            knots, i + 1, p - 1, u)
    return out


def nurbs_point(points, weights, knots, order, u):
    n = [basis(knots, i, order - 1, u) for i in range(len(points))]
    w = sum(n[i] * np.longdouble(weights[i]) for i in range(len(points)))
    return sum(n[i] * np.longdouble(weights[i]) * points[i].astype(np.longdouble)
               for i in range(len(points))) / w


def knot_vector(count, order, kind):
    """Uniform knots written out: open, clamped (Blender's Endpoint) and periodic (Cyclic)."""
    if kind == "open":
        return np.arange(count + order, dtype=np.longdouble)
    if kind == "endpoint":
        inner = list(range(1, count - order + 1))
        return np.array([0] * order + inner + [count - order + 1] * order, dtype=np.longdouble)
    return np.arange(count + 2 * order - 1, dtype=np.longdouble)  # over the wrapped points


@pytest.mark.parametrize("order", [2, 3, 4])
@pytest.mark.parametrize("kind", ["open", "endpoint", "closed"])
def test_nurbs_of_order_up_to_4_without_weights_are_exact(order, kind):
    path = tx.Path.nurbs(CONTROLS, order=order, closed=kind == "closed",
                         endpoint=kind == "endpoint")
    points = np.concatenate([CONTROLS, CONTROLS[:order - 1]]) if kind == "closed" else CONTROLS
    knots = knot_vector(len(CONTROLS), order, kind)
    spans = [k for k in range(order - 1, len(points)) if knots[k + 1] > knots[k]]
    assert path.segment_count == len(spans)
    for segment, k in enumerate(spans):
        for f in (0.0, 0.25, 0.6, 0.999):
            u = knots[k] + f * (knots[k + 1] - knots[k])
            expected = nurbs_point(points, np.ones(len(points)), knots, order, u)
            np.testing.assert_allclose(path.evaluate(segment + f)[0], expected.astype(float),
                                       rtol=0, atol=2e-14)


@pytest.mark.parametrize("order, weighted", [(4, True), (5, False), (6, True), (3, True)])
def test_weighted_and_higher_order_nurbs_are_within_the_tolerance(order, weighted):
    weights = RNG.uniform(0.3, 3.0, len(CONTROLS)) if weighted else None
    for kind in ("open", "endpoint", "closed"):
        tolerance = 1e-6
        path = tx.Path.nurbs(CONTROLS, weights, order=order, closed=kind == "closed",
                             endpoint=kind == "endpoint", tolerance=tolerance)
        points = np.concatenate([CONTROLS, CONTROLS[:order - 1]]) if kind == "closed" else CONTROLS
        w = np.ones(len(CONTROLS)) if weights is None else weights
        w = np.concatenate([w, w[:order - 1]]) if kind == "closed" else w
        knots = knot_vector(len(CONTROLS), order, kind)
        u = np.linspace(knots[order - 1], knots[len(points)], 157)[:-1]
        reference = np.array([nurbs_point(points, w, knots, order, x) for x in u], dtype=float)
        gaps = tx.MeasuredPath(path).closest_point(reference).gap
        assert gaps.max() <= tolerance
        ends = path.controls[[0, -1], [0, 3]]
        np.testing.assert_allclose(ends[0], reference[0], atol=1e-13)
        if kind == "endpoint":
            np.testing.assert_allclose(ends, CONTROLS[[0, -1]], atol=1e-13)
        if kind == "closed":
            np.testing.assert_array_equal(ends[0], ends[1])


def test_nurbs_arguments():
    with pytest.raises(ValueError, match=r"^weights: -1.0 is not positive$"):
        tx.Path.nurbs(CONTROLS, [1, 1, -1, 1, 1, 1, 1])
    with pytest.raises(ValueError, match=r"weights: expected one per control point \(7\)"):
        tx.Path.nurbs(CONTROLS, [1, 1])
    with pytest.raises(ValueError, match=r"controls: order 4 needs at least 4 control points, "
                                         r"got 3"):
        tx.Path.nurbs(CONTROLS[:3])
    with pytest.raises(ValueError, match=r"order: 7 not in \[2, 6\]"):
        tx.Path.nurbs(CONTROLS, order=7)
    with pytest.raises(ValueError, match="tolerance: -1.0 is not a finite non-negative length"):
        tx.Path.nurbs(CONTROLS, tolerance=-1)
    with pytest.raises(TypeError, match="endpoint: expected True or False"):
        tx.Path.nurbs(CONTROLS, endpoint=1)
    with pytest.raises(ValueError, match="left_handles, right_handles: expected one per knot"):
        tx.Path.bezier_spline(CONTROLS, CONTROLS[:2], CONTROLS)


def test_tilt_keys_are_the_knots_tilts_linear_in_t():
    knots = np.array([(0, 0, 0), (30, 0, 0), (60, 10, 0), (60, 40, 0)], float)
    handles = np.array([(-10, 0, 0), (10, 0, 0), (10, 10, 0), (0, 10, 0)], float)
    tilts = np.array([0.0, 0.4, -0.2, 1.0])
    for closed in (False, True):
        path = tx.MeasuredPath(tx.Path.bezier_spline(knots, knots - handles, knots + handles,
                                                     closed=closed))
        distances, angles = path.tilt_keys(tilts[:4], per_segment=4)
        n = path.path.segment_count
        t = np.arange(len(distances)) / 4
        assert len(distances) == n * 4 + (0 if closed else 1)
        np.testing.assert_allclose(path.point_at(distances), path.path.evaluate(t)[0], atol=1e-9)
        knot_tilts = np.concatenate([tilts, tilts[:1]]) if closed else tilts
        for k in range(len(t)):
            i, f = int(t[k]), t[k] - int(t[k])
            expected = knot_tilts[i] if f == 0 else (1 - f) * knot_tilts[i] + f * knot_tilts[i + 1]
            assert angles[k] == pytest.approx(expected, abs=1e-15)
        track = tx.Track(path, up=(0, 0, 1), roll=(distances, angles))
        flat = tx.Track(path, up=(0, 0, 1))
        a, b = track.frame_at(distances), flat.frame_at(distances)
        # rolled by each key's angle about the tangent, up turning towards the right (-side)
        expected_up = (np.cos(angles)[:, None] * b.rotation[:, :, 1]
                       - np.sin(angles)[:, None] * b.rotation[:, :, 0])
        np.testing.assert_allclose(a.rotation[:, :, 1], expected_up, atol=1e-12)
    with pytest.raises(ValueError, match=r"tilts: expected one per knot \(4 on this open path"):
        path = tx.MeasuredPath(tx.Path.bezier_spline(knots, knots - handles, knots + handles))
        path.tilt_keys([0.0, 1.0])
