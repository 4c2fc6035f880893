# The two set-up commands:  `make demo` (install + answer a question on the local model)
#                           `make test` (install + run the test suite)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
QUESTION ?= What is Birnam wood doing?

.PHONY: install demo test lint bench clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml scripts/install-llama-cpp.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	PYTHON=$(BIN)/python scripts/install-llama-cpp.sh
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

demo: install
	$(BIN)/longread ask examples/macbeth.md "$(QUESTION)"

test: install
	@$(BIN)/python -m pytest; status=$$?; \
	if [ $$status -eq 5 ]; then echo "error: no tests were collected"; fi; exit $$status

# ruff (rules E, F, I, B, UP, SIM), ruff format, mypy on src/, the import-layer contract, no
# module of src/ over 400 lines, and docs/cli.md's reference as --help prints it (cog)
lint: install
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports
	@find src -name '*.py' -exec awk 'FNR == 401 { print FILENAME ": over 400 lines"; bad = 1 } \
		END { exit bad }' {} +
	$(BIN)/cog --check docs/cli.md

bench: install
	$(BIN)/python bench/rlm_niah.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis src/*.egg-info
