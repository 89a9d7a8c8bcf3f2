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
from buildtrack.framework import ANSWER_KEY, STEPS, verdict  # noqa: E402

SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
         ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
         ast.GtE: ast.Gt, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In,
         ast.And: ast.Or, ast.Or: ast.And}


def _solution_lines(source):
    """``[(first, last, step, name)]``: the line ranges of the solution blocks."""
    lines = source.split("\n")
    blocks = []
    for begin, (step, name) in stubs._pieces(source).items():
        end = next(i for i in range(begin, len(lines) + 1) if lines[i - 1].strip() == stubs.END)
        blocks.append((begin, end, step, name))
    return blocks


def mutants(source):
    """``(step, piece, description, mutated source)`` for each one-change mutant of ``source``'s pieces."""
    tree = ast.parse(source)
    for first, last, step, name in _solution_lines(source):
        inside = [node for node in ast.walk(tree) if first < getattr(node, "lineno", 0) < last]
        for index, node in enumerate(inside):
            for description, change in _changes(node):
                mutated = copy.deepcopy(tree)
                target = [n for n in ast.walk(mutated) if first < getattr(n, "lineno", 0) < last][index]
                if change(target, mutated) is not False:
                    try:
                        yield step, name, f"line {node.lineno}: {description}", ast.unparse(mutated)
                    except Exception:               # an unparsable mutant (an emptied body): skip it
                        continue


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--step", help="only the pieces of this step, e.g. 03.2")
    args = parser.parse_args()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ["BUILDTRACK_CACHE"] = "0"    # verdicts in memory only: the learner's cache stays as it is
    work = pathlib.Path(tempfile.mkdtemp())
    total, survivors = 0, []
    for path in sorted(ANSWER_KEY.glob("*.py")):
        for step, piece, description, mutated in mutants(path.read_text()):
            if args.step and step != args.step:
                continue
            total += 1
            directory = work / f"m{total}" / "myautograd"
            shutil.copytree(ANSWER_KEY, directory)
            (directory / path.name).write_text(mutated)
            found = killed(directory)
            mark = "killed by " + found[0] if found else "SURVIVES"
            print(f"{step} {piece:32} {description:60} {mark}", flush=True)
            if not found:
                survivors.append((step, piece, description))
            shutil.rmtree(directory.parent)
    shutil.rmtree(work)
    print(f"\n{total - len(survivors)} of {total} mutants killed; {len(survivors)} survive:")
    for step, piece, description in survivors:
        print(f"  {step} {piece}: {description}")


if __name__ == "__main__":
    main()
