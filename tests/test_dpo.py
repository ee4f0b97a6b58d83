"""Stage 3b, DPO/IPO: the loss equals TRL's DPOTrainer on the same batch (both loss types, both tokenizers), the data errors
a user can make, and a run killed with SIGKILL that resumes to the same losses. CPU, tiny models."""
import json, math, os, signal, subprocess, sys
from pathlib import Path
import pytest
import torch
import yaml
from conftest import DATA, ROOT, nudged_peft
from azllm.core import AzllmError
from azllm.config import load_config
from azllm.data import read_documents
from azllm.model import load_model
from azllm.tokenizer import train_tokenizer, load_tokenizer
from azllm.chats import check_chat_tokenizer
from azllm.sft import lora_config
from azllm.packing import pack_rows
from azllm.dpo import read_pairs, encode_pairs, PackedPairs, dpo_loss, DPORun, run_dpo


pytestmark = pytest.mark.usefixtures('one_thread')     # (tests/conftest.py)


@pytest.fixture(scope='module')
def toks():
    return {'custom': check_chat_tokenizer(train_tokenizer(read_documents(DATA/'az_train.txt'), 2000)),
            'llama3': check_chat_tokenizer(load_tokenizer())}


def shortest(rows, per_kind=1):
    "The shortest pair of each kind (a wrong fact, Turkish forms, an unhelpful reply): fast at 128k vocab."
    out = []
    for kind in ('factual', 'turkish', 'unhelpful'):
        mine = [r for r in rows if r['kind'] == kind]
        out += sorted(mine, key=lambda r: len(json.dumps(r, ensure_ascii=False)))[:per_kind]
    return out


@pytest.mark.parametrize('loss_type', ['sigmoid', 'ipo'])
@pytest.mark.parametrize('which', ['custom', 'llama3'])
def test_loss_equals_trl_on_the_same_batch(which, loss_type, toks, tmp_path):
    "TRL 1.16's DPOTrainer (LoRA, reference = adapter disabled) is the oracle: same pairs, same model, same loss and rewards."
    from datasets import Dataset
    from trl import DPOConfig, DPOTrainer
    tok = toks[which]
    rows = [json.loads(l) for l in (DATA/'dpo'/'train.jsonl').read_text(encoding='utf-8').splitlines()[:60]]
    rows = [{k: r[k] for k in ('prompt', 'chosen', 'rejected')} for r in shortest(rows)]
    m = nudged_peft(tok).double()       # fp64 on both sides: what is left is a difference of method, not of rounding
    beta = 0.1 if loss_type == 'sigmoid' else 0.5
    tr = DPOTrainer(model=m, args=DPOConfig(output_dir=str(tmp_path/'trl'), beta=beta, loss_type=[loss_type], max_length=None,
                                            per_device_train_batch_size=len(rows), use_cpu=True, bf16=False, report_to='none',
                                            dataset_num_proc=None),
                    train_dataset=Dataset.from_list(rows), processing_class=tok)
    # TRL copies an adapter it is given as its reference ("ref"); without that copy its reference is the adapter disabled, as ours
    assert 'ref' in tr.model.peft_config
    tr.model.delete_adapter('ref'); tr.model.set_adapter('default')
    batch = next(iter(tr.get_train_dataloader()))
    m.train()
    with torch.no_grad():
        l_trl = tr.compute_loss(tr.model, batch).item()
    metrics = {k: v[-1] for k, v in tr._metrics['train'].items()}
    (tmp_path/'p.jsonl').write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')
    exs, _ = encode_pairs(read_pairs(tmp_path/'p.jsonl'), tok, 8192)
    pack_rows(exs, 8192, tmp_path/'rows')
    data = PackedPairs(tmp_path/'rows', tok.pad_token_id)
    assert len(data) == 1 and data.count([0]) == len(rows)                      # all pairs packed into one row
    assert int((data.batch([0])['shift_labels'] != -100).sum()) == int(batch['completion_mask'].sum())   # the same scored tokens
    with torch.no_grad():
        l_ours, sums = dpo_loss(tr.model, data.batch([0]), len(rows), loss_type, beta)
    print(f'{which} {loss_type}: azllm {l_ours.item():.8f}  TRL {l_trl:.8f}  rel diff {abs(l_ours.item() - l_trl) / abs(l_trl):.2e}')
    assert l_ours.item() == pytest.approx(l_trl, rel=1e-5)
    assert l_trl != pytest.approx(math.log(2), rel=1e-3)                        # the policy really differs from the reference
    for ours, theirs in (('reward_accuracy', 'rewards/accuracies'), ('rewards_chosen', 'rewards/chosen'),
                         ('rewards_rejected', 'rewards/rejected'), ('reward_margin', 'rewards/margins')):
        assert sums[ours].item() / len(rows) == pytest.approx(metrics[theirs], abs=beta * 1e-3), ours       # TRL's fused LM head sums log-probs in fp32


