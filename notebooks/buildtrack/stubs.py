"""Stubs from the answer key: what ships in ``notebooks/myautograd``.

In the answer key each piece the learner writes sits between ``### BEGIN SOLUTION``
and ``### END SOLUTION``, inside a function (or class) whose docstring names the
first step that asks for it: ``Step NN.k: ...``. The stub keeps the docstring and
puts ``raise NotImplementedError("Step NN.k: <piece>")`` in place of the solution
(the convention of nbgrader), which the checks read as "not done yet".

A piece that earlier steps already use, and that a later step asks the learner to
rewrite, ships working instead: its block holds a ``### SHIPPED`` part, commented
out in the answer key, which becomes the stub's body.

The answer key says everything in both languages (tests/test_stub_docstrings.py): each docstring its
English text, then a paragraph starting ``中文：`` with the Chinese; each comment an English line with a
``# 中文：`` line below it. A learner reads one edition (``make_stub(source, lang="en")`` for
``notebooks/myautograd``, ``lang="zh"`` for ``notebooks/zh/myautograd``: ``edition``): the same code, the
docstrings and comments of one language. The Chinese texts say 见上文 ("see above") for the PyTorch files the
English part cites: in the Chinese edition the files are named in their place.
"""
import ast
import re
import unicodedata

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


def make_stub(source, after=None, lang=None):
    """The stub version of one answer-key file. ``after`` (a step id): stub only the pieces of the steps
    after it, and keep the others as they are, solution and all (the package of a learner at that step).
    ``lang``: ``"en"`` or ``"zh"``, the docstrings and comments of that edition only (``edition``); None,
    both, as in the answer key."""
    stub = _stubbed(source, after)
    return stub if lang is None else edition(stub, lang)


def _stubbed(source, after):
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


def piece_line(stub, qualified):
    """The line (from 1) where the learner writes the piece ``qualified`` (``"Tensor.__init__"``) in a stub:
    its ``raise NotImplementedError("Step NN.k: ...")``, below the docstring that says what to write; for a
    piece that ships working (a step that rewrites it), the line of its ``def``."""
    for name, function, _class_doc in functions_of(ast.parse(stub)):
        if name == qualified:
            for node in ast.walk(function):
                if isinstance(node, ast.Raise) and "NotImplementedError" in ast.unparse(node) \
                        and f": {qualified}" in ast.unparse(node):
                    return node.lineno
            return function.lineno
    raise KeyError(f"no function {qualified} in the stub")


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


# ------------------------------------------------------------------ one edition's words
MARK = "中文："
CHINESE_PART = re.compile(r"\n\n[ \t]*" + MARK)
CHINESE_COMMENT = re.compile(r"^([ \t]*)# " + MARK + r"(.*)$")
DOCSTRING_QUOTES = re.compile(r'^([rRuU]?)("""|\'\'\')(.*)\2$', re.S)
CITED_FILE = re.compile(r"[\w./-]*\w\.(?:h|cpp|py|yaml)\b")
SEE_ABOVE = re.compile(r"（见上文）|见上文")
# What a Chinese comment keeps of the English one it replaces: a rule of dashes, a lint directive.
KEPT_BEFORE = re.compile(r"#\s*(-{3,}\s*|noqa(?::\s*[A-Z]+\d+(?:,\s*[A-Z]+\d+)*)?\s+)")


def edition(source, lang):
    """``source`` (bilingual, as the answer key) with the docstrings and comments of ``lang`` only."""
    if lang not in ("en", "zh"):
        raise ValueError(f"lang: 'en' or 'zh', not {lang!r}")
    return _docstrings(_comments(source, lang), lang)


