"""GRPO: the loss equals TRL's GRPOTrainer on the same batch, completions, advantages and reference (every loss type, fp64,
with the clip binding), the advantages equal TRL's group form, and `azllm train` runs a grpo config with a reward from an
installed module named on the command line. CPU, tiny models."""
import math, sys, types
import pytest
import torch
import yaml
from conftest import DATA, nudged_peft
from azllm.tokenizer import load_tokenizer
from azllm.chats import check_chat_tokenizer
from azllm.model import load_model
from azllm.sft import lora_config
from azllm.objectives import objective, completion_logps
from azllm.grpo import group_advantages


pytestmark = pytest.mark.usefixtures('one_thread')     # (tests/conftest.py)


@pytest.fixture(scope='module')
def tok():
    return check_chat_tokenizer(load_tokenizer())


def grpo_batch(tok, B=6, P=7, C=5, seed=0):
    "Left-padded prompts and right-padded completions of different lengths, as sampling leaves them."
    g = torch.Generator().manual_seed(seed)
    prompt_ids = torch.randint(100, 5000, (B, P), generator=g)
    prompt_mask = torch.ones(B, P, dtype=torch.long)
    for i in range(B): prompt_mask[i, :i % 3] = 0; prompt_ids[i, :i % 3] = tok.pad_token_id
    completion_ids = torch.randint(100, 5000, (B, C), generator=g)
    completion_mask = torch.ones(B, C, dtype=torch.long)
    for i in range(B): completion_mask[i, C - i % C:] = 0 if i % C else 1
    completion_ids = completion_ids.masked_fill(completion_mask == 0, tok.pad_token_id)
    return prompt_ids, prompt_mask, completion_ids, completion_mask


@pytest.mark.parametrize('loss_type', ['grpo', 'dr_grpo', 'dapo'])
def test_loss_equals_trl_grpo_on_the_same_batch(loss_type, tok, tmp_path):
    "TRL 1.16's GRPOTrainer._compute_loss is the oracle: same model (LoRA, reference = adapter off), prompts, completions, advantages, old log-probs."
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer
    G, C, temperature, beta = 3, 5, 0.7, 0.04
    m = nudged_peft(tok).double()          # fp64 on both sides: what is left is a difference of method, not of rounding
    args = GRPOConfig(output_dir=str(tmp_path/'trl'), loss_type=loss_type, beta=beta, epsilon=0.2, epsilon_high=0.28, temperature=temperature,
                      num_generations=G, per_device_train_batch_size=2 * G, max_completion_length=C, use_cpu=True, bf16=False,
                      report_to='none', logging_steps=1)
    tr = GRPOTrainer(model=m, reward_funcs=lambda completions, **kw: [0.0] * len(completions), args=args,
                     train_dataset=Dataset.from_list([{'prompt': 'Salam'}] * 4), processing_class=tok)
    model = tr.model
    model.train()
    tr.current_gradient_accumulation_steps = 1          # what the Trainer's loop sets: one micro-batch per step, as here
    pid, pm, cid, cm = grpo_batch(tok, B=2 * G, C=C)
    ids, am = torch.cat([pid, cid], 1), torch.cat([pm, cm], 1)
    rewards = torch.tensor([1., 0., .5, 0., 0., 1.], dtype=torch.float64)
    adv = group_advantages(rewards, G)
    with torch.no_grad():
        pol = completion_logps(model, ids, am, C, temperature, chunk=None)
        old = pol + 0.3 * torch.randn(pol.shape, generator=torch.Generator().manual_seed(1), dtype=pol.dtype)   # an older policy: the clip binds
        with model.disable_adapter(): ref_trl = tr._get_per_token_logps_and_entropies(model, ids, am, C)[0]
        inputs = dict(prompt_ids=pid, prompt_mask=pm, completion_ids=cid, completion_mask=cm, advantages=adv, old_per_token_logps=old,
                      ref_per_token_logps=ref_trl, num_items_in_batch=cm.sum().double())
        theirs = tr._compute_loss(model, inputs).item()
        ours, sums = objective(loss_type, beta=beta, epsilon=0.2, epsilon_high=0.28, temperature=temperature, max_new_tokens=C)(
            model, dict(input_ids=ids, attention_mask=am, completion_mask=cm, advantages=adv, old_logps=old), 2 * G)
    print(f'{loss_type}: azllm {ours.item():.10f}  TRL {theirs:.10f}  rel diff {abs(ours.item() - theirs) / abs(theirs):.2e}')
    assert ours.item() == pytest.approx(theirs, rel=1e-5)
    assert sums['clip_ratio'].item() > 0                                    # the clip did bind somewhere
    with torch.no_grad():                                                   # the chunked head: the same loss
        chunked, _ = objective(loss_type, beta=beta, epsilon=0.2, epsilon_high=0.28, temperature=temperature, max_new_tokens=C)(
            model, dict(input_ids=ids, attention_mask=am, completion_mask=cm, advantages=adv, old_logps=old), 2 * G, chunk=4)
    assert chunked.item() == pytest.approx(theirs, rel=1e-5)


