"""What users of Axolotl, LLaMA-Factory and TRL bring: Alpaca and ShareGPT chat data, sampling flags for `chat`,
an adapter exported as it is, and `llama3` as the name of the built-in tokenizer. In-process, tiny models, seconds."""
import json
from pathlib import Path
import pytest
import torch
from conftest import DATA
from azllm.cli import main
from azllm.core import AzllmError
from azllm.data import read_documents
from azllm.model import load_model
from azllm.tokenizer import train_tokenizer, load_tokenizer
from azllm.chats import read_chats, to_messages, chat_format
from azllm.adapters import export_adapter
from azllm.generate import generate, load_chat_model, chat

ALPACA = {'instruction': 'Balansımı necə yoxlayım?', 'input': '', 'output': '*100# yığın.'}
SHAREGPT = {'conversations': [{'from': 'system', 'value': 'Sən köməkçisən.'}, {'from': 'human', 'value': 'Salam'},
                              {'from': 'gpt', 'value': 'Salam! Necə kömək edim?'}]}


def write_jsonl(path, rows):
    path.write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')
    return path


@pytest.fixture(scope='module')
def tiny(tmp_path_factory):
    "A 600-token tokenizer, the tiny preset saved with it, and a LoRA adapter on it (untrained, B random so it changes logits)."
    from peft import LoraConfig, get_peft_model
    d = tmp_path_factory.mktemp('fmt')
    tok = train_tokenizer(read_documents(DATA/'az_valid.txt'), 600, quiet=True)
    load_model('preset:llama-tiny', tok).save_pretrained(d/'base'); tok.save_pretrained(d/'base')
    torch.manual_seed(0)
    m = get_peft_model(load_model(str(d/'base')), LoraConfig(r=4, target_modules=['q_proj', 'v_proj'], init_lora_weights=False))
    m.save_pretrained(d/'adapter')                                     # records the base path; no tokenizer inside
    return dict(dir=d, tok=tok, base=d/'base', adapter=d/'adapter')


# ---------------------------------------------------------------- data formats

def test_alpaca_and_sharegpt_become_messages(tmp_path, capsys):
    write_jsonl(tmp_path/'a.jsonl', [ALPACA, dict(ALPACA, input='Nömrəm: 050', system='Qısa cavab ver.')])
    write_jsonl(tmp_path/'b.jsonl', [SHAREGPT, {'conversations': [{'from': 'user', 'value': 'Q'}, {'from': 'assistant', 'value': 'A'}]}])
    write_jsonl(tmp_path/'c.jsonl', [{'messages': [{'role': 'user', 'content': 'Q'}, {'role': 'assistant', 'content': 'A'}]}])
    chats = read_chats(tmp_path)
    out = capsys.readouterr().out.splitlines()
    assert out == [f'{tmp_path/"a.jsonl"}: 2 Alpaca examples converted to messages',
                   f'{tmp_path/"b.jsonl"}: 2 ShareGPT examples converted to messages']      # one line per file; none for messages
    assert chats[1]['messages'] == [{'role': 'system', 'content': 'Qısa cavab ver.'},
                                    {'role': 'user', 'content': 'Balansımı necə yoxlayım?\n\nNömrəm: 050'},
                                    {'role': 'assistant', 'content': '*100# yığın.'}]
    assert [m['role'] for m in chats[2]['messages']] == ['system', 'user', 'assistant']
    assert chats[3]['messages'][-1] == {'role': 'assistant', 'content': 'A'} and chats[2]['where'].endswith('b.jsonl:1')


def test_other_shapes_list_the_three_accepted(tmp_path):
    f = write_jsonl(tmp_path/'t.jsonl', [ALPACA, {'prompt': 'Salam', 'completion': 'Salam!'}])
    with pytest.raises(AzllmError, match=r't.jsonl:2: not a chat example \(fields: prompt, completion\); .*"messages".*'
                                         r'\(messages\).*"instruction".*\(Alpaca\).*"conversations".*\(ShareGPT\)'):
        read_chats(f)
    with pytest.raises(AzllmError, match=r"t.jsonl:1: ShareGPT turn 1 has from='bot'"):
        read_chats(write_jsonl(f, [{'conversations': [{'from': 'human', 'value': 'Q'}, {'from': 'bot', 'value': 'A'}]}]))
    assert chat_format({'text': 'x'}) is None and to_messages({'messages': []}) == {'messages': []}


