"The data path and per-item metrics of `az_sft_gen` (see az_sft_gen.yaml): chrF against the reference answer, and the share of repeated 4-grams (words and punctuation marks)."
import re
from pathlib import Path

data_file = str(Path(__file__).resolve().parent/'az_sft_gen.jsonl')   # absolute: lm-eval resolves data_files against the working directory

# Every answer is scored on its first BYTE_BUDGET bytes, whatever the tokenizer. A cap in tokens alone (the task's
# max_gen_toks) gives a model with a 16k Azerbaijani vocabulary about twice the text of one with Llama 3's (about 5.4
# against 2.5 bytes per token), and chrF, which rewards recalling the reference, would credit the tokenizer, not the model.
# The budget holds the longest reference answer, and max_gen_toks (256) Llama 3 tokens of such text fill it:
# tests/test_sft_gen.py checks both against the data.
BYTE_BUDGET = 600

def clip_bytes(text:str, n:int=BYTE_BUDGET) -> str:
    "The longest prefix of `text` of at most `n` UTF-8 bytes (never half a character)."
    return text.encode('utf-8')[:n].decode('utf-8', errors='ignore')

# words and punctuation marks, each mark a token of its own (as BLEU's 13a tokenizer splits them), and a run of one letter
# (three or more) taken letter by letter: a model that prints "........" or "əəəəəəəə" has one whitespace "word" and no
# 4-gram at all, yet it is the most repetitive answer there is
_WORDS, _RUN = re.compile(r'\w+|[^\w\s]'), re.compile(r'(\w)\1{2,}')

def repetition_rate(text:str, n:int=4) -> float:
    "Share of the n-grams of `text` (words, punctuation marks, letters of a run) that repeat an earlier one (0: none repeats; near 1: one phrase over and over)."
    words = _WORDS.findall(_RUN.sub(lambda m: ' '.join(m.group()), text))
    grams = [tuple(words[i:i + n]) for i in range(len(words) - n + 1)]
    return 1 - len(set(grams)) / len(grams) if grams else 0.0

def too_short(text:str, n:int=4) -> bool:
    "Whether `text` has fewer than n words and marks: no n-gram to repeat, so its repetition rate would say nothing."
    return len(_WORDS.findall(_RUN.sub(lambda m: ' '.join(m.group()), text))) < n

def process_results(doc:dict, results:list) -> dict:
    """Per-item scores of one generated answer, on its first `BYTE_BUDGET` bytes: chrF (sacrebleu, 0-100) against the reference;
    rep4, its repetition rate, 1 for an answer too short to have a 4-gram (silence must not score as fluent); `empty`, 1 for
    an answer with no letter or digit; `brevity`, the share of the reference's length the answer lacks (0 when as long, 1 when
    silent); `chrf_retrieval`, the chrF of the retrieval baseline (the training answer of the nearest training question)."""
    from sacrebleu.metrics import CHRF
    pred = clip_bytes(results[0]).strip() if results else ''
    chrf = CHRF()
    out = dict(chrf=chrf.sentence_score(pred, [doc['answer']]).score, rep4=1.0 if too_short(pred) else repetition_rate(pred),
               empty=float(not re.search(r'\w', pred)), brevity=max(0.0, 1 - len(pred.encode()) / max(1, len(doc['answer'].encode()))))
    if doc.get('retrieval') is not None: out['chrf_retrieval'] = chrf.sentence_score(clip_bytes(doc['retrieval']).strip(), [doc['answer']]).score
    return out
