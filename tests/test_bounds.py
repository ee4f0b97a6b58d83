"""Issue 33, items 3, 4 and 6: every number read from a file or a command line is bounded before use, every YAML and JSON
is read with one depth and alias limit, and what makes a run meaningless is refused at load, before any stage trains.

Each case is one clear line (and exit code 2 through the CLI); the forged checkpoint is left as it was. Hangs are shown in a
subprocess with a timeout, so a regression fails the test instead of hanging the suite."""
import contextlib, json, math, shutil, subprocess, sys, time
from pathlib import Path
import pytest, yaml
from conftest import DATA, ROOT, azllm_in

pytestmark = [pytest.mark.filterwarnings('ignore'), pytest.mark.usefixtures('one_thread')]

DEEP_JSON = '[' * 100_000 + ']' * 100_000
DEEP_YAML = 'lr: ' + '[' * 20_000 + ']' * 20_000 + '\n'
BOMB = '[' + ','.join(['&a [1,1,1,1,1,1,1,1,1]'] + [f'&{c} [' + ','.join([f'*{p}'] * 9) + ']' for p, c in zip('abcde', 'bcdef')]) + ']'


def one_line(r, *needles):
    "A CompletedProcess (or AzllmError text) that is azllm's one-line error, naming each needle."
    err = r if isinstance(r, str) else r.stderr
    if not isinstance(r, str): assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert 'Traceback' not in err, err[-2000:]
    lines = [l for l in err.splitlines() if l.strip()]
    if not isinstance(r, str):                     # (progress bars of the data step may come before it)
        assert sum(l.startswith('azllm: error:') for l in lines) == 1 and lines[-1].startswith('azllm: error:'), err[-2000:]
    for n in needles: assert n in err, (n, err[:2000])


@contextlib.contextmanager
def memory_cap(gib:float=4):
    "This process may allocate at most `gib` more (address space): a regression that builds a forged 10**9-row batch fails, instead of eating the machine."
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    now = int(Path('/proc/self/statm').read_text().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (now + int(gib * 2**30), hard))
    try: yield
    finally: resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def snapshot(root) -> dict:
    return {str(p): p.read_bytes() for p in sorted(Path(root).rglob('*')) if p.is_file()}


# ================================================================== item 4: one depth and alias limit for every YAML/JSON
def _azllm_error(fn, *args):
    from azllm.core import AzllmError
    with pytest.raises(AzllmError) as e: fn(*args)
    return str(e.value)


