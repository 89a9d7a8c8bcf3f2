"""The sandbox the grader runs a student's code in: bubblewrap where it works, else a process group.

``grading.grade_one`` starts each worker (``python -m buildtrack.grading --worker ...``) with ``start``, and
ends it, and every process the student's code started, with ``stop``. Two kinds of isolation, the best one
that works on this machine (``kind()`` says which, and the grader writes it into ``grading.json``):

- **bwrap** (bubblewrap, from the distribution's packages: ``apt-get install bubblewrap``): the worker runs in
  new namespaces: no network (a new network namespace has only a loopback that is down), its own process
  numbers (when the worker ends, every process it started ends with it, ``setsid`` and double forks
  included), a read-only view of the file system where only the student's own folder (results, cache) is
  writable and ``/tmp`` is an empty tmpfs. Run as root, bwrap sets up the mounts and the worker then drops to
  uid 65534 (``nobody``, with ``setpriv``), in a user namespace of its own (``unshare --user``), so that the
  limit on processes counts that worker's processes only. Folders root keeps to itself (``/root``, mode
  700) are hidden behind an empty tmpfs; the interpreter, the course and the submission are bound into it.
- **process group**: without bwrap (or where it cannot make namespaces: some containers forbid them), the
  worker leads a session of its own, which ``stop`` kills; run as root, it drops to uid 65534 when that uid
  can run the interpreter (not when Python lives in a folder only root can enter). Weaker: no network or
  file-system isolation beyond the uid's rights, and a process that leaves the session (``setsid``) survives.

In both: limits on CPU time and memory (as the grader asks), on processes and threads (``PROCESSES``: a fork
bomb costs the student the step, not the machine), on the size of a file written (``FILE_BYTES``), and no
core dumps.
"""
import contextlib
import functools
import os
import pathlib
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile

NOBODY = 65534                     # the unprivileged uid and gid a worker run as root drops to
PROCESSES = 256                    # processes and threads one worker may have at once
FILE_BYTES = 50 * 2**20            # the largest file a worker may write
PROCESS_LIMIT_VARIABLE = "BUILDTRACK_PROCESS_LIMIT"    # set for the worker: see limit_processes


def _root():
    return os.geteuid() == 0


def kind():
    """The isolation ``start`` uses here, in words for the teacher: "bwrap, uid 65534", "bwrap",
    "process group, uid 65534" or "process group"."""
    if _bwrap_works():
        return f"bwrap, uid {NOBODY}" if _root() else "bwrap"
    return f"process group, uid {NOBODY}" if _nobody_can_run_python() else "process group"


