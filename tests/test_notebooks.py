"""Checks on the course notebooks beyond nbval's replay of their stored outputs.

- Each notebook is what its percent-format source in notebooks/src builds.
- Each exercise's shipped solution, put in place of the placeholder, makes its
  check cell print a ✅, and a wrong answer a ❌ (so the checks can tell right from wrong).
- Each chapter has the frame the course promises: a first cell saying what you
  will learn, a recap, and a link to the next chapter.
- In both editions (issue 37): an exercise's check cell is one call, ``check_exercise("N.k")``, its code
  collapsed and hidden (the expected answer lives in notebooks/exercises/); each exercise reads answers of its
  own; a cell that fails on purpose says so first and shows only the error's message; a listing that answers
  a build step is folded, after the step's check; and each exercise, answered wrong, is told what is wrong
  without being given the answer, then passes with its solution.
"""
import pathlib
import re
import sys

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))
sys.path.insert(0, str(ROOT / "tools"))

import nbbuild  # noqa: E402

SOLUTION = re.compile(r"<details>.*?```python\n(.*?)```", re.S)


def exercises(nb):
    """(exercise cell index, check cell index, solution code) for each exercise."""
    found = []
    cells = nb.cells
    for i, cell in enumerate(cells):
        if cell.cell_type == "code" and cell.source.startswith("# Exercise"):
            check = i + 1
            solution_cell = cells[i + 2] if i + 2 < len(cells) else None
            match = SOLUTION.search(solution_cell.source) if solution_cell is not None else None
            found.append((i, check, match.group(1) if match else None))
    return found


def test_notebooks_exist():
    assert NOTEBOOKS, "no chapters in notebooks/"


def test_notebooks_match_their_sources():
    assert nbbuild.check_sources() == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_frame(path):
    nb = nbformat.read(path, as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# "), "first cell: a title"
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    if path != NOTEBOOKS[-1]:                    # the last chapter (13, the appendix) has no next one
        number = int(path.stem[:2]) + 1
        assert re.search(rf"\]\({number:02d}_[a-z_]+\.ipynb\)", text), "a link to the next chapter"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.execution_count is not None, "every code cell executed and stored"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_each_chapter_has_exercises_with_solutions(path):
    """Two or three exercises per chapter (00 and 12 aside), each with a <details> solution holding a python
    block after its check; test_each_exercise_answered_wrong_then_right runs them."""
    nb = nbformat.read(path, as_version=4)
    found = exercises(nb)
    if path.stem[:2] not in ("00", "12"):
        assert len(found) >= 2, "two or three exercises per chapter"
    for exercise, _, solution in found:
        assert solution is not None, (
            f"cell {exercise}: no <details> solution with a python block after the check")


# ------------------------------------------------------------------ issue 37: checks out of sight
ZH_NOTEBOOK_DIR = NOTEBOOK_DIR / "zh"
ZH_NOTEBOOKS = sorted(ZH_NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))
BOTH = NOTEBOOKS + ZH_NOTEBOOKS


def _edition_id(path):
    return ("zh/" if path.parent.name == "zh" else "") + path.stem


CHECK_CALL = re.compile(r'(?:from exercises import check_exercise\n)?check_exercise\("(\d+\.\d+)"\)\n?')
# What only the exercises' checks may call: a chapter's code cell that calls one shows how an exercise is
# judged.
CHECK_INSIDES = re.compile(r"(?<![\w.])(check_answer|can_check|run_check|not_answered|which_parts)\(")