def _comments(source, lang):
    """English keeps the line above each ``# 中文：`` line; Chinese puts the Chinese in its place, at the
    English comment's column (after the code on that line, if any)."""
    out = []
    for line in source.split("\n"):
        found = CHINESE_COMMENT.match(line)
        if found is None or not out:
            out.append(line)
            continue
        if lang == "zh":
            column = len(found.group(1))
            above = out[-1]
            if above[column:column + 1] != "#":
                raise ValueError(f"a '# {MARK}' line with no English comment above it, at its column: {line}")
            kept = KEPT_BEFORE.match(above[column:])       # "# ------ (given) data", "# noqa: F401  (given) ..."
            words = (kept.group(1) if kept else "") + found.group(2).strip()
            out[-1] = (above[:column] + "# " + words).rstrip()
    return "\n".join(out)


def _docstrings(source, lang):
    """Each docstring cut to its English part, or to its Chinese part (without the ``中文：`` mark, its
    见上文 replaced by the files the English part cites)."""
    tree = ast.parse(source)
    lines = source.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                value = first.value
                spans.append((_offset(lines, offsets, value.lineno, value.col_offset),
                              _offset(lines, offsets, value.end_lineno, value.end_col_offset)))
    for start, end in sorted(spans, reverse=True):
        source = source[:start] + _one_docstring(source[start:end], lang) + source[end:]
    return source


def _offset(lines, offsets, lineno, col_offset):
    """The character offset of an ast position (its column counts UTF-8 bytes)."""
    line = lines[lineno - 1]
    return offsets[lineno - 1] + len(line.encode()[:col_offset].decode())


def _one_docstring(literal, lang):
    found = DOCSTRING_QUOTES.match(literal)
    if found is None or not CHINESE_PART.search(found.group(3)):
        return literal
    prefix, quotes, text = found.groups()
    english, chinese = CHINESE_PART.split(text, maxsplit=1)
    closing = text[text.rstrip(" \t").rfind("\n"):] if "\n" in text.rstrip(" \t") else ""
    closing = closing if not closing.strip() else ""            # ("\n    " before the closing quotes)
    body = english.rstrip() if lang == "en" else _cited(chinese.rstrip(), english)
    if "\n" not in body:
        closing = ""
    return f"{prefix}{quotes}{body}{closing}{quotes}"


def _cited(chinese, english):
    """The Chinese part with its 见上文 ("see above") replaced by the PyTorch files the English part cites."""
    files = []
    for name in CITED_FILE.findall(english):
        if "/" not in name and not name.endswith((".h", ".cpp", ".yaml")):
            continue                                    # (a file of the course's own: creation.py)
        if name not in files and not any(other.endswith("/" + name) for other in files):
            files = [other for other in files if not name.endswith("/" + other)] + [name]
    if not files:
        if SEE_ABOVE.search(chinese):
            raise ValueError(f"见上文, but the English part cites no file: {english[:60]!r}")
        return chinese
    named = "、".join(files)
    cited = SEE_ABOVE.sub(lambda m: f"（{named}）" if m.group(0).startswith("（") else f"：{named}", chinese)
    return "\n".join(_wrapped(line) for line in cited.split("\n"))


LINE_WIDTH = 106          # (ruff's line length, 110, less the indentation of a method's docstring)
BREAK_AFTER = "、，。；："


def width(text):
    """The columns ``text`` takes (a Chinese character two), as ruff counts a line's length."""
    return sum(2 if unicodedata.east_asian_width(character) in "WF" else 1 for character in text)


def _wrapped(line):
    """A line of Chinese that the files named in it made too long, broken after its punctuation (never
    inside ``code``: code has none of it), the rest at the line's indentation."""
    indent = line[:len(line) - len(line.lstrip())]
    out = []
    while width(line) > LINE_WIDTH:
        breaks = [i + 1 for i, character in enumerate(line) if character in BREAK_AFTER
                  and width(line[:i + 1]) <= LINE_WIDTH and line[i + 1:].strip()]
        if not breaks or breaks[-1] <= len(indent):
            break
        out.append(line[:breaks[-1]])
        line = indent + line[breaks[-1]:].lstrip()
    return "\n".join(out + [line])
