"""Small helpers the course notebooks share: reading the engine's source, checking exercises, plot words.

They live beside the notebooks, not in ``mini_autograd``: they are about the
course, not about autograd. The checks, ``show_source``'s headings and the module
table speak the language of the edition the chapter belongs to: English, or Chinese
in ``notebooks/zh/`` (``buildtrack/i18n.py`` says how it is chosen; the catalogues are
``coursetools.po``, for this file's words, and ``chapters.po``, for the hints and
messages the chapters hand to the checks). ``tr`` does the same for a chapter's own
words, the labels its code prints and its plots' titles, axis labels and legends
(``chapters.po`` too), and gives matplotlib a font with Chinese characters when it
returns Chinese. The graph pictures (``mini_autograd.viz``) follow the same rule with
their own catalogue (``mini_autograd/viz/i18n.py``).
"""
import contextlib
import functools
import html
import importlib
import inspect
import io
import pathlib
import re

import numpy as np

import mini_autograd

_PACKAGE_ROOT = pathlib.Path(mini_autograd.__file__).resolve().parent.parent


def _i18n():
    """``buildtrack.i18n``, which chooses the language; None if it cannot be imported (then: English, so
    that the set-up check still speaks on a broken install)."""
    try:
        from buildtrack import i18n
    except Exception:
        return None
    return i18n


def _say(text):
    """Print a verdict (``✅ ...``, ``❌ ...``, ``⏳ ...``); in JupyterLab, show it as the build track's
    checks show theirs (buildtrack/notebook.py): the words wrap, and the mark is a badge with a word,
    which needs no emoji font. The text is the same either way."""
    try:
        from buildtrack import notebook
    except Exception:                       # (a broken install: the set-up check still speaks)
        print(text)
        return
    notebook.show(notebook.marked(text))


def _(message):
    """This file's words in the learner's language (``buildtrack/i18n.py``, domain ``coursetools``)."""
    i18n = _i18n()
    return message if i18n is None else i18n.translations("coursetools", i18n.language()).gettext(message)


def N_(message):
    """Marks words kept in a constant, translated where they are used."""
    return message


def _chapter(text):
    """A text a chapter handed to a check (a hint, ``right=``, a message it made), in the learner's
    language."""
    i18n = _i18n()
    return text if i18n is None else i18n.chapter_text(text)


def _words(text):
    """``what=`` and the like: this file's own default words, or a chapter's."""
    own = _(text) if text else text
    return own if own != text else _chapter(text)


# ---------------------------------------------------------------- a chapter's plot words
# Fonts with Chinese characters, tried in this order (macOS, Windows, Linux, conda-forge); matplotlib draws
# each character in the first font of the list that has it, so Latin text keeps its usual font.
CJK_FONTS = ("PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "SimHei", "Noto Sans CJK SC",
             "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei",
             "Droid Sans Fallback", "AR PL UMing CN")
HAN = re.compile(r"[\u3400-\u9fff]")


def tr(text):
    """A chapter's own words, printed or drawn (a label it prints, a plot's title, axis label or legend
    entry), in the edition's language.

    ``print(tr("by hand:"), value)``, ``ax.set_title(tr("Training the spiral classifier"))``: in the English
    edition the text as written, the same ``str``; in the Chinese one its translation, found like the texts
    a chapter hands to the checks (``chapters.po``; ``tr(f"...")`` is looked up as its template, its values
    kept, ``buildtrack/i18n.py``), and matplotlib is given a font with Chinese characters first
    (``use_chinese_fonts``). A translation pads to its width in columns, a Chinese character taking two
    (``f"{tr('training'):15}"`` keeps a table's columns). A text with no translation yet is returned as
    written.
    """
    translated = _chapter(text)
    if isinstance(translated, str) and translated is not text and HAN.search(translated):
        use_chinese_fonts()
        return Words(translated)
    return translated


