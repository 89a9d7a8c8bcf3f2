"""The build track speaks Chinese too: each docstring and comment of the answer key has its Chinese part, and
each edition's stubs hold their own language only.

The answer key (answers/myautograd) is the single source of both editions' stubs: tools/make_stubs.py makes
notebooks/myautograd (English) and notebooks/zh/myautograd (Chinese) from it (``make_stub(source, lang=)``),
the same code with the docstrings and comments of one language. So each docstring of the answer key says
everything twice. The layout:

- the English text first, its first line unchanged (``Step NN.k: ...`` or ``(given) ...``: the stub
  maker and the checks read the step from it);
- then a blank line and the Chinese part, which starts ``中文：`` and translates the whole English
  text, first line included: ``Step NN.k`` becomes ``步骤 NN.k``, ``(given)`` becomes ``（已给出…``,
  ``chapter NN`` becomes ``第 NN 章``. PyTorch's names and the code stay as they are, and error
  messages are quoted as written. Citations of PyTorch's files stay in the English part (the
  Chinese says 见上文), so tests/test_citations.py reads each once; the Chinese stubs name the files
  in place of 见上文.

A comment the learner reads in a stub has a second comment line below it, at the same column,
starting ``# 中文：``.

Each edition's stubs: the English ones hold no Chinese; in the Chinese ones every docstring and comment the
learner reads is Chinese (no English part, no 中文： mark, no 见上文 left); both are the same code; and the
shipped stubs are the ones the answer key makes now.
"""
import ast
import importlib.util
import inspect
import io
import pathlib
import re
import tokenize
import unicodedata

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
ANSWER_KEY = ROOT / "answers" / "myautograd"

# The stub maker alone (it needs only ast and re), without the checks that importing the buildtrack
# package registers.
_spec = importlib.util.spec_from_file_location("_stubs", ROOT / "notebooks" / "buildtrack" / "stubs.py")
stubs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(stubs)
BEGIN, make_stub = stubs.BEGIN, stubs.make_stub

MARK = "中文："


def is_cjk(character):
    return unicodedata.east_asian_width(character) in "WF"


def docstrings():
    """``(file, qualified name, kind, docstring)`` for the module and every class and function of the
    answer key; kind is "filled" (a piece the learner writes: its first line names the step), "given"
    (its first line says so) or "other" (a module, a class whose methods are the pieces, ...)."""
    found = []
    for path in sorted(ANSWER_KEY.glob("*.py")):
        tree = ast.parse(path.read_text())
        module_doc = ast.get_docstring(tree, clean=False)
        if module_doc is not None:
            found.append((path.name, "<module>", "other", module_doc))
        for name, node in _definitions(tree):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                kind = "filled" if STEP.match(doc) else "given" if doc.startswith("(given") else "other"
                found.append((path.name, name, kind, doc))
    return found


def _definitions(tree, prefix=""):
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + child.name, child
            if isinstance(child, ast.ClassDef):
                yield from _definitions(child, prefix + child.name + ".")


STEP = re.compile(r"Step (\d\d\.\d)")
DOCSTRINGS = docstrings()


def split(doc):
    """The English part and the Chinese part of a docstring (cleaned, as help() shows it)."""
    parts = inspect.cleandoc(doc).split("\n\n" + MARK)
    assert len(parts) == 2, (f"expected one paragraph starting {MARK!r} after a blank line, "
                             f"found {len(parts) - 1}")
    return parts[0], MARK + parts[1]


def ident(entry):
    return f"{entry[0]}:{entry[1]}"


