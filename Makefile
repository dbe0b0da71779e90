# Parlor: `make play` opens the game, `make test` runs the tests; both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test bench models clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/parlor

test: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$rc

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[dev,bench]" || echo "OpenSpiel not installable here: benchmarks run without the peer"
	$(BIN)/python -m benchmarks

models: $(STAMP)
	@start=$$(date +%s); $(BIN)/parlor train --all --jobs $(or $(JOBS),1); rc=$$?; \
	echo "make models: $$(( $$(date +%s) - start )) s"; exit $$rc

clean:
	rm -rf $(VENV) build *.egg-info
