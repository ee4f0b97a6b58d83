"""LoRA SFT throughput on one GPU: azllm's SFT on the shared engine (unfused, fused LoRA kernels, QLoRA on the 8B shape) against TRL and plain peft + transformers.

    python benchmarks/sft_throughput.py [--rows ...] [--steps 40] [--out benchmarks/results/sft_throughput_h200.json]
    python benchmarks/sft_throughput.py --summarize      # recompute the summary from the rows (no GPU), e.g. after the shipped config changed

The 1B rows train LoRA (r=16, alpha=32, q/k/v/o/gate/up/down) on the Llama 3.2 1B shape (random init, the Llama 3
tokenizer, 128,256 tokens) with the telecom conversations of data_samples/sft/train.jsonl, bf16 autocast, loss on the
assistant tokens:
- peft_trainer: `transformers.Trainer` + peft, conversations padded to the longest of their batch (batch size chosen
  so a step holds about as many real tokens as 8 packed rows of 2048), dropout 0.05;
- trl_liger: TRL `SFTTrainer`, `assistant_only_loss`, padding-free packing into rows of 2048, `use_liger_kernel=True`;
- azllm rows: the real command, `python -m azllm.cli train <config>`, on configs/sft_llama-3.2-1b.yml (packed rows of
  2048, flex attention, Liger fused cross-entropy and compiled decoder layers on a GPU, frozen weights in bf16) with the
  preset model and the keys each row names (`overrides` in the results: dropout, lora_kernels, micro_batch, precision);
  read back from log.jsonl: azllm (sdpa, dropout 0.05), azllm_flex (dropout 0.05), azllm_dropout0, azllm_lora_kernels,
  azllm_dropout0_mb16, azllm_lora_kernels_mb16, azllm_fp8_mb16 (precision fp8: the frozen base in float8, cast once;
  tensorwise scales), azllm_fp8_rowwise_mb16 and azllm_fp8_rowwise_kernels_mb16 (rowwise scales; the second with
  lora_kernels, which then fuse q/k/v and o and leave the float8 MLP to peft), azllm_dropout0_mb16_seed1 (seed 1: the
  scale of a seed's change of the losses); `summary.shipped_1b_row` names the row whose settings are the config's as shipped;
- azllm_qlora: configs/sft_llama-3.1-8b_24gb.yml as shipped (the 8B shape, NF4 base, 8-bit AdamW, checkpointing), and
  trl_qlora: TRL + peft QLoRA at the same settings on the same NF4 base (sdpa attention; `settings` in the row);
- lora_kernels_check: `verify_lora_kernels` (fused vs peft in bf16, both against peft in fp32) on this GPU;
- fp8_check: `frozen_to_float8` on one layer of the 1B MLP's widths, tensorwise and rowwise, against fp32 (bf16 beside it);
- fusion_by_group: forward + backward of the 1B shape's decoder layers (no head, eager, sdpa, mb 8 x 2048), with no
  group, each group alone, and all groups fused.
Rows with `_v1` were made with the first fused kernels, `_fp32_frozen` before frozen weights were kept in bf16 (each
row's `note`). Each row runs in its own process. Real (non-pad) tokens per second, median over the steps after `--skip`
(compilation and warm-up excluded). Peak memory is `torch.cuda.max_memory_allocated`. `share_of_lora_limit`: tokens/s x
4N FLOPs (LoRA: no weight gradients for the frozen base) over the H200's measured dense bf16 rate, 790 TFLOP/s.
Where the time of a step goes: benchmarks/sft_profile.py.
"""
import argparse, json, statistics, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT/'data_samples/sft/train.jsonl'


def _clock():
    import torch
    from transformers import TrainerCallback
    class Clock(TrainerCallback):
        def __init__(self): self.t = []
        def on_step_end(self, args, state, control, **kw): torch.cuda.synchronize(); self.t.append(time.perf_counter())
    return Clock()


def _rate(times, counts, skip, k=1):
    "Median tokens/s over optimizer steps after `skip`: step i's tokens are the counts of its `k` micro-batches."
    per_step = [sum(counts[i * k:(i + 1) * k]) for i in range(len(times))]
    per = [c / (b - a) for a, b, c in zip(times[skip:], times[skip + 1:], per_step[skip + 1:])]
    return statistics.median(per)


