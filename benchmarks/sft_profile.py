"""Where the time of one LoRA SFT step goes on a GPU: the real engine (`Trainer.setup` on configs/sft_llama-3.2-1b.yml with
the keys each variant names), timed steps, then a torch.profiler trace of a few steps, split by kind of GPU work.

    python benchmarks/sft_profile.py [--variants NAME:key=value,key=value;NAME2:...] [--out benchmarks/results/sft_profile_h200.json]

Per variant (each in its own process): real tokens/s (median of `--timed` steps of the engine's own `train_step`, after
`--warm` steps that compile), peak GiB, and for `--profiled` steps: GPU time by category (frozen matmuls, LoRA
matmuls, the head's matmuls inside the fused cross-entropy, attention, the cross-entropy kernel, compiled elementwise
kernels, other elementwise, optimizer, copies), by phase (forward, backward, optimizer step), the share of the step the
GPU is idle (launch gaps and host syncs), the top kernels, and the achieved TFLOP/s of each matmul shape. A matmul is
`LoRA` when one of its operands has the LoRA rank as a dimension, `head` when one has the vocabulary size, else
`frozen`. `gemm_floor` times the 1B shape's frozen matmuls alone (forward and input gradient, bf16, on random data).
"""
import argparse, gzip, json, os, statistics, subprocess, sys, tempfile, time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT/'benchmarks'))
DATA = ROOT/'data_samples/sft/train.jsonl'
CFG_1B = ROOT/'configs/sft_llama-3.2-1b.yml'
DEFAULT = ('dropout0_fp32frozen:lora_dropout=0,lora_kernels=false,frozen_bf16=false;'
           'dropout0:lora_dropout=0,lora_kernels=false;'
           'kernels:lora_dropout=0,lora_kernels=true;'
           'kernels_mb16:lora_dropout=0,lora_kernels=true,micro_batch=16')


def parse_variants(spec:str) -> dict:
    "NAME:key=value,... separated by ';' -> {name: {key: value}} (values read as YAML scalars)."
    import yaml
    out = {}
    for part in filter(None, (p.strip() for p in spec.split(';'))):
        name, _, kv = part.partition(':')
        out[name] = {k: yaml.safe_load(v) for k, v in (x.split('=', 1) for x in filter(None, kv.split(',')))}
    return out


def trainer_for(keys:dict, out_dir:Path, steps:int, config:Path=CFG_1B, model:str='preset:llama-3.2-1b'):
    "The engine exactly as `azllm train` builds it, on an SFT config (the 1B one) with `keys` changed."
    import yaml
    from azllm.config import load_config
    from azllm.sft import SFTRun, SFTTask
    from azllm.trainer import Trainer
    cfg = {**yaml.safe_load(Path(config).read_text()), 'model': model, 'output_dir': str(out_dir), 'train_data': str(DATA),
           'valid_data': None, 'max_steps': steps, 'warmup_steps': 2, 'log_every': 1, 'save_every': 10 * steps, 'eval_every': 0,
           'tensorboard': False, 'write_into_existing': True, **keys}
    path = out_dir.with_suffix('.yml'); path.write_text(yaml.safe_dump(cfg))
    t = Trainer(load_config(path, SFTRun), SFTTask(progress=False), progress=False)
    t.setup()
    return t


def marked_step(eng, batches, n_items):
    "`train_step` with record_function ranges around forward, backward and the optimizer (same calls, same order)."
    import torch
    from torch.profiler import record_function
    from azllm.engine import lm_loss
    from azllm.runtime import autocast
    for b in batches:
        with record_function('phase:forward'), autocast(eng.bf16, eng.rt.device.type): loss, _ = lm_loss(eng.model, b, n_items)
        with record_function('phase:backward'): loss.backward()
    with record_function('phase:optimizer'):
        params = [p for p in eng.model.parameters() if p.requires_grad]
        torch.nn.utils.clip_grad_norm_(params, eng.grad_clip or float('inf'))
        eng.opt.step(); eng.sched.step(); eng.opt.zero_grad(set_to_none=True)


GEMM_WORDS = ('gemm', 'nvjet', 'cutlass', 'xmma', 'wgmma', 'sm90_', 'cublas', 'splitk')


