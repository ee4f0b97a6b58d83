"""Render the docs without Quarto: README.md from nbs/index.ipynb, and every notebook to an HTML page.

    python tools/render_docs.py [--out _docs_offline] [--no-readme]

Quarto (what `nbdev-docs` uses) cannot be installed offline, so this is the path CI runs. The notebooks go
through nbdev's own processing first (`nbdev.serve.proc_nbs`: `#| hide` cells dropped, `show_doc` rendered,
the title cell turned into front matter), then nbconvert writes Markdown (README) and HTML (one page per
notebook). Cells marked `#| echo: false` keep their output and lose their source, as Quarto would do.

The pages work offline, opened straight from disk: each is titled with its notebook's `# Title`, carries a
sidebar in the tutorial order of nbs/sidebar.yml, links to the other pages locally (links to the public site
or to `NN_name.ipynb` are rewritten), has no `In [ ]:` prompts, and loads Mermaid and MathJax from
`vendor/` (copied from tools/vendor/, see its README), never from a CDN.
Fails (exit 1) if any stored cell output is an error or a traceback, and, before any work, if a cell that is not
exported holds an import inside a `with`, `for`, `def`, ...: nbdev's processing runs every cell that contains an
import anywhere, so such a cell (a quickstart run, a training demo) would run in full while the docs build.
"""
import argparse, ast, html, os, re, shutil, sys
from pathlib import Path
import nbformat, yaml
from nbconvert import HTMLExporter, MarkdownExporter
from nbconvert.preprocessors import TagRemovePreprocessor

root = Path(__file__).resolve().parent.parent
tools = Path(__file__).resolve().parent
VENDOR = dict(mermaid='mermaid.tiny.js', mathjax='mathjax-tex-svg.js')   # files in tools/vendor/


def front_matter(nb):
    "Pop the YAML front-matter cell nbdev puts first; return (title, description)."
    if nb.cells and nb.cells[0].cell_type == 'raw' and nb.cells[0].source.startswith('---'):
        fm = yaml.safe_load(nb.cells.pop(0).source.strip().strip('-')) or {}
        return fm.get('title', ''), fm.get('description', '')
    return '', ''


_CELL_KEYS = dict(code={'cell_type', 'execution_count', 'id', 'metadata', 'outputs', 'source'},
                  markdown={'cell_type', 'id', 'metadata', 'source', 'attachments'},
                  raw={'cell_type', 'id', 'metadata', 'source', 'attachments'})


def page_name(notebook:str) -> str:
    "The page a notebook renders to: `16_tokenizer.ipynb` -> `tokenizer` (nbdev drops the number)."
    return re.sub(r'^\d+_', '', Path(notebook).stem)


def sidebar_entries(path=root/'nbs'/'sidebar.yml') -> list:
    "nbs/sidebar.yml (Quarto's sidebar) as a list of (section title or None, [notebook file names])."
    out = []
    for item in yaml.safe_load(Path(path).read_text())['website']['sidebar']['contents']:
        if isinstance(item, str): out.append((None, [item]))
        else: out.append((item['section'], [c for c in item['contents'] if isinstance(c, str)]))
    return out


def sidebar_html(entries, titles:dict, current:str) -> str:
    "The sidebar: every page in tutorial order under its section, the current one marked."
    def link(nb):
        name = page_name(nb)
        cls = ' class="active" aria-current="page"' if name == current else ''
        return f'<li><a href="{name}.html"{cls}>{html.escape(titles.get(name, name))}</a></li>'
    parts = ['<nav class="azllm-sidebar" aria-label="pages">', f'<a class="azllm-home" href="index.html">azllm</a>']
    for section, nbs in entries:
        if section: parts.append(f'<div class="azllm-section">{html.escape(section)}</div>')
        parts.append('<ul>' + ''.join(link(nb) for nb in nbs if page_name(nb) != 'index' or section) + '</ul>')
    parts.append('</nav>')
    return '\n'.join(parts)


def local_links(page:str, names:set, site:str) -> str:
    "Point links to the public site, to `X.html.md` and to `NN_name.ipynb` at the local page, when there is one."
    def fix(m):
        url = m.group(2)
        target, frag = (url.split('#', 1) + [''])[:2]
        if site and target.startswith(site + '/'): target = target[len(site) + 1:]
        elif site and target in (site, site + '/'): target = 'index.html'
        if '://' in target: return m.group(0)
        name = re.sub(r'\.html(\.md)?$', '', re.sub(r'^(\.\./)?(nbs/)?', '', target))
        if target.endswith('.ipynb'): name = page_name(name)
        if name not in names or not re.search(r'\.(html|html\.md|ipynb)$', target): return m.group(0)
        return f'{m.group(1)}="{name}.html' + (f'#{frag}' if frag else '') + '"'
    return re.sub(r'\b(href)="([^"]*)"', fix, page)


def site_url() -> str:
    "The public docs site (nbdev's doc_host + doc_baseurl), whose links the offline pages turn local."
    try:
        from nbdev.config import get_config
        c = get_config(path=root)
        return (c.doc_host + c.doc_baseurl).rstrip('/')
    except Exception: return ''