class Words(str):
    """A translated text that a format spec pads by columns, not characters: a Chinese character takes two
    columns in a notebook's output, so ``f"{words:<15}"`` lines up with English rows."""

    def __format__(self, spec):
        found = re.fullmatch(r"(?:(.)?([<>^]))?(\d+)", spec)
        if not found:
            return str.__format__(str(self), spec)
        fill, align, columns = found.group(1) or " ", found.group(2) or "<", int(found.group(3))
        extra = columns - _width(self)
        if extra <= 0:
            return str(self)
        left = {"<": 0, ">": extra, "^": extra // 2}[align]
        return fill * left + str(self) + fill * (extra - left)


@functools.cache
def use_chinese_fonts():
    """Put the installed fonts with Chinese characters after matplotlib's font families; return them.

    matplotlib (3.6 and later) draws a character missing from the first family with the next one that has
    it: Latin text and numbers keep their usual font. Without a Chinese font installed, Chinese shows as
    empty boxes, with matplotlib's "Glyph missing" warning: install one, e.g. ``sudo apt-get install
    fonts-wqy-microhei``, or conda-forge's ``font-ttf-noto-cjk``.
    """
    try:
        import matplotlib
        from matplotlib import font_manager
    except ImportError:
        return ()
    installed = {font.name for font in font_manager.fontManager.ttflist}
    found = tuple(name for name in CJK_FONTS if name in installed)
    families = list(matplotlib.rcParams["font.family"])
    matplotlib.rcParams["font.family"] = families + [name for name in found if name not in families]
    return found


def show_source(obj, only=None, stop_at=None):
    """Print the real source of a function or class of mini_autograd, with its file.

    ``only``: a list of snippets; then only the first line (the ``def``) and the lines containing
    one of them are printed, and ``...`` stands for each run of lines left out.
    ``stop_at``: a snippet; the listing stops before the first line containing it (a method
    another chapter shows, say), and ``...`` says that more follows.
    """
    obj = inspect.unwrap(obj)           # a decorated function: show the function itself
    path = pathlib.Path(inspect.getsourcefile(obj)).resolve()
    try:
        where = path.relative_to(_PACKAGE_ROOT)
    except ValueError:
        where = path.name
    lines = inspect.getsource(obj).rstrip().split("\n")
    if stop_at is not None:
        stop = next(i for i, line in enumerate(lines) if stop_at in line)
        while stop > 0 and lines[stop - 1].strip() in ("", "@staticmethod", "@classmethod", "@property"):
            stop -= 1
        indent = len(lines[stop]) - len(lines[stop].lstrip()) if lines[stop].strip() else 4
        print(_("# {where}: {name}, its first lines (... marks the rest, left out)").format(
            where=where, name=obj.__qualname__))
        print("\n".join(lines[:stop] + ["", " " * indent + "..."]))
        return
    if only is None:
        print(f"# {where}: {obj.__qualname__}")
        print("\n".join(lines))
        return
    print(_("# {where}: {name}, some lines (... marks lines left out)").format(
        where=where, name=obj.__qualname__))
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith(("def ", "class ")))
    shown, skipping = lines[:first + 1], False      # decorators and the def line
    for line in lines[first + 1:]:
        if any(snippet in line for snippet in only):
            shown.append(line)
            skipping = False
        elif not skipping:
            indent = len(line) - len(line.lstrip()) if line.strip() else 8
            shown.append(" " * indent + "...")
            skipping = True
    print("\n".join(shown))


@contextlib.contextmanager
def answer_fold(step):
    """Show what the block prints (a listing of mini_autograd's source) folded, under a line saying that it is
    the answer of build step ``step``: ``with answer_fold("01.1"): show_source(...)``.

    In JupyterLab and on the website the listing is a closed ``<details>`` box, opened with a click; a plain
    text reader (a terminal, nbval) gets the same line, then the listing.
    """
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        yield
    listing = printed.getvalue().rstrip("\n")
    summary = _("mini_autograd's version: the answer of step {step}. Open it once your check of step {step} "
                "says done, or to compare.").format(step=step)
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        get_ipython = None
    if get_ipython is None or get_ipython() is None:
        print(f"{summary}\n{listing}")
        return
    display({"text/plain": f"{summary}\n{listing}",
             "text/html": f"<details><summary>{html.escape(summary)}</summary>"
                          f"<pre>{html.escape(listing)}</pre></details>"}, raw=True)


