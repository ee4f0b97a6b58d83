"""Build the AzTel assistant SFT set: handwritten pairs + pairs composed from templates.

Reads `handwritten.jsonl` (hand-written single-turn Q&A pairs), composes more pairs from the
question/answer templates and slot values below (tariffs, packages, regions, roaming countries,
devices, services, USSD codes, payment methods ...), removes questions that repeat (the
handwritten pair wins), splits 90/10 into `train.jsonl` and `valid.jsonl` and checks the result.
Answers are computed from the same fact tables as the questions (prices, codes, sums, limits), so
a question about a plan, country or amount always gets that plan's, country's or amount's answer.

Each template function yields items: one slot combination with several question phrasings
(polite, informal, short) and one or more answer variants; the composer uses `n` phrasings per
item, adds a short opener or a greeting now and then, and a system turn to about half the pairs.
The split keeps all phrasings of one slot combination on the same side.

Everything is deterministic (one seeded `random.Random`), standard library only:

    python data_samples/sft/make_sft.py

AzTel, its tariffs, prices, USSD codes, addresses and services are fictional. Slot values that
take Azerbaijani suffixes carry their own inflected forms (`Gəncədə`, `Gəncəyə`, `Gəncənin` ...),
and product names are followed by a noun that takes the suffix (`Smart tarifinə`, `Gecə 20 GB
paketini`), so suffix vowel harmony never depends on the slot.
"""
import json, math, random, re, unicodedata
from collections import Counter
from pathlib import Path

SEED = 20250214
HERE = Path(__file__).parent
VALID_SHARE = 0.10

SYSTEM_PROMPTS = [
    "Sən AzTel şirkətinin köməkçisisən. Müştərilərə nəzakətlə və dəqiq cavab ver.",
    "Sən AzTel müştəri xidmətinin əməkdaşısan. Müştəriyə hörmətlə yanaşır, tariflər, xidmətlər və texniki məsələlər üzrə aydın məlumat verirsən.",
    "Sən AzTel operatorunun rəsmi köməkçisisən. Bilmədiyin məlumatı uydurma, lazım olduqda müştərini 111 Çağrı Mərkəzinə yönləndir.",
    "AzTel-in müştəri dəstəyi köməkçisi kimi çıxış et. Cavabların nəzakətli, faydalı və konkret olsun.",
    "Sən AzTel mobil operatorunun virtual köməkçisisən. Suallara Azərbaycan dilində qısa, dəqiq və nəzakətli cavab ver.",
    "Sən AzTel-in çat köməkçisisən. Tarif, paket və xidmətlər barədə yalnız dəqiq məlumat ver, cavabı qısa və aydın saxla.",
]

# ----------------------------------------------------------------------------------------------
# Facts (kept consistent with handwritten.jsonl)
# ----------------------------------------------------------------------------------------------
TARIFFS = [  # gb/mins None = unlimited
    dict(name='Start', price=6, gb=4, mins=100, sms=100, code='*105*1#',
         note='Bu, hamı üçün açıq olan ən sərfəli tarifimizdir.'),
    dict(name='Smart', price=10, gb=12, mins=300, sms=200, code='*105*2#',
         note='Gündəlik internet və orta həcmdə zənglər üçün balanslı seçimdir.'),
    dict(name='Smart Plus', price=15, gb=25, mins=600, sms=300, code='*105*3#',
         note='İnternetdən fəal istifadə edənlər üçün yaxşı seçimdir.'),
    dict(name='Maksimum', price=25, gb=60, mins=1500, sms=500, code='*105*4#',
         note='Çox video baxan və ya telefonu modem kimi işlədən müştərilər üçün nəzərdə tutulub.'),
    dict(name='Limitsiz', price=39, gb=None, mins=None, sms=1000, code='*105*5#',
         note='Ədalətli istifadə qaydasına görə ay ərzində 100 GB həcmindən sonra sürət saniyədə 2 meqabitə endirilir.'),
    dict(name='Danışıq', price=7, gb=1, mins=1000, sms=100, code='*105*7#',
         note='Bu tarif çox zəng edən, internetdən isə az istifadə edən müştərilər üçün hazırlanıb.'),
    dict(name='Gənc', price=8, gb=20, mins=200, sms=100, code='*105*6#',
         note='Tarif 14 yaşdan 25 yaşa qədər olan müştərilər üçündür.'),
    dict(name='Qayğı', price=4, gb=2, mins=300, sms=50, code='*105*8#',
         note='Tarif yalnız 60 yaşdan yuxarı müştərilər üçündür.'),
]
TARIFF = {t['name']: t for t in TARIFFS}
GENERAL = ['Start', 'Smart', 'Smart Plus', 'Maksimum', 'Limitsiz', 'Danışıq']  # no age limits

PACKAGES = [  # kind: standard / special; days: validity
    dict(name='Gündəlik 1 GB', gb=1, price=1, days=1, code='*200*1#', kind='standard'),
    dict(name='Gündəlik 3 GB', gb=3, price=2, days=1, code='*200*2#', kind='standard'),
    dict(name='Həftəlik 5 GB', gb=5, price=3, days=7, code='*200*3#', kind='standard'),
    dict(name='Həftəlik 12 GB', gb=12, price=6, days=7, code='*200*4#', kind='standard'),
    dict(name='Aylıq 10 GB', gb=10, price=7, days=30, code='*200*5#', kind='standard'),
    dict(name='Aylıq 25 GB', gb=25, price=12, days=30, code='*200*6#', kind='standard'),
    dict(name='Aylıq 50 GB', gb=50, price=18, days=30, code='*200*7#', kind='standard'),
    dict(name='Aylıq 100 GB', gb=100, price=28, days=30, code='*200*8#', kind='standard'),
    dict(name='Gecə 20 GB', gb=20, price=4, days=30, code='*200*9#', kind='special',
         scope='hər gecə saat 00:00-dan 07:00-dək istifadə etdiyiniz internet üçündür'),
    dict(name='Sosial 10 GB', gb=10, price=4, days=30, code='*200*10#', kind='special',
         scope='WhatsApp, Telegram, Instagram, Facebook və TikTok tətbiqlərinin trafikini əhatə edir'),
    dict(name='Video 30 GB', gb=30, price=8, days=30, code='*200*11#', kind='special',
         scope='YouTube və digər populyar video platformalarının trafikini əhatə edir'),
]
VALIDITY = {1: '24 saat', 7: '7 gün', 30: '30 gün'}
MONTHLY = [p for p in PACKAGES if p['kind'] == 'standard' and p['days'] == 30]

ZONE_AREA = {1: 'Türkiyə, Gürcüstan, Rusiya, Qazaxıstan, Özbəkistan və İran', 2: 'Avropa ölkələri',
             3: 'Yaxın Şərq və Asiya ölkələri', 4: 'Amerika, Avstraliya və digər ölkələr'}
ZONES = {  # outgoing call/min, incoming call/min, outgoing SMS, internet/MB, 7-day pack, 30-day pack
    1: dict(out=0.59, inc=0.39, sms=0.19, mb=0.50, p7=(2, 6, '*400*11#'), p30=(5, 12, '*400*12#'),
            dat='Zona 1-ə', gen='Zona 1-in'),
    2: dict(out=0.99, inc=0.69, sms=0.29, mb=0.99, p7=(1, 9, '*400*21#'), p30=(3, 19, '*400*22#'),
            dat='Zona 2-yə', gen='Zona 2-nin'),
    3: dict(out=1.49, inc=0.99, sms=0.39, mb=1.49, p7=(1, 12, '*400*31#'), p30=(3, 25, '*400*32#'),
            dat='Zona 3-ə', gen='Zona 3-ün'),
    4: dict(out=2.49, inc=1.49, sms=0.49, mb=2.99, p7=(1, 15, '*400*41#'), p30=(3, 35, '*400*42#'),
            dat='Zona 4-ə', gen='Zona 4-ün'),
}
COUNTRIES = [  # name, locative, dative, zone
    ('Türkiyə', 'Türkiyədə', 'Türkiyəyə', 1), ('Gürcüstan', 'Gürcüstanda', 'Gürcüstana', 1),
    ('Rusiya', 'Rusiyada', 'Rusiyaya', 1), ('Qazaxıstan', 'Qazaxıstanda', 'Qazaxıstana', 1),
    ('Özbəkistan', 'Özbəkistanda', 'Özbəkistana', 1), ('İran', 'İranda', 'İrana', 1),
    ('Almaniya', 'Almaniyada', 'Almaniyaya', 2), ('Fransa', 'Fransada', 'Fransaya', 2),
    ('İtaliya', 'İtaliyada', 'İtaliyaya', 2), ('İspaniya', 'İspaniyada', 'İspaniyaya', 2),
    ('Avstriya', 'Avstriyada', 'Avstriyaya', 2), ('Çexiya', 'Çexiyada', 'Çexiyaya', 2),
    ('Polşa', 'Polşada', 'Polşaya', 2), ('Niderland', 'Niderlandda', 'Niderlanda', 2),
    ('Böyük Britaniya', 'Böyük Britaniyada', 'Böyük Britaniyaya', 2),
    ('Səudiyyə Ərəbistanı', 'Səudiyyə Ərəbistanında', 'Səudiyyə Ərəbistanına', 3),
    ('Birləşmiş Ərəb Əmirlikləri', 'Birləşmiş Ərəb Əmirliklərində', 'Birləşmiş Ərəb Əmirliklərinə', 3),
    ('Qətər', 'Qətərdə', 'Qətərə', 3), ('Çin', 'Çində', 'Çinə', 3),
    ('Yaponiya', 'Yaponiyada', 'Yaponiyaya', 3), ('Cənubi Koreya', 'Cənubi Koreyada', 'Cənubi Koreyaya', 3),
    ('Tailand', 'Tailandda', 'Tailanda', 3), ('Hindistan', 'Hindistanda', 'Hindistana', 3),
    ('Malayziya', 'Malayziyada', 'Malayziyaya', 3),
    ('ABŞ', 'ABŞ-da', 'ABŞ-a', 4), ('Kanada', 'Kanadada', 'Kanadaya', 4),
    ('Avstraliya', 'Avstraliyada', 'Avstraliyaya', 4), ('Braziliya', 'Braziliyada', 'Braziliyaya', 4),
    ('Meksika', 'Meksikada', 'Meksikaya', 4),
]
COUNTRIES = [dict(nom=n, loc=l, dat=d, zone=z) for n, l, d, z in COUNTRIES]

REGIONS = [  # lki = locative + -ki ("Gəncədəki"); g5: 5G in the centre; fiber: fibre network present
    dict(nom='Bakı', loc='Bakıda', dat='Bakıya', gen='Bakının', lki='Bakıdakı',
         address='Nəsimi rayonu, Azadlıq prospekti 120', g5=True, fiber=True, courier=True, hills=False),
    dict(nom='Gəncə', loc='Gəncədə', dat='Gəncəyə', gen='Gəncənin', lki='Gəncədəki',
         address='Nizami küçəsi 24', g5=True, fiber=True, courier=False, hills=False),
    dict(nom='Sumqayıt', loc='Sumqayıtda', dat='Sumqayıta', gen='Sumqayıtın', lki='Sumqayıtdakı',
         address='Sülh küçəsi 15', g5=True, fiber=True, courier=True, hills=False),
    dict(nom='Lənkəran', loc='Lənkəranda', dat='Lənkərana', gen='Lənkəranın', lki='Lənkərandakı',
         address='Hüseyn Cavid küçəsi 12', g5=False, fiber=True, courier=False, hills=False),
    dict(nom='Şəki', loc='Şəkidə', dat='Şəkiyə', gen='Şəkinin', lki='Şəkidəki',
         address='Axundzadə prospekti 18', g5=False, fiber=True, courier=False, hills=True),
    dict(nom='Quba', loc='Qubada', dat='Qubaya', gen='Qubanın', lki='Qubadakı',
         address='Füzuli küçəsi 9', g5=False, fiber=False, courier=False, hills=True),
    dict(nom='Naxçıvan', loc='Naxçıvanda', dat='Naxçıvana', gen='Naxçıvanın', lki='Naxçıvandakı',
         address='Atatürk küçəsi 30', g5=False, fiber=True, courier=False, hills=False),
    dict(nom='Mingəçevir', loc='Mingəçevirdə', dat='Mingəçevirə', gen='Mingəçevirin', lki='Mingəçevirdəki',
         address='Səməd Vurğun küçəsi 40', g5=False, fiber=True, courier=False, hills=False),
    dict(nom='Şamaxı', loc='Şamaxıda', dat='Şamaxıya', gen='Şamaxının', lki='Şamaxıdakı',
         address='Sabir küçəsi 7', g5=False, fiber=False, courier=False, hills=True),
    dict(nom='Qəbələ', loc='Qəbələdə', dat='Qəbələyə', gen='Qəbələnin', lki='Qəbələdəki',
         address='Qutqaşınlı küçəsi 11', g5=False, fiber=False, courier=False, hills=True),
]
BAKU_OFFICES = ('mərkəzi ofis Nəsimi rayonunda, Azadlıq prospekti 120 ünvanında, digərləri isə Nərimanov '
                'rayonunda (Təbriz küçəsi 77), Yasamal rayonunda (Şərifzadə küçəsi 10) və Xətai rayonunda '
                '(Xətai prospekti 35) yerləşir')
REGIONAL_HOURS = ('bazar ertəsindən cümə gününədək saat 09:00-dan 18:00-dək, şənbə günü 10:00-dan '
                  '15:00-dək işləyir, bazar günü isə bağlıdır')
DAYS = [  # (capitalised, lower case, 0 = Monday)
    ('Bazar ertəsi', 'bazar ertəsi', 0), ('Çərşənbə axşamı', 'çərşənbə axşamı', 1),
    ('Çərşənbə günü', 'çərşənbə günü', 2), ('Cümə axşamı', 'cümə axşamı', 3),
    ('Cümə günü', 'cümə günü', 4), ('Şənbə günü', 'şənbə günü', 5), ('Bazar günü', 'bazar günü', 6),
]

DEVICES = [  # my: "my ... phone", loc: "in a ... phone", my_loc: "in my ... phone"; settings: (menu path, switch or None)
    dict(name='iPhone', my='iPhone-um', loc='iPhone-da', my_loc='iPhone-umda', android=False,
         apn=('Parametrlər → Mobil rabitə → Mobil məlumat şəbəkəsi', None),
         volte=('Parametrlər → Mobil rabitə → Mobil məlumat seçimləri → Səs və məlumat', '"VoLTE"'),
         hotspot=('Parametrlər → Modem rejimi', '"Başqalarına qoşulmağa icazə ver"'),
         mode=('Parametrlər → Mobil rabitə → Mobil məlumat seçimləri → Səs və məlumat', None),
         wifi=('Parametrlər → Mobil rabitə → Wi-Fi zəngləri', '"Bu iPhone-da Wi-Fi zəngləri"')),
    dict(name='Samsung', my='Samsung telefonum', loc='Samsung telefonda', my_loc='Samsung telefonumda', android=True,
         apn=('Parametrlər → Bağlantılar → Mobil şəbəkələr → Giriş nöqtələrinin adları', None),
         volte=('Parametrlər → Bağlantılar → Mobil şəbəkələr', '"VoLTE zəngləri"'),
         hotspot=('Parametrlər → Bağlantılar → Mobil hotspot və modem rejimi', '"Mobil hotspot"'),
         mode=('Parametrlər → Bağlantılar → Mobil şəbəkələr → Şəbəkə rejimi', None),
         wifi=('Parametrlər → Bağlantılar', '"Wi-Fi zəngləri"')),
    dict(name='Xiaomi', my='Xiaomi telefonum', loc='Xiaomi telefonda', my_loc='Xiaomi telefonumda', android=True,
         apn=('Parametrlər → SIM kartlar və mobil şəbəkələr → AzTel SIM kartı → Giriş nöqtələrinin adları', None),
         volte=('Parametrlər → SIM kartlar və mobil şəbəkələr', '"VoLTE"'),
         hotspot=('Parametrlər → Əlaqə və paylaşım → Portativ hotspot', '"Portativ hotspot"'),
         mode=('Parametrlər → SIM kartlar və mobil şəbəkələr → AzTel SIM kartı → Üstün tutulan şəbəkə növü', None),
         wifi=('Parametrlər → SIM kartlar və mobil şəbəkələr → AzTel SIM kartı', '"Wi-Fi ilə zəng"')),
    dict(name='Pixel', my='Pixel telefonum', loc='Pixel telefonda', my_loc='Pixel telefonumda', android=True,
         apn=('Parametrlər → Şəbəkə və internet → SIM-lər → AzTel → Giriş nöqtələrinin adları', None),
         volte=('Parametrlər → Şəbəkə və internet → SIM-lər → AzTel', '"VoLTE"'),
         hotspot=('Parametrlər → Şəbəkə və internet → Hotspot və modem rejimi', '"Wi-Fi hotspot"'),
         mode=('Parametrlər → Şəbəkə və internet → SIM-lər → AzTel → Üstün tutulan şəbəkə növü', None),
         wifi=('Parametrlər → Şəbəkə və internet → SIM-lər → AzTel', '"Wi-Fi zəngləri"')),
    dict(name='Huawei', my='Huawei telefonum', loc='Huawei telefonda', my_loc='Huawei telefonumda', android=True,
         apn=('Parametrlər → Mobil şəbəkə → Mobil məlumat → Giriş nöqtələrinin adları', None),
         volte=('Parametrlər → Mobil şəbəkə → Mobil məlumat', '"VoLTE zəngləri"'),
         hotspot=('Parametrlər → Mobil şəbəkə → Şəxsi hotspot', '"Şəxsi hotspot"'),
         mode=('Parametrlər → Mobil şəbəkə → Mobil məlumat → Üstün tutulan şəbəkə rejimi', None),
         wifi=('Parametrlər → Mobil şəbəkə → Mobil məlumat', '"Wi-Fi zəngləri"')),
]

