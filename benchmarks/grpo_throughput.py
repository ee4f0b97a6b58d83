"""GRPO speed on one GPU: the engine's sampler against `transformers.generate`, and a GRPO step of `azllm train` against TRL's
GRPOTrainer without vLLM, at the same prompts, generations, lengths and LoRA settings.

    python benchmarks/grpo_throughput.py --out benchmarks/results/grpo_throughput_h100.json   # one H100/H200, at most --budget 500 s
    python benchmarks/grpo_throughput.py --rows grpo_trl_static --out benchmarks/results/grpo_throughput_h100.json   # adds a row
    python benchmarks/grpo_throughput.py --tiny --out /tmp/grpo-tiny.json                     # CPU check of the script at a tiny shape

Every row uses one model, saved once in --model-dir: the Llama 3.2 1B shape, random init (seed 0), the Llama 3 tokenizer;
random weights are fine for speed. A random model almost never samples its stop token, so every completion runs to its full
length in every row. Each row runs in its own process:
- gen_hf: `model.generate` (dynamic KV cache, sampling at temperature 1, top_k off) on --prompts prompts of
  data_samples/az_math/train.jsonl through the chat template, --max-new-tokens new tokens, bf16 weights;
- gen_engine: the same prompts through `azllm.generate.sample_ids` (static KV cache, the decode step compiled on a GPU);
  gen_engine_eager: the same without compiling. Tokens/s: generated tokens over the seconds of a call, median over
  --gen-repeats calls after one warm-up call (which compiles);
- grpo_azllm: `azllm train configs/grpo_llama-3.2-1b.yml` with the model, --steps steps, no validation, nothing saved until
  the end; step seconds from its log.jsonl (median after --skip steps);
- grpo_trl: TRL GRPOTrainer + peft on the same model (fp32 weights, bf16 autocast), the same LoRA (r16, alpha 32, dropout 0,
  the 7 projections), prompts per step, generations per prompt, completion length, temperature, beta, clip, loss type (dapo)
  and rewards (azllm's own reward functions, named as in the config); gradient checkpointing off as in the config;
  grpo_trl_static: the same with TRL's `cache_implementation='static'` (its own static-cache generation).
"""
import argparse, json, os, shutil, statistics, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PROMPTS, CFG = ROOT/'data_samples/az_math/train.jsonl', ROOT/'configs/grpo_llama-3.2-1b.yml'
ROWS = 'gen_hf,gen_engine,grpo_azllm,grpo_trl,gen_engine_eager,grpo_trl_static'
DEFAULT_ROWS = 'gen_hf,gen_engine,grpo_azllm,grpo_trl,gen_engine_eager'   # grpo_trl_static on request (it compiles: minutes)
FULL = dict(preset='llama-3.2-1b', prompts=64, max_new_tokens=256, steps=6, skip=2, micro_batch=4, generations=8, gen_repeats=2)
TINY = dict(preset='llama-tiny', prompts=4, max_new_tokens=8, steps=2, skip=0, micro_batch=2, generations=2, gen_repeats=1)
LORA = dict(r=16, lora_alpha=32, lora_dropout=0.0, target_modules=['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'])


def prompt_rows(n:int) -> list[dict]:
    return [json.loads(l) for l in PROMPTS.read_text(encoding='utf-8').splitlines()[:n]]


def sync(cuda:bool):
    if cuda:
        import torch; torch.cuda.synchronize()


