"""Export cells hold one idea: no `#| export` cell of a notebook is longer than the ceiling, and the notebooks already
split keep their median (`python tools/cell_sizes.py` prints the sizes)."""
import statistics, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT/'tools'))
from cell_sizes import sizes

CEILING = 60      # lines of one export cell, its `#| export` line included
# Where a cell is still longer, its size now: it may shrink, never grow. A cell one definition long stays whole.
LONGER = {
    '27_engine': 111,     # `TrainConfig`: one pydantic class, a field per key
    '70_cli': 85,         # `build_parser`: one function
    '09_rundir': 78,      # the `RunDir` class: a run directory's claim, record and release
    '30_trainer': 147,    # the `Trainer` class: its methods in the class body
    '45_harness': 89,     # `harness_lm`: lm-eval's model class, built inside a function
    # notebooks not split yet
    '08_checkpoint': 94,
}
# notebooks whose export cells were split at their definitions: the median of their cells together may not grow
SPLIT = ['04_data', '07_packing', '06_runtime', '12_tokens', '13_token_cache', '14_render', '15_weights', '16_tokenizer', '17_fertility',
         '18_chats', '19_pairs', '20_parallel', '21_long_context', '22_decode', '23_liger', '24_lora_kernels', '25_model', '27_engine',
         '29_logps', '32_cpt', '33_adapters', '34_generate', '35_sft', '36_objectives', '37_dpo', '38_rewards', '39_grpo', '40_gguf',
         '41_deploy', '50_stages', '52_pipeline', '53_real_quickstart', '62_sagemaker', '70_cli']
MEDIAN = 13

NOTEBOOKS = sorted(p.stem for p in (ROOT/'nbs').glob('[0-9][0-9]_*.ipynb'))


@pytest.mark.parametrize('name', NOTEBOOKS)
def test_no_export_cell_over_the_ceiling(name):
    s, cap = sizes(ROOT/'nbs'/f'{name}.ipynb'), LONGER.get(name, CEILING)
    assert max(s, default=0) <= cap, (f"nbs/{name}.ipynb has an export cell of {max(s)} lines (at most {cap}): split it at its "
                                      f"definitions, each followed by the cell that shows it (python tools/cell_sizes.py nbs/{name}.ipynb --over {cap})")


def test_the_exceptions_are_real():
    "Every notebook named above exists, so a renamed one cannot slip out of the check."
    assert set(LONGER) <= set(NOTEBOOKS) and set(SPLIT) <= set(NOTEBOOKS), set(LONGER) - set(NOTEBOOKS) | set(SPLIT) - set(NOTEBOOKS)


def test_split_notebooks_keep_their_median():
    m = statistics.median(n for name in SPLIT for n in sizes(ROOT/'nbs'/f'{name}.ipynb'))
    assert m <= MEDIAN, f"the median export cell of the split notebooks is {m} lines (at most {MEDIAN})"


def test_sizes_counts_export_cells_only(tmp_path):
    import json
    cell = lambda s: dict(cell_type='code', id='x', metadata={}, outputs=[], execution_count=None, source=s)
    nb = dict(cells=[cell('#| export\ndef f(): pass\n\ndef g(): pass'), cell('#| exports\nX = 1'), cell('f()'), cell('#| hide\nimport os'),
                     dict(cell_type='markdown', id='y', metadata={}, source='#| export')], metadata={}, nbformat=4, nbformat_minor=5)
    (tmp_path/'a.ipynb').write_text(json.dumps(nb))
    assert sizes(tmp_path/'a.ipynb') == [4, 2]
