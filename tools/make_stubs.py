"""Make the learner's stubs from the answer key: ``answers/myautograd`` -> ``notebooks/myautograd``.

In the answer key, each piece the learner writes sits between ``### BEGIN SOLUTION``
and ``### END SOLUTION``, inside a function (or class) whose docstring starts
with ``Step NN.k: ...`` (the first step that asks for it). The stub keeps the docstring
and replaces the solution with ``raise NotImplementedError("Step NN.k: <piece>")``,
which the checks in ``notebooks/buildtrack`` recognise as "not done yet"
(the convention of nbgrader).

    python tools/make_stubs.py            # write notebooks/myautograd
    python tools/make_stubs.py --check    # do the shipped stubs match the answer key?
"""
import argparse
import ast
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ANSWER_KEY = ROOT / "answers" / "myautograd"
STUBS = ROOT / "notebooks" / "myautograd"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
STEP = re.compile(r"Step (\d\d\.\d)")


def _pieces(source):
    """``{line number of BEGIN: (step id, qualified name)}`` for every solution block."""
    tree = ast.parse(source)
    lines = source.split("\n")
    found = {}

    def visit(node, prefix, class_doc):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".", ast.get_docstring(child) or "")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                step = STEP.search(ast.get_docstring(child) or "") or STEP.search(class_doc)
                for number in range(child.lineno, child.end_lineno + 1):
                    if lines[number - 1].strip() == BEGIN:
                        if step is None:
                            raise ValueError(f"{name}: a solution block in a function whose docstring names no step")
                        found[number] = (step.group(1), name)
    visit(tree, "", "")
    return found


def make_stub(source):
    """The stub version of one answer-key file."""
    pieces = _pieces(source)
    out, skipping = [], False
    for number, line in enumerate(source.split("\n"), start=1):
        if line.strip() == BEGIN:
            step, name = pieces[number]
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f'{indent}raise NotImplementedError("Step {step}: {name}")')
            skipping = True
        elif line.strip() == END:
            skipping = False
        elif not skipping:
            out.append(line)
    return "\n".join(out)


def expected_stubs():
    return {path.name: make_stub(path.read_text()) for path in sorted(ANSWER_KEY.glob("*.py"))}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    stubs = expected_stubs()
    if args.check:
        shipped = {path.name for path in STUBS.glob("*.py")}
        problems = [name for name, text in stubs.items()
                    if not (STUBS / name).exists() or (STUBS / name).read_text() != text]
        problems += sorted(shipped - set(stubs))
        print("\n".join(f"notebooks/myautograd/{name}: differs from the answer key's stub" for name in problems)
              or "the stubs match the answer key")
        return 1 if problems else 0
    STUBS.mkdir(exist_ok=True)
    for name, text in stubs.items():
        (STUBS / name).write_text(text)
    print(f"wrote {len(stubs)} files to {STUBS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