@contextlib.contextmanager
def expect_error(kind=Exception):
    """Run a block that fails on purpose, and show its error the way PyTorch's own errors end: one line,
    ``RuntimeError: <the message>``, without the engine's insides that a traceback would list.

    ``with expect_error(RuntimeError): y.backward()``. A block that raises nothing is a mistake of the
    chapter: it raises AssertionError, so that the tests see it.
    """
    try:
        yield
    except kind as error:
        print(f"{type(error).__name__}: {error}")
    else:
        raise AssertionError(_("This cell should have raised {kind}, and it raised nothing.").format(
            kind=kind.__name__))


# ---------------------------------------------------------------- exercise checks
#
# Every exercise cell starts with the placeholder ``...`` (Ellipsis): ``answer = ...``. Only ``...``
# means "not answered yet"; anything else is an answer and gets a verdict, and a wrong kind of
# answer (None, a function that was not called, a string for a number, a wrong shape) gets a
# message saying so, never a traceback.

NONE_HINT = N_("None is not an answer here. If you assigned the result of backward(), note that "
               "backward() returns None: read .grad instead.")


def _a(word):
    vowel = word[:1].lower() in "aeiou" or word.startswith("nd")
    return (_("an {word}") if vowel else _("a {word}")).format(word=word)


def _describe(x):
    """A few words on what ``x`` is, for messages: "a str ('abc')", "a Tensor of shape [2]"."""
    if x is None:
        return "None"
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        return _("{a_type} of shape {shape}").format(a_type=_a(type(x).__name__), shape=list(x.shape))
    if isinstance(x, (list, tuple, set, frozenset, dict)):
        return (_("{a_type} of {count} item") if len(x) == 1 else _("{a_type} of {count} items")).format(
            a_type=_a(type(x).__name__), count=len(x))
    return _("{a_type} ({value})").format(a_type=_a(type(x).__name__), value=repr(x)[:60])


def _shape_words(shape):
    """"a single number", "3 numbers", "shape [2, 2]": how many numbers an answer holds."""
    if shape == ():
        return _("a single number")
    if len(shape) == 1:
        return (_("{count} number") if shape[0] == 1 else _("{count} numbers")).format(count=shape[0])
    return _("shape {shape}").format(shape=list(shape))


def _uncalled(x):
    """True for a function, method or class: something that was meant to be called."""
    return inspect.isroutine(x) or inspect.isclass(x) or isinstance(x, functools.partial)


YOUR_ANSWER = N_("your answer")


def not_answered(hint="", *, what=YOUR_ANSWER):
    """Print the "not answered yet" line of an exercise: how to start, and nothing of the answer.

    ``hint`` is accepted so that every check can pass its hint along, and is not printed: it is
    for wrong answers (``_reject``, ``check``). Before a first attempt, the learner gets only
    the way to start; the exercise's collapsed Hint boxes are there for whoever wants more.
    """
    _say(_("⏳ Not answered yet: in the exercise cell, replace the placeholder `...` with {what}, "
            "then run that cell and this one. Stuck? Open Hint 1, just above the exercise cell.").format(
                what=_words(what)))
    return False


def not_run(name, number):
    """The exercise cell of ``number`` has not run in this kernel: ``name``, the answer it makes, is not
    there."""
    _say(_("⏳ Not answered yet: `{name}` does not exist yet. Run the exercise cell (the one that starts "
            "with `# Exercise {number}`), then this one.").format(name=name, number=number))
    return False


def run_above_first(name, number):
    """The check of exercise ``number`` needs ``name``, which the chapter's cells above it make."""
    _say(_("⏳ The check of exercise {number} needs `{name}`, which the chapter's cells above make: run "
            "them first (Run → Run All Above Selected Cell), then this one.").format(
                name=name, number=number))
    return False


def _reject(problem, hint):
    """``problem``: this file's words (already in the learner's language), or a chapter's."""
    if hint:
        _say(_("❌ Not yet. {problem} Hint: {hint}").format(problem=_chapter(problem), hint=_chapter(hint)))
    else:
        _say(_("❌ Not yet. {problem}").format(problem=_chapter(problem)))
    return False


