"""The eval stage on tiny models: the report and its stable keys, reruns that agree, adapters (a real SFT output), bad inputs."""
import json, math, time
from pathlib import Path
import pytest, torch, yaml
from conftest import DATA, ROOT, azllm_in

from azllm.core import AzllmError
from azllm.config import load_config
from azllm.generate import generate
from azllm.eval import EvalRun, run_eval, evaluate_model
from azllm.scoring import AZ_PROMPTS, load_for_eval, valid_documents
from azllm.eval_report import write_report, plot_bpb
from azllm.rundir import read_losses


pytestmark = pytest.mark.usefixtures('one_thread')     # (tests/conftest.py)


@pytest.fixture(scope='module')
def w(tmp_path_factory):
    "Two tokenizers, a CPT run (4 steps), an SFT run (2 steps, preset base saved under base/) and a random 600-token model."
    from azllm.tokenizer import train_tokenizer, save_tokenizer
    from azllm.data import read_documents
    from azllm.model import load_model
    from azllm.cpt import CPTRun, train
    from azllm.sft import SFTRun, run_sft
    d = tmp_path_factory.mktemp('eval')
    docs = list(read_documents(DATA/'az_train.txt'))[:150]
    save_tokenizer(train_tokenizer(docs, 1000), d/'tok-1k')
    tok600 = train_tokenizer(docs, 600); save_tokenizer(tok600, d/'tok-600')
    load_model('preset:llama-tiny', tok600).save_pretrained(d/'random-600'); tok600.save_pretrained(d/'random-600')
    train(CPTRun(output_dir=str(d/'cpt'), tokenizer=str(d/'tok-1k'), train_data=[str(DATA/'az_train.txt')], valid_data=[str(DATA/'az_valid.txt')],
                 seq_len=64, micro_batch=4, max_steps=4, lr=5e-3, warmup_steps=1, eval_every=100, eval_rows=2, save_every=100,
                 tensorboard=False), progress=False)
    chats = (DATA/'sft'/'train.jsonl').read_text(encoding='utf-8').splitlines()
    (d/'chats.jsonl').write_text('\n'.join(chats[:8]) + '\n', encoding='utf-8')
    run_sft(SFTRun(output_dir=str(d/'sft'), model='preset:llama-tiny', tokenizer=str(d/'tok-1k'), train_data=str(d/'chats.jsonl'),
                   valid_data=str(d/'chats.jsonl'), max_steps=2, micro_batch=4, seq_len=128, lora_r=4, log_every=1, tensorboard=False), progress=False)
    return d


def eval_cfg(w, out, **kw):
    cfg = dict(stage='eval', output_dir=str(out), valid_data=[str(DATA/'az_valid.txt')], max_docs=3, seq_len=64, micro_batch=8,
               prompts=AZ_PROMPTS[:2], max_new_tokens=6,
               models=[dict(name='cpt', path=str(w/'cpt'/'final')), dict(name='sft', path=str(w/'sft')),
                       dict(name='random-600', path=str(w/'random-600'))],
               runs={'cpt': str(w/'cpt'), 'sft': str(w/'sft')})
    cfg.update(kw)
    return cfg


def write_yaml(path, cfg):
    path.write_text(yaml.safe_dump(cfg, allow_unicode=True, sort_keys=False), encoding='utf-8')
    return path


def test_report_and_stable_keys(w, tmp_path):
    cfg = load_config(write_yaml(tmp_path/'eval.yml', eval_cfg(w, tmp_path/'out')), EvalRun)
    out = run_eval(cfg, progress=False)
    assert sorted(p.name for p in out.iterdir()) == ['.azllm-output.json', 'azllm_config.yml', 'bpb.png', 'fertility.png', 'loss_curves.png', 'report.json', 'report.md']
    rep = json.loads((out/'report.json').read_text())
    names = ['cpt', 'sft', 'random-600']
    for key in ('bpb', 'perplexity', 'fertility'): assert list(rep[key]) == names, key
    for n in names:
        v = rep['validation'][n]
        assert 0 < rep['bpb'][n] < 20 and rep['perplexity'][n] > 1
        assert rep['bpb'][n] == pytest.approx(v['loss'] / math.log(2) * v['tokens'] / v['bytes'], rel=1e-9)   # BPB from the same sums
        assert {'fertility', 'continued_words', 'bytes_per_token', 'vocab_size'} <= set(rep['fertility'][n])
    assert [rep['fertility'][n]['vocab_size'] for n in names] == [1000, 1000, 600]
    assert rep['validation']['sft']['adapter'] == str(w/'sft'/'final') and rep['validation']['sft']['path'] == str(w/'sft'/'final'/'base')
    assert [rep['validation'][n]['chat'] for n in names] == [False, True, False]        # auto: the chat template for the SFT model
    assert list(rep['generations']) == AZ_PROMPTS[:2] and all(list(g) == names for g in rep['generations'].values())
    assert rep['runs']['cpt']['train'][-1][0] == 4 and rep['runs']['cpt']['valid'][0][0] == 4      # log.jsonl
    assert [s for s, _ in rep['runs']['sft']['valid']] == [2]                                     # validation at the end
    assert EvalRun.model_validate(rep['config']) == cfg == load_config(out/'azllm_config.yml', EvalRun)
    md = (out/'report.md').read_text(encoding='utf-8')
    for s in ('| model | bits_per_byte |', '![Bits per byte](bpb.png)', '](fertility.png)', '](loss_curves.png)',
              f'| {AZ_PROMPTS[0]} |', 'sft (chat)', 'cpt (text)'):
        assert s in md, s
    # greedy decoding and deterministic scoring: a rerun writes the same figures
    again = json.loads((run_eval(cfg.model_copy(update=dict(output_dir=str(tmp_path/'again'))), progress=False)/'report.json').read_text())
    for key in ('bpb', 'perplexity', 'fertility', 'generations', 'validation'): assert again[key] == rep[key], key


