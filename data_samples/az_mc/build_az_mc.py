"""Build the bundled lm-eval task data of azllm: `az_mc.jsonl` (four-option questions) and `az_text.jsonl` (held-out documents).

az_mc = the handwritten questions of `handwritten.txt` + questions composed here from fact tables:
- grammar: case and plural forms of common nouns, built by the vowel-harmony rules below (nouns whose stem changes
  before a suffix, like `çörək` → `çörəyi`, are left to the handwritten set);
- culture: capitals, the months' order and seasons;
- telecom: prices, codes and roaming zones of the fictional operator AzTel, read from the SFT fact tables
  (`data_samples/sft/make_sft.py`), so the facts agree with the SFT data while no question is copied from it.
Every question has one correct answer and three wrong ones; the correct answer's position (A-D) is balanced:
the questions are shuffled with a fixed seed and the i-th one gets position i mod 4 (so any prefix, as lm-eval's
`limit` takes, is balanced too and mixes the four kinds).

az_text = the documents of `data_samples/az_valid.txt` as azllm reads them (`azllm.data.read_documents`: NFC, one
document per blank-line-separated block), one JSON object {"id", "text"} per line.

Deterministic; run from the repository root:

    python data_samples/az_mc/build_az_mc.py
"""
import importlib.util, json, random, sys
from pathlib import Path

SEED = 20261201
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = ROOT/'azllm'/'tasks'
LETTERS = 'ABCD'

# ---------------------------------------------------------------------------------------------- handwritten
def read_handwritten(path=HERE/'handwritten.txt') -> list[dict]:
    "Questions of the `## kind` / `P:` / `Q:` / `=` / `-` file, the correct answer first in `choices`."
    items, kind, passage = [], None, ''
    for n, line in enumerate(path.read_text(encoding='utf-8').splitlines(), 1):
        line = line.strip()
        if not line or line.startswith('# '): continue
        if line.startswith('## '): kind, passage = line[3:].strip(), ''
        elif line.startswith('P: '): passage = line[3:].strip()
        elif line.startswith('Q: '): items.append(dict(kind=kind, source='handwritten', passage=passage, question=line[3:].strip(), choices=[]))
        elif line[:2] in ('= ', '- '):
            ch = items[-1]['choices']
            if (line[0] == '=') != (not ch): raise ValueError(f'{path}:{n}: the correct answer (=) comes first, then three wrong ones (-)')
            ch.append(line[2:].strip())
        else: raise ValueError(f'{path}:{n}: cannot read {line!r}')
    return items

# ---------------------------------------------------------------------------------------------- grammar
BACK, FRONT = set('aıou'), set('eəiöü')
VOWELS = BACK | FRONT
NOUNS = ('ev kənd şəhər dəniz göl dağ bağ qapı pəncərə maşın qələm dəftər kitab məktəb bazar körpü gün ulduz qız oğlan '
         'quş çay meşə ada dəvə alma armud nar üzüm gül ağac stol stul divar yol dost qonşu müəllim həkim tələbə usta '
         'nənə baba bacı qardaş dil söz iş ana ata').split()

GRAMMAR_N = 130   # of the 6 forms x 50 nouns, so that no kind dominates the score

def last_vowel(w): return next(c for c in reversed(w) if c in VOWELS)
def two(w, back, front): return back if last_vowel(w) in BACK else front
def four(w): return {'a': 'ı', 'ı': 'ı', 'o': 'u', 'u': 'u', 'e': 'i', 'ə': 'i', 'i': 'i', 'ö': 'ü', 'ü': 'ü'}[last_vowel(w)]
def ends_vowel(w): return w[-1] in VOWELS

def forms(w) -> dict:
    "Case and plural forms of a noun whose stem does not change before a suffix."
    a, i = two(w, 'a', 'ə'), four(w)
    return {'cəm forması': w + two(w, 'lar', 'lər'), 'yönlük halı': w + ('y' if ends_vowel(w) else '') + a,
            'yerlik halı': w + 'd' + a, 'çıxışlıq halı': w + 'd' + a + 'n',
            'yiyəlik halı': w + ('n' if ends_vowel(w) else '') + i + 'n', 'təsirlik halı': w + ('n' if ends_vowel(w) else '') + i}

def wrong_harmony(w, form:str) -> list[str]:
    "The same suffix with the other vowels: what a learner (or a tokenizer's guess) gets wrong."
    stem, suf = w, form[len(w):]
    out = []
    for v in 'aəıiuü':
        s = ''.join(v if c in VOWELS else c for c in suf)
        if s != suf: out.append(stem + s)
    return list(dict.fromkeys(out))

