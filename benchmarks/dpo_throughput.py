"""DPO and KTO throughput on one GPU: azllm's preference stage (the shipped 1B recipe) against TRL's DPOTrainer and KTOTrainer + peft.

    python benchmarks/dpo_throughput.py [--rows ...] [--steps 30] [--out benchmarks/results/dpo_throughput_h200.json]
    python benchmarks/dpo_throughput.py --tiny       # CPU smoke run at a tiny shape -> benchmarks/results/dpo_throughput_cpu_tiny.json

Every row trains LoRA (r=16, alpha=32, dropout 0, the 7 projections) on the same merged model, saved once in --model-dir
(the Llama 3.2 1B shape, random init, the Llama 3 tokenizer; --model-dir pointing at a real merged SFT model is used as is),
with the same pairs, data_samples/dpo/train.jsonl (KTO rows: data_samples/kto/train.jsonl, the same pairs split into
desirable and undesirable examples). Each row runs in its own process:
- azllm_dpo: the real command, `python -m azllm.cli train configs/dpo_llama-3.2-1b.yml` as shipped (float8 frozen base,
  fused LoRA kernels, compiled layers, flex attention, the chunked head, the cached reference), figures from its log.jsonl;
- azllm_dpo_unfused: the same without the DPO speed levers: full logits (head_chunk null), the reference in every
  step (reference forward), bf16 (precision auto), no LoRA kernels, micro-batch 4 x 2;
- azllm_dpo_seed1: azllm_dpo with seed 1 (the scale of a seed's change of the losses and reward accuracy); any azllm row
  takes a `_seedN` suffix the same way (azllm_dpo_seed2, azllm_dpo_unfused_seed1): with several seeds of the shipped and the
  unfused recipe the summary judges their difference against the seeds' own spread;
- azllm_dpo_mb4: azllm_dpo at micro-batch 4 x 2 (the same rows a step, half the activations);
- azllm_kto: the shipped recipe with loss_type kto on the unpaired examples;
- azllm_dpo_bf16, azllm_dpo_forward_ref, azllm_dpo_nokernels: azllm_dpo with one lever undone (bf16 base; the reference
  in every step; no fused LoRA kernels), to tell which one moves the reward accuracy away from the unfused path's;
- trl_dpo_bN: TRL DPOTrainer + peft (reference = adapter disabled), batch N pairs, bf16, max_length 2048 (each sequence
  cut at seq_len // 2 = 1024 by us; no pair here is that long); trl_dpo_liger_bN: the same with use_liger_kernel;
- trl_kto_bN: TRL KTOTrainer + peft, batch N examples.
Real (non-pad) tokens per second: every token a forward pass reads (both replies with their prompts; KTO: its sequences and
the mismatched KL sequences, which both trainers run), median over the steps after --skip (compilation, warm-up). Peak
memory: torch.cuda.max_memory_allocated. Loss and reward accuracy per step are kept in each row (`losses`, `reward_accuracy`).
With --validate each azllm row also scores the held-out pairs at its last step, as a run with valid_data does (`val_*`):
with precision fp8 validation computes in the bf16 weights the float8 layers keep (`frozen_exact`), so its reward accuracy
lacks the float8 rounding noise the per-step `reward_accuracy` carries. With --rescore each DPO row's final adapter is
scored again in fp32 (a bf16-free check of what the adapter learned, outside azllm's engine).
"""
import argparse, json, os, shutil, statistics, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAIRS, UNPAIRED = ROOT/'data_samples/dpo/train.jsonl', ROOT/'data_samples/kto/train.jsonl'
CFG = ROOT/'configs/dpo_llama-3.2-1b.yml'
N_1B, PEAK_FLOPS = 1.236e9, 790e12

# each azllm row: keys changed from the shipped config (so a change of the config does not change what a row means)
AZLLM_ROWS = {
    'azllm_dpo': dict(),
    'azllm_dpo_unfused': dict(head_chunk=None, reference='forward', precision='auto', lora_kernels=False, micro_batch=4, grad_accum=2),
    'azllm_dpo_seed1': dict(seed=1),
    'azllm_dpo_mb4': dict(micro_batch=4, grad_accum=2),          # the same 8 rows a step in two halves: less memory if mb 8 passes 30 GiB
    'azllm_kto': dict(loss_type='kto', train_data=str(UNPAIRED)),
    'azllm_dpo_bf16': dict(precision='auto'),                   # which lever moves the reward accuracy: the float8 base ...
    'azllm_dpo_forward_ref': dict(reference='forward'),         # ... or the cached reference
    'azllm_dpo_nokernels': dict(lora_kernels=False),            # ... or the fused LoRA kernels
}