def row_hf(kind, steps, skip):
    "peft_trainer, trl_liger (the 1B shape) or trl_qlora (the 8B shape, NF4), in this process."
    import torch
    from peft import get_peft_model
    from azllm.tokenizer import load_tokenizer
    from azllm.model import load_model
    from azllm.chats import read_chats, check_chat_tokenizer
    from azllm.sft import lora_config, LLAMA_PROJECTIONS
    tok = check_chat_tokenizer(load_tokenizer())
    qlora = kind == 'trl_qlora'
    # QLoRA: the same random-init NF4 base azllm_qlora trains (built in bf16 on the GPU, then quantised layer by layer)
    model = load_model('preset:llama-3.1-8b', tok, load_in_4bit=True) if qlora else load_model('preset:llama-3.2-1b', tok)
    model.config.use_cache = False
    chats = read_chats(DATA)
    counts, clock = [], _clock()
    def counting(collate):
        def f(rows):
            b = collate(rows)
            counts.append(int(b['attention_mask'].sum()) if 'attention_mask' in b else int(b['input_ids'].numel()))
            return b
        return f
    if kind == 'peft_trainer':
        from transformers import Trainer, TrainingArguments, DataCollatorForLanguageModeling
        rows = [dict(input_ids=tok.apply_chat_template(c['messages'], tokenize=True, return_dict=True)['input_ids']) for c in chats]
        bs = max(1, round(8 * 2048 / statistics.mean(len(r['input_ids']) for r in rows)))
        model = get_peft_model(model, lora_config(model, 16, 32, 0.05, LLAMA_PROJECTIONS, False))
        args = TrainingArguments(output_dir='/tmp/bench-peft', max_steps=steps, per_device_train_batch_size=bs, learning_rate=1e-4,
                                 bf16=True, logging_steps=10, save_strategy='no', report_to='none', disable_tqdm=True, seed=0)
        tr = Trainer(model=model, args=args, train_dataset=rows, callbacks=[clock],
                     data_collator=counting(DataCollatorForLanguageModeling(tok, mlm=False)))
    else:
        from datasets import Dataset
        from trl import SFTConfig, SFTTrainer
        # trl_qlora: configs/sft_llama-3.1-8b_24gb.yml's settings (4 rows x 2 accumulation, checkpointing, paged 8-bit AdamW);
        # sdpa, since TRL with flex attention did not finish 40 steps of the 1B shape (the trl_liger note)
        batch = dict(per_device_train_batch_size=4, gradient_accumulation_steps=2, gradient_checkpointing=True, optim='paged_adamw_8bit',
                     warmup_steps=2) if qlora else dict(per_device_train_batch_size=8, gradient_checkpointing=False)
        args = SFTConfig(output_dir='/tmp/bench-trl', max_steps=steps, learning_rate=1e-4, bf16=True,
                         assistant_only_loss=True, packing=True, padding_free=True, max_length=2048, use_liger_kernel=True,
                         logging_steps=10, save_strategy='no', report_to='none', disable_tqdm=True, seed=0, **batch)
        tr = SFTTrainer(model=model, args=args, train_dataset=Dataset.from_list([{'messages': c['messages']} for c in chats]),
                        processing_class=tok, peft_config=lora_config(model, 16, 32, 0.05, LLAMA_PROJECTIONS, False), callbacks=[clock])
        tr.data_collator = counting(tr.data_collator)
    torch.cuda.reset_peak_memory_stats()
    tr.train()
    k = 2 if qlora else 1
    res = dict(tok_per_s=_rate(clock.t, counts, skip, k), peak_gib=torch.cuda.max_memory_allocated() / 2**30,
               real_tokens_per_step=statistics.mean(sum(counts[i * k:(i + 1) * k]) for i in range(steps)))
    if qlora: res['settings'] = ("TRL SFTTrainer + peft QLoRA on the same random-init NF4 8B base azllm_qlora trains (double quantisation, bf16 compute): "
        "LoRA r16 alpha 32 dropout 0.05 on the 7 projections, 4 rows x 2 accumulation, packing padding-free into 2048, assistant-only loss, "
        "gradient checkpointing, paged_adamw_8bit, use_liger_kernel, sdpa attention (TRL with flex attention did not finish 40 steps of the 1B shape)")
    return res


