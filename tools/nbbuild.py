"""Build the course notebooks from their percent-format sources, and execute them.

Each chapter is written as ``notebooks/src/NN_slug.py`` in jupytext's percent
format: cells start with ``# %%`` (code) or ``# %% [markdown]`` (markdown,
every line prefixed with ``# ``). jupytext reads a source into a notebook;
this script gives its cells stable ids and their tags (the source's own, ``# %% tags=["hide-input"]``,
and the ``raises-exception`` tag where an error is the lesson; a ``hide-input`` cell, an exercise's check,
is also collapsed in JupyterLab: ``"jupyter": {"source_hidden": true}``), runs it top to bottom with
nbclient in a fresh kernel (from the notebooks folder, as JupyterLab and nbval do) and stores the outputs
in ``notebooks/NN_slug.ipynb``. With jupytext installed (the test extra), an
author can open a source in JupyterLab as a notebook (right-click, Open With,
Notebook) to try it; the stored notebook is still what this script builds.

    python tools/nbbuild.py notebooks/src/01_first_gradient.py   # one chapter
    python tools/nbbuild.py --all                                # every chapter
    python tools/nbbuild.py --check                              # sources and notebooks agree?
    python tools/nbbuild.py --relink      # after an edit of the answer key: links to its pieces, no run

The Chinese edition, ``notebooks/zh/NN_slug.ipynb``, is the English source with each markdown cell
replaced by its translation from ``notebooks/src/zh/NN_slug.po`` (tools/translations.py), run from
``notebooks/zh``. It is built for the chapters whose catalogue is complete and current:

    python tools/nbbuild.py --zh notebooks/src/01_first_gradient.py
    python tools/nbbuild.py --zh --all
"""
import argparse
import pathlib
import re
import shutil
import sys
import time

import jupytext
import nbformat
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SOURCES = NOTEBOOKS / "src"
ZH = NOTEBOOKS / "zh"
LINK = re.compile(r"(\]\()([^)\s:#]+)([)#])")
# A link to a piece of the learner's package: the source names the piece,
# [...](myautograd/tensor.py#Tensor.__init__); the built notebook has the line JupyterLab's editor opens
# at, [...](myautograd/tensor.py#line=85) (stub_lines).
LINE_FRAGMENT = re.compile(r"#line=\d+")
PIECE_LINK = re.compile(r"(\]\(myautograd/)(\w+\.py)#([A-Za-z_][\w.]*)\)")


def to_notebook(text):
    """The notebook a percent-format source gives (jupytext reads it), with stable cell ids and tags."""
    nb = jupytext.reads(text, fmt="py:percent")
    # No jupytext metadata: the notebooks are not paired with their sources (a pairing makes JupyterLab
    # with jupytext refuse a notebook rebuilt after its source, as every notebook here is).
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                 "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:03d}"         # stable ids keep diffs small
        tags = list(cell.metadata.get("tags", []))       # the source's own: `# %% tags=["hide-input"]`
        cell.metadata = {}
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
            if "# NBVAL_RAISES_EXCEPTION" in cell.source.split("\n"):
                tags.append("raises-exception")          # the error is the lesson: keep executing
        if tags:
            cell.metadata["tags"] = tags
        if "hide-input" in tags:
            # Hidden on the website (Jupyter Book's tag) and collapsed in JupyterLab: an exercise's check
            # cell, whose code would show how the answer is judged. JupyterLab shows its first line and a
            # row of dots; a click opens it.
            cell.metadata["jupyter"] = {"source_hidden": True}
    return nb


def stub_lines(nb, lang):
    """``nb`` with each link to a piece of ``myautograd`` pointing at the piece's line in the edition's stub
    (``#line=N``: JupyterLab's file editor, since 4.0, opens a file at the line of an RFC 5147 fragment,
    counted from 0: ``#line=85`` puts the cursor on line 86). The lines are read from the stubs as made from
    the answer key, so they follow the stubs when they change (``--check`` then asks for a rebuild)."""
    sys.path.insert(0, str(NOTEBOOKS))
    try:
        from buildtrack.stubs import make_stub, piece_line
    finally:
        sys.path.remove(str(NOTEBOOKS))
    stubs = {}

    def line_of(found):
        file, piece = found.group(2), found.group(3)
        if file not in stubs:
            stubs[file] = make_stub((ROOT / "answers" / "myautograd" / file).read_text(), lang=lang)
        return f"{found.group(1)}{file}#line={piece_line(stubs[file], piece) - 1})"

    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = PIECE_LINK.sub(line_of, cell.source)
    return nb


def cells_of(text):
    """``[(cell type, source), ...]`` of a percent-format source."""
    return [(cell.cell_type, cell.source) for cell in to_notebook(text).cells]


def shape_of(nb):
    """``[(cell type, source, tags, jupyter metadata), ...]``: what a stored notebook must share with the
    notebook its source gives (outputs aside)."""
    return [(cell.cell_type, cell.source, list(cell.metadata.get("tags", [])),
             dict(cell.metadata.get("jupyter", {}))) for cell in nb.cells]


def zh_chapters():
    """The chapters whose Chinese catalogue is complete and current: they have a Chinese edition."""
    import translations                 # (it imports this module)
    return [chapter for chapter in translations.translated_chapters() if not translations.problems(chapter)]


def zh_link(target, built):
    """A link of a Chinese cell, seen from notebooks/zh: a chapter with a Chinese edition, and the Chinese
    edition's own myautograd/, stay in the folder; anything else (a chapter not yet translated) is one folder
    up."""
    if target.endswith(".ipynb") and pathlib.Path(target).stem in built:
        return target
    if target.split("/")[0] == "myautograd" and (ZH / "myautograd").is_dir():
        return target
    return "../" + target if (NOTEBOOKS / target).exists() else target


