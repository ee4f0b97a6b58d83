"""Caches, compressed corpora and templates read as untrusted input: every template renders on a budget, every input is a
regular file whose decompression is bounded, every cached number is checked where it enters, every path is normalised once.

Each case is one `azllm: error:` line with exit code 2 (or an `AzllmError` naming the file), nothing half-written left.
A case that used to hang runs under `watchdog`: a timer thread that fails the test (`Hung`) instead of hanging CI, on
signals of its own, so azllm's SIGALRM budget stays free."""
import bz2, faulthandler, gzip, io, json, lzma, os, shutil, signal, threading
from pathlib import Path
import numpy as np
import pytest, yaml
from conftest import DATA, azllm_in
from test_hostile import box, chat_tok, adapter_dir, cli, one_clear_error, snapshot   # noqa: F401  (fixtures and helpers)
from test_engine import write_cfg, write_sft, sft_files                  # noqa: F401
from test_dpo import write_dpo, dpo_files, write_jsonl                   # noqa: F401
from azllm import render
from azllm.core import AzllmError

pytestmark = [pytest.mark.filterwarnings('ignore'), pytest.mark.usefixtures('one_thread')]

LOOP = '{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}'
BOMB = '[' + ','.join(['&a [1,1,1,1,1,1,1,1,1]'] + [f'&{c} [' + ','.join([f'*{p}'] * 9) + ']' for p, c in zip('abcde', 'bcdef')]) + ']'


def one_line(rc, err, *needles):
    "Exit code 2, no traceback and one `azllm: error:` message naming each needle (a progress bar may come before it; a config error lists its keys under it)."
    assert rc == 2 and 'Traceback' not in err, (rc, err[-3000:])
    assert sum(l.lstrip('\r').startswith('azllm: error:') for l in err.replace('\r', '\n').splitlines()) == 1, err[-3000:]
    for n in needles: assert n in err, (n, err[-3000:])


class Hung(BaseException):
    "What `watchdog` raises: a BaseException, so no library's `except Exception` swallows it and goes on to hang on the next document."


@pytest.fixture
def watchdog():
    """`watchdog(s)`: the test fails (`Hung`) if it runs s seconds more, and again every 5 s until it stops: a thread's signal
    stops a command that waits (a FIFO), a CPU-time alarm (SIGVTALRM, which needs no GIL) one that computes inside C (`re`);
    one stuck where no signal reaches Python (a Rust thread pool waiting on a FIFO) ends the process 30 s later, tracebacks printed."""
    def ring(*_):
        if timers: arm(5); raise Hung('no budget stopped it')
    old, timers = (signal.signal(signal.SIGUSR1, ring), signal.signal(signal.SIGVTALRM, ring)), []
    def arm(s):
        t = threading.Timer(s, signal.pthread_kill, (threading.main_thread().ident, signal.SIGUSR1)); t.daemon = True; t.start(); timers.append(t)
        signal.setitimer(signal.ITIMER_VIRTUAL, s)
        if len(timers) == 1: faulthandler.dump_traceback_later(s + 30, exit=True)
    yield arm
    signal.setitimer(signal.ITIMER_VIRTUAL, 0); faulthandler.cancel_dump_traceback_later()
    while timers: timers.pop().cancel()
    signal.signal(signal.SIGUSR1, old[0]); signal.signal(signal.SIGVTALRM, old[1])


@pytest.fixture
def short_budget(monkeypatch):
    "Templates get half a second (the default 10 s would only make the tests slower)."
    monkeypatch.setattr(render.BoundedEnvironment, 'seconds', 0.5)


# ================================================================================================================ hangs
@pytest.fixture(scope='module')
def looping_tok(tmp_path_factory, small_tokenizer):
    "A tokenizer whose chat template (with generation markers, so nothing replaces it) never finishes."
    d = tmp_path_factory.mktemp('loop')/'tok'; shutil.copytree(small_tokenizer, d)
    for f in d.glob('chat_template.*'): f.unlink()
    cfg = json.loads((d/'tokenizer_config.json').read_text())
    cfg['chat_template'] = '{% for m in messages %}{{ m.content }}{% generation %}.{% endgeneration %}{% endfor %}' + LOOP
    (d/'tokenizer_config.json').write_text(json.dumps(cfg))
    return d


