"""`azllm train` on one GPU, through the real command line: the HF baseline, the shipped bf16 config, the same with fp8.

    python benchmarks/cpt_h200_runs.py [--rows hf,bf16,fp8] [--steps 16] [--out benchmarks/results/cpt_llama-3.2-1b_h200.json]
    python benchmarks/cpt_h200_runs.py --rows bf16_200,bf16_seed1_200,fp8_200 --concurrent     # the 200-step loss comparison

Each row runs configs/cpt_llama-3.2-1b_1gpu.yml (random init, Llama 3 tokenizer, context 2048, data_samples/) in its own
process, `python -m azllm.cli train CONFIG key=value ...`, and reads that run's log.jsonl and summary.json: median tokens/s
over the steps after --skip (compilation and warm-up excluded), peak GPU memory, the micro-batch the run chose
(`micro_batch: auto`), per-step losses and the validation loss. Rows:
  hf          liger=false compile=false: plain Hugging Face + SDPA, at micro-batch 12 (its best in cpt_throughput_h200.json)
  bf16        the shipped config as it is (micro_batch: auto, global batch 64 x 2048, Liger fused CE, compiled layers)
  bf16_seed1  the same with seed=1: the run-to-run noise of the loss (another init and data order)
  fp8         the shipped config with precision=fp8 (float8 matmuls where they pay, bf16 elsewhere)
  bf16_3b / fp8_3b   the same two on model=preset:llama-3.2-3b, global batch 32 (a step of 64 rows takes 5 s there; tokens/s
              do not depend on it)
  bf16_3b_mb8 / fp8_3b_mb8   the 3B pair for speed alone: micro_batch=8 (what auto chose) and no validation, for one call to
              hold both; `--steps 6 --skip 2 --row-timeout 105` kills each after its steps, during the final save (the 3B's
              checkpoint and final/ take minutes), and its logged steps are still read. fp8_over_bf16_3b comes from this pair.
  bf16_seed2_200, fp8_seed1_200, fp8_seed2_200   more seeds of the same (seed k shares init and data order in bf16 and fp8):
              three seeds of each give the noise of the final validation loss and fp8's difference in it with an interval
  bf16_200, bf16_seed1_200, fp8_200   the loss comparison: 200 steps of the shipped config at global batch 8 (micro-batch 8,
              16k tokens a step, so three runs fit one device call), warmup 20 steps; seed 0 and seed 1 in bf16 give the
              run-to-run noise of the loss, fp8 seed 0 is compared with bf16 seed 0 against it. --concurrent runs them at once on
              the one GPU (their tokens/s are then not a speed figure and are marked so).
Rows already in --out are kept (one device call may not fit them all). The limit: 790 TFLOP/s / 6N tokens/s.
"""
import argparse, json, os, platform, re, shutil, statistics, subprocess, sys, time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = 'configs/cpt_llama-3.2-1b_1gpu.yml'
PEAK, PARAMS = 790e12, {'1b': 1_235_814_400, '3b': 3_212_749_824}   # dense bf16 matmul rate measured on the H200; all parameters (tied)
LOSS_RUN = ['global_batch=8', 'micro_batch=8']   # the 200-step comparison: 16k tokens a step
ROWS = {   # name: (shape, overrides, steps (None: --steps), warmup steps)
    'hf': ('1b', ['liger=false', 'compile=false', 'micro_batch=12', 'global_batch=48'], None, 5),
    'bf16': ('1b', [], None, 5),
    'bf16_seed1': ('1b', ['seed=1'], None, 5),
    'fp8': ('1b', ['precision=fp8'], None, 5),
    'bf16_3b': ('3b', ['model=preset:llama-3.2-3b', 'global_batch=32'], None, 5),
    'fp8_3b': ('3b', ['model=preset:llama-3.2-3b', 'global_batch=32', 'precision=fp8'], None, 5),
    # the 3B pair for speed alone, in one device call: the micro-batch auto chose (8), no validation, killed with --row-timeout
    # after its steps (the 3B's checkpoint and final/ take minutes to write, which a device call has no time for)
    'bf16_3b_mb8': ('3b', ['model=preset:llama-3.2-3b', 'global_batch=32', 'micro_batch=8', 'valid_data=null'], None, 5),
    'fp8_3b_mb8': ('3b', ['model=preset:llama-3.2-3b', 'global_batch=32', 'micro_batch=8', 'valid_data=null', 'precision=fp8'], None, 5),
    'bf16_200': ('1b', LOSS_RUN, 200, 20),
    'bf16_seed1_200': ('1b', LOSS_RUN + ['seed=1'], 200, 20),
    'fp8_200': ('1b', LOSS_RUN + ['precision=fp8'], 200, 20),
    # more seeds of the same, for a noise measured on more than one pair: seed k in bf16 and in fp8 share init and data order
    'bf16_seed2_200': ('1b', LOSS_RUN + ['seed=2'], 200, 20),
    'fp8_seed1_200': ('1b', LOSS_RUN + ['precision=fp8', 'seed=1'], 200, 20),
    'fp8_seed2_200': ('1b', LOSS_RUN + ['precision=fp8', 'seed=2'], 200, 20),
}
SEEDS = {'bf16': ['bf16_200', 'bf16_seed1_200', 'bf16_seed2_200'], 'fp8': ['fp8_200', 'fp8_seed1_200', 'fp8_seed2_200']}   # seeds 0, 1, 2


