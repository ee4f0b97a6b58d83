"""CPT training throughput and memory on one GPU: Hugging Face baseline vs + Liger vs azllm's fast path.

    python benchmarks/cpt_throughput.py [--rows hf,liger,fast,fast_ckpt] [--steps 6] [--loss-steps 50]

Llama 3.2 1B shape (random init, seed 0), vocab 128,256, context 2048, bf16 autocast over fp32 weights,
fused AdamW, gradient clipping 1.0; the same random token batches for every row. Every step is
`azllm.engine.train_step` on a model set up by `azllm.engine.build_engine`: what `azllm train` runs. For each row and
micro-batch: warm-up steps, then timed steps (CUDA-synchronised wall clock), peak memory from
torch.cuda.max_memory_allocated. A micro-batch that runs out of memory ends that row's sweep.
MFU = tokens/s x 6N / 790e12, N = non-embedding parameters + vocab x hidden (the 790 TFLOP/s is the
dense bf16 matmul rate measured on this H200). Writes benchmarks/results/cpt_throughput_h200.json.
"""
import argparse, gc, json, os, platform, sys, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from transformers import LlamaConfig, LlamaForCausalLM
from azllm.model import PRESETS
from azllm.core import AzllmError
from azllm.liger import LIGER_KERNELS, profile_kernel_names, liger_kernels_in_trace
from azllm.runtime import Runtime
from azllm.engine import TrainConfig, build_engine, train_step

SEQ, VOCAB, PEAK = 2048, 128_256, 790e12
ROWS = {  # name: (liger kernels, compile decoder layers, gradient checkpointing)
    'hf': ((), False, False),
    'liger': (('rms_norm', 'rope', 'swiglu', 'fused_linear_cross_entropy'), False, False),
    'fast': (('fused_linear_cross_entropy',), True, False),
    'fast_ckpt': (('fused_linear_cross_entropy',), True, True),
}
MBS = {'hf': [4, 8, 12, 16, 20, 24], 'liger': [8, 16, 24, 32, 40, 48], 'fast': [8, 16, 32, 40, 48, 56, 64],
       'fast_ckpt': [8, 128, 256]}


def verify_liger(kernels=LIGER_KERNELS, # kernels to patch and look for
                 seq:int=512, micro_batch:int=4, seed:int=0) -> dict:
    "Patch a small Llama with Liger; check its kernels in the profiler trace, and its loss and gradients against the original, through `train_step`."
    import copy
    if not torch.cuda.is_available(): raise AzllmError("verify_liger needs a CUDA GPU")
    cfg = LlamaConfig(vocab_size=32000, hidden_size=512, intermediate_size=1408, num_hidden_layers=4, num_attention_heads=8,
                      num_key_value_heads=4, max_position_embeddings=2048)
    torch.manual_seed(seed)
    with torch.device('cuda'): ref = LlamaForCausalLM(cfg)
    models = dict(ref=ref, fused=copy.deepcopy(ref), traced=copy.deepcopy(ref))
    run = TrainConfig(output_dir='unused', train_data=['unused'], precision='bf16', liger=False, compile=False, warmup_steps=0)
    engines, grads = {}, {}
    for name, m in models.items():           # the same engine a run builds; the fused ones get Liger
        r = run if name == 'ref' else run.model_copy(update=dict(liger=True, liger_kernels=list(kernels)))
        engines[name], info = build_engine(m, r, Runtime(cuda=True), 10)
        if name == 'fused': ks = info['liger']
    for name in ('ref', 'fused'):            # the gradients as the optimizer sees them, before its step
        engines[name].opt.register_step_pre_hook(lambda opt, a, kw, name=name: grads.__setitem__(
            name, [p.grad.detach().float().clone() for p in models[name].parameters()]))
    ids = torch.randint(0, cfg.vocab_size, (micro_batch, seq + 1), device='cuda')
    batch = dict(input_ids=ids[:, :-1], shift_labels=ids[:, 1:].contiguous())
    found = liger_kernels_in_trace(profile_kernel_names(lambda: train_step(engines['traced'], [batch], micro_batch * seq)), ks)
    l_ref, l_fused = (train_step(engines[n], [batch], micro_batch * seq)['loss'].item() for n in ('ref', 'fused'))
    grad_err = max(((a - b).norm() / a.norm()).item() for a, b in zip(grads['ref'], grads['fused']))
    res = dict(kernels_in_trace=found, loss_ref=l_ref, loss_liger=l_fused, loss_rel_diff=abs(l_ref - l_fused) / l_ref,
               max_grad_rel_err=grad_err)
    if res['loss_rel_diff'] > 1e-2 or grad_err > 2e-2: raise AzllmError(f"Liger changed the results beyond bf16 tolerance: {res}")
    return res


