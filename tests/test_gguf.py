"""GGUF export: a tiny merged model with each tokenizer (custom, Llama 3), written as f16 and q8_0, read back with transformers'
GGUF loader; token ids and logits on held-out Azerbaijani text match within the tolerance of each tensor type. CPU, seconds."""
import json
import pytest
import torch
from conftest import DATA
from azllm.core import AzllmError
from azllm.data import read_documents
from azllm.model import load_model
from azllm.tokenizer import train_tokenizer, load_tokenizer
from azllm.sft import check_chat_tokenizer

pytest.importorskip('gguf')
from azllm.gguf_export import export_gguf, write_gguf, round_trip, TOLERANCE, QUANTS


@pytest.fixture(scope='module', autouse=True)
def one_thread():
    n = torch.get_num_threads(); torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


@pytest.fixture(scope='module')
def merged(tmp_path_factory):
    "Tiny random Llamas saved as merged model directories, one per tokenizer."
    d = tmp_path_factory.mktemp('gguf')
    out = {}
    for name, tok in (('custom', train_tokenizer(read_documents(DATA/'az_train.txt'), 2000)), ('llama3', load_tokenizer())):
        tok = check_chat_tokenizer(tok)
        load_model('preset:llama-tiny', tok).save_pretrained(d/name); tok.save_pretrained(d/name)
        out[name] = d/name
    return out


@pytest.mark.parametrize('quant', QUANTS)
@pytest.mark.parametrize('which', ['custom', 'llama3'])
def test_round_trip_through_transformers(which, quant, merged, tmp_path):
    f = export_gguf(merged[which], tmp_path/'out', quant, verify_docs=6)
    rep = json.loads((f.parent/'round_trip.json').read_text())
    assert rep['ok'] and rep['ids_identical'] == rep['documents'] == 6
    assert rep['rel_logit_diff'] <= TOLERANCE[quant]['rel_logit'] and rep['top1_agreement'] >= TOLERANCE[quant]['top1']
    assert all(a == b for a, b in rep['special_ids'].values())
    from transformers import AutoTokenizer
    from gguf import GGUFReader
    g = AutoTokenizer.from_pretrained(str(f.parent), gguf_file=f.name)
    src = load_tokenizer(merged[which])
    assert g.chat_template == src.chat_template                                 # the chat template travels in the file
    fields = GGUFReader(str(f)).fields
    eot = int(fields['tokenizer.ggml.eot_token_id'].parts[-1][0])
    assert eot == src.convert_tokens_to_ids('<|eot_id|>')                       # llama.cpp stops at the end of a turn
    assert bytes(fields['tokenizer.ggml.pre'].parts[-1]).decode() == 'llama-bpe'


def test_a_broken_file_is_caught_and_nothing_is_kept(merged, tmp_path, monkeypatch):
    "Remove the q/k permutation: the file still loads, but the logits no longer match, and the export refuses to keep it."
    import azllm.gguf_export as ge
    monkeypatch.setattr(ge, 'rope_permute', lambda w, n: w)
    with pytest.raises(AzllmError, match='does not reproduce the model'): export_gguf(merged['custom'], tmp_path/'out', 'f16', verify_docs=2)
    assert not (tmp_path/'out').exists()


def test_bad_inputs(merged, tmp_path, capsys):
    from azllm.cli import main
    assert main(['export', str(tmp_path/'nope'), '--gguf', '--out', str(tmp_path/'o')]) == 2
    assert 'not an adapter directory nor a model directory' in capsys.readouterr().err
    with pytest.raises(SystemExit): main(['export', str(merged['custom']), '--gguf', '--quant', 'q4_k', '--out', str(tmp_path/'o')])
    (tmp_path/'mine').mkdir(); (tmp_path/'mine'/'notes.txt').write_text('keep')
    assert main(['export', str(merged['custom']), '--gguf', '--out', str(tmp_path/'mine')]) == 2
    assert 'was not made by azllm' in capsys.readouterr().err and (tmp_path/'mine'/'notes.txt').read_text() == 'keep'