def kernel_kind(name:str, op:str, dims, rank:int, vocab:int) -> str:
    n, op = name.lower(), (op or '').lower()
    shapes = [d for d in (dims or []) if isinstance(d, list) and len(d) == 2]
    if any(w in n for w in GEMM_WORDS) or op in ('aten::mm', 'aten::addmm', 'aten::bmm', 'aten::baddbmm', 'aten::_scaled_mm'):
        if 'flex' in n or 'attention' in n: return 'attention'
        if any(vocab in d for d in shapes): return 'matmul: head (in the fused CE)'
        if any(rank in d for d in shapes): return 'matmul: LoRA A/B'
        if shapes: return 'matmul: frozen base'
        return 'matmul: unattributed'
    if 'flex' in n or 'attention' in n or 'fmha' in n or 'flash' in n or 'triton_tem' in n: return 'attention'
    if 'liger' in n or 'cross_entropy' in n: return 'cross-entropy kernel'
    if 'multi_tensor' in n or 'adam' in n or 'foreach' in n: return 'optimizer / grad norm (foreach)'
    if n.startswith('triton_'): return 'compiled elementwise (Inductor)'
    if 'memcpy' in n or 'memset' in n: return 'copies and memsets'
    return 'other kernels (eager)'


def summarize_trace(trace:dict, n_steps:int, rank:int, vocab:int, wall_s:float) -> dict:
    "GPU time by category and by phase, idle share, top kernels and matmul shapes of a chrome trace."
    ev = trace['traceEvents']
    ops = {e['args']['External id']: e for e in ev if e.get('cat') == 'cpu_op' and 'External id' in e.get('args', {})}
    launches = {e['args']['correlation']: e['ts'] for e in ev if e.get('cat') in ('cuda_runtime', 'cuda_driver') and 'correlation' in e.get('args', {})}
    phases = sorted((e['ts'], e['ts'] + e['dur'], e['name'].split(':', 1)[1]) for e in ev
                    if e.get('cat') == 'user_annotation' and e.get('name', '').startswith('phase:'))
    kernels = [e for e in ev if e.get('cat') in ('kernel', 'gpu_memcpy', 'gpu_memset')]
    by_kind, by_phase, top, shapes = defaultdict(float), defaultdict(float), defaultdict(lambda: [0.0, 0]), defaultdict(lambda: [0.0, 0, 0.0])
    ivals = []
    for k in kernels:
        dur = k['dur'] / 1e3                                            # ms
        op = ops.get(k.get('args', {}).get('External id'))
        dims = op['args'].get('Input Dims') if op else None
        kind = kernel_kind(k['name'], op and op['name'], dims, rank, vocab) if k.get('cat') == 'kernel' else 'copies and memsets'
        by_kind[kind] += dur
        t = launches.get(k.get('args', {}).get('correlation'))
        ph = next((p for a, b, p in phases if t is not None and a <= t <= b), 'outside')
        by_phase[ph] += dur
        top[k['name'][:120]][0] += dur; top[k['name'][:120]][1] += 1
        if kind.startswith('matmul') and dims:
            mats = [d for d in dims if isinstance(d, list) and len(d) == 2][:2]
            if len(mats) == 2 and mats[0][1] == mats[1][0]:
                key = f"{kind.split(': ')[1]} {mats[0][0]}x{mats[0][1]} @ {mats[1][0]}x{mats[1][1]}"
                s = shapes[key]; s[0] += dur
                if k.get('cat') == 'kernel' and 'splitKreduce' not in k['name']: s[1] += 1; s[2] += 2 * mats[0][0] * mats[0][1] * mats[1][1]   # one count per matmul
        ivals.append((k['ts'], k['ts'] + k['dur']))
    ivals.sort()
    busy, end = 0.0, None
    for a, b in ivals:
        if end is None or a > end: busy += b - a; end = b
        elif b > end: busy += b - end; end = b
    span = (ivals[-1][1] - ivals[0][0]) if ivals else 0.0
    per = lambda d: {k: round(v / n_steps, 3) for k, v in sorted(d.items(), key=lambda kv: -kv[1])}
    total = sum(by_kind.values())
    return dict(steps=n_steps, wall_ms_per_step=wall_s * 1e3 / n_steps, gpu_span_ms_per_step=span / 1e3 / n_steps,
                gpu_busy_ms_per_step=busy / 1e3 / n_steps, gpu_idle_share=1 - busy / span if span else None,
                kernel_ms_per_step=total / n_steps, ms_per_step_by_kind=per(by_kind),
                share_by_kind={k: round(v / total, 4) for k, v in sorted(by_kind.items(), key=lambda kv: -kv[1])},
                ms_per_step_by_phase=per(by_phase), kernels_per_step=len(kernels) / n_steps,
                top_kernels=[dict(name=n, ms_per_step=round(v[0] / n_steps, 3), calls_per_step=v[1] / n_steps)
                             for n, v in sorted(top.items(), key=lambda kv: -kv[1][0])[:30]],
                matmul_shapes=[dict(shape=n, ms_per_step=round(v[0] / n_steps, 3), calls_per_step=v[1] / n_steps,
                                    tflops=round(v[2] / (v[0] / 1e3) / 1e12, 1) if v[0] else None)
                               for n, v in sorted(shapes.items(), key=lambda kv: -kv[1][0])[:25]])