def test_every_piece_a_learner_fills_has_a_step_docstring():
    """Each solution block sits in a function whose docstring names its step, or in a method of a class
    whose docstring does (a custom Function's forward and backward): the docstrings checked below."""
    filled = {(file, name) for file, name, kind, _ in DOCSTRINGS if kind == "filled"}
    pieces = 0
    for path in sorted(ANSWER_KEY.glob("*.py")):
        source = path.read_text()
        lines = source.split("\n")
        for name, node in _definitions(ast.parse(source)):
            if isinstance(node, ast.FunctionDef) and any(
                    lines[n - 1].strip() == BEGIN for n in range(node.lineno, node.end_lineno + 1)):
                pieces += 1
                assert (path.name, name) in filled or (path.name, name.rsplit(".", 1)[0]) in filled, (
                    f"{path.name}: {name}: a piece to fill without a docstring naming its step")
    assert pieces >= 25 and len(filled) >= 25
    assert sum(kind == "given" for _, _, kind, _ in DOCSTRINGS) >= 25


@pytest.mark.parametrize("entry", DOCSTRINGS, ids=[f"{e[2]}-{ident(e)}" for e in DOCSTRINGS])
def test_each_docstring_has_its_chinese_part(entry):
    file, name, kind, doc = entry
    english, chinese = split(doc)
    assert not any(is_cjk(c) for c in english), f"{file}: {name}: Chinese inside the English part"
    for paragraph in chinese.split("\n\n"):
        assert any(is_cjk(c) for c in paragraph), f"{file}: {name}: no Chinese in {paragraph!r}"
    if kind == "filled":
        step = STEP.match(english).group(1)
        assert chinese.startswith(f"{MARK}步骤 {step}"), f"{file}: {name}: {chinese[:40]!r}"
    if kind == "given":
        assert chinese.startswith(f"{MARK}（已给出"), f"{file}: {name}: {chinese[:40]!r}"


@pytest.mark.parametrize("entry", DOCSTRINGS, ids=[ident(e) for e in DOCSTRINGS])
def test_the_chinese_part_names_the_same_steps_chapters_and_error_messages(entry):
    file, name, _, doc = entry
    english, chinese = (" ".join(part.split()) for part in split(doc))
    step_ids = re.compile(r"(?<![\d.])\d\d\.\d(?![\d])")
    assert set(step_ids.findall(english)) == set(step_ids.findall(chinese)), f"{file}: {name}: steps"
    assert (set(re.findall(r"chapter (\d\d)", english))
            == set(re.findall(r"第 (\d\d) 章", chinese))), f"{file}: {name}: chapters"
    # an error message the learner must reproduce is quoted in both parts, word for word (the
    # line breaks inside it aside)
    for span in re.findall(r'``([^`]*"[^`]*)``', english):
        assert re.sub(r"\s", "", span) in re.sub(r"\s", "", chinese), (
            f"{file}: {name}: the Chinese part lacks ``{span}``")


def stub_comments():
    """``(file, line number, column, text, next line)`` for every comment of the shipped stubs."""
    found = []
    for path in sorted(ANSWER_KEY.glob("*.py")):
        stub = make_stub(path.read_text())
        lines = stub.split("\n")
        for token in tokenize.generate_tokens(io.StringIO(stub).readline):
            if token.type == tokenize.COMMENT:
                row, column = token.start
                found.append((path.name, row, column, token.string, lines[row] if row < len(lines) else ""))
    return found


def is_prose(comment):
    """A comment that says something in English: not a lint directive alone, nor a lone name."""
    text = re.sub(r"#\s*noqa(?::\s*[A-Z]+\d+(?:,\s*[A-Z]+\d+)*)?", "", comment).strip(" #-")
    words = [word for word in text.split() if re.search(r"[A-Za-z]", word)]
    return len(words) >= 2 and not any(is_cjk(c) for c in comment)


COMMENTS = [c for c in stub_comments() if is_prose(c[3])]


def test_the_stubs_have_comments_to_check():
    assert len(COMMENTS) >= 15


