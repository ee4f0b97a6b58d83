"""The command-line contract of stage 1 (other tools call these commands; keep them stable)."""
import json
import pytest
from transformers import AutoTokenizer
from conftest import azllm_in, DATA, ROOT   # in-process; the exit codes of a real `python -m azllm.cli` are test_hostile's (slow)


def test_help_lists_every_command():
    r = azllm_in('--help')
    assert r.returncode == 0
    for cmd in ('quickstart', 'tokenizer', 'fertility', 'train'): assert cmd in r.stdout


def test_train_gives_an_autotokenizer_directory(small_tokenizer):
    tok = AutoTokenizer.from_pretrained(small_tokenizer)
    assert len(tok) == 4000
    assert tok.convert_ids_to_tokens(4000 - 256 + 9) == '<|eot_id|>'
    assert tok.pad_token == '<|finetune_right_pad_id|>'
    text = 'Salam, dünya! İçərişəhər 2025 ☕'
    assert tok.decode(tok(text)['input_ids'], skip_special_tokens=True) == text
    chat = tok.apply_chat_template([{'role': 'user', 'content': 'Salam'}], tokenize=False, add_generation_prompt=True)
    assert chat.startswith('<|begin_of_text|><|start_header_id|>user<|end_header_id|>')
    assert (small_tokenizer/'azllm_config.yml').exists()


def test_extend_keeps_every_llama3_id(tmp_path):
    out = tmp_path/'ext'
    r = azllm_in('tokenizer', 'extend', '--corpus', DATA/'az_train.txt', '--add', 500, '--out', out)
    assert r.returncode == 0, r.stderr
    from azllm.tokenizer import load_tokenizer
    base, ext = load_tokenizer(), AutoTokenizer.from_pretrained(out)
    assert len(ext) == len(base) + 500
    ev = ext.get_vocab()
    assert all(ev[t] == i for t, i in base.get_vocab().items())
    assert min(ev[t] for t in set(ev) - set(base.get_vocab())) == len(base)


def test_fertility_json_contract(small_tokenizer):
    from azllm.tokenizer import default_base_tokenizer
    r = azllm_in('fertility', '--tokenizer', default_base_tokenizer(), '--tokenizer', small_tokenizer,
                 '--text', DATA/'az_valid.txt', '--json')
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)['results']
    assert [x['vocab_size'] for x in res] == [128_256, 4000]
    for x in res:
        assert set(x) >= {'tokenizer', 'vocab_size', 'fertility', 'continued_words', 'bytes_per_token', 'words_in_128k'}
        assert 0 < x['continued_words'] < 1 and x['words_in_128k'] == int(131_072 / x['fertility'])
    assert res[1]['fertility'] < 0.7 * res[0]['fertility']


def bad(r, *needles):
    "A user error: exit code 2 and one clear line on stderr, never a traceback."
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert 'Traceback' not in r.stderr
    assert r.stderr.startswith('azllm: error:'), r.stderr
    for n in needles: assert n in r.stderr, r.stderr


@pytest.mark.parametrize('content,needle', [
    (None, 'no such file'), (b'', 'empty'), (b'\x89PNG\r\n\x1a\n\x00\x00\x00', 'binary'),
    ('Bakı şəhəri'.encode('cp1254', errors='replace') + b'\xfd\xfe', 'not valid UTF-8'), (b'\n\n  \n', 'holds no text')])
def test_bad_corpus(tmp_path, content, needle):
    corpus = tmp_path/'corpus.txt'
    if content is not None: corpus.write_bytes(content)
    out = tmp_path/'tok'
    bad(azllm_in('tokenizer', 'train', '--corpus', corpus, '--vocab-size', 1000, '--out', out), needle)
    assert list(tmp_path.iterdir()) == ([corpus] if content is not None else [])   # nothing half-written


def test_vocab_too_small(tmp_path):
    bad(azllm_in('tokenizer', 'train', '--corpus', DATA/'az_valid.txt', '--vocab-size', 300, '--out', tmp_path/'t'), 'too small', '513')
    assert not (tmp_path/'t').exists()


