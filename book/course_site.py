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
"""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

# Where each page's source lives in the repository (chapters and the glossary: notebooks/).
PAGE_SOURCES = {"index": "README.md", "buildtrack": "README.md", "contributing": "CONTRIBUTING.md",
                "run-it": "README.md"}
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
    (re.compile(r"\b(check_answer|run_check|not_answered|can_check)\b"),
     "In JupyterLab this check runs on your answer in the exercise cell above; here, its output before "
     "you answer."),
]


def source_of(docname):
    """The repository path of a page's source."""
    if CHAPTER.match(docname):
        return f"notebooks/{docname}.ipynb"
    if docname == "glossary":
        return "notebooks/00_welcome.ipynb"
    return PAGE_SOURCES.get(docname, docname + ".md")


def page_of(repo_path, docnames):
    """The page made from a repository file, or None."""
    for docname in sorted(docnames):
        if docname != "buildtrack" and docname != "run-it" and docname != "glossary" \
                and source_of(docname) == repo_path:
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
        line = next((line for pattern, line in NOTES if pattern.search(source)), None)
        if line is None:
            continue
        paragraph = nodes.paragraph()
        paragraph += nodes.Text(line + " ")
        link = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget="/" + RUN_IT,
                                     refexplicit=True, refdoc=docname)
        link += nodes.inline("", "How to run the course")
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
            here = posixpath.dirname(source_of(node.get("refdoc", self.env.docname)))
            repo_path = posixpath.normpath(posixpath.join(here, path))
            if repo_path.startswith("../") or not (root / repo_path).exists():
                continue  # MyST warns: a broken link fails the build
            docname = page_of(repo_path, self.env.found_docs)
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
    app.connect("doctree-read", add_check_notes)
    app.add_post_transform(RepositoryLinks)
    app.connect("html-page-context", drop_duplicate_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
