"""Issue 22: a fresh machine and a real user's habits. Exported models that stop, overrides that reach the config they
name, runs that can move, SageMaker plans that ignore local leftovers, the README's commands as written, and the small
things a newcomer meets first. In-process on tiny models, except where only a process can show it (marked slow)."""
import json, os, re, shlex, shutil, subprocess, sys
from pathlib import Path
import pytest
import torch
from conftest import DATA, ROOT
from azllm.cli import main
from azllm.stages import overrides_per_config
from azllm.core import AzllmError

PHASE1, PHASE2 = 'configs/cpt_tiny_phase1.yml', 'configs/cpt_tiny_phase2.yml'
README = (ROOT/'README.md').read_text(encoding='utf-8')


def cli(capsys, *argv):
    rc = main(list(map(str, argv)))
    out = capsys.readouterr()
    return rc, out.out, out.err


def one_line_error(rc, err, *needles):
    assert rc == 2 and err.startswith('azllm: error:') and 'Traceback' not in err, err
    for n in needles: assert n in err, err


# ------------------------------------------------------------------------------------------------ 1. a fresh venv
def test_installed_versions_satisfy_every_bound_of_the_dev_extra():
    "The set CI's new venv resolves is the one pyproject asks for (the equivalent of `pip check` for azllm's extras)."
    from importlib.metadata import requires, version
    from packaging.requirements import Requirement
    reqs = [Requirement(r) for r in requires('azllm') if 'extra == "dev"' in r or 'extra == "s3"' in r]
    checked = {}
    for r in reqs:
        checked[r.name] = version(r.name)
        assert r.specifier.contains(checked[r.name], prereleases=True), (r, checked[r.name])
    assert {'s3fs', 'aiobotocore', 'boto3'} <= set(checked)
    import s3fs                                                    # s3fs 0.4.2 (what backtracking found) fails right here
    s3fs.S3FileSystem(endpoint_url='http://127.0.0.1:9', key='k', secret='s', skip_instance_cache=True)


@pytest.mark.slow
def test_run_sh_fails_at_once_without_chromium_under_ci(tmp_path):
    bin_ = tmp_path/'bin'; bin_.mkdir()
    for tool in ('dirname', 'find', 'sort'): os.symlink(shutil.which(tool), bin_/tool)   # a PATH without any browser
    for env in ({'CI': 'true'}, {'AZLLM_REQUIRE_BROWSER': '1'}):
        r = subprocess.run(['/bin/bash', ROOT/'tests'/'run.sh'], env={'PATH': str(bin_), **env}, capture_output=True, text=True)
        assert r.returncode == 1 and 'FAIL: no chromium on PATH' in r.stdout, (r.stdout, r.stderr)
        assert '== 1/5' not in r.stdout                             # before any other step


def test_ci_installs_into_a_new_venv_every_run():
    ci = (ROOT/'.ci'/'run').read_text()
    assert re.search(r'mktemp -d', ci) and re.search(r'python3? -m venv "\$venv_root/venv"', ci)
    assert 'pip install torch==2.13.0 -e ".[dev]"' in ci and 'bash tests/run.sh' in ci and 'pip check' in ci


# ------------------------------------------------------------------------------------------------ 2. never the user's runs/
@pytest.fixture
def scratch(tmp_path, monkeypatch):
    "A copy of the project's configs and data with the tutorial's phase 1 result left in runs/, as the working directory."
    for d in ('configs', 'data_samples'): shutil.copytree(ROOT/d, tmp_path/d)
    final = tmp_path/'runs'/'cpt-tiny'/'phase1'/'final'
    final.mkdir(parents=True); (final/'model.safetensors').write_bytes(b'stale')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_sagemaker_phase2_reads_phase1s_job_output_not_a_local_leftover(scratch):
    from azllm.sagemaker import plan_runs
    runs, files = plan_runs([PHASE1, PHASE2, 'max_steps=10'])
    assert 'model=/opt/ml/checkpoints/runs/cpt-tiny/phase1/final' in runs[1]['overrides']
    assert not any(f.startswith('runs/') for f in files) and 'data_samples/az_train.txt' in files
    runs, files = plan_runs([PHASE2, 'max_steps=10'])              # alone: phase 1 is an earlier job under the same --output
    assert 'model=/opt/ml/checkpoints/runs/cpt-tiny/phase1/final' in runs[0]['overrides'] and not any(f.startswith('runs/') for f in files)


