"""Collect a class's build tracks into a SUBMISSIONS folder for ``python -m buildtrack grade`` (make grade).

Each student's copy of the course (``~/course``, made by the nbgitpuller link of ``tools/student_release.py``)
holds their package in ``course/notebooks/myautograd/``, or in ``course/notebooks/zh/myautograd/`` for the
Chinese edition (the same stubs, their docstrings in Chinese): the one saved last is the student's work, the
other one is as handed out. This copies its ``.py`` files, and nothing else,
into ``OUT/STUDENT/myautograd/``, one folder per student, and writes ``OUT/collected.csv`` (which the grader
ignores: it takes folders and .zip files only).

From the home folders, on the hub's own machine (JupyterHub with local processes; run it as root, or as a
user who can read the homes):

    python tools/collect.py --homes /home --out submissions [--students class.txt]

Through the hub's REST API, from anywhere (Zero to JupyterHub on Kubernetes, where the homes are volumes of
the students' pods), with the token of a service allowed to reach the students' servers
(``deploy/jupyterhub/jupyterhub_config.py``: ``COURSE_HUB_COLLECTOR_TOKEN``):

    JUPYTERHUB_API_TOKEN=... python tools/collect.py --hub https://hub.example.org --out submissions [--start]

Over the API only running servers can be read: ``--start`` starts the others and stops them again after.

``--students FILE`` (one name a line): collect only them, and give each one who has no package an empty
folder, so that the grades list them too (with 0).
"""
import argparse
import csv
import datetime
import json
import os
import pathlib
import shutil
import stat
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

PACKAGE = "myautograd"
TARGET = "course"
FILE_LIMIT = 1_000_000                  # bytes: a file larger than this is not a piece of autograd


EDITIONS = ("", "zh")                    # the folders of notebooks/ that hold an edition's package


def package_path(target=TARGET, edition=""):
    return pathlib.PurePosixPath(target) / "notebooks" / edition / PACKAGE


def _saved_last(found):
    """Of ``{path: (files, newest, problems)}``, one per edition, the ``(path, (files, newest, problems))``
    of the package saved last (the English one when neither has files)."""
    with_files = [(path, item) for path, item in found.items() if item[0]]
    if not with_files:
        return next(iter(found.items()))
    return max(with_files, key=lambda pair: pair[1][1] or 0)


# ------------------------------------------------------------------ from the homes
def _inside(path, home):
    """True when ``path`` (a file) resolves to a place inside ``home``: a student's link elsewhere (to another
    student's file, to the system's) is not their work."""
    try:
        return os.path.commonpath([os.path.realpath(path), os.path.realpath(home)]) == os.path.realpath(home)
    except ValueError:
        return False


def from_home(home, target=TARGET, edition=None):
    """``({file name: bytes}, newest modification time or None, problems)`` of the package in one home: the
    edition's (``""`` English, ``"zh"``), or by default the one saved last (``from_home_saved_last``)."""
    if edition is None:
        return from_home_saved_last(home, target)[1]
    folder = pathlib.Path(home) / package_path(target, edition)
    files, newest, problems = {}, None, []
    if not folder.is_dir():
        return files, newest, [f"no {package_path(target, edition)}/"]
    for path in sorted(folder.iterdir()):
        if path.suffix != ".py":
            continue
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or not _inside(path, home):
            problems.append(f"{path.name}: not a file of this home, skipped")
            continue
        if info.st_size > FILE_LIMIT:
            problems.append(f"{path.name}: larger than {FILE_LIMIT} bytes, skipped")
            continue
        files[path.name] = path.read_bytes()
        newest = max(newest or 0, info.st_mtime)
    return files, newest, problems


def from_home_saved_last(home, target=TARGET):
    """``(path, (files, newest, problems))`` of the package saved last in one home, of either edition."""
    return _saved_last({pathlib.Path(home) / package_path(target, edition): from_home(home, target, edition)
                        for edition in EDITIONS})


def homes_of(homes):
    """``{student: home}``: each folder of ``homes`` (not hidden)."""
    return {path.name: path for path in sorted(pathlib.Path(homes).iterdir())
            if path.is_dir() and not path.name.startswith(".")}


