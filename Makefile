# Two commands matter: `make run` and `make test`. Everything installs into .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench gallery soak console clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

console: $(STAMP)
	$(BIN)/python -m bot console

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check engine render bot tests bench

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m bench

gallery: $(STAMP)
	$(BIN)/python -m render.gallery gallery

soak: $(STAMP)
	$(BIN)/python -m bench.soak

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
