"""Stage 3, LoRA SFT: what is trained (masking), what is saved (adapter, merge), and the errors a user can make.
CPU only, on a tiny model and a 2,000-token tokenizer; the whole file runs in well under a minute on 2 cores."""
import copy, json, shutil
from pathlib import Path
import pytest
import torch
from conftest import DATA, ROOT
from azllm.core import AzllmError
from azllm.config import load_config
from azllm.data import read_documents
from azllm.model import load_model
from azllm.tokenizer import train_tokenizer, extend_tokenizer, load_tokenizer, LLAMA3_CHAT_TEMPLATE, EOT, PAD
from azllm.sft import SFTRun, preview_run, run_sft, sft_model, encode_chats
from azllm.chats import read_chats, check_chat_tokenizer, tokenize_chat, prepare_chats, sft_preview, render_preview
from azllm.adapters import load_adapted, merge_adapter
from azllm.generate import load_chat_model, generate, chat

SYSTEM = {'role': 'system', 'content': 'Sən AzTel köməkçisisən.'}
SINGLE = [SYSTEM, {'role': 'user', 'content': 'Balansımı necə yoxlayım?'},
          {'role': 'assistant', 'content': '*100# yığıb zəng düyməsini sıxın.'}]
MULTI = SINGLE + [{'role': 'user', 'content': 'Bəs internet paketi?'}, {'role': 'assistant', 'content': '  *101# yığın, ə, ğ, ı. '}]


def write_jsonl(path, rows):
    path.write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')
    return path


pytestmark = pytest.mark.usefixtures('one_thread')     # (tests/conftest.py)


@pytest.fixture(scope='module')
def tiny(tmp_path_factory):
    "A 2,000-token custom tokenizer, the tiny preset saved as a model directory, and small train/valid files."
    d = tmp_path_factory.mktemp('sft')
    tok = train_tokenizer(read_documents(DATA/'az_train.txt'), 2000)
    load_model('preset:llama-tiny', tok).save_pretrained(d/'base')
    tok.save_pretrained(d/'base')
    src = DATA/'sft'/'handwritten.jsonl'
    rows = [json.loads(l) for l in src.read_text(encoding='utf-8').splitlines() if l.strip()]
    return dict(dir=d, tok=check_chat_tokenizer(tok), base=d/'base',
                train=write_jsonl(d/'train.jsonl', rows[:96]), valid=write_jsonl(d/'valid.jsonl', rows[-16:]), rows=rows)


@pytest.fixture(scope='module')
def llama3():
    return check_chat_tokenizer(load_tokenizer())


@pytest.fixture(scope='module')
def run(tiny):
    "One short training run shared by the tests of saving, reloading and merging."
    cfg = SFTRun(output_dir=str(tiny['dir']/'run'), model=str(tiny['base']), train_data=str(tiny['train']),
                 valid_data=str(tiny['valid']), max_steps=12, lr=5e-3, micro_batch=2, seq_len=384, log_every=2, warmup_steps=0,
                 eval_every=6, tensorboard=False)
    out = run_sft(cfg, progress=False)
    return dict(cfg=cfg, out=out)


def trained_runs(enc, tok):
    "Decoded runs of consecutive trained tokens."
    runs, cur = [], []
    for i, t in zip(enc['input_ids'], enc['trained']):
        if t: cur.append(i)
        elif cur: runs.append(cur); cur = []
    if cur: runs.append(cur)
    return [tok.decode(r) for r in runs]


# ---------------------------------------------------------------- masking

@pytest.mark.parametrize('conv', [SINGLE, MULTI], ids=['single-turn', 'multi-turn'])
@pytest.mark.parametrize('which', ['custom', 'llama3'])
def test_trained_tokens_are_exactly_the_replies_and_their_eot(conv, which, tiny, llama3):
    tok = tiny['tok'] if which == 'custom' else llama3
    enc = tokenize_chat(conv, tok)
    assert trained_runs(enc, tok) == [m['content'].strip() + EOT for m in conv if m['role'] == 'assistant']
    eot, ids = tok.convert_tokens_to_ids(EOT), enc['input_ids']
    assert ids[0] == tok.bos_token_id and not enc['trained'][0]
    # every <|eot_id|> closing a system/user turn is masked, every one closing an assistant turn is trained
    ends = [enc['trained'][k] for k, i in enumerate(ids) if i == eot]
    assert ends == [m['role'] == 'assistant' for m in conv]
    for k, i in enumerate(ids):                      # no header token is ever trained
        if tok.convert_ids_to_tokens(i) in ('<|start_header_id|>', '<|end_header_id|>'): assert not enc['trained'][k]


