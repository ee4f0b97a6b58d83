"""GRPO learns: the completions scored in training are the tokens the sampler drew (their log-probabilities recomputed by the
training forward equal the sampler's, stop tokens and padding included), and a short GRPO run through `azllm train` raises
a reward the model can learn (a positive control: it fails if the sampling -> scoring -> advantage -> update chain breaks).
CPU, tiny models."""
import json, sys, types
import pytest
import torch
import yaml
from conftest import nudged_peft
from azllm.tokenizer import load_tokenizer
from azllm.chats import check_chat_tokenizer
from azllm.model import load_model
from azllm.objectives import completion_logps
from azllm.generate import stop_ids
from azllm.grpo import PromptSet, check_prompt, sample_group
import azllm.decode


pytestmark = pytest.mark.usefixtures('one_thread')     # (tests/conftest.py)


@pytest.fixture(scope='module')
def tok():
    return check_chat_tokenizer(load_tokenizer())


@pytest.mark.parametrize('temperature', [1.0, 0.7])
def test_sampled_logps_equal_the_training_forwards(temperature, tok, monkeypatch):
    """The sampler's log-probability of each token it drew (at the sampling temperature, read from the logits it sampled
    from) equals `completion_logps` of the training forward on `sample_group`'s ids and masks, position by position, for
    prompts of different lengths (left padding) and rows that stop at different steps (a stop token, then padding)."""
    model = nudged_peft(tok)
    model.train()                                       # as in a training step (no dropout: lora_dropout 0)
    rows = [check_prompt({'prompt': p}, 'test') for p in ('Salam', 'Bir iki üç dörd beş altı yeddi səkkiz', 'Bakı')]
    data = PromptSet(rows, tok, 2, 100)
    stop, seen, step = stop_ids(tok), [], [0]
    stops_at = {0: 1, 3: 3, 4: 0}                        # row -> the step it is made to draw a stop token at (others run to the end)
    real = azllm.decode.pick_next

    def recording(logits, t, top_p=1.0):
        nxt = real(logits, t, top_p)
        for r, s in stops_at.items():
            if s == step[0]: nxt[r] = stop[0]
        seen.append(torch.log_softmax(logits.float() / t, -1).gather(1, nxt[:, None])[:, 0])
        step[0] += 1
        return nxt
    monkeypatch.setattr(azllm.decode, 'pick_next', recording)
    ids, am, cm, texts = sample_group(model, tok, data, [0, 1, 2], 2, 6, temperature)
    C = cm.shape[1]
    assert C == 6 and cm.shape == (6, 6) and ids.shape[1] == am.shape[1] == max(len(x) for x in data.ids) + C
    for r, s in stops_at.items():                       # the mask holds the stop token and nothing after it
        assert cm[r].tolist() == [1] * (s + 1) + [0] * (C - s - 1) and ids[r, -C + s].item() == stop[0]
    assert cm[[1, 2, 5]].all()
    assert texts == tok.batch_decode([c[m.bool()] for c, m in zip(ids[:, -C:], cm)], skip_special_tokens=True)
    sampler = torch.stack(seen[:C], 1)
    with torch.no_grad():
        for chunk in (None, 4):                         # the full logits and the chunked head
            train = completion_logps(model, ids, am, C, temperature, chunk)
            torch.testing.assert_close(train * cm, sampler * cm, atol=2e-5, rtol=1e-5)
    assert (sampler * cm).sum() < 0                     # the comparison read real log-probabilities


def planted_base(tok, out, norm:float=1.0):
    """A tiny random Llama whose tokens holding a digit share one extra embedding direction (of length `norm`), as a
    pretrained model's related tokens do. A random model has no such structure: its logits are flat (every token near
    log 1/vocab), and LoRA cannot raise a whole class of tokens whose embeddings share nothing, so no class reward is learnable."""
    m = load_model('preset:llama-tiny', tok)
    emb = m.get_input_embeddings().weight
    digit = torch.tensor([any(ch.isdigit() for ch in t) for t in tok.convert_ids_to_tokens(list(range(emb.shape[0])))])
    u = torch.randn(emb.shape[1], generator=torch.Generator().manual_seed(123))
    with torch.no_grad(): emb[digit] += u / u.norm() * norm
    m.save_pretrained(out); tok.save_pretrained(out)
    return out


@pytest.mark.parametrize('seed', [0, pytest.param(1, marks=pytest.mark.extended)])   # the second seed in CI's extended leg
def test_grpo_raises_a_learnable_reward(seed, tok, tmp_path, monkeypatch):
    """Positive control: `azllm train` on a grpo config whose reward (the completion holds a digit) fires on about a third of
    the samples at the start; within 12 steps the mean reward of the step's samples rises clearly (to about 0.8)."""
    from azllm.cli import main
    from azllm.rundir import read_log
    mod = types.ModuleType('azllm_control_rewards')
    mod.has_digit = lambda completions, **_: [float(any(ch.isdigit() for ch in c)) for c in completions]
    monkeypatch.setitem(sys.modules, 'azllm_control_rewards', mod)
    base = planted_base(tok, tmp_path/'base')
    (tmp_path/'prompts.jsonl').write_text(''.join(json.dumps({'prompt': f'Ədəd {i}'}) + '\n' for i in range(16)))
    cfg = dict(stage='grpo', output_dir=str(tmp_path/'run'), model=str(base), train_data=str(tmp_path/'prompts.jsonl'), max_steps=12,
               micro_batch=2, num_generations=8, max_new_tokens=8, seq_len=64, temperature=1.0, beta=0.0, lr=1e-2, lr_scheduler='constant',
               lora_r=8, lora_alpha=16, seed=seed, rewards={'has_digit': 1.0}, tensorboard=False, log_every=1, save_every=10**6)
    (tmp_path/'grpo.yml').write_text(yaml.safe_dump(cfg))
    assert main(['train', str(tmp_path/'grpo.yml'), '--reward-module', 'azllm_control_rewards']) in (0, None)
    r = [x['reward'] for x in read_log(tmp_path/'run') if 'reward' in x]
    first, last = r[0], sum(r[-4:]) / 4                 # step 1 samples the untrained policy
    print(f'seed {seed}: reward per step', ' '.join(f'{x:.2f}' for x in r), f'| step 1 {first:.2f}, last 4 steps {last:.2f}')
    assert len(r) == 12 and first < 0.5 and last > 0.65 and last > first + 0.25
