"""lm-evaluation-harness on tiny models: the bundled Azerbaijani task set, one definition of bits per byte, failing fast, the eval stage's benchmarks."""
import importlib.util, json, math, re, shutil
from collections import Counter
from pathlib import Path
import pytest, torch
from conftest import DATA, ROOT

pytest.importorskip('lm_eval')
from azllm.core import AzllmError
from azllm.lm_tasks import TASKS_DIR, load_tasks, read_task
from azllm.harness import run_tasks, harness_results, task_scores
from azllm.verdicts import benchmark_table

SFT_FILES = sorted((DATA/'sft').glob('*.jsonl'))


pytestmark = pytest.mark.usefixtures('one_thread')     # (tests/conftest.py)


@pytest.fixture(scope='module')
def tiny():
    "A 1,000-token tokenizer trained on the bundled corpus, an untrained tiny Llama, and the same trained for 30 steps."
    from azllm.tokenizer import train_tokenizer
    from azllm.data import read_documents
    from azllm.model import load_model
    docs = list(read_documents(DATA/'az_train.txt'))
    tok = train_tokenizer(docs[:150], 1000)
    torch.manual_seed(0)
    untrained = load_model('preset:llama-tiny', tok).eval()
    torch.manual_seed(0)
    model = load_model('preset:llama-tiny', tok).train()
    ids = torch.tensor([i for d in docs for i in [tok.bos_token_id, *tok(d, add_special_tokens=False).input_ids, tok.eos_token_id]])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    for _ in range(30):
        x = torch.stack([ids[i:i + 65] for i in torch.randint(0, len(ids) - 65, (8,)).tolist()])
        loss = torch.nn.functional.cross_entropy(model(input_ids=x[:, :-1]).logits.flatten(0, 1), x[:, 1:].flatten())
        opt.zero_grad(); loss.backward(); opt.step()
    return dict(tok=tok, untrained=untrained, trained=model.eval())


# ---------------------------------------------------------------------------------------------- the task set
# (its contents, limits and floors: tests/test_tasks.py)
def norm(s): return re.sub(r'\s+', ' ', re.sub(r'[^\w\s]', ' ', s.lower())).strip()
def shingles(s, n=6): w = s.split(); return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def test_read_task():
    assert len(read_task('az_reading')) == len((TASKS_DIR/'az_reading.jsonl').read_text(encoding='utf-8').splitlines()) >= 320
    assert set(read_task()['topic']) >= {'culture', 'science'}
    assert read_task(TASKS_DIR/'az_grammar.jsonl').equals(read_task('az_grammar'))


def test_no_question_from_the_sft_data():
    "Not even the telecom recall task copies a user turn of the SFT data: it asks the SFT facts in words of its own."
    users = [norm(m['content']) for f in SFT_FILES for line in f.read_text(encoding='utf-8').splitlines()
             for m in json.loads(line)['messages'] if m['role'] == 'user']
    assert len(users) > 2000
    seen, runs = set(users), set().union(*map(shingles, users))
    for task in ('az_reading', 'az_knowledge', 'az_telecom_recall'):
        for r in read_task(task).itertuples():
            q = norm(r.question)
            assert q not in seen, r.id
            assert not (shingles(q) & runs), (r.id, r.question, shingles(q) & runs)


# ---------------------------------------------------------------------------------------------- running tasks
def test_bundled_tasks_on_a_tiny_model(tiny, tmp_path):
    scores = run_tasks(tiny['untrained'], tiny['tok'], ['az_knowledge', 'az_text_bpb'], limit={'az_knowledge': 24, 'az_text_bpb': 4}, raw_path=tmp_path/'raw.json')
    assert sorted(scores) == ['az_knowledge', 'az_text_bpb'] and sorted(scores['az_knowledge']) == ['acc', 'acc_norm']
    acc = scores['az_knowledge']['acc']
    assert 0 <= acc['value'] <= 1 and 0 < acc['stderr'] < 0.2
    assert sorted(scores['az_text_bpb']) == ['bits_per_byte', 'byte_perplexity', 'word_perplexity']
    assert scores['az_text_bpb']['bits_per_byte']['stderr'] is None
    raw = json.loads((tmp_path/'raw.json').read_text())
    assert raw['n-samples'] == {'az_knowledge': {'original': len(read_task('az_knowledge')), 'effective': 24}, 'az_text_bpb': {'original': 41, 'effective': 4}}
    assert task_scores(raw) == scores
    assert benchmark_table({'m': scores}).shape == (5, 1)
    assert tiny['untrained'].training is False


