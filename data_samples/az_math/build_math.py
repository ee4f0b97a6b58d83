"""Build the verifiable Azerbaijani task set: arithmetic and unit word problems with numeric answers.

    python data_samples/az_math/build_math.py

Writes train.jsonl and valid.jsonl next to this file (deterministic: the same files every time). Each line is a prompt in
TRL's conversational form plus the reference answer and the problem's kind:
{"prompt": [{"role": "user", "content": "..."}], "answer": "8", "kind": "add"}. It also writes sft_train.jsonl: the training
problems as chats whose assistant turn works the problem out and ends with the answer line ("Hesablayaq: 30 + 6 = 36.\nCavab: 36"),
so a short SFT teaches a model the format the rewards check before GRPO starts. The held-out split shares no question text
with the training split. The problems are written so that no word takes a suffix that depends on a number or a name
(Azerbaijani vowel harmony): a noun after a numeral stays in the singular, as Azerbaijani grammar wants."""
import json, random
from pathlib import Path

HERE = Path(__file__).resolve().parent
ASK = 'Həll edin və cavabı son sətirdə "Cavab: ədəd" şəklində yazın.'
NAMES = ['Əli', 'Leyla', 'Aygün', 'Murad', 'Nigar', 'Rəşad', 'Səbinə', 'Tural', 'Kamran', 'Günel']
ITEMS = ['alma', 'armud', 'kitab', 'qələm', 'dəftər', 'top', 'konfet', 'gül', 'nar', 'stəkan']
PLACES = ['Səbətdə', 'Qutuda', 'Rəfdə', 'Masanın üstündə', 'Çantada']
UNITS = [('kilometr', 'metr', 1000), ('metr', 'santimetr', 100), ('saat', 'dəqiqə', 60), ('dəqiqə', 'saniyə', 60),
         ('kiloqram', 'qram', 1000), ('gün', 'saat', 24), ('həftə', 'gün', 7), ('litr', 'millilitr', 1000)]
# (the unit question ends in a copula whose vowel follows the last vowel of the target unit: metrdir, dəqiqədir, saatdır ...)
COPULA = {'metr': 'dir', 'santimetr': 'dir', 'dəqiqə': 'dir', 'saniyə': 'dir', 'qram': 'dır', 'saat': 'dır', 'gün': 'dür', 'millilitr': 'dir'}


def add(r):
    a, b, n, it = r.randint(2, 60), r.randint(2, 60), r.choice(NAMES), r.choice(ITEMS)
    return f"{n} bazardan {a} {it} aldı, sonra daha {b} {it} aldı. {n} cəmi neçə {it} aldı?", a + b, f"{a} + {b}"

def sub(r):
    a = r.randint(10, 90); b, p, n, it = r.randint(1, a - 1), r.choice(PLACES), r.choice(NAMES), r.choice(ITEMS)
    return f"{p} {a} {it} var idi. {n} oradan {b} {it} götürdü. İndi neçə {it} qaldı?", a - b, f"{a} - {b}"

def mul(r):
    a, b, it = r.randint(2, 12), r.randint(2, 12), r.choice(ITEMS)
    return f"Bir qutuda {a} {it} var. Belə {b} qutuda cəmi neçə {it} var?", a * b, f"{a} × {b}"

def div(r):
    k, b, it = r.randint(2, 12), r.randint(2, 9), r.choice(ITEMS)
    return f"{k * b} {it} {b} uşaq arasında bərabər bölündü. Hər uşağa neçə {it} düşdü?", k, f"{k * b} : {b}"

def price(r):
    a, b, it = r.randint(2, 20), r.randint(2, 9), r.choice(ITEMS)
    return f"Bir {it} {a} manatdır. {b} {it} neçə manata başa gəlir?", a * b, f"{a} × {b}"

def unit(r):
    big, small, f = r.choice(UNITS); a = r.randint(2, 15)
    return f"{a} {big} neçə {small}{COPULA[small]}?", a * f, f"{a} × {f}"

def two_step(r):
    a, b, c, n, it = r.randint(5, 30), r.randint(2, 20), r.randint(1, 5), r.choice(NAMES), r.choice(ITEMS)
    return f"{n} {a} {it} aldı, sonra daha {b} {it} aldı və {c} {it} dostuna verdi. {n} özündə neçə {it} saxladı?", a + b - c, f"{a} + {b} - {c}"

KINDS = dict(add=add, sub=sub, mul=mul, div=div, price=price, unit=unit, two_step=two_step)


def build(n_train=420, n_valid=70, seed=0) -> dict:
    "Unique problems, each kind equally often, split so that no question text is in both."
    r, seen, out = random.Random(seed), set(), {'train': [], 'valid': []}
    for split, n in (('valid', n_valid), ('train', n_train)):
        while len(out[split]) < n:
            kind = list(KINDS)[len(out[split]) % len(KINDS)]
            q, a, work = KINDS[kind](r)
            if q in seen: continue
            seen.add(q)
            out[split].append(dict(prompt=[{'role': 'user', 'content': f"{q}\n{ASK}"}], answer=str(a), kind=kind, work=work))
    return out


def worked(row:dict) -> dict:
    "The problem as an SFT chat: the question, and an answer that works it out and ends with the answer line."
    return dict(messages=row['prompt'] + [{'role': 'assistant', 'content': f"Hesablayaq: {row['work']} = {row['answer']}.\nCavab: {row['answer']}"}])


if __name__ == '__main__':
    def write(name, rows):
        (HERE/name).write_text(''.join(json.dumps(x, ensure_ascii=False) + '\n' for x in rows), encoding='utf-8')
        print(f"{name}: {len(rows)} rows -> {HERE/name}")
    splits = build()
    for split, rows in splits.items(): write(f'{split}.jsonl', [{k: v for k, v in x.items() if k != 'work'} for x in rows])
    write('sft_train.jsonl', [worked(x) for x in splits['train']])
