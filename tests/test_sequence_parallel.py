"""Sequence parallelism is exact: with gloo on the CPU, SP = 2, SP = 4 and dp x sp = 2 x 2 give the loss and the gradients of
one process on the same global batch (fp32, a tiny random Llama), for CPT (packed documents), LoRA SFT (assistant-only labels
that cross the shard borders), DPO (chosen and rejected replies cut by a border) and KTO; and `azllm train CONFIG
sequence_parallel=2 --nproc 2` trains end to end through the launcher."""
import json, os, socket, subprocess, sys
from pathlib import Path
import pytest

TOL = dict(rtol=2e-4, atol=2e-6)   # fp32: the shards' sums are added in another order, nothing else differs
T = 16                             # tokens per row: a multiple of 2 and 4, so every border below is a shard border


def _free_port() -> int:
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]


def tiny_model(lora:bool, kernel:str='sdpa'):
    "A 2-layer Llama with 4 query and 4 key/value heads (SP up to 4), seeded: every process builds the same one."
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM
    torch.manual_seed(0)
    m = LlamaForCausalLM(LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                                     num_key_value_heads=4, max_position_embeddings=64, attn_implementation=kernel))
    m.config.use_cache = False           # as the engine sets it: with a cache transformers builds no document mask from the positions
    if lora:
        from peft import LoraConfig, get_peft_model
        m = get_peft_model(m, LoraConfig(r=4, lora_alpha=8, target_modules=['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj'], lora_dropout=0.0))
        torch.manual_seed(1)
        for n, p in m.named_parameters():          # LoRA's B starts at zero: give it values, so every adapter weight has a gradient
            if 'lora_B' in n: p.data.normal_(0, 0.05)
    return m


def rows(stage:str):
    "Two rows of T tokens (one per data-parallel group at dp = 2): labels shifted before any cut, positions restarting per document."
    import torch
    g = torch.Generator().manual_seed(7)
    ids = torch.randint(1, 64, (2, T + 1), generator=g)
    lab = ids[:, 1:].clone()
    pos = torch.tensor([[0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2],      # documents cut by the borders at 4, 8 and 12
                        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 1, 2, 3, 4]])
    b = dict(input_ids=ids[:, :-1].contiguous(), position_ids=pos)
    if stage in ('cpt', 'eager', 'ckpt'):
        lab[pos.roll(-1, 1) == 0] = -100                                        # a document's last token predicts no next document
        b['shift_labels'] = lab
    elif stage == 'sft':                                                        # assistant-only: replies at 3..9 and 11..13 (row 0), 6..14 (row 1)
        keep = torch.zeros(2, T, dtype=torch.bool)
        keep[0, 3:10] = keep[0, 11:14] = keep[1, 6:15] = True
        b['shift_labels'] = torch.where(keep, lab, -100)
    else:                                                                       # DPO: each row one pair, chosen then rejected, prompts unscored (KTO: an example and its mismatched completion)
        pos = torch.tensor([[0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 7, 8], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5]])
        seq = (pos == 0).cumsum(1) - 1
        scored = pos >= 3
        scored[pos.roll(-1, 1) == 0] = False                                    # a sequence's last token predicts nothing of its own
        scored[:, -1] = False
        b.update(position_ids=pos, shift_labels=torch.where(scored, lab, -100), seq_ids=seq + 2 * torch.arange(2)[:, None])
    return b


def loss_fn(stage:str):
    from azllm.engine import lm_loss
    from azllm.objectives import objective
    return objective('sigmoid', beta=0.5) if stage == 'dpo' else objective('kto', beta=0.5) if stage == 'kto' else lm_loss


