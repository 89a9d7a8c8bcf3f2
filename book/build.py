"""Build the course website (`make site`): a Jupyter Book of the stored, tested notebooks.

The notebooks are not executed again: the site shows the outputs stored in
notebooks/*.ipynb, the ones strict nbval checks. The book's sources are laid
out in a staging folder (default `_site/src`), made from the repository's own
files each time, so they cannot drift from them:

- index.md: the README's learner part (its "Build your own autograd" section
  becomes a short pointer to the build-track page; "Read it online" and
  "Contributing" stay out);
- buildtrack.md: the README's "Build your own autograd" section, with
  book/buildtrack-start.md ("How to start") before its subsections;
- glossary.md: the glossary (English / 中文) of chapter 00;
- contributing.md: CONTRIBUTING.md;
- run-it.md: book/run-it.md, with the Binder and clone links of the repository;
- the chapters, copied from notebooks/;
- _config.yml and _toc.yml: book/_config.yml with the repository filled in,
  and the table of contents (chapters in order).

Files are rewritten only when their content changed, so a second build only
re-renders what changed. Then `jupyter-book build` writes the website to
OUT/_build/html (default `_site/_build/html`).

    python book/build.py [--out DIR] [--repository OWNER/NAME] [--branch main] [--all]

The repository (for the Binder button, the repository link and links to files
that are not pages of the site) comes from --repository, else $SITE_REPOSITORY,
else a GitHub `origin` remote; without one the site has no Binder button.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import yaml

BOOK = Path(__file__).resolve().parent
ROOT = BOOK.parent
CHAPTER_GLOB = "[0-9][0-9]_*.ipynb"
# README sections: the one that becomes its own page, and the ones left out of the site.
BUILD_TRACK = "Build your own autograd"
LEFT_OUT = ("Read it online", "Contributing")
GLOSSARY_HEADING = re.compile(r"^## Glossary\b.*$", re.M)


# ---------------------------------------------------------------- markdown sections


def split_sections(text, level=2):
    """(preamble, [(title, section text)]) of a markdown text, split at headings of this level.

    Headings inside fenced code blocks do not count.
    """
    marker = "#" * level + " "
    preamble, sections, fence = [], [], None
    for line in text.splitlines(keepends=True):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            tick = stripped[:3]
            fence = None if fence == tick else (fence or tick)
        if fence is None and line.startswith(marker):
            sections.append([line[len(marker):].strip(), [line]])
        elif sections:
            sections[-1][1].append(line)
        else:
            preamble.append(line)
    return "".join(preamble), [(title, "".join(lines)) for title, lines in sections]


def first_paragraph(text):
    """The first paragraph after a section's heading line."""
    body = text.split("\n", 1)[1].strip()
    return body.split("\n\n", 1)[0]


def landing_and_build_track(readme):
    """The landing page and the build-track page, from the README."""
    preamble, sections = split_sections(readme)
    titles = [title for title, _ in sections]
    if BUILD_TRACK not in titles:
        raise SystemExit(f"README.md has no '## {BUILD_TRACK}' section: the build-track page is made from it")
    landing = [preamble.rstrip() + "\n\n" + RUN_IT_NOTE + "\n"]
    build_track = None
    for title, text in sections:
        if title == BUILD_TRACK:
            build_track = text
            landing.append(f"## {BUILD_TRACK}\n\n{first_paragraph(text)}\n\n"
                           "The [build track page](buildtrack.md) has the table of the steps, how to start, "
                           "and how to start a piece over.\n")
        elif title not in LEFT_OUT:
            landing.append(text.rstrip() + "\n")
    # The section becomes a page: its ## heading the page title, its ### subsections ## ones;
    # book/buildtrack-start.md ("How to start") goes before the first subsection.
    page = re.sub(r"^##(#?) ", lambda m: "#" + m.group(1) + " ", build_track, flags=re.M)
    title_line, _, body = page.partition("\n")
    intro, subsections = split_sections(body)
    start = (BOOK / "buildtrack-start.md").read_text(encoding="utf-8")
    page = "\n\n".join([title_line, intro.strip(), start.strip(), *(text.strip() for _, text in subsections)])
    return "\n".join(landing), page + "\n"


RUN_IT_NOTE = """\
:::{tip}
You are reading the course's website: every chapter as stored in the repository, with its
outputs, graphs and plots. To run the chapters and write your own autograd, start them
[on Binder or on your own machine](run-it.md).
:::"""


