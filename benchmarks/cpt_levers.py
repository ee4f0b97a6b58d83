"""What each lever of the CPT step gives on one H200, measured on the real shapes: attention kernels, fused projections, whole-model compile, float8 per matmul shape.

    python benchmarks/cpt_levers.py [--sections sdpa,fp8_shapes,engine] [--variants base,cudnn,...] [--out benchmarks/results/cpt_levers_h200.json]
    python benchmarks/cpt_levers.py --sections engine --shape 3b --micro-batch 8 --grad-accum 4 --steps 3 --variants base,fp8,fp8_qkv,fp8_qkv_cdt
        # -> cpt_levers_3b_h200.json: the 3B step as `azllm train` runs it (8 x 4)
    python benchmarks/cpt_levers.py --sections engine --micro-batch 32 --grad-accum 2 --steps 3 --variants base,base_cdt,fp8,fp8_cdt \
        --out benchmarks/results/cpt_levers_1b_k2_h200.json          # the shipped 1B step (32 x 2), with and without coordinate descent

Sections (each saved as soon as it is measured; --budget seconds skips what would not fit):
  sdpa        scaled_dot_product_attention forward + backward on the 1B's attention (32 query heads, 8 key/value heads,
              head size 64, causal, 2048 tokens, bf16) per backend, with `enable_gqa` (what transformers passes) and with the
              key/value heads repeated; the kernel that ran (from the profiler) and the error against FlashAttention's output.
  fp8_shapes  one linear layer forward + backward under bf16 autocast, fp32 weights (bf16: cuBLAS; fp8: torchao's Float8Linear,
              compiled), for the projection shapes of the 1B and the 3B at 32,768 tokens: where float8 pays.
  engine      one optimizer step (--grad-accum micro-batches) of the Llama 3.2 1B shape (random init, vocab 128,256, context 2048) through azllm's own
              `build_engine` + `train_step` (what `azllm train` runs: Liger's fused cross-entropy, compiled decoder layers,
              fused AdamW, clip 1.0) at micro-batch 32 (or `--shape 3b`), each variant with a lever on top: SDPA told to try cuDNN first,
              fused projections (`fuse_projections` below: q/k/v and gate/up as one matmul each), the whole decoder stack
              compiled as one graph instead of each layer, precision fp8, and fp8 with q/k/v as one linear module
              before the float8 conversion (`fuse_qkv_modules`: the fused matmul is float8 where its shape pays), and `_cdt`: Inductor's
              coordinate-descent tuning of its Triton kernels' block sizes; tokens/s over the timed steps, peak memory, the
              first step's loss (the same init and batch for every variant: a lever must not change it beyond bf16 noise),
              and for some variants where the GPU's time goes (kernel time by kind, from the profiler) with the ceiling it sets
              (tokens/s if everything but the matmuls and attention took no time).
The levers that did not pay live here, not in azllm: this script is their implementation and their measurement. (The stored
benchmarks/results/cpt_levers_h200.json was measured while fused projections and the SDPA order were still azllm config keys,
`fused_projections` and `sdpa_backend`, the same code; its engine rows name them under `keys` and `sdpa_first`.)
The limit: 790 TFLOP/s (dense bf16 matmul, measured on this H200) / 6N tokens/s, N = 1,235,814,400 (all parameters, tied).
"""
import argparse, contextlib, gc, json, platform, statistics, sys, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SEQ, VOCAB, PEAK = 2048, 128_256, 790e12
PARAMS = {'1b': 1_235_814_400, '3b': 3_212_749_824}   # all parameters (tied), of the presets llama-3.2-1b and llama-3.2-3b
VARIANTS = {   # name: levers over the shipped fast path (sdpa: which backend SDPA tries first; fused: `fuse_projections`;
               # whole: compile the decoder stack as one graph instead of each layer), in order of need
    'base': dict(sdpa='torch', fused=False, whole=False, precision='bf16'),
    'cudnn': dict(sdpa='cudnn', fused=False, whole=False, precision='bf16'),
    'cudnn_fused': dict(sdpa='cudnn', fused=True, whole=False, precision='bf16'),
    'fp8': dict(sdpa='torch', fused=False, whole=False, precision='fp8'),
    'fp8_cudnn_fused': dict(sdpa='cudnn', fused=True, whole=False, precision='fp8'),
    'fused': dict(sdpa='torch', fused=True, whole=False, precision='bf16'),
    'cudnn_fused_whole': dict(sdpa='cudnn', fused=True, whole=True, precision='bf16'),
    # q, k, v as one linear *module* before float8 conversion, so the fused matmul is float8 where its shape pays (3B: 3072 x 5120)
    'fp8_qkv': dict(sdpa='torch', fused=False, whole=False, precision='fp8', qkv_module=True),
    # Inductor's coordinate-descent tuning of its Triton kernels' block sizes (the casts, norms and activations; not cuBLAS)
    'base_cdt': dict(sdpa='torch', fused=False, whole=False, precision='bf16', cdt=True),
    'fp8_cdt': dict(sdpa='torch', fused=False, whole=False, precision='fp8', cdt=True),
    'fp8_qkv_cdt': dict(sdpa='torch', fused=False, whole=False, precision='fp8', qkv_module=True, cdt=True),
}
PROFILED = ('base', 'cudnn_fused', 'fp8', 'fp8_cudnn_fused', 'fp8_qkv', 'base_cdt', 'fp8_cdt', 'fp8_qkv_cdt')
SHAPES = {'1b q/o': (2048, 2048), '1b q|k|v': (2048, 3072), '1b gate|up': (2048, 16384), '1b down': (8192, 2048),
          '3b q/o': (3072, 3072), '3b k/v': (3072, 1024), '3b q|k|v': (3072, 5120), '3b gate/up': (3072, 8192), '3b down': (8192, 3072)}


