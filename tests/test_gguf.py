"""GGUF export: a tiny merged model with each tokenizer (custom, Llama 3), written as f16 and q8_0, read back (azllm's reader into a
transformers Llama); tensors, token ids and logits on held-out Azerbaijani text match within the tolerance of each tensor type. CPU, seconds."""
import json
import pytest
import torch
from conftest import DATA
from azllm.core import AzllmError
from azllm.data import read_documents
from azllm.model import load_model
from azllm.tokenizer import train_tokenizer, load_tokenizer
from azllm.chats import check_chat_tokenizer

pytest.importorskip('gguf')
from azllm.gguf_export import write_gguf, TOLERANCE, LLAMA_CPP_TOLERANCE, QUANTS
from azllm.deploy import export_gguf
import importlib.util
LLAMA_CPP = importlib.util.find_spec('llama_cpp') is not None       # llama-cpp-python compiles llama.cpp on install: not in CI


pytestmark = pytest.mark.usefixtures('one_thread')     # (tests/conftest.py)


def gguf_metadata(f):
    "A file's keys and tensor names: transformers 5's header reader, or gguf's own (slower) where transformers is older."
    try: from transformers.integrations.gguf.reader import read_gguf_metadata
    except ImportError:
        from gguf import GGUFReader
        r = GGUFReader(str(f))
        return {k: v.contents() for k, v in r.fields.items()}, [t.name for t in r.tensors]
    return read_gguf_metadata(str(f))


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


@pytest.mark.parametrize('which, quant', [('custom', 'f16'), ('custom', 'q8_0'), ('llama3', 'f16'), ('llama3', 'q8_0')])
def test_round_trip_through_transformers(which, quant, merged, tmp_path):
    f = export_gguf(merged[which], tmp_path/'out', quant, verify_docs=6)
    rep = json.loads((f.parent/'round_trip.json').read_text())
    assert rep['ok'] and rep['ids_identical'] == rep['documents'] == 6
    assert rep['rel_logit_diff'] <= TOLERANCE[quant]['rel_logit'] and rep['top1_agreement'] >= TOLERANCE[quant]['top1']
    assert all(a == b for a, b in rep['special_ids'].values())
    assert rep['chat_template_identical']                                          # the chat template travels in the file
    assert rep['max_abs_logit_diff'] == 0                  # the weights as the file stores them: the same numbers on both sides
    assert rep['tensors_identical'] == rep['tensors'] and not rep['tensors_differing']            # bit for bit
    meta, tensors = gguf_metadata(f)
    src = load_tokenizer(merged[which])
    assert meta['tokenizer.ggml.eot_token_id'] == src.convert_tokens_to_ids('<|eot_id|>')   # llama.cpp stops at the end of a turn
    assert meta['tokenizer.ggml.pre'] == 'llama-bpe' and meta['general.file_type'] == {'f16': 1, 'q8_0': 7}[quant]
    assert 'rope_freqs.weight' not in tensors                                      # plain RoPE: no divisors
    if LLAMA_CPP:                                                                  # llama.cpp itself is the second judge
        c = rep['llama_cpp']
        assert c['ok'] and c['ids_identical'] == 6 and c['chat_template_rendered_identical'] and c['stops_at_eot']
        assert c['rel_logit_diff'] <= LLAMA_CPP_TOLERANCE[quant]['rel_logit'] and 'llama.cpp itself' in rep['reader']


def test_the_check_reads_the_tokenizer_as_llama_cpp_does(merged, tmp_path, monkeypatch):
    """The file's tokenizer is rebuilt from its keys by llama.cpp's llama-bpe rules, not by transformers' GGUF tokenizer reader,
    which differs between versions (5.17 gives a Llama file's eos the bos token and splits digits by GPT-2's regex)."""
    import transformers
    from azllm.gguf_export import read_gguf_tokenizer, gguf_tokenizer
    real = transformers.AutoTokenizer.from_pretrained
    def no_gguf(*a, **k):
        assert 'gguf_file' not in k, "the check read the file's tokenizer with transformers"
        return real(*a, **k)
    monkeypatch.setattr(transformers.AutoTokenizer, 'from_pretrained', no_gguf)
    f = export_gguf(merged['custom'], tmp_path/'out', 'f16', verify_docs=2)
    tok, gtok = load_tokenizer(merged['custom']), gguf_tokenizer(read_gguf_tokenizer(f))
    text = "2024-cü ildə 1234567 manat ödədim, it's 12:30.<|eot_id|>\n\n  Salam"   # digits by threes, apostrophes, a special, spaces
    assert gtok.encode(text).ids == tok(text)['input_ids']