def grammar_items(rng) -> list[dict]:
    out = []
    for w in NOUNS:
        fs = forms(w)
        for name, right in fs.items():
            other = rng.choice([f for n, f in fs.items() if n != name and f != right])   # a real form, but the wrong one
            pool = [x for x in dict.fromkeys(wrong_harmony(w, right) + wrong_harmony(w, other)) if x not in fs.values()]
            out.append(dict(kind='grammar', source='template', passage='', question=f'«{w}» sözünün {name} hansıdır?',
                            choices=[right, other] + rng.sample(pool, 2)))
    return rng.sample(out, GRAMMAR_N)

# ---------------------------------------------------------------------------------------------- culture
CAPITALS = [  # country (genitive), capital
    ('Türkiyənin', 'Ankara'), ('Gürcüstanın', 'Tbilisi'), ('Rusiyanın', 'Moskva'), ('İranın', 'Tehran'),
    ('Qazaxıstanın', 'Astana'), ('Özbəkistanın', 'Daşkənd'), ('Türkmənistanın', 'Aşqabad'), ('Qırğızıstanın', 'Bişkek'),
    ('Tacikistanın', 'Düşənbə'), ('Ukraynanın', 'Kiyev'), ('Belarusun', 'Minsk'), ('Almaniyanın', 'Berlin'),
    ('Fransanın', 'Paris'), ('İtaliyanın', 'Roma'), ('İspaniyanın', 'Madrid'), ('Böyük Britaniyanın', 'London'),
    ('Polşanın', 'Varşava'), ('Avstriyanın', 'Vyana'), ('Macarıstanın', 'Budapeşt'), ('Yunanıstanın', 'Afina'),
    ('Portuqaliyanın', 'Lissabon'), ('Norveçin', 'Oslo'), ('İsveçin', 'Stokholm'), ('Finlandiyanın', 'Helsinki'),
    ('Latviyanın', 'Riqa'), ('Litvanın', 'Vilnüs'), ('Estoniyanın', 'Tallin'), ('Yaponiyanın', 'Tokio'),
    ('Çinin', 'Pekin'), ('Hindistanın', 'Yeni Dehli'), ('Pakistanın', 'İslamabad'), ('Misirin', 'Qahirə'),
    ('Kanadanın', 'Ottava'), ('Avstraliyanın', 'Kanberra'), ('Səudiyyə Ərəbistanının', 'Ər-Riyad'),
]
MONTHS = ['yanvar', 'fevral', 'mart', 'aprel', 'may', 'iyun', 'iyul', 'avqust', 'sentyabr', 'oktyabr', 'noyabr', 'dekabr']
ORDINALS = ['birinci', 'ikinci', 'üçüncü', 'dördüncü', 'beşinci', 'altıncı', 'yeddinci', 'səkkizinci', 'doqquzuncu',
            'onuncu', 'on birinci', 'on ikinci']
SEASONS = ['qış', 'yaz', 'yay', 'payız']   # dekabr-fevral, mart-may, iyun-avqust, sentyabr-noyabr