def test_lower_level_api(w, tmp_path):
    docs = valid_documents(DATA/'az_valid.txt', max_docs=2)
    r = evaluate_model(str(w/'cpt'/'final'), docs, name='cpt', seq_len=64, prompts=AZ_PROMPTS[5:6], max_new_tokens=4)
    assert r['chat'] is False and list(r['generations']) == AZ_PROMPTS[5:6]
    # the same text as corpus paths, and the total bytes charged: the text less the tail that does not fill a window
    r2 = evaluate_model(str(w/'cpt'/'final'), [str(DATA/'az_valid.txt')], seq_len=64, max_windows=4)
    assert r2['windows'] == 4 and r2['generations'] == {}
    total = sum(len(d.encode()) for d in docs)
    assert total - 64 * 8 < r['bytes'] <= total
    model, tok, _ = load_for_eval(str(w/'sft'))
    a = [generate(model, tok, p, chat=True, max_new_tokens=5) for p in AZ_PROMPTS[:2]]
    assert a == [generate(model, tok, p, chat=True, max_new_tokens=5) for p in AZ_PROMPTS[:2]] and len(a) == 2
    # a pipeline's own sections next to the evaluation's
    import pandas as pd
    img = tmp_path/'elsewhere.png'; plot_bpb({'a': 1.0}).savefig(img)
    md = write_report(tmp_path/'rep', {'Timings': pd.DataFrame({'seconds': [1.25]}, index=pd.Index(['cpt'], name='stage')),
                                       'Stage 1': {'Sweep': ['text', img], 'BPB': plot_bpb({'a': 1.0, 'b': 2.0})}, 'Skipped': None},
                      data={'timings': {'cpt': 1.25}}, title='quickstart', intro='hello')
    text = md.read_text()
    assert text.startswith('# quickstart\n\nhello\n\n## Timings') and '| cpt | 1.250 |' in text and '### Sweep' in text
    assert '![Sweep](elsewhere.png)' in text and '![BPB](bpb.png)' in text
    assert sorted(p.name for p in (tmp_path/'rep').iterdir()) == ['bpb.png', 'elsewhere.png', 'report.json', 'report.md']
    with pytest.raises(AzllmError, match="cannot render a set"): write_report(tmp_path/'rep2', {'x': {1, 2}})


def test_zero_adapter_scores_like_its_base(w, tmp_path):
    from peft import LoraConfig, get_peft_model
    from azllm.model import load_model
    from transformers import AutoTokenizer
    lora = get_peft_model(load_model(str(w/'cpt'/'final')), LoraConfig(r=4, target_modules=['q_proj', 'v_proj'], task_type='CAUSAL_LM'))
    lora.save_pretrained(tmp_path/'lora')                      # no tokenizer: the base directory's is used
    docs = valid_documents(DATA/'az_valid.txt', max_docs=2)
    base = evaluate_model(str(w/'cpt'/'final'), docs, seq_len=64)
    adapted = evaluate_model(str(w/'cpt'/'final'), docs, adapter=str(tmp_path/'lora'), seq_len=64)
    assert adapted['bpb'] == pytest.approx(base['bpb'], rel=1e-6) and adapted['chat'] is True and adapted['tokenizer'] == str(w/'cpt'/'final')


def failed(fn, *needles):
    with pytest.raises(AzllmError) as e: fn()
    for n in needles: assert n in str(e.value), (n, str(e.value))


