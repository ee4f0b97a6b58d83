"""How long a sequence one GPU trains: azllm against the Hugging Face path, and the peak-memory curve beside the estimate.

    python benchmarks/long_context.py run --out benchmarks/results/long_context_h100.json --shape 1b --lengths 16384,65536,131072,262144
    python benchmarks/long_context.py run --out benchmarks/results/long_context_h100.json --shape 8b,8b-qlora      # doubling from 16k
    python benchmarks/long_context.py render benchmarks/results/long_context_h100.json    # the figure and the table beside it
    python benchmarks/long_context.py run --gpus 8 --shape 8b --out ...   # azllm with sequence_parallel=8 through torchrun (not run yet)

(with azllm importable: `pip install -e .`, or `PYTHONPATH=.`). Shapes, random weights, one row per optimizer step (global
batch 1), 2 steps, each trial in its own process under a time limit (so running out of memory ends the trial, not this script):

  1b        Llama 3.2 1B, full fine-tuning (CPT): configs/cpt_llama-3.2-1b_1gpu.yml
  3b        Llama 3.2 3B, LoRA SFT: configs/sft_llama-3.2-1b.yml with model=preset:llama-3.2-3b (bf16, no fp8)
  8b        Llama 3.1 8B, LoRA SFT on a bf16 base: configs/sft_llama-3.1-8b_24gb.yml load_in_4bit=false optimizer=adamw
  8b-qlora  the same on its NF4 base (bitsandbytes), as shipped
  tiny      the tiny preset (configs/cpt_tiny_base.yml): a CPU check of this script
  tiny-lora the tiny preset with LoRA (configs/sft_tiny.yml): a CPU check of the SFT path

The azllm path is `azllm train` with grad_checkpointing, the long-sequence keys at their defaults (tiled MLP, and the loss
without Liger, from 16k tokens) and offload_activations from --offload-from tokens, and, past the model's 131,072 positions, rope_scaling {rope_type: yarn, factor: seq_len/131072}.
The Hugging Face path is plain transformers (+ peft for LoRA, bitsandbytes for QLoRA) with gradient checkpointing, SDPA,
bf16 autocast, AdamW, the model's own loss, and the same RoPE scaling. Each trial prints one JSON line; the results file
(the command, the machine and the card) is rewritten after every trial and keeps the rows of other runs it does not redo.
Each length is tried on both paths before the next; after a path's first failure, its longer lengths are not tried.
"""
import argparse, json, math, os, platform, resource, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = 131072          # the Llama 3.x presets' max_position_embeddings
SHAPES = {  # name -> (config, stage, preset, azllm overrides, what the Hugging Face path trains)
    '1b': ('configs/cpt_llama-3.2-1b_1gpu.yml', 'cpt', 'llama-3.2-1b', [], 'full'),
    '3b': ('configs/sft_llama-3.2-1b.yml', 'sft', 'llama-3.2-3b', ['model=preset:llama-3.2-3b', 'precision=auto'], 'lora'),
    '8b': ('configs/sft_llama-3.1-8b_24gb.yml', 'sft', 'llama-3.1-8b', ['load_in_4bit=false', 'optimizer=adamw'], 'lora'),
    '8b-qlora': ('configs/sft_llama-3.1-8b_24gb.yml', 'sft', 'llama-3.1-8b', [], 'qlora'),
    'tiny': ('configs/cpt_tiny_base.yml', 'cpt', 'llama-tiny', [], 'full'),
    'tiny-lora': ('configs/sft_tiny.yml', 'sft', 'llama-tiny', ['tokenizer=null'], 'lora'),
}


def rope_factor(seq_len:int, positions:int) -> int:
    "The power of two that stretches `positions` over `seq_len` (0: no scaling needed)."
    return 0 if seq_len <= positions else 2 ** math.ceil(math.log2(seq_len / positions))


def positions_of(shape:str) -> int:
    from azllm.model import PRESETS
    return PRESETS[SHAPES[shape][2]]['max_position_embeddings']


