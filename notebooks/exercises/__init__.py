"""The exercises' checks: what a chapter's exercise check cell runs, kept out of the learner's sight.

A check cell is one call, ``check_exercise("1.1")``, collapsed in JupyterLab and hidden on the website (the
cell tag ``hide-input``, which ``tools/nbbuild.py`` turns into ``source_hidden``). Its expected answer, the
way it compares, and what it says (``right=``, ``hint=``, the messages for each kind of mistake) live here,
one module per chapter (``ch01.py`` holds exercises 1.1 to 1.3), as the build track's checks live in
``buildtrack/``. A learner who wants the answer opens the chapter's "Show solution" box instead.

Each exercise has its own answer name (``answer_1_1``, or the function it asks for, ``derivatives``), so a
check never reads another exercise's answer. A check is a function registered with ``@exercise("1.1")``;
its parameters name what it reads from the chapter's namespace (the kernel's, where the check cell runs):

- the positional ones are what the exercise cell makes (``answer_1_1``; ``answer_5_2`` and ``train``): when
  one is missing, the exercise cell has not run in this kernel, and the check says so (⏳);
- the keyword-only ones are what the chapter's cells above make (``X``, ``mse``, ``net``): when one is
  missing, the check asks to run the cells above first.

A check computes with the chapter's ``torch`` (each module's ``torch`` is set to it before the check runs):
mini_autograd, or PyTorch for a learner who put ``import torch`` in the chapter's first cell.

The texts the checks print are the chapter's texts: written in English, passed to ``coursetools``'s
``check_answer``, ``check``, ``can_check``, ``run_check`` and ``not_answered`` as the chapters' code cells did,
and translated for the Chinese edition from the ``chapters`` catalogue
(``buildtrack/locale/zh_CN/LC_MESSAGES/chapters.po``, which ``python -m buildtrack --translations update``
fills from ``notebooks/src/*.py`` and from these modules).
"""
import importlib
import inspect
import sys

import coursetools

_CHECKS = {}


def exercise(number):
    """Register the check of exercise ``number`` (``"1.1"``)."""
    def register(function):
        _CHECKS[number] = function
        return function
    return register


def checker(number):
    """The check function of exercise ``number``, its chapter's module imported."""
    chapter = int(number.split(".")[0])
    importlib.import_module(f"{__name__}.ch{chapter:02d}")
    return _CHECKS[number]


def check_exercise(number, namespace=None):
    """Check exercise ``number`` (``"1.1"``) and print the verdict: ⏳ not answered yet, ❌ what is wrong, or
    ✅ right. Reads the answer from ``namespace``, by default the namespace of the caller (the chapter's).
    Returns None, so that a notebook shows nothing but what the check prints."""
    if namespace is None:
        namespace = sys._getframe(1).f_globals
    function = checker(number)
    _use_the_chapters_torch(sys.modules[function.__module__], namespace)
    arguments, keywords = [], {}
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name not in namespace:
            if parameter.kind is parameter.KEYWORD_ONLY:
                coursetools.run_above_first(parameter.name, number)
            else:
                coursetools.not_run(parameter.name, number)
            return None
        if parameter.kind is parameter.KEYWORD_ONLY:
            keywords[parameter.name] = namespace[parameter.name]
        else:
            arguments.append(namespace[parameter.name])
    function(*arguments, **keywords)
    return None


def _use_the_chapters_torch(module, namespace):
    """A check computes with the chapter's ``torch``: mini_autograd, or PyTorch itself for a learner who
    replaced the chapter's import line with ``import torch`` (chapter 00 suggests it), as the check cells
    did when their code was in the chapter."""
    import types

    import mini_autograd
    chosen = namespace.get("torch")
    if not (isinstance(chosen, types.ModuleType) and chosen.__name__ in ("torch", "mini_autograd")):
        chosen = mini_autograd
    if hasattr(module, "torch"):
        module.torch = chosen


def answer_names(number):
    """What the exercise cell of ``number`` must define (the check's positional parameters)."""
    return [parameter.name for parameter in inspect.signature(checker(number)).parameters.values()
            if parameter.kind is not parameter.KEYWORD_ONLY]
