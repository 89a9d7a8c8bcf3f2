"""Make the learner's stubs from the answer key: ``answers/myautograd`` -> ``notebooks/myautograd``.

How a stub is made is explained in ``notebooks/buildtrack/stubs.py``.

    python tools/make_stubs.py            # write notebooks/myautograd
    python tools/make_stubs.py --check    # do the shipped stubs match the answer key?
"""
import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ANSWER_KEY = ROOT / "answers" / "myautograd"
STUBS = ROOT / "notebooks" / "myautograd"
sys.path.insert(0, str(ROOT / "notebooks"))

from buildtrack.stubs import make_stub  # noqa: E402


def expected_stubs():
    return {path.name: make_stub(path.read_text()) for path in sorted(ANSWER_KEY.glob("*.py"))}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    stubs = expected_stubs()
    if args.check:
        shipped = {path.name for path in STUBS.glob("*.py")}
        problems = [name for name, text in stubs.items()
                    if not (STUBS / name).exists() or (STUBS / name).read_text() != text]
        problems += sorted(shipped - set(stubs))
        print("\n".join(f"notebooks/myautograd/{name}: differs from the answer key's stub"
                        for name in problems)
              or "the stubs match the answer key")
        return 1 if problems else 0
    STUBS.mkdir(exist_ok=True)
    for name, text in stubs.items():
        (STUBS / name).write_text(text)
    print(f"wrote {len(stubs)} files to {STUBS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
