"""A real assistant from real weights: SmolLM2-135M-Instruct (`model: smollm2`) through azllm's stages, and its answers to
the held-out telecom questions of az_sft_gen beside those of the model it started from.

Models compared (each answers the 35 az_sft_gen questions through its own chat template, greedy, at most 256 new tokens):
  base            SmolLM2-135M-Instruct as shipped
  base_sft        LoRA SFT of the base on data_samples/sft/train.jsonl (no CPT)
  cpt_sft         CPT on az_train.txt (--cpt-recipe), then the same LoRA SFT
  cpt_sft_dpo     then DPO on data_samples/dpo/train.jsonl
  twin_sft        the untrained twin (the base's shape, random weights), CPT'd and SFT'd alike: what pretraining adds

Two parts, on two machines if need be:
  python benchmarks/real_weights_assistant.py train --out answers.json      # a GPU (or this CPU with --small): the runs and the answers
  python benchmarks/real_weights_assistant.py score answers.json            # any machine: chrF, repetition, language, stops
`score` writes benchmarks/results/real_weights_assistant_<device>.json with the answers, the scores and both commands.
"""
from __future__ import annotations
import argparse, json, math, os, random, shutil, statistics, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT/'benchmarks'))
DATA = ROOT/'data_samples'
MODELS = ('base', 'base_sft', 'cpt_sft', 'cpt_sft_dpo', 'twin_sft')


def questions() -> list[dict]:
    return [json.loads(l) for l in (ROOT/'azllm'/'tasks'/'az_sft_gen.jsonl').read_text(encoding='utf-8').splitlines() if l.strip()]


def answer_all(model, tok, qs:list[dict], max_new_tokens:int, batch:int=16) -> list[dict]:
    "Greedy answers through the tokenizer's own chat template, in batches (transformers' generate, left padding); each with its token count and whether it ended at a stop token."
    import torch
    from azllm.generate import stop_ids
    stops, out = stop_ids(tok), []
    tok.padding_side = 'left'
    model.eval()
    dev = next(model.parameters()).device
    for i in range(0, len(qs), batch):
        msgs = [([{'role': 'system', 'content': q['system']}] if q.get('system') else []) + [{'role': 'user', 'content': q['question']}]
                for q in qs[i:i + batch]]
        texts = [tok.apply_chat_template(m, tokenize=False, add_generation_prompt=True) for m in msgs]
        enc = tok(texts, return_tensors='pt', padding=True, add_special_tokens=False).to(dev)
        with torch.no_grad(), torch.autocast(dev.type, torch.bfloat16, enabled=dev.type == 'cuda'):
            gen = model.generate(**enc, max_new_tokens=max_new_tokens, do_sample=False, eos_token_id=stops, pad_token_id=tok.pad_token_id)
        for row in gen[:, enc['input_ids'].shape[1]:].tolist():
            ended = next((j for j, t in enumerate(row) if t in stops), None)
            ids = row[:ended] if ended is not None else row
            out.append(dict(answer=tok.decode(ids, skip_special_tokens=True), new_tokens=len(ids), stopped=ended is not None))
    return out


def twin_dir(model_dir:str, work:Path, seed:int=0) -> str:
    "The untrained twin: the same config and tokenizer, weights drawn afresh."
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer
    torch.manual_seed(seed)
    m = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(model_dir))
    out = work/'twin'
    m.save_pretrained(out); AutoTokenizer.from_pretrained(model_dir).save_pretrained(out)
    return str(out)