@pytest.mark.parametrize('where', ['pairs', 'chats', 'corpus', 'adapter_config', 'model_config', 'sidecar', 'log', 'marker_is_no_marker'])
def test_json_nested_100000_deep_is_one_line(tmp_path, where):
    "Each JSON azllm reads, 100,000 levels deep: one line naming the file (a RecursionError traceback before)."
    from azllm.core import AzllmError
    if where == 'pairs':
        from azllm.dpo import read_pairs
        (tmp_path/'p.jsonl').write_text((DATA/'dpo'/'train.jsonl').read_text(encoding='utf-8').splitlines()[0] + '\n' + DEEP_JSON + '\n')
        one_line(_azllm_error(read_pairs, tmp_path/'p.jsonl'), 'p.jsonl:2: nested deeper than 100 levels')
    elif where == 'chats':                          # what `azllm sft preview --data` and SFT read
        from azllm.chats import read_chats
        (tmp_path/'c.jsonl').write_text((DATA/'sft'/'train.jsonl').read_text(encoding='utf-8').splitlines()[0] + '\n' + DEEP_JSON + '\n')
        one_line(_azllm_error(read_chats, tmp_path/'c.jsonl'), 'c.jsonl:2: nested deeper')
        (tmp_path/'a.json').write_text('[' + DEEP_JSON + ']')       # one JSON array (Alpaca's form)
        one_line(_azllm_error(read_chats, tmp_path/'a.json'), 'nested deeper')
    elif where == 'corpus':
        from azllm.data import read_documents
        (tmp_path/'t.jsonl').write_text('{"text": "salam"}\n' + DEEP_JSON + '\n')
        one_line(_azllm_error(lambda: list(read_documents(str(tmp_path/'t.jsonl')))), 't.jsonl:2: nested deeper')
    elif where == 'adapter_config':
        from azllm.adapters import adapter_config
        (tmp_path/'adapter_config.json').write_text(DEEP_JSON)
        one_line(_azllm_error(adapter_config, tmp_path), 'adapter_config.json: nested deeper')
    elif where == 'model_config':                   # transformers would parse it with plain json: refused before it does
        from azllm.sources import resolve_source
        (tmp_path/'m').mkdir(); (tmp_path/'m'/'config.json').write_text(DEEP_JSON)
        one_line(_azllm_error(resolve_source, str(tmp_path/'m')), 'config.json: nested deeper')
    elif where == 'sidecar':
        from azllm.checkpoint import read_sidecar, SIDECAR
        (tmp_path/'step_000001').mkdir(); (tmp_path/'step_000001'/SIDECAR).write_text(DEEP_JSON)
        one_line(_azllm_error(read_sidecar, str(tmp_path/'step_000001')), 'nested deeper')
    elif where == 'log':                            # an eval run reads a training run's log.jsonl for its loss curves
        from azllm.rundir import read_log
        (tmp_path/'log.jsonl').write_text('{"step": 1, "loss": 2.0}\n' + DEEP_JSON + '\n{"step": 2, "loss": 1.0}\n')
        one_line(_azllm_error(read_log, tmp_path), 'log.jsonl:2: nested deeper')
    else:                                           # a marker too deep to read is no marker: the folder is not azllm's
        from azllm.files import MARKER, check_output
        (tmp_path/'out').mkdir(); (tmp_path/'out'/MARKER).write_text(DEEP_JSON)
        one_line(_azllm_error(check_output, tmp_path/'out', 'eval'), 'not made by azllm')


def test_manifests_and_the_base_record_are_read_with_the_limits(tmp_path):
    "The token cache's and a shard folder's manifest.json, and an adapter's azllm_base.json: nested too deep or forged, no traceback and no path out."
    import numpy as np
    from azllm.adapters import recorded_base, BASE_FILE
    from azllm.packing import token_files
    from azllm.tokens import cached_entry
    (tmp_path/'a').mkdir(); (tmp_path/'a'/BASE_FILE).write_text(DEEP_JSON)
    one_line(_azllm_error(recorded_base, tmp_path/'a', ''), 'azllm_base.json: nested deeper')
    (tmp_path/'shards').mkdir(); (tmp_path/'shards'/'manifest.json').write_text(DEEP_JSON)
    one_line(_azllm_error(token_files, tmp_path/'shards'), 'manifest.json: nested deeper')
    e = tmp_path/'entry'; e.mkdir(); np.arange(4, dtype=np.uint16).tofile(e/'s0.bin')
    good = '{"dtype": "uint16", "shards": [{"file": "s0.bin", "tokens": 4}]}'
    (e/'manifest.json').write_text(good); assert cached_entry(e) is not None      # the well-formed entry is one
    (tmp_path/'outside.bin').write_bytes(b'\0' * 8)
    for forged in (DEEP_JSON, '[]', good.replace('uint16', 'object'), good.replace('"s0.bin"', '"../outside.bin"'),
                   good.replace('"tokens": 4', '"tokens": "4"')):
        (e/'manifest.json').write_text(forged)
        assert cached_entry(e) is None, forged[:60]                             # a forged entry is no entry: rebuilt, never read


def _tok_config(tmp_path, extra=''):
    (tmp_path/'corpus.txt').write_text('salam dünya\n' * 50)
    p = tmp_path/'run.yml'
    p.write_text(f"stage: tokenizer\noutput_dir: {tmp_path/'tok'}\ncorpus: [{tmp_path/'corpus.txt'}]\nvocab_size: 1000\n{extra}")
    return p


