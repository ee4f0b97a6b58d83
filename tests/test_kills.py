"""A run killed at any instant resumes without a hand's help: SIGKILL at every point of a checkpoint save, inside the
marker and lock writes, between the last commit and final/, for CPT and SFT; and two runs never share one directory.
(Its own file so that pytest's two workers share the engine tests evenly.)"""
import json, os, signal, subprocess, sys, time
import pytest
from conftest import azllm_in
from test_engine import ENV, TOL, write_cfg, write_sft, losses, launch, train_here, run_inproc, _quick   # the engine tests' helpers
from test_engine import sft_files  # noqa: F401  (a module fixture, used by name)

pytestmark = pytest.mark.usefixtures('one_thread')     # in-process runs on one thread, as the subprocesses (tests/conftest.py)


def kill_at(point, cfg, run):
    "Run `cfg` with the save hook armed: the process SIGKILLs itself at `point` of its first checkpoint save."
    r = launch(sys.executable, '-m', 'azllm.cli', 'train', cfg, env={**os.environ, 'OMP_NUM_THREADS': '1', 'AZLLM_CRASH_AT': point}, ok=False)
    assert r.returncode == -signal.SIGKILL, (point, r.returncode, r.stderr[-2000:])
    assert not (run/'final').exists()


KILL_RUN = dict(max_steps=6, save_every=2, keep_last=1, grad_accum=1)


@pytest.fixture(scope='module')
def uninterrupted(tmp_path_factory, small_tokenizer):
    "The losses of the run below when nothing kills it: one reference for every kill point."
    full = tmp_path_factory.mktemp('full')/'run'
    train_here(write_cfg(full.parent/'full.yml', small_tokenizer, full, **KILL_RUN))
    return losses(full)


@pytest.mark.slow
@pytest.mark.parametrize('point', ['after_shards', 'before_sidecar', 'before_commit', 'after_commit', 'after_prune'])
def test_killed_at_every_point_of_a_save_resumes_exactly(tmp_path, small_tokenizer, uninterrupted, point):
    run = tmp_path/'killed'
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, run, **KILL_RUN)
    kill_at(point, cfg, run)
    train_here(cfg)                                               # no hand's help: resume: auto
    again, want = losses(run), uninterrupted
    assert sorted(again) == list(range(1, 7))
    for s in want: assert again[s] == pytest.approx(want[s], rel=TOL), (point, s)
    left = sorted(p.name for p in (run/'checkpoints').iterdir())
    assert left == ['.azllm-output.json', 'step_000006'], left    # debris cleaned, keep_last honoured; the marker of the run that owns it


@pytest.mark.slow
def test_sft_sigkill_then_resume_reproduces_the_losses(tmp_path, small_tokenizer, sft_files, capsys):
    full = tmp_path/'full'
    train_here(write_sft(tmp_path/'full.yml', small_tokenizer, full, sft_files, grad_accum=1))
    run = tmp_path/'killed'
    cfg = write_sft(tmp_path/'sft.yml', small_tokenizer, run, sft_files, grad_accum=1)
    kill_at('after_commit', cfg, run)
    capsys.readouterr()
    train_here(cfg)
    assert 'resumed from' in ''.join(capsys.readouterr())
    again, want = losses(run), losses(full)
    for s in want: assert again[s] == pytest.approx(want[s], rel=TOL), s


@pytest.mark.slow
def test_two_runs_on_one_directory(tmp_path, small_tokenizer):
    cfg = write_cfg(tmp_path/'cpt.yml', small_tokenizer, tmp_path/'run', max_steps=400, save_every=400)
    p = subprocess.Popen([sys.executable, '-m', 'azllm.cli', 'train', str(cfg)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    try:
        deadline = time.time() + 120                  # the lock is written (whole, by a rename) before any other output
        while time.time() < deadline and not (tmp_path/'run'/'.azllm.lock').exists(): time.sleep(0.1)
        assert p.poll() is None, 'the first run ended before the second started'
        r = azllm_in('train', cfg)                     # the second run: in this process, against the other process's lock
        assert r.returncode == 2 and 'is in use by another run' in r.stderr and 'Traceback' not in r.stderr, r.stderr[-2000:]
    finally:
        p.kill(); p.wait()


@pytest.mark.slow
def test_summary_is_complete_after_a_kill_between_the_last_commit_and_final(tmp_path, small_tokenizer):
    cfg = _quick(tmp_path, small_tokenizer, max_steps=2, save_every=2)
    kill_at('after_commit', cfg, tmp_path/'run')
    run_inproc(cfg)
    s = json.loads((tmp_path/'run'/'summary.json').read_text())
    assert s['last'] is not None and s['last']['step'] == 2 and s['steps'] == 2
    run_inproc(_quick(tmp_path, small_tokenizer, out='whole', max_steps=2, save_every=2))     # the same run, never killed
    whole = json.loads((tmp_path/'whole'/'summary.json').read_text())
    timing = lambda d: {**d, 'last': {k: v for k, v in d['last'].items() if k not in ('tok_per_s', 'peak_mem_gib')}}
    # state_bytes_per_rank was missing: a run resumed at its last step runs no step to measure it in
    assert timing(s) == timing(whole) and s['state_bytes_per_rank'] == whole['state_bytes_per_rank']


_KILL_ON_OPEN = """
import builtins, io, os, signal, sys
name = sys.argv[1]
real_open, real_os_open = builtins.open, os.open
def die_if(path):
    if name in os.path.basename(str(path)): os.kill(os.getpid(), signal.SIGKILL)
def opener(file, mode='r', *a, **k):
    f = real_open(file, mode, *a, **k)
    if any(c in mode for c in 'wax+'): die_if(file)               # the file exists (truncated or created), nothing written yet
    return f
def os_opener(path, flags, *a, **k):
    fd = real_os_open(path, flags, *a, **k)
    if flags & (os.O_WRONLY | os.O_RDWR): die_if(path)
    return fd
builtins.open = io.open = opener; os.open = os_opener
from azllm.cli import main
sys.exit(main(['train', *sys.argv[2:]]))
"""


@pytest.mark.slow
@pytest.mark.parametrize('name', ['.azllm-output.json', '.azllm.lock'])
def test_killed_inside_the_marker_or_lock_write_resumes(tmp_path, small_tokenizer, name):
    "SIGKILL at the instant the start-up opens the marker or the lock for writing; the next start must go on without a hand's help."
    cfg = _quick(tmp_path, small_tokenizer)
    run_inproc(cfg)                                                      # a run that exists: the second start rewrites/locks
    for args in ([str(cfg), 'max_steps=2', 'resume_with_changes=true'],):
        r = subprocess.run([sys.executable, '-c', _KILL_ON_OPEN, name, *args], capture_output=True, text=True, env=ENV)
        assert r.returncode in (-signal.SIGKILL, 0), r.stderr[-2000:]
    run_inproc(cfg, 'max_steps=3', 'resume_with_changes=true')
    assert (tmp_path/'run'/'final').exists() and max(losses(tmp_path/'run')) == 3
    fresh = _quick(tmp_path, small_tokenizer, 'fresh')                   # and on a fresh directory, killed at its first write
    r = subprocess.run([sys.executable, '-c', _KILL_ON_OPEN, name, str(fresh)], capture_output=True, text=True, env=ENV)
    assert r.returncode == -signal.SIGKILL, (r.returncode, r.stderr[-2000:])
    run_inproc(fresh)
    assert (tmp_path/'fresh'/'final').exists()