def runs_dir(need_gib:float=60) -> Path:
    "A RAM disk when it has room for a run's checkpoint and final/ (the 1B's are 20 GB, the 3B's 51), else /tmp."
    shm = Path('/dev/shm')
    if shm.is_dir() and shutil.disk_usage(shm).free > need_gib * 2**30: return shm/'azllm-h200-runs'
    return Path('/tmp/azllm-h200-runs')


def start_row(name, steps, base, extra_keys=()):
    "Start row `name`'s `azllm train` in its own process: (process, command, output directory, start time)."
    shape, extra, row_steps, warmup = ROWS[name]
    steps = row_steps or steps
    out = base/name
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, '-m', 'azllm.cli', 'train', CONFIG, f'output_dir={out}', f'max_steps={steps}', 'save_every=100000',
           f'warmup_steps={warmup}', f'eval_every={steps}', 'eval_rows=32', 'tensorboard=false', *extra, *extra_keys]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT), cmd, out, time.time()


def run_row(name, steps, skip, base, timeout=None, extra_keys=()):
    return finish_row(name, *start_row(name, steps, base, extra_keys), skip=skip, timeout=timeout)


def finish_row(name, proc, cmd, out, t, skip, timeout=None):
    "Wait for a row's process; its record from the run's log.jsonl and summary.json."
    shape = ROWS[name][0]
    killed = False
    try: stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill(); stdout, stderr = proc.communicate(); killed = True
        stderr += f'\n(killed after {timeout:.0f} s: the device call had no more time)'
    wall = round(time.time() - t, 1)
    from azllm.rundir import read_log
    log = [x for x in read_log(out) if 'loss' in x] if (out/'log.jsonl').is_file() else []
    printed = [l for l in stdout.splitlines() if l.startswith(('cpt:', 'micro_batch'))]
    def from_log(**more):     # what every row reads from log.jsonl
        tps = statistics.median(x['tok_per_s'] for x in log[skip:])
        return dict(cmd=' '.join(cmd[1:]), shape=shape, wall_s=wall, **more, median_tok_per_s=tps, of_limit=tps * 6 * PARAMS[shape] / PEAK,
                    peak_mem_gib=max(x['peak_mem_gib'] for x in log), first_loss=log[0]['loss'], last_loss=log[-1]['loss'],
                    losses=[round(x['loss'], 4) for x in log], tok_per_s_steps=[round(x['tok_per_s']) for x in log], printed=printed)
    if killed and len(log) > skip:   # its steps ran; killed while saving or validating: no summary.json, the batch from its printed line
        m = next((re.search(r'micro_batch (\d+) x grad_accum (\d+) x \d+ processes, (\w+)', l) for l in printed if 'grad_accum' in l), None)
        row = from_log(killed_after_steps=True, steps_logged=len(log),
                       batch=dict(micro_batch=int(m[1]), grad_accum=int(m[2]), chosen=m[3]) if m else None)
        shutil.rmtree(out, ignore_errors=True)
        return row
    if proc.returncode:
        print(name, 'failed:', stderr[-3000:], flush=True)
        shutil.rmtree(out, ignore_errors=True)
        return dict(cmd=' '.join(cmd[1:]), failed=True, rc=proc.returncode, stderr_tail=stderr[-1500:], wall_s=wall)
    s = json.loads((out/'summary.json').read_text())
    row = from_log(liger=s['liger'], compiled=s['compiled'], fp8_layers=s.get('fp8_layers', 0), batch=s.get('batch'),
                   val_loss=s.get('val_loss'), val_bpb=s.get('val_bpb'))
    shutil.rmtree(out, ignore_errors=True)      # 15-40 GB of checkpoint per row
    return row


