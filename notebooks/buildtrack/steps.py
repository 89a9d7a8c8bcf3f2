"""The steps of the build track and their registry: ``@step("02.2", title, pieces)`` registers a check.

Also what a verdict asks of a step that rewrites code which already works: has the rewrite begun, and does
it use the step's words yet.
"""
import ast
import inspect
import pathlib
import textwrap
from dataclasses import dataclass

from . import stubs, swap
from .i18n import _


@dataclass
class Step:
    id: str            # "02.2": chapter 02, second step
    title: str         # what the learner writes, in a few words
    pieces: str        # the stubs to fill in, e.g. "Function.apply in function.py"
    check: callable    # check(package) -> sentence, or raises
    rewrites: tuple = ()   # ("file.py", "Class.method"): pieces that ship working and this step rewrites
    uses: dict = None      # {"engine.run_backward": "release_saved"}: a rewrite of the learner's own code
    after: str = None      # waits only for the steps up to this one, and for its own chapter's: "06.2"
    begun: dict = None     # {"engine.run_backward": "retain_graph"}: a word that shows the rewrite has begun

    @property
    def chapter(self):
        return self.id[:2]

    def needs(self):
        """The earlier steps this one waits for: all of them, or those up to ``after`` and its chapter's."""
        earlier = list(STEPS)[:list(STEPS).index(self.id)]
        if self.after is None:
            return earlier
        return [s for s in earlier if s <= self.after or s[:2] == self.chapter]

    def rewritten(self):
        """``[(file, qualified name)]`` of the working code this step rewrites."""
        named = [qualified.removeprefix("engine.") for qualified in self.uses]
        return list(self.rewrites) + [(swap.file_of(name), name) for name in named]


STEPS = {}


def step(step_id, title, pieces, rewrites=(), uses=None, after=None, begun=None):
    """Register a check function as the check of one step.

    A step that asks the learner to rewrite code that already runs cannot see a
    ``NotImplementedError``. It is "not done yet" while ``rewrites`` (shipped
    pieces) are still exactly as shipped. For ``uses`` (``"engine.run_backward":
    "release_saved"``) the check decides: a rewrite that behaves right is done,
    whatever it calls; one that fails and does not mention the word yet is
    "not done yet" (not started), otherwise wrong; a function that uses its ``begun`` word
    (``"engine.run_backward": "retain_graph"``) has been started, and is judged as it is.
    """
    def register(check):
        STEPS[step_id] = Step(step_id, title, pieces, check, tuple(rewrites), uses or {}, after, begun or {})
        return check
    return register


def still_shipped(the_step, directory):
    """Why a rewrite step has not been started (its pieces are as shipped), or None."""
    for file, name in the_step.rewrites:
        shipped = swap.answer_file(file)[2].get(name)
        mine = stubs.function_dumps(ast.parse((pathlib.Path(directory) / file).read_text())).get(name)
        if shipped is not None and mine == shipped:
            return (_("not done yet: rewrite {name} in myautograd/{file} "
                      "(it is still the version it shipped with).").format(name=name, file=file))
    return None


def word_missing(the_step, package):
    """``(function, word)`` for the first ``uses`` word the learner's code does not mention yet, or None."""
    for qualified, word in the_step.uses.items():
        if not mentions(package, qualified, word):
            begun = the_step.begun.get(qualified)
            if begun and mentions(package, qualified, begun, body_only=True):
                continue                 # the rewrite has begun, without the word: it is judged as it is
            return qualified.split(".", 1)[-1], word
    return None


def mentions(package, qualified, word, body_only=False):
    """Does the code of ``package``'s function ``qualified`` (no docstring, no comments; ``body_only``: nor
    its signature) use ``word``?"""
    target = package
    for part in qualified.split("."):
        target = getattr(target, part)
    function = ast.parse(textwrap.dedent(inspect.getsource(getattr(target, "fget", target)))).body[0]
    if ast.get_docstring(function):
        function.body = function.body[1:]
    if body_only:
        return any(word in ast.unparse(statement) for statement in function.body)
    return word in ast.unparse(function)


def rewritten_later(the_step, package, function):
    """The later step whose rewrite of ``function`` your code already shows (it uses that step's word),
    or None: then a word of ``the_step`` missing from it is a regression, not a step not started."""
    for later in STEPS.values():
        for qualified, word in later.uses.items():
            if (later.id > the_step.id and qualified.split(".", 1)[-1] == function
                    and mentions(package, qualified, word)):
                return later.id
    return None
