VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml exemples/deuxdes/pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	$(PY) -m pip install --quiet -e exemples/deuxdes
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m jdr.web.demo

test: $(STAMP)
	bash scripts/services.sh
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy src
	$(VENV)/bin/pytest

bench: $(STAMP)
	$(PY) benchmarks/bench_dice.py
	$(PY) benchmarks/bench_odds.py
	$(PY) benchmarks/bench_startup.py
	$(PY) benchmarks/bench_live.py

clean:
	rm -rf $(VENV)