def max_diff(a, b): return max(abs(x - y) for x, y in zip(a['losses'], b['losses']))
def tail_diff(a, b, n=50): return statistics.mean(abs(x - y) for x, y in list(zip(a['losses'], b['losses']))[-n:])


def seed_comparison(r, seeds) -> dict:
    """fp8 against bf16 over several seeds: the final validation loss of each (mean, standard deviation), fp8 minus bf16 per seed
    (the same init and data order: the precision's own effect) with its standard error, and whether fp8's mean lies within two
    standard errors of bf16's (the seeds' spread is the noise); the train-loss gap of the last 50 steps, fp8 vs bf16 at the same
    seed against bf16 vs bf16 at different seeds."""
    has_val = lambda k: r[k].get('val_loss') is not None       # a row killed after its steps has its losses but no validation
    val = {p: {k: r[k]['val_loss'] for k in ks if has_val(k)} for p, ks in seeds.items()}
    mean = {p: statistics.mean(v.values()) for p, v in val.items()}
    sd = {p: statistics.stdev(v.values()) for p, v in val.items()}
    se = (sd['bf16'] ** 2 / len(val['bf16']) + sd['fp8'] ** 2 / len(val['fp8'])) ** 0.5
    pairs = [(f, b) for f, b in zip(SEEDS['fp8'], SEEDS['bf16']) if f in seeds['fp8'] and b in seeds['bf16']]   # seed k in both
    paired = [r[f]['val_loss'] - r[b]['val_loss'] for f, b in pairs if has_val(f) and has_val(b)]
    b = seeds['bf16']
    return dict(rows=seeds, val_loss=val, mean=mean, sd=sd, fp8_minus_bf16=mean['fp8'] - mean['bf16'], se=se,
                within_2se=abs(mean['fp8'] - mean['bf16']) <= 2 * se,
                paired_fp8_minus_bf16=paired, paired_mean=statistics.mean(paired),
                paired_se=statistics.stdev(paired) / len(paired) ** 0.5 if len(paired) > 1 else None,
                tail_gap=dict(fp8_vs_bf16_same_seed=[tail_diff(r[f], r[b_]) for f, b_ in pairs],
                              bf16_vs_bf16=[tail_diff(r[b[i]], r[b[j]]) for i in range(len(b)) for j in range(i + 1, len(b))]))


def summarize(r):
    ok = lambda k: k in r and not r[k].get('failed')
    tp = lambda k: r[k]['median_tok_per_s']
    s = {}
    if ok('bf16') and ok('hf'): s['bf16_over_hf'] = tp('bf16') / tp('hf')
    if ok('fp8') and ok('bf16'): s['fp8_over_bf16'] = tp('fp8') / tp('bf16'); s['loss_max_abs_diff_fp8_vs_bf16'] = max_diff(r['fp8'], r['bf16'])
    if ok('bf16_seed1') and ok('bf16'): s['loss_noise_bf16_seeds'] = max_diff(r['bf16_seed1'], r['bf16'])
    if ok('fp8_3b') and ok('bf16_3b'):
        s['fp8_over_bf16_3b'] = tp('fp8_3b') / tp('bf16_3b'); s['loss_max_abs_diff_fp8_vs_bf16_3b'] = max_diff(r['fp8_3b'], r['bf16_3b'])
    if ok('fp8_3b_mb8') and ok('bf16_3b_mb8'):     # the speed pair, when measured: the 3B ratio from it
        s['fp8_over_bf16_3b_auto'] = s.get('fp8_over_bf16_3b')
        s['fp8_over_bf16_3b'] = tp('fp8_3b_mb8') / tp('bf16_3b_mb8')
    if 'loss_noise_bf16_seeds' in s and 'loss_max_abs_diff_fp8_vs_bf16' in s:
        s['fp8_loss_within_noise'] = s['loss_max_abs_diff_fp8_vs_bf16'] <= s['loss_noise_bf16_seeds']
    if all(ok(k) for k in ('bf16_200', 'bf16_seed1_200', 'fp8_200')):   # the 200-step comparison: three measures, fp8 against the seeds
        a, b, f = r['bf16_200'], r['bf16_seed1_200'], r['fp8_200']
        c = dict(steps=len(a['losses']), rows=LOSS_RUN,
                 max_abs_diff=dict(fp8_vs_bf16=max_diff(f, a), seed1_vs_seed0=max_diff(b, a)),
                 mean_abs_diff_last_50=dict(fp8_vs_bf16=tail_diff(f, a), seed1_vs_seed0=tail_diff(b, a)),
                 val_loss_abs_diff=dict(fp8_vs_bf16=abs(f['val_loss'] - a['val_loss']), seed1_vs_seed0=abs(b['val_loss'] - a['val_loss'])))
        c['within_noise'] = {k: v['fp8_vs_bf16'] <= v['seed1_vs_seed0'] for k, v in c.items() if isinstance(v, dict)}
        s['loss_200'] = c
    seeds = {p: [k for k in names if ok(k)] for p, names in SEEDS.items()}
    if all(sum(r[k].get('val_loss') is not None for k in ks) >= 2 for ks in seeds.values()):   # the noise from more than one pair
        s['loss_200_seeds'] = seed_comparison(r, seeds)
    if ok('bf16'): s['bf16_tok_per_s'] = tp('bf16')
    s['targets'] = dict(bf16_tok_per_s=85_000, bf16_over_hf=1.8, fp8_over_bf16=1.15, fp8_over_bf16_3b=1.3)
    return s


