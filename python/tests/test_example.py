"""The Python examples run and bake what they say: one lap from rest to rest; a run along an
alignment leaning with its cant and keeping its speed limit."""

import json
import math
import pathlib
import subprocess
import sys

import numpy as np

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "train_keyframes.py"


def test_train_keyframes_bakes_one_lap(tmp_path):
    run = subprocess.run([sys.executable, str(EXAMPLE), str(tmp_path)], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    keyframes = json.loads((tmp_path / "train_keyframes.json").read_text())
    assert keyframes["fps"] == 24 and len(keyframes["wagons"]) == 6
    for wagon in keyframes["wagons"]:
        position = np.array(wagon["position"])
        quaternion = np.array(wagon["quaternion_xyzw"])
        assert position.shape == (keyframes["frame_count"], 3)
        np.testing.assert_allclose(np.linalg.norm(quaternion, axis=1), 1, atol=2e-9)
        # A whole lap ends where it started; at rest, so the last frames barely move.
        np.testing.assert_allclose(position[-1], position[0], atol=2e-6)
        np.testing.assert_allclose(quaternion[-1], quaternion[0], atol=2e-9)
        step = np.linalg.norm(np.diff(position, axis=0), axis=1)
        assert step[0] < 0.01 and step[-1] < 0.01 and step.max() > 0.9  # 25 units/s at 24 fps
    assert (tmp_path / "train.svg").read_text().startswith("<svg")


def test_the_python_pages_snippet_runs():
    page = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md").read_text()
    code = page[page.index("```python") + len("```python"):]
    code = code[:code.index("```")]
    scope = {}
    exec(compile(code, "docs/python.md", "exec"), scope)
    assert scope["poses"].body_quaternion.shape == (240, 3, 4)


ALIGNMENT_EXAMPLE = EXAMPLE.parent / "alignment_keyframes.py"


def test_alignment_keyframes_lean_with_the_cant_and_keep_its_limit(tmp_path):
    """The valley line's arc from chainage 420 to 770 turns left at R 600 with 100 mm of cant
    (its LandXML file): there the locomotive leans left by asin(0.1 / 1.5) and runs no faster
    than sqrt(g R (cant + deficiency) / b) with the example's 130 mm of deficiency."""
    import tractrix as tx
    if not tx._core.has_landxml():
        import pytest
        pytest.skip("the package was built without pugixml")
    run = subprocess.run([sys.executable, str(ALIGNMENT_EXAMPLE),
                          str(EXAMPLE.parents[2] / "demos/alignments/valley_line.xml"),
                          str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    keyframes = json.loads((tmp_path / "alignment_keyframes.json").read_text())
    chainage, speed = np.array(keyframes["chainage"]), np.array(keyframes["speed"])
    assert keyframes["alignment"] == "Valley line" and len(keyframes["wagons"]) == 5
    assert speed[0] == 0 and abs(speed[-1]) < 1e-6 and np.all(np.diff(chainage) >= -1e-9)
    in_arc = (chainage > 560) & (chainage < 760)
    assert in_arc.sum() > 100
    limit = math.sqrt(9.80665 * 600 * (0.1 + 0.13) / 1.5)
    assert speed[in_arc].max() <= limit + 1e-6 and speed[in_arc].max() > 0.9 * limit
    q = np.array(keyframes["wagons"][0]["quaternion_xyzw"])[in_arc]
    x, y, z, w = q.T
    up = np.stack([2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)], -1)
    forward = np.stack([2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)], -1)
    left = np.stack([-forward[:, 1], forward[:, 0], 0 * x], -1)
    left /= np.linalg.norm(left, axis=1)[:, None]
    lean = np.arcsin(np.einsum("ij,ij->i", up, left))
    assert np.abs(lean - math.asin(0.1 / 1.5)).max() < 1e-6