def build(row):
    "The row's model on the GPU, set up and wrapped by the engine exactly as `azllm train` does."
    kernels, compiled, ckpt = ROWS[row]
    cfg = LlamaConfig(vocab_size=VOCAB, **PRESETS['llama-3.2-1b'])
    cfg._attn_implementation = 'sdpa'
    torch.manual_seed(0)
    with torch.device('cuda'): model = LlamaForCausalLM(cfg)      # init on the GPU: seconds, not minutes
    run = TrainConfig(output_dir='unused', train_data=['unused'], lr=3e-4, warmup_steps=0, precision='bf16', liger=bool(kernels),
                      liger_kernels=list(kernels) or 'auto', compile=compiled, grad_checkpointing=ckpt)
    eng, _ = build_engine(model, run, Runtime(cuda=True), total_steps=10**6)
    return eng


def batch(mb, i=0):
    g = torch.Generator(device='cuda').manual_seed(1000 + i)
    return torch.randint(0, VOCAB, (mb, SEQ + 1), device='cuda', generator=g)


def step(eng, ids):
    "One optimizer step through azllm's own `train_step` (the one `azllm train` runs)."
    return train_step(eng, [dict(input_ids=ids[:, :-1], shift_labels=ids[:, 1:].contiguous())], ids.shape[0] * SEQ)['loss']


def measure(row, mb, steps, warmup=2):
    eng = build(row)
    ids = batch(mb)
    try:
        for _ in range(warmup): step(eng, ids)
        torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats()
        t = time.perf_counter()
        for _ in range(steps): loss = step(eng, ids)
        torch.cuda.synchronize(); dt = time.perf_counter() - t
        return dict(micro_batch=mb, tok_per_s=mb * SEQ * steps / dt, peak_gib=torch.cuda.max_memory_allocated() / 2**30,
                    loss=loss.item(), oom=False)
    except torch.OutOfMemoryError:
        return dict(micro_batch=mb, oom=True)
    finally:
        del eng; gc.collect(); torch.cuda.empty_cache(); torch._dynamo.reset()