def test_an_adapter_on_its_base(tiny):
    from peft import LoraConfig, get_peft_model
    import copy
    # as an SFT run saves it: LoRA plus its own copy of the (tied) embeddings
    lora = get_peft_model(copy.deepcopy(tiny['untrained']), LoraConfig(r=4, target_modules=['q_proj', 'v_proj'], modules_to_save=['embed_tokens'],
                                                                        task_type='CAUSAL_LM'))
    a = run_tasks(lora, tiny['tok'], ['az_reading'], limit=8)
    b = run_tasks(tiny['untrained'], tiny['tok'], ['az_reading'], limit=8)
    assert a == b                                                              # a fresh adapter is zero: the same answers


def test_bits_per_byte_agree_with_azllm(tiny):
    "azllm's BPB (packed stream, CPT validation code) and lm-eval's (each document alone, rolling windows) within 1%."
    from azllm.scoring import score_text
    docs = [json.loads(l)['text'] for l in (TASKS_DIR/'az_text.jsonl').read_text(encoding='utf-8').splitlines()]
    a = score_text(tiny['trained'], tiny['tok'], docs, seq_len=128, micro_batch=8)
    b = task_scores(harness_results(tiny['trained'], tiny['tok'], ['az_text_bpb'], max_length=128, batch_size=8))['az_text_bpb']
    assert a['bytes'] == sum(len(d.encode()) for d in docs)                      # the same bytes
    assert a['bpb'] == pytest.approx(b['bits_per_byte']['value'], rel=0.01)
    assert b['byte_perplexity']['value'] == pytest.approx(2 ** b['bits_per_byte']['value'], rel=1e-9)
    assert a['bpb'] < 0.95 * math.log2(len(tiny['tok'])) * a['tokens'] / a['bytes']   # trained: well below uniform guessing


@pytest.mark.parametrize('which', ['llama3', 'bpe'])
def test_every_prompt_starts_with_one_bos(tiny, which):
    """Every input the model sees through lm-eval starts with exactly one bos, as every training document does: the
    multiple-choice prompts (an empty one is bos), the rolling windows and the chat prompts of az_sft_gen, under the Llama 3
    tokenizer (which adds no bos of its own as azllm loads it) and a BPE trained here (which adds one)."""
    from azllm.model import load_model
    from azllm.tokenizer import load_tokenizer
    tok = load_tokenizer() if which == 'llama3' else tiny['tok']
    assert (tok('Salam').input_ids[0] == tok.bos_token_id) == (which == 'bpe')       # the two post-processors differ
    model = load_model('preset:llama-tiny', tok, seed=0).eval()
    seen = []
    def record(mod, args, kw):
        ids, mask = kw.get('input_ids', args[0] if args else None), kw.get('attention_mask')
        if ids is None or ids.shape[1] < 2 or kw.get('past_key_values') is not None and kw['past_key_values'].get_seq_length(): return
        for r in range(ids.shape[0]):
            row = ids[r][mask[r, :ids.shape[1]].bool()] if mask is not None else ids[r]   # (a static cache's mask spans the whole cache)
            seen.append(row[:2].tolist())
    h = model.register_forward_pre_hook(record, with_kwargs=True)
    try: harness_results(model, tok, ['az_grammar', 'az_reading', 'az_text_bpb', 'az_sft_gen'], limit=2, offline=True)
    finally: h.remove()
    bos = tok.bos_token_id
    assert len(seen) >= 2 * 2 + 2 * 4 + 2 + 2, len(seen)
    assert [r for r in seen if r[0] != bos or r[1] == bos] == []


