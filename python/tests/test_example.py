"""The Python example runs and bakes what it says: one lap from rest to rest."""

import json
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
