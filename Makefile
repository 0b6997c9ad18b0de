# remikit developer tasks. The virtual environment lives in .venv; a stamp file
# per install keeps repeated runs from reinstalling until pyproject.toml changes.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
INSTALLED_DEV := $(VENV)/.installed-dev
NODE_MODULES := node_modules/.installed

.PHONY: run test check lint bench clean messages catalogues

run: $(INSTALLED)
	$(BIN)/remi serve

# .ci/with-postgres.sh installs Debian's postgresql when missing and runs the tests beside
# a throwaway cluster (REMI_TEST_POSTGRES_URL); .ci/with-redis.sh likewise Debian's
# redis-server, beside a throwaway server (REMI_TEST_REDIS_URL); outside CI their tests
# skip if none starts. .ci/install-chromium.sh installs Debian's chromium for the browser
# tests when missing, and .ci/install-nginx.sh Debian's nginx for the reverse-proxy and
# cluster tests.
test: lint
	bash .ci/install-chromium.sh
	bash .ci/install-nginx.sh
	bash .ci/with-postgres.sh bash .ci/with-redis.sh $(BIN)/pytest -n auto tests remikit \
		|| [ $$? -eq 5 ]  # 5: no tests collected

# The fast tier: lint, then every test not marked slow (pyproject.toml), with only what is
# already installed: no system packages; browser and PostgreSQL tests skip when Chromium or
# a PostgreSQL server is missing. `make test` runs the slow tests too.
check: lint
	$(BIN)/pytest -n auto -m "not slow" tests remikit

lint: $(INSTALLED_DEV) $(NODE_MODULES)
	$(BIN)/ruff check remikit tests bench
	$(BIN)/ruff format --check remikit tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports
	node_modules/.bin/eslint remikit/server/static tests/js
	node_modules/.bin/tsc -p tsconfig.json

# The message catalogue (docs/translating.md): `make messages` extracts every message id the
# code uses (babel.cfg) into the template and merges it into each language's .po file;
# `make catalogues` compiles the .po files into the .mo files the program reads.
LOCALE := remikit/locale
PYBABEL := $(BIN)/pybabel

messages: $(INSTALLED_DEV)
	$(PYBABEL) extract -F babel.cfg --no-location --sort-output --project remikit \
		--version 0.2.0 --copyright-holder "remikit contributors" -o $(LOCALE)/remikit.pot .
	$(PYBABEL) update -i $(LOCALE)/remikit.pot -d $(LOCALE) -D remikit \
		--no-fuzzy-matching --ignore-obsolete

catalogues: $(INSTALLED_DEV)
	$(PYBABEL) compile -d $(LOCALE) -D remikit --statistics

bench: $(INSTALLED_DEV)  # bench_speed.py needs the openspiel extra
	for script in bench/bench_*.py; do $(BIN)/python "$$script" || exit 1; done

clean:
	rm -rf $(VENV) node_modules build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
	rm -f remikit/*.so
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The editable install also builds the compiled solver (setup.py) into remikit/.
$(INSTALLED): pyproject.toml setup.py remikit/_solvercore.c | $(BIN)/python
	$(BIN)/pip install -q -e '.[web]'
	touch $@

$(INSTALLED_DEV): pyproject.toml setup.py remikit/_solvercore.c | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev,openspiel]'
	touch $@ $(INSTALLED)

# The browser client's checkers (package.json, pinned by package-lock.json): ESLint and
# TypeScript's checker over the JSDoc types; .ci/install-node.sh brings Node.js and npm.
$(NODE_MODULES): package.json package-lock.json
	bash .ci/install-node.sh
	npm ci --no-audit --no-fund --loglevel=error
	touch $@
