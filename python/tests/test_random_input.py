"""Random arguments to every public call: each returns or raises TypeError, ValueError or
IndexError — never crashes the interpreter, never another exception. A fuzzer in the spirit of
tests/fuzz (the package's input comes from users' scripts and scenes)."""

import numpy as np
import pytest

import tractrix as tx

SPECIAL = [0.0, -0.0, 1.0, -1.0, 1e-300, 1e300, -1e300, np.inf, -np.inf, np.nan, 5e-324, 3.0,
           100.0]


def random_array(rng, max_dims=3):
    """Arrays of random shape and dtype, values from SPECIAL or uniform, sometimes views."""
    kind = rng.integers(0, 10)
    if kind == 0:
        odd = [None, "x", [], [[]], [1, [2]], 3, 2.5, True, (1, 2, 3), 10 ** 30, 10 ** 400, object()]
        return odd[rng.integers(len(odd))]
    shape = tuple(int(d) for d in rng.integers(0, 5, size=rng.integers(0, max_dims + 1)))
    values = rng.uniform(-100, 100, size=shape)
    if rng.random() < 0.3:
        values = rng.choice(SPECIAL, size=shape)
    dtype = rng.choice([np.float64, np.float32, np.int64, np.int8, np.float16, np.complex64,
                        np.bool_, np.uint8])
    with np.errstate(all="ignore"):
        array = np.asarray(values).astype(dtype)
    if array.ndim >= 1 and array.shape[0] > 1 and rng.random() < 0.3:
        array = array[::2]
    if array.ndim >= 2 and rng.random() < 0.3:
        array = array.T
    return array


def points(rng, n=None):
    n = int(rng.integers(2, 8)) if n is None else n
    keys = np.cumsum(rng.uniform(-10, 10, size=(n, 3)) + (12, 0, 0), axis=0)
    return keys


def call(function, *args, **kwargs):
    try:
        function(*args, **kwargs)
    except (TypeError, ValueError, IndexError):
        pass


@pytest.mark.parametrize("seed", range(6))
def test_random_arguments_raise_or_return(seed):
    rng = np.random.default_rng(seed)
    path = tx.Path.catmull_rom(points(rng, 6), closed=True)
    curve = tx.MeasuredPath(path)
    track = tx.Track(curve)
    train = tx.TrainSolver(track, [(8, 5)] * 4)
    open_curve = tx.MeasuredPath(tx.Path.catmull_rom(points(rng, 5)))
    network = tx.Network([tx.Track(open_curve)], [])
    route = tx.Route(network, [(0, "forward")])
    route_train = tx.TrainSolver(route, [(8, 5)] * 3, wrap="clamp")
    profile = tx.TimeProfile.s_curve(10, 2, 1, 1)
    reader = tx.PoseReader()
    arm = tx.StretchChain([3, 2])
    camera = tx.CameraRig(points(rng, 4), profile)
    limits = tx.SpeedLimits.from_curvature(track, 20, 1, 5)
    plan = tx.SpeedPlan(limits, 20, 1, 1, 0.5, stations=[(limits.length / 2, 3)])
    calls = [
        lambda a, b: tx.Path.catmull_rom(a), lambda a, b: tx.Path.hermite(a, b),
        lambda a, b: tx.Path.bezier(a), lambda a, b: tx.Path.kochanek_bartels(a, tension=b),
        lambda a, b: path.evaluate(a), lambda a, b: curve.point_at(a),
        lambda a, b: curve.tangent_at(a), lambda a, b: curve.sample(a),
        lambda a, b: curve.parameter_at(a, linear=bool(rng.integers(2))),
        lambda a, b: curve.distance_at(a), lambda a, b: curve.curvature_at(a),
        lambda a, b: curve.closest_point(a), lambda a, b: tx.MeasuredPath(path, a),
        lambda a, b: tx.Track(curve, up=a), lambda a, b: tx.Track(curve, roll=(a, b)),
        lambda a, b: track.frame_at(a), lambda a, b: tx.TrainSolver(track, a),
        lambda a, b: train.solve(a), lambda a, b: train.solve(a, parts=("lap", "coupler")),
        lambda a, b: route_train.solve(a), lambda a, b: network.closest_point(a),
        lambda a, b: route.around(a, b, network.default_settings(), 10, 10),
        lambda a, b: tx.TimeProfile.keyed(a, b), lambda a, b: profile.at(a),
        lambda a, b: tx.TimeProfile.s_curve(a, b, 1, 1), lambda a, b: reader.weight(a, b),
        lambda a, b: tx.PoseReader(cone=(a, b)), lambda a, b: tx.StretchChain(a),
        lambda a, b: arm.lengths(a, scale=b), lambda a, b: arm.two_bone(a, b, (0, 0, 1)),
        lambda a, b: tx.CameraRig(a, profile, view_directions=b), lambda a, b: camera.at(a),
        lambda a, b: camera.look_at_point(a).at(b), lambda a, b: camera.with_world_up(a),
        lambda a, b: tx.SpeedLimits.line(a, b), lambda a, b: limits.with_zones(a),
        lambda a, b: limits.for_train(a), lambda a, b: limits.at(a),
        lambda a, b: tx.SpeedLimits.from_curvature(route, 20, a, b),
        lambda a, b: tx.SpeedPlan(limits, 20, 1, 1, 0.5, start=a, stations=b),
        lambda a, b: tx.SpeedPlan(limits, 20, 1, 1, 0.5, hold=a), lambda a, b: plan.at(a),
        lambda a, b: plan.time_at(a), lambda a, b: plan.dwell_left(a),
        lambda a, b: plan.state_at(a),
    ]
    for _ in range(1500):
        function = calls[rng.integers(len(calls))]
        a, b = random_array(rng), random_array(rng)
        if rng.random() < 0.2 and isinstance(a, np.ndarray) and a.size:
            a = a.reshape(-1)[0].item() if a.dtype.kind != "c" else a
        if rng.random() < 0.2 and isinstance(b, np.ndarray) and b.size:
            b = b.reshape(-1)[0].item() if b.dtype.kind != "c" else b
        call(function, a, b)