# ---------------- inputs long enough for every row ----------------
def corpus(tmp:Path, seq_len:int, stage:str) -> Path:
    "A text corpus (CPT) or chats file (SFT) holding at least two rows of `seq_len` tokens, from the bundled samples."
    if stage == 'cpt':
        text = (ROOT/'data_samples'/'az_train.txt').read_text(encoding='utf-8')
        f = tmp/'train.txt'
        f.write_text(text * max(1, math.ceil(3 * 2 * seq_len * 2.5 / len(text))), encoding='utf-8')   # ~0.4 tokens a character
        return f
    chats = [json.loads(l)['messages'] for l in (ROOT/'data_samples'/'sft'/'train.jsonl').read_text(encoding='utf-8').splitlines() if l.strip()]
    said = {role: [m['content'] for c in chats for m in c if m['role'] == role] for role in ('user', 'assistant')}
    f = tmp/'train.jsonl'
    with f.open('w', encoding='utf-8') as out:
        for k in range(2):                       # two conversations, each alternating user and assistant turns past 3 x seq_len characters
            msgs, size, i = [], 0, k
            while size < 3 * seq_len:
                for role in ('user', 'assistant'):
                    msgs.append(dict(role=role, content=said[role][i % len(said[role])])); size += len(msgs[-1]['content'])
                i += 1
            out.write(json.dumps(dict(messages=msgs), ensure_ascii=False) + '\n')
    return f


def azllm_overrides(shape:str, seq_len:int, out:Path, data:Path, offload_from:int, gpus:int) -> list[str]:
    cfg, stage, preset, extra, _ = SHAPES[shape]
    ov = [f'output_dir={out}', f'train_data=[{data}]', 'valid_data=null', f'seq_len={seq_len}', 'max_steps=2', 'epochs=null',
          'warmup_steps=0', 'save_every=1000', 'log_every=1', 'eval_every=0', 'tensorboard=false', 'grad_checkpointing=true',
          f'offload_activations={str(seq_len >= offload_from).lower()}', *extra]
    ov += ['micro_batch=1', 'global_batch=1'] if stage == 'cpt' else ['micro_batch=1', 'grad_accum=1']
    if f := rope_factor(seq_len, positions_of(shape)): ov.append(f'rope_scaling={{rope_type: yarn, factor: {f}}}')
    if gpus > 1: ov.append(f'sequence_parallel={gpus}')
    return ov


def azllm_command(shape:str, seq_len:int, out:Path, data:Path, offload_from:int, gpus:int) -> list[str]:
    "`azllm train` of one trial: one process, or N through torchrun with the sequence split N ways."
    cmd = [sys.executable, '-m', 'azllm.cli', 'train', str(ROOT/SHAPES[shape][0]), *azllm_overrides(shape, seq_len, out, data, offload_from, gpus)]
    return cmd + (['--nproc', str(gpus), '--launcher', 'torchrun'] if gpus > 1 else [])


def estimate(shape:str, seq_len:int, offload_from:int, cuda:bool=True) -> dict:
    "The estimate of azllm's floor (`azllm.sizing.length_floor`) for the trial's config, and the estimate for the Hugging Face path (full training only)."
    from azllm.stages import read_runs
    from azllm.sizing import length_floor
    from azllm.memory import estimate_memory, model_shape, GIB
    cfg = read_runs([str(ROOT/SHAPES[shape][0]), *azllm_overrides(shape, seq_len, Path('/tmp/x'), Path('/tmp/x.txt'), offload_from, 1)])[0].config
    f = length_floor(cfg, cuda=cuda)
    hf = None
    if SHAPES[shape][4] == 'full':
        hf = estimate_memory(precision='bf16' if cuda else 'fp32', micro_batch=1, seq_len=seq_len, grad_checkpointing=True,
                             **model_shape(f'preset:{SHAPES[shape][2]}'))['peak_bytes'] / GIB
    return dict(estimate_gib=round(f['total'], 2), estimate_host_gib=round(f['host'], 2), estimate_hf_gib=None if hf is None else round(hf, 2))


