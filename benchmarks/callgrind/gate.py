#!/usr/bin/env python3
"""Instruction-count gate: runs the callgrind drivers on a fixed set of cases and fails when a
figure rises more than 5 % over benchmarks/callgrind/baseline.txt.

Instruction counts do not depend on the machine's load, so they catch a regression the day it
lands, where timings would need repeated runs. They do depend on the compiler: the baseline
records the compiler it was measured with, and on another compiler the gate prints the figures
and passes with a warning (refresh the baseline there with --update).

    python3 benchmarks/callgrind/gate.py            # check (CI runs this)
    python3 benchmarks/callgrind/gate.py --update   # write the figures as the new baseline
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
BASELINE = ROOT / "benchmarks" / "callgrind" / "baseline.txt"
TOLERANCE = 0.05

# name: (driver, arguments, operations counted). Drivers in benchmarks/callgrind/.
CASES = {
    "sample measured sweep gentle": ("track_sample", ["measured", "sweep", "0"], 20000),
    "sample measured random gentle": ("track_sample", ["measured", "random", "0"], 20000),
    "sample compiled sweep gentle": ("track_sample", ["compiled", "sweep", "0"], 20000),
    "sample compiled random gentle": ("track_sample", ["compiled", "random", "0"], 20000),
    "sample measured sweep noisy": ("track_sample", ["measured", "sweep", "2"], 20000),
    "sample compiled sweep noisy": ("track_sample", ["compiled", "sweep", "2"], 20000),
    "sample compiled random mountain": ("track_sample", ["compiled", "random", "4"], 20000),
    "wagon arc gentle": ("train_family", ["arc", "0"], 10000),
    "wagon chord gentle": ("train_family", ["chord", "0"], 10000),
    "wagon arc gentle compiled": ("train_family", ["arc", "0", "compiled"], 10000),
    "wagon chord gentle compiled": ("train_family", ["chord", "0", "compiled"], 10000),
    "wagon arc noisy": ("train_family", ["arc", "2"], 10000),
    "wagon chord noisy": ("train_family", ["chord", "2"], 10000),
    "wagon chord noisy compiled": ("train_family", ["chord", "2", "compiled"], 10000),
    "wagon arc gentle compiled compact": ("train_family", ["arc", "0", "compiled", "compact"], 10000),
    "wagon chord gentle compiled chords": ("train_family", ["chord", "0", "compiled", "chords"],
                                           10000),
    "wagon chord noisy compiled chords": ("train_family", ["chord", "2", "compiled", "chords"],
                                          10000),
    "wagon chord noisy compiled compact": ("train_family", ["chord", "2", "compiled", "compact"],
                                           10000),
    "game train chord tight double": ("game_trains", ["double", "chord", "tight"], None),
    "game train arc gentle float": ("game_trains", ["float", "arc", "gentle"], None),
    "game train chord tight float compiled chords": ("game_trains", ["float", "chord", "tight",
                                                                    "compiled", "chords"], None),
    "closest point cursor noisy": ("closest_point", ["2", "cursor"], 10000),
    "closest point cursor noisy compiled": ("closest_point", ["2", "cursor", "compiled"], 10000),
    "network query": ("network_closest", ["10"], None),
    "jerk plan rest to rest": ("jerk_plans", ["rest"], 500),
    "jerk plan from moving states": ("jerk_plans", ["moving"], 500),
    "jerk plan to accelerating targets": ("jerk_plans", ["accelerating"], 500),
    "jerk plan fixed duration": ("jerk_plans", ["fixed"], 500),
}


def compiler_version(cxx):
    out = subprocess.run([cxx, "--version"], capture_output=True, text=True, check=True).stdout
    return out.splitlines()[0].strip()


def build(driver, cxx, out_dir):
    binary = out_dir / driver
    eigen = subprocess.run(["pkg-config", "--cflags", "eigen3"], capture_output=True,
                           text=True).stdout.split() or ["-isystem", "/usr/include/eigen3"]
    subprocess.run([cxx, "-std=c++17", "-O3", "-DNDEBUG", "-I" + str(ROOT / "include"),
                    "-I" + str(ROOT / "benchmarks"), *eigen,
                    str(ROOT / "benchmarks" / "callgrind" / (driver + ".cpp")), "-o", str(binary)],
                   check=True)
    return binary


def instructions(binary, args, out_dir, name):
    out_file = out_dir / ("callgrind." + re.sub(r"\W+", "_", name))
    subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                    "--callgrind-out-file=" + str(out_file), str(binary), *args],
                   check=True, capture_output=True)
    # "totals:" is the instrumented region's count ("summary:" can be an empty first dump).
    counts = [int(line.split()[1]) for line in out_file.read_text().splitlines()
              if line.startswith("totals:") or line.startswith("summary:")]
    if not counts:
        raise RuntimeError("no totals in " + str(out_file))
    return max(counts)


def measure(cxx):
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = pathlib.Path(tmp)
        drivers = sorted({driver for driver, _, _ in CASES.values()})
        binaries = {d: build(d, cxx, out_dir) for d in drivers}
        jobs = max(1, min(2, os.cpu_count() or 1))
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            futures = {name: pool.submit(instructions, binaries[driver], args, out_dir, name)
                       for name, (driver, args, _) in CASES.items()}
            figures = {}
            for name, (_, _, count) in CASES.items():
                total = futures[name].result()
                figures[name] = total / count if count else float(total)
    return figures


def read_baseline():
    compiler, figures = None, {}
    for line in BASELINE.read_text().splitlines():
        if line.startswith("# compiler: "):
            compiler = line[len("# compiler: "):]
        elif line and not line.startswith("#"):
            name, value = line.rsplit("\t", 1)
            figures[name] = float(value)
    return compiler, figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="write a new baseline")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    options = parser.parse_args()
    compiler = compiler_version(options.cxx)
    figures = measure(options.cxx)
    if options.update:
        lines = ["# Instructions per operation (a sample, a wagon) or per run, at -O3 -DNDEBUG.",
                 "# Written by benchmarks/callgrind/gate.py --update; checked by it in CI.",
                 "# compiler: " + compiler]
        lines += ["%s\t%.1f" % (name, value) for name, value in figures.items()]
        BASELINE.write_text("\n".join(lines) + "\n")
        print("\n".join(lines))
        return 0
    base_compiler, baseline = read_baseline()
    failed = []
    for name, value in figures.items():
        base = baseline.get(name)
        change = "" if base is None else "%+.1f %%" % (100 * (value / base - 1))
        print("%-36s %14.1f  baseline %14s  %s" % (name, value, base, change))
        if base is not None and value > base * (1 + TOLERANCE):
            failed.append(name)
    if base_compiler != compiler:
        print("gate: the baseline was measured with %r, this is %r: figures printed, not "
              "compared (refresh the baseline with --update on this compiler)"
              % (base_compiler, compiler))
        return 0
    if failed:
        print("gate: more than %d %% over the baseline: %s" % (100 * TOLERANCE,
                                                                ", ".join(failed)))
        return 1
    print("gate: every figure within %d %% of the baseline" % (100 * TOLERANCE))
    return 0


if __name__ == "__main__":
    sys.exit(main())
