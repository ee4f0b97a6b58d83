"""llama.cpp as the judge of azllm's GGUF files, on a CPU: for each tokenizer the project makes (Llama 3, Llama 3 + the
Azerbaijani extension of configs/tokenizer_extend.yml, the custom BPE of configs/tokenizer_custom.yml), a tiny random Llama
exported as f16 and q8_0 and read back by llama.cpp itself (llama-cpp-python) next to the export's own round trip.

    python benchmarks/gguf_llamacpp.py       # needs llama-cpp-python; writes benchmarks/results/gguf_llamacpp_cpu.json

Per file: token ids identical on the 16 held-out documents, max logit difference relative to the largest logit and greedy
agreement (both against the model with its weights as the file stores them), the chat template rendered by llama.cpp's
Jinja formatter against `apply_chat_template`, and whether llama.cpp ends generation at <|eot_id|>."""
import json, platform, sys, tempfile, time
from pathlib import Path
import torch
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT/'benchmarks'))


def main():
    torch.set_num_threads(1)
    import llama_cpp
    from gguf_export_time import tokenizer, TOKENIZERS
    from azllm.model import load_model
    from azllm.gguf_export import QUANTS
    from azllm.deploy import export_gguf
    rows, res = [], ROOT/'benchmarks'/'results'/'gguf_llamacpp_cpu.json'
    machine = f"{platform.machine()} CPU, {torch.get_num_threads()} thread, torch {torch.__version__}, llama-cpp-python {llama_cpp.__version__}"
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        for which in sorted(TOKENIZERS, key=lambda w: w != 'custom'):         # the small vocabulary first
            tok = tokenizer(which)
            torch.manual_seed(0)
            load_model('preset:llama-tiny', tok).save_pretrained(d/which); tok.save_pretrained(d/which)
            for q in QUANTS:
                t0 = time.time()
                f = export_gguf(d/which, d/f'gguf-{which}-{q}', q, verify_docs=16)
                rep = json.loads((f.parent/'round_trip.json').read_text())
                c = rep['llama_cpp']
                rows.append(dict(tokenizer=which, vocab=len(tok), quant=q, file_mib=f.stat().st_size / 2**20, seconds=time.time() - t0,
                                 documents=rep['documents'], tokens_scored=rep['tokens_scored'],
                                 transformers_ids_identical=rep['ids_identical'], transformers_rel_logit_diff=rep['rel_logit_diff'],
                                 llama_cpp_ids_identical=c['ids_identical'], llama_cpp_rel_logit_diff=c['rel_logit_diff'],
                                 llama_cpp_top1_agreement=c['top1_agreement'], template_rendered_identical=c['chat_template_rendered_identical'],
                                 stops_at_eot=c['stops_at_eot'], llama_cpp_tolerance=c['tolerance'], ok=rep['ok']))
                print(rows[-1], flush=True)
                res.write_text(json.dumps(dict(command='python benchmarks/gguf_llamacpp.py', machine=machine, rows=rows), indent=2) + '\n')


if __name__ == '__main__':
    main()
