import os, subprocess, sys, tempfile
from pathlib import Path
import pytest

# Runs tokenize into a token cache (azllm.tokens): the tests' own, never the user's ~/.cache/azllm/tokens.
# Shared by the session and the processes it starts (they inherit the environment).
os.environ.setdefault('AZLLM_TOKEN_CACHE', tempfile.mkdtemp(prefix='azllm-test-tokens-'))
# Models dequantized from GGUF files (azllm.weights, about 20 s and 540 MB for SmolLM2): a cache of the tests' own, shared by the
# test processes of a run and kept between runs (an entry is named by the file's SHA-256), never the user's ~/.cache/azllm/models.
os.environ.setdefault('AZLLM_MODEL_CACHE', os.path.join(tempfile.gettempdir(), 'azllm-test-models'))

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT/'data_samples'


# The slowest checks, run by CI in a leg of their own after the test command (`pytest -m extended`), not by tests/run.sh:
# the bundled task files checked item by item (they change only when their builder runs), the real-weights quickstart
# end to end (its stages are tested one by one in the test command), and five checks whose path the test command covers
# another way:
# - a silent S3 endpoint under the default timeouts: 2 tries x 20 s of waiting (the same path with a 1 s timeout stays);
# - CPT under DDP and FSDP2 against one process (the same launchers and comparison stay in the SFT twin, FSDP2 on CPT in
#   test_sequence_parallel.py, each rank's halved state in test_memory.py);
# - SmolLM2 with an extended tokenizer through CPT and GGUF (its CPT with its own tokenizer, its SFT and the GGUF tests stay);
# - the GGUF round trip of Llama 3's tokenizer in q8_0 (its f16 twin checks that tokenizer's file, the custom q8_0 the type);
# - lm-eval's own `lm_eval` command on the bundled tasks (lm-eval's entry point, about 13 s indexing its own task set; the
#   same log-likelihoods through lm-eval in-process, and the tasks loaded from another directory, stay).
# About nine minutes of one core on an idle machine. The two GGUF checks also run in CI's llama.cpp leg (its `-k ... extended`
# selects this marker), where llama.cpp reads the files too. An entry names a test (every parameter) or one case (`name[id]`).
EXTENDED = {'test_tasks.py::test_untrained_model_scores_at_chance_on_every_item',
            'test_tasks.py::test_task_data_is_what_the_build_script_writes',
            'test_tasks.py::test_near_duplicate_definition_and_none_in_the_tasks',
            'test_real_weights.py::test_the_quickstart_on_real_weights_answers_before_and_after',
            'test_s3.py::test_a_silent_endpoint_fails_fast_in_one_line[defaults]',
            'test_engine.py::test_cpt_ddp_and_fsdp2_match_one_process',
            'test_real_weights.py::test_an_extended_tokenizer_starts_its_new_rows_from_their_pieces',
            'test_gguf.py::test_round_trip_through_transformers[llama3-q8_0]',
            'test_tasks.py::test_lm_eval_command_runs_the_headline_tag_from_another_directory'}


def pytest_collection_modifyitems(config, items):
    for item in items:
        f = Path(str(item.fspath)).name
        if f"{f}::{item.originalname}" in EXTENDED or f"{f}::{item.name}" in EXTENDED: item.add_marker(pytest.mark.extended)


def azllm(*args, cwd=None):
    "Run the `azllm` command in a fresh process, as a user would."
    return subprocess.run([sys.executable, '-m', 'azllm.cli', *map(str, args)], capture_output=True, text=True, cwd=cwd)


def azllm_in(*args, cwd=None) -> subprocess.CompletedProcess:
    """Run `azllm ARGS` in this process (`azllm.cli.main`): the same returncode, stdout and stderr as `azllm` would give,
    without the ~6 s of a new interpreter importing torch; an exception azllm does not turn into a message fails the test."""
    import contextlib, io, os
    from azllm.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), contextlib.chdir(cwd or os.getcwd()):
        try: rc = main([str(a) for a in args])
        except SystemExit as e: rc = e.code if isinstance(e.code, int) else 0 if e.code is None else 1   # as the interpreter maps sys.exit's argument
    return subprocess.CompletedProcess(['azllm', *map(str, args)], rc, out.getvalue(), err.getvalue())


@pytest.fixture(autouse=True, scope='session')
def _pip_list_in_process():
    """lm-eval records torch's collect_env on its first run in a process, and collect_env lists packages by starting
    `python -m pip list`: an interpreter the tests need not start. The same list is read in-process (importlib.metadata)."""
    if 'torch' not in sys.modules: yield; return            # a session that never imports torch never meets collect_env
    from importlib.metadata import distributions
    import torch.utils.collect_env as ce
    def pip_packages(run_lambda, patterns=None):
        patterns = patterns or ce.PIP_PATTERNS + ce.COMMON_PATTERNS + ce.NVIDIA_PATTERNS + ce.ONEAPI_PATTERNS
        lines = sorted(f"{d.metadata['Name']}=={d.version}" for d in distributions() if d.metadata['Name'])
        return 'pip3', '\n'.join(l for l in lines if any(p in l for p in patterns))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ce, 'get_pip_packages', pip_packages)
        yield