@pytest.mark.parametrize("comment", COMMENTS, ids=[f"{c[0]}:{c[1]}" for c in COMMENTS])
def test_each_comment_has_its_chinese_line_below(comment):
    file, row, column, text, next_line = comment
    below = " " * column + "# " + MARK
    assert next_line.startswith(below) and any(is_cjk(c) for c in next_line[len(below):]), (
        f"notebooks/myautograd/{file}:{row}: {text!r} needs a line below it, at column {column}, "
        f"starting '# {MARK}'")


# ---------------------------------------------------------------- each edition's stubs
EDITIONS = {"en": ROOT / "notebooks" / "myautograd", "zh": ROOT / "notebooks" / "zh" / "myautograd"}
FILES = sorted(path.name for path in ANSWER_KEY.glob("*.py"))


def words(stub):
    """``[(kind, text)]``: the docstrings and the comments of a stub (lint directives aside)."""
    found = []
    tree = ast.parse(stub)
    for node in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef)))]:
        doc = ast.get_docstring(node)
        if doc is not None:
            found.append(("docstring", doc))
    for token in tokenize.generate_tokens(io.StringIO(stub).readline):
        if token.type == tokenize.COMMENT and re.sub(r"#\s*noqa\S*(\s+\S+)*", "", token.string).strip("# "):
            found.append(("comment", token.string))
    return found


@pytest.mark.parametrize("lang", EDITIONS)
@pytest.mark.parametrize("file", FILES)
def test_each_editions_stub_is_shipped_as_the_answer_key_makes_it(lang, file):
    made = make_stub((ANSWER_KEY / file).read_text(), lang=lang)
    assert (EDITIONS[lang] / file).read_text() == made, f"rebuild with: python tools/make_stubs.py ({lang})"


@pytest.mark.parametrize("file", FILES)
def test_the_english_stubs_hold_no_chinese(file):
    stub = (EDITIONS["en"] / file).read_text()
    assert MARK not in stub and not any(is_cjk(c) for c in stub), file
    assert len(words(stub)) >= 2


@pytest.mark.parametrize("file", FILES)
def test_the_chinese_stubs_hold_chinese_only(file):
    stub = (EDITIONS["zh"] / file).read_text()
    english = (EDITIONS["en"] / file).read_text()
    assert "见上文" not in stub, f"{file}: 见上文 left, with no English part above it"
    found, english_words = words(stub), words(english)
    assert len(found) == len(english_words), f"{file}: a docstring or comment lost or added"
    for (kind, text), (_kind, english_text) in zip(found, english_words, strict=True):
        if kind == "docstring" or is_prose(english_text):
            assert any(is_cjk(c) for c in text), f"{file}: an English {kind} in the Chinese stub: {text!r}"
        assert not text.lstrip("# ").startswith(MARK), f"{file}: {text[:30]!r}"
        first = english_text.lstrip("# -").split("\n")[0]
        assert first not in text or len(first) < 25, f"{file}: the English {kind} {first!r} is left in it"
    english_steps = sum(text.startswith("Step ") for kind, text in english_words if kind == "docstring")
    assert sum(text.startswith("步骤 ") for kind, text in found if kind == "docstring") == english_steps


@pytest.mark.parametrize("file", FILES)
def test_both_editions_are_the_same_code(file):
    en, zh = ((EDITIONS[lang] / file).read_text() for lang in ("en", "zh"))
    assert stubs.function_dumps(ast.parse(en)) == stubs.function_dumps(ast.parse(zh))
    assert re.findall(r'raise NotImplementedError\("[^"]*"\)', en) == \
        re.findall(r'raise NotImplementedError\("[^"]*"\)', zh)


def test_the_chinese_stubs_name_the_files_the_english_cites():
    zh = (EDITIONS["zh"] / "tensor.py").read_text()
    assert "PyTorch 中对应 AutogradMeta，出处：torch/csrc/autograd/variable.h。" in zh
    assert "文件：torch/_tensor.py、torch/csrc/autograd/variable.h。" in zh
    assert "由导数定义文件（tools/autograd/derivatives.yaml）生成" in (EDITIONS["zh"] / "ops.py").read_text()
