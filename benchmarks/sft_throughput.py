"""LoRA SFT throughput on one GPU: azllm's SFT on the shared engine (unfused, fused LoRA kernels, QLoRA on the 8B shape) against TRL and plain peft + transformers.

    python benchmarks/sft_throughput.py [--rows ...] [--steps 40] [--out benchmarks/results/sft_throughput_h200.json]

The 1B rows train LoRA (r=16, alpha=32, q/k/v/o/gate/up/down) on the Llama 3.2 1B shape (random init, the Llama 3
tokenizer, 128,256 tokens) with the telecom conversations of data_samples/sft/train.jsonl, bf16 autocast over fp32
weights, about 8 x 2048 real tokens per optimizer step, loss on the assistant tokens:
- peft_trainer: `transformers.Trainer` + peft, conversations padded to the longest of their batch (batch size chosen
  so a step holds about as many real tokens as 8 packed rows of 2048), dropout 0.05;
- trl_liger: TRL `SFTTrainer`, `assistant_only_loss`, padding-free packing into rows of 2048, `use_liger_kernel=True`;
- azllm rows: the real command, `python -m azllm.cli train <config>`, on configs/sft_llama-3.2-1b.yml (its shipped
  settings: packed rows of 2048, micro_batch 8, flex attention, Liger fused cross-entropy and compiled decoder layers on
  a GPU) with the preset model and the keys each row names (`overrides` in the results); read back from log.jsonl:
  azllm (sdpa, dropout 0.05), azllm_flex (the config as shipped before lora_kernels: dropout 0.05), azllm_dropout0,
  azllm_lora_kernels (dropout 0 + lora_kernels), azllm_lora_kernels_mb16 (same, micro_batch 16 x grad_accum 1);
- azllm_qlora: configs/sft_llama-3.1-8b_24gb.yml as shipped (the 8B shape, NF4 base, 8-bit AdamW, checkpointing);
- lora_kernels_check: `verify_lora_kernels` (fused vs peft in bf16, both against peft in fp32) on this GPU;
- fusion_by_group: forward + backward of the 1B shape's decoder layers (no head, eager, sdpa, mb 8 x 2048), with no
  group, each group alone, and all groups fused.
Each row runs in its own process. Real (non-pad) tokens per second, median over the steps after `--skip` (compilation
and warm-up excluded). Peak memory is `torch.cuda.max_memory_allocated`. `share_of_lora_limit`: tokens/s x 4N FLOPs
(LoRA: no weight gradients for the frozen base) over the H200's measured dense bf16 rate, 790 TFLOP/s.
"""
import argparse, json, os, statistics, subprocess, sys, time
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


def _rate(times, counts, skip):
    per = [c / (b - a) for a, b, c in zip(times[skip:], times[skip + 1:], counts[skip + 1:])]
    return statistics.median(per)


def row_hf(kind, steps, skip):
    "peft_trainer or trl_liger, in this process."
    import torch
    from peft import get_peft_model
    from azllm.tokenizer import load_tokenizer
    from azllm.model import load_model
    from azllm.chats import read_chats, check_chat_tokenizer
    from azllm.sft import lora_config, LLAMA_PROJECTIONS
    tok = check_chat_tokenizer(load_tokenizer())
    model = load_model('preset:llama-3.2-1b', tok)
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
        args = SFTConfig(output_dir='/tmp/bench-trl', max_steps=steps, per_device_train_batch_size=8, learning_rate=1e-4, bf16=True,
                         assistant_only_loss=True, packing=True, padding_free=True, max_length=2048, use_liger_kernel=True,
                         logging_steps=10, save_strategy='no', report_to='none', disable_tqdm=True, seed=0,
                         gradient_checkpointing=False)
        tr = SFTTrainer(model=model, args=args, train_dataset=Dataset.from_list([{'messages': c['messages']} for c in chats]),
                        processing_class=tok, peft_config=lora_config(model, 16, 32, 0.05, LLAMA_PROJECTIONS, False), callbacks=[clock])
        tr.data_collator = counting(tr.data_collator)
    torch.cuda.reset_peak_memory_stats()
    tr.train()
    return dict(tok_per_s=_rate(clock.t, counts, skip), peak_gib=torch.cuda.max_memory_allocated() / 2**30,
                real_tokens_per_step=statistics.mean(counts[:steps]))


N_1B, N_8B, PEAK_FLOPS = 1.236e9, 8.03e9, 790e12
CFG_1B, CFG_8B = ROOT/'configs/sft_llama-3.2-1b.yml', ROOT/'configs/sft_llama-3.1-8b_24gb.yml'
# each azllm row: (config file, keys changed from it, parameters N for the LoRA FLOP limit)
AZLLM_ROWS = {
    'azllm': (CFG_1B, dict(attn_implementation='sdpa', lora_dropout=0.05, lora_kernels=False), N_1B),
    'azllm_flex': (CFG_1B, dict(lora_dropout=0.05, lora_kernels=False), N_1B),
    'azllm_dropout0': (CFG_1B, dict(lora_dropout=0.0, lora_kernels=False), N_1B),
    'azllm_lora_kernels': (CFG_1B, dict(lora_dropout=0.0, lora_kernels=True), N_1B),
    'azllm_lora_kernels_mb16': (CFG_1B, dict(lora_dropout=0.0, lora_kernels=True, micro_batch=16, grad_accum=1), N_1B),
    'azllm_qlora': (CFG_8B, dict(), N_8B),
}


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
    log = [json.loads(l) for l in open(out_dir/'log.jsonl') if '"loss"' in l] if (out_dir/'log.jsonl').exists() else []
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
        body = m.base_model.model.model
        def step():
            with torch.autocast(device, dtype=torch.bfloat16): h = body(input_ids=ids).last_hidden_state
            h.float().pow(2).mean().backward()
        for _ in range(warm): step()
        sync()
        if cuda: torch.cuda.reset_peak_memory_stats()
        t0 = time.perf_counter()
        for _ in range(reps): step()
        sync()
        ms = (time.perf_counter() - t0) / reps * 1e3
        out[name] = dict(ms_per_step=ms, tok_per_s=rows * seq / ms * 1e3,
                         peak_gib=torch.cuda.max_memory_allocated() / 2**30 if cuda else None)
        del m, body
        if cuda: torch.cuda.empty_cache()
    for k in out: out[k]['speedup_vs_none'] = out['none']['ms_per_step'] / out[k]['ms_per_step']
    return out