def with_reference(batch:dict, lo:int, hi:int) -> dict:
    "DPO's cached reference slots for rows lo..hi: fixed numbers, so the policy's gradient is all that is compared."
    import torch
    n = (hi - lo) * T
    every = -torch.arange(2 * T, dtype=torch.float32, device=batch['input_ids'].device) / 7   # slot j of rows lo..hi is slot j + 2 lo of the whole batch
    desirable = torch.tensor([1, 0] + [-1] * (T - 2), device=every.device)                     # KTO: example 0 desirable, 1 not, then no more
    return dict({k: v[lo:hi] for k, v in batch.items()}, seq_ids=batch['seq_ids'][lo:hi] - 2 * lo, ref_logps=every[2 * lo:2 * lo + n],
                desirable=torch.cat([desirable[lo:], desirable.new_full((lo,), -1)])[:(n + 1) // 2])


def reference(stage:str, lora:bool, kernel:str='sdpa', device='cpu'):
    "One process, the whole global batch in one micro-batch: the loss and every trainable parameter's gradient."
    m = tiny_model(lora, kernel).to(device)
    b = {k: v.to(device) for k, v in rows(stage).items()}
    if stage in ('dpo', 'kto'): b = {k: v.to(device) for k, v in with_reference(b, 0, 2).items()}
    n_items = 2 if stage in ('dpo', 'kto') else int((b['shift_labels'] != -100).sum())
    loss, _ = loss_fn(stage)(m, b, n_items)
    loss.backward()
    return loss.item(), {n: p.grad.clone() for n, p in m.named_parameters() if p.requires_grad}, n_items


def sp_step(stage:str, lora:bool, sp:int, rank:int, world:int, kernel:str='sdpa', cuda:bool=False, strategy:str='auto'):
    "The engine's own step (DDP over all processes, this process's data-parallel row, its shard): the summed loss and the gradients."
    import torch, torch.distributed as dist
    from azllm.engine import TrainConfig, resolve_plan, build_engine, train_step
    from azllm.runtime import Runtime
    rt = Runtime(world=world, rank=rank, local_rank=rank, cuda=cuda)
    cfg = TrainConfig(output_dir='x', train_data=['x'], sequence_parallel=sp, micro_batch=1, seq_len=64, grad_clip=0, liger=False, compile=False,
                      precision='fp32', attn_implementation=kernel, strategy=strategy, grad_checkpointing=stage == 'ckpt')
    plan = resolve_plan(cfg, rt)
    eng, info = build_engine(tiny_model(lora, kernel), cfg, rt, 1, plan)
    assert info['sequence_parallel'] == sp and plan.dp * plan.sp == world and info['strategy'] == ('ddp' if strategy == 'auto' else strategy)
    full = lambda g: g.full_tensor() if hasattr(g, 'full_tensor') else g     # FSDP2 holds a shard of each gradient
    got = {}
    eng.opt.step = lambda: got.update({n.removeprefix('module.'): full(p.grad).clone() for n, p in eng.model.named_parameters() if p.requires_grad})
    b, r = rows(stage), plan.dp_rank
    lo, hi = (r, r + 1) if plan.dp == 2 else (0, 2)
    b = {k: v.to(rt.device) for k, v in (with_reference(b, lo, hi) if stage in ('dpo', 'kto') else {k: v[lo:hi] for k, v in b.items()}).items()}
    n_items = 2 if stage in ('dpo', 'kto') else int((rows(stage)['shift_labels'] != -100).sum())
    out = train_step(eng, [b], n_items, loss_fn(stage))
    loss = out['loss'].clone(); dist.all_reduce(loss)
    return loss.item(), got, (held_out(eng, rt) if stage == 'cpt' else None)


def held_out(eng, rt) -> tuple:
    "Validation of the two CPT rows (after the step): whole rows on every process, and split as `engine.eval_split` says (sharded under SP)."
    import numpy as np
    from azllm.engine import eval_split
    from azllm.runtime import validate
    class Rows:
        def __len__(self): return 2
        def batch(self, idx): return {k: v[idx] for k, v in rows('cpt').items()}
    assert eval_split(eng)['part'] == (eng.dp)                # (sharded under SP: every test here has sp > 1)
    return tuple(validate(eng.model, Rows(), np.ones(64), rt, 1, **split)['val_loss'] for split in ({}, eval_split(eng)))


def _worker(rank:int, world:int, port:int, cases:list, q, cuda:bool=False):
    import torch, torch.distributed as dist
    torch.set_num_threads(1)
    if cuda: torch.cuda.set_device(rank)
    dist.init_process_group('nccl' if cuda else 'gloo', init_method=f'tcp://127.0.0.1:{port}', rank=rank, world_size=world)
    try:
        for stage, lora, sp, kernel, strategy in cases:
            want_loss, want, _ = reference(stage, lora, kernel, f'cuda:{rank}' if cuda else 'cpu')
            loss, got, val = sp_step(stage, lora, sp, rank, world, kernel, cuda, strategy)
            assert got.keys() == want.keys(), (stage, sorted(set(got) ^ set(want))[:4])
            bad = [n for n in want if not torch.allclose(got[n], want[n], **TOL)]
            worst = max((got[n] - want[n]).abs().max().item() for n in want)
            q.put((rank, stage, sp, strategy, loss, want_loss, bad, worst, val))
        dist.barrier()
    except BaseException as e:
        q.put((rank, 'error', repr(e)[:2000]))
        raise
    finally: dist.destroy_process_group()


def run_ranks(world:int, cases:list, cuda:bool=False) -> list:
    import torch.multiprocessing as mp
    ctx = mp.get_context('spawn' if cuda else 'fork')      # (CUDA cannot be used in a forked process)
    q, port = ctx.Queue(), _free_port()
    ps = [ctx.Process(target=_worker, args=(r, world, port, cases, q, cuda)) for r in range(world)]
    for p in ps: p.start()
    out = []
    for _ in range(world * len(cases)):
        item = q.get(timeout=300)
        assert item[1] != 'error', item
        out.append(item)
    for p in ps: p.join(60)
    assert all(p.exitcode == 0 for p in ps), [p.exitcode for p in ps]
    return out


def check(results:list):
    assert results
    for rank, stage, sp, strategy, loss, want_loss, bad, worst, val in results:
        assert abs(loss - want_loss) <= 1e-5 * abs(want_loss) + 1e-6, (rank, stage, sp, strategy, loss, want_loss)
        if val: assert abs(val[0] - val[1]) <= 1e-5 * val[0], f"rank {rank} sp={sp} {strategy}: validation whole {val[0]} vs sharded {val[1]}"
        assert not bad, f"rank {rank} {stage} sp={sp} {strategy}: gradients differ in {bad[:4]} (largest difference {worst:g})"


@pytest.fixture(scope='module')
def two():
    return run_ranks(2, [('cpt', False, 2, 'sdpa', 'auto'), ('sft', True, 2, 'sdpa', 'auto'), ('dpo', True, 2, 'sdpa', 'auto'), ('eager', False, 2, 'eager', 'auto'),
                         ('kto', True, 2, 'sdpa', 'auto'), ('ckpt', True, 2, 'sdpa', 'auto')])


@pytest.fixture(scope='module')
def four():
    return run_ranks(4, [(stage, stage != 'cpt', sp, 'sdpa', 'auto') for sp in (4, 2) for stage in ('cpt', 'sft', 'dpo')]
                        + [('cpt', False, 2, 'sdpa', 'fsdp2'), ('sft', True, 2, 'sdpa', 'fsdp2')])


@pytest.mark.parametrize('stage', ['cpt', 'sft', 'dpo', 'eager', 'kto', 'ckpt'])
def test_sp2_equals_one_process(two, stage):
    """SP = 2 on 2 processes; `eager`: CPT through the eager kernel (a float mask, rebuilt for the whole sequence); `kto`: KTO on the DPO rows;
    `ckpt`: LoRA CPT with activation checkpointing (attention and its all-to-alls recomputed in backward)."""
    check([r for r in two if r[1] == stage])


@pytest.mark.parametrize('stage', ['cpt', 'sft', 'dpo'])
def test_sp4_equals_one_process(four, stage):
    check([r for r in four if r[1] == stage and r[2] == 4 and r[3] == 'auto'])


@pytest.mark.parametrize('stage', ['cpt', 'sft', 'dpo'])
def test_dp2_x_sp2_equals_one_process(four, stage):
    check([r for r in four if r[1] == stage and r[2] == 2 and r[3] == 'auto'])


@pytest.mark.parametrize('stage', ['cpt', 'sft'])
def test_fsdp2_dp2_x_sp2_equals_one_process(four, stage):
    "FSDP2 over the 4 processes (parameters and gradients sharded 4 ways), rows over 2 data-parallel groups, each row over 2 processes."
    check([r for r in four if r[1] == stage and r[3] == 'fsdp2'])


def test_the_comparison_can_fail():
    "The same check catches a gradient that differs (so the tests above mean something): a shard's loss counted twice."
    import torch
    want_loss, want, n = reference('cpt', False)
    m = tiny_model(False)
    b = rows('cpt')
    half = {k: v[:, T // 2:].contiguous() for k, v in b.items()}
    from azllm.engine import lm_loss
    (lm_loss(m, b, n)[0] + lm_loss(m, half, n)[0]).backward()
    bad = [k for k, p in m.named_parameters() if not torch.allclose(p.grad, want[k], **TOL)]
    assert bad


def test_bad_degrees_are_one_line(tmp_path):
    "sequence_parallel that does not divide the processes or the heads: one line, exit 2, before training."
    from conftest import azllm_in
    from azllm.core import AzllmError
    from azllm.engine import TrainConfig, resolve_plan
    from azllm.runtime import Runtime
    with pytest.raises(AzllmError, match='does not divide the 2 processes'):
        resolve_plan(TrainConfig(output_dir='x', train_data=['x'], sequence_parallel=4), Runtime(world=2))
    r = azllm_in('train', 'configs/cpt_tiny_base.yml', f'output_dir={tmp_path/"run"}', 'sequence_parallel=2', cwd=Path(__file__).parent.parent)
    assert r.returncode == 2 and 'sequence_parallel 2 does not divide the 1 processes' in r.stderr and 'Traceback' not in r.stderr, r.stderr[-2000:]


@pytest.mark.slow
@pytest.mark.usefixtures('one_thread')                  # the in-process run on one thread, as the two processes
def test_azllm_train_with_sequence_parallel_2(tmp_path, small_tokenizer):
    "`azllm train CONFIG sequence_parallel=2 --nproc 2` (torchrun, gloo): trains, and its losses and validation loss equal one process's."
    from conftest import azllm_in
    root = Path(__file__).parent.parent
    common = ['configs/cpt_tiny_base.yml', f'tokenizer={small_tokenizer}', 'max_steps=3', 'seq_len=64', 'micro_batch=2', 'grad_accum=1',
              'eval_every=0', 'eval_rows=8', 'save_every=3']    # no doc_mask: rows without position ids (the unit tests pack documents)
    one = azllm_in('train', *common, f'output_dir={tmp_path/"one"}', cwd=root)        # one process: this one
    assert one.returncode == 0, one.stderr[-3000:]
    with pytest.MonkeyPatch.context() as mp:                 # `azllm train --nproc 2` in this process; torchrun and its 2 processes are real
        mp.setenv('OMP_NUM_THREADS', '1')
        sp = azllm_in('train', *common, f'output_dir={tmp_path/"sp"}', 'sequence_parallel=2', '--nproc', '2', cwd=root)
    assert sp.returncode == 0 and 'azllm: launching 2 processes' in sp.stderr, sp.stderr[-3000:]
    s = json.loads((tmp_path/'sp'/'summary.json').read_text())
    assert s['world_size'] == 2 and s['sequence_parallel'] == 2
    losses = lambda run: [r['loss'] for r in map(json.loads, open(tmp_path/run/'log.jsonl')) if 'loss' in r]
    assert losses('sp') == pytest.approx(losses('one'), rel=1e-5)
    val = lambda run: [r['val_loss'] for r in map(json.loads, open(tmp_path/run/'log.jsonl')) if 'val_loss' in r]
    assert len(val("sp")) == 1 and val("sp") == pytest.approx(val("one"), rel=1e-5)     # validation sharded like training
    assert (tmp_path/'sp'/'final'/'config.json').exists()


def test_nccl_sp2_equals_one_process():
    "The same exactness on 2 GPUs through NCCL (SP = 2, CPT, LoRA SFT, DPO); skipped where fewer than 2 CUDA GPUs are visible."
    import torch
    if torch.cuda.device_count() < 2: pytest.skip('needs 2 CUDA GPUs')
    check(run_ranks(2, [('cpt', False, 2, 'sdpa', 'auto'), ('sft', True, 2, 'sdpa', 'auto'), ('dpo', True, 2, 'sdpa', 'auto'), ('sft', True, 2, 'sdpa', 'fsdp2')], cuda=True))