@pytest.mark.parametrize("path", BOTH, ids=_edition_id)
def test_an_exercise_check_cell_is_one_call_and_its_code_is_hidden(path):
    """The check cell under an exercise holds ``check_exercise("N.k")`` (and its import) and nothing else: the
    expected answer and the messages live in notebooks/exercises/. Its code is collapsed in JupyterLab and
    hidden on the website."""
    nb = nbformat.read(path, as_version=4)
    for exercise, check, _solution in exercises(nb):
        number = nb.cells[exercise].source.split()[2]
        cell = nb.cells[check]
        found = CHECK_CALL.fullmatch(cell.source)
        assert found and found.group(1) == number, (
            f"cell {check}, the check of exercise {number}, holds more than check_exercise({number!r}):\n"
            f"{cell.source}")
        assert "hide-input" in cell.metadata.get("tags", []), f"cell {check}: no hide-input tag (the site)"
        assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, (
            f"cell {check}: its code is not collapsed in JupyterLab (source_hidden)")
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert not CHECK_INSIDES.search(cell.source), (
                f"cell {index} judges an answer in the open: {CHECK_INSIDES.search(cell.source).group(0)}")


def _defines(source, name):
    """Does ``source`` (a code cell) assign ``name``, or define a function or class of that name?"""
    import ast
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id == name:
            return True
    return False


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_each_exercise_has_answer_names_of_its_own(path):
    """What an exercise's check reads from the exercise cell (``answer_1_1``, ``derivatives``) is made in that
    cell and in no other code cell of the chapter: a check never reads another exercise's answer, nor a name
    a later cell changed. (The Chinese edition's code is the same: tests/test_zh.py.)"""
    sys.path.insert(0, str(NOTEBOOK_DIR))
    import exercises as exercise_checks

    nb = nbformat.read(path, as_version=4)
    for exercise, _check, solution in exercises(nb):
        number = nb.cells[exercise].source.split()[2]
        names = exercise_checks.answer_names(number)
        assert names, number
        for name in names:
            places = [i for i, cell in enumerate(nb.cells)
                      if cell.cell_type == "code" and _defines(cell.source, name)]
            assert places == [exercise], f"{number}: {name} is made in cells {places}, not in {exercise}"
            assert solution is not None and _defines(solution, name), f"{number}: its solution lacks {name}"


INTRO = {"en": "fails on purpose", "zh": "故意出错"}


# A cell's own try/except at its top level (not a guard such as ``except ImportError``): an error it shows.
CAUGHT = re.compile(r"^except (?:\w+\.)*(\w+)(?: as \w+)?:", re.M)
GUARDS = {"ImportError", "ModuleNotFoundError"}


@pytest.mark.parametrize("path", BOTH, ids=_edition_id)
def test_a_cell_that_fails_on_purpose_says_so_and_shows_only_the_message(path):
    """No stored cell ends in a traceback. A cell that fails on purpose catches its error with
    ``coursetools.expect_error`` and prints it as PyTorch's traceback ends (``RuntimeError: <message>``), and
    the markdown cell just before it says, in the edition's language, that it fails on purpose, with which
    error. A cell that catches an error itself (``try: ... except RuntimeError as error: print(...)``, at its
    top level) is announced the same way and shows no traceback nor the engine's files either."""
    edition = "zh" if path.parent.name == "zh" else "en"
    nb = nbformat.read(path, as_version=4)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        assert "NBVAL_RAISES_EXCEPTION" not in cell.source, f"cell {index}: an error left as a traceback"
        assert not [o for o in cell.outputs if o.output_type == "error"], f"cell {index}: a traceback"
        code = re.sub(r'""".*?"""', "", cell.source, flags=re.S)      # (not a program kept in a string)
        caught = [kind for kind in CAUGHT.findall(code) if kind not in GUARDS]
        if caught:
            before = nb.cells[index - 1]
            last = before.source.rstrip().split("\n\n")[-1] if before.cell_type == "markdown" else ""
            last = " ".join(last.split())
            assert INTRO[edition] in last and f"`{caught[0]}`" in last, (
                f"cell {index} catches a {caught[0]}, and the text before it does not say that it fails on "
                f"purpose ({caught[0]}): {last!r}")
            printed = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            assert "Traceback" not in printed and "mini_autograd/" not in printed, (
                f"cell {index}: {printed!r}")
        calls = re.findall(r"with expect_error\((\w+)\)", cell.source)
        if not calls:
            continue
        before = nb.cells[index - 1]
        assert before.cell_type == "markdown", f"cell {index}: no text introduces the error"
        last = before.source.rstrip().split("\n\n")[-1]
        assert INTRO[edition] in last and f"`{calls[0]}`" in last, (
            f"cell {index}: the text before it does not say that it fails on purpose ({calls[0]}): {last!r}")
        printed = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        assert re.search(rf"^{calls[0]}: \S", printed, re.M), f"cell {index} shows no error: {printed!r}"
        assert "Traceback" not in printed and "mini_autograd/" not in printed, f"cell {index}: {printed!r}"


