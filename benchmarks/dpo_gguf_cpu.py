"""DPO loss against TRL's DPOTrainer, and GGUF round trips, on tiny models (CPU): the figures the DPO and GGUF docs render.

    python benchmarks/dpo_gguf_cpu.py        # writes benchmarks/results/dpo_gguf_cpu.json (a few minutes on 2 cores)

TRL: relative difference of azllm's loss from TRL 1.16's on the same pairs and model (fp64 LoRA tiny Llama, adapter
nudged off zero), per loss type and tokenizer. GGUF: a tiny random Llama per tokenizer exported as f16 and q8_0 and read
back by the export's round trip (transformers' GGUF loader at first, azllm's reader into a transformers Llama since;
the committed results file predates that): ids identical on held-out documents, max logit difference, greedy agreement, file size."""
import json, platform, sys, tempfile, time
from pathlib import Path
import torch
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT/'tests'))


def main():
    torch.set_num_threads(1)
    from test_dpo import nudged_peft, shortest, DATA
    from datasets import Dataset
    from trl import DPOConfig, DPOTrainer
    from azllm.data import read_documents
    from azllm.tokenizer import train_tokenizer, load_tokenizer
    from azllm.chats import check_chat_tokenizer
    from azllm.model import load_model
    from azllm.packing import pack_rows
    from azllm.dpo import read_pairs, encode_pairs, PackedPairs, dpo_loss
    from azllm.gguf_export import QUANTS
    from azllm.deploy import export_gguf
    toks = {'custom': check_chat_tokenizer(train_tokenizer(read_documents(DATA/'az_train.txt'), 2000)), 'llama3': check_chat_tokenizer(load_tokenizer())}
    rows = [json.loads(l) for l in (DATA/'dpo'/'train.jsonl').read_text(encoding='utf-8').splitlines()[:60]]
    rows = [{k: r[k] for k in ('prompt', 'chosen', 'rejected')} for r in shortest(rows)]
    trl_rows, gguf_rows = [], []
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        for which, tok in toks.items():
            for loss_type, beta in (('sigmoid', 0.1), ('ipo', 0.5)):
                m = nudged_peft(tok).double()
                tr = DPOTrainer(model=m, args=DPOConfig(output_dir=str(d/'trl'), beta=beta, loss_type=[loss_type], max_length=None,
                                per_device_train_batch_size=len(rows), use_cpu=True, bf16=False, report_to='none'),
                                train_dataset=Dataset.from_list(rows), processing_class=tok)
                tr.model.delete_adapter('ref'); tr.model.set_adapter('default')
                batch = next(iter(tr.get_train_dataloader()))
                with torch.no_grad(): theirs = tr.compute_loss(tr.model, batch).item()
                (d/'p.jsonl').write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')
                exs, _ = encode_pairs(read_pairs(d/'p.jsonl'), tok, 8192); pack_rows(exs, 8192, d/f'rows-{which}-{loss_type}')
                with torch.no_grad(): ours = dpo_loss(tr.model, PackedPairs(d/f'rows-{which}-{loss_type}', tok.pad_token_id).batch([0]), len(rows), loss_type, beta)[0].item()
                trl_rows.append(dict(tokenizer=which, loss_type=loss_type, beta=beta, pairs=len(rows), azllm=ours, trl=theirs, rel_diff=abs(ours - theirs) / abs(theirs)))
                print(trl_rows[-1], flush=True)
            load_model('preset:llama-tiny', tok).save_pretrained(d/which); tok.save_pretrained(d/which)
            for q in QUANTS:
                t0 = time.time()
                f = export_gguf(d/which, d/f'gguf-{which}-{q}', q, verify_docs=16)
                rep = json.loads((f.parent/'round_trip.json').read_text())
                gguf_rows.append(dict(tokenizer=which, quant=q, file_mib=f.stat().st_size / 2**20, seconds=time.time() - t0,
                                      **{k: rep[k] for k in ('documents', 'tokens_scored', 'ids_identical', 'max_abs_logit_diff', 'max_abs_logit',
                                                             'rel_logit_diff', 'top1_agreement', 'tolerance', 'ok')}))
                print(gguf_rows[-1], flush=True)
    out = dict(command='python benchmarks/dpo_gguf_cpu.py', machine=f"{platform.machine()} CPU, {torch.get_num_threads()} thread, torch {torch.__version__}",
               trl_equality=trl_rows, gguf_round_trip=gguf_rows)
    (ROOT/'benchmarks'/'results'/'dpo_gguf_cpu.json').write_text(json.dumps(out, indent=2) + '\n')


if __name__ == '__main__': main()
