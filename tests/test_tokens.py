"""The token cache (azllm.tokens) through the command a user runs: hit, miss, invalidation, a SIGKILL while shards are
written, two runs at once, two gloo ranks that encode together, S3 and compressed corpora, a mixed folder, flags after the config."""
import bz2, gzip, json, lzma, os, signal, subprocess, sys, textwrap, time
from pathlib import Path
import numpy as np
import pytest
import yaml
from conftest import DATA, azllm_in, _free_port
from test_engine import write_cfg, sft_files  # noqa: F401 (a fixture)
from azllm.core import AzllmError

pytestmark = pytest.mark.usefixtures('one_thread')


def entries(cache):
    "Complete entries of a cache folder (a staging folder or a lock is none)."
    return sorted(p.name for p in Path(cache).iterdir() if p.is_dir() and not p.name.startswith('.'))


def reference(corpus, tok_dir):
    "What one process writes, by transformers' own call on every document: the tokens the shards must equal."
    from azllm.data import read_documents
    from azllm.tokenizer import load_tokenizer
    tok = load_tokenizer(str(tok_dir))
    out = []
    for ids in tok(list(read_documents(corpus)), add_special_tokens=False)['input_ids']: out += [tok.bos_token_id, *ids, tok.eos_token_id]
    return np.asarray(out, dtype=np.int64)


def shard_tokens(entry):
    from azllm.packing import JoinedTokens, token_files
    t = JoinedTokens(token_files(entry))
    return np.asarray(t[0:len(t)], dtype=np.int64)


def cpt(tmp_path, tok, name, cache, **kw):
    kw = {'max_steps': 1, 'save_every': 1, 'valid_data': [], 'token_cache': str(cache), **kw}
    return write_cfg(tmp_path/f'{name}.yml', tok, tmp_path/name, **kw)


def test_cache_hit_miss_and_invalidation(tmp_path, small_tokenizer, monkeypatch):
    "A second run, a resume and `data prepare` on the same corpus and tokenizer tokenize nothing; a changed byte of the corpus or a changed tokenizer misses."
    import azllm.tokens
    cache, corpus = tmp_path/'cache', tmp_path/'c.txt'
    corpus.write_bytes((DATA/'az_valid.txt').read_bytes())
    r = azllm_in('train', cpt(tmp_path, small_tokenizer, 'a', cache, train_data=[str(corpus)]))
    assert r.returncode == 0, r.stderr
    assert len(entries(cache)) == 1
    assert np.array_equal(shard_tokens(cache/entries(cache)[0]), reference(corpus, small_tokenizer))
    def no(*a, **k): raise AssertionError('tokenized again')
    with monkeypatch.context() as m:
        m.setattr(azllm.tokens, 'encode_slices', no)
        for args in (('train', cpt(tmp_path, small_tokenizer, 'b', cache, train_data=[str(corpus)])),       # another run
                     ('train', tmp_path/'a.yml', 'max_steps=2', 'resume_with_changes=true'),                 # a resume
                     ('data', 'prepare', tmp_path/'b.yml')):
            r = azllm_in(*args)
            assert r.returncode == 0, (args, r.stderr)
    assert len(entries(cache)) == 1
    corpus.write_bytes(corpus.read_bytes().replace('ə'.encode(), 'e'.encode(), 1))       # one character changed, same file name
    assert azllm_in('train', cpt(tmp_path, small_tokenizer, 'c', cache, train_data=[str(corpus)])).returncode == 0
    assert len(entries(cache)) == 2
    from azllm.tokenizer import load_tokenizer
    other = load_tokenizer(str(small_tokenizer)); other.add_tokens(['bakıdakı']); other.save_pretrained(tmp_path/'tok2')
    assert azllm_in('train', cpt(tmp_path, tmp_path/'tok2', 'd', cache, train_data=[str(corpus)])).returncode == 0
    assert len(entries(cache)) == 3
    assert (json.loads((cache/entries(cache)[0]/'manifest.json').read_text())['dtype']) == 'uint16'     # 4,000 tokens fit