def can_check(answer, hint="", *, kind=None, what=None, length=None, none_hint=None):
    """True when ``answer`` can be checked; otherwise print why not and return False.

    Why not: the placeholder ``...`` (not answered yet), None, a function that was not called,
    not an instance of ``kind`` (described by ``what``), or not ``length`` entries long.
    ``kind=callable`` asks for a function instead.
    """
    what = _words(what or N_("something else"))
    if answer is ...:
        return not_answered(hint)
    should_be = _("The answer should be {what}, not {answer}.")
    if kind is callable:
        if answer is None or not callable(answer):
            return _reject(should_be.format(what=what, answer=_describe(answer)), hint)
        return True
    if answer is None:
        return _reject(_("Your answer is None. {why}").format(
            why=_chapter(none_hint) if none_hint else _(NONE_HINT)), hint)
    if _uncalled(answer):
        name = getattr(answer, "__name__", "it")
        return _reject(_("Your answer is the function `{name}` itself, not its result: "
                         "did you forget to call it, as in `{name}()`?").format(name=name), hint)
    if kind is not None and not isinstance(answer, kind):
        return _reject(should_be.format(what=what, answer=_describe(answer)), hint)
    if length is not None:
        try:
            n = len(answer)
        except TypeError:
            return _reject(should_be.format(what=what, answer=_describe(answer)), hint)
        if n != length:
            return _reject(_("The answer should be {what}: {length} entries, not {count}.").format(
                what=what, length=length, count=n), hint)
    return True


def _values(x):
    """A plain float array from a tensor (mini_autograd or torch), a number, or nested lists of them."""
    if isinstance(x, (str, bytes)):
        raise TypeError("a string is not a number")
    if isinstance(x, (list, tuple)):
        parts = [_values(e) for e in x]
        return np.array(parts, dtype=float)          # ragged lists raise ValueError
    if hasattr(x, "detach"):
        x = x.detach()
    if hasattr(x, "numpy"):
        x = x.numpy()
    return np.asarray(x, dtype=float)


def _has_words(expected):
    """A list or tuple holding strings or None somewhere (node names, say), not only numbers."""
    return isinstance(expected, (list, tuple)) and any(
        isinstance(e, (str, type(None))) or _has_words(e) for e in expected)


def _contains(x, test):
    """True when ``x`` or anything in its nested lists and tuples passes ``test``."""
    return test(x) or (isinstance(x, (list, tuple)) and any(_contains(e, test) for e in x))


def _same(answer, expected, atol):
    """Entry by entry: words equal as strings, None as None, numbers within ``atol``."""
    if isinstance(expected, (list, tuple)):
        return (isinstance(answer, (list, tuple)) and len(answer) == len(expected)
                and all(_same(a, e, atol) for a, e in zip(answer, expected, strict=True)))
    if expected is None or isinstance(expected, str):
        return answer is expected or (isinstance(answer, str) and answer == expected)
    try:
        got, want = _values(answer), _values(expected)
    except (TypeError, ValueError, RuntimeError):
        return False
    return got.shape == want.shape and bool(np.allclose(got, want, atol=atol))


def agrees(answer, expected, atol=1e-4):
    """True when ``answer`` holds the numbers (or words) of ``expected``; prints nothing."""
    return answer is not None and _same(answer, expected, atol)


def check(condition, right, hint):
    """Print a verdict: ``right`` when ``condition`` holds, else ``hint``."""
    if condition:
        _say(_("✅ Correct. {right}").format(right=_chapter(right)))
    else:
        _say(_("❌ Not yet. {hint}").format(hint=_chapter(hint)))
    return bool(condition)


def check_answer(answer, expected, *, right="", hint="", atol=1e-4, none_hint=None, parts=None):
    """Compare an answer (tensor, number, list, string, bool) with the expected one, and say why not.

    ``...`` is "not answered yet"; None, an uncalled function or a wrong kind of answer gets a
    message (``none_hint`` replaces the generic one for None). Never raises for a wrong answer.
    A wrong list or tuple of the right length is told which of its entries are wrong and which are
    right: ``parts`` names them (``("x.grad", "y.grad")``: "x.grad is wrong; y.grad is right"), else
    they are numbered.
    """
    if not can_check(answer, hint, none_hint=none_hint):
        return False
    try:
        return _compare(answer, expected, right, hint, atol, none_hint, parts)
    except Exception as error:              # a safety net: a wrong answer gets a message, not a traceback
        return check(False, right, _("{hint} (your answer {answer} could not be checked: {error_type}: "
                                     "{error})").format(hint=_chapter(hint), answer=_describe(answer),
                                                        error_type=type(error).__name__, error=error))


