"Notebook rhythm (issue 34): the share of a notebook's exported definitions that the cells right below their export cell show or check."
import sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT/'tools'))
from rhythm import rhythm

# Notebooks that read as tutorials: add one here once `python tools/rhythm.py nbs/NAME.ipynb` reaches the floor.
TUTORIALS = ['05_resolve', '06_runtime', '09_rundir', '21_long_context', '08_checkpoint', '11_commands', '20_parallel', '26_memory', '27_engine', '28_sizing', '30_trainer', '29_logps', '32_cpt', '35_sft', '36_objectives', '37_dpo', '38_rewards', '39_grpo', '60_profile', '52_pipeline',
             '61_launch', '70_cli', '42_scoring', '43_lm_tasks', '44_stats', '45_harness', '46_verdicts', '47_eval_report', '48_eval', '51_report']
FLOOR = 0.75

@pytest.mark.parametrize('name', TUTORIALS)
def test_rhythm_does_not_regress(name):
    r = rhythm(ROOT/'nbs'/f'{name}.ipynb')
    assert r['definitions'] > 0, f"{name}: no exported definitions found (renamed notebook?)"
    assert r['share'] >= FLOOR, (f"{name}: {r['shown']}/{r['definitions']} = {r['share']:.0%} of exported definitions are shown by the "
                                 f"cells right below their export cell (floor {FLOOR:.0%}); not shown: {', '.join(r['missing'])}")
