"""The class's tools without a hub (run by every `make test`): the student release, its nbgitpuller link, the
collect step, and the hub's config and Helm values as files (test_hub.py runs them on a real hub).
"""
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import urllib.parse

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "jupyterhub"


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


release_tool = _load("student_release", ROOT / "tools" / "student_release.py")
collect_tool = _load("collect_tool", ROOT / "tools" / "collect.py")


def git(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    out = tmp_path_factory.mktemp("release") / "course-release"
    commit, _notes = release_tool.make_release(out, answer_key_link=str(ROOT / "answers"), quiet=True)
    assert commit
    return out


def tracked(folder):
    return set(git("ls-files", cwd=folder).split())


def test_the_release_holds_the_chapters_and_stubs_and_no_answer_key(release):
    files = tracked(release)
    chapters = {p.relative_to(ROOT).as_posix() for folder in ("notebooks", "notebooks/zh")
                for p in (ROOT / folder).glob("[0-9][0-9]_*.ipynb")}
    assert chapters and chapters <= files
    assert {"notebooks/coursetools.py", "notebooks/buildtrack/__init__.py", "README.md", ".gitignore",
            "mini_autograd/__init__.py"} <= files
    assert not [f for f in files if f.startswith(("notebooks/src/", "tests/", "tools/", "book/", ".ci/"))]
    # answers is a link to the hub's answer key, not the answer key
    assert "answers" in files and not [f for f in files if f.startswith("answers/")]
    assert os.readlink(release / "answers") == str(ROOT / "answers")
    assert git("rev-parse", "--abbrev-ref", "HEAD", cwd=release).strip() == "main"
    assert not git("status", "--porcelain", cwd=release).strip()


@pytest.mark.parametrize("lang, folder", [("en", "notebooks/myautograd"), ("zh", "notebooks/zh/myautograd")])
def test_the_stubs_are_made_from_the_answer_key_not_copied(release, lang, folder):
    stubs = release / folder
    key = ROOT / "answers" / "myautograd"
    assert sorted(p.name for p in stubs.glob("*.py")) == sorted(p.name for p in key.glob("*.py"))
    for path in key.glob("*.py"):
        text = (stubs / path.name).read_text()
        assert text == release_tool.make_stub(path.read_text(), lang=lang)
        assert "### BEGIN SOLUTION" not in text


def test_a_release_made_again_is_a_new_commit_only_when_something_changed(release, tmp_path):
    before = git("rev-parse", "HEAD", cwd=release).strip()
    commit, notes = release_tool.make_release(release, answer_key_link=str(ROOT / "answers"), quiet=True)
    assert commit is None and any("unchanged" in n for n in notes)
    commit, _notes = release_tool.make_release(release, solutions=False,
                                               answer_key_link=str(ROOT / "answers"), quiet=True)
    assert commit and git("rev-parse", "HEAD~1", cwd=release).strip() == before     # on top: a fast-forward
    for path in release.rglob("*.ipynb"):
        text = path.read_text(encoding="utf-8")
        assert "<summary>Show solution</summary>" not in text and "<summary>查看答案</summary>" not in text
        json.loads(text)
    english = (release / "notebooks" / "01_first_gradient.ipynb").read_text(encoding="utf-8")
    chinese = (release / "notebooks" / "zh" / "01_first_gradient.ipynb").read_text(encoding="utf-8")
    assert release_tool.LEFT_OUT_NOTE["en"] in english and release_tool.LEFT_OUT_NOTE["zh"] in chinese
    shipped = json.loads((ROOT / "notebooks" / "01_first_gradient.ipynb").read_text(encoding="utf-8"))
    stripped = json.loads(english)
    assert len(stripped["cells"]) == len(shipped["cells"])          # a cell replaced, none removed
    # back to the solutions, for the tests after this one
    release_tool.make_release(release, answer_key_link=str(ROOT / "answers"), quiet=True)


def test_the_release_refuses_what_it_should(tmp_path):
    with pytest.raises(release_tool.ReleaseError, match="outside"):
        release_tool.make_release(ROOT / "release-inside", quiet=True)
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(release_tool.ReleaseError, match="not a release"):
        release_tool.make_release(tmp_path / "busy", quiet=True)
    other = tmp_path / "other-repository"
    other.mkdir()
    git("init", "-q", cwd=other)
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "--allow-empty", "-m", "mine",
        cwd=other)
    with pytest.raises(release_tool.ReleaseError, match="not a release made by this tool"):
        release_tool.make_release(other, quiet=True)
    with pytest.raises(release_tool.ReleaseError, match="absolute"):
        release_tool.make_release(tmp_path / "new", answer_key_link="answers", quiet=True)


def test_the_link_gives_each_student_a_copy_in_course():
    link = release_tool.link("https://hub.example.org/", "https://git.example.org/class/release.git",
                             open_path="notebooks/zh/00_welcome.ipynb")
    url = urllib.parse.urlsplit(link)
    assert url.path == "/hub/user-redirect/git-pull"
    query = dict(urllib.parse.parse_qsl(url.query))
    assert query == {"repo": "https://git.example.org/class/release.git", "branch": "main",
                     "targetpath": "course", "urlpath": "lab/tree/course/notebooks/zh/00_welcome.ipynb"}
    printed = subprocess.run([sys.executable, "tools/student_release.py", "--link",
                              "https://hub.example.org", "file:///srv/release.git"],
                             cwd=ROOT, capture_output=True, text=True, check=True)
    assert printed.stdout.strip().startswith("https://hub.example.org/hub/user-redirect/git-pull?repo=file")


