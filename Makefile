# Set-up and checks. `make test` and `make demo` work on a fresh machine: they build .venv first.
#
# The venv is built from Debian's /usr/bin/python3.11 when present: its interpreter lives outside
# /root, so the unprivileged agent user can run the kernel from it (see tools/README.md).
PYTHON ?= $(shell test -x /usr/bin/python3.11 && echo /usr/bin/python3.11 || command -v python3)
VENV ?= .venv
PY := $(VENV)/bin/python
MODEL ?=
TASK ?= demo/tabular-binary
EXTRAS ?= dev,local,ray,gpu

# The local model's llama.cpp is compiled here, once per version and flag set, into a wheelhouse
# keyed by both, and installed from there: never from pip's wheel cache, which keys a built wheel
# by its source alone and so may hold one compiled for another machine's CPU.
#   -DGGML_NATIVE=OFF: x86-64 with SSE4.2, AVX, AVX2, FMA, F16C and BMI2 (every x86-64 CPU since
#   2013-2015), no AVX-512 or AMX. llama.cpp's runtime dispatch (GGML_BACKEND_DL with
#   GGML_CPU_ALL_VARIANTS) would build about 12 CPU back-ends, several times the build time on
#   2 cores, and llama-cpp-python does not load them. See README: local model.
LLAMA_CPP_VERSION ?= 0.3.36
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF
WHEELHOUSE ?= $(HOME)/.cache/mlagent-scaffolds/wheels
LLAMA_KEY := $(shell printf '%s' '$(LLAMA_CPP_VERSION) $(LLAMA_CMAKE_ARGS)' | sha256sum | cut -c1-12)
LLAMA_WHEELS := $(WHEELHOUSE)/llama-cpp-python-$(LLAMA_CPP_VERSION)-$(LLAMA_KEY)

.PHONY: install test lint check demo clean clean-local-model local-model-check sandbox-tools

# On a fresh machine llama.cpp compiles (CPU-bound, minutes) while pip downloads and installs
# every other extra (mostly network and disk); then the built wheel goes in, then the rest.
comma := ,
OTHER_EXTRAS := $(subst $() $(),$(comma),$(filter-out local,$(subst $(comma), ,$(EXTRAS))))
LLAMA_LOG := $(VENV)/llama-build.log
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -U pip setuptools wheel
	@build=; if [ -z "$$(ls $(LLAMA_WHEELS)/llama_cpp_python-*.whl 2>/dev/null)" ]; then \
	  echo "make: building llama-cpp-python $(LLAMA_CPP_VERSION) with $(LLAMA_CMAKE_ARGS) (minutes; log: $(LLAMA_LOG)) ..."; \
	  (CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PY) -m pip wheel -q --no-deps --no-cache-dir \
	    --no-binary llama-cpp-python "llama-cpp-python==$(LLAMA_CPP_VERSION)" -w $(LLAMA_WHEELS) \
	    >$(LLAMA_LOG) 2>&1) & build=$$!; \
	fi; \
	echo "$(PY) -m pip install -q -e '.[$(OTHER_EXTRAS)]'"; \
	$(PY) -m pip install -q -e '.[$(OTHER_EXTRAS)]'; others=$$?; \
	if [ -n "$$build" ] && ! wait $$build; then \
	  cat $(LLAMA_LOG) >&2; echo "make: building llama-cpp-python failed (above)" >&2; exit 1; fi; \
	exit $$others
	$(PY) -m pip install -q $(LLAMA_WHEELS)/llama_cpp_python-*.whl
	$(PY) -m pip install -q -e '.[$(EXTRAS)]'
	touch $@

install: $(VENV)/.installed sandbox-tools
	@$(PY) -c "from tools.namespace import bwrap_path, namespace_problem as p; r = p(bwrap_path()); r and print('make: namespace sandbox unavailable (' + r + '); agent code runs in the user-based sandbox')"

# bubblewrap gives the agent's code a namespace sandbox (tools/README.md); without it the
# user-based sandbox is used, and make says so.
sandbox-tools:
	@command -v bwrap >/dev/null && exit 0; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  (apt-get install -y -qq bubblewrap >/dev/null 2>&1 || \
	   (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null)) \
	  || echo "make: could not install bubblewrap; agent code will run in the user-based sandbox" >&2; \
	else \
	  echo "make: bubblewrap (bwrap) is missing and needs root with apt to install; agent code will run in the user-based sandbox" >&2; \
	fi

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# What CI keeps true before any test runs: ruff (lint and format); mypy, strict on the packages
# (pyproject.toml: untyped defs, bare generics and unused ignores are errors) and on bench/;
# and the import-layers contract (tests/layers.py; README: Architecture).
PACKAGES := scaffolds aide_tree basic_agent iterative_agent tools prompts baselines bench_adapters rlecodec
check: lint
	$(VENV)/bin/mypy $(PACKAGES)
	$(VENV)/bin/mypy bench
	$(PY) -m tests.layers

# One completion from the local model before the suite: a build that cannot run on this CPU
# stops here with the reason in one line, not as failures ten minutes into the tests.
local-model-check: install
	@$(PY) -m scaffolds.local_llm --check

# The suite in two phases: every test not marked serial on all $(JOBS) cores (pytest-xdist),
# then the serial ones alone on the machine (tests/parallel.py says what each worker gets of its
# own). Data built once is shared by both phases through SCAFFOLDS_TEST_SHARE. It ends with the
# 15 slowest tests and the wall time (tests/durations.py). pytest exits 5 when it collected no
# tests: that is a failure here, never a pass; so is a test over 60 s that does not say why.
# PYTEST_ARGS go to both phases: `make test PYTEST_ARGS=--random-order` runs each in random order.
# REPORTS=<folder> keeps both phases' JUnit files there (every test's time, not only the 15).
JOBS ?= $(shell nproc)
PYTEST_ARGS ?=
REPORTS ?=
PYTEST := $(PY) -m pytest -q -p no:cacheprovider $(PYTEST_ARGS)
test: local-model-check
	@share=$$(mktemp -d /tmp/scaffolds-test-XXXXXX) && export SCAFFOLDS_TEST_SHARE=$$share; \
	start=$$(date +%s); \
	$(PYTEST) -n $(JOBS) -m "not serial" --junitxml=$$share/parallel.xml; parallel=$$?; \
	middle=$$(date +%s); serial=0; \
	if [ $$parallel -le 1 ]; then $(PYTEST) -m serial --junitxml=$$share/serial.xml; serial=$$?; fi; \
	end=$$(date +%s); \
	$(PY) -m tests.durations "parallel phase=$$((middle - start)):$$share/parallel.xml" \
	  "serial phase=$$((end - middle)):$$share/serial.xml"; \
	if [ -n "$(REPORTS)" ]; then mkdir -p $(REPORTS) && cp $$share/*.xml $(REPORTS)/; fi; \
	rm -rf $$share; \
	for status in $$parallel $$serial; do \
	  if [ $$status -eq 5 ]; then echo "make test: pytest collected no tests" >&2; exit 1; fi; \
	  if [ $$status -ne 0 ]; then exit $$status; fi; \
	done

demo: install
	$(PY) -m scaffolds.demo $(if $(MODEL),--model $(MODEL)) --task $(TASK)

# Rebuild the local model's llama.cpp (e.g. after changing LLAMA_CMAKE_ARGS): make clean-local-model install
clean-local-model:
	rm -rf $(LLAMA_WHEELS) $(VENV)/.installed
	-test -x $(PY) && $(PY) -m pip uninstall -q -y llama-cpp-python

clean:
	rm -rf $(VENV) runs