def cuda_ms(fn, warmup=3, reps=10) -> float:
    "Median milliseconds of `fn()` by CUDA events, after warm-up."
    for _ in range(warmup): fn()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); torch.cuda.synchronize(); times.append(a.elapsed_time(b))
    return statistics.median(times)


def kernel_names(fn) -> list[str]:
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(); torch.cuda.synchronize()
    return sorted({e.key for e in prof.key_averages() if e.device_type == torch.autograd.DeviceType.CUDA})


def sdpa_section(mb=16) -> list[dict]:
    "SDPA forward + backward per backend on the 1B's attention shape."
    import torch.nn.functional as F
    from torch.nn.attention import sdpa_kernel, SDPBackend
    H, KV, D = 32, 8, 64
    g = torch.Generator('cuda').manual_seed(0)
    q = torch.randn(mb, H, SEQ, D, device='cuda', dtype=torch.bfloat16, generator=g).requires_grad_()
    k, v = (torch.randn(mb, KV, SEQ, D, device='cuda', dtype=torch.bfloat16, generator=g).requires_grad_() for _ in range(2))
    dout = torch.randn(mb, H, SEQ, D, device='cuda', dtype=torch.bfloat16, generator=g)
    flops = 3.5 * 4 * mb * H * SEQ * SEQ * D / 2          # causal: half of QK^T and PV; backward 2.5x the forward
    def run(backend, gqa):
        kk, vv = (k, v) if gqa else (x.repeat_interleave(H // KV, dim=1) for x in (k, v))
        with sdpa_kernel([backend]):
            o = F.scaled_dot_product_attention(q, kk, vv, is_causal=True, enable_gqa=gqa)
            o.backward(dout)
        return o
    ref = None
    out = []
    for name, backend in (('flash', SDPBackend.FLASH_ATTENTION), ('cudnn', SDPBackend.CUDNN_ATTENTION), ('efficient', SDPBackend.EFFICIENT_ATTENTION)):
        for gqa in (True, False):
            row = dict(backend=name, enable_gqa=gqa, micro_batch=mb)
            try:
                q.grad = k.grad = v.grad = None
                o = run(backend, gqa).detach().float()
                grads = [t.grad.detach().float().clone() for t in (q, k, v)]
                if ref is None: ref = (o, grads)
                row['out_rel_err_vs_flash'] = ((o - ref[0]).norm() / ref[0].norm()).item()
                row['grad_rel_err_vs_flash'] = max(((a - b).norm() / b.norm()).item() for a, b in zip(grads, ref[1]))
                row['ms'] = cuda_ms(lambda: run(backend, gqa))
                row['tflops'] = flops / row['ms'] / 1e9
                row['kernels'] = [n for n in kernel_names(lambda: run(backend, gqa)) if 'elementwise' not in n][:6]
            except Exception as e:
                row['error'] = f"{type(e).__name__}: {str(e).strip().splitlines()[0][:200]}"
            print('sdpa', row, flush=True)
            out.append(row)
    del q, k, v, dout, ref; gc.collect(); torch.cuda.empty_cache()
    return out


def fp8_shapes_section(tokens=32768, budget_end=float('inf')) -> list[dict]:
    "One linear layer forward + backward, bf16 (cuBLAS) against torchao float8 (compiled), per projection shape."
    from torchao.float8 import convert_to_float8_training
    out = []
    for name, (k, n) in SHAPES.items():
        row = dict(shape=name, in_features=k, out_features=n, tokens=tokens)
        if time.time() > budget_end: out.append(dict(row, skipped='time budget')); continue
        try:
            x = torch.randn(tokens, k, device='cuda', dtype=torch.bfloat16, requires_grad=True)
            gy = torch.randn(tokens, n, device='cuda', dtype=torch.bfloat16)
            for kind in ('bf16', 'fp8'):
                m = torch.nn.Sequential(torch.nn.Linear(k, n, bias=False, device='cuda'))
                if kind == 'fp8': convert_to_float8_training(m); m = torch.compile(m)
                def step():
                    with torch.autocast('cuda', torch.bfloat16): y = m(x)
                    y.backward(gy)
                row[f'{kind}_ms'] = cuda_ms(step)
                row[f'{kind}_tflops'] = 6 * tokens * k * n / row[f'{kind}_ms'] / 1e9
            row['fp8_speedup'] = row['bf16_ms'] / row['fp8_ms']
        except Exception as e:
            row['error'] = f"{type(e).__name__}: {str(e).strip().splitlines()[0][:200]}"
        print('fp8', row, flush=True)
        out.append(row)
        torch._dynamo.reset(); gc.collect(); torch.cuda.empty_cache()
    return out


KINDS = (('attention', ('flash', 'fmha', 'cudnn', 'sdpa', 'attention')), ('loss (Liger CE)', ('liger', 'cross_entropy', 'element_mul')),
         ('matmul', ('gemm', 'cutlass', 'nvjet', 'xmma', 'wgmma', 'sm90_', 'splitk', 'matmul')),
         ('optimizer + clip', ('adam', 'multi_tensor', 'foreach', 'lpnorm')), ('compiled (Triton)', ('triton',)))

def kind_of(name:str) -> str:
    n = name.lower()
    return next((k for k, keys in KINDS if any(s in n for s in keys)), 'other (aten)')


def profile_step(step) -> dict:
    "Kernel time of one step by kind, and how much of the step's wall time the GPU was busy."
    from torch.profiler import profile, ProfilerActivity
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
        t = time.perf_counter(); step(); torch.cuda.synchronize(); wall = time.perf_counter() - t
    by, spans, top = {}, [], {}
    for e in prof.events():
        if e.device_type != torch.autograd.DeviceType.CUDA: continue
        us = e.time_range.elapsed_us()
        by[kind_of(e.name)] = by.get(kind_of(e.name), 0) + us
        top[e.name] = top.get(e.name, 0) + us
        spans.append((e.time_range.start, e.time_range.end))
    busy = sum(by.values())
    return dict(wall_ms=wall * 1e3, kernel_ms=busy / 1e3, span_ms=(max(s[1] for s in spans) - min(s[0] for s in spans)) / 1e3,
                by_kind_ms={k: round(v / 1e3, 2) for k, v in sorted(by.items(), key=lambda kv: -kv[1])},
                top_kernels_ms={k[:120]: round(v / 1e3, 2) for k, v in sorted(top.items(), key=lambda kv: -kv[1])[:15]})


# ---- lever: fused projections (measured slower with compiled layers, so not in azllm) ----
_HF_MODULES = {}   # a Llama attention class -> its transformers modeling module (rotary embedding, attention functions)

def _fused_attention_forward(self, hidden_states, position_embeddings=None, attention_mask=None, **kwargs):
    "`LlamaAttention.forward` with q, k and v as one matmul over their concatenated weights; with a KV cache, transformers' own."
    if kwargs.get('past_key_values') is not None or kwargs.get('cache') is not None:
        return type(self).forward(self, hidden_states, position_embeddings, attention_mask, **kwargs)
    hf, projs = _HF_MODULES[type(self)], (self.q_proj, self.k_proj, self.v_proj)
    w = torch.cat([p.weight for p in projs])
    b = None if self.q_proj.bias is None else torch.cat([p.bias for p in projs])
    shape = (*hidden_states.shape[:-1], -1, self.head_dim)
    q, k, v = (t.view(shape).transpose(1, 2) for t in
               torch.nn.functional.linear(hidden_states, w, b).split([p.out_features for p in projs], dim=-1))
    q, k = hf.apply_rotary_pos_emb(q, k, *position_embeddings)
    attend = hf.ALL_ATTENTION_FUNCTIONS.get_interface(self.config._attn_implementation, hf.eager_attention_forward)
    rest = {n: x for n, x in kwargs.items() if n not in ('past_key_values', 'cache', 'cache_position')}
    out, weights = attend(self, q, k, v, attention_mask, dropout=0.0 if not self.training else self.attention_dropout,
                          scaling=self.scaling, **rest)
    return self.o_proj(out.reshape(*shape[:-2], -1).contiguous()), weights

def _fused_mlp_forward(self, x):
    "`LlamaMLP.forward` with gate and up as one matmul over their concatenated weights."
    w = torch.cat([self.gate_proj.weight, self.up_proj.weight])
    b = None if self.gate_proj.bias is None else torch.cat([self.gate_proj.bias, self.up_proj.bias])
    gate, up = torch.nn.functional.linear(x, w, b).chunk(2, dim=-1)
    return self.down_proj(self.act_fn(gate) * up)

def fuse_projections(model) -> dict:
    "Run each Llama attention's q, k, v and each MLP's gate, up as one matmul (same parameters, names and state_dict); how many of each."
    import importlib, types
    plain = lambda *ms: all(type(m) is torch.nn.Linear for m in ms)    # not float8, LoRA or 4-bit layers
    n = dict(attention=0, mlp=0)
    for m in model.modules():
        if 'forward' in vars(m): continue                 # patched already (Liger's SwiGLU)
        if type(m).__name__ == 'LlamaAttention' and plain(m.q_proj, m.k_proj, m.v_proj):
            _HF_MODULES[type(m)] = importlib.import_module(type(m).__module__)
            m.forward = types.MethodType(_fused_attention_forward, m); n['attention'] += 1
        elif type(m).__name__ == 'LlamaMLP' and plain(m.gate_proj, m.up_proj):
            m.forward = types.MethodType(_fused_mlp_forward, m); n['mlp'] += 1
    return n


def _qkv_module_forward(self, hidden_states, position_embeddings=None, attention_mask=None, **kwargs):
    "`LlamaAttention.forward` over one `qkv_proj` linear module (made by `fuse_qkv_modules`); training only (no KV cache)."
    hf = _HF_MODULES[type(self)]
    shape = (*hidden_states.shape[:-1], -1, self.head_dim)
    q, k, v = (t.view(shape).transpose(1, 2) for t in self.qkv_proj(hidden_states).split(self.qkv_sizes, dim=-1))
    q, k = hf.apply_rotary_pos_emb(q, k, *position_embeddings)
    attend = hf.ALL_ATTENTION_FUNCTIONS.get_interface(self.config._attn_implementation, hf.eager_attention_forward)
    rest = {n: x for n, x in kwargs.items() if n not in ('past_key_values', 'cache', 'cache_position')}
    out, weights = attend(self, q, k, v, attention_mask, dropout=0.0, scaling=self.scaling, **rest)
    return self.o_proj(out.reshape(*shape[:-2], -1).contiguous()), weights

def fuse_qkv_modules(model) -> int:
    "Replace each Llama attention's q, k, v linear layers by one `qkv_proj` (their weights concatenated; new parameter names)."
    import importlib, types
    n = 0
    for m in model.modules():
        if type(m).__name__ != 'LlamaAttention': continue
        projs = (m.q_proj, m.k_proj, m.v_proj)
        assert all(type(p) is torch.nn.Linear and p.bias is None for p in projs)
        qkv = torch.nn.Linear(projs[0].in_features, sum(p.out_features for p in projs), bias=False,
                              device=projs[0].weight.device, dtype=projs[0].weight.dtype)
        with torch.no_grad(): qkv.weight.copy_(torch.cat([p.weight for p in projs]))
        m.qkv_sizes = [p.out_features for p in projs]
        del m.q_proj, m.k_proj, m.v_proj
        m.qkv_proj = qkv
        _HF_MODULES[type(m)] = importlib.import_module(type(m).__module__)
        m.forward = types.MethodType(_qkv_module_forward, m); n += 1
    return n


def sdpa_first(backend:str):
    "A context that makes SDPA try `backend` first ('torch': torch's own order)."
    from torch.nn.attention import sdpa_kernel, SDPBackend
    if backend == 'torch': return contextlib.nullcontext()
    first = dict(cudnn=SDPBackend.CUDNN_ATTENTION, flash=SDPBackend.FLASH_ATTENTION)[backend]
    rest = [b for b in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH) if b != first]
    return sdpa_kernel([first, *rest], set_priority=True)


def build(lever:dict, shape:str='1b'):
    "The 1B (or 3B) shape on the GPU, set up by the engine as `azllm train` does, with the variant's levers on top."
    from transformers import LlamaConfig, LlamaForCausalLM
    from azllm.model import PRESETS
    from azllm.runtime import Runtime
    from azllm.engine import TrainConfig, build_engine
    cfg = LlamaConfig(vocab_size=VOCAB, **PRESETS[f'llama-3.2-{shape}'])
    cfg._attn_implementation = 'sdpa'
    torch.manual_seed(0)
    with torch.device('cuda'): model = LlamaForCausalLM(cfg)
    qkv = fuse_qkv_modules(model) if lever.get('qkv_module') else 0   # before build_engine: float8 conversion sees the fused layer
    keys = dict(precision=lever['precision'])
    if lever['whole']: keys.update(compile=False, liger=True, liger_kernels=['fused_linear_cross_entropy'])
    run = TrainConfig(output_dir='unused', train_data=['unused'], lr=3e-4, warmup_steps=0, **keys)
    eng, info = build_engine(model, run, Runtime(cuda=True), total_steps=10**6)
    if qkv: info['fused_projections'] = dict(qkv_modules=qkv)
    if lever['fused']: info['fused_projections'] = fuse_projections(model)   # after compile and Liger, before the first forward
    if lever['whole']: model.model.compile()   # the decoder stack as one graph (Liger's fused CE stays outside, as with compiled layers)
    return eng, info


def bound(profile:dict, tokens:int) -> dict:
    "The fastest a step could be if everything but its matmuls and attention took no time: a ceiling from the profile."
    by = profile.get('by_kind_ms') or {}
    ms = by.get('matmul', 0) + by.get('attention', 0)
    return dict(matmul_attention_ms=ms, tok_per_s_if_rest_free=tokens / ms * 1e3) if ms else {}


def engine_section(variants, mb=32, warmup=2, steps=4, budget_end=float('inf'), shape='1b', grad_accum=1) -> dict:
    from azllm.engine import train_step
    g = torch.Generator('cuda').manual_seed(1000)
    ids = [torch.randint(0, VOCAB, (mb, SEQ + 1), device='cuda', generator=g) for _ in range(grad_accum)]
    batch = [dict(input_ids=x[:, :-1], shift_labels=x[:, 1:].contiguous()) for x in ids]
    tokens = mb * SEQ * grad_accum      # one optimizer step: grad_accum micro-batches, as `azllm train` runs them
    out = {}
    for name in variants:
        if time.time() > budget_end: out[name] = dict(skipped='time budget'); continue
        lever = VARIANTS[name]
        row = dict(lever=lever, micro_batch=mb, grad_accum=grad_accum, shape=shape)
        t0 = time.time()
        import torch._inductor.config as inductor
        inductor.coordinate_descent_tuning = bool(lever.get('cdt'))   # read when a layer first compiles
        try:
            eng, info = build(lever, shape)
            row.update(fused_projections=info.get('fused_projections'), fp8_layers=info['fp8_layers'])
            def step():
                with sdpa_first(lever['sdpa']): return train_step(eng, batch, tokens)
            row['first_loss'] = step()['loss'].item()
            row['first_step_s'] = time.time() - t0
            for _ in range(warmup - 1): step()
            torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats()
            t = time.perf_counter()
            for _ in range(steps): step()
            torch.cuda.synchronize(); dt = time.perf_counter() - t
            row.update(tok_per_s=tokens * steps / dt, step_ms=dt / steps * 1e3, peak_gib=torch.cuda.max_memory_allocated() / 2**30)
            row['of_limit'] = row['tok_per_s'] * 6 * PARAMS[shape] / PEAK
            if name in PROFILED:
                try: row['profile'] = profile_step(step); row['bound'] = bound(row['profile'], tokens)
                except Exception as e: row['profile'] = dict(error=f"{type(e).__name__}: {e}"[:300])
        except Exception as e:
            row['error'] = f"{type(e).__name__}: {str(e).strip().splitlines()[0][:300]}"
        row['wall_s'] = time.time() - t0
        print('engine', name, {k: v for k, v in row.items() if k != 'profile'}, flush=True)
        if 'profile' in row: print('  profile', row['profile'].get('by_kind_ms'), 'busy', row['profile'].get('kernel_ms'), 'of', row['profile'].get('wall_ms'), flush=True)
        out[name] = row
        eng = step = None; gc.collect(); torch.cuda.empty_cache(); torch._dynamo.reset()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--sections', default='sdpa,fp8_shapes,engine')
    ap.add_argument('--variants', default=','.join(VARIANTS))
    ap.add_argument('--budget', type=float, default=540, help='seconds; an engine variant that would start later is skipped')
    ap.add_argument('--shape', choices=sorted(PARAMS), default='1b', help="the engine section's model: Llama 3.2 1B or 3B")
    ap.add_argument('--micro-batch', type=int, default=32, help="the engine section's rows per micro-batch")
    ap.add_argument('--grad-accum', type=int, default=1, help="the engine section's micro-batches per optimizer step (`azllm train`'s 3B rows: 4)")
    ap.add_argument('--steps', type=int, default=4, help="the engine section's timed optimizer steps per variant")
    ap.add_argument('--out', default=None, help='default: benchmarks/results/cpt_levers_h200.json (1b), cpt_levers_3b_h200.json (3b)')
    a = ap.parse_args()
    a.out = a.out or str(ROOT/'benchmarks/results'/('cpt_levers_h200.json' if a.shape == '1b' else f'cpt_levers_{a.shape}_h200.json'))
    t0 = time.time()
    res = dict(command='python ' + ' '.join(sys.argv), gpu=torch.cuda.get_device_name(), machine=platform.node(),
               versions={p: version(p) for p in ('torch', 'transformers', 'liger-kernel', 'torchao')},
               cudnn=torch.backends.cudnn.version(), limit=f'790 TFLOP/s / 6N tokens/s, N = {PARAMS[a.shape]:,}')
    save = lambda: Path(a.out).write_text(json.dumps(res, indent=2) + '\n')
    sections = a.sections.split(',')
    if 'sdpa' in sections: res['sdpa'] = sdpa_section(); save()
    if 'engine' in sections:
        res['engine'] = {}
        for name in a.variants.split(','):   # one at a time, saved after each
            res['engine'].update(engine_section([name], mb=a.micro_batch, steps=a.steps, budget_end=t0 + a.budget - 60, shape=a.shape, grad_accum=a.grad_accum)); save()
    if 'fp8_shapes' in sections: res['fp8_shapes'] = fp8_shapes_section(budget_end=t0 + a.budget - 15); save()
    res['wall_s'] = time.time() - t0; save()
    e = res.get('engine', {})
    print(f"\n{'variant':<20} {'tok/s':>8} {'of limit':>8} {'peak GiB':>8} {'loss 1':>8}")
    for k, v in e.items():
        if 'tok_per_s' in v: print(f"{k:<20} {v['tok_per_s']:>8,.0f} {v['of_limit']:>8.1%} {v['peak_gib']:>8.1f} {v['first_loss']:>8.4f}",
                                   f"ceiling {v['bound']['tok_per_s_if_rest_free']:,.0f}" if v.get('bound') else '')
        else: print(k, v.get('error') or v.get('skipped'))


def version(p):
    from importlib import metadata
    try: return metadata.version(p)
    except metadata.PackageNotFoundError: return None


if __name__ == '__main__':
    main()
