#!/usr/bin/env bash
# Mutation testing for the Python package's own code (python/tractrix/*.py) with mutmut.
#
#   tools/mutate_python.sh            build the module, stage a copy, run every mutant
#   tools/mutate_python.sh results    list the survivors of the last run again
#
# mutmut 3 finds a package under ./, src/ or source/ only, so the run happens in a staged copy,
# build/mutmut: src/tractrix (the package and its compiled module, built here by pip), and the
# python/tests, python/examples, docs, include and demos folders the tests read. The C++ module
# is not mutated (tools/mutate.py mutates the headers it is built from); what is measured here is
# whether the Python tests see a wrong line of the Python layer: argument checks, shapes, axes,
# enums.
# The documented run and its survivors: docs/mutation.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
stage=$root/build/mutmut
venv=$root/build/mutmut-venv

if [[ ${1:-} == results ]]; then
  cd "$stage" && exec "$venv/bin/mutmut" results
fi

if [[ ! -x $venv/bin/mutmut ]]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "mutmut==3.8.1" "pytest>=7"
fi
# The package as users get it, then its files moved into the staged src layout (and uninstalled,
# so that only the staged copy can be imported).
"$venv/bin/pip" install -q "$root"
site=$("$venv/bin/python" -c 'import tractrix, pathlib; print(pathlib.Path(tractrix.__file__).parent)')
rm -rf "$stage" && mkdir -p "$stage/src" "$stage/python"
cp -r "$site" "$stage/src/tractrix"
rm -rf "$stage/src/tractrix/__pycache__"
"$venv/bin/pip" uninstall -q -y tractrix
cp -r "$root/python/tests" "$root/python/examples" "$stage/python/"
cp -r "$root/docs" "$root/include" "$root/demos" "$stage/"
module=$(cd "$stage/src/tractrix" && ls _tractrix*.so)
cat > "$stage/pyproject.toml" <<EOF
[tool.mutmut]
source_paths = ["src/tractrix"]
pytest_add_cli_args_test_selection = ["python/tests"]
also_copy = ["src/tractrix/$module", "src/tractrix/py.typed", "python/", "docs/", "include/",
             "demos/"]
EOF
# The example test runs the example in a new interpreter: it imports the staged package too. The
# C++ reference program is compiled by the first test run only.
mkdir -p "$stage/mutants/src"
cd "$stage"
PYTHONPATH=$stage/mutants/src TRACTRIX_REFERENCE_OUTPUT=$stage/reference.txt "$venv/bin/mutmut" run --max-children 2 | tr '\r' '\n' |
  grep -v -E 'Generating mutants|Running|[0-9]+/[0-9]+ ' || true
"$venv/bin/mutmut" results
