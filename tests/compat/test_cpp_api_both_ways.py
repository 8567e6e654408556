"""One C++ kernel source (kernels/cpp_api_kernel.cc, written with the C++ API as the seeds teach
it) built against OUR headers and against the REFERENCE headers, each build run on OUR runtime and
on the REFERENCE runtime through that runtime's Python package (hosts/run_cpp_api_kernel.py).

The reference-on-reference run checks the expectations themselves; the other three show that the
headers are interchangeable in both directions. A kernel built against our headers must need
nothing from libtvm_ffi.so but its C API (spec/ABI.md section 10.2).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, Runtime, run_checked

from .conftest import (
    HOSTS_DIR,
    KERNELS_DIR,
    Reference,
    build_kernel,
    expect_binds_to_loading_runtime,
    run_program,
)

SOURCE = KERNELS_DIR / "cpp_api_kernel.cc"
HOST = HOSTS_DIR / "run_cpp_api_kernel.py"
EXPECTED_OK_LINES = ["ok my_kernel", "ok errors", "ok layout", "ok containers",
                     "ok any, tuple, variant, callbacks",
                     "ok tuple moves, in-place functions, get_mutable, user metadata", "ok metadata and doc"]


@pytest.fixture(scope="module")
def kernels(reference: Reference, plain_runtime: Runtime,
            tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The kernel built against each header set (linked without rpath: it binds to its host)."""
    out = tmp_path_factory.mktemp("cpp_api_kernel")
    built = {
        "ours": build_kernel(SOURCE, out / "built_with_ours.so", include_dir=INCLUDE_DIR,
                             link_dir=plain_runtime.libdir),
        "reference": build_kernel(SOURCE, out / "built_with_reference.so", include_dir=reference.include_dir,
                                  link_dir=reference.lib_dir),
    }
    for kernel in built.values():
        expect_binds_to_loading_runtime(kernel)
    return built


def our_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TVM_FFI_TEST_LIB", None)
    return env


@pytest.mark.parametrize("headers", ["ours", "reference"])
@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_kernel_source_runs_with_either_headers_on_either_runtime(
        headers: str, runtime: str, kernels: dict[str, Path], reference: Reference) -> None:
    env = reference.env() if runtime == "reference" else our_env()
    output = run_program([sys.executable, HOST, kernels[headers]], env)
    for line in EXPECTED_OK_LINES:
        assert line in output, output


def test_our_build_needs_only_the_c_api(kernels: dict[str, Path], plain_runtime: Runtime) -> None:
    if shutil.which("nm") is None:
        pytest.skip("nm (binutils) is not available")
    undefined = run_checked(["nm", "-D", "--undefined-only", str(kernels["ours"])]).stdout
    names = {line.split()[-1] for line in undefined.splitlines() if line.strip()}
    ffi_names = {n for n in names if "TVMFFI" in n or "tvm" in n}
    assert all(re.fullmatch(r"TVMFFI\w+", n) for n in ffi_names), sorted(ffi_names)
    c_api = (INCLUDE_DIR / "tvm" / "ffi" / "c_api.h").read_text() + \
        (INCLUDE_DIR / "tvm" / "ffi" / "extra" / "c_env_api.h").read_text()
    declared = set(re.findall(r"TVM_FFI_DLL[^;(]*?\b(TVMFFI\w+)\s*\(", c_api))
    assert ffi_names <= declared, sorted(ffi_names - declared)
    exported = run_checked(["nm", "-D", "--defined-only", str(plain_runtime.library)]).stdout
    exported_names = {line.split()[-1] for line in exported.splitlines() if line.strip()}
    assert ffi_names <= exported_names, sorted(ffi_names - exported_names)
    # What the reference's own kernels import for the same features (ABI.md 10.2), and no more
    # than the error/registry/env entry points these functions use.
    assert {"TVMFFIErrorSetRaised", "TVMFFIEnvTensorAlloc", "TVMFFIEnvGetStream"} <= ffi_names
