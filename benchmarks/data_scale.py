"""Data preparation at corpus scale, on CPU: `azllm.tokens.prepare_tokens` against the tokenizers library's own
`encode_batch_fast`, on 1 and 2 processes, a second start from the cache, peak memory against corpus size, and BPE
tokenizer training memory (and fertility) with and without `sample_bytes`; the same corpus as users store it (`--layouts`):
one large multi-frame .zst, many .zst shards, and on S3 (a local moto server) plain objects, one seekable .zst and one Parquet
file; the second start on a large listing; and reading a tokenizer sample with 1 and 2 processes (`--sample-read`).

    nice python benchmarks/data_scale.py --sizes 50 250            # MB of synthetic Azerbaijani text, made in /tmp
    nice python benchmarks/data_scale.py --sizes --bpe-sizes --layouts 20 --repeats 3 --listing-gb 50 --sample-read 250

Each measurement runs in a process of its own (peak RSS is that process's, workers included). The corpora are synthetic
(the bundled corpus's words, plus new words made from its stems and Azerbaijani suffixes, more of them the bigger the
corpus, Zipf-distributed, in blank-line documents); they are written to /tmp and never committed.
Results: benchmarks/results/data_scale.json (rows, the command, the machine)."""
import argparse, json, os, platform, resource, shutil, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT/'benchmarks'/'results'/'data_scale.json'
SUFFIXES = ['lar', 'lər', 'da', 'də', 'dan', 'dən', 'ın', 'in', 'un', 'ün', 'ı', 'i', 'a', 'ə', 'la', 'lə', 'dır', 'dir',
            'ımız', 'imiz', 'sı', 'si', 'nın', 'nin', 'mış', 'miş', 'acaq', 'əcək', 'lıq', 'lik', 'çı', 'çi']


def make_corpus(path:Path, mb:int, seed:int=0, vocab_mb:int|None=None):
    "A synthetic Azerbaijani corpus of `mb` MB whose vocabulary grows with its size (`vocab_mb`: the size whose vocabulary to use; `seed`: which text)."
    import numpy as np
    from azllm.data import read_documents, find_data_samples
    if path.exists() and path.stat().st_size >= mb * 10**6: return path
    words = sorted({w for d in read_documents(find_data_samples()/'az_train.txt') for w in d.split()})
    rng = np.random.default_rng(0)                               # the vocabulary: the same for every seed
    n_new = int(20_000 * ((vocab_mb or mb) / 50) ** 0.6)                       # vocabulary grows with the corpus, as a real one does
    stems = [w.strip('.,;:!?«»"()') for w in words if len(w) > 3]
    new = [stems[i] + ''.join(SUFFIXES[j] for j in rng.integers(0, len(SUFFIXES), rng.integers(1, 4)))
           for i in rng.integers(0, len(stems), n_new)]
    vocab = np.array(words + new, dtype=object)
    p = 1 / np.arange(1, len(vocab) + 1) ** 1.05; p /= p.sum()
    rng.shuffle(vocab)
    cdf = np.cumsum(p)
    rng = np.random.default_rng(seed + 1)                        # the text
    with open(path, 'w', encoding='utf-8') as f:
        written = 0
        while written < mb * 10**6:
            idx = np.searchsorted(cdf, rng.random(500_000))
            ws = vocab[np.minimum(idx, len(vocab) - 1)]
            lens = rng.integers(40, 400, 2000)                     # words per document
            out, i = [], 0
            for n in lens:
                if i + n > len(ws): break
                out.append(' '.join(ws[i:i + n]) + '.'); i += n
            text = '\n\n'.join(out) + '\n\n'
            f.write(text); written += len(text.encode('utf-8'))
    return path


def usage() -> dict:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return dict(cpu_s=s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime, peak_mb=max(s.ru_maxrss, c.ru_maxrss) / 1024)