def _near_miss(answer, expected):
    """What is off in a string answer that names the right thing, or None: spaces, case, a missing 0."""
    if answer.strip() == expected:
        return _("Right name, but with spaces around it: write exactly {expected!r}.").format(
            expected=expected)
    if answer.strip().lower() == expected.lower():
        return _("Right name, but the capitals differ: PyTorch prints {expected!r}.").format(
            expected=expected)
    if expected.endswith("0") and answer.strip() == expected[:-1]:
        return (_("Right operation! PyTorch's node names end in a number (the formula's version): "
                  "{name}0.").format(name=expected[:-1]))
    return None


def _part_names(parts, count):
    """The names of an answer's entries: ``parts`` (a chapter's words, in the learner's language), or
    "entry 1", "entry 2", ..."""
    if parts is not None and len(parts) == count:
        return [_chapter(part) for part in parts]
    return [_("entry {number}").format(number=number) for number in range(1, count + 1)]


def which_parts(answer, expected, atol=1e-4, parts=None):
    """"In your answer, x.grad is wrong; y.grad is right." for a list or tuple answer as long as the expected
    one, with some entry wrong; else "". Names the entries only, never what they should be."""
    if not isinstance(answer, (list, tuple)):
        return ""
    if isinstance(expected, (list, tuple)):
        wanted = list(expected)
    else:
        try:
            values = _values(expected)
        except (TypeError, ValueError, RuntimeError):
            return ""
        if values.ndim != 1:
            return ""
        wanted = list(values)
    if len(answer) != len(wanted) or len(wanted) < 2:
        return ""
    good = [_same(got, want, atol) for got, want in zip(answer, wanted, strict=True)]
    if all(good):
        return ""
    names = _part_names(parts, len(wanted))
    joined = _(", ")
    wrong = [name for name, ok in zip(names, good, strict=True) if not ok]
    fine = [name for name, ok in zip(names, good, strict=True) if ok]
    wrong_words = (_("In your answer, {part} is wrong") if len(wrong) == 1
                   else _("In your answer, {parts} are wrong")).format(part=wrong[0],
                                                                         parts=joined.join(wrong))
    if not fine:
        return _("{wrong}.").format(wrong=wrong_words)
    right_words = (_("{part} is right") if len(fine) == 1 else _("{parts} are right")).format(
        part=fine[0], parts=joined.join(fine))
    return _("{wrong}; {right}.").format(wrong=wrong_words, right=right_words)


def with_parts(which, text):
    """``text`` (a hint and the answer, already in the learner's language) after ``which``, the sentence of
    ``which_parts`` saying which entries are wrong, if any."""
    return _("{which} {text}").format(which=which, text=text) if which else text


def _shown(answer, got):
    """An answer as a message shows it: a list of plain numbers or booleans as written (``[True, False]``),
    anything else as its numbers, rounded (``[7.75, -3.0]`` for two tensors)."""
    if isinstance(answer, (list, tuple)) and all(isinstance(e, (bool, int, float)) for e in answer):
        return list(answer)
    return np.round(got, 4).tolist()


