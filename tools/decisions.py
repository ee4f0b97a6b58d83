"""Decisions made more than once (issue 34): grep counts over azllm/*.py, so the closing note's before/after is re-measurable.

    python tools/decisions.py            # the counts, then the lines of every module
    python tools/decisions.py --json     # the same as one JSON object

What is counted (generated azllm/_modidx.py left out):
- `use_bf16(` / `resolve_strategy(` calls (their `def` lines not counted)
- RAM readers: `os.sysconf('SC_PHYS_PAGES')` and `/proc/meminfo`
- `saved_tensor_bytes` definitions, and `saved_tensors_hooks(` uses outside them (a saved-tensor count written again)
- value vocabularies: distinct value sets offered for precision, strategy and optimizer (a `Literal[...]`, a dict or a tuple
  assigned to a name) anywhere in the package
- names with two meanings: module-level `PRECISIONS` and `RENAMED` assignments (how many modules define each)
- `PATH_KEYS` / `RESUME_KEYS` definitions, and how many of their keys belong to a stage above the engine (SFT, DPO, CPT keys)
- quiet context managers: `@contextmanager` functions whose name says quiet/silence
- duck-typed task: `getattr(self.task` / `hasattr(self.task` / `hasattr(task`, and `getattr(cfg, '` / `hasattr(cfg, '` in the engine
- decisions per parameter: the functions that turn a run config's `precision`, `strategy` or `micro_batch` into a decision
  (`decision_sites`: the word met with 'auto' in a comparison, a conditional or a lookup table; `word or default`; the
  micro-batch's `is None`, a plan's auto; one precision or strategy word mapped to another), refusals (`if ...: raise`)
  not counted
- lines per module
"""
import argparse, ast, json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT/'azllm'
PRECISION_WORDS, STRATEGY_WORDS, OPTIMIZER_WORDS = {'fp32', 'bf16'}, {'ddp', 'fsdp2'}, {'adamw'}
# keys of the stages above the engine (CPT, SFT, DPO configs), which a lower layer should not list
STAGE_KEYS = {'base_tokenizer', 'vocab_transfer', 'text_field', 'doc_mask', 'phase', 'lora_r', 'lora_alpha', 'lora_dropout',
              'target_modules', 'train_embeddings', 'truncation', 'chat_template', 'load_in_4bit', 'loss_type', 'beta',
              'ref_model', 'adapter', 'lora_kernels', 'chat_data', 'embeddings_from'}
LOWER = ('core', 'files', 'config', 'sources', 'resolve', 'runtime', 'checkpoint', 'rundir', 'memory', 'engine', 'sizing', 'trainer')


def modules() -> dict[str, str]:
    return {p.stem: p.read_text(encoding='utf-8') for p in sorted(PKG.glob('*.py')) if p.stem != '_modidx'} | \
           {f'tasks.{p.stem}': p.read_text(encoding='utf-8') for p in sorted((PKG/'tasks').glob('*.py'))}


def count(pattern:str, src:dict, skip_def:str|None=None) -> dict:
    out = {}
    for m, s in src.items():
        n = sum(1 for l in s.splitlines() if re.search(pattern, l) and not (skip_def and re.search(rf'^\s*def {skip_def}\b', l)))
        if n: out[m] = n
    return out


def _strings(node) -> list[str] | None:
    "The string constants of a tuple/list/set/dict-keys/Literal[...] node, or None."
    if isinstance(node, ast.Subscript) and getattr(node.value, 'id', getattr(node.value, 'attr', None)) == 'Literal': node = node.slice
    if isinstance(node, ast.Dict): node = ast.Tuple(elts=[k for k in node.keys if k is not None])
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        vals = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return vals if vals and len(vals) == len(node.elts) else None
    if isinstance(node, ast.Constant) and isinstance(node.value, str): return [node.value]
    return None


