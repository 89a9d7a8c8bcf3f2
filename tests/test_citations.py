"""The course's citations of PyTorch's source hold: the file is there, and so is the name.

The chapters (notebooks/src/*.py), the docstrings and comments of mini_autograd/, the build
track (notebooks/myautograd/, notebooks/buildtrack/, answers/myautograd/), README.md and
CONTRIBUTING.md point learners at PyTorch's own files. This test finds every such citation,
and checks it against tests/pytorch_citations.toml, a table of what each cited file is at the
v2.13.0 tag and the line each cited name rests on; with torch installed, it checks the table
against the files the wheel ships.

The grammar of a citation
-------------------------
A *file* is

- a path from the root of PyTorch's repository that starts with ``torch/``, ``torchgen/``,
  ``aten/``, ``c10/`` or ``tools/autograd/``: ``torch/autograd/gradcheck.py``,
  ``torch/csrc/autograd/engine.cpp``, or a folder, ending in ``/``: ``torch/optim/``;
- or the name of a C++ or YAML file (``.cpp``, ``.h``, ``.hpp``, ``.cu``, ``.yaml``), alone or
  with the end of its path: ``engine.cpp``, ``functions/accumulate_grad.h``,
  ``ATen/ExpandUtils.h``. It must be the end of exactly one path in the table.

A Python file is always cited by its whole path (``torch/optim/sgd.py``, never ``sgd.py``):
the course's own modules have the same names.

A file may come with *names* that it vouches for. A name is an identifier (``call_function``),
qualified (``Engine::evaluate_function``, ``Tensor.backward``), maybe with ``struct``,
``class``, ``enum`` or ``namespace`` before it or ``()`` after it, or, written in backticks, any
exact text of the file (``NOTE [ Sequence Number]``, a formula of derivatives.yaml). The forms:

- ``FILE: NAME`` — after a colon (``engine.cpp: Engine::execute``); in backticks, the name is in
  the same backticks or in its own (```engine.cpp`: `call_pre_hooks```);
- ``FILE's NAME`` and ``FILE (NAME)``, also in backticks;
- ``FILE, NAME`` in plain text (docstrings and comments), when NAME looks like code (it has
  ``_``, ``::``, ``.``, ``()`` or an inner capital letter);
- ``NAME in FILE`` (``is in``, and ``A and B are in``) with NAME in backticks, or looking like
  code in plain text;
- ``NAME (FILE`` when NAME looks like code (``compute_requires_grad (torch/csrc/...)``).

After the first name, more follow, separated by ``, ``, `` and `` or `` / ``
(```engine.cpp`: `call_pre_hooks`, `call_post_hooks```); in plain text each must be a single
identifier. Anything else around a file is prose: it may say more, but nothing here checks it.
Lines wrapped in a docstring, a comment or a markdown cell are read joined.

What a name must match, in a file the wheel ships
-------------------------------------------------
- C++: ``struct X`` (``class``, ...) is declared so (export macros such as ``TORCH_API`` may stand
  between); ``A::b`` is a ``b`` inside a ``struct``/``class``/``namespace A`` or written
  ``A::b``; a plain identifier appears in the code, outside comments; a dotted name
  (``torch.device``, a Python name) has its last part in the code or in a string.
- Python: the name is defined (``def``, ``class``, an assignment), ``A.b`` inside ``class A``;
  leading parts that are not classes of the file are the module's or an object's name
  (``torch.autograd.gradcheck``, ``ctx.save_for_backward``) and are dropped.
- YAML (derivatives.yaml): an entry ``- name: NAME(`` (``clamp.Tensor`` is an overload).
- Any other text (not an identifier) must be in the file as written.

The table
---------
tests/pytorch_citations.toml has one ``[[file]]`` per PyTorch file or folder: its ``path`` at
the v2.13.0 tag, the spellings the course cites it by (``cited_as``), and a ``[file.names]``
table whose keys are the names as the course writes them and whose values are the line of the
source that each rests on (a string, or a list of lines: the first shows the name, the others
what the course says of it). For a file the wheel does not ship (the ``.cpp`` files), ``source``
says where the lines were read. Without torch, this test checks that every citation in the
course has its row and name, that no row or name is unused, and that each line shows its name;
with torch, it also checks every shipped file and folder exists in the wheel, holds each name,
and holds each line as written.
"""

