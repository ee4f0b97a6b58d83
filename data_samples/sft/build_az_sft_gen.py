"""Write azllm/tasks/az_sft_gen.jsonl: the held-out questions of valid.jsonl with their reference answers, for the
lm-eval generation task `az_sft_gen` (azllm/tasks/az_sft_gen.yaml).

    python data_samples/sft/build_az_sft_gen.py

Deterministic (standard library only). The items are shuffled with a fixed seed so that lm-eval's `limit: N`
(the first N items) mixes handwritten and template pairs and every system prompt, as the whole set does.
"""
import json, random
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent/'azllm'/'tasks'/'az_sft_gen.jsonl'

def items(path=HERE/'valid.jsonl') -> list[dict]:
    "One item per held-out conversation: its system prompt (or ''), the user's question and the assistant's answer."
    out = []
    for i, line in enumerate(path.read_text(encoding='utf-8').splitlines()):
        msgs = json.loads(line)['messages']
        roles = [m['role'] for m in msgs]
        assert roles in (['user', 'assistant'], ['system', 'user', 'assistant']), f'valid.jsonl line {i + 1}: not a single turn: {roles}'
        by = {m['role']: m['content'].strip() for m in msgs}
        out.append(dict(id=f'valid-{i:03d}', system=by.get('system', ''), question=by['user'], answer=by['assistant']))
    return out

if __name__ == '__main__':
    rows = items()
    train_users = {json.loads(l)['messages'][-2]['content'].strip() for l in (HERE/'train.jsonl').read_text(encoding='utf-8').splitlines()}
    assert not train_users & {r['question'] for r in rows}, 'a held-out question is also a training question'
    random.Random(0).shuffle(rows)
    OUT.write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')
    print(f'{len(rows)} items -> {OUT}')
