"""Locate the native pieces of the installed package: the runtime library and the C headers.

Everything here is plain path arithmetic on this package's directory, so it works without the
runtime being loadable and imports nothing beyond the standard library.
"""

from __future__ import annotations

import ctypes
from pathlib import Path

__all__ = [
    "find_dlpack_include_path",
    "find_include_path",
    "find_libtvm_ffi",
    "include_paths",
    "load_lib_ctypes",
]

_PACKAGE_DIR = Path(__file__).resolve().parent
_LIB_NAME = "libtvm_ffi.so"
_INSTALL_HINT = "reinstall the package from a source checkout with `pip install .`"


def find_libtvm_ffi() -> str:
    """Absolute path of the runtime library ``libtvm_ffi.so`` shipped in ``tvm_ffi/lib``."""
    path = _PACKAGE_DIR / "lib" / _LIB_NAME
    if not path.is_file():
        raise RuntimeError(f"cannot find {_LIB_NAME}: expected it at {path}; {_INSTALL_HINT}")
    return str(path)


def find_include_path() -> str:
    """Directory to pass as ``-I`` so that ``#include <tvm/ffi/c_api.h>`` works."""
    path = _PACKAGE_DIR / "include"
    if not (path / "tvm" / "ffi" / "c_api.h").is_file():
        raise RuntimeError(f"cannot find the TVM-FFI headers: expected tvm/ffi/c_api.h under {path}; {_INSTALL_HINT}")
    return str(path)


def find_dlpack_include_path() -> str:
    """Directory to pass as ``-I`` so that ``#include <dlpack/dlpack.h>`` works."""
    path = _PACKAGE_DIR / "include"
    if not (path / "dlpack" / "dlpack.h").is_file():
        raise RuntimeError(f"cannot find the DLPack header: expected dlpack/dlpack.h under {path}; {_INSTALL_HINT}")
    return str(path)


def include_paths() -> list[str]:
    """All include directories a kernel needs, without duplicates, in search order."""
    paths: list[str] = []
    for path in (find_include_path(), find_dlpack_include_path()):
        if path not in paths:
            paths.append(path)
    return paths


def load_lib_ctypes(mode: int = ctypes.RTLD_GLOBAL) -> ctypes.CDLL:
    """Loads ``libtvm_ffi.so`` with ctypes (globally by default, so later kernels bind to it)."""
    path = find_libtvm_ffi()
    try:
        return ctypes.CDLL(path, mode=mode)
    except OSError as err:
        raise RuntimeError(f"cannot load {path}: {err}") from err
