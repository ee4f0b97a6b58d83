"""The offline docs (tools/render_docs.py) render in headless Chromium: tables, plots, no error output, the notebooks'
titles, a sidebar in tutorial order whose links all resolve, local links between pages, the Mermaid diagram drawn
as SVG and MathJax typesetting, all from files on disk: no CDN, no request to a remote host."""
import json, os, re, shutil, subprocess, sys
from pathlib import Path
import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT/'tools'))
import render_docs

DOCS = ROOT/'_docs_offline'
BROWSER = shutil.which('chromium') or shutil.which('chromium-browser') or shutil.which('google-chrome')
INSTALL = 'apt-get install chromium (Debian/Ubuntu; or any Chrome/Chromium on PATH)'


@pytest.fixture(scope='module')
def pages():
    if not (DOCS/'index.html').exists():
        subprocess.run([sys.executable, ROOT/'tools'/'render_docs.py', '--no-readme'], check=True)
    return DOCS


def dom(page:Path, tmp_path) -> str:
    "The page's DOM after Chromium has loaded it and its scripts have run, with every remote host unreachable."
    if BROWSER is None:
        if os.environ.get('AZLLM_REQUIRE_BROWSER') or os.environ.get('CI', '').lower() == 'true':
            pytest.fail(f'chromium is not installed (and CI=true or AZLLM_REQUIRE_BROWSER is set): {INSTALL}')
        pytest.skip(f'chromium is not installed; to run the docs checks: {INSTALL}')
    r = subprocess.run([BROWSER, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                        '--disable-background-networking', '--disable-component-update', '--disable-sync',
                        '--host-resolver-rules=MAP * ~NOTFOUND',   # a page that needed the network would break here
                        '--virtual-time-budget=15000',               # let Mermaid and MathJax finish before the dump
                        f'--user-data-dir={tmp_path/"chrome"}', '--dump-dom', page.as_uri()],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def title_of(notebook:Path) -> str:
    "The notebook's `# Title`."
    cell = json.loads(notebook.read_text(encoding='utf-8'))['cells'][0]
    return ''.join(cell['source']).splitlines()[0].removeprefix('# ').strip()


SIDEBAR = [nb for _, nbs in render_docs.sidebar_entries() for nb in nbs]
PAGES = [render_docs.page_name(nb) for nb in SIDEBAR]
MIN = {'index': (1, 0), 'results': (3, 1), 'fertility': (2, 2), 'memory': (1, 0), 'profile': (1, 1), 'eval': (2, 2), 'pipeline': (0, 0), 'launch': (2, 1), 'harness': (3, 0),
       'lm_tasks': (2, 0), 'stats': (2, 0), 'verdicts': (3, 2), 'eval_report': (2, 2)}   # tables, plots (harness's plots are drawn by verdicts)
REMOTE = re.compile(r'<(script|img|iframe|link|source|video|audio)\b[^>]*\b(src|href)="(https?:)?//', re.I)


def sidebar_links(html:str) -> list[str]:
    nav = re.search(r'<nav[^>]*class="azllm-sidebar".*?</nav>', html, re.S)
    assert nav, 'no sidebar'
    return re.findall(r'href="([^"]+)"', nav.group(0))


def test_every_notebook_has_a_page_in_the_sidebar(pages):
    "sidebar.yml lists every notebook once, and each one has a page."
    test_nbs = sorted(p.name for p in (ROOT/'nbs').glob('*.ipynb'))
    assert sorted(SIDEBAR) == test_nbs, 'nbs/sidebar.yml and the notebooks in nbs/ differ'
    assert sorted(p.stem for p in pages.glob('*.html')) == sorted(PAGES)


def test_sidebar_in_tutorial_order_and_links_resolve(pages):
    for name in PAGES:
        links = sidebar_links((pages/f'{name}.html').read_text(encoding='utf-8'))
        assert links == ['index.html'] + [f'{p}.html' for p in PAGES if p != 'index'], f'{name}: sidebar out of order'
        for href in links: assert (pages/href).is_file(), f'{name}: sidebar link {href} does not resolve'


def test_titles_are_the_notebook_titles(pages):
    for nb in SIDEBAR:
        html = (pages/f'{render_docs.page_name(nb)}.html').read_text(encoding='utf-8')
        assert re.search(r'<title>(.*?)</title>', html).group(1) == render_docs.html.escape(title_of(ROOT/'nbs'/nb), quote=False)


def test_local_links_and_nothing_remote(pages):
    "Links between pages stay local and resolve; no script, style or image comes from another host; no prompts."
    for name in PAGES:
        html = (pages/f'{name}.html').read_text(encoding='utf-8')
        assert 'https://cdn' not in html and 'unpkg.com' not in html, f'{name}: a CDN URL'
        assert not REMOTE.search(html), f'{name}: a remote resource: {REMOTE.search(html).group(0)}'
        assert 'azllm.github.io' not in html and '.ipynb"' not in html, f'{name}: a link to the public site or a notebook'
        for href in re.findall(r'href="([a-z_]+\.html)(?:#[^"]*)?"', html):
            assert (pages/href).is_file(), f'{name}: link {href} does not resolve'
        assert not re.search(r'class="jp-(Input|Output)Prompt', html), f'{name}: notebook prompts (In [ ]: / Out[ ]:)'
    index = (pages/'index.html').read_text(encoding='utf-8')
    assert 'href="tokenizer.html"' in index and 'href="cli.html"' in index   # "where to go next", made local


def test_vendored_scripts_are_on_disk(pages):
    for f in render_docs.VENDOR.values():
        assert (pages/'vendor'/f).stat().st_size > 500_000, f'vendor/{f} missing: the render copies tools/vendor/'


def test_pipeline_diagram_renders_as_svg(pages, tmp_path):
    html = dom(pages/'index.html', tmp_path)
    m = re.search(r'<pre class="mermaid"[^>]*data-processed="true"[^>]*>\s*(<svg.*?</svg>)', html, re.S)
    assert m, 'Mermaid did not run on the home page (vendor/mermaid.tiny.js not loaded?)'
    svg = m.group(1)
    assert svg.count('class="node') >= 6 and 'Tokenizer' in svg, 'the diagram is empty'
    assert not REMOTE.search(html), 'a remote resource in the page after its scripts ran'


def test_mathjax_typesets_offline(tmp_path):
    "A page with math, rendered like the others, typesets it from vendor/ (no notebook has math yet)."
    import nbformat
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell('# Math\n\nBits per byte: $\\frac{L}{\\ln 2 \\cdot B}$')])
    render_docs.prepare(nb)
    res = dict(azllm=dict(sidebar='', css='', mathjax=f"vendor/{render_docs.VENDOR['mathjax']}", mermaid=''))
    page, _ = render_docs.export(nb, render_docs.html_exporter(), res)
    shutil.copytree(ROOT/'tools'/'vendor', tmp_path/'vendor')
    (tmp_path/'math.html').write_text(page, encoding='utf-8')
    html = dom(tmp_path/'math.html', tmp_path)
    assert '<mjx-container' in html and '<svg' in html, 'MathJax did not typeset the formula'


