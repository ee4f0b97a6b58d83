"""Long sequences in one process, end to end through `azllm train`: packed documents with document masks at a long length train
the same with the MLP and the loss tiled and the checkpoints offloaded as without them; a RoPE scaling takes a run past the
model's positions (and without one the length is refused in one line); the GPU running out of memory mid-step ends in one line
and exit code 2, never a traceback."""
import json
import pytest, torch
from test_engine import write_cfg, losses, train_here

pytestmark = pytest.mark.usefixtures('one_thread')

# 4096 tokens a row: twice the tiny preset's 2048 positions, so a RoPE scaling is needed
LONG = dict(seq_len=4096, micro_batch=1, grad_accum=1, max_steps=2, valid_data=[], doc_mask=True, save_every=100, warmup_steps=0,
            rope_scaling={'rope_type': 'linear', 'factor': 2}, liger=False, compile=False,
            memory_check=False)   # the CPU check counts a preset's logits at Llama 3's 128k words; this tokenizer has 4,000


def test_long_packed_rows_train_the_same_tiled_and_offloaded(tmp_path, small_tokenizer, monkeypatch):
    import azllm.engine
    monkeypatch.setattr(azllm.engine, 'TILE_TOKENS', 512)         # eight chunks a row, so the tiles really split the row
    runs = {}
    for name, kw in (('plain', dict(tiled_mlp=False, tiled_loss=False)),
                     ('long', dict(tiled_mlp=True, tiled_loss=True, offload_activations=True)),
                     ('no_doc_mask', dict(tiled_mlp=False, tiled_loss=False, doc_mask=False))):
        train_here(write_cfg(tmp_path/f'{name}.yml', small_tokenizer, tmp_path/name, **{**LONG, **kw}))
        runs[name] = losses(tmp_path/name)
    s = json.loads((tmp_path/'long'/'summary.json').read_text())
    assert (s['tiled_mlp'], s['tiled_loss'], s['offloaded']) == (2, True, 2)         # both layers of the tiny preset
    assert sorted(runs['long']) == [1, 2]
    for step in (1, 2): assert runs['long'][step] == pytest.approx(runs['plain'][step], rel=1e-5), step
    tiled, unmasked = (max(abs(runs[r][k] - runs['plain'][k]) for k in (1, 2)) for r in ('long', 'no_doc_mask'))
    assert unmasked > max(1e-5, 10 * tiled), (tiled, unmasked)    # the document masks are in force at this length, tiled or not
    final = json.loads((tmp_path/'long'/'final'/'config.json').read_text())
    assert final['max_position_embeddings'] == 4096 and final['rope_parameters']['rope_type'] == 'linear'   # the saved model carries its scaling


def test_a_length_past_the_positions_needs_a_rope_scaling(tmp_path, small_tokenizer, capsys):
    from azllm.cli import main
    cfg = write_cfg(tmp_path/'c.yml', small_tokenizer, tmp_path/'run', **{**LONG, 'rope_scaling': None})
    assert main(['train', str(cfg)]) == 2
    err = capsys.readouterr().err
    assert "seq_len 4096 is beyond the model's limit of 2048 positions; to train past it set a RoPE scaling, e.g. rope_scaling: {rope_type: yarn, factor: 2}" in err
    assert 'Traceback' not in err and not (tmp_path/'run').exists()


def test_out_of_memory_mid_step_is_one_line_and_exit_2(tmp_path, small_tokenizer, monkeypatch, capsys):
    import azllm.trainer
    from azllm.cli import main
    def oom(*a, **k): raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 20.00 GiB. GPU 0 has a total capacity of 79.19 GiB")
    monkeypatch.setattr(azllm.trainer, 'train_step', oom)
    cfg = write_cfg(tmp_path/'c.yml', small_tokenizer, tmp_path/'run', max_steps=2, valid_data=[])
    assert main(['train', str(cfg)]) == 2
    err = capsys.readouterr().err
    lines = [l[l.index('azllm: error:'):] for l in err.splitlines() if 'azllm: error:' in l]   # (after the progress bar's last state)
    assert len(lines) == 1 and 'Traceback' not in err and 'CUDA out of memory' not in err, err[-2000:]
    for fix in ('grad_checkpointing: true', 'offload_activations: true', 'sequence_parallel: N', 'micro_batch 2 x seq_len 64', 'shorter seq_len'):
        assert fix in lines[0], fix
    assert not (tmp_path/'run').exists()                          # failed before its first checkpoint: nothing left behind


