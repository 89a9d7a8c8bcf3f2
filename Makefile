# make lab       open the course in JupyterLab
# make lab LANG=zh   the Chinese edition (中文版, notebooks/zh/); a zh_* locale opens it too
# make test      ruff (the linter), then unit tests + every notebook under strict nbval
# make progress  the build track: one row per step of your myautograd
#                (make progress ANSWERS=1: the same table for the answer key;
#                 make progress LANG=zh, or a zh_* locale: in Chinese, 中文)
# make grade SUBMISSIONS=dir OUT=dir   a class's build tracks graded (grades.csv, feedback pages)
# make student-release OUT=dir   the course for a class, as a git repository for nbgitpuller
# make collect HOMES=/home OUT=dir   the students' myautograd/ gathered for make grade
# make hub-test  JupyterHub on localhost: two students in Chromium, collected and graded (tests/hub/)
# make site      the course website, from the stored notebooks, into _site/_build/html
# make clean     remove .venv, caches and the website
# lab and progress create .venv on first use with what the course needs
# (pip install -e '.[course]'); test adds the test extra on top
# (pip install -e '.[course,test,site]': pytest, nbval, playwright, ...; site, for the
# browser test of the website); site installs the site extra only (Jupyter Book).
# Their set-up errors (no Graphviz `dot`, a Python older than 3.10) are in Chinese for LANG=zh or a
# Chinese locale, as make progress is.

PYTHON ?= python3
VENV := .venv
VENV_PY := $(VENV)/bin/python
# One stamp per install: lab/progress need only the course extra; test needs
# the test extra too (playwright alone is about 165 MB, for tests/browser only).
COURSE_STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
SITE_STAMP := $(VENV)/.installed-site
PYTEST_ARGS ?=
# Notebooks in parallel, one whole notebook per worker (--dist loadfile keeps
# a notebook's cells on one kernel). Serial run: make test XDIST=
XDIST ?= -n 2 --dist loadfile
# Only the folders that exist: pytest fails on a missing path.
TEST_PATHS := $(wildcard tests notebooks)
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings

.PHONY: venv venv-test venv-site check-dot test lab progress grade site clean

# The language of the set-up messages below (no Python yet, so no gettext): Chinese for `make ... LANG=zh`,
# else for a Chinese locale, read as gettext reads it (the first one set of LANGUAGE, LC_ALL, LC_MESSAGES,
# LANG; LANG=zh_CN.UTF-8, LANGUAGE=zh_CN:en), else English.
ifeq ($(origin LANG),command line)
MESSAGES_LOCALE := $(LANG)
else
MESSAGES_LOCALE := $(firstword $(subst :, ,$(LANGUAGE)) $(LC_ALL) $(LC_MESSAGES) $(LANG))
endif
ifneq ($(filter zh%,$(MESSAGES_LOCALE)),)
OLD_PYTHON = "需要 Python 3.10 或更新的版本；'$(PYTHON)' 是 $$($(PYTHON) -V 2>&1)。" \
  "换一个 Python 再运行，例如：make PYTHON=python3.11 $(MAKECMDGOALS)"
NO_DOT = "在 PATH 中找不到 graphviz 的 'dot' 程序。" \
  "课程用它画 autograd 的计算图。请安装 graphviz：" \
  "  conda:          conda install -c conda-forge graphviz python-graphviz" \
  "                  （或者使用 environment.yml，它已经包含 graphviz）" \
  "  Debian/Ubuntu:  sudo apt-get install graphviz" \
  "  macOS:          brew install graphviz" \
  "然后重新运行 make。"
else
OLD_PYTHON = "Python 3.10 or newer is needed; '$(PYTHON)' is $$($(PYTHON) -V 2>&1)." \
  "Run e.g.: make PYTHON=python3.11 $(MAKECMDGOALS)"
NO_DOT = "The graphviz program 'dot' was not found on PATH." \
  "The course draws autograd graphs with it. Install graphviz:" \
  "  conda:          conda install -c conda-forge graphviz python-graphviz" \
  "                  (or use environment.yml, which includes it)" \
  "  Debian/Ubuntu:  sudo apt-get install graphviz" \
  "  macOS:          brew install graphviz" \
  "then run make again."
endif

venv: $(COURSE_STAMP)
venv-test: $(TEST_STAMP)
venv-site: $(SITE_STAMP)

$(VENV_PY):
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' || { \
	  printf '%s\n' $(OLD_PYTHON) >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

# Re-install only when pyproject.toml changed since the last install, or once
# mini_autograd/__init__.py exists if the install was made before it did
# (an editable install maps only the packages it found at install time).
# The stamps follow this rule each on its own: `make lab` then `make test`
# installs the test extra on top of the course install; `make test` first
# installs all three extras in one pip run and so renews all three stamps.
HAS_INIT := $(if $(wildcard mini_autograd/__init__.py),$(VENV)/.has-init)