# ---------------- one trial, in its own process ----------------
def trial_azllm(shape, seq_len, tmp, offload_from, gpus, timeout) -> dict:
    data = corpus(tmp, seq_len, SHAPES[shape][1])
    out = tmp/'run'
    cmd = azllm_command(shape, seq_len, out, data, offload_from, gpus)
    env = dict(os.environ, AZLLM_TOKEN_CACHE=str(tmp/'tokens'), PYTHONPATH=f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    r = run(cmd, timeout, env)
    if r['status'] != 'ok': return r
    log = [json.loads(l) for l in (out/'log.jsonl').read_text().splitlines() if l.strip()]
    steps = [x for x in log if 'tok_per_s' in x]
    summ = json.loads((out/'summary.json').read_text())
    return dict(r, tok_per_s=round(steps[-1]['tok_per_s'], 1), peak_gib=round(max(x['peak_mem_gib'] for x in steps), 2),
                step_s=round(seq_len / steps[-1]['tok_per_s'], 2), loss=steps[-1]['loss'],
                applied={k: summ.get(k) for k in ('liger', 'compiled', 'tiled_mlp', 'tiled_loss', 'offloaded', 'lora_kernels')})


def trial_hf(shape, seq_len, tmp, timeout) -> dict:
    spec = tmp/'hf.json'
    spec.write_text(json.dumps(dict(shape=shape, seq_len=seq_len)))
    r = run([sys.executable, __file__, 'hf-step', str(spec)], timeout, dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"))
    if r['status'] != 'ok': return r
    return dict(r, **json.loads(spec.read_text())['result'])


def run(cmd, timeout, env) -> dict:
    "Run `cmd` with a time limit: status ok, refused (one line before the model loaded), oom, timeout or error, and its last line."
    t = time.perf_counter()
    try: p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired: return dict(status='timeout', seconds=round(time.perf_counter() - t, 1), message=f'over {timeout:.0f} s')
    err = [l for l in p.stderr.replace('\r', '\n').splitlines() if l.strip()]
    last = next((l[l.index('azllm: error:'):] for l in reversed(err) if 'azllm: error:' in l), err[-1] if err else '')
    status = ('ok' if p.returncode == 0 else 'oom' if 'out of memory' in p.stderr.lower()
              else 'refused' if any(w in last for w in ('needs at least', 'beyond the model', 'in host memory')) else 'error')
    return dict(status=status, rc=p.returncode, seconds=round(time.perf_counter() - t, 1), **({} if status == 'ok' else dict(message=last[:400])))


def hf_step(spec_path:str):
    "The Hugging Face path, in this process: build, two steps, write tok/s and peak memory into the spec file."
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM
    from azllm.model import PRESETS
    spec = json.loads(Path(spec_path).read_text())
    shape, L = spec['shape'], spec['seq_len']
    _, _, preset, _, kind = SHAPES[shape]
    cuda = torch.cuda.is_available()
    dev = torch.device('cuda' if cuda else 'cpu')
    kw = dict(PRESETS[preset], use_cache=False)
    if f := rope_factor(L, kw['max_position_embeddings']):
        kw['rope_scaling'] = dict(rope_type='yarn', factor=float(f), original_max_position_embeddings=kw['max_position_embeddings'])
        kw['max_position_embeddings'] *= f
    cfg = LlamaConfig(vocab_size=128_256, **kw)
    cfg._attn_implementation = 'sdpa'
    torch.manual_seed(0)
    if kind == 'full':
        with dev: model = LlamaForCausalLM(cfg)
    else:
        old = torch.get_default_dtype(); torch.set_default_dtype(torch.bfloat16)
        try:
            with dev: model = LlamaForCausalLM(cfg)
        finally: torch.set_default_dtype(old)
        if kind == 'qlora':
            from azllm.lora_kernels import quantize_4bit       # bitsandbytes' NF4 layers in place of the bf16 linears (what from_pretrained does)
            model = quantize_4bit(model)
        from peft import LoraConfig, get_peft_model
        model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0, target_modules=['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj']))
    model.train()
    enable = getattr(model, 'activation_checkpointing_enable', None)
    if enable: enable(activation_checkpointing_kwargs={'use_reentrant': False})
    else: model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={'use_reentrant': False})
    if kind != 'full': model.enable_input_require_grads()
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-5, fused=cuda)
    ids = torch.randint(0, 128_256, (1, L + 1), device=dev)
    times = []
    if cuda: torch.cuda.reset_peak_memory_stats()
    for _ in range(2):
        t = time.perf_counter()
        with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=cuda):
            loss = model(input_ids=ids[:, :-1], labels=ids[:, 1:].contiguous(), shift_labels=ids[:, 1:].contiguous()).loss
        loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
        if cuda: torch.cuda.synchronize()
        times.append(time.perf_counter() - t)
    spec['result'] = dict(tok_per_s=round(L / times[-1], 1), step_s=round(times[-1], 2), loss=loss.item(),
                          peak_gib=round((torch.cuda.max_memory_allocated() if cuda else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024) / 2**30, 2))
    Path(spec_path).write_text(json.dumps(spec))


