"""The offline docs (tools/render_docs.py) render in headless Chromium, with tables, plots and no error output."""
import os, shutil, subprocess, sys
from pathlib import Path
import pytest
from conftest import ROOT

DOCS = ROOT/'_docs_offline'
BROWSER = shutil.which('chromium') or shutil.which('chromium-browser') or shutil.which('google-chrome')


@pytest.fixture(scope='module')
def pages():
    if not (DOCS/'index.html').exists():
        subprocess.run([sys.executable, ROOT/'tools'/'render_docs.py', '--no-readme'], check=True)
    return DOCS


def dom(page:Path, tmp_path) -> str:
    "The page's DOM after Chromium has loaded and laid it out."
    if BROWSER is None:
        if os.environ.get('AZLLM_REQUIRE_BROWSER'): pytest.fail('chromium is not installed (apt-get install chromium)')
        pytest.skip('chromium is not installed')
    r = subprocess.run([BROWSER, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                        '--disable-background-networking', '--disable-component-update', '--disable-sync',
                        f'--user-data-dir={tmp_path/"chrome"}', '--dump-dom', page.as_uri()],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


PAGES = ['index', 'core', 'data', 'packing', 'tokenizer', 'fertility', 'memory', 'liger', 'model', 'cpt', 'sft', 'eval', 'harness', 'pipeline', 'cli']
MIN = {'index': (3, 1), 'fertility': (2, 2), 'memory': (1, 1), 'eval': (2, 2), 'harness': (3, 1), 'pipeline': (0, 0)}   # tables, plots


def test_every_notebook_has_a_page(pages):
    assert sorted(p.stem for p in pages.glob('*.html')) == sorted(PAGES)


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