def test_unreadable_tokenizer(tmp_path):
    (tmp_path/'tokenizer.json').write_text('{"this is": "not a tokenizer"')
    bad(azllm_in('fertility', '--tokenizer', tmp_path/'tokenizer.json', '--text', DATA/'az_valid.txt'), 'cannot read tokenizer')
    bad(azllm_in('tokenizer', 'extend', '--base', tmp_path/'missing', '--corpus', DATA/'az_valid.txt', '--add', 10,
                 '--out', tmp_path/'o'), 'no such file')
    assert not (tmp_path/'o').exists()


def test_run_config_errors_name_key_file_and_line(tmp_path):
    cfg = tmp_path/'tok.yml'
    cfg.write_text(f"stage: tokenizer\noutput_dir: {tmp_path/'out'}\ncorpus: [{DATA/'az_valid.txt'}]\nvocab_size: many\nlerning_rate: 1\n")
    r = azllm_in('train', cfg)
    bad(r, f'{cfg}:4: vocab_size', f'{cfg}:5: lerning_rate: unknown key')
    r = azllm_in('train', cfg, 'vocab_size=1200', 'lerning_rate=null')
    bad(r, 'lerning_rate: unknown key')


def test_run_config_with_overrides_saves_resolved_config(tmp_path):
    import yaml
    cfg = tmp_path/'tok.yml'
    cfg.write_text(f"stage: tokenizer\noutput_dir: {tmp_path/'out'}\ncorpus: [{DATA/'az_valid.txt'}]\nvocab_size: 5000\n")
    r = azllm_in('train', cfg, 'vocab_size=900')
    assert r.returncode == 0, r.stderr
    saved = yaml.safe_load((tmp_path/'out'/'azllm_config.yml').read_text())
    assert saved['vocab_size'] == 900 and saved['min_frequency'] == 2
    assert len(AutoTokenizer.from_pretrained(tmp_path/'out')) == 900


def test_shipped_configs_validate():
    from azllm.config import load_config
    from azllm.tokenizer import TokenizerRun
    for f in sorted((ROOT/'configs').glob('tokenizer_*.yml')): load_config(f, TokenizerRun)


def test_a_smaller_tokenizer_than_asked_says_so(tmp_path, capsys):
    "In-process: the one line that says why, and asked vs got in azllm_tokenizer.json."
    from azllm.cli import main
    assert main(['tokenizer', 'train', '--corpus', str(DATA/'az_valid.txt'), '--vocab-size', '16000', '--min-frequency', '3',
                 '--out', str(tmp_path/'tok')]) == 0
    meta = json.loads((tmp_path/'tok'/'azllm_tokenizer.json').read_text())
    got = meta['vocab_size']
    assert meta['asked_vocab_size'] == 16000 and got < 16000
    out = capsys.readouterr().out
    line = (f"asked for 16,000 tokens, got {got:,}: the corpus has no more pairs occurring >= min_frequency=3 times "
            "(use a bigger corpus or lower --min-frequency)")
    assert out.splitlines()[0] == line and meta['shortfall'] == line
    assert '\n\n' not in out                                          # no blank lines from tokenizers' bars off a terminal


def test_a_shorter_extension_than_asked_says_so(tmp_path, capsys):
    from azllm.cli import main
    docs = tmp_path/'few.txt'
    docs.write_text('\n\n'.join((DATA/'az_valid.txt').read_text(encoding='utf-8').split('\n\n')[:3]), encoding='utf-8')
    assert main(['tokenizer', 'extend', '--base', 'llama3', '--corpus', str(docs), '--add', '8000', '--out', str(tmp_path/'ext')]) == 0
    meta = json.loads((tmp_path/'ext'/'azllm_tokenizer.json').read_text())
    assert meta['asked_add'] == 8000 and meta['added'] < 8000 and meta['vocab_size'] == 128_256 + meta['added']
    assert capsys.readouterr().out.startswith(f"asked to add 8,000 tokens, added {meta['added']:,}: the corpus has no more pairs")