def to_zh_notebook(text, chapter, built):
    """The Chinese edition of a chapter: its English cells, each markdown cell translated."""
    import translations
    translated = translations.translation(chapter)
    nb = to_notebook(text)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = LINK.sub(lambda m: m.group(1) + zh_link(m.group(2), built) + m.group(3),
                                   translated[cell.source])
    nb.metadata["language_info"]["natural_language"] = "zh-CN"
    return nb


def build(source_path, execute=True, timeout=120, zh=False):
    source_path = pathlib.Path(source_path)
    if zh:
        built = zh_chapters()
        if source_path.stem not in built:
            raise SystemExit(f"{source_path.stem}: its Chinese catalogue is not complete: "
                             f"python tools/translations.py check {source_path.stem}")
        ZH.mkdir(exist_ok=True)
        folder, nb = ZH, stub_lines(to_zh_notebook(source_path.read_text(), source_path.stem, built), "zh")
    else:
        folder, nb = NOTEBOOKS, stub_lines(to_notebook(source_path.read_text()), "en")
    target = folder / (source_path.stem + ".ipynb")
    seconds = 0.0
    if execute:
        start = time.perf_counter()
        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(folder)}}).execute()
        seconds = time.perf_counter() - start
        for cell in nb.cells:               # keep stored notebooks free of per-run noise
            cell.get("metadata", {}).pop("execution", None)
    nbformat.write(nb, target)
    return target, seconds


def check_sources():
    """Every notebook's cell sources equal what its source file gives."""
    problems = []
    for source_path in sorted(SOURCES.glob("[0-9][0-9]_*.py")):
        target = NOTEBOOKS / (source_path.stem + ".ipynb")
        if not target.exists():
            problems.append(f"{target.name}: missing (run tools/nbbuild.py {source_path})")
            continue
        expected = shape_of(stub_lines(to_notebook(source_path.read_text()), "en"))
        stored = shape_of(nbformat.read(target, as_version=4))
        if expected != stored:
            problems.append(f"{target.name}: differs from {source_path.name}; rebuild it")
    built = zh_chapters()
    for chapter in built:
        target = ZH / f"{chapter}.ipynb"
        if not target.exists():
            problems.append(f"zh/{target.name}: missing: tools/nbbuild.py --zh notebooks/src/{chapter}.py")
            continue
        text = (SOURCES / f"{chapter}.py").read_text()
        expected = shape_of(stub_lines(to_zh_notebook(text, chapter, built), "zh"))
        stored = shape_of(nbformat.read(target, as_version=4))
        if expected != stored:
            problems.append(f"zh/{target.name}: differs from {chapter}.py and its catalogue; rebuild it "
                            f"(tools/nbbuild.py --zh notebooks/src/{chapter}.py)")
    problems += [f"zh/{path.name}: its Chinese catalogue is not complete; remove it or finish the catalogue"
                 for path in sorted(ZH.glob("*.ipynb")) if path.stem not in built]
    return problems


def relink():
    """Set the stored notebooks' links to pieces of myautograd to the stubs' lines now (``stub_lines``),
    without running them: after an edit of the answer key moves a piece, its outputs stay right."""
    built, changed = zh_chapters(), []
    pairs = [(NOTEBOOKS / f"{path.stem}.ipynb",
              lambda path=path: stub_lines(to_notebook(path.read_text()), "en"))
             for path in sorted(SOURCES.glob("[0-9][0-9]_*.py"))]
    pairs += [(ZH / f"{chapter}.ipynb", lambda chapter=chapter: stub_lines(
        to_zh_notebook((SOURCES / f"{chapter}.py").read_text(), chapter, built), "zh")) for chapter in built]
    for target, expected in pairs:
        if not target.exists():
            continue
        stored, touched = nbformat.read(target, as_version=4), False
        for cell, wanted in zip(stored.cells, expected().cells, strict=False):
            if cell.cell_type == "markdown" and cell.source != wanted.source and \
                    LINE_FRAGMENT.sub("", cell.source) == LINE_FRAGMENT.sub("", wanted.source):
                cell.source, touched = wanted.source, True
        if touched:
            nbformat.write(stored, target)
            changed.append(target.relative_to(ROOT).as_posix())
    return changed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", nargs="*")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--relink", action="store_true",
                        help="only move the stored notebooks' links to myautograd's pieces to their lines")
    parser.add_argument("--no-execute", action="store_true")
    parser.add_argument("--zh", action="store_true", help="build the Chinese edition (notebooks/zh/)")
    args = parser.parse_args(argv)
    if args.relink:
        print("\n".join(relink()) or "every link to a piece of myautograd is at its line")
        return 0
    if args.check:
        problems = check_sources()
        print("\n".join(problems) or "all notebooks match their sources")
        return 1 if problems else 0
    sources = sorted(SOURCES.glob("[0-9][0-9]_*.py")) if args.all else args.sources
    if args.zh and args.all:
        sources = [SOURCES / f"{chapter}.py" for chapter in zh_chapters()]
    if not args.no_execute and shutil.which("dot") is None:
        # Without graphviz the chapters draw their graphs as text, and that is what would be stored.
        print("graphviz's dot is not on PATH: install graphviz (see the Makefile's check-dot), then build "
              "again.", file=sys.stderr)
        return 1
    for source in sources:
        target, seconds = build(source, execute=not args.no_execute, zh=args.zh)
        print(f"{target.relative_to(ROOT)}: executed in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
