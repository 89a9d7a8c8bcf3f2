"""A teacher grades a whole class's build track with one command: ``python -m buildtrack grade``."""
import csv
import json
import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
sys.path.insert(0, str(NOTEBOOKS))

from buildtrack import STEPS, grading  # noqa: E402
from buildtrack.package import ANSWER_KEY  # noqa: E402
from buildtrack_mistakes import plant  # noqa: E402

LATER_THAN_10_3 = [s for s in STEPS if s == "10.3" or "10.3" in STEPS[s].needs()]


def _copy_key(folder):
    target = folder / "myautograd"
    shutil.copytree(ANSWER_KEY, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A class of eight, graded in two processes at once."""
    submissions = tmp_path_factory.mktemp("submissions")
    _copy_key(submissions / "ada" / "course" / "notebooks")               # the package, deep in a folder
    with zipfile.ZipFile(submissions / "ben.zip", "w") as archive:         # the stubs, zipped
        for path in sorted((NOTEBOOKS / "myautograd").glob("*.py")):
            archive.write(path, f"myautograd/{path.name}")
        archive.writestr("../../outside.py", "print('written outside')")
    cleo = _copy_key(submissions / "cleo")                                 # re-exports mini_autograd
    with open(cleo / "__init__.py", "a") as init:
        init.write("\nimport mini_autograd as _reference\nTensor = _reference.Tensor\n")
    dan = _copy_key(submissions / "dan")                                   # reads a file in step 10.3's piece
    plant(dan, "optim.py", "        ### BEGIN SOLUTION\n        with no_grad():",
          "        ### BEGIN SOLUTION\n        open('/etc/hostname').read()\n        with no_grad():")
    eve = _copy_key(submissions / "eve")                                   # a memory bomb in step 11.2
    plant(eve, "custom.py", "        ### BEGIN SOLUTION\n        result",
          "        ### BEGIN SOLUTION\n        import numpy\n        numpy.ones(10**11)\n        result")
    gus = _copy_key(submissions / "gus")                                   # open, by a name made at run time
    plant(gus, "optim.py", "        ### BEGIN SOLUTION\n        with no_grad():",
          "        ### BEGIN SOLUTION\n        name = 'op' + 'en'\n"
          "        getattr(print.__self__, name)('/etc/hostname').read()\n        with no_grad():")
    hal = _copy_key(submissions / "hal")                                   # prints a fake verdict
    with open(hal / "__init__.py", "a") as init:
        init.write("\nprint('{\"step\": \"01.1\", \"status\": \"done\", \"message\": \"\"}')\n")
    plant(hal, "tensor.py", "        self._grad = None\n        self.grad_fn = None",
          "        self._grad = 0\n        self.grad_fn = None")
    (submissions / "fay").mkdir()                                          # no package at all
    (submissions / "fay" / "notes.txt").write_text("I could not do it")
    out = tmp_path_factory.mktemp("grades")
    run = subprocess.run([sys.executable, "-m", "buildtrack", "grade", str(submissions), "--out", str(out),
                          "--jobs", "2", "--seed", "1", "--memory-mb", "1500"],
                         capture_output=True, text=True, cwd=NOTEBOOKS, timeout=1500,
                         env={"PATH": "/usr/bin:/bin", "BUILDTRACK_LANG": "en"})
    assert run.returncode == 0, run.stderr[-3000:]
    with open(out / "grades.csv") as table:
        rows = {row["student"]: row for row in csv.DictReader(table)}
    return out, rows, submissions


def test_the_answer_key_gets_full_marks_and_the_stubs_none(graded):
    out, rows, _ = graded
    assert list(rows["ada"])[:len(STEPS) + 1] == ["student", *STEPS]
    assert rows["ada"]["total"] == str(len(STEPS)) and rows["ben"]["total"] == "0"
    assert not (out.parent / "outside.py").exists() and not (out / "outside.py").exists()


def test_code_that_reaches_outside_its_package_costs_the_steps_that_use_it(graded):
    out, rows, _ = graded
    assert rows["cleo"]["total"] == "0"
    cleo = json.loads((out / "cleo.json").read_text())
    assert "myautograd/__init__.py, line" in cleo["steps"]["01.1"]["message"]
    assert "imports mini_autograd" in cleo["steps"]["01.1"]["message"]
    dan = rows["dan"]
    assert [s for s in STEPS if dan[s] == "0"] == LATER_THAN_10_3
    message = json.loads((out / "dan.json").read_text())["steps"]["10.3"]["message"]
    assert "in SGD.step (step 10.3): uses open" in message


def test_what_code_does_at_run_time_counts_too(graded):
    out, rows, _ = graded
    assert rows["gus"]["10.3"] == "0" and rows["gus"]["10.2"] == "1"
    assert "open at run time (myautograd/optim.py, line" in json.loads(
        (out / "gus.json").read_text())["steps"]["10.3"]["message"]
    assert rows["hal"]["01.1"] == "0" and rows["hal"]["total"] == "0"     # its print is not a verdict


def test_a_memory_bomb_costs_its_step_only(graded):
    out, rows, _ = graded
    assert [s for s in STEPS if rows["eve"][s] == "0"] == ["11.2"]
    assert "MemoryError" in json.loads((out / "eve.json").read_text())["steps"]["11.2"]["message"]


def test_every_student_has_a_feedback_page_and_the_run_its_seed(graded):
    out, rows, _ = graded
    assert set(rows) == {"ada", "ben", "cleo", "dan", "eve", "fay", "gus", "hal"}
    assert "no myautograd/ folder" in json.loads((out / "fay.json").read_text())["steps"]["01.1"]["message"]
    page = (out / "dan.html").read_text()
    assert "❌" in page and "uses open" in page and "<script" not in page
    assert json.loads((out / "grading.json").read_text())["seed"] == 1


@pytest.mark.parametrize("code, reason", [
    ("x = __import__('mini_autograd')", "uses __import__"),
    ("import importlib", "imports importlib"),
    ("import sys\nf = sys._getframe(1)", "imports sys"),
    ("g = run_backward.__globals__", "uses .__globals__"),
    ("g = getattr(run_backward, '__globals__')", "names '__globals__'"),
    ("import numpy as np\nw = np.load('w.npy')", "uses np.load"),
    ("from mini_autograd import ops as reference_ops", "imports mini_autograd"),
    ("exec('x = 1')", "uses exec"),
    ("import warnings\nm = warnings.sys", "uses .sys"),
    ("import numpy as np\nf = getattr(np, 'lo' + 'ad')", "uses getattr with a name put together at run time"),
    ("import os", "imports os"),
    ("__path__.insert(0, '/somewhere/answers/myautograd')", "uses __path__"),      # the package redirected
    ("import buildtrack.verdicts\nbuildtrack.verdicts.run_one = None", "imports buildtrack.verdicts"),
    ("import inspect\ncaller = inspect.stack()[1]", "imports inspect"),              # who is calling?
    ("__builtins__['print'] = None", "uses __builtins__"),                           # builtins patched
    ("import torch", "imports torch"),
    # the roads to builtins and classes through objects (a red team's, issue 38)
    ("v = vars(len.__self__)['__imp' + 'ort__']('buildtrack.verdicts', None, None, ['x'])", "uses vars"),
    ("b = len.__self__", "uses .__self__"),
    ("k = type(()).__mro__[1].__subclasses__()", "uses .__mro__"),
    ("d = run_backward.__dict__", "uses .__dict__"),
    ("import atexit", "imports atexit"),
])
def test_the_grader_reads_the_code_first(tmp_path, code, reason):
    package = _copy_key(tmp_path)
    with open(package / "engine.py", "a") as engine:
        engine.write("\n" + code + "\n")
    found = grading.screen(package)
    assert set(found) == set(STEPS)
    assert any(reason in why for why in found["01.1"]), found["01.1"]


def test_the_package_as_shipped_and_the_answer_key_read_clean():
    assert grading.screen(ANSWER_KEY) == {}
    assert grading.screen(NOTEBOOKS / "myautograd") == {}


def test_only_the_myautograd_files_are_taken(tmp_path):
    archive_path = tmp_path / "sub.zip"
    with zipfile.ZipFile(archive_path, "w") as archive:
        archive.writestr("work/myautograd/__init__.py", "")
        archive.writestr("work/myautograd/tensor.py", "x = 1\n")
        archive.writestr("work/myautograd/data/big.py", "y = 2\n")
        archive.writestr("work/other/myautograd/engine.py", "z = 3\n")
        archive.writestr("work/myautograd/notes.md", "hello\n")
    package = grading.take(archive_path, tmp_path / "taken")
    assert sorted(p.name for p in package.iterdir()) == ["__init__.py", "tensor.py"]


def test_a_whole_course_is_graded_on_the_package_saved_last():
    """A submission of a whole course holds both editions' packages (notebooks/myautograd and the Chinese
    edition's notebooks/zh/myautograd): the one saved last is the student's work."""
    names = ["course/notebooks/myautograd/tensor.py", "course/notebooks/zh/myautograd/tensor.py"]
    saved = {names[0]: 1.0, names[1]: 2.0}
    assert grading._package_files(names, changed=saved.get) == {"tensor.py": names[1]}
    saved = {names[0]: 3.0, names[1]: 2.0}
    assert grading._package_files(names, changed=saved.get) == {"tensor.py": names[0]}
    assert grading._package_files(names) == {"tensor.py": names[0]}          # (no times: the shallowest)


def test_an_objects_own_fields_may_be_read(tmp_path):
    """``self.__dict__`` (a learner copying a tensor's fields) is not a road to the interpreter's insides."""
    package = _copy_key(tmp_path)
    with open(package / "tensor.py", "a") as tensor:
        tensor.write("\n\ndef fields(self):\n    return dict(self.__dict__)\n")
    assert grading.screen(package) == {}


def test_an_import_made_at_run_time_by_the_package_is_refused(tmp_path):
    """The worker's ``__import__``: what reading the code cannot see (an import by a name put together,
    through a builtin reached some other way) is refused when the package's code makes it, and noted."""
    package = _copy_key(tmp_path)
    seen = set()
    guarded = grading._guarded_import(package, seen)
    inside = compile("module = importer(name)", str(package / "engine.py"), "exec")
    outside = compile("module = importer(name)", str(NOTEBOOKS / "buildtrack" / "cache.py"), "exec")
    for code, name, allowed in ((inside, "numpy", True), (inside, "mini_autograd._dtype", True),
                                (inside, "os", False), (inside, "buildtrack.verdicts", False),
                                (outside, "os", True)):
        namespace = {"importer": guarded, "name": name}
        if allowed:
            exec(code, namespace)
            assert namespace["module"].__name__ == name.split(".")[0]
        else:
            with pytest.raises(ImportError):
                exec(code, namespace)
    assert sorted(seen) == ["imports buildtrack.verdicts at run time (myautograd/engine.py, line 1)",
                            "imports os at run time (myautograd/engine.py, line 1)"]


def test_what_cannot_be_read_is_said_so(tmp_path):
    """Broken, lying and oversized submissions: a reason each, and never a crash of the grader."""
    import os
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"PK\x03\x04 not a zip at all")
    lying = tmp_path / "lying.zip"
    with zipfile.ZipFile(lying, "w") as archive:
        archive.writestr("myautograd/__init__.py", "")
        archive.writestr("myautograd/big.py", "#" * 5000)
    data = lying.read_bytes().replace(b"#" * 5000, b"#" * 4999 + b"x")         # its CRC no longer holds
    lying.write_bytes(data)
    no_init = tmp_path / "no_init"
    _copy_key(no_init)
    (no_init / "myautograd" / "__init__.py").unlink()
    big = tmp_path / "big"
    _copy_key(big)
    with open(big / "myautograd" / "notes.py", "wb") as notes:               # sparse: no room taken
        notes.truncate(grading.SUBMISSION_LIMIT * 400)
    for entry, words in ((bad, "cannot be read"), (lying, "cannot be read"), (no_init, "no __init__.py"),
                         (big / "myautograd", "more than 2,000,000 bytes")):
        with pytest.raises(grading.Unreadable, match=words):
            grading.take(entry, tmp_path / "taken" / entry.name)
    odd = tmp_path / "odd"
    _copy_key(odd)
    (odd / "myautograd" / "backup.py").mkdir()                                # a folder named like a file
    os.mkfifo(odd / "myautograd" / "scratch.py")                              # reading it would wait forever
    taken = grading.take(odd, tmp_path / "taken" / "odd")
    assert sorted(p.name for p in taken.iterdir()) == sorted(p.name for p in ANSWER_KEY.glob("*.py"))


