"""tvm_ffi.cpp.nvrtc: CUDA source to CUBIN with NVRTC, loaded on first use.

Importing it needs no CUDA; without NVRTC a call raises a RuntimeError that says what is
missing. Where NVRTC is installed, a small kernel compiles to an ELF CUBIN.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from tvm_ffi.cpp import nvrtc

KERNEL = 'extern "C" __global__ void add_one(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] += 1.0f; }'


def nvrtc_available() -> bool:
    try:
        nvrtc._nvrtc()
    except RuntimeError:
        return False
    return True


def test_signature_is_the_references() -> None:
    assert str(inspect.signature(nvrtc.nvrtc_compile)) == (
        "(source: 'str', *, name: 'str' = 'kernel.cu', arch: 'str | None' = None, "
        "extra_opts: 'Sequence[str] | None' = None) -> 'bytes'")


def test_without_nvrtc_a_call_says_what_is_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(nvrtc, "_candidates", lambda stem, env_dirs: [str(tmp_path / f"lib{stem}.so")])
    nvrtc._nvrtc.cache_clear()
    try:
        with pytest.raises(RuntimeError, match=r"NVRTC is not available: cannot load libnvrtc.so"):
            nvrtc.nvrtc_compile(KERNEL, arch="sm_80")
    finally:
        nvrtc._nvrtc.cache_clear()


@pytest.mark.skipif(not nvrtc_available(), reason="NVRTC is not installed")
def test_compiles_a_kernel_to_a_cubin() -> None:
    cubin = nvrtc.nvrtc_compile(KERNEL, arch="sm_80", extra_opts=["-DUNUSED=1"])
    assert cubin[:4] == b"\x7fELF"
    with pytest.raises(RuntimeError, match="NVRTC compilation failed:\n.*my_kernel.cu"):
        nvrtc.nvrtc_compile("this is not CUDA", name="my_kernel.cu", arch="sm_80")
