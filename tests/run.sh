#!/usr/bin/env bash
# The whole test suite, as the README says and CI (.ci/run) runs it:
#   1. the notebooks and the package agree: nbdev-export and nbdev-clean change nothing
#   2. every notebook runs top to bottom in a Jupyter kernel started in nbs/, as JupyterLab's Run All does
#      (every cell, `#| eval: false` ones too; no error, hang or warning; outputs discarded)
#   3. nbdev-test, on the notebooks where it runs fewer cells than step 2 (it skips `#| eval: false` and the
#      `tst_flags` cells); on every other notebook it would run the very cells step 2 just ran
#   4. the home page and the results page as step 2 executed them (their figures come from benchmarks/results/ at test time, never from
#      stale stored outputs) are what is committed, the offline docs render (README.md from nbs/index.ipynb + HTML pages), and both are up to date
#   5. pytest (two workers): the command-line contract, bad inputs, the rendered pages in headless Chromium
set -euo pipefail
cd "$(dirname "$0")/.."
snapshot() { git status --porcelain --untracked-files=all; git diff; }
# the user's runs/ (git-ignored): the suite must neither read nor write it, so it must look the same afterwards
runs_snapshot() { if [ -d runs ]; then find runs -printf '%p %s %T@\n' | sort; fi; }

# Under CI the docs checks must run: a missing browser fails here, at once, instead of 23 silent skips at the end.
if [ -n "${AZLLM_REQUIRE_BROWSER:-}" ] || [ "${CI:-}" = "true" ]; then
  if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && ! command -v google-chrome >/dev/null; then
    echo "FAIL: no chromium on PATH, and CI=true or AZLLM_REQUIRE_BROWSER is set: install it (apt-get install chromium)"; exit 1
  fi
fi
runs_before=$(runs_snapshot)

echo "== 1/5 notebooks and package in sync"
before=$(snapshot)
nbdev-export
nbdev-clean
if [ "$before" != "$(snapshot)" ]; then
  echo "FAIL: nbdev-export / nbdev-clean changed files; run them and commit the result:"
  git status --porcelain; exit 1
fi

echo "== 2/5 notebooks in a Jupyter kernel"
executed=$(mktemp -d "${TMPDIR:-/tmp}/azllm-executed.XXXXXX")    # the executed copies: step 4 compares two of them with nbs/
trap 'rm -rf "$executed"' EXIT
python tools/run_notebooks.py --jobs "${NOTEBOOK_JOBS:-2}" --save "$executed"

echo "== 3/5 nbdev-test where it skips cells"
skips=$(python tools/run_notebooks.py --nbdev-skips | sed 's/\./\\./g' | paste -sd'|')   # names as a regex: 42_harness\.ipynb|...
if [ -n "$skips" ]; then nbdev-test --n-workers "${NBDEV_WORKERS:-2}" --timing --file-re "^($skips)$"; fi

echo "== 4/5 home page and results page as executed in step 2, offline docs"
before=$(snapshot)
# step 2 ran them in a kernel started in nbs/, as `jupyter nbconvert --execute` does: their fresh outputs, cleaned, must be the committed ones
cp "$executed/index.ipynb" "$executed/90_results.ipynb" nbs/
nbdev-clean --fname nbs/index.ipynb && nbdev-clean --fname nbs/90_results.ipynb
python tools/render_docs.py
if [ "$before" != "$(snapshot)" ]; then
  echo "FAIL: the outputs of nbs/index.ipynb or nbs/90_results.ipynb, or README.md, are out of date with benchmarks/results/; run (cd nbs && jupyter nbconvert --to notebook --execute --inplace index.ipynb 90_results.ipynb), nbdev-clean, python tools/render_docs.py and commit:"
  git status --porcelain; exit 1
fi

echo "== 5/5 pytest"
# two workers (pytest-xdist), each test file whole on one of them (its module fixtures run once): most tests wait on a
# subprocess's imports or on one thread of a tiny model, so two files at a time use both cores; one thread each, as the notebooks in step 2
# (the few slowest checks, marked `extended` in tests/conftest.py, run in CI's next leg: `python -m pytest -m extended`)
OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" python -m pytest -q -n "${PYTEST_WORKERS:-2}" --dist loadfile --durations=25 -m "not extended" tests

if [ "$runs_before" != "$(runs_snapshot)" ]; then
  echo "FAIL: the test suite changed runs/ (it must use temporary directories only):"
  diff <(echo "$runs_before") <(runs_snapshot) | head -20; exit 1
fi