def test_bad_inputs(w, tmp_path, monkeypatch):
    out = tmp_path/'out'
    cfg = lambda **kw: EvalRun.model_validate(eval_cfg(w, out, **kw))
    t0 = time.time()
    failed(lambda: run_eval(cfg(models=[dict(name='phase2', path=str(tmp_path/'runs'/'cpt2'/'final'))])), "model 'phase2'", 'no such model directory')
    monkeypatch.chdir(tmp_path); (tmp_path/'runs').mkdir()
    failed(lambda: run_eval(cfg(models=[dict(name='phase2', path='runs/cpt2')])), "model 'phase2'", 'no such model directory')
    assert time.time() - t0 < 5                                                 # no retries against the Hub
    # an adapter without embeddings, trained on the 1,000-token CPT model, put on a 600-token model
    from peft import LoraConfig, get_peft_model
    from azllm.model import load_model
    get_peft_model(load_model(str(w/'cpt'/'final')), LoraConfig(r=4, target_modules=['q_proj'], task_type='CAUSAL_LM')).save_pretrained(tmp_path/'lora')
    failed(lambda: run_eval(cfg(models=[dict(name='lora-on-600', path=str(w/'random-600'), adapter=str(tmp_path/'lora'))])),
           "model 'lora-on-600'", 'trained on another base model', str(w/'cpt'/'final'))
    # the same, once its recorded base has moved away: the adapter's tokenizer does not fit the base and it brings no embeddings
    acfg = json.loads((tmp_path/'lora'/'adapter_config.json').read_text())
    (tmp_path/'lora'/'adapter_config.json').write_text(json.dumps(dict(acfg, base_model_name_or_path=str(tmp_path/'moved'))))
    from transformers import AutoTokenizer
    AutoTokenizer.from_pretrained(w/'tok-1k').save_pretrained(tmp_path/'lora')
    failed(lambda: run_eval(cfg(models=[dict(name='lora-on-600', path=str(w/'random-600'), adapter=str(tmp_path/'lora'))])),
           "model 'lora-on-600'", 'carries no embeddings')
    # the SFT adapter (it carries 1,000-row embeddings) read with a 600-token tokenizer
    failed(lambda: run_eval(cfg(models=[dict(name='sft-600', path=str(w/'sft'), tokenizer=str(w/'tok-600'))])),
           "model 'sft-600'", 'does not fit the base model')
    failed(lambda: run_eval(cfg(models=[dict(name='x', path=str(w/'tok-600'), adapter=str(w/'tok-600'))])), 'not an adapter directory')
    (tmp_path/'empty.txt').write_text('\n  \n')
    failed(lambda: run_eval(cfg(valid_data=[str(tmp_path/'empty.txt')])), 'holds no text', "'cpt', 'sft', 'random-600'")
    failed(lambda: evaluate_model(str(w/'cpt'/'final'), [], name='cpt'), "model 'cpt': the validation text is empty")
    failed(lambda: evaluate_model(str(w/'cpt'/'final'), ['Salam.'], name='cpt', seq_len=64), "model 'cpt'", 'fewer than one window')
    failed(lambda: evaluate_model(str(w/'cpt'/'final'), ['Salam.'], name='cpt', seq_len=4096), "model 'cpt'", "beyond the model's limit")
    failed(lambda: run_eval(cfg(runs={'cpt-old': str(tmp_path)})), 'runs.cpt-old', 'no log.jsonl')
    assert not out.exists()                                                     # nothing half-written
    bad = eval_cfg(w, out); bad['models'].append(dict(name='cpt', path='preset:llama-tiny')); bad['max_new_token'] = 3
    failed(lambda: load_config(write_yaml(tmp_path/'bad.yml', bad), EvalRun), 'max_new_token: unknown key', 'model names must be unique')


def test_recipe_file():
    p = ROOT/'configs'/'eval_tiny.yml'
    text = p.read_text(encoding='utf-8')
    assert 'azllm eval configs/eval_tiny.yml' in text.split('\nstage:')[0]
    cfg = load_config(p, EvalRun)
    assert [m.name for m in cfg.models] == ['base', 'sft'] and cfg.runs
    for line in text.splitlines():                                              # every key carries a comment
        if line.strip() and not line.lstrip().startswith('#') and ':' in line: assert '#' in line, line


def _cli_has_eval() -> bool:
    return azllm_in('eval', '--help').returncode == 0


@pytest.mark.skipif(not _cli_has_eval(), reason='`azllm eval` is not wired into the CLI yet')
def test_cli(w, tmp_path):
    cfg = write_yaml(tmp_path/'eval.yml', eval_cfg(w, tmp_path/'out', models=[dict(name='cpt', path=str(w/'cpt'/'final'))], runs={}))
    r = azllm_in('eval', cfg)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads((tmp_path/'out'/'report.json').read_text())['bpb']['cpt'] > 0
    r = azllm_in('eval', cfg, f'models=[{{name: gone, path: {tmp_path/"gone"}}}]')
    assert r.returncode == 2 and 'Traceback' not in r.stderr and "model 'gone'" in r.stderr, r.stderr[-2000:]
