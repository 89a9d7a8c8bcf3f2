"""JupyterHub for a class taking mini_autograd, on one server (deploy/jupyterhub/README.md).

    jupyterhub -f deploy/jupyterhub/jupyterhub_config.py

run with the Python of the course's environment (``/srv/mini_autograd/.venv/bin/jupyterhub``), as root, with
the proxy from npm (``npm install -g configurable-http-proxy``, or ``COURSE_HUB_PROXY``) and Graphviz's
``dot`` on the PATH. Each student is a user of the machine; their server is a local process
(``LocalProcessSpawner``) running as them, in their home. The course reaches each student through the
nbgitpuller link of ``tools/student_release.py``, into ``~/course``.

Settings, from the environment (so that the file itself need not be edited):

- ``COURSE_HUB_STATE``: the hub's own files (database, cookie secret, pid files): ``/srv/jupyterhub``.
- ``COURSE_HUB_URL``: where the hub listens: ``http://:8000``. Put TLS in front of it for a real class
  (a reverse proxy such as nginx or Caddy with a certificate, or ``c.JupyterHub.ssl_cert``/``ssl_key``).
- ``COURSE_HUB_STUDENTS``: a file with one user name a line: who may log in (default
  ``COURSE_HUB_STATE/students.txt``; JupyterHub lets nobody in without such a list).
- ``COURSE_HUB_ADMINS``: comma-separated names of the teachers, who get the admin panel.
- ``COURSE_HUB_PASSWORD``: a password shared by the whole class (``SharedPasswordAuthenticator``): for a
  trial, a workshop, or the test (``make hub-test``). Without it, students log in with their own system
  password (PAM), which is what a class on one server should use, or replace the authenticator by your
  institution's (below).
- ``COURSE_HUB_COLLECTOR_TOKEN``: a long random token (``openssl rand -hex 32``) for the ``collector``
  service, which may list users, start their servers and read their files: ``tools/collect.py --hub``.
- ``COURSE_HUB_PROXY``: the ``configurable-http-proxy`` program, if not on the PATH.
- ``COURSE_FOLDER``: the folder of each student's copy, nbgitpuller's ``targetpath``: ``course``.

For a real deployment, also consider (none of which ``make hub-test`` runs):

- Authentication: an OAuth or LTI login (``oauthenticator``: GitHub, Google, GitLab, any OpenID Connect;
  ``ltiauthenticator``: Canvas, Moodle, Blackboard), or ``nativeauthenticator`` (students sign up, a teacher
  approves). With a login that does not come from the machine's users, each student still needs a user on
  the machine (``LocalProcessSpawner`` runs their server as them): create them from the class list, or use
  ``c.LocalAuthenticator.create_system_users = True``.
- Limits: local processes share the machine, unlimited. ``systemdspawner`` (pip install
  jupyterhub-systemdspawner) gives each server a memory and CPU limit; ``jupyterhub-idle-culler`` stops idle
  servers (a service; see its README).
- More students than one machine holds: Zero to JupyterHub, ``z2jh-values.yaml`` beside this file.
"""
import os
import pathlib
import shutil
import sys

HERE = pathlib.Path(__file__).resolve().parent
COURSE_FOLDER = os.environ.get("COURSE_FOLDER", "course")
STATE = pathlib.Path(os.environ.get("COURSE_HUB_STATE", "/srv/jupyterhub"))
STATE.mkdir(parents=True, exist_ok=True)

c = get_config()  # noqa: F821  (JupyterHub runs this file with get_config defined)

# ---------------------------------------------------------------- the hub
c.JupyterHub.bind_url = os.environ.get("COURSE_HUB_URL", "http://:8000")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")
proxy = os.environ.get("COURSE_HUB_PROXY") or shutil.which("configurable-http-proxy")
if proxy:
    c.ConfigurableHTTPProxy.command = [proxy]

# ---------------------------------------------------------------- who logs in
students_file = pathlib.Path(os.environ.get("COURSE_HUB_STUDENTS", STATE / "students.txt"))
students = set()
if students_file.exists():
    students = {line.strip() for line in students_file.read_text().splitlines()
                if line.strip() and not line.startswith("#")}
admins = {name.strip() for name in os.environ.get("COURSE_HUB_ADMINS", "").split(",") if name.strip()}
c.Authenticator.allowed_users = students
c.Authenticator.admin_users = admins
if os.environ.get("COURSE_HUB_PASSWORD"):
    # One password for the whole class (JupyterHub 5+; DummyAuthenticator.password is deprecated for this).
    # Anyone with it can log in as any allowed student: for a trial or a workshop, not for grades that count.
    c.JupyterHub.authenticator_class = "shared-password"
    c.SharedPasswordAuthenticator.user_password = os.environ["COURSE_HUB_PASSWORD"]
else:
    c.JupyterHub.authenticator_class = "pam"          # each student's own password on this machine

# ---------------------------------------------------------------- each student's server
c.JupyterHub.spawner_class = "localprocess"
# The single-user server of the hub's own environment: the course (mini_autograd, buildtrack, coursetools),
# JupyterLab and nbgitpuller are installed there.
c.Spawner.cmd = [str(pathlib.Path(sys.executable).parent / "jupyterhub-singleuser")]
c.Spawner.notebook_dir = "~"
c.Spawner.default_url = "/lab"
# JupyterLab without news or update pop-ups (the settings `make lab` writes), and a file browser that lists
# the chapters and the student's myautograd/, not the course's machinery (the Makefile's LAB_HIDDEN; hidden
# from the listings only: the kernels import them, and a path still opens them).
HIDDEN = ["__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*.so", "*.dylib", "*~",       # jupyter_server's own
          "buildtrack", "src", "exercises", "coursetools.py", "*.egg-info"]
c.Spawner.args = [f"--LabApp.app_settings_dir={HERE / 'lab-settings'}"] + [
    f"--ContentsManager.hide_globs={glob}" for glob in HIDDEN]
# A server that fails to start says so within this time, not after the default 30 s + 60 s.
c.Spawner.http_timeout = 30
c.Spawner.start_timeout = 60


def home_of(spawner):
    """The student's home: the spawner's (SimpleLocalProcessSpawner, in tests) or the system user's."""
    home = getattr(spawner, "home_dir", None)
    if home:
        return home
    import pwd
    return pwd.getpwnam(spawner.user.name).pw_dir


def course_notebooks(spawner):
    """``~/course/notebooks``, first on the kernels' path: the check cells then check this student's own
    ``myautograd`` from either edition. A kernel started in ``notebooks/`` finds ``buildtrack`` there
    anyway, but one started in ``notebooks/zh/`` would otherwise import the ``buildtrack`` installed in the
    hub's environment, whose ``myautograd`` is the teacher's."""
    return str(pathlib.Path(home_of(spawner)) / COURSE_FOLDER / "notebooks")


c.Spawner.environment = {
    "PYTHONPATH": course_notebooks,
    # Many kernels share the machine's cores: one BLAS thread each (numpy's matrix products).
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}

# ---------------------------------------------------------------- the teacher's collector
if os.environ.get("COURSE_HUB_COLLECTOR_TOKEN"):
    c.JupyterHub.services = [{"name": "collector", "api_token": os.environ["COURSE_HUB_COLLECTOR_TOKEN"]}]
    c.JupyterHub.load_roles = [{
        "name": "collector",
        "description": "tools/collect.py --hub: list the students, start their servers, read their files",
        "scopes": ["list:users", "read:users", "read:servers", "servers", "access:servers"],
        "services": ["collector"],
    }]