def _compare(answer, expected, right, hint, atol, none_hint, parts=None):
    your_answer = _("{hint} (your answer: {answer!r})")
    if isinstance(expected, str):
        if not isinstance(answer, str):
            return _reject(_("The answer should be a string (in quotes), not {answer}.").format(
                answer=_describe(answer)), hint)
        near = None if answer == expected else _near_miss(answer, expected)
        if near:
            return _reject(near, "")
        return check(answer == expected, right, your_answer.format(hint=_chapter(hint), answer=answer))
    if isinstance(expected, (bool, np.bool_)):
        if not isinstance(answer, (bool, np.bool_)):
            return _reject(_("The answer should be True or False, not {answer}.").format(
                answer=_describe(answer)), hint)
        return check(answer == expected, right, your_answer.format(hint=_chapter(hint), answer=answer))
    if _has_words(expected):              # e.g. ("MulBackward0", None): compare item by item
        if not isinstance(answer, (list, tuple)) or len(answer) != len(expected):
            return _reject(_("The answer should be a tuple of {count} entries, not {answer}.").format(
                count=len(expected), answer=_describe(answer)), hint)
        return check(_same(answer, expected, atol), right,
                     with_parts(which_parts(answer, expected, atol, parts),
                                 your_answer.format(hint=_chapter(hint), answer=answer)))
    if _contains(answer, lambda e: e is None):
        return _reject(_("Your answer contains None. {why}").format(
            why=_chapter(none_hint) if none_hint else _(NONE_HINT)), hint)
    if isinstance(answer, (str, bytes)):
        return _reject(_("The answer should be a number or a tensor, not {answer}.").format(
            answer=_describe(answer)), hint)
    if _contains(answer, lambda e: isinstance(e, (str, bytes))):
        return _reject(_("The answer should hold numbers, not strings: {answer!r}.").format(answer=answer),
                       hint)
    try:
        got, want = _values(answer), _values(expected)
    except (TypeError, ValueError, RuntimeError):
        return check(False, right, _("{hint} (could not read {answer} as numbers)").format(
            hint=_chapter(hint), answer=_describe(answer)))
    if got.shape != want.shape:
        return check(False, right, _("{hint} (your answer holds {got}; expected {want})").format(
            hint=_chapter(hint), got=_shape_words(got.shape), want=_shape_words(want.shape)))
    return check(np.allclose(got, want, atol=atol), right,
                 with_parts(which_parts(answer, expected, atol, parts),
                             _("{hint} (your answer: {answer})").format(hint=_chapter(hint),
                                                                         answer=_shown(answer, got))))


def run_check(test, hint=""):
    """Run ``test()``, a check that calls the learner's code; an error in it becomes a message.

    Returns what ``test`` returns, or False after printing the error's type and first line.
    """
    try:
        return test()
    except Exception as error:               # the learner's code failed: say how, no traceback
        first_line = (str(error).splitlines() or [""])[0]
        return _reject(_("Running your answer raised {error_type}: {first_line}").format(
            error_type=type(error).__name__, first_line=first_line), hint)


def count_backward_calls(torch, run):
    """``(run(), n)``: what ``run()`` returns, and how many times it started a backward pass.

    Counts the outermost calls of ``Tensor.backward``, ``torch.autograd.backward`` and ``.grad`` (one may call
    the other), so an exercise that asks for one backward can tell four from one.
    """
    calls, depth = [0], [0]

    def counting(original):
        @functools.wraps(original)
        def counted(*args, **kwargs):
            calls[0] += depth[0] == 0
            depth[0] += 1
            try:
                return original(*args, **kwargs)
            finally:
                depth[0] -= 1
        return counted

    places = [(torch.Tensor, "backward"), (torch.autograd, "backward"), (torch.autograd, "grad")]
    originals = [(owner, name, getattr(owner, name)) for owner, name in places]
    for owner, name, original in originals:
        setattr(owner, name, counting(original))
    try:
        return run(), calls[0]
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)


# ---------------------------------------------------------------- set-up check (chapter 00)

GRAPHVIZ_INSTALL_HINT = N_("""\
Install Graphviz (the program, not only the Python package), then run the check again
(if dot is still not found, restart JupyterLab from a terminal where `dot -V` works):
  conda:          conda install -c conda-forge graphviz python-graphviz
  Debian/Ubuntu:  sudo apt-get install graphviz
  macOS:          brew install graphviz""")


