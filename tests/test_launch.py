"""`azllm train --nproc/--gpus/--nnodes/--launcher`: the launcher command azllm builds and its errors. The real 2-process CPU runs
through both launchers are the DDP/FSDP2 parity tests of tests/test_engine.py (`three_ways`)."""
import json, shlex, sys
from pathlib import Path
import pytest, yaml
from conftest import ROOT
from azllm.core import AzllmError
from azllm.cli import main, build_parser
from azllm.launch import accelerate_config

TINY = str(ROOT/'configs'/'cpt_tiny_base.yml')


def dry(capsys, *argv):
    "The command `azllm train ... --dry-run` prints, as a list of arguments."
    assert main(['train', *map(str, argv), '--dry-run']) == 0
    return shlex.split(capsys.readouterr().out.strip())


def child(cmd):
    "What the launcher runs in every process: the part from `-m azllm.cli` on."
    return cmd[cmd.index('-m', 1 if cmd[0] != sys.executable else 3):]


def test_dry_run_torchrun_one_node(capsys):
    cmd = dry(capsys, TINY, 'max_steps=3', '--nproc', 2)
    assert cmd[0].endswith('torchrun') or cmd[:3] == [sys.executable, '-m', 'torch.distributed.run']
    assert cmd[cmd.index('--nproc_per_node') + 1] == '2' and '--standalone' in cmd
    assert child(cmd) == ['-m', 'azllm.cli', 'train', TINY, 'max_steps=3']
    assert dry(capsys, TINY, '--gpus', 2) == dry(capsys, TINY, '--nproc', 2, '--launcher', 'torchrun')   # --gpus is --nproc; torchrun is the default


def test_dry_run_torchrun_two_nodes(capsys):
    cmd = dry(capsys, TINY, '--nproc', 8, '--nnodes', 2, '--node-rank', 1, '--master-addr', '10.0.0.1', '--master-port', 29400)
    i = cmd.index('--nproc_per_node')
    assert cmd[i:i + 10] == ['--nproc_per_node', '8', '--nnodes', '2', '--node_rank', '1', '--master_addr', '10.0.0.1', '--master_port', '29400']
    assert '--standalone' not in cmd and child(cmd) == ['-m', 'azllm.cli', 'train', TINY]


@pytest.mark.parametrize('strategy,config', [('auto', 'ddp'), ('ddp', 'ddp'), ('fsdp2', 'fsdp2')])
def test_dry_run_accelerate_one_node(capsys, strategy, config):
    cmd = dry(capsys, TINY, f'strategy={strategy}', '--nproc', 2, '--launcher', 'accelerate')
    assert cmd[:2] == ['accelerate', 'launch'] or cmd[:3] == [sys.executable, '-m', 'accelerate.commands.launch']
    cfg = Path(cmd[cmd.index('--config_file') + 1])
    assert cfg.name == f'{config}.yaml' and yaml.safe_load(cfg.read_text()) == accelerate_config(config)
    assert cmd[cmd.index('--num_processes') + 1] == '2' and cmd[cmd.index('--num_machines') + 1] == '1'
    assert '--machine_rank' not in cmd and cmd[cmd.index('--main_process_port') + 1] == '0'   # a free port, as --standalone
    assert child(cmd) == ['-m', 'azllm.cli', 'train', TINY, f'strategy={strategy}']


def test_dry_run_accelerate_two_nodes(capsys):
    cmd = dry(capsys, TINY, 'strategy=fsdp2', '--gpus', 8, '--nnodes', 2, '--node-rank', 0, '--master-addr', 'node0', '--launcher', 'accelerate')
    i = cmd.index('--num_processes')
    assert cmd[i:i + 10] == ['--num_processes', '16', '--num_machines', '2', '--machine_rank', '0', '--main_process_ip', 'node0',
                             '--main_process_port', '29500']
    assert Path(cmd[cmd.index('--config_file') + 1]).name == 'fsdp2.yaml'


def test_one_process_dry_run_and_shipped_accelerate_configs(capsys):
    assert dry(capsys, TINY, 'lr=1e-3') == ['python', '-m', 'azllm.cli', 'train', TINY, 'lr=1e-3']
    for s in ('ddp', 'fsdp2'):      # the hand-launch copies say what azllm generates
        assert yaml.safe_load((ROOT/'configs'/'accelerate'/f'{s}.yaml').read_text()) == accelerate_config(s)
        assert 'cpt_llama-3.2-1b_8gpu.yml' not in (ROOT/'configs'/'accelerate'/f'{s}.yaml').read_text()


@pytest.mark.parametrize('argv,needle', [
    (['--nproc', '3'], 'has 2 visible GPUs'),
    (['--nproc', '2'], 'unknown launcher'),
    (['--nnodes', '2', '--node-rank', '2', '--master-addr', 'h'], 'out of range'),
    (['--nnodes', '2', '--node-rank', '1'], 'needs --master-addr'),
    (['--nnodes', '2', '--master-addr', 'h'], 'needs --node-rank'),
    (['--nproc', '2', 'strategy=none'], 'strategy: none'),
])
def test_launch_errors(monkeypatch, argv, needle):
    import azllm.launch
    monkeypatch.setattr(azllm.launch, 'visible_gpus', lambda: 2)      # as on a machine with 2 GPUs
    monkeypatch.delenv('LOCAL_RANK', raising=False); monkeypatch.delenv('AZLLM_LAUNCHED', raising=False)
    a = build_parser().parse_args(['train', TINY, *[x for x in argv if '=' in x], *[x for x in argv if '=' not in x], '--dry-run'])
    if needle == 'unknown launcher': a.launcher = 'mpirun'           # argparse's choices refuse it on the command line; launch() too
    with pytest.raises(AzllmError, match=needle): a.func(a)


def test_errors_exit_2_in_one_line(capsys):
    with pytest.raises(SystemExit) as e: main(['train', TINY, '--nnodes', '2', '--node-rank', '-1', '--master-addr', 'h'])
    assert e.value.code == 2 and 'out of range' in capsys.readouterr().err      # refused where the flag is read (issue 23)
    assert main(['train', TINY, '--nnodes', '2', '--node-rank', '0']) == 2
    assert capsys.readouterr().err.startswith('azllm: error: --nnodes 2 needs --master-addr')
    assert main(['train', str(ROOT/'configs'/'tokenizer_custom.yml'), '--nproc', '2']) == 2
    assert 'runs in one process' in capsys.readouterr().err
