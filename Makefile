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

# The client's end-to-end tests drive a real terminal (tmux), the clock page's a real
# browser (Debian's chromium, driven by Playwright from the test extras); CI runs as root
# on Debian. Not root: nothing is installed and those tests are skipped, said loudly.
TOOLS := tmux chromium
tools:
	@missing=""; for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >/dev/null; \
	  else \
	    echo "*** NOT INSTALLED (not root):$$missing. Their tests will be SKIPPED (tmux: the terminal"; \
	    echo "*** client's; chromium: the clock page's). As root: make tools"; \
	  fi; \
	fi

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
	$(BIN)/python bench/clock.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
