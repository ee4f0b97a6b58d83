"""Per-rank model-state bytes under DDP and FSDP2, measured with 2 gloo processes on CPU, next to the estimate.

    python benchmarks/memory_cpu.py [--nproc 2] [--hidden 256 --layers 4 --vocab 128256 --heads 4 --kv-heads 2]

Launches `torchrun --standalone --nproc_per_node N -m azllm.profile` once: each rank builds the same tied-embedding
Llama, wraps it with DDP or with FSDP2 `fully_shard` (each decoder layer, then the root), runs one AdamW step and sums
the bytes of the parameters, gradients and optimizer state it holds (the local shard of each DTensor), in fp32 and in
bf16. Prints a table and writes benchmarks/results/memory_cpu.json with the command, machine, versions and, for each
run, every rank's bytes and `azllm.memory.estimate_memory` for the same model.
"""
import argparse, json, os, platform, sys, time
from pathlib import Path
import torch, transformers
from azllm.memory import estimate_memory, GIB
from azllm.profile import run_measurement

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument('--nproc', type=int, default=2, help='gloo processes (ranks)')
for k, v in dict(hidden=256, layers=4, vocab=128_256, heads=4, kv_heads=2, micro_batch=2, seq_len=64).items():
    ap.add_argument('--' + k.replace('_', '-'), type=int, default=v)
a = ap.parse_args()
shape = dict(hidden=a.hidden, layers=a.layers, vocab=a.vocab, heads=a.heads, kv_heads=a.kv_heads, micro_batch=a.micro_batch, seq_len=a.seq_len)

t = time.perf_counter()
m = run_measurement(('ddp', 'fsdp2'), nproc=a.nproc, dtypes=('fp32', 'bf16'), **shape)
seconds = time.perf_counter() - t

parts = ('params', 'grads', 'optimizer', 'total')
rows = []
for r in m['results']:
    est = estimate_memory(r['params'], gpus=r['world_size'], strategy=r['strategy'], precision=r['dtype'], weights=r['dtype'], optimizer='adamw')   # dtype bf16: the model cast to bf16
    est['total_bytes'] = est['model_state_bytes']            # model state only: no activations in this comparison
    row = dict(strategy=r['strategy'], dtype=r['dtype'], params=r['params'])
    for k in r['ranks']:
        row.update({f"rank{k['rank']}_{p}_bytes": k[f'{p}_bytes'] for p in parts})
    row.update({f'estimate_{p}_bytes': est[f'{p}_bytes'] for p in parts})
    row['rank0_unsharded_after_forward_bytes'] = r['ranks'][0]['unsharded_after_forward_bytes']
    rows.append(row)

res = dict(command='python ' + ' '.join(sys.argv), launches=m['command'],
           machine=f'{platform.node()}: {os.cpu_count()} CPU cores, {platform.machine()}', python=sys.version.split()[0],
           versions=dict(torch=torch.__version__, transformers=transformers.__version__), seconds=round(seconds, 1),
           model=dict(shape, intermediate=4 * a.hidden, tied=True, params=rows[0]['params']),
           notes='bytes each rank holds after one AdamW step (azllm.runtime.state_bytes, what the engine logs); AdamW step '
                 'counters (one scalar per parameter tensor) are not counted, as the estimate leaves them out',
           rows=rows)
out = Path(__file__).parent/'results'/'memory_cpu.json'
out.write_text(json.dumps(res, indent=2) + '\n')
print(f"{rows[0]['params']:,} parameters, {a.nproc} ranks, {seconds:.0f} s; MiB per rank (measured on rank 0 / estimate)")
print(f"{'run':<12}" + ''.join(f'{p:>22}' for p in parts))
for r in rows:
    print(f"{r['strategy'] + ' ' + r['dtype']:<12}" +
          ''.join(f"{r[f'rank0_{p}_bytes'] / 2**20:>11.2f} /{r[f'estimate_{p}_bytes'] / 2**20:>9.2f}" for p in parts))
print(f'wrote {out}')
