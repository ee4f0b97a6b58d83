import subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT/'data_samples'


def azllm(*args, cwd=None):
    "Run the `azllm` command in a fresh process, as a user would."
    return subprocess.run([sys.executable, '-m', 'azllm.cli', *map(str, args)], capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope='session')
def small_tokenizer(tmp_path_factory):
    "A custom tokenizer trained once through the CLI on the bundled training split."
    out = tmp_path_factory.mktemp('tok')/'custom'
    r = azllm('tokenizer', 'train', '--corpus', DATA/'az_train.txt', '--vocab-size', 4000, '--out', out)
    assert r.returncode == 0, r.stderr
    return out


def _free_port():
    import socket
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0)); return s.getsockname()[1]


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