N_1B, N_8B, PEAK_FLOPS = 1.236e9, 8.03e9, 790e12
CFG_1B, CFG_8B = ROOT/'configs/sft_llama-3.2-1b.yml', ROOT/'configs/sft_llama-3.1-8b_24gb.yml'
# each azllm row: (config file, keys changed from it, parameters N for the LoRA FLOP limit)
MB8, MB16 = dict(micro_batch=8, grad_accum=1), dict(micro_batch=16, grad_accum=1)
AZLLM_ROWS = {       # every row names the keys it depends on, so a change of the shipped config does not change what a row means
    'azllm': (CFG_1B, dict(attn_implementation='sdpa', lora_dropout=0.05, lora_kernels=False, precision='auto', **MB8), N_1B),
    'azllm_flex': (CFG_1B, dict(lora_dropout=0.05, lora_kernels=False, precision='auto', **MB8), N_1B),
    'azllm_dropout0': (CFG_1B, dict(lora_dropout=0.0, lora_kernels=False, precision='auto', **MB8), N_1B),
    'azllm_lora_kernels': (CFG_1B, dict(lora_dropout=0.0, lora_kernels=True, precision='auto', **MB8), N_1B),
    'azllm_dropout0_mb16': (CFG_1B, dict(lora_dropout=0.0, lora_kernels=False, precision='auto', **MB16), N_1B),
    'azllm_lora_kernels_mb16': (CFG_1B, dict(lora_dropout=0.0, lora_kernels=True, precision='auto', **MB16), N_1B),
    'azllm_fp8_mb16': (CFG_1B, dict(lora_dropout=0.0, lora_kernels=False, precision='fp8', fp8_recipe='tensorwise', **MB16), N_1B),
    'azllm_fp8_rowwise_mb16': (CFG_1B, dict(lora_dropout=0.0, lora_kernels=False, precision='fp8', fp8_recipe='rowwise', **MB16), N_1B),
    'azllm_fp8_rowwise_kernels_mb16': (CFG_1B, dict(lora_dropout=0.0, lora_kernels=True, precision='fp8', fp8_recipe='rowwise', **MB16), N_1B),
    'azllm_dropout0_mb16_seed1': (CFG_1B, dict(lora_dropout=0.0, lora_kernels=False, precision='auto', seed=1, **MB16), N_1B),
    'azllm_qlora': (CFG_8B, dict(), N_8B),
}
SETTINGS = ('attn_implementation', 'lora_dropout', 'lora_kernels', 'micro_batch', 'grad_accum', 'precision', 'fp8_recipe', 'seed')


def shipped_row(rows:dict, path=CFG_1B) -> str|None:
    "The measured 1B row whose settings are the shipped config's (the config file as it is now)."
    import yaml
    cfg = yaml.safe_load(Path(path).read_text())
    for name, (p, keys, _) in AZLLM_ROWS.items():
        if p == path and name in rows and 'error' not in rows[name] and all({**cfg, **keys}.get(k) == cfg.get(k) for k in SETTINGS):
            return name
    return None


def row_azllm(row, steps, skip):
    "The real command on a shipped SFT config with the row's keys changed; figures from its log.jsonl."
    import yaml
    path, keys, n_params = AZLLM_ROWS[row]
    out_dir = Path(f'/tmp/bench-{row}')
    over = dict(output_dir=str(out_dir), train_data=str(DATA), valid_data=None, max_steps=steps, warmup_steps=2, log_every=1,
                save_every=10 * steps, eval_every=0, tensorboard=False, write_into_existing=True, **keys)
    if not str(yaml.safe_load(path.read_text())['model']).startswith('preset:'):
        over['model'] = 'preset:llama-3.2-1b'              # the shape of the config's model, random init (no weights here)
    cfg = {**yaml.safe_load(path.read_text()), **over}
    run_cfg = out_dir.with_suffix('.yml'); run_cfg.write_text(yaml.safe_dump(cfg))
    p = subprocess.run([sys.executable, '-m', 'azllm.cli', 'train', str(run_cfg)], capture_output=True, text=True)
    from azllm.rundir import read_log
    log = [r for r in read_log(out_dir) if 'loss' in r] if (out_dir/'log.jsonl').exists() else []
    if not log: return dict(error=(p.stderr.strip().splitlines() or ['no output'])[-1][:400], stderr_tail=p.stderr[-3000:])
    rates = [r['tok_per_s'] for r in log if r['step'] > skip]
    tok_s = statistics.median(rates) if rates else None
    res = dict(tok_per_s=tok_s, peak_gib=max(r['peak_mem_gib'] for r in log), steps_logged=len(log),
               real_tokens_per_step=log[-1]['tokens'] / log[-1]['step'],
               share_of_lora_limit=tok_s * 4 * n_params / PEAK_FLOPS if tok_s else None,
               command=f"azllm train {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} " + ' '.join(f'{k}={v}' for k, v in keys.items()),
               overrides=keys, losses=[r['loss'] for r in log])
    summary = out_dir/'summary.json'
    if summary.exists():
        sm = json.loads(summary.read_text())
        res.update({k: sm.get(k) for k in ('liger', 'compiled', 'lora_kernels', 'trainable', 'frozen')})
    if p.returncode: res['error_after_training'] = (p.stderr.strip().splitlines() or [''])[-1][:400]
    return res


