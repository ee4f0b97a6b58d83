"""The training engine on CPU, for CPT and SFT: DDP and FSDP2 against one process, SIGKILL at every point of a
checkpoint save and exact resume, one run per directory, resume refuses a changed config, untrusted checkpoints."""
import json, os, pickle, shutil, signal, subprocess, sys, time
from pathlib import Path
import pytest, yaml
from conftest import azllm, DATA, ROOT

TOL = 1e-5   # relative; fp32 on CPU: the sums are reordered across processes, nothing else differs
ENV = {**os.environ, 'OMP_NUM_THREADS': '1'}


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


def three_ways(cfg, tmp_path):
    "The same global batch as 1 process × grad_accum 2, DDP × 2 (torchrun), FSDP2 × 2 (accelerate)."
    launch(sys.executable, '-m', 'azllm.cli', 'train', cfg)
    launch('torchrun', '--nproc_per_node', '2', '-m', 'azllm.cli', 'train', cfg, f'output_dir={tmp_path/"ddp"}', 'grad_accum=1', 'strategy=ddp')
    launch('accelerate', 'launch', '--config_file', ROOT/'configs/accelerate/fsdp2.yaml', '--num_processes', '2',
           '-m', 'azllm.cli', 'train', cfg, f'output_dir={tmp_path/"fsdp"}', 'grad_accum=1')   # strategy auto -> fsdp2
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
def test_sft_ddp_and_fsdp2_match_one_process(tmp_path, small_tokenizer, sft_files):
    three_ways(write_sft(tmp_path/'sft.yml', small_tokenizer, tmp_path/'one', sft_files), tmp_path)
    from azllm.sft import load_adapted
    for run in ('one', 'ddp', 'fsdp'):
        assert (tmp_path/run/'final'/'adapter_model.safetensors').exists()
        load_adapted(tmp_path/run)                     # loads with peft onto its base
    vals = [[r['val_loss'] for r in map(json.loads, open(tmp_path/run/'log.jsonl')) if 'val_loss' in r] for run in ('one', 'ddp', 'fsdp')]
    assert len(vals[0]) == 2 and vals[1] == pytest.approx(vals[0], rel=TOL) and vals[2] == pytest.approx(vals[0], rel=TOL)



@pytest.mark.slow
def test_sft_lora_kernels_ddp_and_fsdp2_match_one_process(tmp_path, small_tokenizer, sft_files):
    "The fused LoRA kernels: DDP x 2 and FSDP2 x 2 give the one-process losses, and so does the unfused run (in process)."
    from azllm.core import load_config
    from azllm.sft import SFTRun, run_sft
    one = three_ways(write_sft(tmp_path/'sft.yml', small_tokenizer, tmp_path/'one', sft_files, lora_kernels=True), tmp_path)
    assert json.loads((tmp_path/'fsdp'/'summary.json').read_text())['lora_kernels'] == dict(mlp=2, qkv=2, o=2)
    run_sft(load_config(tmp_path/'sft.yml', SFTRun, [f'output_dir={tmp_path/"unfused"}', 'lora_kernels=false']), progress=False)
    unfused = losses(tmp_path/'unfused')
    for s in one: assert unfused[s] == pytest.approx(one[s], rel=TOL), s

def kill_at(point, cfg, run):
    "Run `cfg` with the save hook armed: the process SIGKILLs itself at `point` of its first checkpoint save."
    r = launch(sys.executable, '-m', 'azllm.cli', 'train', cfg, env={**os.environ, 'OMP_NUM_THREADS': '1', 'AZLLM_CRASH_AT': point}, ok=False)
    assert r.returncode == -signal.SIGKILL, (point, r.returncode, r.stderr[-2000:])
    assert not (run/'final').exists()


