#!/usr/bin/env python3
"""Builds the TrainDriver add-on zip for Blender: the add-on's files and tractrix's Python package
(its compiled core built for Blender's Python), installable with Blender's
Edit > Preferences > Add-ons > Install.

    python3 blender/build_addon.py                      # builds the wheel with this Python
    python3 blender/build_addon.py --wheel build/wheels/tractrix-0.3.0-cp311-*.whl

The compiled core must match Blender's Python (major.minor): run this with the same Python
version Blender has (Debian's blender: the system python3; Blender's own builds: the version in
its Python console, e.g. 3.10 for Blender 3.4) or pass a wheel built by one.
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def build_wheel(python, into):
    """A wheel built by `python` in a virtual environment of its own (a system Python may have no
    pip, or refuse to install into itself)."""
    venv = os.path.join(into, "venv")
    subprocess.run([python, "-m", "venv", venv], check=True)
    pip = os.path.join(venv, "bin", "pip")
    subprocess.run([pip, "wheel", "--no-deps", ROOT, "-w", into], check=True)
    wheels = glob.glob(os.path.join(into, "tractrix-*.whl"))
    if len(wheels) != 1:
        sys.exit(f"build_addon: expected one tractrix wheel in {into}, found {wheels}")
    return wheels[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", help="a tractrix wheel built for Blender's Python")
    parser.add_argument("--python", default=sys.executable,
                        help="the Python to build the wheel with (default: this one)")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "blender", "traindriver.zip"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        wheel = args.wheel or build_wheel(args.python, scratch)
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with zipfile.ZipFile(wheel) as source, \
                zipfile.ZipFile(args.out, "w", zipfile.ZIP_DEFLATED) as addon:
            for name in sorted(os.listdir(os.path.join(HERE, "traindriver"))):
                if name.endswith(".py"):
                    addon.write(os.path.join(HERE, "traindriver", name), f"traindriver/{name}")
            packaged = [n for n in source.namelist() if n.startswith("tractrix/")]
            if not any("_tractrix" in n and n.endswith((".so", ".pyd")) for n in packaged):
                sys.exit(f"build_addon: {wheel} has no compiled core")
            for name in packaged:
                addon.writestr(f"traindriver/{name}", source.read(name))
    tag = os.path.basename(wheel).split("-")[2]
    print(f"build_addon: wrote {args.out} (tractrix core for {tag})")


if __name__ == "__main__":
    main()