def vocabularies(src:dict) -> dict:
    "Distinct value sets offered for precision, strategy, optimizer: {kind: {values: [modules]}}."
    found = {'precision': {}, 'strategy': {}, 'optimizer': {}}
    for m, s in src.items():
        for n in ast.walk(ast.parse(s)):
            vals = _strings(n) if isinstance(n, (ast.Subscript, ast.Tuple, ast.List, ast.Set, ast.Dict)) else None
            if not vals or len(vals) < 2: continue
            v = set(vals)
            for kind, words in (('precision', PRECISION_WORDS), ('strategy', STRATEGY_WORDS), ('optimizer', OPTIMIZER_WORDS)):
                if words <= v and not (kind == 'optimizer' and v & PRECISION_WORDS):
                    found[kind].setdefault(' '.join(sorted(v)), set()).add(m)
    return {k: {vals: sorted(ms) for vals, ms in d.items()} for k, d in found.items()}


def assigned(name:str, src:dict) -> dict:
    "Modules that assign module-level `name`, with the string keys/values assigned."
    out = {}
    for m, s in src.items():
        for n in ast.parse(s).body:
            if isinstance(n, (ast.Assign, ast.AnnAssign)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                if any(getattr(t, 'id', None) == name for t in targets):
                    vals = _strings(n.value)
                    if vals is None and isinstance(n.value, ast.BinOp): vals = (_strings(n.value.left) or []) + (_strings(n.value.right) or [])
                    out[m] = vals or []
    return out


def class_keys(name:str, src:dict) -> dict:
    "Class-level `name = (...)` / `name: ClassVar = (...)` assignments (a config's own path or resume keys): {module.Class: [keys]}."
    out = {}
    for m, s in src.items():
        for n in ast.walk(ast.parse(s)):
            if not isinstance(n, ast.ClassDef): continue
            for b in n.body:
                t = b.targets if isinstance(b, ast.Assign) else [b.target] if isinstance(b, ast.AnnAssign) else []
                if any(getattr(x, 'id', None) == name for x in t) and b.value is not None:
                    v = b.value.args[0] if isinstance(b.value, ast.Call) and b.value.args else b.value    # frozenset({...})
                    vals = _strings(v)
                    if vals is None and isinstance(v, ast.BinOp): vals = _strings(v.right) or []
                    out[f'{m}.{n.name}'] = vals or []
    return out


def _names(n, word:str) -> bool:
    "`n` is `word`: a name, an attribute, a subscript or a getattr of it."
    return ((isinstance(n, ast.Name) and n.id == word) or (isinstance(n, ast.Attribute) and n.attr == word)
            or (isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and n.slice.value == word)
            or (isinstance(n, ast.Call) and getattr(n.func, 'id', None) == 'getattr' and len(n.args) > 1
                and getattr(n.args[1], 'value', None) == word))


def decision_sites(word:str, path:Path) -> list[tuple[str, int, str]]:
    """(function, line, how) of every place in `path` that turns the config word `word` into a decision: `word` met with
    'auto' (a comparison, a conditional, a dict lookup), `word or default`, `word is None` (a plan's auto), or one word of
    its vocabulary mapped to another (`'fp32' if p == 'fp32' else 'bf16'`). A refusal (`if ...: raise`) decides nothing
    and is not counted; nor is module level."""
    from azllm.config import PRECISIONS, STRATEGIES
    vocab, out = set({'precision': PRECISIONS, 'strategy': STRATEGIES}.get(word, ())), []
    def words(n): return isinstance(n, ast.Constant) and n.value in vocab
    def mentions(node): return any(_names(n, word) for n in ast.walk(node))
    def auto(node): return any(isinstance(n, ast.Constant) and n.value == 'auto' for n in ast.walk(node))
    def how(n):
        if isinstance(n, (ast.Compare, ast.IfExp, ast.Dict)) and mentions(n) and auto(n): return 'meets auto'
        if isinstance(n, ast.Call) and mentions(n) and any(isinstance(d, ast.Dict) and auto(d) for d in ast.walk(n)): return 'auto table'
        if isinstance(n, ast.BoolOp) and isinstance(n.op, ast.Or) and any(_names(v, word) for v in n.values[:-1]): return 'or default'
        if isinstance(n, ast.Compare) and _names(n.left, word) and any(getattr(c, 'value', 0) is None for c in n.comparators): return 'is None'
        if (isinstance(n, ast.IfExp) and words(n.body) and words(n.orelse)
                and any(isinstance(c, ast.Compare) and any(map(words, [c.left, *c.comparators])) for c in ast.walk(n.test))): return 'word to word'
    def walk(node, fn):
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef)): walk(ch, ch.name); continue
            if isinstance(ch, ast.If) and not ch.orelse and len(ch.body) == 1 and isinstance(ch.body[0], ast.Raise):
                walk(ch.body[0], fn); continue                                   # a refusal: its test decides nothing
            h = how(ch)
            if h and fn and not any(f == fn and l == ch.lineno for f, l, _ in out): out.append((fn, ch.lineno, h))
            walk(ch, fn)
    walk(ast.parse(path.read_text(encoding='utf-8')), None)
    return out