def row_gen(row:str, a) -> dict:
    "gen_hf, gen_engine or gen_engine_eager in this process: generated tokens per second at batch --prompts."
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from azllm.generate import sample_ids, stop_ids
    from azllm.decode import decoder_for
    cuda = torch.cuda.is_available()
    tok = AutoTokenizer.from_pretrained(a.model_dir)
    model = AutoModelForCausalLM.from_pretrained(a.model_dir, dtype=torch.bfloat16 if cuda else torch.float32, attn_implementation='sdpa')
    model = model.to('cuda' if cuda else 'cpu').eval()
    prompts = [list(tok.apply_chat_template(r['prompt'], add_generation_prompt=True, tokenize=True, return_dict=True)['input_ids']) for r in prompt_rows(a.prompts)]
    stop, pad = stop_ids(tok), tok.pad_token_id if tok.pad_token_id is not None else stop_ids(tok)[0]
    if row == 'gen_engine_eager': decoder_for(model).compile = False
    def engine():
        return sample_ids(model, tok, prompts, 1, a.max_new_tokens, 1.0, 1.0)[1].sum().item()
    def hf():
        P = max(map(len, prompts))
        ids = torch.tensor([[pad] * (P - len(p)) + p for p in prompts], device=model.device)
        am = torch.tensor([[0] * (P - len(p)) + [1] * len(p) for p in prompts], device=model.device)
        with torch.no_grad():
            out = model.generate(input_ids=ids, attention_mask=am, max_new_tokens=a.max_new_tokens, do_sample=True, temperature=1.0, top_p=1.0,
                                 top_k=0, eos_token_id=stop, pad_token_id=pad)[:, P:]
        hit = torch.isin(out, torch.tensor(stop, device=out.device)).int()
        return ((hit.cumsum(1) - hit) == 0).sum().item()
    fn = hf if row == 'gen_hf' else engine
    torch.manual_seed(0)
    sync(cuda); t0 = time.perf_counter(); warm_tokens = fn(); sync(cuda); warm = time.perf_counter() - t0
    rates, secs = [], []
    for _ in range(a.gen_repeats):
        sync(cuda); t0 = time.perf_counter(); n = fn(); sync(cuda); dt = time.perf_counter() - t0
        rates.append(n / dt); secs.append(dt)
    return dict(tok_per_s=statistics.median(rates), call_tok_per_s=rates, call_s=secs, warmup_s=warm, warmup_tokens=warm_tokens,
                batch=len(prompts), prompt_tokens=[min(map(len, prompts)), max(map(len, prompts))], max_new_tokens=a.max_new_tokens,
                peak_gib=torch.cuda.max_memory_allocated() / 2**30 if cuda else None, dtype=str(next(model.parameters()).dtype),
                compiled=row == 'gen_engine' and cuda)


def rewards_of(a) -> dict:
    "The rewards both GRPO rows use: the shipped config's, or --rewards NAME=WEIGHT,... (the same for both rows)."
    import yaml
    if not a.rewards: return yaml.safe_load(CFG.read_text())['rewards']
    return {k: float(v) for k, v in (x.split('=') for x in a.rewards.split(','))}


def azllm_run_config(a, out:Path, extra:dict|None=None) -> tuple[dict, Path]:
    "The shipped GRPO config with the benchmark's model, shapes, step count and rewards (and `extra` keys), written beside `out`, which starts empty."
    import yaml
    shutil.rmtree(out, ignore_errors=True)
    over = dict(output_dir=str(out), model=str(a.model_dir), tokenizer=None, valid_data=None, max_steps=a.steps, warmup_steps=2, log_every=1,
                save_every=10 * a.steps, eval_every=0, tensorboard=False, epochs=None, micro_batch=a.micro_batch, num_generations=a.generations,
                max_new_tokens=a.max_new_tokens, seq_len=max(512, a.max_new_tokens + 256), grad_accum=1, rewards=rewards_of(a), **(extra or {}))
    run_cfg = out.with_suffix('.yml'); run_cfg.write_text(yaml.safe_dump({**yaml.safe_load(CFG.read_text()), **over}))
    return over, run_cfg


def row_azllm(a) -> dict:
    "The real command on the shipped GRPO config with the model and step count; step seconds from its log.jsonl."
    from azllm.rundir import read_log
    out = Path(a.work)/'bench-grpo_azllm'
    over, run_cfg = azllm_run_config(a, out)
    t0 = time.time()
    p = subprocess.run([sys.executable, '-m', 'azllm.cli', 'train', str(run_cfg)], capture_output=True, text=True, timeout=a.row_timeout)
    log = [r for r in read_log(out) if 'loss' in r] if (out/'log.jsonl').exists() else []
    if not log: return dict(error=(p.stderr.strip().splitlines() or ['no output'])[-1][:400], stderr_tail=p.stderr[-3000:])
    prev = [0] + [r['tokens'] for r in log[:-1]]
    secs = [(r['tokens'] - t) / r['tok_per_s'] for r, t in zip(log, prev)]            # the trainer's own clock: tokens / (tokens / s)
    res = dict(step_s=statistics.median(secs[a.skip:] or secs), steps_s=secs, process_s=time.time() - t0, peak_gib=max(r['peak_mem_gib'] for r in log),
               completions_per_step=a.micro_batch * a.generations, losses=[r['loss'] for r in log], reward=[r.get('reward') for r in log],
               completion_len=[r.get('completion_len') for r in log], command=f"azllm train {CFG.relative_to(ROOT)} " + ' '.join(f'{k}={v}' for k, v in over.items() if k not in ('output_dir', 'model')))
    if p.returncode: res['error_after_training'] = (p.stderr.strip().splitlines() or [''])[-1][:400]
    return res


