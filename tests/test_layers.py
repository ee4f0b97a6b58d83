"""The package's layering, read from the source with `ast`: every module is exported by one numbered notebook, and a
module imports only modules of lower-numbered notebooks (so there is no import cycle, and a reader of the docs never
meets a name before the chapter that defines it); no `_private` name is imported across modules."""
import ast, json, re, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG, NBS = ROOT/'azllm', ROOT/'nbs'
sys.path.insert(0, str(ROOT/'tools'))
from decisions import decision_sites


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


def test_the_sidebar_is_the_import_order():
    """The docs are read in file order: nbs/sidebar.yml lists the numbered notebooks by their numbers, so with the test
    below a reader meets every name in the chapter that defines it or earlier."""
    import yaml
    listed = []
    def walk(items):
        for it in items:
            if isinstance(it, str): listed.append(it)
            else: walk(it.get('contents', []))
    walk(yaml.safe_load((NBS/'sidebar.yml').read_text(encoding='utf-8'))['website']['sidebar']['contents'])
    numbered = [n for n in listed if re.match(r'\d\d_', n)]
    assert numbered == sorted(numbered), f"nbs/sidebar.yml is out of file order: {[n for n, s in zip(numbered, sorted(numbered)) if n != s]}"
    assert numbered == sorted(p.name for p in NBS.glob('[0-9][0-9]_*.ipynb')), 'nbs/sidebar.yml and the numbered notebooks differ'


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


# ---------------- decided once (issue 34) ----------------
def calls_outside(name:str, allowed:set[str], path:Path) -> list[str]:
    "Calls of `name` in `path` that are not inside a function of `allowed` (module level counts as outside)."
    tree, bad = ast.parse(path.read_text(encoding='utf-8')), []
    def walk(node, fn):
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef)): walk(ch, ch.name); continue
            if isinstance(ch, ast.Call) and getattr(ch.func, 'id', getattr(ch.func, 'attr', None)) == name and fn not in allowed:
                bad.append(f"{path.name}:{ch.lineno} ({fn or 'module level'})")
            walk(ch, fn)
    walk(tree, None)
    return bad


def package_files(): return [p for p in sorted(PKG.glob('**/*.py')) if p.name != '_modidx.py']


# who may ask the resolver (azllm.resolve) directly, and why; everything else reads the run's Plan
RESOLVER_CALLERS = {
    'use_bf16': {'resolve_plan'},                                          # a run: once, in its plan (the device checked)
    'resolve_precision': {'use_bf16', 'setup_bytes', 'make_train_step'},   # the plan; the estimate, as on a GPU; the profiler's step
    'resolve_strategy': {'resolve_plan', 'launch_strategy', 'estimate_memory'},  # the plan; the launcher, before any process; the estimate
}

@pytest.mark.parametrize('name', RESOLVER_CALLERS)
def test_precision_and_strategy_are_decided_in_the_plan_only(name):
    "The run's precision and strategy are turned into decisions once, by `engine.resolve_plan`; every later step reads the Plan. Only the launcher and the memory estimate, which have no process to plan for, ask the same resolver."
    bad = [b for p in package_files() for b in calls_outside(name, RESOLVER_CALLERS[name], p)]
    assert not bad, f"{name}() called outside {sorted(RESOLVER_CALLERS[name])}: {bad}"


# the one function that turns each config word into a decision (tools/decisions.py `decision_sites` finds them)
DECIDERS = {'precision': {'resolve_precision'}, 'strategy': {'resolve_strategy'},
            # resolve_plan records the word (a number, or None: auto, undecided); batch_plan picks the number
            'micro_batch': {'resolve_plan', 'batch_plan'}}

@pytest.mark.parametrize('word', DECIDERS)
def test_one_function_decides_each_word(word):
    """`precision: auto` and `strategy: auto` mean what `azllm.resolve` says, everywhere (the run, the launcher, the memory
    estimate, the profiler); a run's micro-batch is chosen by `sizing.batch_plan` alone (the run, and the memory floors
    before the model loads). A second function that meets the word with 'auto', maps it through a table or defaults it
    (`micro_batch or 1`) fails here."""
    sites = [f"{p.name}:{line} {fn} ({how})" for p in package_files() for fn, line, how in decision_sites(word, p) if fn not in DECIDERS[word]]
    assert not sites, f"{word} decided outside {sorted(DECIDERS[word])}: {sites}"
    found = {fn for p in package_files() for fn, _, _ in decision_sites(word, p)}
    assert found == DECIDERS[word], f"the deciders of {word} moved: {sorted(found)} (update DECIDERS, and say why)"


