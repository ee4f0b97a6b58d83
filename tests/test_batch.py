"""`micro_batch: auto` on CPU: the measured choice under a memory budget keeps the global batch, is logged and stored, and a
resume keeps the stored choice even where a new measurement would choose differently; `precision: fp8` fails clearly
where it cannot run and keeps Hugging Face's parameter names where it can convert."""
import json, shutil
from pathlib import Path
import pytest
from conftest import DATA


@pytest.fixture(scope='module')
def small_text(tmp_path_factory):
    "The first 40k characters of the bundled training text: enough windows of 64 tokens, tokenized in a moment."
    p = tmp_path_factory.mktemp('text')/'train.txt'
    p.write_text((DATA/'az_train.txt').read_text(encoding='utf-8')[:40_000], encoding='utf-8')
    return p


def run_cfg(tok, out, text=DATA/'az_train.txt', **kw):
    from azllm.cpt import CPTRun
    d = dict(output_dir=str(out), model='preset:llama-tiny', tokenizer=str(tok), train_data=[str(text)], valid_data=[],
             seq_len=64, micro_batch='auto', global_batch=8, max_steps=4, lr=3e-3, warmup_steps=1, save_every=2, tensorboard=False)
    return CPTRun(**(d | kw))


def losses(out): return {r['step']: r['loss'] for r in map(json.loads, open(Path(out)/'log.jsonl')) if 'loss' in r}


def probe_peaks(cfg, sizes):
    "The CPU peaks a run of `cfg` measures for these micro-batches, on the same model."
    from azllm.cpt import CPTTask
    from azllm.runtime import Runtime
    from azllm.engine import build_engine
    from azllm.sizing import probe_step
    model, _, _ = CPTTask(False).load(cfg, Runtime())
    eng, _ = build_engine(model, cfg, Runtime(), 10)
    return {mb: probe_step(eng, mb, cfg.seq_len) for mb in sizes}


def test_auto_keeps_the_global_batch_and_a_resume_keeps_the_stored_choice(tmp_path, small_tokenizer, small_text, capsys):
    from azllm.cpt import train
    peaks = probe_peaks(run_cfg(small_tokenizer, tmp_path/'x', small_text), (4, 8))
    assert peaks[4] < peaks[8]
    budget = (peaks[4] + peaks[8]) / 2                               # 4 rows fit, 8 do not
    auto = run_cfg(small_tokenizer, tmp_path/'auto', small_text, memory_budget_gib=budget)
    train(auto, progress=True)
    s = json.loads((tmp_path/'auto'/'summary.json').read_text())['batch']
    assert (s['micro_batch'], s['grad_accum'], s['global_batch'], s['chosen']) == (4, 2, 8, 'measured')
    assert s['peak_gib'] <= budget < s['probes']['8']
    assert 'micro_batch: auto -> 4 x grad_accum 2' in capsys.readouterr().out
    # the same 8 rows per step as one micro-batch of 8: the same losses (fp32, only the summation order differs)
    fixed = run_cfg(small_tokenizer, tmp_path/'fixed', small_text, micro_batch=8, global_batch=None, grad_accum=1)
    train(fixed, progress=False)
    a, f = losses(tmp_path/'auto'), losses(tmp_path/'fixed')
    assert a.keys() == f.keys() == {1, 2, 3, 4}
    assert all(abs(a[k] - f[k]) <= 1e-5 * abs(f[k]) for k in a)
    # back to step 2 with a budget where 8 fits: the resume keeps 4 x 2 (stored in the checkpoint) and reproduces steps 3-4
    shutil.rmtree(tmp_path/'auto'/'checkpoints'/'step_000004'); shutil.rmtree(tmp_path/'auto'/'final')
    (tmp_path/'auto'/'summary.json').unlink()
    train(auto.model_copy(update=dict(memory_budget_gib=1000.0)), progress=True)
    assert 'stored by the checkpoint resumed' in capsys.readouterr().out
    s2 = json.loads((tmp_path/'auto'/'summary.json').read_text())['batch']
    assert (s2['micro_batch'], s2['grad_accum'], s2['chosen']) == (4, 2, 'stored')
    rows = [r for r in map(json.loads, open(tmp_path/'auto'/'log.jsonl')) if 'loss' in r]
    assert [r['step'] for r in rows] == [1, 2, 3, 4, 3, 4]
    assert [r['loss'] for r in rows[4:]] == [r['loss'] for r in rows[2:4]]
    # a fresh run with that budget measures again and takes 8 x 1
    train(auto.model_copy(update=dict(output_dir=str(tmp_path/'big'), memory_budget_gib=1000.0, max_steps=1)), progress=False)
    s3 = json.loads((tmp_path/'big'/'summary.json').read_text())['batch']
    assert (s3['micro_batch'], s3['grad_accum']) == (8, 1)


def test_batch_key_errors(tmp_path, small_tokenizer, small_text):
    from azllm.core import AzllmError
    from azllm.config import load_config
    from azllm.cpt import CPTRun, train
    p = tmp_path/'c.yml'
    p.write_text(f"output_dir: {tmp_path/'r'}\ntrain_data: [{DATA/'az_train.txt'}]\nmicro_batch: auto\n")
    with pytest.raises(AzllmError, match='needs global_batch'): load_config(p, CPTRun, [])
    with pytest.raises(AzllmError, match='not both'): load_config(p, CPTRun, ['global_batch=8', 'grad_accum=2'])
    with pytest.raises(AzllmError, match='not a multiple of micro_batch'):
        train(run_cfg(small_tokenizer, tmp_path/'r2', small_text, micro_batch=3), progress=False)
    assert not (tmp_path/'r2').exists()           # a run that failed before its first checkpoint leaves nothing behind


def test_fp8_needs_fp8_tensor_cores(tmp_path, small_tokenizer, small_text):
    from azllm.core import AzllmError
    from azllm.cpt import train
    with pytest.raises(AzllmError, match='FP8 tensor cores'):
        train(run_cfg(small_tokenizer, tmp_path/'r', small_text, precision='fp8'), progress=False)


def test_fp8_converts_the_large_matmuls_and_keeps_hf_names():
    pytest.importorskip('torchao')
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM
    from azllm.model import PRESETS
    from azllm.runtime import to_float8
    from torchao.float8.float8_linear import Float8Linear
    with torch.device('meta'): m = LlamaForCausalLM(LlamaConfig(vocab_size=128_256, **PRESETS['llama-3.2-3b']))
    keys = list(m.state_dict())
    names = to_float8(m)
    # the 3B: every MLP matmul and the 3072 x 3072 q and o projections; the 1024-wide k and v, and the head, stay bf16
    assert len(names) == 5 * 28 and all(n.rsplit('.', 1)[1] in ('gate_proj', 'up_proj', 'down_proj', 'q_proj', 'o_proj') for n in names)
    assert all(isinstance(m.get_submodule(n), Float8Linear) for n in names)
    assert not isinstance(m.model.layers[0].self_attn.k_proj, Float8Linear) and not isinstance(m.lm_head, Float8Linear)
    assert list(m.state_dict()) == keys                 # checkpoints and final/ keep Hugging Face's names