# ---------------- the search, and the results file ----------------
def machine() -> dict:
    import torch, transformers
    m = dict(host=platform.node(), cpus=os.cpu_count(), ram_gib=round(os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30, 1),
             python=platform.python_version(), torch=torch.__version__, transformers=transformers.__version__)
    if torch.cuda.is_available():
        m.update(card=torch.cuda.get_device_name(), card_gib=round(torch.cuda.get_device_properties(0).total_memory / 2**30, 1), gpus=torch.cuda.device_count())
    else: m.update(card=None, note=f'CPU only ({os.cpu_count()} cores, shared with other work): CPU numbers, not a GPU measurement')
    try:
        import peft; m['peft'] = peft.__version__
    except ImportError: pass
    try:
        import bitsandbytes; m['bitsandbytes'] = bitsandbytes.__version__
    except ImportError: m['bitsandbytes'] = None
    return m


def lengths_for(a) -> list[int]:
    if a.lengths: return [int(x) for x in a.lengths.split(',')]
    out, L = [], a.start
    while L <= a.max_len: out.append(L); L *= 2
    return out


def cmd_run(a):
    t0, res_path = time.perf_counter(), Path(a.out)
    old = json.loads(res_path.read_text()) if res_path.is_file() else {}
    mach = machine()
    me = dict(command='python ' + ' '.join(sys.argv), date=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), machine=mach)
    runs = old.get('runs', []) + [me]
    res = dict(about=__doc__.split('\n')[0], command='; '.join(r['command'] for r in runs), runs=runs, rows=old.get('rows', []))   # every run that made its rows
    def key(r): return (r['shape'], r['path'], r['seq_len'], r['gpus'], r.get('card'))
    def record(row):
        res['rows'] = [r for r in res['rows'] if key(r) != key(row)] + [row]
        res_path.parent.mkdir(parents=True, exist_ok=True)
        res_path.write_text(json.dumps(res, indent=1) + '\n')
        print(json.dumps(row), flush=True)
    for shape in a.shape.split(','):
        if shape not in SHAPES: sys.exit(f"long_context.py: unknown shape {shape!r}; choose from {', '.join(SHAPES)}")
        paths, done = [p for p in a.paths.split(',') if not (p == 'hf' and a.gpus > 1)], set()
        for L in lengths_for(a):                       # each length on both paths, so a time budget cuts both alike
            for path in paths:
                if path in done: continue                  # it failed at a shorter length: a longer one fails too
                left = a.budget_s - (time.perf_counter() - t0)
                base = dict(shape=shape, path=path, seq_len=L, gpus=a.gpus, card=mach['card'], command=me['command'],
                            **(estimate(shape, L, a.offload_from, cuda=mach['card'] is not None) if path == 'azllm' or SHAPES[shape][4] == 'full' else {}))
                if left < 45:
                    record(dict(base, status='skipped', message=f'time budget of {a.budget_s:.0f} s spent')); done.add(path); continue
                if path == 'hf' and SHAPES[shape][4] == 'qlora' and mach.get('bitsandbytes') is None:
                    record(dict(base, status='skipped', message='bitsandbytes is not installed: no QLoRA row')); done.add(path); continue
                with tempfile.TemporaryDirectory(prefix='azllm-long-') as tmp:
                    r = (trial_azllm(shape, L, Path(tmp), a.offload_from, a.gpus, min(a.trial_timeout, left - 15)) if path == 'azllm'
                         else trial_hf(shape, L, Path(tmp), min(a.trial_timeout, left - 15)))
                record(dict(base, **r))
                if r['status'] != 'ok': done.add(path)


