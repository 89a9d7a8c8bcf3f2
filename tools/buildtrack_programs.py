"""Write the build track's random programs into notebooks/buildtrack/programs.json, and mini_autograd's
result of each into notebooks/buildtrack/reference_runs.json.

A check of a late step, run cold, needs the programs of a dozen levels; hypothesis takes 0.15 to 0.3 s
of CPU to write each level's. Shipped written, they cost nothing to make, and every learner's machine
checks the same programs, whatever version of hypothesis it has. The file is used only while
notebooks/buildtrack/differential.py is the file that wrote it (a hash says so); after a change to it,
run this again (tests/test_buildtrack.py fails until then). The results are used only while
mini_autograd, differential.py and _testing.py are the ones that gave them: after a change to any of
them, run this again too (a check made meanwhile computes the results itself, a third slower cold).

    python tools/buildtrack_programs.py            # write the file
    python tools/buildtrack_programs.py --check    # is it current?
"""
import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "notebooks"))

from buildtrack import differential  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    stale = []
    for path, make in ((differential.PROGRAMS_FILE, differential.programs_file_text),
                       (differential.REFERENCE_FILE, differential.reference_file_text)):
        text = make()
        if args.check:
            current = path.exists() and path.read_text() == text
            print(f"{path.name} is current" if current else
                  f"{path.name} is out of date: run python tools/buildtrack_programs.py")
            stale += [] if current else [path]
            continue
        path.write_text(text)
        differential.shipped_programs.cache_clear()         # (the results are of the programs just written)
        print(f"wrote {path} ({len(text):,} bytes)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
