# Everything a fresh machine needs: python3 and make. The venv is (re)built when
# pyproject.toml changes, so `make test` and `make play` are the only commands to know.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: test play lint typecheck bench floors clean tools mutate coverage

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
# on Debian and installs both. Not root: a missing tmux stops here rather than letting the
# terminal tests be skipped unnoticed (SKIP_TMUX=1 runs without them); a missing chromium
# skips the browser tests, said loudly.
TOOLS := tmux chromium
tools:
	@missing=""; for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ]; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >/dev/null; \
	elif [ -n "$$missing" ]; then \
	  echo "*** NOT INSTALLED (not root):$$missing. As root: make tools"; \
	fi
	@command -v tmux >/dev/null 2>&1 || [ -n "$(SKIP_TMUX)" ] || { echo "error: tmux is missing and could not be" \
	  "installed; the terminal client's tests need it. Install tmux, or run 'make test SKIP_TMUX=1'." >&2; exit 1; }
	@command -v chromium >/dev/null 2>&1 || echo "*** chromium missing: the clock page's browser tests will be SKIPPED"

lint: $(VENV)/.installed-test
	$(BIN)/ruff check poker server client protocol tools tests bench

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

# Two workers: the suite is CPU-bound and CI has two cores. HICKORY_REQUIRE_TMUX makes the
# tmux tests fail, not skip, if tmux is still missing (unless SKIP_TMUX=1 was asked for).
test: $(VENV)/.installed-test tools lint typecheck
	HICKORY_REQUIRE_TMUX=$(if $(SKIP_TMUX),,1) $(BIN)/python -m pytest -n 2

# Mutation testing, package by package (tools/mutate.py holds the targets; docs/testing.md
# the scores). Slow, so not part of `make test`: run it before closing work on a package.
# `make mutate MUTATE=poker` runs one target; MUTATE_ARGS=--fresh forgets earlier results.
mutate: $(VENV)/.installed-test
	nice -n 10 $(BIN)/python -m tools.mutate $(MUTATE) $(MUTATE_ARGS)

# Line coverage per package, as recorded in docs/testing.md.
coverage: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider --cov=poker --cov=protocol --cov=server \
	  --cov=client --cov-report=term

play: $(VENV)/.installed
	$(BIN)/python -m client.play

# Each prints ratios against a peer measured in the same run (the machine may be noisy);
# every target is one "TARGET ...: met|NOT met" line (bench/targets.py), all repeated at the end.
BENCHES := evaluator.py engine.py tournament.py protocol.py server.py persistence.py fairdeck.py clock.py
bench: $(VENV)/.installed-test
	$(call run_benches,$(BENCHES),TARGET)

# The floors of the targets bench cannot meet (issue 29): each does only the work its target
# cannot avoid, in the same run as ours and the peer, and prints "FLOOR ..." lines, all
# repeated at the end. About six minutes; docs/architecture.md ("Performance") reads them.
FLOORS := floor_engine.py floor_tournament.py floor_server.py floor_persistence.py floor_flush.py "floor_server.py --only b"
floors: $(VENV)/.installed-test
	$(call run_benches,$(FLOORS),FLOOR)

# $(1): the scripts in bench/ (with their arguments, quoted); $(2): the word their verdict
# lines start with, collected at the end. Fails if any script failed.
define run_benches
@out=$$(mktemp); \
for b in $(1); do echo "== bench/$$b"; \
  { $(BIN)/python bench/$$b || echo "FAILED: bench/$$b"; } | tee -a $$out; done; \
echo "== every $(2) line of this run"; grep '^$(2)\|^FAILED' $$out; \
! grep -q '^FAILED' $$out; status=$$?; rm -f $$out; exit $$status
endef

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .mutate .coverage