def decisions() -> dict:
    src = modules()
    rows = {}
    rows['use_bf16 calls'] = count(r'\buse_bf16\(', src, 'use_bf16')
    rows['resolve_strategy calls'] = count(r'\bresolve_strategy\(', src, 'resolve_strategy')
    rows['RAM readers'] = count(r"SC_PHYS_PAGES|/proc/meminfo", src)
    rows['saved_tensor_bytes definitions'] = count(r'^\s*def saved_tensor_bytes\b', src)
    hooks = count(r'saved_tensors_hooks\(', src)
    for m in rows['saved_tensor_bytes definitions']: hooks[m] = hooks.get(m, 0) - 1
    rows['saved_tensors_hooks outside saved_tensor_bytes'] = {m: n for m, n in hooks.items() if n > 0}
    voc = vocabularies(src)
    for kind in voc: rows[f'{kind} vocabularies'] = {f"{{{vals}}} in {'/'.join(ms)}": 1 for vals, ms in voc[kind].items()}
    for name in ('PRECISIONS', 'RENAMED', 'PATH_KEYS', 'RESUME_KEYS'):
        rows[f'{name} definitions'] = {m: 1 for m in assigned(name, src)}
    for name in ('PATH_KEYS', 'RESUME_KEYS'):
        rows[f'stage keys in a lower {name}'] = {m: len(set(v) & STAGE_KEYS) for m, v in assigned(name, src).items()
                                                 if m in LOWER and set(v) & STAGE_KEYS}
    for name in ('path_keys', 'resume_keys'):
        rows[f'stage keys in a lower config\'s {name}'] = {c: len(set(v) & STAGE_KEYS) for c, v in class_keys(name, src).items()
                                                            if c.split('.')[0] in LOWER and set(v) & STAGE_KEYS}
    rows['quiet context managers'] = {m: len(re.findall(r'@contextlib\.contextmanager\s*\n\s*def _?\w*(quiet|silen)\w*\(', s))
                                      for m, s in src.items() if re.search(r'@contextlib\.contextmanager\s*\n\s*def _?\w*(quiet|silen)\w*\(', s)}
    rows['duck-typed task'] = count(r"getattr\(self\.task|hasattr\(self\.task|hasattr\(task\b", src)
    rows['engine reads stage keys (getattr/hasattr cfg)'] = {m: n for m, n in count(r"(getattr|hasattr)\(cfg, '", src).items() if m in LOWER}
    for word in ('precision', 'strategy', 'micro_batch'):
        sites = {}
        for p in sorted(PKG.glob('**/*.py')):
            if p.name == '_modidx.py': continue
            for fn, _, _ in decision_sites(word, p): sites[f'{p.stem}.{fn}'] = 1
        rows[f'functions deciding {word}'] = sites
    rows['lines per module'] = {m: len(s.splitlines()) for m, s in src.items()}
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--json', action='store_true')
    ap.add_argument('--root', help='another checkout (e.g. `git archive a020e38 azllm | tar -x -C /tmp/old`) to count in')
    a = ap.parse_args(argv)
    global PKG
    if a.root: PKG = Path(a.root)/'azllm'
    rows = decisions()
    if a.json: print(json.dumps(rows, indent=1)); return
    for k, v in rows.items():
        if k == 'lines per module': continue
        print(f"{k:<48} {sum(v.values()):>3}   " + ', '.join(m if 'vocabularies' in k else f'{m}: {n}' for m, n in v.items()))
    print('\nlines per module (over 450 marked *):')
    lines = rows['lines per module']
    print('  ' + ', '.join(f"{m} {n}{'*' if n > 450 else ''}" for m, n in sorted(lines.items(), key=lambda t: -t[1])))


if __name__ == '__main__': main()