XIDMET = dict(base='xidmət', nom='xidməti', acc='xidmətini', dat='xidmətinə', gen='xidmətinin', abl='xidmətindən')
PAKET = dict(base='paket', nom='paketi', acc='paketini', dat='paketinə', gen='paketinin', abl='paketindən')
SERVICES = [  # fee: predicate after '<name> xidmətinin' / 'Xidmətin' (None = free); oneshot: used, not subscribed
    dict(name='"Kim zəng etdi"', f=XIDMET, code='*600#', off='*600*0#', fee=None,
         what='telefonunuz söndürülü və ya əhatə xaricində olanda sizə kimin zəng etdiyini SMS ilə bildirir'),
    dict(name='"Nömrə gizlətmə"', f=XIDMET, code='*610#', off='*610*0#', fee='aylıq haqqı 1 AZN təşkil edir', monthly=1,
         what='zəng etdiyiniz şəxsin ekranında nömrənizin görünməməsini təmin edir'),
    dict(name='"Qara siyahı"', f=XIDMET, code='*620#', off='*620*0#', fee='aylıq haqqı 0,50 AZN təşkil edir', monthly=0.5,
         what='seçdiyiniz nömrələrdən gələn zəng və SMS-ləri şəbəkə səviyyəsində bloklayır',
         extra='Nömrəni siyahıya əlavə etmək üçün *620*1*nömrə#, çıxarmaq üçün isə *620*2*nömrə# yığın.'),
    dict(name='"Melodiya"', f=XIDMET, code='*630#', off='*630*0#', fee='aylıq haqqı 0,99 AZN təşkil edir', monthly=0.99,
         what='sizə zəng edənlərin adi siqnal əvəzinə seçdiyiniz mahnını eşitməsini təmin edir',
         extra='Mahnını AzTel tətbiqindəki kataloqdan seçə və istənilən vaxt dəyişə bilərsiniz.'),
    dict(name='"Səsli poçt"', f=XIDMET, code='*640#', off='*640*0#', fee=None,
         what='cavab vermədiyiniz zənglərdə zəng edən şəxsin sizə səsli mesaj qoymasına imkan verir',
         extra='Mesajları dinləmək üçün 1210 nömrəsinə zəng edin.'),
    dict(name='"Spam qoruma"', f=XIDMET, code='*690#', off='*690*0#', fee=None,
         what='məlum reklam və dələduzluq nömrələrindən gələn zəngləri "Şübhəli zəng" kimi işarələyir'),
    dict(name='"Zəng gözləmə"', f=XIDMET, code='*43#', off='#43#', fee=None,
         what='danışarkən gələn ikinci zəng barədə sizə siqnal verir'),
    dict(name='"Borc balans"', f=XIDMET, code='*700#', off=None, fee='haqqı hər borc üçün 0,10 AZN təşkil edir', oneshot=True,
         what='balansınız bitdikdə 1, 2 və ya 3 AZN borc götürməyə imkan verir',
         extra='Xidmətdən istifadə üçün ən azı 3 aydır AzTel abunəçisi olmalısınız və balansınız 0,50 manatdan az olmalıdır.'),
    dict(name='"Mənə zəng et"', f=XIDMET, code='*123*dostunuzun nömrəsi#', off=None, fee='istifadəsi gün ərzində 5 sorğuya qədər pulsuzdur', oneshot=True,
         what='balansınız bitəndə dostunuza "Zəhmət olmasa, mənə zəng et" məzmunlu SMS göndərir',
         extra='Dostunuz SMS-i sizin nömrənizdən alacaq.'),
    dict(name='SMS 300', f=PAKET, code='*650#', off=None, fee='qiyməti 2 manatdır',
         what='30 gün ərzində yerli nömrələrə 300 SMS göndərməyə imkan verir'),
    dict(name='Dünya 60', f=PAKET, code='*660#', off=None, fee='qiyməti 5 manatdır',
         what='30 gün ərzində Zona 1 və Zona 2 ölkələrinə 60 dəqiqə zəng imkanı verir'),
]

CODES = [  # code, what it does, purpose ("to ...")
    ('*100#', 'əsas və bonus balansınızı göstərir', 'balansımı yoxlamaq'),
    ('*101#', 'tarifinizdən və paketlərinizdən qalan internet, dəqiqə və SMS həcmini göstərir',
     'qalan internet və dəqiqələrimi öyrənmək'),
    ('*102#', 'cari tarifinizin adını, aylıq abunə haqqını və növbəti ödəniş tarixini göstərir',
     'hansı tarifdə olduğumu yoxlamaq'),
    ('*105#', 'tarif menyusunu açır və oradan başqa tarifə keçmək olar', 'tarifimi dəyişmək'),
    ('*150#', 'öz nömrənizi ekranda göstərir', 'öz nömrəmi öyrənmək'),
    ('*200#', 'internet paketlərinin siyahısını açır', 'internet paketi seçmək'),
    ('*200*0#', '"Paketdənkənar internet bloku"nu aktivləşdirir, yəni paket bitəndə internet dayanır',
     'paket bitəndə internetin pullu işləməsinin qarşısını almaq'),
    ('*300#', 'AzTel Bonus xallarınızı və hədiyyələr menyusunu göstərir', 'bonus xallarımı görmək'),
    ('*400#', 'roaminq paketləri menyusunu açır', 'roaminq paketi seçmək'),
    ('*400*0#', 'roaminqi tamamilə bağlayır', 'roaminqi bağlamaq'),
    ('*444#', 'qoşulu xidmət və abunəliklərinizin siyahısını göstərir və onları ləğv etməyə imkan verir',
     'hansı pullu xidmətlərə qoşulu olduğumu görmək'),
    ('*444*9#', 'məzmun xidmətlərini, yəni qısa nömrələr üzrə ödənişli abunəlikləri tam bloklayır',
     'məzmun xidmətlərini bloklamaq'),
    ('*555#', 'internet və MMS parametrlərini SMS ilə göndərir', 'internet parametrlərini almaq'),
    ('*700#', '"Borc balans" menyusunu açır və balans bitəndə 1, 2 və ya 3 AZN borc götürməyə imkan verir',
     'borc balans götürmək'),
    ('*800#', 'nömrə daşınması müraciətinizin statusunu göstərir', 'nömrə köçürmə müraciətimin statusunu yoxlamaq'),
]

PAYMENTS = [
    dict(where='AzTel tətbiqindən', steps=[
        'AzTel tətbiqini açıb "Balans artır" bölməsinə keçin.', 'Nömrəni və məbləği daxil edin.',
        'Bank kartınızı seçib ödənişi təsdiqləyin.'],
         fee='AzTel tətbiqində bank kartı ilə ödəniş komissiyasızdır.', other=True),
    dict(where='bank tətbiqindən', steps=[
        'Bankınızın mobil tətbiqində "Ödənişlər" → "Mobil operatorlar" bölməsinə keçin.',
        'AzTel-i seçib nömrəni və məbləği daxil edin.', 'Ödənişi təsdiqləyin.'],
         fee='AzTel tərəfindən komissiya tutulmur, lakin bankınızın öz şərtləri ola bilər; bu barədə bankınızdan məlumat alın.',
         other=True),
    dict(where='ödəniş terminalından', steps=[
        'Terminalın menyusunda "Mobil operatorlar" bölməsindən AzTel-i seçin.',
        'Nömrəni daxil edib düzgünlüyünü yoxlayın.', 'Əskinasları yerləşdirin və qəbzi götürməyi unutmayın.'],
         fee='AzTel komissiya tutmur, lakin bəzi terminallar öz qaydalarına görə kiçik xidmət haqqı tuta bilər; bu məbləğ ödəniş zamanı ekranda göstərilir.',
         other=True),
    dict(where='AzTel ofisində', steps=[
        'Əməkdaşa nömrənizi və yükləmək istədiyiniz məbləği deyin.',
        'Ödənişi nağd pulla və ya bank kartı ilə edin.', 'Çap olunmuş qəbzi götürün.'],
         fee='AzTel ofislərində ödəniş komissiyasızdır.', other=True),
]

MONTHS = ['yanvar', 'fevral', 'mart', 'aprel', 'may', 'iyun', 'iyul', 'avqust', 'sentyabr', 'oktyabr',
          'noyabr', 'dekabr']
MONTH_GEN = ['yanvarın', 'fevralın', 'martın', 'aprelin', 'mayın', 'iyunun', 'iyulun', 'avqustun',
             'sentyabrın', 'oktyabrın', 'noyabrın', 'dekabrın']
DAY_LOC = {10: '10-da', 12: '12-də', 15: '15-də', 18: '18-də', 19: '19-da', 20: '20-də', 21: '21-də',
           22: '22-də', 25: '25-də', 26: '26-da', 28: '28-də'}  # "ayın 25-də" (iyirmi beşində)

FIBER = [dict(name='Fiber 50', speed=50, price=20), dict(name='Fiber 100', speed=100, price=28),
         dict(name='Fiber 300', speed=300, price=40), dict(name='Fiber 500', speed=500, price=55)]
BUSINESS = [dict(name='Biznes 20', price=20, what='30 GB internet və 1000 dəqiqə'),
            dict(name='Biznes 35', price=35, what='70 GB internet və 3000 dəqiqə'),
            dict(name='Biznes 60', price=60, what='limitsiz internet və zənglər, üstəlik Zona 1 və Zona 2 ölkələri üçün 1 GB roaminq interneti')]
REWARDS = [(300, '1 GB internet (7 gün)'), (500, '100 dəqiqə (30 gün)'), (1000, 'əsas balansa 3 AZN'),
           (1500, '10 GB internet (30 gün)')]
WORDS = {2: 'iki', 3: 'üç', 4: 'dörd'}

# ----------------------------------------------------------------------------------------------
# Helpers
# ----------------------------------------------------------------------------------------------
def m(x):
    """Money/amount in Azerbaijani notation: 7 -> '7', 7.9 -> '7,90'."""
    x = round(x + 1e-9, 2)
    return str(int(x)) if x == int(x) else f'{x:.2f}'.replace('.', ',')

def cap(s):
    """Upper-case the first letter the Azerbaijani way (i -> İ); brand names like iPhone stay."""
    if not s or s.startswith('iPhone'): return s
    return {'i': 'İ', 'ı': 'I'}.get(s[0], s[0].upper()) + s[1:]

def low(s):
    return {'İ': 'i', 'I': 'ı'}.get(s[0], s[0].lower()) + s[1:]

def steps(intro, items, outro=''):
    body = intro + '\n' + '\n'.join(f'{i}. {s}' for i, s in enumerate(items, 1))
    return body + ('\n' + outro if outro else '')

def vol(t):
    if t['gb'] is None: return f"limitsiz internet, bütün yerli şəbəkələrə limitsiz zənglər və {t['sms']} SMS"
    return f"{t['gb']} GB internet, {t['mins']} dəqiqə və {t['sms']} SMS"

def offer(t):
    return f"ayda {t['price']} AZN qarşılığında {vol(t)}"

def inf(x):
    return math.inf if x is None else x

def office_dat(r):  # "yaxınlaşın" takes the dative
    if r['nom'] == 'Bakı': return 'Bakıdakı istənilən ofisimizə, məsələn, Nəsimi rayonundakı mərkəzi ofisə (Azadlıq prospekti 120)'
    return f"{r['lki']} ofisimizə ({r['address']})"

def office_loc(r):
    if r['nom'] == 'Bakı': return 'Bakıdakı istənilən ofisimizdə'
    return f"{r['lki']} ofisimizdə ({r['address']})"

def office_abl(r):
    if r['nom'] == 'Bakı': return 'Bakıdakı istənilən ofisimizdən'
    return f"{r['lki']} ofisimizdən ({r['address']})"

def item(key, q, a, mood='info', n=2, greet=True):
    """One slot combination: question phrasings, answer variants, opener mood, phrasings to use,
    whether the composer may prepend "Salam, " to the question now and then."""
    return dict(key=key, q=q, a=a if isinstance(a, list) else [a], mood=mood, n=n, greet=greet)

# ----------------------------------------------------------------------------------------------
# Templates: each function yields items; the composer picks `n` phrasings per item.
# ----------------------------------------------------------------------------------------------
def tariff_price():
    for t in TARIFFS:
        n, p = t['name'], t['price']
        yield item(n, [
            f"{n} tarifinin qiyməti nə qədərdir?",
            f"{n} tarifi neçəyədir?",
            f"Zəhmət olmasa, deyin: {n} tarifinin aylıq abunə haqqı neçə manatdır?",
            f"{n} tarifi ayda neçəyə başa gəlir?",
            f"{n} tarifinin aylıq haqqı?",
        ], [
            f"{n} tarifinin aylıq abunə haqqı {p} AZN təşkil edir. Bu məbləğ qarşılığında {vol(t)} əldə edirsiniz. {t['note']} Tarifə qoşulmaq üçün {t['code']} yığmağınız kifayətdir.",
            f"{n} tarifi ayda {p} manata başa gəlir və ona {vol(t)} daxildir. Abunə haqqı tarifə qoşulduğunuz gündən etibarən hər 30 gündən bir balansdan tutulur. {t['note']}",
        ], n=3)

def tariff_contents():
    for t in TARIFFS:
        n = t['name']
        yield item(n, [
            f"{n} tarifinə nə daxildir?",
            f"{n} tarifində neçə GB internet və neçə dəqiqə var?",
            f"{n} tarifi nə verir?",
            f"Mənə {n} tarifinin şərtlərini izah edə bilərsiniz?",
        ], [
            f"{n} tarifi {offer(t)} təklif edir. Dəqiqələr bütün yerli mobil və stasionar nömrələrə zənglər üçün keçərlidir. {t['note']}",
            f"{n} tarifinə {vol(t)} daxildir, aylıq abunə haqqı isə {t['price']} AZN təşkil edir. {t['note']} Tarifə {t['code']} yığaraq keçə bilərsiniz.",
        ], n=3)

def tariff_switch():
    for t in TARIFFS:
        n = t['name']
        age = ''
        if n == 'Gənc': age = ' Tarif 14-25 yaş arası müştərilər üçündür və yaş nömrənin qeydiyyatda olduğu şəxsin vəsiqəsinə görə avtomatik yoxlanılır.'
        if n == 'Qayğı': age = ' Tarif 60 yaşdan yuxarı müştərilər üçündür, ona görə nömrə həmin şəxsin adına qeydiyyatda olmalıdır.'
        yield item(n, [
            f"{n} tarifinə necə keçə bilərəm?",
            f"{n} tarifinə keçmək istəyirəm, nə etməliyəm?",
            f"{n} tarifinə qoşulma kodu nədir?",
            f"{n} tarifinə keçid pulludur?",
        ], [
            f"{n} tarifinə keçmək üçün {t['code']} yığın və ya AzTel tətbiqində \"Tariflər\" bölməsindən tarifi seçin.{age} Ay ərzində ilk tarif dəyişikliyi pulsuzdur, sonrakı hər dəyişiklik üçün isə 1 AZN tutulur. Nəzərə alın ki, yeni tarifin abunə haqqı ({t['price']} AZN) dərhal tutulur, köhnə tarifin qalıqları isə yeni tarifə keçmir.",
            f"Keçid üçün {t['code']} kodunu yığmağınız kifayətdir.{age} Ay ərzində ilk tarif dəyişikliyi pulsuzdur, sonrakıların hər biri üçün isə 1 AZN tutulur. Köhnə tarifdən qalan internet və dəqiqələr ləğv olunduğu üçün keçidi cari dövrün sonuna yaxın etmək daha sərfəlidir.",
        ], mood='howto')

def tariff_compare():
    for i, a in enumerate(GENERAL):
        for b in GENERAL[i + 1:]:
            ta, tb = TARIFF[a], TARIFF[b]
            cheap, dear = sorted([ta, tb], key=lambda t: t['price'])
            if all(inf(dear[k]) >= inf(cheap[k]) for k in ('gb', 'mins', 'sms')):
                verdict = (f"{cheap['name']} tarifinin həcmləri sizə kifayət edirsə, o daha sərfəlidir; daha çox "
                           f"internet və dəqiqə lazımdırsa, {dear['name']} tarifini seçin.")
            else:
                calls = max([ta, tb], key=lambda t: inf(t['mins']))
                data = max([ta, tb], key=lambda t: inf(t['gb']))
                verdict = (f"Çox zəng edirsinizsə, {calls['name']} tarifi, internetdən çox istifadə edirsinizsə, "
                           f"{data['name']} tarifi sizə daha uyğun olar.")
            ans = (f"{a} tarifi {offer(ta)} təklif edir. {b} tarifi isə {offer(tb)} təklif edir. {verdict} "
                   f"Seçdiyiniz tarifə *105# menyusundan keçə bilərsiniz.")
            yield item((a, b), [
                f"{a} ilə {b} tarifi arasında fərq nədir?",
                f"{a}, yoxsa {b}? Hansını seçim?",
                f"{a} və {b} tariflərini müqayisə edə bilərsiniz?",
            ], ans, n=2)

def best_plan(g, mins):
    """Cheapest general tariff, alone or with one monthly package, covering g GB and mins minutes."""
    options = []
    for name in GENERAL:
        t = TARIFF[name]
        if inf(t['mins']) < mins: continue
        if inf(t['gb']) >= g: options.append((t['price'], 0, t, None))
        for p in MONTHLY:
            if inf(t['gb']) < g <= t['gb'] + p['gb']: options.append((t['price'] + p['price'], 1, t, p))
    return min(options, key=lambda o: (o[0], o[1]))

def tariff_recommend():
    for g in [2, 3, 5, 8, 10, 15, 20, 30, 45, 70]:
        for mins in [50, 100, 250, 500, 900, 1400]:
            cost, _, t, p = best_plan(g, mins)
            need = f"aylıq {g} GB internet və {mins} dəqiqəlik ehtiyacınızı"
            if p is None:
                a = (f"Sizin istifadənizə görə {t['name']} tarifini tövsiyə edirik: {offer(t)}. Bu, {need} tam qarşılayır. "
                     f"Qoşulmaq üçün {t['code']} yığın.")
                if t['name'] == 'Limitsiz' and g > 100: a += ' Ay ərzində 100 GB həcmindən sonra sürətin azaldığını nəzərə alın.'
            else:
                mins_txt = 'limitsiz zəng' if t['mins'] is None else f"{t['mins']} dəqiqə"
                a = (f"Ən sərfəli variant {t['name']} tarifi ilə {p['name']} paketini birlikdə istifadə etməkdir: cəmi ayda "
                     f"{cost} AZN qarşılığında {t['gb'] + p['gb']} GB internet və {mins_txt} əldə edirsiniz. Bu, {need} tam qarşılayır. "
                     f"Tarifə {t['code']} ilə qoşula, paketi isə {p['code']} ilə aktivləşdirə bilərsiniz; aylıq paket hər 30 gündən bir avtomatik yenilənir.")
            yield item((g, mins), [
                f"Ayda təxminən {g} GB internet və {mins} dəqiqə işlədirəm. Hansı tarif mənə sərfəlidir?",
                f"ayda {mins} dəqiqəyə yaxın danışıram, internetim də təxminən {g} GB olur, nə məsləhət görərsiniz?",
                f"{g} GB internet və {mins} dəqiqə: mənə hansı tarif uyğundur?",
            ], a, n=2)

