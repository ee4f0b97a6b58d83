"""Issue 33, items 1-2: a task directory handed to `azllm eval` cannot run code, however the code is spelled; no command
writes its output over, inside or around one of its own inputs, `--overwrite` or not.

Every task case plants a sentinel: the attacker's code would create it. Each runs `azllm eval` in-process and checks one
`azllm: error:` line, exit code 2, no sentinel, no model loaded and no output written."""
import os, shutil
from pathlib import Path
import pytest
from conftest import DATA
from test_hostile import box, chat_tok, adapter_dir, cli, one_clear_error, snapshot   # noqa: F401  (fixtures and helpers)
from azllm.files import listing, write_marker

pytest.importorskip('lm_eval')
from azllm.lm_tasks import TASKS_DIR

pytestmark = pytest.mark.filterwarnings('ignore')

TASK = """task: {name}
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
output_type: multiple_choice
test_split: test
doc_to_text: {text}
doc_to_choice: "{{{{choices}}}}"
doc_to_target: answer
metric_list:
  - metric: {metric}
"""

def task_yaml(name='mine', text='"Sual: {{question}}\\nCavab:"', metric='acc', head=''):
    return head + TASK.format(name=name, data=TASKS_DIR/'az_knowledge.jsonl', text=text, metric=metric)

def evil_py(d:Path, sentinel:Path):
    "A module that creates `sentinel` when it is imported, with the function a `!function` line would name."
    (d/'evil.py').write_text(f"open({str(sentinel)!r}, 'w').close()\ndef f(doc): return doc['question']\n")


def _eval(box, monkeypatch, tasks, *needles):
    "Run `azllm eval` on `tasks`: one line naming `needles`, exit 2, no model loaded, nothing written, the sentinel never made."
    import azllm.eval
    loaded = []
    monkeypatch.setattr(azllm.eval, 'evaluate_model', lambda *a, **k: loaded.append(a))
    (box/'eval.yml').write_text(f"stage: eval\noutput_dir: {box/'out'}\nmodels:\n  - name: t\n    path: preset:llama-tiny\n"
                                f"valid_data: [corpus.txt]\nprompts: []\ntasks: [{', '.join(str(t) for t in tasks)}]\n")
    rc, err = cli('eval', box/'eval.yml')
    one_clear_error(rc, err, *needles)
    assert not (box/'ran').exists(), "the task's code ran"
    assert loaded == [] and not (box/'out').exists()


def _dir(box, name='tasks') -> Path:
    d = box/name; d.mkdir(); return d


# ----------------------------------------------------------------------------------------------- YAML tags, however spelled
TAGS = {'plain-function': '!function evil.f',
        'tag-directive': '!e!tion evil.f',                     # %TAG !e! !func: the handle spells !function
        'uri-escaped': '!%66unction evil.f',                   # %66 is "f"
        'verbatim': '!<!function> evil.f',
        'python-object': '!!python/object/apply:os.system ["touch ran"]'}

@pytest.mark.parametrize('how', list(TAGS))
def test_a_tag_in_a_task_file_is_refused(box, monkeypatch, how):
    d = _dir(box); evil_py(d, box/'ran')
    head = '%TAG !e! !func\n---\n' if how == 'tag-directive' else ''
    (d/'evil.yaml').write_text(task_yaml('evil_task', TAGS[how], head=head))
    line = 10 if head else 8
    _eval(box, monkeypatch, [d], f"{d/'evil.yaml'}:{line}: the tag")


# --------------------------------------------------------------------------------------------------------------- includes
def test_an_include_of_a_non_yaml_file_is_refused(box, monkeypatch):
    d = _dir(box); evil_py(d, box/'ran')
    (d/'evil.txt').write_text('doc_to_text: !function evil.f\n')
    (d/'mine.yaml').write_text('include: evil.txt\n' + task_yaml())
    _eval(box, monkeypatch, [d], 'include evil.txt: not a YAML file')


def test_an_include_outside_the_directory_is_refused(box, monkeypatch):
    d, out = _dir(box), _dir(box, 'elsewhere'); evil_py(out, box/'ran')
    (out/'evil.yaml').write_text('doc_to_text: !function evil.f\n')
    (d/'mine.yaml').write_text('include: ../elsewhere/evil.yaml\n' + task_yaml())
    _eval(box, monkeypatch, [d], 'outside the task directory')


