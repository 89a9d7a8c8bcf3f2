"""Write notebooks/buildtrack/corpus.json: the project's own cross-check programs, each tagged with the build
track step from which the learner's myautograd can run it.

The tests hold mini_autograd to PyTorch with hundreds of small torch programs (``assert_same`` and
``run_snippet`` in ``tests/crosscheck.py``). The same programs hold the learner's package to mini_autograd:
a situation added to test mini_autograd then tests the learner too. This tool

1. collects every program the cross-check tests run (pytest runs them, with ``crosscheck`` watched);
2. keeps those the finished answer key (``answers/myautograd``) runs exactly as mini_autograd does:
   the others use an API the build track does not build (``torch.randn(...).shape``, ``nn.Sequential``);
3. tags each with the first step whose package runs it as mini_autograd does: the package of a learner who
   did every step up to it right (``package_at``), later pieces still stubs. A program the package as
   shipped already runs (given code only) is left out.

Step ``S``'s check then runs the programs tagged ``S`` (``notebooks/buildtrack/corpus.py``).

Needs PyTorch (the programs are those that pass against it). After a change to the tests' programs, the
answer key or mini_autograd, run it again (tests/test_buildtrack_corpus.py fails until then):

    python tools/buildtrack_corpus.py            # write the file
    python tools/buildtrack_corpus.py --check    # is it current?
"""
import argparse
import json
import pathlib
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "notebooks"))
sys.path.insert(0, str(ROOT / "tests"))

# The test files whose programs make the corpus: every file that runs programs through crosscheck, but the
# build track's own tests (they run the answer key, not PyTorch).
SOURCES = sorted(path for path in (ROOT / "tests").glob("test_*.py")
                 if "crosscheck" in path.read_text() and not path.name.startswith("test_buildtrack"))


class Collector:
    """A pytest plugin: every program run under mini_autograd by ``crosscheck`` while the tests run,
    with the test that ran it first (``tests/test_vs_torch.py::test_exp[3]``)."""

    def __init__(self):
        self.programs = {}

    def pytest_configure(self, config):
        import os

        import crosscheck
        run_snippet = crosscheck.run_snippet

        def watched(code, module):
            if module.__name__ == "mini_autograd":
                test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
                self.programs.setdefault(code, test)
            return run_snippet(code, module)
        crosscheck.run_snippet = watched


def collected():
    """``{program: test}`` of every program the source tests run under mini_autograd."""
    import pytest

    collector = Collector()
    code = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--no-header", "-x",
                        *map(str, SOURCES)], plugins=[collector])
    if code not in (0, 5):
        raise SystemExit(f"the cross-check tests failed (pytest exit code {code}): fix them first")
    return collector.programs


def package_at(step_id, directory):
    """Write into ``directory``/myautograd the package of a learner who did every step up to ``step_id``
    right: the answer key's pieces of those steps, in the forms they have then (``as_right_at``), and every
    later piece its stub. ``step_id`` "00.0": the package as shipped."""
    from buildtrack.package import ANSWER_KEY
    from buildtrack.stubs import make_stub
    from buildtrack_mistakes import as_right_at

    target = pathlib.Path(directory) / "myautograd"
    shutil.copytree(ANSWER_KEY, target)
    as_right_at(target, step_id)
    for path in sorted(target.glob("*.py")):
        path.write_text(make_stub(path.read_text(), after=step_id))
    return target


def corpus_text(programs):
    """What corpus.json should hold for ``programs`` (``{program: test}``)."""
    import mini_autograd
    from buildtrack import corpus
    from buildtrack.package import ANSWER_KEY, load
    from buildtrack.steps import STEPS

    import buildtrack  # noqa: F401  (registers every step)

    reference = {code: corpus.outcome(code, mini_autograd) for code in programs}
    answers = load(ANSWER_KEY)
    kept = [code for code in programs if corpus.agree(corpus.outcome(code, answers), reference[code])]
    tags = {}
    with tempfile.TemporaryDirectory() as directory:
        # Latest step first: a program's tag is the step from which every later package runs it right.
        for step_id in reversed(["00.0"] + sorted(STEPS)):
            package = load(package_at(step_id, pathlib.Path(directory) / step_id))
            for code in kept:
                if corpus.agree(corpus.outcome(code, package), reference[code]):
                    tags[code] = step_id
            kept = [code for code in kept if tags.get(code) == step_id]
    # A program the shipped package already runs needs no piece of the learner's: it checks nothing.
    entries = [{"step": step, "test": programs[code], "code": code}
               for code, step in tags.items() if step != "00.0"]
    entries.sort(key=lambda entry: (entry["step"], entry["test"], entry["code"]))
    return json.dumps({"programs": entries}, indent=1, ensure_ascii=False) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    from buildtrack.corpus import CORPUS_FILE

    text = corpus_text(collected())
    if args.check:
        current = CORPUS_FILE.exists() and CORPUS_FILE.read_text() == text
        print(f"{CORPUS_FILE.name} is current" if current else
              f"{CORPUS_FILE.name} is out of date: run python tools/buildtrack_corpus.py")
        return 0 if current else 1
    CORPUS_FILE.write_text(text)
    counts = {}
    for entry in json.loads(text)["programs"]:
        counts[entry["step"]] = counts.get(entry["step"], 0) + 1
    print(f"wrote {CORPUS_FILE} ({sum(counts.values())} programs: "
          + ", ".join(f"{step} {n}" for step, n in sorted(counts.items())) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
