"""Mutation testing of the build track: does every check reject wrong code it has never seen?

Each piece of the answer key (the code between ``### BEGIN SOLUTION`` and
``### END SOLUTION``) is changed in one small way at a time: an operator swapped
(``+``/``-``, ``==``/``!=``, ``<``/``<=``, ``and``/``or``, ``is``/``is not``), a
condition negated, a constant changed (``True``/``False``, ``0``/``1``), a statement
deleted. Each mutant is a copy of the answer key with that one change; the build
track then checks every step on it. A mutant is *killed* when some step is not ✅
(the one whose piece changed, or a later one), and *survives* otherwise. Some
survivors change nothing a program can see (an equivalent mutant); the rest are
holes in the checks. Prints the survivors and the score:

    .venv/bin/python tools/mutants.py                 # every piece
    .venv/bin/python tools/mutants.py --step 03.2     # the pieces of one step

tests/test_buildtrack_mutants.py holds the score: a survivor not listed, with its reason, in
tests/buildtrack_mutant_survivors.py fails it.
"""
import argparse
import ast
import copy
import os
import pathlib
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "notebooks"))

from buildtrack import stubs  # noqa: E402
from buildtrack.cache import verdict  # noqa: E402
from buildtrack.package import ANSWER_KEY  # noqa: E402
from buildtrack.steps import STEPS  # noqa: E402

SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
         ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
         ast.GtE: ast.Gt, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In,
         ast.And: ast.Or, ast.Or: ast.And}


def _solution_lines(source):
    """``[(first, last, step, name)]``: the line ranges of the solution blocks."""
    lines = source.split("\n")
    blocks = []
    for begin, (step, name) in stubs.solution_pieces(source).items():
        end = next(i for i in range(begin, len(lines) + 1) if lines[i - 1].strip() == stubs.END)
        blocks.append((begin, end, step, name))
    return blocks


def mutants(source):
    """``(step, piece, description, mutated source)`` for each one-change mutant of ``source``'s pieces."""
    tree = ast.parse(source)
    lines = source.split("\n")
    for first, last, step, name in _solution_lines(source):
        inside = [node for node in ast.walk(tree) if first < getattr(node, "lineno", 0) < last]
        for index, node in enumerate(inside):
            for description, change in _changes(node):
                mutated = copy.deepcopy(tree)
                target = [n for n in ast.walk(mutated) if first < getattr(n, "lineno", 0) < last][index]
                if change(target, mutated) is not False:
                    try:
                        text = ast.unparse(mutated)
                    except Exception:               # an unparsable mutant (an emptied body): skip it
                        continue
                    # described by the line it changes, not its number: the key stays when code moves
                    where = f"`{lines[node.lineno - 1].strip()}`"
                    yield step, name, f"{where}: {description}", text


def _changes(node):
    op = getattr(node, "op", None)
    if type(op) in SWAPS:
        yield (f"{type(op).__name__} -> {SWAPS[type(op)].__name__}",
               lambda n, _: setattr(n, "op", SWAPS[type(n.op)]()))
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in SWAPS:
        yield (f"{type(node.ops[0]).__name__} -> {SWAPS[type(node.ops[0])].__name__}",
               lambda n, _: setattr(n, "ops", [SWAPS[type(n.ops[0])]()]))
    if isinstance(node, (ast.If, ast.While)):
        yield "condition negated", lambda n, _: setattr(n, "test", ast.UnaryOp(ast.Not(), n.test))
    if isinstance(node, ast.Constant) and type(node.value) in (bool, int) and node.value in (0, 1):
        new = {True: False, False: True}[node.value] if isinstance(node.value, bool) else 1 - node.value
        yield f"{node.value!r} -> {new!r}", lambda n, _, new=new: setattr(n, "value", new)
    if isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.Return)):
        yield f"statement deleted: {ast.unparse(node).splitlines()[0][:50]}", _delete


def _delete(node, tree):
    for parent in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and node in block:
                if len(block) == 1:
                    block[0] = ast.Pass()
                else:
                    block.remove(node)
                return True
    return False


def killed(directory):
    """The first step that is not ✅ on the package in ``directory``, with its verdict, or None."""
    for step_id in STEPS:
        result = verdict(step_id, directory)
        if result.status != "done":
            return step_id, result
    return None


def all_mutants(step=None):
    """``[(file, step, piece, description, mutated source)]`` of the answer key (of one step's pieces)."""
    return [(path.name, *mutant) for path in sorted(ANSWER_KEY.glob("*.py"))
            for mutant in mutants(path.read_text()) if step is None or mutant[0] == step]


def judged(step=None, work=None):
    """``(step, piece, description, (rejecting step, verdict) or None)`` for each mutant, one at a time, each
    in its own copy of the answer key under ``work`` (verdicts kept in memory only: set
    ``BUILDTRACK_CACHE=0`` before, as main and the test do)."""
    with tempfile.TemporaryDirectory(dir=work) as folder:
        for number, (file, mutant_step, piece, description, mutated) in enumerate(all_mutants(step)):
            directory = pathlib.Path(folder) / f"m{number}" / "myautograd"
            shutil.copytree(ANSWER_KEY, directory)
            (directory / file).write_text(mutated)
            rejected = killed(directory)
            shutil.rmtree(directory.parent)
            yield mutant_step, piece, description, rejected


def survivors(step=None, work=None):
    """``[(step, piece, description)]`` of the mutants no step rejects."""
    return [(found, piece, description) for found, piece, description, rejected in judged(step, work)
            if rejected is None]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--step", help="only the pieces of this step, e.g. 03.2")
    args = parser.parse_args()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ["BUILDTRACK_CACHE"] = "0"    # verdicts in memory only: the learner's cache stays as it is
    total, survived = 0, []
    for step, piece, description, rejected in judged(args.step):
        total += 1
        print(f"{step} {piece:32} {description[:70]:70} "
              f"{'killed by ' + rejected[0] if rejected else 'SURVIVES'}", flush=True)
        if not rejected:
            survived.append((step, piece, description))
    print(f"\n{total - len(survived)} of {total} mutants killed; {len(survived)} survive "
          "(tests/buildtrack_mutant_survivors.py lists the equivalent ones):")
    for step, piece, description in survived:
        print(f"  {step} {piece}: {description}")


if __name__ == "__main__":
    main()