PREPARE = textwrap.dedent('''
    import sys
    from azllm.tokenizer import load_tokenizer
    from azllm.tokens import prepare_tokens
    from azllm.runtime import Runtime
    if __name__ == '__main__':             # worker processes are spawned: they import this file again
        tok = load_tokenizer(sys.argv[2])
        rt = Runtime.from_env(cuda=False).start()
        entry, m = prepare_tokens(sys.argv[1], tok, 'data-fp', 'tok-fp', sys.argv[3], rt, workers=int(sys.argv[4]), slice_bytes=int(sys.argv[5]))
        print('ENTRY', entry, sorted({s['rank'] for s in m['shards']}), len(m['shards']))
        rt.close()
''')


@pytest.fixture(scope='module')
def big_corpus(tmp_path_factory):
    "About 3 MB of the bundled corpus: long enough to kill a process mid-way."
    p = tmp_path_factory.mktemp('big')/'big.txt'
    p.write_bytes((DATA/'az_train.txt').read_bytes() * 4)
    return p


def run_prepare(tmp_path, corpus, tok, cache, workers=1, slice_bytes=16 << 20, popen=False, torchrun=False):
    script = tmp_path/'prepare.py'; script.write_text(PREPARE)
    cmd = [sys.executable, '-m', 'torch.distributed.run', '--nproc_per_node', '2', '--master_port', str(_free_port())] if torchrun else [sys.executable]
    cmd += [str(script), str(corpus), str(tok), str(cache), str(workers), str(slice_bytes)]
    env = {**os.environ, 'OMP_NUM_THREADS': '1'}
    if popen: return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


@pytest.mark.slow
def test_sigkill_while_writing_shards_then_the_same_command(tmp_path, small_tokenizer, big_corpus):
    "A SIGKILL while shards are written leaves no entry that looks complete; the same command then writes the right one and clears the debris."
    cache = tmp_path/'cache'
    p = run_prepare(tmp_path, big_corpus, small_tokenizer, cache, slice_bytes=200_000, popen=True)
    deadline = time.time() + 120
    while time.time() < deadline and not list(cache.glob('.tmp-*/shard-00001.bin')): time.sleep(0.02)
    assert p.poll() is None, p.communicate()[1][-2000:]
    p.send_signal(signal.SIGKILL); p.wait()
    assert list(cache.glob('.tmp-*')) and entries(cache) == []       # half-written: a staging folder, never an entry
    out = run_prepare(tmp_path, big_corpus, small_tokenizer, cache, slice_bytes=200_000)
    assert entries(cache) and not list(cache.glob('.tmp-*'))
    assert np.array_equal(shard_tokens(out.split('ENTRY ')[1].split()[0]), reference(big_corpus, small_tokenizer))


@pytest.mark.slow
def test_two_runs_at_once_do_the_work_once(tmp_path, small_tokenizer, big_corpus):
    "Two processes preparing the same corpus at the same moment: one tokenizes, the other waits on the lock and reads its entry."
    cache = tmp_path/'cache'
    ps = [run_prepare(tmp_path, big_corpus, small_tokenizer, cache, slice_bytes=500_000, popen=True) for _ in range(2)]
    outs = [p.communicate() for p in ps]
    assert all(p.returncode == 0 for p in ps), [o[1][-2000:] for o in outs]
    assert len(entries(cache)) == 1 and not list(cache.glob('.tmp-*'))
    assert sum('waiting for another process' in o[0] + o[1] for o in outs) == 1, outs
    assert np.array_equal(shard_tokens(cache/entries(cache)[0]), reference(big_corpus, small_tokenizer))


