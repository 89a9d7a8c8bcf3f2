"""Sphinx extension of the course website (book/build.py loads it through _config.yml).

- Check cells: a chapter's check cells print ⏳ / ✅ / ❌ verdicts. On the site their
  stored output is the one of the course as shipped (the build-track stubs, the
  exercise placeholders), so each gets a line below it saying where the check
  really runs: in JupyterLab, on your own package or answer.
- Links between the repository's files: the pages were copied out of the repository
  (README.md is index, CONTRIBUTING.md is contributing, notebooks/NN_slug.ipynb is
  NN_slug), so a link such as `notebooks/08_engine.ipynb` in the README or
  `myautograd/` in a chapter is resolved here against the file's place in the
  repository: to the page that holds it, else to the file on GitHub (or, when the
  repository is not known, to plain text). A link to nothing in the repository is
  left alone, and MyST's warning fails the build.
- Scripts: each page loads each script once (see drop_duplicate_scripts).
- Two editions: every page gets a link to the same page of the other edition (English
  at the site's root, Chinese under zh/), or to its home page. The Chinese edition's
  links to chapters not yet translated lead to the English pages, and its search
  indexes Chinese text by overlapping pairs of characters (ChineseBigrams).
"""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.search.zh import SearchChinese
from sphinx.transforms.post_transforms import SphinxPostTransform

# Where each page's source lives in the repository (chapters and the glossary: notebooks/).
PAGE_SOURCES = {"index": "README.md", "buildtrack": "README.md", "contributing": "CONTRIBUTING.md",
                "run-it": "README.md"}
# The Chinese edition's pages around the chapters are files of their own (book/zh/, see book/build.py).
ZH_PAGE_SOURCES = {"index": "book/zh/index.md", "run-it": "book/zh/run-it.md",
                   "buildtrack": "book/zh/buildtrack.md"}
CHAPTER = re.compile(r"^\d\d_[\w-]+$")
VERDICT = re.compile(r"^\s*(⏳|✅|❌)", re.M)

RUN_IT = "run-it"
NOTES = [
    # (what the cell's code calls, the line under its output)
    (re.compile(r"\bsetup_check\("),
     "In JupyterLab this check looks at your own machine; above, the machine the course was last run on."),
    (re.compile(r"\bbuildtrack\b"),
     "In JupyterLab this check runs on your own myautograd package (notebooks/myautograd/); above, its "
     "output for the stubs as shipped, before any step is written."),
    (re.compile(r"\b(check_exercise|check_answer|run_check|not_answered|can_check)\b"),
     "In JupyterLab this check runs on your answer in the exercise cell above; here, its output before "
     "you answer."),
]


ZH_NOTES = [
    (re.compile(r"\bsetup_check\("),
     "在 JupyterLab 里，这个检查看的是你自己的电脑；上面是课程上次运行时那台电脑的结果。"),
    (re.compile(r"\bbuildtrack\b"),
     "在 JupyterLab 里，这个检查运行在你自己的 myautograd 包（notebooks/myautograd/）上；上面是课程刚拿到手、"
     "还一步都没写时的输出。"),
    (re.compile(r"\b(check_exercise|check_answer|run_check|not_answered|can_check)\b"),
     "在 JupyterLab 里，这个检查运行在你在上面练习单元格里写的答案上；这里是作答之前的输出。"),
]


def source_of(docname, edition="en"):
    """The repository path of a page's source."""
    folder = "notebooks/zh" if edition == "zh" else "notebooks"
    if CHAPTER.match(docname):
        return f"{folder}/{docname}.ipynb"
    if docname == "glossary":
        return f"{folder}/00_welcome.ipynb"
    if edition == "zh" and docname in ZH_PAGE_SOURCES:
        return ZH_PAGE_SOURCES[docname]
    return PAGE_SOURCES.get(docname, docname + ".md")


def page_of(repo_path, docnames, edition="en"):
    """The page made from a repository file, or None (a file several pages are made from is none of them:
    README.md is the English index, not its build-track page)."""
    shared = {"buildtrack", "run-it", "glossary"} if edition == "en" else {"glossary"}
    for docname in sorted(docnames):
        if docname not in shared and source_of(docname, edition) == repo_path:
            return docname
    return None


# ---------------------------------------------------------------- check cells


def cell_text(container, element):
    return "\n".join(child.astext() for child in container.children if child.get("nb_element") == element)


def add_check_notes(app, doctree):
    docname = app.env.docname
    if not CHAPTER.match(docname):
        return
    for cell in list(doctree.findall(nodes.container)):
        if cell.get("nb_element") != "cell_code":
            continue
        if not VERDICT.search(cell_text(cell, "cell_code_output")):
            continue
        source = cell_text(cell, "cell_code_source")
        chinese = app.config.course_edition == "zh"
        notes = ZH_NOTES if chinese else NOTES
        line = next((line for pattern, line in notes if pattern.search(source)), None)
        if line is None:
            continue
        paragraph = nodes.paragraph()
        paragraph += nodes.Text(line + " ")
        link = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget="/" + RUN_IT,
                                     refexplicit=True, refdoc=docname)
        link += nodes.inline("", "如何运行本课程" if chinese else "How to run the course")
        paragraph += link
        cell += nodes.container("", paragraph, classes=["course-check-note"])


