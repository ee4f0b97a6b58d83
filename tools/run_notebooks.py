"""Run notebooks top to bottom in a real Jupyter kernel, as JupyterLab's *Run All* does, and report the time of each.

    python tools/run_notebooks.py [NB.ipynb ...] [--jobs 2] [--cell-timeout 600] [--save DIR]
    python tools/run_notebooks.py --nbdev-skips     # the notebooks in which nbdev-test runs fewer cells than this

`nbdev-test` skips `#| eval: false` and flagged cells and runs in its own worker; this runs every cell with the
kernel started in `nbs/` (the working directory JupyterLab gives it). Outputs are discarded (`--save DIR` keeps
the executed copies there, never in nbs/). A notebook fails if a cell raises, a cell runs past `--cell-timeout`
seconds (a hang), or a cell prints a traceback (a failing `!command` does not raise), a warning to stderr
(`...Warning:`, tqdm's "IProgress not found") or nothing but blank lines (a progress bar off a terminal). Exit 1 if any notebook failed. With no arguments: every notebook in nbs/.

A notebook in which nbdev-test would run every code cell is run the same way here, so `tests/run.sh` runs nbdev-test
only on the others (`--nbdev-skips` lists them, decided by nbdev's own `nb_test_cells`): each notebook runs once in
full, and once more without its skipped cells where that differs.
"""
import argparse, os, re, sys, time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

root = Path(__file__).resolve().parent.parent
WARNING = re.compile(r'^.*(\w+Warning: |IProgress not found).*$', re.M)   # warnings.warn's format, and tqdm's


def run_one(nb_path:Path, cell_timeout:int, save:Path|None) -> tuple[float, list[str]]:
    "Execute one notebook in a fresh kernel; return (seconds, problems)."
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
    nb = nbformat.read(nb_path, as_version=4)
    client = NotebookClient(nb, timeout=cell_timeout, kernel_name='python3', allow_errors=False, coalesce_streams=True,
                            extra_arguments=['--IPKernelApp.log_level=ERROR'],   # not its "running over TCP" notice
                            resources={'metadata': {'path': str(nb_path.parent)}})   # the kernel's cwd: nbs/
    t, problems = time.perf_counter(), []
    try: client.execute()
    except CellTimeoutError as e: problems.append(f'a cell ran past {cell_timeout} s (hang?): {str(e)[:300]}')
    except DeadKernelError as e: problems.append(f'the kernel died: {e}')
    except CellExecutionError as e: problems.append(re.sub(r'\x1b\[[0-9;]*m', '', str(e))[-1500:])
    seconds = time.perf_counter() - t
    for i, c in enumerate(nb.cells):
        for o in c.get('outputs', []):
            if o.get('output_type') != 'stream': continue
            text = o.get('text', '')
            if o.get('name') == 'stderr':
                for w in WARNING.finditer(text): problems.append(f'cell {i}: warning printed: {w.group(0)[:300]}')
            if '\n' in text and not text.strip(): problems.append(f'cell {i}: blank lines printed ({text.count(chr(10))})')
            if 'Traceback (most recent call last)' in text:   # e.g. a failing `!command`, which does not raise
                problems.append(f'cell {i}: a traceback printed: ...{text[-300:]}')
    if save:
        save.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, save/nb_path.name)
    return seconds, problems


def nbdev_skips(nbs:list[Path]) -> list[Path]:
    "The notebooks in which nbdev-test leaves out a code cell (`#| eval: false`, a `tst_flags` flag, `skip_exec`)."
    from nbdev.config import get_config
    from nbdev.test import nb_test_cells
    from fastcore.nbio import read_nb
    flags = get_config().tst_flags.split()
    return [nb for nb in nbs if len(nb_test_cells(nb, flags)) < sum(c.cell_type == 'code' for c in read_nb(nb).cells)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('notebooks', nargs='*', help='notebooks to run (default: every nbs/*.ipynb)')
    ap.add_argument('--jobs', type=int, default=2, help='notebooks run at once (default: 2)')
    ap.add_argument('--cell-timeout', type=int, default=600, help="seconds one cell may take (default: 600, nbdev-test's)")
    ap.add_argument('--save', type=Path, help='write the executed notebooks to this folder (default: discard)')
    ap.add_argument('--nbdev-skips', action='store_true', help='print the notebooks in which nbdev-test skips a cell, run nothing')
    a = ap.parse_args()
    # the heavy notebooks (stored plots and tables) are the slow ones: start them first, so the workers end together
    nbs = [Path(p).resolve() for p in a.notebooks] or sorted((root/'nbs').glob('*.ipynb'), key=lambda p: -p.stat().st_size)
    if a.nbdev_skips:
        print('\n'.join(sorted(nb.name for nb in nbdev_skips(nbs)))); return
    if a.jobs > 1: os.environ.setdefault('OMP_NUM_THREADS', '1')   # inherited by the kernels: no oversubscription
    # the kernels import azllm from this checkout, as `nbdev-test` does
    os.environ['PYTHONPATH'] = os.pathsep.join(filter(None, [str(root), os.environ.get('PYTHONPATH')]))
    t = time.perf_counter()
    with ThreadPoolExecutor(a.jobs) as pool:
        futures = {pool.submit(run_one, nb, a.cell_timeout, a.save): nb for nb in nbs}
        failed = 0
        for f in as_completed(futures):
            nb, (seconds, problems) = futures[f], f.result()
            print(f'{"FAIL" if problems else "ok  "} {seconds:6.1f} s  {nb.name}', flush=True)
            for p in problems: print('      ' + p.replace('\n', '\n      '))
            failed += bool(problems)
    print(f'{len(nbs) - failed}/{len(nbs)} notebooks ran clean in a Jupyter kernel, {time.perf_counter() - t:.0f} s wall, {a.jobs} at a time')
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