def prepare(nb):
    "Title cell back in, directives stripped, `echo: false` sources removed; return the list of output errors."
    title, desc = front_matter(nb)
    if title:
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(f'# {title}\n\n> {desc}' if desc else f'# {title}'))
        nb.metadata['title'] = title                       # the page's <title>
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


def export(nb, exporter, resources=None):
    exporter.register_preprocessor(TagRemovePreprocessor(remove_input_tags={'remove_input'}, enabled=True), enabled=True)
    return exporter.from_notebook_node(nb, resources=resources)


def html_exporter():
    "JupyterLab's template plus tools/docs_page.html.j2: no prompts, no CDN, images embedded."
    return HTMLExporter(extra_template_paths=[str(tools)], template_file='docs_page.html.j2', embed_images=True,
                        exclude_input_prompt=True, exclude_output_prompt=True)


def html_page(job):
    "One notebook's HTML page, its links made local: `job` is (page name, notebook, resources, page names, site url)."
    name, nb, res, names, site = job
    page, _ = export(nb, html_exporter(), res)
    return local_links(page, names, site)


def write_readme(nb):
    "README.md (and README_files/) from the prepared index notebook; its links stay on the public site."
    md, res = export(nb, MarkdownExporter())
    files = root/'README_files'
    shutil.rmtree(files, ignore_errors=True)
    for fname, data in res.get('outputs', {}).items():
        files.mkdir(exist_ok=True)
        (files/fname).write_bytes(data)
        md = md.replace(f']({fname})', f'](README_files/{fname})')
    md = re.sub(r'\n{3,}', '\n\n', md).strip() + '\n'
    (root/'README.md').write_text(md, encoding='utf-8')


_COMPOUND = (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While, ast.If, ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)

def cells_the_build_would_run(nb_path:Path) -> list[str]:
    "Cells of `nb_path` that nbdev's docs processing would execute only for an import nested in their code."
    found = []
    for i, c in enumerate(nbformat.read(nb_path, as_version=4).cells):
        if c.cell_type != 'code' or re.search(r'^#\|\s*(export|exports|exporti|exec_doc)\b|^#\|\s*eval:\s*false', c.source, re.M): continue
        try: tree = ast.parse('\n'.join(l for l in c.source.splitlines() if not l.lstrip().startswith(('!', '%'))))
        except SyntaxError: continue
        nested = [n for top in tree.body if isinstance(top, _COMPOUND) for n in ast.walk(top) if isinstance(n, (ast.Import, ast.ImportFrom))]
        if nested: found.append(f'{nb_path.name} cell {i} (line {nested[0].lineno}: {ast.unparse(nested[0])}): {c.source[:60]!r}...')
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default=str(root/'_docs_offline'), help='directory for the HTML pages')
    ap.add_argument('--no-readme', action='store_true', help='do not rewrite README.md')
    a = ap.parse_args()
    if slow := [f for nb in sorted((root/'nbs').glob('*.ipynb')) for f in cells_the_build_would_run(nb)]:
        print("nbdev's docs build would run these cells in full (an import inside them): move the import to the notebook's import cell:\n  "
              + '\n  '.join(slow), file=sys.stderr)
        sys.exit(1)
    from nbdev.serve import proc_nbs
    cache = proc_nbs(str(root/'nbs'), n_workers=0, force=True)   # a stale cache would render old outputs
    out = Path(a.out)
    shutil.rmtree(out, ignore_errors=True); out.mkdir(parents=True)
    shutil.copytree(tools/'vendor', out/'vendor')
    nbs = {page_name(src): nbformat.read(src, as_version=4) for src in sorted(cache.glob('*.ipynb'))}
    problems, titles = [], {}
    for name, nb in nbs.items():
        problems += [f'{name} {e}' for e in prepare(nb)]
        titles[name] = nb.metadata.get('title', name)
    entries, site = sidebar_entries(), site_url()
    css = (root/'nbs'/'styles.css').read_text(encoding='utf-8')
    jobs = []
    for name, nb in nbs.items():
        has_mermaid = any(c.cell_type == 'markdown' and '```mermaid' in c.source for c in nb.cells)
        jobs.append((name, nb, dict(azllm=dict(sidebar=sidebar_html(entries, titles, name), css=css, mathjax=f"vendor/{VENDOR['mathjax']}",
                                               mermaid=f"vendor/{VENDOR['mermaid']}" if has_mermaid else '')), set(nbs), site))
    # a page takes a second or two of Jinja and Markdown rendering, all CPU: the pages are shared among one forked child per
    # core (forked: nothing is imported again; nbdev's processing leaves `__main__` such that a Pool cannot pickle a function)
    children, n = [], min(len(jobs), os.cpu_count() or 1)
    for k in range(n):
        if (pid := os.fork()) == 0:
            try:
                for job in jobs[k::n]: (out/f'{job[0]}.html').write_text(html_page(job), encoding='utf-8')
            except BaseException as e: print(f'page rendering failed: {e!r}', file=sys.stderr); os._exit(1)
            os._exit(0)
        children.append(pid)
    if any(os.waitpid(pid, 0)[1] for pid in children): sys.exit(1)
    if not a.no_readme: write_readme(nbs['index'])
    print(f'wrote {len(list(out.glob("*.html")))} pages to {out}' + ('' if a.no_readme else ' and README.md'))
    if problems:
        print('error outputs found:\n  ' + '\n  '.join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    main()
