"""GRPO on a real model, on a CPU: the mean held-out reward of SmolLM2-135M-Instruct (`model: smollm2`) on the bundled
Azerbaijani word problems (the first --eval-rows of data_samples/az_math/valid.jsonl, greedy completions) before and after a
short GRPO run of configs/grpo_tiny.yml's recipe (beta 0 by default here: no reference pass, as TRL's default), one seed per process. The GRPO runs start from a short LoRA SFT on the
training problems with worked answers that end in the answer line (data_samples/az_math/sft_train.jsonl), so the model
writes the line the format and numeric rewards read; without it SmolLM2 never writes it and those rewards stay 0.

    python benchmarks/grpo_cpu.py sft --out /tmp/grpo-sft                                  # once: the SFT run GRPO starts from
    python benchmarks/grpo_cpu.py run --model /tmp/grpo-sft --seed 0 --out /tmp/grpo-s0.json  # a seed (seeds side by side as processes)
    python benchmarks/grpo_cpu.py run --model /tmp/grpo-sft --seed 1 --out /tmp/grpo-s1.json
    python benchmarks/grpo_cpu.py merge --sft /tmp/grpo-sft /tmp/grpo-s0.json /tmp/grpo-s1.json  # -> benchmarks/results/grpo_cpu.json

With --lr 1e-4 on the runs, `merge --result benchmarks/results/grpo_cpu_lr1e-4.json` keeps the gentler setting's seeds apart.

Advantages divided by the batch's reward spread instead of each group's (a group whose replies differ only in the
azerbaijani reward's confidence otherwise gets full-size advantages from that noise), sampling at temperature 0.7, more
completions and steps (about 7 GB of memory per process: run the seeds one or two at a time on a small machine):

    python benchmarks/grpo_cpu.py run --model /tmp/grpo-sft --seed 0 --steps 10 --prompts 2 --generations 8 --lr 2e-4 \
        --temperature 0.7 --scale-rewards batch --out /tmp/grpo-b-s0.json          # and --seed 1, --seed 2
    python benchmarks/grpo_cpu.py merge --sft /tmp/grpo-sft /tmp/grpo-b-s*.json --result benchmarks/results/grpo_cpu_batch.json

"Before" is the run's own validation with its fresh adapter (LoRA's B matrices start at zero: the SFT model itself),
"after" the same validation at the end, so both are scored by one function on the same prompts.
"""
from __future__ import annotations
import argparse, json, os, platform, statistics, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RESULT = ROOT/'benchmarks'/'results'/'grpo_cpu.json'
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}   # Student's t, two-sided 95%, by degrees of freedom


def machine() -> str:
    return f"CPU ({os.cpu_count()} cores, {platform.processor() or platform.machine()})"


def sft(a) -> dict:
    "LoRA SFT of `a.model` on the worked training problems: the model GRPO starts from (its run directory is `a.out`)."
    from azllm.cli import main as azllm
    cfg = dict(stage='sft', output_dir=a.out, model=a.model, train_data=str(ROOT/'data_samples'/'az_math'/'sft_train.jsonl'),
               seq_len=a.seq_len, micro_batch=a.micro_batch, max_steps=a.steps, lr=a.lr, warmup_steps=2, lr_scheduler='cosine',
               lora_r=16, lora_alpha=32, lora_dropout=0.0, train_embeddings=False, weight_decay=0.0, seed=0, log_every=1,
               save_every=10**6, keep_last=1, tensorboard=False, liger=False, compile=False)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    (spec := Path(a.out + '.json')).write_text(json.dumps(cfg))
    t0, load0 = time.time(), os.getloadavg()[0]
    if (rc := azllm(['train', str(spec)])) != 0: raise SystemExit(f"sft: azllm train exited {rc}")
    info = dict(config={k: v for k, v in cfg.items() if k != 'output_dir'}, seconds=round(time.time() - t0), load_average_at_start=load0,
                load_average_at_end=os.getloadavg()[0], command='python ' + ' '.join(sys.argv), machine=machine())
    (Path(a.out)/'sft_info.json').write_text(json.dumps(info, indent=1))
    return info


def run(a) -> dict:
    from azllm.config import load_config
    from azllm.grpo import GRPORun, GRPOTask
    from azllm.runtime import seeded
    from azllm.trainer import Trainer
    from azllm.rundir import read_log
    out = Path(tempfile.mkdtemp(prefix='grpo-cpu-'))/'run'
    over = [f'model={a.model}', f'output_dir={out}', f'seed={a.seed}', f'max_steps={a.steps}', f'lr={a.lr}', f'micro_batch={a.prompts}',
            f'num_generations={a.generations}', f'max_new_tokens={a.max_new_tokens}', f'eval_rows={a.eval_rows}', 'eval_every=0', f'beta={a.beta}',
            f'save_every={a.steps}', 'tensorboard=false', 'log_every=1',
            f'temperature={a.temperature}', f'scale_rewards={a.scale_rewards}', f'loss_type={a.loss_type}']
    cfg = load_config(ROOT/'configs'/'grpo_tiny.yml', GRPORun, over)
    t0, load0 = time.time(), os.getloadavg()[0]
    t = Trainer(cfg, GRPOTask(cfg, progress=False), progress=False)
    try:
        with seeded(cfg.seed):
            t.setup()
            before = t.validate()
            t.fit()
            after = read_log(out)[-1] if 'val_reward' in read_log(out)[-1] else t.validate()
    finally: t.cleanup()
    steps = [r for r in read_log(out) if 'loss' in r and 'val_reward' not in r]
    return dict(seed=a.seed, before=before, after={k: v for k, v in after.items() if k.startswith('val_')},
                train=[{k: r[k] for k in ('step', 'loss', 'reward', 'kl', 'completion_len') if k in r} for r in steps],
                seconds=time.time() - t0, load_average_at_start=load0, load_average_at_end=os.getloadavg()[0],
                overrides=over, command='python ' + ' '.join(sys.argv), machine=machine())