def azllm_keys(row:str) -> dict|None:
    "The config keys of an azllm row: one of AZLLM_ROWS, or one of them + `_seedN` (None: not an azllm row)."
    if row in AZLLM_ROWS: return AZLLM_ROWS[row]
    base, _, n = row.rpartition('_seed')
    return {**AZLLM_ROWS[base], 'seed': int(n)} if base in AZLLM_ROWS and n.isdigit() else None

TRL_KINDS = ('trl_dpo', 'trl_dpo_liger', 'trl_kto')
DEFAULT_ROWS = 'azllm_dpo,azllm_kto,azllm_dpo_unfused,trl_dpo_b64,trl_dpo_liger_b64,trl_kto_b64'
TINY = dict(preset='llama-tiny', steps=4, skip=1, seq_len=1024, pairs=16, batch=4)


def make_model(model_dir:Path, preset:str):
    "The merged model every row starts from: a preset's shape, random init (seed 0), and the Llama 3 tokenizer, saved once."
    if (model_dir/'config.json').exists(): return
    from azllm.tokenizer import load_tokenizer
    from azllm.model import load_model
    tok = load_tokenizer()
    m = load_model(f'preset:{preset}', tok, seed=0)
    tmp = model_dir.with_name(model_dir.name + '.tmp'); shutil.rmtree(tmp, ignore_errors=True)
    m.save_pretrained(tmp); tok.save_pretrained(tmp); os.replace(tmp, model_dir)


def subset(src:Path, n:int|None, dst:Path) -> Path:
    "The first `n` lines of `src` (all: `src` itself)."
    if not n: return src
    dst.write_text(''.join(src.read_text(encoding='utf-8').splitlines(keepends=True)[:n]), encoding='utf-8'); return dst


def row_azllm(row:str, a) -> dict:
    "The real command on the shipped DPO config with the row's keys; figures from its log.jsonl."
    import yaml
    from azllm.rundir import read_log
    keys = dict(azllm_keys(row))
    out = Path(a.work)/f'bench-{row}'
    shutil.rmtree(out, ignore_errors=True)                          # ours, from an earlier run of this script: a fresh run (and reference pass)
    data = Path(keys.pop('train_data', PAIRS))
    n = a.pairs and 2 * a.pairs if data == UNPAIRED else a.pairs
    valid = str(subset(data.with_name('valid.jsonl'), n, Path(a.work)/f'{row}.valid.jsonl')) if a.validate else None   # scored once, at the last step
    over = dict(output_dir=str(out), model=str(a.model_dir), tokenizer=None, train_data=str(subset(data, n, Path(a.work)/f'{row}.jsonl')),
                valid_data=valid, max_steps=a.steps, warmup_steps=2, log_every=1, save_every=10 * a.steps, eval_every=0, tensorboard=False,
                epochs=None, **keys)
    if a.tiny: over.update(precision='auto', attn_implementation='sdpa', seq_len=a.seq_len, micro_batch=2, grad_accum=1)   # CPU: no float8, no flex
    cfg = {**yaml.safe_load(CFG.read_text()), **over}
    run_cfg = Path(a.work)/f'bench-{row}.yml'; run_cfg.write_text(yaml.safe_dump(cfg))
    t0 = time.time()
    p = subprocess.run([sys.executable, '-m', 'azllm.cli', 'train', str(run_cfg)], capture_output=True, text=True, timeout=a.timeout)
    full = read_log(out) if (out/'log.jsonl').exists() else []
    log, val = [r for r in full if 'loss' in r], [r for r in full if 'val_loss' in r]
    if not log: return dict(error=(p.stderr.strip().splitlines() or ['no output'])[-1][:400], stderr_tail=p.stderr[-3000:])
    rates = [r['tok_per_s'] for r in log if r['step'] > a.skip] or [r['tok_per_s'] for r in log]
    tok_s = statistics.median(rates)
    res = dict(tok_per_s=tok_s, peak_gib=max(r['peak_mem_gib'] for r in log), steps_logged=len(log), process_s=time.time() - t0,
               real_tokens_per_step=log[-1]['tokens'] / log[-1]['step'] if log[-1].get('tokens') else None,
               share_of_lora_limit=tok_s * 4 * N_1B / PEAK_FLOPS if not a.tiny else None,
               command=f"azllm train {CFG.relative_to(ROOT)} " + ' '.join(f'{k}={v}' for k, v in azllm_keys(row).items()),
               overrides=azllm_keys(row), losses=[r['loss'] for r in log],
               reward_accuracy=[r.get('reward_accuracy') for r in log], kl=[r['kl'] for r in log if 'kl' in r] or None)
    if val: res.update({k: v for k, v in val[-1].items() if k.startswith('val_')}, val_step=val[-1]['step'])
    if (out/'summary.json').exists():
        sm = json.loads((out/'summary.json').read_text())
        res.update({k: sm.get(k) for k in ('liger', 'compiled', 'lora_kernels', 'fp8_layers', 'batch', 'trainable')})
    if p.returncode: res['error_after_training'] = (p.stderr.strip().splitlines() or [''])[-1][:400]
    return res


