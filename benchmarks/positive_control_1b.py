"""The task set's positive control on a GPU: the 1B shape (random init, Llama 3 tokenizer) trained for a few hundred CPT
steps on data_samples/az_train.txt, then `azllm eval` on the headline tasks beside its untrained twin (same shape and
tokenizer, random weights): every score with its cluster-bootstrap interval, the paired test against the twin, and the
smallest difference each test detects with 80% power. Writes benchmarks/results/positive_control_1b_<card>.json (h100, h200, cpu).

    python benchmarks/positive_control_1b.py                    # 100 steps, then the eval: 296 s on one H100 (60 s of training after compilation)
    python benchmarks/positive_control_1b.py --steps 100 --out /tmp/pc.json
    python benchmarks/positive_control_1b.py --model DIR --limit 5 --out /tmp/pc.json   # the eval part alone, on a saved model (a CPU smoke test)

The CPT run goes through the real command line (`python -m azllm.cli train configs/cpt_llama-3.2-1b_1gpu.yml key=value ...`)
at global batch 16 (16 x 2048 tokens a step) and lr 5e-4 (random init learns faster at a pre-training rate than at CPT's 2e-4);
the eval through `python -m azllm.cli eval` on a config written next to it. az_train.txt is 300,912 Llama 3 tokens (147 rows of
2048), so 100 steps are about 11 epochs: the held-out bits per byte every 20 steps are kept in the results file, to show
where memorising the corpus overtakes learning the language.
"""
import argparse, json, platform, subprocess, sys, time
import torch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from azllm.rundir import read_log
def default_out() -> Path:
    "The results file named after the card that made it, as the other benchmarks' files are."
    card = next((c for c in ('h100', 'h200', 'a100', 'l4') if torch.cuda.is_available() and c in torch.cuda.get_device_name().lower()), 'gpu' if torch.cuda.is_available() else 'cpu')
    return ROOT/'benchmarks'/'results'/f'positive_control_1b_{card}.json'

def run(cmd):
    print('+', ' '.join(map(str, cmd)), flush=True)
    subprocess.run([str(c) for c in cmd], cwd=ROOT, check=True)

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--steps', type=int, default=100)
    ap.add_argument('--lr', type=float, default=5e-4)
    ap.add_argument('--eval_every', type=int, default=20)
    ap.add_argument('--model', default=None, help='evaluate this saved model instead of training one (skips the CPT run)')
    ap.add_argument('--limit', type=int, default=None, help='the first N items of each task (a smoke test); default: every item')
    ap.add_argument('--work', default='runs/positive-control-1b')
    ap.add_argument('--tasks', default='az,az_corpus_recall')
    ap.add_argument('--out', default=None, help='default: benchmarks/results/positive_control_1b_<card>.json')
    a = ap.parse_args(argv)
    a.out = a.out or str(default_out())
    t0, work = time.time(), ROOT/a.work
    cpt = work/'cpt'
    if a.model is None:
        run([sys.executable, '-m', 'azllm.cli', 'train', 'configs/cpt_llama-3.2-1b_1gpu.yml', f'output_dir={cpt}', f'max_steps={a.steps}',
             'global_batch=16', 'warmup_steps=20', f'lr={a.lr}', f'eval_every={a.eval_every}', f'save_every={a.steps}'])
    model = a.model or str(cpt/'final')
    work.mkdir(parents=True, exist_ok=True); cfg = work/'eval.yml'
    cfg.write_text(json.dumps(dict(stage='eval', output_dir=str(work/'eval'), overwrite=True, models=[dict(name='cpt-1b', path=model)],
                                   valid_data=['data_samples/az_valid.txt'], seq_len=2048, micro_batch=8, prompts=[], tasks=a.tasks.split(','),
                                   harness_batch=32, floors=True, **({'limit': a.limit, 'max_docs': a.limit} if a.limit else {}))),
                   encoding='utf-8')     # JSON is YAML
    run([sys.executable, '-m', 'azllm.cli', 'eval', str(cfg)])
    rep = json.loads((work/'eval'/'report.json').read_text(encoding='utf-8'))
    c = rep['controls']
    res = dict(command=' '.join(['python benchmarks/positive_control_1b.py', *(argv if argv is not None else sys.argv[1:])]),
               machine=f'{platform.machine()} {platform.system()}', device=torch.cuda.get_device_name() if torch.cuda.is_available() else 'cpu', steps=None if a.model else a.steps, lr=None if a.model else a.lr,
               valid_curve=None if a.model else [{k: r[k] for k in ('step', 'val_loss', 'val_bpb')} for r in read_log(cpt) if 'val_bpb' in r], model=model, limit=a.limit, bpb=rep['bpb'],
               floors={n: f['bpb'] for n, f in rep.get('floors', {}).items()},
               scores={t: {m: s for m, s in ms.items() if m in ('acc', 'acc_norm', 'bits_per_byte')} for t, ms in c['scores'].items()},
               vs_twin=[{k: p.get(k) for k in ('task', 'metric', 'a', 'b', 'diff', 'low', 'high', 'p', 'p_mcnemar', 'mde', 'families', 'n', 'within_noise', 'sentence')}
                        for p in c['pairs'] if p['floor']],
               seconds=round(time.time() - t0, 1))
    Path(a.out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    for p in res['vs_twin']: print(p['sentence'])
    print(f'wrote {a.out}')

if __name__ == '__main__': main()
