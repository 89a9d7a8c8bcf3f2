"""Build the course website (`make site`): a Jupyter Book of the stored, tested notebooks.

The notebooks are not executed again: the site shows the outputs stored in
notebooks/*.ipynb, the ones strict nbval checks. The book's sources are laid
out in a staging folder (default `_site/src`), made from the repository's own
files each time, so they cannot drift from them:

- index.md: the README's learner part (its "Build your own autograd" section
  becomes a short pointer to the build-track page; "Read it online" and
  "Contributing" stay out; its links to the pages below lead to them, and its
  line for Chinese readers to the Chinese home page);
- buildtrack.md: docs/buildtrack.md, the build track's page (the README's
  "Build your own autograd" section points to it), with
  book/buildtrack-start.md ("How to start") before its subsections;
- limits.md and modules.md: docs/limits.md (where mini_autograd differs from
  PyTorch) and docs/modules.md (the module map, made from chapter 12's by
  tools/module_map.py), their links made relative to the book's root;
- glossary.md: the glossary (English / 中文) of chapter 00;
- contributing.md: CONTRIBUTING.md;
- run-it.md: book/run-it.md, with the Binder and clone links of the repository;
- the chapters, copied from notebooks/;
- _config.yml and _toc.yml: book/_config.yml with the repository filled in,
  and the table of contents (chapters in order).

Files are rewritten only when their content changed, so a second build only
re-renders what changed. Then `jupyter-book build` writes the website to
OUT/_build/html (default `_site/_build/html`).

The Chinese edition (notebooks/zh/, the chapters whose translation is complete)
is a second book, staged in OUT/src-zh and built with Sphinx's language zh_CN:
book/zh/index.md (its list of chapters with their Chinese titles), the glossary of
its chapter 00, its chapters, book/zh/run-it.md ("运行课程"), book/zh/buildtrack.md
(the build track, docs/buildtrack.md and book/buildtrack-start.md in Chinese;
tests/test_site_zh.py keeps it in step with the English page), book/zh/limits.md and
book/zh/modules.md (the limits and the module map, written in Chinese; the map's table is
tools/module_map.py's, in the Chinese chapter 12's words). Its search indexes
Chinese by overlapping pairs of characters (book/course_site.py). It is copied into
OUT/_build/html/zh/. Every page of either edition has a link to the same page in the
other one (to its home page where the other has no such page).

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
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

BOOK = Path(__file__).resolve().parent
ROOT = BOOK.parent
CHAPTER_GLOB = "[0-9][0-9]_*.ipynb"
# README sections: the one that points to its own page, and the ones left out of the site.
BUILD_TRACK = "Build your own autograd"
LEFT_OUT = ("Read it online", "Contributing")
# Pages of their own in docs/, linked from the README: {repository path: page name}.
DOC_PAGES = {"docs/buildtrack.md": "buildtrack", "docs/limits.md": "limits", "docs/modules.md": "modules"}
# The README's line for Chinese readers, which links to README.zh.md: on the site, to the Chinese home page.
ZH_README_LINK = "[README.zh.md](README.zh.md)"
GLOSSARY_HEADING = re.compile(r"^## Glossary\b.*$", re.M)
ZH_GLOSSARY_HEADING = re.compile(r"^## 术语表.*$", re.M)


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


MARKDOWN_LINK = re.compile(r"(\]\()([^)\s]+)(\))")
HTML_SOURCE = re.compile(r'(\bsrc=")([^"]+)(")')


def site_links(text, folder=""):
    """A repository file's links (it lies in ``folder``) as the book's root sees them: relative to the
    repository's root, which book/course_site.py resolves, and a page of DOC_PAGES as its page."""
    def rebase(match):
        target = match.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            return match.group(0)
        path, hash_, anchor = target.partition("#")
        path = os.path.normpath(os.path.join(folder, path)).replace(os.sep, "/")
        if path in DOC_PAGES:
            path = DOC_PAGES[path] + ".md"
        return match.group(1) + path + hash_ + anchor + match.group(3)
    return HTML_SOURCE.sub(rebase, MARKDOWN_LINK.sub(rebase, text))


