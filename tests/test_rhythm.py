"Notebook rhythm (issue 34): the share of a notebook's exported definitions that the cells right below their export cell show or check."
import sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT/'tools'))
from rhythm import rhythm

# Notebooks that read as tutorials: add one here once `python tools/rhythm.py nbs/NAME.ipynb` reaches the floor.
TUTORIALS = ['03_runtime', '19_long_context', '04_checkpoint', '06_commands', '18_parallel', '24_memory', '25_engine', '26_sizing', '29_trainer', '30_logps', '31_cpt', '32_sft', '33_objectives', '35_dpo', '36_rewards', '37_grpo', '47_profile', '50_pipeline',
             '70_launch', '80_cli']
FLOOR = 0.75

@pytest.mark.parametrize('name', TUTORIALS)
def test_rhythm_does_not_regress(name):
    r = rhythm(ROOT/'nbs'/f'{name}.ipynb')
    assert r['definitions'] > 0, f"{name}: no exported definitions found (renamed notebook?)"
    assert r['share'] >= FLOOR, (f"{name}: {r['shown']}/{r['definitions']} = {r['share']:.0%} of exported definitions are shown by the "
                                 f"cells right below their export cell (floor {FLOOR:.0%}); not shown: {', '.join(r['missing'])}")