@pytest.mark.parametrize('link', ['file', 'folder'])
def test_an_include_through_a_link_out_is_refused(box, monkeypatch, link):
    d, out = _dir(box), _dir(box, 'elsewhere'); evil_py(out, box/'ran')
    (out/'evil.yaml').write_text('doc_to_text: !function evil.f\n')
    if link == 'file': os.symlink(out/'evil.yaml', d/'base_yaml'); inc = 'base_yaml'
    else: os.symlink(out, d/'sub'); inc = 'sub/evil.yaml'
    (d/'mine.yaml').write_text(f'include: {inc}\n' + task_yaml())
    _eval(box, monkeypatch, [d], 'outside the task directory', '(links followed)')


def test_a_task_file_that_links_out_is_refused(box, monkeypatch):
    d, out = _dir(box), _dir(box, 'elsewhere'); evil_py(out, box/'ran')
    (out/'evil.yaml').write_text(task_yaml('evil_task', '!function evil.f'))
    os.symlink(out/'evil.yaml', d/'evil.yaml')
    _eval(box, monkeypatch, [d], 'a link out of the task directory')


# ------------------------------------------------------------------------------------------------------- Jinja templates
ESCAPES = {'cycler': "cycler.__init__.__globals__.os.popen('touch ran').read()",
           'joiner': "joiner.__init__.__globals__.os.popen('touch ran').read()",
           'namespace': "namespace.__init__.__globals__.os.popen('touch ran').read()",
           'lipsum': "lipsum.__globals__['os'].popen('touch ran').read()"}

@pytest.mark.parametrize('via', list(ESCAPES))
def test_a_template_cannot_leave_the_sandbox(box, monkeypatch, via):
    d = _dir(box)
    (d/'evil.yaml').write_text(task_yaml('evil_task', f'"{{{{ {ESCAPES[via]} }}}}"'))
    _eval(box, monkeypatch, [d], "task 'evil_task': a template reaches past the sandbox")


# ---------------------------------------------------------------------------------------- code asked for by a plain name
def test_a_metric_that_evaluate_would_load_as_a_script_is_refused(box, monkeypatch):
    """A metric lm-eval does not know goes to `evaluate.load`, which imports a local metric directory's script."""
    m = box/'metric'/'evil'; m.mkdir(parents=True)
    (m/'evil.py').write_text(f"open({str(box/'ran')!r}, 'w').close()\nimport evaluate\nimport datasets\n"
                             "class Evil(evaluate.Metric):\n    def _info(self): return evaluate.MetricInfo(description='', citation='', features="
                             "datasets.Features({'predictions': datasets.Value('int32'), 'references': datasets.Value('int32')}))\n"
                             "    def _compute(self, predictions, references): return {'evil': 0}\n")
    d = _dir(box); (d/'evil.yaml').write_text(task_yaml('evil_task', metric=str(m)))
    _eval(box, monkeypatch, [d], f"metric {str(m)!r} is not one of lm-eval's own")


@pytest.mark.parametrize('key', ['process_docs', 'class'])
def test_a_key_lm_eval_fills_only_with_code_is_refused(box, monkeypatch, key):
    d = _dir(box); (d/'evil.yaml').write_text(task_yaml('evil_task') + f'{key}: evil.f\n')
    _eval(box, monkeypatch, [d], f'{key}: lm-eval takes it only as Python code')


# ------------------------------------------------------------------------------------------------- broken files, at once
@pytest.mark.parametrize('broken,needle', [('task: [unclosed\n', 'mine.yaml:2: not valid YAML'), ('- a list\n', 'a task YAML is a mapping'),
                                           (task_yaml().replace('multiple_choice', 'multiple_choise'), "task 'mine': lm-eval cannot build it")],
                         ids=['not-yaml', 'not-a-mapping', 'not-a-task'])
def test_a_broken_task_yaml_is_refused_before_any_model_loads(box, monkeypatch, broken, needle):
    """lm-eval skips a task YAML it cannot parse; the run then scored the model and ended in "No tasks found"."""
    d = _dir(box); (d/'mine.yaml').write_text(broken)
    _eval(box, monkeypatch, [d], needle)


def test_a_users_task_directory_still_runs(box):
    "A clean task directory of the user's (an include-only template, a Jinja template) is read and built by lm-eval from the checked configs."
    from azllm.lm_tasks import load_tasks
    d = _dir(box)
    (d/'_base_yaml').write_text('output_type: multiple_choice\ndoc_to_choice: "{{choices}}"\n')
    (d/'mine.yaml').write_text('include: _base_yaml\n' + task_yaml(text='"{{ question | trim }}\\nCavab:"'))
    tm, names = load_tasks([str(d)], offline=True)
    assert names == ['mine'] and tm.task_index['mine'].yaml_path is None