def test_datasets_directory_in_alpaca_shape(tmp_path, capsys):
    import datasets
    datasets.Dataset.from_list([ALPACA, ALPACA]).save_to_disk(str(tmp_path/'ds'))
    assert [c['messages'][0]['role'] for c in read_chats(tmp_path/'ds')] == ['user', 'user']
    assert 'converted to messages' in capsys.readouterr().out
    datasets.Dataset.from_list([{'text': 'salam'}]).save_to_disk(str(tmp_path/'bad'))
    with pytest.raises(AzllmError, match=r'not chat data \(columns: text\); each example must be one of'): read_chats(tmp_path/'bad')


# ---------------------------------------------------------------- chat sampling flags

def test_temperature_and_top_p_reach_generate(tiny):
    model, tok = load_chat_model(tiny['base'])
    q = [{'role': 'system', 'content': 'Qısa cavab ver.'}, {'role': 'user', 'content': 'Salam'}]
    greedy = generate(model, tok, q, max_new_tokens=6)
    assert generate(model, tok, q, max_new_tokens=6, top_p=0.5) == greedy           # top_p alone keeps greedy
    torch.manual_seed(0); a = generate(model, tok, q, max_new_tokens=6, temperature=5.0, top_p=0.9)
    torch.manual_seed(0); b = generate(model, tok, q, max_new_tokens=6, temperature=5.0, top_p=0.9)
    assert a == b                                                                        # seeded sampling repeats
    with pytest.raises(AzllmError, match='top_p must be in'): chat(tiny['base'], prompt='Salam', top_p=0)
    with pytest.raises(AzllmError, match='temperature must be 0'): chat(tiny['base'], prompt='Salam', temperature=-1)


def test_chat_cli_passes_system_temperature_top_p(tiny, monkeypatch):
    import azllm.generate
    seen = {}
    monkeypatch.setattr(azllm.generate, 'chat', lambda *a, **kw: seen.update(kw))
    assert main(['chat', str(tiny['base']), '--prompt', 'Salam', '--system', 'S', '--temperature', '0.7', '--top-p', '0.9']) == 0
    assert (seen['system'], seen['temperature'], seen['top_p']) == ('S', 0.7, 0.9)


# ---------------------------------------------------------------- export without --merge

def test_export_copies_the_adapter_with_its_tokenizer(tiny, tmp_path, capsys):
    from peft import PeftModel
    assert main(['export', str(tiny['adapter']), '--out', str(tmp_path/'shipped')]) == 0
    assert 'PeftModel.from_pretrained' in capsys.readouterr().out
    shipped = tmp_path/'shipped'
    assert {'adapter_config.json', 'adapter_model.safetensors', 'tokenizer.json'} <= {p.name for p in shipped.iterdir()}
    x = torch.tensor([[tiny['tok'].bos_token_id, 300, 301, 302]])
    a = PeftModel.from_pretrained(load_model(str(tiny['base'])), str(shipped)).eval()
    b = PeftModel.from_pretrained(load_model(str(tiny['base'])), str(tiny['adapter'])).eval()
    with torch.no_grad(): assert torch.equal(a(x).logits, b(x).logits)
    assert len(load_tokenizer(shipped)) == len(tiny['tok'])                              # the base's tokenizer came along
    with pytest.raises(AzllmError, match='not an adapter directory'): export_adapter(tiny['base'], tmp_path/'x')
    with pytest.raises(AzllmError, match='is .*, which this command reads'): export_adapter(tiny['adapter'], tiny['adapter'])


def test_export_model_flag_needs_merge(tiny, tmp_path, capsys):
    assert main(['export', str(tiny['adapter']), '--model', str(tiny['base']), '--out', str(tmp_path/'o')]) == 2
    assert 'without --merge' in capsys.readouterr().err


# ---------------------------------------------------------------- the llama3 name

def test_llama3_names_the_builtin_tokenizer(tmp_path):
    from azllm.cpt import CPTRun, prepare_model
    from azllm.sft import SFTRun, sft_tokenizer
    assert len(load_tokenizer('llama3')) == len(load_tokenizer()) == 128_256
    assert len(sft_tokenizer(SFTRun(output_dir='o', model='preset:llama-tiny', tokenizer='llama3', train_data='d'))) == 128_256
    _, tok, _ = prepare_model(CPTRun(output_dir='o', train_data=['d'], tokenizer='llama3'))
    assert len(tok) == 128_256
