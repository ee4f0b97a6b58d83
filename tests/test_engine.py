"""The training engine on CPU, for CPT and SFT: DDP and FSDP2 against one process, resume refuses a changed config,
untrusted checkpoints, one run per directory. Kills at every instant and their resume: tests/test_kills.py."""
import json, os, pickle, shutil, subprocess, sys, time
from pathlib import Path
import pytest, yaml
from conftest import azllm_in, DATA, ROOT

TOL = 1e-5   # relative; fp32 on CPU: the sums are reordered across processes, nothing else differs
ENV = {**os.environ, 'OMP_NUM_THREADS': '1'}
pytestmark = pytest.mark.usefixtures('one_thread')     # in-process runs on one thread, as the subprocesses (tests/conftest.py)


def write_cfg(path, tok, out, **kw):
    cfg = dict(stage='cpt', output_dir=str(out), model='preset:llama-tiny', tokenizer=str(tok),
               train_data=[str(DATA/'az_train.txt')], valid_data=[str(DATA/'az_valid.txt')], seq_len=64, micro_batch=2,
               grad_accum=2, max_steps=6, lr=3e-3, warmup_steps=1, eval_every=100, eval_rows=8, save_every=3,
               tensorboard=False)
    cfg.update(kw)
    path.write_text(yaml.safe_dump(cfg))
    return path


@pytest.fixture(scope='module')
def sft_files(tmp_path_factory):
    "120 training and 16 held-out conversations of the bundled SFT set (single- and multi-turn)."
    d = tmp_path_factory.mktemp('sft')
    lines = (DATA/'sft'/'train.jsonl').read_text(encoding='utf-8').splitlines()
    (d/'train.jsonl').write_text('\n'.join(lines[:120]) + '\n', encoding='utf-8')
    (d/'valid.jsonl').write_text('\n'.join((DATA/'sft'/'valid.jsonl').read_text(encoding='utf-8').splitlines()[:16]) + '\n', encoding='utf-8')
    return d


def write_sft(path, tok, out, files, **kw):
    cfg = dict(stage='sft', output_dir=str(out), model='preset:llama-tiny', tokenizer=str(tok), train_data=str(files/'train.jsonl'),
               valid_data=str(files/'valid.jsonl'), seq_len=256, micro_batch=2, grad_accum=2, max_steps=6, lr=3e-3,
               warmup_steps=1, eval_every=3, save_every=3, lora_r=4, lora_alpha=8, lora_dropout=0.0, log_every=1, tensorboard=False)
    cfg.update(kw)
    path.write_text(yaml.safe_dump(cfg))
    return path


def losses(run): return {r['step']: r['loss'] for r in map(json.loads, open(Path(run)/'log.jsonl')) if 'loss' in r}


def launch(*cmd, env=None, ok=True):
    r = subprocess.run([*map(str, cmd)], capture_output=True, text=True, env=env or {**os.environ, 'OMP_NUM_THREADS': '1'})
    if ok: assert r.returncode == 0, r.stderr[-3000:]
    return r


def train_here(cfg, *overrides):
    "`azllm train CFG OVERRIDES` in this process: for the runs whose process nothing needs to see (no interpreter to start)."
    from azllm.cli import main
    assert main(['train', str(cfg), *map(str, overrides)]) == 0


def three_ways(cfg, tmp_path, ddp=(), fsdp=()):
    """The same global batch as 1 process × grad_accum 2 (this one), DDP × 2 and FSDP2 × 2, each started as a user starts
    it: `azllm train --nproc 2`, through torchrun (strategy auto) and through accelerate (strategy fsdp2). `ddp`/`fsdp`: more overrides.
    `azllm train --nproc 2` itself runs in this process (its launcher and the two training processes are real processes)."""
    train_here(cfg)
    for run, launcher, strategy, more in (('ddp', 'torchrun', 'auto', ddp), ('fsdp', 'accelerate', 'fsdp2', fsdp)):
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv('OMP_NUM_THREADS', '1')                        # inherited by the launcher's processes
            r = azllm_in('train', cfg, f'output_dir={tmp_path/run}', 'grad_accum=1', f'strategy={strategy}', *more, '--nproc', '2', '--launcher', launcher)
        assert r.returncode == 0 and 'azllm: launching 2 processes' in r.stderr, (r.returncode, r.stderr[-3000:])
        s = json.loads((tmp_path/run/'summary.json').read_text())
        assert s['world_size'] == 2 and s['strategy'] == ('ddp' if strategy == 'auto' else strategy), (run, s['strategy'])
    one = losses(tmp_path/'one')
    assert sorted(one) == list(range(1, 7))
    for run in ('ddp', 'fsdp'):
        other = losses(tmp_path/run)
        assert other.keys() == one.keys()
        for s in one: assert other[s] == pytest.approx(one[s], rel=TOL), (run, s)
    return one


