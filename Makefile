# Two entry points on a fresh machine (needs python3 with venv, a C compiler, and PyPI):
#   make demo   build the package into .venv and run the examples (stable_c_abi, python_quickstart,
#               quickstart)
#   make test   build the package into .venv, lint, and run the test suite
PYTHON ?= python3
VENV := .venv
VENV_PY := $(VENV)/bin/python
BUILD_DEPS := scikit-build-core cmake ninja
TEST_DEPS := pytest numpy ruff
# mypy --strict checks the package (with its _core stubs) and the Python examples. Each example
# is checked on its own: several are top-level scripts of the same name (run.py), which one mypy
# run would reject as duplicate modules.
TYPING_DEPS := mypy
MYPY_EXAMPLES := $(wildcard examples/*/*.py)
# PyTorch (CPU build) exercises the DLPack exchange-API paths. Pinned, so pip takes the local
# CPU wheel this machine kind provides; optional: without it the torch tests skip visibly.
OPTIONAL_TEST_DEPS := torch==2.13.0
# JAX (CPU) for the DLPack exchange tests with a third framework; pinned to the local wheels
# (about 20 s to install); optional: without it tests/test_tensor_jax.py skips visibly.
OPTIONAL_JAX_DEPS := jax==0.10.2 jaxlib==0.10.2
# Only the directories that exist are linted.
LINT_DIRS := $(wildcard python tests benchmarks examples tools)

.PHONY: demo test install clean

# The venv and its build/test tools, installed once.
$(VENV)/.deps-installed:
	test -x $(VENV_PY) || $(PYTHON) -m venv $(VENV)
	$(VENV_PY) -m pip install --upgrade $(BUILD_DEPS) $(TEST_DEPS)
	$(VENV_PY) -m pip install $(OPTIONAL_TEST_DEPS) || echo "warning: $(OPTIONAL_TEST_DEPS) not installed; torch tests will skip"
	$(VENV_PY) -m pip install $(OPTIONAL_JAX_DEPS) || echo "warning: $(OPTIONAL_JAX_DEPS) not installed; jax tests will skip"
	touch $@

# Reinstalled every time: no build isolation and a fixed CMake build directory (build/, see
# pyproject.toml) make this an incremental rebuild of whatever C sources changed. The second line
# marks `apache-tvm-ffi` as provided by ours (metadata only), so kernel packages that require the
# reference's distribution install into the venv without pip fetching the reference over ours.
install: $(VENV)/.deps-installed
	$(VENV_PY) -m pip install --no-build-isolation --no-deps --force-reinstall .
	$(VENV_PY) -m tvm_ffi.utils.provide_apache_tvm_ffi --wheel-dir build/provides --install

demo: install
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" bash examples/stable_c_abi/raw_compile.sh
	$(VENV_PY) examples/python_quickstart/quickstart.py
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" bash examples/quickstart/build.sh
	$(VENV_PY) examples/quickstart/run.py

# The type checker, added after the first venvs were made, so it has its own stamp.
$(VENV)/.typing-deps-installed: $(VENV)/.deps-installed
	$(VENV_PY) -m pip install $(TYPING_DEPS)
	touch $@

test: install $(VENV)/.typing-deps-installed
	$(VENV)/bin/ruff check $(LINT_DIRS)
	$(VENV)/bin/mypy python/tvm_ffi
	for example in $(MYPY_EXAMPLES); do $(VENV)/bin/mypy "$$example" || exit 1; done
	$(VENV)/bin/pytest -q tests

clean:
	rm -rf build examples/stable_c_abi/build examples/quickstart/build examples/cpp_quickstart/build