import ast
import importlib.util
import re
import tomllib
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLE = Path(__file__).resolve().parent / "pytorch_citations.toml"

COURSE = ["notebooks/src/*.py", "mini_autograd", "notebooks/myautograd", "notebooks/buildtrack",
          "answers/myautograd", "README.md", "CONTRIBUTING.md"]

# ---------------------------------------------------------------------------------------------
# Finding the citations

FILE_RE = re.compile(r"(?<![\w/.-])(?:(?:torch|torchgen|aten|c10|tools/autograd)/[\w./*-]*[\w/*]"
                     r"|[\w./-]*\w\.(?:cpp|h|hpp|cu|yaml))(?![\w/-])")
IDENT = (r"(?:(?:struct|class|enum|namespace) )?~?[A-Za-z_]\w*(?:(?:::|\.)~?[A-Za-z_]\w*)*"
         r"(?:\(\))?")
IDENT_RE = re.compile(IDENT)
SEP_RE = re.compile(r", and |, | and | / ")
NOT_NAMES = {"PyTorch"}


def course_files():
    found = []
    for entry in COURSE:
        where = ROOT / entry
        for path in ROOT.glob(entry) if "*" in entry else [where] if where.is_file() else where.rglob("*"):
            relative = path.relative_to(ROOT)
            if (path.suffix in (".py", ".md") and path.is_file()
                    and not any(part.startswith(".") or part == "__pycache__" for part in relative.parts)):
                found.append(relative.as_posix())
    return sorted(found)


def looks_like_code(name):
    bare = re.sub(r"^(?:struct|class|enum|namespace) ", "", name)
    return bare not in NOT_NAMES and (
        name != bare or any(s in bare for s in ("_", "::", ".", "()"))
        or re.search(r"[a-z][A-Z]", bare) is not None)


def flatten(text, markdown=False):
    """Join wrapped lines: the break before a line that goes on with the same docstring,
    comment or markdown paragraph (its indentation and a comment's ``#`` too) reads as one space;
    any other break (a blank line, code after a comment) stays a line break. Returns the text and
    each character's line."""
    rows = text.split("\n")
    flat, lines = [], []
    in_string = False
    for number, row in enumerate(rows, start=1):
        piece = row
        if number > 1:
            previous = rows[number - 2]
            stripped = row.lstrip(" \t")
            comment = stripped.startswith("#") and (stripped == "#" or stripped[1] in " \t")
            goes_on = stripped != "" and (markdown or in_string or (comment and "#" in previous))
            if comment and goes_on and stripped[1:].strip() == "":
                goes_on = False             # an empty comment line ends a paragraph
            if goes_on:
                piece = stripped[1:].lstrip(" ") if comment and not in_string else stripped
            flat.append(" " if goes_on else "\n")
            lines.append(number - 1)
        flat.append(piece)
        lines.extend([number] * len(piece))
        if row.count('"""') % 2 or row.count("'''") % 2:
            in_string = not in_string
    return "".join(flat), lines


def code_spans(flat):
    """Inline code spans (`x` or ``x``) as (start, end, inner start, inner end); fences are not."""
    unfenced = re.sub(r"`{3,}", lambda m: " " * len(m.group()), flat)
    return [(m.start(), m.end(), m.start(2), m.end(2))
            for m in re.finditer(r"(``?)([^`\n]+?)\1", unfenced)]