@pytest.mark.slow
def test_cpt_ddp_and_fsdp2_match_one_process(tmp_path, small_tokenizer):
    three_ways(write_cfg(tmp_path/'cpt.yml', small_tokenizer, tmp_path/'one'), tmp_path)
    s1 = json.loads((tmp_path/'one'/'summary.json').read_text())
    sf = json.loads((tmp_path/'fsdp'/'summary.json').read_text())
    assert sf['strategy'] == 'fsdp2' and len(sf['state_bytes_per_rank']) == 2
    for rank in sf['state_bytes_per_rank']:            # each rank holds half of the parameters, gradients and AdamW state
        for k in ('params', 'grads', 'optimizer'):
            assert rank[k] == pytest.approx(s1['state_bytes_per_rank'][0][k] / 2, rel=0.01), k
    from transformers import AutoModelForCausalLM
    for run in ('one', 'fsdp'): AutoModelForCausalLM.from_pretrained(tmp_path/run/'final')


@pytest.mark.slow
def test_sft_ddp_and_fsdp2_match_one_process_with_and_without_the_lora_kernels(tmp_path, small_tokenizer, sft_files):
    """LoRA SFT: DDP × 2 with peft's own layers and FSDP2 × 2 with the fused LoRA kernels both give the losses of one
    process, and one process with the kernels gives them too: each path of the four checked against the same reference."""
    one = three_ways(write_sft(tmp_path/'sft.yml', small_tokenizer, tmp_path/'one', sft_files), tmp_path, fsdp=['lora_kernels=true'])
    test = json.loads((tmp_path/'fsdp'/'summary.json').read_text())['lora_kernels'], json.loads((tmp_path/'ddp'/'summary.json').read_text()).get('lora_kernels')
    assert test[0] == dict(mlp=2, qkv=2, o=2) and not test[1]
    train_here(tmp_path/'sft.yml', f'output_dir={tmp_path/"fused"}', 'lora_kernels=true')
    fused = losses(tmp_path/'fused')
    for s in one: assert fused[s] == pytest.approx(one[s], rel=TOL), s
    from azllm.adapters import load_adapted
    for run in ('one', 'ddp', 'fsdp'):
        assert (tmp_path/run/'final'/'adapter_model.safetensors').exists()
        load_adapted(tmp_path/run)                     # loads with peft onto its base
    vals = [[r['val_loss'] for r in map(json.loads, open(tmp_path/run/'log.jsonl')) if 'val_loss' in r] for run in ('one', 'ddp', 'fsdp')]
    assert len(vals[0]) == 2 and vals[1] == pytest.approx(vals[0], rel=TOL) and vals[2] == pytest.approx(vals[0], rel=TOL)


def run_inproc(cfg_path, *overrides):
    from azllm.config import load_config
    from azllm.cpt import CPTRun, train
    return train(load_config(cfg_path, CPTRun, list(overrides)), progress=False)


def test_resume_refuses_a_changed_config_and_untrusted_checkpoints(tmp_path, small_tokenizer):
    from azllm.core import AzllmError
    from azllm.checkpoint import list_checkpoints, SIDECAR, sha256_of
    from azllm.sources import require_fs
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, tmp_path/'run', max_steps=2, save_every=1, keep_last=2, grad_accum=1, valid_data=[])
    run_inproc(cfg)
    saved = (tmp_path/'run'/'azllm_config.yml').read_text()
    with pytest.raises(AzllmError, match=r"changes the run: lr: 0.003 -> 0.01"): run_inproc(cfg, 'lr=0.01', 'max_steps=3')
    assert (tmp_path/'run'/'azllm_config.yml').read_text() == saved                 # nothing overwritten before the check
    # a crafted .metadata whose hash is forged into the sidecar: refused, and its command never runs
    ck = Path(list_checkpoints(str(tmp_path/'run'/'checkpoints'))[-1])
    class Boom:
        def __reduce__(self): return (os.system, (f'touch {tmp_path}/pwned',))
    (ck/'.metadata').write_bytes(pickle.dumps(Boom()))
    meta = json.loads((ck/SIDECAR).read_text()); meta['sha256']['.metadata'] = sha256_of(require_fs(ck)[0], str(ck/'.metadata'))
    (ck/SIDECAR).write_text(json.dumps(meta))
    with pytest.raises(AzllmError, match='refused to load'): run_inproc(cfg, 'max_steps=3', 'resume_with_changes=true', f'resume={ck}')
    assert not (tmp_path/'pwned').exists()
    # flipped bytes in the newest checkpoint: resume falls back to the previous committed one and finishes
    shard = next(ck.glob('*.distcp')); b = bytearray(shard.read_bytes()); b[200] ^= 1; shard.write_bytes(bytes(b))
    run_inproc(cfg, 'max_steps=3', 'resume_with_changes=true')
    assert losses(tmp_path/'run')[3] > 0 and (tmp_path/'run'/'final').exists()