def row_check():
    "verify_lora_kernels on this GPU: a small Llama and the 1B shape's widths (2 layers)."
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM
    from azllm.lora_kernels import verify_lora_kernels
    out = dict(small=verify_lora_kernels())
    torch.manual_seed(0)
    with torch.device('cuda'):
        m = LlamaForCausalLM(LlamaConfig(vocab_size=32000, hidden_size=2048, intermediate_size=8192, num_hidden_layers=2,
                                         num_attention_heads=32, num_key_value_heads=8, head_dim=64))
    out['1b_width_2_layers'] = verify_lora_kernels(m, seq=2048, micro_batch=2)
    return out


def row_groups(reps=5, warm=3, preset='llama-3.2-1b', device='cuda', rows=8, seq=2048):
    "Forward + backward of the 1B shape's decoder stack (eager, sdpa, bf16 autocast), fusing each LoRA group alone and all."
    import copy, torch
    from peft import get_peft_model
    from azllm.tokenizer import load_tokenizer
    from azllm.model import preset_config
    from azllm.sft import lora_config
    from azllm.chats import check_chat_tokenizer
    from azllm.lora_kernels import apply_lora_kernels
    from transformers import LlamaForCausalLM
    tok = check_chat_tokenizer(load_tokenizer())
    torch.manual_seed(0)
    with torch.device(device): base = LlamaForCausalLM(preset_config(preset, tok))
    ref = get_peft_model(base, lora_config(base, 16, 32, 0.0))
    ids = torch.randint(0, len(tok), (rows, seq), device=device)
    cuda = device == 'cuda'
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    out = {}
    for name, groups in [('none', ()), ('mlp', ('mlp',)), ('qkv', ('qkv',)), ('o', ('o',)), ('all', ('mlp', 'qkv', 'o'))]:
        ref.zero_grad(set_to_none=True)
        m = copy.deepcopy(ref) if groups else ref
        if groups: apply_lora_kernels(m, groups)
        def step(body):                                  # the decoder stack, passed in (not a name deleted below)
            with torch.autocast(device, dtype=torch.bfloat16): h = body(input_ids=ids).last_hidden_state
            h.float().pow(2).mean().backward()
        body = m.base_model.model.model
        for _ in range(warm): step(body)
        sync()
        if cuda: torch.cuda.reset_peak_memory_stats()
        t0 = time.perf_counter()
        for _ in range(reps): step(body)
        sync()
        ms = (time.perf_counter() - t0) / reps * 1e3
        out[name] = dict(ms_per_step=ms, tok_per_s=rows * seq / ms * 1e3,
                         peak_gib=torch.cuda.max_memory_allocated() / 2**30 if cuda else None)
        del m, body
        if cuda: torch.cuda.empty_cache()
    for k in out: out[k]['speedup_vs_none'] = out['none']['ms_per_step'] / out[k]['ms_per_step']
    return out


