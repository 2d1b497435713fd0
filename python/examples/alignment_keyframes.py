"""A train driven along a railway alignment read from a file, baked to keyframes.

Reads an alignment (the valley line's LandXML by default; an IFC 4.3 file through IfcOpenShell
when the path ends in .ifc), limits the speed by its cant (v = sqrt(g R (cant + deficiency) / b)),
plans the run from rest to a stop at the end, and writes alignment_keyframes.json: per wagon a
position and an x, y, z, w quaternion per frame (the body centred between its bogies, leaning
with the cant), plus the chainage and speed of the locomotive per frame.

    build/venv/bin/python python/examples/alignment_keyframes.py [alignment file] [output dir]
"""

import json
import pathlib
import sys

import numpy as np

import tractrix as tx

FPS = 24
ROOT = pathlib.Path(__file__).resolve().parents[2]

source = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else \
    ROOT / "demos" / "alignments" / "valley_line.xml"
if source.suffix.lower() == ".ifc":
    import tractrix.ifc

    line = tractrix.ifc.read_alignments(source)[0]
else:
    line = tx.read_landxml(str(source))[0]

# A locomotive and four coaches: (length, bogie distance, coupler overhang), in metres.
train = tx.TrainSolver(line, [(20, 14, 2.5)] + [(26, 19, 2.0)] * 4, spacing="chord")

# 160 km/h on the straights, 130 mm of cant deficiency allowed in the curves; the head's run
# from rest at the start to a stop at the end, jerk-limited.
limits = tx.SpeedLimits.from_cant(line, max_velocity=160 / 3.6, cant_deficiency=0.13,
                                  section_length=25.0).for_train(4 * 26 + 20)
plan = tx.SpeedPlan(limits, max_velocity=160 / 3.6, max_acceleration=0.6,
                    max_deceleration=0.8, max_jerk=0.5, start=120.0)
times = np.arange(0, plan.duration + 1 / FPS, 1 / FPS)
head = plan.at(times)
poses = train.solve(head.position, parts=("body_midpoint", "body_quaternion"))

out = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "build/python_example")
out.mkdir(parents=True, exist_ok=True)
keyframes = {
    "alignment": line.name,
    "fps": FPS,
    "frame_count": int(times.size),
    "chainage": (line.start_station + line.horizontal_at(head.position)).round(4).tolist(),
    "speed": head.velocity.round(4).tolist(),
    "wagons": [{"position": poses.body_midpoint[:, w].round(6).tolist(),
                "quaternion_xyzw": poses.body_quaternion[:, w].round(9).tolist()}
               for w in range(train.wagon_count)],
}
(out / "alignment_keyframes.json").write_text(json.dumps(keyframes))
print(f"{line}: {times.size} frames, {plan.duration:.1f} s, top speed "
      f"{head.velocity.max() * 3.6:.1f} km/h; wrote {out / 'alignment_keyframes.json'}")