@pytest.mark.parametrize('corrupt', ['swap', 'eos'])
def test_a_wrong_vocabulary_or_eos_is_refused(corrupt, merged, tmp_path, monkeypatch):
    "Two tokens swapped in the file's vocabulary, or eos written as bos: the export refuses and keeps nothing."
    import azllm.gguf_export as ge
    real = ge.tokenizer_metadata
    def broken(tok):
        m = real(tok)
        if corrupt == 'eos': m['eos'] = m['bos']
        else:
            a, b = (tok(read_documents(DATA/'az_valid.txt').__next__())['input_ids'][i] for i in (1, 2))
            m['tokens'][a], m['tokens'][b] = m['tokens'][b], m['tokens'][a]
        return m
    monkeypatch.setattr(ge, 'tokenizer_metadata', broken)
    with pytest.raises(AzllmError, match='does not reproduce the model') as e: export_gguf(merged['custom'], tmp_path/'out', 'f16', verify_docs=2)
    tok = load_tokenizer(merged['custom'])
    what = ("'eos': [%d, %d]" % (tok.eos_token_id, tok.bos_token_id) if corrupt == 'eos' else 'ids identical on 0 of 2')
    assert what in str(e.value) and not (tmp_path/'out').exists()


def test_a_broken_file_is_caught_and_nothing_is_kept(merged, tmp_path, monkeypatch):
    "Remove the q/k permutation: the file still loads, but the logits no longer match, and the export refuses to keep it."
    import azllm.gguf_export as ge
    from transformers import LlamaForCausalLM
    from azllm.model import preset_config
    tok = load_tokenizer(merged['custom'])
    cfg = preset_config('llama-tiny', tok); cfg.initializer_range = 0.1       # at 0.02 attention is near uniform: RoPE errors barely show
    torch.manual_seed(0); LlamaForCausalLM(cfg).save_pretrained(tmp_path/'m'); tok.save_pretrained(tmp_path/'m')
    monkeypatch.setattr(ge, 'rope_permute', lambda w, n: w)
    with pytest.raises(AzllmError, match='does not reproduce the model'): export_gguf(tmp_path/'m', tmp_path/'out', 'f16', verify_docs=2)
    assert not (tmp_path/'out').exists()


@pytest.mark.parametrize('key, wrong, says', [('add_layer_norm_rms_eps', lambda v: v * 1000, 'max logit difference'),
                                               ('add_head_count_kv', lambda v: v * 2, 'tensor blk.0.attn_k.weight is')])
def test_a_wrong_hyper_parameter_is_caught(key, wrong, says, merged, tmp_path, monkeypatch):
    """The read-back model is built from the file's own keys: a norm epsilon written 1000 times too large moves the logits, and a
    key/value head count that does not fit the tensors is named; either way the export refuses and keeps nothing."""
    import gguf
    real = getattr(gguf.GGUFWriter, key)
    monkeypatch.setattr(gguf.GGUFWriter, key, lambda self, v: real(self, wrong(v)))
    with pytest.raises(AzllmError, match='does not reproduce the model') as e: export_gguf(merged['custom'], tmp_path/'out', 'f16', verify_docs=2)
    assert says in str(e.value) and not (tmp_path/'out').exists()


