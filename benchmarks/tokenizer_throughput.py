"""Tokenizer training and encoding throughput (MB/s of UTF-8 text) on this machine's CPU.

    python benchmarks/tokenizer_throughput.py [--repeat 8]

The training split of data_samples/ is repeated `--repeat` times (about 6 MB at 8) so the timings are
well above start-up costs. Prints a table and writes benchmarks/results/tokenizer_throughput_cpu.json
with the command, machine and versions. CPU numbers: tokenizers runs its Rust core on all cores.
"""
import argparse, json, os, platform, sys, time
from pathlib import Path
import tokenizers, transformers
from azllm.data import read_documents, find_data_samples
from azllm.tokenizer import train_tokenizer, extend_tokenizer, load_tokenizer

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument('--repeat', type=int, default=8, help='times to repeat the training split')
a = ap.parse_args()

docs = list(read_documents(find_data_samples()/'az_train.txt')) * a.repeat
mb = sum(len(d.encode()) for d in docs) / 1e6


def timed(f):
    t = time.perf_counter(); r = f(); return r, time.perf_counter() - t


rows = []
custom, s = timed(lambda: train_tokenizer(docs, 16000)); rows.append(('train custom (16k)', s))
base = load_tokenizer()
ext, s = timed(lambda: extend_tokenizer(base, docs, 8000)); rows.append(('extend Llama 3 (+8k)', s))
for name, tok in [('base', base), ('custom', custom), ('extended', ext)]:
    bt = tok.backend_tokenizer
    _, s = timed(lambda: bt.encode_batch(docs, add_special_tokens=False)); rows.append((f'encode_batch {name}', s))
    _, s = timed(lambda: [bt.encode(d, add_special_tokens=False) for d in docs[:len(docs) // a.repeat]])
    rows.append((f'encode one by one {name}', s * a.repeat))

res = dict(command='python ' + ' '.join(sys.argv), machine=f'{platform.node()}: {os.cpu_count()} CPU cores, {platform.machine()}',
           python=sys.version.split()[0], versions=dict(tokenizers=tokenizers.__version__, transformers=transformers.__version__),
           megabytes=round(mb, 2), results=[dict(task=t, seconds=round(s, 3), mb_per_s=round(mb / s, 2)) for t, s in rows])
out = Path(__file__).parent/'results'/'tokenizer_throughput_cpu.json'
out.write_text(json.dumps(res, indent=2) + '\n')
print(f"{mb:.1f} MB of Azerbaijani text, {res['machine']}")
for r in res['results']: print(f"{r['task']:<28} {r['seconds']:>8.2f} s {r['mb_per_s']:>8.2f} MB/s")
print(f'wrote {out}')