def test_notebooks_launch_into_temporary_directories():
    "Every shell cell that trains (run by tools/run_notebooks.py, `#| eval: false` or not) writes to a scratch directory."
    for nb in (ROOT/'nbs').glob('*.ipynb'):
        for c in json.loads(nb.read_text())['cells']:
            s = ''.join(c['source'])
            for line in s.splitlines():
                if c['cell_type'] == 'code' and line.lstrip().startswith('!') and re.search(r'azllm (train|quickstart)', line):
                    assert 'output_dir={scratch}' in line or '--out {scratch}' in line, (nb.name, line)
    cells = [''.join(c['source']) for c in json.loads((ROOT/'nbs'/'62_sagemaker.ipynb').read_text())['cells']]
    assert any(s.startswith('root = scratch_project()') for s in cells)              # plans are made in a scratch copy
    assert not any("root = Path(__import__('azllm').__file__)" in s for s in cells)


# ------------------------------------------------------------------------------------------------ 3. exported models stop
@pytest.fixture(scope='module')
def outputs(tmp_path_factory):
    "Every kind of model azllm writes: CPT final/ with Llama 3's and with a custom tokenizer, the SFT preset base, a merged SFT."
    from azllm.cpt import CPTRun, train
    from azllm.sft import SFTRun, run_sft
    from azllm.adapters import merge_adapter
    from azllm.tokenizer import train_tokenizer
    from azllm.data import read_documents
    n = torch.get_num_threads(); torch.set_num_threads(1)
    d = tmp_path_factory.mktemp('outputs')
    tok = train_tokenizer(read_documents(DATA/'az_valid.txt'), 700, quiet=True); tok.save_pretrained(d/'tok-custom')
    common = dict(train_data=[str(DATA/'az_valid.txt')], seq_len=64, micro_batch=2, max_steps=1, warmup_steps=0, eval_every=0,
                  save_every=1, tensorboard=False)
    llama3 = train(CPTRun(output_dir=str(d/'cpt-llama3'), **common), progress=False)
    custom = train(CPTRun(output_dir=str(d/'cpt-custom'), model=str(llama3), tokenizer=str(d/'tok-custom'), **common), progress=False)
    sft = run_sft(SFTRun(output_dir=str(d/'sft'), model=str(custom), train_data=str(DATA/'sft'/'train.jsonl'), max_steps=1,
                         micro_batch=1, seq_len=256, warmup_steps=0, lora_r=4, lora_alpha=8, log_every=1, eval_every=0, save_every=1,
                         tensorboard=False), progress=False)
    preset = run_sft(SFTRun(output_dir=str(d/'sft-preset'), model='preset:llama-tiny', tokenizer=str(d/'tok-custom'),
                            train_data=str(DATA/'sft'/'train.jsonl'), max_steps=1, micro_batch=1, seq_len=256, warmup_steps=0,
                            lora_r=4, lora_alpha=8, eval_every=0, save_every=1, tensorboard=False), progress=False)
    merged = merge_adapter(None, sft, d/'merged')
    torch.set_num_threads(n)
    return dict(dir=d, cpt_llama3=llama3, cpt_custom=custom, sft_base=preset/'base', merged=merged, sft=sft)


@pytest.mark.parametrize('kind', ['cpt_llama3', 'cpt_custom', 'sft_base', 'merged'])
def test_generation_stops_at_eot_and_end_of_text_with_plain_transformers(outputs, kind):
    from transformers import AutoModelForCausalLM, AutoTokenizer
    path = outputs[kind]
    tok = AutoTokenizer.from_pretrained(path)
    ends = tok.convert_tokens_to_ids(['<|eot_id|>', '<|end_of_text|>'])
    if kind == 'cpt_llama3': assert ends == [128009, 128001]
    else: assert len(tok) < 2000 and max(ends) < len(tok)             # the custom vocabulary's own ids, not Llama 3's
    gen, cfg = (json.loads((path/f).read_text()) for f in ('generation_config.json', 'config.json'))
    for c in (gen, cfg):
        assert c['eos_token_id'] == ends and c['bos_token_id'] == tok.bos_token_id and c['pad_token_id'] == tok.pad_token_id
    model = AutoModelForCausalLM.from_pretrained(path).eval()
    enc = tok('Salam, necəsən?', return_tensors='pt')
    for end in ends:                                                   # a model that wants to end: generate must stop there
        def hook(mod, args, out, end=end):
            out.logits[...] = -1e4; out.logits[..., end] = 1e4
            return out
        h = model.register_forward_hook(hook)
        try:
            with torch.no_grad(): ids = model.generate(**enc, max_new_tokens=8, do_sample=False)
        finally: h.remove()
        assert ids.shape[1] == enc['input_ids'].shape[1] + 1 and ids[0, -1].item() == end