@pytest.mark.parametrize("path", BOTH, ids=_edition_id)
def test_a_listing_that_answers_a_build_step_comes_folded_after_its_check(path):
    """``answer_fold("NN.k")`` shows mini_autograd's version of step NN.k in a closed <details> box saying so,
    after the step's check cell; chapters 01 and 03 have such listings."""
    nb = nbformat.read(path, as_version=4)
    checked, folds = set(), []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        checked |= set(re.findall(r'buildtrack\.check\("(\d\d\.\d)"\)', cell.source))
        for step in re.findall(r'answer_fold\("(\d\d\.\d)"\)', cell.source):
            assert step in checked, f"cell {index}: the answer of step {step} comes before its check"
            shown = [o for o in cell.outputs if o.output_type == "display_data"]
            assert len(shown) == 1, f"cell {index}: one folded listing"
            page = shown[0].data["text/html"]
            assert page.startswith("<details><summary>") and "<details open" not in page
            assert step in page.split("</summary>")[0], f"cell {index}: the fold does not name step {step}"
            folds.append(step)
    if path.stem.startswith("01"):
        assert folds == ["01.1", "01.2"]
    if path.stem.startswith("03"):
        assert folds == ["03.1"]


# Each exercise answered wrong, as a learner would: the exercise cell's placeholder line replaced by the first
# string (or, for a string that starts with "def ", the whole cell), what the verdict must name (English,
# Chinese; None: nothing asked), and patterns the wrong verdict must not hold (the answer, or its key step).
WRONG = {
    "0.1": ("answer_0_1 = 5.0", None, None, [r"\b10\b"]),
    "1.1": ("answer_1_1 = (6.75, -3.0)", "In your answer, x.grad is wrong; y.grad is right",
            "你的答案中，x.grad 不对；y.grad 是对的",
            [r"7\.75"]),
    "1.2": ("answer_1_2 = (True, True, True, False)",
            "In your answer, d.requires_grad is wrong;", "你的答案中，d.requires_grad 不对；",
            [r"True, False, True, False"]),
    "1.3": ("def derivatives(points):\n    grads = []\n    for p in points:\n"
            "        x = torch.tensor(p, requires_grad=True)\n        (x ** 3 - x).backward()\n"
            "        grads.append(x.grad.item())\n    return torch.tensor(grads)\n",
            "3 backward passes", "3 次反向传播", [r"\b26\b"]),
    "2.1": ('answer_2_1 = "SumBackward0"', None, None, [r"MulBackward0"]),
    "2.2": ("answer_2_2 = 4", None, None, [r"\b5\b"]),
    "2.3": ('answer_2_3 = ("AddBackward0", None)', "In your answer, the first entry (for a * 2) is wrong;",
            "你的答案中，第一项（对应 a * 2） 不对；", [r"MulBackward0"]),
    "3.1": ("answer_3_1 = [3.0, 12.0, 27.0]", "In your answer, x.grad[0], x.grad[1], x.grad[2] are wrong.",
            "你的答案中，x.grad[0]、x.grad[1]、x.grad[2] 都不对。", [r"1\.0, 4\.0, 9\.0"]),
    "3.2": ("answer_3_2 = torch.tensor([1.0, 1.0, 1.0])", None, None,
            [r"2\.0, 1\.0, -1\.0", r"4\., 4\., -6\."]),
    "3.3": ("answer_3_3 = (True, False, False)",
            "In your answer, b is wrong; a, c are right", "你的答案中，b 不对；a、c 都是对的",
            [r"True, True, False"]),
    "4.1": ('answer_4_1 = {"p", "s"}', "leaves missing from it: 1", "漏写的叶子张量：1 个", [r"'r'"]),
    "4.2": ("answer_4_2 = u.grad", "u.grad is None", "u.grad 是 None", [r"retain_grad"]),
    "4.3": ("answer_4_3 = w_buggy", "w is not a leaf", "不是叶子张量", [r"requires_grad_\(\)"]),
    "5.1": ("answer_5_1 = 6.0", None, None, [r"\b18\b"]),
    "5.2": ("answer_5_2 = train()", None, None, [r"w\.grad = None", r"zero_"]),
    "5.3": ("answer_5_3 = [1 / 3, 1 / 3, 1 / 3]",
            "In your answer, answer_5_3[0], answer_5_3[1], answer_5_3[2] are wrong.",
            "你的答案中，answer_5_3[0]、answer_5_3[1]、answer_5_3[2] 都不对。", [r"\b0\.25\b", r"1/4"]),
    "6.1": ("answer_6_1 = (True, False, True, False, False, False)",
            "In your answer, d is wrong; a, b, c, e, f are right",
            "你的答案中，d 不对；a、b、c、e、f 都是对的",
            [r"True, False, True, True, False, False"]),
    "6.2": ("answer_6_2 = train_with_logging()", None, None, [r"detach\(\)\.mean"]),
    "6.3": ("answer_6_3 = (True, False, 3.0, 0)",
            "In your answer, y[0].item(), y._version are wrong; d.is_leaf, d.requires_grad are right",
            "你的答案中，y[0].item()、y._version 都不对；d.is_leaf、d.requires_grad 都是对的", [r"\b100\b"]),
    "7.1": ('answer_7_1 = "self"', None, None, [r"result"]),
    "7.2": ("answer_7_2 = 8000", None, None, [r"12[,_]?000"]),
    "7.3": ("answer_7_3 = torch.tensor([1.0, 2.0, 3.0])", None, None, [r"20\.1", r"4\.0, 20"]),
    "8.1": ("answer_8_1 = 2", None, None, [r"\b3\b"]),
    "8.2": ('answer_8_2 = "TanhBackward0"', "first edge", "第一条边", [r"ExpBackward0"]),
    "8.3": ("answer_8_3 = (7.0, 2)",
            "In your answer, the number of gradients is wrong; the value in the buffer is right",
            "你的答案中，梯度的个数 不对；缓冲区里的值 是对的", [r"\b3\b"]),
    "9.1": ("answer_9_1 = 7", None, None, [r"\b9\b"]),
    "9.2": ("def square_until_big(x):\n    if x < 100:\n        x = x * x\n    return x\n",
            "the loop stopped too early", None, []),
    "9.3": ("answer_9_3 = [4.0, -4.0]",
            "In your answer, the gradient at x = -2 is wrong; the gradient at x = 2 is right",
            "你的答案中，x = -2 处的梯度 不对；x = 2 处的梯度 是对的", [r"\b3(\.0)?\b"]),
    "10.1": ('answer_10_1 = ["pred = model(x)", "loss = loss_fn(pred, y)", "loss.backward()", '
             '"optimizer.zero_grad()", "optimizer.step()"]', "trains the model differently", None,
             [r"zero_grad\(\)\", \"pred"]),
    "10.2": ("answer_10_2 = -0.8", None, None, [r"-2\b"]),
    "10.3": ("def accuracy(logits, labels):\n"
             "    return (logits.argmax(dim=0) == labels).float().mean().item()\n",
             "argmax(dim=0)", "argmax(dim=0)", []),
    "11.1": (None, None, None, [r"sigmoid"]),                  # (see _wrong_cell: backward without the 1 +)
    "11.2": ("answer_11_2 = 4.0", None, None, [r"\b12\b"]),
    "11.3": ("def double(grad):\n    grad.mul_(2)\n", "in place", "原地", [r"grad \* 2"]),
    "12.1": ("def by_hand(w, b, x, y):\n    a = math.tanh(w * x + b)\n    dL_dp = 2 * (a - y) * (1 - a * a)\n"
             "    return dL_dp, dL_dp * x\n", "swapped", None, []),
    "12.2": ("def engine_order(root):\n    order, seen = [], set()\n\n    def visit(node):\n"
             "        if node is None or node in seen:\n            return\n        seen.add(node)\n"
             "        order.append(node)\n        for next_node, _ in node.next_functions:\n"
             "            visit(next_node)\n\n    visit(root)\n    return order\n", None, None, []),
    "12.3": ("def train(steps=30):\n    return broken_train(steps)\n", "RuntimeError", "RuntimeError", []),
    "12.4": ("answer_12_4 = 0.333", None, None, [r"never change", r"\b1\.0\b"]),
    "13.1": ("answer_13_1 = 4", None, None, [r"SinBackward0"]),
    "13.2": ("answer_13_2 = 2", None, None, [r"\b122\b"]),
    "13.3": ("answer_13_3 = (3, 1)", None, None, [r"\(1, 3\)"]),
}


