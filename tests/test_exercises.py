"""The exercises' checks (notebooks/exercises/) and the coursetools helpers of issue 37, outside a notebook.

- ``check_exercise("N.k")`` reads the exercise's own answer from the caller's namespace: an answer not made
  yet (the exercise cell never ran) is ⏳ with the cell to run, a name the chapter's cells above make is asked
  for by name; every exercise of every chapter has a check, and its answer names are its own.
- A wrong list or tuple answer names the entries that are wrong and those that are right, never their values,
  in English and in Chinese.
- ``expect_error`` prints an error as PyTorch's traceback ends, and fails loudly when nothing was raised;
  ``answer_fold`` folds a listing under a line naming the build step it answers.
(tests/test_notebooks.py runs every exercise wrong, then right, in both editions' chapters.)
"""
import io
import re
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "notebooks"))

import coursetools  # noqa: E402
import exercises  # noqa: E402

CHAPTER_SOURCES = sorted((ROOT / "notebooks" / "src").glob("[0-9][0-9]_*.py"))


def printed(call):
    out = io.StringIO()
    with redirect_stdout(out):
        result = call()
    assert result is None
    return out.getvalue()


@pytest.fixture
def english(monkeypatch):
    monkeypatch.setenv("BUILDTRACK_LANG", "en")


@pytest.fixture
def chinese(monkeypatch):
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")


def test_every_exercise_of_the_chapters_has_a_check():
    numbers = [number for path in CHAPTER_SOURCES
               for number in re.findall(r'^check_exercise\("(\d+\.\d+)"\)$', path.read_text(), re.M)]
    written = [number for path in CHAPTER_SOURCES for number in re.findall(r"^# Exercise (\d+\.\d+)$",
                                                                           path.read_text(), re.M)]
    assert numbers == written and len(numbers) == 41
    for number in numbers:
        assert exercises.answer_names(number), number


def test_an_answer_not_made_yet_says_which_cell_to_run(english):
    assert printed(lambda: exercises.check_exercise("1.1", {})) == (
        "⏳ Not answered yet: `answer_1_1` does not exist yet. Run the exercise cell (the one that starts "
        "with `# Exercise 1.1`), then this one.\n")
    assert printed(lambda: exercises.check_exercise("1.1", {"answer_1_1": ...})).startswith(
        "⏳ Not answered yet: in the exercise cell")
    found = printed(lambda: exercises.check_exercise("5.3", {"answer_5_3": [1, 2, 3]}))
    assert found.startswith("⏳ The check of exercise 5.3 needs `X`, which the chapter's cells above make")


def test_the_check_reads_its_own_answer_only(english):
    """Another exercise's answer in the namespace changes nothing (a learner who answered 2.3, then typed
    2.1's answer without running its cell, is told 2.1 is not answered, not about 2.3's tuple)."""
    found = printed(lambda: exercises.check_exercise("2.1", {"answer_2_3": ("MulBackward0", None)}))
    assert "`answer_2_1` does not exist yet" in found and "tuple" not in found
    assert printed(lambda: exercises.check_exercise("2.1", {"answer_2_1": "MulBackward0"})).startswith("✅")


@pytest.mark.parametrize("answer, english_words, chinese_words", [
    ((6.75, -3.0), "In your answer, x.grad is wrong; y.grad is right.",
     "你的答案中，x.grad 不对；y.grad 是对的。"),
    ((7.75, 3.0), "In your answer, y.grad is wrong; x.grad is right.",
     "你的答案中，y.grad 不对；x.grad 是对的。"),
    ((1.0, 1.0), "In your answer, x.grad, y.grad are wrong.", "你的答案中，x.grad、y.grad 都不对。"),
])
def test_a_wrong_pair_names_the_wrong_part(answer, english_words, chinese_words, monkeypatch):
    for language, words in (("en", english_words), ("zh", chinese_words)):
        monkeypatch.setenv("BUILDTRACK_LANG", language)
        found = printed(lambda: exercises.check_exercise("1.1", {"answer_1_1": answer}))
        assert found.startswith("❌") and words in found, found
        assert "7.75" not in found.replace("(your answer: [7.75", "").replace("（你的答案：[7.75", "")


def test_entries_without_names_are_numbered(english):
    which = coursetools.which_parts([1, 2, 4], [1, 2, 3])
    assert which == "In your answer, entry 3 is wrong; entry 1, entry 2 are right."
    assert coursetools.which_parts([1, 2, 3], [1, 2, 3]) == ""
    assert coursetools.which_parts([1, 2], [1, 2, 3]) == ""              # (a wrong length is said otherwise)
    assert coursetools.which_parts(5.0, 3.0) == ""


def test_expect_error_shows_the_message_as_pytorch_ends_its_traceback(english):
    import mini_autograd as torch

    def fails():
        with coursetools.expect_error(RuntimeError):
            torch.tensor([1.0, 2.0], requires_grad=True).backward()
    assert printed(fails) == "RuntimeError: grad can be implicitly created only for scalar outputs\n"

    def does_not_fail():
        with coursetools.expect_error(RuntimeError):
            pass
    with pytest.raises(AssertionError, match="should have raised RuntimeError"):
        does_not_fail()


def test_answer_fold_names_its_step_in_both_languages(monkeypatch):
    for language, words in (("en", "the answer of step 01.1"), ("zh", "这是步骤 01.1 的答案")):
        monkeypatch.setenv("BUILDTRACK_LANG", language)

        def listing():
            with coursetools.answer_fold("01.1"):
                print("# mini_autograd/_tensor.py: Tensor.__init__\n    def __init__(self): ...")
        found = printed(listing)                 # (outside IPython: the line, then the listing)
        first, rest = found.split("\n", 1)
        assert words in first and rest.startswith("# mini_autograd/_tensor.py")


def test_a_check_computes_with_the_chapters_torch(english):
    """A learner who replaced the chapter's import with ``import torch`` (chapter 00 suggests it) gets the
    same verdicts on PyTorch's tensors; the next chapter, on mini_autograd, gets mini_autograd again."""
    real = pytest.importorskip("torch")
    import mini_autograd

    real.manual_seed(0)
    answer = (real.randn(3) * 0.1).requires_grad_()
    found = printed(lambda: exercises.check_exercise("4.3", {"torch": real, "answer_4_3": answer}))
    assert found.startswith("✅"), found
    assert sys.modules["exercises.ch04"].torch is real
    mini_autograd.manual_seed(0)
    answer = (mini_autograd.randn(3) * 0.1).requires_grad_()
    assert printed(lambda: exercises.check_exercise("4.3", {"torch": mini_autograd, "answer_4_3": answer})
                   ).startswith("✅")
    assert sys.modules["exercises.ch04"].torch is mini_autograd
