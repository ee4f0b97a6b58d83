"""Stage 3, LoRA SFT: what is trained (masking), what is saved (adapter, merge), and the errors a user can make.
CPU only, on a tiny model and a 2,000-token tokenizer; the whole file runs in well under a minute on 2 cores."""
import copy, json
from pathlib import Path
import pytest
import torch
from conftest import DATA, ROOT
from azllm.core import AzllmError, load_config
from azllm.data import read_documents
from azllm.model import load_model
from azllm.tokenizer import train_tokenizer, extend_tokenizer, load_tokenizer, LLAMA3_CHAT_TEMPLATE, EOT, PAD
from azllm.sft import (SFTRun, read_chats, check_chat_tokenizer, tokenize_chat, prepare_chats, sft_preview, render_preview,
                       preview_run, build_trainer, train_sft, save_sft, run_sft, sft_model, load_adapted, merge_adapter,
                       load_chat_model, generate_reply, chat, loss_history)

SYSTEM = {'role': 'system', 'content': 'Sən AzTel köməkçisisən.'}
SINGLE = [SYSTEM, {'role': 'user', 'content': 'Balansımı necə yoxlayım?'},
          {'role': 'assistant', 'content': '*100# yığıb zəng düyməsini sıxın.'}]
MULTI = SINGLE + [{'role': 'user', 'content': 'Bəs internet paketi?'}, {'role': 'assistant', 'content': '  *101# yığın, ə, ğ, ı. '}]


def write_jsonl(path, rows):
    path.write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')
    return path


@pytest.fixture(scope='module', autouse=True)
def one_thread():
    "A tiny model gains nothing from a second thread, and on a busy 2-core machine two threads run 5-15x slower."
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


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
                 valid_data=str(tiny['valid']), max_steps=12, lr=5e-3, batch_size=4, max_length=384, log_every=2, warmup=0)
    trainer = train_sft(cfg, progress=False)
    out = save_sft(trainer, cfg)
    return dict(cfg=cfg, trainer=trainer, out=out)


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
    assert run['trainer'].data_collator.pad_token_id == tiny['tok'].pad_token_id
    bad = copy.deepcopy(tiny['tok']); bad.pad_token = EOT
    with pytest.raises(AzllmError, match='never <\\|eot_id\\|>'): check_chat_tokenizer(bad)


def test_trl_labels_equal_the_preview(tiny, run):
    chats = read_chats(tiny['train'])
    ds = run['trainer'].train_dataset
    assert len(ds) == len(chats)
    for row, ex in zip(ds, chats):
        enc = tokenize_chat(ex['messages'], tiny['tok'])
        assert row['input_ids'] == enc['input_ids'][:384]
        assert [l != -100 for l in row['labels']] == enc['trained'][:384]


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


def test_packed_run_trains(tiny):
    cfg = SFTRun(output_dir=str(tiny['dir']/'packed'), model=str(tiny['base']), train_data=str(tiny['train']),
                 max_steps=2, batch_size=2, max_length=512, packing=True)
    tr = build_trainer(cfg, progress=False)
    assert tr.padding_free and 'seq_lengths' in tr.train_dataset.column_names
    assert len(tr.train_dataset) < len(read_chats(tiny['train']))        # several examples per row
    # TRL's loss on a packed row == the loss of its examples, each alone
    row = tr.train_dataset[0]
    assert len(row['seq_lengths']) > 1
    tr.model.eval()
    with torch.no_grad():
        packed = tr.compute_loss(tr.model, dict(tr.data_collator([row]))).item()
        total = count = off = 0
        for n in row['seq_lengths']:
            ids, lab = torch.tensor(row['input_ids'][off:off + n]), torch.tensor(row['labels'][off:off + n])
            logits = tr.model(input_ids=ids[None]).logits[0, :-1]
            total += torch.nn.functional.cross_entropy(logits, lab[1:], ignore_index=-100, reduction='sum').item()
            count += (lab[1:] != -100).sum().item(); off += n
    assert packed == pytest.approx(total / count, rel=1e-5)
    tr.model.train()
    tr.train()
    assert loss_history(tr.state.log_history)['train']


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
    from azllm.core import save_config
    f = save_config(run['cfg'], tmp_path/'sft.yml')
    pv = preview_run(f, n=2)
    assert [e['index'] for e in pv['examples']] == [0, 1]
    assert preview_run(data=str(tiny['train']), tokenizer=str(tiny['base']), n=2) == pv
    with pytest.raises(AzllmError, match='give a run config or --data'): preview_run()


