"""LoRA SFT throughput on one GPU: azllm's SFT on the shared engine against TRL and against plain peft + transformers.

    python benchmarks/sft_throughput.py [--steps 40] [--out benchmarks/results/sft_throughput_h200.json]

Every row trains LoRA (r=16, alpha=32, dropout 0.05, q/k/v/o/gate/up/down) on the Llama 3.2 1B shape (random init, the
Llama 3 tokenizer, 128,256 tokens) with the telecom conversations of data_samples/sft/train.jsonl, bf16 autocast over
fp32 weights, about 8 x 2048 real tokens per optimizer step, loss on the assistant tokens:
- peft_trainer: `transformers.Trainer` + peft, conversations padded to the longest of their batch (batch size chosen
  so a step holds about as many real tokens as 8 packed rows of 2048);
- trl_liger: TRL `SFTTrainer`, `assistant_only_loss`, padding-free packing into rows of 2048, `use_liger_kernel=True`;
- azllm: the real command, `python -m azllm.cli train <sft config>` (packed rows of 2048, micro_batch 8, Liger fused
  cross-entropy and compiled decoder layers by default on a GPU), read back from its log.jsonl.
Each row runs in its own process. Real (non-pad) tokens per second, median over the steps after `--skip` (compilation
and warm-up excluded). Peak memory is `torch.cuda.max_memory_allocated`.
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
    from azllm.sft import read_chats, lora_config, check_chat_tokenizer, LLAMA_PROJECTIONS
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


def row_azllm(steps, skip, out_dir, attn='sdpa'):
    "The real command on an SFT config; figures from its log.jsonl and summary.json."
    import yaml
    cfg = dict(stage='sft', output_dir=str(out_dir), model='preset:llama-3.2-1b', train_data=str(DATA), seq_len=2048,
               micro_batch=8, max_steps=steps, lr=1e-4, warmup_steps=2, lora_r=16, lora_alpha=32, lora_dropout=0.05,
               log_every=1, save_every=10 * steps, tensorboard=False, attn_implementation=attn)
    path = Path(out_dir).with_suffix('.yml'); path.write_text(yaml.safe_dump(cfg))
    cmd = [sys.executable, '-m', 'azllm.cli', 'train', str(path)]
    subprocess.run(cmd, check=True)
    log = [json.loads(l) for l in open(Path(out_dir)/'log.jsonl') if '"loss"' in l]
    rates = [r['tok_per_s'] for r in log if r['step'] > skip]
    return dict(tok_per_s=statistics.median(rates), peak_gib=max(r['peak_mem_gib'] for r in log),
                real_tokens_per_step=statistics.mean(r['tok_per_s'] * 0 + r['tokens'] / r['step'] for r in log[-1:]),
                command=' '.join(['azllm', 'train', path.name]), config=cfg, loss_first_last=[log[0]['loss'], log[-1]['loss']])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--steps', type=int, default=40)
    ap.add_argument('--skip', type=int, default=10, help='steps excluded from the median (compilation, warm-up)')
    ap.add_argument('--rows', default='peft_trainer,trl_liger,azllm,azllm_flex',
                    help='azllm = attn_implementation sdpa, azllm_flex = flex_attention (document-local masks as block masks)')
    ap.add_argument('--row', help=argparse.SUPPRESS)
    ap.add_argument('--out', default=str(ROOT/'benchmarks/results/sft_throughput_h200.json'))
    a = ap.parse_args()
    if a.row:                                               # child process: one row, JSON on the last line
        print(json.dumps(row_hf(a.row, a.steps, a.skip))); return
    old = json.loads(Path(a.out).read_text()) if Path(a.out).exists() and a.rows != 'peft_trainer,trl_liger,azllm,azllm_flex' else {}
    import torch, transformers, peft, trl
    res = dict(command='python benchmarks/sft_throughput.py ' + ' '.join(sys.argv[1:]), gpu=torch.cuda.get_device_name(),
               versions={m.__name__: m.__version__ for m in (torch, transformers, peft, trl)}, rows=dict(old.get('rows', {})))
    if old: res['earlier_rows_from'] = old.get('command')
    try:
        import liger_kernel; res['versions']['liger_kernel'] = getattr(liger_kernel, '__version__', 'installed')
    except ImportError: pass
    for row in a.rows.split(','):
        if row in ('azllm', 'azllm_flex'):
            r = row_azllm(a.steps, a.skip, Path(f'/tmp/bench-{row}-sft'), 'flex_attention' if row == 'azllm_flex' else 'sdpa')
        else:
            p = subprocess.run([sys.executable, __file__, '--row', row, '--steps', str(a.steps), '--skip', str(a.skip)],
                               capture_output=True, text=True)
            if p.returncode: print(p.stderr[-3000:]); r = dict(error=p.stderr.strip().splitlines()[-1][:300])
            else: r = json.loads(p.stdout.strip().splitlines()[-1])
        res['rows'][row] = r
        print(row, {k: v for k, v in r.items() if k != 'config'}, flush=True)
    rows = res['rows']
    tok = lambda k: rows.get(k, {}).get('tok_per_s')
    best = max((k for k in ('azllm', 'azllm_flex') if tok(k)), key=tok, default=None)
    res['summary'] = dict(azllm_tok_per_s=tok(best), azllm_row=best, trl_liger_tok_per_s=tok('trl_liger'), peft_trainer_tok_per_s=tok('peft_trainer'),
                          ratio_vs_trl_liger=tok(best) / tok('trl_liger') if best and tok('trl_liger') else None,
                          target_tok_per_s=70_000, target_ratio_vs_trl_liger=4.0)
    Path(a.out).write_text(json.dumps(res, indent=2) + '\n')
    print(json.dumps(res['summary'], indent=1))


if __name__ == '__main__':
    main()