# ------------------------------------------------------------------ through the hub's API
class Hub:
    """The few calls of JupyterHub's REST API the collection needs, with a token."""

    def __init__(self, url, token):
        self.url, self.token = url.rstrip("/"), token

    def call(self, method, path, timeout=30):
        request = urllib.request.Request(self.url + path, method=method,
                                         data=b"" if method in ("POST", "PUT") else None,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body else None

    def users(self):
        return {user["name"]: user for user in self.call("GET", "/hub/api/users")}

    def server(self, name):
        """The user's default server, when it is ready: its URL path (``/user/NAME/``), else None."""
        server = self.call("GET", f"/hub/api/users/{urllib.parse.quote(name)}").get("servers", {}).get("")
        return server["url"] if server and server.get("ready") else None

    def start(self, name, timeout=120):
        try:
            self.call("POST", f"/hub/api/users/{urllib.parse.quote(name)}/server")
        except urllib.error.HTTPError as error:
            if error.code != 400:                          # 400: already running
                raise
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            url = self.server(name)
            if url:
                return url
            time.sleep(1)
        raise TimeoutError(f"{name}'s server did not start within {timeout} s")

    def stop(self, name):
        self.call("DELETE", f"/hub/api/users/{urllib.parse.quote(name)}/server")

    def package(self, server_url, target=TARGET, edition=None):
        """``({file name: bytes}, newest modification time or None, problems)`` read through the server's
        contents API: of the edition's package, or by default of the one saved last."""
        if edition is None:
            return self.package_saved_last(server_url, target)[1]
        base = f"{server_url.rstrip('/')}/api/contents/{package_path(target, edition)}"
        try:
            listing = self.call("GET", base + "?content=1")
        except urllib.error.HTTPError as error:
            if error.code == 404:
                return {}, None, [f"no {package_path(target, edition)}/"]
            raise
        files, newest, problems = {}, None, []
        for entry in sorted(listing.get("content") or [], key=lambda e: e["name"]):
            if entry["type"] == "directory" or not entry["name"].endswith(".py"):
                continue                        # (a .py file lists as a notebook when jupytext is installed)
            if (entry.get("size") or 0) > FILE_LIMIT:
                problems.append(f"{entry['name']}: larger than {FILE_LIMIT} bytes, skipped")
                continue
            name = urllib.parse.quote(entry["name"])
            model = self.call("GET", f"{base}/{name}?content=1&type=file&format=text")
            files[entry["name"]] = model["content"].encode("utf-8")
            changed = datetime.datetime.fromisoformat(model["last_modified"].replace("Z", "+00:00"))
            newest = max(newest or 0, changed.timestamp())
        return files, newest, problems

    def package_saved_last(self, server_url, target=TARGET):
        """``(path, (files, newest, problems))`` of the package saved last, of either edition."""
        return _saved_last({package_path(target, edition): self.package(server_url, target, edition)
                            for edition in EDITIONS})


# ------------------------------------------------------------------ the SUBMISSIONS folder
def write(out, collected):
    """``collected``: ``{student: (files, newest, problems, source)}`` -> ``OUT/STUDENT/myautograd/*.py`` and
    ``OUT/collected.csv``."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "collected.csv", "w", newline="") as table:
        writer = csv.writer(table)
        writer.writerow(["student", "files", "last_changed_utc", "source", "problems"])
        for student, (files, newest, problems, source) in sorted(collected.items()):
            folder = out / student
            if folder.exists():
                shutil.rmtree(folder)                       # a collection made again replaces the last
            folder.mkdir()
            if files:
                package = folder / PACKAGE
                package.mkdir()
                for name, data in files.items():
                    (package / name).write_bytes(data)
            when = ""
            if newest:
                when = datetime.datetime.fromtimestamp(newest, datetime.timezone.utc)
                when = when.isoformat(timespec="seconds")
            writer.writerow([student, len(files), when, source, "; ".join(problems)])


def collect(out, homes=None, hub=None, students=None, target=TARGET, start=False, report=print):
    """Collect into ``out``; returns ``{student: number of files}``."""
    collected = {}
    if homes is not None:
        found = homes_of(homes)
        for student in students if students is not None else found:
            if student in found:
                path, (files, newest, problems) = from_home_saved_last(found[student], target)
                collected[student] = (files, newest, problems, str(path))
            else:
                collected[student] = ({}, None, ["no home folder"], "")
    else:
        users = hub.users()
        started = []
        try:
            for student in students if students is not None else sorted(users):
                if student not in users:
                    collected[student] = ({}, None, ["not a user of the hub"], "")
                    continue
                url = hub.server(student)
                if url is None and start:
                    url = hub.start(student)
                    started.append(student)
                if url is None:
                    collected[student] = ({}, None, ["server not running (--start starts it)"], "")
                    continue
                path, (files, newest, problems) = hub.package_saved_last(url, target)
                collected[student] = (files, newest, problems, f"{hub.url}{url}{path}")
        finally:
            for student in started:
                hub.stop(student)
    write(out, collected)
    for student, (files, _newest, problems, _source) in sorted(collected.items()):
        report(f"{student}: {len(files)} files" + (f" ({'; '.join(problems)})" if problems else ""))
    return {student: len(item[0]) for student, item in collected.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--homes", help="the folder of the students' homes (/home)")
    source.add_argument("--hub", help="the hub's URL; the token is JUPYTERHUB_API_TOKEN")
    parser.add_argument("--out", required=True, help="the SUBMISSIONS folder for make grade")
    parser.add_argument("--students", help="a file with one student's name a line: only them")
    parser.add_argument("--targetpath", default=TARGET, help="the course's folder in each home (course)")
    parser.add_argument("--start", action="store_true", help="--hub: start the servers that are not running")
    args = parser.parse_args(argv)
    students = None
    if args.students:
        students = [line.strip() for line in pathlib.Path(args.students).read_text().splitlines()
                    if line.strip() and not line.startswith("#")]
    hub = None
    if args.hub:
        token = os.environ.get("JUPYTERHUB_API_TOKEN")
        if not token:
            print("collect: set JUPYTERHUB_API_TOKEN to the collector's token", file=sys.stderr)
            return 1
        hub = Hub(args.hub, token)
    counts = collect(args.out, homes=args.homes, hub=hub, students=students, target=args.targetpath,
                     start=args.start)
    print(f"{len(counts)} students, {sum(1 for n in counts.values() if n)} with a package, in {args.out} "
          f"(make grade SUBMISSIONS={args.out} OUT=grades)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