def row_trl(row:str, a) -> dict:
    "grpo_trl or grpo_trl_static in this process: TRL GRPOTrainer + peft with the config's settings."
    import torch
    from datasets import Dataset
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback
    from trl import GRPOConfig, GRPOTrainer
    from azllm.rewards import combined_reward
    import yaml
    cfg = yaml.safe_load(CFG.read_text())
    cuda = torch.cuda.is_available()
    tok = AutoTokenizer.from_pretrained(a.model_dir)
    model = AutoModelForCausalLM.from_pretrained(a.model_dir, dtype=torch.float32, attn_implementation='sdpa')
    score = combined_reward(rewards_of(a), lo=cfg['length_band'][0], hi=cfg['length_band'][1])
    def reward(completions, answer, **kw):                     # azllm's rewards on the completion texts
        texts = [c[-1]['content'] if isinstance(c, list) else c for c in completions]
        return score(texts, answer=answer)[0]
    reward.__name__ = 'azllm_rewards'
    ds = Dataset.from_list([dict(prompt=r['prompt'], answer=r['answer']) for r in prompt_rows(10 ** 6)])
    times = []
    class Clock(TrainerCallback):
        def on_step_end(self, args, state, control, **kw):
            sync(cuda); times.append(time.perf_counter())
    args = GRPOConfig(output_dir=str(Path(a.work)/f'bench-{row}'), max_steps=a.steps, per_device_train_batch_size=a.micro_batch * a.generations,
                      num_generations=a.generations, max_completion_length=a.max_new_tokens, temperature=cfg['temperature'], top_p=cfg['top_p'],
                      beta=cfg['beta'], epsilon=cfg['epsilon'], epsilon_high=cfg['epsilon_high'], loss_type=cfg['loss_type'],
                      scale_rewards=cfg['scale_rewards'], learning_rate=cfg['lr'], warmup_steps=2, lr_scheduler_type='constant_with_warmup',
                      gradient_checkpointing=False, use_vllm=False, bf16=cuda, use_cpu=not cuda, logging_steps=1, save_strategy='no',
                      report_to='none', disable_tqdm=True, seed=0, **(dict(cache_implementation='static') if row == 'grpo_trl_static' else {}))
    tr = GRPOTrainer(model=model, reward_funcs=reward, args=args, train_dataset=ds, processing_class=tok,
                     peft_config=LoraConfig(task_type='CAUSAL_LM', **LORA), callbacks=[Clock()])
    if cuda: torch.cuda.reset_peak_memory_stats()
    t0 = time.perf_counter()
    tr.train()
    secs = [t1 - t for t, t1 in zip([t0] + times[:-1], times)]
    hist = [h for h in tr.state.log_history if 'loss' in h]
    return dict(step_s=statistics.median(secs[a.skip:] or secs), steps_s=secs, peak_gib=torch.cuda.max_memory_allocated() / 2**30 if cuda else None,
                completions_per_step=a.micro_batch * a.generations, losses=[h['loss'] for h in hist], reward=[h.get('reward') for h in hist],
                completion_len=[h.get('completions/mean_length') for h in hist],
                settings=f"TRL GRPOTrainer + peft LoRA r16 alpha 32 dropout 0 (7 projections), {a.micro_batch} prompts x {a.generations} generations, "
                         f"{a.max_new_tokens} new tokens, loss {cfg['loss_type']}, beta {cfg['beta']}, {'bf16 autocast' if cuda else 'fp32 (CPU)'}, no vLLM"
                         + (", cache_implementation='static'" if row == 'grpo_trl_static' else ''))