# ---------------------------------------------------------------- training, saving, merging

def test_run_writes_everything_and_loss_decreases(run):
    out = run['out']
    for f in ('adapter_config.json', 'adapter_model.safetensors', 'tokenizer.json', 'chat_template.jinja', 'azllm_config.yml',
              'loss_history.json'):
        assert (out/f).exists(), f
    assert not list(out.parent.glob('.run.tmp-*'))                              # atomic: no leftovers
    assert load_config(out/'azllm_config.yml', SFTRun) == run['cfg']
    h = json.loads((out/'loss_history.json').read_text())
    assert h['train'][-1]['loss'] < h['train'][0]['loss']
    assert [v['step'] for v in h['valid']] == [0, 12] and h['valid'][-1]['loss'] < h['valid'][0]['loss']
    assert h['train_embeddings'] is True and h['data']['train']['kept'] == 96
    ac = json.loads((out/'adapter_config.json').read_text())
    assert ac['r'] == 16 and ac['lora_alpha'] == 32 and set(ac['target_modules']) == set(run['cfg'].target_modules)
    assert 'embed_tokens' in ac['modules_to_save'] and ac['ensure_weight_tying']       # tied: lm_head is embed_tokens
    assert Path(ac['base_model_name_or_path']) == Path(run['cfg'].model).resolve()


def test_default_learning_rate_and_cpu_settings(run):
    args = run['trainer'].args
    assert SFTRun(output_dir='x', model='m', train_data='d').lr == 1e-4
    assert args.assistant_only_loss and args.max_length == 384 and args.use_cpu and not args.bf16
    assert not args.gradient_checkpointing


def test_adapter_reload_and_merge_give_the_same_logits(tiny, run, tmp_path):
    from peft import PeftModel
    x = torch.tensor([tokenize_chat(MULTI, tiny['tok'])['input_ids']])
    with torch.no_grad(): trained = run['trainer'].model.eval()(x).logits
    reloaded, tok = load_adapted(run['out'])
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
    assert generate_reply(*load_chat_model(merged_dir), q, max_new_tokens=8) == a
    assert chat(tiny['base'], adapter=run['out'], prompt=q[1]['content'], system=q[0]['content'], max_new_tokens=8, stream=False) == a


def test_changed_vocabulary_trains_embeddings_and_reloads(tiny, tmp_path):
    "Base with 2,000 rows, tokenizer extended to 2,100: resized, embeddings+head in the adapter, reload without size mismatch."
    ext = extend_tokenizer(tiny['tok'], read_documents(DATA/'az_valid.txt'), 100)
    ext.save_pretrained(tmp_path/'ext')
    cfg = SFTRun(output_dir=str(tmp_path/'run'), model=str(tiny['base']), tokenizer=str(tmp_path/'ext'),
                 train_data=str(tiny['train']), max_steps=2, lr=5e-3, max_length=384)
    trainer = train_sft(cfg, progress=False)
    assert trainer.azllm_info['resized']['new_size'] == len(ext) and trainer.azllm_info['train_embeddings']
    out = save_sft(trainer, cfg)
    model, tok = load_adapted(out)
    assert len(tok) == len(ext) == model.get_input_embeddings().num_embeddings
    x = torch.tensor([tokenize_chat(MULTI, tok)['input_ids']])
    with torch.no_grad(): assert torch.allclose(model(x).logits, trainer.model.eval()(x).logits, atol=1e-5)
    with pytest.raises(AzllmError, match='train_embeddings to auto or true'):
        sft_model(cfg.model_copy(update=dict(train_embeddings=False)), check_chat_tokenizer(load_tokenizer(tmp_path/'ext')))


def test_preset_model_saves_its_base(tiny, tmp_path):
    "A preset is random: run_sft saves the base next to the adapter so that it can be reloaded and merged."
    cfg = SFTRun(output_dir=str(tmp_path/'run'), model='preset:llama-tiny', tokenizer=str(tiny['base']),
                 train_data=str(tiny['train']), max_steps=1, max_length=256, seed=3)
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
    with pytest.raises(AzllmError, match=r"\['qkv_proj'\] are not modules"): build_trainer(cfg, progress=False)
    assert not (tmp_path/'o').exists()
