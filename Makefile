# Everything a fresh machine needs: python3 and make. The venv is (re)built when
# pyproject.toml changes, so `make test` and `make play` are the only commands to know.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: test play lint typecheck bench clean tools

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed

# The client's end-to-end tests drive a real terminal; CI runs as root on Debian.
tools:
	@command -v tmux >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then (apt-get update -qq && apt-get install -y -qq tmux) >/dev/null; \
	  else echo "tmux missing and not root: the tmux tests will be skipped"; fi; }

lint: $(VENV)/.installed-test
	$(BIN)/ruff check poker server client protocol tools tests bench

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

# Two workers: the suite is CPU-bound and CI has two cores.
test: $(VENV)/.installed-test tools lint typecheck
	$(BIN)/python -m pytest -n 2

play: $(VENV)/.installed
	$(BIN)/python -m client.play

# Each prints ratios against a peer measured in the same run (the machine may be noisy).
bench: $(VENV)/.installed-test
	$(BIN)/python bench/evaluator.py
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/tournament.py
	$(BIN)/python bench/protocol.py
	$(BIN)/python bench/server.py
	$(BIN)/python bench/persistence.py
	$(BIN)/python bench/fairdeck.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