def test_yaml_nested_20000_deep_in_a_file_or_an_override(tmp_path):
    cfg = _tok_config(tmp_path)
    deep = tmp_path/'deep.yml'; deep.write_text('stage: tokenizer\n' + DEEP_YAML)
    t = time.perf_counter()
    one_line(azllm_in('train', deep, cwd=tmp_path), 'deep.yml: nested deeper than 100 levels')
    one_line(azllm_in('train', cfg, 'min_frequency=' + '[' * 20_000 + ']' * 20_000, cwd=tmp_path), 'override min_frequency=: nested deeper')
    assert time.perf_counter() - t < 20                              # (PyPI's composer took a minute to fail on one of them)
    assert not (tmp_path/'tok').exists()


def test_alias_bomb_as_an_override_value(tmp_path):
    "The bomb check covered files only; `key=<bomb>` is refused the same way, naming the override."
    cfg = _tok_config(tmp_path)
    one_line(azllm_in('train', cfg, 'min_frequency=' + BOMB, cwd=tmp_path), 'override min_frequency=: the YAML expands to more than 100,000 values')
    one_line(azllm_in('eval', cfg, 'valid_data=' + BOMB, cwd=tmp_path), 'override valid_data=: the YAML expands')
    assert not (tmp_path/'tok').exists()


def test_yaml_of_an_adapter_is_read_with_the_limits(tmp_path):
    "The config saved in an adapter (read to know whether it was QLoRA) goes through the same reader."
    from azllm.adapters import _trained_in_4bit
    (tmp_path/'adapter_config.json').write_text('{}')
    (tmp_path/'azllm_config.yml').write_text(f'a: {BOMB}\n')
    one_line(_azllm_error(_trained_in_4bit, tmp_path), 'azllm_config.yml: the YAML expands')


# ============================================================== item 3: numbers from checkpoints are bounded before use
def _cfg(path, tok, out, **kw):
    d = dict(stage='cpt', output_dir=str(out), model='preset:llama-tiny', tokenizer=str(tok), train_data=[str(DATA/'az_valid.txt')],
             valid_data=[], seq_len=32, micro_batch='auto', global_batch=2, memory_budget_gib=1000.0, max_steps=2, lr=3e-3,
             warmup_steps=1, save_every=1, keep_last=2, tensorboard=False)
    path.write_text(yaml.safe_dump(d | kw))
    return path


@pytest.fixture(scope='module')
def finished(tmp_path_factory, small_tokenizer):
    "A 2-step `micro_batch: auto` CPT run with a checkpoint at each step."
    d = tmp_path_factory.mktemp('finished')
    cfg = _cfg(d/'run.yml', small_tokenizer, d/'run')
    r = azllm_in('train', cfg)
    assert r.returncode == 0, r.stderr[-3000:]
    return d/'run'


def _at_step_1(finished, tmp_path, small_tokenizer, forge):
    "A copy of the run put back at step 1 (step 2 removed), with `forge(ckpt_dir)` applied and the sidecar's hashes rewritten to match."
    from azllm.checkpoint import SIDECAR, sha256_of
    from azllm.sources import require_fs
    run = tmp_path/'run'
    shutil.copytree(finished, run)
    shutil.rmtree(run/'checkpoints'/'step_000002'); shutil.rmtree(run/'final'); (run/'summary.json').unlink()
    ck = run/'checkpoints'/'step_000001'
    forge(ck)
    meta = json.loads((ck/SIDECAR).read_text())
    fs = require_fs(ck)[0]
    meta['sha256'] = {p.name: sha256_of(fs, str(p)) for p in ck.iterdir() if p.name != SIDECAR and p.is_file()}
    (ck/SIDECAR).write_text(json.dumps(meta))
    return _cfg(tmp_path/'run.yml', small_tokenizer, run), ck


