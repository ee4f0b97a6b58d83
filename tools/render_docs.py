"""Render the docs without Quarto: README.md from nbs/index.ipynb, and every notebook to an HTML page.

    python tools/render_docs.py [--out _docs_offline] [--no-readme]

Quarto (what `nbdev-docs` uses) cannot be installed offline, so this is the path CI runs. The notebooks go
through nbdev's own processing first (`nbdev.serve.proc_nbs`: `#| hide` cells dropped, `show_doc` rendered,
the title cell turned into front matter), then nbconvert writes Markdown (README) and HTML (one page per
notebook). Cells marked `#| echo: false` keep their output and lose their source, as Quarto would do.
Fails (exit 1) if any stored cell output is an error or a traceback.
"""
import argparse, re, shutil, sys
from pathlib import Path
import nbformat
from nbconvert import HTMLExporter, MarkdownExporter
from nbconvert.preprocessors import TagRemovePreprocessor

root = Path(__file__).resolve().parent.parent


def front_matter(nb):
    "Pop the YAML front-matter cell nbdev puts first; return (title, description)."
    if nb.cells and nb.cells[0].cell_type == 'raw' and nb.cells[0].source.startswith('---'):
        import yaml
        fm = yaml.safe_load(nb.cells.pop(0).source.strip().strip('-')) or {}
        return fm.get('title', ''), fm.get('description', '')
    return '', ''


_CELL_KEYS = dict(code={'cell_type', 'execution_count', 'id', 'metadata', 'outputs', 'source'},
                  markdown={'cell_type', 'id', 'metadata', 'source', 'attachments'},
                  raw={'cell_type', 'id', 'metadata', 'source', 'attachments'})


def prepare(nb):
    "Title cell back in, directives stripped, `echo: false` sources removed; return the list of output errors."
    title, desc = front_matter(nb)
    if title: nb.cells.insert(0, nbformat.v4.new_markdown_cell(f'# {title}\n\n> {desc}' if desc else f'# {title}'))
    errors = []
    for i, c in enumerate(nb.cells):
        for k in [k for k in c if k not in _CELL_KEYS[c.cell_type]]: del c[k]   # nbdev's processing adds its own keys
        c.metadata.pop('execution', None)
        if c.cell_type == 'markdown': c.source = c.source.replace('```{mermaid}', '```mermaid')
        if c.cell_type != 'code': continue
        lines = c.source.splitlines()
        if any(re.match(r'#\|\s*echo:\s*false', l) for l in lines): c.metadata.setdefault('tags', []).append('remove_input')
        c.source = '\n'.join(l for l in lines if not l.startswith('#|')).strip()
        for o in c.get('outputs', []):
            md = o.get('data', {}).get('text/markdown')
            if md:   # show_doc's link attributes are Quarto syntax; plain Markdown would print them
                o['data']['text/markdown'] = re.sub(r'\{target="_blank"[^}]*\}', '', md if isinstance(md, str) else ''.join(md))
            text = o.get('text', '') if o.output_type == 'stream' else ''
            if o.output_type == 'error' or 'Traceback (most recent call last)' in text:
                errors.append(f'cell {i}: {o.get("ename", "") or text[:200]}')
    return errors


def export(nb, exporter):
    exporter.register_preprocessor(TagRemovePreprocessor(remove_input_tags={'remove_input'}, enabled=True), enabled=True)
    return exporter.from_notebook_node(nb)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default=str(root/'_docs_offline'), help='directory for the HTML pages')
    ap.add_argument('--no-readme', action='store_true', help='do not rewrite README.md')
    a = ap.parse_args()
    from nbdev.serve import proc_nbs
    cache = proc_nbs(str(root/'nbs'), n_workers=0, force=True)   # a stale cache would render old outputs
    out = Path(a.out)
    shutil.rmtree(out, ignore_errors=True); out.mkdir(parents=True)
    problems = []
    for src in sorted(cache.glob('*.ipynb')):
        nb = nbformat.read(src, as_version=4)
        problems += [f'{src.name} {e}' for e in prepare(nb)]
        name = re.sub(r'^\d+_', '', src.stem)
        html, _ = export(nb, HTMLExporter(embed_images=True))
        (out/f'{name}.html').write_text(html, encoding='utf-8')
        if src.name == 'index.ipynb' and not a.no_readme:
            md, res = export(nb, MarkdownExporter())
            files = root/'README_files'
            shutil.rmtree(files, ignore_errors=True)
            for fname, data in res.get('outputs', {}).items():
                files.mkdir(exist_ok=True)
                (files/fname).write_bytes(data)
                md = md.replace(f']({fname})', f'](README_files/{fname})')
            md = re.sub(r'\n{3,}', '\n\n', md).strip() + '\n'
            (root/'README.md').write_text(md, encoding='utf-8')
    print(f'wrote {len(list(out.glob("*.html")))} pages to {out}' + ('' if a.no_readme else ' and README.md'))
    if problems:
        print('error outputs found:\n  ' + '\n  '.join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    main()
