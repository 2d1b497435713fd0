"""Many Python threads on one shared track, route and network: the compiled calls release the
GIL, so they run at once; every thread's answers must be the ones one thread gets."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import tractrix as tx


def _scene():
    rng = np.random.default_rng(73)
    angles = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    keys = np.column_stack([200 * np.cos(angles) * rng.uniform(0.8, 1.2, 12),
                            rng.uniform(-5, 5, 12),
                            200 * np.sin(angles) * rng.uniform(0.8, 1.2, 12)])
    path = tx.MeasuredPath(tx.Path.catmull_rom(keys, closed=True))
    track = tx.Track(path, rotation_minimizing=True)
    network = tx.Network([tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(keys[k:k + 5])))
                          for k in (0, 6)], joints=[])
    train = tx.TrainSolver(track, [(12.0 + k % 3, 9.0) for k in range(40)], spacing="chord")
    return path, track, network, train


def _ask(scene, round_):
    path, track, network, train = scene
    length = path.length
    heads = length * (0.013 * round_ + np.linspace(0.1, 0.9, 8))
    poses = train.solve(heads, parts=("body_position", "body_quaternion", "rear_distance"))
    frames = track.frame_at(length * np.linspace(0, 1, 64) * (0.5 + 0.001 * round_))
    queries = path.point_at(length * np.linspace(0, 1, 32)) + np.array([3.0, -2.0, 1.0])
    near = path.closest_point(queries)
    on = network.closest_point(queries)
    return [poses.body_position, poses.body_quaternion, poses.rear_distance, frames.position,
            frames.rotation, near.distance, near.gap, on.piece, on.distance]


def test_threads_share_tracks_and_get_one_threads_answers():
    scene = _scene()
    rounds = range(24)
    expected = [_ask(scene, r) for r in rounds]
    with ThreadPoolExecutor(max_workers=6) as pool:
        got = list(pool.map(lambda r: _ask(scene, r), [r for _ in range(4) for r in rounds]))
    for k, answers in enumerate(got):
        for a, b in zip(answers, expected[k % len(expected)]):
            np.testing.assert_array_equal(a, b)
