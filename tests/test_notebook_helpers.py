"""The notebooks' helpers (tools/notebook_helpers.py, outside the package): the repository found from any folder, GPU jobs
run from the repository root or, without the GPUs, printed instead."""
import contextlib, io, os, runpy
from pathlib import Path
import pytest
from azllm.core import AzllmError

ROOT = Path(__file__).resolve().parent.parent
H = runpy.run_path(str(ROOT/'tools'/'notebook_helpers.py'))     # as a notebook's `%run ../tools/notebook_helpers.py` loads it


def test_repo_root_from_the_notebooks_folder(monkeypatch):
    monkeypatch.chdir(ROOT/'nbs')                                  # where Jupyter starts a notebook's kernel
    assert (H['repo_root']()/'nbs'/'00_core.ipynb').is_file()


def test_run_on_gpu_prints_the_command_without_the_gpus():
    with contextlib.redirect_stdout(io.StringIO()) as out: assert H['run_on_gpu']('azllm train configs/cpt_llama-3.2-1b_1gpu.yml', gpus=64) is False
    assert out.getvalue().startswith('skipped on this') and 'azllm train configs/cpt_llama-3.2-1b_1gpu.yml' in out.getvalue()


def test_run_on_gpu_runs_from_the_repository_root(monkeypatch, capsys):
    monkeypatch.chdir(ROOT/'nbs')
    assert H['run_on_gpu']('ls pyproject.toml', gpus=0) is True
    assert capsys.readouterr().out == 'pyproject.toml\n'
    with pytest.raises(AzllmError, match='exit code 3'): H['run_on_gpu']('exit 3', gpus=0)
