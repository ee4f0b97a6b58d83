"""Stage 3b, DPO/IPO: the loss equals TRL's DPOTrainer on the same batch (both loss types, both tokenizers), the data errors
a user can make, and a run killed with SIGKILL that resumes to the same losses. CPU, tiny models."""
import json, math, os, signal, subprocess, sys
from pathlib import Path
import pytest
import torch
import yaml
from conftest import DATA, ROOT
from azllm.core import AzllmError, load_config
from azllm.data import read_documents
from azllm.model import load_model
from azllm.tokenizer import train_tokenizer, load_tokenizer
from azllm.sft import check_chat_tokenizer, lora_config
from azllm.packing import pack_rows
from azllm.dpo import read_pairs, encode_pairs, PackedPairs, dpo_loss, DPORun, run_dpo


@pytest.fixture(scope='module', autouse=True)
def one_thread():
    n = torch.get_num_threads(); torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


@pytest.fixture(scope='module')
def toks():
    return {'custom': check_chat_tokenizer(train_tokenizer(read_documents(DATA/'az_train.txt'), 2000)),
            'llama3': check_chat_tokenizer(load_tokenizer())}


def nudged_peft(tok):
    "A tiny Llama with a LoRA adapter whose B matrices are not zero, so the policy differs from the reference."
    from peft import get_peft_model
    m = load_model('preset:llama-tiny', tok)
    m = get_peft_model(m, lora_config(m, 4, 8, 0.0))
    with torch.no_grad():
        for i, (n, p) in enumerate(m.named_parameters()):
            if 'lora_B' in n: p.normal_(0, 0.5, generator=torch.Generator().manual_seed(i))
    return m


def shortest(rows, per_kind=1):
    "The shortest pair of each kind (a wrong fact, Turkish forms, an unhelpful reply): fast at 128k vocab."
    out = []
    for kind in ('factual', 'turkish', 'unhelpful'):
        mine = [r for r in rows if r['kind'] == kind]
        out += sorted(mine, key=lambda r: len(json.dumps(r, ensure_ascii=False)))[:per_kind]
    return out


@pytest.mark.parametrize('loss_type', ['sigmoid', 'ipo'])
@pytest.mark.parametrize('which', ['custom', 'llama3'])
def test_loss_equals_trl_on_the_same_batch(which, loss_type, toks, tmp_path):
    "TRL 1.16's DPOTrainer (LoRA, reference = adapter disabled) is the oracle: same pairs, same model, same loss and rewards."
    from datasets import Dataset
    from trl import DPOConfig, DPOTrainer
    tok = toks[which]
    rows = [json.loads(l) for l in (DATA/'dpo'/'train.jsonl').read_text(encoding='utf-8').splitlines()[:60]]
    rows = [{k: r[k] for k in ('prompt', 'chosen', 'rejected')} for r in shortest(rows)]
    m = nudged_peft(tok).double()       # fp64 on both sides: what is left is a difference of method, not of rounding
    beta = 0.1 if loss_type == 'sigmoid' else 0.5
    tr = DPOTrainer(model=m, args=DPOConfig(output_dir=str(tmp_path/'trl'), beta=beta, loss_type=[loss_type], max_length=None,
                                            per_device_train_batch_size=len(rows), use_cpu=True, bf16=False, report_to='none',
                                            dataset_num_proc=None),
                    train_dataset=Dataset.from_list(rows), processing_class=tok)
    # TRL copies an adapter it is given as its reference ("ref"); without that copy its reference is the adapter disabled, as ours
    assert 'ref' in tr.model.peft_config
    tr.model.delete_adapter('ref'); tr.model.set_adapter('default')
    batch = next(iter(tr.get_train_dataloader()))
    m.train()
    with torch.no_grad():
        l_trl = tr.compute_loss(tr.model, batch).item()
    metrics = {k: v[-1] for k, v in tr._metrics['train'].items()}
    (tmp_path/'p.jsonl').write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')
    exs, _ = encode_pairs(read_pairs(tmp_path/'p.jsonl'), tok, 8192)
    pack_rows(exs, 8192, tmp_path/'rows')
    data = PackedPairs(tmp_path/'rows', tok.pad_token_id)
    assert len(data) == 1 and data.count([0]) == len(rows)                      # all pairs packed into one row
    assert int((data.batch([0])['shift_labels'] != -100).sum()) == int(batch['completion_mask'].sum())   # the same scored tokens
    with torch.no_grad():
        l_ours, sums = dpo_loss(tr.model, data.batch([0]), len(rows), loss_type, beta)
    print(f'{which} {loss_type}: azllm {l_ours.item():.8f}  TRL {l_trl:.8f}  rel diff {abs(l_ours.item() - l_trl) / abs(l_trl):.2e}')
    assert l_ours.item() == pytest.approx(l_trl, rel=1e-5)
    assert l_trl != pytest.approx(math.log(2), rel=1e-3)                        # the policy really differs from the reference
    for ours, theirs in (('reward_accuracy', 'rewards/accuracies'), ('rewards_chosen', 'rewards/chosen'),
                         ('rewards_rejected', 'rewards/rejected'), ('reward_margin', 'rewards/margins')):
        assert sums[ours].item() / len(rows) == pytest.approx(metrics[theirs], abs=beta * 1e-3), ours       # TRL's fused LM head sums log-probs in fp32
