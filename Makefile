# Psi Parlour: `make serve` to play, `make test` to check everything. See README.md.
PYTHON ?= python3
PORT ?= 8000
VENV := .venv
VPY := $(VENV)/bin/python

.PHONY: serve test lint unit e2e bench runtime venv clean

## serve: install the pinned runtime if missing, build, and serve on http://127.0.0.1:$(PORT)/
serve: runtime
	$(PYTHON) -m scripts.serve --port $(PORT)

## test: ruff, mypy, the unit tests (tests/, on both cores) and the browser tests (e2e/: two
## files at a time, then the tests that bound a time the page takes, one at a time, each page
## with the machine to itself as a visitor's would be)
test: venv runtime
	$(VPY) -m ruff check .
	$(VPY) -m mypy
	$(VPY) -m pytest -n 2 tests
	$(MAKE) e2e

## unit: everything pure under CPython, and the main thread's modules under MicroPython (the
## npm runtime is installed first: tests/shell runs the real MicroPython under Node)
unit: venv runtime
	$(VPY) -m pytest -n 2 tests

e2e: venv runtime
	scripts/nat-tools.sh
	CHROMIUM="$$(scripts/find-chromium.sh $(VPY))" $(VPY) -m pytest -n 2 --dist loadfile --durations=15 -m "not timing" e2e
	CHROMIUM="$$(scripts/find-chromium.sh $(VPY))" $(VPY) -m pytest -m timing e2e

lint: venv
	$(VPY) -m ruff check .
	$(VPY) -m ruff format --check .
	$(VPY) -m mypy

## bench: start-up and engine figures, each against a baseline measured in the same run;
## online moves are also compared with BASELINE (earlier code, served from a git worktree)
BASELINE ?= abc5c49
bench: venv runtime
	CHROMIUM="$$(scripts/find-chromium.sh $(VPY))" PYTHONPATH=py $(VPY) -m bench --baseline $(BASELINE)

runtime: node_modules/.package-lock.json
	$(PYTHON) -m scripts.build

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

venv: $(VENV)/.installed

$(VENV)/.installed: requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@touch $@

clean:
	rm -rf assets/vendor assets/build node_modules $(VENV) .pytest_cache .ruff_cache
