"""Unpaired KTO examples from the DPO pairs: each pair's chosen reply is desirable, its rejected one undesirable.

    python data_samples/kto/make_kto.py

TRL's unpaired conversational format (prompt, completion, label). The rows are shuffled with a fixed seed, so neighbouring
rows almost never share a prompt: KTO's KL estimate pairs each prompt with the previous row's completion (as TRL does)."""
import json, random
from pathlib import Path

HERE = Path(__file__).resolve().parent
for split in ('train', 'valid'):
    pairs = [json.loads(l) for l in (HERE.parent/'dpo'/f'{split}.jsonl').read_text(encoding='utf-8').splitlines() if l.strip()]
    rows = [dict(prompt=p['prompt'], completion=p[k], label=k == 'chosen') for p in pairs for k in ('chosen', 'rejected')]
    random.Random(0).shuffle(rows)
    (HERE/f'{split}.jsonl').write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')
    print(split, len(rows), 'examples,', sum(r['label'] for r in rows), 'desirable')