def doc_page(name):
    """docs/NAME.md as a page of the book's root."""
    return site_links((ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8"), "docs")


def landing_and_build_track(readme, chinese_home=None):
    """The landing page and the build-track page: the README, and docs/buildtrack.md (which the README's
    build-track section points to). ``chinese_home``: where the line for Chinese readers leads on the site
    (else that line is left out)."""
    preamble, sections = split_sections(readme)
    titles = [title for title, _ in sections]
    if BUILD_TRACK not in titles:
        raise SystemExit(f"README.md has no '## {BUILD_TRACK}' section: the landing page points from it to "
                         "the build-track page")
    paragraphs = preamble.rstrip().split("\n\n")
    preamble = "\n\n".join(
        paragraph.replace(ZH_README_LINK, f'<a href="{chinese_home}">中文版首页</a>') if chinese_home
        else paragraph for paragraph in paragraphs if chinese_home or ZH_README_LINK not in paragraph)
    landing = [preamble + "\n\n" + RUN_IT_NOTE + "\n"]
    for title, text in sections:
        if title == BUILD_TRACK:
            landing.append(f"## {BUILD_TRACK}\n\n{first_paragraph(text)}\n\n"
                           "The [build track page](buildtrack.md) has the table of the steps, how to start, "
                           "and how to start a piece over.\n")
        elif title not in LEFT_OUT:
            landing.append(text.rstrip() + "\n")
    # docs/buildtrack.md: its # heading the page title, its ## sections after the introduction;
    # book/buildtrack-start.md ("How to start") goes before the first of them.
    title_line, _, body = doc_page("buildtrack").partition("\n")
    intro, subsections = split_sections(body)
    start = (BOOK / "buildtrack-start.md").read_text(encoding="utf-8")
    page = "\n\n".join([title_line, intro.strip(), start.strip(), *(text.strip() for _, text in subsections)])
    return site_links("\n".join(landing)), page + "\n"


RUN_IT_NOTE = """\
:::{tip}
You are reading the course's website: every chapter as stored in the repository, with its
outputs, graphs and plots. To run the chapters and write your own autograd, start them
[on Binder or on your own machine](run-it.md).
:::"""


def glossary_page(welcome_path, heading=GLOSSARY_HEADING,
                  pointer="From [chapter 00]({name}), where the course starts."):
    """The glossary page: chapter 00's "## Glossary" markdown cell, as a page of its own."""
    notebook = json.loads(welcome_path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and heading.search(source):
            source = heading.sub(lambda m: "#" + m.group(0)[2:].lstrip("#"), source, count=1)
            title, _, body = source.partition("\n")
            return f"{title}\n\n{pointer.format(name=welcome_path.name)}\n{body}\n"
    raise SystemExit(f"{welcome_path.name} has no '{heading.pattern}' markdown cell: "
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


RUN_IT_WORDS = {
    "en": dict(
        launch="[Open the course on Binder]({binder}): JupyterLab starts on chapter 00, in a temporary "
               "environment made from the repository's `environment.yml` (with Graphviz's `dot`, which "
               "draws the graphs). Every chapter page of this site also has a launch button (the rocket at "
               "the top of the page) that opens that chapter.",
        no_launch="This copy of the site was built without the repository's address, so it has no Binder "
                  "button; the website built by the GitHub Pages workflow has one on every chapter.",
        clone="git clone <URL of the repository>\ncd <the folder git made>"),
    "zh": dict(
        launch="[在 Binder 上打开课程]({binder})：JupyterLab 会打开中文版的第 00 章，"
               "运行在一个按仓库的 `environment.yml` 临时搭建的环境里"
               "（其中有画图用的 Graphviz `dot` 程序）。本站每一章的页面顶部也有一个启动按钮"
               "（火箭图标），点它就在 Binder 上打开那一章。",
        no_launch="这份网站在构建时不知道仓库的地址，所以没有 Binder 按钮；"
                  "由 GitHub Pages 工作流构建的网站，每一章都有这个按钮。",
        clone="git clone <仓库的 URL>\ncd <git 创建的文件夹>"),
}


def run_it_page(repository, branch, edition="en"):
    """The "Run it" page (book/run-it.md, or book/zh/run-it.md for the Chinese edition), its Binder link and
    clone command filled in."""
    words = RUN_IT_WORDS[edition]
    folder = "notebooks/zh" if edition == "zh" else "notebooks"
    text = (BOOK / ("zh/run-it.md" if edition == "zh" else "run-it.md")).read_text(encoding="utf-8")
    if repository:
        binder = (f"https://mybinder.org/v2/gh/{repository}/{branch}"
                  f"?urlpath=lab/tree/{folder}/00_welcome.ipynb")
        launch = words["launch"].format(binder=binder)
        clone = f"git clone https://github.com/{repository}.git\ncd {repository.split('/')[1]}"
    else:
        launch, clone = words["no_launch"], words["clone"]
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
             "chapters": [{"file": "buildtrack"}, {"file": "glossary"}, {"file": "limits"},
                          {"file": "modules"}, {"file": "contributing"}]},
        ],
    }


def zh_toc(chapters):
    # (The glossary follows the last chapter, as tests/browser/test_site.py expects of its "next" link.)
    return {
        "format": "jb-book",
        "root": "index",
        "parts": [
            {"caption": "课程", "numbered": False, "chapters": [{"file": path.stem} for path in chapters]},
            {"caption": "章节之外",
             "chapters": [{"file": "glossary"}, {"file": "buildtrack"}, {"file": "run-it"},
                          {"file": "limits"}, {"file": "modules"}]},
        ],
    }


def book_config(repository, branch, edition="en", other_pages=()):
    """The book's configuration; ``other_pages``: the pages of the other edition (for the switch)."""
    config = yaml.safe_load((BOOK / "_config.yml").read_text(encoding="utf-8"))
    config["sphinx"]["local_extensions"] = {"course_site": str(BOOK)}
    config["sphinx"]["config"]["course_repository"] = repository or ""
    config["sphinx"]["config"]["course_branch"] = branch
    config["sphinx"]["config"]["course_root"] = str(ROOT)
    config["sphinx"]["config"]["course_edition"] = edition
    config["sphinx"]["config"]["course_other_pages"] = sorted(other_pages)
    if edition == "zh":
        config["title"] = "mini_autograd：PyTorch 的 autograd 是怎样工作的"
        config["author"] = "mini_autograd 课程的作者们"        # the footer: "作者： ..."
        config["sphinx"]["config"]["language"] = "zh_CN"
        config["sphinx"]["config"]["html_extra_path"] = []    # (the README's pictures: English pages only)
    if repository:
        config["repository"] = {"url": f"https://github.com/{repository}", "branch": branch,
                                # where the chapters are, for the launch buttons
                                "path_to_book": "notebooks/zh" if edition == "zh" else "notebooks"}
        config["html"]["use_repository_button"] = True
        config["launch_buttons"]["binderhub_url"] = "https://mybinder.org"
    return config


def write_if_changed(path: Path, data: bytes, written: set):
    written.add(path)
    if not path.exists() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def remove_unwritten(src: Path, written: set):
    """Remove what an earlier staging left in src that is gone now."""
    for path in sorted(src.rglob("*"), reverse=True):
        if path.is_file() and path not in written:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


ENGLISH_PAGES = ("index", "run-it", "buildtrack", "glossary", "limits", "modules", "contributing", "search",
                 "genindex")
# The pages of both editions besides the chapters (the English one of each is in ENGLISH_PAGES).
ZH_PAGES = ("index", "run-it", "buildtrack", "glossary", "limits", "modules", "search", "genindex")


def zh_chapters():
    return sorted((ROOT / "notebooks" / "zh").glob(CHAPTER_GLOB))


def zh_home(chapters, english):
    """book/zh/index.md, with the list of the chapters translated so far, by their Chinese titles."""
    chinese = {path.stem: path for path in chapters}
    lines = [f"- [{chapter_title(chinese[path.stem])}]({path.stem}.ipynb)" if path.stem in chinese
             else f"- {chapter_title(path)}（[英文版](../{path.stem}.html)）" for path in english]
    done = set(chinese)
    intro = (f"中文版目前有 {len(done)} 章（共 {len(english)} 章）；其余各章暂时只有英文版，链接指向英文版。"
             if len(done) < len(english) else f"全部 {len(english)} 章都有中文版：")
    return (BOOK / "zh" / "index.md").read_text(encoding="utf-8").replace(
        "{{ chapters }}", intro + "\n\n" + "\n".join(lines))


def chapter_title(path):
    """A chapter's title, from its first markdown cell: ``# 01 — Your first gradient``, or in Chinese
    ``# 01 — 你的第一个梯度``."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    first = "".join(notebook["cells"][0]["source"]).splitlines()[0]
    return first.lstrip("# ").strip()


def stage_zh(src: Path, repository, branch):
    """Lay out the Chinese edition's sources in src (as stage does the English edition's)."""
    chapters, english = zh_chapters(), sorted((ROOT / "notebooks").glob(CHAPTER_GLOB))
    written = set()

    def text(name, content):
        write_if_changed(src / name, content.encode("utf-8"), written)

    text("index.md", zh_home(chapters, english))
    text("glossary.md", glossary_page(chapters[0], ZH_GLOSSARY_HEADING, "摘自课程开始的[第 00 章]({name})。"))
    text("run-it.md", run_it_page(repository, branch, "zh"))
    for name in ("buildtrack", "limits", "modules"):
        text(f"{name}.md", (BOOK / "zh" / f"{name}.md").read_text(encoding="utf-8"))
    text("_toc.yml", yaml.safe_dump(zh_toc(chapters), sort_keys=False, allow_unicode=True))
    config = book_config(repository, branch, "zh", ENGLISH_PAGES + tuple(p.stem for p in english))
    text("_config.yml", yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    for path in chapters:
        write_if_changed(src / path.name, path.read_bytes(), written)
    write_if_changed(src / "_static" / "course.css", (BOOK / "course.css").read_bytes(), written)
    write_if_changed(src / "favicon.svg", (BOOK / "favicon.svg").read_bytes(), written)
    remove_unwritten(src, written)
    return chapters


def stage(src: Path, repository, branch):
    """Lay out the book's sources in src; remove what an earlier staging left that is gone now."""
    chapters = sorted((ROOT / "notebooks").glob(CHAPTER_GLOB))
    if not chapters:
        raise SystemExit("no chapters in notebooks/")
    written = set()

    def text(name, content):
        write_if_changed(src / name, content.encode("utf-8"), written)

    chinese = zh_chapters()
    landing, build_track = landing_and_build_track((ROOT / "README.md").read_text(encoding="utf-8"),
                                                   "zh/index.html" if chinese else None)
    text("index.md", landing)
    text("buildtrack.md", build_track)
    text("limits.md", doc_page("limits"))
    text("modules.md", doc_page("modules"))
    text("glossary.md", glossary_page(chapters[0]))
    text("contributing.md", (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"))
    text("run-it.md", run_it_page(repository, branch))
    text("_toc.yml", yaml.safe_dump(toc(chapters), sort_keys=False, allow_unicode=True))
    zh_pages = (ZH_PAGES + tuple(p.stem for p in chinese)) if chinese else ()
    text("_config.yml", yaml.safe_dump(book_config(repository, branch, "en", zh_pages), sort_keys=False,
                                       allow_unicode=True))
    for path in chapters:
        write_if_changed(src / path.name, path.read_bytes(), written)
    # The pictures of the README and of docs/ are raw <img> tags, which Sphinx does not copy:
    # html_extra_path does.
    for path in sorted((ROOT / "docs").rglob("*")):
        if path.is_file() and path.suffix != ".md":              # (the .md files are pages)
            write_if_changed(src / "_extra" / path.relative_to(ROOT), path.read_bytes(), written)
    write_if_changed(src / "_static" / "course.css", (BOOK / "course.css").read_bytes(), written)
    write_if_changed(src / "favicon.svg", (BOOK / "favicon.svg").read_bytes(), written)
    remove_unwritten(src, written)
    return chapters


def jupyter_book(src: Path, out: Path, force_all):
    """`jupyter-book build`, run by this Python wherever its scripts folder is."""
    command = [sys.executable, "-c", "import sys; from jupyter_book.cli.main import main; "
               "sys.argv[0] = 'jupyter-book'; main()",
               "build", str(src), "--path-output", str(out), "-W", "--keep-going", "-q"]
    if force_all:
        command.append("--all")
    subprocess.run(command, check=True)


def build(out: Path, src: Path, repository, branch, force_all=False):
    started = time.monotonic()
    chapters = stage(src, repository, branch)
    jupyter_book(src, out, force_all)
    html = out / "_build" / "html"
    zh = html / "zh"
    shutil.rmtree(zh, ignore_errors=True)
    chinese = zh_chapters()
    if chinese:
        zh_src, zh_out = src.parent / (src.name + "-zh"), out / "zh-book"
        stage_zh(zh_src, repository, branch)
        jupyter_book(zh_src, zh_out, force_all)
        shutil.copytree(zh_out / "_build" / "html", zh)
    print(f"site: {len(chapters)} chapters, {len(chinese)} in Chinese, in {html} "
          f"({time.monotonic() - started:.0f} s); open {html / 'index.html'}"
          + ("" if repository else " (no repository known: no Binder button)"))
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
