"""Run `azllm quickstart` once and save the figures the home page shows (nbs/index.ipynb, "The quickstart on a CPU"):
wall-clock time and the machine it ran on, bits per byte of every model beside its untrained twin, and the benchmark
scores with their 95% intervals, floors, chance and paired tests, and what each model wrote on the generation task
(distinct, empty and identical answers), all read from the run's report.json.

    python benchmarks/quickstart_cpu.py                      # the full quickstart (CPU: minutes), -> benchmarks/results/quickstart_cpu.json
    python benchmarks/quickstart_cpu.py --small --out /tmp/qs_small.json   # `--small`: every stage, a few steps (a check of this script)
"""
import argparse, json, os, platform, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

def machine() -> dict:
    "The CPU this ran on, its cores and how busy it was (the 2 cores of the project's machine are shared)."
    model = next((l.split(':', 1)[1].strip() for l in Path('/proc/cpuinfo').read_text().splitlines() if l.startswith('model name')), platform.processor()) \
        if Path('/proc/cpuinfo').exists() else platform.processor()
    return dict(cpu=model, cores=os.cpu_count(), system=f'{platform.system()} {platform.machine()}', python=platform.python_version())

def versions() -> dict:
    import importlib.metadata as md
    return {p: md.version(p) for p in ('azllm', 'torch', 'transformers', 'peft', 'lm_eval', 'sacrebleu')}

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', default=str(ROOT/'benchmarks'/'results'/'quickstart_cpu.json'), help='results JSON to write')
    ap.add_argument('--run-dir', default=None, help='quickstart run directory (default: a temporary one, kept)')
    ap.add_argument('--small', action='store_true', help='azllm quickstart --small')
    a = ap.parse_args(argv)
    run = Path(a.run_dir or tempfile.mkdtemp(prefix='azllm-qs-'))/'qs'
    cmd = ['azllm', 'quickstart', '--out', str(run)] + (['--small'] if a.small else [])
    load0, t0 = os.getloadavg(), time.time()
    subprocess.run(cmd, check=True, cwd=ROOT)
    wall, load1 = time.time() - t0, os.getloadavg()
    rep = json.loads((run/'report.json').read_text())
    from azllm.pipeline import QUICK_TASKS
    res = dict(command=f"python benchmarks/quickstart_cpu.py{' --small' if a.small else ''}", runs=' '.join(cmd[:3] + ['DIR'] + cmd[4:]),
               machine=machine() | dict(load_average_before=load0[0], load_average_after=load1[0]), versions=versions(),
               wall_seconds=wall, timings=rep['timings'], small=a.small,
               tasks=QUICK_TASKS,   # the task set measured: the home page shows these figures only while the quickstart runs the same
               bpb=rep['bpb'], floors={n: dict(of=f['of'], bpb=f['bpb']) for n, f in rep.get('floors', {}).items()},
               floor_of=rep.get('controls', {}).get('floor_of', {}), fertility={k: v['fertility'] for k, v in rep['fertility'].items()},
               sft={k: rep['sft'][k] for k in ('train_loss', 'valid_loss', 'steps')} if 'sft' in rep else None,
               controls=rep.get('controls'), generation_checks=rep.get('generation_checks'))
    Path(a.out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    print(f'{wall:.0f} s; wrote {a.out} (run kept in {run})')

if __name__ == '__main__': main()