def test_padding_never_uses_eot(tiny, llama3, run):
    for tok in (tiny['tok'], llama3):
        assert tok.pad_token_id is not None and tok.pad_token_id != tok.convert_tokens_to_ids(EOT)
    assert tiny['tok'].pad_token == PAD
    bad = copy.deepcopy(tiny['tok']); bad.pad_token = EOT
    with pytest.raises(AzllmError, match='never <\\|eot_id\\|>'): check_chat_tokenizer(bad)


@pytest.mark.parametrize('which', ['custom', 'llama3'])
def test_loss_equals_trl_on_the_same_batch(which, tiny, llama3, tmp_path):
    "TRL's SFTTrainer (assistant_only_loss, padding-free packing) is the oracle: same chats, same model, same loss."
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer
    from azllm.packing import pack_rows, PackedRows
    tok = tiny['tok'] if which == 'custom' else llama3
    chats = [{'messages': SINGLE}, {'messages': MULTI}] + [{'messages': r['messages']} for r in tiny['rows'][:4]]
    m = load_model('preset:llama-tiny', tok).eval()
    tr = SFTTrainer(model=m, train_dataset=Dataset.from_list(chats), processing_class=tok,
                    args=SFTConfig(output_dir=str(tmp_path/'trl'), assistant_only_loss=True, packing=True, padding_free=True, max_length=1024,
                                   per_device_train_batch_size=8, use_cpu=True, bf16=False, report_to='none'))
    tb = next(iter(tr.get_train_dataloader()))
    encs, _ = encode_chats(chats, tok, 1024); pack_rows(encs, 1024, tmp_path/'rows')
    rows = PackedRows(tmp_path/'rows', tok.pad_token_id); ob = rows.batch(list(range(len(rows))))
    assert int((tb['labels'] != -100).sum()) == rows.count(list(range(len(rows))))      # the same trained tokens
    with torch.no_grad():
        l_trl = m(input_ids=tb['input_ids'], position_ids=tb['position_ids'], labels=tb['labels'], use_cache=False).loss
        l_ours = m(input_ids=ob['input_ids'], position_ids=ob['position_ids'], labels=ob['shift_labels'], shift_labels=ob['shift_labels'], use_cache=False).loss
    assert l_ours.item() == pytest.approx(l_trl.item(), rel=1e-5)


def test_packing_does_not_leak_between_examples(tiny):
    from trl.trainer.sft_trainer import DataCollatorForLanguageModeling
    m = load_model(str(tiny['base'])).eval()
    a, b = (tokenize_chat(c, tiny['tok'])['input_ids'] for c in (SINGLE, MULTI))
    batch = DataCollatorForLanguageModeling(pad_token_id=tiny['tok'].pad_token_id, padding_free=True)([{'input_ids': a}, {'input_ids': b}])
    batch.pop('labels')
    with torch.no_grad():
        packed = m(**batch, use_cache=False).logits[0]          # what TRL's compute_loss passes
        alone = m(torch.tensor([b])).logits[0]
    assert torch.allclose(packed[len(a):], alone, atol=1e-4)


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize('rows,needle', [
    ([{'messages': SINGLE}, {'messages': SINGLE[:2]}], r'example 1 \(.*train.jsonl:2\): no assistant turn'),
    ([{'messages': SINGLE}, {'messages': SINGLE}, {'messages': SINGLE + [{'role': 'tool', 'content': '{}'}]}],
     r'example 2 \(.*:3\): the chat template rejects it: unknown role tool'),
    ([{'messages': [{'role': 'user'}]}], 'example 0 .*turn 0 must be'),
    ([{'messages': []}], 'example 0 .*non-empty list'),
    ([{'text': 'salam'}], r'train.jsonl:1: not a chat example \(fields: text\); each example must be one of'),
])
def test_bad_examples_are_named(rows, needle, tiny, tmp_path):
    f = write_jsonl(tmp_path/'train.jsonl', rows)
    with pytest.raises(AzllmError, match=needle): prepare_chats(read_chats(f), tiny['tok'])