def _names_from(flat, pos, spans, in_backticks):
    """The names listed from ``pos`` on: code spans, or plain identifiers each followed by a stop."""
    names = []
    while True:
        span = next((s for s in spans if s[0] == pos), None)
        if span is not None:
            if FILE_RE.search(flat, span[2], span[3]):
                break           # the next citation
            names.append(flat[span[2]:span[3]])
            pos = span[1]
        elif in_backticks:
            break
        else:
            m = IDENT_RE.match(flat, pos)
            if not m or not re.match(r"[,;).:]|\s+and\s|[ \t]*(?:\n|$)|\s+\(", flat[m.end():m.end() + 6]):
                break
            names.append(m.group())
            pos = m.end()
        if re.match(r"\s+(?:is |are )?in\s", flat[pos:pos + 12]):
            names.pop()             # "`a` and `b` in FILE": b belongs to the next file
            break
        m = SEP_RE.match(flat, pos)
        if not m:
            break
        pos = m.end()
    return names


def _names_before(before, has_own_names):
    m = re.search(r"(``?([^`]+)``?|(" + IDENT + r"))(?: is| are)?( in | \()`{0,2}$", before)
    if not m or (m.group(4) == " (" and has_own_names):
        return []           # "grad_output (FunctionsManual.cpp, x)": the parenthesis names x
    name = m.group(2) or m.group(3)
    if not (m.group(4) == " in " and m.group(2) is not None
            or IDENT_RE.fullmatch(name) and looks_like_code(name)):
        return []
    if " are " in m.group(0):
        first = re.search(r"``?([^`]+)``? and $", before[:m.start()])
        if first:
            return [first.group(1), name]
    return [name]


def citations_in(path):
    """[(line, file as cited, [names])] of one course file."""
    flat, lines = flatten((ROOT / path).read_text(encoding="utf-8"), markdown=path.endswith(".md"))
    spans = code_spans(flat)
    found = []
    for m in FILE_RE.finditer(flat):
        span = next((s for s in spans if s[2] <= m.start() < s[3]), None)
        names = []
        if span:
            rest, after = flat[m.end():span[3]], span[1]
            if rest.startswith(": "):
                names = [x for x in SEP_RE.split(rest[2:]) if x]
                sep = SEP_RE.match(flat, after)
                if sep:
                    names += _names_from(flat, sep.end(), spans, True)
            elif rest:
                names = [rest]          # `engine.cpp; x`: not a form of the grammar; fails below
            else:
                for lead in (": `", " (`", "'s `"):
                    if flat.startswith(lead, after):
                        names = _names_from(flat, after + len(lead) - 1, spans, True)
                        break
            before = flat[:span[0]]
        else:
            after = m.end()
            for lead in (": ", " (", "'s "):
                if flat.startswith(lead, after):
                    start = after + len(lead)
                    names = _names_from(flat, start, spans, flat.startswith("`", start))
                    break
            else:
                n = IDENT_RE.match(flat, after + 2) if flat.startswith(", ", after) else None
                if n and looks_like_code(n.group()):
                    names = _names_from(flat, after + 2, spans, False)
            before = flat[:m.start()]
        found.append((lines[m.start()], m.group(), _names_before(before, bool(names)) + names))
    return found


@cache
def all_citations():
    """{(file as cited, name or ''): ['path:line', ...]} over the whole course."""
    where = defaultdict(list)
    for path in course_files():
        for line, cited, names in citations_in(path):
            for name in ["", *names]:
                where[cited, name].append(f"{path}:{line}")
    return dict(where)


# ---------------------------------------------------------------------------------------------
# The table

@cache
def table():
    with TABLE.open("rb") as f:
        return tomllib.load(f)["file"]


def lines_of(row, name):
    value = row.get("names", {})[name]
    return [value] if isinstance(value, str) else list(value)


def shipped(path):
    """Whether the wheel ships this file: all but the C++ sources (headers, Python files and
    tools/autograd/, as torchgen/packaged/autograd/, are in it)."""
    return not path.endswith((".cpp", ".cu"))