# ------------------------------------------------------------------------ issue 21: one vocabulary, flags from the schema (in-process)
def _flag_defaults(parser, cls):
    "{key: default} of the flags of `parser` that set keys of `cls`."
    return {a.dest: a.default for a in parser._actions if a.dest in cls.model_fields}


def _subparser(*path):
    from azllm.cli import build_parser
    p = build_parser()
    for name in path: p = next(a for a in p._actions if hasattr(a, 'choices') and isinstance(a.choices, dict)).choices[name]
    return p


def test_tokenizer_flags_are_tokenizer_run_keys(capsys):
    "Names, help, defaults and bounds of `tokenizer train|extend` come from TokenizerRun; the config equals the YAML one."
    from azllm.cli import main
    from azllm.config import config_from_args
    from azllm.tokenizer import TokenizerRun
    for action, own in (('train', ['--vocab-size', '1000']), ('extend', ['--add', '10'])):
        p = _subparser('tokenizer', action)
        a = p.parse_args(['--corpus', 'a.txt', 'b.txt', '--out', 'o', *own])
        cfg = config_from_args(a, method='custom' if action == 'train' else 'extend')
        want = TokenizerRun(output_dir='o', corpus=['a.txt', 'b.txt'], method=cfg.method, **({'vocab_size': 1000} if action == 'train' else {'add': 10}))
        assert cfg == want                                                     # every other key: the schema's default
        assert all(TokenizerRun.model_fields[k].default == v for k, v in _flag_defaults(p, TokenizerRun).items() if v is not None)
        with pytest.raises(SystemExit) as e: main(['tokenizer', action, '--help'])
        assert e.value.code == 0
        out = ' '.join(capsys.readouterr().out.split())
        for k in ('corpus', 'min_frequency', 'text_field', 'cyrillic', 'overwrite'):
            assert TokenizerRun.model_fields[k].description in out, k           # the key's comment is the flag's help
        for s in ('--corpus PATH [PATH ...]', '--out DIR', '--min-frequency N', '(default: 2)', '--no-normalize', 'turn off: Azerbaijani normalization'):
            assert s in out, s


def test_tokenizer_flag_errors_are_one_line(tmp_path, capsys):
    from azllm.cli import main
    with pytest.raises(SystemExit) as e: main(['tokenizer', 'train', '--corpus', 'a.txt', '--out', str(tmp_path/'o'), '--vocab-size', '300'])
    err = capsys.readouterr().err
    assert e.value.code == 2 and 'too small' in err and 'use 513' in err and len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit) as e: main(['tokenizer', 'extend', '--corpus', 'a.txt', '--out', str(tmp_path/'o'), '--add', '0'])
    assert e.value.code == 2 and '--add' in capsys.readouterr().err
    assert not (tmp_path/'o').exists()


def test_duplicated_defaults_live_once():
    "The launch, SageMaker and sampling flags default to their settings class, and so do the functions behind them."
    import inspect
    from azllm.launch import LaunchSettings, LAUNCH, launch, launch_command
    from azllm.sagemaker import JobSettings, JOB, submit, training_job_request
    from azllm.generate import Sampling, SAMPLING, generate, chat
    for path, cls, obj in ((('train',), LaunchSettings, LAUNCH), (('sagemaker', 'submit'), JobSettings, JOB), (('chat',), Sampling, SAMPLING)):
        got = _flag_defaults(_subparser(*path), cls)
        assert got and got == {k: getattr(obj, k) for k in got}, (path, got)
    for f, cls, obj in ((launch, LaunchSettings, LAUNCH), (launch_command, LaunchSettings, LAUNCH), (submit, JobSettings, JOB),
                        (training_job_request, JobSettings, JOB), (generate, Sampling, SAMPLING), (chat, Sampling, SAMPLING)):
        shared = {k: v.default for k, v in inspect.signature(f).parameters.items() if getattr(obj, k, None) is not None}   # None: decided later
        assert shared and shared == {k: getattr(obj, k) for k in shared}, (f.__name__, shared)
    assert LAUNCH.master_port == 29500 and JOB.instance_type == 'ml.p4d.24xlarge' and SAMPLING.max_new_tokens == 256


