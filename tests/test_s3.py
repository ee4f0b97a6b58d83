"""Remote storage against a real S3 API (moto's standalone server, see the `s3_server` fixture in conftest.py)."""
import os, subprocess, sys
import fsspec
import pytest
from azllm.core import AzllmError
from azllm.sources import require_fs


def test_fsspec_writes_and_reads_through_the_server(s3_server):
    url = f'{s3_server.url}/x'
    with fsspec.open(url, 'wb') as f: f.write(b'hello s3')
    with fsspec.open(url, 'rb') as f: assert f.read() == b'hello s3'
    fs, path = require_fs(f'{s3_server.url}/run')                    # what azllm's checkpoint code calls
    assert fs.exists(f'{s3_server.bucket}/x') and path == f'{s3_server.bucket}/run'
    assert s3_server.fs.cat(f'{s3_server.bucket}/x') == b'hello s3'     # the bytes really went over the S3 API


@pytest.mark.slow
def test_a_subprocess_reaches_the_same_bucket(s3_server):
    "What a launcher's processes see: the endpoint reaches them through the environment (needs a process; test_cpt_resumes_from_s3 trains through it)."
    code = f"import fsspec; fsspec.open('{s3_server.url}/y', 'wb').open().close(); print(fsspec.filesystem('s3').ls('{s3_server.bucket}'))"
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env={**os.environ, **s3_server.env})
    assert r.returncode == 0, r.stderr[-2000:]
    assert s3_server.fs.exists(f'{s3_server.bucket}/y')


def test_missing_backend_is_one_line(monkeypatch):
    import fsspec.registry  # noqa: F401 (the module; fsspec also has an attribute of that name)
    monkeypatch.setitem(sys.modules, 's3fs', None)
    monkeypatch.delitem(sys.modules['fsspec.registry']._registry, 's3', raising=False)
    with pytest.raises(AzllmError, match=r"s3fs package: pip install 'azllm\[s3\]'"): require_fs('s3://bucket/run')


@pytest.mark.slow
@pytest.mark.usefixtures('one_thread')                  # the in-process runs on one thread, as the killed process
def test_cpt_resumes_from_s3(tmp_path, small_tokenizer, s3_server):
    "CPT with checkpoint_dir on S3, killed with SIGKILL mid-run, resumes from S3 (never from a half-uploaded step) and reproduces the uninterrupted losses."
    import signal, time
    from test_engine import write_cfg, losses, train_here, TOL
    kw = dict(seq_len=128, micro_batch=4, grad_accum=1, max_steps=20, save_every=4, keep_last=2)
    train_here(write_cfg(tmp_path/'full.yml', small_tokenizer, tmp_path/'full', **kw))   # uninterrupted, in this process: only the killed run needs one
    killed, remote = tmp_path/'killed', f'{s3_server.url}/run'
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, killed, checkpoint_dir=remote, **kw)
    p = subprocess.Popen([sys.executable, '-m', 'azllm.cli', 'train', cfg], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env={**os.environ, **s3_server.env, 'OMP_NUM_THREADS': '1'})
    committed = lambda: sorted(d for d in s3_server.fs.ls(f'{s3_server.bucket}/run') if s3_server.fs.exists(f'{d}/azllm_checkpoint.json')) \
        if s3_server.fs.exists(f'{s3_server.bucket}/run') else []
    deadline = time.time() + 300
    while time.time() < deadline and p.poll() is None:
        if (killed/'log.jsonl').exists() and max(losses(killed), default=0) >= 10 and committed(): break
        time.sleep(0.05)
    assert p.poll() is None, 'the run finished (or failed) before it could be killed'
    p.send_signal(signal.SIGKILL); p.wait()
    s3_server.fs.invalidate_cache()
    done = committed()
    assert done and not (killed/'final').exists(), done
    assert not (killed/'checkpoints').exists()                      # the checkpoints went to S3, not to the run directory
    resumed_from = int(done[-1].rsplit('_', 1)[1])
    s3_server.fs.pipe(f'{s3_server.bucket}/run/step_000019/.metadata', b'half-uploaded')   # newer, but never committed
    train_here(cfg)                                                # resume (in this process): auto, from S3; the half-uploaded step is not taken
    full, again = losses(tmp_path/'full'), losses(killed)
    assert resumed_from < 20 and sorted(again) == list(range(1, 21))
    for s in range(resumed_from + 1, 21): assert again[s] == pytest.approx(full[s], rel=TOL), s


def test_an_s3_checkpoint_dir_is_locked_and_owned_by_its_run(tmp_path, small_tokenizer, s3_server):
    "checkpoint_dir on S3: locked with the run (a live owner's lock refuses, a dead one's is taken over), and never shared by two runs."
    import json, socket
    from test_engine import _quick, run_inproc
    ck = f'{s3_server.url}/ck'
    lock = f'{s3_server.bucket}/ck/.azllm.lock'
    s3_server.fs.pipe_file(lock, json.dumps(dict(pid=os.getpid(), host=socket.gethostname(), started='now')).encode())
    with pytest.raises(AzllmError, match='is in use by another run'): run_inproc(_quick(tmp_path, small_tokenizer, 'a', checkpoint_dir=ck))
    assert not (tmp_path/'a').exists()
    s3_server.fs.pipe_file(lock, json.dumps(dict(pid=2**22 + 4321, host=socket.gethostname(), started='earlier')).encode())
    run_inproc(_quick(tmp_path, small_tokenizer, 'a', checkpoint_dir=ck))          # a dead owner's lock: taken over
    s3_server.fs.invalidate_cache()
    assert (tmp_path/'a'/'final').exists() and not s3_server.fs.exists(lock)        # released at the end
    with pytest.raises(AzllmError, match='give each run its own checkpoint_dir'):
        run_inproc(_quick(tmp_path, small_tokenizer, 'b', checkpoint_dir=ck))
    assert not (tmp_path/'b').exists()