def last_part(name):
    bare = re.sub(r"^(?:struct|class|enum|namespace) |\(\)$", "", name)
    return re.split(r"::|\.", bare)[-1]


def is_identifier(name):
    return IDENT_RE.fullmatch(name) is not None


def row_for(cited):
    rows = [r for r in table() if cited in r["cited_as"]]
    return rows[0] if len(rows) == 1 else None


def test_the_course_cites_pytorch():
    # The grammar finds what is there: if this drops, the regular expressions broke.
    assert len(all_citations()) > 300


LISTED_AFTER = re.compile(r"`?(?:, |; | and | \()`?([\w./-]*\w\.py)\b")


def test_no_vague_citations():
    # What the grammar cannot check is written out: `and .cpp` names the file, and a Python file
    # listed after a PyTorch one is its whole path (`torch/optim/sgd.py`, not `sgd.py`).
    problems = []
    for path in course_files():
        flat, lines = flatten((ROOT / path).read_text(encoding="utf-8"), markdown=path.endswith(".md"))
        for m in re.finditer(r"`\.(?:cpp|h|hpp|cu|yaml|py)\b", flat):
            problems.append(f"{path}:{lines[m.start()]}: {flat[m.start():m.end() + 20]!r}: name the file")
        for m in FILE_RE.finditer(flat):
            pos = m.end()
            while (listed := LISTED_AFTER.match(flat, pos)) is not None:
                if not FILE_RE.fullmatch(listed.group(1)):
                    problems.append(f"{path}:{lines[listed.start(1)]}: {listed.group(1)!r} after "
                                    f"{m.group()!r}: cite a Python file by its whole path")
                pos = listed.end()
    assert not problems, "\n".join(problems)


def test_every_citation_has_a_row():
    missing = []
    for (cited, name), where in sorted(all_citations().items()):
        row = row_for(cited)
        if row is None:
            n = sum(cited in r["cited_as"] for r in table())
            missing.append(f"{cited}: {'in ' + str(n) + ' rows' if n else 'no row'} ({where[0]})")
        elif name and name not in row.get("names", {}):
            missing.append(f"{cited}: {name!r} is not in the row of {row['path']} ({', '.join(where)})")
    assert not missing, ("Citations without their row in tests/pytorch_citations.toml (read the "
                         "line in PyTorch's v2.13.0 source, then add it; CONTRIBUTING.md says how):\n"
                         + "\n".join(missing))


def test_no_row_is_unused():
    cited = all_citations()
    unused = []
    for row in table():
        for spelling in row["cited_as"]:
            if (spelling, "") not in cited:
                unused.append(f"{row['path']}: nothing cites it as {spelling!r}")
        for name in row.get("names", {}):
            if not any((spelling, name) in cited for spelling in row["cited_as"]):
                unused.append(f"{row['path']}: nothing cites {name!r}")
    assert not unused, "Rows or names of tests/pytorch_citations.toml no citation uses:\n" + "\n".join(unused)


def test_rows_are_well_formed():
    problems = []
    paths = [r["path"] for r in table()]
    problems += [f"{p}: two rows" for p in sorted(set(paths)) if paths.count(p) > 1]
    for row in table():
        path = row["path"]
        for spelling in row["cited_as"]:
            if not (path == spelling or path.endswith("/" + spelling)):
                problems.append(f"{path}: cited as {spelling!r}, which is not the end of its path")
        if not shipped(path) and not row.get("source"):
            problems.append(f"{path}: the wheel does not ship it, so say where its lines were read (source)")
        if bool(row.get("header")) != bool(row.get("in_header")):
            problems.append(f"{path}: header and in_header come together")
        if row.get("header") and not shipped(row["header"]):
            problems.append(f"{path}: its header {row['header']} is not one the wheel ships")
        problems += [f"{path}: in_header names {name!r}, which is not among its names"
                     for name in row.get("in_header", []) if name not in row.get("names", {})]
        for name in row.get("names", {}):
            shown = lines_of(row, name)
            if not shown or not all(isinstance(s, str) and s.strip() for s in shown):
                problems.append(f"{path}: {name!r} has no line")
            elif name.startswith("torch."):
                continue            # the Python name this file implements: its line shows how
            elif not is_identifier(name):
                if name not in shown[0]:
                    problems.append(f"{path}: the line of {name!r} does not show it: {shown[0]!r}")
            elif not re.search(r"(?<!\w)" + re.escape(last_part(name)) + r"(?!\w)", shown[0]):
                problems.append(f"{path}: the line of {name!r} does not show {last_part(name)!r}: "
                                f"{shown[0]!r}")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# The files the wheel ships (with torch installed)

