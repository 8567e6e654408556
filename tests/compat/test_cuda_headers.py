"""The CUDA helper headers (tvm/ffi/extra/cuda: base.h, device_guard.h, internal/unified_api.h,
cubin_launcher.h) without a CUDA toolkit: tests/cpp/cuda/test_cuda_headers.cc compiles them
against stub cuda.h/cuda_runtime.h (tests/cpp/cuda/fake, the toolkit's names and signatures) and
runs them on recording mocks of the driver and runtime calls.

The same program is built with our headers (plain and under sanitizers) and with the reference's
headers on the reference runtime, each for the runtime API (CUDA >= 12.8 default) and the driver
API, so the stubs cover everything the reference uses and both header sets behave alike.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, REPO_ROOT, Runtime, cxx_compiler, run_checked

from .conftest import Reference, run_program

CUDA_TEST_DIR = REPO_ROOT / "tests" / "cpp" / "cuda"
SOURCE = CUDA_TEST_DIR / "test_cuda_headers.cc"
FAKE_CUDA = CUDA_TEST_DIR / "fake"
TESTS = ["test_check_cuda_error_and_dim3", "test_device_guard_switches_and_restores",
         "test_module_loads_images_and_finds_kernels",
         "test_launch_passes_grid_block_stream_and_args", "test_dynamic_shared_memory_limits"]
API_FLAG = {"runtime": "-DTVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API=0",
            "driver": "-DTVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API=1"}


def build(output: Path, include_dir: Path, lib_dir: Path, api: str, cflags: list[str]) -> Path:
    run_checked([cxx_compiler(), "-std=c++17", "-g", "-Wall", "-Wextra", *cflags,
                 f"-I{include_dir}", f"-I{FAKE_CUDA}", API_FLAG[api], str(SOURCE), "-o", str(output),
                 f"-L{lib_dir}", "-ltvm_ffi", f"-Wl,-rpath,{lib_dir}"])
    return output


def expect_all_ok(output: str, api: str) -> None:
    assert f"api {api}" in output, output
    for name in TESTS:
        assert f"ok {name}" in output, output
    assert "FAIL" not in output, output


@pytest.mark.parametrize("api", ["runtime", "driver"])
def test_our_cuda_headers_on_mocks(api: str, runtime: Runtime, tmp_path: Path) -> None:
    exe = build(tmp_path / f"cuda_{api}", INCLUDE_DIR, runtime.libdir, api, ["-Werror", *runtime.cflags])
    expect_all_ok(run_program([exe], runtime.env()), api)


@pytest.mark.parametrize("api", ["runtime", "driver"])
def test_reference_cuda_headers_agree_on_mocks(api: str, reference: Reference, tmp_path: Path) -> None:
    exe = build(tmp_path / f"ref_cuda_{api}", reference.include_dir, reference.lib_dir, api, [])
    expect_all_ok(run_program([exe], reference.env()), api)


def test_forcing_the_runtime_api_on_an_old_toolkit_is_a_compile_error(tmp_path: Path) -> None:
    source = tmp_path / "old_toolkit.cc"
    source.write_text("#include <tvm/ffi/extra/cuda/cubin_launcher.h>\n")
    proc = subprocess.run([cxx_compiler(), "-std=c++17", "-fsyntax-only", f"-I{INCLUDE_DIR}",
                           f"-I{FAKE_CUDA}", "-DCUDART_VERSION=12000", API_FLAG["runtime"], str(source)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert "needs the CUDA runtime library API (CUDA >= 12.8)" in proc.stderr, proc.stderr