CHILD_ROWS = dict(lora_kernels_check=row_check, fusion_by_group=row_groups)
DEFAULT_ROWS = 'lora_kernels_check,azllm_lora_kernels,azllm_flex,azllm_dropout0,azllm_qlora,fusion_by_group,azllm_lora_kernels_mb16'


def loss_agreement(rows):
    "Largest per-step loss difference of the fused run from the unfused run with the same dropout (0), and, as a scale, of dropout 0.05 from 0."
    a, b, c = (rows.get(k, {}).get('losses') for k in ('azllm_lora_kernels', 'azllm_dropout0', 'azllm_flex'))
    d = lambda x, y: max(abs(p - q) / abs(q) for p, q in zip(x, y)) if x and y and len(x) == len(y) else None
    return dict(fused_vs_unfused_max_rel=d(a, b), dropout005_vs_0_max_rel=d(c, b),
                first_last=dict((k, [v['losses'][0], v['losses'][-1]]) for k, v in rows.items() if v.get('losses')))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--steps', type=int, default=40)
    ap.add_argument('--skip', type=int, default=10, help='steps excluded from the median (compilation, warm-up)')
    ap.add_argument('--qlora-steps', type=int, default=12, help='steps of the 8B QLoRA row (its median skips the first 4)')
    ap.add_argument('--rows', default=DEFAULT_ROWS, help=f"comma-separated: peft_trainer, trl_liger, {', '.join(AZLLM_ROWS)}, "
                    f"{', '.join(CHILD_ROWS)}; rows not run are kept from --out")
    ap.add_argument('--row', help=argparse.SUPPRESS)
    ap.add_argument('--out', default=str(ROOT/'benchmarks/results/sft_throughput_h200.json'))
    a = ap.parse_args()
    if a.row:                                               # child process: one row, JSON on the last line
        r = CHILD_ROWS[a.row]() if a.row in CHILD_ROWS else row_hf(a.row, a.steps, a.skip)
        print(json.dumps(r)); return
    old = json.loads(Path(a.out).read_text()) if Path(a.out).exists() else {}
    import torch, transformers, peft
    res = dict(command='python benchmarks/sft_throughput.py ' + ' '.join(sys.argv[1:]), gpu=torch.cuda.get_device_name(),
               versions={m.__name__: m.__version__ for m in (torch, transformers, peft)}, rows=dict(old.get('rows', {})),
               rows_from_earlier_runs={k: old.get('rows_from_earlier_runs', {}).get(k, old.get('earlier_rows_from', old.get('command')))
                                       for k in old.get('rows', {})})
    for k in ('lora_kernels_check', 'fusion_by_group'):
        if k in old and 'error' not in old[k]:
            res[k] = old[k]; res['rows_from_earlier_runs'][k] = old.get('rows_from_earlier_runs', {}).get(k, old.get('command'))
    for mod in ('trl', 'liger_kernel', 'bitsandbytes'):
        try: res['versions'][mod] = getattr(__import__(mod), '__version__', 'installed')
        except ImportError: pass
    for row in a.rows.split(','):
        t0 = time.time()
        if row in AZLLM_ROWS:
            r = row_azllm(row, a.qlora_steps if row == 'azllm_qlora' else a.steps, 4 if row == 'azllm_qlora' else a.skip)
        else:
            steps = ['--steps', str(a.steps), '--skip', str(a.skip)]
            p = subprocess.run([sys.executable, __file__, '--row', row, *steps], capture_output=True, text=True)
            if p.returncode: print(p.stderr[-3000:]); r = dict(error=(p.stderr.strip().splitlines() or [''])[-1][:400])
            else: r = json.loads(p.stdout.strip().splitlines()[-1])
        r['wall_s'] = time.time() - t0
        if row in CHILD_ROWS: res[row] = r
        else: res['rows'][row] = r
        res['rows_from_earlier_runs'].pop(row, None)
        print(row, json.dumps({k: v for k, v in r.items() if k not in ('losses', 'stderr_tail')})[:1500], flush=True)
        rows = res['rows']
        tok = lambda k: (rows.get(k) or {}).get('tok_per_s')
        res['summary'] = dict(lora_kernels_tok_per_s=tok('azllm_lora_kernels'), shipped_1b_tok_per_s=tok('azllm_flex'),
                              dropout0_tok_per_s=tok('azllm_dropout0'), mb16_tok_per_s=tok('azllm_lora_kernels_mb16'),
                              trl_liger_tok_per_s=tok('trl_liger'), qlora_8b_tok_per_s=tok('azllm_qlora'),
                              qlora_8b_peak_gib=(rows.get('azllm_qlora') or {}).get('peak_gib'),
                              target_tok_per_s=100_000, target_qlora_peak_gib=16, losses=loss_agreement(rows))
        Path(a.out).write_text(json.dumps(res, indent=2) + '\n')      # after every row: a run cut short keeps what it measured
    print(json.dumps(res['summary'], indent=1))


if __name__ == '__main__':
    main()