def rescore(run:Path, a) -> dict:
    "Reward accuracy and mean margin of `run`'s final adapter on the training and held-out pairs, in fp32 (see the docstring's --rescore)."
    import tempfile, torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from azllm.dpo import encode_pairs, read_pairs, PackedPairs, dpo_loss
    from azllm.packing import pack_rows
    dev = 'cuda' if torch.cuda.is_available() else 'cpu'
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = False
    tok = AutoTokenizer.from_pretrained(a.model_dir)
    base = AutoModelForCausalLM.from_pretrained(a.model_dir, dtype=torch.float32, attn_implementation='sdpa').to(dev)
    model = PeftModel.from_pretrained(base, run/'final').eval()
    out = {}
    with tempfile.TemporaryDirectory() as d, torch.no_grad():
        for split, src in (('train', PAIRS), ('valid', PAIRS.with_name('valid.jsonl'))):
            pairs = read_pairs(src)[:a.pairs] if a.pairs else read_pairs(src)
            exs, _ = encode_pairs(pairs, tok, a.seq_len)
            pack_rows(exs, a.seq_len, Path(d)/split)
            data, acc, margin, n = PackedPairs(Path(d)/split, tok.pad_token_id), 0.0, 0.0, 0
            for i in range(len(data)):
                b = {k: v.to(dev) for k, v in data.batch([i]).items()}
                _, sums = dpo_loss(model, b, 1, chunk=None)
                acc += float(sums['reward_accuracy']); margin += float(sums['reward_margin']); n += data.count([i])
            out[split] = dict(pairs=n, reward_accuracy=acc / n, reward_margin=margin / n)
    del model, base; torch.cuda.empty_cache() if dev == 'cuda' else None
    return out