def _wrong_cell(number, source):
    """The exercise cell of ``number`` answered wrong."""
    wrong = WRONG[number][0]
    if number == "11.1":
        return source.replace("return ...  # your code here: the gradient with respect to x",
                              "return grad_output * x.exp() / x.exp()")
    if wrong.startswith(("def ", "class ")):
        return f"# Exercise {number}\n{wrong}"
    name = wrong.split(" = ")[0]
    changed = re.sub(rf"^{name} = \.\.\..*$", lambda _m: wrong, source, flags=re.M)
    assert changed != source, f"exercise {number}: no placeholder line for {name}"
    return changed


def _printed(cell):
    """What a cell printed, and the plain text of what it displayed (a check's verdict, shown as HTML)."""
    return "".join(o.get("text", "") if o.output_type == "stream" else o.get("data", {}).get("text/plain", "")
                   for o in cell.outputs if o.output_type in ("stream", "display_data"))


@pytest.mark.parametrize("path", BOTH, ids=_edition_id)
def test_each_exercise_answered_wrong_then_right(path):
    """As a learner: each exercise answered wrong first (its check says ❌, names what is wrong, and does not
    give the answer away), then with its shipped solution (✅); in each edition's language."""
    from nbclient import NotebookClient

    edition = "zh" if path.parent.name == "zh" else "en"
    nb = nbformat.read(path, as_version=4)
    found = exercises(nb)
    if not found:
        return
    checks = []                          # (number, the check cell of the wrong answer, of the right one)
    cells = list(nb.cells)
    for exercise, check, solution in reversed(found):
        number = cells[exercise].source.split()[2]
        cells[exercise].source = _wrong_cell(number, cells[exercise].source)
        right = nbformat.v4.new_code_cell(solution)
        again = nbformat.v4.new_code_cell(cells[check].source)
        cells[check + 1:check + 1] = [right, again]
        checks.append((number, cells[check], again))
    nb.cells = cells
    NotebookClient(nb, timeout=180, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    for number, wrong_check, right_check in checks:
        wrong, right = _printed(wrong_check), _printed(right_check)
        assert wrong.startswith("❌"), f"exercise {number}, answered wrong: {wrong!r}"
        _code, name_en, name_zh, leaks = WRONG[number]
        named = name_zh if edition == "zh" else name_en
        if named:
            assert named in wrong, f"exercise {number}: {named!r} not in {wrong!r}"
        for leak in leaks:
            assert not re.search(leak, wrong), f"exercise {number} gives its answer away ({leak}): {wrong!r}"
        if edition == "zh":                # Chinese, with no English sentence left outside code and quotes
            sys.path.insert(0, str(ROOT / "tests"))
            from test_buildtrack_i18n import english_left

            for verdict in (wrong, right):
                assert re.search(r"[\u3400-\u9fff]", verdict) and english_left(verdict) == [], verdict
        assert right.startswith("✅"), f"exercise {number}, its solution: {right!r}"
