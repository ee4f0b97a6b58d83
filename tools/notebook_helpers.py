"""Two helpers for the notebooks in nbs/, kept out of the azllm package (no user of azllm needs them).

A notebook loads them with `%run ../tools/notebook_helpers.py` in a `#| hide` cell: JupyterLab, `tools/run_notebooks.py`
and `nbdev-test` all start a notebook in its own folder (`nbs/`), and nbdev's docs build leaves a cell that begins with a
magic alone (the cells that use these helpers show stored outputs there).

JupyterLab runs every cell, including those marked `#| eval: false` (only nbdev honours that flag), so these keep *Run All*
working on any machine: `repo_root` finds the repository from this file, so a cell can name `configs/...` or
`benchmarks/results/...` without caring where the kernel started; `run_on_gpu` is how a notebook launches a real GPU job:
on a machine with the GPUs it runs the command from the repository root and streams its output; anywhere else it prints
the command and moves on. Their tests: tests/test_notebook_helpers.py.
"""
import subprocess
from pathlib import Path


def repo_root() -> Path:
    "The azllm repository: the folder holding `pyproject.toml`, `azllm/` and `nbs/` (this file is in its `tools/`)."
    return Path(__file__).resolve().parent.parent


def run_on_gpu(cmd:str, # shell command, run from the repository root, e.g. `azllm train configs/sft_llama-3.2-1b.yml`
               gpus:int=1, # CUDA GPUs it needs
              ) -> bool:
    "Run a GPU job from the repository root, streaming its output; on a machine with fewer GPUs print the command instead."
    import torch
    from azllm.core import AzllmError
    have = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if have < gpus:
        where = 'CPU-only machine' if have == 0 else f'machine with {have} GPU{"s" * (have > 1)}'
        print(f"skipped on this {where}; on a machine with {gpus} GPU{'s' * (gpus > 1)}, run from the repository root:\n  {cmd}")
        return False
    p = subprocess.Popen(cmd, shell=True, cwd=repo_root(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    for line in p.stdout: print(line, end='')
    if p.wait(): raise AzllmError(f"`{cmd}` failed with exit code {p.returncode}")
    return True