def _kto_rows(d:Path) -> Path:
    rows = [dict(prompt=p['prompt'], completion=p[k], label=k == 'chosen') for p in map(json.loads, open(d/'train.jsonl', encoding='utf-8')) for k in ('chosen', 'rejected')]
    write_jsonl(d/'kto.jsonl', rows[:8])
    return d/'kto.jsonl'


@pytest.mark.parametrize('command', ['preview', 'sft', 'dpo', 'kto'])
def test_a_looping_chat_template_stops_every_command(tmp_path, looping_tok, sft_files, dpo_files, watchdog, short_budget, command):
    watchdog(60)
    if command == 'preview': args = ['sft', 'preview', '--data', sft_files/'train.jsonl', '--tokenizer', looping_tok]
    elif command == 'sft': args = ['train', write_sft(tmp_path/'s.yml', looping_tok, tmp_path/'run', sft_files)]
    else:
        shutil.copy(dpo_files/'train.jsonl', tmp_path/'train.jsonl')
        kw = dict(loss_type='kto', train_data=str(_kto_rows(tmp_path)), valid_data=None) if command == 'kto' else {}
        args = ['train', write_dpo(tmp_path/'d.yml', looping_tok, tmp_path/'run', dpo_files, **kw)]
    r = azllm_in(*args)
    one_clear_error(r.returncode, r.stderr, 'the chat template did not finish in 0.5 s (does it loop?)')
    assert not (tmp_path/'run').exists()


def test_a_template_bounded_in_output_and_arithmetic(small_tokenizer):
    "The same renderer caps what a template writes and the `*`/`**` that would allocate gigabytes in one step."
    from transformers import AutoTokenizer
    tok = AutoTokenizer.from_pretrained(small_tokenizer)
    msgs = [{'role': 'user', 'content': 'salam'}]
    for tpl, why in [('{% for i in range(100000) %}{{ "y" * 1000 }}{% endfor %}', 'renders more than'),
                     ('{{ "x" * 10**10 }}', 'repeats a text'), ('{{ 7 ** 10000000 }}', 'raises an integer')]:
        tok.chat_template = tpl
        with pytest.raises(AzllmError, match=why): render.chat_template(tok, msgs, tokenize=False)


def _task_dir(box, name, text, extra=''):
    from test_task_code import task_yaml
    d = box/'tasks'; d.mkdir()
    (d/f'{name}.yaml').write_text(task_yaml(name, text) + extra)
    return d


TASK_TEMPLATES = {'nested-loops': f"'{LOOP}'", 'catastrophic-regex': """'{{ ("a" * 40 + "b") | regex_replace("(a+)+$", "") }}'""",
                  'catastrophic-regex-of-literals': """'{{ "%sb" | regex_replace("(a+)+$", "") }}'""" % ('a' * 40)}   # (Jinja would fold it while compiling)

@pytest.mark.parametrize('how', list(TASK_TEMPLATES))
def test_a_task_template_that_loops_or_backtracks_stops_eval(box, monkeypatch, watchdog, short_budget, how):
    from test_task_code import _eval
    watchdog(60)
    text = TASK_TEMPLATES[how]
    _eval(box, monkeypatch, [_task_dir(box, 'slow_task', text)], "task 'slow_task'", 'a task template did not finish in 0.5 s')


def test_a_yaml_alias_bomb_in_a_task_file_is_refused_before_lm_eval_expands_it(box, monkeypatch, watchdog):
    from test_task_code import _eval
    watchdog(60)
    _eval(box, monkeypatch, [_task_dir(box, 'bomb_task', '"{{question}}"', f'metadata: {BOMB}\n')], 'expands to more than 100,000 values')


