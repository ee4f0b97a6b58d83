"""Remote storage against a real S3 API (moto's standalone server, see the `s3_server` fixture in conftest.py)."""
import os, subprocess, sys
import fsspec
import pytest
from azllm.core import AzllmError, require_fs


def test_fsspec_writes_and_reads_through_the_server(s3_server):
    url = f'{s3_server.url}/x'
    with fsspec.open(url, 'wb') as f: f.write(b'hello s3')
    with fsspec.open(url, 'rb') as f: assert f.read() == b'hello s3'
    fs, path = require_fs(f'{s3_server.url}/run')                    # what azllm's checkpoint code calls
    assert fs.exists(f'{s3_server.bucket}/x') and path == f'{s3_server.bucket}/run'
    assert s3_server.fs.cat(f'{s3_server.bucket}/x') == b'hello s3'     # the bytes really went over the S3 API


def test_a_subprocess_reaches_the_same_bucket(s3_server):
    code = f"import fsspec; fsspec.open('{s3_server.url}/y', 'wb').open().close(); print(fsspec.filesystem('s3').ls('{s3_server.bucket}'))"
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env={**os.environ, **s3_server.env})
    assert r.returncode == 0, r.stderr[-2000:]
    assert s3_server.fs.exists(f'{s3_server.bucket}/y')


def test_missing_backend_is_one_line(monkeypatch):
    import fsspec.registry  # noqa: F401 (the module; fsspec also has an attribute of that name)
    monkeypatch.setitem(sys.modules, 's3fs', None)
    monkeypatch.delitem(sys.modules['fsspec.registry']._registry, 's3', raising=False)
    with pytest.raises(AzllmError, match=r"s3fs package: pip install 'azllm\[s3\]'"): require_fs('s3://bucket/run')