def row_fp8_check(rows=16384, d=2048, f=8192, reps=20):
    "`Float8FrozenMatmul` on the 1B shape's MLP widths (random data, weights of the init's scale): relative errors of y and dx against fp32, bf16 beside it, and eager ms of forward + dx."
    import torch
    from triton.testing import do_bench
    from azllm.lora_kernels import frozen_to_float8
    torch.manual_seed(0)
    out = {}
    for name, (i, o) in dict(gate_up=(d, f), down=(f, d)).items():
        lin = torch.nn.Linear(i, o, bias=False, device='cuda').requires_grad_(False)
        torch.nn.init.normal_(lin.weight, std=0.02)
        x = torch.randn(rows, i, device='cuda', requires_grad=True)
        dy = torch.randn(rows, o, device='cuda')
        y32 = x @ lin.weight.t(); dx32 = dy @ lin.weight
        rel = lambda a, b: ((a.float() - b).norm() / b.norm()).item()
        res = {}
        for kind in ('bf16', 'fp8_tensorwise', 'fp8_rowwise'):
            m = torch.nn.Linear(i, o, bias=False, device='cuda').requires_grad_(False); m.weight.data.copy_(lin.weight)
            if kind != 'bf16': frozen_to_float8(m, kind.endswith('rowwise'), pays=lambda mod, n: True)
            else: m.to(torch.bfloat16)
            xb = x.detach().to(torch.bfloat16).requires_grad_()
            def fb():
                xb.grad = None
                with torch.autocast('cuda', dtype=torch.bfloat16): y = m(xb)
                y.backward(dy.to(torch.bfloat16))
                return y
            y = fb()
            res[kind] = dict(y_rel_err=rel(y, y32), dx_rel_err=rel(xb.grad, dx32), eager_ms_fwd_dx=do_bench(fb, rep=reps * 10, return_mode='median'))
        out[name] = res
    return out


CHILD_ROWS = dict(lora_kernels_check=row_check, fusion_by_group=row_groups, fp8_check=row_fp8_check)
DEFAULT_ROWS = ('lora_kernels_check,fp8_check,azllm_fp8_rowwise_kernels_mb16,azllm_lora_kernels_mb16,azllm_dropout0_mb16,azllm_fp8_rowwise_mb16,'
                'azllm_fp8_mb16,azllm_dropout0_mb16_seed1,azllm_dropout0,azllm_lora_kernels,'
                'trl_qlora,azllm_qlora,azllm_flex,fusion_by_group')


def loss_agreement(rows):
    "Largest per-step relative loss difference of each lever's run from the run it changes (over the steps both logged), and bf16's own scale."
    L = lambda k: (rows.get(k) or {}).get('losses')
    def d(x, y, first=False):
        x, y = L(x), L(y)
        if not x or not y or (len(x) != len(y) and not first): return None     # another max_steps is another lr schedule
        n = 1 if first else len(x)
        return dict(max_rel=max(abs(p - q) / abs(q) for p, q in zip(x[:n], y[:n])), steps=n)
    return dict(fused_vs_unfused_mb8=d('azllm_lora_kernels', 'azllm_dropout0'), fused_vs_unfused_mb16=d('azllm_lora_kernels_mb16', 'azllm_dropout0_mb16'),
                fp8_vs_bf16_mb16=d('azllm_fp8_mb16', 'azllm_dropout0_mb16'),
                fp8_rowwise_vs_bf16_mb16=d('azllm_fp8_rowwise_mb16', 'azllm_dropout0_mb16'),
                fp8_rowwise_kernels_vs_bf16_mb16=d('azllm_fp8_rowwise_kernels_mb16', 'azllm_dropout0_mb16'),
                # the scale of a change of seed (LoRA init and data order), for reading the ones above
                bf16_seed1_vs_seed0_mb16=d('azllm_dropout0_mb16_seed1', 'azllm_dropout0_mb16'),
                # the first step only (same weights, same batch): those two runs had different max_steps, so different schedules after it
                frozen_bf16_vs_fp32_first_step=d('azllm_dropout0', 'azllm_dropout0_fp32_frozen', first=True),
                dropout005_vs_0=d('azllm_flex', 'azllm_dropout0'),
                first_last=dict((k, [v['losses'][0], v['losses'][-1]]) for k, v in rows.items() if v.get('losses')))


