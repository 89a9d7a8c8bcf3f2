"""Write the build track's random programs into notebooks/buildtrack/programs.json.

A check of a late step, run cold, needs the programs of a dozen levels; hypothesis takes 0.15 to 0.3 s
of CPU to write each level's. Shipped written, they cost nothing to make, and every learner's machine
checks the same programs, whatever version of hypothesis it has. The file is used only while
notebooks/buildtrack/differential.py is the file that wrote it (a hash says so); after a change to it,
run this again (tests/test_buildtrack.py fails until then).

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
    text = differential.programs_file_text()
    path = differential.PROGRAMS_FILE
    if args.check:
        current = path.exists() and path.read_text() == text
        print(f"{path.name} is current" if current else
              f"{path.name} is out of date: run python tools/buildtrack_programs.py")
        return 0 if current else 1
    path.write_text(text)
    print(f"wrote {path} ({len(text):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