def _package_version(name):
    """The installed version of a distribution, or None; reads metadata only (no import)."""
    from importlib import metadata
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _dot_version():
    """``(path, version)`` of Graphviz's ``dot`` program; ``(None, None)`` when it is not on PATH."""
    import re
    import shutil
    import subprocess
    path = shutil.which("dot")
    if path is None:
        return None, None
    try:
        run = subprocess.run([path, "-V"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return path, None
    found = re.search(r"version\s+(\S+)", run.stderr + run.stdout)   # dot -V writes to stderr
    return path, found.group(1) if found else None


def print_versions():
    """Print the versions of everything the course uses (they vary from machine to machine)."""
    import platform
    rows = [("Python", platform.python_version()),
            ("numpy", np.__version__),
            ("mini_autograd", mini_autograd.__version__),
            ("matplotlib", _package_version("matplotlib") or _("not installed")),
            (_("graphviz (Python package)"), _package_version("graphviz") or _("not installed"))]
    path, version = _dot_version()
    rows.append((_("dot (Graphviz program)"),
                 _("not found") if path is None else _("found, version {version}").format(
                     version=version or _("unknown"))))
    torch_version = _package_version("torch")
    rows.append(("PyTorch", _("not installed (optional)") if torch_version is None
                 else _("installed ({version})").format(version=torch_version.split("+")[0])))
    labels = [_("{name}:").format(name=name) for name, _value in rows]
    width = max(_width(label) for label in labels)
    for label, (_name, value) in zip(labels, rows, strict=True):
        print(f"{label}{' ' * (width - _width(label))} {value}")


def _width(text):
    """The columns ``text`` takes in a terminal or a notebook's output: a Chinese character takes two."""
    import unicodedata
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def setup_check():
    """Check that the course can run here: one line per requirement, with the fix when one fails.

    PyTorch is optional (chapter 12 compares with it when present), so it is not checked.
    """
    import sys
    ok = True

    def verdict(condition, good, bad):
        nonlocal ok
        ok = ok and bool(condition)
        print(f"✅ {good}" if condition else f"❌ {bad}")

    verdict(sys.version_info >= (3, 10), _("Python 3.10 or newer"),
            _("Python {major}.{minor} is too old: the course needs 3.10 or newer.").format(
                major=sys.version_info.major, minor=sys.version_info.minor))
    for name, purpose in [("numpy", N_("does the arithmetic")), ("matplotlib", N_("draws the plots")),
                          ("graphviz", N_("describes the graph pictures for dot"))]:
        verdict(_package_version(name) is not None,
                _("{name} is installed: it {purpose}").format(name=name, purpose=_(purpose)),
                _("{name} is missing: run `pip install -e '.[course]'` in the repository "
                  "(or create the conda environment from environment.yml).").format(name=name))
    verdict(callable(getattr(mini_autograd, "tensor", None)), _("mini_autograd imports"),
            _("mini_autograd is broken: reinstall the repository with `pip install -e .`."))
    path, _version = _dot_version()
    verdict(path is not None, _("Graphviz's dot program is found: graph pictures will render"),
            _("Graphviz's dot program was not found on PATH, so graph pictures fall back to text.") + "\n"
            + _(GRAPHVIZ_INSTALL_HINT))
    print()
    print(_("All set: the course can run here.") if ok
          else _("Fix the lines marked ❌, then run this cell again."))


# ------------------------------------------------------------ the module map (chapter 12, README)
def file_of(module_name):
    """mini_autograd.ops.binary -> ops/binary.py; a package -> its __init__.py."""
    path = module_name.replace("mini_autograd", "").lstrip(".").replace(".", "/")
    if hasattr(importlib.import_module(module_name), "__path__"):
        return (path + "/__init__.py").lstrip("/")
    return path + ".py"


def is_module(name):
    try:
        importlib.import_module(name)
        return True
    except ImportError:
        return False


def module_table(module_map, mark_missing=False):
    """Chapter 12's MODULE_MAP as a markdown table (tools/module_map.py puts it into the README).

    ``mark_missing``: a module that does not import is shown as ``(missing!)`` instead of failing.
    """
    rows = [_("| file in `mini_autograd/` | what it holds | chapters | PyTorch counterpart |"),
            "|---|---|---|---|"]
    for modules, holds, chapters, counterpart in module_map:
        shown = ", ".join(_("`{module}` (missing!)").format(module=m) if mark_missing and not is_module(m)
                          else f"`{file_of(m)}`" for m in modules)
        # (a chapter's words: in Chinese once chapters.po has them, as for the texts it hands to the checks)
        rows.append(f"| {shown} | {_chapter(holds)} | {_chapter(chapters)} | {_chapter(counterpart)} |")
    return "\n".join(rows)
