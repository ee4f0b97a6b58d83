"""Peak GPU memory of training steps of the Llama 3.2 1B shape on one GPU, next to the estimate.

    python benchmarks/memory_gpu.py [--seq-len 2048] [--snapshot runs/memory_gpu_sdpa_mb1.pickle]

(with azllm importable: `pip install -e .`, or `PYTHONPATH=.` on a machine where it is not installed).

Random weights, Llama 3's vocabulary (128,256), bf16 autocast over fp32 weights, fused AdamW, clipping at 1.0:
the setup of the H200 baseline in the field notes. For Hugging Face with SDPA attention, with SDPA and gradient
checkpointing, and with eager attention, at several micro-batches, it runs a warm-up step and a measured step
(`azllm.profile.cuda_peak_memory`) and puts `azllm.memory.estimate_memory` for the same setup beside it. Writes
benchmarks/results/memory_gpu.json with the command, device and versions; with --snapshot it also dumps the
allocator snapshot of the first measured step (open it at https://pytorch.org/memory_viz).
"""
import argparse, gc, json, sys, time
from pathlib import Path
import torch, transformers
from transformers import LlamaConfig, LlamaForCausalLM
from azllm.memory import config_shape, estimate_memory, GIB
from azllm.profile import cuda_peak_memory, make_train_step
from azllm.model import PRESETS

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument('--seq-len', type=int, default=2048, help='tokens per sequence')
ap.add_argument('--snapshot', default=None, help='dump the allocator snapshot of the first measured step here')
ap.add_argument('--out', default=str(Path(__file__).parent/'results'/'memory_gpu.json'))
a = ap.parse_args()

RUNS = [('HF + SDPA', dict(attn='sdpa'), (1, 2, 4, 8)),
        ('HF + SDPA + grad checkpointing', dict(attn='sdpa', ckpt=True), (1, 2, 4, 8)),
        ('HF + eager attention', dict(attn='eager'), (1, 2, 4))]

def build(attn, ckpt=False):
    cfg = LlamaConfig(vocab_size=128_256, **PRESETS['llama-3.2-1b'], use_cache=False)
    cfg._attn_implementation = attn
    torch.manual_seed(0)
    with torch.device('cuda'): model = LlamaForCausalLM(cfg).train()
    if ckpt:   # transformers renamed it in 5.2x; accept both
        enable = getattr(model, 'activation_checkpointing_enable', None)
        if enable: enable(activation_checkpointing_kwargs={'use_reentrant': False})
        else: model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={'use_reentrant': False})
    return model

rows, snapshot = [], a.snapshot
for name, kw, micro_batches in RUNS:
    model = build(**kw)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    for mb in micro_batches:
        t = time.perf_counter()
        r = cuda_peak_memory(make_train_step(model, opt, mb, a.seq_len), snapshot=snapshot)
        snapshot = None
        e = estimate_memory(gpus=1, precision='bf16', micro_batch=mb, seq_len=a.seq_len, attn_implementation=kw['attn'],
                            grad_checkpointing=kw.get('ckpt', False), **config_shape(model.config))
        rows.append(dict(configuration=name, attention=kw['attn'], grad_checkpointing=kw.get('ckpt', False), micro_batch=mb, seq=a.seq_len,
                         **r, estimate_peak_bytes=e['peak_bytes'], estimate_total_bytes=e['total_bytes'],
                         seconds=round(time.perf_counter() - t, 2)))
        print(f"{name:<32} mb {mb}: peak {r['peak_bytes'] / GIB:6.2f} GiB, estimate {e['peak_bytes'] / GIB:6.2f} GiB "
              f"({e['peak_bytes'] / r['peak_bytes'] - 1:+.1%}), ceiling {e['total_bytes'] / GIB:6.2f} GiB", flush=True)
    del model, opt; gc.collect(); torch.cuda.empty_cache()

res = dict(command='python ' + ' '.join(sys.argv), device=torch.cuda.get_device_name(),
           versions=dict(torch=torch.__version__, transformers=transformers.__version__),
           setup='Llama 3.2 1B shape, random weights, vocab 128256, bf16 autocast over fp32 weights, fused AdamW, clip 1.0, '
                 'zero_grad(set_to_none=True); one warm-up step, then the measured step (torch.cuda.max_memory_allocated)',
           rows=rows)
Path(a.out).write_text(json.dumps(res, indent=2) + '\n')
print(f'wrote {a.out}')