def bad(r, *needles):
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert 'Traceback' not in r.stderr, r.stderr[-2000:]
    for n in needles: assert n in r.stderr, r.stderr[-2000:]


def test_bad_inputs(tmp_path, small_tokenizer):
    from azllm.core import AzllmError
    from azllm.config import load_config
    from azllm.cpt import CPTRun, train
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, tmp_path/'run')
    bad(azllm_in('train', cfg, 'lerning_rate=1'), 'lerning_rate: unknown key')            # main's exit code (a real process's: test_hostile, slow)
    for ov, msg in [('seq_len=4096', "beyond the model's limit"), ('resume=/no/such/checkpoint', 'resume must be auto, never or an existing checkpoint directory'), ('resume=latest', "'latest' is neither"),
                    ('micro_batch=0', 'greater than 0'), ('grad_accum=0', 'greater than 0'), ('lr=-1', 'greater than 0'),
                    ('save_every=0', 'greater than 0'), ('keep_last=0', 'greater than 0'), ('max_steps=-1', 'greater than 0'),
                    ('warmup_steps=-1', 'greater than or equal to 0'), ('lr_scheduler=bogus', "'cosine', 'linear' or 'constant'"),
                    ('eval_windows=8', '`eval_windows` was renamed to `eval_rows`')]:
        with pytest.raises(AzllmError, match=msg.replace('(', r'\(')): train(load_config(cfg, CPTRun, [ov]), progress=False)
        assert not (tmp_path/'run').exists(), ov                                         # nothing left behind
    (tmp_path/'half').mkdir(); (tmp_path/'half'/'.metadata').write_text('x')
    with pytest.raises(AzllmError, match='is not committed'): train(load_config(cfg, CPTRun, [f'resume={tmp_path/"half"}']), progress=False)
    (tmp_path/'mine').mkdir(); (tmp_path/'mine'/'notes.txt').write_text('keep me')
    with pytest.raises(AzllmError, match='was not made by azllm'): train(load_config(cfg, CPTRun, [f'output_dir={tmp_path/"mine"}']), progress=False)
    assert sorted(p.name for p in (tmp_path/'mine').iterdir()) == ['notes.txt']
    from azllm.model import load_model
    from azllm.tokenizer import train_tokenizer
    from azllm.data import read_documents
    other = train_tokenizer(list(read_documents(DATA/'az_valid.txt')), 1000)
    m = load_model('preset:llama-tiny', other); m.save_pretrained(tmp_path/'model'); other.save_pretrained(tmp_path/'model')
    with pytest.raises(AzllmError, match='vocab_transfer: true'):
        train(load_config(cfg, CPTRun, [f'model={tmp_path/"model"}', 'vocab_transfer=false']), progress=False)


def test_shipped_configs_validate():
    from azllm.config import load_config
    from azllm.cpt import CPTRun
    from azllm.sft import SFTRun
    for f in sorted((ROOT/'configs').glob('cpt_*.yml')): load_config(f, CPTRun)
    for f in sorted((ROOT/'configs').glob('sft_*.yml')): load_config(f, SFTRun)


def test_stale_lock_is_taken_over(tmp_path, small_tokenizer):
    "A run killed with SIGKILL leaves its lock behind; the next run on the directory takes it over (same host, dead pid)."
    import socket
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, tmp_path/'run', max_steps=1, valid_data=[], grad_accum=1)
    from azllm.files import write_marker
    (tmp_path/'run').mkdir(); write_marker(tmp_path/'run', 'cpt-run')           # what a run killed right after taking its lock leaves
    (tmp_path/'run'/'.azllm.lock').write_text(json.dumps(dict(pid=2**22 + 4321, host=socket.gethostname(), started='earlier')))
    run_inproc(cfg)
    assert (tmp_path/'run'/'final').exists() and not (tmp_path/'run'/'.azllm.lock').exists()


