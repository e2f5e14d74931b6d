VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed
# Python keeps its compiled modules (__pycache__, ignored by git): without them every process of
# the suite (two workers, servers, the CLI run as a subprocess) compiles its imports again, about
# twice the CPU of an import.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml exemples/deuxdes/pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet 'uv>=0.4'
	@# compiled now, once, in parallel: else every process of the suite (two workers, the servers,
	@# the CLI run as a subprocess) compiles the same modules again on its first import
	$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PY) -e '.[dev]' -e exemples/deuxdes
	$(PY) -m compileall -q src exemples/deuxdes
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m jdr.web.demo --port $(PORT)

test: $(STAMP)
	bash scripts/services.sh
	$(VENV)/bin/ruff check src tests benchmarks
	@# mypy beside the suite (two pytest workers, tests/conftest.py), at the lowest priority: it
	@# fills the time the workers leave idle (waiting on servers and browsers) and never slows them
	nice -n 19 $(VENV)/bin/mypy src & typing=$$!; \
	$(VENV)/bin/pytest -n 2 --dist worksteal --durations=20; tests=$$?; \
	wait $$typing && exit $$tests

bench: $(STAMP)
	JDR_NEED_BROWSER=0 bash scripts/services.sh
	@# every benchmark, each bounded in time, then every goal of issue 18 with its figure
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV)
