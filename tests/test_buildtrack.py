"""The build track proves three states: stubs say "not done yet", the answer key passes, mistakes are named.

The learner's package ships as stubs in notebooks/myautograd (and, its docstrings in
Chinese, in notebooks/zh/myautograd), made from the answer key in answers/myautograd
by tools/make_stubs.py; the checks live in notebooks/buildtrack.
"""
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "notebooks"))
sys.path.insert(0, str(ROOT / "tools"))

import buildtrack  # noqa: E402
import make_stubs  # noqa: E402
from buildtrack.cache import verdict  # noqa: E402
from buildtrack.package import ANSWER_KEY, LEARNER_PACKAGE, LEARNER_PACKAGES  # noqa: E402
from buildtrack.steps import STEPS  # noqa: E402
from buildtrack_mistakes import HOOK_NONE_AS_GRADIENT, MISTAKES, NOT_STARTED, plant  # noqa: E402

STEP_IDS = list(STEPS)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_shipped_stubs_are_the_answer_key_without_its_solutions(lang):
    package = LEARNER_PACKAGES[lang]
    assert package == make_stubs.EDITIONS[lang]
    for name, text in make_stubs.expected_stubs(lang).items():
        assert (package / name).read_text() == text, (
            f"rebuild with: python tools/make_stubs.py ({lang}: {name})")
    assert {p.name for p in package.glob("*.py")} == {p.name for p in ANSWER_KEY.glob("*.py")}


