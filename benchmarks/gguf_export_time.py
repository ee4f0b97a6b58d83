"""Time of `azllm export RUN --gguf` at the Llama 3.2 1B shape (or a smaller one on a CPU), per tokenizer and tensor type:
loading and merging the SFT output, writing the file, and verifying it (the round trip), each timed on its own, the round
trip also by its own steps (`seconds` of round_trip.json: reading the file, the tokenizer, building the model, comparing the
tensors, the forward passes). For the record, gguf's GGUFReader is timed on the same file after the export (transformers'
GGUF loader, which the round trip used before, parses the file with it twice); `--no-gguf-reader` skips that.

    python benchmarks/gguf_export_time.py                                   # the 1B shape (GPU host): writes gguf_export_time_h200.json
    python benchmarks/gguf_export_time.py --layers 2 --hidden 512 --tag cpu # a small shape on a CPU: gguf_export_time_cpu.json

Nothing is trained: the SFT output is a random-init base of the shape (saved in bf16, as a CPT output is) with a LoRA
adapter (r 16 on the seven projections, B nudged off zero so the merge changes the weights) saved the way `azllm train`
saves one (`final/` with its tokenizer, the base named absolutely). The phases are the ones `export_gguf` runs, in its order."""
import argparse, json, os, platform, shutil, sys, tempfile, time
from pathlib import Path
import torch
ROOT = Path(__file__).resolve().parent.parent
TOKENIZERS = ('llama3', 'llama3-az', 'custom')


def tokenizer(which:str):
    from azllm.chats import check_chat_tokenizer
    from azllm.data import read_documents, find_data_samples
    from azllm.tokenizer import load_tokenizer, train_tokenizer, extend_tokenizer
    texts = lambda: read_documents(find_data_samples()/'az_train.txt')
    if which == 'llama3': tok = load_tokenizer()
    elif which == 'llama3-az': tok = extend_tokenizer(load_tokenizer(), texts(), 8000, quiet=True)   # configs/tokenizer_extend.yml
    else: tok = train_tokenizer(texts(), 16000)                                                     # configs/tokenizer_custom.yml
    return check_chat_tokenizer(tok)


def sft_output(tok, d:Path, layers:int|None, hidden:int|None) -> Path:
    "A random base of the 1B shape (optionally fewer layers / a narrower width) and a LoRA adapter over it, as `azllm train` saves them."
    from peft import LoraConfig, get_peft_model
    from transformers import LlamaForCausalLM
    from azllm.model import preset_config, set_special_ids
    cfg = preset_config('llama-3.2-1b', tok)
    if layers: cfg.num_hidden_layers = layers
    if hidden: cfg.hidden_size, cfg.intermediate_size, cfg.num_attention_heads, cfg.num_key_value_heads = hidden, 4 * hidden, hidden // 64, max(1, hidden // 256)
    torch.manual_seed(0)
    base = LlamaForCausalLM(cfg).to(torch.bfloat16)
    set_special_ids(base, tok).save_pretrained(d/'base'); tok.save_pretrained(d/'base')
    peft = get_peft_model(base.float(), LoraConfig(r=16, lora_alpha=32, target_modules=['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj']))
    with torch.no_grad():
        for n, p in peft.named_parameters():
            if 'lora_B' in n: p.normal_(0, 1e-3)
    peft.peft_config['default'].base_model_name_or_path = str((d/'base').resolve())
    peft.save_pretrained(d/'sft'/'final'); tok.save_pretrained(d/'sft'/'final')
    return d/'sft'/'final'


def export_timed(final:Path, out:Path, quant:str, docs:int, gguf_reader:bool=True) -> dict:
    "`export_gguf`'s phases, each timed: load + merge, write, verify; and gguf's GGUFReader on the file, after them."
    from azllm.adapters import load_adapted
    from azllm.data import read_documents, find_data_samples
    from azllm.gguf_export import write_gguf, round_trip
    texts = list(read_documents(find_data_samples()/'az_valid.txt'))[:docs]
    out.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    model, tok = load_adapted(final); model = model.merge_and_unload()
    t1 = time.perf_counter()
    f = write_gguf(model.float(), tok, out/f'model-{quant}.gguf', quant, name='bench', as_stored=True)
    t2 = time.perf_counter()
    rep = round_trip(model, tok, f, texts, quant)
    t3 = time.perf_counter()
    load = max(load, os.getloadavg()[0])
    reader_s = None
    if gguf_reader:
        import gguf
        t = time.perf_counter(); gguf.GGUFReader(str(f)); reader_s = time.perf_counter() - t
    return dict(quant=quant, load_merge_s=t1 - t0, write_s=t2 - t1, verify_s=t3 - t2, total_s=t3 - t0, file_mib=f.stat().st_size / 2**20,
                params=sum(p.numel() for p in model.parameters()), vocab=len(tok), verify_share=(t3 - t2) / (t3 - t0),
                **{k: rep.get(k) for k in ('documents', 'tokens_scored', 'ids_identical', 'tensors', 'tensors_identical', 'rel_logit_diff',
                                           'top1_agreement', 'special_ids', 'reader', 'ok')},
                verify_seconds=rep.get('seconds'), gguf_reader_s=reader_s, load_average_1min=load, llama_cpp=rep.get('llama_cpp'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--layers', type=int, help='decoder layers (default: the 1B shape, 16)')
    ap.add_argument('--hidden', type=int, help='hidden size (default: the 1B shape, 2048; heads = hidden / 64)')
    ap.add_argument('--tokenizers', default=','.join(TOKENIZERS), help=f'comma-separated, of {", ".join(TOKENIZERS)}')
    ap.add_argument('--quants', default='f16,q8_0')
    ap.add_argument('--docs', type=int, default=16, help="held-out documents the round trip checks (export_gguf's default)")
    ap.add_argument('--no-gguf-reader', action='store_true', help="don't time gguf's GGUFReader on each file")
    ap.add_argument('--tag', default='h200', help='results file: benchmarks/results/gguf_export_time_TAG.json')
    a = ap.parse_args()
    rows = []
    res = ROOT/'benchmarks'/'results'/f'gguf_export_time_{a.tag}.json'
    gpu = torch.cuda.get_device_name() if torch.cuda.is_available() else None
    def write(rows):
        out = dict(command='python benchmarks/gguf_export_time.py ' + ' '.join(sys.argv[1:]),
                   machine=f"{platform.machine()}, {os.cpu_count()} CPUs, {torch.get_num_threads()} torch threads" + (f", {gpu}" if gpu else ', no GPU'),
                   versions={m: __import__(m).__version__ for m in ('torch', 'transformers', 'peft')},
                   shape=dict(layers=a.layers or 16, hidden=a.hidden or 2048), rows=rows)
        res.write_text(json.dumps(out, indent=2) + '\n')
    with tempfile.TemporaryDirectory() as d:
        for which in a.tokenizers.split(','):
            tok = tokenizer(which)
            work = Path(d)/which
            final = sft_output(tok, work, a.layers, a.hidden)
            for q in a.quants.split(','):
                rows.append(dict(tokenizer=which, **export_timed(final, work/f'gguf-{q}', q, a.docs, not a.no_gguf_reader)))
                print({k: v for k, v in rows[-1].items() if k not in ('llama_cpp', 'special_ids', 'reader')}, flush=True)
                write(rows)                                  # after every row: a run cut short keeps what it measured
                shutil.rmtree(work/f'gguf-{q}')
            shutil.rmtree(work)
    write(rows)
    print('wrote', res)


if __name__ == '__main__':
    main()