def _edit(name, fn):
    def forge(ck):
        p = ck/name
        p.write_text(json.dumps(fn(json.loads(p.read_text()))))
    return forge

def _sidecar(**kv): return _edit('azllm_checkpoint.json', lambda m: m | kv)
def _batch(**kv): return _edit('azllm_checkpoint.json', lambda m: m | dict(batch=m['batch'] | kv))
def _groups(**kv): return _edit('optimizer.json', lambda gs: [g | kv for g in gs])
def _sched(**kv): return _edit('scheduler.json', lambda s: s | kv)

FORGED = {
    'step-past-max_steps': (_sidecar(step=1000), "its step 1,000 is past this run's last step 2"),
    'step-a-float': (_sidecar(step=1.0), 'not an azllm sidecar (step'),
    'plan-a-string': (_sidecar(batch='4x2'), 'not an azllm sidecar (batch'),
    'plan-zero': (_sidecar(batch=0), 'not an azllm sidecar (batch'),
    'plan-micro-batch-0': (_batch(micro_batch=0), 'batch.micro_batch'),
    'plan-micro-batch-1e9': (_batch(micro_batch=1e9), 'batch.micro_batch'),
    'plan-micro-batch-huge': (_batch(micro_batch=10**9), 'batch.micro_batch'),
    'plan-not-global_batch': (_batch(micro_batch=3, grad_accum=1), 'is not this run\'s global_batch 2'),
    'lr-huge-int': (_groups(lr=10**400), 'beyond any value azllm writes'),
    'eps-negative': (_groups(eps=-1.0), 'eps is -1.0, below 0'),
    'betas-out-of-range': (_groups(betas=[1.5, 0.9]), 'betas [1.5, 0.9] are not in [0, 1)'),
    'schedule-elsewhere': (_sched(last_epoch=10**15), 'last_epoch 1000000000000000 is not the checkpoint\'s step 1'),
    'schedule-huge-int': (_sched(last_epoch=10**400), 'beyond any value azllm writes'),
    'schedule-step-count': (_sched(_step_count=-5), "_step_count -5 is not step + 1 = 2"),
    'base-lrs-negative': (_edit('scheduler.json', lambda s: s | dict(base_lrs=[-v for v in s['base_lrs']])), 'base_lrs are not learning rates'),
}


@pytest.mark.parametrize('case', FORGED)
def test_forged_numbers_in_a_checkpoint_are_refused_and_it_stays(finished, tmp_path, small_tokenizer, case):
    forge, needle = FORGED[case]
    cfg, ck = _at_step_1(finished, tmp_path, small_tokenizer, forge)
    before = snapshot(ck)
    with memory_cap(): r = azllm_in('train', cfg)
    one_line(r, needle)
    assert snapshot(ck) == before, 'the checkpoint changed'
    assert not (tmp_path/'run'/'final').exists()


@pytest.mark.slow
def test_a_sidecar_step_of_1e15_does_not_hang_resume(finished, tmp_path, small_tokenizer):
    "A real process with a timeout: before, the resume counted tokens over 10**15 steps and never ended."
    cfg, ck = _at_step_1(finished, tmp_path, small_tokenizer, _sidecar(step=10**15))
    before = snapshot(ck)
    try: r = subprocess.run([sys.executable, '-m', 'azllm.cli', 'train', str(cfg)], capture_output=True, text=True, timeout=180,
                            env={**__import__('os').environ, 'OMP_NUM_THREADS': '1', 'HF_HUB_OFFLINE': '1'})
    except subprocess.TimeoutExpired: pytest.fail('resume hung on a forged step')
    one_line(r, 'not an azllm sidecar (step')
    assert snapshot(ck) == before


