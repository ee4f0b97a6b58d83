"""The minimal pairs of `az_grammar`: Azerbaijani morphology rules and sentence families, each family a frame whose slots are
filled from small hand-written lexicons. Every pair is (grammatical, ungrammatical): two whole sentences, both made only of
real word forms, that differ in one grammatical point. Imported by `build_tasks.py`."""
import itertools, random

VOWELS, BACKV = 'aıoueəiöü', 'aıou'
_LOWER = str.maketrans({'İ': 'i', 'I': 'ı'})

def low(s): return s.translate(_LOWER).lower()
def last_vowel(w): return next(c for c in reversed(low(w)) if c in VOWELS)
def is_back(w): return last_vowel(w) in BACKV
def A(w): return 'a' if is_back(w) else 'ə'                              # two-way harmony: -lar/-lər, -da/-də
def I(w): return {'a': 'ı', 'ı': 'ı', 'o': 'u', 'u': 'u', 'e': 'i', 'ə': 'i', 'i': 'i', 'ö': 'ü', 'ü': 'ü'}[last_vowel(w)]   # four-way
def ends_vowel(w): return low(w)[-1] in VOWELS
def cap(s): return s[:1].translate(str.maketrans({'i': 'İ', 'ı': 'I'})).upper() + s[1:]   # Azerbaijani-aware: iyun -> İyun

# ---------------------------------------------------------------------------------------------- nouns
# A noun is 'nominative' or 'nominative/stem before a vowel' where the stem changes (çörək/çörəy, uşaq/uşağ).
def _n(n): w, _, v = n.partition('/'); return w, v or w
def nom(n): return _n(n)[0]
def pl(n): w = nom(n); return w + 'l' + A(w) + 'r'
def dat(n): w, v = _n(n); return w + 'y' + A(w) if ends_vowel(w) else v + A(w)
def loc(n): w = nom(n); return w + 'd' + A(w)
def abl(n): w = nom(n); return w + 'd' + A(w) + 'n'
def gen(n): w, v = _n(n); return w + 'n' + I(w) + 'n' if ends_vowel(w) else v + I(w) + 'n'
def acc(n): w, v = _n(n); return w + 'n' + I(w) if ends_vowel(w) else v + I(w)
def poss(n, p):
    "Possessive forms: p = 1, 2, 3 (singular), 4, 5 (plural 1st, 2nd person)."
    w, v = _n(n); i = I(w)
    base = w if ends_vowel(w) else v + i
    return {1: base + 'm', 2: base + 'n', 3: (w + 's' + i) if ends_vowel(w) else v + i, 4: base + 'm' + i + 'z', 5: base + 'n' + i + 'z'}[p]
def poss_dat(n, p):
    "Dative of a possessed noun: qardaşıma, qardaşına, qardaşına (3rd person: -na/-nə), bacısına."
    f = poss(n, p); return f + ('n' + A(f) if p == 3 else ('y' + A(f) if ends_vowel(f) else A(f)))
def poss_abl(n, p):
    f = poss(n, p); return f + ('nd' if p == 3 else 'd') + A(f) + 'n'
def poss_loc(n, p):
    "Locative of a possessed noun: qardaşımda, qardaşında (3rd person: -nda/-ndə), bacısında."
    f = poss(n, p); return f + ('nd' if p == 3 else 'd') + A(f)

# ---------------------------------------------------------------------------------------------- verbs
# A verb is its stem, or 'stem/stem before a vowel' (get/ged: getdi, gedir; qayıt/qayıd).
PERSONS = (1, 2, 3, 4, 5)       # mən, sən, o, biz, siz (3rd person plural is left out: its agreement is optional)
PRONOUN = {1: 'Mən', 2: 'Sən', 3: 'O,', 4: 'Biz', 5: 'Siz'}   # the subject 'o' takes a comma (o, not the demonstrative)
PRON_GEN = {1: 'mənim', 2: 'sənin', 3: 'onun', 4: 'bizim', 5: 'sizin'}

def _v(v): s, _, vs = v.partition('/'); return s, vs or s
def past(v, p):
    s = _v(v)[0]; b = s + 'd' + I(s)
    return b + {1: 'm', 2: 'n', 3: '', 4: 'q' if is_back(s) else 'k', 5: 'n' + I(s) + 'z'}[p]
def past_neg(v, p):
    s = _v(v)[0]; b = s + 'm' + A(s) + 'd' + ('ı' if is_back(s) else 'i')
    return b + {1: 'm', 2: 'n', 3: '', 4: 'q' if is_back(s) else 'k', 5: 'n' + ('ı' if is_back(s) else 'i') + 'z'}[p]
def _pres_person(b, p):
    i = I(b)
    return b + {1: A(b) + 'm', 2: 's' + A(b) + 'n', 3: '', 4: i + ('q' if is_back(b) else 'k'), 5: 's' + i + 'n' + i + 'z'}[p]
def pres(v, p):
    s, vs = _v(v)
    b = s + 'y' + I(s) + 'r' if ends_vowel(s) else vs + I(vs) + 'r'
    return _pres_person(b, p)
def pres_neg(v, p):
    s = _v(v)[0]; return _pres_person(s + 'm' + I(s) + 'r', p)
def fut(v, p):
    s, vs = _v(v); st = s + 'y' if ends_vowel(s) else vs
    if is_back(s): return st + {1: 'acağam', 2: 'acaqsan', 3: 'acaq', 4: 'acağıq', 5: 'acaqsınız'}[p]
    return st + {1: 'əcəyəm', 2: 'əcəksən', 3: 'əcək', 4: 'əcəyik', 5: 'əcəksiniz'}[p]
def fut_neg(v, p):
    s = _v(v)[0]; st = s + 'm' + A(s) + 'y'
    if is_back(s): return st + {1: 'acağam', 2: 'acaqsan', 3: 'acaq', 4: 'acağıq', 5: 'acaqsınız'}[p]
    return st + {1: 'əcəyəm', 2: 'əcəksən', 3: 'əcək', 4: 'əcəyik', 5: 'əcəksiniz'}[p]
def copula(w, p):
    "A nominal predicate: həkiməm, həkimsən, həkimdir, həkimik, həkimsiniz; tələbəyəm, tələbəyik."
    i, y = I(w), ('y' if ends_vowel(w) else '')
    return w + {1: y + A(w) + 'm', 2: 's' + A(w) + 'n', 3: 'd' + i + 'r', 4: y + i + ('q' if is_back(w) else 'k'), 5: 's' + i + 'n' + i + 'z'}[p]