def run_variant(name:str, keys:dict, warm:int, timed:int, profiled:int, trace_dir:str|None, config:Path=CFG_1B,
                model:str='preset:llama-3.2-1b') -> dict:
    "One variant in this process: timed steps of the engine's `train_step`, then a profiled few."
    import torch
    from torch.profiler import profile, ProfilerActivity
    from azllm.engine import step_batches, train_step
    tmp = Path(tempfile.mkdtemp(prefix=f'prof-{name}-'))
    n_steps = warm + timed + profiled
    t0 = time.time()
    t = trainer_for(keys, tmp/'run', n_steps, config, model)
    setup_s = time.time() - t0
    eng, rt, cfg = t.eng, t.rt, t.cfg
    cuda = rt.cuda
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    def batches(s):
        mbs, n_items, n_tok = step_batches(t.train_data, t.order, s, rt)
        return [{k: v.to(rt.device, non_blocking=True) for k, v in b.items()} for b in mbs], n_items, n_tok
    rates, first_s = [], None
    if cuda: torch.cuda.reset_peak_memory_stats()
    for s in range(warm + timed):
        b, n_items, n_tok = batches(s)
        sync(); a = time.perf_counter()
        train_step(eng, b, n_items)
        sync(); dt = time.perf_counter() - a
        if s == 0: first_s = dt
        if s >= warm: rates.append(n_tok / dt)
    peak = torch.cuda.max_memory_allocated() / 2**30 if cuda else None
    steps = [batches(warm + timed + i) for i in range(profiled)]
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    with profile(activities=acts, record_shapes=True) as prof:
        sync(); a = time.perf_counter()
        for b, n_items, _ in steps: marked_step(eng, b, n_items)
        sync(); wall = time.perf_counter() - a
    path = tmp/'trace.json'; prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    vocab = eng.model.get_output_embeddings().weight.shape[0] if hasattr(eng.model, 'get_output_embeddings') else 128256
    res = dict(keys=keys, tok_per_s=statistics.median(rates), tok_per_s_all=[round(r) for r in rates], peak_gib=peak,
               real_tokens_per_step=statistics.mean(n for _, _, n in steps), first_step_s=first_s, setup_s=setup_s,
               batch=t.batch, info={k: t.info.get(k) for k in ('liger', 'compiled', 'lora_kernels', 'frozen_bf16', 'fp8_layers', 'fp8_frozen')},
               profile=summarize_trace(trace, profiled, cfg.lora_r, vocab, wall))
    if trace_dir:
        with gzip.open(Path(trace_dir)/f'trace_{name}.json.gz', 'wt') as f: json.dump(trace, f)
    t.cleanup()
    return res


