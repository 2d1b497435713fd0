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
    if p == 0:  # u: a number or an array of them
        return np.where((knots[i] <= u) & (u < knots[i + 1]), np.longdouble(1),
                        np.longdouble(0))
    out = np.longdouble(0)
    if knots[i + p] > knots[i]:
        out += (u - knots[i]) / (knots[i + p] - knots[i]) * basis(knots, i, p - 1, u)
    if knots[i + p + 1] > knots[i + 1]:
        out += (knots[i + p + 1] - u) / (knots[i + p + 1] - knots[i + 1]) * basis(
            knots, i + 1, p - 1, u)
    return out


def nurbs_point(points, weights, knots, order, u):
    """The curve at u (a number, or an array: then (len(u), 3))."""
    u = np.asarray(u, dtype=np.longdouble)
    n = [basis(knots, i, order - 1, u) for i in range(len(points))]
    w = sum(n[i] * np.longdouble(weights[i]) for i in range(len(points)))
    return sum(np.multiply.outer(n[i] * np.longdouble(weights[i]),
                                 points[i].astype(np.longdouble))
               for i in range(len(points))) / np.asarray(w)[..., None]


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
        reference = nurbs_point(points, w, knots, order, u).astype(float)
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


def nurbs_tilt_reference(points, weights, tilts, knots, order, u):
    u = np.asarray(u, dtype=np.longdouble)
    n = [basis(knots, i, order - 1, u) for i in range(len(points))]
    w = sum(n[i] * np.longdouble(weights[i]) for i in range(len(points)))
    return sum(n[i] * np.longdouble(weights[i] * tilts[i]) for i in range(len(points))) / w


@pytest.mark.parametrize("order, weighted", [(3, False), (4, False), (4, True), (5, True)])
@pytest.mark.parametrize("kind", ["open", "endpoint", "closed"])
def test_nurbs_tilt_is_blended_by_the_curves_rational_basis(order, weighted, kind):
    tilts = np.array([0.0, 0.6, -0.2, 0.3, 1.0, 0.1, -0.4])
    weights = RNG.uniform(0.5, 2.0, len(CONTROLS)) if weighted else None
    args = dict(order=order, closed=kind == "closed", endpoint=kind == "endpoint")
    path = tx.Path.nurbs(CONTROLS, weights, **args)
    t, angles = tx.Path.nurbs_tilt(tilts, CONTROLS, weights, per_segment=4, **args)
    assert len(t) == 4 * path.segment_count + (0 if kind == "closed" else 1)
    np.testing.assert_array_equal(t, np.arange(len(t)) / 4)
    closed = kind == "closed"
    points = np.concatenate([CONTROLS, CONTROLS[:order - 1]]) if closed else CONTROLS
    w = np.ones(len(CONTROLS)) if weights is None else weights
    w = np.concatenate([w, w[:order - 1]]) if closed else w
    tilt = np.concatenate([tilts, tilts[:order - 1]]) if closed else tilts
    knots = knot_vector(len(CONTROLS), order, kind)
    # Each key's curve parameter u, found where the curve passes the path's point at t (a dense
    # grid refined by bisection on the distance), then the tilt there from the basis functions.
    grid = np.linspace(knots[order - 1], knots[len(points)] - 1e-9, 601)
    curve = nurbs_point(points, w, knots, order, grid).astype(float)
    targets = path.evaluate(t)[0]
    nearest = ((curve[None] - targets[:, None]) ** 2).sum(-1).argmin(axis=1)
    lo = grid[np.maximum(nearest - 1, 0)]
    hi = grid[np.minimum(nearest + 1, len(grid) - 1)]
    for _ in range(30):  # ternary search on the distance, every key at once
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        d1, d2 = (np.linalg.norm(nurbs_point(points, w, knots, order, m).astype(float) - targets,
                                 axis=1) for m in (m1, m2))
        lo, hi = np.where(d1 < d2, lo, m1), np.where(d1 < d2, m2, hi)
    u = np.minimum((lo + hi) / 2, knots[len(points)] - 1e-12)
    expected = nurbs_tilt_reference(points, w, tilt, knots, order, u).astype(float)
    worst = np.abs(angles - expected).max()
    assert worst < 1e-6


def test_nurbs_closed_and_endpoint_are_refused_and_tiny_tolerances_floored():
    with pytest.raises(ValueError, match="endpoint: a closed .periodic. NURBS curve has no end "
                                         "points; give closed or endpoint, not both"):
        tx.Path.nurbs(CONTROLS, closed=True, endpoint=True)
    weights = RNG.uniform(0.5, 2, len(CONTROLS))
    fine = tx.Path.nurbs(CONTROLS, weights, tolerance=1e-200)
    floor = tx.Path.nurbs(CONTROLS, weights, tolerance=1e-12 * np.ptp(CONTROLS, axis=0).max())
    assert fine.segment_count == floor.segment_count < 2000
    with pytest.raises(ValueError, match=r"tilts: expected one per control point \(7\), got 2"):
        tx.Path.nurbs_tilt([0, 1], CONTROLS)


def test_dcc_curve_arguments_are_named():
    two = CONTROLS[:2]
    path = tx.Path.bezier_spline(two, two - 1, two + 1)  # two knots: one segment
    assert path.segment_count == 1
    with pytest.raises(ValueError, match=r"^knots: a spline needs at least 2, got 1$"):
        tx.Path.bezier_spline(two[:1], two[:1], two[:1])
    for args, name in (((None, two, two), "knots"), ((two, None, two), "left_handles"),
                       ((two, two, None), "right_handles")):
        with pytest.raises(TypeError, match=rf"^{name}: expected numbers, got None$"):
            tx.Path.bezier_spline(*args)
    with pytest.raises(TypeError, match=r"^closed: expected True or False, got 1$"):
        tx.Path.bezier_spline(two, two, two, closed=1)
    with pytest.raises(TypeError, match=r"^closed: expected True or False, got 'yes'$"):
        tx.Path.hermite(two, two, closed="yes")
    measured = tx.MeasuredPath(path)
    with pytest.raises(TypeError, match=r"^tilts: expected numbers, got None$"):
        measured.tilt_keys(None)
    with pytest.raises(ValueError, match=r"^tilts: expected one per knot \(2 on this open path "
                                         r"of 1 segments\), got 3$"):
        measured.tilt_keys([0, 1, 2])
    loop = tx.MeasuredPath(tx.Path.bezier_spline(CONTROLS[:3], CONTROLS[:3] - 1,
                                                 CONTROLS[:3] + 1, closed=True))
    with pytest.raises(ValueError, match=r"^tilts: expected one per knot \(3 on this closed "
                                         r"path of 3 segments\), got 4$"):
        loop.tilt_keys([0, 1, 2, 3])
    assert len(measured.tilt_keys([0, 1], per_segment=1)[0]) == 2
    assert len(measured.tilt_keys([0, 1], per_segment=1024)[0]) == 1025
    for per in (0, 1025):
        with pytest.raises(ValueError, match=rf"^per_segment: {per} not in \[1, 1024\]$"):
            measured.tilt_keys([0, 1], per_segment=per)