# ---------------------------------------------------------------------------------------------- lexicons
MALE = 'Əli Vüsal Rəşad Kamran Elçin Tural Orxan Fərid Nicat Ramil Murad Samir Elvin Anar Cavid Rauf Ülvi Emin Toğrul Fuad Zaur Səbuhi'.split()
FEMALE = 'Nigar Aysel Leyla Günay Səbinə Lalə Aytən Nərgiz Könül Şəbnəm Ülkər Xədicə Fidan Arzu Aydan Sevinc Gülnar Aynur Türkan Nərmin Zəhra Ülviyyə'.split()
NAMES = MALE + FEMALE
CITIES = 'Bakı Gəncə Sumqayıt Şəki Quba Lənkəran Şamaxı Naxçıvan Qəbələ Mingəçevir Zaqatala Şuşa Qusar Astara Ağdam Göyçay'.split()
PLACES = 'bazar park məktəb kitabxana xəstəxana muzey teatr stadion poçt bank aptek universitet zavod kənd dəniz meşə bağ ofis mağaza restoran kafe dükan'.split()
KIN = 'qardaş bacı ana ata dost qonşu müəllim əmi dayı xala bibi nənə baba'.split()
PROFESSIONS = 'həkim müəllim tələbə mühəndis sürücü aşpaz jurnalist rəssam proqramçı tərcüməçi satıcı şagird idmançı musiqiçi'.split()
ADJ_STATE = 'yorğun xoşbəxt hazır məşğul ac razı narahat sağlam'.split()
DRINKS = 'çay qəhvə süd su kompot ayran'.split()
FOODS = 'plov dolma kabab şorba qutab dovğa piti'.split()
OBJECTS_V = 'alma armud heyva gilas qarpız ərik şaftalı'.split()          # vowel-final: accusative -nı and 3rd-person -sı differ
BOOKISH = 'kitab məktub qəzet jurnal şeir hekayə məqalə roman'.split()
ANIMALS = 'it pişik/pişiy ilan ayı canavar at inək/inəy qoyun dəvə tülkü'.split()

# ---------------------------------------------------------------------------------------------- families
# Each family returns candidate pairs [(good, bad)]; the builder takes at most FAMILY_MAX of them, chosen so that the
# grammatical sentence is the longer one in about half of all pairs (in bytes and in tokens).

def combos(rng, *lists, n=40):
    "Up to n distinct combinations of one item from each list, in a random order that spreads every list's items."
    out = list(itertools.product(*lists)); rng.shuffle(out); return out[:n]

def persons_pair(rng, p):
    "A wrong person for subject p: any other of mən, sən, o, biz, siz."
    return rng.choice([q for q in PERSONS if q != p])

FAMILIES = {}   # name -> (phenomenon, function(rng) -> [(good, bad)])
def family(phenomenon, name):
    def deco(f): FAMILIES[name] = (phenomenon, f); return f
    return deco

# -- subject-verb agreement (person and number on the verb) ------------------------------------
@family('subject_verb_agreement', 'agree_past_go')
def _(rng):
    out = []
    for p, pl_, t in combos(rng, PERSONS, PLACES, ['dünən', 'axşam', 'səhər tezdən', 'keçən həftə', 'bir saat əvvəl']):
        q = persons_pair(rng, p); s = f'{PRONOUN[p]} {t} {dat(pl_)}'
        out.append((f'{s} {past("get", p)}.', f'{s} {past("get", q)}.'))
    return out

@family('subject_verb_agreement', 'agree_present_drink')
def _(rng):
    out = []
    for p, d, t in combos(rng, PERSONS, DRINKS, ['hər səhər', 'adətən', 'nahardan sonra', 'yatmazdan əvvəl', 'işdə']):
        q = persons_pair(rng, p); s = f'{PRONOUN[p]} {t} {d}'
        out.append((f'{s} {pres("iç", p)}.', f'{s} {pres("iç", q)}.'))
    return out

@family('subject_verb_agreement', 'agree_future_move')
def _(rng):
    out = []
    for p, c, t in combos(rng, PERSONS, CITIES, ['gələn il', 'yayda', 'tezliklə', 'payızda']):
        q = persons_pair(rng, p); s = f'{PRONOUN[p]} {t} {dat(c)}'
        out.append((f'{s} {fut("köç", p)}.', f'{s} {fut("köç", q)}.'))
    return out

@family('subject_verb_agreement', 'agree_present_read')
def _(rng):
    out = []
    for p, b, a in combos(rng, PERSONS, BOOKISH, ['yavaş-yavaş', 'maraqla', 'səsli', 'diqqətlə']):
        q = persons_pair(rng, p); s = f'{PRONOUN[p]} bu {acc(b)} {a}'
        out.append((f'{s} {pres("oxu", p)}.', f'{s} {pres("oxu", q)}.'))
    return out

@family('subject_verb_agreement', 'agree_past_see')
def _(rng):
    out = []
    for p, n, w in combos(rng, PERSONS, NAMES, ['stansiyada', 'bazarda', 'konsertdə', 'toyda', 'dayanacaqda']):
        q = persons_pair(rng, p); s = f'{PRONOUN[p]} {acc(n)} {w}'
        out.append((f'{s} {past("gör", p)}.', f'{s} {past("gör", q)}.'))
    return out

# -- nominal predicate (copula) agreement -------------------------------------------------------
@family('copula_agreement', 'copula_profession')
def _(rng):
    out = []
    for p, w, where in combos(rng, PERSONS, PROFESSIONS, ['bu şəhərdə', 'həmin məktəbdə', 'kənddə', 'bu komandada']):
        q = persons_pair(rng, p)
        out.append((f'{PRONOUN[p]} {where} {copula(w, p)}.', f'{PRONOUN[p]} {where} {copula(w, q)}.'))
    return out

@family('copula_agreement', 'copula_state')
def _(rng):
    out = []
    for p, a, t in combos(rng, PERSONS, ADJ_STATE, ['bu gün çox', 'indi bir az', 'axşamlar həmişə', 'səhərdən bəri']):
        q = persons_pair(rng, p)
        out.append((f'{PRONOUN[p]} {t} {copula(a, p)}.', f'{PRONOUN[p]} {t} {copula(a, q)}.'))
    return out