# ---------------------------------------------------------------- links between repository files


class RepositoryLinks(SphinxPostTransform):
    """Resolve MyST links to repository paths before MyST's own resolver (priority 9) sees them."""

    default_priority = 5

    def run(self, **kwargs):
        config = self.app.config
        root = Path(config.course_root)
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get("reftype") != "myst" or node.get("refdomain") is not None:
                continue
            target = node["reftarget"]
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            path, _, anchor = target.partition("#")
            edition = config.course_edition
            if edition == "zh" and path.startswith("../") and path.endswith(".html"):
                node.replace_self(_link(target, node))       # a page of the English edition
                continue
            here = posixpath.dirname(source_of(node.get("refdoc", self.env.docname), edition))
            repo_path = posixpath.normpath(posixpath.join(here, path))
            if repo_path.startswith("../") or not (root / repo_path).exists():
                continue  # MyST warns: a broken link fails the build
            english_chapter = re.fullmatch(r"notebooks/(\d\d_[\w-]+)\.ipynb", repo_path)
            if edition == "zh" and english_chapter:              # a chapter not translated yet
                page = f"../{english_chapter.group(1)}.html" + (f"#{anchor}" if anchor else "")
                node.replace_self(_link(page, node))
                continue
            docname = page_of(repo_path, self.env.found_docs, edition)
            if docname:
                node["refdomain"], node["reftarget"], node["reftargetid"] = "doc", docname, anchor or None
                continue
            if config.course_repository:
                kind = "tree" if (root / repo_path).is_dir() else "blob"
                url = (f"https://github.com/{config.course_repository}/{kind}/{config.course_branch}/"
                       f"{repo_path}" + (f"#{anchor}" if anchor else ""))
                new = nodes.reference("", "", refuri=url, internal=False)
                new += node.children
            else:
                new = nodes.inline("", "", classes=["course-repo-path"])
                new += node.children
            node.replace_self(new)


def _link(url, node):
    new = nodes.reference("", "", refuri=url, internal=False)
    new += node.children
    return new


# ---------------------------------------------------------------- the two editions


def add_edition_switch(app, pagename, templatename, context, doctree):
    """A link at the top of the page to the same page in the other edition, else to its home page."""
    other = set(app.config.course_other_pages)
    if not other or "body" not in context:
        return
    chinese = app.config.course_edition == "zh"
    prefix, label, language = ("../", "English", "en") if chinese else ("zh/", "中文", "zh-CN")
    page = pagename if pagename in other else "index"
    context["body"] = (f'<p class="course-edition-switch"><a href="{prefix}{page}.html" '
                       f'hreflang="{language}" lang="{language}">{label}</a></p>\n' + context["body"])


class ChineseBigrams(SearchChinese):
    """Chinese search without a dictionary: Chinese text is indexed, and a query split, into overlapping
    pairs of characters (搜索 叶子节点 looks for 叶子, 子节 and 节点, all in one page), Latin words as words.
    (Sphinx's own Chinese search needs jieba's dictionary, and never splits the query the way it split
    the pages.)"""

    HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
    js_splitter_code = """
function splitQuery(query) {
  const terms = [];
  for (const word of query.split(/[^\\p{Letter}\\p{Number}_]+/u)) {
    for (const run of word.match(/\\p{Script=Han}+|[^\\p{Script=Han}]+/gu) || []) {
      if (!/\\p{Script=Han}/u.test(run)) terms.push(run);
      else if (run.length === 1) terms.push(run);
      else for (let i = 0; i + 1 < run.length; i++) terms.push(run.slice(i, i + 2));
    }
  }
  return terms.filter((term) => term);
}
"""

    def split(self, input):
        pairs = [run[i:i + 2] for run in self.HAN.findall(input) for i in range(max(len(run) - 1, 1))]
        latin = [term.strip() for term in self.latin1_letters.findall(input)]
        self.latin_terms.extend(latin)
        return pairs + latin


# ---------------------------------------------------------------- scripts


def drop_duplicate_scripts(app, pagename, templatename, context, doctree):
    """Each script once. A script with a body and no file that an extension adds after the builder
    started (sphinx-thebe's `const THEBE_JS_URL = ...`, sphinx-togglebutton's settings) reaches the
    page twice under Sphinx 7.4, once with filename None and once with "": the second `const` is a
    JavaScript error on every page ("already declared")."""
    seen, unique = set(), []
    for script in context.get("script_files", []):
        attributes = getattr(script, "attributes", {}) or {}
        # The same body script comes with filename None and with filename "": the same script.
        key = (str(getattr(script, "filename", script) or ""),
               tuple(sorted((k, str(v)) for k, v in attributes.items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


def setup(app):
    app.add_config_value("course_repository", "", "env")  # OWNER/NAME on GitHub, or ""
    app.add_config_value("course_branch", "main", "env")
    app.add_config_value("course_root", "", "env")        # the repository's folder
    app.add_config_value("course_edition", "en", "env")   # "en", or "zh" for the Chinese edition
    app.add_config_value("course_other_pages", [], "env")  # the other edition's pages (for the switch)
    app.add_search_language(ChineseBigrams)
    app.connect("html-page-context", add_edition_switch)
    app.connect("doctree-read", add_check_notes)
    app.add_post_transform(RepositoryLinks)
    app.connect("html-page-context", drop_duplicate_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