$(COURSE_STAMP): pyproject.toml $(HAS_INIT) | $(VENV_PY)
	$(VENV_PY) -m pip install -e '.[course]'
	@touch $@

$(TEST_STAMP): pyproject.toml $(HAS_INIT) | $(VENV_PY)
	$(VENV_PY) -m pip install -e '.[course,test,site]'
	@# The commit-message rule (tools/commit_msg.py), for contributors working in a git checkout.
	@if git rev-parse --git-dir >/dev/null 2>&1; then git config core.hooksPath .githooks; fi
	@touch $(COURSE_STAMP) $(SITE_STAMP) $@

$(SITE_STAMP): pyproject.toml $(HAS_INIT) | $(VENV_PY)
	$(VENV_PY) -m pip install -e '.[site]'
	@touch $@

$(VENV)/.has-init: | $(VENV_PY)
	@touch $@

# Checked before the venv is made: without `dot`, stop at once with the fix (in the language above).
check-dot:
	@command -v dot >/dev/null 2>&1 || { printf '%s\n' $(NO_DOT) >&2; exit 1; }

# The linter first (configured in pyproject.toml): any problem it finds fails the target.
# One BLAS thread per process: two pytest workers share the two cores, and
# oversubscribed BLAS threads made notebook timings swing by 100x under load.
test: check-dot venv-test
	$(VENV_PY) -m ruff check .
	OPENBLAS_NUM_THREADS=$${OPENBLAS_NUM_THREADS:-1} \
	$(VENV_PY) -m pytest $(TEST_PATHS) --nbval --nbval-current-env \
	  $(XDIST) -p no:cacheprovider $(PYTEST_ARGS)

# The course opens in a JupyterLab workspace of its own ("mini-autograd"), so
# tabs an earlier plain `jupyter lab` session left open (JupyterLab's "default"
# workspace) are not restored beside chapter 00. Extra jupyter lab options: make lab LAB_ARGS='--port=9999'
# (tests/browser/test_lab_first_run.py starts the course this way).
LAB_ARGS ?=
# The edition chapter 00 opens in: Chinese for LANG=zh or a Chinese locale (LANG=zh_CN.UTF-8), else English.
EDITION ?= $(if $(filter zh%,$(LANG)),zh,en)
WELCOME := $(if $(filter zh,$(EDITION)),zh/00_welcome.ipynb,00_welcome.ipynb)
# LANG=zh alone names no locale: JupyterLab runs under C.UTF-8 then.
LAB_LOCALE := $(if $(filter zh,$(LANG)),LANG=C.UTF-8 )
# The file browser lists the chapters, zh/ and the learner's myautograd/, not the course's machinery
# (jupyter_server's ContentsManager.hide_globs, by name in any folder; the first seven are its defaults).
# Hidden from the listings only: the kernels import them, and a link or a path still opens them.
LAB_HIDDEN := __pycache__ *.pyc *.pyo .DS_Store *.so *.dylib *~ buildtrack src exercises coursetools.py *.egg-info
LAB_HIDE := $(foreach glob,$(LAB_HIDDEN),'--ContentsManager.hide_globs=$(glob)')
lab: check-dot venv
	@mkdir -p $(LAB_SETTINGS) notebooks
	@# No news or update pop-ups (schema: apputils-extension/notification.json).
	@printf '%s\n' '{"@jupyterlab/apputils-extension:notification": {"checkForUpdates": false, "fetchNews": "false"}}' \
	  > $(LAB_SETTINGS)/overrides.json
	@set -- --notebook-dir=notebooks; \
	if [ "$$(id -u)" = 0 ]; then set -- "$$@" --allow-root; fi; \
	url=/lab/workspaces/mini-autograd; \
	if [ -f notebooks/$(WELCOME) ]; then url=$$url/tree/$(WELCOME); \
	elif [ -f notebooks/00_welcome.ipynb ]; then url=$$url/tree/00_welcome.ipynb; fi; \
	$(LAB_LOCALE)exec $(VENV)/bin/jupyter lab "$$@" --LabApp.default_url=$$url $(LAB_HIDE) $(LAB_ARGS)

# The build track's progress table (notebooks/buildtrack/), run from notebooks/
# like the chapters' check cells. Needs only the course install. In Chinese for the
# Chinese edition (EDITION, from LANG as for lab): BUILDTRACK_LANG=zh (buildtrack/i18n.py).
ANSWERS ?=
progress: venv
	cd notebooks && $(LAB_LOCALE)$(if $(filter zh,$(EDITION)),BUILDTRACK_LANG=zh )../$(VENV_PY) -m buildtrack $(if $(ANSWERS),--answers)