def summarize(rows:dict) -> dict:
    "Speed-ups between rows of one run (one machine); a pair from two runs is kept apart, under a key ending in `_across_runs`."
    ok = {k: r for k, r in rows.items() if 'error' not in r}
    out = {}
    def ratio(key, num, den, f):
        if num in ok and den in ok:
            out[key + ('' if ok[num].get('run') == ok[den].get('run') else '_across_runs')] = f(ok[num], ok[den])
    ratio('generation_speedup', 'gen_engine', 'gen_hf', lambda a, b: a['tok_per_s'] / b['tok_per_s'])
    ratio('generation_speedup_eager', 'gen_engine_eager', 'gen_hf', lambda a, b: a['tok_per_s'] / b['tok_per_s'])
    for t in ('grpo_trl', 'grpo_trl_static'): ratio(f'step_speedup_over_{t[5:]}', t, 'grpo_azllm', lambda a, b: a['step_s'] / b['step_s'])
    same = [t for t in ('grpo_trl', 'grpo_trl_static') if t in ok and 'grpo_azllm' in ok and ok[t].get('run') == ok['grpo_azllm'].get('run')]
    if same:                                                    # the strongest TRL row of the azllm row's run
        best = min(same, key=lambda t: ok[t]['step_s'])
        out.update(strongest_trl=best, step_speedup_over_strongest_trl=ok[best]['step_s'] / ok['grpo_azllm']['step_s'])
    return out