def test_the_long_context_benchmark_plans_its_trials_and_renders(tmp_path):
    "benchmarks/long_context.py without a GPU: its lengths, RoPE factors, commands (one GPU and --gpus N), estimates, table and figure."
    import runpy
    from pathlib import Path
    from conftest import ROOT
    b = runpy.run_path(str(ROOT/'benchmarks'/'long_context.py'))
    class A: lengths, start, max_len = None, 16384, 1 << 20
    assert b['lengths_for'](A) == [16384 << k for k in range(7)]                      # 16k ... 1M, doubling
    assert [b['rope_factor'](L, 131072) for L in (65536, 131072, 262144, 524288, 1 << 20)] == [0, 0, 2, 4, 8]
    one = b['azllm_command']('1b', 262144, Path('o'), Path('d.txt'), 131072, 1)
    assert 'seq_len=262144' in one and 'offload_activations=true' in one and 'rope_scaling={rope_type: yarn, factor: 2}' in one and '--nproc' not in one
    sp = b['azllm_command']('8b', 131072, Path('o'), Path('d.txt'), 262144, 8)
    assert sp[-4:] == ['--nproc', '8', '--launcher', 'torchrun'] and 'sequence_parallel=8' in sp and 'offload_activations=false' in sp
    from azllm.stages import read_runs                              # every trial's config is a valid run config
    for shape in ('1b', '3b', '8b', '8b-qlora'): read_runs([str(ROOT/b['SHAPES'][shape][0]), *b['azllm_overrides'](shape, 262144, Path('o'), Path('d'), 131072, 1)])
    e = [b['estimate']('1b', L, 131072)['estimate_gib'] for L in (65536, 131072, 262144)]
    assert e[1] < e[0] < e[2] < 80                                  # offloaded from 128k, its layer inputs leave the card: the floor drops
    rows = [dict(shape='1b', path=p, seq_len=L, gpus=1, card='H100', status=st, tok_per_s=1000.0, peak_gib=10.0 * k, estimate_gib=9.0 * k, estimate_hf_gib=20.0)
            for p, sts in (('azllm', ('ok', 'ok', 'oom')), ('hf', ('ok', 'oom', 'skipped'))) for k, (L, st) in enumerate(zip((16384, 32768, 65536), sts), 1)]
    res = dict(runs=[dict(command='python x', date='d', machine=dict(card='H100', card_gib=79.2))], rows=rows)
    table = b['markdown_table'](res).splitlines()
    assert table[2] == '| 1b | azllm | H100 | 32,768 | 1,000 | 20.0 | 18.0 | 65,536: oom |'
    assert table[3] == '| 1b | Hugging Face | H100 | 16,384 | 1,000 | 10.0 | 20.0 | 32,768: oom |'
    for r in rows: r['step_s'] = 1e-5 * r['seq_len'] + 1e-10 * r['seq_len'] ** 2                  # the fit recovers a known curve
    far = b['projection'](res, '1b', [1 << 20])[0]
    assert far['fit_from'] == [16384, 32768] and abs(far['step_s'] - (1e-5 * 2 ** 20 + 1e-10 * 2 ** 40)) < 1e-6 * far['step_s']
    assert far['gpu_gib'] > e[2] and far['host_gib'] == 128                # 16 layers x 1M tokens x 2048 x 4 bytes, offloaded
    assert b['projection_table']([far]).splitlines()[2].startswith('| 1,048,576 |')
    f = tmp_path/'r.json'; f.write_text(__import__('json').dumps(res))
    b['cmd_render'](type('A', (), dict(results=str(f), figure=None, table=None)))
    assert (tmp_path/'r.png').stat().st_size > 5000 and (tmp_path/'r.md').read_text().startswith('| shape |')


@pytest.mark.skipif(not torch.cuda.is_available(), reason='the overlapped host copies need CUDA')
def test_offloaded_checkpoints_on_the_gpu_give_the_plain_gradients():
    "On a GPU the layer inputs go to pinned host memory on a side stream and come back ahead of the backward: same loss and gradients, and the forward leaves the layers' inputs off the card."
    import copy
    from transformers import LlamaConfig, LlamaForCausalLM
    from azllm.long_context import offload_layers
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=512, hidden_size=256, intermediate_size=512, num_hidden_layers=6, num_attention_heads=4, num_key_value_heads=2,
                      max_position_embeddings=8192)
    m0 = LlamaForCausalLM(cfg).cuda(); m1 = copy.deepcopy(m0)
    m0.gradient_checkpointing_enable(gradient_checkpointing_kwargs={'use_reentrant': False})
    assert offload_layers(m1, pin=True) == 6
    ids = torch.randint(0, 512, (1, 8192), device='cuda')
    out = []
    for m in (m0, m1):
        for _ in range(2):                                         # twice: the second step must not see the first one's stash
            m.zero_grad(); torch.cuda.synchronize(); before = torch.cuda.memory_allocated()
            loss = m(input_ids=ids, labels=ids).loss
            torch.cuda.synchronize(); held = torch.cuda.memory_allocated() - before   # what the forward leaves for the backward
            loss.backward()
        torch.cuda.synchronize()
        out.append((loss.item(), {n: p.grad.clone() for n, p in m.named_parameters()}, held))
    (l0, g0, held0), (l1, g1, held1) = out
    assert abs(l1 - l0) < 1e-6 * abs(l0)
    for n in g0: torch.testing.assert_close(g1[n], g0[n], rtol=1e-5, atol=1e-6)
    layer_inputs = 6 * ids.numel() * cfg.hidden_size * 4                 # fp32 residual stream, one input per layer
    assert held1 < held0 - layer_inputs // 2, (held0, held1)               # they wait in host memory, not on the card
