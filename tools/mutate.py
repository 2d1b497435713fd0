#!/usr/bin/env python3
"""Mutation testing for tractrix's headers: does a test fail when the code is wrong?

    tools/mutate.py list               write tools/mutants.txt from the headers as they are now
    tools/mutate.py run [--only TEXT]  apply each listed mutant alone, rebuild, run the tests,
                                       and report the score and the survivors
    tools/mutate.py run --limit N      the first N (a quick look)
    tools/mutate.py run --per-header N N a header, every header's first before any second
    tools/mutate.py run --resume       keep what the last run found; --survivors: try its
                                       survivors again (new tests written), keep the rest

A mutant is one small semantic change on one line of a header: a comparison turned (< and <=,
> and >=, == and !=), a logical operator swapped (&& and ||), a sign flipped (binary + and -), an
off-by-one in an integer literal added to or subtracted from something, a negation dropped. The
list samples every header, six mutants a header spread over its lines; `list` refreshes it
when the code changes (mutants whose line no longer reads as listed are skipped and reported as
stale).

`run` builds in build/mutate (configured here: -O1 with the standard library's bounds checks,
which stand in for CI's AddressSanitizer stage at a fraction of its compile time, no precompiled
header, and every test file as its own binary, TRACTRIX_TEST_BINARY_PER_FILE). It first learns
which header lines each test file runs, from a --coverage build in build/mutate-coverage (kept
until a header or test changes). For each mutant it takes the test files that run the mutated
line (those that include its header where the compiler emitted no code for the line: a
statement's continuation, a template no test instantiates), builds them two at a time, cheapest
first, and runs each with TRACTRIX_PROPERTY_FACTOR=1 until one fails. A mutant is killed when a
test fails or hangs (ten times its unmutated time), or when ctest's compile-only checks
(templates under engine flags, the track concept, [[nodiscard]] statuses) fail once the test
files passed; it survives when all of them pass, and is left out of the score when it does not
compile (the compiler caught it, not a test). Survivors are either equivalent (no behaviour
changed: say why in the run's notes, docs/mutation.md) or a test to write. The header is
restored after every mutant, also on Ctrl-C. Results go to build/mutate/results.json and a
summary to standard output.
"""
import argparse
import hashlib
import json
import pathlib
import random
import re
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
HEADERS = ROOT / "include" / "tractrix"
LIST = ROOT / "tools" / "mutants.txt"
BUILD = ROOT / "build" / "mutate"
COVERAGE = ROOT / "build" / "mutate-coverage"
PER_HEADER = 6  # mutants sampled from each header

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
        for name, pattern, _ in OPERATORS:
            for match in re.finditer(pattern, code):
                out.append((number, match.start(), name, line))
    return out


def list_mutants(_args):
    rng = random.Random(20261205)
    rows = []
    for path in sorted(HEADERS.rglob("*.hpp")):
        found = candidates(path)
        if not found:
            continue
        picked = sorted(rng.sample(found, min(PER_HEADER, len(found))))
        for number, column, name, line in picked:
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


HARDENING = {"tests/hardening/soak_test.cpp": "tractrix_soak_tests",
             "tests/hardening/threads_test.cpp": "tractrix_thread_tests",
             "tests/hardening/allocation_test.cpp": "tractrix_allocation_tests",
             "tests/train/openmp_test.cpp": "tractrix_openmp_tests"}
COMPILE_CHECKS = r"^hardening\.(every_template|track_concept|status_dropped)"
ENV = {"TRACTRIX_PROPERTY_FACTOR": "1", "TRACTRIX_SOAK_FRAMES": "20000",
       "TRACTRIX_THREAD_ROUNDS": "20", "PATH": "/usr/bin:/bin"}


def configure(build_dir, flags):
    if (build_dir / "CMakeCache.txt").exists():
        return
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir), *generator,
                    "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_CXX_FLAGS_RELEASE={flags}",
                    "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DTRACTRIX_TEST_PCH=OFF",
                    "-DTRACTRIX_TEST_BINARY_PER_FILE=ON", "-DTRACTRIX_BUILD_EXAMPLES=OFF"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", str(build_dir), "--target", "tractrix_test_main"],
                   check=True, stdout=subprocess.DEVNULL)


def target_of(source):
    """The binary that holds one test file alone (tests/CMakeLists.txt names them so)."""
    return HARDENING.get(source) or "test_" + re.sub(r"[/.]", "_", source[len("tests/"):-4])