def test_dpo_resume_bounds_the_step_too(tmp_path, small_tokenizer):
    "DPO resumes through the same loop: a forged step past max_steps is refused in setup, before fit counts up to it."
    from azllm.checkpoint import SIDECAR, sha256_of
    from azllm.core import AzllmError
    from azllm.config import load_config
    from azllm.sources import require_fs
    from azllm.dpo import DPORun, DPOTask
    from azllm.trainer import Trainer
    (tmp_path/'pairs.jsonl').write_text(''.join((DATA/'dpo'/'train.jsonl').read_text(encoding='utf-8').splitlines(keepends=True)[:8]))
    d = dict(stage='dpo', output_dir=str(tmp_path/'run'), model='preset:llama-tiny', tokenizer=str(small_tokenizer),
             train_data=str(tmp_path/'pairs.jsonl'), seq_len=512, micro_batch=2, grad_accum=1, max_steps=1, lr=1e-3, warmup_steps=0,
             save_every=1, lora_r=2, lora_alpha=4, tensorboard=False)
    (tmp_path/'dpo.yml').write_text(yaml.safe_dump(d))
    r = azllm_in('train', tmp_path/'dpo.yml'); assert r.returncode == 0, r.stderr[-3000:]
    ck = tmp_path/'run'/'checkpoints'/'step_000001'
    meta = json.loads((ck/SIDECAR).read_text()); meta['step'] = 10**9
    (ck/SIDECAR).write_text(json.dumps(meta))
    before = snapshot(ck)
    cfg = load_config(tmp_path/'dpo.yml', DPORun)
    t = Trainer(cfg, DPOTask(cfg, False), progress=False)
    try:
        with pytest.raises(AzllmError, match="its step 1,000,000,000 is past this run's last step 1"): t.setup()
    finally: t.cleanup(failed=True)
    assert snapshot(ck) == before


# ========================================================================================== item 6: refuse early
def test_non_finite_floats_are_refused_at_load(tmp_path):
    "`beta=.inf` trained with NaN losses and wrote NaN into summary.json; every float key of every stage refuses inf and nan."
    from azllm.core import AzllmError
    from azllm.config import load_config
    from azllm.dpo import DPORun
    from azllm.cpt import CPTRun
    for cfg, cls, bad in [(ROOT/'configs'/'dpo_tiny.yml', DPORun, 'beta=.inf'), (ROOT/'configs'/'dpo_tiny.yml', DPORun, 'beta=.nan'),
                          (ROOT/'configs'/'dpo_tiny.yml', DPORun, 'lr=-.inf'), (ROOT/'configs'/'cpt_tiny_base.yml', CPTRun, 'min_lr_ratio=.nan'),
                          (ROOT/'configs'/'cpt_tiny_base.yml', CPTRun, 'betas=[0.9, .nan]')]:
        with pytest.raises(AzllmError) as e: load_config(cfg, cls, [bad])
        assert f'override {bad}' in str(e.value) and 'finite number' in str(e.value), str(e.value)


def test_a_boolean_is_not_a_count(tmp_path):
    "`micro_batch: true` was read as 1 (pydantic's lax mode); a boolean where a number is meant is refused."
    from azllm.core import AzllmError
    from azllm.config import load_config
    from azllm.cpt import CPTRun
    from azllm.eval import EvalRun
    for cls, cfg, bad in [(CPTRun, 'cpt_tiny_base.yml', 'micro_batch=true'), (CPTRun, 'cpt_tiny_base.yml', 'grad_accum=false'),
                          (CPTRun, 'cpt_tiny_base.yml', 'lr=true'), (CPTRun, 'cpt_tiny_base.yml', 'max_steps=true'),
                          (EvalRun, 'eval_tiny.yml', 'seq_len=true')]:
        with pytest.raises(AzllmError, match=r'must be a (number, not (true|false)|whole number .* \(got True\))'):
            load_config(ROOT/'configs'/cfg, cls, [bad])
    assert load_config(ROOT/'configs'/'cpt_tiny_base.yml', CPTRun, ['liger=true']).liger is True     # a switch still takes one