def train(a):
    import torch
    from azllm.cli import main as azllm
    from azllm.weights import gguf_model_dir
    from azllm.generate import load_chat_model
    from azllm.model import load_model
    from azllm.tokenizer import load_tokenizer
    from azllm.chats import check_chat_tokenizer
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix='azllm-assistant-'))
    work.mkdir(parents=True, exist_ok=True)
    t0, timings = time.time(), {}
    base = gguf_model_dir(a.model)
    def run(name, cfg):
        if (work/name/'final').is_dir() and a.keep: print(f"{name}: kept from an earlier run in {work/name}"); return work/name
        p = work/f'{name}.json'; p.write_text(json.dumps(cfg))
        t = time.time(); rc = azllm(['train', str(p)]); timings[name] = round(time.time() - t, 1)
        if rc != 0: raise SystemExit(f"{name}: azllm train exited {rc}")
        print(f"{name}: {timings[name]:.0f} s", flush=True)
        return work/name
    common = dict(seed=a.seed, tensorboard=False, save_every=10**6, keep_last=1, liger=False, compile=False)
    cpt = dict(common, stage='cpt', train_data=[str(DATA/'az_train.txt')], valid_data=[str(DATA/'az_valid.txt')], seq_len=a.seq_len,
               micro_batch=a.micro_batch, max_steps=a.cpt_steps, lr=a.cpt_lr, warmup_steps=max(1, a.cpt_steps // 20), weight_decay=0.0,
               eval_every=0, eval_rows=a.eval_rows)
    sft = dict(common, stage='sft', train_data=str(DATA/'sft'/'train.jsonl'), valid_data=str(DATA/'sft'/'valid.jsonl'), seq_len=a.seq_len,
               micro_batch=a.micro_batch, lora_r=16, lora_alpha=32, lora_dropout=0.0, train_embeddings=False, lr=a.sft_lr,
               warmup_steps=5, weight_decay=0.0, eval_every=0, eval_rows=a.eval_rows, **({'max_steps': a.sft_steps} if a.sft_steps else {'epochs': a.sft_epochs}))
    dpo = dict(common, stage='dpo', train_data=str(DATA/'dpo'/'train.jsonl'), valid_data=str(DATA/'dpo'/'valid.jsonl'), seq_len=2 * a.seq_len,
               micro_batch=a.micro_batch, lora_r=16, lora_alpha=32, lora_dropout=0.0, beta=0.1, lr=a.dpo_lr, warmup_steps=2,
               weight_decay=0.0, eval_every=0, **({'max_steps': a.dpo_steps} if a.dpo_steps else {'epochs': 1}),
               reference=a.dpo_reference, eval_rows=a.eval_rows)
    twin = twin_dir(base, work)
    run('cpt', dict(cpt, output_dir=str(work/'cpt'), model=base))
    run('twin_cpt', dict(cpt, output_dir=str(work/'twin_cpt'), model=twin))
    runs = dict(base_sft=run('base_sft', dict(sft, output_dir=str(work/'base_sft'), model=base)),
                cpt_sft=run('cpt_sft', dict(sft, output_dir=str(work/'cpt_sft'), model=str(work/'cpt'/'final'))),
                twin_sft=run('twin_sft', dict(sft, output_dir=str(work/'twin_sft'), model=str(work/'twin_cpt'/'final'))))
    runs['cpt_sft_dpo'] = run('cpt_sft_dpo', dict(dpo, output_dir=str(work/'cpt_sft_dpo'), model=str(runs['cpt_sft'])))
    qs = questions()[:a.limit]
    dev = 'cuda' if torch.cuda.is_available() else 'cpu'
    answers, summaries = {}, {}
    for name in MODELS:
        if name == 'base':
            tok = check_chat_tokenizer(load_tokenizer(base)); model = load_model(base)
        else: model, tok = load_chat_model(runs[name])
        t = time.time()
        answers[name] = answer_all(model.to(dev), tok, qs, a.max_new_tokens)
        timings[f'answer_{name}'] = round(time.time() - t, 1)
        if name != 'base':
            s = json.loads((runs[name]/'summary.json').read_text())
            summaries[name] = {k: v for k, v in s.items() if isinstance(v, (int, float, str)) and k not in ('kind',)}
        print(f"{name}: {answers[name][0]['answer'][:100]!r}", flush=True)
        del model
    cpt_s = json.loads((work/'cpt'/'summary.json').read_text())
    res = dict(command='python benchmarks/real_weights_assistant.py train ' + ' '.join(sys.argv[2:]), settings=vars(a),
               device=torch.cuda.get_device_name(0) if dev == 'cuda' else f'CPU ({os.cpu_count()} cores)', torch=torch.__version__,
               cpt_val_bpb=cpt_s.get('val_bpb'), twin_cpt_val_bpb=json.loads((work/'twin_cpt'/'summary.json').read_text()).get('val_bpb'),
               run_summaries=summaries, timings=timings, seconds=round(time.time() - t0, 1),
               questions=[dict(id=q['id'], question=q['question'], answer=q['answer'], retrieval=q.get('retrieval')) for q in qs],
               answers=answers)
    Path(a.out).write_text(json.dumps(res, indent=1, ensure_ascii=False))
    print(f"wrote {a.out} ({res['seconds']:.0f} s)")


def bootstrap_ci(xs:list[float], n:int=2000, seed:int=0) -> tuple:
    rng = random.Random(seed)
    means = sorted(statistics.mean(rng.choices(xs, k=len(xs))) for _ in range(n))
    return means[int(0.025 * n)], means[int(0.975 * n) - 1]


def score(a):
    "chrF, repetition, emptiness and brevity as az_sft_gen scores them; the share of answers a language identifier reads as Azerbaijani; the share that ended at the end-of-turn token."
    from azllm.tasks.sft_gen import process_results
    from lingua import Language, LanguageDetectorBuilder
    res = json.loads(Path(a.answers).read_text(encoding='utf-8'))
    langs = [Language.AZERBAIJANI, Language.TURKISH, Language.ENGLISH, Language.RUSSIAN, Language.KAZAKH]
    det = LanguageDetectorBuilder.from_languages(*langs).build()
    docs = [dict(answer=q['answer'], retrieval=q.get('retrieval')) for q in res['questions']]
    table = {}
    for name, ans in res['answers'].items():
        per = [process_results(d, [x['answer']]) for d, x in zip(docs, ans)]
        lang = [det.detect_language_of(x['answer']) if x['answer'].strip() else None for x in ans]
        chrf = [p['chrf'] for p in per]
        table[name] = dict(chrf=statistics.mean(chrf), chrf_ci=bootstrap_ci(chrf), rep4=statistics.mean(p['rep4'] for p in per),
                           empty=statistics.mean(p['empty'] for p in per), brevity=statistics.mean(p['brevity'] for p in per),
                           azerbaijani=sum(l == Language.AZERBAIJANI for l in lang) / len(lang),
                           # read as Azerbaijani, not empty and not one phrase over and over ("əəəə" is Azerbaijani to a language identifier)
                           fluent_azerbaijani=sum(l == Language.AZERBAIJANI and p['rep4'] < 0.5 and not p['empty'] for l, p in zip(lang, per)) / len(lang),
                           stopped=sum(x['stopped'] for x in ans) / len(ans), mean_new_tokens=statistics.mean(x['new_tokens'] for x in ans))
    r = [process_results(d, [''])['chrf_retrieval'] for d in docs if d['retrieval']]
    table['retrieval baseline'] = dict(chrf=statistics.mean(r), chrf_ci=bootstrap_ci(r))
    res['scores'] = table
    res['score_command'] = 'python benchmarks/real_weights_assistant.py score ' + ' '.join(sys.argv[2:])
    card = next((k.lower() for k in ('H200', 'H100') if k in res['device']), 'cpu')
    out = Path(a.out or ROOT/'benchmarks'/'results'/f'real_weights_assistant_{card}.json')
    out.write_text(json.dumps(res, indent=1, ensure_ascii=False))
    print(f"{'model':<20}{'chrF':>7}  {'95% CI':<15}{'rep4':>6}{'Azerbaijani':>13}{'fluent az':>11}{'stopped':>9}")
    for name, s in table.items():
        print(f"{name:<20}{s['chrf']:>7.1f}  [{s['chrf_ci'][0]:.1f}, {s['chrf_ci'][1]:.1f}]   "
              + (f"{s['rep4']:>6.2f}{s['azerbaijani']:>13.0%}{s['fluent_azerbaijani']:>11.0%}{s['stopped']:>9.0%}" if 'rep4' in s else ''))
    print(f"wrote {out}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest='cmd', required=True)
    t = sub.add_parser('train', help='the runs and the answers (a GPU, or this CPU with --small)')
    t.add_argument('--model', default='smollm2')
    t.add_argument('--out', required=True, help='the answers file (JSON)')
    t.add_argument('--seed', type=int, default=0)
    t.add_argument('--seq-len', type=int, default=512)
    t.add_argument('--micro-batch', type=int, default=16)
    t.add_argument('--cpt-steps', type=int, default=100)
    t.add_argument('--cpt-lr', type=float, default=2e-4)
    t.add_argument('--sft-epochs', type=float, default=2)
    t.add_argument('--sft-steps', type=int, default=None)
    t.add_argument('--sft-lr', type=float, default=5e-4)
    t.add_argument('--dpo-steps', type=int, default=None)
    t.add_argument('--dpo-lr', type=float, default=5e-5)
    t.add_argument('--dpo-reference', default='cached', choices=['cached', 'forward'], help='forward on a CPU: no pass over every pair before the first step')
    t.add_argument('--eval-rows', type=int, default=None)
    t.add_argument('--max-new-tokens', type=int, default=256)
    t.add_argument('--limit', type=int, default=None, help='answer only the first N questions')
    t.add_argument('--keep', default=None, help='keep the runs here')
    t.add_argument('--small', action='store_true', help='a few steps of everything, for this CPU')
    s = sub.add_parser('score', help='score an answers file')
    s.add_argument('answers')
    s.add_argument('--out', default=None)
    a = p.parse_args(argv)
    if a.cmd == 'train':
        if a.small: a.seq_len, a.micro_batch, a.cpt_steps, a.sft_steps, a.dpo_steps, a.eval_rows, a.limit, a.max_new_tokens, a.dpo_reference = 256, 2, 2, 2, 2, 2, 4, 32, 'forward'
        train(a)
    else: score(a)


if __name__ == '__main__':
    main()