def one(kind:str, corpus:str, cache:str, workers:int, extra:str) -> dict:
    "One measurement in this process (run by the parent as a child)."
    os.environ['TOKENIZERS_PARALLELISM'] = 'false'                # one core per process, for raw and prepare alike
    from azllm.tokenizer import load_tokenizer
    t0, u0 = time.perf_counter(), usage()
    if kind == 'raw':
        tok = load_tokenizer().backend_tokenizer
        u0, t0, n = usage(), time.perf_counter(), 0
        with open(corpus, encoding='utf-8') as f:
            while chunk := f.read(4 << 20):
                chunk += f.readline()
                n += sum(len(e.ids) for e in tok.encode_batch_fast([d for d in chunk.split('\n\n') if d.strip()], add_special_tokens=False))
        res = dict(tokens=n)
    elif kind in ('prepare', 'second'):
        from azllm.tokens import prepare_tokens
        from azllm.rundir import data_fingerprint
        from azllm.packing import PackedTokens
        tok = load_tokenizer()
        u0, t0 = usage(), time.perf_counter()
        entry, m = prepare_tokens(corpus, tok, data_fingerprint([corpus]), 'llama3', cache, workers=workers, slice_bytes=int(extra or 16 << 20))
        PackedTokens(entry, 2048, tok.bos_token_id).batch([0, 1])   # what the first step reads
        res = dict(tokens=m['tokens'])
    elif kind == 'sample':
        import hashlib
        from azllm.tokenizer import sampled_documents, corpus_bytes
        u0, t0, h, n = usage(), time.perf_counter(), hashlib.sha256(), 0
        for d in sampled_documents([corpus], int(extra) / corpus_bytes([corpus]), 0, workers): h.update(d.encode()); n += 1
        res = dict(documents=n, digest=h.hexdigest())
    elif kind == 'listing':
        res = listing_second_start(Path(corpus), int(extra))
    elif kind == 'bpe':
        from azllm.data import read_documents
        from azllm.tokenizer import train_tokenizer, sample_documents, corpus_bytes
        sample = int(extra) if extra else None
        docs = read_documents(corpus)
        if sample: docs = sample_documents(docs, sample / corpus_bytes([corpus]))
        tok = train_tokenizer(docs, 32_000, quiet=True)
        held = Path(corpus).with_suffix('.held.txt')
        text = held.read_text(encoding='utf-8')
        res = dict(fertility=len(tok(text, add_special_tokens=False)['input_ids']) / len(text.split()))
    u = usage()
    return dict(res, wall_s=time.perf_counter() - t0, cpu_s=u['cpu_s'] - u0['cpu_s'], peak_mb=u['peak_mb'])