@pytest.fixture(scope='session')
def small_tokenizer(tmp_path_factory):
    "A custom tokenizer trained once through the CLI (in this process) on the bundled training split."
    from azllm.cli import main
    out = tmp_path_factory.mktemp('tok')/'custom'
    assert main(['tokenizer', 'train', '--corpus', str(DATA/'az_train.txt'), '--vocab-size', '4000', '--out', str(out)]) == 0
    return out


@pytest.fixture(scope='module')
def one_thread():
    """Torch on one thread for a test module (`pytestmark = pytest.mark.usefixtures('one_thread')`), its module fixtures
    included: a tiny model gains nothing from a second thread, and on a busy 2-core machine two threads run 5-15x slower."""
    import torch
    n = torch.get_num_threads(); torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


# ---- a real S3 API (moto's standalone server) for remote checkpoints -------------------------------------------------
# Needs `pip install 'moto[server]' s3fs` (both in the dev extra). Point fsspec/s3fs/boto at it with the environment
# variables in `s3_server.env` (AWS_ENDPOINT_URL is read by botocore, hence by s3fs, when a client is made, so it works
# in-process and in subprocesses alike; FSSPEC_S3_ENDPOINT_URL is fsspec's own per-protocol setting, read at import).

def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0)); return s.getsockname()[1]


@pytest.fixture(scope='session')
def _moto_s3_endpoint():
    "One moto server for the session (starting one takes about a second); each test gets its own bucket."
    pytest.importorskip('s3fs'); pytest.importorskip('moto.server')
    import logging
    from moto.server import ThreadedMotoServer
    logging.getLogger('werkzeug').setLevel(logging.ERROR)          # no request log lines in test output
    port = _free_port()
    server = ThreadedMotoServer(ip_address='127.0.0.1', port=port, verbose=False)
    server.start()
    yield f'http://127.0.0.1:{port}'
    server.stop()


@pytest.fixture
def s3_server(_moto_s3_endpoint, monkeypatch):
    """A fresh bucket on a local S3-compatible server; fsspec `s3://` URLs in this process and in subprocesses reach it.

    Yields a namespace: `endpoint_url`, `bucket`, `url` (`s3://BUCKET`), `env` (the variables to pass to a subprocess:
    `subprocess.run(..., env={**os.environ, **s3_server.env})`; this process already has them) and `fs` (an s3fs filesystem)."""
    import os, types, uuid, fsspec, s3fs
    env = dict(AWS_ACCESS_KEY_ID='testing', AWS_SECRET_ACCESS_KEY='testing', AWS_SESSION_TOKEN='testing',
               AWS_DEFAULT_REGION='us-east-1', AWS_ENDPOINT_URL=_moto_s3_endpoint, FSSPEC_S3_ENDPOINT_URL=_moto_s3_endpoint)
    for k, v in env.items(): monkeypatch.setenv(k, v)
    for k in ('AWS_PROFILE', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_ENDPOINT_URL_S3'): monkeypatch.delenv(k, raising=False)
    monkeypatch.setitem(fsspec.config.conf, 's3', {**fsspec.config.conf.get('s3', {}), 'endpoint_url': _moto_s3_endpoint})
    s3fs.S3FileSystem.clear_instance_cache()                      # an instance cached under another endpoint must not be reused
    bucket = f'azllm-{uuid.uuid4().hex[:12]}'
    fs = s3fs.S3FileSystem(endpoint_url=_moto_s3_endpoint)
    fs.mkdir(bucket)
    yield types.SimpleNamespace(endpoint_url=_moto_s3_endpoint, bucket=bucket, url=f's3://{bucket}', env=env, fs=fs)
    s3fs.S3FileSystem.clear_instance_cache()


@pytest.fixture
def moto_sagemaker(monkeypatch):
    """A local SageMaker- and S3-compatible endpoint (moto's server on a free 127.0.0.1 port) with dummy credentials;
    boto3 reaches it through AWS_ENDPOINT_URL. Yields the endpoint URL."""
    pytest.importorskip('boto3')
    from moto.server import ThreadedMotoServer
    port = _free_port()
    server = ThreadedMotoServer(ip_address='127.0.0.1', port=port, verbose=False)
    server.start()
    url = f'http://127.0.0.1:{port}'
    for k, v in dict(AWS_ENDPOINT_URL=url, AWS_ACCESS_KEY_ID='testing', AWS_SECRET_ACCESS_KEY='testing',
                     AWS_DEFAULT_REGION='us-east-1', AWS_EC2_METADATA_DISABLED='true').items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv('AWS_PROFILE', raising=False); monkeypatch.delenv('AWS_SESSION_TOKEN', raising=False)
    try: yield url
    finally: server.stop()


def nudged_peft(tok):
    "A tiny Llama with a LoRA adapter whose B matrices are not zero, so a policy differs from its reference (the DPO and GRPO oracle tests)."
    import torch
    from peft import get_peft_model
    from azllm.model import load_model
    from azllm.sft import lora_config
    m = load_model('preset:llama-tiny', tok)
    m = get_peft_model(m, lora_config(m, 4, 8, 0.0))
    with torch.no_grad():
        for i, (n, p) in enumerate(m.named_parameters()):
            if 'lora_B' in n: p.normal_(0, 0.5, generator=torch.Generator().manual_seed(i))
    return m
