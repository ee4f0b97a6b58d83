"""Hostile inputs: every mistake a user can make ends in one `azllm: error:` line and exit code 2, with no traceback,
nothing left behind and nothing of the user's changed.

Most cases run the CLI in-process (`azllm.cli.main`), which is fast; a few run it as a subprocess for the real exit code.
Each case snapshots the sandbox directory (every file's bytes and mtime) before and after."""
import errno, hashlib, io, json, os, shutil, subprocess, sys, time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
import pytest
from azllm.cli import main
from azllm.core import AzllmError
from azllm.files import listing, write_marker
from azllm.config import load_config
from conftest import DATA, ROOT

pytestmark = pytest.mark.filterwarnings('ignore')


# ---------------------------------------------------------------------------------------------------------------- helpers
def snapshot(*roots) -> dict:
    "Every path under `roots` with its type, bytes' hash and mtime."
    out = {}
    for root in roots:
        root = Path(root)
        for p in [root, *sorted(root.rglob('*'))]:
            st = p.lstat()
            kind = 'link' if p.is_symlink() else 'dir' if p.is_dir() else 'file'
            digest = hashlib.sha256(p.read_bytes()).hexdigest() if kind == 'file' else os.readlink(p) if kind == 'link' else None
            out[str(p)] = (kind, digest, st.st_mtime_ns if kind == 'file' else None)
    return out


def cli(*args) -> tuple[int, str]:
    "Run `azllm ARGS` in this process: (exit code, stderr)."
    err, out = io.StringIO(), io.StringIO()
    with redirect_stderr(err), redirect_stdout(out):
        try: rc = main([str(a) for a in args])
        except SystemExit as e: rc = e.code
    return rc, err.getvalue()


def one_clear_error(rc, err, *needles):
    assert rc == 2, (rc, err)
    assert 'Traceback' not in err, err
    lines = [l for l in err.splitlines() if l.strip()]
    assert lines and lines[0].startswith('azllm: error:'), err
    assert sum(l.startswith('azllm: error:') for l in lines) == 1, err
    for n in needles: assert n in err, (n, err)


@pytest.fixture
def box(tmp_path, monkeypatch):
    "A sandbox working directory holding some of the user's own files."
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv('HF_HUB_OFFLINE', '1')
    (tmp_path/'mine').mkdir(); (tmp_path/'mine'/'thesis.tex').write_text('years of work\n')
    (tmp_path/'notes.txt').write_text('my notes\n')
    (tmp_path/'runs').mkdir()
    (tmp_path/'corpus.txt').write_text((DATA/'az_valid.txt').read_text(encoding='utf-8')[:20000], encoding='utf-8')
    (tmp_path/'report').mkdir(); write_marker(tmp_path/'report', 'eval'); (tmp_path/'report'/'report.md').write_text('# old\n')
    os.symlink(tmp_path/'mine', tmp_path/'link')
    return tmp_path


def hostile(box, args, *needles, extra_roots=()):
    "Run one hostile CLI case and check the whole contract."
    before = snapshot(box, *extra_roots)
    rc, err = cli(*args)
    one_clear_error(rc, err, *needles)
    assert snapshot(box, *extra_roots) == before, 'the sandbox changed'


def write(box, name, data) -> Path:
    p = box/name
    p.write_bytes(data if isinstance(data, bytes) else data.encode('utf-8'))
    return p


TOK = "stage: tokenizer\noutput_dir: runs/tok\ncorpus: [corpus.txt]\nvocab_size: 1000\n"
EVAL = "stage: eval\noutput_dir: runs/ev\nmodels: [{name: m, path: preset:llama-tiny}]\nvalid_data: [corpus.txt]\n"
BOMB = (b'a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n'
        b'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n')