def row_trl(row:str, a) -> dict:
    "trl_dpo_bN, trl_dpo_liger_bN or trl_kto_bN, in this process (a child of the main one)."
    import torch
    from datasets import Dataset
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback
    kind, bs = row.rsplit('_b', 1)
    bs = int(bs)
    cuda = torch.cuda.is_available()
    tok = AutoTokenizer.from_pretrained(a.model_dir)
    model = AutoModelForCausalLM.from_pretrained(a.model_dir, dtype=torch.float32, attn_implementation='sdpa')
    model.config.use_cache = False
    src = UNPAIRED if kind == 'trl_kto' else PAIRS
    rows = [json.loads(l) for l in subset(src, a.pairs and (2 * a.pairs if kind == 'trl_kto' else a.pairs), Path(a.work)/f'{row}.jsonl').read_text(encoding='utf-8').splitlines() if l.strip()]
    keep = ('prompt', 'completion', 'label') if kind == 'trl_kto' else ('prompt', 'chosen', 'rejected')
    ds = Dataset.from_list([{k: r[k] for k in keep} for r in rows])
    lora = LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0, task_type='CAUSAL_LM',
                      target_modules=['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'])
    counts, times = [], []
    class Clock(TrainerCallback):
        def on_step_end(self, args, state, control, **kw):
            if cuda: torch.cuda.synchronize()
            times.append(time.perf_counter())
    common = dict(output_dir=str(Path(a.work)/f'bench-{row}'), max_steps=a.steps, per_device_train_batch_size=bs, learning_rate=5e-6,
                  beta=0.1, logging_steps=1, save_strategy='no', report_to='none', disable_tqdm=True, seed=0, warmup_steps=2,
                  gradient_checkpointing=False, bf16=cuda, use_cpu=not cuda, dataset_num_proc=None, max_length=a.seq_len // 2,
                  use_liger_kernel=kind == 'trl_dpo_liger')
    if kind == 'trl_kto':
        from trl import KTOConfig, KTOTrainer
        tr = KTOTrainer(model=model, args=KTOConfig(**common), train_dataset=ds, processing_class=tok, peft_config=lora, callbacks=[Clock()])
    else:
        from trl import DPOConfig, DPOTrainer
        tr = DPOTrainer(model=model, args=DPOConfig(loss_type=['sigmoid'], **common), train_dataset=ds, processing_class=tok,
                        peft_config=lora, callbacks=[Clock()])
    collate = tr.data_collator
    def counting(batch_rows):
        b = collate(batch_rows)
        n = 0
        for ids, mask in (('input_ids', 'attention_mask'), ('KL_input_ids', 'KL_attention_mask')):     # KTO: its KL pass reads tokens too
            if ids in b: n += int(b[mask].sum()) if mask in b else int((b[ids] != tok.pad_token_id).sum())
        counts.append(n)
        return b
    tr.data_collator = counting
    if cuda: torch.cuda.reset_peak_memory_stats()
    t0 = time.perf_counter()
    tr.train()
    per = [c / (t1 - t) for t, t1, c in zip([t0] + times[:-1], times, counts)]
    hist = [h for h in tr.state.log_history if 'loss' in h]
    acc_key = 'rewards/accuracies'
    return dict(tok_per_s=statistics.median(per[a.skip:] or per), peak_gib=torch.cuda.max_memory_allocated() / 2**30 if cuda else None,
                step_tok_per_s=per, batch=bs, real_tokens_per_step=statistics.mean(counts[:len(times)]), steps_logged=len(hist),
                losses=[h['loss'] for h in hist], reward_accuracy=[h.get(acc_key) for h in hist],
                kl=[h['kl'] for h in hist if 'kl' in h] or None,
                settings=f"TRL {kind[4:]} + peft LoRA r16 alpha 32 dropout 0 on the 7 projections, batch {bs}, lr 5e-6, beta 0.1, "
                         f"sdpa, {'bf16' if cuda else 'fp32 (CPU)'}" + (', use_liger_kernel' if kind == 'trl_dpo_liger' else ''))


def seed_groups(rows:dict) -> dict:
    "{recipe: {seed: row}} for the shipped (azllm_dpo) and the unfused recipe: a row without `_seedN` is seed 0."
    g = {'azllm_dpo': {}, 'azllm_dpo_unfused': {}}
    for k, r in rows.items():
        base, _, n = k.rpartition('_seed')
        if k in g: g[k][0] = r
        elif base in g and n.isdigit(): g[base][int(n)] = r
    return g