def test_every_student_gets_a_name_of_their_own(tmp_path):
    for name in ("ann", "grading"):
        (tmp_path / name).mkdir()
    for name in ("ann.zip", "jos\udce9.zip"):   # (Latin-1 bytes, not UTF-8)
        (tmp_path / name).write_bytes(b"")
    names = [student for student, _path in grading.entries(tmp_path)]
    assert "ann" in names and "ann (2)" in names and "grading (student)" in names
    assert len(names) == len(set(names)) == 4 and "jos?" in names
    names[0].encode("utf-8")                                 # (every name can be written into grades.csv)


def test_a_submission_that_ends_the_process_costs_only_its_own_grades(tmp_path):
    """``exit()`` at the top level of a file: the process ends with no error, before any verdict. Every step
    is "stopped", and the grades are written."""
    submissions = tmp_path / "submissions"
    package = submissions / "zed" / "myautograd"
    shutil.copytree(NOTEBOOKS / "myautograd", package, ignore=shutil.ignore_patterns("__pycache__"))
    with open(package / "engine.py", "a") as engine:
        engine.write("\nexit()\n")
    results = grading.grade(submissions, tmp_path / "out", jobs=1, seed=1, cpu_seconds=60)
    (student, verdicts, _reasons, _seconds), = results
    assert student == "zed" and all("stopped here" in v.message for v in verdicts.values())
    assert (tmp_path / "out" / "grades.csv").exists()