def listing_second_start(folder:Path, gb:int, files:int=20_000, shards:int=96) -> dict:
    """The data work of a second start on a corpus of `files` files and `gb` GB: sparse files (never read), the content-id index a first
    start leaves, and its cached entry as a first start writes it (`shards` sparse uint32 shards of 1.62 tokens' bytes per corpus byte,
    Llama 3's ratio, each with its recorded largest id); then the first two windows training reads, each id checked."""
    import numpy as np
    from azllm.tokens import mark_cache, prepare_tokens, cache_key, token_dtype, TOKENS_FORMAT
    from azllm.token_cache import content_id, IDS_FILE
    from azllm.tokenizer import load_tokenizer
    from azllm.packing import PackedTokens
    tok = load_tokenizer()
    corpus, cache = folder/'corpus', folder/'cache'
    corpus.mkdir(parents=True, exist_ok=True); mark_cache(cache)
    known = {}
    for i in range(files):
        f = corpus/f'{i // 1000:03d}'/f'shard-{i:06d}.txt'
        if not f.exists(): f.parent.mkdir(exist_ok=True); f.touch(); os.truncate(f, gb * 10**9 // files)
        st = f.stat(); known[f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}"] = f'{i:064x}'   # what the first start hashed
    (cache/IDS_FILE).write_text(json.dumps(known))
    dfp = content_id(corpus, cache)
    dtype = token_dtype(len(tok))
    key = cache_key(dfp, 'llama3', text_field='text', dtype=dtype, bos=tok.bos_token_id, eos=tok.eos_token_id)
    entry, n = cache/key, int(1.62 * gb * 10**9 / 4 / shards)
    if entry.exists(): shutil.rmtree(entry)
    entry.mkdir()
    recs = []
    for i in range(shards):
        s = entry/f'shard-{i:05d}.bin'; s.touch(); os.truncate(s, n * 4)
        recs.append(dict(file=s.name, documents=1, tokens=n, bytes=1, max_id=len(tok) - 1, sha256='0' * 64))
    (entry/'manifest.json').write_text(json.dumps(dict(format=TOKENS_FORMAT, dtype=dtype, shards=recs, documents=shards, tokens=n * shards,
                                                        bytes=gb * 10**9, sources=[str(corpus)])))
    u0, t0 = usage(), time.perf_counter()
    got, m = prepare_tokens(corpus, tok, content_id(corpus, cache), 'llama3', cache)     # what a second start does before training
    PackedTokens(got, 2048, tok.bos_token_id, vocab=len(tok)).batch([0, 1])               # and the first windows it reads
    u = usage()
    assert got.name == key, 'not a hit'
    out = dict(files=files, gb=gb, shards=shards, shard_gb=n * 4 / 1e9 * shards, hit_wall_s=time.perf_counter() - t0, hit_cpu_s=u['cpu_s'] - u0['cpu_s'])
    shutil.rmtree(entry)
    big = folder/'ids'; big.mkdir(exist_ok=True)                 # what reading every id would cost instead (before the manifest recorded the largest)
    np.random.default_rng(0).integers(0, len(tok), 1 << 28, dtype=np.uint32).tofile(big/'s.bin')
    with open(big/'s.bin', 'rb+') as f: os.fsync(f.fileno()); os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)   # from disk, as after a reboot
    u0, t0 = usage(), time.perf_counter()
    a = np.memmap(big/'s.bin', dtype=np.uint32, mode='r'); assert all(int(a[i:i + (1 << 24)].max()) < len(tok) for i in range(0, len(a), 1 << 24))
    u = usage(); del a
    shutil.rmtree(big)
    return dict(out, id_check_gb=(1 << 30) / 1e9, id_check_wall_s=time.perf_counter() - t0, id_check_cpu_s=u['cpu_s'] - u0['cpu_s'])


def layouts(corpus:Path, tmp:Path, s3=None) -> dict:
    """The corpus as users store it: plain, one multi-frame .zst (a frame per 4 MB of text, as pzstd writes), 16 .zst shards, 8 S3 objects,
    and on S3 one seekable .zst (a frame per 4 MB of text and a seek table, as pyzstd's SeekableZstdFile writes) and one Parquet file (row groups of 500 documents, about 1 MB of text)."""
    import zstandard
    text, out = corpus.read_bytes(), {'plain': corpus}
    docs = text.split(b'\n\n')
    one = tmp/f'{corpus.stem}.multi.txt.zst'
    if not one.exists():
        c, chunks = zstandard.ZstdCompressor(level=3), [text[i:i + (4 << 20)] for i in range(0, len(text), 4 << 20)]
        one.write_bytes(b''.join(c.compress(x) for x in chunks))
    out['one_zst'] = one
    shards = tmp/f'{corpus.stem}.zst_shards'
    if not shards.exists():
        shards.mkdir()
        for i in range(16): (shards/f'{i:02d}.txt.zst').write_bytes(zstandard.compress(b'\n\n'.join(docs[i::16]) + b'\n', 3))
    out['zst_shards'] = shards
    if s3 is not None:
        for i in range(8): s3.pipe(f'bench/{corpus.stem}/{i:02d}.txt', b'\n\n'.join(docs[i::8]) + b'\n')
        out['s3_objects'] = f's3://bench/{corpus.stem}'
        import io, pyzstd, pyarrow as pa, pyarrow.parquet as pq
        b = io.BytesIO()
        with pyzstd.SeekableZstdFile(b, 'w', level_or_option=3, max_frame_content_size=4 << 20) as f: f.write(text)
        s3.pipe(f'bench/{corpus.stem}-one/c.txt.zst', b.getvalue()); out['s3_one_zst'] = f's3://bench/{corpus.stem}-one/c.txt.zst'
        b = io.BytesIO(); pq.write_table(pa.table({'text': [d.decode() for d in docs if d.strip()]}), b, row_group_size=500)
        s3.pipe(f'bench/{corpus.stem}-pq/c.parquet', b.getvalue()); out['s3_parquet'] = f's3://bench/{corpus.stem}-pq/c.parquet'
    return out