def seed_noise(g:dict) -> dict:
    """The shipped recipe against the unfused one, judged by the seeds' own spread. Losses: the largest step-by-step
    difference between the two recipes at the same seed (same data order) against the largest between two seeds of one
    recipe. Reward accuracy (the mean logged over the steps, and re-scored in fp32 where rows carry it): the difference
    of the recipes' means within 2 standard errors, the standard error from the seeds' pooled variance."""
    s, u = g['azllm_dpo'], g['azllm_dpo_unfused']
    d = lambda x, y: max(abs(p - q) for p, q in zip(x['losses'], y['losses']))
    pairs = [(r[i], r[j]) for r in (s, u) for i in r for j in r if i < j]
    out = dict(seeds=dict(azllm_dpo=sorted(s), azllm_dpo_unfused=sorted(u)),
               max_loss_diff_vs_unfused=max(d(s[i], u[i]) for i in s if i in u) if set(s) & set(u) else None,
               max_loss_diff_seed=max(d(x, y) for x, y in pairs))
    logged = lambda r: statistics.mean(x for x in r['reward_accuracy'] if x is not None)
    metrics = {'logged': logged}
    if all('val_reward_accuracy' in r for r in (*s.values(), *u.values())): metrics['validated'] = lambda r: r['val_reward_accuracy']
    if all('rescored' in r for r in (*s.values(), *u.values())):
        metrics.update(rescored_train=lambda r: r['rescored']['train']['reward_accuracy'], rescored_valid=lambda r: r['rescored']['valid']['reward_accuracy'])
    acc = out['reward_accuracy'] = {}
    for name, f in metrics.items():
        a, b = [f(r) for r in s.values()], [f(r) for r in u.values()]
        ss = sum((x - statistics.mean(v)) ** 2 for v in (a, b) for x in v)
        se = (ss / (len(a) + len(b) - 2) * (1 / len(a) + 1 / len(b))) ** 0.5
        acc[name] = dict(azllm_dpo=a, azllm_dpo_unfused=b, diff=statistics.mean(a) - statistics.mean(b), two_se=2 * se,
                         within=abs(statistics.mean(a) - statistics.mean(b)) <= 2 * se)
    out['mean_reward_accuracy'] = {k: logged(r) for k, r in (('azllm_dpo', s[min(s)]), ('azllm_dpo_unfused', u[min(u)]))}
    out['noise_goals'] = dict(losses=out['max_loss_diff_vs_unfused'] is not None and out['max_loss_diff_vs_unfused'] <= out['max_loss_diff_seed'],
                              reward_accuracy=acc['logged']['within'],
                              **({'validated_reward_accuracy': acc['validated']['within']} if 'validated' in acc else {}),
                              **({'rescored_reward_accuracy': acc['rescored_train']['within'] and acc['rescored_valid']['within']} if 'rescored_train' in acc else {}))
    return out


def summarize(rows:dict, tiny:bool=False) -> dict:
    "The headline figures: the shipped row against TRL's best DPO row, and (not at the tiny shape) the DPO speed goals."
    ok = {k: r for k, r in rows.items() if 'error' not in r and r.get('tok_per_s')}
    trl = {k: r for k, r in ok.items() if k.startswith('trl_dpo')}
    out = {}
    if 'azllm_dpo' in ok:
        s = ok['azllm_dpo']
        out.update(azllm_dpo_tok_per_s=s['tok_per_s'], azllm_dpo_peak_gib=s['peak_gib'])
        if trl:
            best = max(trl, key=lambda k: trl[k]['tok_per_s'])
            out.update(trl_best_row=best, trl_best_tok_per_s=trl[best]['tok_per_s'], speedup_over_trl_best=s['tok_per_s'] / trl[best]['tok_per_s'])
        if 'azllm_dpo_unfused' in ok: out['speedup_over_unfused'] = s['tok_per_s'] / ok['azllm_dpo_unfused']['tok_per_s']
        if (g := seed_groups(ok)) and len(g['azllm_dpo']) >= 2 and g['azllm_dpo_unfused']:
            out.update(seed_noise(g))
        if not tiny: out['goals'] = dict(tok_per_s_85k=s['tok_per_s'] >= 85_000, speedup_3_5x=out.get('speedup_over_trl_best', 0) >= 3.5,
                            peak_30gib=(s['peak_gib'] or 0) <= 30)
    if 'azllm_kto' in ok and (kto := {k: r for k, r in ok.items() if k.startswith('trl_kto')}):
        best = max(kto, key=lambda k: kto[k]['tok_per_s'])
        out.update(azllm_kto_tok_per_s=ok['azllm_kto']['tok_per_s'], trl_kto_best_row=best, kto_speedup=ok['azllm_kto']['tok_per_s'] / kto[best]['tok_per_s'])
    return out


