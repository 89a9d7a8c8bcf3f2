"""The Chinese website's own pages, as book/build.py stages them (no Jupyter Book needed: the browser test,
tests/browser/test_site.py, builds and opens the site).

- The home page lists every chapter, a translated one by its Chinese title (from notebooks/zh/), and
  links to the Chinese "运行课程" and build-track pages, not to the English ones.
- "运行课程" (book/zh/run-it.md) is Chinese, its Binder link opens the Chinese chapter 00, and without a
  repository it says so in Chinese.
- The build-track page (book/zh/buildtrack.md) follows the English one (docs/buildtrack.md and
  book/buildtrack-start.md): the same steps in its table, the same commands, the same sections.
- The limits and the module map (book/zh/limits.md, book/zh/modules.md) are Chinese pages of their own,
  follow the English ones (docs/limits.md, docs/modules.md: the same list of differences, the module map's
  rows), and are linked from the home page; both editions have them, each linking to the other.
- The Chinese book's footer, table of contents and the links between the editions.
- No English sentence is left in those pages outside code.
"""
import json
import re
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book"))

import build  # noqa: E402

HAN = re.compile(r"[\u3400-\u9fff]")
REPOSITORY = "course-site-test/mini_autograd"


def english_sentences(markdown):
    """Runs of three or more English words outside code (fenced blocks, backquotes, links' targets)."""
    text = re.sub(r"```.*?```", " ", markdown, flags=re.DOTALL)
    text = re.sub(r"`[^`]*`|\]\([^)]*\)|https?://\S+|\{[^{}]*\}", " ", text)
    return re.findall(r"(?<![\w.])[A-Za-z]{2,}(?:[ ,]+[a-z]{2,}){2,}", text)


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    """The Chinese book's sources, staged with a repository (Binder links) and without one."""
    if not build.zh_chapters():
        pytest.skip("no Chinese chapters")
    with_repository, without = tmp_path_factory.mktemp("zh"), tmp_path_factory.mktemp("zh-bare")
    build.stage_zh(with_repository, REPOSITORY, "main")
    build.stage_zh(without, None, "main")
    return with_repository, without


def test_the_home_page_lists_the_chapters_by_their_chinese_titles(staged):
    home = (staged[0] / "index.md").read_text(encoding="utf-8")
    chinese = {path.stem: path for path in build.zh_chapters()}
    for path in sorted((ROOT / "notebooks").glob(build.CHAPTER_GLOB)):
        if path.stem in chinese:
            title = json.loads(chinese[path.stem].read_text(encoding="utf-8"))["cells"][0]["source"][0]
            title = title.lstrip("# ").strip()
            assert HAN.search(title), title
            assert f"- [{title}]({path.stem}.ipynb)" in home
        else:
            assert f"(../{path.stem}.html)" in home
    assert "(run-it.md)" in home and "(buildtrack.md)" in home
    assert "../run-it.html" not in home and "../buildtrack.html" not in home
    assert english_sentences(home) == []


def test_run_it_is_chinese_and_opens_the_chinese_chapter_00(staged):
    page = (staged[0] / "run-it.md").read_text(encoding="utf-8")
    assert page.startswith("# 运行课程")
    binder = f"https://mybinder.org/v2/gh/{REPOSITORY}/main?urlpath=lab/tree/notebooks/zh/00_welcome.ipynb"
    assert binder in page
    assert f"git clone https://github.com/{REPOSITORY}.git" in page and "make lab LANG=zh" in page
    assert "{{" not in page and english_sentences(page) == []
    bare = (staged[1] / "run-it.md").read_text(encoding="utf-8")
    assert "mybinder" not in bare and "没有 Binder 按钮" in bare and english_sentences(bare) == []


def _table_steps(markdown):
    return re.findall(r"^\| (\d\d) \|", markdown, flags=re.M)


def _code_blocks(markdown):
    return re.findall(r"```sh\n(.*?)```", markdown, flags=re.DOTALL)


def test_the_build_track_page_follows_the_english_one(staged):
    _landing, english = build.landing_and_build_track((ROOT / "README.md").read_text(encoding="utf-8"))
    chinese = (staged[0] / "buildtrack.md").read_text(encoding="utf-8")
    assert _table_steps(chinese) == _table_steps(english) and _table_steps(english)
    assert _code_blocks(chinese) == _code_blocks(english)
    assert len(re.findall(r"^## ", chinese, flags=re.M)) == len(re.findall(r"^## ", english, flags=re.M))
    for needed in ("make progress LANG=zh", 'buildtrack.check("01.1")', "answers/myautograd/",
                   "notebooks/myautograd/", "(run-it.md)", "(01_first_gradient.ipynb)"):
        assert needed in chinese, needed
    assert chinese.startswith("# 动手实现你自己的 autograd")
    assert english_sentences(chinese) == []


def test_the_chinese_book_has_a_chinese_footer_and_its_pages(staged):
    config = yaml.safe_load((staged[0] / "_config.yml").read_text(encoding="utf-8"))
    assert HAN.search(config["author"]) and HAN.search(config["title"])
    assert {"run-it", "buildtrack"} <= set(config["sphinx"]["config"]["course_other_pages"])
    toc = yaml.safe_load((staged[0] / "_toc.yml").read_text(encoding="utf-8"))
    files = [entry["file"] for part in toc["parts"] for entry in part["chapters"]]
    chapters = [path.stem for path in build.zh_chapters()]
    assert files == [*chapters, "glossary", "buildtrack", "run-it", "limits", "modules"]


def test_the_english_pages_link_to_their_chinese_counterparts(tmp_path):
    build.stage(tmp_path, REPOSITORY, "main")
    config = yaml.safe_load((tmp_path / "_config.yml").read_text(encoding="utf-8"))
    other = set(config["sphinx"]["config"]["course_other_pages"])
    assert {"index", "run-it", "buildtrack", "glossary"} <= other
    assert "作者" not in (tmp_path / "_config.yml").read_text(encoding="utf-8")


def test_the_limits_and_the_module_map_follow_the_english_pages(staged, tmp_path):
    english = tmp_path / "en"
    build.stage(english, REPOSITORY, "main")
    home = (staged[0] / "index.md").read_text(encoding="utf-8")
    for name in ("limits", "modules"):
        chinese = (staged[0] / f"{name}.md").read_text(encoding="utf-8")
        page = (english / f"{name}.md").read_text(encoding="utf-8")
        assert chinese.startswith("# ") and HAN.search(chinese.splitlines()[0]), name
        assert english_sentences(re.sub(r"<!--.*?-->", "", chinese)) == [], name
        # The same number of items (the differences; the rows of the map).
        for item in (r"^- ", r"^\| "):
            assert len(re.findall(item, chinese, flags=re.M)) == len(re.findall(item, page, flags=re.M)), name
        assert f"({name}.md)" in home
    config = yaml.safe_load((staged[0] / "_config.yml").read_text(encoding="utf-8"))
    assert {"limits", "modules"} <= set(config["sphinx"]["config"]["course_other_pages"])
    config = yaml.safe_load((english / "_config.yml").read_text(encoding="utf-8"))
    assert {"limits", "modules"} <= set(config["sphinx"]["config"]["course_other_pages"])
