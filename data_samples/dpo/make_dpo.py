"""Build the AzTel preference pairs for DPO: a correct, polite reply against a worse one to the same question.

Every pair starts from one pair of the SFT set (`../sft/train.jsonl`, `../sft/valid.jsonl`): its system turn (if any)
and user question are the `prompt`, its assistant reply is `chosen`. The `rejected` reply is one of three kinds:

- `factual`: the same reply with one fact changed, a price, an amount, a count or a USSD code (`8 AZN` -> `13 AZN`,
  `*105*6#` -> `*105*9#`); only numbers that stand alone before a space or inside a code are changed, so no
  Azerbaijani suffix after a numeral has to change with it;
- `turkish`: the same reply with Azerbaijani words swapped for their Turkish forms (`üçün` -> `için`,
  `bilərsiniz` -> `bilirsiniz`, `pulsuzdur` -> `ücretsizdir`): the mix an assistant trained on Turkish text drifts into;
- `unhelpful`: a short reply that answers nothing or brushes the customer off, written for this project.

Pairs from the SFT training split go to `train.jsonl`, pairs from the SFT validation split to `valid.jsonl`, so no
held-out question was seen in SFT or DPO training. Deterministic (one seeded `random.Random`), standard library only:

    python data_samples/dpo/make_dpo.py
"""
import json, random, re, unicodedata
from collections import Counter
from pathlib import Path

SEED = 20261201
HERE = Path(__file__).parent
N_TRAIN, N_VALID = 360, 80
SHARES = [('factual', 0.40), ('turkish', 0.35), ('unhelpful', 0.25)]

# Azerbaijani word -> its Turkish form (whole words; a capitalised word keeps its capital)
TURKISH = {
    'və': 've', 'üçün': 'için', 'ilə': 'ile', 'isə': 'ise', 'hər': 'her', 'görə': 'göre', 'çox': 'çok', 'ən': 'en',
    'bilərsiniz': 'bilirsiniz', 'edirik': 'ediyoruz', 'edir': 'ediyor', 'edirəm': 'ediyorum', 'olunur': 'olunuyor',
    'pulsuzdur': 'ücretsizdir', 'pulsuz': 'ücretsiz', 'daxildir': 'dahildir', 'daxil': 'dahil', 'əlavə': 'ek',
    'qədər': 'kadar', 'xidmət': 'hizmet', 'xidmətlər': 'hizmetler', 'xidməti': 'hizmeti', 'yəni': 'yani', 'bəli': 'evet',
    'əlbəttə': 'tabii ki', 'məmnuniyyətlə': 'memnuniyetle', 'yalnız': 'sadece', 'məlumat': 'bilgi', 'təşəkkür': 'teşekkür',
    'nömrə': 'numara', 'nömrənizi': 'numaranızı', 'nömrəsinə': 'numarasına', 'nömrəni': 'numarayı', 'balans': 'bakiye',
    'balansınızda': 'bakiyenizde', 'balansınızdan': 'bakiyenizden', 'ödəniş': 'ödeme', 'sizə': 'size', 'tövsiyə': 'tavsiye',
    'müraciət': 'başvuru', 'indi': 'şimdi', 'lakin': 'ama', 'kimi': 'gibi', 'hansı': 'hangi', 'neçə': 'kaç', 'yoxdur': 'yok',
    'deyil': 'değil', 'eyni': 'aynı', 'əvvəlcə': 'önce', 'beləliklə': 'böylece', 'təxminən': 'yaklaşık', 'dəqiqə': 'dakika',
    'dəqiqəsi': 'dakikası', 'hesablanır': 'hesaplanır', 'tutulur': 'kesilir', 'tətbiqində': 'uygulamasında',
    'tətbiqi': 'uygulaması', 'ərzində': 'içinde', 'sonra': 'sonra', 'təəssüf': 'maalesef', 'yenidən': 'yeniden',
    'həmçinin': 'ayrıca', 'zəhmət': 'lütfen', 'olduqda': 'olduğunda', 'qüvvədə': 'geçerli', 'təklif': 'teklif',
}
TURKISH_WORDS = {w for t in TURKISH.values() for w in t.split()} - set(TURKISH)      # forms Azerbaijani does not share

