# Two commands matter: `make run` and `make test`. Everything installs into .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
UV_VERSION := 0.13.8

.PHONY: run test lint bench gallery soak console clean lock mutate

$(BIN)/python:
	$(PY) -m venv $(VENV)

# The same dependency versions as the Docker image (requirements.lock, hash-checked), then the
# project and its pinned test tools (pyproject.toml: ruff is pinned exactly).
$(STAMP): pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

console: $(STAMP)
	$(BIN)/python -m bot console

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --follow-imports=silent bot
	$(BIN)/lint-imports
	$(BIN)/mypy engine render translations
	$(BIN)/python -m pytest

# Re-resolve requirements.lock from pyproject.toml's ranges (plus setuptools, which builds the
# project in the image), with every file's sha256, for Python 3.11 and later on any platform.
# Run after changing a dependency or to take updates; commit the lock with the change.
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	printf 'setuptools>=77\n' | $(BIN)/uv pip compile pyproject.toml - --generate-hashes \
	  --universal --python-version 3.11 --quiet --custom-compile-command "make lock" \
	  --output-file requirements.lock

# Mutation testing (mutmut, [tool.mutmut] in pyproject.toml): dice, chain, clock, limits and
# endings against the tests that cover them; not part of `make test`. Two workers, niced.
# Afterwards: `$(BIN)/mutmut results` lists the survivors, `$(BIN)/mutmut show NAME` one diff.
MUTATE_JOBS ?= 2
mutate: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[mutation]'
	rm -rf mutants
	nice $(BIN)/mutmut run --max-children $(MUTATE_JOBS)
	$(BIN)/mutmut export-cicd-stats && cat mutants/mutmut-cicd-stats.json

bench: $(STAMP)
	$(BIN)/python -m bench

gallery: $(STAMP)
	$(BIN)/python -m render.gallery gallery

# SOAK_DB=postgresql://... (a server; the soak makes its own database there): SOAK_PROCESSES bot
# processes on disjoint shards over one PostgreSQL, one killed and restarted midway. Without it:
# one process on one SQLite file.
soak: $(STAMP)
	if [ -n "$(SOAK_DB)" ]; then $(BIN)/python -m bench.soak_processes; \
	else $(BIN)/python -m bench.soak; fi

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