def test_files():
    """{test file: (its target, the tractrix headers it includes)}, from compile_commands.json."""
    commands = json.loads((BUILD / "compile_commands.json").read_text())
    found = {}
    for entry in commands:
        source = str(pathlib.Path(entry["file"]).resolve().relative_to(ROOT))
        target = target_of(source)
        if f"/{target}.dir/" not in entry["command"]:
            continue
        command = re.sub(r" -o \S+", "", entry["command"]) + " -MM"
        listed = subprocess.run(command, shell=True, cwd=entry["directory"], check=True,
                                capture_output=True, text=True).stdout
        headers = {str(pathlib.Path(h).resolve().relative_to(ROOT))
                   for h in listed.replace("\\\n", " ").split()[1:]
                   if "include/tractrix/" in h}
        found[source] = (target, headers)
    return found


def build(targets, build_dir=BUILD):
    return subprocess.run(["cmake", "--build", str(build_dir), "--target", *targets, "-j2"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def passes(target, timeout, build_dir=BUILD):
    """True when the binary passes; False when a test fails or it runs past its timeout."""
    try:
        ran = subprocess.run([str(build_dir / "tests" / target), "--abort"], env=ENV,
                             timeout=timeout,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return False
    return ran.returncode == 0


def coverage(files):
    """Which header lines each test file runs: ({test file: {(header, line)}}, every header line
    the compiler emitted code for). From a --coverage build in build/mutate-coverage, kept while
    no header or test changes."""
    sources = sorted(HEADERS.rglob("*.hpp")) + sorted((ROOT / "tests").rglob("*.[ch]pp"))
    stamp = hashlib.sha1(b"".join(s.read_bytes() for s in sources)).hexdigest()
    cache = COVERAGE / "lines.json"
    if cache.exists():
        saved = json.loads(cache.read_text())
        if saved["stamp"] == stamp:
            return ({f: {tuple(x) for x in lines} for f, lines in saved["runs"].items()},
                    {tuple(x) for x in saved["known"]})
    configure(COVERAGE, "-O0 --coverage")
    if not build([target for target, _ in files.values()], COVERAGE):
        sys.exit("the coverage build failed")
    runs, known = {}, set()
    for f, (target, _) in files.items():
        objects = COVERAGE / "tests" / "CMakeFiles" / f"{target}.dir"
        for old in objects.rglob("*.gcda"):
            old.unlink()
        passes(target, timeout=900, build_dir=COVERAGE)
        report = subprocess.run(["gcov", "--json-format", "--stdout",
                                 str(objects / (f[len("tests/"):] + ".o"))],
                                cwd=objects, capture_output=True, text=True).stdout
        runs[f] = set()
        for document in filter(None, report.splitlines()):
            for entry in json.loads(document)["files"]:
                if "include/tractrix/" not in entry["file"]:
                    continue
                header = str(pathlib.Path(entry["file"]).resolve().relative_to(ROOT))
                for line in entry["lines"]:
                    known.add((header, line["line_number"]))
                    if line["count"] > 0:
                        runs[f].add((header, line["line_number"]))
    cache.write_text(json.dumps({"stamp": stamp, "known": sorted(known),
                                 "runs": {f: sorted(lines) for f, lines in runs.items()}}))
    return runs, known


def candidates_for(header, number, files, lines, cost):
    """The test files that can see a mutant: those that run its line when the compiler emitted
    code for it, else (a line inside a statement spread over several, a template no test
    instantiates) those that include its header; the cheapest to build first."""
    runs, known = lines
    if (header, number) in known:
        users = [f for f in files if (header, number) in runs.get(f, ())]
    else:
        users = [f for f, (_, headers) in files.items() if header in headers]
    return sorted(users, key=lambda f: cost[f])


def try_mutant(order, files, seconds):
    """'killed by <test file>', 'survived' or 'does not compile'."""
    for i in range(0, len(order), 2):
        pair = order[i:i + 2]
        if not build([files[f][0] for f in pair]):
            # one of the pair fails to compile: the mutant is not viable (the compiler caught it)
            return "does not compile"
        for f in pair:
            if not passes(files[f][0], timeout=10 * seconds[f] + 30):
                return "killed by " + f
    # ctest's compile-only checks: every template under engine flags, the track concept, the
    # [[nodiscard]] statuses (a mutant can break what compiles, not what runs).
    checks = subprocess.run(["ctest", "--test-dir", str(BUILD), "-R", COMPILE_CHECKS],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if checks.returncode != 0:
        return "killed by ctest " + COMPILE_CHECKS
    return "survived" if order else "survived (no test runs its line)"


def baseline(files):
    """Builds and runs every test file unmutated; its run time, and a cost to order by (the
    file's size stands for its compile time, which is most of it)."""
    if not build([target for target, _ in files.values()]):
        sys.exit("the unmutated tests do not build: nothing to measure")
    seconds, cost = {}, {}
    for f, (target, _) in files.items():
        began = time.time()
        if not passes(target, timeout=900):
            sys.exit(f"{f} does not pass unmutated: nothing to measure")
        seconds[f] = time.time() - began
        cost[f] = (ROOT / f).stat().st_size / 1000 + seconds[f]
    return seconds, cost


def run(args):
    rows = [r for r in LIST.read_text().splitlines() if r and not r.startswith("#")]
    if args.only:
        rows = [r for r in rows if args.only in r]
    if args.per_header:
        rows = spread(rows, args.per_header)
    if args.limit:
        rows = rows[:args.limit]
    configure(BUILD, "-O1 -D_GLIBCXX_ASSERTIONS")
    files = test_files()
    seconds, cost = baseline(files)
    lines = coverage(files)
    results, start = [], time.time()
    earlier = {}
    if (args.resume or args.survivors) and (BUILD / "results.json").exists():
        earlier = {(r["mutant"], r.get("line")): r
                   for r in json.loads((BUILD / "results.json").read_text())}
    if args.survivors:  # only they are tried again; the rest kept as they were
        again = {k for k, r in earlier.items() if r["result"].startswith("survived")}
        rows = [r for r in rows if tuple(r.split("\t", 1)) in again]
        earlier = {k: r for k, r in earlier.items() if k not in again}
    # Results of mutants outside this run's selection stay in results.json.
    chosen = {tuple(r.split("\t", 1)) for r in rows}
    kept = [r for k, r in earlier.items() if k not in chosen]
    for row in rows:
        where, listed = row.split("\t", 1)
        file, number, column, name = where.split(":")
        path = ROOT / file
        original = path.read_text()
        mutated = apply(original, int(number), int(column), name)
        if mutated is None or original.split("\n")[int(number) - 1].strip() != listed:
            results.append({"mutant": where, "result": "stale"})
            continue
        if (where, listed) in earlier:
            results.append(earlier[(where, listed)])
            continue
        order = candidates_for(file, int(number), files, lines, cost)
        began = time.time()
        try:
            path.write_text(mutated)
            result = try_mutant(order, files, seconds)
        finally:
            path.write_text(original)
        results.append({"mutant": where, "line": listed, "result": result,
                        "seconds": round(time.time() - began, 1)})
        print(f"{result:45} {where}  {listed[:60]}", flush=True)
        BUILD.joinpath("results.json").write_text(json.dumps(kept + results, indent=1))
    report(results, time.time() - start)


def spread(rows, count):
    """`count` listed mutants a header, spread over its list, in rounds: every header's first,
    then every header's second, ... (a run stopped early has sampled every header evenly)."""
    by_header = {}
    for row in rows:
        by_header.setdefault(row.split(":")[0], []).append(row)
    ranked = []
    for listed in by_header.values():
        picks = sorted({round(i * len(listed) / count) for i in range(min(count, len(listed)))})
        ranked += [(rank, listed[i]) for rank, i in enumerate(picks)]
    return [row for _, row in sorted(ranked, key=lambda pair: pair[0])]


def report(results, elapsed):
    scored = [r for r in results if r["result"].startswith(("survived", "killed"))]
    killed = sum(r["result"].startswith("killed") for r in scored)
    others = {}
    for r in results:
        if r not in scored:
            others[r["result"]] = others.get(r["result"], 0) + 1
    print(f"\n{killed} of {len(scored)} killed ({100.0 * killed / max(len(scored), 1):.1f} %); "
          f"not scored: {others or 'none'}; {elapsed:.0f} s")
    for r in scored:
        if r["result"].startswith("survived"):
            print(f"{r['result']}: {r['mutant']}  {r['line']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list").set_defaults(func=list_mutants)
    runner = sub.add_parser("run")
    runner.add_argument("--only", help="only mutants whose entry contains this text")
    runner.add_argument("--limit", type=int, help="only the first N")
    runner.add_argument("--per-header", type=int,
                        help="only N mutants a header, spread over its list, in rounds")
    runner.add_argument("--resume", action="store_true",
                        help="keep the results of the last run for mutants it already tried")
    runner.add_argument("--survivors", action="store_true",
                        help="try the last run's survivors again (after new tests), keep the rest")
    runner.set_defaults(func=run)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