# ---------------------------------------------------------------- bad input

def write_jsonl(path, lines):
    path.write_text(''.join((l if isinstance(l, str) else json.dumps(l, ensure_ascii=False)) + '\n' for l in lines), encoding='utf-8')
    return path

GOOD = dict(prompt=[{'role': 'user', 'content': 'Balansımı necə yoxlayım?'}], chosen=[{'role': 'assistant', 'content': '*100# yığın.'}],
            rejected=[{'role': 'assistant', 'content': 'Bilmirəm.'}])


@pytest.mark.parametrize('line,needle', [
    ('{"prompt": [', r'bad.jsonl:2: not valid JSON'),
    ('[1, 2]', r'bad.jsonl:2: not a JSON object'),
    (dict(messages=[{'role': 'user', 'content': 'x'}]), r'bad.jsonl:2: not a preference pair, no `prompt`, `chosen`, `rejected` \(fields: messages\)'),
    (dict(GOOD, prompt='Salam'), r'bad.jsonl:2: `prompt` must be a non-empty list of chat messages'),
    (dict(GOOD, prompt=[{'role': 'user'}]), r'bad.jsonl:2: prompt turn 0 must be'),
    (dict(GOOD, prompt=GOOD['prompt'] + GOOD['chosen']), r"bad.jsonl:2: the prompt must end with a user turn \(it ends with 'assistant'\)"),
    (dict(GOOD, chosen=[]), r'bad.jsonl:2: `chosen` must be one non-empty assistant reply'),
    (dict(GOOD, rejected=[{'role': 'user', 'content': 'x'}]), r'bad.jsonl:2: `rejected` must be one non-empty assistant reply'),
    (dict(GOOD, rejected=GOOD['chosen']), r'bad.jsonl:2: `chosen` and `rejected` are the same reply'),
])
def test_bad_pairs_name_the_line(line, needle, tmp_path):
    with pytest.raises(AzllmError, match=needle): read_pairs(write_jsonl(tmp_path/'bad.jsonl', [GOOD, line]))


def test_bad_files_and_configs(tmp_path, toks):
    (tmp_path/'bin.jsonl').write_bytes(b'{"a": 1}\x00\n')
    with pytest.raises(AzllmError, match='binary data'): read_pairs(tmp_path/'bin.jsonl')
    (tmp_path/'latin1.jsonl').write_bytes(json.dumps(GOOD).encode() + b'\n{"prompt": "\xe7"}\n')
    with pytest.raises(AzllmError, match=r'latin1.jsonl:2: not valid UTF-8'): read_pairs(tmp_path/'latin1.jsonl')
    with pytest.raises(AzllmError, match='no such file'): read_pairs(tmp_path/'nope.jsonl')
    (tmp_path/'empty').mkdir()
    with pytest.raises(AzllmError, match='no .jsonl files'): read_pairs(tmp_path/'empty')
    long = dict(GOOD, chosen='uzun ' * 400, rejected='qısa')
    exs, st = encode_pairs(read_pairs(write_jsonl(tmp_path/'long.jsonl', [GOOD, long])), toks['custom'], 256)
    assert st['truncated'] == 1 and all(len(e['input_ids']) <= 256 for e in exs)
    with pytest.raises(AzllmError, match='were dropped; raise seq_len'):
        encode_pairs(read_pairs(write_jsonl(tmp_path/'long2.jsonl', [long])), toks['custom'], 256, 'drop')
    cfg = tmp_path/'dpo.yml'
    cfg.write_text(yaml.safe_dump(dict(stage='dpo', output_dir=str(tmp_path/'run'), model='preset:llama-tiny', train_data=str(tmp_path/'long.jsonl'))))
    for ov, msg in [('loss_type=hinge', "'sigmoid', 'ipo', 'simpo' or 'kto'"), ('desirable_weight=0', 'greater than 0'), ('undesirable_weight=nan', 'finite number'), ('beta=0', 'greater than 0'), ('beta=-1', 'greater than 0')]:
        with pytest.raises(AzllmError, match=msg): load_config(cfg, DPORun, [ov])
    for f in sorted((ROOT/'configs').glob('dpo_*.yml')) + [ROOT/'configs'/'kto_tiny.yml']: load_config(f, DPORun)      # the shipped recipes validate


