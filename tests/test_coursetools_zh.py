"""notebooks/coursetools.py beyond the checks, in the Chinese edition: plot words, fonts, source headings.

- ``tr`` returns a chapter's plot words as written in English, and in Chinese their translation from
  chapters.po (a text it does not know, as written); when it returns Chinese, matplotlib gets an installed
  font with Chinese characters after its own, so a Chinese title draws with no missing glyph.
- ``show_source``'s headings and ``module_table``'s header speak the edition's language.
(test_buildtrack_i18n.py checks the exercise and set-up checks; test_viz_zh.py the graph pictures.)
"""
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "notebooks"))

import coursetools  # noqa: E402

import mini_autograd  # noqa: E402

KNOWN = "dz/dx = 2x, so at x = 5 the gradient is 10."       # a text of chapter 01, in chapters.po


@pytest.fixture
def chinese(monkeypatch):
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")


def test_tr_is_the_text_in_english_and_its_translation_in_chinese(monkeypatch):
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    assert coursetools.tr(KNOWN) == KNOWN
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")
    assert coursetools.tr(KNOWN) == "dz/dx = 2x，所以在 x = 5 处梯度是 10。"
    assert coursetools.tr("A plot title no catalogue has yet") == "A plot title no catalogue has yet"


def test_a_chinese_plot_title_draws_every_glyph(chinese, monkeypatch):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager
    if not {f.name for f in font_manager.fontManager.ttflist} & set(coursetools.CJK_FONTS):
        pytest.skip("no font with Chinese characters installed (fonts-wqy-microhei; .ci/run installs it)")
    monkeypatch.setitem(matplotlib.rcParams, "font.family", list(matplotlib.rcParams["font.family"]))
    coursetools.use_chinese_fonts.cache_clear()
    title = coursetools.tr(KNOWN)
    assert set(coursetools.use_chinese_fonts()) & set(matplotlib.rcParams["font.family"])
    figure, axes = plt.subplots(figsize=(3, 2))
    axes.set_title(title)
    axes.set_xlabel("步数 (step)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # matplotlib warns "Glyph ... missing from font(s)"
        figure.canvas.draw()
    plt.close(figure)
    coursetools.use_chinese_fonts.cache_clear()


def test_show_source_headings_speak_the_edition(chinese, capsys, monkeypatch):
    coursetools.show_source(mini_autograd.Tensor.backward, only=["autograd.backward"])
    coursetools.show_source(mini_autograd.Tensor.backward, stop_at="autograd.backward")
    chinese_heads = [line for line in capsys.readouterr().out.splitlines() if line.startswith("# ")]
    where = "# mini_autograd/_tensor.py：Tensor.backward"
    assert chinese_heads == [f"{where} 的部分行（... 表示略去的行）",
                             f"{where} 的开头几行（... 表示后面略去的部分）"]
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    coursetools.show_source(mini_autograd.Tensor.backward, only=["autograd.backward"])
    assert capsys.readouterr().out.startswith(
        "# mini_autograd/_tensor.py: Tensor.backward, some lines (... marks lines left out)")


def test_the_module_table_header_speaks_the_edition(chinese, monkeypatch):
    table = coursetools.module_table([(["mini_autograd.viz", "mini_autograd.nothing_here"], "pictures", "all",
                                       "none")], mark_missing=True)
    assert table.startswith("| `mini_autograd/` 中的文件 | 内容 | 章节 | PyTorch 中的对应 |")
    assert "`mini_autograd.nothing_here`（缺失！）" in table
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    assert coursetools.module_table([]).startswith("| file in `mini_autograd/` | what it holds |")


def test_a_translated_word_pads_by_columns_and_english_is_untouched(monkeypatch):
    """A table's row label through tr keeps the columns in Chinese (a Chinese character is two columns
    wide), and in English tr gives back the very string it was given."""
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    text = "training"
    assert coursetools.tr(text) is text
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")
    word = coursetools.tr("training")                      # chapter 07's row label, in chapters.po
    assert word == "训练" and isinstance(word, str)
    assert f"{word:15}|" == "训练" + " " * 11 + "|" and f"{word:>6}" == "  训练"
    assert coursetools._width(f"{word:<15}") == 15 == len(f"{'no_grad':15}")
    assert coursetools.tr(f"{word:15}       ≈ {3:.0f} activations       ≈ {6:.0f} activations").startswith(
        "训练" + " " * 11 + " " * 10 + "≈ 3 个激活值")
