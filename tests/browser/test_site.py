"""The course website (`make site`, book/build.py) in a real browser.

The site is built once for this module, into a temporary folder, from the notebooks as
stored (nothing is executed), with a stand-in repository name so that the Binder buttons
are there to check. It is served on 127.0.0.1 and opened in headless Chromium; every
request to another host is blocked (this machine has no network, and the test must not
depend on one), so the only console errors allowed are those of blocked requests
(MathJax, which the pages load from its CDN).

Checked: every chapter page loads, with its headings, its pictures (naturalWidth > 0,
visible), highlighted code, folded <details> boxes, a note under each check cell, a Binder
button and previous/next links; no page has a broken internal link; the landing page
links to all chapters; a search for "AccumulateGrad" lists chapters; the glossary's
Chinese renders in a CJK font. Screenshots go to test-artifacts/site/: one per chapter,
plus the engine trace (08) and the search results.

Chapter 08's engine trace is a player (mini_autograd/viz/player.py) on the page, in both editions:
stepping forward (a click, then the right arrow key) changes the step, its counter, its picture and its
table; a click on a node shows its input buffer and what it saved. Screenshots of it mid-trace:
docs/screenshots/trace-player-site-en.png and -zh.png.

The Chinese edition (zh/): each of its chapter pages as above (headings, pictures, code, folded
boxes, notes, Binder to notebooks/zh/, previous/next), a link from every page to the same page
of the other edition and back, a Chinese search (叶子节点) that finds its chapters, and its
glossary in a CJK font. Screenshots: zh-NN_slug.png, zh-search.png.
"""
from __future__ import annotations

import functools
import html.parser
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

import labtools

ROOT = labtools.ROOT
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
ZH_CHAPTERS = sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))
ARTIFACTS = ROOT / "test-artifacts" / "site"
REPOSITORY = "course-site-test/mini_autograd"  # a stand-in: the test checks the links built from it
# The pages around the chapters, in the order of the site's table of contents (book/build.py).
BEFORE, AFTER = "run-it", "buildtrack"
VERDICT = re.compile(r"^\s*⏳", re.M)


def _require(what):
    message = f"site test: {what}; `make test` installs it (pip install -e '.[site]')"
    if os.environ.get("REQUIRE_BROWSER_TESTS") == "1":
        pytest.fail(message + " (REQUIRE_BROWSER_TESTS=1: CI must run it)")
    pytest.skip(message)