def merge(files:list[str], sft_dir:str|None=None) -> dict:
    runs = [json.loads(Path(f).read_text()) for f in files]
    sft_info = json.loads((Path(sft_dir)/'sft_info.json').read_text()) if sft_dir else None
    keys = [k for k in runs[0]['before'] if k.startswith('val_reward')]
    rows = []
    for k in keys:
        b, d = [r['before'][k] for r in runs], [r['after'][k] - r['before'][k] for r in runs]
        se = statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else float('nan')
        half = T95.get(len(d) - 1, 1.96) * se                  # a paired comparison: each seed's after minus its own before
        m = statistics.mean(d)
        rows.append(dict(reward=k[len('val_'):], before=statistics.mean(b), after=statistics.mean([r['after'][k] for r in runs]),
                         change=m, se=se, ci95=[m - half, m + half], per_seed_change=d,
                         verdict='no change' if abs(m) < 1e-3 else ('up' if m > 0 else 'down') + ', beyond noise' if half == half and abs(m) > half else 'within noise'))
    pre = f"{sft_info['command']}; " if sft_info else ''
    return dict(command=f"python benchmarks/grpo_cpu.py merge (runs: {pre}{'; '.join(r['command'] for r in runs)})", machine=runs[0]['machine'],
                note=(f"CPU numbers: this {runs[0]['machine']}, shared with other jobs (load average from {min(min(r['load_average_at_start'], r['load_average_at_end']) for r in runs):.1f} "
                      f"to {max(max(r['load_average_at_start'], r['load_average_at_end']) for r in runs):.1f}); {len(runs)} seeds; each run {runs[0]['overrides']}; "
                      f"held-out prompts scored: {runs[0]['before']['val_prompts']}, greedy. 'se' is the standard error of the change over seeds (each seed's after minus its own before: a paired comparison on the same prompts, "
                      f"scored the same way); 'ci95' the 95% confidence interval of the mean change (Student's t over the seeds); 'beyond noise' when it excludes 0 "
                      f"('no change' below 0.001)."
                      + (f" GRPO starts from a LoRA SFT of the base on the worked training problems ({sft_info['config']['max_steps']} steps, "
                         f"{sft_info['seconds']} s)." if sft_info else " GRPO starts from the base model itself (no SFT).")),
                sft=sft_info, seeds=[r['seed'] for r in runs], seconds=[round(r['seconds']) for r in runs], rows=rows, runs=runs)


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('run')
    p.add_argument('--seed', type=int, default=0); p.add_argument('--out', required=True)
    p.add_argument('--model', default='smollm2'); p.add_argument('--steps', type=int, default=6)
    p.add_argument('--lr', type=float, default=5e-4); p.add_argument('--prompts', type=int, default=2)
    p.add_argument('--generations', type=int, default=4); p.add_argument('--max-new-tokens', type=int, default=36)
    p.add_argument('--eval-rows', type=int, default=35); p.add_argument('--beta', type=float, default=0.0)
    p.add_argument('--temperature', type=float, default=1.0, help='sampling temperature in training (evaluation is greedy)')
    p.add_argument('--scale-rewards', default='group', choices=['group', 'batch', 'none'], help="what the advantages are divided by")
    p.add_argument('--loss-type', default='dapo', choices=['grpo', 'dr_grpo', 'dapo'])
    f = sub.add_parser('sft')
    f.add_argument('--out', required=True); f.add_argument('--model', default='smollm2'); f.add_argument('--steps', type=int, default=16)
    f.add_argument('--lr', type=float, default=5e-4); f.add_argument('--micro-batch', type=int, default=4); f.add_argument('--seq-len', type=int, default=256)
    m = sub.add_parser('merge'); m.add_argument('files', nargs='+'); m.add_argument('--sft', default=None)
    m.add_argument('--result', default=str(RESULT), help='where the merged results go')
    a = ap.parse_args()
    if a.cmd == 'run': Path(a.out).write_text(json.dumps(run(a), indent=1, ensure_ascii=False))
    elif a.cmd == 'sft': print(json.dumps(sft(a)))
    else:
        Path(a.result).write_text(json.dumps(merge(a.files, a.sft), indent=1, ensure_ascii=False) + '\n')
        print(f"wrote {a.result}")