@family('copula_agreement', 'copula_location')
def _(rng):
    out = []
    for p, pl_, t in combos(rng, PERSONS, PLACES, ['hələ', 'artıq', 'indi', 'bütün günü']):
        q = persons_pair(rng, p); w = loc(pl_)
        out.append((f'{PRONOUN[p]} {t} {copula(w, p)}.', f'{PRONOUN[p]} {t} {copula(w, q)}.'))
    return out

# -- possessive agreement (genitive possessor + possessive suffix) -------------------------------
@family('possessive_agreement', 'poss_kin_lives')
def _(rng):
    out = []
    for p, k, c in combos(rng, PERSONS, KIN, CITIES):
        q = persons_pair(rng, p); s = f'{cap(PRON_GEN[p])}'
        out.append((f'{s} {poss(k, p)} {loc(c)} yaşayır.', f'{s} {poss(k, q)} {loc(c)} yaşayır.'))
    return out

@family('possessive_agreement', 'poss_object_where')
def _(rng):
    things = ['çanta', 'açar', 'telefon', 'dəftər', 'qələm', 'eynək/eynəy', 'saat', 'paltar', 'papaq/papağ', 'şərf']
    wheres = ['stolun üstündədir', 'qapının yanındadır', 'maşında qalıb', 'şkafın içindədir', 'pəncərənin qabağındadır']
    out = []
    for p, t, w in combos(rng, PERSONS, things, wheres):
        q = persons_pair(rng, p)
        out.append((f'{cap(PRON_GEN[p])} {poss(t, p)} {w}.', f'{cap(PRON_GEN[p])} {poss(t, q)} {w}.'))
    return out

@family('possessive_agreement', 'poss_name_noun')
def _(rng):
    things = ['maşın', 'ev', 'bağ', 'kitab', 'velosiped', 'kompüter', 'it', 'pişik/pişiy', 'otaq/otağ', 'mağaza']
    preds = ['çox köhnədir', 'yenidir', 'hamıya tanışdır', 'çox böyükdür', 'hələ satılmayıb']
    out = []
    for n, t, pr in combos(rng, NAMES, things, preds):
        q = rng.choice([1, 2, 4, 5])
        out.append((f'{gen(n)} {poss(t, 3)} {pr}.', f'{gen(n)} {poss(t, q)} {pr}.'))
    return out

@family('possessive_agreement', 'poss_participle')
def _(rng):
    # "the book that I read": the participle -dığ- carries the possessor's person
    verbs = [('oxu', 'kitab'), ('yaz', 'məktub'), ('al', 'köynək'), ('bişir', 'plov'), ('gör', 'film'), ('çək', 'şəkil'), ('tik', 'paltar'), ('dinlə', 'mahnı')]
    ends = ['hamının xoşuna gəldi', 'çox gözəl alınıb', 'hələ yadımdadır']
    out = []
    for p, (v, o), e in combos(rng, PERSONS, verbs, ends):
        q = persons_pair(rng, p)
        def part(pp):
            b = v + 'd' + I(v) + ('ğ' if is_back(v) else 'y')
            return b + {1: I(v) + 'm', 2: I(v) + 'n', 3: I(v), 4: I(v) + 'm' + I(v) + 'z', 5: I(v) + 'n' + I(v) + 'z'}[pp]
        out.append((f'{cap(PRON_GEN[p])} {part(p)} {o} {e}.', f'{cap(PRON_GEN[p])} {part(q)} {o} {e}.'))
    return out

# -- postposition government ---------------------------------------------------------------------
@family('postposition_government', 'pp_ucun_pronoun')      # üçün after a personal pronoun takes its genitive: mənim üçün
def _(rng):
    cooks = ['Anam', 'Nənəm', 'Xalam', 'Bacım', 'Atam', 'Qonşumuz']
    out = []
    for p, c, f in combos(rng, (1, 2, 4, 5), cooks, FOODS):    # not 'o üçün': that is also 'for that reason'
        out.append((f'{c} {PRON_GEN[p]} üçün {f} bişirdi.', f'{c} {low(PRONOUN[p])} üçün {f} bişirdi.'))
    return out

@family('postposition_government', 'pp_ucun_noun')         # üçün after a noun takes its nominative: uşaqlar üçün
def _(rng):
    whom = ['uşaq', 'qonaq', 'tələbə', 'qonşu', 'işçi', 'şagird', 'nəvə', 'turist']
    what = ['hədiyyə aldı', 'tort bişirdi', 'çay dəmlədi', 'yer hazırladı', 'kitab gətirdi', 'otaq ayırdı']
    out = []
    for n, w, d in combos(rng, NAMES, whom, what):
        out.append((f'{n} {pl(w)} üçün {d}.', f'{n} {gen(pl(w))} üçün {d}.'))
    return out

@family('postposition_government', 'pp_sonra_evvel')       # sonra and əvvəl take the ablative
def _(rng):
    events = ['dərs', 'iş', 'nahar', 'konsert', 'imtahan', 'yağış', 'toy', 'məşq', 'görüş', 'səfər', 'oyun', 'bayram', 'tətil', 'film']
    clauses = ['biz parka getdik', 'hamı evə qayıtdı', 'küçələr boşaldı', 'uşaqlar bir az dincəldi', 'Nigar dostlarına zəng etdi']
    out = []
    for e, pp, c in combos(rng, events, ['sonra', 'əvvəl'], clauses):
        out.append((f'{cap(abl(e))} {pp} {c}.', f'{cap(dat(e))} {pp} {c}.'))
    return out

@family('postposition_government', 'pp_qeder')             # qədər (as far as, until) takes the dative
def _(rng):
    goals = ['körpü', 'stansiya', 'dayanacaq/dayanacağ', 'meydan', 'məktəb', 'dəniz', 'park', 'bazar', 'kənd', 'muzey', 'universitet']
    out = []
    for p, g, how in combos(rng, PERSONS, goals, ['piyada getdi', 'qaçdı', 'velosipedlə getdi', 'birlikdə getdi']):
        v = how.split()[-1]; base = how[: -len(v)]
        verb = {'getdi': past('get', p), 'qaçdı': past('qaç', p)}[v]
        out.append((f'{PRONOUN[p]} {dat(g)} qədər {base}{verb}.', f'{PRONOUN[p]} {abl(g)} qədər {base}{verb}.'))
    return out

