"""The chapters are written in the course's own words: no run of 12 Chinese characters is a seed's.

The course follows two seed articles (/work/shared/seeds/, or SEED_DIR), cited as "article 000" and
"article 003". It may name a section of them by its title, in quotes, with its section number (or a
section of article 003, whose sections have no numbers, by its title alone); their sentences are not
the course's to use.

What is compared: every markdown cell and every comment of every code cell of the stored chapters,
both editions (notebooks/NN_slug.ipynb and notebooks/zh/NN_slug.ipynb; a test elsewhere keeps them
the chapters' sources built). A text and a seed are reduced to their Chinese characters alone:
spaces, punctuation, Latin words, numbers and code are dropped, so a sentence taken over with other
punctuation, or with `backward()` put in the middle, is still found. A run of 12 or more characters
that also stands in a seed fails the test, unless it is a quoted section title.

Run the file as a script to list every shared run (its chapter, cell and seed):

    .venv/bin/python tests/test_seed_overlap.py
"""
import json
import os
import re
import sys
import tokenize
from io import StringIO
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = Path(os.environ.get("SEED_DIR", "/work/shared/seeds"))
SEED_FILES = {"000": "000_5d4cdfa747f15147.txt", "003": "003_ce2c35bde80cdfc9.txt"}
RUN = 12                                # the shortest shared run that fails

# The sections of article 003 have no numbers: their titles may be quoted alone.
UNNUMBERED_TITLES = {"003": ["先看一个 30 秒的例子", "计算图：PyTorch 的”草稿纸”", "backward()：从结果往回推",
                             "非标量怎么处理", "两个省内存的开关"]}

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
QUOTED = re.compile(r"[“\"「『]([^”\"」』\n]{1,60})[”\"」』]")


def han(text):
    return "".join(HAN.findall(text))


def seed_texts():
    return {name: (SEEDS / file).read_text(encoding="utf-8") for name, file in SEED_FILES.items()}


def seed_titles(name, text):
    """{title's Chinese characters: its section number, or None}, for the titles a text may quote."""
    titles = {}
    for line in text.splitlines():
        match = re.match(r"(\d+)\. (\S.*)$", line.strip())
        if match and len(line) < 40:
            titles[han(match.group(2))] = match.group(1)
    for title in UNNUMBERED_TITLES.get(name, []):
        titles[han(title)] = None
    return {title: number for title, number in titles.items() if title}


def without_cited_titles(text, titles):
    """The text with each quoted seed title that is cited as such (its section number nearby,
    `§6` or `第 6 节`) replaced by a break: the run before it and the run after it are not joined."""
    def replace(match):
        title = han(match.group(1))
        if title not in titles or not title:
            return match.group(0)
        number = titles[title]
        if number is None:
            return "\n"
        near = text[max(0, match.start() - 40):match.end() + 40]
        if re.search(rf"§\s*{number}\b|第\s*{number}\s*节|section {number}\b", near):
            return "\n"
        return match.group(0)
    return QUOTED.sub(replace, text)


def comments(code):
    """The comments of a code cell (a cell that is not Python, such as `%%` magics, by its lines)."""
    found = []
    try:
        for token in tokenize.generate_tokens(StringIO(code).readline):
            if token.type == tokenize.COMMENT:
                found.append(token.string.lstrip("#").strip())
    except (tokenize.TokenError, IndentationError, SyntaxError):
        found = [line.split("#", 1)[1] for line in code.splitlines() if "#" in line]
    return "\n".join(found)


def chapter_texts():
    """[(place, text)]: each markdown cell and the comments of each code cell, both editions."""
    found = []
    for folder, edition in ((ROOT / "notebooks", "en"), (ROOT / "notebooks" / "zh", "zh")):
        for path in sorted(folder.glob("[0-9][0-9]_*.ipynb")):
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            for i, cell in enumerate(cells):
                source = "".join(cell["source"])
                text = source if cell["cell_type"] == "markdown" else comments(source)
                if HAN.search(text):
                    found.append((f"{edition}/{path.stem} cell {i}", text))
    return found


def shared_runs(text, seed, titles, run=RUN):
    """The runs of `run` or more Chinese characters of `text` (its quoted, cited titles left out)
    that also stand in `seed` (Chinese characters only), longest first."""
    pieces = [han(piece) for piece in without_cited_titles(text, titles).split("\n")]
    seed_han = han(seed)
    grams = {seed_han[i:i + run] for i in range(len(seed_han) - run + 1)}
    found = []
    for piece in pieces:
        i = 0
        while i + run <= len(piece):
            if piece[i:i + run] in grams:
                j = i + run                     # grow the run while it still stands in the seed
                while j < len(piece) and piece[i:j + 1] in seed_han:
                    j += 1
                found.append(piece[i:j])
                i = j
            else:
                i += 1
    return sorted(set(found), key=len, reverse=True)


def all_overlaps():
    """[(place, seed, run)] for every chapter text and seed."""
    seeds = seed_texts()
    titles = {name: seed_titles(name, text) for name, text in seeds.items()}
    return [(place, name, shared)
            for place, text in chapter_texts()
            for name, seed in seeds.items()
            for shared in shared_runs(text, seed, titles[name])]


needs_seeds = pytest.mark.skipif(not all((SEEDS / file).exists() for file in SEED_FILES.values()),
                                 reason=f"the seed articles are not in {SEEDS} (set SEED_DIR)")


def test_the_comparison_finds_what_it_should():
    seed = "1. 先把自动求导说成人话\n\n它是一个带任务调度、依赖分析、线程队列和梯度累加的执行引擎。"
    titles = seed_titles("000", seed)
    # Punctuation and code in between do not hide a taken sentence.
    assert shared_runs("它是一个带 `task` 任务调度，依赖分析", seed, titles) == ["它是一个带任务调度依赖分析"]
    # A short phrase is not a run; a quoted title cited with its number is allowed, without it it is not.
    assert shared_runs("任务调度和依赖分析", seed, titles) == []
    assert shared_runs("第 1 节“先把自动求导说成人话”说……", seed, titles, run=8) == []
    assert shared_runs("“先把自动求导说成人话”", seed, titles, run=8) == ["先把自动求导说成人话"]


@needs_seeds
def test_no_chapter_shares_a_run_of_12_chinese_characters_with_a_seed():
    overlaps = all_overlaps()
    assert not overlaps, (f"{len(overlaps)} runs of {RUN}+ Chinese characters are a seed's; rewrite them "
                          "in the course's own words:\n" + "\n".join(
                              f"  {place}: article {name}: {shared}" for place, name, shared in overlaps))


if __name__ == "__main__":
    if not all((SEEDS / file).exists() for file in SEED_FILES.values()):
        sys.exit(f"the seed articles are not in {SEEDS} (set SEED_DIR)")
    found = all_overlaps()
    for place, name, shared in found:
        print(f"{place}: article {name}: {shared} ({len(shared)})")
    print(f"{len(found)} shared runs of {RUN}+ Chinese characters")