def tariff_data_runs_out():
    for t in TARIFFS:
        if t['gb'] is None: continue
        n = t['name']
        yield item(n, [
            f"{n} tarifində internet bitəndə nə olur?",
            f"{n} tarifindəyəm, internetim qurtarıb. Nə edim?",
        ], [
            f"{n} tarifinə daxil olan {t['gb']} GB bitdikdən sonra internet paketdənkənar qiymətlə, hər MB üçün 0,05 AZN ilə hesablanır. Bunun əvəzinə əlavə internet paketi almaq xeyli sərfəlidir, məsələn, 1 manatlıq Gündəlik 1 GB və ya 7 manatlıq Aylıq 10 GB; bütün paketlər *200# menyusundadır. Paket bitəndə internetin pullu işləməsini istəmirsinizsə, *200*0# ilə \"Paketdənkənar internet bloku\"nu aktivləşdirin.",
        ], mood='problem')

def package_price():
    for p in PACKAGES:
        n = p['name']
        scope = f" Paket {p['scope']}." if p['kind'] == 'special' else ''
        renew = (' Aylıq paketlər balansda kifayət qədər vəsait olduqda hər 30 gündən bir avtomatik yenilənir.'
                 if p['days'] == 30 else ' Paket birdəfəlikdir və müddəti bitdikdən sonra avtomatik yenilənmir.')
        yield item(n, [
            f"{n} paketinin qiyməti nə qədərdir?",
            f"{n} paketi neçəyədir və neçə gün qüvvədədir?",
            f"{n} paketinə necə qoşulum?",
            f"{n} paketi haqqında məlumat verə bilərsiniz?",
            f"{n} paketi: qiyməti və kodu?",
        ], [
            f"{n} paketinin qiyməti {p['price']} manatdır və o, aktivləşdiyi andan {VALIDITY[p['days']]} qüvvədə qalır.{scope} Qoşulmaq üçün {p['code']} yığın və ya AzTel tətbiqində \"Paketlər\" bölməsindən seçin.{renew}",
            f"{n} paketi {p['price']} AZN qarşılığında {p['gb']} GB internet verir, müddəti {VALIDITY[p['days']]}.{scope} Paketi {p['code']} kodu ilə aktivləşdirə bilərsiniz.{renew}",
        ], n=3)

def package_recommend():
    standard = [p for p in PACKAGES if p['kind'] == 'standard']
    for span, words in [(1, ('Bir günlüyə', 'bir günlüyə')), (7, ('Bir həftəliyə', 'bir həftəliyə')),
                        (30, ('Bir aylığa', 'bir aylığa'))]:
        for g in [2, 3, 5, 8, 10, 12, 20, 40]:
            opts = [(k * p['price'], k, p) for p in standard if p['days'] >= span for k in (1, 2, 3) if k * p['gb'] >= g]
            if not opts: continue
            cost, k, p = min(opts, key=lambda o: (o[0], o[1]))
            if k == 1:
                a = (f"Sizin üçün ən sərfəli seçim {p['name']} paketidir: {p['price']} manat qarşılığında {p['gb']} GB internet, "
                     f"müddəti {VALIDITY[p['days']]}. Paketi {p['code']} yığaraq aktivləşdirə bilərsiniz.")
                if p['days'] > span: a += f" Paket {VALIDITY[p['days']]} qüvvədə olduğu üçün qalan interneti sonra da işlədə bilərsiniz."
            else:
                a = (f"Ən sərfəli yol {p['name']} paketini {WORDS[k]} dəfə almaqdır: "
                     f"eyni paket təkrar alındıqda həcmlər toplanır və cəmi {k * p['gb']} GB internetiniz olur. "
                     f"Bu, {cost} manata başa gələcək. Paketi hər dəfə {p['code']} yığaraq aktivləşdirin; müddət son alış tarixindən hesablanır.")
            yield item((span, g), [
                f"{words[0]} {g} GB internet lazımdır. Hansı paketi götürüm?",
                f"{words[1]} {g} GB internetə ehtiyacım var, ən ucuz variant hansıdır?",
            ], a, n=2)

