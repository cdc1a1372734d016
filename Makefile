# triqua — developer targets. Everything installs into .venv; nothing needs an API key.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PORT   ?= 2025

# What each install put in .venv: triqua alone (the demo), or with its dev tools (the rest).
CORE   := $(VENV)/.installed-core
DEV    := $(VENV)/.installed-dev

.PHONY: install test test-fast lint typecheck ci demo bench studio model clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(CORE): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	@touch $@

$(DEV): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $@ $(CORE)

install: $(DEV)  ## create .venv and install triqua with its dev tools

test: install  ## run the whole test suite (offline, no keys); what CI runs
	$(BIN)/pytest

test-fast: install  ## the suite without the tests marked slow (servers, subprocesses, long runs)
	$(BIN)/pytest -m "not slow" -p no:cacheprovider

lint: install  ## ruff, and the layer contracts of docs/architecture.md (import-linter)
	$(BIN)/ruff check src tests benchmarks training
	$(BIN)/ruff format --check src tests benchmarks training
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy

ci: test lint typecheck  ## what CI runs

demo: $(CORE)  ## check the shipped example against the demo corpus, offline (core install only)
	$(BIN)/triqua demo

bench: install  ## print the benchmark figures
	$(BIN)/python benchmarks/run_all.py

model:  ## rebuild the shipped entailment judge (PyTorch in .venv-train; ~75 min on 2 cores; NLI_STAGE=1: ~2 h)
	training/build.sh
	$(BIN)/python benchmarks/grounding_rule.py --judged-only --write-card  # its grounding threshold

studio: install  ## LangGraph Studio API (langgraph dev) on $(PORT); offline engine unless MODEL=provider:model (CALLER_SETTINGS=verify_model,...: settings Studio may change)
	test -x $(BIN)/langgraph || $(BIN)/pip install --quiet 'langgraph-cli[inmem]'
	TRIQUA_MODEL='$(MODEL)' TRIQUA_INGEST_ROOTS="$${TRIQUA_INGEST_ROOTS:-$(CURDIR)/studio/corpus}" \
		TRIQUA_CALLER_SETTINGS="$${TRIQUA_CALLER_SETTINGS:-$(CALLER_SETTINGS)}" \
		$(BIN)/langgraph dev --no-browser --port $(PORT)

clean:
	rm -rf $(VENV) .venv-train .pytest_cache .mypy_cache .ruff_cache
