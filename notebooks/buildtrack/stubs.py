"""Stubs from the answer key: what ships in ``notebooks/myautograd``.

In the answer key each piece the learner writes sits between ``### BEGIN SOLUTION``
and ``### END SOLUTION``, inside a function (or class) whose docstring names the
first step that asks for it: ``Step NN.k: ...``. The stub keeps the docstring and
puts ``raise NotImplementedError("Step NN.k: <piece>")`` in place of the solution
(the convention of nbgrader), which the checks read as "not done yet".

A piece that earlier steps already use, and that a later step asks the learner to
rewrite, ships working instead: its block holds a ``### SHIPPED`` part, commented
out in the answer key, which becomes the stub's body.
"""
import ast
import re

BEGIN, SHIPPED, END = "### BEGIN SOLUTION", "### SHIPPED", "### END SOLUTION"
STEP = re.compile(r"Step (\d\d\.\d)")


def solution_pieces(source):
    """``{line number of BEGIN: (step id, qualified name)}`` for every solution block."""
    lines = source.split("\n")
    found = {}
    for name, function, class_doc in functions_of(ast.parse(source)):
        step = STEP.search(ast.get_docstring(function) or "") or STEP.search(class_doc)
        for number in range(function.lineno, function.end_lineno + 1):
            if lines[number - 1].strip() == BEGIN:
                if step is None:
                    raise ValueError(f"{name}: a solution block in a function whose docstring names no step")
                found[number] = (step.group(1), name)
    return found


def functions_of(tree, prefix="", class_doc=""):
    """``(qualified name, function node, docstring of its class or "")`` for every function, methods too."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.ClassDef):
            yield from functions_of(child, prefix + child.name + ".", ast.get_docstring(child) or "")
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + child.name, child, class_doc


def make_stub(source, after=None):
    """The stub version of one answer-key file. ``after`` (a step id): stub only the pieces of the steps
    after it, and keep the others as they are, solution and all (the package of a learner at that step)."""
    pieces = solution_pieces(source)
    out, state = [], "keep"
    for number, line in enumerate(source.split("\n"), start=1):
        marker = line.strip()
        if marker == BEGIN and after is not None and pieces[number][0] <= after:
            out.append(line)
            state = "written"
        elif marker == BEGIN:
            step, name = pieces[number]
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f'{indent}raise NotImplementedError("Step {step}: {name}")')
            state = "solution"
        elif state == "written":
            out.append(line)
            state = "keep" if marker == END else state
        elif marker == SHIPPED:
            out.pop()                                   # ships working: no NotImplementedError
            state = "shipped"
        elif marker == END:
            state = "keep"
        elif state == "keep":
            out.append(line)
        elif state == "shipped":
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + line.strip()[2:])       # "# code" -> "code"
    return "\n".join(out)


def shipped_functions(source):
    """``{qualified name: ast dump}`` of the functions whose stub ships working code (a SHIPPED part)."""
    pieces, names, current = solution_pieces(source), set(), None
    for number, line in enumerate(source.split("\n"), start=1):
        if line.strip() == BEGIN:
            current = pieces[number][1]
        elif line.strip() == SHIPPED:
            names.add(current)
    dumps = function_dumps(ast.parse(make_stub(source)))
    return {name: dumps[name] for name in names}


def function_dumps(tree):
    """``{qualified name: ast.dump of its body}`` for every function in a module's AST (comments ignored)."""
    found = {}
    for name, function, _ in functions_of(tree):
        body = function.body[1:] if ast.get_docstring(function) else function.body
        found[name] = ast.dump(ast.Module(body=body, type_ignores=[]))
    return found