# ---------------- the figure and the table ----------------
def cmd_render(a):
    res = json.loads(Path(a.results).read_text())
    fig_path = Path(a.figure or Path(a.results).with_suffix('.png'))
    table_path = Path(a.table or Path(a.results).with_suffix('.md'))
    table_path.write_text(markdown_table(res) + '\n')
    fig = figure(res); fig.savefig(fig_path)
    print(f"wrote {fig_path} and {table_path}")


def figure(res:dict):
    "Peak GiB against length for every shape and path of a results file, azllm's estimate dotted beside it; x marks a length that did not train."
    import matplotlib; matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    rows = [r for r in res['rows'] if r['status'] in ('ok', 'oom', 'refused', 'timeout')]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=80)
    groups = sorted({(r['shape'], r['path'], r['gpus'], r.get('card') or 'CPU') for r in rows})
    for shape, path, gpus, card in groups:
        g = sorted((r for r in rows if (r['shape'], r['path'], r['gpus'], r.get('card') or 'CPU') == (shape, path, gpus, card)), key=lambda r: r['seq_len'])
        ok = [r for r in g if r['status'] == 'ok' and r.get('peak_gib') is not None]
        label = f"{shape} {'azllm' if path == 'azllm' else 'Hugging Face'}" + (f" SP={gpus}" if gpus > 1 else '') + (' (CPU)' if card == 'CPU' else '')
        line = ax.plot([r['seq_len'] for r in ok], [r['peak_gib'] for r in ok], 'o-' if path == 'azllm' else 's--', label=label)[0]
        est = [r for r in g if r.get('estimate_gib') is not None] if path == 'azllm' else []
        if est: ax.plot([r['seq_len'] for r in est], [r['estimate_gib'] for r in est], ':', color=line.get_color(), label=f'{shape} estimate (a floor)')
        for r in g:
            if r['status'] != 'ok': ax.plot([r['seq_len']], [r.get('estimate_gib') or 0], 'x', color=line.get_color(), ms=9)
    for x in res['runs']:
        m = x['machine']
        if m.get('card_gib') and any(r.get('card') == m['card'] for r in rows):
            ax.axhline(m['card_gib'], color='grey', lw=0.8); ax.text(min(r['seq_len'] for r in rows), m['card_gib'], f" {m['card']} ({m['card_gib']:.0f} GiB)", va='bottom', fontsize=8)
            break
    ax.set_xscale('log', base=2); ax.set_xlabel('tokens per sequence'); ax.set_ylabel('peak GiB')
    cpu = any(r.get('card') is None for r in rows)
    ax.set_title('Peak memory against length; x: did not train' + ('\nCPU rows: a check of the script on a shared 2-core CPU, peak = process memory' if cpu else ''), fontsize=9)
    if groups: ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def markdown_table(res:dict) -> str:
    "One row per shape and path: the longest length that trained, its tok/s and peak GiB, the estimate, the first that did not."
    out = ['| shape | path | card | longest that trained | tok/s | peak GiB | estimate GiB | next length |', '|---|---|---|---|---|---|---|---|']
    groups = sorted({(r['shape'], r['path'], r['gpus'], r.get('card')) for r in res['rows']}, key=lambda g: (g[0], g[1] != 'azllm', g[2], str(g[3])))
    for shape, path, gpus, card in groups:
        g = sorted((r for r in res['rows'] if (r['shape'], r['path'], r['gpus'], r.get('card')) == (shape, path, gpus, card)), key=lambda r: r['seq_len'])
        ok = [r for r in g if r['status'] == 'ok']
        best = ok[-1] if ok else None
        nxt = next((r for r in g if best is None or r['seq_len'] > best['seq_len']), None)
        name = ('azllm' if path == 'azllm' else 'Hugging Face') + (f', SP={gpus}' if gpus > 1 else '')
        f = lambda v, d=0: '—' if v is None else f'{v:,.{d}f}'
        out.append(f"| {shape} | {name} | {card or 'CPU'} | {f(best and best['seq_len'])} | {f(best and best.get('tok_per_s'))} | "
                   f"{f(best and best.get('peak_gib'), 1)} | {f(best and best.get('estimate_gib' if path == 'azllm' else 'estimate_hf_gib'), 1)} | "
                   + (f"{nxt['seq_len']:,}: {nxt['status']}" if nxt else '—') + ' |')
    return '\n'.join(out)