UNHELPFUL = [
    "Bu barədə heç nə deyə bilmərəm.",
    "Bilmirəm. Başqa sualınız var?",
    "Məlumat saytımızda var, oradan özünüz baxın.",
    "Sualınız aydın deyil, bir daha yazın.",
    "Bu, mənim işim deyil. Ofisə gedin.",
    "Hər şey tarifinizdən asılıdır.",
    "Bunu artıq çox adam soruşub, cavab hamıya məlumdur.",
    "Çağrı Mərkəzinə zəng edin, onlar bilər.",
    "Sonra yazın, indi buna vaxtım yoxdur.",
    "Mən yalnız köməkçiyəm, belə sualları həll etmirəm.",
    "Fərqi yoxdur, necə istəyirsinizsə elə edin.",
    "Bu sual tariflərlə bağlı deyil.",
    "Təlimatları oxusaydınız, soruşmazdınız.",
    "Dəqiq bilmirəm, bəlkə də pulsuzdur, bəlkə də yox.",
    "Telefonunuzu yenidən yandırın, bəlkə özü düzələr.",
    "Bu barədə məlumat verə bilmərəm, bağışlayın.",
]

NUMBER = re.compile(r'(?<![\d,.*+:/-])(\d+)(,\d+)?(?= )')      # a number standing alone before a space: `8 AZN`, `1,49 AZN`
USSD = re.compile(r'(\*\d+\*)(\d+)(#)')                          # the last number of a USSD code: `*105*6#`


def nfc(s): return unicodedata.normalize('NFC', s)


def factual(reply, rng):
    "The reply with one fact changed (a number or a USSD code); None if it states none."
    spots = [('num', m) for m in NUMBER.finditer(reply)] + [('ussd', m) for m in USSD.finditer(reply)]
    if not spots: return None
    kind, m = rng.choice(spots)
    if kind == 'ussd':
        old = int(m[2]); new = rng.choice([d for d in range(1, 13) if d != old])
        return reply[:m.start(2)] + str(new) + reply[m.end(2):]
    old = int(m[1]); new = old + rng.choice([1, 2, 3, 5]) if old < 10 else old + rng.choice([-1, 1]) * max(1, old // rng.choice([2, 3, 4]))
    new_s = str(new).zfill(len(m[1])) + (m[2] or '')
    return reply[:m.start()] + new_s + reply[m.end():]


def turkish(reply):
    "The reply with every word of the Turkish list swapped; None if fewer than three words change."
    n = 0
    def swap(m):
        nonlocal n
        w = m[0]; t = TURKISH.get(w.lower())
        if t is None or t == w.lower(): return w
        n += 1
        return t[0].upper() + t[1:] if w[0].isupper() else t
    out = re.sub(r'\w+', swap, reply)
    return out if n >= 3 else None


def pair(row, rng):
    msgs = row['messages']
    prompt, reply = msgs[:-1], msgs[-1]['content']
    kind = rng.choices([k for k, _ in SHARES], [w for _, w in SHARES])[0]
    rejected = None
    for k in [kind] + [k for k, _ in SHARES if k != kind]:     # a reply without numbers (or Turkish-able words) falls back
        rejected = factual(reply, rng) if k == 'factual' else turkish(reply) if k == 'turkish' else rng.choice(UNHELPFUL)
        if rejected is not None: kind = k; break
    return {'prompt': prompt, 'chosen': [{'role': 'assistant', 'content': reply}],
            'rejected': [{'role': 'assistant', 'content': nfc(rejected)}], 'kind': kind, 'source': row.get('source', 'sft')}


def check(p):
    "What every pair must satisfy; raises on the first problem."
    c, r = p['chosen'][0]['content'], p['rejected'][0]['content']
    assert c != r and c == nfc(c) and r == nfc(r), p
    assert p['prompt'][-1]['role'] == 'user' and all(m['role'] in ('system', 'user') for m in p['prompt']), p
    for s in (c, r): assert 'ä' not in s and not re.search('[\u0400-\u04FF]', s), s
    assert not re.search(r'\b(için|şimdi|hizmet|fatura)\b|iyor\b', c), c          # the chosen reply is Azerbaijani
    if p['kind'] == 'turkish': assert sum(w in TURKISH_WORDS for w in re.findall(r'\w+', r.lower())) >= 3, r


def build(src, n, rng):
    rows = [json.loads(l) for l in (HERE.parent/'sft'/src).read_text(encoding='utf-8').splitlines() if l.strip()]
    rows = rng.sample(rows, n)
    out = [pair(r, rng) for r in rows]
    for p in out: check(p)
    return out


def write(rows, path):
    path.write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')


if __name__ == '__main__':
    rng = random.Random(SEED)
    train, valid = build('train.jsonl', N_TRAIN, rng), build('valid.jsonl', N_VALID, rng)
    assert not {p['prompt'][-1]['content'] for p in train} & {p['prompt'][-1]['content'] for p in valid}
    write(train, HERE/'train.jsonl'); write(valid, HERE/'valid.jsonl')
    stats = {name: dict(pairs=len(rows), **Counter(p['kind'] for p in rows)) for name, rows in (('train', train), ('valid', valid))}
    (HERE/'stats.json').write_text(json.dumps(stats, indent=2) + '\n', encoding='utf-8')
    print(json.dumps(stats))