@pytest.mark.slow
@pytest.mark.parametrize('point', ['after_shards', 'before_sidecar', 'before_commit', 'after_commit', 'after_prune'])
def test_killed_at_every_point_of_a_save_resumes_exactly(tmp_path, small_tokenizer, point):
    full = tmp_path/'full'
    kw = dict(max_steps=6, save_every=2, keep_last=1, grad_accum=1)
    launch(sys.executable, '-m', 'azllm.cli', 'train', write_cfg(tmp_path/'full.yml', small_tokenizer, full, **kw))
    run = tmp_path/'killed'
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, run, **kw)
    kill_at(point, cfg, run)
    launch(sys.executable, '-m', 'azllm.cli', 'train', cfg)      # no hand's help: resume: auto
    again, want = losses(run), losses(full)
    assert sorted(again) == list(range(1, 7))
    for s in want: assert again[s] == pytest.approx(want[s], rel=TOL), (point, s)
    left = sorted(p.name for p in (run/'checkpoints').iterdir())
    assert left == ['step_000006'], left                          # debris cleaned, keep_last honoured


@pytest.mark.slow
def test_sft_sigkill_then_resume_reproduces_the_losses(tmp_path, small_tokenizer, sft_files):
    full = tmp_path/'full'
    launch(sys.executable, '-m', 'azllm.cli', 'train', write_sft(tmp_path/'full.yml', small_tokenizer, full, sft_files, grad_accum=1))
    run = tmp_path/'killed'
    cfg = write_sft(tmp_path/'sft.yml', small_tokenizer, run, sft_files, grad_accum=1)
    kill_at('after_commit', cfg, run)
    r = launch(sys.executable, '-m', 'azllm.cli', 'train', cfg)
    assert 'resumed from' in r.stdout + r.stderr
    again, want = losses(run), losses(full)
    for s in want: assert again[s] == pytest.approx(want[s], rel=TOL), s


@pytest.mark.slow
def test_two_runs_on_one_directory(tmp_path, small_tokenizer):
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, tmp_path/'run', max_steps=400, save_every=400)
    p = subprocess.Popen([sys.executable, '-m', 'azllm.cli', 'train', str(cfg)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and not (tmp_path/'run'/'log.jsonl').exists(): time.sleep(0.1)
        r = azllm('train', cfg)
        assert r.returncode == 2 and 'is in use by another run' in r.stderr and 'Traceback' not in r.stderr, r.stderr[-2000:]
    finally:
        p.kill(); p.wait()


def run_inproc(cfg_path, *overrides):
    from azllm.core import load_config
    from azllm.cpt import CPTRun, train
    return train(load_config(cfg_path, CPTRun, list(overrides)), progress=False)


def test_resume_refuses_a_changed_config_and_untrusted_checkpoints(tmp_path, small_tokenizer):
    from azllm.core import AzllmError
    from azllm.checkpoint import list_checkpoints, SIDECAR, sha256_of, fs_of
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
    meta = json.loads((ck/SIDECAR).read_text()); meta['sha256']['.metadata'] = sha256_of(fs_of(str(ck))[0], str(ck/'.metadata'))
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
    from azllm.core import AzllmError, load_config
    from azllm.cpt import CPTRun, train
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, tmp_path/'run')
    bad(azllm('train', cfg, 'lerning_rate=1'), 'lerning_rate: unknown key')               # one subprocess for the exit code
    for ov, msg in [('seq_len=4096', "beyond the model's limit"), ('resume=/no/such/checkpoint', 'is not committed'),
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
    from azllm.core import load_config
    from azllm.cpt import CPTRun
    from azllm.sft import SFTRun
    for f in sorted((ROOT/'configs').glob('cpt_*.yml')): load_config(f, CPTRun)
    for f in sorted((ROOT/'configs').glob('sft_*.yml')): load_config(f, SFTRun)


def test_stale_lock_is_taken_over(tmp_path, small_tokenizer):
    "A run killed with SIGKILL leaves its lock behind; the next run on the directory takes it over (same host, dead pid)."
    import socket
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, tmp_path/'run', max_steps=1, valid_data=[], grad_accum=1)
    from azllm.core import write_marker
    (tmp_path/'run').mkdir(); write_marker(tmp_path/'run', 'cpt-run')           # what a run killed right after taking its lock leaves
    (tmp_path/'run'/'.azllm.lock').write_text(json.dumps(dict(pid=2**22 + 4321, host=socket.gethostname(), started='earlier')))
    run_inproc(cfg)
    assert (tmp_path/'run'/'final').exists() and not (tmp_path/'run'/'.azllm.lock').exists()