@family('postposition_government', 'pp_gore')              # görə (because of) takes the dative
def _(rng):
    causes = ['yağış', 'külək/küləy', 'duman', 'tıxac', 'şaxta', 'çovğun', 'sel', 'istilik/istiliy']
    events = ['məktəblər bağlandı', 'uçuş təxirə salındı', 'oyun dayandırıldı', 'yol bağlandı', 'biz evdə qaldıq', 'qatar gecikdi']
    out = []
    for c, e in combos(rng, causes, events):
        out.append((f'Güclü {dat(c)} görə {e}.', f'Güclü {abl(c)} görə {e}.'))
    return out

@family('postposition_government', 'pp_basqa')             # başqa (except) takes the ablative
def _(rng):
    preds = ['gəldi', 'imtahandan keçdi', 'vaxtında gəldi', 'bu filmə baxıb', 'tapşırığı yazdı', 'səhər tezdən durdu']
    out = []
    for n, pr in combos(rng, NAMES, preds):
        out.append((f'{abl(n)} başqa hamı {pr}.', f'{dat(n)} başqa hamı {pr}.'))
    return out

@family('postposition_government', 'pp_qarsi')             # qarşı (against) takes the dative
def _(rng):
    out = []
    for c, t in combos(rng, CITIES, ['dünən', 'bazar günü', 'keçən ay', 'axşam']):
        team = c + ' komanda'
        out.append((f'Bizim komanda {t} {poss_dat(team, 3)} qarşı oynadı.', f'Bizim komanda {t} {poss_abl(team, 3)} qarşı oynadı.'))
    return out

# -- case government of verbs ---------------------------------------------------------------------
@family('verb_case_government', 'gov_help_dat')            # kömək etmək takes the dative
def _(rng):
    where = ['bağda', 'ev işlərində', 'dərslərində', 'köçəndə', 'bazarda', 'həyətdə']
    out = []
    for n, k, w in combos(rng, NAMES, KIN, where):
        out.append((f'{n} {w} {poss_dat(k, 3)} kömək etdi.', f'{n} {w} {poss(k, 3)}n{I(poss(k, 3))} kömək etdi.'))
    return out

@family('verb_case_government', 'gov_look_dat')            # baxmaq takes the dative
def _(rng):
    objs = ['xəritə', 'şəkil/şəkl', 'saat', 'pəncərə', 'ekran', 'lövhə', 'cədvəl', 'sənəd', 'plakat', 'güzgü']
    subj = ['Müəllim', 'Turist', 'Balaca qız', 'Həkim', 'Sürücü', 'Qonaq']
    out = []
    for s, o, a in combos(rng, subj, objs, ['diqqətlə', 'uzun müddət', 'təəccüblə', 'bir daha']):
        out.append((f'{s} {dat(o)} {a} baxdı.', f'{s} {acc(o)} {a} baxdı.'))
    return out

@family('verb_case_government', 'gov_fear_abl')            # qorxmaq takes the ablative
def _(rng):
    subj = ['Balaca qız', 'Kiçik qardaşım', 'Qonşunun oğlu', 'Bu uşaq', 'Mənim bacım', 'Nənəm']
    things = ANIMALS + ['qaranlıq/qaranlığ', 'arı', 'siçan', 'ildırım']
    out = []
    for s, t in combos(rng, subj, things):
        out.append((f'{s} {abl(t)} çox qorxur.', f'{s} {dat(t)} çox qorxur.'))
    return out

@family('verb_case_government', 'gov_ask_abl')             # soruşmaq takes the ablative of the person asked
def _(rng):
    whom = ['polis', 'satıcı', 'sürücü', 'müəllim', 'qonşu', 'həkim', 'qarovulçu', 'aptekçi']
    what = ['yolu', 'ünvanı', 'vaxtı', 'qiyməti', 'stansiyanı', 'ən yaxın bankı']
    subj = ['Turist', 'Qonaq', 'Tələbə', 'Yaşlı kişi', 'Qadın']
    out = []
    for s, w, q in combos(rng, subj, whom, what):
        out.append((f'{s} {abl(w)} {q} soruşdu.', f'{s} {dat(w)} {q} soruşdu.'))
    return out

@family('verb_case_government', 'gov_resemble_dat')        # oxşamaq takes the dative
def _(rng):
    out = []
    for n, k, h in combos(rng, NAMES, ['ana', 'ata', 'baba', 'nənə', 'dayı', 'əmi', 'xala', 'bibi', 'qardaş', 'bacı'], ['çox', 'bir az', 'lap', 'həqiqətən']):
        out.append((f'{n} {poss_dat(k, 3)} {h} oxşayır.', f'{n} {poss_abl(k, 3)} {h} oxşayır.'))
    return out

@family('verb_case_government', 'gov_compare_abl')         # the standard of comparison takes the ablative
def _(rng):
    pairs = [('Fil', 'at', 'ağırdır'), ('Qatar', 'avtobus', 'uzundur'), ('Dəniz', 'göl', 'böyükdür'), ('Təyyarə', 'qatar', 'sürətlidir'),
             ('Dağ', 'təpə', 'hündürdür'), ('Qızıl', 'gümüş', 'bahadır'), ('Qış', 'payız', 'soyuqdur'), ('Şəhər', 'kənd', 'səs-küylüdür'),
             ('Çay', 'arx', 'genişdir'), ('Limon', 'portağal', 'turşdur'), ('Dəmir', 'taxta', 'möhkəmdir'), ('Yay', 'yaz', 'istidir'),
             ('Canavar', 'tülkü', 'güclüdür'), ('Zürafə', 'dəvə', 'hündürdür'), ('Şir', 'pişik', 'təhlükəlidir'), ('Okean', 'dəniz', 'dərindir')]
    return [(f'{a} {abl(b)} {c}.', f'{a} {dat(b)} {c}.') for a, b, c in pairs]

@family('verb_case_government', 'gov_rejoice_dat')         # sevinmək takes the dative
def _(rng):
    things = ['hədiyyə', 'məktub', 'xəbər', 'qiymət', 'mükafat', 'gül', 'dəvət', 'zəng', 'sürpriz', 'nəticə']
    out = []
    for n, t, h in combos(rng, NAMES, things, ['çox', 'uşaq kimi', 'hamıdan çox', 'ürəkdən']):
        out.append((f'{n} bu {dat(t)} {h} sevindi.', f'{n} bu {acc(t)} {h} sevindi.'))
    return out