def test_datasets_directory_is_read(tmp_path):
    import datasets
    d = datasets.DatasetDict(train=datasets.Dataset.from_list([{'messages': SINGLE}, {'messages': MULTI}]),
                             validation=datasets.Dataset.from_list([{'messages': SINGLE}]))
    d.save_to_disk(str(tmp_path/'ds'))
    assert [len(c['messages']) for c in read_chats(tmp_path/'ds')] == [3, 5]
    assert len(read_chats(tmp_path/'ds', split='validation')) == 1
    with pytest.raises(AzllmError, match="no split 'test'"): read_chats(tmp_path/'ds', split='test')


def test_bad_json_names_the_line(tiny, tmp_path):
    f = tmp_path/'train.jsonl'
    f.write_text(json.dumps({'messages': SINGLE}) + '\n{"messages": [\n', encoding='utf-8')
    with pytest.raises(AzllmError, match='train.jsonl:2: not valid JSON'): read_chats(f)


def test_template_without_trained_tokens(tiny):
    tok = copy.deepcopy(tiny['tok'])
    tok.chat_template = LLAMA3_CHAT_TEMPLATE.replace('{%- generation %}', '{%- generation %}{%- endgeneration %}').replace(
        '{%- endgeneration %}{%- else %}', '{%- else %}')
    with pytest.raises(AzllmError, match='example 0: the chat template leaves no trained token'):
        prepare_chats([{'messages': SINGLE}], tok)


