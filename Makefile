# triqua — developer targets. Everything installs into .venv; nothing needs an API key.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PORT   ?= 2025

.PHONY: install test lint typecheck ci demo bench studio model clean

$(BIN)/triqua: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $@

install: $(BIN)/triqua  ## create .venv and install triqua with its dev tools

test: install  ## run the test suite (offline, no keys)
	$(BIN)/pytest

lint: install  ## ruff, and the layer contracts of docs/architecture.md (import-linter)
	$(BIN)/ruff check src tests benchmarks training
	$(BIN)/ruff format --check src tests benchmarks training
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy

ci: test lint typecheck  ## what CI runs

demo: install  ## check the shipped example against the demo corpus, offline
	$(BIN)/triqua demo

bench: install  ## print the benchmark figures
	$(BIN)/python benchmarks/run_all.py

model:  ## rebuild the shipped entailment judge (PyTorch in .venv-train; ~75 min on 2 cores; NLI_STAGE=1: ~2 h)
	training/build.sh
	$(BIN)/python benchmarks/grounding_rule.py --judged-only --write-card  # its grounding threshold

studio: install  ## LangGraph Studio API (langgraph dev) on $(PORT); offline engine unless MODEL=provider:model
	test -x $(BIN)/langgraph || $(BIN)/pip install --quiet 'langgraph-cli[inmem]'
	TRIQUA_MODEL='$(MODEL)' $(BIN)/langgraph dev --no-browser --port $(PORT)

clean:
	rm -rf $(VENV) .venv-train .pytest_cache .mypy_cache .ruff_cache
