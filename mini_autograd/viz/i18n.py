"""The words of the pictures, in the edition's language: English, or Chinese (中文) in the Chinese edition.

Every word a picture shows (the labels and legends of ``draw``, the states and tables of
``trace_backward``, the graph in words that ``print`` gives and that Jupyter shows without ``dot``) is
written in English in the code and marked for gettext, the standard library's translation mechanism:

- ``_("leaf tensor")`` is a message, translated where it is used; ``N_("...")`` marks a message kept in
  a constant (translated where the constant is used);
- a message with values is a template with named fields, ``_("waits for {count} more").format(count=2)``
  (never an f-string inside ``_()``), so that the Chinese sentence puts the values where Chinese wants
  them. A field that only English grammar needs (``{ordinal_suffix}``: 1st, 2nd) may be left out of a
  translation; every other field must be kept;
- PyTorch's names (``grad_fn``, ``AccumulateGrad``, ``MulBackward0``, ``.grad``), the values and the
  errors raised for wrong arguments (as PyTorch's own errors) stay as they are.

The translations are the gettext domain ``viz``: ``locale/zh_CN/LC_MESSAGES/viz.po`` beside this file,
and its compiled ``viz.mo``, which is what ``gettext`` reads. Both ship with the package
(``package-data`` in ``pyproject.toml``), so an installed engine draws Chinese pictures too.

Which language (the rule of the course's build track and exercise checks, which
``notebooks/buildtrack/i18n.py`` states; it is kept here because the engine must not import the course's
helpers, and the helpers can import it from here):

1. ``BUILDTRACK_LANG``: ``zh`` (any value starting with ``zh``) for Chinese, any other value for English;
2. the working directory: the Chinese edition's folder, a folder named ``zh`` that holds the chapters
   (``NN_slug.ipynb``) or lies in the English edition's folder (``notebooks/zh``), where a Chinese
   chapter's kernel starts (JupyterLab, nbclient, nbval), gives Chinese;
3. English.

So a picture drawn by a chapter follows its edition, not the machine's locale; ``locale_is_chinese`` is
the extra rule of a command line (``make progress LANG=zh``), for the helpers that have one. The language
is read each time a picture is made: a picture keeps the words it was made with.

Keeping the catalogue in step (needs polib, in the test extra):

    .venv/bin/python -m mini_autograd.viz.catalogue update   # new messages into viz.po; viz.mo compiled
    .venv/bin/python -m mini_autograd.viz.catalogue check    # every message translated, none unused
"""
import functools
import gettext
import os
import re
import unicodedata
from pathlib import Path

LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "viz"
CATALOGUE_LANGUAGE = "zh_CN"
LANGUAGE_VARIABLE = "BUILDTRACK_LANG"
CHINESE_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
CHAPTERS = "[0-9][0-9]_*.ipynb"


# ---------------------------------------------------------------- which language
def language():
    """``"zh"`` or ``"en"``: ``BUILDTRACK_LANG``, else the working directory (see the module's docstring)."""
    chosen = os.environ.get(LANGUAGE_VARIABLE, "").strip().lower()
    if chosen:
        return "zh" if chosen.startswith("zh") else "en"
    try:
        here = os.getcwd()
    except OSError:                                   # the working directory was removed
        return "en"
    return "zh" if chinese_folder(here) else "en"


@functools.lru_cache(maxsize=32)
def chinese_folder(directory):
    """Is ``directory`` the Chinese edition's folder: named ``zh``, holding chapters or lying beside them?"""
    path = Path(directory)
    if path.name != "zh":
        return False
    return any(path.glob(CHAPTERS)) or any(path.parent.glob(CHAPTERS))


def locale_is_chinese(environ=None):
    """Does the locale (gettext's variables, in gettext's order: the first one set) ask for Chinese?"""
    environ = os.environ if environ is None else environ
    for name in CHINESE_LOCALE_VARIABLES:
        value = environ.get(name)
        if value:
            return value.split(":")[0].lower().startswith("zh")
    return False


# ---------------------------------------------------------------- translating
@functools.cache
def translations(lang, domain=DOMAIN, localedir=LOCALE):
    """The standard library's catalogue of ``domain`` in ``lang`` (English: the texts as written)."""
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(domain, localedir, languages=[CATALOGUE_LANGUAGE], fallback=True)


def _(message):
    """A picture's words in the edition's language."""
    return translations(language()).gettext(message)


def N_(message):
    """Marks a message kept in a constant: found by the catalogue's extraction, translated where used."""
    return message


BETWEEN_HAN = re.compile(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])")


def tidy(text):
    """A made sentence with no space between two Chinese characters ("输出 的反向图": 输出的反向图): a name
    filled into a Chinese template is set off by spaces, which a Chinese name does not need."""
    return BETWEEN_HAN.sub("", text)


# ---------------------------------------------------------------- text in columns
def width(text):
    """The columns ``text`` takes in a terminal or a notebook's output: a Chinese character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text, columns):
    """``text`` followed by spaces up to ``columns`` columns (``f"{text:<15}"``, counting Chinese as two)."""
    return text + " " * max(columns - width(text), 0)
