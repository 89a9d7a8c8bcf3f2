"""The course on JupyterHub, end to end (``make hub-test``; deploy/jupyterhub/README.md is its recipe).

1. The teacher makes the student release (``tools/student_release.py``, as ``make student-release`` does)
   and publishes it as a bare git repository (here a local one, ``file://``).
2. JupyterHub starts on 127.0.0.1 with ``deploy/jupyterhub/jupyterhub_config.py``: local processes, the
   shared-password authenticator, npm's configurable-http-proxy, free ports (``hubtools.HubServer``).
3. In headless Chromium, two students click the nbgitpuller link, log in, get their own copy and land on
   chapter 01. Bob has written step 01.1 (saved through JupyterLab, as its editor saves), Alice has not.
   Each runs the chapter's check cell for step 01.1 and sees their own verdict: ⏳ for Alice, ✅ for Bob.
   Bob also runs the check in the Chinese edition (notebooks/zh/), whose kernel must check his package too.
4. The teacher collects both packages from the homes (``tools/collect.py --homes``) and through the hub's
   API (``--hub``, the collector service's token; again with Bob's server stopped, which ``--start`` starts
   and stops), and grades them with ``python -m buildtrack grade``: Alice gets 0, Bob gets step 01.1.

Timings go to test-artifacts/hub/timings.json, screenshots of the check cells beside them.
"""
import csv
import json
import os
import secrets
import subprocess
import sys
import time

import pytest

import hubtools

collect_tool = hubtools.load_tool("collect")

PASSWORD = "class-" + secrets.token_hex(8)
STUDENTS = ("alice", "bob")
CHECK = 'buildtrack.check("01.1")'
NOTIFICATIONS = "@jupyterlab/apputils-extension:notification"


@pytest.fixture(scope="module")
def requirements():
    why = hubtools.missing()
    if why:
        pytest.fail(f"hub test: {why} (make hub-test installs what it needs)")


def run_tool(*args, cwd=hubtools.ROOT, timeout=600):
    run = subprocess.run([sys.executable, *map(str, args)], cwd=cwd, capture_output=True, text=True,
                         timeout=timeout)
    assert run.returncode == 0, f"{args}: exit {run.returncode}\n{run.stdout}\n{run.stderr}"
    return run.stdout


def bob_tensor_py(lang="en"):
    """tensor.py as a student has it after writing step 01.1 and nothing else, in one edition."""
    from buildtrack.stubs import make_stub
    return make_stub((hubtools.ROOT / "answers" / "myautograd" / "tensor.py").read_text(), after="01.1",
                     lang=lang)