def test_truncation_policy_counts(tiny):
    chats = read_chats(tiny['train'])
    lens = [len(tokenize_chat(c['messages'], tiny['tok'])['input_ids']) for c in chats]
    cut = sorted(lens)[len(lens) // 2]
    longer = sum(l > cut for l in lens)
    kept, st = prepare_chats(chats, tiny['tok'], cut, 'drop')
    assert (st['too_long'], st['dropped'], st['kept']) == (longer, longer, len(chats) - longer)
    kept, st = prepare_chats(chats, tiny['tok'], cut, 'truncate')
    assert st['too_long'] == longer and st['truncated'] + st['dropped'] == longer and st['kept'] == len(kept)
    with pytest.raises(AzllmError, match='were dropped'): prepare_chats(chats, tiny['tok'], 4, 'drop')


def test_config_errors_name_the_line(tmp_path):
    f = tmp_path/'sft.yml'
    f.write_text('stage: sft\noutput_dir: x\nmodel: m\ntrain_data: d\nmax_seq_length: 512\ntruncation: cut\n')
    with pytest.raises(AzllmError) as e: load_config(f, SFTRun)
    assert 'sft.yml:5: max_seq_length: unknown key' in str(e.value) and 'sft.yml:6: truncation' in str(e.value)


@pytest.mark.parametrize('name', ['sft_tiny.yml', 'sft_llama-3.2-1b.yml'])
def test_shipped_configs_validate(name):
    cfg = load_config(ROOT/'configs'/name, SFTRun)
    assert cfg.stage == 'sft' and cfg.target_modules == ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj']
    assert name != 'sft_llama-3.2-1b.yml' or cfg.lr == 1e-4


# ---------------------------------------------------------------- preview

def test_preview_json_contract(tiny):
    pv = sft_preview([{'messages': MULTI}], tiny['tok'])
    assert json.loads(json.dumps(pv)) == pv
    ex = pv['examples'][0]
    assert set(ex) == {'index', 'tokens', 'trained'} and len(ex['tokens']) == len(ex['trained'])
    assert all(isinstance(t, str) for t in ex['tokens']) and all(isinstance(t, bool) for t in ex['trained'])
    enc = tokenize_chat(MULTI, tiny['tok'])
    assert ''.join(ex['tokens']) == tiny['tok'].decode(enc['input_ids'])       # split UTF-8 characters join back
    assert ''.join(t for t, m in zip(ex['tokens'], ex['trained']) if m) == ''.join(
        m['content'].strip() + EOT for m in MULTI if m['role'] == 'assistant')
    assert '\x1b[32m' in render_preview(pv) and '\x1b[' not in render_preview(pv, color=False)
    assert '⟦*101# yığın, ə, ğ, ı.<|eot_id|>⟧' in render_preview(pv, color=False)


def test_preview_from_config(tiny, run, tmp_path):
    from azllm.config import save_config
    f = save_config(run['cfg'], tmp_path/'sft.yml')
    pv = preview_run(f, n=2)
    assert [e['index'] for e in pv['examples']] == [0, 1]
    assert preview_run(data=str(tiny['train']), tokenizer=str(tiny['base']), n=2) == pv
    with pytest.raises(AzllmError, match='give a run config or --data'): preview_run()


# ---------------------------------------------------------------- training, saving, merging

def test_run_writes_everything_and_loss_decreases(run):
    out = run['out']
    assert out.name == 'final'
    for f in ('adapter_config.json', 'adapter_model.safetensors', 'tokenizer.json', 'chat_template.jinja', 'azllm_config.yml'):
        assert (out/f).exists(), f
    for f in ('log.jsonl', 'summary.json', 'azllm_config.yml'): assert (out.parent/f).exists(), f
    assert load_config(out/'azllm_config.yml', SFTRun) == run['cfg']
    log = [json.loads(l) for l in open(out.parent/'log.jsonl')]
    train, valid = [r['loss'] for r in log if 'loss' in r], [(r['step'], r['val_loss']) for r in log if 'val_loss' in r]
    assert train[-1] < train[0]
    assert [s for s, _ in valid] == [6, 12] and valid[-1][1] < valid[0][1]
    summary = json.loads((out.parent/'summary.json').read_text())
    assert summary['train_embeddings'] is True and summary['kind'] == 'sft'
    ac = json.loads((out/'adapter_config.json').read_text())
    assert ac['r'] == 16 and ac['lora_alpha'] == 32 and set(ac['target_modules']) == set(run['cfg'].target_modules)
    assert 'embed_tokens' in ac['modules_to_save'] and ac['ensure_weight_tying']       # tied: lm_head is embed_tokens
    assert ac['base_model_name_or_path'] == str(Path(run['cfg'].model).resolve())         # absolute: peft reads it from the cwd
    assert json.loads((out/'azllm_base.json').read_text()) == {'relative': '../../base'}   # in the run's tree: relative for azllm
    assert SFTRun(output_dir='x', model='m', train_data='d').lr == 1e-4


def test_auto_peft_loads_the_run_from_any_directory_and_a_moved_tree_finds_its_base(tiny, run, tmp_path, monkeypatch):
    from peft import AutoPeftModelForCausalLM
    from azllm.adapters import adapter_base
    x = torch.tensor([tokenize_chat(MULTI, tiny['tok'])['input_ids']])
    with torch.no_grad(): want = load_adapted(run['out'])[0](x).logits
    monkeypatch.chdir(tmp_path)                                          # not the directory the run was trained from
    auto = AutoPeftModelForCausalLM.from_pretrained(str(run['out'])).eval()
    with torch.no_grad(): assert torch.allclose(auto(x).logits, want, atol=1e-5)
    tree = Path(run['cfg'].model).resolve().parent                        # the run's tree: the run directory and its base
    moved = tmp_path/'moved'
    for d in (run['out'].parent, Path(run['cfg'].model)): shutil.copytree(d, moved/Path(d).resolve().relative_to(tree))
    got = moved/run['out'].parent.resolve().relative_to(tree)/'final'
    assert adapter_base(got) == str((moved/'base').resolve())            # the moved copy's own base, not the old one
    with torch.no_grad(): assert torch.allclose(load_adapted(got)[0](x).logits, want, atol=1e-5)


def test_adapter_reload_and_merge_give_the_same_logits(tiny, run, tmp_path):
    from peft import PeftModel
    x = torch.tensor([tokenize_chat(MULTI, tiny['tok'])['input_ids']])
    reloaded, tok = load_adapted(run['out'].parent)                       # the run directory works too
    with torch.no_grad(): trained = reloaded(x).logits
    assert isinstance(reloaded, PeftModel) and len(tok) == len(tiny['tok'])
    # the plain peft way works too
    manual = PeftModel.from_pretrained(load_model(str(tiny['base'])), str(run['out'])).eval()
    merged_dir = merge_adapter(None, run['out'], tmp_path/'merged')
    assert (merged_dir/'model.safetensors').exists() and (merged_dir/'tokenizer.json').exists()
    merged = load_model(str(merged_dir)).eval()
    base = load_model(str(tiny['base'])).eval()
    with torch.no_grad():
        l_re, l_man, l_merged, l_base = (m(x).logits for m in (reloaded, manual, merged, base))
    assert torch.allclose(l_re, trained, atol=1e-5) and torch.allclose(l_man, trained, atol=1e-5)
    assert torch.allclose(l_merged, trained, atol=1e-4)
    assert (l_base - trained).abs().max() > 1e-2                               # the adapter changed something


def test_chat_through_template(tiny, run, tmp_path, capsys):
    merged_dir = merge_adapter(str(tiny['base']), run['out'], tmp_path/'merged')
    q = SINGLE[:2]
    a = chat(run['out'], prompt=q[1]['content'], system=q[0]['content'], max_new_tokens=8, stream=True)
    assert isinstance(a, str) and a.strip() in capsys.readouterr().out
    assert generate(*load_chat_model(merged_dir), q, max_new_tokens=8) == a
    assert chat(tiny['base'], adapter=run['out'], prompt=q[1]['content'], system=q[0]['content'], max_new_tokens=8, stream=False) == a


def test_changed_vocabulary_trains_embeddings_and_reloads(tiny, tmp_path):
    "Base with 2,000 rows, tokenizer extended to 2,100: resized, embeddings+head in the adapter, reload without size mismatch."
    ext = extend_tokenizer(tiny['tok'], read_documents(DATA/'az_valid.txt'), 100)
    ext.save_pretrained(tmp_path/'ext')
    cfg = SFTRun(output_dir=str(tmp_path/'run'), model=str(tiny['base']), tokenizer=str(tmp_path/'ext'),
                 train_data=str(tiny['train']), max_steps=2, lr=5e-3, seq_len=384, tensorboard=False)
    out = run_sft(cfg, progress=False)
    info = json.loads((out.parent/'summary.json').read_text())
    assert info['resized']['new_size'] == len(ext) and info['train_embeddings']
    model, tok = load_adapted(out)
    assert len(tok) == len(ext) == model.get_input_embeddings().num_embeddings
    with pytest.raises(AzllmError, match='train_embeddings to auto or true'):
        sft_model(cfg.model_copy(update=dict(train_embeddings=False)), check_chat_tokenizer(load_tokenizer(tmp_path/'ext')))


def test_preset_model_saves_its_base(tiny, tmp_path):
    "A preset is random: run_sft saves the base next to the adapter so that it can be reloaded and merged."
    cfg = SFTRun(output_dir=str(tmp_path/'run'), model='preset:llama-tiny', tokenizer=str(tiny['base']),
                 train_data=str(tiny['train']), max_steps=1, seq_len=256, seed=3, tensorboard=False)
    out = run_sft(cfg, progress=False)
    assert (out/'base'/'model.safetensors').exists()
    model, tok = load_adapted(out)
    again = load_model('preset:llama-tiny', tok, seed=3)                    # the same random init
    x = torch.tensor([[tok.bos_token_id, 300, 400]])
    frozen = model.get_base_model().model.layers[0].mlp.down_proj.base_layer.weight
    assert torch.equal(frozen, again.model.layers[0].mlp.down_proj.weight)
    with torch.no_grad(): assert model(x).logits.shape[-1] == len(tok)


def test_embeddings_auto_is_off_for_the_llama3_vocabulary(llama3):
    cfg = SFTRun(output_dir='x', model='preset:llama-tiny', train_data='d')
    model, resized, emb = sft_model(cfg, llama3)
    assert resized is None and emb is False


def test_missing_inputs_are_user_errors(tiny, tmp_path):
    with pytest.raises(AzllmError, match='no such file'): read_chats(tmp_path/'nope.jsonl')
    with pytest.raises(AzllmError, match='not an adapter directory'): load_adapted(tiny['base'])
    cfg = SFTRun(output_dir=str(tmp_path/'o'), model=str(tiny['base']), train_data=str(tiny['train']), target_modules=['qkv_proj'])
    with pytest.raises(AzllmError, match=r"\['qkv_proj'\] are not modules"): run_sft(cfg, progress=False)
    assert not (tmp_path/'o').exists()
