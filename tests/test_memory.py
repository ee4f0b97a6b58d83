"""azllm.memory and azllm.profile: the published Llama 3.2 1B figures, the `memory estimate` command, and FSDP2 halving each rank's
model state, measured on 2 gloo processes launched with torchrun."""
import argparse, contextlib, io, json
import pytest
from azllm.core import AzllmError
from azllm.memory import GIB, estimate_memory
from azllm.profile import run_measurement
from azllm.cli import build_parser

N_1B = 1_235_814_400   # Llama 3.2 1B


@pytest.mark.parametrize('strategy,published', [('ddp', 9.23), ('fsdp2', 1.17)])
def test_published_llama_3_2_1b(strategy, published):
    "Pure bf16 (precision bf16 over weights stored in bf16: 2 + 2 + 2×2 bytes per parameter), in GiB, on 8 GPUs: within 3% of the published figures."
    e = estimate_memory(N_1B, gpus=8, strategy=strategy, precision='bf16', weights='bf16', optimizer='adamw')
    assert abs(e['total_bytes'] / GIB / published - 1) < 0.03
    assert e['total_bytes'] == e['params_bytes'] + e['grads_bytes'] + e['optimizer_bytes']
    assert estimate_memory(N_1B, gpus=8, strategy=strategy, optimizer='adamw')['precision'] == 'bf16'   # the default: training's bf16
    auto = estimate_memory(N_1B, gpus=8, strategy=strategy)                 # autocast: fp32 weights, grads and moments
    assert auto['model_state_bytes'] == 2 * e['model_state_bytes']


def cli(*argv) -> str:
    a = build_parser().parse_args(['memory', 'estimate', *map(str, argv)])
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): a.func(a)
    return buf.getvalue()


def test_cli_json_and_table():
    j = json.loads(cli('--params', '1.2358144B', '--gpus', 8, '--strategy', 'fsdp2', '--precision', 'bf16', '--weights', 'bf16', '--json'))
    assert j['params'] == N_1B and abs(j['total_gib'] - 1.17) / 1.17 < 0.03
    for k in ('params_bytes', 'grads_bytes', 'optimizer_bytes', 'activations_bytes', 'total_bytes'): assert isinstance(j[k], int)
    j = json.loads(cli('--preset', 'llama-3.2-1b', '--micro-batch', 1, '--seq-len', 2048, '--precision', 'bf16', '--json'))
    assert j['params'] == N_1B and j['layers'] == 16 and j['activations_bytes'] > 0
    t = cli('--preset', 'llama-3.2-1b', '--gpus', 8, '--strategy', 'fsdp2', '--micro-batch', 2, '--seq-len', 2048, '--grad-checkpointing')
    assert 'total per GPU' in t and 'activations' in t and 'FSDP gathered groups' in t


def test_cli_mistakes():
    with pytest.raises(AzllmError, match='give the number of parameters'): cli('--gpus', 8)
    with pytest.raises(AzllmError, match='need the model shape'): cli('--params', '1B', '--micro-batch', 2, '--seq-len', 128)
    with pytest.raises(AzllmError, match='unknown model preset'): cli('--preset', 'llama-huge')
    with contextlib.redirect_stderr(io.StringIO()):
        for bad in (['--params', 'lots'], ['--params', '1B', '--strategy', 'zero2'], ['--params', '1B', '--gpus', 0]):
            with pytest.raises(SystemExit): cli(*bad)