@pytest.mark.slow
def test_two_gloo_ranks_and_two_workers_equal_one_process(tmp_path, small_tokenizer, big_corpus):
    "Both ranks of a 2-process gloo run encode their slices (and so do 2 worker processes of one rank); the joined shards equal one process's tokens."
    ref = reference(big_corpus, small_tokenizer)
    out = run_prepare(tmp_path, big_corpus, small_tokenizer, tmp_path/'c2', slice_bytes=300_000, torchrun=True)
    line = next(l for l in out.splitlines() if l.startswith('ENTRY'))
    assert '[0, 1]' in line and int(line.split()[-1]) > 4, line               # both ranks wrote shards
    assert np.array_equal(shard_tokens(line.split()[1]), ref)
    out = run_prepare(tmp_path, big_corpus, small_tokenizer, tmp_path/'w2', workers=2, slice_bytes=300_000)
    assert np.array_equal(shard_tokens(out.split('ENTRY ')[1].split()[0]), ref)


@pytest.mark.parametrize('ext', ['gz', 'zst', 'bz2', 'xz'])
def test_each_compression_format_gives_the_plain_tokens(tmp_path, small_tokenizer, ext):
    import zstandard
    from azllm.tokens import prepare_tokens
    from azllm.tokenizer import load_tokenizer
    pack = dict(gz=gzip.compress, zst=zstandard.compress, bz2=bz2.compress, xz=lzma.compress)[ext]
    f = tmp_path/f'c.txt.{ext}'; f.write_bytes(pack((DATA/'az_valid.txt').read_bytes()))
    entry, _ = prepare_tokens(f, load_tokenizer(str(small_tokenizer)), ext, 't', tmp_path/'cache')
    assert np.array_equal(shard_tokens(entry), reference(DATA/'az_valid.txt', small_tokenizer))


def test_a_mixed_folder_trains_on_every_file_and_refuses_one_it_cannot_read(tmp_path, small_tokenizer):
    "10 .txt and 3 .txt.gz files: all 13 are read (before, the 3 were skipped in silence); a .txt.gzip among them is an error that names it."
    from azllm.data import read_documents
    docs = list(read_documents(DATA/'az_valid.txt'))
    d = tmp_path/'corpus'; d.mkdir()
    for i in range(13):
        text = '\n\n'.join(docs[i::13]) + '\n'
        if i < 10: (d/f'{i:02d}.txt').write_text(text)
        else: (d/f'{i:02d}.txt.gz').write_bytes(gzip.compress(text.encode()))
    assert len(list(read_documents(d))) == len(docs)
    r = azllm_in('train', cpt(tmp_path, small_tokenizer, 'mixed', tmp_path/'cache', train_data=[str(d)]))
    assert r.returncode == 0, r.stderr
    (d/'13.txt.gzip').write_bytes(b'x')
    r = azllm_in('train', cpt(tmp_path, small_tokenizer, 'mixed2', tmp_path/'cache', train_data=[str(d)]))
    assert r.returncode == 2 and '13.txt.gzip' in r.stderr and r.stderr.count('\n') == 1, r.stderr


def test_s3_corpus_for_cpt_sft_and_tokenizer_training(tmp_path, small_tokenizer, s3_server, sft_files):
    "train_data on S3 (a compressed file in a folder) for CPT, SFT and tokenizer training; a missing object is refused before the model loads."
    s3_server.fs.pipe(f'{s3_server.bucket}/corpus/a.txt.gz', gzip.compress((DATA/'az_valid.txt').read_bytes()))
    s3_server.fs.pipe(f'{s3_server.bucket}/sft/train.jsonl', (sft_files/'train.jsonl').read_bytes())
    cache = tmp_path/'cache'
    r = azllm_in('train', cpt(tmp_path, small_tokenizer, 's3cpt', cache, train_data=[f'{s3_server.url}/corpus/']))
    assert r.returncode == 0, r.stderr
    assert np.array_equal(shard_tokens(cache/entries(cache)[0]), reference(DATA/'az_valid.txt', small_tokenizer))
    from test_engine import write_sft
    r = azllm_in('train', write_sft(tmp_path/'sft.yml', small_tokenizer, tmp_path/'s3sft', sft_files, train_data=f'{s3_server.url}/sft/train.jsonl',
                                    max_steps=1, save_every=1, eval_every=0, valid_data=None))
    assert r.returncode == 0, r.stderr
    r = azllm_in('tokenizer', 'train', '--corpus', f'{s3_server.url}/corpus/a.txt.gz', '--vocab-size', '800', '--out', tmp_path/'s3tok')
    assert r.returncode == 0 and (tmp_path/'s3tok'/'tokenizer.json').is_file(), r.stderr
    import azllm.cpt
    def no(*a, **k): raise AssertionError('the model loaded')
    with pytest.MonkeyPatch.context() as m:
        m.setattr(azllm.cpt, 'prepare_model', no)
        r = azllm_in('train', cpt(tmp_path, small_tokenizer, 's3missing', cache, train_data=[f'{s3_server.url}/no-such.txt']))
    assert r.returncode == 2 and 'no-such.txt: no such file' in r.stderr, r.stderr


