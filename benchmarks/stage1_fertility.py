"""Stage-1 headline figures: the tokenizer sweep on the bundled corpus, measured on held-out text.

    python benchmarks/stage1_fertility.py

Writes benchmarks/results/stage1_fertility.json (with the command, machine and versions) and
benchmarks/results/stage1_fertility_sweep.png, which the docs' home page shows. CPU only.
"""
import json, platform, sys, time
from pathlib import Path
import tokenizers, transformers
from azllm.data import read_documents, find_data_samples
from azllm.fertility import vocab_sweep, plot_sweep, best_of
from azllm.pipeline import label_by_size

out = Path(__file__).parent/'results'
out.mkdir(exist_ok=True)
ds = find_data_samples()
train, valid = list(read_documents(ds/'az_train.txt')), list(read_documents(ds/'az_valid.txt'))
t0 = time.time()
sweep, toks = vocab_sweep(train, valid, custom_sizes=(2000, 4000, 8000, 16000, 32000, 64000),
                          extend_sizes=(1000, 2000, 4000, 8000, 16000, 32000))
sweep, _, shortfalls = label_by_size(sweep, toks)    # rows named by the real size; sizes the corpus could not fill, listed
secs = time.time() - t0
picked = {'base': 'base', 'extended': best_of(sweep, 'extended'), 'custom': best_of(sweep, 'custom')}
cols = ['vocab_size', 'fertility', 'continued_words', 'chars_per_token', 'bytes_per_token', 'words_in_128k']
res = dict(
    command='python benchmarks/stage1_fertility.py',
    machine=f'{platform.node()} ({platform.processor() or platform.machine()}, CPU)', python=sys.version.split()[0],
    versions=dict(tokenizers=tokenizers.__version__, transformers=transformers.__version__),
    data=dict(train=str(ds/'az_train.txt'), valid=str(ds/'az_valid.txt'), train_documents=len(train), valid_documents=len(valid),
              train_bytes=sum(len(d.encode()) for d in train), valid_bytes=sum(len(d.encode()) for d in valid)),
    sweep_seconds=round(secs, 1),
    picked={k: {'name': v, **{c: float(sweep.loc[v, c]) for c in cols}} for k, v in picked.items()},
    custom_over_base=float(sweep.loc[picked['custom'], 'fertility'] / sweep.loc['base', 'fertility']),
    shortfalls=shortfalls, sweep=json.loads(sweep.reset_index().to_json(orient='records')))
(out/'stage1_fertility.json').write_text(json.dumps(res, indent=2, ensure_ascii=False) + '\n')
plot_sweep(sweep, out/'stage1_fertility_sweep.png')
print(sweep.round(3).to_string())
print(f"\ncustom/base fertility: {res['custom_over_base']:.3f}  ({picked['custom']} vs base)")