def markdown_table(path:str|Path) -> str:
    "The results file as a Markdown table (what the docs pages show); '' when the file does not exist."
    path = Path(path)
    if not path.exists(): return ''
    res = json.loads(path.read_text())
    label = 'CPU smoke run at a tiny shape: checks the script, not a throughput figure' if res.get('tiny') else res.get('machine', '')
    resc, vald = (any(k in r for r in res['rows'].values()) for k in ('rescored', 'val_reward_accuracy'))
    extra = int(vald) + int(resc)
    head = ('| row | real tok/s | peak GiB | batch | steps | last loss | reward accuracy: mean, last |' + (' validation (held-out) |' if vald else '')
            + (' re-scored fp32: train, held-out |' if resc else ''))
    lines = [f"*{label}* — `{res['command']}`" + (f". {res['note']}" if res.get('note') else ''), '', head, '|---|---:|---:|---|---:|---:|---:|' + '---:|' * extra]
    for k, r in res['rows'].items():
        if 'error' in r: lines.append(f"| {k} | failed: {r['error'][:80]} | | | | | |" + ' |' * extra); continue
        acc = [x for x in (r.get('reward_accuracy') or []) if x is not None]
        peak = f"{r['peak_gib']:.1f}" if r.get('peak_gib') is not None else '—'
        b = r.get('batch'); b = f"{b['micro_batch']} x {b['grad_accum']}" if isinstance(b, dict) else b
        steps = r.get('steps', res.get('steps'))
        line = f"| {k} | {r['tok_per_s']:,.0f} | {peak} | {b} | {steps} | {r['losses'][-1]:.4f} | " + (f"{statistics.mean(acc):.3f}, {acc[-1]:.2f} |" if acc else '— |')
        if vald: line += f" {r['val_reward_accuracy']:.3f} |" if r.get('val_reward_accuracy') is not None else ' — |'
        if resc: line += (f" {r['rescored']['train']['reward_accuracy']:.3f}, {r['rescored']['valid']['reward_accuracy']:.3f} |" if 'rescored' in r else ' — |')
        lines.append(line)
    return '\n'.join(lines)