def test_flags_after_the_config(capsys):
    from azllm.cli import main
    cfg = str(Path(__file__).resolve().parent.parent/'configs'/'cpt_tiny_phase1.yml')
    assert main(['train', cfg, '--nproc', '2', 'max_steps=3', '--dry-run']) == 0
    out = capsys.readouterr().out
    assert '--nproc_per_node' in out and 'max_steps=3' in out, out
    with pytest.raises(SystemExit) as e: main(['train', cfg, '--no-such-flag'])
    assert e.value.code == 2


def _mark(root, bar, q):
    from azllm.tokens import mark_cache
    bar.wait()
    try: mark_cache(Path(root)); q.put('')
    except Exception as e: q.put(str(e))

def test_runs_marking_a_new_cache_at_once_all_go_on(tmp_path):
    "Four processes marking the same new cache folder at the same instant: none is refused (without the folder's lock, one saw another's marker half-written in 20 of 20 trials)."
    import multiprocessing as mp
    ctx = mp.get_context('fork')
    for k in range(5):
        root, bar, q = tmp_path/f'c{k}'/'cache', ctx.Barrier(4), ctx.Queue()
        ps = [ctx.Process(target=_mark, args=(str(root), bar, q)) for _ in range(4)]
        for p in ps: p.start()
        for p in ps: p.join(60)
        errs = [q.get(timeout=10) for _ in ps]
        assert errs == [''] * 4, errs
        from azllm.files import read_marker, MARKER
        assert read_marker(root)['kind'] == 'token-cache' and [p.name for p in root.iterdir()] == [MARKER]   # one marker, no debris


def test_the_cache_is_keyed_by_content_and_pruned_to_a_size(tmp_path, small_tokenizer, monkeypatch, capsys):
    "The same bytes under another spelling or in another folder hit the entry made once; `azllm data cache` lists what each entry was made from; pruning keeps the newest and never a file azllm did not make."
    import azllm.tokens
    from azllm.cli import main
    cache = tmp_path/'cache'
    (tmp_path/'corp').mkdir(); (tmp_path/'copy').mkdir()
    (tmp_path/'corp'/'t5.txt').write_bytes((DATA/'az_valid.txt').read_bytes()); (tmp_path/'copy'/'t5.txt').write_bytes((DATA/'az_valid.txt').read_bytes())
    assert main(['data', 'prepare', str(cpt(tmp_path, small_tokenizer, 'a', cache, train_data=[str(tmp_path/'corp'/'t5.txt')]))]) == 0
    assert len(entries(cache)) == 1
    def no(*a, **k): raise AssertionError('tokenized again')
    with monkeypatch.context() as m:
        m.setattr(azllm.tokens, 'encode_slices', no)
        for i, src in enumerate([tmp_path/'corp'/'..'/'corp'/'t5.txt', tmp_path/'copy'/'t5.txt', tmp_path/'copy']):
            assert main(['data', 'prepare', str(cpt(tmp_path, small_tokenizer, f'b{i}', cache, train_data=[str(src)]))]) == 0
    assert len(entries(cache)) == 1
    (cache/'notes.txt').write_text('mine')
    (tmp_path/'other.txt').write_bytes((DATA/'az_valid.txt').read_bytes()[:20000])
    assert main(['data', 'prepare', str(cpt(tmp_path, small_tokenizer, 'c', cache, train_data=[str(tmp_path/'other.txt')]))]) == 0
    assert len(entries(cache)) == 2
    capsys.readouterr()
    assert main(['data', 'cache', '--dir', str(cache)]) == 0
    out = capsys.readouterr().out
    assert '2 entries' in out and 't5.txt' in out and 'other.txt' in out and str(small_tokenizer) in out, out
    newest = max(entries(cache), key=lambda k: (cache/k).stat().st_mtime)
    size = sum(f.stat().st_size for f in (cache/newest).iterdir())
    assert main(['data', 'cache', 'prune', '--max-gb', str((size + 1) / 1e9), '--dir', str(cache)]) == 0
    assert entries(cache) == [newest] and (cache/'notes.txt').read_text() == 'mine'
    assert main(['data', 'cache', 'prune', '--dir', str(cache)]) == 2                          # no size: one line, exit 2