def test_cli_speaks_the_run_configs_keys(capsys):
    "`azllm memory estimate CONFIG.yml` reads the training keys; an earlier flag or value name gets one line naming the new one."
    from conftest import ROOT
    from azllm.cli import main
    cfg = str(ROOT/'configs'/'cpt_llama-3.2-1b_8gpu_phase2.yml')
    j = json.loads(cli(cfg, 'micro_batch=2', 'model=preset:llama-3.2-1b', '--gpus', 8, '--json'))
    assert (j['gpus'], j['micro_batch'], j['precision'], j['params']) == (8, 2, 'auto', N_1B)   # the config's own words
    flags = json.loads(cli('--preset', 'llama-3.2-1b', '--gpus', 8, '--strategy', j['strategy'], '--micro-batch', 2, '--seq-len', j['seq_len'],
                           '--attn-implementation', j['attn_implementation'], *['--fused-ce'] * j['fused_ce'],
                           *['--fused-kernels'] * j['fused_kernels'], *['--grad-checkpointing'] * j['grad_checkpointing'], '--json'))
    assert flags['total_bytes'] == j['total_bytes']                          # the config and the flags agree
    for argv, says in ((['--preset', 'llama-3.2-1b', '--seq', '2048'], '--seq is called --seq-len now'),
                       (['--preset', 'llama-3.2-1b', '--attention', 'eager'], '--attention is called --attn-implementation now'),
                       (['--params', '1B', '--strategy', 'fsdp'], "'fsdp' is called 'fsdp2' now"),
                       (['--params', '1B', '--precision', 'amp-bf16'], "'amp-bf16' is called 'bf16' now"),
                       (['--params', '1B', '--precision', 'pure-bf16'], "'pure-bf16' is called 'bf16 with weights bf16' now")):
        with pytest.raises(SystemExit) as e: main(['memory', 'estimate', *argv])
        assert e.value.code == 2 and says in capsys.readouterr().err
    with pytest.raises(AzllmError, match='need precision bf16'): cli('--params', '1B', '--precision', 'fp32', '--weights', 'bf16')
    master = json.loads(cli('--params', '1B', '--weights', 'bf16-master', '--json'))    # ZeRO's 2 + 2 + 12 bytes per parameter
    assert master['weights'] == 'bf16-master' and master['model_state_bytes'] == 16 * 10**9
    with pytest.raises(AzllmError, match='micro_batch is auto'): cli(str(ROOT/'configs'/'cpt_llama-3.2-1b_1gpu.yml'))
    with pytest.raises(AzllmError, match='no Llama shape to read'): cli(cfg)
    with pytest.raises(AzllmError, match='not stage sft'): cli(str(ROOT/'configs'/'sft_tiny.yml'))


@pytest.mark.slow                                       # torchrun: two processes
def test_fsdp_halves_each_rank():
    "2 gloo processes: FSDP2 gives each rank exactly half of DDP's weights, gradients and AdamW moments."
    m = run_measurement(('ddp', 'fsdp2'), nproc=2, hidden=128, layers=2, vocab=32_000, heads=4, kv_heads=2, seq_len=32)
    ddp, fsdp = m['results']
    assert (ddp['strategy'], fsdp['strategy'], ddp['world_size'], fsdp['world_size']) == ('ddp', 'fsdp2', 2, 2)
    n = ddp['params']
    est = estimate_memory(n, gpus=2, strategy='ddp', precision='fp32')
    d0 = ddp['ranks'][0]
    steps = d0['optimizer_bytes'] - est['optimizer_bytes']
    assert steps == 0                                                    # the engine's state_bytes counts AdamW's moments, not its scalar step counters
    assert (d0['params_bytes'], d0['grads_bytes']) == (est['params_bytes'], est['grads_bytes'])
    for r in ddp['ranks'] + fsdp['ranks']: assert r['total_bytes'] == r['params_bytes'] + r['grads_bytes'] + r['optimizer_bytes']
    for r in fsdp['ranks']:
        assert 2 * r['params_bytes'] == d0['params_bytes']
        assert 2 * r['grads_bytes'] == d0['grads_bytes']
        assert 2 * (r['optimizer_bytes'] - steps) == d0['optimizer_bytes'] - steps   # the step counters are not sharded
    assert ddp['ranks'][0]['total_bytes'] == ddp['ranks'][1]['total_bytes']
    assert fsdp['ranks'][0]['unsharded_after_forward_bytes'] == 4 * (32_000 * 128 + 128)  # root group gathered after forward
    assert m['command'].startswith('torchrun --standalone --nproc_per_node=2 -m azllm.profile')


def test_snapshot_pickle_that_names_code_is_refused(tmp_path):
    "A snapshot file is plain data; one whose pickle names a function is refused and never runs it."
    import os, pickle
    from azllm.core import AzllmError
    from azllm.profile import snapshot_timeline
    class Boom:
        def __reduce__(self): return (os.system, (f'touch {tmp_path}/pwned',))
    (tmp_path/'bad.pickle').write_bytes(pickle.dumps({'device_traces': [[Boom()]]}))
    with pytest.raises(AzllmError, match='refused'): snapshot_timeline(tmp_path/'bad.pickle')
    assert not (tmp_path/'pwned').exists()
    ok = {'device_traces': [[{'action': 'alloc', 'size': 8}, {'action': 'free_completed', 'size': 8}]]}
    (tmp_path/'ok.pickle').write_bytes(pickle.dumps(ok))
    assert snapshot_timeline(tmp_path/'ok.pickle') == [8, 0]


def test_max_batch_reads_the_stage_through_the_registry(capsys):
    "`azllm memory max-batch` finds the stage as `azllm train` does: a config that is not a training run is one clear line."
    from conftest import ROOT
    from azllm.cli import main
    assert main(['memory', 'max-batch', str(ROOT/'configs'/'eval_tiny.yml')]) == 2
    assert 'max-batch measures a training run (stage: cpt or sft)' in capsys.readouterr().err
