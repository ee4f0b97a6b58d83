"""The home page (nbs/index.ipynb, rendered to README.md) and the results page (nbs/90_results.ipynb) type no figure into
their prose: every number comes from a results file under benchmarks/results/ through a code cell, which tests/run.sh
re-executes before checking README.md and the pages."""
import json, re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Names and settings that contain digits but are not measurements.
ALLOWED = ['Llama 3.2 1B', 'Llama 3.2', 'Llama 3', 'Python 3.10+', 'Gemma 3', 'context 2048', 'Stage 1', 'Stage 2', 'Stage 3',
           'CC BY 4.0', 'Apache-2.0', 'UTF-8', 'exit code 2']
NUMBER = re.compile(r'(?<![A-Za-z0-9_])\d(?:[\d,.]*\d)?(?![A-Za-z0-9_])')


def prose_numbers(markdown:str) -> list[str]:
    "Numbers in markdown prose, outside code blocks, inline code, link targets and the allowed names."
    text = re.sub(r'```.*?```', ' ', markdown, flags=re.S)       # fenced code: commands and diagrams
    text = re.sub(r'`[^`]*`', ' ', text)                         # inline code: commands, paths, keys
    text = re.sub(r'\]\([^)]*\)', ']', text)                     # link targets
    for a in sorted(ALLOWED, key=len, reverse=True): text = text.replace(a, ' ')
    return NUMBER.findall(text)


def test_the_scanner_finds_typed_figures():
    assert prose_numbers("SFT runs at 4968 tok/s, **2.66×** TRL's; 3 minutes on a 2-core CPU") == ['4968', '2.66', '3', '2']
    assert prose_numbers("Llama 3.2 1B, `--steps 60`, [x](https://a/b1.html), H200, FSDP2, bf16, 6N\n```bash\nazllm train 8\n```") == []


PAGES = ('index.ipynb', '90_results.ipynb')


def cells(name:str, kind:str) -> list[str]:
    nb = json.loads((ROOT/'nbs'/name).read_text(encoding='utf-8'))
    return [''.join(c['source']) for c in nb['cells'] if c['cell_type'] == kind]


def test_no_figure_is_typed_into_the_home_or_results_page():
    for page in PAGES:
        typed = {i: n for i, s in enumerate(cells(page, 'markdown')) if (n := prose_numbers(s))}
        assert not typed, f"figures typed into nbs/{page}'s markdown (render them from benchmarks/results/ instead): {typed}"


def test_every_results_file_the_pages_read_exists_and_says_how_it_was_made():
    code = '\n'.join(s for page in PAGES for s in cells(page, 'code'))
    files = sorted(set(re.findall(r"benchmarks/results/([\w.-]+\.json)", code) + re.findall(r"load\('([\w.-]+\.json)'\)", code)))
    assert 'quickstart_cpu.json' in files and 'sft_throughput_h200.json' in files
    assert {'dpo_throughput_h200.json', 'dpo_rescore_h100.json'} <= set(files)
    for f in files:
        d = json.loads((ROOT/'benchmarks'/'results'/f).read_text())
        assert d.get('command') or d.get('source'), f"{f}: no command (or source) that made it"