def test_cli_runs_the_dpo_stage_and_names_a_bad_line(tmp_path, capsys):
    from azllm.cli import main
    write_jsonl(tmp_path/'bad.jsonl', [GOOD, dict(GOOD, rejected=GOOD['chosen'])])
    cfg = tmp_path/'dpo.yml'
    cfg.write_text(yaml.safe_dump(dict(stage='dpo', output_dir=str(tmp_path/'run'), model='preset:llama-tiny', train_data=str(tmp_path/'bad.jsonl'),
                                       max_steps=1, tensorboard=False)))
    assert main(['train', str(cfg)]) == 2
    err = capsys.readouterr().err
    assert 'bad.jsonl:2: `chosen` and `rejected` are the same reply' in err and 'Traceback' not in err
    assert not (tmp_path/'run').exists()                                          # nothing left behind


# ---------------------------------------------------------------- the engine: SIGKILL and resume

def write_dpo(path, tok, out, files, **kw):
    cfg = dict(stage='dpo', output_dir=str(out), model='preset:llama-tiny', tokenizer=str(tok), train_data=str(files/'train.jsonl'),
               valid_data=str(files/'valid.jsonl'), seq_len=1024, micro_batch=2, grad_accum=1, max_steps=6, lr=3e-3, warmup_steps=1,
               eval_every=3, save_every=3, lora_r=4, lora_alpha=8, log_every=1, tensorboard=False)
    cfg.update(kw)
    path.write_text(yaml.safe_dump(cfg))
    return path


@pytest.fixture(scope='module')
def dpo_files(tmp_path_factory):
    d = tmp_path_factory.mktemp('dpo')
    (d/'train.jsonl').write_text(''.join((DATA/'dpo'/'train.jsonl').read_text(encoding='utf-8').splitlines(keepends=True)[:40]), encoding='utf-8')
    (d/'valid.jsonl').write_text(''.join((DATA/'dpo'/'valid.jsonl').read_text(encoding='utf-8').splitlines(keepends=True)[:8]), encoding='utf-8')
    return d


def logged(run, key='loss'): return {r['step']: r[key] for r in map(json.loads, open(Path(run)/'log.jsonl')) if key in r}


@pytest.mark.slow
def test_dpo_sigkill_then_resume_reproduces_the_losses(tmp_path, small_tokenizer, dpo_files, capsys):
    from test_engine import train_here
    from test_kills import kill_at
    full = tmp_path/'full'
    train_here(write_dpo(tmp_path/'full.yml', small_tokenizer, full, dpo_files))
    run = tmp_path/'killed'
    cfg = write_dpo(tmp_path/'dpo.yml', small_tokenizer, run, dpo_files)
    kill_at('after_commit', cfg, run)
    capsys.readouterr()
    train_here(cfg)
    assert 'resumed from' in ''.join(capsys.readouterr())
    for key in ('loss', 'reward_accuracy', 'reward_margin', 'val_reward_accuracy'):
        again, want = logged(run, key), logged(full, key)
        assert want and again.keys() >= want.keys(), key
        for s in want: assert again[s] == pytest.approx(want[s], rel=1e-5, abs=1e-7), (key, s)
    assert logged(full)[6] != logged(full)[1]                                      # it trained
    from azllm.adapters import load_adapted
    load_adapted(run)                                                              # the adapter loads onto its base


# ---------------------------------------------------------------- the chunked head (issue 35, item 1)

def _nudged_batch(tok, tmp_path, n_pairs=3):
    from azllm.dpo import read_pairs as rp
    m = nudged_peft(tok).double()
    exs, _ = encode_pairs(rp(DATA/'dpo'/'train.jsonl')[:n_pairs], tok, 4096)
    pack_rows(exs, 4096, tmp_path/'rows')
    return m, PackedPairs(tmp_path/'rows', tok.pad_token_id).batch([0])


def test_chunked_head_equals_full_logits_fp64(toks, tmp_path):
    "Per-sequence log-probs and LoRA gradients through the chunked head equal the full-logits path in fp64; so does gradcheck."
    from azllm.dpo import sequence_logps
    from azllm.logps import token_logps
    m, b = _nudged_batch(toks['custom'], tmp_path)
    lora = [p for p in m.parameters() if p.requires_grad]
    w = torch.arange(1., 7, dtype=torch.float64)
    (fused, n1), (plain, n2) = sequence_logps(m, b, chunk=32), sequence_logps(m, b, chunk=None)
    assert torch.equal(n1, n2) and n1[:6].min() > 0
    assert torch.allclose(fused, plain, rtol=1e-10, atol=1e-10)
    for a, c in zip(torch.autograd.grad(fused[:6] @ w, lora), torch.autograd.grad(plain[:6] @ w, lora)):
        assert torch.allclose(a, c, rtol=1e-9, atol=1e-12)
    h, W = torch.randn(9, 6, dtype=torch.float64, requires_grad=True), torch.randn(13, 6, dtype=torch.float64, requires_grad=True)
    y = torch.tensor([1, -100, 12, 0, 5, -100, 3, 3, 7])
    assert torch.autograd.gradcheck(lambda h, W: token_logps(h, W, y, chunk=3), (h, W))      # head weight too (train_embeddings)
    assert torch.autograd.gradcheck(lambda h: token_logps(h, W.detach(), y, chunk=3), (h,))  # frozen head: gradient formed in the forward