def test_advantages_equal_trls_group_form():
    "TRL's: (reward - group mean) / (its nanstd over the group + 1e-4), computed with TRL's own nanstd."
    from trl.trainer.utils import nanstd
    r = torch.tensor([3., 1., 0., 2., 2., 2., 5., 0., 1.], dtype=torch.float64)
    g = r.view(-1, 3)
    want = (r - g.mean(1).repeat_interleave(3)) / (nanstd(g, dim=1).repeat_interleave(3) + 1e-4)
    torch.testing.assert_close(group_advantages(r, 3), want)
    assert group_advantages(r, 3)[3:6].abs().max() == 0                     # a group that scored alike teaches nothing


def test_train_grpo_with_a_reward_from_an_installed_module(tmp_path, tok, capsys, monkeypatch):
    "`azllm train grpo.yml --reward-module M` runs, logs M's reward; without the flag the same config is refused in one line."
    from azllm.cli import main
    mod = types.ModuleType('azllm_test_rewards')
    mod.short = lambda completions, **_: [1.0 / (1 + len(c.split())) for c in completions]
    monkeypatch.setitem(sys.modules, 'azllm_test_rewards', mod)
    base = tmp_path/'base'
    load_model('preset:llama-tiny', tok).save_pretrained(base); tok.save_pretrained(base)
    cfg = dict(stage='grpo', output_dir=str(tmp_path/'run'), model=str(base), train_data=str(DATA/'az_math'/'train.jsonl'), max_steps=2,
               micro_batch=1, num_generations=2, max_new_tokens=4, seq_len=256, lora_r=4, lora_alpha=8, tensorboard=False, log_every=1,
               rewards={'short': 1.0, 'answer_format': 0.5})
    (tmp_path/'grpo.yml').write_text(yaml.safe_dump(cfg))
    assert main(['train', str(tmp_path/'grpo.yml')]) == 2
    err = capsys.readouterr().err
    assert "no reward named 'short'" in err and '--reward-module' in err and 'Traceback' not in err
    assert main(['train', str(tmp_path/'grpo.yml'), '--reward-module', './azllm_test_rewards.py']) == 2
    assert 'not a path' in capsys.readouterr().err
    assert main(['train', str(tmp_path/'grpo.yml'), '--reward-module', 'azllm_test_rewards']) in (0, None)
    from azllm.rundir import read_log
    recs = [r for r in read_log(tmp_path/'run') if 'reward_short' in r]
    assert len(recs) == 2 and all(0 < r['reward_short'] <= 1 and math.isfinite(r['loss']) for r in recs)


def test_shipped_grpo_recipes_validate():
    from azllm.config import load_config
    from azllm.grpo import GRPORun
    from conftest import ROOT
    got = sorted((ROOT/'configs').glob('grpo_*.yml'))
    assert [f.name for f in got] == ['grpo_llama-3.2-1b.yml', 'grpo_tiny.yml']
    for f in got: load_config(f, GRPORun)


@pytest.mark.slow
def test_grpo_under_ddp_on_two_processes_with_a_user_reward(tmp_path, tok, monkeypatch):
    """`azllm train grpo.yml --nproc 2 --reward-module M`: both processes sample, score with M's reward (passed on to them) and meet in
    DAPO's token count. The command itself runs in this process; torchrun and its two training processes are real."""
    import json, os
    from conftest import ROOT, azllm_in
    (tmp_path/'mods').mkdir()
    (tmp_path/'mods'/'my_az_rewards.py').write_text("def short(completions, **_):\n    return [1.0 / (1 + len(c.split())) for c in completions]\n")
    load_model('preset:llama-tiny', tok).save_pretrained(tmp_path/'base'); tok.save_pretrained(tmp_path/'base')
    cfg = dict(stage='grpo', output_dir=str(tmp_path/'run'), model=str(tmp_path/'base'), train_data=str(DATA/'az_math'/'train.jsonl'),
               valid_data=str(DATA/'az_math'/'valid.jsonl'), max_steps=2, micro_batch=1, num_generations=2, max_new_tokens=4, seq_len=256,
               lora_r=4, lora_alpha=8, eval_rows=4, log_every=1, tensorboard=False, rewards={'short': 1.0, 'answer_format': 0.5})
    (tmp_path/'grpo.yml').write_text(yaml.safe_dump(cfg))
    monkeypatch.setenv('PYTHONPATH', os.pathsep.join([str(tmp_path/'mods'), str(ROOT)])); monkeypatch.setenv('OMP_NUM_THREADS', '1')   # the processes'
    monkeypatch.syspath_prepend(str(tmp_path/'mods'))                                                                                 # and this one's
    r = azllm_in('train', tmp_path/'grpo.yml', '--nproc', '2', '--reward-module', 'my_az_rewards')
    assert r.returncode == 0 and 'azllm: launching 2 processes' in r.stderr, r.stderr[-3000:]
    s = json.loads((tmp_path/'run'/'summary.json').read_text())
    assert s['world_size'] == 2 and s['strategy'] == 'ddp'
    recs = [json.loads(l) for l in open(tmp_path/'run'/'log.jsonl')]
    assert [x['step'] for x in recs if 'reward_short' in x] == [1, 2]
    assert [x for x in recs if 'val_reward' in x][-1]['val_prompts'] == 4          # the held-out prompts split over both processes