def gemm_floor(micro_batch:int=8, seq:int=2048, reps:int=20) -> dict:
    "bf16 time of the 1B shape's frozen matmuls alone per step (16 layers: forward x W^T and input gradient dy W), and of the head's."
    import torch
    from triton.testing import do_bench
    N, d, f, kv, V = micro_batch * seq, 2048, 8192, 512, 128256
    out, total = {}, 0.0
    for name, (i, o) in dict(q=(d, d), k=(d, kv), v=(d, kv), o=(d, d), gate=(d, f), up=(d, f), down=(f, d)).items():
        x, W, dy = (torch.randn(*s, device='cuda', dtype=torch.bfloat16) for s in ((N, i), (o, i), (N, o)))
        fwd = do_bench(lambda: x @ W.t(), warmup=25, rep=100, return_mode='median')
        bwd = do_bench(lambda: dy @ W, warmup=25, rep=100, return_mode='median')
        out[name] = dict(fwd_ms=fwd, dx_ms=bwd, tflops=4 * N * i * o / ((fwd + bwd) / 1e3) / 1e12)
        total += 16 * (fwd + bwd)
    x, W, g = (torch.randn(*s, device='cuda', dtype=torch.bfloat16) for s in ((N, d), (V, d), (N, V // 32)))
    chunk = N // 32                                   # Liger's chunking for this shape: 32 chunks
    xc, gc = x[:chunk], torch.randn(chunk, V, device='cuda', dtype=torch.bfloat16)
    head = 32 * (do_bench(lambda: xc @ W.t(), warmup=25, rep=100, return_mode='median')
                 + do_bench(lambda: gc @ W, warmup=25, rep=100, return_mode='median'))
    Wf = torch.randn(V, d, device='cuda')
    cast = do_bench(lambda: Wf.to(torch.bfloat16), warmup=25, rep=100, return_mode='median')
    return dict(micro_batch=micro_batch, per_projection=out, frozen_ms_per_step=total, head_ms_per_step=head,
                head_weight_cast_ms=cast, tokens=N,
                frozen_tok_per_s_if_only_matmuls=N / ((total + head) / 1e3))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--variants', default=DEFAULT, help="NAME:key=value,...;NAME2:... (keys of the SFT config)")
    ap.add_argument('--warm', type=int, default=6, help='steps before timing (compilation)')
    ap.add_argument('--timed', type=int, default=10)
    ap.add_argument('--profiled', type=int, default=3)
    ap.add_argument('--gemm-floor', action='store_true', help='also time the frozen matmuls alone')
    ap.add_argument('--trace-dir', help='write each gzipped chrome trace here')
    ap.add_argument('--config', default=str(CFG_1B), help='the SFT config the variants change')
    ap.add_argument('--model', default='preset:llama-3.2-1b', help="the config's model replaced by this (random init: no weights here)")
    ap.add_argument('--one', help=argparse.SUPPRESS)
    ap.add_argument('--out', default=str(ROOT/'benchmarks/results/sft_profile_h200.json'))
    a = ap.parse_args()
    if a.one:                                          # child: one variant (or the matmul floor), JSON on the last line
        r = gemm_floor() if a.one == 'gemm_floor' else run_variant(a.one, parse_variants(a.variants)[a.one], a.warm, a.timed, a.profiled, a.trace_dir, a.config, a.model)
        print(json.dumps(r)); return
    import torch, transformers, peft
    old = json.loads(Path(a.out).read_text()) if Path(a.out).exists() else {}
    gpu = torch.cuda.get_device_name() if torch.cuda.is_available() else 'cpu'
    res = dict(command='python benchmarks/sft_profile.py ' + ' '.join(sys.argv[1:]), gpu=gpu,
               versions={m.__name__: m.__version__ for m in (torch, transformers, peft)}, variants=old.get('variants', {}))
    names = list(parse_variants(a.variants)) + (['gemm_floor'] if a.gemm_floor else [])
    for name in names:
        t0 = time.time()
        p = subprocess.run([sys.executable, __file__, '--one', name, '--variants', a.variants, '--warm', str(a.warm), '--timed', str(a.timed),
                            '--profiled', str(a.profiled), '--config', a.config, '--model', a.model] + (['--trace-dir', a.trace_dir] if a.trace_dir else []), capture_output=True, text=True)
        if p.returncode: print(p.stderr[-4000:]); r = dict(error=(p.stderr.strip().splitlines() or [''])[-1][:400])
        else: r = json.loads(p.stdout.strip().splitlines()[-1])
        r['wall_s'] = time.time() - t0
        if name == 'gemm_floor': res['gemm_floor'] = r
        else: res['variants'][name] = dict(r, command=res['command'])
        Path(a.out).write_text(json.dumps(res, indent=1) + '\n')
        if name != 'gemm_floor' and 'profile' in r:
            pr = r['profile']
            print(f"== {name} {r['keys']}: {r['tok_per_s']:,.0f} tok/s, peak {r['peak_gib'] or 0:.1f} GiB, step {pr['wall_ms_per_step']:.1f} ms "
                  f"(GPU busy {pr['gpu_busy_ms_per_step']:.1f}, idle {pr['gpu_idle_share'] or 0:.1%}), {pr['kernels_per_step']:.0f} kernels/step, wall {r['wall_s']:.0f} s", flush=True)
            print('   by kind (ms/step):', json.dumps(pr['ms_per_step_by_kind']))
            print('   by phase (ms/step):', json.dumps(pr['ms_per_step_by_phase']))
            for k in pr['top_kernels'][:8]: print(f"   {k['ms_per_step']:8.2f} ms {k['calls_per_step']:6.0f}x {k['name'][:90]}")
            for k in pr['matmul_shapes'][:10]: print(f"   {k['ms_per_step']:8.2f} ms {k['calls_per_step']:5.0f}x {k['tflops']} TF/s {k['shape']}")
        else: print(name, json.dumps(r)[:1500], flush=True)


if __name__ == '__main__':
    main()
