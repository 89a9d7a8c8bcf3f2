"""The build track and the exercise checks speak Chinese in the Chinese edition (buildtrack/i18n.py).

- Every message in the code has its translation in the zh_CN catalogues, none is unused, each keeps the
  fields of its template, and each compiled .mo is its .po compiled.
- Every planted mistake of tests/buildtrack_mistakes.py (those of chapters 10 and 11 included) gets a
  Chinese message: no English sentence is left outside code, quotes, PyTorch's own words and what the
  learner's code raised. (test_buildtrack.py runs the same mistakes in English.)
- The language follows the edition: notebooks/zh/ (or a copy of it) speaks Chinese, notebooks/ English;
  BUILDTRACK_LANG decides over both; ``python -m buildtrack`` also follows a Chinese locale.
- A verdict remembered in one language is never shown in the other.
- The exercise checks, the set-up check, and the texts the chapters hand to them, speak Chinese too.
"""
import ast
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "notebooks"))
sys.path.insert(0, str(ROOT / "tests"))

import buildtrack  # noqa: E402
import coursetools  # noqa: E402
from buildtrack import cache, differential, i18n  # noqa: E402
from buildtrack.cache import verdict  # noqa: E402
from buildtrack.package import ANSWER_KEY, LEARNER_PACKAGE, LEARNER_PACKAGES  # noqa: E402
from buildtrack.steps import STEPS  # noqa: E402
from buildtrack_mistakes import MISTAKES, NOT_STARTED, plant  # noqa: E402

CJK = re.compile(r"[\u3400-\u9fff]")


def english_left(message):
    """Runs of three or more English words left in a Chinese message, outside code (backquotes, calls,
    a program's numbered lines, reprs), quotes (PyTorch's words), and the text of an error after its name
    (``RuntimeError: Trying to backward through the graph a second time``: what PyTorch or the learner's
    code raised stays as it was raised)."""
    text = "\n".join(line for line in message.split("\n") if not re.match(r"\s+\d+  ", line))
    text = re.sub(r"<[^<>\n]*>", " ", text)
    text = re.sub(r"`[^`]*`|“[^”]*”|'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"", " ", text)
    text = re.sub(r"\w*(?:Error|Exception)\b(?:\(|（|: |：)[^\u3400-\u9fff\uff08-\uff1b\u3001\u3002]*",
                  " ", text)
    for _depth in range(3):
        text = re.sub(r"[\w.]+\([^()]*\)", " ", text)
    return re.findall(r"(?<![\w.])[A-Za-z]{2,}(?:[ ,]+[a-z]{2,}){2,}(?![\w(.])", text)


def assert_chinese(message):
    assert CJK.search(message), message
    assert english_left(message) == [], message


@pytest.fixture
def chinese(monkeypatch):
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")


# ---------------------------------------------------------------- the catalogues
@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_every_message_has_its_translation_and_none_is_unused(domain):
    """Each msgid the code marks (or a chapter hands to a check) is translated, not fuzzy, with the same
    fields; no entry is left over; the .mo is the compiled .po."""
    pytest.importorskip("polib")
    assert i18n.problems(domain) == []
    assert len(i18n.extracted(domain)) > {"buildtrack": 400, "coursetools": 50, "chapters": 150}[domain]


def test_the_translations_are_chinese():
    """A msgid with English words in it (outside its fields) has a translation with Chinese in it."""
    pytest.importorskip("polib")
    import polib
    for domain in i18n.DOMAINS:
        for entry in polib.pofile(str(i18n.po_path(domain))):
            words = re.findall(r"(?<![\w.])[a-z]{2,}(?![\w(.])", re.sub(r"\{[^{}]*\}", " ", entry.msgid))
            if len(words) >= 2:
                assert CJK.search(entry.msgstr), (domain, entry.msgid)


def test_no_checking_function_rebinds_the_underscore():
    """``_`` is gettext's: a ``for _ in ...`` in a function that also calls ``_("...")`` would call an int."""
    paths = sorted((ROOT / "notebooks" / "buildtrack").glob("*.py")) + [ROOT / "notebooks/coursetools.py"]
    for path in paths:
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            calls = any(isinstance(n, ast.Call) and getattr(n.func, "id", None) == "_"
                        for n in ast.walk(function))
            stores = [n.lineno for n in ast.walk(function)
                      if isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)]
            assert not (calls and stores), f"{path.name}:{stores}: {function.name} binds _ and calls _()"