# ----------------------------------------------------------------------------------------- issue 23: attacks on checkpoints
# The attacker can write every file of a checkpoint, its sidecar's hashes included. Each attack would create `pwned`.
def _tiny_ckpt(tmp_path):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM
    from azllm.checkpoint import save_checkpoint
    from azllm.runtime import Runtime
    def make(seed):
        torch.manual_seed(seed)
        m = LlamaForCausalLM(LlamaConfig(vocab_size=64, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                         num_attention_heads=2, num_key_value_heads=1))
        opt = torch.optim.AdamW(m.parameters(), lr=1e-2)
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0)
        ids = torch.randint(0, 64, (2, 8))
        m(input_ids=ids, labels=ids).loss.backward(); opt.step(); sched.step(); opt.zero_grad()
        return m, opt, sched
    m, opt, sched = make(0)
    return Path(save_checkpoint(str(tmp_path/'ck'), 1, m, opt, sched, Runtime(), dict(loss=1.0))), make


def _rehash(ck):
    "What the attacker does last: rewrite the sidecar so that every hash matches the forged files."
    from azllm.checkpoint import SIDECAR, sha256_of
    from azllm.sources import require_fs
    meta = json.loads((ck/SIDECAR).read_text())
    fs = require_fs(ck)[0]
    meta['sha256'] = {p.name: sha256_of(fs, str(p)) for p in ck.iterdir() if p.name != SIDECAR and p.is_file()}
    (ck/SIDECAR).write_text(json.dumps(meta))


def _load_refused(ck, make, tmp_path, *needles):
    from azllm.core import AzllmError
    from azllm.checkpoint import load_checkpoint, verify_checkpoint
    from azllm.runtime import Runtime
    assert verify_checkpoint(str(ck), Runtime()) == []                   # the forged sidecar vouches for the forged files
    m2, opt2, sched2 = make(1)
    with pytest.raises(AzllmError) as e: load_checkpoint(str(ck), m2, opt2, sched2, Runtime())
    assert not (tmp_path/'pwned').exists(), 'the payload ran'
    assert '\n' not in str(e.value), str(e.value)
    for n in needles: assert n in str(e.value), str(e.value)


def _stack_global(module, name, arg):
    "A protocol-4 pickle that calls `module`'s dotted `name`(arg) through STACK_GLOBAL."
    enc = lambda s: b'\x8c' + bytes([len(s.encode())]) + s.encode()
    return b'\x80\x04' + enc(module) + enc(name) + b'\x93' + enc(arg) + b'\x85R.'


def test_forged_metadata_dotted_name_never_runs(tmp_path):
    ck, make = _tiny_ckpt(tmp_path)
    (ck/'.metadata').write_bytes(_stack_global('torch.distributed.checkpoint.metadata', 'os.system', f'touch {tmp_path}/pwned'))
    _rehash(ck)
    _load_refused(ck, make, tmp_path, 'refused to load')


def _boom(tmp_path):
    class Boom:
        def __reduce__(self): return (os.system, (f'touch {tmp_path}/pwned',))
    import io, torch
    b = io.BytesIO(); torch.save(Boom(), b)
    return b.getvalue()


def test_forged_distcp_bytes_entry_never_runs(tmp_path):
    "An optimizer value replaced by a `__reduce__` payload in a .distcp, with .metadata and sidecar forged to match."
    import torch
    from torch.distributed.checkpoint.metadata import BytesStorageMetadata, MetadataIndex
    from torch.distributed.checkpoint.filesystem import _StorageInfo
    ck, make = _tiny_ckpt(tmp_path)
    md = pickle.loads((ck/'.metadata').read_bytes())
    key = next((k for k, v in md.state_dict_metadata.items() if k.startswith('optim') and isinstance(v, BytesStorageMetadata)),
               next(k for k in md.state_dict_metadata if k.startswith('optim.state')))
    payload = _boom(tmp_path)
    (ck/'__9_0.distcp').write_bytes(payload)
    md.state_dict_metadata[key] = BytesStorageMetadata()
    for idx in [i for i in md.storage_data if i.fqn == key]: del md.storage_data[idx]
    md.storage_data[MetadataIndex(key)] = _StorageInfo('__9_0.distcp', 0, len(payload))
    (ck/'.metadata').write_bytes(pickle.dumps(md))
    _rehash(ck)
    _load_refused(ck, make, tmp_path, 'non-tensor')