def test_safetensors_get_the_mode_of_every_other_file(outputs):
    for d in (outputs['cpt_llama3'], outputs['merged'], outputs['sft']):
        usual = (d/'config.json' if (d/'config.json').exists() else d/'adapter_config.json').stat().st_mode & 0o777
        for f in d.glob('*.safetensors'): assert f.stat().st_mode & 0o777 == usual, (f, oct(f.stat().st_mode))


# ------------------------------------------------------------------------------------------------ 4. overrides, one rule
def test_plain_chained_keys_are_refused_on_several_configs(capsys, scratch):
    one_line_error(*cli(capsys, 'train', PHASE1, PHASE2, 'model=X', '--dry-run')[::2], "override 'model=X' would give all 2 configs",
                   'phase2.model=X')
    one_line_error(*cli(capsys, 'train', PHASE1, PHASE2, 'output_dir=runs/x', '--dry-run')[::2], 'same output_dir')
    one_line_error(*cli(capsys, 'train', PHASE1, PHASE2, 'phase1.output_dir=runs/x', 'phase2.output_dir=runs/x', '--dry-run')[::2],
                   'both write to output_dir runs/x')


def test_an_addressed_override_reaches_only_its_config():
    own = overrides_per_config([PHASE1, PHASE2], ['phase2.model=runs/other/final', 'cpt_tiny_phase1.lr=1e-3', 'max_steps=2'])
    assert own == [['lr=1e-3', 'max_steps=2'], ['model=runs/other/final', 'max_steps=2']]
    assert overrides_per_config(['a/cpt_phase1.yml', 'b/sft_phase1.yml'], ['cpt_phase1.lr=1']) == [['lr=1'], []]   # ambiguous tail: stems only


def test_override_mistakes_name_the_override_not_the_file(capsys, scratch):
    rc, _, err = cli(capsys, 'train', 'configs/cpt_tiny_base.yml', 'max_step=2', '--dry-run')
    one_line_error(rc, err.splitlines()[0], 'from the command line')
    assert 'override max_step=2: max_step: unknown key (did you mean max_steps?)' in err and 'cpt_tiny_base.yml:' not in err
    rc, _, err = cli(capsys, 'train', 'configs/cpt_tiny_base.yml', 'lr=abc', '--dry-run')
    assert rc == 2 and 'override lr=abc: lr:' in err and not re.search(r'cpt_tiny_base\.yml:\d', err)


# ------------------------------------------------------------------------------------------------ 5. a run that moves
def test_a_moved_run_tree_still_chats_and_exports(outputs, tmp_path, capsys):
    from azllm.adapters import load_adapted
    rel = json.loads((outputs['sft']/'azllm_base.json').read_text())['relative']
    assert rel == '../../cpt-custom/final' and (outputs['sft']/rel).resolve() == outputs['cpt_custom'].resolve()
    moved = tmp_path/'moved'
    for name in ('sft', 'cpt-custom'): shutil.copytree(outputs['dir']/name, moved/name)      # the run tree, moved as a whole
    model, tok = load_adapted(moved/'sft')
    assert len(tok) < 2000 and model.get_input_embeddings().num_embeddings == len(tok)
    rc, out, err = cli(capsys, 'export', moved/'sft', '--merge', '--out', tmp_path/'m')
    assert rc == 0, err
    rc, out, err = cli(capsys, 'chat', moved/'sft', '--prompt', 'Salam', '--max-new-tokens', 2)
    assert rc == 0, err
    shutil.rmtree(moved/'cpt-custom')                                   # now the base is gone, from the tree and from where it was made
    ac = moved/'sft'/'final'/'adapter_config.json'; acfg = json.loads(ac.read_text())   # (the absolute path peft reads, once the tree's own base is gone)
    ac.write_text(json.dumps(dict(acfg, base_model_name_or_path=str(tmp_path/'gone'))))
    rc, out, err = cli(capsys, 'export', moved/'sft', '--merge', '--out', tmp_path/'m1')
    one_line_error(rc, err, 'is not there', '--model BASE', 'azllm chat BASE --adapter')
    ac.write_text(json.dumps(acfg))                                     # the tree's base gone, the original still there: it is used
    rc, out, err = cli(capsys, 'export', moved/'sft', '--merge', '--out', tmp_path/'m2')
    assert rc == 0, err
    rc, out, err = cli(capsys, 'export', outputs['sft'], '--out', tmp_path/'copy')            # a copy names its base absolutely
    assert rc == 0 and Path(json.loads((tmp_path/'copy'/'adapter_config.json').read_text())['base_model_name_or_path']).is_absolute()