def test_every_comment_of_the_random_programs_has_its_translation():
    """The programs a message shows carry comments (programs.json, HELPERS): each is in PROGRAM_COMMENTS."""
    shipped = json.loads(differential.PROGRAMS_FILE.read_text())
    sources = [statement for programs in shipped["levels"].values() for program in programs
               for statement in program["statements"]]
    sources += [text for helper in differential.HELPERS.values() for text in helper.values()]
    comments = {line.partition("  # ")[2] for source in sources for line in source.split("\n")
                if "  # " in line}
    assert comments <= set(differential.PROGRAM_COMMENTS), comments - set(differential.PROGRAM_COMMENTS)


# ---------------------------------------------------------------- the build track in Chinese
@pytest.fixture
def planted(tmp_path):
    def planted_copy(file, old, new):
        directory = tmp_path / "myautograd"
        shutil.copytree(ANSWER_KEY, directory)
        plant(directory, file, old, new)
        return directory
    return planted_copy


@pytest.mark.parametrize("step_id, file, old, new, words", MISTAKES,
                         ids=[f"{m[0]}-{i}" for i, m in enumerate(MISTAKES)])
def test_a_planted_mistake_is_named_in_chinese(chinese, planted, step_id, file, old, new, words):
    result = verdict(step_id, planted(file, old, new))
    assert result.status == "wrong", f"{result.mark} {result.message}"
    assert_chinese(result.message)


@pytest.mark.parametrize("step_id, file, old, new, words", NOT_STARTED, ids=[m[0] for m in NOT_STARTED])
def test_a_rewrite_not_started_is_not_done_yet_in_chinese(chinese, planted, step_id, file, old, new, words):
    result = verdict(step_id, planted(file, old, new))
    assert result.status == "todo", f"{result.mark} {result.message}"
    assert_chinese(result.message)


def _shown_program(message):
    return "\n".join(re.sub(r"^    \s*\d+  ", "", line) for line in message.split("\n\n")[1].splitlines())


def test_a_random_program_is_shown_in_chinese_and_runs_as_shown(chinese, planted):
    """The program a message shows, with its comments in Chinese, runs on the learner's package as shown."""
    from buildtrack_mistakes import HOOK_NONE_AS_GRADIENT
    from buildtrack.package import Wrong, load
    directory = planted("engine.py", *HOOK_NONE_AS_GRADIENT)
    with pytest.raises(Wrong) as caught:
        differential.check(load(directory), "03.2")
    message = str(caught.value)
    assert_chinese(message)
    assert "mini_autograd（在这一点上它与 PyTorch 2.13 一致）" in message
    assert "出错的部件：run_backward（步骤 03.2）" in message
    program = _shown_program(message)
    assert "seen = []  # 钩子看到的值" in program
    run = subprocess.run([sys.executable, "-c", program], cwd=directory.parent, capture_output=True,
                         text=True, timeout=60)
    assert "NameError" not in run.stderr and "SyntaxError" not in run.stderr, run.stderr + program


def test_a_line_a_chinese_message_names_is_the_line_of_the_shown_program(chinese, planted):
    import mini_autograd
    from buildtrack.package import load
    directory = planted("ops.py", "        result = Tensor(np.exp(a._data))\n",
                        "        raise ValueError(\"boom\")\n")
    program = differential.Program(["a = torch.tensor([1.0], requires_grad=True)", "t1 = a.exp()",
                                    "loss = t1.sum()", "backward(loss)"], helpers=("backward",))
    found = differential.differences(differential.run(program, load(directory)),
                                     differential.run(program, mini_autograd))
    message = differential.message(program, found, None)
    numbers = [int(n) for n in re.findall(r"第 (\d+) 行：", message)]
    assert numbers, message
    shown = [line for line in message.split("\n\n")[1].splitlines()
             if re.match(rf"^    \s*{numbers[0]}  ", line)]
    assert shown and shown[0].endswith("t1 = a.exp()"), message
    assert "你的是 'ValueError: boom'；mini_autograd 的是 （无报错）" in message


@pytest.mark.parametrize("package", [LEARNER_PACKAGES["zh"], LEARNER_PACKAGE], ids=["zh-stubs", "en-stubs"])
def test_the_stubs_are_not_done_yet_in_chinese(chinese, package):
    for step_id in STEPS:
        result = verdict(step_id, package)
        assert result.status == "todo"
        assert_chinese(result.message)
    first = verdict("01.1", package).message
    assert first == "尚未完成：请填写 myautograd/tensor.py 中的 Tensor.__init__。"