def _silent_endpoint(monkeypatch):
    "A TCP server that accepts every connection and never answers, as the S3 endpoint of this process."
    import socket, threading
    srv = socket.create_server(('127.0.0.1', 0)); held = []
    threading.Thread(target=lambda: [held.append(srv.accept()) for _ in iter(int, 1)], daemon=True).start()
    url = f'http://127.0.0.1:{srv.getsockname()[1]}'
    for k, v in dict(AWS_ENDPOINT_URL=url, AWS_ACCESS_KEY_ID='x', AWS_SECRET_ACCESS_KEY='x', AWS_DEFAULT_REGION='us-east-1').items(): monkeypatch.setenv(k, v)
    import fsspec
    monkeypatch.setitem(fsspec.config.conf, 's3', {'endpoint_url': url})
    return srv


@pytest.mark.parametrize('overrides, bound', [(['storage_read_timeout_s=1', 'storage_tries=1'], 10), ([], 60)], ids=['timeout-1s', 'defaults'])
def test_a_silent_endpoint_fails_fast_in_one_line(tmp_path, small_tokenizer, monkeypatch, capsys, overrides, bound):
    "`azllm data prepare` on an s3:// corpus whose endpoint accepts and never answers: exit 2 within `bound` seconds (the defaults: 2 tries x 20 s), one line naming the URL and the setting to raise."
    import time
    from test_engine import write_cfg
    from azllm.cli import main
    import azllm.data
    srv = _silent_endpoint(monkeypatch)
    cfg = write_cfg(tmp_path/'c.yml', small_tokenizer, tmp_path/'run', train_data=['s3://silent-bucket/corpus.txt'], valid_data=[])
    t0 = time.time()
    try: rc = main(['data', 'prepare', str(cfg), *overrides])
    finally: srv.close(); azllm.data.use_storage()
    took, err = time.time() - t0, capsys.readouterr().err
    assert rc == 2 and took < bound, (rc, took, err)
    assert err.count('\n') == 1 and 's3://silent-bucket/corpus.txt' in err and 'raise storage_read_timeout_s' in err, err


def test_data_workers_auto_counts_remote_objects(tmp_path, small_tokenizer, s3_server, monkeypatch):
    "`data_workers: auto` sizes the work from the corpus wherever it lives: an S3 folder counts by its objects' sizes (it counted 0 and chose 1 process)."
    import azllm.cpt
    from conftest import DATA
    from test_engine import write_cfg
    from azllm.cli import main
    from azllm.runtime import Runtime
    seen, real = [], azllm.cpt.data_workers
    monkeypatch.setattr(azllm.cpt, 'data_workers', lambda cfg, rt, n: seen.append(n) or real(cfg, rt, n))
    text = (DATA/'az_valid.txt').read_bytes()
    for i in range(2): s3_server.fs.pipe(f'{s3_server.bucket}/corpus/{i}.txt', text)
    cfg = write_cfg(tmp_path/'c.yml', small_tokenizer, tmp_path/'run', train_data=[f'{s3_server.url}/corpus'], valid_data=[], token_cache=str(tmp_path/'cache'))
    assert main(['data', 'prepare', str(cfg)]) == 0
    assert seen == [2 * len(text)], seen
    big = azllm.cpt.CPTRun(output_dir='x', train_data=['s3://b/c'])
    assert real(big, Runtime(), 2 * len(text)) == 1 and real(big, Runtime(), 65 << 20) == max(1, len(os.sched_getaffinity(0)))


def test_a_silent_endpoint_for_checkpoints_fails_before_the_run(tmp_path, small_tokenizer, monkeypatch, capsys):
    "checkpoint_dir on an endpoint that never answers: `azllm train` stops in preflight, in one line naming the URL and the setting, exit 2, nothing trained."
    import time
    from test_engine import write_cfg
    from azllm.cli import main
    import azllm.data
    srv = _silent_endpoint(monkeypatch)
    cfg = write_cfg(tmp_path/'c.yml', small_tokenizer, tmp_path/'run', checkpoint_dir='s3://silent-bucket/ck', valid_data=[])
    t0 = time.time()
    try: rc = main(['train', str(cfg), 'storage_read_timeout_s=1', 'storage_tries=1'])
    finally: srv.close(); azllm.data.use_storage()
    err = capsys.readouterr().err
    assert rc == 2 and time.time() - t0 < 10 and not (tmp_path/'run').exists(), (rc, err)
    assert err.count('\n') == 1 and 's3://silent-bucket/ck' in err and 'raise storage_read_timeout_s' in err, err
