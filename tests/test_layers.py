"""The package's layering, read from the source with `ast`: every module is exported by one numbered notebook, and a
module imports only modules of lower-numbered notebooks (so there is no import cycle, and a reader of the docs never
meets a name before the chapter that defines it); no `_private` name is imported across modules."""
import ast, json, re
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG, NBS = ROOT/'azllm', ROOT/'nbs'


def notebook_numbers() -> dict[str, int]:
    "Module name -> the number of the notebook that exports it (`#| default_exp`)."
    out = {}
    for nb in sorted(NBS.glob('[0-9][0-9]_*.ipynb')):
        for c in json.loads(nb.read_text(encoding='utf-8'))['cells']:
            m = re.search(r'^#\|\s*default_exp\s+(\S+)', ''.join(c['source']), re.M)
            if m: out[m.group(1)] = int(nb.name[:2])
    return out


def azllm_imports(path:Path) -> list[tuple[str, list[str], int]]:
    "(module, names, line) of every import of an azllm module in `path`, function-local ones too."
    out = []
    for n in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
        if isinstance(n, ast.ImportFrom):
            mod = n.module or ''
            if n.level == 1: mod = mod                           # `from .x import y`
            elif mod == 'azllm' or mod.startswith('azllm.'): mod = mod[len('azllm.'):] if '.' in mod else ''
            else: continue
            if mod == '': out.append(('', [a.name for a in n.names], n.lineno)); continue   # `from azllm import x`: submodules
            out.append((mod.split('.')[0], [a.name for a in n.names], n.lineno))
        elif isinstance(n, ast.Import):
            for a in n.names:
                if a.name.startswith('azllm.'): out.append((a.name.split('.')[1], [], n.lineno))
    return sorted(out, key=lambda t: t[2])


NUMBERS = notebook_numbers()
MODULES = sorted(p.stem for p in PKG.glob('*.py') if not p.stem.startswith('_'))


def test_every_module_has_a_notebook():
    assert set(MODULES) == set(NUMBERS), f"modules without a notebook: {set(MODULES) - set(NUMBERS)}; notebooks without a module: {set(NUMBERS) - set(MODULES)}"
    numbers = sorted(NUMBERS.values())
    assert len(numbers) == len(set(numbers)), "two modules share a notebook number"


@pytest.mark.parametrize('module', MODULES)
def test_imports_point_down(module):
    "A module imports only modules of lower-numbered notebooks, and no `_private` name of another module."
    bad = []
    for mod, names, line in azllm_imports(PKG/f'{module}.py'):
        if mod == '':        # `from azllm import __version__` (the package), or `from azllm import memory` (a submodule)
            mods = [n for n in names if n in NUMBERS]
            if len(mods) < len(names) and any(n != '__version__' for n in names if n not in NUMBERS): bad.append(f"line {line}: from azllm import {names}")
        else:
            mods = [mod]
            private = [n for n in names if n.startswith('_') and not n.startswith('__')]
            if private: bad.append(f"line {line}: private {private} of azllm.{mod}")
        for m in mods:
            if m not in NUMBERS: bad.append(f"line {line}: azllm.{m} is no module of a notebook")
            elif NUMBERS[m] >= NUMBERS[module]: bad.append(f"line {line}: azllm.{m} (notebook {NUMBERS[m]:02d}) is not below {module} ({NUMBERS[module]:02d})")
    assert not bad, f"azllm/{module}.py:\n  " + "\n  ".join(bad)


def test_the_checker_catches_what_it_should(tmp_path):
    "The reader sees relative, absolute and function-local imports (so a passing test means something)."
    f = tmp_path/'m.py'
    f.write_text("from .core import a, _b\nimport azllm.cli\ndef g():\n    from azllm.sft import run_sft\nfrom azllm import __version__\n")
    got = azllm_imports(f)
    assert [(m, n) for m, n, _ in got] == [('core', ['a', '_b']), ('cli', []), ('sft', ['run_sft']), ('', ['__version__'])]
