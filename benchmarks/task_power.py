"""Power of the task set by simulation, with the report's own decision rule: how often a model that is truly better than its
untrained twin by +d is called better (`azllm.stats.paired_test` over item families, and `within_noise`: the paired
cluster-bootstrap interval clear of 0 and the clustered McNemar p <= 0.05), resampling whole families.

The twin is real: the untrained `preset:llama-tiny` (az4k tokenizer, seed 0) scored on every item, as the floors file's
twins are. A trained model is simulated from it: on each item it gives the twin's answer with probability r (the
correlation a real model has with its twin, measured on the controls of benchmarks/real_controls.py: the smallest), and
otherwise an answer of its own, right with a family's own probability (families differ with intraclass correlation k: the
largest of the twin's and the controls'), so that its accuracy is the twin's + d. Both choices are the pessimistic side. A design of F frames and m items a frame draws F families
with replacement and m of each family's items with replacement: more frames than the task has assumes new frames behave
like the ones it has.

    python benchmarks/task_power.py                   # writes benchmarks/results/az_tasks_power.json, renders the README table
    python benchmarks/task_power.py --sims 100        # quicker, coarser
"""
from __future__ import annotations
import argparse, importlib.util, json, platform, re, sys, time
from pathlib import Path
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT/'benchmarks'/'results'/'az_tasks_power.json'
FLOORS = ROOT/'benchmarks'/'results'/'az_tasks_floors.json'
GAIN = {'az_grammar': 0.05, 'az_reading': 0.08, 'az_knowledge': 0.08}


def task_floors():
    spec = importlib.util.spec_from_file_location('task_floors', ROOT/'benchmarks'/'task_floors.py')
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m


F = task_floors()


def twin_vectors(seed:int=0, tok_name:str='az4k', tasks=F.HEADLINE) -> dict:
    "{task: (right/wrong per item, family per item)} of the untrained tiny Llama on every item."
    import torch
    from azllm.model import load_model
    tok = F.builder().shortcut_tokenizers()[tok_name]
    model = load_model('preset:llama-tiny', tok, seed=seed).eval(); out = {}
    with torch.inference_mode():
        for t in tasks:
            items = F.rows(t)
            out[t] = (np.array(F.correct(F.loglikelihoods(model, tok, t, items), items), float), [it['family'] for it in items])
    return out


def simulate(twin:np.ndarray, fams:list, frames:int, per_frame:int, gain:float, r:float, icc:float, rng) -> tuple:
    "One simulated (model, twin, families) of `frames` x `per_frame` items drawn from the real twin's families."
    by = {}
    for i, f in enumerate(fams): by.setdefault(f, []).append(i)
    keys = list(by); pick = rng.integers(0, len(keys), frames)
    idx = np.concatenate([rng.choice(by[keys[k]], per_frame, replace=True) for k in pick]); fam = np.repeat(np.arange(frames), per_frame)
    t = twin[idx]; base = t.mean()
    q = min(1.0, base + gain / (1 - r)) if r < 1 else base
    pf = np.clip(q + np.sqrt(icc * q * (1 - q)) * rng.standard_normal(frames), 0, 1)[fam]
    own = (rng.random(len(t)) < pf).astype(float)
    m = np.where(rng.random(len(t)) < r, t, own)
    return m, t, fam


def power(twin, fams, frames, per_frame, gain, r, icc, sims:int, n_boot:int, seed:int=0) -> dict:
    "The share of `sims` simulated comparisons the report calls better (interval clear of 0, clustered McNemar p <= 0.05, model ahead)."
    from azllm.stats import paired_test, within_noise
    rng = np.random.default_rng(seed); hits, corr, diffs = 0, [], []
    for s in range(sims):
        m, t, fam = simulate(twin, fams, frames, per_frame, gain, r, icc, rng)
        cl = {i: int(f) for i, f in enumerate(fam)}
        res = paired_test(dict(enumerate(m)), dict(enumerate(t)), 'acc', n_boot=n_boot, seed=s, clusters=cl)
        hits += (not within_noise(res)) and res['diff'] > 0
        if m.std() and t.std(): corr.append(np.corrcoef(m, t)[0, 1])
        diffs.append(res['diff'])
    return dict(power=round(hits / sims, 3), realized_correlation=round(float(np.mean(corr)), 3) if corr else None,
                mean_diff=round(float(np.mean(diffs)), 4), sims=sims)


