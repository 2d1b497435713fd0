"""Shared fixtures: the C++ library's own answers (reference.cpp, compiled here with the system
compiler against the same headers) for test_same_as_cpp.py."""

import os
import pathlib
import shlex
import subprocess

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _eigen_flags():
    try:
        flags = subprocess.run(["pkg-config", "--cflags", "eigen3"], check=True,
                               capture_output=True, text=True).stdout
        return shlex.split(flags)
    except (OSError, subprocess.CalledProcessError):
        return ["-I/usr/include/eigen3"]


def _reference_output(exe):
    compiler = shlex.split(os.environ.get("CXX", "c++"))
    # As the module is built: no FMA contraction (python/CMakeLists.txt), the same CXXFLAGS.
    command = compiler + ["-std=c++17", "-O3", "-DNDEBUG", "-ffp-contract=off",
                          *shlex.split(os.environ.get("CXXFLAGS", "")), f"-I{ROOT / 'include'}",
                          *_eigen_flags(), str(ROOT / "python/tests/reference.cpp"), "-o",
                          str(exe)]
    built = subprocess.run(command, capture_output=True, text=True)
    assert built.returncode == 0, f"{' '.join(command)}\n{built.stderr}"
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="session")
def cpp(tmp_path_factory):
    """name -> float64 array, from the C++ reference program."""
    # tools/mutate_python.sh runs the tests once a mutant, with unchanged headers: it names a file
    # here, written by the first run and read by the others.
    saved = pathlib.Path(os.environ.get("TRACTRIX_REFERENCE_OUTPUT", ""))
    if saved.name and saved.exists():
        output = saved.read_text()
    else:
        output = _reference_output(tmp_path_factory.mktemp("reference") / "reference")
        if saved.name:
            saved.write_text(output)
    values = {}
    for line in output.splitlines():
        name, *numbers = line.split()
        values[name] = np.array([float(v) for v in numbers])
    return values