def test_two_students_on_the_hub(requirements, tmp_path):
    from playwright.sync_api import sync_playwright

    times, started = {}, time.monotonic()
    artifacts = hubtools.ARTIFACTS
    artifacts.mkdir(parents=True, exist_ok=True)

    def lap(name, since):
        times[name] = round(time.monotonic() - since, 1)
        return time.monotonic()

    # 1. The release, published as a bare repository.
    now = time.monotonic()
    release, bare = tmp_path / "release", tmp_path / "release.git"
    run_tool("tools/student_release.py", "--out", release)
    subprocess.run(["git", "clone", "-q", "--bare", str(release), str(bare)], check=True)
    link = run_tool("tools/student_release.py", "--link", "HUB", f"file://{bare}",
                    "--open", "notebooks/01_first_gradient.ipynb").strip()
    assert "targetpath=course" in link and "git-pull?repo=file%3A%2F%2F" in link
    now = lap("release", now)

    # 2. The hub.
    (tmp_path / "students.txt").write_text("\n".join(STUDENTS) + "\n")
    token = secrets.token_hex(32)
    env = dict(os.environ, COURSE_HUB_PASSWORD=PASSWORD, COURSE_HUB_STUDENTS=str(tmp_path / "students.txt"),
               COURSE_HUB_COLLECTOR_TOKEN=token)
    hub = hubtools.HubServer(tmp_path, env, extra_args=["--LabApp.expose_app_in_browser=True"])
    cold = time.monotonic()
    try:
        hub.start()
        now = lap("hub_start", now)
        link = link.replace("HUB", hub.url, 1)
        verdicts = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=hubtools.labtools.find_chromium(),
                                                 headless=True, args=hubtools.labtools.CHROMIUM_ARGS)
            try:
                for name in STUDENTS:
                    student = hubtools.Student(browser, hub, name, PASSWORD)
                    try:
                        # 3. Log in through the link, get the release, land on chapter 01.
                        url = student.follow(link)
                        now = lap(f"{name}_login_spawn_pull", now)
                        assert url.startswith(f"{hub.url}/user/{name}/lab"), url
                        course = hub.homes / name / "course"
                        assert (course / ".git").is_dir() and (course / "notebooks" / "myautograd").is_dir()
                        assert not (course / "notebooks" / "src").exists()
                        if name == "bob":
                            saved = student.save("course/notebooks/myautograd/tensor.py", bob_tensor_py())
                            assert "Step 01.1" not in saved.split("def __init__", 1)[1].split("def ", 1)[0]
                        index, text = student.run_cell(CHECK)
                        now = lap(f"{name}_check_cell", now)
                        times.setdefault("cold_hub_to_first_verdict", round(now - cold, 1))
                        verdicts[name] = hubtools.verdict_line(text, "01.1")
                        student.screenshot_cell(index, artifacts / f"{name}-01_first_gradient-check.png")
                        assert student.toasts() == [], student.toasts()
                        assert student.lab_setting(NOTIFICATIONS, "fetchNews") == "false"   # lab-settings/
                        # The verdict was made by this student's kernel, from this student's folder.
                        assert (course / "notebooks" / ".buildtrack_cache" / "01.1.json").exists()
                        if name == "bob":              # the Chinese edition has a package of its own
                            student.save("course/notebooks/zh/myautograd/tensor.py", bob_tensor_py("zh"))
                            student.open("course/notebooks/zh/01_first_gradient.ipynb")
                            index, text = student.run_cell(CHECK)
                            now = lap("bob_zh_check_cell", now)
                            verdicts["bob_zh"] = hubtools.verdict_line(text, "01.1")
                            student.screenshot_cell(index, artifacts / "bob-zh-01_first_gradient-check.png")
                    finally:
                        student.close()
            finally:
                browser.close()
        times["cold_hub_to_both_verdicts"] = round(time.monotonic() - cold, 1)
        times["memory_mb_per_student"] = hub.memory_mb()     # server and kernels, after the check cells
        (artifacts / "verdicts.json").write_text(json.dumps(verdicts, indent=1, ensure_ascii=False) + "\n")
        # (The check cell shows HTML: the mark, then its word in a badge, then the step.)
        assert verdicts["alice"].startswith("⏳") and "Step 01.1" in verdicts["alice"], verdicts
        assert verdicts["bob"].startswith("✅") and "Step 01.1" in verdicts["bob"], verdicts
        assert verdicts["bob_zh"].startswith("✅") and "步骤 01.1" in verdicts["bob_zh"], verdicts

        # 4. Collect, from the homes and through the API (the servers are still running), and grade.
        assert hub.servers_running(token) == {"alice": True, "bob": True}
        submissions = tmp_path / "submissions"
        run_tool("tools/collect.py", "--homes", hub.homes, "--out", submissions,
                 "--students", tmp_path / "students.txt")
        through_api = tmp_path / "submissions-api"
        run = subprocess.run([sys.executable, "tools/collect.py", "--hub", hub.url, "--out", through_api],
                             cwd=hubtools.ROOT, capture_output=True, text=True, timeout=120,
                             env=dict(os.environ, JUPYTERHUB_API_TOKEN=token))
        assert run.returncode == 0, run.stdout + run.stderr
        now = lap("collect", now)
        # A server that is not running: --start starts it, reads it, and stops it again.
        collector = collect_tool.Hub(hub.url, token)
        collector.stop("bob")
        deadline = time.monotonic() + 30
        while hub.servers_running(token)["bob"] and time.monotonic() < deadline:
            time.sleep(0.5)
        started_again = tmp_path / "submissions-start"
        run = subprocess.run([sys.executable, "tools/collect.py", "--hub", hub.url, "--out", started_again,
                              "--start"], cwd=hubtools.ROOT, capture_output=True, text=True, timeout=180,
                             env=dict(os.environ, JUPYTERHUB_API_TOKEN=token))
        assert run.returncode == 0, run.stdout + run.stderr
        assert ((started_again / "bob" / "myautograd" / "tensor.py").read_bytes()
                == (submissions / "bob" / "myautograd" / "tensor.py").read_bytes())
        assert hub.servers_running(token) == {"alice": True, "bob": False}
        now = lap("collect_with_start", now)
        for name in STUDENTS:
            mine = sorted(p.name for p in (submissions / name / "myautograd").glob("*.py"))
            assert mine == sorted(p.name for p in (hubtools.ROOT / "answers" / "myautograd").glob("*.py"))
            for file in mine:
                assert ((submissions / name / "myautograd" / file).read_bytes()
                        == (through_api / name / "myautograd" / file).read_bytes()), (name, file)
        assert "Step 01.1" not in (submissions / "bob" / "myautograd" / "tensor.py").read_text().split(
            "def __init__", 1)[1].split("def ", 1)[0]
    finally:
        hub.stop()
        (artifacts / "jupyterhub.log").write_text(hub.log_tail(200_000))
    now = lap("hub_stop", now)

    grades = tmp_path / "grades"
    run_tool("-m", "buildtrack", "grade", submissions, "--out", grades, "--jobs", "2", "--seed", "1",
             cwd=hubtools.ROOT / "notebooks")
    now = lap("grade", now)
    with open(grades / "grades.csv", newline="") as table:
        rows = {row["student"]: row for row in csv.DictReader(table)}
    assert set(rows) == set(STUDENTS)
    steps = [column for column in rows["alice"] if column[:2].isdigit()]
    assert rows["alice"]["total"] == "0", rows["alice"]
    assert rows["bob"]["01.1"] == "1" and rows["bob"]["total"] == "1", rows["bob"]
    assert all(rows["bob"][s] == "0" for s in steps if s != "01.1")
    for name in STUDENTS:
        assert (grades / f"{name}.html").exists() and (grades / f"{name}.json").exists()
    assert json.loads((grades / "bob.json").read_text())["steps"]["01.1"]["status"] == "done"
    times["total"] = round(time.monotonic() - started, 1)
    (artifacts / "timings.json").write_text(json.dumps(times, indent=1) + "\n")
    print("hub test timings (s):", json.dumps(times))