def test_checkpoint_holds_only_tensors_and_json(tmp_path):
    "No entry of DCP's metadata is a non-tensor: hyper-parameters, schedule and RNG are JSON beside the shards."
    from torch.distributed.checkpoint.metadata import TensorStorageMetadata
    ck, make = _tiny_ckpt(tmp_path)
    md = pickle.loads((ck/'.metadata').read_bytes())
    assert all(isinstance(v, TensorStorageMetadata) for v in md.state_dict_metadata.values())
    groups = json.loads((ck/'optimizer.json').read_text())
    assert groups[0]['lr'] == pytest.approx(1e-2) and groups[0]['betas'] == [0.9, 0.999]
    from azllm.checkpoint import load_checkpoint
    from azllm.runtime import Runtime
    m2, opt2, sched2 = make(1)
    load_checkpoint(str(ck), m2, opt2, sched2, Runtime())                 # and it still round-trips
    assert opt2.param_groups[0]['lr'] == pytest.approx(1e-2) and opt2.param_groups[0]['betas'] == (0.9, 0.999)


@pytest.mark.parametrize('what,forged,needle', [
    ('scheduler.json', {'base_lrs': 'abc'}, 'scheduler.json'), ('scheduler.json', [], 'scheduler.json'),
    ('azllm_checkpoint.json', [1, 2], 'not an azllm sidecar'), ('azllm_checkpoint.json', {'step': 'x', 'sha256': {}}, 'not an azllm sidecar')])
def test_forged_json_files_of_the_wrong_shape(tmp_path, what, forged, needle):
    from azllm.core import AzllmError
    from azllm.checkpoint import load_checkpoint
    from azllm.runtime import Runtime
    ck, make = _tiny_ckpt(tmp_path)
    (ck/what).write_text(json.dumps(forged))
    if what != 'azllm_checkpoint.json': _rehash(ck)
    m2, opt2, sched2 = make(1)
    with pytest.raises(AzllmError, match=needle) as e: load_checkpoint(str(ck), m2, opt2, sched2, Runtime(), verified=True)
    assert '\n' not in str(e.value)


# --------------------------------------------------------------------------------- issue 23: ownership, kills, resume meaning
def _quick(tmp_path, tok, out='run', **kw):
    return write_cfg(tmp_path/f'{out}.yml', tok, tmp_path/out, **{**dict(max_steps=1, save_every=1, grad_accum=1, valid_data=[]), **kw})


def test_checkpoint_dir_is_an_output_path(tmp_path, small_tokenizer):
    "A user folder holding step_1/ and step_2/ as checkpoint_dir is refused, and both survive."
    from azllm.core import AzllmError
    user = tmp_path/'mine'
    for s in ('step_1', 'step_2'): (user/s).mkdir(parents=True); (user/s/'notes.txt').write_text('mine')
    with pytest.raises(AzllmError, match='not made by azllm'): run_inproc(_quick(tmp_path, small_tokenizer, checkpoint_dir=str(user)))
    assert sorted(p.name for p in user.iterdir()) == ['step_1', 'step_2'] and (user/'step_2'/'notes.txt').read_text() == 'mine'


def test_two_runs_never_share_a_checkpoint_dir(tmp_path, small_tokenizer):
    from azllm.core import AzllmError
    ck = str(tmp_path/'shared-ckpts')
    run_inproc(_quick(tmp_path, small_tokenizer, 'a', checkpoint_dir=ck))
    with pytest.raises(AzllmError, match='give each run its own checkpoint_dir'):
        run_inproc(_quick(tmp_path, small_tokenizer, 'b', checkpoint_dir=ck))
    assert not (tmp_path/'b').exists()


def test_clean_uncommitted_never_removes_a_users_step_folder(tmp_path):
    from azllm.checkpoint import clean_uncommitted
    (tmp_path/'step_000003').mkdir(); (tmp_path/'step_000003'/'thesis.tex').write_text('years of work')
    (tmp_path/'.step_000004.tmp').mkdir(); (tmp_path/'.step_000004.tmp'/'__0_0.distcp').write_bytes(b'x')
    assert clean_uncommitted(str(tmp_path)) == ['.step_000004.tmp']
    assert (tmp_path/'step_000003'/'thesis.tex').read_text() == 'years of work'


