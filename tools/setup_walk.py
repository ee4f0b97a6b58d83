"""The walk of a training run's setup through the package: which modules (rooms) `Trainer.setup` visits, how often a call
crosses from one module into another (moves), and how often a move enters each module (returns to it, for the most visited).

    python tools/setup_walk.py configs/cpt_tiny_base.yml output_dir=/tmp/walk max_steps=1   # then any config and overrides

The config is run as `azllm train` would run it, for the steps it asks; only `Trainer.setup` is traced (sys.setprofile):
a call of a Python function defined in azllm/ counts, a call inside the same module does not count as a move. `moves` counts
every crossing as it happens (a loop's calls each time); `distinct_moves` counts each (from module, to function) once.
"""
import collections, contextlib, json, sys
from pathlib import Path


def walk(argv:list[str]) -> dict:
    import azllm
    from azllm import trainer, cli
    pkg = str(Path(azllm.__file__).parent)
    stack, moves, entered, edges = [], [], collections.Counter(), set()
    def module_of(code): return Path(code.co_filename).stem if code.co_filename.startswith(pkg) else None
    def prof(frame, event, arg):
        if event == 'call':
            m = module_of(frame.f_code)
            if m is None: return
            if stack and stack[-1][1] != m:
                moves.append((stack[-1][1], m)); entered[m] += 1; edges.add((stack[-1][1], m, frame.f_code.co_qualname))
            stack.append((frame, m))
        elif event == 'return' and stack and stack[-1][0] is frame: stack.pop()
    setup = trainer.Trainer.setup
    def traced(self):
        sys.setprofile(prof)
        try: return setup(self)
        finally: sys.setprofile(None)
    trainer.Trainer.setup = traced
    try:
        with contextlib.redirect_stdout(sys.stderr): cli.main(['train', *argv])   # the run's own lines; the walk alone on stdout
    except SystemExit as e:
        if e.code not in (0, None): raise
    finally: trainer.Trainer.setup = setup
    rooms = sorted({m for pair in moves for m in pair})
    distinct = collections.Counter(to for _, to, _ in edges)
    return dict(config=argv, rooms=len(rooms), moves=len(moves), distinct_moves=len(edges), entered=dict(entered.most_common()),
                distinct_entered=dict(distinct.most_common()), room_names=rooms)


if __name__ == '__main__':
    if len(sys.argv) < 2 or sys.argv[1] in ('-h', '--help'): print(__doc__); sys.exit(0 if len(sys.argv) > 1 else 2)
    print(json.dumps(walk(sys.argv[1:]), indent=1))