@family('verb_case_government', 'gov_call_dat')            # zəng etmək takes the dative
def _(rng):
    out = []
    for n, k, t in combos(rng, NAMES, KIN, ['axşam', 'səhər tezdən', 'nahar vaxtı', 'yoldan', 'dərsdən sonra']):
        out.append((f'{n} {t} {poss_dat(k, 3)} zəng etdi.', f'{n} {t} {poss(k, 3)}n{I(poss(k, 3))} zəng etdi.'))
    return out

# -- spatial cases: dative of direction, locative of place -------------------------------------------
@family('spatial_case', 'space_go_dat')
def _(rng):
    out = []
    for n, v, c in combos(rng, NAMES, ['qatarla', 'avtobusla', 'maşınla', 'təyyarə ilə'], CITIES):
        out.append((f'{n} {v} {dat(c)} getdi.', f'{n} {v} {loc(c)} getdi.'))
    return out

@family('spatial_case', 'space_return_dat')
def _(rng):
    out = []
    for n, pl_, t in combos(rng, NAMES, PLACES, ['gec', 'yorğun halda', 'yağışda', 'bir saatdan sonra']):
        out.append((f'{n} {t} {dat(pl_)} qayıtdı.', f'{n} {t} {loc(pl_)} qayıtdı.'))
    return out

@family('spatial_case', 'space_live_loc')
def _(rng):
    out = []
    for n, c, t in combos(rng, NAMES, CITIES, ['uzun illərdir', 'hələ də', 'on ildir', 'indi']):
        out.append((f'{gen(n)} ailəsi {t} {loc(c)} yaşayır.', f'{gen(n)} ailəsi {t} {dat(c)} yaşayır.'))
    return out

@family('spatial_case', 'space_work_loc')
def _(rng):
    out = []
    for n, pl_, t in combos(rng, NAMES, PLACES, ['üç ildir', 'keçən aydan bəri', 'gecələr', 'həftə sonları']):
        out.append((f'{n} {t} {loc(pl_)} işləyir.', f'{n} {t} {dat(pl_)} işləyir.'))
    return out

# -- tense agreeing with a time adverb -----------------------------------------------------------------
VPS = [('bazardan meyvə', 'al'), ('nahar üçün şorba', 'bişir'), ('dostlara məktub', 'yaz'), ('yeni bir film', 'izlə'),
       ('kitabxanadan kitab', 'götür'), ('bağda ağac', 'ək'), ('qonaqlar üçün tort', 'al'), ('evdə təmizlik', 'et/ed')]
def _tense_family(adverbs, right, wrong):
    def f(rng):
        out = []
        for p, (o, v), a in combos(rng, PERSONS, VPS, adverbs):
            s = f'{PRONOUN[p]} {a} {o}'
            out.append((f'{s} {right(v, p)}.', f'{s} {wrong(v, p)}.'))
        return out
    return f
family('tense_adverb', 'tense_yesterday')(_tense_family(['dünən', 'srağagün', 'dünən axşam'], past, fut))
family('tense_adverb', 'tense_last')(_tense_family(['keçən həftə', 'keçən ay', 'iki gün əvvəl', 'bir il əvvəl'], past, fut))
family('tense_adverb', 'tense_tomorrow')(_tense_family(['sabah', 'birigün', 'sabah səhər'], fut, past))
family('tense_adverb', 'tense_next')(_tense_family(['gələn həftə', 'gələn ay', 'iki gündən sonra', 'bir ildən sonra'], fut, past))

# -- negative polarity: heç kim, heç nə, heç vaxt, heç yerə, heç bir need a negative predicate; nə ... nə də an affirmative one
# (so the negative verb is the grammatical one in half of the pairs and the ungrammatical one in the other half) ----------
@family('negative_polarity', 'neg_nobody')
def _(rng):
    events = ['iclas', 'dərs', 'görüş', 'məşq', 'toplantı', 'konsert', 'sərgi', 'seminar']
    out = []
    for e, t, v in combos(rng, events, ['Dünən', 'Bu səhər', 'Axşam', 'Bazar günü', 'Keçən həftə'], ['gəl', 'gecik', 'danış']):
        e_ = {'gəl': dat(e), 'gecik': dat(e), 'danış': loc(e)}[v]
        out.append((f'{t} {e_} heç kim {past_neg(v, 3)}.', f'{t} {e_} heç kim {past(v, 3)}.'))
    return out

@family('negative_polarity', 'neg_nothing')
def _(rng):
    out = []
    for p, (v, t) in combos(rng, PERSONS, [('ye', 'səhər'), ('al', 'mağazadan'), ('de', 'iclasda'), ('yaz', 'imtahanda'), ('soruş', 'dərsdə'),
                                           ('eşit', 'gecə'), ('iç', 'axşamdan bəri'), ('bişir', 'bu gün')]):
        out.append((f'{PRONOUN[p]} {t} heç nə {past_neg(v, p)}.', f'{PRONOUN[p]} {t} heç nə {past(v, p)}.'))
    return out

@family('negative_polarity', 'neg_never')
def _(rng):
    vps = [('dərsə ', '', 'gecik'), ('', 'yalan ', 'danış'), ('işdən ', 'şikayət ', 'et/ed'), ('evdə ', '', 'qışqır'), ('yolda ', '', 'tələs'),
           ('səhər ', 'gec ', 'dur'), ('nahardan sonra ', '', 'yat'), ('', 'siqaret ', 'çək')]
    out = []
    for n, (a, b, v) in combos(rng, NAMES, vps):
        out.append((f'{n} {a}heç vaxt {b}{pres_neg(v, 3)}.', f'{n} {a}heç vaxt {b}{pres(v, 3)}.'))
    return out

@family('negative_polarity', 'neg_nowhere')
def _(rng):
    out = []
    for p, t in combos(rng, PERSONS, ['bu gün', 'bütün yay', 'tətildə', 'dünən', 'həftə sonu', 'bayramda']):
        out.append((f'{PRONOUN[p]} {t} heç yerə {past_neg("get", p)}.', f'{PRONOUN[p]} {t} heç yerə {past("get", p)}.'))
    return out