def child(kind, corpus, cache='', workers=1, extra='', env=None) -> dict:
    r = subprocess.run([sys.executable, __file__, '--one', kind, '--corpus', str(corpus), '--cache', str(cache), '--workers', str(workers),
                        '--extra', str(extra)], capture_output=True, text=True, env={**os.environ, 'OMP_NUM_THREADS': '1', **(env or {})})
    if r.returncode: raise SystemExit(r.stderr[-3000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sizes', type=int, nargs='*', default=[50, 250])
    ap.add_argument('--bpe-sizes', type=int, nargs='*', default=[50])
    ap.add_argument('--sample-mb', type=int, default=10)
    ap.add_argument('--one'); ap.add_argument('--corpus'); ap.add_argument('--cache'); ap.add_argument('--workers', type=int, default=1)
    ap.add_argument('--extra', default='')
    ap.add_argument('--layouts', type=int, nargs='*', default=[], help='MB of text to prepare as each storage layout')
    ap.add_argument('--listing-gb', type=int, default=0, help='the second start on a listing of 20,000 files of this many GB in all')
    ap.add_argument('--repeats', type=int, default=1, help='layout rows: times each 1-process run (and the raw rate) is measured, interleaved')
    ap.add_argument('--sample-read', type=int, nargs='*', default=[], help='MB of corpus to read a 10 MB tokenizer sample from, with 1 and 2 processes')
    ap.add_argument('--out', default=str(OUT), help='the results file (rows are merged into it)')
    a = ap.parse_args()
    out = Path(a.out)
    if a.one: print(json.dumps(one(a.one, a.corpus, a.cache, a.workers, a.extra))); return
    tmp = Path(tempfile.gettempdir())/'azllm-data-scale'; tmp.mkdir(exist_ok=True)
    rows = json.loads(out.read_text())['rows'] if out.exists() else []
    def save():
        rows.sort(key=lambda r: (r['what'], r['mb']))
        out.write_text(json.dumps(dict(
            command='; '.join(sorted({r['command'] for r in rows if 'command' in r})) or ' '.join(['python', 'benchmarks/data_scale.py', *sys.argv[1:]]),
            machine=f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            note="CPU numbers on a 2-core machine. Each row's `machine` says how loaded it was when the row finished: the 11 and 55 MB "
                 "rows ran beside six other jobs (load average 6-10), where wall times are noisy and the 2-process speed-up is bounded by "
                 "the cores the others left (MB per CPU-second is the steadier figure); the 252 MB row ran alone. 1 GB not run. "
                 "Tokenizer: Llama 3 (128,256 ids, uint32). The layout rows (one corpus as plain text, one .zst with a frame per 4 MB of text, "
                 "16 .zst shards, and on a local moto server, whose CPU (in the parent process) is not counted, 8 plain objects, one seekable .zst "
                 "and one Parquet file) ran with 1 MB slices so that a 20 MB corpus still splits, beside other jobs (each row's machine line "
                 "gives the load; 2-process wall times then say little about scaling). With repeats, the raw rate and every layout's 1-process run "
                 "were measured in turn that many times: ratio_to_raw is the median of the per-turn ratios, ratio_min/ratio_max their spread. "
                 "slices_for_96 is how many jobs a 96-process node could run at once on that layout. The listing row: 20,000 sparse files "
                 "(never read) with the content-id index a first start leaves, and the cached entry a first start writes (96 sparse uint32 "
                 "shards, 1.62 bytes of tokens per corpus byte, each with its largest id recorded); hit_cpu_s is the second start's data work "
                 "up to its first two windows read (each id checked); id_check_* is what reading every id would cost instead (a 1 GB uint32 "
                 "shard dropped from the page cache first, as after a reboot), which a hit no longer does. The sample-read row: a 10 MB "
                 "tokenizer sample of the corpus read by 1 and 2 processes (the same documents). The same layout command run an hour earlier at load 9-10 gave "
                 "medians (spread) of plain 0.92 (0.88-1.10), one .zst 0.77 (0.77-0.77), 16 .zst shards 0.94 (0.86-1.05), S3 plain objects 0.85 (0.81-0.93), "
                 "S3 seekable .zst 0.87 (0.81-0.89), S3 Parquet 0.82 (0.78-0.92): run-to-run differences at this load are as large as the gaps between layouts.",
            rows=rows), indent=1) + '\n')
    def put(row):
        row['command'] = ' '.join(['python', 'benchmarks/data_scale.py', *sys.argv[1:]])     # each row: the run that made it
        row.setdefault('machine', f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} when the row finished")
        rows[:] = [r for r in rows if (r['what'], r['mb']) != (row['what'], row['mb'])] + [row]; save(); print(row, flush=True)
    for mb in a.sizes:
        corpus = make_corpus(tmp/f'az_{mb}mb.txt', mb)
        size = corpus.stat().st_size / 1e6
        raw = child('raw', corpus)
        cache = Path(tempfile.mkdtemp(dir=tmp))
        p1 = child('prepare', corpus, cache/'w1', 1)
        p2 = child('prepare', corpus, cache/'w2', 2)
        again = child('second', corpus, cache/'w1', 1)
        put(dict(what='prepare', mb=round(size), raw_mb_per_cpu_s=size / raw['cpu_s'], prepare_mb_per_cpu_s=size / p1['cpu_s'],
                 ratio_to_raw=raw['cpu_s'] / p1['cpu_s'], wall_1_s=p1['wall_s'], wall_2_s=p2['wall_s'], speedup_2=p1['wall_s'] / p2['wall_s'],
                 second_start_s=again['wall_s'], peak_mb_1=p1['peak_mb'], peak_mb_2=p2['peak_mb'], tokens=p1['tokens']))
        subprocess.run(['rm', '-rf', str(cache)])
    for mb in a.layouts:
        corpus = make_corpus(tmp/f'az_{mb}mb.txt', mb)
        size = corpus.stat().st_size / 1e6
        raw = child('raw', corpus)
        from moto.server import ThreadedMotoServer
        import socket, s3fs
        with socket.socket() as so: so.bind(('127.0.0.1', 0)); port = so.getsockname()[1]
        import logging; logging.getLogger('werkzeug').setLevel(logging.ERROR)          # no request log lines
        server = ThreadedMotoServer(ip_address='127.0.0.1', port=port, verbose=False); server.start()
        env = dict(AWS_ACCESS_KEY_ID='x', AWS_SECRET_ACCESS_KEY='x', AWS_DEFAULT_REGION='us-east-1', AWS_ENDPOINT_URL=f'http://127.0.0.1:{port}')
        os.environ.update(env)
        s3 = s3fs.S3FileSystem(endpoint_url=env['AWS_ENDPOINT_URL']); s3.mkdir('bench')
        try:
            from azllm.tokens import plan_slices
            from azllm.data import expand_sources
            lay, raws, p1s = layouts(corpus, tmp, s3), [], {}
            for rep in range(a.repeats):                                       # raw and every layout in turn, so load drifts hit them alike
                raws.append(child('raw', corpus))
                for name, src in lay.items():
                    cache = Path(tempfile.mkdtemp(dir=tmp))
                    p1s.setdefault(name, []).append(child('prepare', src, cache/'w1', 1, extra=1 << 20, env=env))   # slices of 1 MB: this small corpus still splits
                    subprocess.run(['rm', '-rf', str(cache)])
            for name, src in lay.items():
                cache = Path(tempfile.mkdtemp(dir=tmp))
                p1, p2 = p1s[name][-1], child('prepare', src, cache/'w2', 2, extra=1 << 20, env=env)
                assert all(p['tokens'] == p2['tokens'] for p in p1s[name]), (name, p1s[name], p2)
                ratios = sorted(r['cpu_s'] / p['cpu_s'] for r, p in zip(raws, p1s[name]))
                rates = sorted(size / p['cpu_s'] for p in p1s[name])
                slices = len(plan_slices(src, 96, min_bytes=1 << 20))                         # jobs a 96-process node could run at once
                put(dict(what=f'layout {name}', mb=round(size), layout=name, text_mb_per_cpu_s=rates[len(rates) // 2],
                         raw_mb_per_cpu_s=sorted(size / r['cpu_s'] for r in raws)[len(raws) // 2], ratio_to_raw=ratios[len(ratios) // 2],
                         ratio_min=ratios[0], ratio_max=ratios[-1], repeats=a.repeats, wall_1_s=p1['wall_s'], wall_2_s=p2['wall_s'],
                         speedup_2=p1['wall_s'] / p2['wall_s'], tokens=p1['tokens'], files=len(expand_sources(src)), slices_for_96=slices))
                subprocess.run(['rm', '-rf', str(cache)])
        finally: server.stop()
    if a.listing_gb:
        r = child('listing', tmp/'listing', extra=a.listing_gb)
        put(dict(what='second start on a listing', mb=a.listing_gb * 1000, **r))
    for mb in a.sample_read:
        corpus = make_corpus(tmp/f'az_{mb}mb.txt', mb)
        r1, r2 = child('sample', corpus, workers=1, extra=10**7), child('sample', corpus, workers=2, extra=10**7)
        assert r1['documents'] == r2['documents'] and r1['digest'] == r2['digest']
        put(dict(what='tokenizer sample read', mb=round(corpus.stat().st_size / 1e6), sample_mb=10, documents=r1['documents'],
                 mb_per_cpu_s_1=corpus.stat().st_size / 1e6 / r1['cpu_s'], wall_1_s=r1['wall_s'], wall_2_s=r2['wall_s'],
                 speedup_2=r1['wall_s'] / r2['wall_s'], cpu_1_s=r1['cpu_s'], cpu_2_s=r2['cpu_s']))
    for mb in a.bpe_sizes:
        corpus = make_corpus(tmp/f'az_{mb}mb.txt', mb)
        held = corpus.with_suffix('.held.txt')
        if not held.exists(): make_corpus(held, 1, seed=1, vocab_mb=mb)
        full, samp = child('bpe', corpus), child('bpe', corpus, extra=a.sample_mb * 10**6)
        put(dict(what='tokenizer', mb=round(corpus.stat().st_size / 1e6), peak_mb_full=full['peak_mb'], peak_mb_sample=samp['peak_mb'],
                 sample_mb=a.sample_mb, fertility_full=full['fertility'], fertility_sample=samp['fertility'],
                 wall_full_s=full['wall_s'], wall_sample_s=samp['wall_s']))
    if rows: save()                                                   # (the note and machine line, even when no row was run)


if __name__ == '__main__': main()