# ------------------------------------------------------------------------------------------------ 6. the README as written
def _readme_commands(prefix:str) -> list[list[str]]:
    text = re.sub(r'\\\n\s*', ' ', README)
    return [shlex.split(l.split('  #')[0]) for l in text.splitlines() if l.startswith(prefix)]


def test_readme_puts_the_cpu_install_first_and_says_how_to_get_chromium():
    first = re.search(r'```bash\n(.*?)\n', README.split('## Install', 1)[1]).group(1)
    assert first.startswith('pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu') and 'CPU' in first
    assert 'apt-get install chromium' in README


def test_readme_sagemaker_example_runs_as_written(scratch, capsys, monkeypatch):
    for k in ('AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_PROFILE'): monkeypatch.delenv(k, raising=False)
    [cmd] = _readme_commands('azllm sagemaker submit')
    assert '--region' in cmd and not any(re.search(r's3://[^/]*[A-Z_]', a) for a in cmd)
    rc, out, err = cli(capsys, *cmd[1:], '--dry-run')
    assert rc == 0, err
    assert json.loads(out)['ResourceConfig']['InstanceCount'] == 2


def test_bucket_names_and_missing_boto3(scratch, capsys, monkeypatch):
    rc, _, err = cli(capsys, 'sagemaker', 'submit', 'configs/cpt_tiny_base.yml', '--role', 'arn:aws:iam::123456789012:role/R',
                     '--output', 's3://BUCKET/azllm', '--region', 'us-east-1', '--dry-run')
    one_line_error(rc, err, 'lowercase')
    monkeypatch.setitem(sys.modules, 'boto3', None); monkeypatch.setitem(sys.modules, 'botocore', None)
    monkeypatch.setitem(sys.modules, 'botocore.exceptions', None)
    errs = []
    for argv in (['status', 'azllm-x'], ['submit', 'configs/cpt_tiny_base.yml', '--role', 'arn:aws:iam::123456789012:role/R',
                                         '--output', 's3://my-bucket/azllm']):
        rc, _, err = cli(capsys, 'sagemaker', *argv, '--region', 'us-east-1')
        one_line_error(rc, err, "pip install 'azllm[sagemaker]'"); errs.append(err)
    assert errs[0] == errs[1] and err.count('\n') == 1


# ------------------------------------------------------------------------------------------------ 7. what next, and what cannot run
def test_what_next_starts_on_the_quickstarts_own_outputs():
    from azllm.pipeline import what_next
    md = what_next('runs/qs')
    first = re.search(r'```bash\n(.*?)```', md, re.S).group(1).strip().splitlines()
    assert [l.split()[1] for l in first] == ['chat', 'export', 'eval'] and all('runs/qs/' in l for l in first)
    rest = md.split('```', 2)[2]
    assert 'GPU lines' in rest and '[8 GPUs]' in rest and '--gpus 8' in rest and 'accelerate launch' not in rest
    assert 'hf download meta-llama/Llama-3.2-1B' in rest


@pytest.mark.skipif(torch.cuda.is_available(), reason='the CPU refusals need a machine without CUDA')
def test_known_impossible_runs_fail_in_one_line_before_any_work(scratch, capsys, monkeypatch):
    monkeypatch.setenv('HF_HUB_OFFLINE', '1')
    one_line_error(*cli(capsys, 'train', 'configs/cpt_llama-3.2-1b_1gpu.yml')[::2], 'to train on a CPU', 'GiB available')
    one_line_error(*cli(capsys, 'train', 'configs/cpt_tiny_base.yml', '--gpus', '8')[::2], '--gpus 8', 'no visible CUDA GPU', '--nproc')
    one_line_error(*cli(capsys, 'train', 'configs/cpt_tiny_base.yml', 'model=meta-llama/Llama-3.2-1B')[::2], 'hf download')
    one_line_error(*cli(capsys, 'train', 'configs/cpt_llama-3.2-1b_8gpu_phase1.yml', 'configs/cpt_llama-3.2-1b_8gpu_phase2.yml',
                        'train_data=[YOUR_CORPUS]', '--gpus', '8')[::2], '--gpus 8')
    one_line_error(*cli(capsys, 'train', 'configs/cpt_tiny_base.yml', 'train_data=[YOUR_CORPUS]')[::2], 'data YOUR_CORPUS')
    assert not (scratch/'runs'/'cpt-llama-3.2-1b').exists() and not (scratch/'runs'/'cpt-tiny'/'base').exists()