@pytest.mark.parametrize('where', ['corpus', 'train_data', 'valid_data'])
def test_a_fifo_is_refused_by_name(box, small_tokenizer, watchdog, where):
    watchdog(60)
    os.mkfifo(box/'pipe.txt')
    if where == 'corpus': args = ['tokenizer', 'train', '--corpus', box/'pipe.txt', '--vocab-size', 1000, '--out', box/'runs'/'tok']
    else:
        kw = dict(train_data=[str(box/'pipe.txt')]) if where == 'train_data' else dict(train_data=[str(box/'corpus.txt')], valid_data=[str(box/'pipe.txt')])
        args = ['train', write_cfg(box/'runs'/'c.yml', small_tokenizer, box/'runs'/'run', token_cache=str(box/'runs'/'cache'), **kw)]
    rc, err = cli(*args)
    one_line(rc, err, 'pipe.txt: a FIFO (named pipe), not a regular file')
    assert not (box/'runs'/'tok').exists() and not (box/'runs'/'run').exists()


@pytest.mark.parametrize('where', ['chat-file', 'chat-folder', 'pairs-folder'])
def test_a_fifo_among_chats_or_pairs_is_refused_by_name(box, chat_tok, watchdog, where):
    watchdog(60)
    (box/'d').mkdir(); os.mkfifo(box/'d'/'valid.jsonl')
    if where == 'pairs-folder':
        from azllm.dpo import read_pairs
        with pytest.raises(AzllmError, match='valid.jsonl: a FIFO'): read_pairs(box/'d')
        return
    rc, err = cli('sft', 'preview', '--data', box/'d'/'valid.jsonl' if where == 'chat-file' else box/'d', '--tokenizer', chat_tok)
    one_clear_error(rc, err, 'valid.jsonl: a FIFO (named pipe), not a regular file')


@pytest.fixture
def small_inflate(monkeypatch):
    "Any compressed file may decompress to 1 MiB (the default floor is 256 MiB): a bomb of a few kilobytes shows the limit."
    import azllm.data
    monkeypatch.setattr(azllm.data, 'INFLATE_FLOOR', 1 << 20, raising=False)


@pytest.mark.parametrize('ext', ['gz', 'zst'])
@pytest.mark.parametrize('command', ['tokenizer', 'cpt'])
def test_a_decompression_bomb_is_refused_in_one_line(box, small_tokenizer, small_inflate, watchdog, ext, command):
    import zstandard
    watchdog(60)
    data = ('Azərbaycan ' * 1000 + '\n\n').encode() * 1600                         # 17 MB of text in a few kilobytes
    (box/f'bomb.txt.{ext}').write_bytes(gzip.compress(data, 9) if ext == 'gz' else zstandard.ZstdCompressor(level=19).compress(data))
    assert (box/f'bomb.txt.{ext}').stat().st_size < 100_000
    if command == 'tokenizer': args = ['tokenizer', 'train', '--corpus', box/f'bomb.txt.{ext}', '--vocab-size', 1000, '--out', box/'runs'/'tok']
    else: args = ['train', write_cfg(box/'runs'/'c.yml', small_tokenizer, box/'runs'/'run', train_data=[str(box/f'bomb.txt.{ext}')],
                                     valid_data=[], token_cache=str(box/'runs'/'cache'))]
    rc, err = cli(*args)
    one_line(rc, err, f'bomb.txt.{ext}: decompresses to more than', 'a decompression bomb', 'AZLLM_INFLATE_RATIO')
    assert not list((box/'runs').glob('cache/.tmp-*')) and not (box/'runs'/'tok').exists()
    os.environ['AZLLM_INFLATE_RATIO'] = '100000'                                    # the user's way to allow a truly repetitive corpus
    try:
        if command == 'tokenizer': assert cli(*args)[0] == 0
        else:
            from azllm.data import read_documents
            assert sum(map(len, read_documents(box/f'bomb.txt.{ext}'))) > 16_000_000
    finally: del os.environ['AZLLM_INFLATE_RATIO']