def summarize(rows:dict) -> dict:
    "The figures the issue asks for, from the rows."
    tok = lambda k: (rows.get(k) or {}).get('tok_per_s')
    ship = shipped_row(rows)
    return dict(shipped_1b_row=ship, shipped_1b_tok_per_s=tok(ship) if ship else None,
                shipped_1b_peak_gib=(rows.get(ship) or {}).get('peak_gib') if ship else None,
                dropout0_tok_per_s=tok('azllm_dropout0'), lora_kernels_tok_per_s=tok('azllm_lora_kernels'),
                dropout0_mb16_tok_per_s=tok('azllm_dropout0_mb16'), lora_kernels_mb16_tok_per_s=tok('azllm_lora_kernels_mb16'),
                fp8_mb16_tok_per_s=tok('azllm_fp8_mb16'), fp8_rowwise_mb16_tok_per_s=tok('azllm_fp8_rowwise_mb16'),
                fp8_rowwise_kernels_mb16_tok_per_s=tok('azllm_fp8_rowwise_kernels_mb16'),
                trl_liger_tok_per_s=tok('trl_liger'), qlora_8b_tok_per_s=tok('azllm_qlora'),
                qlora_8b_peak_gib=(rows.get('azllm_qlora') or {}).get('peak_gib'),
                trl_qlora_8b_tok_per_s=tok('trl_qlora'), trl_qlora_8b_peak_gib=(rows.get('trl_qlora') or {}).get('peak_gib'),
                target_tok_per_s=100_000, target_qlora_peak_gib=16, losses=loss_agreement(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--steps', type=int, default=40)
    ap.add_argument('--skip', type=int, default=10, help='steps excluded from the median (compilation, warm-up)')
    ap.add_argument('--qlora-steps', type=int, default=12, help='steps of the 8B QLoRA rows, azllm_qlora and trl_qlora (their medians skip the first 4)')
    ap.add_argument('--rows', default=DEFAULT_ROWS, help=f"comma-separated: peft_trainer, trl_liger, trl_qlora, {', '.join(AZLLM_ROWS)}, "
                    f"{', '.join(CHILD_ROWS)}; rows not run are kept from --out")
    ap.add_argument('--row', help=argparse.SUPPRESS)
    ap.add_argument('--out', default=str(ROOT/'benchmarks/results/sft_throughput_h200.json'))
    ap.add_argument('--summarize', action='store_true', help='only recompute the summary of --out from its rows (no GPU), e.g. after the shipped config changed')
    a = ap.parse_args()
    if a.summarize:
        res = json.loads(Path(a.out).read_text()); res['summary'] = summarize(res['rows'])
        Path(a.out).write_text(json.dumps(res, indent=2) + '\n'); print(json.dumps(res['summary'], indent=1)); return
    if a.row:                                               # child process: one row, JSON on the last line
        r = CHILD_ROWS[a.row]() if a.row in CHILD_ROWS else row_hf(a.row, a.steps, a.skip)
        print(json.dumps(r)); return
    old = json.loads(Path(a.out).read_text()) if Path(a.out).exists() else {}
    import torch, transformers, peft
    res = dict(command='python benchmarks/sft_throughput.py ' + ' '.join(sys.argv[1:]), gpu=torch.cuda.get_device_name(),
               versions={m.__name__: m.__version__ for m in (torch, transformers, peft)}, rows=dict(old.get('rows', {})),
               rows_from_earlier_runs={k: old.get('rows_from_earlier_runs', {}).get(k, old.get('earlier_rows_from', old.get('command')))
                                       for k in old.get('rows', {})})
    for k in [k for k in old if k in CHILD_ROWS or k.startswith(tuple(CHILD_ROWS))]:     # the checks and per-group timings (also of earlier kernels)
        if 'error' not in old[k]:
            res[k] = old[k]; res['rows_from_earlier_runs'][k] = old.get('rows_from_earlier_runs', {}).get(k, old.get('command'))
    for mod in ('trl', 'liger_kernel', 'bitsandbytes'):
        try: res['versions'][mod] = getattr(__import__(mod), '__version__', 'installed')
        except ImportError: pass
    for row in a.rows.split(','):
        t0 = time.time()
        if row in AZLLM_ROWS:
            r = row_azllm(row, a.qlora_steps if row == 'azllm_qlora' else a.steps, 4 if row == 'azllm_qlora' else a.skip)
        else:
            steps = ['--steps', str(a.qlora_steps), '--skip', '4'] if row == 'trl_qlora' else ['--steps', str(a.steps), '--skip', str(a.skip)]
            p = subprocess.run([sys.executable, __file__, '--row', row, *steps], capture_output=True, text=True)
            if p.returncode: print(p.stderr[-3000:]); r = dict(error=(p.stderr.strip().splitlines() or [''])[-1][:400])
            else: r = json.loads(p.stdout.strip().splitlines()[-1])
        r['wall_s'] = time.time() - t0
        if row in CHILD_ROWS: res[row] = r
        else: res['rows'][row] = r
        res['rows_from_earlier_runs'].pop(row, None)
        print(row, json.dumps({k: v for k, v in r.items() if k not in ('losses', 'stderr_tail')})[:1500], flush=True)
        res['summary'] = summarize(res['rows'])
        Path(a.out).write_text(json.dumps(res, indent=2) + '\n')      # after every row: a run cut short keeps what it measured
    print(json.dumps(res['summary'], indent=1))


if __name__ == '__main__':
    main()
