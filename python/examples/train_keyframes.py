"""A train that starts from rest, runs one lap of a banked loop and stops, baked to keyframes.

Writes train_keyframes.json (per wagon: a position and an x, y, z, w quaternion per frame, the
body centred between its bogies — what a DCC script sets on a wagon mesh) and train.svg (the
track seen from above, the train at every 12th frame). All frames of all wagons come from one
solve call.

    build/venv/bin/python python/examples/train_keyframes.py [output directory]
"""

import json
import pathlib
import sys

import numpy as np

import tractrix as tx

FPS = 24

# A hilly loop through eight hand-placed keys, and a rail beside it that banks the curves.
keys = np.array([(0, 0, 0), (60, 2, -10), (110, 6, 10), (120, 4, 70), (70, 0, 100),
                 (10, -2, 80), (-30, 0, 60), (-30, 1, 20)], dtype=float)
centre = keys.mean(axis=0)
outward = (keys - centre) * (1, 0, 1)
rail_keys = keys + (0, 1.5, 0) - 0.06 * outward / np.linalg.norm(outward, axis=1)[:, None]
track = tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(keys, closed=True)),
                 rail=tx.MeasuredPath(tx.Path.catmull_rom(rail_keys, closed=True)))
# A locomotive and five wagons: (length, bogie distance, coupler overhang).
train = tx.TrainSolver(track, [(16, 11, 2.5)] + [(12, 8, 2)] * 5)

# Start from rest, one lap with jerk-limited speed changes, stop: distance along the track.
move = tx.TimeProfile.s_curve(track.length, max_speed=25, max_acceleration=4, max_jerk=3)
times = np.arange(0, move.duration + 1 / FPS, 1 / FPS)
heads = 70 + track.length * move.at(times).value
poses = train.solve(heads, parts=("body_midpoint", "body_quaternion", "body_rotation"))

out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build/python_example")
out.mkdir(parents=True, exist_ok=True)
keyframes = {
    "fps": FPS,
    "frame_count": len(times),
    "axes": "+Y up, wagons face +Z",
    "wagons": [{"name": "locomotive" if j == 0 else f"wagon_{j}",
                "position": poses.body_midpoint[:, j].round(6).tolist(),
                "quaternion_xyzw": poses.body_quaternion[:, j].round(9).tolist()}
               for j in range(train.wagon_count)],
}
(out / "train_keyframes.json").write_text(json.dumps(keyframes))

# The picture: x to the right, z down the page; the train at four moments, each wagon a
# rectangle along its body; below, the speed over time with the same moments marked.
line = track.path.point_at(np.linspace(0, track.length, 400))
lo = line[:, [0, 2]].min(axis=0) - 15
size = line[:, [0, 2]].max(axis=0) + 15 - lo
plot_top, plot_height = size[1] + 5, 40
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size[0]:.0f} '
       f'{plot_top + plot_height + 8:.0f}" width="{4 * size[0]:.0f}" '
       f'height="{4 * (plot_top + plot_height + 8):.0f}" font-family="sans-serif" font-size="4">',
       '<rect width="100%" height="100%" fill="#f7f5ef"/>',
       '<polyline fill="none" stroke="#888" stroke-width="1.2" points="'
       + " ".join(f"{x - lo[0]:.2f},{z - lo[1]:.2f}" for x, _, z in line) + '"/>']
speed = track.length * move.at(times).rate
to_x = (size[0] - 20) / times[-1]
svg.append('<polyline fill="none" stroke="#444" stroke-width="0.6" points="' + " ".join(
    f"{10 + t * to_x:.2f},{plot_top + plot_height * (1 - v / speed.max()):.2f}"
    for t, v in zip(times, speed)) + '"/>')
svg.append(f'<text x="10" y="{plot_top + plot_height + 6:.0f}">speed (s-curve start and stop, '
           f'peak {speed.max():.1f}/s over {times[-1]:.1f} s)</text>')
half_lengths = [0.5 * 11 + 2.5] + [0.5 * 8 + 2] * 5
for colour, fraction in zip(("#2b6cb0", "#2f855a", "#b7791f", "#c53030"), (0, 0.3, 0.55, 0.8)):
    f = int(fraction * (len(times) - 1))
    for j in range(train.wagon_count):
        middle, rotation = poses.body_midpoint[f, j], poses.body_rotation[f, j]
        corners = [middle + a * half_lengths[j] * rotation[:, 2] + b * 1.6 * rotation[:, 0]
                   for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1))]
        svg.append(f'<polygon fill="{colour}" points="' + " ".join(
            f"{c[0] - lo[0]:.2f},{c[2] - lo[1]:.2f}" for c in corners) + '"/>')
    svg.append(f'<circle cx="{10 + times[f] * to_x:.2f}" '
               f'cy="{plot_top + plot_height * (1 - speed[f] / speed.max()):.2f}" r="1.5" '
               f'fill="{colour}"/>')
svg.append("</svg>")
(out / "train.svg").write_text("\n".join(svg))
print(f"{len(times)} frames ({move.duration:.1f} s) of {train.wagon_count} wagons on a "
      f"{track.length:.1f}-unit loop: {out / 'train_keyframes.json'}, {out / 'train.svg'}")