def markdown_tables(path:str|Path) -> str:
    "The results file as two Markdown tables (sampler tokens/s; GRPO step seconds); '' when the file does not exist."
    path = Path(path)
    if not path.exists(): return ''
    res = json.loads(path.read_text())
    label = 'CPU check at a tiny shape: checks the script, not a speed figure' if res.get('tiny') else res.get('machine', '')
    gen = {k: r for k, r in res['rows'].items() if k.startswith('gen_')}
    step = {k: r for k, r in res['rows'].items() if k.startswith('grpo_')}
    runs = res.get('runs') or [dict(command=res['command'], machine=res.get('machine', ''))]
    tag = (lambda r: f" (run {r.get('run', 0) + 1})") if len(runs) > 1 else (lambda r: '')
    lines = [f"*{label}*", ''] + [f"- run {i + 1}: {x.get('machine', '')}, {x.get('date', '')} — `{x['command']}`".replace(', —', ' —')
                                  + (f" {x['note']}" if x.get('note') else '') for i, x in enumerate(runs)] + ['']
    if gen:
        lines += ['| sampler | tokens/s | batch | new tokens | warm-up s | peak GiB |', '|---|---:|---:|---:|---:|---:|']
        for k, r in gen.items():
            if 'error' in r: lines.append(f"| {k} | failed: {r['error'][:80]} | | | | |"); continue
            peak = f"{r['peak_gib']:.1f}" if r.get('peak_gib') is not None else '—'
            lines.append(f"| {k}{tag(r)} | {r['tok_per_s']:,.0f} | {r['batch']} | {r['max_new_tokens']} | {r['warmup_s']:.1f} | {peak} |")
        lines.append('')
    if step:
        lines += ['| GRPO step | seconds/step (median) | completions/step | peak GiB | steps |', '|---|---:|---:|---:|---:|']
        for k, r in step.items():
            if 'error' in r: lines.append(f"| {k} | failed: {r['error'][:80]} | | | |"); continue
            peak = f"{r['peak_gib']:.1f}" if r.get('peak_gib') is not None else '—'
            lines.append(f"| {k}{tag(r)} | {r['step_s']:.2f} | {r['completions_per_step']} | {peak} | {len(r['steps_s'])} |")
    s = res.get('summary', {})
    said = [f"{name} {s[k]:.2f}x" for k, name in (('generation_speedup', 'sampler vs generate:'), ('generation_speedup_across_runs', 'sampler vs generate (two runs):'),
                                                   ('step_speedup_over_trl', 'GRPO step vs TRL:'), ('step_speedup_over_trl_static', "vs TRL's static cache:")) if k in s]
    if said: lines += ['', '; '.join(said) + '.']
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--rows', default=DEFAULT_ROWS, help=f"comma-separated, of {ROWS}; rows not run are kept from --out")
    ap.add_argument('--budget', type=int, default=500, help='seconds all rows may take together (rows past it are skipped)')
    ap.add_argument('--tiny', action='store_true', help='CPU check at a tiny shape')
    ap.add_argument('--out', required=True, help='results JSON')
    ap.add_argument('--work', default='/tmp/grpo-bench', help='model and run directories')
    ap.add_argument('--model-dir', help='the model every row uses (made from the preset when missing)')
    ap.add_argument('--timeout', type=int, default=200, help='seconds one row may take')
    for k, v in FULL.items():
        if k != 'preset': ap.add_argument('--' + k.replace('_', '-'), type=int, default=None, help=f'default {v} (tiny: {TINY[k]})')
    ap.add_argument('--rewards', default=None, help="NAME=WEIGHT,... for both GRPO rows (default: the shipped config's), e.g. "
                    "numeric_match=1,answer_format=0.2 where the language identifier (lingua-language-detector) is not installed")
    ap.add_argument('--row', help=argparse.SUPPRESS)
    a = ap.parse_args()
    for k, v in (TINY if a.tiny else FULL).items():
        if getattr(a, k, None) is None: setattr(a, k, v)
    Path(a.work).mkdir(parents=True, exist_ok=True)
    a.model_dir = a.model_dir or str(Path(a.work)/f'model-{a.preset}')
    if a.row:                                                   # child process: one row, JSON on the last line
        print(json.dumps(row_gen(a.row, a) if a.row.startswith('gen_') else row_trl(a.row, a))); return
    from benchmarks.dpo_throughput import make_model   # the DPO benchmark's model: a preset's shape, random init (seed 0), the Llama 3 tokenizer, saved once
    make_model(Path(a.model_dir), a.preset)
    import torch, transformers, peft
    old = json.loads(Path(a.out).read_text()) if Path(a.out).exists() else {}
    runs = old.get('runs') or ([dict(command=old['command'], machine=old.get('machine'), versions=old.get('versions'))] if old else [])
    kept = {k: dict(r, run=r.get('run', 0)) for k, r in old.get('rows', {}).items()}      # rows of earlier runs say which run made them
    me = dict(command='python benchmarks/grpo_throughput.py ' + ' '.join(sys.argv[1:]), date=time.strftime('%Y-%m-%d', time.gmtime()),
              machine=torch.cuda.get_device_name() if torch.cuda.is_available() else f'CPU ({os.cpu_count()} cores)',
              versions={m.__name__: m.__version__ for m in (torch, transformers, peft)})
    res = dict(command='; '.join(x['command'] for x in runs + [me]), tiny=a.tiny, machine=me['machine'], versions=me['versions'], model=a.preset,
               settings={k: getattr(a, k) for k in FULL}, rewards=rewards_of(a), runs=runs + [me], rows=kept)
    try: me['versions']['trl'] = __import__('trl').__version__
    except ImportError: pass
    start = time.time()
    for row in a.rows.split(','):
        if row not in ROWS.split(','): raise SystemExit(f"unknown row {row!r}; rows: {ROWS}")
        t0, left = time.time(), int(a.budget - (time.time() - start))
        if left < 30: print(f"{row}: skipped, the budget of {a.budget} s is spent", flush=True); continue
        a.row_timeout = min(a.timeout, left)
        try:
            if row == 'grpo_azllm': r = row_azllm(a)
            else:
                argv = [sys.executable, __file__, '--row', row, '--out', a.out, '--work', a.work, '--model-dir', a.model_dir] + (['--tiny'] if a.tiny else [])
                argv += [x for k in FULL if k != 'preset' for x in ('--' + k.replace('_', '-'), str(getattr(a, k)))]
                argv += ['--rewards', a.rewards] if a.rewards else []
                p = subprocess.run(argv, capture_output=True, text=True, timeout=a.row_timeout)
                r = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else dict(error=(p.stderr.strip().splitlines() or [''])[-1][:400], stderr_tail=p.stderr[-3000:])
        except subprocess.TimeoutExpired: r = dict(error=f'timed out after {a.row_timeout} s')
        r['wall_s'], r['run'] = time.time() - t0, len(res['runs']) - 1
        res['rows'][row] = r
        print(row, json.dumps({k: v for k, v in r.items() if k not in ('losses', 'reward', 'completion_len', 'stderr_tail', 'steps_s')})[:500], flush=True)
        res['summary'] = summarize(res['rows'])
        Path(a.out).write_text(json.dumps(res, indent=1) + '\n')      # after every row: a run cut short keeps what it measured
    print(json.dumps(res['summary'], indent=1))


if __name__ == '__main__':
    main()
