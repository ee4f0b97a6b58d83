#!/usr/bin/env bash
# The whole test suite, as the README says and CI (.ci/run) runs it:
#   1. the notebooks and the package agree: nbdev-export and nbdev-clean change nothing
#   2. nbdev-test runs every notebook (cells flagged gpu/multigpu are skipped on CPU)
#   3. the offline docs render (README.md from nbs/index.ipynb + HTML pages), and README.md is up to date
#   4. pytest: the command-line contract, bad inputs, the rendered pages in headless Chromium
set -euo pipefail
cd "$(dirname "$0")/.."
snapshot() { git status --porcelain --untracked-files=all; git diff; }

echo "== 1/4 notebooks and package in sync"
before=$(snapshot)
nbdev-export
nbdev-clean
if [ "$before" != "$(snapshot)" ]; then
  echo "FAIL: nbdev-export / nbdev-clean changed files; run them and commit the result:"
  git status --porcelain; exit 1
fi

echo "== 2/4 nbdev-test"
nbdev-test --n-workers "${NBDEV_WORKERS:-2}" --timing

echo "== 3/4 offline docs"
before=$(snapshot)
python tools/render_docs.py
if [ "$before" != "$(snapshot)" ]; then
  echo "FAIL: README.md is out of date with nbs/index.ipynb; run python tools/render_docs.py and commit it:"
  git status --porcelain; exit 1
fi

echo "== 4/4 pytest"
python -m pytest -q tests