def test_the_memory_check_counts_every_sampled_sequence(monkeypatch):
    "GRPO's micro-batch counts prompts; the step's memory floor is checked for prompts x num_generations sequences, and the refusal says so."
    from types import SimpleNamespace
    from azllm import sizing
    from azllm.core import AzllmError
    from azllm.grpo import GRPORun
    seen = []
    def floor(model, cfg, rows, plan):
        seen.append(rows); return dict(total=10.0 * rows, state=1.0, activations=10.0 * rows - 1, logits=0.0)
    monkeypatch.setattr(sizing, 'step_memory_gib', floor)
    cfg = GRPORun(output_dir='runs/x', model='runs/sft', train_data=[str(DATA/'az_math'/'train.jsonl')], micro_batch=3, num_generations=5)
    sizing.check_step_fits(None, cfg, 3, SimpleNamespace(memory_gib=1000.0, cuda=True))
    assert seen == [15]
    with pytest.raises(AzllmError, match=r'micro_batch 3 \(15 sequences\) x seq_len'):
        sizing.check_step_fits(None, cfg, 3, SimpleNamespace(memory_gib=100.0, cuda=True))


@pytest.mark.slow
def test_grpo_sigkill_then_resume_reproduces_the_run(tmp_path, tok, capsys):
    "A GRPO run killed right after its first checkpoint resumes to the same samples' rewards and losses as a run never killed (the sampler's RNG is in the checkpoint)."
    import json
    from test_engine import train_here
    from test_kills import kill_at
    load_model('preset:llama-tiny', tok).save_pretrained(tmp_path/'base'); tok.save_pretrained(tmp_path/'base')
    def write(name):
        cfg = dict(stage='grpo', output_dir=str(tmp_path/name), model=str(tmp_path/'base'), train_data=str(DATA/'az_math'/'train.jsonl'),
                   max_steps=4, save_every=2, keep_last=1, micro_batch=1, num_generations=3, max_new_tokens=6, seq_len=256, lora_r=4,
                   lora_alpha=8, lr=5e-3, tensorboard=False, log_every=1, rewards={'length_band': 1.0, 'answer_format': 0.5}, length_band=[1, 3])
        (tmp_path/f'{name}.yml').write_text(yaml.safe_dump(cfg)); return tmp_path/f'{name}.yml'
    train_here(write('full'))
    kill_at('after_commit', write('killed'), tmp_path/'killed')
    capsys.readouterr()
    train_here(tmp_path/'killed.yml')
    assert 'resumed from' in ''.join(capsys.readouterr())
    logged = lambda run, key: {r['step']: r[key] for r in map(json.loads, open(tmp_path/run/'log.jsonl')) if key in r}
    for key in ('loss', 'reward', 'completion_len', 'kl'):
        again, want = logged('killed', key), logged('full', key)
        assert sorted(want) == [1, 2, 3, 4] and again.keys() >= want.keys(), key
        for s in want: assert again[s] == pytest.approx(want[s], rel=1e-5, abs=1e-7), (key, s)
    assert len(set(logged('full', 'reward').values())) > 1                         # the samples differ from step to step


def test_the_throughput_summary_compares_rows_of_one_run_and_names_the_strongest_baseline():
    "benchmarks/grpo_throughput.py: a speed-up between rows of two runs (two machines) is kept apart; the GRPO step is compared with the faster TRL row of its own run."
    import runpy
    from conftest import ROOT
    b = runpy.run_path(str(ROOT/'benchmarks'/'grpo_throughput.py'))
    rows = dict(gen_hf=dict(tok_per_s=100.0, run=0), gen_engine=dict(tok_per_s=400.0, run=1), grpo_azllm=dict(step_s=2.0, run=1),
                grpo_trl=dict(step_s=10.0, run=1), grpo_trl_static=dict(step_s=8.0, run=1))
    s = b['summarize'](rows)
    assert s['generation_speedup_across_runs'] == 4.0 and 'generation_speedup' not in s
    assert s['strongest_trl'] == 'grpo_trl_static' and s['step_speedup_over_strongest_trl'] == 4.0 and s['step_speedup_over_trl'] == 5.0
    rows['grpo_trl_static']['run'] = 0                                # a faster baseline from another machine is not the one compared
    assert b['summarize'](rows)['strongest_trl'] == 'grpo_trl' and 'step_speedup_over_trl_static_across_runs' in b['summarize'](rows)