# ------------------------------------------------------------------------------------------------ 8. small things
def test_alpaca_as_one_json_array(tmp_path, capsys):
    from azllm.chats import read_chats
    rows = [{'instruction': 'Balansımı necə yoxlayım?', 'input': '', 'output': '*100# yığın.'},
            {'instruction': 'Salam', 'input': 'Qısa', 'output': 'Salam!'}]
    f = tmp_path/'alpaca.json'; f.write_text(json.dumps(rows, ensure_ascii=False, indent=2), encoding='utf-8')
    chats = read_chats(f)
    assert [c['messages'][-1]['content'] for c in chats] == ['*100# yığın.', 'Salam!'] and chats[1]['where'].endswith('item 2')
    assert '2 Alpaca examples converted' in capsys.readouterr().out
    f.write_text('[{"instruction": "a", "output": "b"}, 3]')
    with pytest.raises(AzllmError, match='item 2 of the JSON array is not a JSON object'): read_chats(f)


def test_tokenizer_train_help_says_the_real_minimum(capsys):
    with pytest.raises(SystemExit): main(['tokenizer', 'train', '--help'])
    out = ' '.join(capsys.readouterr().out.split())
    assert '513 or more' in out and '256 special tokens included' not in out


def test_interactive_chat_prints_a_banner(outputs, capsys, monkeypatch):
    monkeypatch.setattr('builtins.input', lambda prompt='': (_ for _ in ()).throw(EOFError))
    rc, out, err = cli(capsys, 'chat', outputs['merged'])
    assert rc == 0, err
    assert out.startswith(f"azllm chat: {outputs['merged']}") and 'empty line or Ctrl-D ends' in out


@pytest.mark.slow
def test_eval_and_export_report_a_missing_file_before_importing_torch(tmp_path):
    code = ("import sys; from azllm.cli import main\n"
            "print(main(['eval', 'nothere.yml']), main(['export', 'nothere', '--out', 'x']), 'torch' in sys.modules)")
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=tmp_path)
    assert r.stdout.split() == ['2', '2', 'False'], (r.stdout, r.stderr)
    assert 'config file nothere.yml does not exist' in r.stderr and 'adapter nothere: no such file' in r.stderr


def test_fertility_plot_labels_fit_and_do_not_overlap():
    import matplotlib; matplotlib.use('Agg')
    import matplotlib.pyplot as plt, pandas as pd
    from azllm.fertility import plot_comparison
    df = pd.DataFrame(dict(fertility=[3.41, 2.05, 1.72, 1.9], bytes_per_token=[2.71, 4.49, 5.37, 4.0]),
                      index=['llama3', 'tokenizer-llama3-az-8000', 'tokenizer-az-custom-32000', 'tok-az'])
    fig = plot_comparison(df)
    fig.canvas.draw(); r = fig.canvas.get_renderer()
    for ax in fig.axes:
        frame = ax.get_window_extent(r)
        for t in ax.texts:                                                # bar values sit inside the frame, below its top
            b = t.get_window_extent(r)
            assert b.y1 < frame.y1 - 1 and b.x0 >= frame.x0, t.get_text()
        boxes = [t.get_window_extent(r) for t in ax.get_xticklabels() if t.get_text()]
        assert len(boxes) == 4 and not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    plt.close(fig)


def test_words_in_128k_is_a_whole_number():
    from azllm.fertility import fertility_stats
    from azllm.tokenizer import load_tokenizer
    r = fertility_stats(load_tokenizer(), ['Azərbaycan dili türk dillərindən biridir.'])
    assert isinstance(r['words_in_128k'], int) and r['words_in_128k'] == int(131_072 / r['fertility'])


