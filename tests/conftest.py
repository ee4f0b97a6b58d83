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