def test_every_stage_key_has_a_description():
    "The comment on every key of every stage's config is its description (what flags, --help and docs read)."
    from azllm.stages import STAGE_NAMES, stage
    from azllm.eval import ModelSpec
    for cls in [stage(n)[0] for n in STAGE_NAMES] + [ModelSpec]:
        missing = [k for k, f in cls.model_fields.items() if not f.description and k != 'stage']
        assert not missing, (cls.__name__, missing)


def test_renamed_keys_are_one_line(tmp_path, capsys):
    "eval's batch_size is harness_batch; training's overwrite is write_into_existing: the old key names the new one (exit 2)."
    from azllm.cli import main
    ev = tmp_path/'ev.yml'
    ev.write_text(f"stage: eval\noutput_dir: {tmp_path/'ev'}\nmodels: [{{name: m, path: preset:llama-tiny}}]\nvalid_data: [{DATA/'az_valid.txt'}]\nbatch_size: 4\n")
    assert main(['eval', str(ev)]) == 2
    assert '`batch_size` was renamed to `harness_batch`' in capsys.readouterr().err
    cpt = tmp_path/'cpt.yml'
    cpt.write_text(f"stage: cpt\noutput_dir: {tmp_path/'run'}\ntrain_data: [{DATA/'az_train.txt'}]\nmax_steps: 1\n")
    assert main(['train', str(cpt), 'overwrite=true']) == 2
    err = capsys.readouterr().err
    assert '`overwrite` was renamed to `write_into_existing`' in err and len(err.strip().splitlines()) == 2   # the file and its one key
    assert not (tmp_path/'ev').exists() and not (tmp_path/'run').exists()


SCHEMA_FLAGS = [   # (command, schema, keys whose flag must show the schema's default and description in --help)
    (('memory', 'estimate'), 'azllm.memory:MemoryEstimate', ('gpus', 'strategy', 'precision', 'optimizer', 'attn_implementation', 'seq_len', 'untied')),
    (('memory', 'max-batch'), 'azllm.memory:MaxBatch', ('limit',)),
    (('quickstart',), 'azllm.commands:QuickstartRun', ('output_dir', 'small', 'overwrite')),
    (('export',), 'azllm.commands:ExportRun', ('quant', 'merge', 'gguf', 'model', 'output_dir', 'overwrite')),
    (('sft', 'preview'), 'azllm.chats:ChatPreview', ('n', 'data', 'tokenizer')),
    (('fertility',), 'azllm.tokenizer:FertilityRun', ('text_field', 'tokenizer', 'text', 'plot')),
    (('sagemaker', 'status'), 'azllm.sagemaker:JobSettings', ('region',)),
]


@pytest.mark.parametrize('path,schema,keys', SCHEMA_FLAGS, ids=[' '.join(p) for p, _, _ in SCHEMA_FLAGS])
def test_help_shows_the_schema_default(path, schema, keys, capsys, monkeypatch):
    "Each flag's --help is its key's description, with the schema's default; the parsed defaults are the schema's."
    import importlib
    from azllm.cli import main
    mod, name = schema.split(':')
    cls = getattr(importlib.import_module(mod), name)
    monkeypatch.setenv('COLUMNS', '1000')                      # one line per flag: argparse wraps (and breaks at hyphens) to the terminal
    with pytest.raises(SystemExit) as e: main([*path, '--help'])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for k in keys:
        f = cls.model_fields[k]
        want = f.description + (f" (default: {f.default})" if f.default not in (None, False) and not f.is_required() else '')
        assert want in out, (k, want)
    got = _flag_defaults(_subparser(*path), cls)
    assert got == {k: None if cls.model_fields[k].is_required() else cls.model_fields[k].default for k in got}, got