def glossary_page(welcome_path):
    """The glossary page: chapter 00's "## Glossary" markdown cell, as a page of its own."""
    notebook = json.loads(welcome_path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and GLOSSARY_HEADING.search(source):
            source = GLOSSARY_HEADING.sub(lambda m: "#" + m.group(0)[2:].lstrip("#"), source, count=1)
            title, _, body = source.partition("\n")
            return (f"{title}\n\nFrom [chapter 00]({welcome_path.name}), where the course starts.\n"
                    f"{body}\n")
    raise SystemExit(f"{welcome_path.name} has no '## Glossary' markdown cell: "
                     "the glossary page is made from it")


# ---------------------------------------------------------------- the repository


def find_repository():
    """OWNER/NAME of the GitHub repository: $SITE_REPOSITORY, else the `origin` remote, else None."""
    if os.environ.get("SITE_REPOSITORY"):
        return os.environ["SITE_REPOSITORY"].strip()
    try:
        url = subprocess.run(["git", "remote", "get-url", "origin"], cwd=ROOT, capture_output=True,
                             text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.match(r"(?:https://github\.com/|git@github\.com:)([\w.-]+/[\w.-]+?)(?:\.git)?/?$", url)
    return match.group(1) if match else None


def run_it_page(repository, branch):
    text = (BOOK / "run-it.md").read_text(encoding="utf-8")
    if repository:
        binder = (f"https://mybinder.org/v2/gh/{repository}/{branch}"
                  f"?urlpath=lab/tree/notebooks/00_welcome.ipynb")
        launch = (f"[Open the course on Binder]({binder}): JupyterLab starts on chapter 00, "
                  "in a temporary environment made from the repository's `environment.yml` "
                  "(with Graphviz's `dot`, which draws the graphs). Every chapter page of this site "
                  "also has a launch button (the rocket at the top of the page) that opens that chapter.")
        clone = f"git clone https://github.com/{repository}.git\ncd {repository.split('/')[1]}"
    else:
        launch = ("This copy of the site was built without the repository's address, so it has no "
                  "Binder button; the website built by the GitHub Pages workflow has one on every chapter.")
        clone = "git clone <URL of the repository>\ncd <the folder git made>"
    return text.replace("{{ binder }}", launch).replace("{{ clone }}", clone)


# ---------------------------------------------------------------- the staging folder


def toc(chapters):
    return {
        "format": "jb-book",
        "root": "index",
        "parts": [
            {"caption": "Start here", "chapters": [{"file": "run-it"}]},
            {"caption": "The course", "numbered": False,
             "chapters": [{"file": path.stem} for path in chapters]},
            {"caption": "Beside the chapters",
             "chapters": [{"file": "buildtrack"}, {"file": "glossary"}, {"file": "contributing"}]},
        ],
    }


def book_config(repository, branch):
    config = yaml.safe_load((BOOK / "_config.yml").read_text(encoding="utf-8"))
    config["sphinx"]["local_extensions"] = {"course_site": str(BOOK)}
    config["sphinx"]["config"]["course_repository"] = repository or ""
    config["sphinx"]["config"]["course_branch"] = branch
    config["sphinx"]["config"]["course_root"] = str(ROOT)
    if repository:
        config["repository"] = {"url": f"https://github.com/{repository}", "branch": branch,
                                "path_to_book": "notebooks"}  # where the chapters are, for the launch buttons
        config["html"]["use_repository_button"] = True
        config["launch_buttons"]["binderhub_url"] = "https://mybinder.org"
    return config


def write_if_changed(path: Path, data: bytes, written: set):
    written.add(path)
    if not path.exists() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def stage(src: Path, repository, branch):
    """Lay out the book's sources in src; remove what an earlier staging left that is gone now."""
    chapters = sorted((ROOT / "notebooks").glob(CHAPTER_GLOB))
    if not chapters:
        raise SystemExit("no chapters in notebooks/")
    written = set()

    def text(name, content):
        write_if_changed(src / name, content.encode("utf-8"), written)

    landing, build_track = landing_and_build_track((ROOT / "README.md").read_text(encoding="utf-8"))
    text("index.md", landing)
    text("buildtrack.md", build_track)
    text("glossary.md", glossary_page(chapters[0]))
    text("contributing.md", (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"))
    text("run-it.md", run_it_page(repository, branch))
    text("_toc.yml", yaml.safe_dump(toc(chapters), sort_keys=False, allow_unicode=True))
    text("_config.yml", yaml.safe_dump(book_config(repository, branch), sort_keys=False, allow_unicode=True))
    for path in chapters:
        write_if_changed(src / path.name, path.read_bytes(), written)
    # The README's pictures are raw <img> tags, which Sphinx does not copy: html_extra_path does.
    for path in sorted((ROOT / "docs").rglob("*")):
        if path.is_file():
            write_if_changed(src / "_extra" / path.relative_to(ROOT), path.read_bytes(), written)
    write_if_changed(src / "_static" / "course.css", (BOOK / "course.css").read_bytes(), written)
    write_if_changed(src / "favicon.svg", (BOOK / "favicon.svg").read_bytes(), written)
    for path in sorted(src.rglob("*"), reverse=True):
        if path.is_file() and path not in written:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return chapters


def build(out: Path, src: Path, repository, branch, force_all=False):
    chapters = stage(src, repository, branch)
    # `jupyter-book build`, run by this Python wherever its scripts folder is.
    command = [sys.executable, "-c", "import sys; from jupyter_book.cli.main import main; "
               "sys.argv[0] = 'jupyter-book'; main()",
               "build", str(src), "--path-output", str(out), "-W", "--keep-going", "-q"]
    if force_all:
        command.append("--all")
    started = time.monotonic()
    subprocess.run(command, check=True)
    html = out / "_build" / "html"
    print(f"site: {len(chapters)} chapters in {html} ({time.monotonic() - started:.0f} s); "
          f"open {html / 'index.html'}" + ("" if repository else " (no repository known: no Binder button)"))
    return html


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_site",
                        help="output folder; the website goes to OUT/_build/html (default: _site)")
    parser.add_argument("--src", type=Path, help="staging folder of the book's sources (default: OUT/src)")
    parser.add_argument("--repository", help="OWNER/NAME on GitHub (default: $SITE_REPOSITORY, or origin)")
    parser.add_argument("--branch", default=os.environ.get("SITE_BRANCH", "main"))
    parser.add_argument("--all", action="store_true", help="re-render every page, not just the changed ones")
    args = parser.parse_args(argv)
    out = args.out.resolve()
    try:
        build(out, (args.src or out / "src").resolve(), args.repository or find_repository(), args.branch,
              force_all=args.all)
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"jupyter-book failed (exit {error.returncode}): see the warnings above") from None


if __name__ == "__main__":
    main()