def test_a_compressed_chat_file_is_bounded_too(box, chat_tok, small_inflate):
    row = json.dumps({'messages': [{'role': 'user', 'content': 'salam ' * 2000}, {'role': 'assistant', 'content': 'salam'}]}) + '\n'
    (box/'chats.jsonl.gz').write_bytes(gzip.compress(row.encode() * 1000, 9))          # 24 MB of chats in a few kB
    rc, err = cli('sft', 'preview', '--data', box/'chats.jsonl.gz', '--tokenizer', chat_tok)
    one_clear_error(rc, err, 'chats.jsonl.gz: decompresses to more than', 'a decompression bomb')


# ================================================================================================ exit 0, bad result
@pytest.mark.parametrize('loss_type', ['sigmoid', 'kto'])
def test_a_reference_cache_holding_nan_is_scored_again(tmp_path, small_tokenizer, dpo_files, loss_type):
    "A reference.npy with NaN (its key still valid) used to train the adapter to NaN and save it, exit 0: now it is a miss."
    shutil.copy(dpo_files/'train.jsonl', tmp_path/'train.jsonl')
    kw = dict(loss_type='kto', train_data=str(_kto_rows(tmp_path)), valid_data=None) if loss_type == 'kto' else dict(valid_data=None)
    cfg = write_dpo(tmp_path/'d.yml', small_tokenizer, tmp_path/'run', dpo_files, max_steps=1, save_every=1, lr_scheduler='constant', **kw)
    assert azllm_in('train', cfg).returncode == 0
    ref = tmp_path/'run'/'data'/'train'/'reference.npy'
    good = np.load(ref); bad = good.copy(); bad[::2] = np.nan
    np.save(ref, bad)                                                               # the key in reference.json still matches
    r = azllm_in('train', cfg, 'max_steps=2', 'resume_with_changes=true')
    assert r.returncode == 0 and 'reference log-probs of' in r.stdout, r.stderr[-2000:]
    assert np.array_equal(np.load(ref), good)                                       # scored again, the same numbers
    last = [json.loads(l) for l in open(tmp_path/'run'/'log.jsonl')][-1]
    assert last['step'] == 2 and np.isfinite(last['loss']) and 'non_finite' not in last


@pytest.mark.parametrize('stage,override,needle', [('dpo', 'beta=1e308', 'beta'), ('dpo', 'desirable_weight=1e300', 'desirable_weight'),
                                                   ('dpo', 'lr=1e10', 'lr'), ('sft', 'lr=5', 'lr'), ('cpt', 'lr=1e308', 'lr'),
                                                   ('cpt', 'seq_len=99999999999', 'seq_len')])
def test_hyper_parameters_are_bounded_to_what_trains(tmp_path, small_tokenizer, sft_files, dpo_files, stage, override, needle):
    cfg = {'dpo': lambda: write_dpo(tmp_path/'c.yml', small_tokenizer, tmp_path/'run', dpo_files),
           'sft': lambda: write_sft(tmp_path/'c.yml', small_tokenizer, tmp_path/'run', sft_files),
           'cpt': lambda: write_cfg(tmp_path/'c.yml', small_tokenizer, tmp_path/'run')}[stage]()
    r = azllm_in('train', cfg, override)
    one_line(r.returncode, r.stderr, needle, 'less than or equal')
    assert not (tmp_path/'run').exists()


def test_a_step_whose_loss_is_not_finite_stops_the_run(tmp_path, small_tokenizer, monkeypatch):
    "Step 3's loss is NaN: exit 2 in one line, the checkpoint of step 2 kept, no final/, the NaN step logged (as null)."
    import torch, azllm.trainer
    calls, lm_loss = [0], azllm.trainer.lm_loss
    def poisoned(model, batch, n_items):
        calls[0] += 1
        loss, extra = lm_loss(model, batch, n_items)
        return (loss * float('nan'), extra) if calls[0] > 4 else (loss, extra)     # 2 micro-batches a step: step 3 on
    monkeypatch.setattr(azllm.trainer, 'lm_loss', poisoned)
    cfg = write_cfg(tmp_path/'c.yml', small_tokenizer, tmp_path/'run', max_steps=5, save_every=2, valid_data=[], token_cache=str(tmp_path/'cache'))
    r = azllm_in('train', cfg)
    one_line(r.returncode, r.stderr, 'step 3: the loss is nan', 'its last checkpoint kept and nothing saved as final/')
    assert [p.name for p in (tmp_path/'run'/'checkpoints').glob('step_*')] == ['step_000002'] and not (tmp_path/'run'/'final').exists()
    last = [json.loads(l) for l in open(tmp_path/'run'/'log.jsonl')][-1]
    assert last['step'] == 3 and last['loss'] is None and 'loss' in last['non_finite']