def test_functions_read_the_schema_defaults():
    "What the commands call takes its defaults from the same schema, so a default is written once."
    import inspect
    from azllm.memory import ESTIMATE, MAX_BATCH, estimate_memory, config_estimate
    from azllm.chats import PREVIEW, sft_preview
    sig = lambda f: {k: v.default for k, v in inspect.signature(f).parameters.items()}
    est = sig(estimate_memory)
    for k in ('gpus', 'strategy', 'precision', 'optimizer', 'grad_checkpointing', 'fused_ce', 'fused_kernels', 'attn_implementation'):
        assert est[k] == getattr(ESTIMATE, k), k
    assert est['tied'] is (not ESTIMATE.untied) and sig(config_estimate)['gpus'] == ESTIMATE.gpus
    assert sig(sft_preview)['n'] == PREVIEW.n == 3 and MAX_BATCH.limit == 512


def test_memory_flags_reach_the_estimate(capsys):
    "The flags built from MemoryEstimate reach estimate_memory: the same numbers as the call with the same settings."
    from azllm.cli import main
    from azllm.memory import estimate_memory, preset_shape
    assert main(['memory', 'estimate', '--preset', 'llama-3.2-1b', '--gpus', '8', '--strategy', 'fsdp2', '--micro-batch', '2',
                 '--seq-len', '512', '--untied', '--fused-ce', '--json']) == 0
    got = json.loads(capsys.readouterr().out)
    want = estimate_memory(gpus=8, strategy='fsdp2', micro_batch=2, seq_len=512, fused_ce=True, **{**preset_shape('llama-3.2-1b'), 'tied': False})
    assert {k: got[k] for k in want} == want
    with pytest.raises(SystemExit) as e: main(['memory', 'estimate', '--params', '1B', '--precision', 'amp-bf16'])
    assert e.value.code == 2 and "'amp-bf16' is called 'bf16' now" in capsys.readouterr().err


def test_eval_names_a_misspelt_key_before_the_paths_it_left(tmp_path):
    """`models` misspelt in an override (`modls=[...]`) leaves the file's own models, which are not there: the typo is what to
    report (exit 2, 'did you mean models?'), not a path the user never typed. Found by following the quickstart's What next."""
    r = azllm_in('eval', ROOT/'configs'/'eval_tiny.yml', f'output_dir={tmp_path/"ev"}', 'modls=[{name: m, path: preset:llama-tiny}]', cwd=tmp_path)
    bad(r, 'modls: unknown key', 'did you mean models?')
    assert 'runs/sft-tiny' not in r.stderr and not (tmp_path/'ev').exists()


def test_help_names_every_stage_train_runs():
    "`azllm --help` said `stage: tokenizer | cpt | sft | eval` while `azllm train configs/dpo_tiny.yml` runs `stage: dpo` (found reading the help)."
    from azllm.stages import STAGE_NAMES
    line = next(l for l in azllm_in('--help').stdout.replace('\n', ' ').split('train', 1)[1:])
    assert f"stage: {' | '.join(STAGE_NAMES)}" in ' '.join(line.split()), line


def test_ctrl_c_in_train_says_how_to_resume(monkeypatch, capsys):
    "Ctrl-C in `azllm train` printed only 'azllm: interrupted'; the rerun resumes, and the line now says so (found by interrupting configs/cpt_tiny_base.yml)."
    import azllm.cli as cli
    def interrupted(a): raise KeyboardInterrupt
    monkeypatch.setattr(cli, 'cmd_train', interrupted)
    assert cli.main(['train', 'configs/cpt_tiny_base.yml']) == 130
    err = capsys.readouterr().err
    assert err.startswith('azllm: interrupted') and 'run the same command again to resume' in err and len(err.strip().splitlines()) == 1
