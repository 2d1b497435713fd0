"""Compares tractrix's time-optimal durations (durations.cpp's output) with Ruckig's.

python compare.py cases.txt — needs `pip install ruckig`. Prints how many agree to 1e-10 relative
and the largest differences either way.
"""
import sys

from ruckig import InputParameter, Result, Ruckig, Trajectory


def main(path):
    otg, inp, traj = Ruckig(1), InputParameter(1), Trajectory(1)
    differences = []
    for line in open(path):
        vmax, amax, dmax, jmax, p, v, a, target, velocity, duration = map(float, line.split())
        inp.current_position, inp.current_velocity, inp.current_acceleration = [p], [v], [a]
        inp.target_position, inp.target_velocity, inp.target_acceleration = [target], [velocity], [0.0]
        inp.max_velocity, inp.max_acceleration = [vmax], [amax]
        inp.min_acceleration, inp.max_jerk = [-dmax], [jmax]
        if otg.calculate(inp, traj) != Result.Working:
            print("ruckig failed:", line.strip())
            continue
        differences.append(((duration - traj.duration) / traj.duration, line.strip()))
    agree = sum(1 for d, _ in differences if abs(d) <= 1e-10)
    print(f"{len(differences)} moves, {agree} agree to 1e-10 relative")
    differences.sort()
    print(f"tractrix shorter by at most {-min(0.0, differences[0][0]):.3g}, "
          f"longer by at most {max(0.0, differences[-1][0]):.3g}")
    for d, line in differences[:3] + differences[-3:]:
        if abs(d) > 1e-10:
            print(f"{d:+.3g}: {line}")


if __name__ == "__main__":
    main(sys.argv[1])