def culture_items(rng) -> list[dict]:
    out = []
    caps = [c for _, c in CAPITALS]
    for country, cap in CAPITALS:
        out.append(dict(kind='culture', source='template', passage='', question=f'{country} paytaxtı hansı şəhərdir?',
                        choices=[cap] + rng.sample([c for c in caps if c != cap], 3)))
    for k, m in enumerate(MONTHS):
        out.append(dict(kind='culture', source='template', passage='', question=f'İlin {ORDINALS[k]} ayı hansıdır?',
                        choices=[m] + rng.sample([x for x in MONTHS if x != m], 3)))
        season = SEASONS[(k + 1) % 12 // 3]
        out.append(dict(kind='culture', source='template', passage='', question=f'{m.capitalize()} ayı hansı fəslə aiddir?',
                        choices=[f'{season} fəslinə'] + [f'{s} fəslinə' for s in SEASONS if s != season]))
    return out

# ---------------------------------------------------------------------------------------------- telecom
def sft_facts():
    "The fact tables of the SFT data (the same AzTel), loaded from its build script without running it."
    spec = importlib.util.spec_from_file_location('make_sft', ROOT/'data_samples'/'sft'/'make_sft.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

def _pick(rng, right, pool, k=3):
    pool = sorted({p for p in pool if p != right}, key=str)
    return [right] + rng.sample(pool, k)

def telecom_items(rng) -> list[dict]:
    f, out = sft_facts(), []
    add = lambda q, ch: out.append(dict(kind='telecom', source='template', passage='', question=q, choices=ch))
    prices = [t['price'] for t in f.TARIFFS]
    for t in f.TARIFFS:
        add(f"AzTel-də {t['name']} tarifi üçün hər ay nə qədər ödənilir?", [f'{p} AZN' for p in _pick(rng, t['price'], prices)])
        add(f"AzTel-də {t['name']} tarifinə keçid kodu hansıdır?", _pick(rng, t['code'], [x['code'] for x in f.TARIFFS]))
    for p in f.PACKAGES:
        add(f"AzTel-in {p['name']} paketinin qiyməti neçə manatdır?", [f'{f.m(x)} AZN' for x in _pick(rng, p['price'], [x['price'] for x in f.PACKAGES])])
        add(f"AzTel-də {p['name']} paketini almaq üçün hansı kod yığılır?", _pick(rng, p['code'], [x['code'] for x in f.PACKAGES]))
    for c in rng.sample(f.COUNTRIES, 20):
        add(f"AzTel-in roaminq tariflərində {c['nom']} hansı zonaya aiddir?", [f"Zona {z}" for z in _pick(rng, c['zone'], [1, 2, 3, 4])])
    for code, what, _ in f.CODES:
        add(f'AzTel-də {code} kodu nə edir?', [what] + rng.sample([w for c, w, _ in f.CODES if c != code], 3))
    for s in f.SERVICES:
        add(f"AzTel-də {s['name']} {s['f']['acc']} aktivləşdirmək üçün hansı kod yığılır?", _pick(rng, s['code'], [x['code'] for x in f.SERVICES]))
    return out

# ---------------------------------------------------------------------------------------------- assemble
def check(items):
    for it in items:
        ch = it['choices']
        assert len(ch) == 4 and len(set(ch)) == 4 and all(c.strip() for c in ch), it
        assert it['kind'] in ('reading', 'telecom', 'culture', 'grammar'), it
        assert (it['kind'] == 'reading') == bool(it['passage']), it
    qs = [(it['passage'], it['question']) for it in items]
    dup = {q for q in qs if qs.count(q) > 1}
    assert not dup, dup

def build_mc() -> list[dict]:
    rng = random.Random(SEED)
    items = read_handwritten() + grammar_items(rng) + culture_items(rng) + telecom_items(rng)
    check(items)
    counters = {}
    for it in items:                    # ids in writing order: handwritten first within each kind
        counters[it['kind']] = counters.get(it['kind'], 0) + 1
        it['id'] = f"{it['kind']}-{counters[it['kind']]:03d}"
    out, order = [], list(range(len(items)))
    rng.shuffle(order)                  # the file keeps this order, so that `limit: N` (a prefix) mixes all kinds
    for i, k in enumerate(order):       # the i-th question gets its answer at position i mod 4: balanced, also in any prefix
        it = dict(items[k]); right, wrong = it['choices'][0], it['choices'][1:]
        rng.shuffle(wrong); pos = i % 4
        it['choices'] = wrong[:pos] + [right] + wrong[pos:]
        it['answer'], it['label'] = pos, LETTERS[pos]
        out.append(it)
    keys = ['id', 'kind', 'source', 'passage', 'question', 'choices', 'answer', 'label']
    return [{k: it[k] for k in keys} for it in out]

def build_text() -> list[dict]:
    sys.path.insert(0, str(ROOT))
    from azllm.data import read_documents
    return [dict(id=i, text=t) for i, t in enumerate(read_documents(ROOT/'data_samples'/'az_valid.txt'))]

def write_jsonl(rows, path):
    path.write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')

def main():
    mc, text = build_mc(), build_text()
    write_jsonl(mc, OUT/'az_mc.jsonl'); write_jsonl(text, OUT/'az_text.jsonl')
    by = lambda key: {v: sum(r[key] == v for r in mc) for v in dict.fromkeys(r[key] for r in mc)}
    print(f"az_mc.jsonl: {len(mc)} questions; kinds {by('kind')}; sources {by('source')}; answers {dict(sorted(by('label').items()))}")
    print(f"az_text.jsonl: {len(text)} documents, {sum(len(r['text'].encode()) for r in text):,} UTF-8 bytes")

if __name__ == '__main__': main()
