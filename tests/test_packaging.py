"""pyproject.toml and environment.yml must install the same packages.

pip users get the course from pyproject.toml (`make lab`, `make test`), conda
users from environment.yml. The two lists are written by hand, so this test
keeps them in step. environment.yml is read with a tiny parser for the simple
subset of YAML it uses, so the test needs no yaml library.
"""

import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# conda-forge name -> pip name, where they differ.
CONDA_TO_PIP = {"python-graphviz": "graphviz"}
# conda entries with no pip counterpart: the interpreter, pip itself, and
# conda's `graphviz`, which is the `dot` program (pip can't install it).
CONDA_ONLY = {"python", "pip", "graphviz"}


def normalize(name):
    """PEP 503 normalized project name: 'Pytest_XDist' -> 'pytest-xdist'."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement):
    """Project name of a pip requirement ('numpy>=1.24; python_version>"3"' -> 'numpy')."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if not match:
        raise ValueError(f"not a requirement: {requirement!r}")
    return normalize(match.group(1))


def conda_spec_name(spec):
    """Package name of a conda match spec ('python=3.11' -> 'python')."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec)
    if not match:
        raise ValueError(f"not a conda package spec: {spec!r}")
    return match.group(1).lower()


def _strip_comment(line):
    """Drop a YAML comment: a '#' at the start or after whitespace."""
    return re.sub(r"(^|\s)#.*$", "", line).rstrip()


def parse_environment_yml(text):
    """Parse the YAML subset environment.yml uses.

    Top-level `key: value` scalars and `key:` followed by a `- item` list;
    a list item may itself be `name:` followed by a deeper `- item` list
    (conda's `- pip:` section). Returns e.g.
    {"name": "x", "channels": [...], "dependencies": ["numpy", {"pip": [...]}]}.
    """
    result = {}
    current_list = None  # the top-level list being filled
    nested_list = None  # the list under a `- name:` item
    nested_indent = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw)
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        content = line.strip()
        if indent == 0:
            key, sep, value = content.partition(":")
            if not sep:
                raise ValueError(f"line {lineno}: expected 'key: value': {raw!r}")
            value = value.strip()
            if value:
                result[key.strip()] = value.strip("'\"")
                current_list = None
            else:
                current_list = result[key.strip()] = []
            nested_list = None
            continue
        if not content.startswith("- ") or current_list is None:
            raise ValueError(f"line {lineno}: unsupported YAML: {raw!r}")
        item = content[2:].strip()
        if nested_list is not None and indent > nested_indent:
            nested_list.append(item.strip("'\""))
            continue
        nested_list = None
        if item.endswith(":"):
            nested_list = []
            nested_indent = indent
            current_list.append({item[:-1].strip(): nested_list})
        else:
            current_list.append(item.strip("'\""))
    return result


def conda_packages_as_pip(dependencies):
    """pip names of the conda packages in an environment's dependency list."""
    names = set()
    for entry in dependencies:
        if isinstance(entry, dict):  # the `- pip:` section
            continue
        name = conda_spec_name(entry)
        if name in CONDA_TO_PIP:
            names.add(CONDA_TO_PIP[name])
        elif name not in CONDA_ONLY:
            names.add(normalize(name))
    return names


# Extras that environment.yml leaves out on purpose: the benchmarks' comparison engines (DeZero, HIPS
# autograd) are for benchmarks/ only, never in the course's environment; nor are the classroom extra's
# grading tools (nbgrader, otter-grader), for teachers, nor the hub extra's JupyterHub (deploy/jupyterhub/).
NOT_IN_ENVIRONMENT = {"bench", "classroom", "hub"}


def pyproject_packages(pyproject):
    """pip names of the runtime dependencies and of every extra environment.yml mirrors."""
    project = pyproject["project"]
    requirements = list(project.get("dependencies", []))
    for name, extra in project.get("optional-dependencies", {}).items():
        if name not in NOT_IN_ENVIRONMENT:
            requirements.extend(extra)
    return {requirement_name(r) for r in requirements}


def package_mismatch(conda_dependencies, pip_names):
    """Packages listed on one side only: (only in conda, only in pip). Empty sets when in step."""
    conda_names = conda_packages_as_pip(conda_dependencies)
    return conda_names - pip_names, pip_names - conda_names


@pytest.fixture(scope="module")
def pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def environment():
    return parse_environment_yml((ROOT / "environment.yml").read_text(encoding="utf-8"))


# --- the helpers themselves ---------------------------------------------------

EXAMPLE_YML = """\
# a comment
name: demo-env
channels:
  - conda-forge
dependencies:
  - python=3.11  # trailing comment
  - numpy>=1.24
  - python-graphviz
  - graphviz
  - pip
  - pip:
      - -e .
      - rich
"""


def test_parser_reads_the_yaml_subset():
    env = parse_environment_yml(EXAMPLE_YML)
    assert env == {
        "name": "demo-env",
        "channels": ["conda-forge"],
        "dependencies": [
            "python=3.11",
            "numpy>=1.24",
            "python-graphviz",
            "graphviz",
            "pip",
            {"pip": ["-e .", "rich"]},
        ],
    }


def test_parser_rejects_what_it_does_not_understand():
    with pytest.raises(ValueError, match="unsupported YAML"):
        parse_environment_yml("dependencies:\n  numpy: 1\n")


def test_name_helpers():
    assert requirement_name("Pytest_XDist>=3; python_version>'3.9'") == "pytest-xdist"
    assert requirement_name("graphviz[dev]") == "graphviz"
    assert conda_spec_name("python=3.11") == "python"
    assert conda_spec_name("numpy >=1.24") == "numpy"


def test_conda_names_are_mapped_to_pip_names():
    deps = parse_environment_yml(EXAMPLE_YML)["dependencies"]
    # python, pip and the `dot` program drop out; python-graphviz is pip's graphviz
    assert conda_packages_as_pip(deps) == {"numpy", "graphviz"}


def test_mismatch_is_reported_both_ways():
    deps = ["python=3.11", "numpy", "python-graphviz", "graphviz", "scipy"]
    only_conda, only_pip = package_mismatch(deps, {"numpy", "graphviz", "pytest"})
    assert only_conda == {"scipy"}
    assert only_pip == {"pytest"}


def test_conda_graphviz_alone_does_not_stand_for_the_python_binding():
    # conda's `graphviz` is only the `dot` program: without python-graphviz
    # the Python package `graphviz` is missing.
    only_conda, only_pip = package_mismatch(["numpy", "graphviz"], {"numpy", "graphviz"})
    assert only_conda == set()
    assert only_pip == {"graphviz"}


# --- the real files -----------------------------------------------------------


def test_pyproject_and_environment_list_the_same_packages(pyproject, environment):
    only_conda, only_pip = package_mismatch(
        environment["dependencies"], pyproject_packages(pyproject)
    )
    assert not only_conda, f"in environment.yml but not in pyproject.toml: {sorted(only_conda)}"
    assert not only_pip, f"in pyproject.toml but not in environment.yml: {sorted(only_pip)}"


def test_environment_installs_the_project_and_the_dot_program(environment):
    assert environment["name"] == "mini-autograd"
    assert environment["channels"] == ["conda-forge"]
    deps = environment["dependencies"]
    names = [conda_spec_name(d) for d in deps if isinstance(d, str)]
    assert "graphviz" in names, "conda's graphviz brings the `dot` program"
    assert "pip" in names
    pip_sections = [d["pip"] for d in deps if isinstance(d, dict) and "pip" in d]
    assert pip_sections == [["-e ."]]


def test_environment_python_satisfies_requires_python(pyproject, environment):
    pins = [d for d in environment["dependencies"] if isinstance(d, str) and conda_spec_name(d) == "python"]
    assert len(pins) == 1
    env_version = tuple(int(p) for p in re.search(r"=\s*([\d.]+)", pins[0]).group(1).split("."))
    minimum = re.fullmatch(r">=\s*([\d.]+)", pyproject["project"]["requires-python"]).group(1)
    assert env_version >= tuple(int(p) for p in minimum.split("."))


def test_torch_is_not_a_dependency(pyproject, environment):
    # torch is only for the optional cross-check tests; installing it by
    # default would download gigabytes.
    assert "torch" not in pyproject_packages(pyproject)
    assert "torch" not in conda_packages_as_pip(environment["dependencies"])
    assert "pytorch" not in conda_packages_as_pip(environment["dependencies"])


@pytest.mark.parametrize("edition", ["en", "zh"])
def test_the_module_map_pages_are_chapter_12s(edition):
    """The module map's pages (docs/modules.md; book/zh/modules.md in Chinese) are rendered from chapter 12's
    MODULE_MAP (tools/module_map.py --write); the Chinese one in the words of the Chinese chapter 12."""
    sys.path.insert(0, str(ROOT / "tools"))
    import module_map

    page = module_map.PAGES[edition].read_text(encoding="utf-8")
    assert page == module_map.page_with_table(page, edition), "run: python tools/module_map.py --write"
    rows = page[page.index(module_map.BEGIN):page.index(module_map.END)].strip().splitlines()[3:]
    assert len(rows) == len(module_map.module_map())
    if edition == "zh":
        untranslated = [row for row in rows if not re.search(r"[\u4e00-\u9fff]", row.split(" | ")[1])]
        assert not untranslated, f"rows whose words are not in chapters.po yet: {untranslated}"


def test_the_readme_is_the_learners_front_door():
    """README.md: who the course is for and what to know first, the requirements before the two commands, the
    website, and links to the pages the reference moved to (the module map, the limits, the build track's
    table) and to its Chinese front door; short enough to read first."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 160
    headings = re.findall(r"^## (.+)$", readme, flags=re.M)
    for needed in ("Who it is for", "Read it online", "Requirements", "Quick start", "The course",
                   "Build your own autograd"):
        assert needed in headings, needed
    assert headings.index("Who it is for") < headings.index("Requirements") < headings.index("Quick start")
    assert "make lab" in readme and "make test" in readme and "Graphviz" in readme
    for page in ("docs/modules.md", "docs/limits.md", "docs/buildtrack.md", "README.zh.md"):
        assert f"]({page}" in readme, page
        assert (ROOT / page).is_file(), page
    top = "\n".join(readme.splitlines()[:15])
    assert "README.zh.md" in top, "the Chinese front door is linked at the top"
    assert "<!-- module-map" not in readme and "## Limits" not in readme


def test_comparison_engines_only_in_the_bench_extra(pyproject):
    """DeZero and HIPS autograd are the benchmarks' peers: a learner's install never pulls them in."""
    extras = pyproject["project"]["optional-dependencies"]
    peers = {"dezero", "autograd"}
    assert {requirement_name(r) for r in extras["bench"]} == peers
    for name, requirements in extras.items():
        if name != "bench":
            assert not peers & {requirement_name(r) for r in requirements}, name
    assert not peers & {requirement_name(r) for r in pyproject["project"]["dependencies"]}