def test_empty_or_torn_lock_is_a_dead_owners(tmp_path, small_tokenizer):
    from azllm.files import write_marker
    cfg = _quick(tmp_path, small_tokenizer)
    (tmp_path/'run').mkdir(); write_marker(tmp_path/'run', 'cpt-run')
    (tmp_path/'run'/'.azllm.lock').write_text('')                        # what a kill between create and write left
    run_inproc(cfg)
    assert (tmp_path/'run'/'final').exists() and not (tmp_path/'run'/'.azllm.lock').exists()


def test_home_in_paths_is_expanded_once(tmp_path, monkeypatch, small_tokenizer):
    from azllm.config import load_config
    from azllm.cpt import CPTRun
    monkeypatch.setenv('HOME', str(tmp_path/'home'))
    cfg = load_config(_quick(tmp_path, small_tokenizer), CPTRun, ['output_dir=~/x', 'checkpoint_dir=~/ck'])
    assert cfg.output_dir == str(tmp_path/'home'/'x') and cfg.checkpoint_dir == str(tmp_path/'home'/'ck')


def test_final_symlink_and_dotdot_refused_before_training(tmp_path, small_tokenizer):
    from azllm.core import AzllmError
    from azllm.files import write_marker
    (tmp_path/'run').mkdir(); write_marker(tmp_path/'run', 'cpt-run')
    (tmp_path/'elsewhere').mkdir(); os.symlink(tmp_path/'elsewhere', tmp_path/'run'/'final')
    with pytest.raises(AzllmError, match='symbolic link'): run_inproc(_quick(tmp_path, small_tokenizer))
    assert not (tmp_path/'run'/'log.jsonl').exists()
    (tmp_path/'mine').mkdir(); (tmp_path/'mine'/'thesis.tex').write_text('x')
    with pytest.raises(AzllmError, match='not made by azllm'):
        run_inproc(_quick(tmp_path, small_tokenizer), f'output_dir={tmp_path}/mine/new/..')
    assert sorted(p.name for p in (tmp_path/'mine').iterdir()) == ['thesis.tex']


def test_an_empty_output_dir_stays_empty_after_a_failure(tmp_path, small_tokenizer):
    from azllm.core import AzllmError
    (tmp_path/'run').mkdir()
    with pytest.raises(AzllmError): run_inproc(_quick(tmp_path, small_tokenizer), 'seq_len=4096')
    assert list((tmp_path/'run').iterdir()) == []


def test_write_into_existing_adds_beside_the_users_files_never_over_one(tmp_path, small_tokenizer):
    "A folder of the user's is refused; with write_into_existing the run writes beside their files, never over one, and a failed attempt takes back only what it added."
    from azllm.core import AzllmError
    from azllm.rundir import RUN_NAMES
    mine = tmp_path/'mine'; mine.mkdir(); (mine/'slurm-1.out').write_text('scheduler log\n')
    cfg = _quick(tmp_path, small_tokenizer, out='mine')
    with pytest.raises(AzllmError, match='not made by azllm'): run_inproc(cfg)
    with pytest.raises(AzllmError, match='`overwrite` was renamed to `write_into_existing`'): run_inproc(cfg, 'overwrite=true')
    with pytest.raises(AzllmError): run_inproc(cfg, 'write_into_existing=true', 'seq_len=4096')      # fails after the directory opened
    assert sorted(os.listdir(mine)) == ['slurm-1.out']
    run_inproc(cfg, 'write_into_existing=true')
    assert (mine/'slurm-1.out').read_text() == 'scheduler log\n' and (mine/'final').is_dir()
    assert set(os.listdir(mine)) - {'slurm-1.out'} <= set(RUN_NAMES), sorted(os.listdir(mine))   # RUN_NAMES is what a run writes
    theirs = tmp_path/'theirs'; theirs.mkdir(); (theirs/'log.jsonl').write_text('{"mine": 1}\n')
    with pytest.raises(AzllmError, match='already holds log.jsonl'): run_inproc(cfg, f'output_dir={theirs}', 'write_into_existing=true')
    assert os.listdir(theirs) == ['log.jsonl'] and (theirs/'log.jsonl').read_text() == '{"mine": 1}\n'


