"The data path and per-item metrics of `az_sft_gen` (see az_sft_gen.yaml): chrF against the reference answer, and the share of repeated word 4-grams."
from pathlib import Path

data_file = str(Path(__file__).resolve().parent/'az_sft_gen.jsonl')   # absolute: lm-eval resolves data_files against the working directory

def repetition_rate(text:str, n:int=4) -> float:
    "Share of the word n-grams of `text` that repeat an earlier one (0: none repeats; near 1: one phrase over and over)."
    words = text.split()
    grams = [tuple(words[i:i + n]) for i in range(len(words) - n + 1)]
    return 1 - len(set(grams)) / len(grams) if grams else 0.0

def process_results(doc:dict, results:list) -> dict:
    "Per-item scores of one generated answer: chrF (sacrebleu, 0-100) against the reference, and its repetition rate."
    from sacrebleu.metrics import CHRF
    pred = results[0].strip() if results else ''
    return dict(chrf=CHRF().sentence_score(pred, [doc['answer']]).score, rep4=repetition_rate(pred))
