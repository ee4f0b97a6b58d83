"""How long a checkpoint takes to write: DCP's write of weights and AdamW state, and the SHA-256 of its files, by one thread and by `io_threads`.

    python benchmarks/checkpoint_save.py                       # CPU: a small Llama (8 layers, width 1024) -> benchmarks/results/checkpoint_save_cpu.json
    python benchmarks/checkpoint_save.py --shape 1b --out benchmarks/results/checkpoint_save_h200.json     # on the H200: Llama 3.2 1B

The model is built where the run would hold it (the GPU if there is one), takes one AdamW step so the optimizer state exists, then
for each thread count: `dcp.save` through `FileSystemWriter(thread_count=k)` (what `save_checkpoint` does, k = `io_threads`, one file per
thread), then the files' SHA-256 on a pool of k threads (what `hash_files` does at every save and every resume), best of --repeats;
and one whole `save_checkpoint` as azllm runs it. Written to a RAM disk when it has room (/dev/shm), else the system's temporary folder.
"""
import argparse, json, os, platform, shutil, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHAPES = {'small': dict(vocab_size=32000, hidden_size=1024, intermediate_size=4096, num_hidden_layers=8, num_attention_heads=16,
                        num_key_value_heads=8, tie_word_embeddings=True),
          '1b': None}       # the llama-3.2-1b preset with Llama 3's vocabulary


def build(shape:str, dev:str):
    from transformers import LlamaConfig, LlamaForCausalLM
    from azllm.model import PRESETS
    cfg = LlamaConfig(**SHAPES[shape]) if SHAPES[shape] else LlamaConfig(vocab_size=128_256, **PRESETS['llama-3.2-1b'])
    torch.manual_seed(0)
    with torch.device(dev): model = LlamaForCausalLM(cfg)
    opt = torch.optim.AdamW(model.parameters(), fused=dev == 'cuda')
    ids = torch.randint(0, cfg.vocab_size, (1, 32), device=dev)
    model(input_ids=ids, labels=ids).loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
    return model, opt


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--shape', choices=sorted(SHAPES), default='small')
    ap.add_argument('--repeats', type=int, default=2)
    ap.add_argument('--out', default=None, help='default: benchmarks/results/checkpoint_save_cpu.json (or _gpu.json with a GPU)')
    a = ap.parse_args()
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint import FileSystemWriter
    from torch.distributed.checkpoint.state_dict import get_state_dict
    from azllm.checkpoint import io_threads, sha256_of, split_optimizer_state, _only_tensors, _dcp_quiet, save_checkpoint, require_fs
    from azllm.runtime import Runtime
    dev = 'cuda' if torch.cuda.is_available() else 'cpu'
    rt = Runtime(cuda=dev == 'cuda')
    model, opt = build(a.shape, dev)
    base = Path('/dev/shm') if Path('/dev/shm').is_dir() else Path(tempfile.gettempdir())
    need = sum(p.numel() for p in model.parameters()) * 12 * 2.5
    if shutil.disk_usage(base).free < need: base = Path(tempfile.gettempdir())
    res = dict(command='python ' + ' '.join(sys.argv), machine=platform.node(), cores=len(os.sched_getaffinity(0)),
               device=torch.cuda.get_device_name() if dev == 'cuda' else 'cpu', torch=torch.__version__, shape=a.shape,
               params=sum(p.numel() for p in model.parameters()), written_to=str(base), io_threads=io_threads(rt), rows={})
    fs, _ = require_fs(str(base))
    out = Path(a.out or ROOT/'benchmarks/results'/f"checkpoint_save_{'gpu' if dev == 'cuda' else 'cpu'}.json")
    save = lambda: out.write_text(json.dumps(res, indent=2) + '\n')     # after each row: a call that ends early keeps what it measured
    for k in sorted({1, io_threads(rt)}):
        best = None
        for _ in range(a.repeats):
            work = Path(tempfile.mkdtemp(dir=base, prefix='azllm-ckbench-'))
            try:
                t0 = time.perf_counter()
                msd, osd = get_state_dict(model, opt)
                tensors, _groups = split_optimizer_state(osd)
                with _dcp_quiet(): dcp.save({'model': _only_tensors(msd, 'model'), 'optim': tensors}, storage_writer=FileSystemWriter(str(work), thread_count=k))
                t1 = time.perf_counter()
                files = sorted(p.name for p in work.iterdir())
                with ThreadPoolExecutor(k) as pool: list(pool.map(lambda n: sha256_of(fs, str(work/n)), files))
                t2 = time.perf_counter()
                row = dict(threads=k, write_s=t1 - t0, hash_s=t2 - t1, total_s=t2 - t0, files=len(files),
                           gib=sum((work/n).stat().st_size for n in files) / 2**30)
                if best is None or row['total_s'] < best['total_s']: best = row
            finally: shutil.rmtree(work, ignore_errors=True)
        best['write_gib_per_s'] = best['gib'] / best['write_s']
        res['rows'][str(k)] = best
        print(f"{k} thread(s): write {best['write_s']:.2f} s, hash {best['hash_s']:.2f} s, {best['gib']:.2f} GiB in {best['files']} files", flush=True)
        save()
    work = Path(tempfile.mkdtemp(dir=base, prefix='azllm-ckbench-'))
    try:
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0)
        t0 = time.perf_counter(); save_checkpoint(str(work), 1, model, opt, sched, rt, dict(loss=0.0)); res['save_checkpoint_s'] = time.perf_counter() - t0
    finally: shutil.rmtree(work, ignore_errors=True)
    one, many = res['rows']['1'], res['rows'][str(io_threads(rt))]
    res['speedup'] = one['total_s'] / many['total_s']
    print(f"save_checkpoint as azllm runs it: {res['save_checkpoint_s']:.2f} s; write + hash {res['speedup']:.2f}x faster with {io_threads(rt)} threads than one")
    save()


if __name__ == '__main__':
    main()