def test_resume_compares_every_key_and_the_data(tmp_path, small_tokenizer):
    from azllm.core import AzllmError
    corpus = tmp_path/'corpus.txt'; corpus.write_text((DATA/'az_train.txt').read_text(encoding='utf-8'), encoding='utf-8')
    cfg = _quick(tmp_path, small_tokenizer, train_data=[str(corpus)])
    run_inproc(cfg)
    for ov in ['grad_clip=0.5', 'doc_mask=true', 'phase=embeddings', f'base_tokenizer={small_tokenizer}']:
        with pytest.raises(AzllmError, match=f"changes the run: .*{ov.split('=')[0]}: ") as e: run_inproc(cfg, 'max_steps=2', ov)
        assert '\n' not in str(e.value)
    corpus.write_text(corpus.read_text(encoding='utf-8')[::-1], encoding='utf-8')         # same path, other content
    with pytest.raises(AzllmError, match="train_data: the files' content changed"): run_inproc(cfg, 'max_steps=2')


def test_phase_change_with_resume_with_changes_is_one_line(tmp_path, small_tokenizer):
    from azllm.core import AzllmError
    cfg = _quick(tmp_path, small_tokenizer)
    run_inproc(cfg)
    try: run_inproc(cfg, 'max_steps=2', 'phase=embeddings', 'resume_with_changes=true')
    except AzllmError as e: assert '\n' not in str(e) and 'phase' in str(e), str(e)


def _race_for_the_lock(d, barrier, results):
    "A child process: wait for the other one, then take the lock on `d`, whose stale owner both found (the check made slow, to widen the race)."
    import azllm.rundir as ckm
    real = ckm.pid_alive
    def slow_alive(pid): time.sleep(0.3); return real(pid)
    ckm.pid_alive = slow_alive
    barrier.wait()
    try:
        lock = ckm.RunLock(d).acquire()
        results.put('took it'); time.sleep(1.5); lock.release()       # held while the other one decides
    except ckm.AzllmError as e: results.put('refused' if 'in use by another run' in str(e) else str(e))


def test_a_stale_lock_is_taken_over_by_one_process_only(tmp_path):
    "Two processes find the same dead owner's lock at once: exactly one takes it over, the other is refused."
    import multiprocessing as mp, socket
    ctx = mp.get_context('fork')
    d = tmp_path/'run'; d.mkdir()
    (d/'.azllm.lock').write_text(json.dumps(dict(pid=2**22 + 4321, host=socket.gethostname(), started='earlier')))
    barrier, results = ctx.Barrier(2), ctx.Queue()
    ps = [ctx.Process(target=_race_for_the_lock, args=(d, barrier, results)) for _ in range(2)]
    for p in ps: p.start()
    for p in ps: p.join(30)
    got = sorted(results.get(timeout=5) for _ in ps)
    assert got == ['refused', 'took it'], got
    assert sorted(p.name for p in d.iterdir()) == []                      # released, no temporary file left


def test_a_step_that_cannot_fit_is_refused_before_it_starts(tmp_path, small_tokenizer):
    "micro_batch 2^20 rows of 64 tokens: refused with the number and the fix, before the data is tokenized or the engine built."
    from azllm.core import AzllmError
    cfg = _quick(tmp_path, small_tokenizer)
    with pytest.raises(AzllmError, match=r'micro_batch 1048576 x seq_len 64 needs at least [\d,.]+ GiB per process .*lower micro_batch') as e:
        run_inproc(cfg, 'micro_batch=1048576')
    assert '\n' not in str(e.value) and 'logits' in str(e.value) and not (tmp_path/'run').exists()


def test_resume_notices_a_corpus_changed_in_ways_that_tokenize_the_same(tmp_path, small_tokenizer, capsys):
    "The data is compared by the files' bytes: blank lines added at the end (the same tokens) still count; resume_with_changes lets it through."
    from azllm.core import AzllmError
    corpus = tmp_path/'corpus.txt'; corpus.write_text((DATA/'az_train.txt').read_text(encoding='utf-8'), encoding='utf-8')
    cfg = _quick(tmp_path, small_tokenizer, train_data=[str(corpus)])
    run_inproc(cfg)
    with corpus.open('a', encoding='utf-8') as f: f.write('\n\n\n')
    with pytest.raises(AzllmError, match="train_data: the files' content changed"): run_inproc(cfg, 'max_steps=2')
    run_inproc(cfg, 'max_steps=2', 'resume_with_changes=true')
    out = capsys.readouterr().out
    assert 'resuming with changes:' in out and "train_data: the files' content changed" in out
    assert max(losses(tmp_path/'run')) == 2


