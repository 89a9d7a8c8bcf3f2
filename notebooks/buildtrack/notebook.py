"""Helpers for the chapters: run your package beside mini_autograd once a step is done."""
from .cache import verdict
from .i18n import _
from .package import load, package_dir
from .steps import STEPS


def mine(step_id, answers=False):
    """Your freshly loaded ``myautograd`` once ``step_id`` (and every step before it) is done, else None.

    When it is not done, one line says which step to finish: the cell goes on without it.
    """
    result = verdict(step_id, package_dir(answers))
    if result.status != "done":
        now = result.message[0].upper() + result.message[1:]
        print(_("⏳ This part runs on your myautograd once step {step} ({title}) is done. {message}").format(
            step=step_id, title=_(STEPS[step_id].title), message=now))
        return None
    return load(package_dir(answers))


def compare_graphs(build, step_id, answers=False, **draw_options):
    """Draw the graph ``build(torch)`` makes, with mini_autograd and (once ``step_id`` is done) with yours.

    ``build`` takes a module (``mini_autograd`` or ``myautograd``) and returns the output tensor.
    """
    import mini_autograd
    from mini_autograd import viz
    from IPython.display import display

    print("mini_autograd:")
    display(viz.draw(build(mini_autograd), **draw_options))
    package = mine(step_id, answers)
    if package is not None:
        print(_("your myautograd:"))
        display(viz.draw(build(package), **draw_options))
