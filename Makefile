# Evo Arena — `make run` starts everything locally, `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# Three pytest workers on CI's two cores: the integration tests spend much of their time waiting
# (on a browser, a bot's search in the worker process, a restart), and a third worker fills it.
# Measured on this 2-core machine within an hour (2026-12-05): `make test`'s pytest 408 s with 2,
# 327-362 s with 3 (six runs); `make test-fast` 48 s with 2, 42 s with 3 (CONTRIBUTING.md).
PYTEST_WORKERS ?= 3
FAST_WORKERS ?= $(PYTEST_WORKERS)
# Node packages of the tests (a real EventSource, the TypeScript client generator): pinned in
# tests/js/package.json and its lock file, installed with `npm ci`.
NODE_STAMP := tests/js/node_modules/.installed-stamp

.PHONY: install accel run test test-fast lint bench bench-strength openapi clean chromium rabbitmq \
	packages translations

$(STAMP): requirements.txt requirements-dev.txt constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt -c constraints.txt
	touch $(STAMP)

$(NODE_STAMP): tests/js/package.json tests/js/package-lock.json
	npm ci --prefix tests/js --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

install: $(STAMP) $(NODE_STAMP)

# Debian's chromium for the browser test (apt-get, only if missing).
chromium:
	bash scripts/install_chromium.sh

# Debian's RabbitMQ for the AMQP broker test (apt-get, only if missing; ~15 s): the test
# starts its own node on free loopback ports (scripts/localrabbit.py).
rabbitmq:
	bash scripts/install_rabbitmq.sh

# The compiled build the worker runs (shared/infra/accel.py): built once per digest of the
# sources into var/accel/ (~15 s of CPU); without it (no C compiler) the worker runs the plain sources.
accel: $(STAMP)
	$(BIN)/python -m shared.infra.accel build

# Serves at once: the workers start on the plain sources while the compiled build is made in
# the background, then restart on it (scripts/run.py).
run: $(STAMP)
	$(BIN)/python -m scripts.run

# Debian's packages the tests need, one after the other (apt-get holds one dpkg lock), also
# when this is made beside other targets.
packages:
	$(MAKE) --no-print-directory --jobs=1 chromium rabbitmq

# The tests check the build the worker runs (tests/test_accel.py), so it is built first, side
# by side with the rest of the set-up: the build keeps one core busy for about a minute, while
# npm, apt-get and the linters mostly wait or take seconds.
test: $(STAMP)
	$(MAKE) --no-print-directory --jobs=4 --output-sync=target $(NODE_STAMP) packages lint accel
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadgroup

# The development loop: the unit, engine and API tests (Flask's test client on a real Redis).
# Left out: the `integration` tests (gunicorn, the Celery worker, the browser, RabbitMQ, the
# cluster's failover) and the `slow` ones (long seeded random play, the compiled build, real
# TTLs and deadlines). `make test` runs everything. Bytecode is written even where
# PYTHONDONTWRITEBYTECODE is set: pytest keeps its rewritten test modules (400+) as bytecode,
# and rewriting them again costs every run ~10 s of CPU.
test-fast: $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -m "not integration and not slow" \
		-n $(FAST_WORKERS) --dist loadgroup

# Style (ruff), the layer contracts (import-linter, pyproject.toml [tool.importlinter]) and
# the types (mypy --strict, pyproject.toml [tool.mypy]).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python -m scripts.check_complexity
	$(BIN)/mypy

# Rewrites openapi.yaml's per-game schemas from the games (scripts/openapi_games.py), then
# validates the spec.
openapi: $(STAMP)
	$(BIN)/python -m scripts.openapi_games
	$(BIN)/python -m openapi_spec_validator openapi.yaml

# The message catalogues (docs/languages.md): extracts the messages of the API's Python, the
# templates and the page's JavaScript (Arena.t) into translations/messages.pot, merges them
# into each language's messages.po (new ones untranslated: tests/test_languages.py lists
# them) and compiles the .mo files the server reads (committed, so a fresh clone serves them).
translations: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k Arena.t -k t --no-wrap --sort-by-file \
		--project "Evo Arena" --omit-header -o translations/messages.pot .
	$(BIN)/pybabel update -i translations/messages.pot -d translations --no-wrap \
		--no-fuzzy-matching --ignore-obsolete
	$(BIN)/pybabel compile --statistics -d translations

bench: $(STAMP)
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.report

# The strength plan runs on the mypyc build of the engine (bench/accel.py): same moves, ~3x sooner.
bench-strength: $(STAMP)
	$(BIN)/python -m bench.accel bench.strength

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache
