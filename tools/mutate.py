#!/usr/bin/env python3
"""Mutation testing for tractrix's headers: does a test fail when the code is wrong?

    tools/mutate.py list               write tools/mutants.txt from the headers as they are now
    tools/mutate.py run [--only TEXT]  apply each listed mutant alone, rebuild, run the tests,
                                       and report the score and the survivors
    tools/mutate.py run --limit N      the first N (a quick look)

A mutant is one small semantic change on one line of a header: a comparison turned (< and <=,
> and >=, == and !=), a logical operator swapped (&& and ||), a sign flipped (binary + and -), an
off-by-one in an integer literal added to or subtracted from something, a negation dropped. The
list samples every header outside detail/ and every engine in detail/, a few mutants a header
spread over its lines, so a run takes hours, not days; `list` refreshes it when the code changes
(mutants whose line no longer reads as listed are skipped and reported as stale).

`run` builds in build/mutate (configured here: the test preset's flags at -O1, without the
precompiled header, so that a mutant rebuilds only the test files that include its header) and
runs the test binaries with TRACTRIX_PROPERTY_FACTOR=1; a mutant is killed when the build fails
or a test fails, and survives otherwise. Survivors are either equivalent (no behaviour changed:
say why in the run's notes) or a test to write. The header is restored after every mutant, also
on Ctrl-C. Results go to build/mutate/results.json and a summary to standard output.
"""
import argparse
import json
import pathlib
import random
import re
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
HEADERS = ROOT / "include" / "tractrix"
LIST = ROOT / "tools" / "mutants.txt"
BUILD = ROOT / "build" / "mutate"
BINARIES = ["tractrix_tests", "tractrix_allocation_tests", "tractrix_soak_tests",
            "tractrix_thread_tests"]
PER_HEADER = 12  # mutants sampled from each header

# (name, pattern, replacement): patterns need spaces around the operator, which keeps template
# brackets, pointers and unary minus out of it.
OPERATORS = [
    ("lt->le", r" < ", " <= "),
    ("le->lt", r" <= ", " < "),
    ("gt->ge", r" > ", " >= "),
    ("ge->gt", r" >= ", " > "),
    ("eq->ne", r" == ", " != "),
    ("ne->eq", r" != ", " == "),
    ("and->or", r" && ", " || "),
    ("or->and", r" \|\| ", " && "),
    ("plus->minus", r"(?<=[\w)\]]) \+ (?=[\w(])", " - "),
    ("minus->plus", r"(?<=[\w)\]]) - (?=[\w(])", " + "),
    ("off-by-one+", r"(?<=[+-] )1(?![\w.])", "2"),
    ("drop-not", r"if \(!\(", "if (("),
]


def code_part(line):
    """The line without its // comment (string literals here hold no //)."""
    return line.split("//", 1)[0]


def candidates(path):
    lines = path.read_text().splitlines()
    out = []
    for number, line in enumerate(lines, 1):
        code = code_part(line)
        if not code.strip() or code.lstrip().startswith(("#", "*", "template")):
            continue
        for name, pattern, replacement in OPERATORS:
            for match in re.finditer(pattern, code):
                out.append((number, match.start(), name, match.group(0), replacement, line))
    return out


def list_mutants(_args):
    rng = random.Random(20261205)
    rows = []
    for path in sorted(HEADERS.rglob("*.hpp")):
        found = candidates(path)
        if not found:
            continue
        picked = sorted(rng.sample(found, min(PER_HEADER, len(found))))
        for number, column, name, original, replacement, line in picked:
            rel = path.relative_to(ROOT)
            rows.append(f"{rel}:{number}:{column}:{name}\t{line.strip()}")
    LIST.write_text("# file:line:column:operator<TAB>the line as listed (tools/mutate.py list)\n" +
                    "\n".join(rows) + "\n")
    print(f"{len(rows)} mutants over {len({r.split(':')[0] for r in rows})} headers -> {LIST}")


def apply(text, number, column, name):
    """The file's text with the mutant applied, or None if the line no longer matches."""
    pattern, replacement = next((p, r) for n, p, r in OPERATORS if n == name)
    lines = text.split("\n")
    line = lines[number - 1]
    match = re.compile(pattern).match(line, column)
    if not match or column >= len(code_part(line)):
        return None
    lines[number - 1] = line[:column] + replacement + line[match.end():]
    return "\n".join(lines)


def configure():
    if (BUILD / "CMakeCache.txt").exists():
        return
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(BUILD), "-DCMAKE_BUILD_TYPE=Release",
                    "-DCMAKE_CXX_FLAGS_RELEASE=-O1", "-DTRACTRIX_TEST_PCH=OFF",
                    "-DTRACTRIX_BUILD_EXAMPLES=OFF"], check=True, stdout=subprocess.DEVNULL)


def build_and_test():
    """'killed (build)', 'killed (tests)' or 'survived'."""
    built = subprocess.run(["cmake", "--build", str(BUILD), "--target", *BINARIES, "-j2"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if built.returncode != 0:
        return "killed (build)"
    env = {"TRACTRIX_PROPERTY_FACTOR": "1", "TRACTRIX_SOAK_FRAMES": "20000",
           "TRACTRIX_THREAD_ROUNDS": "20", "PATH": "/usr/bin:/bin"}
    for binary in BINARIES:
        ran = subprocess.run([str(BUILD / "tests" / binary), "--abort"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
        if ran.returncode != 0:
            return "killed (tests)"
    return "survived"


def run(args):
    rows = [r for r in LIST.read_text().splitlines() if r and not r.startswith("#")]
    if args.only:
        rows = [r for r in rows if args.only in r]
    if args.limit:
        rows = rows[:args.limit]
    configure()
    if build_and_test() != "survived":
        sys.exit("the unmutated code does not build and pass: nothing to measure")
    results, start = [], time.time()
    for row in rows:
        where, listed = row.split("\t", 1)
        file, number, column, name = where.split(":")
        path = ROOT / file
        original = path.read_text()
        mutated = apply(original, int(number), int(column), name)
        if mutated is None or original.split("\n")[int(number) - 1].strip() != listed:
            results.append({"mutant": where, "result": "stale"})
            continue
        try:
            path.write_text(mutated)
            began = time.time()
            result = build_and_test()
        finally:
            path.write_text(original)
        results.append({"mutant": where, "line": listed, "result": result,
                        "seconds": round(time.time() - began, 1)})
        print(f"{result:15} {where}  {listed[:70]}", flush=True)
    counted = [r for r in results if r["result"] != "stale"]
    killed = sum(r["result"].startswith("killed") for r in counted)
    BUILD.mkdir(parents=True, exist_ok=True)
    (BUILD / "results.json").write_text(json.dumps(results, indent=1))
    print(f"\n{killed} of {len(counted)} killed ({100.0 * killed / max(len(counted), 1):.1f} %), "
          f"{len(results) - len(counted)} stale, {time.time() - start:.0f} s")
    for r in counted:
        if r["result"] == "survived":
            print(f"survived: {r['mutant']}  {r['line']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list").set_defaults(func=list_mutants)
    runner = sub.add_parser("run")
    runner.add_argument("--only", help="only mutants whose entry contains this text")
    runner.add_argument("--limit", type=int, help="only the first N")
    runner.set_defaults(func=run)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
