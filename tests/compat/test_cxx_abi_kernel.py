"""One kernel source calling every C++ function libtvm_ffi.so exports (kernels/cxx_abi_kernel.cc:
structural equality/hash/key, JSON, JSON graphs, deep copy/repr/recursive compare, modules and
their imports, context symbols, visit error contexts, and catching the library's tvm::ffi::Error), built against OUR
headers and against the REFERENCE headers, each build run on OUR runtime and on the REFERENCE
runtime through that runtime's Python package (hosts/run_cxx_abi_kernel.py).

The reference-built kernel imports these functions by their mangled C++ names, so on our runtime
it loads only because src/cxx_abi provides them; the build against our headers shows that our
extra/*.h headers declare the same functions.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, Runtime

from .conftest import HOSTS_DIR, KERNELS_DIR, Reference, build_kernel, expect_binds_to_loading_runtime, run_program

SOURCE = KERNELS_DIR / "cxx_abi_kernel.cc"
HOST = HOSTS_DIR / "run_cxx_abi_kernel.py"
EXPECTED_OK_LINES = ["ok structural equal, mismatch, hash, key", "ok deep copy, repr, recursive compare/hash",
                     "ok json parse, stringify, errors", "ok json graph", "ok modules, imports, context symbols",
                     "ok visit error context"]


@pytest.fixture(scope="module")
def kernels(reference: Reference, plain_runtime: Runtime, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The kernel built against each header set, plus a second library for the import checks."""
    out = tmp_path_factory.mktemp("cxx_abi_kernel")
    jobs = {
        "ours": (SOURCE, out / "built_with_ours.so", INCLUDE_DIR, plain_runtime.libdir),
        "reference": (SOURCE, out / "built_with_reference.so", reference.include_dir, reference.lib_dir),
        "other": (KERNELS_DIR / "our_c_kernel.c", out / "other.so", INCLUDE_DIR, plain_runtime.libdir),
    }
    # The two C++ builds dominate this module's time: run them side by side.
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(build_kernel, src, dst, include_dir=inc, link_dir=lib)
                   for name, (src, dst, inc, lib) in jobs.items()}
        built = {name: future.result() for name, future in futures.items()}
    for kernel in built.values():
        expect_binds_to_loading_runtime(kernel)
    return built


def our_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TVM_FFI_TEST_LIB", None)
    return env


@pytest.mark.parametrize("headers", ["ours", "reference"])
@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_exported_cxx_functions_work_with_either_headers_on_either_runtime(
        headers: str, runtime: str, kernels: dict[str, Path], reference: Reference) -> None:
    env = reference.env() if runtime == "reference" else our_env()
    output = run_program([sys.executable, HOST, kernels[headers], kernels["other"], "check_positive"], env)
    for line in EXPECTED_OK_LINES:
        assert line in output, output