def losses(row, n, mb=8):
    "Loss of the first `n` steps on fixed batches, to compare rows beyond bf16 noise."
    eng = build(row)
    out = [step(eng, batch(mb, i)).item() for i in range(n)]
    names = profile_kernel_names(lambda: step(eng, batch(mb, n)))
    kernels = list(ROWS[row][0])
    try: found = liger_kernels_in_trace(names, kernels) if kernels else {}
    except AzllmError as e: found = {'error': str(e)}
    del eng; gc.collect(); torch.cuda.empty_cache(); torch._dynamo.reset()
    return out, found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--rows', default='hf,liger,fast,fast_ckpt', help="rows to measure now; rows already in --out are kept")
    ap.add_argument('--steps', type=int, default=6, help='timed steps per point')
    ap.add_argument('--loss-steps', type=int, default=50, help='steps of the loss comparison (0 = skip)')
    ap.add_argument('--verify', action='store_true', help='also run verify_liger (kernels in trace, loss and grads against the unpatched model)')
    ap.add_argument('--out', default=str(ROOT/'benchmarks/results/cpt_throughput_h200.json'))
    a = ap.parse_args()
    cfg = LlamaConfig(vocab_size=VOCAB, **PRESETS['llama-3.2-1b'])
    with torch.device('meta'): n_all = sum(p.numel() for p in LlamaForCausalLM(cfg).parameters())
    n_flops = n_all   # tied: embedding = head; N = non-embedding + vocab x hidden = all parameters
    res = dict(command='python ' + ' '.join(sys.argv), gpu=torch.cuda.get_device_name(), machine=platform.node(),
               versions=dict(torch=torch.__version__, transformers=__import__('transformers').__version__,
                             liger_kernel=__import__('importlib.metadata').metadata.version('liger-kernel')),
               shape=dict(params=n_all, seq=SEQ, vocab=VOCAB), mfu_formula='tok/s * 6 * N / 790e12, N = all parameters (tied)',
               rows={})
    if Path(a.out).exists():   # rows measured by earlier invocations (one device call may not fit them all)
        prev = json.loads(Path(a.out).read_text())
        res['rows'] = prev.get('rows', {})
        if 'liger_check' in prev: res['liger_check'] = prev['liger_check']
    for row in [r for r in a.rows.split(',') if r]:
        pts = []
        for mb in MBS[row]:
            p = measure(row, mb, a.steps if mb <= 64 else 2, warmup=2 if mb <= 64 else 1); pts.append(p)
            print(row, p, flush=True)
            if p['oom']: break
        ok = [p for p in pts if not p['oom']]
        best = max(ok, key=lambda p: p['tok_per_s'])
        at8 = next((p for p in ok if p['micro_batch'] == 8), None)
        res['rows'][row] = dict(kernels=list(ROWS[row][0]), compiled=ROWS[row][1], grad_checkpointing=ROWS[row][2], points=pts,
                                best_tok_per_s=best['tok_per_s'], best_micro_batch=best['micro_batch'],
                                mfu=best['tok_per_s'] * 6 * n_flops / PEAK, peak_gib_mb8=at8 and at8['peak_gib'],
                                largest_micro_batch=max(p['micro_batch'] for p in ok),
                                first_oom=next((p['micro_batch'] for p in pts if p['oom']), None))
        Path(a.out).write_text(json.dumps(res, indent=2) + '\n')
    if a.verify:
        try: res['liger_check'] = verify_liger()
        except AzllmError as e: res['liger_check'] = {'error': str(e)}
        print('liger check', res['liger_check'], flush=True)
    if a.loss_steps:
        for row in ('hf', 'liger', 'fast'):
            if row in a.rows.split(','):
                res['rows'][row]['losses'], res['rows'][row]['kernels_in_trace'] = losses(row, a.loss_steps)
    r = res['rows']
    if 'hf' in r and 'fast' in r:
        fast_max = max(r[k]['largest_micro_batch'] for k in ('fast', 'fast_ckpt') if k in r)
        res['summary'] = dict(
            throughput_ratio=r['fast']['best_tok_per_s'] / r['hf']['best_tok_per_s'],
            peak_mem_ratio_mb8=r['fast']['peak_gib_mb8'] / r['hf']['peak_gib_mb8'],
            max_batch_ratio=fast_max / r['hf']['largest_micro_batch'],
            max_batch_note='largest micro-batch of the fast path counts the fast_ckpt row: the same fast path with '
                           'grad_checkpointing: true (the config key a run sets when it needs the larger batch)',
            loss_max_abs_diff_50=(max(abs(x - y) for x, y in zip(r['hf']['losses'], r['fast']['losses']))
                                  if 'losses' in r['hf'] and 'losses' in r['fast'] else None))
    Path(a.out).write_text(json.dumps(res, indent=2) + '\n')
    print(f"\n{'row':<10} {'best tok/s':>11} {'mb':>4} {'MFU':>6} {'GiB@mb8':>8} {'max mb':>7}")
    for k, v in r.items():
        print(f"{k:<10} {v['best_tok_per_s']:>11,.0f} {v['best_micro_batch']:>4} {v['mfu']:>6.1%} "
              f"{(v['peak_gib_mb8'] or float('nan')):>8.1f} {v['largest_micro_batch']:>7}")
    if 'summary' in res: print(json.dumps(res['summary'], indent=1))


if __name__ == '__main__':
    main()