def torch_site():
    """The site-packages folder torch is installed in, found without importing torch."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]).parent


def in_wheel(site, path):
    if path.startswith("tools/autograd/"):
        return site / "torchgen" / "packaged" / "autograd" / path[len("tools/autograd/"):]
    if path.startswith(("torch/csrc/", "torch/headeronly/")) and not path.endswith(".py"):
        return site / "torch" / "include" / path
    if path.startswith("aten/src/"):
        return site / "torch" / "include" / path[len("aten/src/"):]
    if path.startswith("c10/"):
        return site / "torch" / "include" / path
    return site / path


def cxx_code(text):
    """C++ without comments (and, unless keep_strings, string literals); positions are kept."""
    return re.sub(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
                  lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)


SCOPE_HEAD = re.compile(r"\b(?:struct|class|union|namespace|enum(?:\s+class)?)\s+"
                        r"(?:[A-Z_][A-Z0-9_]*(?:\([^)]*\))?\s+)*((?:\w+::)*\w+)?\s*(?:final\s*)?"
                        r"(?::[^{;()]*)?$")


def cxx_scopes(code):
    """(start, end, names) of every brace block; names are the scope it opens (a namespace,
    struct, class, ...), empty for a function body or any other block."""
    blocks, stack, last = [], [], 0
    for m in re.finditer(r"[{};]", code):
        if m.group() == "{":
            head = SCOPE_HEAD.search(code[last:m.start()].strip())
            names = head.group(1).split("::") if head and head.group(1) else []
            stack.append((m.start(), names))
        elif m.group() == "}" and stack:
            start, names = stack.pop()
            blocks.append((start, m.end(), names))
        last = m.end()
    return blocks


def cxx_has(text, name):
    code = cxx_code(text)
    keyword = re.match(r"(struct|class|enum|namespace) (.*)", name)
    if keyword:
        return re.search(r"\b" + keyword.group(1) + r"\s+(?:[A-Z_][A-Z0-9_]*(?:\([^)]*\))?\s+)*"
                         + re.escape(keyword.group(2)) + r"\b", code) is not None
    name = name.removesuffix("()")
    if "." in name:             # a Python name: its last part, in the code or in a string
        return re.search(r"(?<!\w)" + re.escape(last_part(name)) + r"(?!\w)", text) is not None
    parts = name.split("::")
    blocks = cxx_scopes(code) if len(parts) > 1 else []
    for m in re.finditer(r"((?:\w+\s*::\s*)*)(?<!\w)" + re.escape(parts[-1]) + r"(?!\w)", code):
        written = [q.strip() for q in m.group(1).split("::") if q.strip()]
        scope = [n for start, end, names in sorted(blocks) if start < m.start(1) < end for n in names]
        full = scope + written + [parts[-1]]
        if full[-len(parts):] == parts:
            return True
    return False


def py_has(text, name):
    tree = ast.parse(text)
    defined, classes = set(), set()

    def visit(body, prefix):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(prefix + node.name)
                if isinstance(node, ast.ClassDef):
                    classes.add(prefix + node.name)
                    visit(node.body, prefix + node.name + ".")
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                defined.update(prefix + t.id for t in targets if isinstance(t, ast.Name))
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body, prefix)

    visit(tree.body, "")
    keyword = re.match(r"class (.*)", name)
    if keyword:
        return keyword.group(1) in classes
    parts = name.removesuffix("()").split(".")
    for i in range(len(parts)):
        if i and ".".join(parts[:i]) in classes:
            return False        # a class of this file is part of the name: keep it
        rest = ".".join(parts[i:])
        if rest in defined or (len(parts) - i == 1 and any(d.split(".")[-1] == rest for d in defined)):
            return True
    return False


def yaml_has(text, name):
    return re.search(r"^- name: " + re.escape(name.removesuffix("()")) + r"[.(]", text, re.M) is not None


def file_has(path, text, name):
    if not is_identifier(name):
        return name in text
    if path.endswith(".py"):
        return py_has(text, name)
    if path.endswith(".yaml"):
        return yaml_has(text, name)
    return cxx_has(text, name)


def test_shipped_files_hold_what_is_cited():
    site = torch_site()
    if site is None:
        pytest.skip("torch is not installed: the table is checked, not the files it names")
    problems = []
    for row in table():
        path = row["path"]
        if row.get("header"):
            header = in_wheel(site, row["header"])
            if not header.is_file():
                problems.append(f"{path}: no header {row['header']} in the wheel ({header})")
            else:
                text = header.read_text(encoding="utf-8")
                problems += [f"{path}: {row['header']} does not declare {name!r}"
                             for name in row["in_header"] if not file_has(row["header"], text, name)]
        if not shipped(path):
            assert not in_wheel(site, path).exists(), f"{path} is in the wheel: check it there"
            continue
        where = in_wheel(site, path)
        if path.endswith("/"):
            if not where.is_dir():
                problems.append(f"{path}: no such folder in the wheel ({where})")
            continue
        if not where.is_file():
            problems.append(f"{path}: no such file in the wheel ({where})")
            continue
        text = where.read_text(encoding="utf-8")
        flat = re.sub(r"\s+", " ", text)
        for name in row.get("names", {}):
            if not name.startswith("torch.") and not file_has(path, text, name):
                problems.append(f"{path}: no {name!r} in it")
            for line in lines_of(row, name):
                if re.sub(r"\s+", " ", line.strip()) not in flat:
                    problems.append(f"{path}: the line for {name!r} is not in it: {line!r}")
    assert not problems, "\n".join(problems)


def test_name_checks_tell_right_from_wrong():
    # The example that started issue 27: Tensor::grad() is a member of Tensor, not of TensorBase.
    header = ("namespace at {\nclass TORCH_API TensorBase {\n  bool requires_grad() const;\n};\n"
              "// TensorBase::grad is not here\nclass TORCH_API Tensor: public TensorBase {\n"
              " public:\n  const Tensor& grad() const {\n    return *this;\n  }\n};\n}\n")
    assert cxx_has(header, "Tensor::grad()") and cxx_has(header, "at::Tensor::grad")
    assert not cxx_has(header, "TensorBase::grad") and not cxx_has(header, "struct Tensor")
    assert cxx_has(header, "class Tensor") and not cxx_has(header, "Tensor::requires_grad")
    source = "class Tensor:\n    def backward(self):\n        pass\n\ndef _make_grads():\n    pass\n"
    assert py_has(source, "Tensor.backward") and py_has(source, "torch.Tensor.backward")
    assert py_has(source, "autograd._make_grads") and not py_has(source, "Tensor._make_grads")
    assert yaml_has("- name: clamp.Tensor(Tensor self)\n", "clamp.Tensor")
    assert not yaml_has("- name: clamp.Tensor(Tensor self)\n", "clamp.Scalar")
    # The grammar: names after a colon, in parentheses, before "in", and prose that is not a name.
    assert _names_from("a_b, c_d and e_f) x", 0, [], False) == ["a_b", "c_d", "e_f"]
    assert _names_before("the `Node` in ", False) == ["Node"]
    assert _names_before("scalar outputs (", False) == [] and _names_before("grad_out (", True) == []