def test_readme_tokenizer_overrides_do_not_write_under_a_name_of_another_size(monkeypatch):
    """The README's `azllm train configs/tokenizer_custom.yml vocab_size=8000` wrote an 8,000-token tokenizer to the config's
    runs/tokenizer-az-16k, the directory configs/sft_tiny.yml then loads as its 16k tokenizer (found by running the README's
    command-line examples in order). A size named in output_dir must be the size the command trains."""
    from azllm.stages import read_runs
    monkeypatch.chdir(ROOT)
    cmds = [c for c in _readme_commands('azllm train configs/tokenizer') if any(a.startswith('vocab_size=') for a in c)]
    assert cmds
    for cmd in cmds:
        for r in read_runs(cmd[2:]):
            if m := re.search(r'(\d+)k\b', str(r.config.output_dir)):
                assert int(m.group(1)) * 1000 == r.config.vocab_size, (cmd, r.config.output_dir, r.config.vocab_size)


def test_relocated_quickstart_files_stay_listed_by_their_markers(tmp_path):
    """Running `azllm quickstart --out runs/quickstart` a second time refused its own output: 'holds cpt/base/azllm_config.yml
    (and 20 more), which azllm did not write there'. `_relocate` rewrote the recorded paths after the markers had listed each
    file's size (found by re-running the README's quickstart command). Every marker must still vouch for the files it lists."""
    from azllm.files import atomic_dir, foreign_files, check_output
    from azllm.pipeline import _relocate
    final = tmp_path/'qs'
    with atomic_dir(final, 'quickstart') as tmp:
        tmp = Path(tmp).resolve()
        with atomic_dir(tmp/'cpt'/'base', 'cpt-run') as run:
            (Path(run)/'azllm_config.yml').write_text(f"output_dir: {tmp/'cpt'/'base'}\n")
    _relocate(final, str(tmp), str(final.resolve()))
    assert str(final.resolve()) in (final/'cpt'/'base'/'azllm_config.yml').read_text()
    assert foreign_files(final) == [] and foreign_files(final/'cpt'/'base') == []
    check_output(final, 'quickstart')          # the same command again may replace it


def test_the_lower_bounds_file_is_pyprojects_bounds():
    "The CI leg that installs the lowest declared versions (.ci/lower-bounds.txt) pins exactly the bounds pyproject.toml declares."
    import tomllib
    proj = tomllib.loads((ROOT/'pyproject.toml').read_text())['project']
    reqs = proj['dependencies'] + [r for rs in proj['optional-dependencies'].values() for r in rs]
    bounds = {re.split(r'[<>=!\[ ]', r)[0].lower().replace('-', '_'): re.search(r'>=([\w.]+)', r).group(1) for r in reqs if '>=' in r}
    pins = dict(l.split('==') for l in (ROOT/'.ci'/'lower-bounds.txt').read_text().splitlines() if l and not l.startswith('#'))
    assert set(pins) == {'transformers', 'tokenizers', 'peft', 'trl', 'accelerate', 'datasets', 'lm_eval'}
    for name, v in pins.items(): assert bounds[name].split('.') == v.split('.')[:len(bounds[name].split('.'))], (name, bounds[name], v)


def test_hub_kernels_stay_off_unless_the_user_turns_them_on(tmp_path):
    "transformers 5.2x kernelizes every model from `from_pretrained` when `kernels` is installed, fetching code from the Hub at its first `.train()`; azllm keeps that off, and a user's own setting wins."
    code = ("import os, azllm, transformers; from transformers import LlamaConfig, LlamaForCausalLM; "
            f"LlamaForCausalLM(LlamaConfig(vocab_size=64, hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2)).save_pretrained({str(tmp_path)!r}); "
            f"m = LlamaForCausalLM.from_pretrained({str(tmp_path)!r}); m.train(); print(os.environ['USE_HUB_KERNELS'], bool(getattr(m, 'use_kernels', False)))")
    env = {k: v for k, v in os.environ.items() if k != 'USE_HUB_KERNELS'}
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and r.stdout.split()[-2:] == ['NO', 'False'], r.stderr[-2000:]
    r = subprocess.run([sys.executable, '-c', "import os, azllm; print(os.environ['USE_HUB_KERNELS'])"], capture_output=True, text=True,
                       env={**env, 'USE_HUB_KERNELS': 'YES'})
    assert r.stdout.strip() == 'YES'