@family('negative_polarity', 'neg_no_thing')
def _(rng):
    docs = ['məqalə', 'məktub', 'hesabat', 'yazı', 'cədvəl', 'tərcümə', 'inşa', 'sənəd']
    things = ['səhv', 'problem', 'dəyişiklik', 'çatışmazlıq', 'yeni fikir', 'boş yer']
    out = []
    for d, t in combos(rng, docs, things):
        out.append((f'Bu {loc(d)} heç bir {t} yoxdur.', f'Bu {loc(d)} heç bir {t} var.'))
    return out

@family('negative_polarity', 'neg_ne_ne')                  # nə ... nə də: the predicate stays affirmative
def _(rng):
    pairs = [('çay', 'qəhvə', 'iç'), ('çörək', 'pendir', 'al'), ('məktub', 'mesaj', 'yaz'), ('film', 'serial', 'izlə'), ('kitab', 'jurnal', 'oxu'),
             ('plov', 'dolma', 'bişir'), ('alma', 'armud', 'ye'), ('gitara', 'piano', 'çal'), ('şahmat', 'nərd', 'oyna')]
    out = []
    for n, (a, b, v) in combos(rng, NAMES, pairs):
        out.append((f'{n} nə {a} {past(v, 3)}, nə də {b}.', f'{n} nə {a} {past_neg(v, 3)}, nə də {b}.'))
    return out

@family('negative_polarity', 'neg_ne_ne_present')          # the same rule in the present: nə çay içir, nə də qəhvə
def _(rng):
    pairs = [('meyvə', 'tərəvəz', 'sat'), ('futbol', 'voleybol', 'oyna'), ('qəzet', 'kitab', 'oxu'), ('ət', 'balıq', 'ye'),
             ('şəkil', 'heykəl', 'düzəlt'), ('mahnı', 'şeir', 'yaz'), ('süd', 'ayran', 'iç'), ('radio', 'televizor', 'təmir et/ed')]
    out = []
    for n, (a, b, v), t in combos(rng, NAMES, pairs, ['indi', 'artıq', 'evdə', 'bu günlərdə']):
        *pre, vv = v.split(' '); pre = ' '.join(pre + [''])
        out.append((f'{n} {t} nə {a} {pre}{pres(vv, 3)}, nə də {b}.', f'{n} {t} nə {a} {pre}{pres_neg(vv, 3)}, nə də {b}.'))
    return out

@family('negative_polarity', 'neg_ne_ne_persons')          # nə ... nə də before the verb, every person: nə çay, nə də qəhvə içdim
def _(rng):
    pairs = [('çay', 'qəhvə', 'iç'), ('bilet', 'xəritə', 'al'), ('zəng', 'məktub', 'gözlə'), ('maşın', 'velosiped', 'sür'),
             ('paltar', 'ayaqqabı', 'seç'), ('şorba', 'salat', 'sifariş et/ed'), ('mahnı', 'nağıl', 'dinlə')]
    out = []
    for p, (a, b, v), t in combos(rng, PERSONS, pairs, ['dünən', 'səhər', 'bayramda', 'yolda', 'orada']):
        *pre, vv = v.split(' '); pre = ' '.join(pre + [''])
        s_ = f'{PRONOUN[p]} {t} nə {a}, nə də {b} {pre}'
        out.append((f'{s_}{past(vv, p)}.', f'{s_}{past_neg(vv, p)}.'))
    return out

@family('negative_polarity', 'neg_ne_ne_subject')          # coordinated subjects: nə Əli, nə də Leyla gəldi
def _(rng):
    out = []
    for (a, b), pl_, t in combos(rng, [(x, y) for x in MALE[:10] for y in FEMALE[:10]], PLACES, ['dünən', 'bu gün', 'axşam', 'vaxtında']):
        out.append((f'Nə {a}, nə də {b} {t} {dat(pl_)} gəldi.', f'Nə {a}, nə də {b} {t} {dat(pl_)} gəlmədi.'))
    return out

@family('negative_polarity', 'neg_ne_ne_future')           # and in the future: nə Gəncəyə, nə də Şəkiyə gedəcəyəm
def _(rng):
    out = []
    for p, (a, b), t in combos(rng, PERSONS, [(x, y) for x in CITIES[:8] for y in CITIES[8:]], ['gələn il', 'yayda', 'bu həftə', 'tətildə']):
        s_ = f'{PRONOUN[p]} {t} nə {dat(a)}, nə də {dat(b)}'
        out.append((f'{s_} {fut("get/ged", p)}.', f'{s_} {fut_neg("get", p)}.'))
    return out

# -- a numeral takes a singular noun -------------------------------------------------------------------
NUMS = ['iki', 'üç', 'dörd', 'beş', 'altı', 'yeddi', 'səkkiz', 'doqquz', 'on', 'on iki', 'iyirmi']
@family('numeral_singular', 'num_bought')
def _(rng):
    out = []
    for n, k, f in combos(rng, NAMES, NUMS, OBJECTS_V + ['limon', 'kartof', 'soğan', 'yumurta', 'pomidor']):
        out.append((f'{n} bazardan {k} {f} aldı.', f'{n} bazardan {k} {pl(f)} aldı.'))
    return out

@family('numeral_singular', 'num_people')
def _(rng):
    where = ['Bu sinifdə', 'Avtobusda', 'Zalda', 'Həyətdə', 'Otaqda', 'Növbədə']
    who = ['şagird', 'tələbə', 'sərnişin', 'uşaq', 'qonaq', 'işçi', 'adam']
    out = []
    for w, k, h in combos(rng, where, NUMS, who):
        out.append((f'{w} {k} {h} var.', f'{w} {k} {pl(h)} var.'))
    return out

@family('numeral_singular', 'num_time')
def _(rng):
    out = []
    for p, c, k, u in combos(rng, PERSONS, CITIES, NUMS[:8], ['gün', 'həftə', 'ay', 'il']):
        out.append((f'{PRONOUN[p]} {loc(c)} {k} {u} {past("qal", p)}.', f'{PRONOUN[p]} {loc(c)} {k} {pl(u)} {past("qal", p)}.'))
    return out

@family('numeral_singular', 'num_bir_nece')
def _(rng):
    where = ['Stolun üstündə', 'Rəfdə', 'Çantamda', 'Qutuda', 'Masanın altında', 'Şkafda']
    what = ['kitab', 'dəftər', 'qələm', 'açar', 'şəkil', 'məktub', 'oyuncaq', 'disk']
    out = []
    for w, t in combos(rng, where, what):
        out.append((f'{w} bir neçə {t} var.', f'{w} bir neçə {pl(t)} var.'))
    return out