def test_the_micro_batch_search_is_asked_through_batch_plan():
    "The measurement (`choose_micro_batch`) and the batch arithmetic of a run (`grad_accum_for`) are reached through `batch_plan` only."
    for name in ('choose_micro_batch', 'grad_accum_for'):
        bad = [b for p in package_files() for b in calls_outside(name, {'batch_plan'}, p)]
        assert not bad, f"{name}() called outside sizing.batch_plan: {bad}"


def test_the_resolver_imports_no_torch():
    "`azllm memory estimate` is arithmetic (no torch); it asks the same resolver a run does, so the resolver imports nothing heavy."
    tree = ast.parse((PKG/'resolve.py').read_text(encoding='utf-8'))
    mods = [a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names] + \
           [('.' * n.level) + (n.module or '') for n in tree.body if isinstance(n, ast.ImportFrom)]
    assert set(mods) <= {'__future__', 'os', '.core', '.config'}, f"azllm/resolve.py imports {mods}"


def test_parallel_degrees_are_decided_in_the_plan_only():
    "The data- and sequence-parallel degrees are resolved by `engine.resolve_plan` (and checked by the launcher before it starts processes); every later step reads `Plan.dp` / `Plan.sp`."
    bad = [b for p in package_files() for b in calls_outside('parallel_degrees', {'resolve_plan', 'launch_strategy'}, p)]
    assert not bad, f"parallel_degrees() called outside resolve_plan and launch_strategy: {bad}"


def test_one_ram_reader_and_one_gpu_reader():
    "How much memory there is is read in one place each: `sizing.ram_gib` (physical RAM) and `sizing.gpu_gib` (a GPU's total)."
    ram, gpu = [], []
    for p in package_files():
        for i, line in enumerate(p.read_text(encoding='utf-8').splitlines(), 1):
            if re.search(r"SC_PHYS_PAGES|/proc/meminfo|MemAvailable|psutil\.virtual_memory", line): ram.append(f"{p.name}:{i}")
            if re.search(r"get_device_properties\(.*\)\.total_memory|mem_get_info\(", line): gpu.append(f"{p.name}:{i}")
    assert len(ram) == 1 and ram[0].startswith('sizing.py'), f"RAM read at {ram}: read it through azllm.sizing.ram_gib"
    assert len(gpu) == 1 and gpu[0].startswith('sizing.py'), f"GPU memory read at {gpu}: read it through azllm.sizing.gpu_gib"


def test_one_saved_tensor_bytes():
    """What autograd saves is counted by one function (`runtime.saved_tensor_bytes`): no copy, no hooks of its own elsewhere
    (the one other use moves what is saved, not counts it: `long_context._offloaded` hands it to a host stash)."""
    defs, hooks = [], []
    for p in package_files():
        tree = ast.parse(p.read_text(encoding='utf-8'))
        for n in ast.walk(tree):
            if isinstance(n, ast.FunctionDef) and n.name == 'saved_tensor_bytes': defs.append(p.name)
        hooks += [f"{p.name}:{b}" for b in calls_outside('saved_tensors_hooks', {'saved_tensor_bytes', '_offloaded'}, p)]
    assert defs == ['runtime.py'], f"saved_tensor_bytes defined in {defs}"
    assert not hooks, f"saved_tensors_hooks used outside runtime.saved_tensor_bytes: {hooks}"


# Lines of code: neither blank lines nor nbdev's `# %%` cell markers count, so splitting a cell costs no room. The limit and
# the caps below are the sizes the modules had when the house was last rebuilt; they may shrink, never grow: a module that
# outgrows its cap is split by concern.
LINE_LIMIT = 381
OVER = {'cli': 423}     # over the limit since before the split of the trainer
LOWERED = {'checkpoint': 358, 'trainer': 199, 'rundir': 327}   # lowered to their sizes when the run directory left them


def code_lines(path:Path) -> int:
    return sum(1 for l in path.read_text(encoding='utf-8').splitlines() if l.strip() and not l.startswith('# %%'))


