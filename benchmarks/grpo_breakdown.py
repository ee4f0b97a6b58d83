"""Where a GRPO step's time goes on one GPU: sampling, rewards, the reference pass, the policy's forward, and the rest (backward
and optimizer); and the sampler's decode step alone, beside the token choice between steps.

    python benchmarks/grpo_breakdown.py --out benchmarks/results/grpo_breakdown_h100.json    # one H100/H200, about 3 minutes
    python benchmarks/grpo_breakdown.py --tiny --out /tmp/grpo-breakdown.json               # CPU check of the script

It runs the real `azllm train configs/grpo_llama-3.2-1b.yml` in this process, on the model `grpo_throughput.py` uses (the
Llama 3.2 1B shape, random init), with the same keys as that script's grpo_azllm row, and wraps the functions a step calls
with a clock that waits for the GPU. Waiting adds a little to each part; the step times come from the run's own log.
"""
import argparse, json, os, statistics, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', required=True, help='results JSON')
    ap.add_argument('--tiny', action='store_true', help='CPU check at a tiny shape')
    ap.add_argument('--work', default='/tmp/grpo-bench')
    ap.add_argument('--steps', type=int, default=5)
    ap.add_argument('--rewards', default='numeric_match=1,answer_format=0.2')
    ap.add_argument('--set', nargs='*', default=[], help='extra KEY=VALUE config overrides for the run')
    a = ap.parse_args()
    import torch, yaml
    from benchmarks.grpo_throughput import FULL, TINY, azllm_run_config
    from benchmarks.dpo_throughput import make_model
    import azllm.grpo as G, azllm.objectives as O, azllm.decode as D
    from azllm.cli import main as cli
    from azllm.rundir import read_log
    s = TINY if a.tiny else FULL
    a.model_dir, a.micro_batch, a.generations, a.max_new_tokens = Path(a.work)/f"model-{s['preset']}", s['micro_batch'], s['generations'], s['max_new_tokens']
    make_model(a.model_dir, s['preset'])
    cuda = torch.cuda.is_available()
    def now():
        if cuda: torch.cuda.synchronize()
        return time.perf_counter()
    parts, step_calls, micro = {}, [0], {}
    def clocked(name, fn):
        def f(*args, **kw):
            t = now(); r = fn(*args, **kw); parts.setdefault(name, []).append(now() - t); return r
        return f
    G.sample_group = clocked('sample', G.sample_group)
    logps = O.completion_logps
    O.completion_logps = lambda *x, **k: clocked('policy_forward' if torch.is_grad_enabled() else 'reference', logps)(*x, **k)
    old_combined = G.combined_reward
    G.combined_reward = lambda *x, **k: clocked('rewards', old_combined(*x, **k))
    old_step, old_sample = D.StaticDecoder.step, D.StaticDecoder.sample
    def step(self, *args):
        step_calls[0] += 1; return old_step(self, *args)
    def sample(self, ids, am, max_new_tokens, *rest):
        r = old_sample(self, ids, am, max_new_tokens, *rest)
        if len(parts.get('sample', [])) == 2 and not micro:           # the third sampling: the decode step alone, and the token choice
            B, P = ids.shape
            L = D.cache_length(P + max_new_tokens, self.bucket)
            cache = self.cache(B, L)
            mask = torch.ones(B, L, dtype=am.dtype, device=ids.device)
            args = (ids[:, -1:], torch.full((B, 1), P, device=ids.device), torch.tensor([P], device=ids.device), mask, cache)
            with torch.no_grad():
                for name, fn in (('decode_step_compiled', lambda: old_step(self, *args)), ('decode_step_eager', lambda: self.forward(*args))):
                    fn(); t = now()
                    for _ in range(32): logits = fn()
                    micro[name] = (now() - t) / 32
                t = now()
                for _ in range(32): D.pick_next(logits, rest[0], rest[1])
                micro['pick_next'] = (now() - t) / 32
        return r
    D.StaticDecoder.step, D.StaticDecoder.sample = step, sample
    out = Path(a.work)/'bench-breakdown'
    over, run_cfg = azllm_run_config(a, out, {k: yaml.safe_load(v) for k, v in (x.split('=', 1) for x in a.set)})
    rc = cli(['train', str(run_cfg)])
    log = [r for r in read_log(out) if 'loss' in r]
    prev = [0] + [r['tokens'] for r in log[:-1]]
    steps = [(r['tokens'] - t) / r['tok_per_s'] for r, t in zip(log, prev)]
    known = [sum(v[i] for v in parts.values() if i < len(v)) for i in range(len(steps))]
    res = dict(command='python benchmarks/grpo_breakdown.py ' + ' '.join(sys.argv[1:]), rc=rc, tiny=a.tiny,
               machine=torch.cuda.get_device_name() if cuda else f'CPU ({os.cpu_count()} cores)', torch=torch.__version__,
               settings=dict(s, rewards=over['rewards'], overrides=a.set), step_s=steps, parts_s=parts,
               rest_s=[st - k for st, k in zip(steps, known)], decode_steps=step_calls[0],
               decode_s_per_token=[x * len(parts['sample']) / max(1, step_calls[0]) for x in parts.get('sample', [])],   # a call's seconds over its share of the steps
               micro_s=micro, peak_gib=max(r['peak_mem_gib'] for r in log) if log else None)
    med = lambda v: statistics.median(v[2:] or v)
    res['median'] = dict(step=med(steps), **{k: med(v) for k, v in parts.items()}, rest=med(res['rest_s']))
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(res, indent=1) + '\n')
    print(json.dumps(dict(median=res['median'], micro=micro, decode_steps=step_calls[0]), indent=1))


if __name__ == '__main__':
    main()