def run_sft_inproc(cfg_path, *overrides):
    from azllm.config import load_config
    from azllm.sft import SFTRun, run_sft
    return run_sft(load_config(cfg_path, SFTRun, list(overrides)), progress=False)


def test_sft_resume_refuses_what_changes_the_adapter_the_tokenizer_or_the_data(tmp_path, small_tokenizer, sft_files, capsys):
    "SFT like CPT: a changed LoRA key, target modules, truncation, a chat template or chat file rewritten in place: refused; resume_with_changes goes on."
    from azllm.core import AzllmError
    tok, data = tmp_path/'tok', tmp_path/'data'
    shutil.copytree(small_tokenizer, tok); shutil.copytree(sft_files, data)
    cfg = write_sft(tmp_path/'sft.yml', tok, tmp_path/'run', data, max_steps=1, save_every=1, grad_accum=1, eval_every=0, valid_data=[])
    run_sft_inproc(cfg)
    for ov in ['lora_r=8', 'lora_alpha=4', 'lora_dropout=0.1', 'target_modules=[q_proj, v_proj]', 'train_embeddings=true', 'truncation=drop']:
        with pytest.raises(AzllmError, match=f"changes the run: .*{ov.split('=')[0]}: ") as e: run_sft_inproc(cfg, 'max_steps=2', ov)
        assert '\n' not in str(e.value)
    template = tok/'chat_template.jinja'
    template.write_text(template.read_text(encoding='utf-8') + '{# my edit #}', encoding='utf-8')    # same path, other template
    with pytest.raises(AzllmError, match=r"changes the run: tokenizer: its content changed"): run_sft_inproc(cfg)
    lines = (data/'train.jsonl').read_text(encoding='utf-8').splitlines()
    (data/'train.jsonl').write_text('\n'.join(lines[::-1]) + '\n', encoding='utf-8')                 # same path, other order
    with pytest.raises(AzllmError, match="changes the run: train_data: the files' content changed"): run_sft_inproc(cfg)
    capsys.readouterr()
    run_sft_inproc(cfg, 'max_steps=2', 'resume_with_changes=true')
    out = capsys.readouterr().out
    assert 'resuming with changes: tokenizer: its content changed' in out and max(losses(tmp_path/'run')) == 2


def test_a_model_that_cannot_load_is_refused_before_loading(tmp_path, small_tokenizer):
    "A model directory whose config.json describes ~7T parameters: refused from its config alone, not killed by the kernel mid-load."
    from azllm.core import AzllmError
    (tmp_path/'huge').mkdir()
    (tmp_path/'huge'/'config.json').write_text(json.dumps(dict(model_type='llama', num_hidden_layers=400, hidden_size=32768, vocab_size=128256,
                                                                intermediate_size=131072, num_attention_heads=256)))
    with pytest.raises(AzllmError, match=r'fp32 weights alone need [\d,.]+ GiB to load') as e:
        run_inproc(_quick(tmp_path, small_tokenizer), f'model={tmp_path/"huge"}', 'vocab_transfer=false')
    assert '\n' not in str(e.value) and not (tmp_path/'run').exists()


def test_a_checkpoint_made_before_content_ids_still_resumes(tmp_path, small_tokenizer, capsys):
    "A checkpoint whose sidecar holds the older data fingerprint (of paths and bytes) resumes as unchanged; another corpus is still refused."
    import glob
    from azllm.core import AzllmError
    from azllm.rundir import data_fingerprint
    corpus = tmp_path/'corpus.txt'; corpus.write_text((DATA/'az_train.txt').read_text(encoding='utf-8'), encoding='utf-8')
    cfg = _quick(tmp_path, small_tokenizer, train_data=[str(corpus)])
    run_inproc(cfg)
    for f in glob.glob(str(tmp_path/'run'/'checkpoints'/'*'/'azllm_checkpoint.json')):
        meta = json.loads(Path(f).read_text())
        assert meta['data'] != data_fingerprint([str(corpus)])
        Path(f).write_text(json.dumps({**meta, 'data': data_fingerprint([str(corpus)])}))
    run_inproc(cfg, 'max_steps=2', 'resume_with_changes=true')
    out = capsys.readouterr().out
    assert 'resuming with changes: max_steps: 1 -> 2\n' in out and 'train_data' not in out and max(losses(tmp_path/'run')) == 2, out
    corpus.write_text(corpus.read_text(encoding='utf-8')[::-1], encoding='utf-8')
    with pytest.raises(AzllmError, match="train_data: the files' content changed"): run_inproc(cfg, 'max_steps=3')