# ------------------------------------------------------------------ the sandbox (buildtrack/sandbox.py)
# Each trick below reads clean to the grader's screen and passes its import guard: it reaches the standard
# library's modules through ``threading``'s own ``_sys``, by names put together at run time and handed to
# getattr through a variable. So these tests show what the sandbox holds when the screen is fooled.
SNEAK = '''

import threading as _threading


def _module(name):
    """A module of the standard library, past the grader's reading and its import guard (a test's trick)."""
    interpreter, table = "_s" + "ys", "mod" + "ules"
    loaded = getattr(getattr(_threading, interpreter), table)
    return loaded["import" + "lib"].import_module(name)


def _function(module, name):
    return getattr(_module(module), name)
'''


def _tricked(folder, code, where="__init__.py", old=None):
    """A copy of the answer key with ``code`` run at import time (``where``'s end) or in place of ``old``."""
    package = _copy_key(folder)
    with open(package / "__init__.py", "a") as init:
        init.write(SNEAK)
    if old is None:
        with open(package / where, "a") as file:
            file.write("\n" + code + "\n")
    else:
        plant(package, where, old, code + old)
    assert grading.screen(package) == {}, "the trick must read clean, to test the sandbox itself"
    return folder


def _grade(tmp_path, folder, steps, step_seconds=60, student="trick"):
    return grading.grade_one(student, folder, tmp_path / "workspace", 1, 120, 1500, step_seconds, steps=steps)