# ----------------------------------------------------------------------------------------------------------- config files
CONFIG_FILES = {
    'utf16': ('stage: tokenizer\n'.encode('utf-16'), 'UTF-16'),
    'utf16-no-bom': ('stage: tokenizer\n'.encode('utf-16-le'), 'NUL bytes'),
    'utf32': ('stage: tokenizer\n'.encode('utf-32'), 'UTF-32'),
    'latin1': ('stage: tokenizer\noutput_dir: çıxış\n'.encode('cp1254'), 'not UTF-8'),
    'binary': (b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR', 'NUL bytes'),
    'not-yaml': (b'stage: [tokenizer\n', 'not valid YAML'),
    'tabs': (b'stage: tokenizer\ncorpus:\n\t- a.txt\n', 'not valid YAML'),
    'top-level-list': (b'- stage: tokenizer\n', 'not a list'),
    'top-level-scalar': (b'just some words\n', 'not a str'),
    'top-level-number': (b'42\n', 'not a int'),
    'empty': (b'', 'no `stage:` key'),
    'no-stage': (b'output_dir: runs/x\n', 'no `stage:` key'),
    'unknown-stage': (b'stage: pretrain\n', '`stage:` must be one of'),
    'duplicate-key': (TOK.encode() + b'vocab_size: 2000\n', "'vocab_size' appears twice"),
    'alias-bomb': (b'stage: tokenizer\n' + BOMB, 'aliases'),
    'python-tag': (b'stage: !!python/object/apply:os.system ["echo pwned"]\n', 'not valid YAML'),
    'unknown-key': ((TOK + 'lerning_rate: 1\n').encode(), 'lerning_rate: unknown key'),
    'missing-key': (b'stage: tokenizer\noutput_dir: runs/t\n', 'corpus: required key is missing'),
    'vocab-negative': (TOK.replace('1000', '-5').encode(), 'vocab_size'),
    'vocab-huge': (TOK.replace('1000', '99999999999').encode(), 'vocab_size'),
    'vocab-text': (TOK.replace('1000', 'lots').encode(), 'vocab_size'),
    'min-frequency-0': ((TOK + 'min_frequency: 0\n').encode(), 'min_frequency'),
    'add-0': ((TOK + 'method: extend\nadd: 0\n').encode(), 'add'),
    'method-bogus': ((TOK + 'method: magic\n').encode(), 'method'),
    'eval-seq-len-0': ((EVAL + 'seq_len: 0\n').encode(), 'seq_len'),
    'eval-micro-batch-neg': ((EVAL + 'micro_batch: -1\n').encode(), 'micro_batch'),
    'eval-max-new-tokens-0': ((EVAL + 'max_new_tokens: 0\n').encode(), 'max_new_tokens'),
    'eval-no-models': (EVAL.replace('[{name: m, path: preset:llama-tiny}]', '[]').encode(), 'models'),
    'eval-duplicate-names': (EVAL.replace('[{name: m, path: preset:llama-tiny}]', '[{name: m, path: a}, {name: m, path: b}]').encode(), 'unique'),
}


@pytest.mark.parametrize('case', CONFIG_FILES)
def test_config_file(box, case):
    data, needle = CONFIG_FILES[case]
    hostile(box, ['train', write(box, 'run.yml', data)], needle)


def test_config_missing_or_directory(box):
    hostile(box, ['train', 'nope.yml'], 'does not exist')
    hostile(box, ['train', 'mine'], 'is a directory')
    write(box, 'big.yml', b'# x\n' * 300_000)
    hostile(box, ['train', 'big.yml'], 'not a run config')


OVERRIDES = {'empty-key': ('=1', 'empty'), 'empty-part': ('a..b=1', 'empty part'), 'trailing-dot': ('corpus.=1', 'empty part'),
             'into-a-value': ('vocab_size.x=1', 'not a section'), 'bad-value': ('vocab_size=[1,', 'not valid YAML'),
             'stage-bogus': ('stage=magic', 'must be one of'), 'bad-type': ('vocab_size=many', 'vocab_size')}


@pytest.mark.parametrize('case', OVERRIDES)
def test_override(box, case):
    o, needle = OVERRIDES[case]
    hostile(box, ['train', write(box, 'run.yml', TOK), o], needle)


def test_override_on_eval_and_load_config(box):
    hostile(box, ['eval', write(box, 'ev.yml', EVAL), 'models..x=1'], 'empty part')
    from azllm.tokenizer import TokenizerRun
    with pytest.raises(AzllmError, match='not a section'): load_config(write(box, 'run.yml', TOK), TokenizerRun, ['output_dir.x=1'])


# ------------------------------------------------------------------------------------------- CPT/SFT keys (engine rewrite)
CPT = "stage: cpt\noutput_dir: runs/cpt\ntrain_data: [corpus.txt]\n"
SFT = "stage: sft\noutput_dir: runs/sft\nmodel: preset:llama-tiny\ntrain_data: [chat.jsonl]\n"
TRAIN_KEYS = ['micro_batch=0', 'grad_accum=0', 'seq_len=0', 'lr=-1', 'warmup_steps=-1', 'max_steps=-1', 'save_every=0',
              'log_every=0', 'eval_every=-1', 'keep_last=0', 'lr_scheduler=bogus',
              # issue 23: values pydantic accepted and torch rejected (or trained to NaN), and a micro-batch that hangs
              'lr=.inf', 'weight_decay=.inf', 'epochs=.inf', 'grad_clip=.inf', 'seed=-1', 'seed=99999999999999999999',
              'micro_batch=1000000000000', 'grad_accum=1000000000000', 'train_data=[]']


def _training_config_case(box, text, override):
    from azllm.cpt import CPTRun
    from azllm.sft import SFTRun
    model = CPTRun if 'stage: cpt' in text else SFTRun
    key = override.split('=')[0]
    # the bound itself must be what is reported (an "unknown key" on today's SFT config does not count)
    with pytest.raises(AzllmError, match=rf"{key}: (Input should be|Value error|List should have|.*must)"):
        load_config(write(box, 'run.yml', text), model, [override])


# the shared TrainConfig bounds every one of them, in both stages
TRAIN_CASES = [pytest.param(stage, o, id=f'{stage}-{o}') for stage in ('cpt', 'sft') for o in TRAIN_KEYS]


@pytest.mark.parametrize('stage,override', TRAIN_CASES)
def test_training_key_bounds(box, stage, override):
    _training_config_case(box, CPT if stage == 'cpt' else SFT, override)


# ------------------------------------------------------------------------------------------------------------------ corpus
CORPORA = {'empty': (b'', 'empty'), 'binary': (b'\x89PNG\r\n\x1a\n\x00\x00\x00', 'binary'),
           'not-utf8': ('Bakı şəhəri'.encode('cp1254', errors='replace') + b'\xfd\xfe', 'not valid UTF-8'),
           'whitespace': (b'\n\n  \n', 'holds no text'),
           'jsonl-no-field': (b'{"body": "salam"}\n', 'text'), 'jsonl-broken': (b'{"text": "salam"\n', 'not valid JSON'),
           # issue 23
           'jsonl-scalar-rows': (b'5\nnull\n', 'not an object'), 'jsonl-list-row': (b'["salam"]\n', 'not an object'),
           'invisible-only': ('\ufeff\u200b\u200b\n\u200d\u2060\n\ufeff\n'.encode(), 'holds no text')}


@pytest.mark.parametrize('case', CORPORA)
def test_corpus(box, case):
    data, needle = CORPORA[case]
    name = 'bad.jsonl' if case.startswith('jsonl') else 'bad.txt'
    write(box, name, data)
    hostile(box, ['tokenizer', 'train', '--corpus', name, '--vocab-size', 1000, '--out', 'runs/tok'], needle)


def test_corpus_missing_and_empty_dir(box):
    hostile(box, ['tokenizer', 'train', '--corpus', 'nope.txt', '--vocab-size', 1000, '--out', 'runs/tok'], 'no such file')
    (box/'emptydir').mkdir()
    hostile(box, ['tokenizer', 'train', '--corpus', 'emptydir', '--vocab-size', 1000, '--out', 'runs/tok'])


# ------------------------------------------------------------------------------------------------------ tokenizer flags
FLAGS = {
    'vocab-overflow': (['train', '--vocab-size', '99999999999'], '--vocab-size', 'out of range'),
    'vocab-zero': (['train', '--vocab-size', '0'], '--vocab-size'),
    'vocab-negative': (['train', '--vocab-size', '-1'], '--vocab-size'),
    'vocab-text': (['train', '--vocab-size', 'lots'], 'not a whole number'),
    'vocab-float': (['train', '--vocab-size', '1e3'], 'not a whole number'),
    'vocab-too-small': (['train', '--vocab-size', '300'], 'too small', 'use 513'),
    'min-frequency-negative': (['train', '--vocab-size', '1000', '--min-frequency', '-1'], '--min-frequency'),
    'min-frequency-zero': (['train', '--vocab-size', '1000', '--min-frequency', '0'], '--min-frequency'),
    'add-zero': (['extend', '--add', '0'], '--add'),
    'add-negative': (['extend', '--add', '-5'], '--add'),
    'add-huge': (['extend', '--add', '99999999999'], '--add'),
    'base-missing': (['extend', '--add', '10', '--base', './no/such/tokenizer'], 'no such file'),
    'base-not-tokenizer': (['extend', '--add', '10', '--base', 'notes.txt'], 'cannot read tokenizer'),
    'base-empty-dir': (['extend', '--add', '10', '--base', 'mine'], 'no tokenizer.json'),
}


@pytest.mark.parametrize('case', FLAGS)
def test_tokenizer_flags(box, case):
    args, *needles = FLAGS[case]
    hostile(box, ['tokenizer', *args[:1], '--corpus', 'corpus.txt', '--out', 'runs/tok', *args[1:]], *needles)


def test_fertility(box):
    v = str(DATA/'az_valid.txt')
    hostile(box, ['fertility', '--tokenizer', './nope', '--text', v], 'no such file')
    hostile(box, ['fertility', '--tokenizer', 'runs/tok-az', '--text', v], 'no such file')       # runs/ exists: a local path
    hostile(box, ['fertility', '--tokenizer', 'notes.txt', '--tokenizer', 'notes.txt', '--text', v], 'twice')
    hostile(box, ['fertility', '--tokenizer', 'mine', '--text', v, '--plot', 'notes.txt'], '--plot')
    hostile(box, ['fertility', '--tokenizer', 'mine', '--text', 'nope.txt'], 'no such file')
    t0 = time.time()
    hostile(box, ['fertility', '--tokenizer', 'azllm-test-no-such-org/no-such-tokenizer', '--text', v], 'HF_HUB_OFFLINE')
    assert time.time() - t0 < 5                                                  # no retries against the Hub


# ---------------------------------------------------------------------------------------------------------- output paths
def _tok(out, *more): return ['tokenizer', 'train', '--corpus', 'corpus.txt', '--vocab-size', 1000, '--out', out, *more]

OUTPUTS = {'user-dir': ('mine', 'not made by azllm'), 'file': ('notes.txt', 'existing file'), 'symlink': ('link', 'symbolic link'),
           'other-kind': ('report', 'azllm eval output'), 'under-a-file': ('notes.txt/tok', 'is a file'),
           'cwd': ('.', 'current directory'), 'parent-of-cwd': ('..', 'current directory'), 'home': ('~', 'home')}


@pytest.mark.parametrize('case', OUTPUTS)
def test_output_path(box, case):
    out, needle = OUTPUTS[case]
    hostile(box, _tok(os.path.expanduser(out) if out == '~' else out), needle)


def test_output_cwd_even_with_overwrite(box):
    hostile(box, _tok('.', '--overwrite'), 'current directory')


def test_output_data_samples(box):
    hostile(box, _tok(DATA), 'not made by azllm', extra_roots=[DATA])


def test_output_other_commands(box):
    hostile(box, ['quickstart', '--out', 'mine'], 'not made by azllm')
    hostile(box, ['export', 'mine', '--merge', '--out', 'notes.txt'], 'existing file')
    hostile(box, ['export', 'mine', '--out', 'runs/merged'], 'not an adapter directory')
    hostile(box, ['eval', write(box, 'ev.yml', EVAL.replace('runs/ev', 'mine'))], 'not made by azllm')
    os.remove(box/'ev.yml')


def test_overwrite_replaces_only_azllms_own_outputs(box):
    hostile(box, _tok('mine', '--overwrite'), 'not made by azllm')              # a folder of the user's: never, not even with it
    hostile(box, _tok('notes.txt', '--overwrite'), 'existing file')
    hostile(box, _tok('link', '--overwrite'), 'symbolic link')
    hostile(box, _tok('report', '--overwrite'), 'report.md', 'did not write')   # an azllm output with a file its marker does not list
    (box/'ev').mkdir(); (box/'ev'/'report.md').write_text('# old\n'); write_marker(box/'ev', 'eval', listing(box/'ev'))
    hostile(box, _tok('ev'), 'azllm eval output', '--overwrite')                 # azllm's own, of another kind: only when asked
    rc, err = cli(*_tok('ev', '--overwrite'))
    assert rc == 0, err
    assert not (box/'ev'/'report.md').exists() and (box/'ev'/'tokenizer.json').exists()
    assert not [p for p in box.iterdir() if '.azllm-' in p.name]                 # no temporary or backup directories
    rc, err = cli(*_tok('ev'))                                                    # now an azllm tokenizer: replaced
    assert rc == 0, err


# ------------------------------------------------------------------------------------------------------------ chat data
@pytest.fixture(scope='module')
def chat_tok(tmp_path_factory):
    "A small chat-capable tokenizer (Llama 3 specials and template), so a case does not spend seconds loading Llama 3's."
    from azllm.tokenizer import train_tokenizer, save_tokenizer
    docs = (DATA/'az_valid.txt').read_text(encoding='utf-8').splitlines()[:200]
    return save_tokenizer(train_tokenizer(docs, 700), tmp_path_factory.mktemp('chat')/'tok')


TURN = '{"role": "user", "content": "salam"}'
CHATS = {'not-json': (b'hello\n', 'not valid JSON'), 'empty': (b'', 'holds no examples'),
         'no-messages': (b'{"text": "salam"}\n', 'not a chat example'), 'top-level-list': (b'[1, 2]\n', 'not a JSON object'),
         'messages-not-list': (b'{"messages": "hi"}\n', 'non-empty list'),
         'bad-role': (b'{"messages": [{"role": "wizard", "content": "x"}]}\n', 'no assistant turn'),
         'no-assistant': (('{"messages": [%s]}\n' % TURN).encode(), 'no assistant turn'),
         'content-not-str': (b'{"messages": [{"role": "user", "content": 5}, {"role": "assistant", "content": "x"}]}\n', 'string values'),
         'binary': (b'\x00\x01\x02\xff', 'NUL bytes'), 'not-utf8': (b'{"messages": "\xfd\xfe"}\n', 'not valid UTF-8'),
         # issue 23: Alpaca and ShareGPT fields of the wrong type
         'alpaca-instruction-int': (b'{"instruction": 5, "output": "x"}\n', 'not a string'),
         'alpaca-output-list': (b'{"instruction": "x", "output": ["y"]}\n', 'not a string'),
         'sharegpt-conversations-int': (b'{"conversations": 5}\n', 'not a list'),
         'sharegpt-value-list': (b'{"conversations": [{"from": "human", "value": ["x"]}, {"from": "gpt", "value": "y"}]}\n', 'not a string')}


@pytest.mark.parametrize('case', CHATS)
def test_chat_data(box, chat_tok, case):
    data, needle = CHATS[case]
    write(box, 'chat.jsonl', data)
    hostile(box, ['sft', 'preview', '--data', 'chat.jsonl', '--tokenizer', chat_tok], *([needle] if needle else []))


def test_chat_data_other(box, chat_tok):
    hostile(box, ['sft', 'preview'], 'give a run config or --data')
    hostile(box, ['sft', 'preview', '--data', 'nope.jsonl', '--tokenizer', chat_tok], 'no such file')
    hostile(box, ['sft', 'preview', '--data', str(DATA/'sft'/'valid.jsonl'), '--tokenizer', './nope'], 'no such file')
    hostile(box, ['sft', 'preview', '--data', str(DATA/'sft'/'valid.jsonl'), '--n', '0'], '--n')
    hostile(box, ['sft', 'preview', '--data', str(DATA/'sft'/'valid.jsonl'), '--tokenizer', 'corpus.txt'], 'cannot read tokenizer')


# -------------------------------------------------------------------------------------------------------------- CLI flags
CLI_FLAGS = {
    'chat-negative-tokens': (['chat', 'mine', '--max-new-tokens', '-5'], '--max-new-tokens'),
    'chat-zero-tokens': (['chat', 'mine', '--max-new-tokens', '0'], '--max-new-tokens'),
    'chat-missing-model': (['chat', './no/model', '--prompt', 'salam'], 'no such'),
    'memory-zero-gpus': (['memory', 'estimate', '--params', '1e9', '--gpus', '0'], '--gpus'),
    'unknown-command': (['pretrain'], 'invalid choice'),
    'unknown-flag': (['quickstart', '--fast'], 'unrecognized arguments'),
    'train-only-overrides': (['train', 'lr=1'], 'at least one CONFIG.yml'),
    'missing-required': (['tokenizer', 'train', '--corpus', 'corpus.txt'], 'required'),
    # issue 23: counts and ports bounded where they are read, before any work or upload
    'nproc-negative': (['train', 'run.yml', '--nproc', '-1'], '--nproc'),
    'gpus-zero': (['train', 'run.yml', '--gpus', '0'], '--gpus'),
    'master-port-huge': (['train', 'run.yml', '--master-port', '99999999'], '--master-port'),
    'nnodes-zero': (['train', 'run.yml', '--nnodes', '0'], '--nnodes'),
    'sagemaker-volume-negative': (['sagemaker', 'submit', 'run.yml', '--role', 'arn:aws:iam::1:role/x', '--output', 's3://b/p',
                                   '--volume-gb', '-5'], '--volume-gb'),
    'sagemaker-instances-zero': (['sagemaker', 'submit', 'run.yml', '--role', 'arn:aws:iam::1:role/x', '--output', 's3://b/p',
                                  '--instance-count', '0'], '--instance-count'),
    'memory-params-inf': (['memory', 'estimate', '--params', 'inf'], '--params'),
}


@pytest.mark.parametrize('case', CLI_FLAGS)
def test_cli_flags(box, case):
    args, needle = CLI_FLAGS[case]
    hostile(box, args, needle)


# ----------------------------------------------------------------------------------------------------------- full disks
@pytest.mark.parametrize('code', [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_disk_errors_while_writing(box, monkeypatch, code):
    from transformers import PreTrainedTokenizerFast
    def fail(self, path, *a, **k): raise OSError(code, os.strerror(code), str(Path(path)/'tokenizer.json'))
    monkeypatch.setattr(PreTrainedTokenizerFast, 'save_pretrained', fail)
    hostile(box, _tok('runs/tok'), os.strerror(code))
    (box/'ev').mkdir(); (box/'ev'/'report.md').write_text('# old\n'); write_marker(box/'ev', 'eval', listing(box/'ev'))
    before = snapshot(box)
    hostile(box, _tok('ev', '--overwrite'), os.strerror(code))                   # an existing output survives a failed replace
    assert (box/'ev'/'report.md').read_text() == '# old\n' and snapshot(box) == before


# ------------------------------------------------------------------------------------------ a few real processes (exit code)
def _proc(*args, cwd, env=None):
    return subprocess.run([sys.executable, '-m', 'azllm.cli', *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, 'PYTHONPATH': str(ROOT), 'HF_HUB_OFFLINE': '1', **(env or {})})


EXIT_CODE_CASES = [
    (['train', 'u16.yml'], 'UTF-16'),
    (_tok('runs/tok')[:4] + ['--vocab-size', '99999999999', '--out', 'runs/tok'], 'out of range'),
    (_tok('mine'), 'not made by azllm'),
    (['fertility', '--tokenizer', 'azllm-test-no-such-org/x', '--text', 'corpus.txt'], 'HF_HUB_OFFLINE')]


@pytest.mark.parametrize('args,needle', EXIT_CODE_CASES)
def test_exit_code(box, args, needle):
    "In-process: the code `main` returns (or argparse exits with), one clear line, nothing changed."
    write(box, 'u16.yml', 'stage: tokenizer\n'.encode('utf-16'))
    hostile(box, args, needle)


@pytest.mark.slow
@pytest.mark.parametrize('args,needle', [EXIT_CODE_CASES[0], EXIT_CODE_CASES[1]], ids=['azllm-error', 'argparse-error'])
def test_subprocess_exit_code(box, args, needle):
    "A real `python -m azllm.cli` process: the exit code the shell sees, for an azllm error and for an argparse one."
    write(box, 'u16.yml', 'stage: tokenizer\n'.encode('utf-16'))
    before = snapshot(box)
    r = _proc(*args, cwd=box)
    one_clear_error(r.returncode, r.stderr, needle)
    assert snapshot(box) == before


# ------------------------------------------------------------------------------------------- library calls (in-process)
def test_flash_attention_without_the_package(box):
    import importlib.util
    from azllm.model import load_model
    from azllm.tokenizer import load_tokenizer
    if importlib.util.find_spec('flash_attn') is not None: pytest.skip('flash-attn is installed here')
    with pytest.raises(AzllmError, match='flash-attn'): load_model('preset:llama-tiny', None, attn_implementation='flash_attention_2')


def test_s3_without_s3fs(box, monkeypatch):
    import fsspec.registry  # noqa: F401
    from azllm.sources import require_fs
    monkeypatch.setitem(sys.modules, 's3fs', None)
    monkeypatch.delitem(sys.modules['fsspec.registry']._registry, 's3', raising=False)
    with pytest.raises(AzllmError, match=r"pip install 'azllm\[s3\]'"): require_fs('s3://bucket/run')
    with pytest.raises(AzllmError, match='unknown storage protocol'): require_fs('bogus://bucket/run')


@pytest.mark.parametrize('spec', ['./missing-model', '/no/such/model', '~/no-such-model', 'runs/cpt/final', 'a/b/c', 'model.safetensors',
                                  'C:\\models\\x', 'two words'])
def test_local_looking_model_never_goes_to_the_hub(box, spec):
    from azllm.model import load_model
    t0 = time.time()
    with pytest.raises(AzllmError, match='no such model directory'): load_model(spec)
    assert time.time() - t0 < 1


# ==================================================================================== issue 23: the guarantees under attack
# ------------------------------------------------------------------------------------------ ownership means ownership
def test_a_user_file_inside_an_azllm_output_is_never_deleted(box):
    rc, err = cli(*_tok('runs/tok')); assert rc == 0, err
    (box/'runs'/'tok'/'NOTES.md').write_text('my notes on this tokenizer\n')
    hostile(box, _tok('runs/tok'), 'NOTES.md', 'did not write')
    assert (box/'runs'/'tok'/'NOTES.md').read_text() == 'my notes on this tokenizer\n'


def test_a_copied_marker_does_not_hand_over_a_users_folder(box):
    rc, err = cli(*_tok('runs/tok')); assert rc == 0, err
    shutil.copy(box/'runs'/'tok'/'.azllm-output.json', box/'mine'/'.azllm-output.json')
    hostile(box, _tok('mine'), 'thesis.tex')
    assert (box/'mine'/'thesis.tex').read_text() == 'years of work\n'


def test_fertility_plot_never_overwrites_a_users_image(box):
    rc, err = cli(*_tok('runs/tok')); assert rc == 0, err
    v = str(DATA/'az_valid.txt')
    write(box, 'chart.png', b'\x89PNG\r\n\x1a\n my own chart')
    hostile(box, ['fertility', '--tokenizer', 'runs/tok', '--text', v, '--plot', 'chart.png'], 'not written by azllm')
    hostile(box, ['fertility', '--tokenizer', 'runs/tok', '--text', v, '--plot', 'no/such/folder/x.png'], 'does not exist')
    for _ in range(2):                                                 # its own figure it may write again
        rc, err = cli('fertility', '--tokenizer', 'runs/tok', '--text', v, '--plot', 'runs/f.png'); assert rc == 0, err


# ---------------------------------------------------------------------------------------- values bounded where read
def test_betas_and_nul_paths(box):
    from azllm.cpt import CPTRun
    with pytest.raises(AzllmError, match=r'betas\.0: Input should be less than 1'): load_config(write(box, 'run.yml', CPT), CPTRun, ['betas=[2, 3]'])
    hostile(box, ['train', write(box, 'run.yml', CPT), 'output_dir="runs/a\\0b"'], 'NUL')
    hostile(box, ['train', write(box, 'run.yml', CPT), 'checkpoint_dir=bogus://bucket/run'], 'unknown storage protocol')
    os.remove(box/'run.yml')


SFT_BAD = {'lm-head': ('target_modules=[lm_head]', 'not linear layers'), 'container': ('target_modules=[layers]', 'not linear layers'),
           'nothing': ('target_modules=[]', 'target_modules is empty'), 'absurd-rank': ('lora_r=50000', 'lora_r 50000 is larger')}


@pytest.mark.parametrize('case', SFT_BAD)
def test_sft_target_modules_and_rank(box, chat_tok, case):
    ov, needle = SFT_BAD[case]
    lines = (DATA/'sft'/'valid.jsonl').read_text(encoding='utf-8').splitlines()[:8]
    write(box, 'chat.jsonl', '\n'.join(lines) + '\n')
    write(box, 'sft.yml', SFT + f'tokenizer: {chat_tok}\nmax_steps: 1\nseq_len: 128\nmicro_batch: 1\ntensorboard: false\n')
    hostile(box, ['train', 'sft.yml', ov], needle)
    os.remove(box/'chat.jsonl'); os.remove(box/'sft.yml')


def test_text_named_parquet(box):
    write(box, 'bad.parquet', 'just some words\n')
    hostile(box, ['tokenizer', 'train', '--corpus', 'bad.parquet', '--vocab-size', 1000, '--out', 'runs/tok'], 'not a Parquet file')


def test_a_line_without_newlines_is_read_in_pieces(tmp_path):
    from azllm.data import read_documents, MAX_DOC_CHARS
    p = tmp_path/'one-line.txt'
    p.write_text(('kitablardan oxudum ' * 160_000).strip(), encoding='utf-8')          # ~3 MB, not one newline
    docs = list(read_documents(p))
    assert len(docs) >= 3 and max(map(len, docs)) <= MAX_DOC_CHARS
    assert ' '.join(docs) == p.read_text(encoding='utf-8')                          # cut at spaces: no word is split


def test_fertility_on_a_corpus_without_line_breaks_is_bounded(box, chat_tok, monkeypatch):
    """`azllm fertility` on one line of text: the whole corpus was held as a list of documents, and all its token ids with it (20 MB
    took 1.8 GB); now it streams, so four times the text costs about the same peak (Python memory, measured by tracemalloc)."""
    import tracemalloc
    import azllm.data, azllm.fertility
    monkeypatch.setattr(azllm.data, 'MAX_DOC_CHARS', 10_000)                      # both texts below are many chunks long
    monkeypatch.setattr(azllm.fertility, 'FERTILITY_CHUNK', 10_000, raising=False)
    words = ' '.join((DATA/'az_valid.txt').read_text(encoding='utf-8').split()[:3000])
    cli('fertility', '--tokenizer', chat_tok, '--text', write(box, 'warm.txt', words))        # (first-call allocations)
    peaks, sizes = [], []
    for times in (48, 192):                                                       # 1.2 and 4.7 MB: both past the reader's 1 MB buffer
        line = write(box, f'one_line_{times}.txt', (words + ' ') * times)
        tracemalloc.start()
        rc, err = cli('fertility', '--tokenizer', chat_tok, '--text', line, '--json')
        peaks.append(tracemalloc.get_traced_memory()[1]); tracemalloc.stop(); sizes.append(line.stat().st_size)
        assert rc == 0, err
    assert peaks[1] < peaks[0] + (sizes[1] - sizes[0]) / 2, (peaks, sizes)     # (holding the text alone costs 2 bytes a character)


def test_log_cut_mid_line_is_read(box):
    from azllm.rundir import read_losses
    (box/'runs'/'r').mkdir()
    (box/'runs'/'r'/'log.jsonl').write_text('{"step": 1, "loss": 3.0}\n{"step": 2, "loss": 2.5}\n{"step": 3, "lo')
    assert read_losses(box/'runs'/'r')['train'] == [[1, 3.0], [2, 2.5]]
    (box/'runs'/'r'/'log.jsonl').write_text('{"step": 1, "loss": 3.0}\nnot json\n{"step": 2, "loss": 2.5}\n')
    with pytest.raises(AzllmError, match='log.jsonl:2: not valid JSON'): read_losses(box/'runs'/'r')


@pytest.fixture(scope='module')
def adapter_dir(tmp_path_factory, chat_tok):
    "A tiny LoRA adapter with its base model saved beside it (base/), as an SFT run's final/ holds it."
    from peft import LoraConfig, get_peft_model
    from azllm.model import load_model
    from azllm.tokenizer import load_tokenizer
    d = tmp_path_factory.mktemp('adapter')/'final'
    tok = load_tokenizer(str(chat_tok))
    base = load_model('preset:llama-tiny', tok)
    base.save_pretrained(d/'base'); tok.save_pretrained(d/'base')
    get_peft_model(base, LoraConfig(r=2, target_modules=['q_proj'], task_type='CAUSAL_LM')).save_pretrained(d)
    tok.save_pretrained(d)
    return d


def _copy_adapter(box, adapter_dir):
    d = box/'adapter'; shutil.copytree(adapter_dir, d); return d


def test_damaged_adapters(box, adapter_dir):
    d = _copy_adapter(box, adapter_dir)
    w = d/'adapter_model.safetensors'; w.write_bytes(w.read_bytes()[:len(w.read_bytes()) // 2])
    hostile(box, ['chat', d, '--prompt', 'salam', '--max-new-tokens', 2], 'cannot be read')
    shutil.rmtree(d); d = _copy_adapter(box, adapter_dir)
    (d/'adapter_config.json').write_text('[1, 2]')
    hostile(box, ['chat', d, '--prompt', 'salam', '--max-new-tokens', 2], 'not a peft adapter config')
    shutil.rmtree(d)


def test_sandboxed_chat_template(box, adapter_dir):
    d = box/'model'; shutil.copytree(adapter_dir/'base', d)
    cfg = json.loads((d/'tokenizer_config.json').read_text())
    cfg['chat_template'] = "{% generation %}{{ cycler.__init__.__globals__.os.popen('touch pwned').read() }}{% endgeneration %}"
    (d/'tokenizer_config.json').write_text(json.dumps(cfg))
    for f in d.glob('chat_template.*'): f.unlink()
    hostile(box, ['chat', d, '--prompt', 'salam', '--max-new-tokens', 2], 'chat template')
    assert not (box/'pwned').exists()
    shutil.rmtree(d)


@pytest.fixture
def deadline():
    """`deadline(s)`: fail the test with TimeoutError if it runs s seconds more, and end the process 30 s later if it is stuck in
    native code (a hang fails instead of hanging CI)."""
    import faulthandler, signal
    def ring(*_): raise TimeoutError('the command hung')
    old = signal.signal(signal.SIGALRM, ring)
    def arm(s): signal.setitimer(signal.ITIMER_REAL, s); faulthandler.dump_traceback_later(s + 30, exit=True)
    yield arm
    signal.setitimer(signal.ITIMER_REAL, 0); signal.signal(signal.SIGALRM, old); faulthandler.cancel_dump_traceback_later()


def _model_with_template(box, adapter_dir, template):
    d = box/'model'; shutil.copytree(adapter_dir/'base', d)
    cfg = json.loads((d/'tokenizer_config.json').read_text())
    cfg['chat_template'] = template
    (d/'tokenizer_config.json').write_text(json.dumps(cfg))
    for f in d.glob('chat_template.*'): f.unlink()
    return d


LOOP = ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"   # (with markers, else ours replaces it)
        "{% generation %}{{ messages[0].content }}{% endgeneration %}")

def test_a_chat_template_that_loops_is_stopped(box, adapter_dir, monkeypatch, deadline):
    "The model's own chat template loops 10**10 times: it rendered forever in the chat process; now it is cut at its time budget."
    import azllm.generate
    monkeypatch.setattr(azllm.generate, 'RENDER_SECONDS', 2.0, raising=False)
    d = _model_with_template(box, adapter_dir, LOOP)
    deadline(60)
    hostile(box, ['chat', d, '--prompt', 'salam', '--max-new-tokens', 2], 'did not finish rendering in 2 s')
    shutil.rmtree(d)


@pytest.mark.parametrize('template', [5, True, {'default': '{{ 1 }}'}, [{'name': 'default', 'template': '{{ 1 }}'}]],
                         ids=['number', 'boolean', 'mapping', 'named'])
def test_a_chat_template_that_is_not_a_string(box, adapter_dir, template):
    "chat_template in tokenizer_config.json is not one template: it was a TypeError from re.search, deep in the chat checks."
    d = _model_with_template(box, adapter_dir, template)
    hostile(box, ['chat', d, '--prompt', 'salam', '--max-new-tokens', 2], 'not one Jinja template (a string)')
    shutil.rmtree(d)


def test_a_1mb_chat_prompt_is_bounded_by_the_context(box, adapter_dir, deadline):
    """A 1 MB prompt to a model of 2,048 positions: it was tokenized and fed to generate whole; now refused, from its size alone,
    in well under a second of work; a prompt just over the context (in tokens) is refused after tokenizing."""
    d = box/'model'; shutil.copytree(adapter_dir/'base', d)
    deadline(60)
    t0 = time.time()
    hostile(box, ['chat', d, '--prompt', 'salam ' * 175_000, '--max-new-tokens', 2], "more than the model's context of 2,048 tokens")
    hostile(box, ['chat', d, '--prompt', 'salam ' * 3000, '--max-new-tokens', 2], 'the model reads at most 2,048')
    assert time.time() - t0 < 30
    shutil.rmtree(d)


@pytest.mark.parametrize('errors', ['surrogateescape', 'strict'])
def test_chat_stdin_that_is_not_utf8(box, adapter_dir, monkeypatch, errors):
    "Bytes that are not UTF-8 on chat's standard input (a terminal or a file in cp1254): a TypeError from tokenizers, or UnicodeDecodeError."
    d = box/'model'; shutil.copytree(adapter_dir/'base', d)
    monkeypatch.setattr(sys, 'stdin', io.TextIOWrapper(io.BytesIO(b'Bak\xfd g\xfczeldir\n'), encoding='utf-8', errors=errors))
    hostile(box, ['chat', d, '--max-new-tokens', 2], 'not UTF-8 text', 'byte 0xfd')
    hostile(box, ['chat', d, '--prompt', 'Bak\udcfd', '--max-new-tokens', 2], 'not UTF-8 text')   # argv decoded the same way
    shutil.rmtree(d)


@pytest.mark.parametrize('t', ['1e-300', '1e-5', 'inf', 'nan', '1e300'])
def test_degenerate_temperatures(box, adapter_dir, t):
    "--temperature 1e-300 made the probabilities inf/NaN (RuntimeError from torch.multinomial): 0 or 0.01 to 100, said before the model loads."
    hostile(box, ['chat', adapter_dir/'base', '--prompt', 'salam', '--temperature', t, '--max-new-tokens', 2],
            'temperature must be 0 (greedy) or from 0.01 to 100')


# ------------------------------------------------------------------------------------- a real full or read-only disk
@pytest.fixture
def tiny_disk(tmp_path):
    "A real 3 MiB filesystem (tmpfs): writes past it fail with ENOSPC from the kernel, in every library."
    d = tmp_path/'disk'; d.mkdir()
    if os.geteuid() != 0: pytest.skip('mounting a tmpfs needs root')
    r = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', str(d)], capture_output=True, text=True)
    if r.returncode: pytest.skip(f'this machine cannot mount a tmpfs: {r.stderr.strip()}')
    try: yield d
    finally: subprocess.run(['umount', '-l', str(d)])


def fill(disk, leave=2048):
    "Fill `disk` up to `leave` free bytes."
    st = os.statvfs(disk)
    free = st.f_bavail * st.f_frsize
    with open(disk/'.filler', 'ab') as f: f.write(b'\0' * max(0, free - leave))


def _adam_linear(n):
    import torch
    torch.manual_seed(0)
    m = torch.nn.Linear(n, n); o = torch.optim.AdamW(m.parameters()); sc = torch.optim.lr_scheduler.LambdaLR(o, lambda s: 1.0)
    m(torch.ones(1, n)).sum().backward(); o.step(); sc.step()
    return m, o, sc


def test_a_full_disk_met_by_a_checkpoint_writer_thread_commits_nothing(tiny_disk, capfd):
    "Three DCP writer threads onto a real full disk: the save raises ENOSPC, no thread prints its traceback, nothing is committed."
    from azllm.checkpoint import save_checkpoint, list_checkpoints
    from azllm.cli import disk_error
    from azllm.runtime import Runtime
    m, o, sc = _adam_linear(512)                     # 3 MiB of weights and AdamW state: more than the disk holds
    with pytest.raises(BaseException) as e: save_checkpoint(str(tiny_disk/'ck'), 1, m, o, sc, Runtime(), dict(loss=0.0), threads=3)
    assert disk_error(e.value) and disk_error(e.value)[0] == errno.ENOSPC
    assert list_checkpoints(str(tiny_disk/'ck')) == [] and 'Exception in thread' not in capfd.readouterr().err


def test_a_writer_thread_that_fails_alone_is_not_a_checkpoint(tmp_path, monkeypatch):
    """Only a writer thread other than the caller's fails (the caller's files fit): DCP itself returns normally, with that thread's
    tensors missing from its metadata; save_checkpoint raises instead of committing them."""
    import threading
    import torch.distributed.checkpoint.filesystem as fsmod
    from azllm.checkpoint import save_checkpoint, list_checkpoints
    from azllm.runtime import Runtime
    real = fsmod._write_files_from_queue
    def write(*a, **kw):
        if threading.current_thread() is not threading.main_thread(): raise OSError(errno.ENOSPC, 'No space left on device')
        return real(*a, **kw)
    monkeypatch.setattr(fsmod, '_write_files_from_queue', write)
    m, o, sc = _adam_linear(64)
    with pytest.raises(OSError, match='No space left'): save_checkpoint(str(tmp_path/'ck'), 1, m, o, sc, Runtime(), dict(loss=0.0), threads=3)
    assert list_checkpoints(str(tmp_path/'ck')) == []


def test_real_full_disk_tokenizer(box, tiny_disk):
    fill(tiny_disk, 16 * 1024)
    before = snapshot(box)
    rc, err = cli(*_tok(tiny_disk/'tok'))
    one_clear_error(rc, err, 'No space left on device')
    assert sorted(p.name for p in tiny_disk.iterdir()) == ['.filler'] and snapshot(box) == before


def _cpt_on(box, small, **kw):
    cfg = {**dict(stage='cpt', output_dir='runs/cpt', model='preset:llama-tiny', tokenizer=str(small), train_data=['corpus.txt'],
                  seq_len=32, micro_batch=2, max_steps=1, save_every=1, warmup_steps=0, tensorboard=False), **kw}
    import yaml
    return write(box, 'cpt.yml', yaml.safe_dump(cfg))


# (final/ on a disk turned read-only cannot be staged: Linux refuses to remount a filesystem with files open for writing, here log.jsonl)
@pytest.mark.parametrize('how,where', [('full', 'checkpoint'), ('full', 'final'), ('read-only', 'checkpoint')])
def test_real_full_or_read_only_disk_in_training(box, tiny_disk, small_tokenizer, monkeypatch, where, how):
    "The disk fills up (or turns read-only) at the instant a checkpoint or final/ is written: one line, exit 2."
    from azllm.trainer import Trainer
    from azllm.cpt import CPTTask
    if where == 'checkpoint': cfg = _cpt_on(box, small_tokenizer, checkpoint_dir=str(tiny_disk/'ck'))
    else: cfg = _cpt_on(box, small_tokenizer, output_dir=str(tiny_disk/'run'), checkpoint_dir=str(box/'runs'/'ck'))
    def break_disk():
        if how == 'full': fill(tiny_disk)
        else: subprocess.run(['mount', '-o', 'remount,ro', str(tiny_disk)], check=True)
    target = (Trainer, 'save') if where == 'checkpoint' else (CPTTask, 'save_final')
    real = getattr(*target)
    def broken(*a, **k): break_disk(); return real(*a, **k)
    monkeypatch.setattr(*target, broken)
    rc, err = cli('train', cfg)
    assert rc == 2 and 'Traceback' not in err and err.count('azllm: error:') == 1, err    # (progress bars share stderr)
    assert ('No space left on device' if how == 'full' else 'Read-only file system') in err.split('azllm: error:')[1].splitlines()[0], err
    if how == 'read-only': subprocess.run(['mount', '-o', 'remount,rw', str(tiny_disk)], check=True)


def _dpo_on(box, small, **kw):
    import yaml
    lines = lambda f, n: ''.join((DATA/'dpo'/f).read_text(encoding='utf-8').splitlines(keepends=True)[:n])
    write(box, 'pairs.jsonl', lines('train.jsonl', 8))
    cfg = {**dict(stage='dpo', output_dir='runs/dpo', model='preset:llama-tiny', tokenizer=str(small), train_data='pairs.jsonl',
                  seq_len=1024, micro_batch=2, max_steps=1, save_every=1, warmup_steps=0, lora_r=2, tensorboard=False), **kw}
    return write(box, 'dpo.yml', yaml.safe_dump(cfg))


@pytest.mark.parametrize('stage', ['cpt', 'dpo'])
def test_a_full_disk_during_a_checkpoint_leaves_nothing_behind(box, tiny_disk, small_tokenizer, monkeypatch, stage):
    """checkpoint_dir on a disk that fills up as the first checkpoint is written: one line, exit 2, and the disk holds what it
    held before: `.step_000001.tmp` with its shard and the checkpoints directory's marker were left there (CPT and DPO alike;
    found by filling a tmpfs at Trainer.save), and the run directory, which has no checkpoint to resume from, is gone too."""
    from azllm.trainer import Trainer
    cfg = (_cpt_on if stage == 'cpt' else _dpo_on)(box, small_tokenizer, checkpoint_dir=str(tiny_disk/'ck'))
    real = Trainer.save
    def full(*a, **k): fill(tiny_disk); return real(*a, **k)
    monkeypatch.setattr(Trainer, 'save', full)
    rc, err = cli('train', cfg)
    assert rc == 2 and 'Traceback' not in err and err.count('azllm: error:') == 1, err
    assert 'No space left on device' in err.split('azllm: error:')[1], err
    assert sorted(p.name for p in tiny_disk.iterdir()) == ['.filler']
    assert not (box/'runs'/stage).exists()


def test_a_failed_checkpoint_keeps_the_one_before(box, tiny_disk, small_tokenizer, monkeypatch):
    "The disk fills up at the second checkpoint: the first stays committed and whole, no .tmp is left, the run resumes from it."
    from azllm.trainer import Trainer
    from azllm.checkpoint import list_checkpoints
    subprocess.run(['mount', '-o', 'remount,size=12m', str(tiny_disk)], check=True)     # room for one checkpoint (3.2 MB)
    cfg = _cpt_on(box, small_tokenizer, checkpoint_dir=str(tiny_disk/'ck'), max_steps=2)
    real, calls = Trainer.save, []
    def full_at_2(*a, **k):
        calls.append(1)
        if len(calls) == 2: fill(tiny_disk)
        return real(*a, **k)
    monkeypatch.setattr(Trainer, 'save', full_at_2)
    rc, err = cli('train', cfg)
    assert rc == 2 and 'No space left on device' in err, err
    assert [Path(c).name for c in list_checkpoints(str(tiny_disk/'ck'))] == ['step_000001']
    assert not [p for p in tiny_disk.rglob('*') if '.tmp' in p.name], sorted(map(str, tiny_disk.rglob('*')))


def test_real_full_disk_gguf_export(box, tiny_disk, adapter_dir):
    """GGUF export onto a disk that fills up while the tensors are written: numpy's `tofile` reports the short write as an
    OSError without an errno ('12288 requested and 9552 written'), which was a traceback; now one line, and nothing is left."""
    pytest.importorskip('gguf')
    fill(tiny_disk, 100_000)
    rc, err = cli('export', adapter_dir/'base', '--gguf', '--out', tiny_disk/'gguf')
    one_clear_error(rc, err, 'No space left on device')
    assert sorted(p.name for p in tiny_disk.iterdir()) == ['.filler']


def test_real_full_disk_adapter_export_names_the_file_written(box, tiny_disk, adapter_dir):
    """Copying an adapter onto a full disk: the line named the adapter being copied (shutil's sendfile error carries the source as
    `filename` and the target as `filename2`), as if the input could not be written; it names the file being written now."""
    fill(tiny_disk, 2048)
    rc, err = cli('export', adapter_dir, '--out', tiny_disk/'a')
    one_clear_error(rc, err, 'No space left on device')
    assert str(adapter_dir) not in err and 'cannot write adapter' not in err, err
    assert sorted(p.name for p in tiny_disk.iterdir()) == ['.filler']


def test_short_write_is_a_disk_error():
    "The one classifier of disk errors knows numpy's short write (no errno) and nothing that merely looks like it."
    from azllm.cli import disk_error
    assert disk_error(OSError('12288 requested and 9552 written')) == (errno.ENOSPC, None)
    assert disk_error(RuntimeError('[enforce fail at inline_container.cc:672] . unexpected pos 704 vs 598')) == (errno.ENOSPC, None)
    assert disk_error(OSError('a requested and b were not')) is None and disk_error(ValueError('x')) is None


def test_a_dataset_name_without_the_hub_fails_fast(box, monkeypatch):
    "No HF_HUB_OFFLINE, no route to the Hub: a dataset name fails in seconds, not after datasets' retries."
    from azllm.data import read_documents
    import datasets  # noqa: F401  (its import is not what is timed)
    monkeypatch.delenv('HF_HUB_OFFLINE', raising=False); monkeypatch.setenv('HF_ENDPOINT', 'http://127.0.0.1:9')
    t0 = time.time()
    with pytest.raises(AzllmError, match='cannot be reached'): list(read_documents('azllm-test-no-such-org/no-such-dataset'))
    assert time.time() - t0 < 5


# ---------------------------------------------------------------------------------- eval: a tokenizer that is not the model's
def test_eval_refuses_a_tokenizer_that_is_not_the_models(box, chat_tok, small_tokenizer):
    "A model trained with a 4,000-token tokenizer, scored through an unrelated smaller one (700): ids it cannot make, a meaningless number."
    from azllm.model import load_model
    from azllm.tokenizer import load_tokenizer
    own = load_tokenizer(str(small_tokenizer))
    m = load_model('preset:llama-tiny', own)
    m.save_pretrained(box/'model'); own.save_pretrained(box/'model')
    ev = lambda path, tok: write(box, 'ev.yml', EVAL.replace('path: preset:llama-tiny', f'path: {path}, tokenizer: {tok}'))
    hostile(box, ['eval', ev('model', chat_tok)], 'is not the one saved with the model')
    rc, err = cli('eval', ev('model', small_tokenizer)); assert rc == 0, err        # a copy of its own tokenizer is its own
    shutil.rmtree(box/'runs'/'ev')
    for f in box.joinpath('model').glob('*token*'): f.unlink()                       # weights only: the sizes tell
    hostile(box, ['eval', ev('model', chat_tok)], 'can never be produced')
    shutil.rmtree(box/'model'); os.remove(box/'ev.yml')


def test_a_huge_table_row_is_read_in_pieces(tmp_path):
    "A JSONL row of 3 MB (one document): cut into pieces of at most MAX_DOC_CHARS at spaces, as a text line is, never tokenized whole."
    from azllm.data import read_documents, MAX_DOC_CHARS
    text = ('kitablardan oxudum ' * 160_000).strip()
    p = tmp_path/'rows.jsonl'
    p.write_text(json.dumps({'text': 'qısa sənəd'}) + '\n' + json.dumps({'text': text}, ensure_ascii=False) + '\n', encoding='utf-8')
    docs = list(read_documents(p))
    assert docs[0] == 'qısa sənəd' and len(docs) >= 4 and max(map(len, docs)) <= MAX_DOC_CHARS
    assert ' '.join(docs[1:]) == text
    nospace = 'ə' * (2 * MAX_DOC_CHARS + 5)                                       # no space at all: cut at the limit
    p.write_text(json.dumps({'text': nospace}, ensure_ascii=False) + '\n', encoding='utf-8')
    assert [len(d) for d in read_documents(p)] == [MAX_DOC_CHARS, MAX_DOC_CHARS, 5]


RUN_NAME_CLASHES = ['checkpoints', 'tokenizer', 'data', 'tb', 'log.jsonl', 'summary.json', 'azllm_config.yml', 'log.jsonl-link']

@pytest.mark.parametrize('name', RUN_NAME_CLASHES)
def test_a_run_directory_with_a_file_where_the_run_writes_a_folder(box, small_tokenizer, name):
    """A run directory of this stage where a name the run writes is of the other type (a file `checkpoints`, a folder
    `log.jsonl`) or a link to a file of the user's: one line before any work, nothing changed; it was a traceback
    (FileExistsError, IsADirectoryError), for summary.json only after the whole training, and a linked log.jsonl was
    appended to (found by putting each name of RUN_NAMES into a marked run directory)."""
    run = box/'runs'/'cpt'; run.mkdir(); write_marker(run, 'cpt-run')
    if name.endswith('-link'): name = name[:-5]; os.symlink(box/'notes.txt', run/name)
    elif '.' in name: (run/name).mkdir(); (run/name/'keep.txt').write_text('mine\n')
    else: (run/name).write_text('mine\n')
    cfg = write(box, 'cpt.yml', f"stage: cpt\noutput_dir: runs/cpt\ntokenizer: {small_tokenizer}\ntrain_data: [corpus.txt]\n"
                                "seq_len: 32\nmicro_batch: 2\nmax_steps: 2\nwarmup_steps: 1\ntensorboard: false\n")
    hostile(box, ['train', cfg], f'runs/cpt/{name}')


@pytest.mark.parametrize('leave', [2048, 12 * 1024], ids=['lock', 'data'])
def test_real_full_disk_on_resume_leaves_nothing_half_written(box, tiny_disk, small_tokenizer, leave):
    """A run on a disk that fills up before it resumes: one line, exit 2, and nothing half-written in the run directory: the
    data file being tokenized (data/train.tmp was kept, under 'nothing half-written was kept') and azllm_config.yml (written in
    place, so a full disk tore the one there) are whole or absent, and so is the lock being written (.azllm.lock.tmp-PID was
    kept) (found by filling a tmpfs between a run and its resume)."""
    import yaml
    run = tiny_disk/'run'
    cfg = _cpt_on(box, small_tokenizer, output_dir=str(run), checkpoint_dir=str(box/'runs'/'ck'))
    rc, err = cli('train', cfg)
    assert rc == 0, err
    fill(tiny_disk, leave)
    rc, err = cli('train', cfg, 'max_steps=2', 'resume_with_changes=true')
    assert rc == 2 and 'Traceback' not in err and err.count('azllm: error:') == 1, err
    assert 'No space left on device' in err.split('azllm: error:')[1], err
    assert not [p for p in run.rglob('*') if '.tmp' in p.name], sorted(map(str, run.rglob('*')))
    assert yaml.safe_load((run/'azllm_config.yml').read_text())['output_dir'] == str(run)
    assert (box/'runs'/'ck'/'step_000001'/'azllm_checkpoint.json').is_file()          # the checkpoint is never lost


def test_real_full_disk_fertility_plot(box, tiny_disk, small_tokenizer):
    """A disk that fills up while `fertility --plot` writes its figure: one line, exit 2, and no torn image left where the plot
    was asked for (savefig wrote the path itself: an 8 KB PNG stub stayed, under 'nothing half-written was kept'; found on a
    real tmpfs)."""
    fill(tiny_disk, 8 * 1024)
    rc, err = cli('fertility', '--tokenizer', small_tokenizer, '--text', 'corpus.txt', '--plot', tiny_disk/'f.png')
    one_clear_error(rc, err, 'No space left on device')
    assert sorted(p.name for p in tiny_disk.iterdir()) == ['.filler']


def test_a_users_link_to_a_folder_inside_an_azllm_output_is_never_deleted(box):
    """A link to a folder of the user's, put inside an azllm output, is the user's: replacing the output is refused, naming it.
    `listing` left out everything `is_dir` (which follows links), so the link went unnoticed and was deleted with the old
    output (found by linking ~/data into a tokenizer output and training the tokenizer again)."""
    rc, err = cli(*_tok('runs/tok')); assert rc == 0, err
    os.symlink(box/'mine', box/'runs'/'tok'/'my-data')
    hostile(box, _tok('runs/tok'), 'my-data', 'did not write')
    assert (box/'runs'/'tok'/'my-data').is_symlink() and (box/'mine'/'thesis.tex').is_file()


def test_a_run_that_loses_the_race_for_a_new_directory_leaves_the_winner_alone(box, small_tokenizer, monkeypatch):
    """Two runs started at once on a new output_dir: the one that finds the other's lock stops with one line and leaves the
    directory to the run that holds it. It removed the whole directory, the other run's lock and files included, because it
    had seen the directory missing a moment before (found by making the other run take the lock between the two instants)."""
    import azllm.rundir as ckm
    from azllm.rundir import LOCK, RunLock
    other = subprocess.Popen(['sleep', '60'])
    real = RunLock.acquire
    def race(self):                      # the other run made the directory and took the lock just before this one
        if not self.url and self.path.name == LOCK and not self.path.exists():
            self.path.write_text(json.dumps(dict(pid=other.pid, host=self.me['host'], pid_start=ckm._started(other.pid))))
            (self.path.parent/'log.jsonl').write_text('{"step": 1}\n')
        return real(self)
    monkeypatch.setattr(RunLock, 'acquire', race)
    try:
        cfg = _cpt_on(box, small_tokenizer)
        rc, err = cli('train', cfg)
        one_clear_error(rc, err, 'is in use by another run')
        assert (box/'runs'/'cpt'/LOCK).is_file() and (box/'runs'/'cpt'/'log.jsonl').is_file()
    finally: other.kill(); other.wait()
