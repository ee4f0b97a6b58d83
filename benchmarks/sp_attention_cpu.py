"""Which sequence-parallel attention runs the attention azllm trains with, on this CPU (2 gloo processes, torch's own ops):
PyTorch's ring attention (`torch.distributed.tensor.experimental.context_parallel`) and azllm's Ulysses all-to-all
(`azllm.parallel`), each on SDPA with the causal flag, SDPA with a packed-documents mask, and the eager (math) kernel,
against one process computing the whole sequence.

    python benchmarks/sp_attention_cpu.py benchmarks/results/sp_attention_cpu.json
"""
import json, os, platform, socket, sys, time
from pathlib import Path
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F

B, H, L, D, SP = 1, 4, 32, 8, 2


def inputs():
    torch.manual_seed(0)
    q, k, v = (torch.randn(B, H, L, D) for _ in range(3))
    pos = torch.cat([torch.arange(12), torch.arange(L - 12)])[None]        # two packed documents, the border inside shard 0
    return q, k, v, pos


def attend(q, k, v, case, mask):
    "One process's attention over whatever sequence it holds: SDPA causal, SDPA with a mask, or eager (math) with a float mask."
    if case == 'sdpa causal': return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    if case == 'sdpa document mask': return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    w = (q @ k.transpose(-1, -2)) / D ** 0.5 + torch.zeros(mask.shape).masked_fill(~mask, float('-inf'))
    return w.softmax(-1) @ v


def ring(rank, q, k, v, case, mask):
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.experimental import context_parallel
    mesh = init_device_mesh('cpu', (SP,))
    with context_parallel(mesh, buffers=[q, k, v], buffer_seq_dims=[2, 2, 2]):
        out = attend(q, k, v, case, mask)
    return out


def ulysses(rank, q, k, v, case, pos):
    from azllm.parallel import all_to_all, SPGroup
    n = L // SP
    mine = [t[:, :, rank * n:(rank + 1) * n].contiguous() for t in (q, k, v)]
    g = dist.group.WORLD
    qq, kk, vv = (all_to_all(t, g, 1, 2) for t in mine)                  # my tokens, all heads -> all tokens, my heads
    kernel = 'sdpa' if case.startswith('sdpa') else 'eager'
    mask = SPGroup(g, pos).mask(kernel, torch.float32) if case != 'sdpa causal' else None
    out = (F.scaled_dot_product_attention(qq, kk, vv, attn_mask=mask, is_causal=mask is None) if kernel == 'sdpa'
           else ((qq @ kk.transpose(-1, -2)) / D ** 0.5 + mask).softmax(-1) @ vv)
    out = all_to_all(out.transpose(1, 2).contiguous(), g, 1, 2)           # (B, L, H/sp, D) -> (B, L/sp, H, D)
    parts = [torch.empty_like(out) for _ in range(SP)]
    dist.all_gather(parts, out.contiguous())
    return torch.cat(parts, 1).transpose(1, 2)


def worker(rank, port, q_out):
    torch.set_num_threads(1)
    dist.init_process_group('gloo', init_method=f'tcp://127.0.0.1:{port}', rank=rank, world_size=SP)
    q, k, v, pos = inputs()
    doc = torch.cat([torch.zeros(1, 1, dtype=torch.long), (pos[:, 1:] - pos[:, :-1] != 1).long()], 1).cumsum(1)
    i = torch.arange(L)
    mask = ((i[None, :] <= i[:, None]) & (doc[0][:, None] == doc[0][None, :]))[None, None]
    for case in ('sdpa causal', 'sdpa document mask', 'eager (math) document mask'):
        want = attend(q, k, v, case, mask if case != 'sdpa causal' else None)
        for method in ('ring attention (context_parallel)', 'Ulysses (azllm.parallel)'):
            row = dict(method=method, case=case)
            try:
                t0 = time.perf_counter()
                if method.startswith('ring'): out = ring(rank, q.clone(), k.clone(), v.clone(), case, mask)
                else: out = ulysses(rank, q, k, v, case, pos)
                row['seconds'] = time.perf_counter() - t0
                if out.shape != want.shape: row.update(runs=True, exact=None, note=f"returned a shard {tuple(out.shape)}")
                else: row.update(runs=True, max_abs_diff=(out - want).abs().max().item(), exact=bool(torch.allclose(out, want, atol=1e-5)))
            except Exception as e:
                row.update(runs=False, error=f"{type(e).__name__}: {str(e).splitlines()[0][:200]}")
            if rank == 0: q_out.put(row)
            dist.barrier()
    dist.destroy_process_group()


def main(out:str):
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]
    ctx = mp.get_context('spawn')
    q = ctx.Queue()
    ps = [ctx.Process(target=worker, args=(r, port, q)) for r in range(SP)]
    for p in ps: p.start()
    rows = [q.get(timeout=300) for _ in range(6)]
    for p in ps: p.join(60)
    res = dict(command='python benchmarks/sp_attention_cpu.py ' + out, machine=f"CPU ({platform.processor() or platform.machine()}, {os.cpu_count()} cores, under load), 2 gloo processes",
               torch=torch.__version__, shape=dict(batch=B, heads=H, seq_len=L, head_dim=D, sp=SP), rows=rows)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps(res, indent=1) + '\n')
    for r in rows: print(r)


if __name__ == '__main__':
    if len(sys.argv) != 2: sys.exit(__doc__)
    main(sys.argv[1])
