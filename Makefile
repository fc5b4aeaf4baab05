# Two entry points for a fresh machine: `make demo` and `make test`. Both install what is missing.
SHELL := /bin/bash
VENV := $(CURDIR)/.venv
export PATH := $(VENV)/bin:$(PATH)
PYTEST_ARGS ?=

N ?= 50

.PHONY: deps demo lint test test-slow bench bench-quick bench-link bench-fat fuzz clean

deps:
	@bash scripts/install-deps.sh

demo: deps
	@bash samples/demo.sh

# ruff (rules in pyproject.toml) and mypy (strict on gradlink/ir, analysis, ad): zero findings
lint: deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

test: deps lint
	$(VENV)/bin/python -m pytest -n 2 $(PYTEST_ARGS)

test-slow: deps
	$(VENV)/bin/python -m pytest -m slow $(PYTEST_ARGS)

bench-quick: deps
	$(VENV)/bin/python benchmarks/adbench_run.py --quick

bench: deps
	$(VENV)/bin/pip install -q --disable-pip-version-check -e '.[bench]'
	$(VENV)/bin/python benchmarks/adbench_run.py
	$(VENV)/bin/python benchmarks/ad_speed.py

fuzz: deps
	$(VENV)/bin/python scripts/fuzz.py -n $(N)

bench-link: deps
	$(VENV)/bin/python benchmarks/link_time.py

bench-fat: deps
	$(VENV)/bin/python benchmarks/fat_link.py

clean:
	rm -rf build samples/*/out .pytest_cache