def versions():
    v = {}
    for p in ('torch', 'transformers', 'liger-kernel', 'torchao'):
        try: v[p] = metadata.version(p)
        except metadata.PackageNotFoundError: v[p] = None
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--rows', default='hf,bf16,bf16_seed1,fp8', help=f"rows to run now, from {', '.join(ROWS)}")
    ap.add_argument('--steps', type=int, default=16, help='optimizer steps per run')
    ap.add_argument('--skip', type=int, default=5, help='first steps left out of the median (compilation, warm-up)')
    ap.add_argument('--out', default=str(ROOT/'benchmarks/results/cpt_llama-3.2-1b_h200.json'))
    ap.add_argument('--concurrent', action='store_true', help='run the rows at once on the one GPU (loss comparisons; tokens/s then mean nothing)')
    ap.add_argument('--set', action='append', default=[], metavar='KEY=VALUE',
                    help='an override added to every row (a diagnostic: write such rows to another --out)')
    ap.add_argument('--row-timeout', type=float, default=None, help='seconds after which a row is killed (its logged steps still count)')
    ap.add_argument('--deadline', type=float, default=None, help='seconds from now after which a running row is killed (the device call ends)')
    a = ap.parse_args()
    end = time.time() + a.deadline if a.deadline else None
    left = lambda: min([x for x in (None if end is None else max(1.0, end - time.time()), a.row_timeout) if x is not None], default=None)
    import torch
    res = dict(command='python ' + ' '.join(sys.argv), config=CONFIG, machine=platform.node(),
               gpu=torch.cuda.get_device_name() if torch.cuda.is_available() else 'cpu', versions=versions(),
               limit=f'{PEAK / 1e12:.0f} TFLOP/s dense bf16 (measured) / 6N per token; N = all parameters (tied)', runs={})
    if Path(a.out).exists():
        prev = json.loads(Path(a.out).read_text())
        res['runs'] = {k: v for k, v in prev.get('runs', {}).items() if k in ROWS}
    names = [x for x in a.rows.split(',') if x]
    def record(name, row):
        res['runs'][name] = dict(row, invocation=res['command'])
        print(name, {k: v for k, v in row.items() if k not in ('losses', 'cmd', 'printed')}, flush=True)
        res['summary'] = summarize(res['runs'])
        Path(a.out).write_text(json.dumps(res, indent=2) + '\n')
    if a.concurrent:    # at most one on the RAM disk: with two there, the host ran out of memory as three runs saved at once (rc -9)
        started = [(n, start_row(n, a.steps, runs_dir(25) if i == len(names) - 1 else Path('/tmp/azllm-h200-runs'), a.set)) for i, n in enumerate(names)]
        for n, st in started: record(n, dict(finish_row(n, *st, skip=a.skip, timeout=left()), concurrent=len(names)))
    else:
        for name in names: record(name, run_row(name, a.steps, a.skip, runs_dir(60 if ROWS[name][0] == '3b' else 25), timeout=left(), extra_keys=a.set))
    print(json.dumps(res['summary'], indent=1))


if __name__ == '__main__':
    main()
