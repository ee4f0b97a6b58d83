"""Assemble data_samples/raw/<domain>/*.txt into az_train.txt and az_valid.txt.

Raw files hold documents separated by a line `###`; paragraphs inside a document are separated
by blank lines. In the output a document is one block of lines (paragraphs joined by a single
newline) and documents are separated by a blank line, the format `azllm.data.read_documents` reads.
Every 10th document of each domain (starting with the 5th) goes to validation, so the split is
by document, deterministic, and covers every domain.

    python data_samples/build_corpus.py
"""
import json, re, unicodedata
from pathlib import Path

here = Path(__file__).parent
train, valid, stats = [], [], {}
for domain_dir in sorted(p for p in (here/'raw').iterdir() if p.is_dir()):
    docs = []
    for f in sorted(domain_dir.glob('*.txt')):
        text = unicodedata.normalize('NFC', f.read_text(encoding='utf-8'))
        for doc in re.split(r'^\s*###\s*$', text, flags=re.M):
            paras = [' '.join(p.split()) for p in re.split(r'\n\s*\n', doc) if p.strip()]
            if paras: docs.append('\n'.join(paras))
    tr = [d for i, d in enumerate(docs) if i % 10 != 4]
    va = [d for i, d in enumerate(docs) if i % 10 == 4]
    train += tr; valid += va
    stats[domain_dir.name] = dict(documents=len(docs), train_bytes=sum(len(d.encode()) + 2 for d in tr),
                                  valid_bytes=sum(len(d.encode()) + 2 for d in va))
for name, docs in [('az_train.txt', train), ('az_valid.txt', valid)]:
    (here/name).write_text('\n\n'.join(docs) + '\n', encoding='utf-8')
(here/'corpus_stats.json').write_text(json.dumps(stats, indent=2, ensure_ascii=False) + '\n', encoding='utf-8')
print(json.dumps(stats, indent=2, ensure_ascii=False))
print('train bytes', (here/'az_train.txt').stat().st_size, 'valid bytes', (here/'az_valid.txt').stat().st_size)
