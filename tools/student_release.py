"""The course as a class gets it: a student release, a git repository for nbgitpuller (deploy/jupyterhub/).

    python tools/student_release.py --out DIR                 # make (or update) the release in DIR
    python tools/student_release.py --out DIR --no-solutions  # without the exercises' "Show solution" boxes
    python tools/student_release.py --link HUB_URL REPO_URL   # the nbgitpuller link that hands it out

``make student-release OUT=DIR`` runs the first (``EXERCISE_SOLUTIONS=0``: the second).

What the release holds, taken from the commit checked out (``--ref``, default HEAD; ``--worktree``: the files
as they are on disk):

- ``notebooks/``: the chapters of both editions (``notebooks/NN_slug.ipynb``, ``notebooks/zh/``) with their
  stored outputs, ``coursetools.py`` and ``buildtrack/`` (the checks the chapters' check cells run);
- ``notebooks/myautograd/`` and ``notebooks/zh/myautograd/``: the stubs of each edition (docstrings and
  comments in its language), made afresh from the answer key (``buildtrack/stubs.py``), so a package the
  teacher filled in while trying the course is never handed out;
- ``mini_autograd/``: the engine, to read (the kernels import the one installed on the hub);
- a ``README.md`` for the students and a ``.gitignore``;
- ``answers``: a symbolic link to the hub's copy of the answer key (``--answer-key-link``), not the key.

What it leaves out: ``answers/`` itself, the chapters' sources and translations (``notebooks/src/``), the
tests, tools, benchmarks, the website and CI. With ``--no-solutions``, each exercise's "Show solution" box
(``<details><summary>Show solution</summary>``, in Chinese ``查看答案``: always a markdown cell of its own)
becomes one line saying it was left out. The check cells stay as they are: they call the exercises' checks
(``notebooks/exercises/``, released with the chapters), where a student who reads them can still find the
expected answers.

Why a link to the answer key: the check cells run in the student's own kernel and compare the student's
pieces with the answer key's (``buildtrack/package.py``: ``ANSWER_KEY`` is ``answers/myautograd`` beside
``notebooks/``). Without it they can still say "not done yet", but they judge right code wrong as soon as a
check needs a later piece. So the kernels must be able to read the answer key, and a curious student can
too: grades come from ``python -m buildtrack grade``, which uses the grader's own copy.

The release is a git repository (branch ``main``). Made again into the same folder, it becomes a new commit
on top of the last one, so nbgitpuller brings the change to every student on their next click, keeping
their own edits.
"""
import argparse
import importlib.util
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _stubs_module():
    """``notebooks/buildtrack/stubs.py`` alone (it needs only the standard library; the package needs numpy
    and mini_autograd), so that this tool runs on any Python 3.10+ with git."""
    path = ROOT / "notebooks" / "buildtrack" / "stubs.py"
    spec = importlib.util.spec_from_file_location("_release_stubs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_stub = _stubs_module().make_stub

BRANCH = "main"
TARGET = "course"                      # the folder each student's copy lands in (nbgitpuller's targetpath)
RELEASED = ("notebooks", "mini_autograd", "answers/myautograd")
# myautograd: made afresh from the answer key, one package per edition (its docstrings in its language)
LEFT_OUT = ("notebooks/src/", "notebooks/myautograd/", "notebooks/zh/myautograd/")
PACKAGES = {"en": "notebooks/myautograd", "zh": "notebooks/zh/myautograd"}
SKIPPED_PARTS = {"__pycache__", ".ipynb_checkpoints", ".buildtrack_cache", ".pytest_cache"}
SOLUTION_BOXES = {"<details><summary>Show solution</summary>": "en",
                  "<details><summary>查看答案</summary>": "zh"}
LEFT_OUT_NOTE = {"en": "*(This release leaves the solution out.)*",
                 "zh": "*（本次发布不含这道练习的答案。）*"}
IDENTITY = ["-c", "user.name=mini_autograd student release", "-c", "user.email=student-release@localhost"]

STUDENT_README = """\
# mini_autograd: how PyTorch autograd works (your copy)

This folder is your own copy of the course. Open `notebooks/00_welcome.ipynb` to start, or the Chinese
edition, `notebooks/zh/00_welcome.ipynb`.

- The chapters are `notebooks/NN_*.ipynb` (中文版: `notebooks/zh/`). Each runs in a few seconds.
- The build track: you write your own autograd, one piece per chapter, in `notebooks/myautograd/`. The
  check cell of each chapter tells you where you stand (⏳ not done yet, ✅ done, ❌ with the likely
  mistake). For the whole table, open a terminal and run `cd ~/{target}/notebooks && python -m buildtrack`.
- Your teacher collects the `.py` files of `notebooks/myautograd/` (or, in the Chinese edition,
  `notebooks/zh/myautograd/`: the package you last saved in) for grading, and grades them with the
  course's grader, which runs your code on its own copy of the checks.
- Clicking the course link again brings your teacher's updates and keeps your changes. A file you delete
  comes back as it was handed out: to start a whole file over, delete it and click the link.
- `answers` is a link the check cells use: they compare your pieces with it.

## 中文

这个文件夹是你自己的一份课程副本。从 `notebooks/zh/00_welcome.ipynb` 开始（英文版：
`notebooks/00_welcome.ipynb`）。

- 各章是 `notebooks/zh/NN_*.ipynb`，每章几秒钟就能运行完。
- 动手实现：你在 `notebooks/zh/myautograd/` 里一章一块地写出自己的 autograd。每章的检查单元格会告诉你进展
  （⏳ 还没完成，✅ 完成，❌ 并指出可能的错误）。要看完整的进度表，打开终端运行
  `cd ~/{target}/notebooks && BUILDTRACK_LANG=zh python -m buildtrack`。
- 老师会收集 `notebooks/zh/myautograd/` 中的 `.py` 文件，用课程自带的评分程序评分：
  它用自己的一份检查来运行你的代码。
- 再点一次课程链接，就能拿到老师的更新，你的修改会保留。删掉的文件会恢复成发布时的样子：想让整个文件重新开始，
  删掉它再点链接即可。
- `answers` 是检查单元格用到的链接：它们拿你的代码和它比较。
"""
GITIGNORE = ".buildtrack_cache/\n__pycache__/\n*.pyc\n.ipynb_checkpoints/\n"


class ReleaseError(Exception):
    """Something the teacher must fix first; the message says what."""


def git(*args, cwd, check=True, capture=True):
    run = subprocess.run(["git", *args], cwd=cwd, check=False, text=True,
                         stdout=subprocess.PIPE if capture else None, stderr=subprocess.PIPE)
    if check and run.returncode != 0:
        raise ReleaseError(f"git {' '.join(args)} failed in {cwd}:\n{run.stderr.strip()}")
    return run


# ------------------------------------------------------------------ the files
def files_at_ref(source, ref, into):
    """Extract ``RELEASED`` at ``ref`` of the repository ``source`` into ``into``; returns the commit."""
    commit = git("rev-parse", "--verify", f"{ref}^{{commit}}", cwd=source).stdout.strip()
    archive = pathlib.Path(into) / "release.tar"
    with open(archive, "wb") as out:
        run = subprocess.run(["git", "archive", "--format=tar", commit, "--", *RELEASED], cwd=source,
                             stdout=out, stderr=subprocess.PIPE, text=False)
    if run.returncode != 0:
        raise ReleaseError(f"git archive {ref} failed:\n{run.stderr.decode(errors='replace').strip()}")
    tree = pathlib.Path(into) / "tree"
    with tarfile.open(archive) as tar:                # (our own repository's archive: no links out of it)
        tar.extractall(tree, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    archive.unlink()
    return tree, commit


def files_on_disk(source, into):
    """Copy ``RELEASED`` as it is on disk into ``into``: in a git checkout, the files git tracks or would
    track (``.gitignore`` respected, uncommitted edits and new files included); else every file but hidden
    ones and caches."""
    source, tree = pathlib.Path(source), pathlib.Path(into) / "tree"
    if (source / ".git").exists():
        listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *RELEASED,
                     cwd=source).stdout.split("\0")
        for name in filter(None, listed):
            if (source / name).is_file():
                (tree / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source / name, tree / name)
        return tree
    for part in RELEASED:
        shutil.copytree(source / part, tree / part, symlinks=False,
                        ignore=shutil.ignore_patterns(".*", *SKIPPED_PARTS, "*.pyc", "*.egg-info"))
    return tree


def released_files(tree):
    """``{path in the release: source path}``: what goes in, by the rules of the module's docstring."""
    chosen = {}
    for path in sorted(tree.rglob("*")):
        relative = path.relative_to(tree).as_posix()
        if (path.is_dir() or path.is_symlink() or relative.startswith("answers/")
                or any(part.startswith(".") for part in path.relative_to(tree).parts)
                or relative.startswith(LEFT_OUT) or SKIPPED_PARTS & set(path.parts)
                or ".egg-info" in relative or path.suffix == ".pyc"):
            continue
        chosen[relative] = path
    return chosen


def stubs(tree):
    """``{folder: {file: stub text}}``, each edition's package (``PACKAGES``) made from the answer key in
    ``tree``."""
    key = tree / "answers" / "myautograd"
    made = {folder: {path.name: make_stub(path.read_text(encoding="utf-8"), lang=lang)
                     for path in sorted(key.glob("*.py"))} for lang, folder in PACKAGES.items()}
    if not made["notebooks/myautograd"]:
        raise ReleaseError(f"no answer key in {key}: the stubs are made from it")
    return made


def without_solutions(text):
    """A chapter's JSON with every "Show solution" cell replaced by a note; returns (text, count)."""
    notebook = json.loads(text)
    count = 0
    for cell in notebook["cells"]:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        first = source.split("\n", 1)[0].strip()
        if cell["cell_type"] == "markdown" and first in SOLUTION_BOXES:
            cell["source"] = [LEFT_OUT_NOTE[SOLUTION_BOXES[first]]]
            count += 1
        elif cell["cell_type"] == "markdown" and any(box in source for box in SOLUTION_BOXES):
            raise ReleaseError("a solution box that is not a cell of its own: --no-solutions cannot "
                               "take it out cleanly:\n" + source[:300])
    return json.dumps(notebook, indent=1, ensure_ascii=False, sort_keys=True) + "\n", count


# ------------------------------------------------------------------ the release
def write_tree(out, files, stub_texts, solutions, answer_key_link):
    """Fill ``out`` (emptied first, except ``.git``) with the release; returns the solutions left out."""
    for path in out.iterdir():
        if path.name == ".git":
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    removed = 0
    for relative, source in files.items():
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if not solutions and relative.endswith(".ipynb"):
            text, count = without_solutions(source.read_text(encoding="utf-8"))
            target.write_text(text, encoding="utf-8")
            removed += count
        else:
            shutil.copyfile(source, target)
    for folder, texts in stub_texts.items():
        package = out / folder
        package.mkdir(parents=True, exist_ok=True)
        for name, text in texts.items():
            (package / name).write_text(text, encoding="utf-8")
    (out / "README.md").write_text(STUDENT_README.format(target=TARGET), encoding="utf-8")
    (out / ".gitignore").write_text(GITIGNORE)
    if answer_key_link:
        (out / "answers").symlink_to(answer_key_link, target_is_directory=True)
    if not solutions:
        left = [p for p in out.rglob("*.ipynb") if any(box in p.read_text(encoding="utf-8")
                                                        for box in SOLUTION_BOXES)]
        if left:
            raise ReleaseError(f"solution boxes left in {[str(p) for p in left]}")
    return removed


def check_answer_key(link, tree):
    """The answer key the link points to must be the one the release's stubs and checks were made with."""
    key = pathlib.Path(link) / "myautograd"
    if not key.is_dir():
        return [f"warning: {key} does not exist here: the check cells need it at that path on the hub"]
    released = {p.name: p.read_bytes() for p in (tree / "answers" / "myautograd").glob("*.py")}
    there = {p.name: p.read_bytes() for p in key.glob("*.py")}
    if released != there:
        return [f"warning: {key} differs from the answer key of the release's commit: the check cells "
                "would compare with another answer key than the one the stubs were made from"]
    return []


def make_release(out, source=ROOT, ref="HEAD", worktree=False, solutions=True, answer_key_link=None,
                 quiet=False):
    """Make or update the release in ``out``; returns ``(its new commit, or None if unchanged; notes)``."""
    out, source = pathlib.Path(out).resolve(), pathlib.Path(source).resolve()
    notes = []
    if out == source or source in out.parents:
        raise ReleaseError(f"{out}: make the release outside the course's repository (e.g. ../release)")
    if answer_key_link and not os.path.isabs(answer_key_link):
        raise ReleaseError(f"--answer-key-link {answer_key_link}: give an absolute path (the link is "
                           "followed from each student's copy)")
    if out.exists() and any(out.iterdir()) and not (out / ".git").is_dir():
        raise ReleaseError(f"{out} exists, is not empty and is not a release made by this tool: "
                           "give a new folder (or the folder of the last release, to update it)")
    if (out / ".git").is_dir():
        last = git("log", "-1", "--format=%s", cwd=out, check=False).stdout.strip()
        if last and not last.startswith("Student release of"):
            raise ReleaseError(f"{out} is a git repository, but not a release made by this tool (its last "
                               f"commit: {last!r}): give a new folder")
        dirty = git("status", "--porcelain", cwd=out).stdout.strip()
        if dirty:
            raise ReleaseError(f"{out} has changes that were not made by this tool (git status):\n{dirty}")
    with tempfile.TemporaryDirectory() as scratch:
        if worktree:
            tree, described = files_on_disk(source, scratch), "the files on disk of " + str(source)
            commit = None
        else:
            if not (source / ".git").exists():
                raise ReleaseError(f"{source} is not a git repository: use --worktree to release its files")
            tree, commit = files_at_ref(source, ref, scratch)
            described = f"commit {commit[:12]} ({ref}) of {source}"
            changed = git("status", "--porcelain", "--", *RELEASED, cwd=source).stdout.strip()
            if changed and ref == "HEAD":
                notes.append("note: uncommitted changes under notebooks/, mini_autograd/ or answers/ are not "
                             "in the release (commit them, or use --worktree)")
        files = released_files(tree)
        stub_texts = stubs(tree)
        if answer_key_link:
            notes += check_answer_key(answer_key_link, tree)
        out.mkdir(parents=True, exist_ok=True)
        if not (out / ".git").is_dir():
            git("init", "-q", cwd=out)
            git("symbolic-ref", "HEAD", f"refs/heads/{BRANCH}", cwd=out)
        removed = write_tree(out, files, stub_texts, solutions, answer_key_link)
    git("add", "-A", cwd=out)
    if not git("status", "--porcelain", cwd=out).stdout.strip():
        notes.append(f"{out}: unchanged since the last release, no new commit")
        return None, notes
    contents = (f"{len(files)} files and {sum(map(len, stub_texts.values()))} stubs"
                + (f", {removed} solutions left out" if not solutions else "")
                + (f", answers -> {answer_key_link}" if answer_key_link else ", no link to the answer key"))
    message = f"Student release of {described}\n\n{contents}\n"
    has_identity = all(git("config", key, cwd=out, check=False).stdout.strip()
                       for key in ("user.name", "user.email"))
    git(*([] if has_identity else IDENTITY), "commit", "-q", "-m", message, cwd=out)
    release_commit = git("rev-parse", "HEAD", cwd=out).stdout.strip()
    if not quiet:
        print(f"{out}: {contents}; commit {release_commit[:12]} on branch {BRANCH}")
    return release_commit, notes


# ------------------------------------------------------------------ the link
def link(hub_url, repo_url, branch=BRANCH, target=TARGET, open_path="notebooks/00_welcome.ipynb"):
    """The nbgitpuller link: each student who clicks it gets (or updates) their own copy in ~/``target``
    and lands in JupyterLab on ``open_path`` (relative to the release's root)."""
    query = urllib.parse.urlencode({"repo": repo_url, "branch": branch, "targetpath": target,
                                    "urlpath": f"lab/tree/{target}/{open_path}"})
    return f"{hub_url.rstrip('/')}/hub/user-redirect/git-pull?{query}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--out", help="the release's folder: made, or updated with a new commit")
    action.add_argument("--link", nargs=2, metavar=("HUB_URL", "REPO_URL"),
                        help="print the nbgitpuller link to the release at REPO_URL on the hub at HUB_URL")
    parser.add_argument("--ref", default="HEAD", help="the commit to release (default: HEAD)")
    parser.add_argument("--worktree", action="store_true", help="release the files as they are on disk")
    parser.add_argument("--no-solutions", action="store_true", help="leave the exercises' solutions out")
    parser.add_argument("--answer-key-link", default=str(ROOT / "answers"),
                        help="where the hub keeps the answer key (a folder holding myautograd/): the "
                             "release's `answers` links there (default: this repository's answers/)")
    parser.add_argument("--no-answer-key-link", action="store_true",
                        help="no link: the check cells then cannot judge right code (see above)")
    parser.add_argument("--branch", default=BRANCH, help="--link: the release's branch")
    parser.add_argument("--targetpath", default=TARGET, help="--link: the folder in each student's home")
    parser.add_argument("--open", default="notebooks/00_welcome.ipynb",
                        help="--link: the notebook JupyterLab opens, in the release "
                             "(the Chinese edition: notebooks/zh/00_welcome.ipynb)")
    args = parser.parse_args(argv)
    if args.link:
        print(link(*args.link, branch=args.branch, target=args.targetpath, open_path=args.open))
        return 0
    try:
        link_to = None if args.no_answer_key_link else args.answer_key_link
        _commit, notes = make_release(args.out, ref=args.ref, worktree=args.worktree,
                                      solutions=not args.no_solutions, answer_key_link=link_to)
    except ReleaseError as error:
        print(f"student release: {error}", file=sys.stderr)
        return 1
    for note in notes:
        print(note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
