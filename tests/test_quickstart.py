"""The README's first commands, as a newcomer runs them: `azllm quickstart` with a relative --out from some directory,
then `chat` and `export` on its SFT output from another, and the report's "What next" commands. One `--small` quickstart of
the stages these need (tokenizer, CPT, SFT) is shared by every test of this file; the whole quickstart, DPO and the evaluation's
floors, intervals and paired tests included, runs and is checked in nbs/50_pipeline.ipynb (step 2 of tests/run.sh)."""
import json, re
from pathlib import Path
import pytest
from conftest import azllm, azllm_in

pytestmark = pytest.mark.slow


@pytest.fixture(scope='module')
def qs(tmp_path_factory):
    "A small quickstart run from `home/` with the relative --out `runs/qs`; tests then work from `elsewhere/`."
    root = tmp_path_factory.mktemp('newcomer')
    (root/'home').mkdir(); (root/'elsewhere').mkdir()
    r = azllm('quickstart', '--small', '--stages', 'tokenizer', 'cpt', 'sft', '--out', 'runs/qs', cwd=root/'home')
    assert r.returncode == 0, r.stderr[-3000:]
    return dict(root=root, out=root/'home'/'runs'/'qs', rel='../home/runs/qs', elsewhere=root/'elsewhere', log=r)


def test_outputs_record_no_doubled_or_temporary_path(qs):
    out, root = qs['out'], str(qs['root'].resolve())
    assert not list(qs['out'].parent.glob('.qs.*'))                          # no temporary directory left behind
    texts = {p: p.read_text(encoding='utf-8') for p in out.rglob('*') if p.suffix in ('.json', '.yml', '.md')}
    for p, t in texts.items():
        assert '.qs.tmp-' not in t and 'azllm-tmp' not in t, p
        assert not re.search(re.escape(root) + '/+' + re.escape(root), t), p
    rep = json.loads((out/'report.json').read_text())
    assert Path(rep['sft']['adapter']) == out.resolve()/'sft'/'final'
    assert json.loads((out/'sft'/'final'/'adapter_config.json').read_text())['base_model_name_or_path'] == \
        '../../cpt/custom-tokenizer-phase2/final'                                  # relative: the quickstart can move
    assert '## What next' in (out/'report.md').read_text()


def test_chat_on_the_sft_output_from_another_directory(qs):
    r = azllm('chat', f"{qs['rel']}/sft", '--prompt', 'Balansımı necə yoxlaya bilərəm?', '--max-new-tokens', 4,
              '--temperature', 0.7, '--top-p', 0.9, '--system', 'Qısa cavab ver.', cwd=qs['elsewhere'])
    assert r.returncode == 0, r.stderr
    assert 'Warning' not in r.stderr and 'Loading weights' not in r.stderr


def test_export_merge_and_adapter_copy_from_another_directory(qs):
    "In this process (what a process alone shows, its stderr, the chat test above checks)."
    r = azllm_in('export', f"{qs['rel']}/sft", '--merge', '--out', 'merged', cwd=qs['elsewhere'])
    assert r.returncode == 0, r.stderr
    assert (qs['elsewhere']/'merged'/'model.safetensors').exists()
    r = azllm_in('chat', 'merged', '--prompt', 'Salam', '--max-new-tokens', 4, cwd=qs['elsewhere'])
    assert r.returncode == 0, r.stderr
    r = azllm_in('export', f"{qs['rel']}/sft", '--out', 'adapter', cwd=qs['elsewhere'])
    assert r.returncode == 0, r.stderr
    assert (qs['elsewhere']/'adapter'/'adapter_config.json').exists() and (qs['elsewhere']/'adapter'/'tokenizer.json').exists()


def test_what_next_commands_run_on_a_moved_quickstart(qs, monkeypatch, capsys):
    "The report's first commands (chat, export, eval of its own outputs), as written, after the whole run directory moved."
    import os, shlex, shutil
    from conftest import ROOT
    from azllm.cli import main
    new = qs['root']/'moved'
    (new/'runs').mkdir(parents=True)
    for d in ('configs', 'data_samples'): os.symlink(ROOT/d, new/d)          # the repository root, where the commands run
    shutil.move(qs['out'], new/'runs'/'qs')
    try:
        monkeypatch.chdir(new)
        report = (new/'runs'/'qs'/'report.md').read_text()
        block = re.search(r'## What next.*?```bash\n(.*?)```', report, re.S).group(1)
        lines = block.strip().splitlines()
        assert [shlex.split(l)[1] for l in lines] == ['chat', 'export', 'eval']
        for line in lines:
            argv = shlex.split(line)[1:]
            argv += {'chat': ['--max-new-tokens', '4'], 'eval': ['max_new_tokens=4', 'max_docs=2']}.get(argv[0], [])
            assert main(argv) == 0, (line, capsys.readouterr().err)
        assert (new/'runs'/'qs-merged'/'model.safetensors').exists() and (new/'runs'/'qs-eval'/'report.md').exists()
        stage1 = report.split('## Stage 1', 1)[1].split('## Stage 2', 1)[0]
        assert '| llama3 |' in stage1 and '| base |' not in stage1            # "base" is the stage 2 model only
    finally: shutil.move(new/'runs'/'qs', qs['out'])
