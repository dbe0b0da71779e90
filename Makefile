# Parlor: `make play` opens the game, `make test` runs the tests; both set up .venv first.
# `make play` installs only what playing needs; `make test` adds the dev extras (test
# tools, ruff and mypy, and the setuptools the offline wheel test builds with). Each
# install is redone when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY_STAMP := $(VENV)/.installed-play
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: play test bench models clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(PLAY_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# The dev extras include everything playing needs, so they satisfy `make play` too.
$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(PLAY_STAMP)

play: $(PLAY_STAMP)
	$(BIN)/parlor

# Lint and types first (configured in pyproject.toml); any failure fails the target.
# One test worker more than the cores: a fifth of the suite's time is spent waiting on
# the subprocesses and sockets of the host tests, which the extra worker fills.
# The checks marked slow (long matches, solves, the end-to-end terminal test) run in make bench.
test: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy engine brains tui
	$(BIN)/python -m pytest -q -m "not slow" -n $$(( $$(nproc) + 1 )) --dist worksteal; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$rc

bench: $(DEV_STAMP)
	$(BIN)/python -m pip install --quiet -e ".[dev,bench]" || echo "OpenSpiel not installable here: benchmarks run without the peer"
	$(BIN)/python -m benchmarks
	$(BIN)/python -m pytest -q -m slow; rc=$$?; if [ $$rc -eq 5 ]; then echo "no slow tests collected"; exit 0; fi; exit $$rc

models: $(PLAY_STAMP)
	@start=$$(date +%s); $(BIN)/parlor train --all --jobs $(or $(JOBS),1); rc=$$?; \
	if [ $$rc -eq 0 ] && [ ! -f saved/models/morris-db.bin ]; then \
		$(BIN)/parlor solve morris --build; rc=$$?; fi; \
	echo "make models: $$(( $$(date +%s) - start )) s"; exit $$rc

clean:
	rm -rf $(VENV) build *.egg-info