# ------------------------------------------------------------------ what the worker needs to read
def _needed_paths(readable):
    """The folders a worker reads: the interpreter's (its standard library, the virtual environment and its
    packages) and ``readable``; none inside another."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(pathlib.Path(sys.executable).resolve().parent)}
    paths |= {str(path) for path in readable}
    found = sorted({os.path.realpath(path) for path in paths if os.path.isdir(path)})
    return [path for path in found if not any(path.startswith(other + os.sep) for other in found)]


def _closed_ancestor(path):
    """The outermost folder on the way to ``path`` that other users may not enter (``/root``), or None."""
    parts = pathlib.PurePath(path).parts
    for end in range(2, len(parts) + 1):
        folder = os.path.join(*parts[:end])
        if not os.stat(folder).st_mode & stat.S_IXOTH:
            return folder
    return None


def _way_in(path, closed):
    """The folders between a hidden folder of ``closed`` and ``path`` (inside it), outermost first."""
    for folder in closed:
        if str(path).startswith(folder + os.sep):
            parts = pathlib.Path(path).relative_to(folder).parts
            return [os.path.join(folder, *parts[:end]) for end in range(1, len(parts))]
    return []


def _bwrap_command(command, readable, writable, cwd):
    """``command`` run under bwrap: namespaces, the file system read-only but ``writable``; as root, uid
    65534 in a user namespace of its own."""
    needed = _needed_paths([*readable, cwd])
    if _root():
        # Privileged bwrap makes every namespace but the user one (so that setpriv can change uid).
        arguments = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
                     "--unshare-cgroup-try"]
    else:
        arguments = ["--unshare-all"]                     # (the user namespace too: bwrap needs it)
    arguments += ["--die-with-parent", "--new-session",
                  "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    closed = []
    if _root():
        closed = sorted({folder for folder in map(_closed_ancestor, [*needed, *writable]) if folder})
        for folder in closed:                             # hidden: only what is bound below shows
            arguments += ["--perms", "0755", "--tmpfs", folder]
    for path in [*needed, *writable]:
        for folder in _way_in(path, closed):              # (bwrap would make them 0700)
            arguments += ["--perms", "0755", "--dir", folder]
        arguments += ["--ro-bind" if path in needed else "--bind", str(path), str(path)]
    arguments += ["--chdir", str(cwd)]
    if _root():
        drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                "unshare", "--user", f"--map-user={NOBODY}", f"--map-group={NOBODY}", "--"]
    else:
        drop = []
    return ["bwrap", *arguments, *drop, *command]


@functools.cache
def _bwrap_works():
    """Does bwrap run Python here, with numpy? (Once per run: a container may forbid namespaces, and
    setpriv and unshare come with util-linux.)"""
    if shutil.which("bwrap") is None or (_root() and not shutil.which("setpriv")):
        return False
    with tempfile.TemporaryDirectory() as folder:
        _make_writable(folder)
        probe = _bwrap_command([sys.executable, "-c", "import numpy"], [], [folder], folder)
        try:
            return subprocess.run(probe, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, timeout=60).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False


@functools.cache
def _nobody_can_run_python():
    """Without bwrap: as root, can uid 65534 run this interpreter and import numpy?"""
    if not _root():
        return False
    try:
        return subprocess.run([sys.executable, "-c", "import numpy"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/",
                              preexec_fn=_become_nobody, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _become_nobody():
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def _make_writable(folder):
    """Let the worker write into ``folder`` (its owner becomes uid 65534 when the worker will run as it)."""
    if _root():
        os.chown(folder, NOBODY, NOBODY)


# ------------------------------------------------------------------ starting and stopping a worker
def _limits(cpu_seconds, memory_mb, as_nobody):
    def apply():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2**20, memory_mb * 2**20))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_BYTES, FILE_BYTES))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if as_nobody:
            _become_nobody()
    return apply


def start(command, readable, writable, cwd, env, cpu_seconds, memory_mb):
    """``subprocess.Popen`` of ``command`` in the sandbox: it may read ``readable`` (folders; and the
    interpreter's), write ``writable`` (folders, made writable for it here) and nothing else."""
    for folder in writable:
        _make_writable(folder)
    env = dict(env)
    if _bwrap_works():
        # In bwrap the count of processes is the worker's own (its user namespace): the worker sets the limit
        # itself (limit_processes), as a limit set before bwrap made the namespace would count every
        # process of the uid.
        env[PROCESS_LIMIT_VARIABLE] = str(PROCESSES)
        command, as_nobody = _bwrap_command(command, readable, writable, cwd), False
    else:
        as_nobody = _nobody_can_run_python()
        if as_nobody:               # (for another uid the count would hold all of the teacher's processes)
            env[PROCESS_LIMIT_VARIABLE] = str(PROCESSES)
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env, cwd=cwd, start_new_session=True,
                            preexec_fn=_limits(cpu_seconds, memory_mb, as_nobody))


def stop(process):
    """End the worker and every process it started; wait for it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)    # its session (bwrap's: when it dies, its namespace does)
    process.wait()


def limit_processes():
    """In the worker, before any of the student's code runs: at most ``PROCESSES`` processes and threads,
    when ``start`` asked for it."""
    limit = os.environ.pop(PROCESS_LIMIT_VARIABLE, None)
    if limit is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (int(limit), int(limit)))