# A plural noun after a determiner is grammatical, after a numeral it is not: the same contrast, with the determiner or
# numeral as the word that differs (so the grammatical sentence is the one of the longer word here, the shorter one above).
DETS = ['bu', 'o', 'həmin', 'bütün', 'digər', 'başqa', 'bəzi']
NUMS1 = ['iki', 'üç', 'dörd', 'beş', 'yeddi', 'səkkiz', 'doqquz', 'on', 'iyirmi']   # one word each; not 'altı', also 'its underside'
@family('numeral_singular', 'num_det_gathered')
def _(rng):
    where = ['Həyətdə', 'Zalda', 'Stansiyada', 'Dəhlizdə', 'Meydanda', 'Parkda']
    who = ['şagird', 'tələbə', 'sərnişin', 'uşaq', 'qonaq', 'işçi', 'turist', 'idmançı']
    verbs = ['toplaşdı', 'gözləyirdi', 'dayanmışdı', 'dincəlirdi']
    out = []
    for w, d, k, h, v in combos(rng, where, DETS, NUMS1, who, verbs):
        out.append((f'{w} {d} {pl(h)} {v}.', f'{w} {k} {pl(h)} {v}.'))
    return out

@family('numeral_singular', 'num_det_object')
def _(rng):
    fruit = OBJECTS_V + ['limon', 'kartof', 'soğan', 'pomidor', 'xiyar']
    verbs = ['yudu', 'satdı', 'səbətə yığdı', 'qutuya qoydu', 'soyuducuya qoydu']
    out = []
    for n, d, k, f, v in combos(rng, NAMES, DETS, NUMS1, fruit, verbs):
        out.append((f'{n} {d} {acc(pl(f))} {v}.', f'{n} {k} {acc(pl(f))} {v}.'))
    return out

@family('numeral_singular', 'num_det_subject')
def _(rng):
    who = ['tələbə', 'şagird', 'uşaq', 'işçi', 'idmançı', 'qonaq', 'müəllim', 'həkim']
    preds = ['imtahandan keçdi', 'vaxtında gəldi', 'ekskursiyaya getdi', 'mükafat aldı', 'yarışda iştirak etdi']
    out = []
    for d, k, h, pr in combos(rng, DETS, NUMS1, who, preds):
        out.append((f'{cap(d)} {pl(h)} {pr}.', f'{cap(k)} {pl(h)} {pr}.'))
    return out

@family('numeral_singular', 'num_det_dative')
def _(rng):
    whom = ['uşaq', 'qonaq', 'şagird', 'qonşu', 'işçi', 'tələbə', 'nəvə']
    what = ['hədiyyə verdi', 'məktub yazdı', 'kömək etdi', 'zəng etdi', 'dərs keçdi']
    out = []
    for n, d, k, w, v in combos(rng, NAMES, DETS, NUMS1, whom, what):
        out.append((f'{n} {d} {dat(pl(w))} {v}.', f'{n} {k} {dat(pl(w))} {v}.'))
    return out

# -- the accusative: a definite object takes it, a subject never does -----------------------------------
@family('accusative_marking', 'acc_demonstrative_object')
def _(rng):
    objs = ['film', 'kitab', 'mahnı', 'şəkil/şəkl', 'tamaşa', 'hekayə', 'roman', 'şəhər', 'muzey', 'oyun']
    out = []
    for n, o, h in combos(rng, NAMES, objs, [('iki dəfə', 'gör'), ('çox', 'bəyən'), ('hamıya', 'tövsiyə et/ed'), ('ilk dəfə', 'gör')]):
        a, v = h; *pre, vv = v.split(' '); pre = ' '.join(pre + [''])
        out.append((f'{n} bu {acc(o)} {a} {pre}{past(vv, 3)}.', f'{n} bu {nom(o)} {a} {pre}{past(vv, 3)}.'))
    return out

@family('accusative_marking', 'acc_name_object')
def _(rng):
    out = []
    for p, n, w in combos(rng, PERSONS, NAMES, ['stansiyada', 'qapının ağzında', 'kafedə', 'universitetin qarşısında']):
        out.append((f'{PRONOUN[p]} {acc(n)} {w} {past("gözlə", p)}.', f'{PRONOUN[p]} {n} {w} {past("gözlə", p)}.'))
    return out

@family('accusative_marking', 'acc_not_on_subject')
def _(rng):
    nouns = ['mağaza', 'kitabxana', 'pəncərə', 'qapı', 'körpü', 'küçə', 'çanta', 'xalça', 'bina', 'kafe', 'lampa', 'masa', 'stansiya']
    preds = ['çox köhnədir', 'çox gözəldir', 'tamamilə yenidir', 'çox təmizdir', 'hamıya tanışdır']
    out = []
    for n, pr in combos(rng, [n for n in nouns if ends_vowel(n)], preds):
        out.append((f'Bu {n} {pr}.', f'Bu {acc(n)} {pr}.'))
    return out

@family('accusative_marking', 'acc_not_on_name_subject')   # nor on a name as subject: Leyla gəldi, not Leylanı gəldi
def _(rng):
    names = [n for n in NAMES if ends_vowel(n)]          # vowel-final: the accusative -nı is not also a possessive form
    out = []
    for n, pl_, t in combos(rng, names, PLACES, ['dünən', 'axşam', 'bu gün', 'səhər tezdən', 'gec']):
        out.append((f'{n} {t} {dat(pl_)} gəldi.', f'{acc(n)} {t} {dat(pl_)} gəldi.'))
    return out

# -- word order: the same words, one order ungrammatical --------------------------------------------------
@family('word_order', 'wo_numeral_noun')
def _(rng):
    out = []
    for n, k, t in combos(rng, NAMES, ['iki', 'üç', 'dörd', 'beş', 'on'], ['kitab', 'dəftər', 'köynək', 'bilet', 'qələm', 'stul', 'şar', 'gül']):
        out.append((f'{n} dünən {k} {t} aldı.', f'{n} dünən {t} {k} aldı.'))
    return out