@pytest.mark.parametrize('kind', ['txt.zst', 'jsonl.zst', 'parquet'])
def test_zstd_frames_and_parquet_row_groups_are_sliced_and_give_the_plain_tokens(tmp_path, small_tokenizer, kind):
    "A zstd file of many frames (cut mid-character) and a Parquet file of many row groups are several slices; 1 and 2 worker processes write exactly the plain file's tokens."
    import zstandard, pyarrow as pa, pyarrow.parquet as pq
    from azllm.data import read_documents
    from azllm.tokens import prepare_tokens, plan_slices
    from azllm.tokenizer import load_tokenizer
    text, docs = (DATA/'az_valid.txt').read_bytes(), list(read_documents(DATA/'az_valid.txt'))
    f = tmp_path/f'c.{kind}'
    if kind == 'parquet': pq.write_table(pa.table({'text': docs}), f, row_group_size=5)
    else:
        raw = text if kind == 'txt.zst' else ''.join(json.dumps({'text': d}, ensure_ascii=False) + '\n' for d in docs).encode()
        cuts = list(range(0, len(raw), 3001)) + [len(raw)]                  # every 3,001 bytes: frames start mid-character
        assert any(raw[c] & 0xC0 == 0x80 for c in cuts[1:-1])
        f.write_bytes(b''.join(zstandard.ZstdCompressor().compress(raw[a:b]) for a, b in zip(cuts, cuts[1:])))
    assert len(plan_slices(f, 2, min_bytes=2000)) > 3
    tok, ref = load_tokenizer(str(small_tokenizer)), reference(DATA/'az_valid.txt', small_tokenizer)
    for workers in (1, 2):
        entry, m = prepare_tokens(f, tok, f'{kind}-{workers}', 't', tmp_path/'cache', workers=workers, slice_bytes=2000)
        assert len(m['shards']) > 1 and np.array_equal(shard_tokens(entry), ref), workers


def test_tokenizer_training_is_bounded_by_default(tmp_path, capsys):
    "Tokenizer training reads a 100 MB sample unless told otherwise, and says before it starts how much text it reads and about how much memory that takes (for a sample, or 50 MB of text and more)."
    from azllm.cli import main
    from azllm.tokenizer import TokenizerRun, SAMPLE_BYTES
    assert TokenizerRun(output_dir='x', corpus=['c.txt']).sample_bytes == SAMPLE_BYTES == 100_000_000
    args = ['tokenizer', 'train', '--corpus', str(DATA/'az_train.txt'), '--vocab-size', '600']
    assert main([*args, '--out', str(tmp_path/'a'), '--sample-bytes', '20000']) == 0
    out = capsys.readouterr().out
    assert out.startswith('tokenizer training on about 0.0 MB of text (a sample of the corpus') and 'expect a peak of about' in out, out
    assert main([*args, '--out', str(tmp_path/'b'), '--sample-bytes', '0']) == 0             # 0: all of it (a small corpus: nothing to say)
    assert 'tokenizer training on' not in capsys.readouterr().out


