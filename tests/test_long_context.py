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
