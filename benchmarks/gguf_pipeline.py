"""The shipped 1B pipeline's outputs exported to GGUF by the real command: SFT and DPO runs of the shipped configs (a few steps
on the Llama 3.2 1B shape, random init, the Llama 3 tokenizer), each exported with `azllm export RUN --gguf --quant Q`, timed
end to end, with the round trip each export wrote (`round_trip.json`: ids identical, logits, greedy agreement, the reader).

    python benchmarks/gguf_pipeline.py                    # on the H200 host: writes benchmarks/results/gguf_pipeline_h200.json
    python benchmarks/gguf_pipeline.py --tiny             # CPU smoke run (the tiny preset): gguf_pipeline_cpu_tiny.json

Commands (as a user types them):
    azllm train configs/sft_llama-3.2-1b.yml model=preset:llama-3.2-1b max_steps=2 output_dir=W/sft
    azllm train configs/dpo_llama-3.2-1b.yml model=W/sft max_steps=2 output_dir=W/dpo
    azllm export W/sft --gguf --quant f16 --out W/gguf-sft-f16      (and q8_0, and the same for W/dpo)
"""
import argparse, json, platform, shutil, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CPU = ['precision=fp32', 'attn_implementation=sdpa', 'compile=false', 'micro_batch=2', 'seq_len=256']   # the tiny smoke run on a CPU


def run(cmd:list) -> tuple:
    "Run one azllm command; its wall time, exit code and the last lines it printed."
    print('+ azllm', ' '.join(map(str, cmd)), flush=True)
    t0 = time.time()
    p = subprocess.run([sys.executable, '-m', 'azllm.cli', *map(str, cmd)], cwd=ROOT, capture_output=True, text=True)
    tail = [l for l in (p.stdout + p.stderr).replace('\r', '\n').splitlines() if l.strip() and '%|' not in l][-3:]   # progress bars left out
    print('\n'.join(tail), flush=True)
    return time.time() - t0, p.returncode, tail


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--tiny', action='store_true', help='CPU smoke run on the tiny preset')
    ap.add_argument('--steps', type=int, default=2, help='optimizer steps of each training run')
    ap.add_argument('--quants', default='f16,q8_0')
    ap.add_argument('--work', default='runs/gguf-pipeline')
    ap.add_argument('--out')
    a = ap.parse_args(argv)
    work, preset = ROOT/a.work, 'llama-tiny' if a.tiny else 'llama-3.2-1b'
    out = Path(a.out or ROOT/'benchmarks'/'results'/f"gguf_pipeline_{'cpu_tiny' if a.tiny else 'h200'}.json")
    extra = CPU if a.tiny else []
    if work.exists():                                    # ours from an earlier run (marked), else refuse: never delete what this script did not make
        if not (work/'.gguf_pipeline').exists(): raise SystemExit(f'{work} exists and was not made by this script: pass another --work')
        shutil.rmtree(work)
    work.mkdir(parents=True); (work/'.gguf_pipeline').write_text('made by benchmarks/gguf_pipeline.py\n')
    res = dict(command='python benchmarks/gguf_pipeline.py ' + ' '.join(argv if argv is not None else sys.argv[1:]),
               machine=f'{platform.node()} {platform.machine()}', preset=preset, steps=a.steps, runs={}, exports=[])
    try:
        import torch, transformers
        res['versions'] = dict(torch=torch.__version__, transformers=transformers.__version__)
        if torch.cuda.is_available(): res['machine'] = torch.cuda.get_device_name()
    except ImportError: pass
    stages = [('sft', ['configs/sft_llama-3.2-1b.yml', f'model=preset:{preset}']),
              ('dpo', ['configs/dpo_llama-3.2-1b.yml', f"model={work/'sft'}"])]
    for name, args in stages:
        s, rc, tail = run(['train', *args, f'max_steps={a.steps}', f"output_dir={work/name}", *extra])
        res['runs'][name] = dict(seconds=round(s, 1), rc=rc, tail=tail)
        if rc: break
        for q in a.quants.split(','):
            dest = work/f'gguf-{name}-{q}'
            s, rc, tail = run(['export', work/name, '--gguf', '--quant', q, '--out', dest, '--overwrite'])
            rt = json.loads((dest/'round_trip.json').read_text()) if (dest/'round_trip.json').exists() else {}
            res['exports'].append(dict(run=name, quant=q, seconds=round(s, 1), rc=rc, tail=tail,
                                       **{k: rt.get(k) for k in ('documents', 'ids_identical', 'special_ids', 'rel_logit_diff', 'top1_agreement', 'reader', 'ok', 'llama_cpp')},
                                       file_mib=round(sum(f.stat().st_size for f in dest.glob('*.gguf')) / 2**20, 1) if dest.exists() else None))
            out.write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')   # after every export: a cut run keeps what it measured
    out.write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    for e in res['exports']: print(f"{e['run']} {e['quant']}: {e['seconds']} s, ids identical {e['ids_identical']} of {e['documents']}, ok={e['ok']}")
    print(f'wrote {out}')


if __name__ == '__main__': main()
