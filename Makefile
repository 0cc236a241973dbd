# Set-up and checks. `make test` and `make demo` work on a fresh machine: they build .venv first.
#
# The venv is built from Debian's /usr/bin/python3.11 when present: its interpreter lives outside
# /root, so the unprivileged agent user can run the kernel from it (see tools/README.md).
PYTHON ?= $(shell test -x /usr/bin/python3.11 && echo /usr/bin/python3.11 || command -v python3)
VENV ?= .venv
PY := $(VENV)/bin/python
MODEL ?=
TASK ?= demo/tabular-binary

.PHONY: install test lint demo clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -U pip setuptools wheel
	$(PY) -m pip install -q -e '.[dev,local,ray]'
	touch $@

install: $(VENV)/.installed

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# pytest exits 5 when it collected no tests: that is a failure here, never a pass.
test: install
	@$(PY) -m pytest -q -p no:cacheprovider; status=$$?; \
	if [ $$status -eq 5 ]; then echo "make test: pytest collected no tests" >&2; exit 1; fi; exit $$status

demo: install
	$(PY) -m scaffolds.demo $(if $(MODEL),--model $(MODEL)) --task $(TASK)

clean:
	rm -rf $(VENV) runs