# A class's grades (notebooks/buildtrack/grading.py): one folder or .zip per student in
# SUBMISSIONS; grades.csv, a .json and a feedback page per student in OUT.
# GRADE_ARGS: e.g. --lang zh --jobs 8 --seed 1234
SUBMISSIONS ?=
OUT ?= grades
GRADE_ARGS ?=
grade: venv
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=folder OUT=folder" >&2; exit 1; }
	cd notebooks && ../$(VENV_PY) -m buildtrack grade "$(abspath $(SUBMISSIONS))" --out "$(abspath $(OUT))" $(GRADE_ARGS)

# ---- The course on JupyterHub for a class (deploy/jupyterhub/README.md) ----
# The student release (tools/student_release.py): the chapters of both editions and the stubs, without answers/,
# as a git repository in OUT for nbgitpuller; made again into the same OUT, a new commit. EXERCISE_SOLUTIONS=0
# leaves the exercises' "Show solution" boxes out. ANSWER_KEY_LINK: where the hub keeps the answer key, which
# the check cells read (default: this checkout's answers/; ANSWER_KEY_LINK= for no link).
EXERCISE_SOLUTIONS ?= 1
ANSWER_KEY_LINK ?= $(abspath answers)
student-release:
	@test "$(origin OUT)" != file || { echo "usage: make student-release OUT=folder [EXERCISE_SOLUTIONS=0]" >&2; exit 1; }
	$(PYTHON) tools/student_release.py --out "$(OUT)" $(if $(filter 0,$(EXERCISE_SOLUTIONS)),--no-solutions) \
	  $(if $(ANSWER_KEY_LINK),--answer-key-link "$(ANSWER_KEY_LINK)",--no-answer-key-link)

# Each student's course/notebooks/myautograd/*.py into OUT/STUDENT/myautograd/ for make grade (tools/collect.py):
# from the homes on this machine (HOMES=/home, as root), or through the hub's API (HUB=https://..., with the
# collector's token in JUPYTERHUB_API_TOKEN). STUDENTS=file: only those names, each listed even without a package.
HOMES ?=
HUB ?=
STUDENTS ?=
collect:
	@test "$(origin OUT)" != file -a -n "$(HOMES)$(HUB)" || { \
	  echo "usage: make collect HOMES=/home OUT=submissions  (or HUB=https://hub.example.org OUT=...)" >&2; exit 1; }
	$(PYTHON) tools/collect.py $(if $(HOMES),--homes "$(HOMES)",--hub "$(HUB)") --out "$(OUT)" \
	  $(if $(STUDENTS),--students "$(STUDENTS)")

# The hub test (tests/hub/test_hub.py, skipped by make test): JupyterHub (the hub extra) with npm's
# configurable-http-proxy, installed into .ci/.tools/hub, and Debian's chromium, as the browser tests use it.
HUB_STAMP := $(VENV)/.installed-hub
HUB_TOOLS := .ci/.tools/hub
HUB_PROXY_VERSION := 5.3.0
HUB_PROXY_STAMP := $(HUB_TOOLS)/.installed-$(HUB_PROXY_VERSION)
.PHONY: student-release collect hub-test venv-hub hub-proxy
venv-hub: $(HUB_STAMP)
$(HUB_STAMP): pyproject.toml $(HAS_INIT) | $(VENV_PY)
	$(VENV_PY) -m pip install -e '.[hub]'
	@touch $@
hub-proxy: $(HUB_PROXY_STAMP)
$(HUB_PROXY_STAMP):
	@command -v npm >/dev/null 2>&1 || { echo "make hub-test needs npm (Debian: sudo apt-get install npm)" >&2; exit 1; }
	npm install --no-save --no-audit --no-fund --prefix $(HUB_TOOLS) configurable-http-proxy@$(HUB_PROXY_VERSION)
	@touch $@
hub-test: check-dot venv-test venv-hub hub-proxy
	HUB_TEST=1 OPENBLAS_NUM_THREADS=$${OPENBLAS_NUM_THREADS:-1} \
	$(VENV_PY) -m pytest tests/hub -p no:cacheprovider $(PYTEST_ARGS)

# The course website (book/build.py): Jupyter Book renders the notebooks as stored, with
# their tested outputs, without running them. Output: $(SITE_OUT)/_build/html.
# SITE_REPOSITORY=owner/name (else a GitHub `origin` remote) gives the pages a Binder button.
SITE_OUT ?= _site
site: venv-site
	$(VENV_PY) book/build.py --out $(SITE_OUT)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-artifacts build dist *.egg-info _site
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name .ipynb_checkpoints -type d -prune -exec rm -rf {} +
