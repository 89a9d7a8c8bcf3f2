"""Make the learner's stubs from the answer key: ``answers/myautograd`` -> ``notebooks/myautograd`` (the
English edition's) and ``notebooks/zh/myautograd`` (the Chinese edition's).

How a stub is made, and how each edition keeps the docstrings and comments of its language only, is
explained in ``notebooks/buildtrack/stubs.py``.

    python tools/make_stubs.py            # write both editions' stubs
    python tools/make_stubs.py --check    # do the shipped stubs match the answer key?
"""
import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ANSWER_KEY = ROOT / "answers" / "myautograd"
STUBS = ROOT / "notebooks" / "myautograd"
EDITIONS = {"en": STUBS, "zh": ROOT / "notebooks" / "zh" / "myautograd"}
sys.path.insert(0, str(ROOT / "notebooks"))

from buildtrack.stubs import make_stub  # noqa: E402


def expected_stubs(lang="en"):
    return {path.name: make_stub(path.read_text(), lang=lang) for path in sorted(ANSWER_KEY.glob("*.py"))}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    problems, written = [], 0
    for lang, folder in EDITIONS.items():
        stubs = expected_stubs(lang)
        where = folder.relative_to(ROOT).as_posix()
        if args.check:
            shipped = {path.name for path in folder.glob("*.py")}
            wrong = [name for name, text in stubs.items()
                     if not (folder / name).exists() or (folder / name).read_text() != text]
            problems += [f"{where}/{name}: differs from the answer key's stub"
                         for name in wrong + sorted(shipped - set(stubs))]
            continue
        folder.mkdir(exist_ok=True)
        for name, text in stubs.items():
            (folder / name).write_text(text)
        written += len(stubs)
        print(f"wrote {len(stubs)} files to {where}")
    if args.check:
        print("\n".join(problems) or "the stubs match the answer key")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
