"""Compile CUDA C++ source to a CUBIN with NVRTC (NVIDIA's runtime compiler), at run time.

The NVRTC and CUDA driver libraries are loaded with ctypes on the first call, from the system
library path, ``$CUDA_HOME`` / ``$CUDA_PATH`` or the ``nvidia-cuda-nvrtc`` wheel; importing this
module needs neither. Without them, :func:`nvrtc_compile` raises a ``RuntimeError`` that says so.
The CUBIN it returns is what ``tvm_ffi.cpp.load_inline(..., embed_cubin=...)`` and
:mod:`tvm_ffi.utils.embed_cubin` take.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import glob
import os
import sys
from collections.abc import Sequence

__all__ = ["nvrtc_compile"]

_NVRTC_SUCCESS = 0
_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76


def _candidates(stem: str, env_dirs: Sequence[str]) -> list[str]:
    """Paths or sonames to try for ``lib<stem>.so``, most specific first."""
    found = []
    for root in env_dirs:
        for sub in ("lib64", "lib", os.path.join("targets", "x86_64-linux", "lib")):
            found += sorted(glob.glob(os.path.join(root, sub, f"lib{stem}.so*")), reverse=True)
    for site in sys.path:  # the nvidia-cuda-nvrtc-cu12 / -cu13 wheels
        found += sorted(glob.glob(os.path.join(site, "nvidia", "cuda_nvrtc", "lib", f"lib{stem}.so*")), reverse=True)
        found += sorted(glob.glob(os.path.join(site, "nvidia", "cu*", "lib", f"lib{stem}.so*")), reverse=True)
    by_ldconfig = ctypes.util.find_library(stem)
    return [*found, *([by_ldconfig] if by_ldconfig else []), f"lib{stem}.so"]


def _load(stem: str, what: str) -> ctypes.CDLL:
    env_dirs = [d for d in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")) if d]
    tried = []
    for name in _candidates(stem, env_dirs):
        try:
            return ctypes.CDLL(name)
        except OSError as err:
            tried.append(f"{name}: {err}")
    raise RuntimeError(
        f"{what} is not available: cannot load lib{stem}.so (install the CUDA toolkit or the "
        f"nvidia-cuda-nvrtc wheel, or set CUDA_HOME). Tried: {'; '.join(tried[-3:])}"
    )


@functools.cache
def _nvrtc() -> ctypes.CDLL:
    lib = _load("nvrtc", "NVRTC")
    lib.nvrtcGetErrorString.restype = ctypes.c_char_p
    lib.nvrtcGetErrorString.argtypes = [ctypes.c_int]
    return lib


def _check(lib: ctypes.CDLL, code: int, action: str) -> None:
    if code != _NVRTC_SUCCESS:
        text = lib.nvrtcGetErrorString(code) or b"unknown error"
        raise RuntimeError(f"{action} failed: {text.decode()} ({code})")


def _detect_arch() -> str:
    """``sm_XY`` of the current CUDA device (device 0 when no context is current)."""
    try:
        cuda = _load("cuda", "The CUDA driver")
        if cuda.cuInit(0) != 0:
            raise RuntimeError("cuInit failed (no usable GPU or driver)")
        device = ctypes.c_int(0)
        if cuda.cuCtxGetDevice(ctypes.byref(device)) != 0:
            device = ctypes.c_int(0)
        major, minor = ctypes.c_int(), ctypes.c_int()
        for out, attr in ((major, _CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                          (minor, _CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)):
            if cuda.cuDeviceGetAttribute(ctypes.byref(out), attr, device) != 0:
                raise RuntimeError("cuDeviceGetAttribute (compute capability) failed")
    except RuntimeError as err:
        raise RuntimeError(f"Failed to auto-detect GPU architecture: {err}. "
                           "Please specify 'arch' parameter explicitly.") from err
    return f"sm_{major.value}{minor.value}"


def _program_text(lib: ctypes.CDLL, prog: ctypes.c_void_p, size_fn: str, get_fn: str) -> bytes:
    size = ctypes.c_size_t()
    _check(lib, getattr(lib, size_fn)(prog, ctypes.byref(size)), size_fn)
    buf = ctypes.create_string_buffer(size.value)
    _check(lib, getattr(lib, get_fn)(prog, buf), get_fn)
    return buf.raw[: size.value]


def nvrtc_compile(
    source: str,
    *,
    name: str = "kernel.cu",
    arch: str | None = None,
    extra_opts: Sequence[str] | None = None,
) -> bytes:
    """Compile CUDA C++ source code to a CUBIN with NVRTC.

    Parameters
    ----------
    source : str
        The CUDA C++ source.
    name : str, optional
        The source's file name in NVRTC's messages (default ``"kernel.cu"``).
    arch : str, optional
        The target architecture, e.g. ``"sm_80"``; by default the current GPU's.
    extra_opts : Sequence[str], optional
        More NVRTC options, e.g. ``["-I/path/to/include", "-DN=4"]``.

    Returns
    -------
    bytes
        The CUBIN.

    Raises
    ------
    RuntimeError
        When NVRTC (or, with ``arch`` unset, a GPU) is not available, or compilation fails (the
        message holds NVRTC's log).

    Examples
    --------
    >>> from tvm_ffi.cpp import nvrtc
    >>> cubin = nvrtc.nvrtc_compile(  # doctest: +SKIP
    ...     'extern "C" __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }', arch="sm_80")
    """
    lib = _nvrtc()
    if arch is None:
        arch = _detect_arch()
    opts = [f"--gpu-architecture={arch}".encode(), b"-default-device"]
    opts += [opt.encode() if isinstance(opt, str) else bytes(opt) for opt in extra_opts or ()]
    prog = ctypes.c_void_p()
    _check(lib, lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None),
           "nvrtcCreateProgram")
    try:
        c_opts = (ctypes.c_char_p * len(opts))(*opts)
        code = lib.nvrtcCompileProgram(prog, len(opts), c_opts)
        if code != _NVRTC_SUCCESS:
            log = _program_text(lib, prog, "nvrtcGetProgramLogSize", "nvrtcGetProgramLog").rstrip(b"\0")
            raise RuntimeError(f"NVRTC compilation failed:\n{log.decode(errors='replace')}")
        return _program_text(lib, prog, "nvrtcGetCUBINSize", "nvrtcGetCUBIN")
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))