def test_nbgitpuller_brings_an_update_and_keeps_the_students_edit(release, tmp_path):
    pytest.importorskip("nbgitpuller", reason="the hub extra is not installed (pip install -e '.[hub]')")
    from nbgitpuller.pull import GitPuller

    bare = tmp_path / "release.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(release), str(bare)], check=True)
    student = tmp_path / "home" / "course"
    student.parent.mkdir()
    list(GitPuller(f"file://{bare}", str(student), branch="main").pull())
    mine = student / "notebooks" / "myautograd" / "tensor.py"
    mine.write_text(mine.read_text() + "\n# my own note\n")
    release_tool.make_release(release, solutions=False, answer_key_link=str(ROOT / "answers"), quiet=True)
    git("push", "-q", str(bare), "main", cwd=release)
    list(GitPuller(f"file://{bare}", str(student), branch="main").pull())
    assert mine.read_text().endswith("# my own note\n")
    chapter = (student / "notebooks" / "01_first_gradient.ipynb").read_text()
    assert "<summary>Show solution</summary>" not in chapter
    release_tool.make_release(release, answer_key_link=str(ROOT / "answers"), quiet=True)


def test_collect_takes_each_students_python_files_and_nothing_else(tmp_path):
    homes = tmp_path / "home"
    for name in ("alice", "bob", "eve"):
        package = homes / name / "course" / "notebooks" / "myautograd"
        package.mkdir(parents=True)
        (package / "tensor.py").write_text(f"# {name}\n")
    (homes / "alice" / "course" / "notebooks" / "myautograd" / "notes.txt").write_text("not code")
    (homes / "bob" / "course" / "notebooks" / "myautograd" / "engine.py").symlink_to("/etc/hostname")
    (homes / "eve" / "course" / "notebooks" / "myautograd" / "ops.py").symlink_to(
        homes / "alice" / "course" / "notebooks" / "myautograd" / "tensor.py")
    (homes / "dave").mkdir()                                     # never clicked the link
    out = tmp_path / "submissions"
    classlist = tmp_path / "class.txt"
    classlist.write_text("alice\nbob\ncarol\ndave\neve\n")
    run = subprocess.run([sys.executable, "tools/collect.py", "--homes", str(homes), "--out", str(out),
                          "--students", str(classlist)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["alice", "bob", "carol", "dave", "eve"]
    assert sorted(p.name for p in (out / "alice" / "myautograd").iterdir()) == ["tensor.py"]
    assert sorted(p.name for p in (out / "bob" / "myautograd").iterdir()) == ["tensor.py"]   # no link out
    assert sorted(p.name for p in (out / "eve" / "myautograd").iterdir()) == ["tensor.py"]   # nor to alice
    assert (out / "eve" / "myautograd" / "tensor.py").read_text() == "# eve\n"
    assert not any((out / "carol").iterdir()) and not any((out / "dave").iterdir())
    table = (out / "collected.csv").read_text()
    assert "no home folder" in table and "engine.py: not a file of this home" in table
    # the grader reads one entry per folder: collected.csv is not one
    from buildtrack.grading import entries
    assert [student for student, _path in entries(out)] == ["alice", "bob", "carol", "dave", "eve"]


def test_the_hub_config_sets_up_the_class(tmp_path, monkeypatch):
    from traitlets.config import Config

    class Spawner:                                    # a stand-in: a local spawner's home and user
        home_dir = str(tmp_path / "alice")
        user = type("User", (), {"name": "alice"})()

    (tmp_path / "class.txt").write_text("alice\nbob\n# a comment\n")
    monkeypatch.setenv("COURSE_HUB_STATE", str(tmp_path / "state"))
    monkeypatch.setenv("COURSE_HUB_STUDENTS", str(tmp_path / "class.txt"))
    monkeypatch.setenv("COURSE_HUB_ADMINS", "teacher")
    monkeypatch.setenv("COURSE_HUB_PASSWORD", "a-long-password")
    monkeypatch.setenv("COURSE_HUB_COLLECTOR_TOKEN", "t" * 64)
    c = Config()
    exec(compile((DEPLOY / "jupyterhub_config.py").read_text(), "jupyterhub_config.py", "exec"),
         {"get_config": lambda: c, "__file__": str(DEPLOY / "jupyterhub_config.py")})
    assert c.JupyterHub.authenticator_class == "shared-password"
    assert c.Authenticator.allowed_users == {"alice", "bob"} and c.Authenticator.admin_users == {"teacher"}
    assert c.JupyterHub.spawner_class == "localprocess"
    assert pathlib.Path(c.Spawner.cmd[0]).name == "jupyterhub-singleuser"
    assert c.Spawner.environment["PYTHONPATH"](Spawner()) == str(tmp_path / "alice" / "course" / "notebooks")
    assert (DEPLOY / "lab-settings" / "overrides.json").exists()
    assert c.JupyterHub.load_roles[0]["services"] == ["collector"]
    monkeypatch.delenv("COURSE_HUB_PASSWORD")
    c = Config()
    exec(compile((DEPLOY / "jupyterhub_config.py").read_text(), "jupyterhub_config.py", "exec"),
         {"get_config": lambda: c, "__file__": str(DEPLOY / "jupyterhub_config.py")})
    assert c.JupyterHub.authenticator_class == "pam"


def test_the_helm_values_give_the_pods_what_the_local_hub_gives_its_processes():
    yaml = pytest.importorskip("yaml")
    values = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())
    single = values["singleuser"]
    assert single["extraEnv"]["PYTHONPATH"] == single["storage"]["homeMountPath"] + "/course/notebooks"
    assert single["defaultUrl"] == "/lab"
    roles = values["hub"]["loadRoles"]["collector"]
    assert roles["services"] == ["collector"] and "access:servers" in roles["scopes"]
    assert "collector" in values["hub"]["services"]