@family('word_order', 'wo_postposition')
def _(rng):
    who = ['Pişik', 'İt', 'Balaca uşaq', 'Top', 'Çanta', 'Qutu']
    what = ['stol', 'stul', 'çarpayı', 'divan', 'ağac', 'maşın', 'masa', 'pəncərə']
    pps = [('altında', 'dur'), ('üstündə', 'dur'), ('yanında', 'dur'), ('arxasında', 'dur')]
    out = []
    for w, t, (pp, _) in combos(rng, who, what, pps):
        out.append((f'{w} {gen(t)} {pp} idi.', f'{w} {pp} {gen(t)} idi.'))
    return out

@family('word_order', 'wo_intensifier')                   # an intensifier comes before its adjective
def _(rng):
    adjs = ['gözəl', 'qədim', 'səliqəli', 'yaşıl', 'sakit', 'böyük', 'maraqlı', 'səs-küylü', 'isti']
    out = []
    for c, a, w in combos(rng, CITIES, adjs, [('çox', 'şəhərdir'), ('olduqca', 'şəhərdir'), ('çox', 'yerdir')]):
        out.append((f'{c} {w[0]} {a} {w[1]}.', f'{c} {a} {w[0]} {w[1]}.'))
    return out

# -- vowel harmony across a word boundary: the clitic da/də follows the last vowel of the word before it ---------
@family('vowel_harmony_clitic', 'clitic_name')
def _(rng):
    events = [('Toya', 'gəldi'), ('Dərsə', 'gecikdi'), ('Bu kitabı', 'oxuyub'), ('Konsertə', 'bilet aldı'), ('Bu yarışda', 'qalib gəldi'), ('Ad gününə', 'gəldi')]
    out = []
    for n, (a, v) in combos(rng, NAMES, events):
        da, wrong = ('da', 'də') if is_back(n) else ('də', 'da')
        out.append((f'{a} {n} {da} {v}.', f'{a} {n} {wrong} {v}.'))
    return out

@family('vowel_harmony_clitic', 'clitic_object')
def _(rng):
    foods = ['çörək', 'pendir', 'süd', 'bal', 'yağ', 'düyü', 'şəkər', 'un', 'duz', 'çay', 'kartof', 'soğan', 'yumurta', 'ət', 'balıq', 'kərə yağı', 'göyərti']
    out = []
    for p, f in combos(rng, PERSONS, foods):
        da, wrong = ('da', 'də') if is_back(f) else ('də', 'da')
        v = past('al', p)
        out.append((f'{PRONOUN[p]} bazardan {f} {da} {v}.', f'{PRONOUN[p]} bazardan {f} {wrong} {v}.'))
    return out

@family('vowel_harmony_clitic', 'clitic_place')
def _(rng):
    out = []
    for p, c in combos(rng, PERSONS, CITIES):
        w = loc(c); da, wrong = ('da', 'də') if is_back(w) else ('də', 'da')
        v = past('ol', p)
        out.append((f'{PRONOUN[p]} keçən yay {w} {da} {v}.', f'{PRONOUN[p]} keçən yay {w} {wrong} {v}.'))
    return out

# -- noun compounds: the head takes the 3rd-person possessive (şəhər parkı, məktəb həyəti) -------------------
COMPOUNDS = [('şəhər', 'park'), ('məktəb', 'həyət'), ('universitet', 'bina'), ('kənd', 'yol'), ('futbol', 'meydança'), ('Bakı', 'metro'),
             ('avtobus', 'dayanacaq/dayanacağ'), ('kitab', 'mağaza'), ('idman', 'zal'), ('uşaq', 'bağça'), ('musiqi', 'məktəb'),
             ('dəniz', 'sahil'), ('kənd', 'meydan'), ('şəhər', 'xəstəxana')]
@family('compound_possessive', 'cmp_subject')
def _(rng):
    preds = ['çox böyükdür', 'yenidən təmir olunub', 'hamının xoşuna gəlir', 'evimizə yaxındır', 'səhərlər sakit olur']
    out = []
    for (m, h), pr in combos(rng, COMPOUNDS, preds):
        out.append((f'{cap(m)} {poss(h, 3)} {pr}.', f'{cap(m)} {nom(h)} {pr}.'))
    return out

@family('compound_possessive', 'cmp_locative')
def _(rng):
    places = [('məktəb', 'həyət'), ('şəhər', 'park'), ('universitet', 'bina'), ('idman', 'zal'), ('uşaq', 'bağça'), ('dəniz', 'sahil'),
              ('kənd', 'meydan'), ('futbol', 'meydança'), ('avtobus', 'dayanacaq/dayanacağ'), ('musiqi', 'məktəb'), ('kitab', 'mağaza')]
    who = ['Uşaqlar', 'Tələbələr', 'Qonşular', 'Turistlər', 'İdmançılar']
    out = []
    for (m, h), w in combos(rng, places, who):
        out.append((f'{w} {m} {poss_loc(h, 3)} toplaşdılar.', f'{w} {m} {loc(h)} toplaşdılar.'))
    return out

# The same rule from the other side: the modifier of a compound stays bare (şəhər parkı, not şəhəri parkı), so here the
# grammatical sentence is the shorter one. The predicates take no object, so that the modifier cannot be read as one.
MODIFIERS = [('uşaq/uşağ' if m == 'uşaq' else m, h) for m, h in COMPOUNDS]   # the modifier takes a suffix here: its stem before a vowel
@family('compound_possessive', 'cmp_modifier_subject')
def _(rng):
    preds = ['çox genişdir', 'bu il açılıb', 'hamıya tanışdır', 'gecələr işıqlı olur', 'yayda da sərin olur']
    out = []
    for (m, h), pr in combos(rng, MODIFIERS, preds):
        out.append((f'{cap(nom(m))} {poss(h, 3)} {pr}.', f'{cap(poss(m, 3))} {poss(h, 3)} {pr}.'))
    return out

@family('compound_possessive', 'cmp_modifier_locative')
def _(rng):
    who = ['Dostlar', 'Şagirdlər', 'Qonaqlar', 'Jurnalistlər', 'Könüllülər']
    out = []
    for (m, h), w, v in combos(rng, MODIFIERS, who, ['görüşdülər', 'dincəldilər']):
        out.append((f'{w} {nom(m)} {poss_loc(h, 3)} {v}.', f'{w} {poss(m, 3)} {poss_loc(h, 3)} {v}.'))
    return out