def projection(res:dict, shape:str, lengths:list[int], offload_from:int=131072) -> list[dict]:
    """Lengths past the measured ones: the estimate's GPU and host floors, and a step time fitted to the measured azllm steps of
    `shape` on one GPU (seconds = a*L + b*L^2, least squares through the origin: the linear layers and the attention), one row per length.
    An extrapolation, not a measurement; `fit_from` names the lengths it rests on."""
    ok = sorted((r for r in res['rows'] if r['shape'] == shape and r['path'] == 'azllm' and r['gpus'] == 1 and r['status'] == 'ok'
                 and r.get('card') and r.get('step_s')), key=lambda r: r['seq_len'])
    fit = None
    if len(ok) >= 2:
        import numpy as np
        L = np.array([r['seq_len'] for r in ok], dtype=float)
        fit = np.linalg.lstsq(np.stack([L, L * L], 1), np.array([r['step_s'] for r in ok]), rcond=None)[0].tolist()
    out = []
    for L in lengths:
        e = estimate(shape, L, offload_from)
        out.append(dict(seq_len=L, gpu_gib=e['estimate_gib'], host_gib=e['estimate_host_gib'],
                        step_s=None if fit is None else fit[0] * L + fit[1] * L * L, fit_from=[r['seq_len'] for r in ok], card=ok[-1]['card'] if ok else None))
    return out


def projection_table(rows:list[dict]) -> str:
    "The projection as Markdown: length, GPU and host floors, the fitted step time."
    out = ['| tokens per sequence | estimate GiB (GPU) | host GiB (offloaded inputs) | step, extrapolated |', '|---|---|---|---|']
    for r in rows:
        t = '—' if r['step_s'] is None else f"{r['step_s'] / 60:.1f} min" if r['step_s'] >= 120 else f"{r['step_s']:.0f} s"
        out.append(f"| {r['seq_len']:,} | {r['gpu_gib']:.1f} | {r['host_gib']:.0f} | {t} |")
    return '\n'.join(out)

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('run', help='the search: trials, one JSON line each, into the results file')
    r.add_argument('--out', required=True, help='results JSON (rows of other runs in it are kept)')
    r.add_argument('--shape', default='1b', help=f"comma-separated: {', '.join(SHAPES)}")
    r.add_argument('--paths', default='azllm,hf', help='azllm, hf (the Hugging Face path), or both')
    r.add_argument('--lengths', default=None, help='comma-separated lengths to try (default: doubling from --start to --max-len)')
    r.add_argument('--start', type=int, default=16384)
    r.add_argument('--max-len', type=int, default=1 << 20)
    r.add_argument('--offload-from', type=int, default=131072, help='azllm: offload_activations from this many tokens')
    r.add_argument('--trial-timeout', type=float, default=300, help='seconds one trial may take')
    r.add_argument('--budget-s', type=float, default=520, help='no trial starts after this many seconds (a GPU command has 10 minutes)')
    r.add_argument('--gpus', type=int, default=1, help='N > 1: azllm only, through torchrun with sequence_parallel=N')
    h = sub.add_parser('hf-step', help=argparse.SUPPRESS); h.add_argument('spec')
    d = sub.add_parser('render', help='the figure (peak memory against length, with the estimate) and the markdown table')
    d.add_argument('results'); d.add_argument('--figure', default=None); d.add_argument('--table', default=None)
    a = ap.parse_args()
    {'run': cmd_run, 'hf-step': lambda a: hf_step(a.spec), 'render': cmd_render}[a.cmd](a)