def measured(floors:dict) -> dict:
    "{task: {control: (item correlation with its twin, within-family correlation)}} from the real controls in the floors file."
    rc = (floors.get('real_controls') or {}).get('controls', {})
    return {t: {n: (c['tasks'][t]['item_correlation'], c['tasks'][t]['icc']) for n, c in rc.items() if t in c['tasks']} for t in F.HEADLINE}


def cached_twin_vectors(path:str|None, tasks=F.HEADLINE) -> dict:
    "`twin_vectors`, kept in `path` (JSON) between runs when given: the twin is the costly part on a CPU, the simulation is not."
    if path and Path(path).exists():
        d = json.loads(Path(path).read_text())
        if d['data_sha256'] == {t: F.data_sha256(t) for t in tasks}: return {t: (np.array(v, float), f) for t, (v, f) in d['tasks'].items()}
    tv = twin_vectors(tasks=tasks)
    if path: Path(path).write_text(json.dumps(dict(data_sha256={t: F.data_sha256(t) for t in tasks}, tasks={t: (v.tolist(), f) for t, (v, f) in tv.items()})))
    return tv


def run(sims:int, n_boot:int, twin_cache:str|None=None, tasks=F.HEADLINE) -> dict:
    floors = json.loads(FLOORS.read_text(encoding='utf-8')); meas = measured(floors)
    tv = cached_twin_vectors(twin_cache, tasks); out = dict(measured={t: {n: dict(item_correlation=a, icc=b) for n, (a, b) in m.items()} for t, m in meas.items()}, tasks={})
    for t in tasks:
        v, fams = tv[t]; sizes = [fams.count(f) for f in dict.fromkeys(fams)]
        nf, m0 = len(sizes), round(np.mean(sizes))
        twin_icc = max(0.0, F_icc(v, fams))
        # the pessimistic side of what the controls measured: the least a real model follows its twin (fewer shared answers,
        # more discordant items) and the most its answers move together within a family; a negative estimate counts as 0
        rs = [max(0.0, x) for x, _ in meas[t].values() if x is not None]; ks = [max(0.0, k) for _, k in meas[t].values() if k is not None]
        r_real, k_real = round(min(rs) if rs else 0.0, 4), round(max([twin_icc, *ks]), 4)
        scen = {'independent items (r 0, k 0)': (0.0, 0.0), f"twin's within-family correlation (r 0, k {twin_icc:.2f})": (0.0, twin_icc),
                f'as the real controls (r {r_real:.2f}, k {k_real:.2f})': (r_real, k_real)}
        rows = {name: power(v, fams, nf, m0, GAIN[t], r, k, sims, n_boot) for name, (r, k) in scen.items()}
        out['tasks'][t] = dict(items=len(v), families=nf, per_family=m0, gain=GAIN[t], twin_icc=round(twin_icc, 4), r=r_real, k=k_real, scenarios=rows)
        if t == 'az_grammar':             # designs of frames x pairs, where the frames hurt: a model independent of its twin (r 0), frames correlated as measured
            designs = [(nf, m0), (397, 14), (2 * nf, max(1, m0 // 2)), (3 * nf, max(1, m0 // 3)), (4 * nf, max(1, m0 // 4)), (nf * m0 // 2, 2), (nf * m0, 1), (2 * nf, m0)]   # 397 x 14: task sets v4-v5
            out['tasks'][t]['designs'] = [dict(frames=f, per_frame=m, items=f * m, **power(v, fams, f, m, GAIN[t], 0.0, k_real, sims, n_boot)) for f, m in designs]
    return out


def F_icc(v, fams) -> float:
    spec = importlib.util.spec_from_file_location('real_controls', ROOT/'benchmarks'/'real_controls.py')
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    return m.within_family_correlation('x', [{'family': f} for f in fams], list(v)) or 0.0


def table(res:dict) -> str:
    "Power per task and scenario, then grammar's designs at the measured correlations."
    lines = ['| task (items, families) | true gain | ' + ' | '.join(['independent items', "twin's within-family correlation", 'as the real controls']) + ' |',
             '|---|---|---|---|---|']
    for t, d in res['tasks'].items():
        cells = [f"{v['power']:.2f} ({k.split('(')[1].rstrip(')')})" for k, v in d['scenarios'].items()]
        lines.append(f"| {t} ({d['items']}, {d['families']}) | +{d['gain'] * 100:.0f} | " + ' | '.join(cells) + ' |')
    g = res['tasks']['az_grammar']
    lines += ['', f"az_grammar at +5 by design, for a model independent of its twin (r 0) whose answers move together within a frame as measured (k {g['k']:.2f}):", '',
              '| frames | pairs per frame | pairs | power |', '|---|---|---|---|']
    lines += [f"| {d['frames']} | {d['per_frame']} | {d['items']} | {d['power']:.2f} |" for d in g['designs']]
    lines.append(f"\nr: how often the simulated model repeats its twin's answer (the item correlation measured between a real control "
                 f"and its twin); k: the intraclass correlation of its own answers within a family. {res['sims']} simulations a cell, "
                 f"{res['n_boot']} bootstrap resamples each; `{res['command']}` on {res['machine']}, {res['seconds']:.0f} s.")
    return '\n'.join(lines)


def render(res:dict):
    text = F.README.read_text(encoding='utf-8'); name = 'power'
    pat = re.compile(rf'(<!-- begin {name} -->\n).*?(<!-- end {name} -->)', re.S)
    if not pat.search(text): raise SystemExit(f'{F.README}: no <!-- begin {name} --> ... <!-- end {name} --> block')
    F.README.write_text(pat.sub(lambda m: m.group(1) + table(res) + '\n' + m.group(2), text), encoding='utf-8')


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sims', type=int, default=200); ap.add_argument('--n-boot', type=int, default=400)
    ap.add_argument('--out', default=str(OUT)); ap.add_argument('--render', action='store_true')
    ap.add_argument('--twin-cache', default=None, help="a JSON file to keep the twin's answers in between runs")
    ap.add_argument('--tasks', default=','.join(F.HEADLINE), help="the tasks to simulate; the stored rows of the others stay (a rebuild of one task re-simulates that task)")
    a = ap.parse_args(argv)
    tasks = tuple(t for t in F.HEADLINE if t in a.tasks.split(','))
    if not tasks: raise SystemExit(f'--tasks: name one or more of {", ".join(F.HEADLINE)}')
    if a.render: return render(json.loads(Path(a.out).read_text(encoding='utf-8')))
    import torch; torch.set_num_threads(1); t0 = time.time()
    res = run(a.sims, a.n_boot, a.twin_cache, tasks)
    args = argv if argv is not None else sys.argv[1:]
    args = [x for i, x in enumerate(args) if x not in ('--out', '--twin-cache') and (i == 0 or args[i - 1] not in ('--out', '--twin-cache'))]
    res.update(sims=a.sims, n_boot=a.n_boot, command=' '.join(['python benchmarks/task_power.py', *args]),
               machine=f'{platform.machine()} {platform.system()} CPU, 1 thread', seconds=round(time.time() - t0, 1),
               data_sha256={t: F.data_sha256(t) for t in F.HEADLINE})
    if tasks != F.HEADLINE:                 # keep the stored rows of the tasks not simulated, if their task files are unchanged
        old = json.loads(Path(a.out).read_text(encoding='utf-8'))
        keep = [t for t in F.HEADLINE if t not in tasks and old['data_sha256'].get(t) == res['data_sha256'][t]]
        if len(keep) + len(tasks) < len(F.HEADLINE): raise SystemExit(f'--tasks: the stored rows of the other tasks are for other task files; simulate all of them')
        if (old['sims'], old['n_boot']) != (a.sims, a.n_boot): raise SystemExit(f"--tasks: the stored rows used --sims {old['sims']} --n-boot {old['n_boot']}: use the same")
        res['tasks'] = {t: res['tasks'][t] if t in tasks else old['tasks'][t] for t in F.HEADLINE}
        res.update(command=f"{old['command']}; {res['command']}", seconds=round(old['seconds'] + res['seconds'], 1))
    Path(a.out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    print(table(res))
    if Path(a.out).resolve() == OUT.resolve(): render(res)


if __name__ == '__main__': main()