def test_check_mine_and_progress_print_chinese(chinese, capsys):
    buildtrack.check("01.1", answers=True)
    assert capsys.readouterr().out.startswith("✅ 步骤 01.1（张量的 autograd 字段）：张量带有")
    assert buildtrack.mine("02.1") is None
    assert capsys.readouterr().out.startswith(
        "⏳ 这一部分要等步骤 02.1（边：gradient_edge 与 AccumulateGrad）完成后")
    buildtrack.progress(chapters=["01", "02"])
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("⏳ 01.1  张量的 autograd 字段") and rows[-1] == \
        "共 4 个步骤，已完成 0 个；下一步：步骤 01.1（张量的 autograd 字段）。"
    # The next step's row says what to do; the rows after it wait without repeating it.
    assert "尚未完成" in rows[0] and not any("请先完成" in row for row in rows[1:4])


# ---------------------------------------------------------------- which language
def test_the_language_follows_the_edition(monkeypatch, tmp_path):
    monkeypatch.delenv("BUILDTRACK_LANG", raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")                  # the machine's locale does not choose
    monkeypatch.chdir(ROOT / "notebooks")
    assert i18n.language() == "en"
    monkeypatch.chdir(ROOT / "notebooks" / "zh")
    assert i18n.language() == "zh"
    copy = tmp_path / "course" / "zh"                           # a copy of the edition (the browser test's)
    copy.mkdir(parents=True)
    (copy / "00_welcome.ipynb").write_text("{}")
    monkeypatch.chdir(copy)
    assert i18n.language() == "zh"
    monkeypatch.chdir(tmp_path / "course")
    assert i18n.language() == "en"
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")
    assert i18n.language() == "zh"
    monkeypatch.chdir(copy)
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    assert i18n.language() == "en"


def test_a_command_line_follows_a_chinese_locale():
    assert i18n.locale_is_chinese({"LANG": "zh_CN.UTF-8"})
    assert i18n.locale_is_chinese({"LANG": "zh"})
    assert not i18n.locale_is_chinese({"LANGUAGE": "en_US:zh_CN", "LANG": "zh_CN.UTF-8"})
    assert not i18n.locale_is_chinese({"LANG": "C.UTF-8"})


@pytest.mark.parametrize("environment, first_line, last_line", [
    ({"LANG": "zh"}, "正在检查参考答案（answers/myautograd）", "共 22 个步骤，已完成 22 个。"),
    ({"LANG": "zh_CN.UTF-8", "BUILDTRACK_LANG": "en"}, "Checking the answer key (answers/myautograd)",
     "22 of 22 steps done."),
])
def test_make_progress_speaks_the_language_it_is_asked_for(environment, first_line, last_line):
    env = {k: v for k, v in os.environ.items()
           if k not in ("BUILDTRACK_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(environment)
    run = subprocess.run([sys.executable, "-m", "buildtrack", "--answers"], cwd=ROOT / "notebooks", env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == first_line
    assert lines[-1] == last_line
    assert sum(line.startswith("✅") for line in lines) == len(STEPS)


# ---------------------------------------------------------------- the cache
def test_a_remembered_verdict_is_never_shown_in_the_other_language(planted, monkeypatch, tmp_path):
    """The verdict cache (memory and disk) keeps each verdict with its language: switching the language
    computes the verdict again, switching back finds the first one."""
    monkeypatch.setattr(cache, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(cache, "_memory", {})
    monkeypatch.delenv("BUILDTRACK_CACHE", raising=False)
    directory = planted("ops.py", "return grad * b, grad * a", "return b, a")
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    english = verdict("03.1", directory)
    assert "ignores grad" in english.message
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")
    chinese = verdict("03.1", directory)
    assert "忽略了 grad" in chinese.message and chinese.status == english.status == "wrong"
    monkeypatch.setattr(cache, "_memory", {})                # from the disk now
    assert verdict("03.1", directory).message == chinese.message
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    assert verdict("03.1", directory).message == english.message
    stored = json.loads((tmp_path / "cache" / "03.1.json").read_text())
    assert {entry["language"] for entry in stored} == {"en", "zh"}


# ---------------------------------------------------------------- the exercise checks
def _printed(capsys, call):
    call()
    return capsys.readouterr().out


def test_the_exercise_checks_speak_chinese(chinese, capsys):
    import mini_autograd as torch
    hint = "The mean divides by 3, and d(x³)/dx = 3x². Combine the two for each entry."     # chapter 03's
    calls = [
        lambda: coursetools.check_answer(..., 1.0, right="r", hint=hint),
        lambda: coursetools.check_answer(None, 1.0, right="r", hint=hint),
        lambda: coursetools.check_answer(len, 1.0, right="r", hint=hint),
        lambda: coursetools.check_answer("abc", 1.0, right="r", hint=hint),
        lambda: coursetools.check_answer([1.0, None], [1.0, 2.0], right="r", hint=hint),
        lambda: coursetools.check_answer([1.0, 2.0, 3.0], [1.0, 2.0], right="r", hint=hint),
        lambda: coursetools.check_answer(torch.tensor(2.0), 3.0, right="r", hint=hint),
        lambda: coursetools.check_answer("mulbackward0", "MulBackward0", right="r", hint=hint),
        lambda: coursetools.check_answer("MulBackward", "MulBackward0", right="r", hint=hint),
        lambda: coursetools.check_answer(1, True, right="r", hint=hint),
        lambda: coursetools.check_answer(("a",), ("MulBackward0", None), right="r", hint=hint),
        lambda: coursetools.can_check(3, hint, kind=callable,
                                      what="a function, def square_until_big(x): ..."),
        lambda: coursetools.can_check([1, 2, 3], hint, kind=list, length=2, what="a list of three numbers"),
        lambda: coursetools.not_answered(hint, what="your code"),
        lambda: coursetools.run_check(lambda: 1 / 0, hint),
        lambda: coursetools.setup_check(),
    ]
    for call in calls:
        for line in _printed(capsys, call).splitlines():
            if line.strip() and not line.startswith("  "):          # (install commands, indented)
                assert_chinese(line)
    versions = _printed(capsys, coursetools.print_versions)
    assert "graphviz（Python 包）：" in versions and english_left(versions) == []
    wrong = _printed(capsys, lambda: coursetools.check_answer(2.0, 3.0, right="r", hint=hint))
    assert wrong == ("❌ 还不对。均值要除以 3，而 d(x³)/dx = 3x²。对每个元素把这两点结合起来。"
                     "（你的答案：2.0）\n")
    right = _printed(capsys, lambda: coursetools.check_answer(
        3.0, 3.0, right="d/dx_i of (x_1³ + x_2³ + x_3³)/3 is 3x_i²/3 = x_i².", hint=hint))
    assert right == "✅ 正确。(x_1³ + x_2³ + x_3³)/3 对 x_i 的导数是 3x_i²/3 = x_i²。\n"


def _sample(template, fill):
    """A text the chapter's f-string would make: each field of ``template`` filled by ``fill(token)``."""
    return "".join(fill(value) if kind == "field" else value
                   for kind, value in i18n.template_pieces(template))


def test_every_text_a_chapter_hands_to_a_check_comes_out_in_chinese(chinese):
    """Each chapter text, made as its f-string makes it (numbers in its fields, or another of the chapter's
    texts where it names one, as ``{hint}``), is found in the catalogue, and its values are kept."""
    texts = list(i18n.extracted("chapters"))
    plain = [text for text in texts
             if not any(kind == "field" for kind, _value in i18n.template_pieces(text))]
    hint = _sample(plain[0], str)
    for template in texts:
        def fill(token):
            name = token.strip("{}").split("!")[0].split(":")[0]
            return hint if name in ("hint", "problem", "why", "where", "DIM_HINT") else "[1.5, 2.25]"
        made = _sample(template, fill)
        translated = i18n.chapter_text(made)
        assert translated != made and CJK.search(translated), made
        if "[1.5, 2.25]" in made:
            assert "[1.5, 2.25]" in translated, (made, translated)
        if hint in made:
            assert i18n.chapter_text(hint) in translated, (made, translated)
        assert english_left(translated) == [], (made, translated)


def test_english_is_the_text_as_written(monkeypatch):
    """In English nothing is looked up: the texts are the code's, byte for byte."""
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    hint = "The mean divides by 3, and d(x³)/dx = 3x². Combine the two for each entry."
    assert i18n.chapter_text(hint) is hint
    assert i18n._("the recording rule") == "the recording rule"
