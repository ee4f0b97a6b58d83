"""az_sft_gen, the generation task on the held-out SFT questions: its data is up to date with valid.jsonl and holds no
training question; its scores are chrF and the repeated-4-gram rate."""
import importlib.util, json, random
from pathlib import Path
from azllm.lm_tasks import TASKS_DIR

ROOT = Path(__file__).resolve().parent.parent


def _builder():
    spec = importlib.util.spec_from_file_location('build_az_sft_gen', ROOT/'data_samples'/'sft'/'build_az_sft_gen.py')
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    return m


def test_the_task_data_is_the_held_out_split_shuffled_and_up_to_date():
    rows = _builder().items()
    random.Random(0).shuffle(rows)
    got = [json.loads(l) for l in (TASKS_DIR/'az_sft_gen.jsonl').read_text(encoding='utf-8').splitlines()]
    assert got == rows and 30 <= len(got) < len((ROOT/'data_samples'/'sft'/'valid.jsonl').read_text(encoding='utf-8').splitlines())
    train = {json.loads(l)['messages'][-2]['content'].strip() for l in (ROOT/'data_samples'/'sft'/'train.jsonl').read_text(encoding='utf-8').splitlines()}
    assert not train & {r['question'] for r in got}


def test_scores_are_chrf_and_repetition():
    from azllm.tasks.sft_gen import process_results, repetition_rate
    ref = 'Tarifinizi *150# kodu ilə dəyişə bilərsiniz.'
    same, loop = process_results({'answer': ref}, [ref]), process_results({'answer': ref}, ['salam salam salam salam salam salam'])
    assert abs(same['chrf'] - 100) < 1e-9 and same['rep4'] == 0
    assert loop['chrf'] < 10 and abs(loop['rep4'] - 2 / 3) < 1e-9      # 3 four-grams, all the same: 2 repeat the first
    assert repetition_rate('') == 0.0


def test_repetition_is_seen_without_whitespace():
    "Tiny models print one character over and over ('....', 'əəəə'): one whitespace word, but the most repetitive answer there is."
    from azllm.tasks.sft_gen import process_results, repetition_rate
    ref = 'Balansınızı *100# kodu ilə yoxlaya bilərsiniz. Zəng 111-ə pulsuzdur.'
    for babble in ('.' * 96, 'ə' * 96, '!' * 10):
        assert repetition_rate(babble) > 0.6, babble
        assert process_results({'answer': ref}, [babble])['rep4'] == repetition_rate(babble)
    assert repetition_rate(ref) == 0.0 and repetition_rate('Bu 10000 AZN deyil, 111-dir.') == 0.0     # digits and numbers stay fluent
    rows = [json.loads(l) for l in (TASKS_DIR/'az_sft_gen.jsonl').read_text(encoding='utf-8').splitlines()]
    assert sum(repetition_rate(r['answer']) for r in rows) / len(rows) < 0.01                          # the references do not repeat


def test_every_answer_gets_the_same_byte_budget_whatever_the_tokenizer():
    "The budget holds every reference; the task's token cap reaches it under the Llama 3 tokenizer (about 2.5 bytes a token)."
    import yaml
    from azllm.tasks.sft_gen import BYTE_BUDGET, clip_bytes, process_results
    from azllm.tokenizer import load_tokenizer
    assert clip_bytes('ə' * 400) == 'ə' * 300 and clip_bytes('a' + 'ə' * 400) == 'a' + 'ə' * 299     # 2 bytes each, never half of one
    ref = 'Balansınızı *100# kodu ilə yoxlaya bilərsiniz.'
    assert process_results({'answer': ref}, [ref + ' ' + 'x' * 5000]) == process_results({'answer': ref}, [clip_bytes(ref + ' ' + 'x' * 5000)])
    answers = [json.loads(l)['answer'] for l in (TASKS_DIR/'az_sft_gen.jsonl').read_text(encoding='utf-8').splitlines()]
    assert max(len(a.encode()) for a in answers) <= BYTE_BUDGET
    cap = yaml.load((TASKS_DIR/'az_sft_gen.yaml').read_text(), Loader=yaml.BaseLoader)['generation_kwargs']['max_gen_toks']
    llama3 = [len(ids) for ids in load_tokenizer()(answers, add_special_tokens=False)['input_ids']]
    assert max(llama3) <= int(cap)
    assert int(cap) * sum(len(a.encode()) for a in answers) / sum(llama3) >= BYTE_BUDGET


def test_no_reference_is_a_near_copy_of_a_training_answer_and_memory_has_a_row():
    """Answering with the training answer of the nearest training question scored chrF 70.8 on all 228 held-out questions:
    their references were near copies of training answers. Every kept reference is below the NOVEL similarity to every
    training answer (recomputed here); the similarity catches a copy with one word changed and passes an unrelated answer;
    each item carries the retrieval baseline's answer, the training answer of the nearest training question."""
    b = _builder()
    rows = [json.loads(l) for l in (TASKS_DIR/'az_sft_gen.jsonl').read_text(encoding='utf-8').splitlines()]
    train = b.conversations(ROOT/'data_samples'/'sft'/'train.jsonl')
    assert b.similarity([r['answer'] for r in rows], [a for _, _, a in train]).max() < b.NOVEL
    a = train[0][2]
    near, other = a.replace(a.split()[2], 'başqa', 1), 'Bu gün hava çox gözəldir, parka gedək və dondurma alaq.'
    s = b.similarity([near, other], [a])
    assert s[0, 0] >= b.NOVEL > s[1, 0]
    answers = {a for _, _, a in train}
    assert all(r['retrieval'] in answers for r in rows)
    q = b.similarity([rows[0]['question']], [u for _, u, _ in train]).argmax()
    assert rows[0]['retrieval'] == train[q][2]


def test_silence_is_not_rewarded():
    "An empty or one-word answer gets the worst rep4, empty and brevity, not the best (rep4 gave silence 0, its best score)."
    from azllm.tasks.sft_gen import process_results
    ref = 'Balansınızı *100# kodu ilə yoxlaya bilərsiniz.'
    for pred in ('', '   ', 'Salam'):
        r = process_results({'answer': ref}, [pred])
        assert r['rep4'] == 1.0 and r['brevity'] > 0.8 and r['empty'] == float(not pred.strip())
    full = process_results({'answer': ref, 'retrieval': ref}, [ref])
    assert (full['rep4'], full['empty'], full['brevity'], full['chrf_retrieval']) == (0.0, 0.0, 0.0, 100.0)