def test_remote_zstd_parquet_and_text_are_sliced_by_range_reads(tmp_path, small_tokenizer, s3_server, capsys):
    "On S3 (a local moto server): a seekable .zst (frames from its seek table), a Parquet file (row groups from its footer) and plain text are several slices; 2 workers write the plain file's tokens; a .zst without a seek table stays one job and says why."
    import pyzstd, zstandard, pyarrow as pa, pyarrow.parquet as pq
    from azllm.data import read_documents
    from azllm.tokens import prepare_tokens, plan_slices, source_slices
    from azllm.tokenizer import load_tokenizer
    text, docs = (DATA/'az_valid.txt').read_bytes(), list(read_documents(DATA/'az_valid.txt'))
    with pyzstd.SeekableZstdFile(tmp_path/'s.txt.zst', 'w', max_frame_content_size=3001) as f: f.write(text)    # frames start mid-character
    pq.write_table(pa.table({'text': docs}), tmp_path/'p.parquet', row_group_size=5)
    plain = b''.join(zstandard.ZstdCompressor().compress(text[a:a + 3001]) for a in range(0, len(text), 3001))   # many frames, no table
    for name, b in (('s.txt.zst', (tmp_path/'s.txt.zst').read_bytes()), ('p.parquet', (tmp_path/'p.parquet').read_bytes()),
                    ('t.txt', text), ('n.txt.zst', plain)):
        s3_server.fs.pipe(f'{s3_server.bucket}/c/{name}', b)
    tok, ref = load_tokenizer(str(small_tokenizer)), reference(DATA/'az_valid.txt', small_tokenizer)
    for name in ('s.txt.zst', 'p.parquet', 't.txt'):
        url = f'{s3_server.url}/c/{name}'
        assert len(plan_slices(url, 2, min_bytes=2000)) > 3, name
        entry, m = prepare_tokens(url, tok, f'remote-{name}', 't', tmp_path/'cache', workers=2, slice_bytes=2000)
        assert len(m['shards']) > 3 and np.array_equal(shard_tokens(entry), ref), name
    url = f'{s3_server.url}/c/n.txt.zst'
    capsys.readouterr()
    assert source_slices(url, 2000, len(plain)) == [(url, 0, None)]
    assert 'tokenized by one process (a remote zstd file is split only by its seek table' in capsys.readouterr().out
    entry, m = prepare_tokens(url, tok, 'remote-no-table', 't', tmp_path/'cache', slice_bytes=2000)
    assert np.array_equal(shard_tokens(entry), ref)


def test_the_tokenizer_sample_read_by_two_processes_is_one_readers(tmp_path):
    "Two worker processes over the corpus's slices (a plain file, a seekable .zst, a Parquet file) give the sample one reader takes, in the same order; an empty corpus is one line."
    import pyzstd, pyarrow as pa, pyarrow.parquet as pq
    from azllm.data import read_documents
    from azllm.tokenizer import sampled_documents, sample_documents
    text, docs = (DATA/'az_train.txt').read_bytes(), list(read_documents(DATA/'az_valid.txt'))
    with pyzstd.SeekableZstdFile(tmp_path/'s.txt.zst', 'w', max_frame_content_size=20_000) as f: f.write(text)
    pq.write_table(pa.table({'text': docs}), tmp_path/'p.parquet', row_group_size=5)
    corpus = [str(DATA/'az_train.txt'), str(tmp_path/'s.txt.zst'), str(tmp_path/'p.parquet')]
    import azllm.tokens
    with pytest.MonkeyPatch.context() as m:                         # slices of 16 MB would leave these small files whole: cut them small
        plan = azllm.tokens.plan_slices
        m.setattr(azllm.tokenizer, 'plan_slices', lambda s, parts: plan(s, parts, min_bytes=20_000))
        assert len(azllm.tokenizer.plan_slices(corpus, 2)) > 6
        two = list(sampled_documents(corpus, 0.3, seed=3, workers=2))
    assert two == list(sample_documents(read_documents(corpus), 0.3, seed=3)) and len(two) > 10
    (tmp_path/'blank.txt').write_text('\n\n  \n')
    with pytest.raises(AzllmError, match='holds no text'): list(sampled_documents([str(tmp_path/'blank.txt')], 0.5, workers=2))