# ============================================================================ item 2: no output over, in or around an input
@pytest.fixture
def run(box, adapter_dir):
    "An SFT run directory as training leaves it: run/ (an sft-run) with final/ (the adapter, its base/ inside) as an azllm output."
    r = box/'run'; shutil.copytree(adapter_dir, r/'final')
    write_marker(r/'final', 'output', listing(r/'final')); write_marker(r, 'sft-run')
    return r


def _wrap(box, run) -> Path:
    "An azllm output (kind eval) whose marker lists every file: with --overwrite main replaced it, and the run inside it."
    w = box/'wrap'; w.mkdir(); shutil.move(run, w/'run'); write_marker(w, 'eval', listing(w)); return w/'run'


EXPORTS = {'copy': [], 'merge': ['--merge'], 'gguf': ['--gguf']}
OUTS = {'the adapter': lambda r: r/'final', 'inside the adapter': lambda r: r/'final'/'x',
        'inside the run': lambda r: r/'x', 'holding the run': lambda r: r.parent}
HOW = {'the adapter': 'is', 'inside the adapter': 'lies inside', 'inside the run': 'lies inside', 'holding the run': 'holds'}

@pytest.mark.parametrize('overwrite', [False, True], ids=['plain', 'overwrite'])
@pytest.mark.parametrize('where', list(OUTS))
@pytest.mark.parametrize('mode', list(EXPORTS))
def test_an_export_never_writes_over_in_or_around_its_input(box, run, mode, where, overwrite):
    if where == 'holding the run': run = _wrap(box, run)
    before = snapshot(box)
    rc, err = cli('export', run, *EXPORTS[mode], '--out', OUTS[where](run), *(['--overwrite'] if overwrite else []))
    one_clear_error(rc, err, f'{HOW[where]} ', 'which this command reads')
    assert snapshot(box) == before, 'the input changed'


@pytest.mark.parametrize('where', ['inside the adapter', 'holding the run', 'the corpus'])
def test_an_eval_report_never_goes_over_in_or_around_what_it_reads(box, run, monkeypatch, where):
    import azllm.eval
    monkeypatch.setattr(azllm.eval, 'evaluate_model', lambda *a, **k: pytest.fail('a model was loaded'))
    if where == 'holding the run': run = _wrap(box, run)
    out = {'inside the adapter': run/'final'/'report', 'holding the run': run.parent, 'the corpus': box/'corpus.txt'}[where]
    (box/'eval.yml').write_text(f"stage: eval\noutput_dir: {out}\noverwrite: true\nmodels:\n  - name: t\n    path: {run}\n"
                                "valid_data: [corpus.txt]\nprompts: []\n")
    before = snapshot(box)
    rc, err = cli('eval', box/'eval.yml')
    one_clear_error(rc, err, 'which this command reads')
    assert snapshot(box) == before, 'the input changed'


def test_a_tokenizer_never_goes_inside_its_corpus(box):
    (box/'data').mkdir(); shutil.copy(box/'corpus.txt', box/'data'/'corpus.txt')
    before = snapshot(box)
    rc, err = cli('tokenizer', 'train', '--corpus', box/'data', '--vocab-size', 1000, '--out', box/'data'/'tok')
    one_clear_error(rc, err, 'lies inside', 'which this command reads')
    assert snapshot(box) == before


def test_a_training_run_never_goes_inside_its_tokenizer(box, small_tokenizer):
    tok = box/'tok'; shutil.copytree(small_tokenizer, tok)
    (box/'cpt.yml').write_text(f"stage: cpt\noutput_dir: {tok/'run'}\nmodel: preset:llama-tiny\ntokenizer: {tok}\ntrain_data: [corpus.txt]\n"
                               "max_steps: 1\nseq_len: 32\nglobal_batch: 1\n")
    before = snapshot(box)
    rc, err = cli('train', box/'cpt.yml')
    one_clear_error(rc, err, 'lies inside', 'which this command reads')
    assert snapshot(box) == before


def test_a_fertility_plot_never_goes_inside_a_tokenizer_it_reads(box, small_tokenizer):
    tok = box/'tok'; shutil.copytree(small_tokenizer, tok)
    before = snapshot(box)
    rc, err = cli('fertility', '--tokenizer', tok, '--text', 'corpus.txt', '--plot', tok/'fertility.png')
    one_clear_error(rc, err, 'lies inside', 'which this command reads')
    assert snapshot(box) == before
