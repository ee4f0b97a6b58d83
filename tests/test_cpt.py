"""Continued pre-training on CPU: DDP and FSDP2 against one process, exact resume after SIGKILL, bad inputs."""
import json, os, shutil, signal, subprocess, sys, time
from pathlib import Path
import pytest, yaml
from conftest import azllm, DATA, ROOT

TOL = 1e-5   # relative; fp32 on CPU: the sums are reordered across processes, nothing else differs


def write_cfg(path, tok, out, **kw):
    cfg = dict(stage='cpt', output_dir=str(out), model='preset:llama-tiny', tokenizer=str(tok),
               train_data=[str(DATA/'az_train.txt')], valid_data=[str(DATA/'az_valid.txt')], seq_len=64, micro_batch=2,
               grad_accum=2, max_steps=6, lr=3e-3, warmup_steps=1, eval_every=100, eval_windows=8, save_every=3,
               tensorboard=False)
    cfg.update(kw)
    path.write_text(yaml.safe_dump(cfg))
    return path


def losses(run): return {r['step']: r['loss'] for r in map(json.loads, open(Path(run)/'log.jsonl'))}


def launch(*cmd):
    env = {**os.environ, 'OMP_NUM_THREADS': '1'}
    r = subprocess.run([*cmd], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    return r


def test_ddp_and_fsdp2_match_one_process(tmp_path, small_tokenizer):
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, tmp_path/'one')
    launch(sys.executable, '-m', 'azllm.cli', 'train', cfg)                                   # 1 process, grad_accum 2
    launch('torchrun', '--nproc_per_node', '2', '-m', 'azllm.cli', 'train', cfg,             # 2 processes, same global batch
           f'output_dir={tmp_path/"ddp"}', 'grad_accum=1', 'strategy=ddp')
    launch('accelerate', 'launch', '--config_file', ROOT/'configs/accelerate/fsdp2.yaml', '--num_processes', '2',
           '-m', 'azllm.cli', 'train', cfg, f'output_dir={tmp_path/"fsdp"}', 'grad_accum=1')  # strategy auto -> fsdp2
    one = losses(tmp_path/'one')
    assert sorted(one) == list(range(1, 7))
    for run in ('ddp', 'fsdp'):
        other = losses(tmp_path/run)
        assert other.keys() == one.keys()
        for s in one: assert other[s] == pytest.approx(one[s], rel=TOL), (run, s)
    s1 = json.loads((tmp_path/'one'/'summary.json').read_text())
    sf = json.loads((tmp_path/'fsdp'/'summary.json').read_text())
    assert sf['strategy'] == 'fsdp2' and len(sf['state_bytes_per_rank']) == 2
    for rank in sf['state_bytes_per_rank']:            # each rank holds half of the parameters, gradients and AdamW state
        for k in ('params', 'grads', 'optimizer'):
            assert rank[k] == pytest.approx(s1['state_bytes_per_rank'][0][k] / 2, rel=0.01), k
    from transformers import AutoModelForCausalLM
    for run in ('one', 'fsdp'): AutoModelForCausalLM.from_pretrained(tmp_path/run/'final')


def test_sigkill_then_resume_continues_the_loss_curve(tmp_path, small_tokenizer):
    kw = dict(seq_len=128, micro_batch=4, grad_accum=1, max_steps=40, save_every=5, keep_last=2)
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, tmp_path/'full', **kw)
    launch(sys.executable, '-m', 'azllm.cli', 'train', cfg)
    killed = tmp_path/'killed'
    cfg2 = write_cfg(tmp_path/'cpt2.yml', small_tokenizer, killed, **kw)
    p = subprocess.Popen([sys.executable, '-m', 'azllm.cli', 'train', cfg2], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env={**os.environ, 'OMP_NUM_THREADS': '1'})
    deadline = time.time() + 120
    while time.time() < deadline and p.poll() is None:
        if (killed/'log.jsonl').exists() and max(losses(killed), default=0) >= 13: break
        time.sleep(0.02)
    assert p.poll() is None, 'the run finished before it could be killed'
    p.send_signal(signal.SIGKILL); p.wait()
    done = sorted(d.name for d in (killed/'checkpoints').iterdir() if (d/'azllm_checkpoint.json').exists())
    assert done and len(done) <= 2, done                 # keep_last, and only complete checkpoints count
    resumed_from = int(done[-1].split('_')[1])
    assert not (killed/'final').exists()
    launch(sys.executable, '-m', 'azllm.cli', 'train', cfg2)   # resume: auto
    full, again = losses(tmp_path/'full'), losses(killed)      # later lines of the log overwrite the killed run's
    assert resumed_from < 40 and sorted(again) == list(range(1, 41))
    for s in range(resumed_from + 1, 41): assert again[s] == pytest.approx(full[s], rel=TOL), s


def bad(r, *needles):
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert 'Traceback' not in r.stderr, r.stderr[-2000:]
    for n in needles: assert n in r.stderr, r.stderr[-2000:]


def test_bad_inputs(tmp_path, small_tokenizer):
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, tmp_path/'run')
    bad(azllm('train', cfg, 'lerning_rate=1'), 'lerning_rate: unknown key')
    bad(azllm('train', cfg, 'seq_len=4096'), "beyond the model's limit")
    bad(azllm('train', cfg, 'resume=/no/such/checkpoint'), 'does not exist')
    (tmp_path/'half').mkdir(); (tmp_path/'half'/'.metadata').write_text('x')
    bad(azllm('train', cfg, f'resume={tmp_path/"half"}'), 'incomplete')
    (tmp_path/'half'/'azllm_checkpoint.json').write_text('{"step": 3}')
    bad(azllm('train', cfg, f'resume={tmp_path/"half"}'), 'corrupt')
    # a model directory whose vocabulary differs from the run's tokenizer, with transfer off
    import torch
    from azllm.model import load_model
    from azllm.tokenizer import train_tokenizer, load_tokenizer
    from azllm.data import read_documents
    other = train_tokenizer(list(read_documents(DATA/'az_valid.txt')), 1000)
    m = load_model('preset:llama-tiny', other); m.save_pretrained(tmp_path/'model'); other.save_pretrained(tmp_path/'model')
    bad(azllm('train', cfg, f'model={tmp_path/"model"}', 'vocab_transfer=false'), 'vocab_transfer: true')


def test_shipped_cpt_configs_validate():
    from azllm.core import load_config
    from azllm.cpt import CPTRun
    for f in sorted((ROOT/'configs').glob('cpt_*.yml')): load_config(f, CPTRun)
