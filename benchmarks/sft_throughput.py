"""LoRA SFT throughput on one GPU: azllm's SFT path against plain peft + transformers, in the same run.

    python benchmarks/sft_throughput.py [--steps 40] [--out benchmarks/results/sft_throughput_h200.json]

Both train LoRA (r=16, alpha=32, q/k/v/o/gate/up/down) on the Llama 3.2 1B shape (random init, Llama 3
tokenizer) with the telecom Q&A pairs of data_samples/sft/train.jsonl, bf16, batch 8, the same number of steps:
- baseline: `transformers.Trainer` + peft, each example padded to the longest of its batch, loss on every token;
- azllm: `azllm.sft` (TRL SFTTrainer, padding-free packing into rows of 2048, loss on assistant tokens only).
Tokens/s counts the real (non-pad) tokens the model processed, from step 5 on (warm-up excluded).
"""
import argparse, json, sys, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from transformers import Trainer, TrainingArguments, TrainerCallback, DataCollatorForLanguageModeling
from peft import get_peft_model
from azllm.tokenizer import load_tokenizer
from azllm.model import load_model
from azllm.sft import SFTRun, build_trainer, read_chats, lora_config, LLAMA_PROJECTIONS

CUDA = torch.cuda.is_available()


class Clock(TrainerCallback):
    "Wall-clock time at the end of every optimizer step."
    def __init__(self): self.t = []
    def on_step_end(self, args, state, control, **kw):
        if torch.cuda.is_available(): torch.cuda.synchronize()
        self.t.append(time.perf_counter())


def counting(collate, counts):
    "Wrap a collator to record the real tokens of every batch."
    def f(rows):
        b = collate(rows)
        counts.append(int(b['attention_mask'].sum()) if 'attention_mask' in b else b['input_ids'].numel())
        return b
    return f


def steady_tok_s(clock, counts, skip=5):
    n = len(clock.t)
    return sum(counts[skip + 1:n]) / (clock.t[-1] - clock.t[skip])


def baseline(steps, bs, preset):
    tok = load_tokenizer()
    model = load_model(f'preset:{preset}', tok)
    model.config.use_cache = False
    model = get_peft_model(model, lora_config(model, 16, 32, 0.05, LLAMA_PROJECTIONS, False))
    chats = read_chats(ROOT/'data_samples/sft/train.jsonl')
    rows = [dict(input_ids=tok.apply_chat_template(c['messages'], tokenize=True, return_dict=True)['input_ids']) for c in chats]
    counts, clock = [], Clock()
    args = TrainingArguments(output_dir='/tmp/sft-baseline', max_steps=steps, per_device_train_batch_size=bs, learning_rate=1e-4,
                             bf16=CUDA, use_cpu=not CUDA, logging_steps=10, save_strategy='no', report_to='none', disable_tqdm=True, seed=0)
    tr = Trainer(model=model, args=args, train_dataset=rows, data_collator=counting(DataCollatorForLanguageModeling(tok, mlm=False), counts),
                 callbacks=[clock])
    tr.train()
    return dict(tok_per_s=steady_tok_s(clock, counts), peak_gib=torch.cuda.max_memory_allocated() / 2**30 if CUDA else None,
                tokens_per_step=sum(counts[:steps]) / steps)


def azllm_sft(steps, bs, preset):
    cfg = SFTRun(output_dir='/tmp/sft-azllm', model=f'preset:{preset}', train_data=str(ROOT/'data_samples/sft/train.jsonl'),
                 max_steps=steps, batch_size=bs, max_length=2048, packing=True, lora_r=16, lora_alpha=32, log_every=10)
    tr = build_trainer(cfg, progress=False)
    counts, clock = [], Clock()
    tr.data_collator = counting(tr.data_collator, counts)
    tr.add_callback(clock)
    tr.train()
    return dict(tok_per_s=steady_tok_s(clock, counts), peak_gib=torch.cuda.max_memory_allocated() / 2**30 if CUDA else None,
                tokens_per_step=sum(counts[:steps]) / steps)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--steps', type=int, default=40)
    ap.add_argument('--batch-size', type=int, default=8)
    ap.add_argument('--preset', default='llama-3.2-1b', help='model shape (random init)')
    ap.add_argument('--out', default=str(ROOT/'benchmarks/results/sft_throughput_h200.json'))
    a = ap.parse_args()
    res = dict(command='python ' + ' '.join(sys.argv), gpu=torch.cuda.get_device_name() if CUDA else 'cpu', preset=a.preset,
               versions={m: __import__(m).__version__ for m in ('torch', 'transformers', 'peft', 'trl')})
    if CUDA: torch.cuda.reset_peak_memory_stats()
    res['baseline_peft_transformers'] = baseline(a.steps, a.batch_size, a.preset)
    print('baseline', res['baseline_peft_transformers'], flush=True)
    if CUDA: torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()
    res['azllm_sft'] = azllm_sft(a.steps, a.batch_size, a.preset)
    print('azllm', res['azllm_sft'], flush=True)
    res['throughput_ratio'] = res['azllm_sft']['tok_per_s'] / res['baseline_peft_transformers']['tok_per_s']
    Path(a.out).write_text(json.dumps(res, indent=2) + '\n')
    print(json.dumps(res, indent=1))


if __name__ == '__main__':
    main()