@pytest.mark.parametrize('module', MODULES)
def test_module_lines(module):
    "A module holds one concern: at most LINE_LIMIT lines of code (the few that were longer may not grow)."
    n, cap = code_lines(PKG/f'{module}.py'), {**OVER, **LOWERED}.get(module, LINE_LIMIT)
    assert n <= cap, f"azllm/{module}.py has {n} lines of code (limit {cap}): split it by concern"


def test_one_vocabulary_for_precision_strategy_and_optimizer():
    "A value a user types means one thing: run configs, the memory estimate and its flags offer the same precision, strategy and optimizer words."
    from typing import get_args
    from azllm.config import PRECISIONS, STRATEGIES, OPTIMIZERS
    from azllm.engine import TrainConfig
    from azllm.memory import MemoryEstimate, OPTIMIZER_STATES
    for k, want in (('precision', PRECISIONS), ('strategy', STRATEGIES), ('optimizer', OPTIMIZERS)):
        for schema in (TrainConfig, MemoryEstimate):
            assert set(get_args(schema.model_fields[k].annotation)) == set(want), f"{schema.__name__}.{k} offers other values than {want}"
    assert tuple(OPTIMIZER_STATES) == OPTIMIZERS, 'the memory estimate counts the state of every optimizer word, and only those'


@pytest.mark.parametrize('name', ['PRECISIONS', 'STRATEGIES', 'OPTIMIZERS', 'RENAMED'])
def test_a_name_is_defined_once(name):
    "PRECISIONS, STRATEGIES, OPTIMIZERS (the words a user types) and RENAMED (renamed config keys) each name one thing, in one module."
    where = [p.name for p in package_files() for n in ast.parse(p.read_text(encoding='utf-8')).body
             if isinstance(n, ast.Assign) and any(getattr(t, 'id', None) == name for t in n.targets)]
    assert len(where) == 1, f"{name} defined in {where}"


def config_classes():
    "Every pydantic config class of the package (`config.Config` and its subclasses)."
    import importlib, inspect, pkgutil, azllm
    from azllm.config import Config
    out = {Config}
    for m in pkgutil.iter_modules(azllm.__path__):
        if m.name.startswith('_') or m.name == 'tasks': continue
        mod = importlib.import_module(f'azllm.{m.name}')
        out |= {c for c in vars(mod).values() if inspect.isclass(c) and issubclass(c, Config)}
    return sorted(out, key=lambda c: (c.__module__, c.__name__))


def test_no_stage_keys_below_the_stage_layer():
    "Each config owns its path keys and resume keys: the base Config names none, TrainConfig only its own fields, a stage adds its own."
    from azllm.config import Config
    from azllm.engine import TrainConfig
    assert Config.path_keys == frozenset()
    assert not hasattr(__import__('azllm.config').config, 'PATH_KEYS') and not hasattr(__import__('azllm.engine').engine, 'RESUME_KEYS')
    for cls in config_classes():
        for what in ('path_keys', 'resume_keys'):
            keys = set(getattr(cls, what, ()))
            assert keys <= set(cls.model_fields), f"{cls.__module__}.{cls.__name__}.{what} names keys it does not have: {keys - set(cls.model_fields)}"
    assert set(TrainConfig.resume_keys) <= set(TrainConfig.model_fields) and set(TrainConfig.path_keys) <= set(TrainConfig.model_fields)


# what trainer.RESUME_KEYS listed for every stage before issue 34 (a020e38): each stage's own list must keep its part of it,
# so a resume refuses exactly the changes it refused before
OLD_RESUME_KEYS = ('model', 'tokenizer', 'train_data', 'seq_len', 'micro_batch', 'grad_accum', 'global_batch', 'seed', 'lr', 'lr_scheduler',
                   'min_lr_ratio', 'warmup_steps', 'max_steps', 'max_tokens', 'epochs', 'weight_decay', 'betas', 'optimizer', 'grad_clip',
                   'precision', 'fp8_recipe', 'attn_implementation', 'base_tokenizer', 'vocab_transfer', 'vocab_init', 'text_field', 'doc_mask', 'phase',
                   'lora_r', 'lora_alpha', 'lora_dropout', 'target_modules', 'train_embeddings', 'truncation', 'chat_template', 'load_in_4bit',
                   'loss_type', 'beta')

