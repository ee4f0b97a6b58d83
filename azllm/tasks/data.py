"Where the bundled task data lies: lm-eval resolves `data_files` against the working directory, so the YAMLs take absolute paths from here (`!function data.NAME`)."
from pathlib import Path

HERE = Path(__file__).resolve().parent
az_mc = str(HERE/'az_mc.jsonl')
az_text = str(HERE/'az_text.jsonl')