# ---------------------------------------------------------------------------------------------- failing fast
def test_unfetchable_or_unknown_task_fails_fast(monkeypatch):
    monkeypatch.setenv('HF_HUB_OFFLINE', '1')
    with pytest.raises(AzllmError, match=r"^task 'belebele_azj_Latn': its data cannot be fetched \(offline"): load_tasks(['az_grammar', 'belebele_azj_Latn'])
    with pytest.raises(AzllmError, match=r"^task 'az_gramar': no such lm-eval task"): load_tasks(['az_gramar'])
    # fast because nothing of lm-eval's ~15,000 task configs is indexed for a name none of them mentions (timing is not a test)
    from azllm.lm_tasks import task_manager
    assert set(task_manager(['az_gramar']).all_tasks) == set(task_manager(['az']).all_tasks)


def test_eval_stage_benchmarks(tiny, tmp_path, monkeypatch):
    from azllm.eval import EvalRun, run_eval
    tiny['untrained'].save_pretrained(tmp_path/'tiny'); tiny['tok'].save_pretrained(tmp_path/'tiny')
    cfg = lambda **kw: EvalRun(**dict(output_dir=str(tmp_path/'out'), models=[dict(name='tiny', path=str(tmp_path/'tiny'))],
                                      valid_data=[str(DATA/'az_valid.txt')], max_docs=2, seq_len=64, prompts=[]) | kw)
    for bad in (dict(limit=0), dict(harness_batch=0), dict(num_fewshot=-1)):
        with pytest.raises(ValueError): cfg(**bad)
    out = run_eval(cfg(tasks=['az_knowledge'], limit=8, num_fewshot=1), progress=False)
    rep = json.loads((out/'report.json').read_text())
    assert set(rep['benchmarks']['tiny']['az_knowledge']['acc']) == {'value', 'stderr'}
    raw = json.loads((out/'lm_eval_results.json').read_text())
    assert raw['tiny']['n-shot']['az_knowledge'] == 1 and raw['tiny']['n-samples']['az_knowledge']['effective'] == 8
    md = (out/'report.md').read_text(encoding='utf-8')
    assert '## Benchmarks' in md and '](controls.png)' in md and 'az_knowledge acc' in md
    assert 'What a real gain looks like' in md and 'multilingual-e5-small as a retrieval reader (613)' in md   # the real controls beside the floor
    twin = rep['controls']['floor_of']['tiny']                                  # the floor: an untrained twin, on the same 8 items
    assert rep['controls']['scores']['az_knowledge']['acc'][twin]['n'] == 8 and twin in rep['floors'] and f'{twin}' in md
    assert [(p['a'], p['b']) for p in rep['controls']['pairs']] == [('tiny', twin)] * 2 and 'untrained twin' in md
    assert set(json.loads((out/'item_scores.json').read_text())) == {'tiny', twin}
    monkeypatch.setenv('HF_HUB_OFFLINE', '1')                                  # a Hub task offline: stops before any model loads
    import azllm.eval
    loaded = []
    monkeypatch.setattr(azllm.eval, 'evaluate_model', lambda *a, **k: loaded.append(a))
    with pytest.raises(AzllmError, match="task 'belebele_azj_Latn'"): run_eval(cfg(output_dir=str(tmp_path/'hub'), tasks=['belebele_azj_Latn']))
    assert loaded == [] and not (tmp_path/'hub').exists()


@pytest.mark.parametrize('given', ['dir', 'yaml'])
def test_a_task_that_names_python_code_is_refused(tmp_path, given):
    """A task directory or YAML file handed to azllm whose YAML says `!function module.name` (lm-eval imports module.py beside
    it, and so runs it) is refused with one line before lm-eval reads it: the module ran (found by handing `azllm eval` a
    forged task directory)."""
    ran = tmp_path/'ran'
    d = tmp_path/'tasks'; d.mkdir(); shutil.copy(TASKS_DIR/'az_grammar.jsonl', d)
    (d/'evil.py').write_text(f"open({str(ran)!r}, 'w').close()\nimport os\ndef path(): return os.path.join(os.path.dirname(__file__), 'az_grammar.jsonl')\n")
    text = (TASKS_DIR/'az_grammar.yaml').read_text().replace('task: az_grammar', 'task: evil_task').replace('tag: az\n', '')
    (d/'evil.yaml').write_text(text.replace('!function data.az_grammar', '!function evil.path'))
    with pytest.raises(AzllmError, match='names Python code'): load_tasks([str(d if given == 'dir' else d/'evil.yaml')], offline=True)
    assert not ran.exists(), "the task's Python file ran"