def _leftovers(text, wait=10.0):
    """The processes whose command line holds ``text``, once they had ``wait`` seconds to be torn down (the
    kernel ends the processes of a PID namespace after its first one, not at once: a machine under load takes
    a while for a few hundred). The planted children would live 20 s on their own, longer than ``wait``."""
    import time
    deadline = time.monotonic() + wait
    while True:
        found = subprocess.run(["pgrep", "-f", text], capture_output=True, text=True).stdout.split()
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def test_the_sandbox_in_use_is_said(tmp_path):
    """The teacher's output names the isolation; on a machine with bubblewrap (CI installs it) it is bwrap."""
    kind = grading.sandbox.kind()
    assert kind.startswith(("bwrap", "process group"))
    if shutil.which("bwrap") and grading.sandbox._bwrap_works():
        assert kind.startswith("bwrap")


def test_the_code_reaches_no_network(tmp_path):
    import socket
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    port = server.getsockname()[1]
    code = (f"try:\n    _module('sock' + 'et').create_connection(('127.0.0.1', {port}), timeout=5)\n"
            "except OSError:\n    pass")
    try:
        _student, verdicts, reasons, _seconds = _grade(tmp_path, _tricked(tmp_path / "net", code), ["01.1"])
        with pytest.raises(TimeoutError):
            server.accept()                                   # no connection came
    finally:
        server.close()
    assert any("socket.connect at run time" in why for why in reasons["01.1"]), reasons  # (the code ran)
    assert verdicts["01.1"].status == "wrong"