def test_merging_a_nan_adapter_is_refused(box, adapter_dir):
    from safetensors.torch import load_file, save_file
    d = box/'adapter'; shutil.copytree(adapter_dir, d)
    w = load_file(d/'adapter_model.safetensors'); k = next(iter(w)); w[k][0, 0] = float('nan'); save_file(w, d/'adapter_model.safetensors')
    before = snapshot(box)
    rc, err = cli('export', d, '--merge', '--out', box/'merged')
    one_clear_error(rc, err, 'holds NaN or inf', 'nothing was written')
    assert snapshot(box) == before


def test_half_a_zst_file_is_an_error_never_a_shorter_corpus(box, small_tokenizer):
    import zstandard
    z = zstandard.compress((DATA/'az_train.txt').read_bytes())
    (box/'half.txt.zst').write_bytes(z[:len(z) // 2])
    cfg = write_cfg(box/'runs'/'c.yml', small_tokenizer, box/'runs'/'run', train_data=[str(box/'half.txt.zst')], valid_data=[], token_cache=str(box/'runs'/'cache'))
    rc, err = cli('train', cfg)
    one_line(rc, err, 'half.txt.zst: cannot be decompressed as zstd', 'truncated')
    assert not (box/'runs'/'run').exists() and not list((box/'runs'/'cache').glob('.tmp-*'))


def test_a_token_cache_url_is_refused_and_no_local_folder_made(box, small_tokenizer, monkeypatch):
    monkeypatch.setenv('AZLLM_TOKEN_CACHE', 's3://bucket/tokens')
    cfg = write_cfg(box/'runs'/'c.yml', small_tokenizer, box/'runs'/'run', train_data=[str(box/'corpus.txt')], valid_data=[])
    before = snapshot(box)
    rc, err = cli('train', cfg)
    one_line(rc, err, 'token cache s3://bucket/tokens: a URL')
    assert not (box/'s3:').exists() and snapshot(box) == before


def test_a_token_cache_inside_its_corpus_folder_is_refused(box, small_tokenizer):
    (box/'data').mkdir(); shutil.copy(box/'corpus.txt', box/'data'/'corpus.txt')
    cfg = write_cfg(box/'runs'/'c.yml', small_tokenizer, box/'runs'/'run', train_data=[str(box/'data')], valid_data=[], token_cache=str(box/'data'/'cache'))
    before = snapshot(box)
    rc, err = cli('train', cfg)
    one_line(rc, err, 'token cache', 'lies inside the corpus', 'choose a token_cache outside it')
    assert snapshot(box) == before                                                 # the corpus folder is as it was: the next run reads it


def test_a_file_url_corpus_goes_through_the_same_checks(box):
    (box/'data').mkdir(); shutil.copy(box/'corpus.txt', box/'data'/'corpus.txt')
    before = snapshot(box)
    rc, err = cli('tokenizer', 'train', '--corpus', f"file://{box/'data'}", '--vocab-size', 1000, '--out', box/'data'/'tok')
    one_clear_error(rc, err, 'lies inside', 'which this command reads')
    assert snapshot(box) == before


# ========================================================================================================== tracebacks
@pytest.fixture
def cached(tmp_path, small_tokenizer):
    "A CPT config whose corpus is tokenized into its own cache, and that cache's one entry: (config, entry)."
    cfg = write_cfg(tmp_path/'c.yml', small_tokenizer, tmp_path/'run', train_data=[str(DATA/'az_valid.txt')], valid_data=[],
                    max_steps=1, save_every=1, token_cache=str(tmp_path/'cache'))
    from azllm.cli import main
    assert main(['data', 'prepare', str(cfg)]) == 0
    entry, = [p for p in (tmp_path/'cache').iterdir() if p.is_dir() and not p.name.startswith('.')]
    return cfg, entry


def _forge_shard(entry, how):
    m = json.loads((entry/'manifest.json').read_text()); s = entry/m['shards'][0]['file']
    ids = np.fromfile(s, dtype=m['dtype'])
    if how == 'ids-outside-the-vocabulary': ids[5::50] = 60_000; ids.tofile(s)               # the vocabulary has 4,000 (every window meets one); the manifest as it was
    elif how == 'manifest-max-id-lies': m['shards'][0]['max_id'] = 60_000                     # the manifest records an id past the vocabulary
    elif how == 'manifest-records-no-max-id': ids[5] = 60_000; ids.tofile(s); del m['shards'][0]['max_id']   # as an entry made before it was recorded
    else:                                                                                    # the manifest says uint32: half as many tokens
        m['dtype'] = 'uint32'; m['shards'][0]['tokens'] = len(ids) // 2; ids[:len(ids) // 2 * 2].tofile(s)
    (entry/'manifest.json').write_text(json.dumps(m))


@pytest.mark.parametrize('how', ['manifest-max-id-lies', 'manifest-records-no-max-id', 'manifest-dtype-lies'])
def test_a_forged_cache_entry_is_tokenized_again(tmp_path, cached, how):
    cfg, entry = cached
    _forge_shard(entry, how)
    r = azllm_in('train', cfg)
    assert r.returncode == 0 and 'damaged token cache entry' in r.stdout, r.stderr[-3000:]
    assert len(json.loads((entry/'manifest.json').read_text())['shards']) >= 1 and (tmp_path/'run'/'final').exists()


def test_a_shard_forged_behind_its_manifest_stops_the_run_as_it_is_read(tmp_path, cached):
    "A hit does not read the shards (the manifest's largest ids): an id past the vocabulary written into a shard afterwards is refused when training reads it."
    cfg, entry = cached
    _forge_shard(entry, 'ids-outside-the-vocabulary')
    r = azllm_in('train', cfg)
    one_line(r.returncode, r.stderr, 'token id 60000 is not below the tokenizer', str(entry))
    assert not (tmp_path/'run'/'final').exists()


def test_a_cache_entry_that_is_a_link_is_removed_never_followed(tmp_path, cached):
    cfg, entry = cached
    mine = tmp_path/'mine'; shutil.move(entry, mine); (mine/'notes.txt').write_text('mine\n')
    os.symlink(mine, entry)
    r = azllm_in('train', cfg)
    assert r.returncode == 0, r.stderr[-3000:]
    assert entry.is_dir() and not entry.is_symlink() and (mine/'notes.txt').read_text() == 'mine\n'


@pytest.mark.parametrize('where', ['a-file', 'under-a-file'])
def test_a_token_cache_that_cannot_be_a_folder_is_one_line(box, small_tokenizer, where):
    cache = box/'notes.txt' if where == 'a-file' else box/'notes.txt'/'tokens'
    cfg = write_cfg(box/'runs'/'c.yml', small_tokenizer, box/'runs'/'run', train_data=[str(box/'corpus.txt')], valid_data=[], token_cache=str(cache))
    before = snapshot(box)
    rc, err = cli('train', cfg)
    one_line(rc, err, 'notes.txt', 'cannot be a folder', 'a file is in the way')
    assert snapshot(box) == before


def test_a_lock_that_is_a_directory_is_one_line(tmp_path, cached):
    cfg, entry = cached
    shutil.rmtree(entry); lock = entry.parent/f'{entry.name}.lock'; lock.unlink(); lock.mkdir()
    r = azllm_in('train', cfg)
    one_line(r.returncode, r.stderr, f'{entry.name}.lock', "the token cache's lock cannot be opened")
    assert not list(entry.parent.glob('.tmp-*'))


def _corrupt_files():
    "Each way a compressed corpus (or a Parquet file) can be broken: name -> bytes."
    import zstandard, pyarrow as pa, pyarrow.parquet as pq
    b = (DATA/'az_valid.txt').read_bytes()
    g = gzip.compress(b); crc = bytearray(g); crc[-8] ^= 0xFF
    w = zstandard.ZstdCompressor(compression_params=zstandard.ZstdCompressionParameters(window_log=31, enable_ldm=True)).compressobj()
    x = bytearray(lzma.compress(b)); x[len(x) // 2] ^= 0xFF
    f = io.BytesIO(); pq.write_table(pa.table({'text': [l for l in b.decode().splitlines() if l.strip()]}), f, compression='none')
    p = bytearray(f.getvalue()); p[200:2000] = bytes(c ^ 0x5A for c in p[200:2000])
    return {'truncated.txt.gz': g[:len(g) // 2], 'crc.txt.gz': bytes(crc), 'not-gzip.txt.gz': b'plain text\n' * 100,
            'window-2gib.txt.zst': w.compress(b) + w.flush(), 'not-zstd.txt.zst': b'plain text\n' * 100, 'corrupt.txt.xz': bytes(x),
            'truncated.txt.bz2': bz2.compress(b)[:len(bz2.compress(b)) // 2], 'pages.parquet': bytes(p)}


@pytest.mark.parametrize('name', list(_corrupt_files()))
def test_a_corrupt_compressed_corpus_is_an_error_naming_it_and_leaves_no_staging(tmp_path, small_tokenizer, name):
    from azllm.tokens import prepare_tokens
    from azllm.tokenizer import load_tokenizer
    f = tmp_path/name; f.write_bytes(_corrupt_files()[name])
    with pytest.raises(AzllmError, match=f"{name}: (cannot be decompressed as|a damaged Parquet file)"):
        prepare_tokens(f, load_tokenizer(str(small_tokenizer)), name, 't', tmp_path/'cache')
    assert not list((tmp_path/'cache').glob('.tmp-*'))


def test_a_corrupt_corpus_through_the_command(box, small_tokenizer):
    (box/'c.txt.gz').write_bytes(_corrupt_files()['crc.txt.gz'])
    cfg = write_cfg(box/'runs'/'c.yml', small_tokenizer, box/'runs'/'run', train_data=[str(box/'c.txt.gz')], valid_data=[], token_cache=str(box/'runs'/'cache'))
    rc, err = cli('train', cfg)
    one_line(rc, err, 'c.txt.gz: cannot be decompressed as gzip', 'CRC check failed')
    assert not (box/'runs'/'run').exists() and not list((box/'runs'/'cache').glob('.tmp-*'))


@pytest.mark.parametrize('how', ['2-d', 'strings', 'pickled-objects', 'header-claims-800-gb', 'sidecar-list', 'sidecar-torn'])
def test_a_forged_reference_cache_is_a_miss(tmp_path, how):
    "What `dpo.cached_reference` reads: anything but n finite float64 values under the right key is scored again (no traceback, no pickle, no 800 GB allocation)."
    from azllm.logps import read_reference
    np.save(tmp_path/'reference.npy', np.zeros(4)); (tmp_path/'reference.json').write_text('{"key": "k"}')
    assert read_reference(tmp_path, 'k', 4) is not None
    forged = {'2-d': np.zeros((4, 1)), 'strings': np.array(['a', 'b', 'c', 'd']), 'pickled-objects': np.array([1, 'x', None, 2.0], dtype=object)}
    if how in forged: np.save(tmp_path/'reference.npy', forged[how], allow_pickle=True)
    elif how == 'header-claims-800-gb':
        h = (tmp_path/'reference.npy').read_bytes(); (tmp_path/'reference.npy').write_bytes(h.replace(b"(4,)", b"(100000000000,)"))
    else: (tmp_path/'reference.json').write_text('[1, 2]' if how == 'sidecar-list' else '{"key": "k"')
    assert read_reference(tmp_path, 'k', 4) is None


# ============================================================================================= half-written, wrong words
def test_a_full_disk_while_writing_the_token_cache_leaves_no_staging(box, small_tokenizer, monkeypatch):
    import errno, azllm.tokens
    def full(jobs, *a, **k):
        Path(jobs[0]['path']).write_bytes(b'\0' * 100)                                   # half a shard, then the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), jobs[0]['path'])
    monkeypatch.setattr(azllm.tokens, 'encode_slices', full)
    cfg = write_cfg(box/'runs'/'c.yml', small_tokenizer, box/'runs'/'run', train_data=[str(box/'corpus.txt')], valid_data=[], token_cache=str(box/'runs'/'cache'))
    rc, err = cli('train', cfg)
    one_line(rc, err, 'No space left on device', 'nothing half-written was kept')
    assert not list((box/'runs'/'cache').glob('.tmp-*')) and not (box/'runs'/'run').exists()


KTO_ROWS = {'completion-not-a-reply': ({'prompt': [{'role': 'user', 'content': 'x'}], 'completion': 5, 'label': True}, '`completion` must be one'),
            'prompt-not-a-list': ({'prompt': [], 'completion': 'y', 'label': True}, '"completion": [{"role": "assistant"'),
            'not-json': ('{"prompt": ', '"label": true|false')}

@pytest.mark.parametrize('case', list(KTO_ROWS))
def test_kto_errors_speak_of_completion_and_label(tmp_path, case):
    from azllm.dpo import read_pairs, check_unpaired
    row, needle = KTO_ROWS[case]
    (tmp_path/'kto.jsonl').write_text(row if isinstance(row, str) else json.dumps(row))
    with pytest.raises(AzllmError) as e: read_pairs(tmp_path/'kto.jsonl', check_unpaired)
    assert needle in str(e.value) and 'chosen' not in str(e.value) and 'rejected' not in str(e.value), str(e.value)
    (tmp_path/'kto.jsonl').write_text('\n')
    with pytest.raises(AzllmError, match='holds no examples'): read_pairs(tmp_path/'kto.jsonl', check_unpaired)


# ============================================================================================== from earlier rounds
def test_forged_optimizer_flags_are_this_runs_own(tmp_path, small_tokenizer):
    "An optimizer.json saying `capturable: true` (its hash rewritten to match) ended in torch's AssertionError on resume: a flag is this run's own."
    from test_bounds import _cfg, _at_step_1, _groups
    d = tmp_path/'first'; d.mkdir()
    assert azllm_in('train', _cfg(d/'run.yml', small_tokenizer, d/'run')).returncode == 0
    cfg, ck = _at_step_1(d/'run', tmp_path, small_tokenizer, _groups(capturable=True, foreach=True))
    r = azllm_in('train', cfg)
    assert r.returncode == 0 and 'resumed from' in r.stdout and (tmp_path/'run'/'final').exists(), r.stderr[-3000:]


def test_a_regex_filter_of_a_task_matches_on_the_budget(short_budget, watchdog):
    "A task's `filter_list` regex runs on what the model generates: a catastrophic pattern is stopped like a template."
    from lm_eval.filters.extraction import RegexFilter
    watchdog(60)
    with pytest.raises(AzllmError, match=r"a task template \(its filter_list regex '\(a\+\)\+\$'\) did not finish in 0.5 s"):
        with render.bounded_templates('a task template', lm_eval=True):
            f = RegexFilter(regex_pattern='(a+)+$')
            list(f.apply([['a' * 40 + 'b']], [{}]))
    with render.bounded_templates('a task template', lm_eval=True):
        assert list(RegexFilter(regex_pattern=r'#### (\d+)').apply([['so #### 42']], [{}])) == [['42']]


def test_fertility_shows_progress(capsys, small_tokenizer):
    "`fertility` on a large text (a 200 MB line took ~100 s) shows a bar of the bytes read and their rate."
    from azllm.fertility import compare_tokenizers
    from azllm.tokenizer import load_tokenizer
    compare_tokenizers({'t': load_tokenizer(str(small_tokenizer))}, [(DATA/'az_valid.txt').read_text(encoding='utf-8')], progress=True)
    err = capsys.readouterr().err
    assert 'fertility' in err and 'B/s' in err, err