# ---------------------------------------------------------------- build and serve


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(chromium_path, tmp_path_factory):
    """The website, built from the stored notebooks, served on 127.0.0.1: (base URL, html folder)."""
    try:
        import jupyter_book  # noqa: F401
    except ImportError:
        _require("Jupyter Book (the site extra) is not installed")
    out = tmp_path_factory.mktemp("site")
    started = time.monotonic()
    run = subprocess.run([sys.executable, str(ROOT / "book" / "build.py"), "--out", str(out),
                          "--repository", REPOSITORY], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"book/build.py failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "build.json").write_text(json.dumps({"seconds": round(time.monotonic() - started, 1)}))
    root = out / "_build" / "html"
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(QuietHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", root
    server.shutdown()
    server.server_close()
    thread.join(10)


class Page:
    """A page of the site, its console errors and the requests blocked on the way."""

    def __init__(self, context, base):
        self.base = base
        self.page = context.new_page()
        self.blocked, self.errors = [], []
        self.page.route("**/*", self._route)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def _route(self, route):
        url = route.request.url
        if url.startswith(self.base) or url.startswith("data:"):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort("blockedbyclient")

    def _console(self, message):
        if message.type != "error":
            return
        where = (message.location or {}).get("url", "")
        if where in self.blocked or (where and not where.startswith(self.base)):
            return  # a blocked request to another host
        self.errors.append(f"{message.text} ({where})")

    def goto(self, path):
        response = self.page.goto(self.base + path, wait_until="load")
        assert response is not None and response.ok, f"{path}: HTTP {response and response.status}"
        return self

    def close(self):
        self.page.close()


@pytest.fixture(scope="module")
def open_page(site, browser):
    base, _ = site
    pages = []

    def opener(path):
        page = Page(browser, base)
        pages.append(page)
        return page.goto(path)

    yield opener
    for page in pages:
        page.close()


# ---------------------------------------------------------------- what a chapter should show


def markdown_headings(path):
    """Text of the level 1-3 headings of a notebook's markdown cells, as the page should show it."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    headings = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        fence = False
        for line in "".join(cell["source"]).splitlines():
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
            match = None if fence else re.match(r"^#{1,3} (.+?)\s*#*\s*$", line)
            if match:
                text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", match.group(1))  # [text](link) -> text
                headings.append(normalize(text.replace("`", "").replace("**", "")))
    return headings


def normalize(text):
    return " ".join(text.split())


READ_CHAPTER_JS = r"""
() => {
  const article = document.querySelector('article');
  const headings = Array.from(article.querySelectorAll('h1, h2, h3')).map(h => {
    const copy = h.cloneNode(true);
    copy.querySelectorAll('a.headerlink').forEach(a => a.remove());
    return copy.textContent.replace(/\s+/g, ' ').trim();
  });
  const cells = Array.from(article.querySelectorAll('div.cell')).map(cell => {
    const input = cell.querySelector('.cell_input');
    const output = cell.querySelector('.cell_output');
    return {
      highlighted: !!input && input.querySelectorAll('.highlight pre span').length > 0,
      output: output ? output.innerText : '',
      note: !!cell.querySelector('.course-check-note'),
      pictures: cell.querySelectorAll('.cell_output img').length,
    };
  });
  const details = Array.from(article.querySelectorAll('details')).map(d => ({
    open: d.open, summary: (d.querySelector('summary') || {}).textContent || '',
    hiddenBody: Array.from(d.children).filter(c => c.tagName !== 'SUMMARY')
                     .every(c => !c.checkVisibility()),
  }));
  const link = sel => { const a = document.querySelector(sel); return a ? a.getAttribute('href') : null; };
  const binder = Array.from(document.querySelectorAll('a[href*="mybinder.org"]')).map(a => a.href);
  return {headings, cells, details, binder, prev: link('.prev-next-area a.left-prev'),
          next: link('.prev-next-area a.right-next')};
}
"""

IMAGES_JS = r"""
async () => {
  const images = Array.from(document.querySelectorAll('article img'));
  const facts = [];
  for (const img of images) {
    img.scrollIntoView({block: 'center'});
    if (!img.complete) await new Promise(r => { img.onload = img.onerror = r; setTimeout(r, 5000); });
    try { await img.decode(); } catch (e) {}
    const box = img.getBoundingClientRect();
    const style = getComputedStyle(img);
    facts.push({src: img.getAttribute('src').slice(0, 60), alt: img.alt, natural: img.naturalWidth,
                visible: box.width > 0 && box.height > 0 && style.visibility !== 'hidden'
                         && style.display !== 'none'});
  }
  window.scrollTo(0, 0);
  return facts;
}
"""


def neighbours(index):
    names = [BEFORE, *(path.stem for path in CHAPTERS), AFTER]
    return names[index] + ".html", names[index + 2] + ".html"


@pytest.mark.skipif(not CHAPTERS, reason="no chapters in notebooks/")
@pytest.mark.parametrize("index", range(len(CHAPTERS)), ids=[path.stem for path in CHAPTERS])
def test_chapter_page(index, open_page):
    path = CHAPTERS[index]
    page = open_page(path.stem + ".html")
    facts = page.page.evaluate(READ_CHAPTER_JS)
    found = []

    shown = set(facts["headings"])
    found += [f"heading missing: {h!r}" for h in markdown_headings(path) if h not in shown]

    images = page.page.evaluate(IMAGES_JS)
    expected = sum(e.pictures for e in labtools.expected_cells(path).values())
    in_cells = sum(cell["pictures"] for cell in facts["cells"])
    if in_cells < expected:
        found.append(f"{expected} pictures in the stored outputs, {in_cells} on the page")
    for image in images:
        name = image["alt"] or image["src"]
        if not image["natural"]:
            found.append(f"picture not rendered (naturalWidth 0): {name}")
        elif not image["visible"]:
            found.append(f"picture not visible: {name}")

    for k, cell in enumerate(facts["cells"]):
        if not cell["highlighted"]:
            found.append(f"code cell {k} not highlighted")
        if VERDICT.search(cell["output"]) and not cell["note"]:
            found.append(f"check cell {k} has no note that the check runs in JupyterLab")

    found += [f"<details> {d['summary']!r} is not folded" for d in facts["details"]
              if d["open"] or not d["hiddenBody"]]
    if facts["details"]:
        summary = page.page.locator("article details > summary").first
        summary.scroll_into_view_if_needed()
        summary.click()
        if not page.page.evaluate("() => { const d = document.querySelector('article details');"
                                  " return d.open && Array.from(d.children).some(c => c.tagName !== 'SUMMARY'"
                                  " && c.checkVisibility()); }"):
            found.append("clicking a <details> summary does not unfold it")

    binder = f"https://mybinder.org/v2/gh/{REPOSITORY}/main?urlpath=lab/tree/notebooks/{path.name}"
    if binder not in facts["binder"]:
        found.append(f"no Binder launch button to {binder} (found {facts['binder']})")
    prev, nxt = neighbours(index)
    if (facts["prev"], facts["next"]) != (prev, nxt):
        found.append(f"previous/next links {facts['prev']}, {facts['next']}; expected {prev}, {nxt}")

    screenshot_chapter(page, path.stem)
    found += [f"console: {e}" for e in page.errors]
    assert not found, f"{path.stem}:\n" + "\n".join(found)


def screenshot_chapter(page, stem):
    """The chapter's first picture in view (or its top), and for chapter 08 its engine trace too."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    first = page.page.locator("article .cell_output img").first
    if first.count():
        first.evaluate("img => img.scrollIntoView({block: 'center'})")
        page.page.wait_for_timeout(200)
    page.page.screenshot(path=str(ARTIFACTS / f"{stem}.png"))
    trace = page.page.locator("article .cell_output:has(.mat-player)").first
    if trace.count():
        trace.evaluate("el => el.scrollIntoView({block: 'start'})")
        page.page.evaluate("() => window.scrollBy(0, -80)")
        page.page.wait_for_timeout(200)
        page.page.screenshot(path=str(ARTIFACTS / f"{stem}-trace.png"))


# ---------------------------------------------------------------- the site as a whole


class Links(html.parser.HTMLParser):
    """The links (a/link href, img/script src) and element ids of one HTML page."""

    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        for name in ("href", "src"):
            if attrs.get(name) and tag in ("a", "link", "img", "script"):
                self.links.append((tag, attrs[name]))


def test_no_broken_internal_link(site):
    _, root = site
    # The site's pages; _static/ also holds the themes' Jinja template fragments (*.html), not pages.
    pages = {path.relative_to(root).as_posix(): path for path in root.rglob("*.html")
             if "_static" not in path.relative_to(root).parts}
    parsed = {}

    def parse(name):
        if name not in parsed:
            parser = Links()
            parser.feed(pages[name].read_text(encoding="utf-8"))
            parsed[name] = parser
        return parsed[name]

    broken = []
    for name in sorted(pages):
        for tag, link in parse(name).links:
            url = urllib.parse.urlsplit(link)
            if url.scheme or url.netloc or link.startswith(("mailto:", "javascript:")):
                continue
            target = urllib.parse.unquote(url.path)
            resolved = Path(os.path.normpath(Path(name).parent / target)).as_posix() if target else name
            if resolved.startswith("..") or not (root / resolved).exists():
                broken.append(f"{name}: <{tag}> {link}: no such file")
            elif url.fragment and resolved in pages and tag == "a" \
                    and urllib.parse.unquote(url.fragment) not in parse(resolved).ids:
                broken.append(f"{name}: <a> {link}: no element with id {url.fragment!r}")
    assert not broken, f"{len(broken)} broken internal links:\n" + "\n".join(broken[:50])


def test_landing_page_links_to_every_chapter(open_page):
    page = open_page("index.html")
    hrefs = page.page.evaluate("() => Array.from(document.querySelectorAll('article a'))"
                               ".map(a => a.getAttribute('href'))")
    targets = {urllib.parse.urlsplit(h).path for h in hrefs if h}
    missing = [path.stem for path in CHAPTERS if path.stem + ".html" not in targets]
    assert not missing, f"the landing page does not link to {missing}"
    nav = page.page.evaluate("() => Array.from(document.querySelectorAll('.bd-sidebar a.reference'))"
                             ".map(a => a.getAttribute('href'))")
    chapters_in_nav = [h for h in nav if re.match(r"^\d\d_", h)]
    assert chapters_in_nav == [path.stem + ".html" for path in CHAPTERS], "the chapters in the navigation"
    assert not page.errors, page.errors


def test_search_finds_accumulategrad_in_chapters(open_page):
    page = open_page("search.html?q=AccumulateGrad")
    results = page.page.locator("#search-results ul.search li a")
    results.first.wait_for(timeout=30_000)
    page.page.wait_for_function("() => !!document.querySelector('#search-results .search-summary')",
                                timeout=30_000)
    hrefs = [urllib.parse.urlsplit(h).path
             for h in results.evaluate_all("els => els.map(a => a.getAttribute('href'))")]
    chapters = [h for h in hrefs if re.match(r"^\d\d_", h)]
    for expected in ("04_leaves.html", "08_engine.html"):
        assert expected in chapters, f"search for AccumulateGrad: {expected} not among {hrefs}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.page.screenshot(path=str(ARTIFACTS / "search.png"))
    assert not page.errors, page.errors


CJK_RENDERS_JS = r"""
() => {
  // A CJK character drawn in the page's font differs from the glyph of a character no font has
  // (U+E000, private use): if no font had 计 either, both would be the same empty box.
  const cell = Array.from(document.querySelectorAll('article td'))
                    .find(td => td.textContent.includes('计算图'));
  if (!cell) return 'no glossary cell with 计算图';
  const font = getComputedStyle(cell).font;
  const draw = ch => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 40;
    const ctx = canvas.getContext('2d');
    ctx.font = font.replace(/\d+(\.\d+)?px/, '28px');
    ctx.fillText(ch, 4, 32);
    return canvas.toDataURL();
  };
  return draw('计') !== draw('\uE000') ? 'ok' : 'no CJK font: Chinese shows as empty boxes';
}
"""


def test_glossary_chinese_is_readable(open_page):
    page = open_page("glossary.html")
    assert page.page.locator("article h1").inner_text().startswith("Glossary (English / 中文)")
    verdict = page.page.evaluate(CJK_RENDERS_JS)
    if verdict.startswith("no CJK font") and os.environ.get("REQUIRE_BROWSER_TESTS") != "1":
        pytest.skip(verdict + " (install fonts-wqy-microhei; .ci/run does)")
    assert verdict == "ok", verdict
    page.page.screenshot(path=str(ARTIFACTS / "glossary.png"))
    assert not page.errors, page.errors


def test_pages_besides_the_chapters(open_page):
    """The build-track page (table, how to start, how to start over), Run it (Binder) and CONTRIBUTING."""
    page = open_page("buildtrack.html")
    text = page.page.locator("article").inner_text()
    for needed in ("How to start", "Starting a piece over", "git checkout -- notebooks/myautograd/FILE.py"):
        assert needed in text, f"buildtrack page: {needed!r} missing"
    assert page.page.locator("article table tr").count() >= 13, "buildtrack page: the table of steps"
    page = open_page("run-it.html")
    hrefs = page.page.evaluate("() => Array.from(document.querySelectorAll('article a')).map(a => a.href)")
    binder = f"https://mybinder.org/v2/gh/{REPOSITORY}/main?urlpath=lab/tree/notebooks/{CHAPTERS[0].name}"
    assert binder in hrefs, f"run-it page: no Binder link {binder}"
    assert "make lab" in page.page.locator("article").inner_text()
    page = open_page("contributing.html")
    assert page.page.locator("article h1").inner_text().startswith("Contributing")


# ---------------------------------------------------------------- the Chinese edition


def zh_neighbours(index):
    names = ["index", *(path.stem for path in ZH_CHAPTERS), "glossary"]
    return names[index] + ".html", names[index + 2] + ".html"


@pytest.mark.parametrize("index", range(len(ZH_CHAPTERS)), ids=[path.stem for path in ZH_CHAPTERS])
def test_chinese_chapter_page(index, open_page):
    path = ZH_CHAPTERS[index]
    page = open_page(f"zh/{path.stem}.html")
    facts = page.page.evaluate(READ_CHAPTER_JS)
    found = [f"heading missing: {h!r}" for h in markdown_headings(path) if h not in set(facts["headings"])]
    images = page.page.evaluate(IMAGES_JS)
    expected = sum(e.pictures for e in labtools.expected_cells(path).values())
    if sum(cell["pictures"] for cell in facts["cells"]) < expected:
        found.append(f"{expected} pictures in the stored outputs, fewer on the page")
    found += [f"picture not rendered: {image['alt'] or image['src']}" for image in images
              if not image["natural"] or not image["visible"]]
    found += [f"code cell {k} not highlighted" for k, cell in enumerate(facts["cells"])
              if not cell["highlighted"]]
    found += [f"check cell {k} has no note" for k, cell in enumerate(facts["cells"])
              if VERDICT.search(cell["output"]) and not cell["note"]]
    found += [f"<details> {d['summary']!r} is not folded" for d in facts["details"]
              if d["open"] or not d["hiddenBody"]]
    binder = f"https://mybinder.org/v2/gh/{REPOSITORY}/main?urlpath=lab/tree/notebooks/zh/{path.name}"
    if binder not in facts["binder"]:
        found.append(f"no Binder launch button to {binder} (found {facts['binder']})")
    if (facts["prev"], facts["next"]) != zh_neighbours(index):
        found.append(f"previous/next links {facts['prev']}, {facts['next']}; expected {zh_neighbours(index)}")
    switch = page.page.locator("p.course-edition-switch a").get_attribute("href")
    if switch != f"../{path.stem}.html":
        found.append(f"the link to the English page is {switch}")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.page.screenshot(path=str(ARTIFACTS / f"zh-{path.stem}.png"))
    found += [f"console: {e}" for e in page.errors]
    assert not found, f"zh/{path.stem}:\n" + "\n".join(found)


@pytest.mark.skipif(not ZH_CHAPTERS, reason="no Chinese chapters yet")
def test_every_page_links_to_the_other_edition_and_back(open_page):
    stem = ZH_CHAPTERS[0].stem
    page = open_page(f"{stem}.html")
    page.page.locator("p.course-edition-switch a").click()
    page.page.wait_for_load_state("load")
    assert page.page.url.endswith(f"/zh/{stem}.html"), page.page.url
    assert page.page.locator("html").get_attribute("lang") == "zh-CN"
    page.page.locator("p.course-edition-switch a").click()
    page.page.wait_for_load_state("load")
    assert page.page.url.endswith(f"/{stem}.html") and "/zh/" not in page.page.url, page.page.url
    untranslated = [path.stem for path in CHAPTERS if path.stem not in {p.stem for p in ZH_CHAPTERS}]
    if untranslated:                 # a page with no Chinese counterpart leads to the Chinese home page
        other = open_page(f"{untranslated[0]}.html")
        assert other.page.locator("p.course-edition-switch a").get_attribute("href") == "zh/index.html"
    assert not page.errors, page.errors


@pytest.mark.skipif(not ZH_CHAPTERS, reason="no Chinese chapters yet")
def test_chinese_search_finds_a_chinese_word(open_page):
    page = open_page("zh/search.html?q=" + urllib.parse.quote("叶子节点"))
    results = page.page.locator("#search-results ul.search li a")
    results.first.wait_for(timeout=30_000)
    hrefs = [urllib.parse.urlsplit(h).path
             for h in results.evaluate_all("els => els.map(a => a.getAttribute('href'))")]
    assert "glossary.html" in hrefs or any(re.match(r"^\d\d_", h) for h in hrefs), hrefs
    page.page.screenshot(path=str(ARTIFACTS / "zh-search.png"))
    assert not page.errors, page.errors


@pytest.mark.skipif(not ZH_CHAPTERS, reason="no Chinese chapters yet")
def test_chinese_home_and_glossary(open_page):
    page = open_page("zh/index.html")
    text = page.page.locator("article").inner_text()
    assert "make lab LANG=zh" in text
    hrefs = page.page.evaluate("() => Array.from(document.querySelectorAll('article a'))"
                               ".map(a => a.getAttribute('href'))")
    for path in CHAPTERS:
        wanted = f"{path.stem}.html" if path.stem in {p.stem for p in ZH_CHAPTERS} else f"../{path.stem}.html"
        assert wanted in hrefs, f"the Chinese home page does not link to {wanted}"
    page = open_page("zh/glossary.html")
    assert page.page.locator("article h1").inner_text().startswith("术语表")
    verdict = page.page.evaluate(CJK_RENDERS_JS)
    if verdict.startswith("no CJK font") and os.environ.get("REQUIRE_BROWSER_TESTS") != "1":
        pytest.skip(verdict)
    assert verdict == "ok", verdict
    assert not page.errors, page.errors


# ---------------------------------------------------------------- the engine trace's player
SCREENSHOTS = ROOT / "docs" / "screenshots"
PLAYER_WORDS = {
    "en": ("step {step} of 6", "step 3: n3 TanhBackward0 runs", "input buffer", "saved for backward"),
    "zh": ("第 {step} 步，共 6 步", "第 3 步：n3 TanhBackward0 运行", "输入缓冲区", "为反向传播保存"),
}


@pytest.mark.parametrize("edition", ["en", "zh"])
def test_the_engine_trace_is_a_player(edition, open_page):
    count_words, caption, buffer_words, saved_words = PLAYER_WORDS[edition]
    page = open_page(("zh/" if edition == "zh" else "") + "08_engine.html")
    players = page.page.locator("article .mat-player")
    assert players.count() == 1, f"{players.count()} players on chapter 08's page"
    player = players.first
    assert page.page.locator("article .mat-trace-still").count() == 0, "the animation is still on the page"
    player.scroll_into_view_if_needed()
    count, picture = player.locator(".mat-count"), player.locator(".mat-graph img")
    assert count.inner_text() == count_words.format(step=0)
    first = picture.get_attribute("src")
    player.locator("button.mat-forward").click()
    player.locator("button.mat-forward").click()
    assert count.inner_text() == count_words.format(step=2)
    assert picture.get_attribute("src") != first
    assert player.locator("input[type=range]").input_value() == "2"
    player.focus()
    page.page.keyboard.press("ArrowRight")
    assert count.inner_text() == count_words.format(step=3)
    assert caption in player.locator(".mat-step").inner_text()
    player.locator("svg.mat-hit g.node[data-node='n4']").first.click()
    panel = player.locator(".mat-node").inner_text()
    for needed in ("n4 MulBackward0", buffer_words, "[1.1416, 0.5220]", saved_words):
        assert needed in panel, f"the node's panel has no {needed!r}: {panel!r}"
    assert picture.evaluate("img => img.naturalWidth") > 0 and picture.is_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    trace = page.page.locator("article .mat-trace").first
    height = trace.evaluate("el => el.getBoundingClientRect().height")
    page.page.set_viewport_size({"width": labtools.VIEWPORT["width"], "height": int(height) + 300})
    try:
        trace.evaluate("el => el.scrollIntoView({block: 'start'})")
        page.page.evaluate("() => window.scrollBy(0, -70)")
        page.page.wait_for_timeout(200)
        trace.screenshot(path=str(SCREENSHOTS / f"trace-player-site-{edition}.png"))
    finally:
        page.page.set_viewport_size(labtools.VIEWPORT)
    assert not page.errors, page.errors