def test_two_configs_of_one_file_name_are_ambiguous_for_name_key(tmp_path):
    from azllm.core import AzllmError
    from azllm.stages import read_runs
    for d in ('a', 'b'):
        (tmp_path/d).mkdir()
        shutil.copy(ROOT/'configs'/'cpt_tiny_base.yml', tmp_path/d/'cpt.yml')
    args = [str(tmp_path/'a'/'cpt.yml'), str(tmp_path/'b'/'cpt.yml'), 'cpt.output_dir=runs/x']
    with pytest.raises(AzllmError, match='cpt names 2 configs') as e: read_runs(args)
    assert 'different file names' in str(e.value)


def test_every_stage_of_a_multi_config_command_is_checked_before_the_first_trains(tmp_path, small_tokenizer):
    "SFT then DPO with the DPO pairs missing: refused at once, before SFT trains (it trained for minutes before)."
    sft = dict(stage='sft', output_dir=str(tmp_path/'sft'), model='preset:llama-tiny', tokenizer=str(small_tokenizer),
               train_data=str(DATA/'sft'/'train.jsonl'), seq_len=256, micro_batch=1, max_steps=1, save_every=1, tensorboard=False)
    dpo = dict(stage='dpo', output_dir=str(tmp_path/'dpo'), model=str(tmp_path/'sft'), train_data=str(tmp_path/'no-such-pairs.jsonl'),
               max_steps=1, tensorboard=False)
    ev = dict(stage='eval', output_dir=str(tmp_path/'ev'), models=[dict(name='m', path=str(tmp_path/'sft'/'final'))],
              valid_data=[str(tmp_path/'no-such-text.txt')])
    for name, d in (('sft', sft), ('dpo', dpo), ('ev', ev)): (tmp_path/f'{name}.yml').write_text(yaml.safe_dump(d))
    t = time.perf_counter()
    one_line(azllm_in('train', tmp_path/'sft.yml', tmp_path/'dpo.yml', cwd=tmp_path), 'no-such-pairs.jsonl: no such file')
    one_line(azllm_in('train', tmp_path/'sft.yml', tmp_path/'ev.yml', cwd=tmp_path), 'valid_data', 'no-such-text.txt: no such file')
    assert time.perf_counter() - t < 30 and not (tmp_path/'sft').exists(), 'SFT trained first'
    dpo['train_data'] = str(DATA/'dpo'/'train.jsonl'); (tmp_path/'dpo.yml').write_text(yaml.safe_dump(dpo))
    ev['models'][0]['path'] = str(tmp_path/'nowhere'); ev['valid_data'] = [str(DATA/'az_valid.txt')]; (tmp_path/'ev.yml').write_text(yaml.safe_dump(ev))
    one_line(azllm_in('train', tmp_path/'sft.yml', tmp_path/'dpo.yml', tmp_path/'ev.yml', cwd=tmp_path), 'nowhere')
    assert not (tmp_path/'sft').exists()


def _strict(text):
    def no(c): raise ValueError(f'{c} is not JSON')
    return json.loads(text, parse_constant=no)


def test_summary_and_log_are_strict_json(tmp_path):
    "A diverged run's NaN loss is written as null and named under `non_finite`: summary.json and log.jsonl stay JSON."
    from azllm.core import json_line
    from azllm.files import write_json
    write_json(dict(kind='dpo', last=dict(loss=math.nan, grad_norm=math.inf), val_loss=2.5), tmp_path/'summary.json')
    s = _strict((tmp_path/'summary.json').read_text())
    assert s['last'] == dict(loss=None, grad_norm=None) and s['val_loss'] == 2.5 and s['non_finite'] == ['last.loss', 'last.grad_norm']
    rec = _strict(json_line(dict(step=3, loss=-math.inf)))
    assert rec == dict(step=3, loss=None, non_finite=['loss'])
