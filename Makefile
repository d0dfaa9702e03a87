# Every target that needs the environment depends on `install`, which is a
# no-op when .venv is up to date and the Go helper is already built.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
ARGS   ?=

.PHONY: install helper revision test lint check golden bench wheels fuzz mutants clean

install: $(STAMP) helper revision

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# The commit checked out now, in wendy_llm/VERSION (an editable install's
# metadata keeps the one it was installed at): `wendy-llm --version`.
revision: $(STAMP)
	$(PY) tools/wendy_backend.py

# Builds (or finds in the cache) the Go helper, so the first render is warm.
helper: $(STAMP)
	$(PY) -m wendy_llm.engine.toolchain

lint: install
	$(VENV)/bin/ruff check wendy_llm tests bench examples tools
	$(VENV)/bin/ruff format --check wendy_llm tests bench examples tools
	$(VENV)/bin/mypy
	$(PY) -m wendy_llm.engine.toolchain vet

test: lint
	$(VENV)/bin/pytest $(ARGS)

check: install
	$(VENV)/bin/wendy-llm check $(ARGS)

golden: install
	$(VENV)/bin/wendy-llm golden --update $(ARGS)

bench: install
	$(PY) bench/run.py $(ARGS)

# The sdist, the pure wheel and one wheel per platform with the Go helper
# inside (cross-compiled here), into dist/: tools/platform_wheels.py.
wheels: install
	$(PY) tools/platform_wheels.py --out dist $(ARGS)

# Random templates, data and manifests through the library (not in CI: minutes).
fuzz: install
	$(PY) bench/fuzz.py $(ARGS)

mutants: install
	PYTHONPATH=tests $(PY) -m harness.mutants $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis dist wendy_llm/VERSION