@pytest.mark.parametrize('name', PAGES)
def test_page_renders(pages, tmp_path, name):
    tables, plots = MIN.get(name, (0, 0))
    html = dom(pages/f'{name}.html', tmp_path)
    assert '<h1' in html
    assert html.count('<table') >= tables, f'{name}: expected at least {tables} tables'
    assert html.count('<img') >= plots, f'{name}: expected at least {plots} images'
    # stderr outputs (errors, warnings, progress-bar spam) carry this attribute in nbconvert's HTML
    for bad in ('Traceback (most recent call last)', 'data-mime-type="application/vnd.jupyter.stderr"'):
        assert bad not in html, f'{name}: error output in the page ({bad})'


def test_a_cell_the_docs_build_would_run_in_full_is_found(tmp_path):
    "nbdev's processing runs any cell with an import in it: one nested in a `with` (a whole demo run) is named, before any work."
    import nbformat
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell('import os\nx = 1'),
                                         nbformat.v4.new_code_cell('#| export\ndef f():\n    import json\n    return json'),
                                         nbformat.v4.new_code_cell('with open("a") as f:\n    from pathlib import Path\n    train()'),
                                         nbformat.v4.new_code_cell('!azllm train x.yml\nfor i in range(3): print(i)')])
    nbformat.write(nb, tmp_path/'demo.ipynb')
    found = render_docs.cells_the_build_would_run(tmp_path/'demo.ipynb')
    assert len(found) == 1 and found[0].startswith('demo.ipynb cell 2 (line 2: from pathlib import Path)')
    assert all(not render_docs.cells_the_build_would_run(nb) for nb in sorted((ROOT/'nbs').glob('*.ipynb')))