def summary_sentence(path:str|Path) -> str:
    "The file's summary against the DPO speed goals, in one sentence ('' when the file or its summary is missing, or at the tiny shape)."
    path = Path(path)
    if not path.exists(): return ''
    res = json.loads(path.read_text()); s = res.get('summary', {})
    if res.get('tiny') or 'azllm_dpo_tok_per_s' not in s: return ''
    g = s.get('goals', {})
    met = lambda ok: 'met' if ok else 'missed'
    out = (f"The shipped DPO recipe: {s['azllm_dpo_tok_per_s']:,.0f} real tokens/s (goal 85,000: {met(g.get('tok_per_s_85k'))}), "
           f"peak {s['azllm_dpo_peak_gib']:.1f} GiB (goal 30: {met(g.get('peak_30gib'))})")
    if 'trl_best_row' in s: out += f", {s['speedup_over_trl_best']:.2f}x TRL's best row, {s['trl_best_row']} (goal 3.5x: {met(g.get('speedup_3_5x'))})"
    if 'speedup_over_unfused' in s: out += f", {s['speedup_over_unfused']:.2f}x the unfused path"
    if 'max_loss_diff_seed' in s:
        ng, sd = s.get('noise_goals', {}), s.get('seeds', {})
        if sd: out += f"; seeds {', '.join(map(str, sd['azllm_dpo']))} of the shipped recipe against {', '.join(map(str, sd['azllm_dpo_unfused']))} of the unfused one"
        out += (f"; the losses differ from the unfused path's by at most {s['max_loss_diff_vs_unfused']:.3f}, two seeds of one recipe by up to "
                f"{s['max_loss_diff_seed']:.3f}" + (f" (within the seeds' noise: {met(ng['losses'])})" if ng else ''))
        names = dict(logged='mean reward accuracy over the logged steps', validated="the run's own validation on the held-out pairs (val_reward_accuracy)", rescored_train='re-scored in fp32 on the training pairs',
                     rescored_valid='on the held-out pairs')
        for k, r in s.get('reward_accuracy', {}).items():
            out += (f"; {names[k]}: {statistics.mean(r['azllm_dpo']):.3f} against {statistics.mean(r['azllm_dpo_unfused']):.3f} "
                    f"(difference {r['diff']:+.3f}, 2 SE {r['two_se']:.3f}: {'within' if r['within'] else 'outside'} the seeds' noise)")
    if 'kto_speedup' in s: out += f". KTO: {s['azllm_kto_tok_per_s']:,.0f} real tokens/s, {s['kto_speedup']:.2f}x {s['trl_kto_best_row']}"
    return out + '.'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--rows', default=DEFAULT_ROWS, help=f"comma-separated: {', '.join(AZLLM_ROWS)} (each also as ROW_seedN), trl_dpo_bN, trl_dpo_liger_bN, trl_kto_bN; rows not run are kept from --out")
    ap.add_argument('--steps', type=int, default=30)
    ap.add_argument('--skip', type=int, default=10, help='steps excluded from the median (compilation, warm-up)')
    ap.add_argument('--tiny', action='store_true', help='CPU smoke run: tiny model, 4 steps, 16 pairs, batch 4')
    ap.add_argument('--model-dir', help='the merged model every row trains (made from the preset when it does not exist)')
    ap.add_argument('--work', default='/tmp/dpo-bench', help='run directories and row configs')
    ap.add_argument('--timeout', type=int, default=400, help='seconds one row may take')
    ap.add_argument('--validate', action='store_true', help="azllm rows score the held-out pairs at their last step, as a run with valid_data does (val_reward_accuracy)")
    ap.add_argument('--rescore', action='store_true', help="score each DPO row's final adapter again in fp32 on the training and held-out pairs")
    ap.add_argument('--out')
    ap.add_argument('--row', help=argparse.SUPPRESS)
    a = ap.parse_args()
    a.preset, a.seq_len, a.pairs = 'llama-3.2-1b', 2048, None
    if a.tiny:
        a.preset, a.steps, a.skip, a.seq_len, a.pairs = TINY['preset'], TINY['steps'], TINY['skip'], TINY['seq_len'], TINY['pairs']
        a.rows = a.rows if a.rows != DEFAULT_ROWS else f"azllm_dpo,azllm_dpo_unfused,azllm_kto,trl_dpo_b{TINY['batch']},trl_kto_b{TINY['batch']}"
    a.out = a.out or str(ROOT/'benchmarks/results'/('dpo_throughput_cpu_tiny.json' if a.tiny else 'dpo_throughput_h200.json'))
    Path(a.work).mkdir(parents=True, exist_ok=True)
    a.model_dir = a.model_dir or str(Path(a.work)/f'merged-{a.preset}')
    if a.row:                                                # child process: one TRL row, JSON on the last line
        print(json.dumps(row_trl(a.row, a))); return
    make_model(Path(a.model_dir), a.preset)
    import torch, transformers, peft
    old = json.loads(Path(a.out).read_text()) if Path(a.out).exists() else {}
    res = dict(command='python benchmarks/dpo_throughput.py ' + ' '.join(sys.argv[1:]), tiny=a.tiny,
               machine=torch.cuda.get_device_name() if torch.cuda.is_available() else 'cpu',
               versions={m.__name__: m.__version__ for m in (torch, transformers, peft)}, model=a.preset, steps=a.steps, skip=a.skip,
               rows=dict(old.get('rows', {})))
    for mod in ('trl', 'liger_kernel'):
        try: res['versions'][mod] = getattr(__import__(mod), '__version__', 'installed')
        except ImportError: pass
    for row in a.rows.split(','):
        t0 = time.time()
        try:
            if azllm_keys(row) is not None: r = row_azllm(row, a)
            else:
                if not row.rsplit('_b', 1)[0] in TRL_KINDS: raise SystemExit(f"unknown row {row!r}; rows: {', '.join(AZLLM_ROWS)}, trl_dpo_bN, trl_dpo_liger_bN, trl_kto_bN")
                argv = [sys.executable, __file__, '--row', row, '--steps', str(a.steps), '--skip', str(a.skip), '--work', a.work,
                        '--model-dir', a.model_dir] + (['--tiny'] if a.tiny else [])
                p = subprocess.run(argv, capture_output=True, text=True, timeout=a.timeout)
                r = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else dict(error=(p.stderr.strip().splitlines() or [''])[-1][:400], stderr_tail=p.stderr[-3000:])
        except subprocess.TimeoutExpired: r = dict(error=f'timed out after {a.timeout} s')
        r['wall_s'], r['steps'], r['skip'] = time.time() - t0, a.steps, a.skip     # a row's own steps: rows kept from --out may have run fewer
        run = Path(a.work)/f'bench-{row}'
        if a.rescore and azllm_keys(row) is not None and 'kto' not in row and (run/'final'/'adapter_config.json').exists():
            t1 = time.time(); r['rescored'] = rescore(run, a); r['rescore_s'] = time.time() - t1
        res['rows'][row] = r
        print(row, json.dumps({k: v for k, v in r.items() if k not in ('losses', 'reward_accuracy', 'kl', 'stderr_tail')})[:600], flush=True)
        res['summary'] = summarize(res['rows'], a.tiny)
        Path(a.out).write_text(json.dumps(res, indent=1) + '\n')      # after every row: a run cut short keeps what it measured
    print(json.dumps(res['summary'], indent=1))


if __name__ == '__main__':
    main()
