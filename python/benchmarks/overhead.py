"""What calling tractrix from Python costs over calling it from C++ (figures in
benchmarks/README.md, "Python").

A 10⁴-wagon solve through the package against the same solve timed inside C++ by the compiled
module itself (same binary, same run), on three tracks of the benchmark family: every output
(written over the arrays of an earlier solve) against TrainSolver::solve into a WagonPose buffer
and against solve into four PoseArrays (position + quaternion of both bogies, the body and the
centred body); only the body's position + quaternion, what a DCC scene update reads, against the
same into one PoseArray. And the per-call cost of one query.

    build/venv/bin/python python/benchmarks/overhead.py
"""

import statistics
import time

import numpy as np

import tractrix as tx
from tractrix import _tractrix


def loop_keys(kind, rng):
    angles = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    radius = 3000.0
    if kind == "gentle":
        keys = np.stack([radius * np.cos(angles), 20 * np.sin(3 * angles),
                         radius * np.sin(angles)], axis=1)
    elif kind == "tight":  # hairpin swings between keys
        wobble = 120 * np.where(np.arange(64) % 2 == 0, 1.0, -1.0)
        keys = np.stack([(radius + wobble) * np.cos(angles), np.zeros(64),
                         (radius + wobble) * np.sin(angles)], axis=1)
    else:  # noisy hand-placed keys
        keys = np.stack([radius * np.cos(angles), np.zeros(64), radius * np.sin(angles)], axis=1)
        keys += rng.uniform(-60, 60, size=keys.shape)
    return keys


def best_of(function, repeats, rounds=7):
    """Median over rounds of the mean seconds per call."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for r in range(repeats):
            function(r)
        times.append((time.perf_counter() - start) / repeats)
    return statistics.median(times)


def main():
    rng = np.random.default_rng(1)
    wagons = np.array([(1.8, 1.2)] * 10_000)
    body_parts = ("body_position", "body_quaternion")
    print("ms per 10^4-wagon solve; each ratio: the Python time to its left over the C++ peer "
          "before it (only 'C++ body' has the same outputs as its Python column)")
    print(f"{'track':8} {'spacing':7} | {'C++ poses':>9} {'Py all':>7} {'ratio':>5} | "
          f"{'C++ 4 parts':>11} {'Py all':>7} {'ratio':>5} | {'C++ body':>8} {'Py body':>7} "
          f"{'ratio':>5}")
    for kind in ("gentle", "tight", "noisy"):
        path = tx.MeasuredPath(tx.Path.catmull_rom(loop_keys(kind, rng), closed=True))
        track = tx.Track(path)
        for spacing in ("arc", "chord"):
            train = tx.TrainSolver(track, wagons, spacing=spacing)

            def cpp(outputs):
                return statistics.median(train._core.time_solve_in_cpp(100.0, 20, outputs)
                                         for _ in range(7))

            poses_cpp, parts_cpp, body_cpp = cpp("poses"), cpp("bogies_and_body"), cpp("body")
            poses = train.solve(0.0)
            full = best_of(lambda r: train.solve(100.0 + 1e-9 * r, out=poses), 20)
            body_poses = train.solve(0.0, parts=body_parts)
            body = best_of(lambda r: train.solve(100.0 + 1e-9 * r, parts=body_parts,
                                                 out=body_poses), 20)
            print(f"{kind:8} {spacing:7} | {poses_cpp * 1e3:9.3f} {full * 1e3:7.3f} "
                  f"{full / poses_cpp:5.2f} | {parts_cpp * 1e3:11.3f} {full * 1e3:7.3f} "
                  f"{full / parts_cpp:5.2f} | {body_cpp * 1e3:8.3f} {body * 1e3:7.3f} "
                  f"{body / body_cpp:5.2f}")

    path = tx.MeasuredPath(tx.Path.catmull_rom(loop_keys("gentle", rng), closed=True))
    one = np.array([5.0])
    out = np.empty((1, 3))
    single = best_of(lambda r: path.point_at(5.0), 20000)
    core = best_of(lambda r: path._core.points_at(one, out), 20000)
    thousand = np.linspace(0, path.length, 1000)
    batch = best_of(lambda r: path.point_at(thousand), 2000)
    print(f"point_at(scalar): {single * 1e6:.2f} µs per call "
          f"(the compiled core alone, arrays given: {core * 1e6:.2f} µs); "
          f"point_at(1000 distances): {batch * 1e6 / 1000 * 1e3:.0f} ns per distance")


if __name__ == "__main__":
    main()
