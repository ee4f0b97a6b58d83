"Where the bundled task data lies: lm-eval resolves `data_files` against the working directory, so the YAMLs take absolute paths from here (`!function data.NAME`)."
from pathlib import Path

HERE = Path(__file__).resolve().parent
az_grammar = str(HERE/'az_grammar.jsonl')
az_reading = str(HERE/'az_reading.jsonl')
az_knowledge = str(HERE/'az_knowledge.jsonl')
az_corpus_recall = str(HERE/'az_corpus_recall.jsonl')
az_telecom_recall = str(HERE/'az_telecom_recall.jsonl')
az_text = str(HERE/'az_text.jsonl')