def test_each_edition_checks_its_own_package(monkeypatch):
    """A chapter's check cell checks the package beside it: notebooks/myautograd from an English chapter,
    notebooks/zh/myautograd from a Chinese one (or with BUILDTRACK_LANG=zh: make progress LANG=zh)."""
    from buildtrack.package import package_dir
    monkeypatch.delenv("BUILDTRACK_ANSWERS", raising=False)
    monkeypatch.delenv("BUILDTRACK_LANG", raising=False)
    monkeypatch.chdir(ROOT / "notebooks")
    assert package_dir() == LEARNER_PACKAGE == ROOT / "notebooks" / "myautograd"
    monkeypatch.chdir(ROOT / "notebooks" / "zh")
    assert package_dir() == LEARNER_PACKAGES["zh"] == ROOT / "notebooks" / "zh" / "myautograd"
    assert package_dir(answers=True) == ANSWER_KEY
    monkeypatch.chdir(ROOT / "notebooks")
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")
    assert package_dir() == LEARNER_PACKAGES["zh"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_stubs_of_both_editions_get_the_same_verdicts(lang, monkeypatch):
    """The editions' stubs differ in their words only: each step is "not done yet", naming the same piece."""
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    for step_id in ("01.1", "03.1", "07.1"):
        assert verdict(step_id, LEARNER_PACKAGES[lang]).message == verdict(step_id, LEARNER_PACKAGE).message


def test_the_shipped_random_programs_are_the_ones_hypothesis_writes():
    """notebooks/buildtrack/programs.json holds every level's programs, as the generator writes them now."""
    from buildtrack import differential
    assert differential.shipped_programs(), "rebuild with: python tools/buildtrack_programs.py"
    assert differential.PROGRAMS_FILE.read_text() == differential.programs_file_text(), (
        "rebuild with: python tools/buildtrack_programs.py")


def test_the_shipped_reference_results_are_mini_autograds():
    """notebooks/buildtrack/reference_runs.json holds mini_autograd's result of every shipped program, as it
    runs now (compared as the checks compare: a last bit of a matrix product may differ on another CPU)."""
    from buildtrack import differential
    shipped = differential.shipped_reference_results()
    assert shipped, "rebuild with: python tools/buildtrack_programs.py (mini_autograd or the checks changed)"
    assert set(shipped) == set(differential.STEPS)
    import mini_autograd
    for level, programs in differential.shipped_programs().items():
        features = differential.features_for(level)
        assert len(shipped[level]) == len(programs)
        for program, result in zip(programs, shipped[level], strict=True):
            live = differential.run(program, mini_autograd, features)
            assert list(result) == list(live), program.source("mini_autograd")
            assert not differential.differences(result, live), (program.source("mini_autograd"),
                                                                  differential.differences(result, live))


@pytest.mark.parametrize("step_id", STEP_IDS)
def test_with_the_stubs_every_step_is_not_done_yet(step_id):
    result = verdict(step_id, LEARNER_PACKAGE)
    assert result.status == "todo", result.message
    assert "Traceback" not in result.message


def test_the_first_stub_names_the_piece_and_the_file():
    result = verdict(STEP_IDS[0], LEARNER_PACKAGE)
    assert result.message == "not done yet: fill in Tensor.__init__ in myautograd/tensor.py."


@pytest.mark.parametrize("step_id", STEP_IDS)
def test_with_the_answer_key_every_step_is_done(step_id):
    result = verdict(step_id, ANSWER_KEY)
    assert result.status == "done", result.message


@pytest.fixture
def planted(tmp_path):
    """A copy of the answer key with one mistake planted: ``planted(file, old, new) -> directory``.

    ``old`` and ``new`` may be tuples of texts, replaced pairwise.
    """
    def planted_copy(file, old, new):
        directory = tmp_path / "myautograd"
        shutil.copytree(ANSWER_KEY, directory)
        plant(directory, file, old, new)
        return directory
    return planted_copy


@pytest.mark.parametrize("step_id, file, old, new, words", MISTAKES,
                         ids=[f"{m[0]}-{i}" for i, m in enumerate(MISTAKES)])
def test_a_planted_mistake_is_rejected_with_its_message(planted, step_id, file, old, new, words):
    result = verdict(step_id, planted(file, old, new))
    assert result.status == "wrong", f"{result.mark} {result.message}"
    assert words in result.message, result.message


@pytest.mark.parametrize("step_id", STEP_IDS)
def test_every_step_rejects_at_least_two_planted_mistakes(step_id):
    assert sum(m[0] == step_id for m in MISTAKES) >= 2


def test_a_syntax_error_is_a_message_not_a_traceback(planted):
    directory = planted("engine.py", "def run_backward(tensor, gradient, retain_graph=False):",
                        "def run_backward(tensor, gradient, retain_graph=False)")
    result = verdict("01.1", directory)
    assert result.status == "wrong"
    assert "does not import: SyntaxError" in result.message and "engine.py, line" in result.message


def test_an_endless_loop_is_stopped(planted, monkeypatch):
    monkeypatch.setattr("buildtrack.verdicts.SECONDS_PER_STEP", 1)
    directory = planted("engine.py", "        node, children_listed = stack.pop()\n",
                        "        node, children_listed = stack[-1]\n")
    result = verdict("03.2", directory)
    assert result.status == "wrong" and "endless loop" in result.message


def test_a_later_step_names_the_earlier_step_to_finish():
    result = verdict("04.1", LEARNER_PACKAGE)
    assert result.message == "finish step 01.1 (a tensor's autograd fields) first: it is not done yet."


def test_a_wrong_earlier_step_is_named_too(planted):
    result = verdict("04.1", planted("ops.py", "return grad * result", "return grad"))
    assert result.status == "wrong"
    assert result.message.startswith("step 03.1 (backward formulas) fails its check now: Exp.backward")


@pytest.mark.parametrize("answers", [False, True])
def test_make_progress_prints_a_row_per_step_and_no_traceback(answers):
    command = [sys.executable, "-m", "buildtrack"] + (["--answers"] if answers else [])
    run = subprocess.run(command, cwd=ROOT / "notebooks", capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    rows = [line for line in run.stdout.splitlines() if line[:1] in "✅⏳❌" and line.strip()]
    assert len(rows) == len(STEPS)
    assert all(row.startswith("✅" if answers else "⏳") for row in rows)
    assert run.stdout.splitlines()[-1] == (f"{len(STEPS)} of {len(STEPS)} steps done." if answers else
                                           f"0 of {len(STEPS)} steps done; next: step 01.1 (a tensor's "
                                           "autograd fields).")
    if not answers:                          # the next step's row says what to do; the rows after it wait
        assert "fill in Tensor.__init__" in rows[0] and "finish step" not in "".join(rows[1:])


def test_check_prints_one_verdict(capsys):
    buildtrack.check("01.1", answers=True)
    assert capsys.readouterr().out.startswith("✅ Step 01.1 (a tensor's autograd fields): ")


def test_viz_draws_the_learners_graph_as_it_draws_mini_autograds():
    import mini_autograd
    from mini_autograd import viz
    from buildtrack.package import load

    def seed(torch):
        x = torch.ones(2, 2, requires_grad=True)
        y = x + 2
        return x, (y * y * 3).mean()

    mine_x, mine_out = seed(load(ANSWER_KEY))
    ref_x, ref_out = seed(mini_autograd)
    assert repr(viz.draw(mine_out, params={"x": mine_x})) == repr(viz.draw(ref_out, params={"x": ref_x}))


@pytest.mark.parametrize("step_id, file, old, new, words", NOT_STARTED, ids=[m[0] for m in NOT_STARTED])
def test_a_rewrite_not_started_is_not_done_yet(planted, step_id, file, old, new, words):
    result = verdict(step_id, planted(file, old, new))
    assert result.status == "todo", f"{result.mark} {result.message}"
    assert words in result.message, result.message


def test_the_diamond_runs_in_pytorchs_order():
    torch = pytest.importorskip("torch")
    from buildtrack.ch07_08 import _diamond, engine_order, reference_order
    assert engine_order(torch, _diamond) == reference_order(_diamond)


def test_the_answer_key_runs_the_seed_snippets_printing_what_pytorch_prints():
    """The capstone: every seed snippet, run on the finished myautograd, prints what mini_autograd prints
    (tests/test_seeds.py holds mini_autograd's output equal to PyTorch's)."""
    import mini_autograd
    from buildtrack.package import load
    sys.path.insert(0, str(ROOT / "tests"))
    from crosscheck import run_snippet
    from test_seeds import SNIPPETS

    package = load(ANSWER_KEY)
    for snippet in SNIPPETS:
        assert (run_snippet(snippet.program, package)
                == run_snippet(snippet.program, mini_autograd)), snippet.id


def test_the_spiral_trains_on_the_answer_key():
    from buildtrack.ch10 import SPIRAL_LR, SPIRAL_STEPS, train_spiral
    from buildtrack.package import load

    losses, accuracy, _ = train_spiral(load(ANSWER_KEY), SPIRAL_STEPS, SPIRAL_LR)
    assert accuracy >= 0.95 and losses[-1] < losses[0] / 5


def test_a_differential_check_catches_a_wrong_engine_and_shrinks_the_program(planted):
    """A hook's None taken as the new gradient: no hand-written scenario of step 03.2 looks for it; the random
    programs find it, shrink it to a few lines, and name the piece at fault."""
    directory = planted("engine.py", *HOOK_NONE_AS_GRADIENT)
    from buildtrack import differential
    from buildtrack.package import Wrong, load
    with pytest.raises(Wrong) as caught:
        differential.check(load(directory), "03.2")
    message = str(caught.value)
    program = [re.sub(r"^\s*\d+  ", "", line) for line in message.split("\n\n")[1].splitlines()]
    statements = [line for line in program if not line.startswith(("import ", "def ", " ", "seen = []"))]
    assert len(statements) <= 8, message
    assert "PyTorch" in message and "The piece at fault: run_backward (step 03.2)" in message


def test_a_differential_failure_is_the_same_every_time(planted):
    directory = planted("grad_mode.py", "        _state.grad_enabled = False\n",
                        "        _state.grad_enabled = not _state.grad_enabled\n")
    from buildtrack import differential
    from buildtrack.package import Wrong, load
    messages = set()
    for _ in range(2):
        with pytest.raises(Wrong) as caught:
            differential.check(load(directory), "06.1")
        messages.add(str(caught.value))
    assert len(messages) == 1


@pytest.mark.parametrize("step_id", ["03.2", "05.1", "06.1", "07.1", "07.2", "08.2", "10.3"])
def test_the_answer_key_agrees_with_mini_autograd_on_many_random_programs(step_id):
    from buildtrack import differential
    from buildtrack.package import load
    differential.check(load(ANSWER_KEY), step_id, examples=300)


# ------------------------------------------------- stand-ins, unrelated steps, rewrites, the cache
def _function_text(source, qualified):
    """The text of one function of ``source``, as it stands there (for planting it in a copy of the key)."""
    import ast
    from buildtrack import stubs
    for name, function, _ in stubs.functions_of(ast.parse(source)):
        if name == qualified:
            return ast.get_source_segment(source, function)
    raise KeyError(qualified)


def _stub_of(file, qualified):
    return _function_text(make_stubs.expected_stubs()[file], qualified)


def _answer_of(file, qualified):
    from buildtrack import swap
    return swap._answer_function(file, qualified)


def test_dependency_counts_do_not_wait_for_chapter_07(planted):
    write = _answer_of("tensor.py", "Tensor._write")
    directory = planted("tensor.py", write, _stub_of("tensor.py", "Tensor._write").replace("\n", "\n    "))
    assert verdict("07.1", directory).status == "todo"
    assert verdict("08.1", directory).status == "done", verdict("08.1", directory).message


@pytest.mark.parametrize("step_id, file, old, new", [
    ("07.2", "engine.py", "                node.release_saved()\n", "                node.saved = None\n"),
    ("08.2", "engine.py", "    dependencies = compute_dependencies(root)\n",
     "    dependencies, seen, stack = {}, {root}, [root]\n"
     "    while stack:\n"
     "        for next_node, _ in stack.pop().next_functions:\n"
     "            if next_node is not None:\n"
     "                dependencies[next_node] = dependencies.get(next_node, 0) + 1\n"
     "                if next_node not in seen:\n"
     "                    seen.add(next_node)\n"
     "                    stack.append(next_node)\n"),
])
def test_a_rewrite_is_judged_by_what_it_does_not_by_the_words_it_uses(planted, step_id, file, old, new):
    result = verdict(step_id, planted(file, old, new))
    assert result.status == "done", result.message


def test_a_verdict_is_kept_until_code_it_ran_changes(planted, monkeypatch, tmp_path):
    """Editing custom.py (step 11.2) reruns no check of chapter 03; editing ops.py's Mul does."""
    from buildtrack import cache
    monkeypatch.setattr(cache, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(cache, "_memory", {})
    runs = []
    run_one = cache.run_one
    monkeypatch.setattr(cache, "run_one",
                        lambda s, d, on_load=None: runs.append(s.id) or run_one(s, d, on_load))
    directory = planted("custom.py", "return grad * s * (1 - s)", "return grad * s * (1 - s)")
    assert verdict("03.2", directory).status == "done"
    assert runs == STEP_IDS[:STEP_IDS.index("03.2") + 1]
    source = (directory / "custom.py").read_text()
    (directory / "custom.py").write_text(source.replace("return grad * s * (1 - s)",
                                                        "return grad * (1 - s) * s"))
    runs.clear()
    assert verdict("03.2", directory).status == "done" and runs == []
    source = (directory / "ops.py").read_text()
    source = source.replace("return grad * b, grad * a", "return b * grad, a * grad")
    (directory / "ops.py").write_text(source)
    assert verdict("03.2", directory).status == "done" and "03.2" in runs and "01.1" not in runs


def test_a_remembered_wrong_verdict_names_the_line_where_the_code_is_now(planted, monkeypatch, tmp_path):
    """A "wrong" message names a line of your code: add a line above the function, and the step runs
    again instead of showing the old line number."""
    from buildtrack import cache
    monkeypatch.setattr(cache, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(cache, "_memory", {})
    directory = planted("ops.py", "return grad * b, grad * a", "return grad * b, grad * not_defined")
    first = verdict("03.2", directory)
    line = int(re.search(r"ops\.py, line (\d+)", first.message).group(1))
    (directory / "ops.py").write_text("# a note\n" + (directory / "ops.py").read_text())
    again = verdict("03.2", directory)
    assert again.status == "wrong" and f"ops.py, line {line + 1}" in again.message, again.message


def test_a_mistake_the_named_scenarios_miss_is_caught_by_random_programs(planted):
    """Function.apply remembering the result's shape as every input's: step 02.2's scenarios (inputs of one
    shape) pass it; its random programs, run with the later steps' pieces from the answer key, broadcast,
    and name Function.apply."""
    directory = planted("function.py", "ctx.input_shapes = tuple(t.shape for t in tensors)",
                        "ctx.input_shapes = tuple(result.shape for t in tensors)")
    result = verdict("02.2", directory)
    assert result.status == "wrong" and result.differential, result.message
    assert "The piece at fault: Function.apply (step 02.2)" in result.message


def test_a_mistake_in_a_later_piece_is_blamed_on_its_own_step(planted):
    """saved_tensors (step 07.1) raising when nothing was freed: the steps before 07.1 stay done (with the
    answer key's later pieces they pass), and 07.1 is the first step that fails."""
    directory = planted("function.py", "        if self.saved is None:\n            raise RuntimeError(",
                        "        if self.saved is not None:\n            raise RuntimeError(")
    first_not_done = next(s for s in STEP_IDS if verdict(s, directory).status != "done")
    assert first_not_done == "07.1", verdict(first_not_done, directory).message


def test_progress_marks_the_step_a_later_check_blames(monkeypatch, capsys):
    from buildtrack import cache
    from buildtrack.verdicts import Verdict
    real = cache.verdict

    def blaming(step_id, directory, own_words=True):
        if step_id == "04.2":
            return Verdict("wrong", "The piece at fault: run_backward (step 03.2)", culprit_step="03.2")
        return real(step_id, directory, own_words)

    monkeypatch.setattr(cache, "verdict", blaming)
    buildtrack.progress(answers=True)
    rows = {line[2:6]: line for line in capsys.readouterr().out.splitlines() if line[:1] in "✅❌⏳"}
    assert rows["03.2"].startswith("❌") and "step 04.2's check found a mistake" in rows["03.2"]
    assert rows["03.1"].startswith("✅")


# The modules of buildtrack, bottom first: each imports only modules before it in this list (package.py
# says so too), and none imports inside a function.
LAYERS = ["i18n", "stubs", "package", "swap", "steps", "_testing", "cases", "differential", "corpus",
          "ch01_02", "ch03", "ch04_06", "ch07_08", "ch10", "ch11", "verdicts", "cache", "notebook", "sandbox",
          "grading", "exports", "__init__", "__main__"]


@pytest.mark.parametrize("module", LAYERS)
def test_the_checks_import_one_way_from_the_bottom(module):
    import ast
    path = ROOT / "notebooks" / "buildtrack" / f"{module}.py"
    tree = ast.parse(path.read_text())
    below = set(LAYERS[:LAYERS.index(module)])
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module] if node.module else [alias.name for alias in node.names]
            names = [name for name in names if name not in ("progress",)]      # (__main__: __init__'s)
            assert set(names) <= below, (module, names)
            assert node.col_offset == 0, f"{module} imports {names} inside a function"