def test_bad_inputs(merged, tmp_path, capsys):
    from azllm.cli import main
    assert main(['export', str(tmp_path/'nope'), '--gguf', '--out', str(tmp_path/'o')]) == 2
    assert 'nope: no such file or directory' in capsys.readouterr().err        # the CLI's check of a missing path, before any work
    with pytest.raises(SystemExit): main(['export', str(merged['custom']), '--gguf', '--quant', 'q4_k', '--out', str(tmp_path/'o')])
    import sys
    capsys.readouterr()
    with pytest.MonkeyPatch.context() as m:                     # a K-quant without llama.cpp: one line that says what to install
        m.setitem(sys.modules, 'llama_cpp', None)
        assert main(['export', str(merged['custom']), '--gguf', '--quant', 'q4_k_m', '--out', str(tmp_path/'k')]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and 'pip install llama-cpp-python' in err and not (tmp_path/'k').exists()
    (tmp_path/'mine').mkdir(); (tmp_path/'mine'/'notes.txt').write_text('keep')
    assert main(['export', str(merged['custom']), '--gguf', '--out', str(tmp_path/'mine')]) == 2
    assert 'was not made by azllm' in capsys.readouterr().err and (tmp_path/'mine'/'notes.txt').read_text() == 'keep'


LLAMA3_ROPE = dict(rope_type='llama3', factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_position_embeddings=64)

@pytest.fixture(scope='module')
def llama3_rope_model(merged, tmp_path_factory):
    "The tiny Llama with Llama 3.x RoPE scaling (original context 64, so the scaling reaches most of its 8 frequencies), merged."
    # weights of std 0.1, not transformers' 0.02: at 0.02 attention is near uniform, so RoPE barely moves the logits (0.3% of
    # the largest without the scaling), and a missing rope_freqs could not be told from rounding; at 0.1 it moves them by ~70%
    from transformers import LlamaConfig, LlamaForCausalLM
    from azllm.model import PRESETS
    tok = load_tokenizer(merged['custom'])
    cfg = LlamaConfig(vocab_size=len(tok), bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
                      **dict(PRESETS['llama-tiny'], rope_scaling=LLAMA3_ROPE), initializer_range=0.1)
    torch.manual_seed(0)
    d = tmp_path_factory.mktemp('rope')/'merged'
    LlamaForCausalLM(cfg).save_pretrained(d); tok.save_pretrained(d)
    return d, cfg


def test_llama3_rope_scaling_writes_rope_freqs(llama3_rope_model, tmp_path):
    "The file holds rope_freqs: head_dim/2 divisors, equal to the ratio of plain to llama3-scaled frequencies that transformers computes."
    from gguf import GGUFReader
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    src, cfg = llama3_rope_model
    f = export_gguf(src, tmp_path/'out', 'f16', verify_docs=4)
    assert json.loads((f.parent/'round_trip.json').read_text())['ok']
    t = {t.name: t for t in GGUFReader(str(f)).tensors}['rope_freqs.weight']
    got = torch.tensor(t.data, dtype=torch.float64)
    head_dim = cfg.hidden_size // cfg.num_attention_heads
    assert got.shape == (head_dim // 2,)
    theta = getattr(cfg, 'rope_theta', None) or cfg.rope_parameters['rope_theta']      # transformers 4.x / 5.x
    plain = 1.0 / theta ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
    scaled, _ = ROPE_INIT_FUNCTIONS['llama3'](cfg, None)                               # transformers' own llama3 RoPE, not ours
    assert torch.allclose(got, plain / scaled.double(), rtol=1e-5)
    assert got[0] == 1 and got[-1] == LLAMA3_ROPE['factor'] and ((got > 1) & (got < 8)).any()   # kept, ramp, divided by factor


def test_rope_freqs_matter_and_other_rope_types_are_refused(llama3_rope_model, merged, tmp_path, monkeypatch):
    "Read back without the factors, the model answers differently: the export refuses. No rope_freqs for plain RoPE; yarn is refused."
    from gguf import GGUFReader
    import azllm.gguf_export as ge
    src, _ = llama3_rope_model
    with monkeypatch.context() as m:
        m.setattr(ge, 'as_llama_cpp_rope', lambda g, p: g)
        with pytest.raises(AzllmError, match='does not reproduce the model'): export_gguf(src, tmp_path/'bad', 'f16', verify_docs=4)
    assert not (tmp_path/'bad').exists()
    f = export_gguf(merged['custom'], tmp_path/'plain', 'f16', verify_docs=1)
    assert 'rope_freqs.weight' not in {t.name for t in GGUFReader(str(f)).tensors}
    from transformers import AutoModelForCausalLM
    m = AutoModelForCausalLM.from_pretrained(src)
    m.config.rope_parameters = dict(rope_type='yarn', factor=4.0, rope_theta=500000.0, original_max_position_embeddings=64)
    with pytest.raises(AzllmError, match="RoPE of type default and llama3; this model's rope_scaling is 'yarn'"):
        write_gguf(m, load_tokenizer(src), tmp_path/'y.gguf')


def test_chat_with_a_gguf_file_runs_llama_cpp_or_says_what_to_install(llama3_rope_model, tmp_path, capsys, monkeypatch):
    import importlib.util, sys
    from azllm.cli import main
    src, _ = llama3_rope_model                        # weights of std 0.1: a random model that says more than newlines
    f = export_gguf(src, tmp_path/'out', 'f16', verify_docs=1)
    capsys.readouterr()
    with monkeypatch.context() as m:
        m.setitem(sys.modules, 'llama_cpp', None)                                   # llama-cpp-python not installed
        assert main(['chat', str(f), '--prompt', 'Salam']) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and 'pip install llama-cpp-python' in err and 'tokenizer' not in err
    if importlib.util.find_spec('llama_cpp') is None: return
    from azllm.generate import chat
    want = chat(src, prompt='Salam', max_new_tokens=8, stream=False)                   # the merged model through transformers
    assert len(want) > 0 and chat(f, prompt='Salam', max_new_tokens=8, stream=False) == want   # the file through llama.cpp, greedy
    assert main(['chat', str(f), '--prompt', 'Salam', '--max-new-tokens', '8']) == 0   # and from the command line, streamed
    assert capsys.readouterr().out.strip() == want


def test_chat_on_a_directory_that_is_not_a_model_says_what_it_expected(merged, tmp_path, capsys):
    from azllm.cli import main
    (tmp_path/'notes').mkdir(); (tmp_path/'notes'/'a.txt').write_text('x')
    assert main(['chat', str(tmp_path/'notes'), '--prompt', 'Salam']) == 2
    err = capsys.readouterr().err
    assert 'not a model to chat with: expected a model directory' in err and '.gguf' in err and 'tokenizer:' not in err
    import shutil
    shutil.copytree(merged['custom'], tmp_path/'m'); (tmp_path/'m'/'tokenizer.json').unlink(); (tmp_path/'m'/'tokenizer_config.json').unlink()
    assert main(['chat', str(tmp_path/'m'), '--prompt', 'Salam']) == 2
    err = capsys.readouterr().err
    assert 'has no tokenizer' in err and 'tokenizer:' not in err


def test_the_readme_install_lines_bring_the_gguf_writer():
    "`azllm export --gguf` needs the gguf package: the README's install lines (CPU and GPU) bring it."
    import re, tomllib
    from conftest import ROOT
    extras = tomllib.loads((ROOT/'pyproject.toml').read_text())['project']['optional-dependencies']
    install = (ROOT/'README.md').read_text().split('## Install', 1)[1].split('\n## ', 1)[0]
    lines = [l for l in install.splitlines() if l.startswith('pip install') and '-e "' in l]
    assert len(lines) == 1
    for l in lines:
        wanted = re.search(r'-e "\.\[([^\]]*)\]"', l).group(1).split(',')
        assert any(r.split('>')[0].split('=')[0] == 'gguf' for e in wanted for r in extras[e]), l


@pytest.mark.skipif(not LLAMA_CPP, reason='llama-cpp-python is not installed')
def test_llama_cpp_judges_the_file_where_installed_and_says_so(merged, tmp_path, monkeypatch, capsys):
    import sys
    from azllm.cli import main
    assert main(['export', str(merged['custom']), '--gguf', '--quant', 'q8_0', '--out', str(tmp_path/'a')]) == 0
    out = capsys.readouterr().out
    rep = json.loads((tmp_path/'a'/'round_trip.json').read_text())
    assert 'llama.cpp itself (llama-cpp-python' in out and rep['llama_cpp']['ok'] and rep['llama_cpp']['top1_agreement'] >= 0.95
    monkeypatch.setitem(sys.modules, 'llama_cpp', None)                            # without it: transformers alone, and the message says so
    assert main(['export', str(merged['custom']), '--gguf', '--out', str(tmp_path/'b')]) == 0
    assert 'llama.cpp itself' not in capsys.readouterr().out and 'llama_cpp' not in json.loads((tmp_path/'b'/'round_trip.json').read_text())
    import azllm.gguf_export as ge                                                 # a file llama.cpp would not stop on is refused
    monkeypatch.undo()
    real = ge.llama_cpp_extras
    monkeypatch.setattr(ge, 'llama_cpp_extras', lambda llm, tok: {**real(llm, tok), 'stops_at_eot': False})
    with pytest.raises(AzllmError, match='stops at <\\|eot_id\\|>: False'): export_gguf(merged['custom'], tmp_path/'c', 'f16', verify_docs=2)


@pytest.mark.skipif(not LLAMA_CPP, reason='llama-cpp-python is not installed')
def test_k_quants_are_made_by_llama_cpp_and_measured_against_the_trained_model(merged, tmp_path, capsys):
    "q4_k_m: the f16 file and llama.cpp's quantization of it, both kept; llama.cpp agrees with the file's own weights, and the report says how far both are from the trained model."
    from gguf import GGUFReader, GGMLQuantizationType as T
    from azllm.cli import main
    assert main(['export', str(merged['custom']), '--gguf', '--quant', 'q4_k_m', '--out', str(tmp_path/'k')]) == 0
    out = capsys.readouterr().out
    rep = json.loads((tmp_path/'k'/'round_trip.json').read_text())
    assert {p.name for p in (tmp_path/'k').glob('*.gguf')} == {'model-f16.gguf', 'model-q4_k_m.gguf'}
    types = {t.tensor_type for t in GGUFReader(str(tmp_path/'k'/'model-q4_k_m.gguf')).tensors}
    assert types - {T.F32, T.F16}, types                                    # quantized: not the f16 file copied
    assert rep['ok'] and rep['f16_round_trip']['ok'] and rep['llama_cpp']['ok'] and rep['quant'] == 'q4_k_m'
    vs = rep['against_trained']
    assert vs['f16']['rel_logit_diff'] < vs['q4_k_m']['rel_logit_diff'] and 'llama_cpp_perplexity' in vs['q4_k_m']
    assert "against the model as trained (llama.cpp)" in out and "against the file's own weights" in out