def test_the_code_writes_nothing_outside_its_folder(tmp_path):
    targets = [NOTEBOOKS / "buildtrack" / f"planted_{tmp_path.name}.py", tmp_path / "teacher" / "planted.txt",
               pathlib.Path.home() / f"planted_{tmp_path.name}.txt"]
    (tmp_path / "teacher").mkdir()
    (tmp_path / "teacher").chmod(0o777)                 # (writable by any uid: only the sandbox stops it)
    code = "\n".join(f"try:\n    _function('built' + 'ins', 'op' + 'en')({str(target)!r}, 'w').write('x')\n"
                     f"except OSError:\n    pass" for target in targets)
    try:
        _student, _verdicts, reasons, _seconds = _grade(tmp_path, _tricked(tmp_path / "w", code), ["01.1"])
        assert [target for target in targets if target.exists()] == []
    finally:
        for target in targets:
            target.unlink(missing_ok=True)
    assert any("open at run time" in why for why in reasons["01.1"]), reasons


def test_a_process_the_code_starts_ends_with_the_grading(tmp_path):
    """A child in a session of its own (it leaves the worker's process group) that would write a marker into
    the student's own folder (writable) after 2 s."""
    if not grading.sandbox.kind().startswith("bwrap"):
        pytest.skip("only bwrap ends a process that left the worker's session")
    token = f"buildtrack-marker-{tmp_path.name}"
    code = (f"_module('sub' + 'process').Popen(['sh', '-c', 'sleep 2; touch \"$HOME/{token}\"; sleep 300'],\n"
            "                             start_new_session=True)")
    _student, _verdicts, reasons, _seconds = _grade(tmp_path, _tricked(tmp_path / "d", code), ["01.1"])
    assert any("subprocess.Popen at run time" in why for why in reasons["01.1"]), reasons   # (it was started)
    import time
    time.sleep(3)
    try:
        assert list((tmp_path / "workspace").rglob(token)) == []
        assert _leftovers(token) == []
    finally:
        subprocess.run(["pkill", "-f", token])


def test_a_fork_bomb_costs_the_student_not_the_class(tmp_path):
    """At most ``sandbox.PROCESSES`` processes (the bomb is bounded, should the sandbox fail: 300 children,
    more than PROCESSES, that exit after 20 s); another student graded at the same time keeps every grade."""
    import concurrent.futures
    code = ("def _bomb():\n    system = _module('o' + 's')\n    count = 0\n    for _ in range(300):\n"
            "        try:\n            if system.fork() == 0:\n                _threading.Event().wait(20)\n"
            "                system._exit(0)\n"
            "        except OSError:\n            break\n        count += 1\n"
            "    home = system.environ['HOME']\n"
            "    with _function('built' + 'ins', 'op' + 'en')(home + '/forks', 'a') as out:\n"
            "        out.write(f'{count}\\n')\n\n\n_bomb()")
    bomb = _tricked(tmp_path / "bomb", code)
    other = tmp_path / "other"
    _copy_key(other)
    steps = ["01.1", "03.3"]                                  # (03.3 and what it needs: threads in 03.1)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        graded = list(pool.map(lambda entry: _grade(tmp_path, entry[1], steps, student=entry[0]),
                               [("bomb", bomb), ("other", other)]))
    (_student, _bombed, _reasons, _seconds), (_other, verdicts, _why, _s) = graded
    assert {step: v.status for step, v in verdicts.items()} == {step: "done" for step in steps}, verdicts
    counts = (tmp_path / "workspace" / "runs" / "bomb" / "forks").read_text().split()   # (one per load)
    forks = max(map(int, counts))
    assert 0 < forks < grading.sandbox.PROCESSES
    assert _leftovers(str(tmp_path / "workspace" / "submissions" / "bomb")) == []


def test_a_step_that_waits_costs_only_itself(tmp_path):
    """A piece of step 10.1 that sleeps for 10 minutes: stopped after ``step_seconds``, set to 0 with the
    reason, and step 11.1 (which does not need 10.1) is checked by a new worker."""
    import time
    folder = _tricked(tmp_path / "s", "        import threading\n        threading.Event().wait(600)\n",
                      where="nn.py",
                      old="        ### BEGIN SOLUTION\n        bound = 1 / np.sqrt(in_features)")
    started = time.monotonic()
    _student, verdicts, _reasons, _seconds = _grade(tmp_path, folder, ["10.1", "11.1"], step_seconds=5)
    assert time.monotonic() - started < 60
    assert "took more than 5 s of wall-clock time" in verdicts["10.1"].message
    assert verdicts["11.1"].status == "done", verdicts["11.1"]
