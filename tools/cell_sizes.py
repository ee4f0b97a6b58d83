"""Export-cell sizes: for each notebook, the lines of its `#| export` / `#| exports` cells (count, median, max, how many
over 40 and over 60), and the totals over the package.

    python tools/cell_sizes.py                       # every numbered notebook in nbs/, then the totals
    python tools/cell_sizes.py nbs/32_cpt.ipynb      # some notebooks
    python tools/cell_sizes.py --json                # the same as JSON
    python tools/cell_sizes.py --over 60             # and name the first line of every export cell over 60 lines

A cell's size is its number of source lines, directives (`#| export`) included, as `tools/rhythm.py` counts them.
"""
import argparse, json, re, statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXPORT = re.compile(r'^#\|\s*exports?\s*$', re.M)


def source(c) -> str: return ''.join(c['source']) if isinstance(c['source'], list) else c['source']


def export_cells(nb:Path) -> list[str]:
    "The sources of a notebook's `#| export` / `#| exports` cells, in order."
    cells = json.loads(nb.read_text(encoding='utf-8'))['cells']
    return [source(c) for c in cells if c['cell_type'] == 'code' and EXPORT.search(source(c))]


def summary(sizes:list[int]) -> dict:
    "count, median, max, and how many over 40 and over 60 lines."
    return dict(count=len(sizes), median=statistics.median(sizes) if sizes else 0, max=max(sizes, default=0),
                over_40=sum(s > 40 for s in sizes), over_60=sum(s > 60 for s in sizes))


def sizes(nb:Path) -> list[int]: return [len(s.splitlines()) for s in export_cells(nb)]


def report(nbs:list[Path]) -> dict:
    "{'notebooks': {name: summary}, 'total': summary over every cell of them}."
    per = {nb.stem: sizes(nb) for nb in nbs}
    return dict(notebooks={k: summary(v) for k, v in per.items()}, total=summary([s for v in per.values() for s in v]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('notebooks', nargs='*')
    ap.add_argument('--json', action='store_true', help='print JSON')
    ap.add_argument('--over', type=int, default=None, help='also name the export cells longer than this many lines')
    a = ap.parse_args(argv)
    nbs = [Path(p) for p in a.notebooks] or sorted((ROOT/'nbs').glob('[0-9]*.ipynb'))
    r = report(nbs)
    if a.json: print(json.dumps(r, indent=1)); return
    print(f"{'notebook':<22} {'cells':>5} {'median':>6} {'max':>4} {'>40':>4} {'>60':>4}")
    for name, s in list(r['notebooks'].items()) + [('TOTAL', r['total'])]:
        print(f"{name:<22} {s['count']:>5} {s['median']:>6g} {s['max']:>4} {s['over_40']:>4} {s['over_60']:>4}")
    if a.over is not None:
        for nb in nbs:
            for s in export_cells(nb):
                n = len(s.splitlines())
                if n > a.over:
                    first = next((l for l in s.splitlines() if l.strip() and not l.startswith('#|')), '')
                    print(f"  {nb.stem}: {n} lines: {first[:90]}")


if __name__ == '__main__': main()