def package_stack():
    for p in PACKAGES:
        if p['kind'] != 'standard' or p['gb'] < 3: continue
        for left in sorted({1, p['gb'] // 2}):
            yield item((p['name'], left), [
                f"{p['name']} paketimdən {left} GB qalıb. Eyni paketi yenidən alsam nə olacaq?",
                f"{p['name']} paketindən hələ {left} GB qalıb, amma yenisini almaq istəyirəm. Qalan internet yanacaq?",
            ], f"Narahat olmayın, qalan internet yanmayacaq. Eyni paketi təkrar aldıqda həcmlər toplanır: qalan {left} GB yeni paketin {p['gb']} GB həcminə əlavə olunacaq və cəmi {left + p['gb']} GB internetiniz olacaq. İstifadə müddəti isə son alış tarixindən hesablanır, yəni paket yenidən {VALIDITY[p['days']]} qüvvədə olacaq. Yeni paketi {p['code']} yığaraq ala bilərsiniz.", mood='none', n=2)

def package_gift():
    for p in PACKAGES:
        yield item(p['name'], [
            f"{p['name']} paketini dostumun nömrəsinə ala bilərəm?",
            f"Anamın nömrəsinə {p['name']} paketi hədiyyə etmək istəyirəm. Necə edim?",
        ], steps("Bunu AzTel tətbiqindəki \"Hədiyyə et\" funksiyası ilə edə bilərsiniz:", [
            f"\"Paketlər\" bölməsində {p['name']} paketini seçin.",
            '"Hədiyyə et" düyməsini sıxıb alıcının AzTel nömrəsini daxil edin.',
            f"Ödənişi ({p['price']} AZN) öz balansınızdan və ya bank kartınızdan təsdiqləyin.",
        ], 'Alıcı paketin aktivləşdiyi barədə SMS alacaq.'), mood='none', n=1)

def out_of_package():
    for n in [5, 10, 20, 30, 45, 60]:
        yield item(('min', n), [
            f"Dəqiqələrim bitib. {n} dəqiqə danışsam, balansımdan nə qədər çıxılacaq?",
            f"paketdə dəqiqə qalmayıb, {n} dəqiqəlik zəng neçəyə başa gələr?",
        ], f"Paketdənkənar yerli zənglərin hər dəqiqəsi 0,08 AZN ilə hesablanır. Deməli, {n} dəqiqəlik danışıq üçün balansınızdan {m(0.08 * n)} AZN tutulacaq. Tez-tez dəqiqələriniz çatmırsa, 1000 dəqiqə təklif edən Danışıq tarifi (ayda 7 AZN) daha sərfəli olar.", n=2)
    for n in [20, 50, 100, 200, 500]:
        yield item(('mb', n), [
            f"Paketsiz {n} MB internet işlətsəm, nə qədər pul gedəcək?",
            f"İnternet paketim qurtarıb. {n} MB işlətsəm, balansdan nə qədər çıxılar?",
        ], f"Paket olmadıqda internet hər MB üçün 0,05 AZN ilə hesablanır, yəni {n} MB üçün {m(0.05 * n)} AZN tutulacaq. Müqayisə üçün: 1 manatlıq Gündəlik 1 GB paketi 24 saat ərzində 1 GB internet verir. Paketsiz internetin qarşısını almaq istəyirsinizsə, *200*0# ilə pulsuz \"Paketdənkənar internet bloku\"nu aktivləşdirin.", n=2)
    for n in [10, 20, 50, 100]:
        yield item(('sms', n), [
            f"SMS-lərim bitib. {n} SMS göndərsəm, nə qədər tutulacaq?",
            f"Tarifdə SMS qalmayıb, {n} mesaj göndərməyin qiyməti nə qədərdir?",
        ], f"Paketdənkənar yerli SMS-in qiyməti 0,05 AZN təşkil edir, ona görə {n} SMS üçün {m(0.05 * n)} AZN tutulacaq. Çox mesaj yazırsınızsa, 30 gün ərzində 300 SMS verən SMS 300 paketi (2 manat, *650#) daha sərfəlidir.", n=2)

def roaming_prices():
    for c in COUNTRIES:
        z = ZONES[c['zone']]
        (g7, p7, c7), (g30, p30, c30) = z['p7'], z['p30']
        yield item(c['nom'], [
            f"{c['loc']} roaminq qiymətləri necədir?",
            f"{c['dat']} gedirəm. Zənglər və internet neçəyə olacaq?",
            f"{c['loc']} AzTel nömrəm ilə danışmaq və internet neçəyədir?",
        ], [
            f"{c['nom']} {z['dat']} daxildir. Orada gedən zənglərin dəqiqəsi {m(z['out'])} AZN, sizə gələn zənglər {m(z['inc'])} AZN, göndərilən SMS {m(z['sms'])} AZN, paketsiz internet isə hər MB üçün {m(z['mb'])} AZN ilə hesablanır. Daxil olan SMS-lər pulsuzdur. Qənaət üçün roaminq paketi götürməyinizi tövsiyə edirik: 7 günlük {g7} GB paketi {p7} AZN ({c7}), 30 günlük {g30} GB paketi isə {p30} AZN ({c30}) təşkil edir.",
            f"{c['loc']} xidmətlər {z['gen']} qiymətləri ilə hesablanır: gedən zəng dəqiqəsi {m(z['out'])} AZN, gələn zəng {m(z['inc'])} AZN, SMS {m(z['sms'])} AZN, internet hər MB üçün {m(z['mb'])} AZN. Paketsiz internet baha başa gəldiyi üçün səfərdən əvvəl roaminq paketi almağınız daha yaxşıdır: 7 gün üçün {g7} GB ({p7} AZN, {c7}) və ya 30 gün üçün {g30} GB ({p30} AZN, {c30}). Roaminq xidməti nömrənizdə avtomatik aktivdir, balansınızda ən azı 5 AZN olması kifayətdir.",
        ], n=2)

def roaming_trip():
    rng = random.Random(SEED + 1)
    for c in COUNTRIES:
        z = ZONES[c['zone']]
        (g7, p7, c7), (g30, p30, c30) = z['p7'], z['p30']
        for d in rng.sample([3, 5, 7, 10, 14, 21, 30, 45], 2):
            if d <= 7:
                a = (f"{c['nom']} {z['dat']} daxildir. {d} günlük səfər üçün 7 gün qüvvədə olan {g7} GB paketi ({p7} AZN) kifayət edər, "
                     f"onu {c7} ilə aktivləşdirə bilərsiniz. Daha çox internet lazım olarsa, 30 günlük {g30} GB paketini ({p30} AZN, {c30}) seçin. "
                     "Paketi səfərdən əvvəl almağınız rahatdır: o, xaricdə şəbəkəyə qoşulduğunuz andan işləyir.")
            elif d <= 30:
                a = (f"{c['nom']} {z['dat']} daxildir. {d} günlük səfər üçün 30 gün qüvvədə olan {g30} GB paketi ({p30} AZN) ən uyğun seçimdir, "
                     f"onu {c30} ilə aktivləşdirə bilərsiniz. 7 günlük paket isə bu müddətə çatmayacaq. "
                     "Paket xaricdə şəbəkəyə qoşulduğunuz andan işləməyə başlayır.")
            else:
                a = (f"{c['nom']} {z['dat']} daxildir. {d} günlük səfər üçün 30 günlük {g30} GB paketini ({p30} AZN, {c30}) götürün və müddəti bitdikdə onu yenidən alın. "
                     "Uzun müddətli səfərdə yerli SIM kart almaq da sərfəli ola bilər; bu zaman AzTel nömrəniz aktiv qalacaq. "
                     "Nömrənin bağlanmaması üçün 6 ay ərzində ən azı bir ödənişli əməliyyat etməyiniz kifayətdir.")
            yield item((c['nom'], d), [
                f"{c['dat']} {d} günlük səfərə gedirəm. Hansı internet paketini götürüm?",
                f"{c['loc']} {d} gün qalacağam, roaminq paketi məsləhət görə bilərsiniz?",
                f"{d} gün {c['loc']} olacam, internet üçün nə alım?",
            ], a, n=1)

def roaming_incoming():
    for c in COUNTRIES:
        z = ZONES[c['zone']]
        yield item(c['nom'], [
            f"{c['loc']} olarkən mənə gələn zənglər pulludur?",
            f"{c['loc']} mənə zəng edəndə pul mənim balansımdan çıxır?",
        ], f"Bəli, roaminqdə daxil olan zənglər də ödənişlidir, çünki zəng beynəlxalq şəbəkə üzərindən sizə yönləndirilir. {c['loc']} sizə gələn zənglərin dəqiqəsi {m(z['inc'])} AZN ilə hesablanır. Daxil olan SMS-lər isə pulsuzdur. Zənglərə cavab vermək istəmirsinizsə, onları səsli poçta yönləndirə bilərsiniz.", mood='none', n=1)

def roaming_call_cost():
    rng = random.Random(SEED + 2)
    for c in COUNTRIES:
        z = ZONES[c['zone']]
        for n in rng.sample([5, 10, 15, 20, 30], 1):
            yield item((c['nom'], n), [
                f"{c['loc']} {n} dəqiqə danışsam, nə qədər tutulacaq?",
                f"{c['loc']} olarkən Bakıya {n} dəqiqəlik zəng etsəm, neçəyə başa gələr?",
            ], f"{c['nom']} {z['dat']} daxildir və orada gedən zənglərin dəqiqəsi {m(z['out'])} AZN ilə hesablanır. Deməli, {n} dəqiqəlik danışıq üçün balansınızdan {m(n * z['out'])} AZN tutulacaq. Qənaət etmək üçün Wi-Fi şəbəkəsi olan yerlərdə internet üzərindən işləyən zəng tətbiqlərindən istifadə edə bilərsiniz.", n=1)

def intl_calls():
    for c in COUNTRIES:
        z = c['zone']
        if z <= 2:
            a = (f"Bəli, bunun üçün Dünya 60 paketi var: 5 manat qarşılığında 30 gün ərzində Zona 1 və Zona 2 ölkələrinə 60 dəqiqə zəng edə bilərsiniz. "
                 f"{c['nom']} {ZONES[z]['dat']} daxil olduğu üçün paket {c['dat']} zənglər üçün keçərlidir. Paketi *660# yığaraq aktivləşdirin.")
        else:
            a = (f"Təəssüf ki, Dünya 60 paketi yalnız Zona 1 və Zona 2 ölkələrinə zənglər üçündür, {c['nom']} isə {ZONES[z]['dat']} daxildir. "
                 f"{c['dat']} zənglər standart beynəlxalq qiymətlə hesablanır; dəqiq qiyməti AzTel tətbiqində \"Beynəlxalq zənglər\" bölməsində görə bilərsiniz. "
                 "Tez-tez zəng edirsinizsə, internet üzərindən işləyən zəng tətbiqləri daha sərfəli olar.")
        yield item(c['nom'], [
            f"{c['dat']} zəng etmək üçün endirimli paket varmı?",
            f"{c['loc']} yaşayan qohumuma tez-tez zəng edirəm. Sərfəli paketiniz var?",
        ], a, mood='none', n=1)

def roaming_lost_phone():
    for c in COUNTRIES:
        yield item(c['nom'], [
            f"{c['loc']} telefonumu itirdim. Nə etməliyəm?",
            f"{c['loc']} telefonum oğurlanıb, nömrəmi necə bloklayım?",
        ], f"Təəssüf edirik. İlk növbədə başqa telefondan +994 12 111 01 11 nömrəsinə zəng edib nömrənizi bloklatdırın; bloklama pulsuzdur və nömrənizdən sui-istifadənin, o cümlədən roaminq xərclərinin qarşısını alır. Telefon oğurlanıbsa, yerli polisə müraciət edin və telefonun IMEI kodunu göstərin. Vətənə qayıtdıqdan sonra şəxsiyyət vəsiqənizlə istənilən AzTel ofisindən eyni nömrə ilə yeni SIM kart ala bilərsiniz, xidmət haqqı 2 manatdır.", mood='none', n=1)

def region_office():
    for r in REGIONS:
        if r['nom'] == 'Bakı':
            a = (f"Bakıda bir neçə ofisimiz var: {BAKU_OFFICES}. Bütün Bakı ofisləri bazar ertəsindən şənbəyədək saat 09:00-dan 19:00-dək işləyir, "
                 "mərkəzi ofis isə bazar günü də 10:00-dan 18:00-dək açıqdır. Ən yaxın ofisi AzTel tətbiqində \"Ofislər\" bölməsində xəritədə görə bilərsiniz.")
        else:
            a = (f"{r['lki']} AzTel ofisi {r['address']} ünvanında yerləşir. Ofis {REGIONAL_HOURS}. "
                 "Gəlməzdən əvvəl AzTel tətbiqində onlayn növbə götürsəniz, gözləmədən xidmət alacaqsınız.")
        yield item(r['nom'], [
            f"{r['loc']} ofisiniz harada yerləşir?",
            f"{r['lki']} AzTel ofisinin ünvanı və iş saatları necədir?",
            f"{r['lki']} ofisin ünvanını deyə bilərsiniz?",
        ], a, n=2)

def region_office_day():
    for r in REGIONS:
        for day_cap, day, wd in DAYS:
            if r['nom'] == 'Bakı':
                if wd < 6: a = f"{cap(day)} Bakıdakı bütün ofislərimiz saat 09:00-dan 19:00-dək açıqdır."
                else: a = "Bazar günü Bakıda yalnız mərkəzi ofisimiz (Nəsimi rayonu, Azadlıq prospekti 120) saat 10:00-dan 18:00-dək işləyir, digər ofislər isə bağlıdır."
            elif wd < 5: a = f"{cap(day)} {r['lki']} ofisimiz ({r['address']}) saat 09:00-dan 18:00-dək açıqdır."
            elif wd == 5: a = f"Şənbə günü {r['lki']} ofisimiz qısaldılmış qrafiklə, saat 10:00-dan 15:00-dək işləyir."
            else: a = f"Təəssüf ki, bazar günü {r['lki']} ofisimiz bağlıdır. Ofis bazar ertəsindən cümə gününədək 09:00-18:00, şənbə günü isə 10:00-15:00 saatlarında işləyir."
            a += ' Ofisə getmədən həll edilə bilən məsələlər üçün 111 Çağrı Mərkəzi və AzTel tətbiqindəki onlayn çat 24 saat xidmətinizdədir.'
            yield item((r['nom'], wd), [
                f"{day_cap} {r['lki']} ofisiniz açıqdır?",
                f"{day_cap} {r['lki']} ofis neçədən neçəyədək işləyir?",
            ], a, mood='none', n=1)

def region_5g():
    for r in REGIONS:
        if r['g5']:
            a = (f"Bəli, 5G şəbəkəmiz hazırda {r['gen']} mərkəzi hissələrində fəaliyyət göstərir. 5G üçün ayrıca paket və ya əlavə ödəniş lazım deyil, "
                 "sadəcə telefonunuz və SIM kartınız 5G-ni dəstəkləməlidir. Köhnə SIM kartı istənilən ofisimizdə pulsuz dəyişə bilərsiniz.")
        else:
            a = (f"Hələ ki, yox: 5G şəbəkəmiz hazırda Bakı, Sumqayıt və Gəncənin mərkəzi hissələrində fəaliyyət göstərir. "
                 f"{r['loc']} isə 4G şəbəkəmiz işləyir və o, gündəlik istifadə üçün kifayət qədər sürətlidir. "
                 "5G əhatəsi genişləndikcə bu barədə AzTel tətbiqində məlumat veriləcək.")
        yield item(r['nom'], [f"{r['loc']} 5G var?", f"{r['loc']} 5G şəbəkəniz işləyir?", f"{r['loc']} 5G-dən istifadə edə bilərəm?"],
                   a, mood='none', n=2)

def region_fiber():
    for r in REGIONS:
        if r['fiber']:
            a = (f"{r['loc']} fiber ev internetimiz mövcuddur, lakin texniki imkan konkret ünvandan asılıdır. Ünvanınızı AzTel tətbiqində \"Ev interneti\" "
                 "bölməsində yoxlayın və ya 111-ə zəng edin. Tariflər Fiber 50-dən (ayda 20 AZN) başlayır, quraşdırma və Wi-Fi router isə pulsuzdur.")
        else:
            a = (f"Təəssüf ki, {r['loc']} fiber şəbəkəmiz hələ yoxdur, lakin onu mərhələli şəkildə genişləndiririk. Bu vaxtadək mobil 4G şəbəkəsi üzərindən "
                 "işləyən Ev 4G xidmətindən istifadə edə bilərsiniz: ayda 15 AZN qarşılığında 60 GB, Ev 4G Plus tarifində isə 25 AZN qarşılığında 120 GB verilir. "
                 "Router birdəfəlik ödənişlə 39 AZN qarşılığında alınır və quraşdırma tələb etmir.")
        yield item(r['nom'], [f"{r['loc']} fiber internet çəkirsiniz?", f"{r['loc']} evə fiber internet çəkdirmək olar?",
                              f"{r['loc']} ev interneti üçün nə təklif edirsiniz?"], a, mood='none', n=2)

def region_new_sim():
    for r in REGIONS:
        courier = ('Onlayn sifariş etsəniz, SIM kart kuryerlə pulsuz çatdırılacaq.' if r['courier'] else
                   'Onlayn sifariş etdiyiniz SIM kartı isə həmin ofisdən götürə bilərsiniz.')
        yield item(r['nom'], [
            f"{r['loc']} yeni nömrə almaq istəyirəm, hara gəlim?",
            f"{r['loc']} SIM kartı haradan ala bilərəm?",
        ], f"Yeni nömrə üçün şəxsiyyət vəsiqənizlə {office_dat(r)} yaxınlaşın. Başlanğıc paketin qiyməti 5 manatdır və bu məbləğ tam olaraq yeni nömrənizin balansına yazılır. Nömrəni AzTel tətbiqinin \"Yeni nömrə\" bölməsindən onlayn da sifariş edə bilərsiniz. {courier}", n=2)

def region_courier():
    for r in REGIONS:
        if r['courier']:
            a = (f"Bəli, {r['loc']} AzTel tətbiqində sifariş etdiyiniz SIM kart kuryerlə pulsuz çatdırılır. Şəxsiyyətiniz vəsiqənin şəkli və qısa video ilə təsdiqlənir. "
                 "İstəsəniz, fiziki SIM əvəzinə dərhal eSIM də ala bilərsiniz.")
        else:
            a = (f"Təəssüf ki, kuryer çatdırılması hazırda yalnız Bakı və Sumqayıtda mövcuddur. {r['loc']} onlayn sifariş etdiyiniz SIM kartı {office_abl(r)} götürə bilərsiniz. "
                 "eSIM seçsəniz, ofisə getməyə ehtiyac qalmır: QR kod birbaşa tətbiqdə göstəriləcək.")
        yield item(r['nom'], [f"{r['dat']} SIM kartı kuryerlə çatdırırsınız?", f"{r['loc']} SIM kartı evə çatdırmaq olar?"], a, mood='none', n=2)

def region_esim():
    for r in REGIONS:
        yield item(r['nom'], [f"{r['loc']} eSIM ala bilərəm?", f"{r['loc']} eSIM-i haradan əldə edim?"],
                   f"{cap(office_loc(r))} eSIM əldə edə bilərsiniz; özünüzlə şəxsiyyət vəsiqənizi götürün, xidmət haqqı 2 manatdır. Bundan əlavə, eSIM-i ofisə getmədən AzTel tətbiqində \"eSIM sifariş et\" bölməsindən video identifikasiya ilə də sifariş etmək mümkündür. QR kodu skan etdikdən sonra eSIM bir neçə dəqiqə ərzində aktivləşir.",
                   mood='none', n=2)

def region_porting():
    for r in REGIONS:
        delivery = ('Onlayn müraciətdə SIM kart kuryerlə pulsuz çatdırılır.' if r['courier'] else
                    'Onlayn müraciət etsəniz, SIM kartı həmin ofisdən götürə bilərsiniz; eSIM seçsəniz, ofisə getməyə ehtiyac qalmır.')
        yield item(r['nom'], [
            f"{r['loc']} yaşayıram. Nömrəmi dəyişmədən AzTel-ə keçmək üçün hara müraciət edim?",
            f"{r['loc']} nömrəmi AzTel-ə keçirmək istəyirəm, nə etməliyəm?",
        ], f"Nömrəni saxlayaraq AzTel-ə keçmək üçün şəxsiyyət vəsiqənizlə {office_dat(r)} yaxınlaşın və ya AzTel tətbiqində \"Nömrəni AzTel-ə keçir\" bölməsindən onlayn müraciət edin. Xidmət pulsuzdur, keçid isə adətən 1-3 iş günü çəkir. {delivery}", mood='howto', n=2)

def region_lost_phone():
    for r in REGIONS:
        yield item(r['nom'], [
            f"{r['loc']} telefonumu itirmişəm. Nə etməliyəm?",
            f"Telefonum {r['loc']} oğurlanıb, nömrəmi necə bərpa edim?",
        ], steps('Təəssüf edirik. Zəhmət olmasa, bu addımları atın:', [
            'Başqa telefondan 111-ə və ya +994 12 111 01 11 nömrəsinə zəng edib nömrənizi bloklatdırın, bu pulsuzdur.',
            'Telefon oğurlanıbsa, IMEI kodu ilə polisə müraciət edin.',
            f"Şəxsiyyət vəsiqənizlə {office_dat(r)} yaxınlaşıb eyni nömrə ilə yeni SIM kart alın (2 AZN).",
        ], 'Balansınız, tarifiniz və paketləriniz yeni SIM kartda olduğu kimi qalacaq.'), mood='none', n=2)

ISSUES = [('internet çox zəifdir', 'internetin zəif olması'), ('zənglər tez-tez kəsilir', 'zənglərin kəsilməsi'),
          ('siqnal tez-tez itir', 'siqnalın itməsi'), ('telefon 4G tutmur, yalnız 3G göstərir', '4G şəbəkəsinin olmaması')]

def region_complaint():
    for r in REGIONS:
        for issue, issue_n in ISSUES:
            hint = (' Əvvəlcə telefonunuzun parametrlərində şəbəkə rejiminin "4G/LTE (avtomatik)" seçildiyini də yoxlayın.'
                    if '4G' in issue else '')
            yield item((r['nom'], issue), [
                f"{r['loc']} {issue}. Şikayət etmək istəyirəm.",
                f"{r['loc']} yaşayıram, {issue}. Bu barədə hara müraciət edim?",
            ], f"Narahatlığa görə üzr istəyirik, {issue_n} ilə bağlı şikayətinizi qeydə alırıq. Araşdırmanın dəqiq olması üçün {r['gen']} hansı məhəlləsində və ya kəndində olduğunuzu, problemin hansı saatlarda baş verdiyini və telefon modelinizi 111-ə zəng edərək və ya AzTel tətbiqində \"Müraciətlər\" bölməsində bildirin.{hint} Texniki araşdırma 5 iş gününə qədər çəkir və nəticə sizə SMS ilə bildiriləcək.",
                mood='none', n=1)

def region_travel():
    for r in REGIONS:
        cover = (f"{r['loc']} 4G və 5G şəbəkələrimiz fəaliyyət göstərir." if r['g5'] else
                 f"{r['loc']} şəhərdə və əsas yaşayış məntəqələrində 4G şəbəkəmiz işləyir.")
        if r['hills']: cover += ' Dağlıq hissələrdə relyefə görə siqnal bəzən zəifləyə bilər.'
        first = ('Naxçıvan Muxtar Respublikası Azərbaycanın tərkibindədir, ona görə orada AzTel şəbəkəsi ölkədaxili qiymətlərlə işləyir və roaminq lazım deyil.'
                 if r['nom'] == 'Naxçıvan' else
                 'Tarifinizin dəqiqələri, SMS-ləri və interneti bütün Azərbaycan ərazisində eyni qaydada işləyir, roaminq və ya əlavə qoşulma lazım deyil.')
        yield item(r['nom'], [f"{r['dat']} gedirəm, tarifim orada da işləyəcək?", f"{r['dat']} səfərə çıxıram. Orada AzTel şəbəkəsi necədir?"],
                   f"{first} {cover}", mood='none', n=2)

def device_settings():
    for d in DEVICES:
        path, _ = d['apn']
        step2 = ('"Mobil məlumat" hissəsində APN xanasına internet.aztel yazın, istifadəçi adı və parolu boş saxlayın.' if not d['android'] else
                 'Yeni APN əlavə edin: Ad – AzTel Internet, APN – internet.aztel, APN növü – default,supl; sonra yadda saxlayıb bu profili seçin.')
        yield item(('apn', d['name']), [
            f"{d['my_loc']} internet parametrlərini (APN) necə yazım?",
            f"{d['loc']} APN haradan dəyişdirilir?",
            f"{d['name']} üçün APN parametrləri hansılardır?",
        ], steps(f"{d['loc']} APN-i əl ilə yazmaq üçün:", [f"{path} bölməsinə keçin.", step2, 'Telefonu yenidən başladın.'],
                 'Parametrləri avtomatik almaq üçün *555# yığmaq da kifayətdir, onlar SMS ilə gələcək.'), mood='howto', n=2)
        path, sw = d['volte']
        yield item(('volte', d['name']), [
            f"{d['my_loc']} VoLTE-ni necə aktivləşdirim?",
            f"{d['loc']} VoLTE haradan açılır?",
        ], f"{d['loc']} VoLTE-ni açmaq üçün {path} bölməsinə keçin və {sw} açarını yandırın. AzTel-də VoLTE pulsuzdur və ayrıca qoşulma tələb etmir. Açar görünmürsə, telefonun proqram təminatını yeniləyin və SIM kartınızın 4G-ni dəstəklədiyinə əmin olun; menyu adları modelə görə bir qədər fərqlənə bilər.",
            mood='howto', n=2)
        path, sw = d['hotspot']
        yield item(('hotspot', d['name']), [
            f"{d['my_loc']} hotspotu necə açım?",
            f"{d['loc']} modem rejimi haradadır? Noutbuka internet paylamaq istəyirəm.",
        ], f"{d['loc']} internet paylamaq üçün {path} bölməsinə keçin və {sw} açarını yandırın. Şəbəkənin adı və parolu elə həmin bölmədə göstərilir, parolu oradan dəyişmək də olar. Paylanan internet tarifinizin və ya paketinizin həcmindən sərf olunur; Limitsiz tarifində hotspot vasitəsilə ayda 20 GB paylamaq mümkündür.",
            mood='howto', n=2)
        path, _ = d['mode']
        choice = ('4G və ya 5G seçin' if not d['android'] else '"5G/4G/3G/2G (avtomatik)" və ya "4G/3G/2G (avtomatik)" seçin')
        yield item(('mode', d['name']), [
            f"{d['my']} yalnız 3G göstərir. 4G-ni necə seçim?",
            f"{d['loc']} şəbəkə rejimini necə dəyişim?",
        ], f"{path} bölməsinə keçin və {choice}. Bundan sonra da yalnız 3G görünürsə, SIM kartınızın 4G-ni dəstəklədiyinə əmin olun: köhnə SIM kartı ofisdə pulsuz dəyişə bilərsiniz. Olduğunuz yerdə 4G əhatəsini AzTel tətbiqindəki \"Əhatə xəritəsi\" bölməsində yoxlamaq olar.",
            mood='howto', n=2)
        path, sw = d['wifi']
        yield item(('wifi', d['name']), [
            f"{d['my_loc']} Wi-Fi zənglərini necə aktivləşdirim?",
            f"{d['loc']} VoWiFi necə açılır? Evdə siqnal zəifdir.",
        ], f"Wi-Fi zəngləri (VoWiFi) siqnalın zəif olduğu binalarda çox faydalıdır. {d['loc']} onu aktivləşdirmək üçün {path} bölməsinə keçin və {sw} açarını yandırın. AzTel-də VoWiFi pulsuzdur: zənglər tarifinizin dəqiqələrindən hesablanır, ayrıca ödəniş tutulmur.",
            mood='howto', n=2)

def service_templates():
    for s in SERVICES:
        n, f = s['name'], s['f']
        use = 'İstifadə etmək üçün' if s.get('oneshot') else 'Qoşulmaq üçün'
        fee = f"{cap(f['base'])}in {s['fee']}." if s['fee'] else f"{cap(f['base'])} pulsuzdur."
        extra = f" {s['extra']}" if s.get('extra') else ''
        if s.get('oneshot'):
            qs = [f"{n} {f['abl']} necə istifadə edim?", f"{n} {f['nom']} nədir?", f"{n} {f['nom']} necə işləyir?"]
        else:
            qs = [f"{n} {f['dat']} necə qoşulum?", f"{n} {f['acc']} necə aktivləşdirim?", f"{n} {f['nom']} nədir?"]
        yield item(('on', n), qs, [
            f"{n} {f['nom']} {s['what']}. {use} {s['code']} yığın. {fee}{extra}",
            f"{use} {s['code']} yığmağınız kifayətdir. Bu {f['base']} {s['what']}. {fee}{extra}",
        ], mood='howto', n=2)
        if s['fee']:
            price_a = f"{n} {f['gen']} {s['fee']}. {use} {s['code']} yığın."
        else:
            price_a = f"{n} {f['nom']} tamamilə pulsuzdur, heç bir haqq tutulmur. {use} {s['code']} yığın."
        if s['off']: price_a += f" İmtina etmək istəsəniz, {s['off']} yığmağınız kifayətdir."
        yield item(('fee', n), [f"{n} {f['nom']} pulludur?", f"{n} {f['gen']} qiyməti nə qədərdir?"], price_a, mood='none', n=1)
        if s['off']:
            after = (' Bundan sonra aylıq haqq da tutulmayacaq.' if s['fee'] else ' Yenidən aktivləşdirmək üçün isə ' + s['code'] + ' yığın.')
            yield item(('off', n), [
                f"{n} {f['acc']} necə söndürüm?",
                f"{n} {f['dat']} daha ehtiyacım yoxdur, necə imtina edim?",
            ], f"{n} {f['acc']} söndürmək üçün {s['off']} yığın.{after} Bütün qoşulu xidmətlərinizin siyahısını isə *444# menyusunda görə bilərsiniz.", mood='howto', n=1)

def ussd_templates():
    for code, what, purpose in CODES:
        tail = ' Bloku söndürmək üçün *200*00# yığın.' if code == '*200*0#' else ' Bu kodu yığmaq pulsuzdur.'
        yield item(('code', code), [f"{code} kodu nə üçündür?", f"{code} yığanda nə olur?", f"{code} nədir?"],
                   f"{code} kodu {what}.{tail} Bütün kodların siyahısını AzTel tətbiqinin \"Kömək\" bölməsində tapa bilərsiniz.", n=2)
        yield item(('purpose', code), [f"{cap(purpose)} üçün hansı kodu yığmalıyam?", f"{purpose} istəyirəm, kod nədir?"],
                   f"Bunun üçün {code} yığıb zəng düyməsini sıxın: bu kod {what}.{tail}", mood='none', n=2)

def payment_templates():
    for p in PAYMENTS:
        w = p['where']
        yield item(('how', w), [f"{cap(w)} balansı necə artırım?", f"{cap(w)} pul yükləmək istəyirəm, necə edim?"],
                   steps(f"{cap(w)} balans artırmaq çox asandır:", p['steps'], 'Ödəniş adətən bir neçə saniyə ərzində balansınıza yazılır.'),
                   mood='none', n=2)
        yield item(('fee', w), [f"{cap(w)} pul yükləyəndə komissiya tutulur?", f"{cap(w)} ödəniş etsəm, əlavə haqq çıxılacaq?"],
                   f"{p['fee']} Ödəniş adətən bir neçə saniyə ərzində balansınıza yazılır. Minimum ödəniş məbləği 1 manat, bir dəfəlik maksimum məbləğ isə 200 manatdır.",
                   mood='none', n=1)
        yield item(('other', w), [f"{cap(w)} başqasının nömrəsinə pul yükləmək olar?", f"{cap(w)} anamın balansını artıra bilərəm?"],
                   f"Bəli, {w} istənilən AzTel nömrəsinin balansını artırmaq mümkündür, nömrənin sizin adınıza olması tələb olunmur. Ödəniş zamanı alıcının nömrəsini diqqətlə yoxlayın: səhv nömrəyə yüklənmiş vəsaitin qaytarılması üçün qəbzlə 111-ə müraciət etmək lazım gələcək.",
                   mood='none', n=1)

def topup_limits():
    for amt, txt in [(0.5, '50 qəpik'), (1, '1 manat'), (5, '5 manat'), (150, '150 manat'), (200, '200 manat'),
                     (250, '250 manat'), (300, '300 manat'), (500, '500 manat')]:
        if amt < 1:
            a = f"Təəssüf ki, xeyr: AzTel tətbiqində və bank tətbiqlərində minimum ödəniş məbləği 1 manatdır, ona görə {txt} yükləmək mümkün olmayacaq. Bir dəfəlik maksimum məbləğ isə 200 manatdır."
        elif amt <= 200:
            a = f"Bəli, {txt} ödəniş limitlərinə uyğundur: minimum məbləğ 1, bir dəfəlik maksimum məbləğ isə 200 manatdır. Ödəniş adətən bir neçə saniyə ərzində balansınıza yazılır."
        else:
            parts = [200] * int(amt // 200) + ([amt % 200] if amt % 200 else [])
            a = (f"Bir dəfəlik ödənişin maksimum məbləği 200 manatdır, ona görə {txt} bir ödənişlə yükləmək olmur. "
                 f"Məbləği {WORDS[len(parts)]} ödənişə bölün: {' + '.join(m(x) for x in parts)} manat. Hər ödəniş bir neçə saniyə ərzində balansınıza yazılacaq.")
        yield item(amt, [f"Tətbiqdən bir dəfəyə {txt} yükləmək olar?", f"Bank kartı ilə balansa {txt} ödəmək mümkündür?"], a, mood='none', n=2)

def balance_transfer():
    for amt, txt in [(0.3, '30 qəpik'), (1, '1 manat'), (2, '2 manat'), (3, '3 manat'), (5, '5 manat'),
                     (7, '7 manat'), (8, '8 manat'), (10, '10 manat'), (15, '15 manat')]:
        if amt < 0.5:
            a = (f"Təəssüf ki, bir köçürmənin minimum məbləği 0,50 manatdır, ona görə {txt} göndərmək mümkün deyil. "
                 "Ən azı 0,50 manat göndərmək üçün *111*alıcının nömrəsi*məbləğ# formatından istifadə edin. Hər köçürmə üçün 0,05 AZN xidmət haqqı tutulur.")
        elif amt <= 5:
            a = (f"Bunun üçün *111*alıcının nömrəsi*{m(amt)}# yığın, məsələn, *111*0XXXXXXXXX*{m(amt)}#. "
                 f"Köçürmə üçün 0,05 AZN xidmət haqqı tutulur, yəni balansınızdan cəmi {m(amt + 0.05)} AZN çıxılacaq. "
                 "Balans köçürməsi yalnız ön ödənişli AzTel nömrələri arasında mümkündür.")
        elif amt <= 10:
            a = (f"Bir köçürmədə ən çox 5 manat göndərmək olar, ona görə {txt} iki köçürmə ilə göndərin: əvvəlcə *111*nömrə*5#, sonra *111*nömrə*{m(amt - 5)}#. "
                 f"Hər köçürmə üçün 0,05 AZN haqq tutulur, yəni balansınızdan cəmi {m(amt + 0.10)} AZN çıxılacaq. Gün ərzində ən çox 10 manat köçürmək mümkündür.")
        else:
            a = (f"Təəssüf ki, gün ərzində 10 manatdan çox köçürmək olmur. Bu gün iki köçürmə ilə (5 + 5 manat) 10 manat, qalan {m(amt - 10)} manatı isə sabah göndərə bilərsiniz. "
                 "Hər köçürmə üçün 0,05 AZN xidmət haqqı tutulur.")
        yield item(amt, [f"Dostuma balansımdan {txt} göndərmək istəyirəm. Necə edim?", f"Başqa AzTel nömrəsinə {txt} köçürmək olar?"],
                   a, mood='none', n=2)

def borrow_balance():
    for b in (1, 2, 3):
        for t in (5, 10, 20):
            yield item((b, t), [
                f"{b} manat borc balans götürmüşəm. {t} manat yükləsəm, balansıma nə qədər yazılacaq?",
                f"Borcum {b} manatdır. {t} manat artırsam, balansımda neçə manat qalacaq?",
            ], f"Balans artırılarkən borc məbləği ({b} AZN) və 0,10 AZN xidmət haqqı avtomatik tutulur. Beləliklə, {t} manatlıq ödənişdən sonra balansınıza {m(t - b - 0.10)} AZN yazılacaq. Borcun qalığını istənilən vaxt *700# menyusundan yoxlaya bilərsiniz.",
                mood='info', n=2)

def bill_month():
    for i, mon in enumerate(MONTHS):
        nxt = MONTH_GEN[(i + 1) % 12]
        yield item(mon, [
            f"{cap(mon)} ayının fakturası nə vaxt gələcək?",
            f"{cap(mon)} ayı üçün hesab-fakturanı ən gec nə vaxt ödəməliyəm?",
        ], f"{cap(mon)} ayına aid hesab-faktura {nxt} 5-nə qədər hazırlanır və sizə SMS, e-poçt və ya AzTel tətbiqi vasitəsilə göndərilir. Ödənişin son tarixi {nxt} 20-sidir. Xidmətlərin dayanmaması üçün AzTel tətbiqində avtomatik ödəniş qoşmağınızı tövsiyə edirik.",
            n=2)

def bill_late():
    for d, dd in DAY_LOC.items():
        if d <= 20:
            a = (f"Xeyr, problem olmayacaq: fakturalı xətlər üçün son ödəniş tarixi ayın 20-sidir, ona görə ayın {dd} etdiyiniz ödəniş vaxtında sayılacaq. "
                 "Ödənişi AzTel tətbiqində, bank tətbiqlərində, terminallarda və ya ofislərdə edə bilərsiniz.")
        else:
            a = (f"Ödənişin son tarixi ayın 20-sidir. Ayın {dd} ödəsəniz, ayrıca cərimə tutulmayacaq, lakin 20-dən sonra gedən zənglər, SMS və internet dayandırıla bilər; "
                 "daxil olan zənglər isə işləməyə davam edir. Ödəniş daxil olduqdan sonra xidmətlər 1 saat ərzində pulsuz bərpa olunur. Nömrə yalnız borc 60 gün ərzində ödənilmədikdə tam bloklanır.")
        yield item(d, [f"Fakturanı ayın {dd} ödəsəm, problem olar?", f"Bu ay fakturanı ancaq ayın {dd} ödəyə biləcəm. Xəttim bağlanacaq?"],
                   a, mood='none', n=2)

def family_plan():
    for n in range(2, 9):
        if n <= 5:
            a = (f"Ailə tarifində 5 nömrəyə qədər bir qrup yaratmaq olar, {n} nömrə bu limitə daxildir. Aylıq haqq bütün qrup üçün 35 AZN təşkil edir, "
                 f"yəni hər nömrəyə təxminən {m(35 / n)} AZN düşür. Qrupa ortaq 100 GB internet və qrup daxilində limitsiz zənglər, hər nömrəyə isə digər şəbəkələrə 500 dəqiqə və 100 SMS verilir.")
        else:
            a = (f"Bir Ailə qrupunda ən çox 5 nömrə ola bilər, ona görə {n} nömrə üçün iki qrup yaratmalı olacaqsınız; bu, ayda 2 × 35 = 70 AZN edir. "
                 "Qruplar arasında zənglər adi tarif qaydaları ilə hesablanır. Alternativ olaraq, qalan nömrələr üçün Gənc və ya Qayğı kimi ayrıca sərfəli tariflər seçə bilərsiniz.")
        yield item(n, [f"Ailədə {n} nəfərik. Ailə tarifi bizə neçəyə başa gələcək?", f"{n} nömrəni Ailə tarifində birləşdirmək olar?"],
                   a, mood='none', n=2)

def corporate_cost():
    for n in [3, 5, 8, 12, 20, 35, 50, 80]:
        for b in BUSINESS:
            if n < 5:
                a = (f"Korporativ tariflər ən azı 5 nömrə üçün müqavilə ilə təqdim olunur, ona görə {n} nömrə üçün {b['name']} tarifini qoşmaq mümkün deyil. "
                     "Bu halda fərdi tariflərimiz, məsələn, Maksimum (25 AZN) və ya Limitsiz (39 AZN) uyğun olar. Nömrə sayınız artdıqda korporativ müqaviləyə keçə bilərsiniz.")
            else:
                disc = 15 if n >= 50 else 10 if n >= 20 else 0
                base = n * b['price']
                total = base * (100 - disc) / 100
                d_txt = (f" {n} nömrə üçün {disc}% korporativ endirim tətbiq olunur, ona görə aylıq ödəniş {m(total)} AZN olacaq." if disc else
                         ' 20 nömrədən az olduğu üçün endirim tətbiq olunmur; 20-49 nömrə üçün 10%, 50 və daha çox nömrə üçün isə 15% endirim var.')
                a = (f"{b['name']} tarifinə {b['what']} daxildir və hər nömrə üçün aylıq haqq {b['price']} AZN təşkil edir. "
                     f"{n} nömrə üçün bu, {n} × {b['price']} = {m(base)} AZN edir.{d_txt} Şirkət nömrələri arasında zənglər pulsuzdur və bütün nömrələr üzrə vahid faktura təqdim olunur.")
            yield item((n, b['name']), [
                f"Şirkətimizdə {n} işçi var. Hamısına {b['name']} tarifini qoşsaq, ayda nə qədər ödəyəcəyik?",
                f"{n} nömrə üçün {b['name']} tarifi götürmək istəyirik. Aylıq xərc nə qədər olar?",
            ], a, mood='none', n=2)

def bonus_points():
    for p in [150, 250, 320, 480, 650, 1000, 1200, 1600, 2400]:
        avail = [r for r in REWARDS if r[0] <= p]
        if not avail:
            need = 300 - p
            a = (f"Hələ ki, {p} xal heç bir hədiyyə üçün çatmır: ən kiçik hədiyyə olan 1 GB internet 300 xaldır. Sizə daha {need} xal lazımdır; "
                 f"hər 1 AZN xərc üçün 10 xal yazıldığından bu, xidmətlərə təxminən {math.ceil(need / 10)} AZN xərcləmək deməkdir. Xallar qazanıldığı tarixdən 12 ay qüvvədədir.")
            yield item(p, [f"{p} xalım var, nəyə dəyişə bilərəm?", f"Bonus hesabımda {p} xal yığılıb. Nə ala bilərəm?"], a, mood='none', n=2)
        else:
            a = steps(f"{p} xalla aşağıdakı hədiyyələrdən birini seçə bilərsiniz:", [f"{x} xal – {r}" for x, r in avail],
                      'Dəyişmək üçün *300# menyusundan və ya AzTel tətbiqinin "Bonus" bölməsindən istifadə edin. Xallar qazanıldığı tarixdən 12 ay qüvvədədir.')
            yield item(p, [f"{p} xalım var, nəyə dəyişə bilərəm?", f"Bonus hesabımda {p} xal yığılıb. Nə ala bilərəm?"], a, mood='info', n=2)

def bonus_earn():
    for s in [5, 10, 15, 25, 40]:
        for years in [1, 2, 5, 8]:
            rate = 12 if years > 3 else 10
            pts = rate * s
            status = ('3 ildən artıq AzTel abunəçisi olduğunuz üçün "Sadiq müştəri" statusunuz var və hər 1 AZN üçün 10 əvəzinə 12 xal qazanırsınız.' if rate == 12 else
                      'Hər 1 AZN xərc üçün 10 xal yazılır; 3 ildən artıq abunəçi olduqda isə "Sadiq müştəri" statusu ilə bu, 12 xala qalxır.')
            yield item((s, years), [
                f"{years} ildir AzTel abunəçisiyəm, ayda {s} manat xərcləyirəm. Ayda neçə xal qazanıram?",
                f"{years} ildir AzTel-dəyəm. Ayda {s} manatlıq xidmətdən istifadə etsəm, neçə bonus xalı yığılar?",
            ], f"{status} Deməli, ayda {s} manat xərclədikdə {pts} xal qazanacaqsınız. Bu tempdə 1000 xala, yəni əsas balansa 3 AZN hədiyyəyə təxminən {math.ceil(1000 / pts)} ayda çatacaqsınız. Xal balansınızı *300# ilə yoxlaya bilərsiniz.",
                mood='none', n=2)

def fiber_templates():
    for f in FIBER:
        yield item(('info', f['name']), [f"{f['name']} tarifi neçəyədir?", f"{f['name']} tarifinin sürəti və qiyməti necədir?", f"{f['name']} ev internetinə nə daxildir?"],
                   f"{f['name']} tarifi saniyədə {f['speed']} meqabit sürət təklif edir, aylıq haqqı {f['price']} AZN təşkil edir. İnternet həcmi limitsizdir və ay ərzində sürət azaldılmır. Quraşdırma və Wi-Fi router pulsuz təqdim olunur; ünvanınızda texniki imkanı AzTel tətbiqinin \"Ev interneti\" bölməsində yoxlaya bilərsiniz.",
                   n=2)
        yield item(('bundle', f['name']), [
            f"Mobil nömrəm AzTel-dədir. {f['name']} tarifinə qoşulsam, endirimlə neçəyə başa gələcək?",
            f"AzTel Birlikdə endirimi ilə {f['name']} tarifi ayda nə qədər olur?",
        ], f"\"AzTel Birlikdə\" təklifi ilə mobil xətti də AzTel-də olan müştərilər fiber tarifinin aylıq haqqına 10% endirim alırlar. Deməli, {f['name']} tarifi sizin üçün ayda {f['price']} AZN əvəzinə {m(f['price'] * 0.9)} AZN olacaq. Endirimi aktivləşdirmək üçün 111-ə zəng edin və ya tətbiqdə mobil nömrənizi ev interneti müqaviləsi ilə əlaqələndirin; nömrə və müqavilə eyni şəxsin adına olmalıdır.",
            mood='none', n=1)
    for n in range(1, 8):
        f = FIBER[0] if n <= 2 else FIBER[1] if n <= 4 else FIBER[2] if n <= 6 else FIBER[3]
        if n == 1:
            qs = ["Evdə tək yaşayıram. Hansı fiber tarifi mənə uyğundur?",
                  "Evdə tək yaşayıram, internetdən çox istifadə edirəm. Hansı sürəti məsləhət görürsünüz?"]
        else:
            qs = [f"Evdə {n} nəfərik. Hansı fiber tarifi bizə uyğundur?",
                  f"Evdə {n} nəfərik, hamı internetdən istifadə edir. Hansı sürəti məsləhət görürsünüz?"]
        more = ('Evdən işləyirsinizsə və ya böyük fayllar yükləyirsinizsə, bir pillə sürətli Fiber 100 tarifini seçmək olar.' if n == 1 else
                'Evdən işləyən və ya böyük faylları yükləyən ailə üzvləri varsa, bir pillə sürətli tarifi seçmək olar.' if n < 7 else
                'Bu, ən sürətli tarifimizdir və böyük ailədə eyni anda çox cihazın işləməsi üçün nəzərdə tutulub.')
        yield item(('house', n), qs,
                   f"{'Bir nəfər' if n == 1 else f'{n} nəfərlik ev'} üçün {f['name']} tarifini tövsiyə edirik: saniyədə {f['speed']} meqabit sürət, ayda {f['price']} AZN. "
                   f"Bu sürət eyni anda bir neçə cihazda video baxmaq və video zənglər üçün kifayət edir. {more}",
                   mood='none', n=1)
    yield item(('ev4g',), ["Ev 4G tarifləri neçəyədir?", "Ev 4G ilə Ev 4G Plus arasında fərq nədir?", "Kənddə fiber yoxdur, Ev 4G-nin qiyməti nə qədərdir?"],
               "Ev 4G fiber şəbəkəsi olmayan ərazilər üçün mobil 4G şəbəkəsi üzərindən işləyən ev internetidir. Ev 4G tarifi ayda 15 AZN qarşılığında 60 GB, Ev 4G Plus isə 25 AZN qarşılığında 120 GB verir. Router birdəfəlik ödənişlə 39 AZN qarşılığında alınır, quraşdırma tələb etmir və ona bir neçə cihaz Wi-Fi ilə qoşula bilər.",
               n=3)

def limitsiz_fair_use():
    for u in [30, 60, 90, 100, 110, 130, 160]:
        if u < 100:
            a = (f"Xeyr, hələ yox. Limitsiz tarifində ədalətli istifadə həddi ayda 100 GB təşkil edir; siz {u} GB işlətmisiniz, yəni bu həddə çatmağa hələ {100 - u} GB qalır. "
                 "Həddən sonra da internet dayanmır, sadəcə sürət saniyədə 2 meqabitə endirilir.")
        else:
            a = (f"Limitsiz tarifində ay ərzində 100 GB həcmindən sonra sürət saniyədə 2 meqabitə endirilir. Siz {u} GB işlətdiyiniz üçün sürətiniz hazırda bu həddə məhdudlaşdırılıb. "
                 "Bu sürət mesajlaşma, musiqi və adi keyfiyyətli video üçün kifayət edir. Tam sürət növbəti ödəniş dövründə, abunə haqqı tutulduqdan sonra bərpa olunur.")
        yield item(u, [f"Limitsiz tarifindəyəm, bu ay {u} GB işlətmişəm. Sürət azalacaq?", f"Limitsiz tarifində bu ay {u} GB internet getdi. Sürətim kəsiləcək?"],
                   a, mood='none', n=1)

def limitsiz_hotspot():
    for s in [5, 12, 16, 19, 20]:
        if s < 20:
            a = (f"Limitsiz tarifində hotspot vasitəsilə ayda 20 GB internet paylamaq olar. Siz {s} GB paylamısınız, yəni bu ay daha {20 - s} GB paylaya bilərsiniz. "
                 "Limit bitdikdən sonra telefonun özündə internet limitsiz işləməyə davam edəcək.")
        else:
            a = ("Limitsiz tarifində modem rejimi ilə paylanan internet ayda 20 GB ilə məhdudlaşır və siz artıq bu həddə çatmısınız. "
                 "Telefonun özündə internet limitsiz işləməyə davam edir, lakin digər cihazlara paylama növbəti ödəniş dövrünədək dayandırılır. "
                 "Daha çox paylama lazımdırsa, Maksimum tarifini və ya ev interneti xidmətlərimizi nəzərdən keçirin.")
        yield item(s, [f"Limitsiz tarifində bu ay hotspotla {s} GB paylamışam. Hələ paylaya bilərəm?", f"Limitsiz tarifdəyəm, modem rejimi ilə {s} GB işlətmişəm. Limit nə qədərdir?"],
                   a, mood='none', n=1)

def night_package():
    for h in [23, 0, 1, 2, 4, 6, 8, 10, 14, 20]:
        hh = f"{h:02d}:00"
        if h < 7:
            a = (f"Bəli, Gecə 20 GB paketi hər gecə saat 00:00-dan 07:00-dək işləyir, ona görə saat {hh} radələrində istifadə etdiyiniz internet bu paketdən sərf olunacaq. "
                 "Bu saatlarda internet əvvəlcə gecə paketindən, o bitdikdən sonra isə tarifinizdən hesablanır.")
        else:
            a = (f"Xeyr, Gecə 20 GB paketi yalnız saat 00:00-dan 07:00-dək işləyir. Saat {hh} radələrində isə internet tarifinizdən və ya digər paketlərinizdən sərf olunacaq. "
                 "Böyük faylları və yeniləmələri gecə saatlarına saxlasanız, gecə paketindən tam yararlanarsınız.")
        yield item(h, [f"Gecə paketi ilə saat {hh} radələrində internet işlətsəm, paketdən çıxılacaq?", f"Saat {hh} radələrində Gecə 20 GB paketi işləyir?"],
                   a, mood='none', n=1)

def package_compare():
    std = [p for p in PACKAGES if p['kind'] == 'standard']
    for i, a in enumerate(std):
        for b in std[i + 1:]:
            if a['days'] == b['days']:
                big = max(a, b, key=lambda p: p['gb'])
                verdict = f"Müddət eyni olduğu üçün daha çox internet lazımdırsa, {big['name']} paketi həm həcm, həm də hər GB üçün ödəniş baxımından sərfəlidir."
            else:
                short, long_ = sorted([a, b], key=lambda p: p['days'])
                verdict = f"İnternet qısa müddətə lazımdırsa, {short['name']} paketi, uzun müddətə lazımdırsa, {long_['name']} paketi daha uyğundur."
            yield item((a['name'], b['name']), [
                f"{a['name']} ilə {b['name']} paketi arasında fərq nədir?",
                f"{a['name']}, yoxsa {b['name']} paketi? Hansı sərfəlidir?",
            ], f"{a['name']} paketi {a['price']} AZN qarşılığında {a['gb']} GB internet verir və {VALIDITY[a['days']]} qüvvədədir, burada hər GB üçün təxminən {m(a['price'] / a['gb'])} AZN ödəyirsiniz. "
               f"{b['name']} paketi isə {b['price']} AZN qarşılığında {b['gb']} GB internet verir və {VALIDITY[b['days']]} qüvvədədir, hər GB üçün təxminən {m(b['price'] / b['gb'])} AZN. {verdict}",
               n=1)

def tariff_plus_package():
    for t in TARIFFS:
        if t['gb'] is None: continue
        for p in MONTHLY:
            total_gb, total = t['gb'] + p['gb'], t['price'] + p['price']
            alt = [x for x in (TARIFF[g] for g in GENERAL) if inf(x['gb']) >= total_gb and inf(x['mins']) >= t['mins'] and x['price'] < total]
            tip = ''
            if alt:
                x = min(alt, key=lambda x: x['price'])
                tip = f" Müqayisə üçün, {x['name']} tarifi ayda {x['price']} AZN qarşılığında {vol(x)} verir, yəni tarifi dəyişmək daha sərfəli ola bilər."
            yield item((t['name'], p['name']), [
                f"{t['name']} tarifindəyəm. {p['name']} paketini də alsam, ayda cəmi neçə GB internetim olacaq?",
                f"{t['name']} tarifinə əlavə olaraq {p['name']} paketi götürsəm, aylıq xərcim nə qədər olar?",
            ], f"{t['name']} tarifinə {t['gb']} GB internet daxildir, {p['name']} paketi isə {p['gb']} GB əlavə edir; beləliklə, ayda cəmi {total_gb} GB internetiniz olacaq. "
               f"Aylıq xərciniz {t['price']} + {p['price']} = {total} AZN təşkil edəcək. Əvvəlcə tarifin interneti, o bitdikdən sonra paketin interneti sərf olunur.{tip}",
               n=2)

def tariff_move():
    rng = random.Random(SEED + 3)
    pairs = [(a, b) for a in TARIFFS for b in TARIFFS if a is not b]
    for a, b in rng.sample(pairs, 28):
        age = {'Gənc': ' Gənc tarifi yalnız 14-25 yaş arası müştərilər üçündür.',
               'Qayğı': ' Qayğı tarifi yalnız 60 yaşdan yuxarı müştərilər üçündür.'}.get(b['name'], '')
        yield item((a['name'], b['name']), [
            f"{a['name']} tarifindən {b['name']} tarifinə keçsəm, qalan internetim və dəqiqələrim nə olacaq?",
            f"{a['name']} tarifindəyəm, {b['name']} tarifinə keçmək istəyirəm. Nələrə diqqət edim?",
        ], f"Tarif dəyişdikdə {a['name']} tarifinin qalıqları yeni tarifə keçmir, ayrıca aldığınız internet paketləri isə öz müddəti bitənə qədər qüvvədə qalır. "
           f"{b['name']} tarifinin abunə haqqı ({b['price']} AZN) keçid anında balansdan tutulur, ona görə balansınızda kifayət qədər vəsait olmasına diqqət edin.{age} "
           f"Keçidi cari dövrün sonuna yaxın etmək daha sərfəlidir; keçmək üçün {b['code']} yığın.", mood='none', n=2)

def tariff_with_service():
    paid = [x for x in SERVICES if x.get('monthly')]
    for t in TARIFFS:
        for sv in paid:
            total = t['price'] + sv['monthly']
            yield item((t['name'], sv['name']), [
                f"{t['name']} tarifindəyəm və {sv['name']} xidmətinə qoşuluyam. Ayda cəmi nə qədər ödəyirəm?",
                f"{t['name']} tarifi və {sv['name']} xidməti birlikdə ayda neçəyə başa gəlir?",
            ], f"{t['name']} tarifinin aylıq haqqı {t['price']} AZN, {sv['name']} xidmətinin aylıq haqqı isə {m(sv['monthly'])} AZN təşkil edir. "
               f"Beləliklə, ayda cəmi {m(total)} AZN ödəyirsiniz. Qoşulu xidmətlərin tam siyahısını *444# ilə yoxlaya, lazım olmayanı elə oradan ləğv edə bilərsiniz.",
               n=1)

def tariff_change_count():
    for done, phrase in [(0, 'Bu ay tarifimi hələ dəyişməmişəm'), (1, 'Bu ay tarifimi artıq bir dəfə dəyişmişəm'),
                         (2, 'Bu ay tarifimi iki dəfə dəyişmişəm')]:
        for t in TARIFFS:
            fee = 0 if done == 0 else 1
            first = ('Ay ərzində ilk tarif dəyişikliyi pulsuzdur, ona görə keçid üçün ayrıca haqq tutulmayacaq.' if fee == 0 else
                     'Ay ərzində yalnız ilk tarif dəyişikliyi pulsuzdur, sonrakı hər dəyişiklik üçün 1 AZN tutulur.')
            yield item((done, t['name']), [f"{phrase}. İndi {t['name']} tarifinə keçsəm, balansımdan nə qədər tutulacaq?",
                                           f"{phrase}. {t['name']} tarifinə keçid mənə neçəyə başa gələcək?"],
                       f"{first} Bundan əlavə, {t['name']} tarifinin abunə haqqı ({t['price']} AZN) keçid anında tutulur. Beləliklə, balansınızdan cəmi {t['price'] + fee} AZN çıxılacaq. Keçid üçün {t['code']} yığın.",
                       mood='none', n=1)

def roaming_sms():
    for c in COUNTRIES:
        z = ZONES[c['zone']]
        yield item(('out', c['nom']), [f"{c['loc']} SMS göndərmək neçəyədir?", f"{c['loc']} olarkən göndərdiyim SMS-lər neçəyə hesablanır?"],
                   f"{c['loc']} göndərdiyiniz hər SMS {m(z['sms'])} AZN ilə hesablanır, sizə gələn SMS-lər isə pulsuzdur. Çox yazışırsınızsa, roaminq paketi alıb internet üzərindən işləyən mesajlaşma tətbiqlərindən istifadə etmək daha sərfəlidir.",
                   mood='none', n=1)
        yield item(('in', c['nom']), [f"{c['loc']} olarkən mənə gələn SMS-lər pulludur?", f"{c['loc']} bankdan gələn təsdiq kodlarına görə pul tutulacaq?"],
                   f"Xeyr, roaminqdə daxil olan SMS-lər pulsuzdur, yəni {c['loc']} bankların göndərdiyi təsdiq kodlarını heç bir ödəniş etmədən ala bilərsiniz. Göndərdiyiniz hər SMS isə {m(z['sms'])} AZN ilə hesablanır. Telefonun roaminqdə şəbəkəyə qoşulması üçün balansınızda ən azı 5 AZN olmasını tövsiyə edirik.",
                   mood='none', n=1)

def roaming_data_cost():
    rng = random.Random(SEED + 4)
    for c in COUNTRIES:
        z = ZONES[c['zone']]
        g7, p7, c7 = z['p7']
        n = rng.choice([10, 50, 100, 300])
        yield item(c['nom'], [f"{c['loc']} paketsiz {n} MB internet işlətsəm, nə qədər tutulacaq?", f"{c['loc']} roaminq paketi almadan {n} MB internet neçəyə başa gələr?"],
                   f"{c['nom']} {z['dat']} daxildir və orada paketsiz internet hər MB üçün {m(z['mb'])} AZN ilə hesablanır. Deməli, {n} MB üçün {m(n * z['mb'])} AZN tutulacaq. "
                   f"Müqayisə üçün, 7 günlük {g7} GB roaminq paketinin qiyməti {p7} manatdır ({c7}), ona görə paket almaq xeyli sərfəlidir. Telefonda \"Məlumat roaminqi\" söndürülü olduqda isə internet xərci yaranmır.",
                   mood='none', n=1)

def roaming_pack_code():
    for c in COUNTRIES:
        z = ZONES[c['zone']]
        (g7, p7, c7), (g30, p30, c30) = z['p7'], z['p30']
        yield item(c['nom'], [f"{c['nom']} üçün roaminq paketini necə aktivləşdirim?", f"{c['loc']} internet paketi necə alınır?"],
                   f"{c['nom']} {z['dat']} daxildir. 7 günlük {g7} GB paketi ({p7} AZN) üçün {c7}, 30 günlük {g30} GB paketi ({p30} AZN) üçün isə {c30} yığın. "
                   "Paketləri *400# menyusundan və ya AzTel tətbiqindən də seçə bilərsiniz. Xaricdə telefonun parametrlərində \"Məlumat roaminqi\"ni yandırmağı unutmayın.",
                   mood='howto', n=1)

def roaming_limit():
    for x in [10, 20, 25, 30, 45, 60]:
        if x < 30:
            a = (f"Bəli, fakturalı xətlər üçün gündəlik roaminq limiti 30 AZN təşkil edir, {x} manat isə bu həddən azdır. "
                 "Hər 10 AZN xərcdən sonra sizə bildiriş SMS-i gələcək, xərcləri AzTel tətbiqində real vaxtda da izləyə bilərsiniz.")
        else:
            a = (f"Fakturalı xətlər üçün gündəlik roaminq limiti 30 AZN təşkil edir; bu həddə çatdıqda gedən xidmətlər dayandırılır. "
                 f"Gündə {x} manat xərcləmək üçün limitin artırılmasını 111 vasitəsilə xahiş edə bilərsiniz, bunu səfərdən əvvəl etməyiniz məsləhətdir.")
        yield item(x, [f"Fakturalı xəttim var. Roaminqdə gündə {x} manat xərcləyə bilərəm?", f"Fakturalı xətdə roaminqdə gündəlik {x} manatlıq xərc mümkündür?"],
                   a, mood='none', n=1)

def region_install():
    for r in REGIONS:
        if r['fiber']:
            a = (f"{r['loc']} ünvanınızda texniki imkan olduqda fiber internet adətən müraciətdən sonra 3-5 iş günü ərzində quraşdırılır. "
                 "Usta gəlməzdən əvvəl sizinlə əlaqə saxlayıb dəqiq vaxtı razılaşdıracaq. Quraşdırma zamanı evdə yetkinlik yaşına çatmış bir nəfərin olması və müqavilə üçün şəxsiyyət vəsiqəsi lazımdır.")
        else:
            a = (f"{r['loc']} hələ fiber şəbəkəmiz olmadığı üçün Ev 4G xidmətini təklif edirik və onun quraşdırılmasına ehtiyac yoxdur. "
                 f"Routeri {office_abl(r)} alıb elektrik şəbəkəsinə qoşmağınız kifayətdir, internet elə həmin gün işləyəcək. Routerin qiyməti 39 AZN, ən sərfəli Ev 4G tarifi isə ayda 15 AZN qarşılığında 60 GB verir.")
        yield item(r['nom'], [f"{r['loc']} ev internetinin quraşdırılması neçə gün çəkir?", f"{r['loc']} ev internetinə müraciət etsəm, nə vaxt qoşarsınız?"],
                   a, mood='none', n=2)

def region_owner_change():
    for r in REGIONS:
        yield item(r['nom'], [f"{r['lki']} ofisdə nömrəni başqasının adına keçirmək olar?", f"{r['loc']} nömrəmi qardaşımın adına keçirmək istəyirəm. Hara gələk?"],
                   f"Bunu {office_loc(r)} edə bilərsiniz. Hər iki şəxs öz şəxsiyyət vəsiqəsi ilə birlikdə gəlməlidir, ofisdə ərizə doldurulur və nömrə yeni sahibin adına rəsmiləşdirilir. "
                   "Xidmət pulsuzdur, lakin fakturalı xətdə əvvəlcə bütün borc ödənilməlidir. Nəzərə alın ki, bonus xalları yeni sahibə keçmir, balans və tarif isə olduğu kimi qalır.",
                   mood='none', n=2)

def device_esim():
    for d in DEVICES:
        extra = ('Bundan əlavə, Parametrlər → Mobil rabitə bölməsində "eSIM əlavə et" bəndinin olub-olmadığına baxın.' if not d['android'] else
                 f"Bundan əlavə, {d['loc']} SIM kart parametrlərində eSIM əlavə etmək seçiminin olub-olmadığına baxa bilərsiniz.")
        yield item(d['name'], [f"{d['my']} eSIM dəstəkləyirmi, necə yoxlayım?", f"{d['loc']} eSIM-in olub-olmadığını necə bilim?"],
                   f"Ən sadə yol telefonda *#06# yığmaqdır: ekranda IMEI kodundan başqa EID nömrəsi də görünürsə, telefonunuz eSIM-i dəstəkləyir. {extra} "
                   "Eyni modelin bəzi regional versiyalarında eSIM olmaya bilər, ona görə yoxlamağınız vacibdir. AzTel-də eSIM-in qiyməti 2 manatdır.",
                   mood='howto', n=2)

def code_lookup():
    for t in TARIFFS:
        yield item(('tarif', t['code']), [f"{t['code']} hansı tarifdir?", f"{t['code']} yığsam, hansı tarifə keçəcəm?"],
                   f"{t['code']} kodu {t['name']} tarifinə keçid üçündür: {offer(t)}. {t['note']} Ay ərzində ilk tarif dəyişikliyi pulsuzdur, sonrakılar üçün 1 AZN tutulur.",
                   mood='none', n=1)
    for p in PACKAGES:
        scope = f" Paket {p['scope']}." if p['kind'] == 'special' else ''
        yield item(('paket', p['code']), [f"{p['code']} hansı paketi aktivləşdirir?", f"{p['code']} nə paketidir?"],
                   f"{p['code']} kodu {p['name']} paketini aktivləşdirir: {p['price']} manat qarşılığında {p['gb']} GB internet, müddəti {VALIDITY[p['days']]}.{scope} Bütün paketlərin siyahısını *200# menyusunda görə bilərsiniz.",
                   mood='none', n=1)
    for z, zd in ZONES.items():
        for days, (gb, price, code) in [(7, zd['p7']), (30, zd['p30'])]:
            yield item(('roaminq', code), [f"{code} hansı roaminq paketidir?", f"{code} kodu nəyi aktivləşdirir?"],
                       f"{code} kodu Zona {z} ölkələri ({ZONE_AREA[z]}) üçün {days} günlük {gb} GB roaminq paketini aktivləşdirir, qiyməti {price} manatdır. "
                       "Paket xaricdə şəbəkəyə qoşulduğunuz andan işləməyə başlayır. Bütün roaminq paketləri *400# menyusundadır.",
                       mood='none', n=1)

def balance_vs_fee():
    rng = random.Random(SEED + 5)
    for t in TARIFFS:
        for b in rng.sample([2, 5, 8, 12, 20, 30], 2):
            p = t['price']
            if b > p:
                a = (f"Bəli, {t['name']} tarifinin aylıq haqqı {p} AZN olduğu üçün {b} manat kifayət edir. Abunə haqqı tutulduqdan sonra balansınızda {b - p} AZN qalacaq. "
                     "Növbəti ödəniş tarixini *102# ilə öyrənə bilərsiniz.")
            elif b == p:
                a = (f"Bəli, {t['name']} tarifinin aylıq haqqı düz {p} AZN təşkil edir, ona görə paket yenilənəcək, lakin balansınızda vəsait qalmayacaq. "
                     "Paketdən kənar xidmətlər üçün balansı əvvəlcədən bir qədər artırmağınızı tövsiyə edirik.")
            else:
                a = (f"Təəssüf ki, {b} manat kifayət etmir: {t['name']} tarifinin aylıq haqqı {p} AZN təşkil edir, yəni daha {p - b} AZN lazımdır. "
                     "Vəsait çatmadıqda paket yenilənmir və xidmətlər paketdənkənar qiymətlərlə hesablanır. Balansı artırdıqdan sonra paket 24 saat ərzində avtomatik yenilənəcək.")
            yield item((t['name'], b), [f"Balansımda {b} manat var, {t['name']} tarifinin abunə haqqı tutulacaq?", f"{t['name']} tarifindəyəm, balansda {b} manat qalıb. Paketim yenilənəcək?"],
                       a, mood='none', n=2)

def balance_vs_package():
    rng = random.Random(SEED + 6)
    amounts = [(0.5, '50 qəpik'), (1, '1 manat'), (2, '2 manat'), (3, '3 manat'), (5, '5 manat'), (10, '10 manat'), (20, '20 manat')]
    for p in PACKAGES:
        for b, txt in rng.sample(amounts, 2):
            if b >= p['price']:
                left = b - p['price']
                rest = f"alışdan sonra balansınızda {m(left)} AZN qalacaq" if left else 'alışdan sonra balansınızda vəsait qalmayacaq'
                a = f"Bəli, {p['name']} paketinin qiyməti {p['price']} manatdır, ona görə balansınız kifayət edir; {rest}. Paketi {p['code']} yığaraq aktivləşdirin."
            else:
                a = (f"Təəssüf ki, {p['name']} paketinin qiyməti {p['price']} manatdır, balansınızda isə {txt} var. "
                     f"Əvvəlcə balansı ən azı {m(max(1, p['price'] - b))} manat artırmalısınız; bunu AzTel tətbiqində bank kartı ilə komissiyasız edə bilərsiniz. "
                     f"Ödənişdən sonra paketi {p['code']} yığaraq alın.")
            yield item((p['name'], b), [f"Balansımda {txt} var. {p['name']} paketini ala bilərəm?", f"Hesabımda {txt} qalıb, {p['name']} paketinə pulum çatır?"],
                       a, mood='none', n=2)

def reward_cost():
    gifts = {300: 'bu xallarla 7 gün qüvvədə olan 1 GB internet əldə edirsiniz', 500: 'bu xallarla 30 gün qüvvədə olan 100 dəqiqə əldə edirsiniz',
             1000: 'bu xallar əsas balansınıza 3 AZN kimi yazılır', 1500: 'bu xallarla 30 gün qüvvədə olan 10 GB internet əldə edirsiniz'}
    for pts, qs in [(300, ["1 GB hədiyyə internet üçün neçə xal lazımdır?", "Bonus xalları ilə 1 GB internet almaq üçün nə qədər xal yığmalıyam?"]),
                    (500, ["100 hədiyyə dəqiqə üçün neçə xal lazımdır?", "Xallarla 100 dəqiqə almaq olar? Neçə xal tələb olunur?"]),
                    (1000, ["Xalları balansa 3 manata dəyişmək üçün neçə xal lazımdır?", "Neçə xalı balansa pul kimi köçürmək olar?"]),
                    (1500, ["10 GB hədiyyə internet neçə xaldır?", "Bonus xalları ilə 10 GB internet almaq üçün nə qədər xal lazımdır?"])]:
        yield item(pts, qs, f"Bunun üçün {pts} xal lazımdır: {gifts[pts]}. Hər 1 AZN xərc üçün 10 xal yazıldığından {pts} xal toplamaq xidmətlərə təxminən {pts // 10} AZN xərcləmək deməkdir. "
                            "Xallarınızı *300# menyusundan və ya AzTel tətbiqinin \"Bonus\" bölməsindən hədiyyəyə dəyişə bilərsiniz.",
                   mood='none', n=2)

def fiber_change():
    for a in FIBER:
        for b in FIBER:
            if a is b: continue
            if b['speed'] > a['speed']:
                ans = (f"Daha sürətli tarifə keçid AzTel tətbiqinin \"Ev interneti\" bölməsindən və ya 111 vasitəsilə edilir və bir neçə dəqiqə ərzində aktivləşir. "
                       f"{b['name']} tarifi saniyədə {b['speed']} meqabit sürət təklif edir, aylıq haqqı isə {b['price']} AZN təşkil edir. "
                       "Cari dövrün qalan günləri üçün yeni tarifin haqqı mütənasib hesablanır.")
            else:
                ans = (f"Daha yavaş tarifə keçid növbəti ödəniş dövründən qüvvəyə minir; o vaxtadək {a['name']} tarifinin sürəti ilə istifadə etməyə davam edəcəksiniz. "
                       f"Növbəti dövrdən aylıq haqq {a['price']} AZN əvəzinə {b['price']} AZN olacaq. Keçidi AzTel tətbiqinin \"Ev interneti\" bölməsindən və ya 111 vasitəsilə sifariş edə bilərsiniz.")
            yield item((a['name'], b['name']), [f"{a['name']} tarifindən {b['name']} tarifinə keçmək istəyirəm. Nə vaxt qüvvəyə minəcək?", f"Ev internetimi {a['name']} tarifindən {b['name']} tarifinə dəyişmək olar?"],
                       ans, mood='none', n=2)

def iot_sim():
    for n in [10, 25, 50, 120]:
        yield item(n, [f"{n} GPS izləyici üçün SIM kart lazımdır. Nə qədər başa gələr?", f"Şirkətimizə {n} POS terminal üçün SIM kart lazımdır, aylıq xərc nə qədər olar?"],
                   f"Bunun üçün IoT SIM kartlarımız var: hər kartın aylıq haqqı 2 manatdır və ona 500 MB internet daxildir. {n} kart üçün aylıq xərc {n} × 2 = {2 * n} AZN olacaq. "
                   "IoT SIM yalnız korporativ müqavilə əsasında verilir və \"AzTel Biznes\" kabinetindən toplu şəkildə idarə olunur.", n=2)

def lines_per_person():
    for k in range(1, 6):
        if k < 5:
            a = (f"Bəli, bir şəxsin adına ən çox 5 nömrə qeydiyyata alına bilər, sizin isə {k} nömrəniz var, yəni daha {5 - k} nömrə ala bilərsiniz. "
                 "Yeni nömrə üçün şəxsiyyət vəsiqənizlə ofisə yaxınlaşın və ya AzTel tətbiqinin \"Yeni nömrə\" bölməsindən sifariş edin.")
        else:
            a = ("Təəssüf ki, bir şəxsin adına ən çox 5 nömrə qeydiyyata alına bilər və siz artıq bu həddə çatmısınız. "
                 "Yeni nömrə üçün mövcud nömrələrdən birini bağlatdırmalı və ya başqasının adına keçirməlisiniz.")
        a += ' Adınıza qeydiyyatda olan nömrələri tətbiqin "Nömrələrim" bölməsində görə bilərsiniz.'
        yield item(k, [f"Adıma {k} nömrə qeydiyyatdadır. Daha bir nömrə ala bilərəm?", f"Mənim adıma artıq {k} nömrə var, yenisini götürmək olar?"],
                   a, mood='none', n=2)

def inactivity():
    for mo in [2, 4, 5, 6, 8, 10, 14]:
        if mo < 5:
            a = ("Nömrəniz hələ aktivdir və bağlanmayıb: ön ödənişli nömrə yalnız 6 ay ərzində heç bir ödənişli əməliyyat aparılmadıqda bağlanır. "
                 "Nömrəni saxlamaq üçün bu müddətdə ən azı bir dəfə, məsələn, balansı artırmağınız kifayətdir.")
        elif mo == 5:
            a = ("Nömrəniz hələ aktivdir, lakin 6 aylıq həddə təxminən bir ay qalıb; bağlanmadan 30 gün əvvəl sizə xəbərdarlıq SMS-i göndərilir. "
                 "Nömrəni saxlamaq üçün indi balansı artırın və ya istənilən ödənişli əməliyyat edin.")
        elif mo < 12:
            a = ("Ön ödənişli nömrə 6 ay ərzində ödənişli əməliyyat aparılmadıqda bağlanır, ona görə nömrəniz çox güman ki, artıq bağlanıb. "
                 "Narahat olmayın: bağlanmış nömrə 6 ay ərzində heç kimə verilmir, şəxsiyyət vəsiqənizlə ofisə yaxınlaşıb onu bərpa etdirə bilərsiniz (yeni SIM kart 2 AZN). "
                 "Bağlanma zamanı balansdakı vəsait və paketlər isə bərpa olunmur.")
        else:
            a = (f"{mo} ay ərzində istifadə edilmədiyi üçün nömrə 6 aydan sonra bağlanıb, bağlandıqdan sonrakı 6 aylıq qoruma müddəti də artıq bitib. "
                 "Bu halda nömrə yenidən satışa çıxarıla bilər. Nömrənin hələ boş olub-olmadığını öyrənmək üçün şəxsiyyət vəsiqənizlə ofisə yaxınlaşın və ya 111-ə zəng edin.")
        yield item(mo, [f"Nömrəmdən {mo} aydır istifadə etmirəm. Nömrə bağlanıb?", f"{mo} aydır ön ödənişli nömrəmdə heç bir əməliyyat etməmişəm. Nömrəm aktivdir?"],
                   a, mood='none', n=2)

AGE_SUBJECTS = [  # question subject, "for whom" in the answer, whose name the number must carry, ages
    ('Mənim {a} yaşım var', 'Sizin üçün', 'sizin', [16, 20, 25, 26, 31, 45, 62]),
    ('Oğlum {a} yaşındadır', 'Oğlunuz üçün', 'oğlunuzun', [10, 12, 15, 19]),
    ('Qızım {a} yaşındadır', 'Qızınız üçün', 'qızınızın', [11, 14, 17, 23]),
    ('Atam {a} yaşındadır', 'Atanız üçün', 'atanızın', [58, 61, 66]),
    ('Anam {a} yaşındadır', 'Ananız üçün', 'ananızın', [55, 63, 67]),
    ('Nənəm {a} yaşındadır', 'Nənəniz üçün', 'nənənizin', [72, 78]),
    ('Babam {a} yaşındadır', 'Babanız üçün', 'babanızın', [70, 81]),
]

def age_tariff():
    for subj, for_whom, whose, ages in AGE_SUBJECTS:
        for a in ages:
            if a < 14:
                ans = (f"Gənc tarifi 14 yaşdan başladığı üçün {a} yaşında uşaqlar üçün hələ əlçatan deyil. Kiçik yaşlı uşaqlar üçün Start tarifi (ayda 6 AZN: 4 GB, 100 dəqiqə, 100 SMS) adətən kifayət edir. "
                       "Nömrəni AzTel tətbiqində \"Nömrələrim\" bölməsinə əlavə etsəniz, balansı izləyə və uzaqdan artıra bilərsiniz.")
            elif a <= 25:
                ans = (f"{for_whom} ən sərfəli seçim Gənc tarifidir: ayda 8 AZN qarşılığında 20 GB internet, 200 dəqiqə və 100 SMS. Qoşulmaq üçün *105*6# yığın. "
                       f"Yaş nömrənin qeydiyyatda olduğu şəxsin vəsiqəsinə görə yoxlanılır, ona görə nömrə {whose} adına qeydiyyatda olmalıdır. 26 yaş tamam olduqda nömrə avtomatik olaraq Smart tarifinə keçirilir.")
            elif a < 60:
                ans = (f"Bu yaş üçün xüsusi tarif yoxdur, seçim istifadə vərdişlərindən asılıdır. Ən populyar variantlar Smart (ayda 10 AZN: 12 GB, 300 dəqiqə) və Smart Plus (ayda 15 AZN: 25 GB, 600 dəqiqə) tarifləridir. "
                       "Çox danışıb az internet işlədənlər üçün isə 1000 dəqiqəlik Danışıq tarifi (ayda 7 AZN) daha sərfəlidir.")
            else:
                ans = (f"{for_whom} ən uyğun seçim Qayğı tarifidir: ayda 4 AZN qarşılığında 300 dəqiqə, 2 GB internet və 50 SMS. Tarif 60 yaşdan yuxarı müştərilər üçündür və nömrə {whose} adına qeydiyyatda olmalıdır. "
                       "Şərt ödənilirsə, *105*8# yığmaq kifayətdir.")
            q = subj.format(a=a)
            qs = [f"{q}. Hansı tarif daha uyğundur?", f"{q}, hansı tarifi məsləhət görərsiniz?"]
            if 'Mənim' in q: qs.append(f"{a} yaşım var, mənə sərfəli tarif hansıdır?")
            yield item((subj, a), qs, ans, mood='none', n=2)

TERMINATION = [
    dict(nom='fakturalı xətt', q=['Fakturalı xəttimi bağlamaq istəyirəm. Nə etməliyəm?', 'fakturalı xəttimdən imtina etmək istəyirəm, necə edim?', 'Fakturalı xətt necə bağlatdırılır?'], a="Fakturalı xəttin müqaviləsinə xitam vermək üçün şəxsiyyət vəsiqənizlə istənilən AzTel ofisinə yaxınlaşın. Ofisdə cari ay üzrə yekun hesablama aparılacaq və borcunuz varsa, onu ödəməli olacaqsınız. Müqaviləyə həmin gün xitam verilir. Nömrəni saxlamaq istəyirsinizsə, bağlamaq əvəzinə ön ödənişli xəttə keçə bilərsiniz."),
    dict(nom='ön ödənişli nömrə', q=['Ön ödənişli nömrəmi bağlatdırmaq istəyirəm. Nə etməliyəm?', 'Nömrəmi rəsmi olaraq bağlatdırmaq üçün nə lazımdır?', 'artıq istifadə etmədiyim nömrəni necə bağlatdırım?'], a="Ön ödənişli nömrəni rəsmi bağlatdırmaq üçün şəxsiyyət vəsiqənizlə istənilən AzTel ofisinə yaxınlaşın, bu xidmət pulsuzdur. Balansdakı vəsait nağd qaytarılmır, ona görə qalığı əvvəlcədən başqa AzTel nömrəsinə köçürə bilərsiniz (bir köçürmədə ən çox 5 manat). Bağlanmış nömrə 6 ay ərzində heç kimə verilmir."),
    dict(nom='fiber internet müqaviləsi', q=['Fiber internet müqaviləmi ləğv etmək istəyirəm. Nə etməliyəm?', 'Ev internetindən imtina etsəm, cərimə olacaq?', 'Fiber internetə xitam vermək üçün nə lazımdır?'], a="Fiber internet müqaviləsini ləğv etmək üçün şəxsiyyət vəsiqənizlə ofisə yaxınlaşın. Adi müqavilədə cərimə yoxdur, sadəcə cari ay üzrə borcu ödəməli və routeri 10 gün ərzində qaytarmalısınız; router qaytarılmadıqda onun dəyəri, yəni 60 AZN fakturaya əlavə olunur. 12 aylıq kampaniya müqaviləsi müddət bitməmiş ləğv edildikdə isə 30 AZN kompensasiya tutulur."),
    dict(nom='Ev 4G xidməti', q=['Ev 4G xidmətimi dayandırmaq istəyirəm. Nə etməliyəm?', 'Ev 4G-dən imtina etsəm, routeri qaytarmalıyam?'], a="Ev 4G xidmətini dayandırmaq üçün 111-ə zəng edin və ya şəxsiyyət vəsiqənizlə ofisə yaxınlaşın, bunun üçün cərimə tutulmur. Router birdəfəlik ödənişlə alındığı üçün sizin mülkiyyətinizdədir və onu qaytarmaq lazım deyil. İstəsəniz, ünvanınızda fiber şəbəkə yarandıqda fiber internetə keçə bilərsiniz."),
    dict(nom='AzTel TV xidməti', q=['AzTel TV xidmətindən imtina etmək istəyirəm. Necə edim?', 'AzTel TV-ni necə ləğv edə bilərəm?'], a="AzTel TV xidmətindən imtina etmək üçün 111-ə zəng edin və ya ofisə müraciət edin; ev internetiniz bundan təsirlənməyəcək. Xidmətin aylıq haqqı (6 AZN) növbəti dövrdən etibarən tutulmayacaq. Müqavilə müddətində pulsuz verilmiş TV qutusunu isə ofisə qaytarmağınız xahiş olunur."),
    dict(nom='korporativ müqavilə', q=['Korporativ müqaviləmizi ləğv etmək istəyirik. Proses necədir?', 'Şirkətimiz AzTel ilə korporativ müqaviləyə xitam vermək istəyir. Nə etməliyik?'], a="Korporativ müqaviləyə xitam vermək üçün şirkət ən azı 30 gün əvvəl rəhbər tərəfindən imzalanmış və möhürlə təsdiqlənmiş yazılı bildiriş təqdim etməlidir. Bu müddətdə yekun hesablaşma aparılır. Nömrələr isə istəyə görə işçilərin adına keçirilə, başqa operatora daşına və ya bağlana bilər. Ətraflı məlumat üçün korporativ menecerinizlə əlaqə saxlayın."),
]

def termination():
    for t in TERMINATION:
        yield item(t['nom'], t['q'], t['a'], mood='none', n=2)

STATIC = [  # topic, phrasings, answers (slot-free topics; all phrasings are used)

    ('balance', ["Hesabımda nə qədər pul qaldığını necə öyrənə bilərəm?", "balansıma necə baxım?", "Balans yoxlama kodu hansıdır?",
                 "Zəhmət olmasa, deyin, balansımı necə yoxlayım?"],
     ["Balansınızı yoxlamaq üçün *100# yığıb zəng düyməsini sıxın; ekranda əsas və bonus balansınız görünəcək. Bu əməliyyat pulsuzdur və sıfır balansda da işləyir. Balansı AzTel tətbiqinin ana səhifəsində də görə bilərsiniz.",
      "*100# yığın, bir neçə saniyə sonra balansınız ekranda göstəriləcək. Kod pulsuzdur. Bundan əlavə, 100 nömrəsinə boş SMS göndərsəniz, balans barədə məlumat cavab SMS-i ilə gələcək."]),
    ('remaining', ["Paketimdə nə qədər internet qalıb, necə baxım?", "qalan dəqiqələrimi haradan görüm?", "Qalan internet həcmini yoxlamaq üçün nə yığmalıyam?"],
     ["Qalan internet, dəqiqə və SMS həcmini öyrənmək üçün *101# yığın. Cavabda hər paket üzrə qalıq ayrıca göstəriləcək. Eyni məlumatı AzTel tətbiqində \"Paketlərim\" bölməsində də izləyə bilərsiniz."]),
    ('own_number', ["Nömrəmi necə öyrənim?", "öz nömrəm yadımdan çıxıb, nə yığım?", "Bu SIM kartın nömrəsini necə bilə bilərəm?"],
     ["*150# yığıb zəng düyməsini sıxın, nömrəniz ekranda göstəriləcək. Bu xidmət pulsuzdur və balansınızda vəsait olmasa belə işləyir."]),
    ('puk', ["PIN kodu üç dəfə səhv yığdım, telefon PUK istəyir. Nə edim?", "SIM kartım bloklanıb, PUK kodu haradan tapım?", "PUK kodu nədir?"],
     ["PUK kodu PIN kod üç dəfə səhv daxil edildikdə SIM kartı açmaq üçün lazım olan 8 rəqəmli koddur və SIM kartın çıxarıldığı plastik kartın üzərində yazılır. Kart əlinizdə deyilsə, başqa telefondan 111-ə zəng edin: şəxsiyyətiniz təsdiqləndikdən sonra operator PUK kodu sizə deyəcək. Diqqət edin, PUK kod 10 dəfə səhv daxil edilərsə, SIM kart tam bloklanır və onu ofisdə dəyişmək lazım gəlir."]),
    ('sim_swap', ["SIM kartım işləmir, dəyişmək istəyirəm. Qiyməti nə qədərdir?", "Yeni SIM kart almaq lazımdır, nömrəm eyni qalacaq?", "SIM kartı dəyişmək neçəyədir?"],
     ["Şəxsiyyət vəsiqənizlə istənilən AzTel ofisinə yaxınlaşın, eyni nömrə ilə yeni SIM kart dərhal veriləcək. Xidmət haqqı 2 manatdır, köhnə SIM kartı 4G/5G kartla əvəz etmək isə pulsuzdur. Balansınız, tarifiniz və qoşulu xidmətləriniz olduğu kimi qalacaq."]),
    ('esim_new_phone', ["Telefonumu dəyişdim, eSIM-i yeni telefona necə keçirim?", "eSIM-i başqa telefona köçürmək olar?"],
     ["eSIM profili bir telefona bağlı olduğu üçün yeni cihaz üçün yeni QR kod lazımdır. AzTel tətbiqində \"eSIM-i yeni cihaza köçür\" bölməsindən və ya ofisdə yeni QR kod ala bilərsiniz, xidmət haqqı 2 manatdır. Yeni telefonda eSIM aktivləşən kimi köhnə telefondakı profil işləməyi dayandıracaq."]),
    ('kepez', ["Kəpəz Mobil-dən AzTel-ə keçmək istəyirəm. Nömrəm dəyişəcək?", "Kəpəz Mobil nömrəmi saxlayıb AzTel-ə keçə bilərəm?"],
     ["Nömrəniz dəyişməyəcək: nömrə daşınması xidməti ilə Kəpəz Mobil nömrənizi saxlayaraq AzTel abunəçisi ola bilərsiniz. Müraciət üçün şəxsiyyət vəsiqənizlə AzTel ofisinə yaxınlaşın və ya tətbiqdə \"Nömrəni AzTel-ə keçir\" bölməsindən istifadə edin; xidmət pulsuzdur və keçid 1-3 iş günü çəkir. Nəzərə alın ki, operatorlar arasında balans köçürülmür, ona görə köhnə balansınızı əvvəlcədən istifadə edin."]),
    ('kepez_balance', ["Kəpəz Mobil-də qalan balansım AzTel-ə keçəcək?", "Nömrəni Kəpəz Mobil-dən AzTel-ə keçirəndə köhnə balans nə olur?"],
     ["Təəssüf ki, xeyr: operatorlar arasında balans köçürülmür. Ona görə müraciətdən əvvəl Kəpəz Mobil-dəki balansınızı mümkün qədər istifadə etməyi tövsiyə edirik. Qalıq məbləğin qaytarılması ilə bağlı isə Kəpəz Mobil-ə müraciət edə bilərsiniz."]),
    ('call_center', ["Çağrı Mərkəzi gecə də işləyir?", "111 neçəyə qədər işləyir?", "Operatorla hansı saatlarda danışmaq olar?"],
     ["AzTel Çağrı Mərkəzi həftənin yeddi günü, 24 saat fəaliyyət göstərir. AzTel nömrəsindən 111-ə zəng pulsuzdur, başqa operatorların nömrələrindən və xaricdən isə +994 12 111 01 11 nömrəsinə zəng edə bilərsiniz. Menyuda 0 düyməsini sıxaraq operatora qoşulmaq olar."]),
    ('complaint_status', ["Müraciətimə baxılıb, necə öyrənim?", "şikayətimin nə yerdə olduğunu haradan bilim?"],
     ["Müraciətinizin statusunu AzTel tətbiqində \"Müraciətlər\" bölməsində görə bilərsiniz, hər müraciətin yanında onun mərhələsi göstərilir. Bundan əlavə, 111-ə zəng edib müraciət nömrənizi bildirməklə də məlumat ala bilərsiniz. Adi şikayətlərə 3, texniki araşdırma tələb edənlərə isə 5 iş gününə qədər cavab verilir."]),
    ('birthday', ["Ad günündə AzTel nə hədiyyə verir?", "ad günümə hədiyyə internet düşür?"],
     ["Ad gününüzdə AzTel Bonus üzvlərinə 3 gün qüvvədə olan 5 GB hədiyyə internet avtomatik verilir. Bunun üçün nömrə sizin adınıza qeydiyyatda olmalıdır, çünki tarix şəxsiyyət vəsiqəsinin məlumatlarına əsasən müəyyənləşdirilir. Proqrama hələ qoşulmamısınızsa, *300*1# yığın."]),
    ('referral', ["Dostumu AzTel-ə gətirsəm, nə qazanıram?", "Dəvət kodu ilə bonus necə alınır?"],
     ["AzTel tətbiqinin \"Bonus\" bölməsində şəxsi dəvət kodunuzu tapıb dostunuzla paylaşın. Dostunuz yeni AzTel nömrəsi alıb və ya nömrəsini AzTel-ə keçirib bu kodu tətbiqdə daxil etdikdə hər ikinizə 30 gün qüvvədə olan 5 GB internet hədiyyə olunur. Dəvət etdiyiniz dostların sayı məhdud deyil."]),
    ('roaming_on', ["Xaricə getməzdən əvvəl roaminqi necə açım?", "roaminq ayrıca qoşulmalıdır?"],
     ["AzTel nömrələrində roaminq avtomatik aktivdir, ayrıca qoşulmağa ehtiyac yoxdur. Səfərdən əvvəl balansınızda ən azı 5 AZN olduğuna əmin olun. Xaricdə internet üçün telefonda \"Məlumat roaminqi\"ni yandırın və xərclərə qənaət üçün *400# menyusundan roaminq paketi seçin; əvvəllər roaminqi *400*0# ilə bağlamısınızsa, *400*1# yığaraq yenidən açın."]),
    ('thanks', ["Çox sağ olun!", "Təşəkkürlər, hər şey aydındır.", "sağ olun, kömək etdiniz", "Minnətdaram, sualım qalmadı."],
     ["Dəyməz! Başqa sualınız yaranarsa, istənilən vaxt yazın. Gününüz xoş keçsin!",
      "Sizə kömək edə bildiyimizə şadıq. AzTel xidmətləri ilə bağlı yeni sualınız olsa, məmnuniyyətlə cavab verərik."]),
    ('router_light', ["Fiber routerdə LOS işığı qırmızı yanır.", "routerdə qırmızı işıq var, internet getdi"],
     ["Routerdəki qırmızı LOS işığı fiber xəttində siqnal olmadığını göstərir. Zəhmət olmasa, optik kabelin routerə və divardakı qutuya möhkəm taxıldığını və əyilmədiyini yoxlayın, sonra routeri yenidən başladın. Qırmızı işıq qalırsa, 111-ə zəng edin; problem bizim şəbəkəmizlə bağlıdırsa, ustanın gəlişi pulsuzdur."]),
]

STATIC_MOOD = {'puk': 'problem', 'sim_swap': 'problem', 'router_light': 'problem', 'kepez_balance': 'none', 'thanks': 'none'}

def static_templates():
    for topic, qs, ans in STATIC:
        yield item(topic, qs, ans, mood=STATIC_MOOD.get(topic, 'info'), n=len(qs), greet=topic != 'thanks')

TEMPLATES = [  # (topic, generator)
    ('tarif_qiymət', tariff_price), ('tarif_tərkibi', tariff_contents), ('tarif_keçid', tariff_switch),
    ('tarif_müqayisə', tariff_compare), ('tarif_tövsiyə', tariff_recommend), ('tarif_internet_bitdi', tariff_data_runs_out),
    ('paket_qiymət', package_price), ('paket_tövsiyə', package_recommend), ('paket_toplanma', package_stack),
    ('paket_hədiyyə', package_gift), ('paketdənkənar', out_of_package), ('roaminq_qiymət', roaming_prices),
    ('roaminq_səfər', roaming_trip), ('roaminq_gələn_zəng', roaming_incoming), ('roaminq_zəng_xərci', roaming_call_cost),
    ('beynəlxalq_zəng', intl_calls), ('roaminq_itmiş_telefon', roaming_lost_phone), ('ofis_ünvan', region_office),
    ('ofis_gün', region_office_day), ('region_5g', region_5g), ('region_fiber', region_fiber), ('region_yeni_nömrə', region_new_sim),
    ('region_kuryer', region_courier), ('region_esim', region_esim), ('region_daşınma', region_porting),
    ('region_itmiş_telefon', region_lost_phone), ('region_şikayət', region_complaint), ('region_səfər', region_travel),
    ('cihaz_parametrləri', device_settings), ('xidmətlər', service_templates), ('ussd', ussd_templates),
    ('ödəniş_üsulu', payment_templates), ('ödəniş_limiti', topup_limits), ('balans_köçürmə', balance_transfer),
    ('borc_balans', borrow_balance), ('faktura_ay', bill_month), ('faktura_gecikmə', bill_late), ('ailə', family_plan),
    ('korporativ', corporate_cost), ('bonus_xal', bonus_points), ('bonus_qazanc', bonus_earn), ('fiber', fiber_templates),
    ('limitsiz_həd', limitsiz_fair_use), ('limitsiz_hotspot', limitsiz_hotspot), ('gecə_paketi', night_package),
    ('yaş_tarif', age_tariff), ('ləğv', termination), ('ümumi', static_templates),
    ('paket_müqayisə', package_compare), ('tarif_və_paket', tariff_plus_package), ('tarif_dəyişmə', tariff_move),
    ('tarif_və_xidmət', tariff_with_service), ('tarif_dəyişmə_haqqı', tariff_change_count), ('roaminq_sms', roaming_sms),
    ('roaminq_internet_xərci', roaming_data_cost), ('roaminq_paket_kodu', roaming_pack_code), ('roaminq_limit', roaming_limit),
    ('region_quraşdırma', region_install), ('region_sahib_dəyişmə', region_owner_change), ('cihaz_esim', device_esim),
    ('kod_axtarışı', code_lookup), ('balans_və_abunə', balance_vs_fee), ('balans_və_paket', balance_vs_package),
    ('bonus_hədiyyə_qiyməti', reward_cost), ('fiber_dəyişmə', fiber_change), ('iot', iot_sim),
    ('nömrə_sayı', lines_per_person), ('istifadəsiz_nömrə', inactivity),
]

# ----------------------------------------------------------------------------------------------
# Composition, merge, split, checks
# ----------------------------------------------------------------------------------------------
OPENERS = {
    'info': ['', '', '', 'Əlbəttə.', 'Məmnuniyyətlə izah edirəm.', 'Sualınız üçün təşəkkür edirik.', 'Qısaca izah edim.'],
    'howto': ['', '', '', 'Əlbəttə.', 'Bu, çox asandır.', 'Məmnuniyyətlə kömək edirəm.'],
    'problem': ['', '', 'Narahat olmayın, bunun həlli var.', 'Başa düşürük, bu xoşagəlməz haldır.'],
    'none': [''],
}
PROPER = {'AzTel', 'AzTel-in', 'Çağrı', 'Kəpəz', 'Ev', 'Fiber', 'Gecə', 'Sosial', 'Video', 'Dünya', 'SMS', 'Biznes', 'Ailə'}
PROPER |= {t['name'].split()[0] for t in TARIFFS} | {p['name'].split()[0] for p in PACKAGES}
PROPER |= {c['loc'].split()[0] for c in COUNTRIES} | {c['dat'].split()[0] for c in COUNTRIES} | {c['nom'].split()[0] for c in COUNTRIES}
PROPER |= {r[k] for r in REGIONS for k in ('loc', 'dat', 'lki', 'nom')} | {d['name'] for d in DEVICES}

NO_OPENER = ('Bəli', 'Xeyr', 'Təəssüf', 'Hələ ki')  # answers that open with yes/no need no opener

def n_sentences(text):
    return len([s for s in re.split(r'(?<=[.!?])\s+', text.strip()) if s])

def greetable(q):
    word = re.split(r'[\s,.:?!]', q, maxsplit=1)[0]
    return word not in PROPER and word[1:].islower() and not q.startswith('Salam')

def compose(rng):
    pairs = []
    for topic, gen in TEMPLATES:
        for it in gen():
            group = json.dumps([topic, it['key']], ensure_ascii=False)
            answers = rng.sample(it['a'], len(it['a']))
            for i, q in enumerate(rng.sample(it['q'], min(it['n'], len(it['q'])))):
                a = answers[i % len(answers)]
                if it['greet'] and greetable(q) and rng.random() < 0.08:
                    q, a = 'Salam, ' + low(q), 'Salam! ' + a
                else:
                    opener = rng.choice(OPENERS[it['mood']])
                    if opener and '\n' not in a and n_sentences(a) <= 4 and not a.startswith(NO_OPENER): a = opener + ' ' + a
                pairs.append(dict(q=q, a=a, group=group, topic=topic))
    return pairs

def norm_q(q):
    return ' '.join(unicodedata.normalize('NFC', q).casefold().split()).strip(' ?!.')

def record(q, a, system, source):
    msgs = ([{'role': 'system', 'content': system}] if system else []) + [
        {'role': 'user', 'content': q}, {'role': 'assistant', 'content': a}]
    for msg in msgs: msg['content'] = unicodedata.normalize('NFC', msg['content'])
    return {'messages': msgs, 'source': source}

TURKISH = re.compile(r'\b(için|şimdi|hizmet\w*|fatura\w*|değil|ediyor\w*|\w+iyor(um|sun|uz|lar)?)\b', re.I)

def check(rows):
    """Fail loudly on anything that breaks the format or the spelling rules."""
    for r in rows:
        roles = [x['role'] for x in r['messages']]
        assert roles in (['user', 'assistant'], ['system', 'user', 'assistant']), roles
        assert set(r) == {'messages', 'source'} and r['source'] in ('handwritten', 'template')
        for x in r['messages']:
            t = x['content']
            assert t.strip() and unicodedata.is_normalized('NFC', t), t
            assert not re.search(r'[äÄ\u0400-\u04FF]', t), t
            assert not TURKISH.search(t), (TURKISH.search(t).group(), t)
            assert '{' not in t and '}' not in t, t

def main():
    rng = random.Random(SEED)
    handwritten = [json.loads(line) for line in (HERE / 'handwritten.jsonl').read_text(encoding='utf-8').splitlines() if line.strip()]
    seen, hw = set(), []
    for r in handwritten:
        k = norm_q(r['messages'][-2]['content'])
        if k not in seen: seen.add(k); hw.append(r)
    composed, dropped = [], 0
    for p in compose(rng):
        k = norm_q(p['q'])
        if k in seen: dropped += 1; continue
        seen.add(k); composed.append(p)
    for p in composed:
        p['rec'] = record(p['q'], p['a'], rng.choice(SYSTEM_PROMPTS) if rng.random() < 0.5 else None, 'template')

    # Handwritten pairs: 10% to valid. Template pairs: split by slot combination (all phrasings of
    # one combination stay on the same side), 10% of combinations to valid.
    order = list(range(len(hw))); rng.shuffle(order)
    n_hw_valid = round(len(hw) * VALID_SHARE)
    hw_valid = {i for i in order[:n_hw_valid]}
    groups = sorted({p['group'] for p in composed}); rng.shuffle(groups)
    valid_groups = set(groups[:round(len(groups) * VALID_SHARE)])
    train = [r for i, r in enumerate(hw) if i not in hw_valid] + [p['rec'] for p in composed if p['group'] not in valid_groups]
    valid = [r for i, r in enumerate(hw) if i in hw_valid] + [p['rec'] for p in composed if p['group'] in valid_groups]
    rng.shuffle(train); rng.shuffle(valid)

    check(train + valid)
    tq = {norm_q(r['messages'][-2]['content']) for r in train}
    vq = {norm_q(r['messages'][-2]['content']) for r in valid}
    assert not tq & vq and len(tq) == len(train) and len(vq) == len(valid)

    for name, rows in [('train.jsonl', train), ('valid.jsonl', valid)]:
        (HERE / name).write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows), encoding='utf-8')

    src = lambda rows, s: sum(r['source'] == s for r in rows)
    print(f"handwritten {len(hw)}, composed {len(composed)} (dropped {dropped} repeated questions), "
          f"templates {len(TEMPLATES)} topics / {len({p['group'] for p in composed})} slot combinations")
    for name, rows in [('train.jsonl', train), ('valid.jsonl', valid)]:
        print(f"{name}: {len(rows)} pairs ({src(rows, 'handwritten')} handwritten, {src(rows, 'template')} template, "
              f"{sum(r['messages'][0]['role'] == 'system' for r in rows)} with system turn), {(HERE / name).stat().st_size} bytes")
    print('composed per topic:', dict(Counter(p['topic'] for p in composed)))

if __name__ == '__main__':
    main()
