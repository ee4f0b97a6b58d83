"""Notebook rhythm: the share of exported definitions followed directly by a cell that shows or checks them.

    python tools/rhythm.py                 # every notebook in nbs/, worst first
    python tools/rhythm.py nbs/32_cpt.ipynb --list   # and the definitions that no cell right below uses

A definition counts (a top-level `def` or `class` in an `#| export` cell, names starting with `_` left out) when the next
code cells below its export cell, up to the next export cell (markdown between is fine), mention its name.
Also printed: the longest export cell, in lines.
"""
import argparse, ast, json, re, sys
from pathlib import Path

def cells(nb:Path): return [c for c in json.loads(nb.read_text(encoding='utf-8'))['cells'] if c['cell_type'] == 'code']

def source(c): return ''.join(c['source']) if isinstance(c['source'], list) else c['source']

def exported(c): return bool(re.search(r'^#\|\s*export', source(c), re.M))

def definitions(src:str):
    code = '\n'.join(l for l in src.splitlines() if not l.lstrip().startswith(('#|', '%', '!')))
    try: tree = ast.parse(code)
    except SyntaxError: return []
    return [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not n.name.startswith('_')]

def rhythm(nb:Path):
    cs, shown, missing, longest = cells(nb), 0, [], 0
    for i, c in enumerate(cs):
        if not exported(c): continue
        longest = max(longest, len(source(c).splitlines()))
        below = []
        for d in cs[i+1:]:
            if exported(d): break
            below.append(source(d))
        for name in definitions(source(c)):
            if any(re.search(rf'\b{re.escape(name)}\b', s) for s in below): shown += 1
            else: missing.append(name)
    total = shown + len(missing)
    return dict(notebook=nb.name, definitions=total, shown=shown, share=shown/total if total else 1.0, longest_export=longest, missing=missing)

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('notebooks', nargs='*')
    ap.add_argument('--list', action='store_true', help='name the definitions no cell right below uses')
    a = ap.parse_args(argv)
    nbs = [Path(p) for p in a.notebooks] or sorted(Path(__file__).resolve().parent.parent.glob('nbs/[0-9]*.ipynb'))
    rows = sorted((rhythm(nb) for nb in nbs), key=lambda r: r['share'])
    for r in rows:
        print(f"{r['notebook']:<22} {r['shown']:>3}/{r['definitions']:<3} {r['share']:>5.0%}   longest export cell {r['longest_export']:>3} lines")
        if a.list and r['missing']: print('    not shown:', ', '.join(r['missing']))

if __name__ == '__main__': main()
