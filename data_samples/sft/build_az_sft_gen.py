"""Write azllm/tasks/az_sft_gen.jsonl: the held-out questions of valid.jsonl with their reference answers, for the
lm-eval generation task `az_sft_gen` (azllm/tasks/az_sft_gen.yaml).

    python data_samples/sft/build_az_sft_gen.py

Deterministic. The items are shuffled with a fixed seed so that lm-eval's `limit: N` (the first N items) mixes
handwritten and template pairs and every system prompt, as the whole set does.

Memory must not win: a held-out answer that is a near copy of a training answer (character 5-gram Jaccard similarity of
NOVEL or more with any of them) is left out, since a model that recalls its training answers would score on it without
answering. Each item carries `retrieval`, the training answer of its nearest training question: the score of that answer is
the retrieval baseline every report prints beside the models.
"""
import json, random, re, zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent/'azllm'/'tasks'/'az_sft_gen.jsonl'
NOVEL = 0.5           # a reference this similar (5-gram Jaccard) to a training answer is a near copy of it

def grams(s:str, n:int=5) -> set:
    s = re.sub(r'\s+', ' ', s.lower()).strip(); return {s[i:i + n] for i in range(max(1, len(s) - n + 1))}

def similarity(a:list[str], b:list[str]):
    "The 5-gram Jaccard similarity of every text of `a` with every text of `b`, as a dense (len(a), len(b)) array (sparse products)."
    import numpy as np, scipy.sparse as sp
    def matrix(texts):
        rows, cols = [], []
        for i, t in enumerate(texts):
            g = {zlib.crc32(x.encode()) for x in grams(t)}; rows += [i] * len(g); cols += list(g)
        return sp.csr_matrix((np.ones(len(rows)), (rows, np.array(cols, dtype=np.int64) % (1 << 24))), shape=(len(texts), 1 << 24))
    A, B = matrix(a), matrix(b)
    A.data[:] = 1; B.data[:] = 1                               # a hash collision inside one text counts once
    inter = (A @ B.T).toarray()
    na, nb = np.asarray(A.sum(1)), np.asarray(B.sum(1)).T
    return inter / (na + nb - inter)

def conversations(path) -> list[tuple]:
    "(system, user, assistant) of each single-turn conversation of a chat JSONL."
    out = []
    for i, line in enumerate(path.read_text(encoding='utf-8').splitlines()):
        msgs = json.loads(line)['messages']
        roles = [m['role'] for m in msgs]
        assert roles in (['user', 'assistant'], ['system', 'user', 'assistant']), f'{path.name} line {i + 1}: not a single turn: {roles}'
        by = {m['role']: m['content'].strip() for m in msgs}
        out.append((by.get('system', ''), by['user'], by['assistant']))
    return out

def items(path=HERE/'valid.jsonl', train=HERE/'train.jsonl', novel:float=NOVEL) -> list[dict]:
    "One item per held-out conversation whose answer is no near copy of a training answer: system prompt (or ''), question, answer, retrieval."
    held, tr = conversations(path), conversations(train)
    near = similarity([a for _, _, a in held], [a for _, _, a in tr]).max(1)
    nearest_q = similarity([u for _, u, _ in held], [u for _, u, _ in tr]).argmax(1)
    return [dict(id=f'valid-{i:03d}', system=s, question=u, answer=a, retrieval=tr[nearest_q[i]][2], nearest_train_similarity=round(float(near[i]), 3))
            for i, (s, u, a) in enumerate(held) if near[i] < novel]

if __name__ == '__main__':
    rows = items()
    train_users = {json.loads(l)['messages'][-2]['content'].strip() for l in (HERE/'train.jsonl').read_text(encoding='utf-8').splitlines()}
    assert not train_users & {r['question'] for r in rows}, 'a held-out question is also a training question'
    random.Random(0).shuffle(rows)
    OUT.write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')
    print(f'{len(rows)} items -> {OUT}')