def test_each_stage_keeps_the_resume_keys_it_had():
    from azllm.cpt import CPTRun
    from azllm.sft import SFTRun
    from azllm.dpo import DPORun
    for cls in (CPTRun, SFTRun, DPORun):
        assert cls.resume_keys == tuple(k for k in OLD_RESUME_KEYS if k in cls.model_fields), cls.__name__


def test_the_decision_checkers_catch_what_they_should(tmp_path):
    f = tmp_path/'m.py'
    f.write_text("def resolve_plan(c):\n    return use_bf16(c)\ndef setup(c):\n    x = rt.use_bf16(c)\n    def inner(): return use_bf16(c)\nuse_bf16(1)\n")
    assert calls_outside('use_bf16', {'resolve_plan'}, f) == ['m.py:4 (setup)', 'm.py:5 (inner)', 'm.py:6 (module level)']
    g = tmp_path/'d.py'
    g.write_text("def floor(cfg, plan):\n"
                 "    mb = 1 if cfg.micro_batch == 'auto' else cfg.micro_batch\n"       # a second decision of the micro-batch
                 "    n = plan.micro_batch or 1\n"                                     # another
                 "    if cfg.micro_batch == 'auto': raise ValueError('give one')\n"    # a refusal decides nothing
                 "    return mb * n\n"
                 "def launch(cfgs):\n"
                 "    return {({'auto': 'ddp'}).get(getattr(c, 'strategy', 'auto')) for c in cfgs}\n"   # auto mapped by a table
                 "def estimate(strategy):\n"
                 "    if strategy != 'auto': return strategy\n"
                 "    return 'ddp' if cfg.strategy == 'fsdp2' else 'none'\n"           # a word mapped to another
                 "def bytes_of(p, plan):\n"
                 "    x = 2 if plan.strategy == 'fsdp2' else 1\n"                     # a use of the resolved word
                 "    return 'fp32' if p == 'fp32' else 'bf16', 'bf16' if plan.bf16 else 'fp32'\n")   # a mapping; the plan read back
    assert [(fn, line) for fn, line, _ in decision_sites('micro_batch', g)] == [('floor', 2), ('floor', 3)]
    assert [(fn, line) for fn, line, _ in decision_sites('strategy', g)] == [('launch', 7), ('estimate', 9), ('estimate', 10)]
    assert [(fn, line) for fn, line, _ in decision_sites('precision', g)] == [('bytes_of', 13)]


# ---------------- what a task may read of the trainer (issue 49) ----------------
TASK_MODULES = ('cpt', 'sft', 'dpo', 'grpo')

def trainer_reads(path:Path) -> set[str]:
    "Attributes read, in `path`, from a function parameter annotated `TrainerView` or `Trainer`, or named `trainer`."
    out = set()
    for fn in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)): continue
        args = fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
        names = {a.arg for a in args if a.arg == 'trainer' or getattr(a.annotation, 'id', None) in ('TrainerView', 'Trainer')}
        out |= {n.attr for n in ast.walk(fn) if isinstance(n, ast.Attribute) and getattr(n.value, 'id', None) in names}
    return out


@pytest.mark.parametrize('module', TASK_MODULES)
def test_tasks_read_only_the_trainer_view(module):
    "A task's hooks read of the trainer only what `TrainerView` lists, and no task module imports `Trainer` itself."
    from azllm.trainer import TrainerView
    allowed = set(TrainerView.__annotations__)
    got = trainer_reads(PKG/f'{module}.py')
    assert got and got <= allowed, f"azllm/{module}.py reads {sorted(got - allowed)} of the trainer, which TrainerView does not list"
    imported = [n for mod, names, _ in azllm_imports(PKG/f'{module}.py') if mod == 'trainer' for n in names]
    assert 'Trainer' not in imported, f"azllm/{module}.py imports Trainer: a task sees the run through TrainerView"


def test_the_trainer_view_checker_catches_what_it_should(tmp_path):
    f = tmp_path/'m.py'
    f.write_text("def save_final(self, trainer:TrainerView, out):\n    return trainer.eng.model, trainer.step\n"
                 "def validate(t:Trainer):\n    return t.order\ndef other(x):\n    return x.prefetch\n")
    assert trainer_reads(f) == {'eng', 'step', 'order'}