def test_chunked_head_keeps_no_logits_for_backward(toks, tmp_path):
    "The unfused path saves (tokens x vocab) logits for its backward; the chunked head saves nothing of that size."
    from azllm.dpo import sequence_logps
    m, b = _nudged_batch(toks['custom'], tmp_path)
    V, N = m.get_output_embeddings().weight.shape[0], b['input_ids'].numel()
    def vocab_rows(chunk):                   # rows of the largest saved tensor whose last dimension is the vocabulary
        seen = [0]
        with torch.autograd.graph.saved_tensors_hooks(lambda t: seen.append(t.numel() // V if t.shape[-1:] == (V,) else 0) or t, lambda t: t):
            sequence_logps(m, b, chunk=chunk)
        return max(seen)
    assert vocab_rows(None) >= N             # the check can fail: the full logits are there without the chunked head
    assert vocab_rows(64) == 0                # the chunked head: no logits at all kept for the backward


# ---------------------------------------------------------------- the reference paid once (issue 35, item 2)

def test_cached_reference_equals_the_same_forward_and_is_reused(tmp_path, small_tokenizer, dpo_files, capsys):
    """`reference: cached` (one pass before training, saved with the run) logs the losses and rewards of `reference: forward`
    (the adapter disabled in every step); a resumed run reads the cache instead of recomputing it."""
    from test_engine import train_here
    kw = dict(max_steps=3, eval_every=3, save_every=2, lr_scheduler='constant')    # constant: the resumed run may stop later
    train_here(write_dpo(tmp_path/'f.yml', small_tokenizer, tmp_path/'fwd', dpo_files, reference='forward', **kw))
    capsys.readouterr()
    cached = write_dpo(tmp_path/'c.yml', small_tokenizer, tmp_path/'cached', dpo_files, **dict(kw, max_steps=2))
    train_here(cached)
    assert 'train: reference log-probs of' in capsys.readouterr().out
    ref = tmp_path/'cached'/'data'/'train'/'reference.npy'
    assert ref.is_file() and json.loads((ref.parent/'reference.json').read_text())['sequences'] == len(__import__('numpy').load(ref))
    train_here(cached, 'max_steps=3', 'resume_with_changes=true')                                 # resumes from step 2: the cache is read, not recomputed
    out = capsys.readouterr().out
    assert 'resumed from' in out and 'reference log-probs of' not in out
    for key in ('loss', 'reward_accuracy', 'reward_margin', 'val_loss', 'val_reward_margin'):
        want, got = logged(tmp_path/'fwd', key), logged(tmp_path/'cached', key)
        assert want and got.keys() >= want.keys(), key
        for s in want: assert got[s] == pytest.approx(want[s], rel=1e-5, abs=1e-7), (key, s)


def test_reference_key_follows_data_model_and_precision(tmp_path, toks):
    "The cache key changes with the packed rows, the reference model's files and the numerics keys; not with the learning rate."
    from azllm.dpo import reference_key
    exs, _ = encode_pairs(read_pairs(DATA/'dpo'/'valid.jsonl')[:6], toks['custom'], 1024)
    pack_rows(exs, 1024, tmp_path/'a'); pack_rows(exs[:5], 1024, tmp_path/'b')
    (tmp_path/'m').mkdir(); (tmp_path/'m'/'config.json').write_text('{"a": 1}')
    cfg = DPORun(output_dir=str(tmp_path/'o'), model=str(tmp_path/'m'), train_data=['x.jsonl'])
    k = reference_key(cfg, str(tmp_path/'m'), tmp_path/'a')
    assert k == reference_key(cfg.model_copy(update=dict(lr=1e-3)), str(tmp_path/'m'), tmp_path/'a')
    assert k != reference_key(cfg, str(tmp_path/'m'), tmp_path/'b')
    assert k != reference_key(cfg.model_copy(update=dict(precision='bf16')), str(tmp_path/'m'), tmp_path/'a')
    (tmp_path/'m'/'config.json').write_text('{"a": 2}')
    assert k != reference_key(cfg, str(tmp_path/'m'), tmp_path/'a')


# ---------------------------------------------------------------- KTO (issue 35, items 4 and 5)

def kto_rows(n_per_kind=1):
    "Unpaired KTO rows in TRL's conversational format from the shortest pairs: the chosen reply desirable, the rejected one not."
    rows = [json.loads(l) for l in (DATA/'dpo'/'train.jsonl').read_text(encoding='utf-8').splitlines()[:60]]
    return [dict(prompt=r['prompt'], completion=r[k], label=k == 'chosen') for r in shortest(rows, n_per_kind) for k in ('chosen', 'rejected')]


@pytest.mark.parametrize('which,weights', [('custom', (1.0, 1.0)), ('custom', (1.3, 0.7))])   # the Llama 3 vocabulary costs 40 s here; its template is the DPO oracle's
def test_kto_loss_equals_trl_on_the_same_batch(which, weights, toks, tmp_path):
    "TRL 1.16's KTOTrainer (LoRA, reference = adapter disabled, KL from completions rotated by one) is the oracle, in fp64."
    from datasets import Dataset
    from trl import KTOConfig, KTOTrainer
    from azllm.dpo import check_unpaired, encode_unpaired, kto_loss
    tok, rows = toks[which], kto_rows()
    m = nudged_peft(tok).double()
    tr = KTOTrainer(model=m, args=KTOConfig(output_dir=str(tmp_path/'trl'), beta=0.1, max_length=None, desirable_weight=weights[0],
                                            undesirable_weight=weights[1], per_device_train_batch_size=len(rows), use_cpu=True,
                                            bf16=False, report_to='none', dataset_num_proc=None),
                    train_dataset=Dataset.from_list(rows), processing_class=tok)
    if 'ref' in tr.model.peft_config: tr.model.delete_adapter('ref'); tr.model.set_adapter('default')
    batch = next(iter(tr.get_train_dataloader()))
    assert [bool(x) for x in batch['label']] == [r['label'] for r in rows]          # TRL's batch is the file's order
    m.train()
    with torch.no_grad(): l_trl = tr.compute_loss(tr.model, batch).item()
    kl_trl = tr._metrics['train']['kl'][-1]
    write_jsonl(tmp_path/'k.jsonl', rows)
    exs, labels, _ = encode_unpaired(read_pairs(tmp_path/'k.jsonl', check_unpaired), tok, 8192)
    pack_rows(exs, 8192, tmp_path/'rows'); (tmp_path/'rows'/'labels.bin').write_bytes(bytes(labels))
    data = PackedPairs(tmp_path/'rows', tok.pad_token_id)
    assert len(data) == 1 and data.count([0]) == len(rows)
    with torch.no_grad(): l_ours, sums = kto_loss(tr.model, data.batch([0]), len(rows), 0.1, *weights)
    print(f'{which} KTO {weights}: azllm {l_ours.item():.8f}  TRL {l_trl:.8f}  KL {sums["kl"].item() / len(rows):.6f} vs {kl_trl:.6f}')
    assert l_ours.item() == pytest.approx(l_trl, rel=1e-5)
    assert sums['kl'].item() / len(rows) == pytest.approx(kl_trl, rel=1e-3)        # TRL logs its KL from fp32 log-prob sums (its fused LM head)
    assert l_trl != pytest.approx(0.25 * (weights[0] + weights[1]), rel=1e-4)      # not the fresh adapter's loss: the policy differs from the reference


def test_kto_stage_trains_and_reads_trl_format(tmp_path, small_tokenizer, dpo_files, capsys):
    "`loss_type: kto` runs on the engine from unpaired JSONL (conversational and plain text), logs its KL estimate, and names a bad label."
    from test_engine import train_here
    from azllm.cli import main
    rows = [dict(prompt=p['prompt'], completion=p[k], label=k == 'chosen') for p in map(json.loads, open(dpo_files/'train.jsonl', encoding='utf-8')) for k in ('chosen', 'rejected')]
    rows[3] = dict(prompt='Salam, balans?', completion='*100# yığın.', label=True)           # a plain-text row
    write_jsonl(tmp_path/'train.jsonl', rows); write_jsonl(tmp_path/'valid.jsonl', rows[:8])
    cfg = write_dpo(tmp_path/'kto.yml', small_tokenizer, tmp_path/'run', dpo_files, loss_type='kto', train_data=str(tmp_path/'train.jsonl'),
                    valid_data=str(tmp_path/'valid.jsonl'), max_steps=3, eval_every=3, desirable_weight=1.2)
    train_here(cfg)
    kl, vloss = logged(tmp_path/'run', 'kl'), logged(tmp_path/'run', 'val_loss')
    assert set(kl) == {1, 2, 3} and all(v >= 0 for v in kl.values()) and kl[3] > 0 and 3 in vloss
    write_jsonl(tmp_path/'bad.jsonl', [rows[0], dict(rows[1], label='no')])
    assert main(['train', str(cfg), f'output_dir={tmp_path/"bad"}', f'train_data={tmp_path/"bad.jsonl"}']) == 2
    assert 'bad.jsonl:2: `label` must be true (desirable) or false' in capsys.readouterr().err


def test_simpo_stage_trains_without_a_reference(tmp_path, small_tokenizer, dpo_files):
    "`loss_type: simpo` is one class of azllm.objectives: the stage runs it on the engine, and with no reference nothing is cached."
    from test_engine import train_here
    cfg = write_dpo(tmp_path/'simpo.yml', small_tokenizer, tmp_path/'run', dpo_files, loss_type='simpo', beta=2.0, max_steps=2, eval_every=2)
    train_here(cfg)
    loss, acc = logged(tmp_path/'run', 'loss'), logged(tmp_path/'run', 'val_reward_accuracy')
    assert set(loss) == {1, 2} and all(math.isfinite(v) for v in loss.values()) and 2 in acc
    assert not list((tmp_path/'run').rglob('reference.npy'))                    # SimPO needs no reference: none was scored


# ---------------------------------------------------------------- SFT's levers on DPO (issue 35, item 3)

def test_shipped_1b_recipe_takes_the_sft_levers(tmp_path):
    "The 1B DPO recipe resolves with float8, fused LoRA kernels, compiled layers and the cached reference; micro_batch: auto is accepted with global_batch."
    cfg = load_config(ROOT/'configs'/'dpo_llama-3.2-1b.yml', DPORun)
    assert (cfg.precision, cfg.fp8_recipe, cfg.lora_kernels, cfg.compile, cfg.reference) == ('fp8', 'rowwise', True, 'auto', 'cached')
    auto = load_config(ROOT/'configs'/'dpo_llama-3.2-1b.yml', DPORun, ['micro_batch=auto', 'global_batch=8', 'memory_budget_gib=30'])
    assert auto.micro_batch == 'auto' and auto.global_batch == 8
    with pytest.raises(AzllmError, match='lora_kernels: true needs lora_dropout: 0'):
        load_config(ROOT/'configs'/'dpo_llama-3.2-1b.yml', DPORun, ['lora_dropout=0.1'])


@pytest.mark.parametrize('loss_type', ['sigmoid', 'kto'])
def test_lora_kernels_give_the_same_dpo_and_kto_loss(loss_type, toks, tmp_path):
    "Fused LoRA kernels on CPU: the same loss and LoRA gradients as peft's layers, the reference (adapter off) included."
    import copy
    from azllm.lora_kernels import apply_lora_kernels
    from azllm.dpo import kto_loss, check_unpaired, encode_unpaired
    tok = toks['custom']
    if loss_type == 'kto':
        write_jsonl(tmp_path/'k.jsonl', kto_rows())
        exs, labels, _ = encode_unpaired(read_pairs(tmp_path/'k.jsonl', check_unpaired), tok, 4096)
        pack_rows(exs, 4096, tmp_path/'rows'); (tmp_path/'rows'/'labels.bin').write_bytes(bytes(labels))
        fn = lambda m, b: kto_loss(m, b, len(labels))
    else:
        exs, _ = encode_pairs(read_pairs(DATA/'dpo'/'train.jsonl')[:3], tok, 4096); pack_rows(exs, 4096, tmp_path/'rows')
        fn = lambda m, b: dpo_loss(m, b, 3)
    b = PackedPairs(tmp_path/'rows', tok.pad_token_id).batch([0])
    plain = nudged_peft(tok).double(); fused = copy.deepcopy(plain)
    assert sum(apply_lora_kernels(fused).values()) > 0
    out = []
    for m in (plain, fused):
        loss, _ = fn(m, b)
        out.append((loss, torch.autograd.grad(loss, [p for p in m.parameters() if p.requires_grad])))
    assert out[0][0].item() == pytest.approx(out[1][0].item(), rel=1e-9)
    for a, c in zip(out[0][1], out[1][1]): assert torch.allclose(a, c, rtol=1e-7, atol=1e-10)


def test_micro_batch_auto_probes_the_dpo_step(tmp_path, small_tokenizer, dpo_files, monkeypatch):
    "micro_batch: auto on a DPO run probes DPO's own step (packed pairs, the cached reference), then trains with what it chose."
    from test_engine import train_here
    from azllm.dpo import DPOTask
    seen, real = [], DPOTask.probe_batch
    monkeypatch.setattr(DPOTask, 'probe_batch', lambda self, b: seen.append(b['input_ids'].shape) or real(self, b))
    cfg = write_dpo(tmp_path/'a.yml', small_tokenizer, tmp_path/'run', dpo_files, max_steps=2, eval_every=2, save_every=2,
                    micro_batch='auto', global_batch=2, memory_budget_gib=64)
    d = yaml.safe_load(cfg.read_text()); d.pop('grad_accum'); cfg.write_text(yaml.safe_dump(d))
    train_here(cfg)
    assert seen and seen[0] == (2, 1024)
    assert json.loads((tmp_path/'run'/'summary.json').read_text())['batch']['chosen'] == 'measured'


# ---------------------------------------------------------------- the benchmark's table (issue 35, item 6)

def test_dpo_benchmark_renders_rows_or_its_cpu_smoke_run(tmp_path):
    "The docs table renders from a results file: nothing when there is none, the CPU smoke run labelled as such, failed rows named."
    import runpy
    bench = runpy.run_path(str(ROOT/'benchmarks'/'dpo_throughput.py'))
    assert bench['markdown_table'](tmp_path/'none.json') == ''
    smoke = bench['markdown_table'](ROOT/'benchmarks'/'results'/'dpo_throughput_cpu_tiny.json')
    assert 'CPU smoke run at a tiny shape' in smoke and '| azllm_dpo |' in smoke and '| azllm_kto |' in smoke
    row = dict(tok_per_s=90_000.0, peak_gib=25.0, batch=dict(micro_batch=8, grad_accum=1), losses=[0.69, 0.6], reward_accuracy=[0.5, 0.8])
    rows = dict(azllm_dpo=dict(row, steps=30), trl_dpo_b64=dict(row, tok_per_s=22_000.0, batch=64), trl_dpo_liger_b64=dict(error='CUDA out of memory'))
    (tmp_path/'h.json').write_text(json.dumps(dict(command='python benchmarks/dpo_throughput.py', machine='NVIDIA H200', tiny=False, steps=12, rows=rows)))
    t = bench['markdown_table'](tmp_path/'h.json')
    # a row's own steps, else the file's
    assert '| azllm_dpo | 90,000 | 25.0 | 8 x 1 | 30 | 0.6000 | 0.650, 0.80 |' in t and '| trl_dpo_b64 | 22,000 | 25.0 | 64 | 12 |' in t
    assert 'failed: CUDA out of memory' in t and 'smoke' not in t
    sm = bench['summarize'](rows)
    assert sm['trl_best_row'] == 'trl_dpo_b64' and sm['speedup_over_trl_best'] == pytest.approx(90 / 22)
    assert sm['goals'] == dict(tok_per_s_85k=True, speedup_3_5x=True, peak_30gib=True)
    (tmp_path/'h.json').write_text(json.dumps(dict(command='c', machine='NVIDIA H200', tiny=False, rows=rows, summary=sm)))
    said = bench['summary_sentence'](tmp_path/'h.json')
    assert '90,000 real tokens/s (goal 85,000: met)' in said and "4.09x TRL's best row, trl_dpo_b64 (goal 3.5x: met)" in said
    missed = dict(sm, azllm_dpo_tok_per_s=80_000.0, goals=dict(sm['goals'], tok_per_s_85k=False))
    (tmp_path/'h.json').write_text(json.dumps(dict(command='c', machine='NVIDIA H200', tiny=False, rows=rows, summary=missed)))
    assert '80,000 real tokens/s (goal 85,000: missed)' in bench['summary_sentence'](tmp_path/'h.json')
    assert bench['summary_sentence'](tmp_path/'none.json') == ''
    # the seeds' noise: the shipped row against the unfused path, measured by seed 1's distance from it
    near = dict(rows, azllm_dpo_unfused=dict(row, losses=[0.69, 0.61], reward_accuracy=[0.5, 0.82]),
                azllm_dpo_seed1=dict(row, losses=[0.69, 0.58], reward_accuracy=[0.45, 0.8]))
    far = dict(near, azllm_dpo_unfused=dict(row, losses=[0.69, 0.61], reward_accuracy=[0.7, 0.9]))
    assert bench['summarize'](near)['noise_goals'] == dict(losses=True, reward_accuracy=True)
    assert bench['summarize'](far)['noise_goals'] == dict(losses=True, reward_accuracy=False)
    (tmp_path/'h.json').write_text(json.dumps(dict(command='c', machine='NVIDIA H200', tiny=False, rows=far, summary=bench['summarize'](far))))
    said = bench['summary_sentence'](tmp_path/'h.json')
    assert 'seeds 0, 1 of the shipped recipe against 0 of the unfused one' in said
    assert 'logged steps: 0.637 against 0.800 (difference -0.163, 2 SE 0.043: outside the seeds\' noise)' in said
    # re-scored in fp32: judged apart from the logged accuracy, and only when every seed's row carries it
    rs = lambda tr, va: dict(train=dict(reward_accuracy=tr), valid=dict(reward_accuracy=va))
    scored = dict(far, azllm_dpo=dict(far['azllm_dpo'], rescored=rs(0.90, 0.85)), azllm_dpo_seed1=dict(far['azllm_dpo_seed1'], rescored=rs(0.92, 0.86)),
                  azllm_dpo_unfused=dict(far['azllm_dpo_unfused'], rescored=rs(0.91, 0.84)))
    sm = bench['summarize'](scored)
    assert sm['noise_goals'] == dict(losses=True, reward_accuracy=False, rescored_reward_accuracy=True)
    assert sm['reward_accuracy']['rescored_valid']['diff'] == pytest.approx(0.015)
    assert 'rescored_train' not in bench['summarize'](dict(scored, azllm_dpo_seed1=far['azllm_dpo_seed1']))['reward_accuracy']
    better = dict(scored, azllm_dpo=dict(scored['azllm_dpo'], rescored=rs(0.99, 0.85)), azllm_dpo_seed1=dict(scored['azllm_dpo_seed1'], rescored=rs(0.98, 0.86)))
    assert bench['summarize'](better)['noise_goals']['rescored_reward_accuracy'] is False
    (tmp_path/'h.json').write_text(json.dumps(dict(command='c', machine='NVIDIA H100', tiny=False, rows=scored, summary=sm)))
    said, t = bench['summary_sentence'](tmp_path/'h.json'), bench['markdown_table'](tmp_path/'h.json')
    assert 'on the held-out pairs: 0.855 against 0.840 (difference +0.015' in said and 'within the seeds\' noise' in said
    assert 're-scored fp32: train, held-out |' in t and '| 0.650, 0.80 | 0.900, 0.850 |' in t and '| 0.650, 0.80 | — |' in t


def test_validation_scores_a_float8_base_in_its_bf16_weights(tmp_path, toks):
    """precision: fp8 stores the frozen weights in float8, whose rounding noise outweighs the small policy-reference margins
    the reward accuracy takes the sign of. Validation and the held-out reference score inside `frozen_exact` (the bf16 weights
    the layers keep): the same metrics as a bf16 base, where the float8 path gives others; the cache key tells the two apart."""
    import copy
    import numpy as np
    from azllm.dpo import preference_metrics, reference_logps, reference_key
    from azllm.lora_kernels import frozen_to_float8
    from azllm.runtime import Runtime
    tok = toks['custom']
    exs, _ = encode_pairs(read_pairs(DATA/'dpo'/'valid.jsonl')[:8], tok, 512)
    pack_rows(exs, 512, tmp_path/'v')
    m = nudged_peft(tok).eval()
    f8, b16 = copy.deepcopy(m), copy.deepcopy(m)
    names = frozen_to_float8(f8, rowwise=True, pays=lambda mod, n: '.layers.' in f'.{n}')
    assert names
    for n in names: b16.get_base_model().get_submodule(n).weight.data = b16.get_base_model().get_submodule(n).weight.data.to(torch.bfloat16)
    def scored(model, exact):
        data = PackedPairs(tmp_path/'v', tok.pad_token_id)
        assert len(data) >= 2                                   # several batches: each enters the scoring context afresh
        data.attach_reference(reference_logps(model, data, Runtime(), micro_batch=1, bf16=True, exact=exact))
        return preference_metrics(model, data, Runtime(), micro_batch=1, bf16=True, exact=exact)
    want, got, noisy = scored(b16, False), scored(f8, True), scored(f8, False)
    for k in ('val_loss', 'val_reward_margin', 'val_rewards_chosen'):
        assert got[k] == pytest.approx(want[k], rel=1e-4, abs=1e-6), k
    assert abs(noisy['val_reward_margin'] - want['val_reward_margin']) > 1e-3 * abs(want['val_reward_margin'])   # the float8 path differs
    assert not any(mod.fp8_exact for mod in f8.modules() if hasattr(mod, 'fp8_weight'))                         # and is back after
    cfg = DPORun(output_dir=str(tmp_path/'o'), model='m', train_data=['x.jsonl'])
    (tmp_path/'m').mkdir(); (tmp_path/'m'/'config.json').write_text('{}')
    assert reference_key(cfg, str(tmp_path/'m'), tmp_path/'v', exact=True) != reference_key(cfg, str(tmp_path/'m'), tmp_path/'v')
