"""`azllm train` on the Llama 3.2 1B shape, one GPU: the default fast path against liger=false compile=false.

    python benchmarks/cpt_h200_runs.py [--steps 200] [--micro-batch 8] [--out benchmarks/results/cpt_llama-3.2-1b_h200.json]

Runs configs/cpt_llama-3.2-1b_1gpu.yml (random init, Llama 3 tokenizer, context 2048, data_samples/) twice
through the real command line and collects from each run's log.jsonl and summary.json: median tokens/s over
the steps after the first 10 (compilation and warm-up excluded), peak GPU memory, losses, validation BPB.
"""
import argparse, json, os, statistics, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument('--steps', type=int, default=200)
ap.add_argument('--micro-batch', type=int, default=8)
ap.add_argument('--runs', default='/tmp/azllm-h200-runs')
ap.add_argument('--out', default=str(ROOT/'benchmarks/results/cpt_llama-3.2-1b_h200.json'))
a = ap.parse_args()

variants = {'fast_path': [], 'no_liger_no_compile': ['liger=false', 'compile=false']}
res = dict(command='python ' + ' '.join(sys.argv), config='configs/cpt_llama-3.2-1b_1gpu.yml', runs={})
for name, extra in variants.items():
    out = Path(a.runs)/name
    cmd = [sys.executable, '-m', 'azllm.cli', 'train', str(ROOT/'configs/cpt_llama-3.2-1b_1gpu.yml'), f'output_dir={out}',
           f'max_steps={a.steps}', f'micro_batch={a.micro_batch}', 'grad_accum=1', 'save_every=100000', 'warmup_steps=20',
           f'eval_every={a.steps // 2}', 'eval_rows=32', 'tensorboard=true', *extra]
    t = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if r.returncode: print(r.stderr[-3000:]); sys.exit(r.returncode)
    log = [r for r in map(json.loads, open(out/'log.jsonl')) if 'loss' in r]
    s = json.loads((out/'summary.json').read_text())
    res['runs'][name] = dict(cmd=' '.join(cmd[1:]), wall_s=round(time.time() - t, 1), liger=s['liger'], compiled=s['compiled'],
                             median_tok_per_s=statistics.median(x['tok_per_s'] for x in log[10:]),
                             peak_mem_gib=max(x['peak_mem_gib'] for x in log), first_loss=log[0]['loss'], last_loss=log[-1]['loss'],
                             losses=[round(x['loss'], 4) for x in log], val_bpb=s.get('val_bpb'), val_loss=s.get('val_loss'))
    print(name, {k: v for k, v in res['runs'][name].items() if k not in ('losses', 'cmd')}, flush=True)
import torch
res['gpu'] = torch.cuda.get_device_name() if torch.cuda.is_available() else 'cpu'
f, h = res['runs']['fast_path'], res['runs']['no_liger_no_compile']
res['summary'] = dict(throughput_ratio=f['median_tok_per_s'] / h['median_tok_per_s'], peak_mem_ratio=f['peak_mem_gib'] / h['peak_mem_gib'],
                      loss_max_abs_diff=max(abs(x - y) for x, y in zip(f['losses'], h['losses'])))
Path(a.out).write_text(json.dumps(res, indent=2) + '\n')
print(json.dumps(res['summary'], indent=1))
