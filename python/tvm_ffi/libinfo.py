"""Locate the native pieces of the installed package: the runtime library and the C headers.

Everything here is plain path arithmetic on this package's directory, so it works without the
runtime being loadable and imports nothing beyond the standard library.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import TYPE_CHECKING

from ._lib_search import find_library

if TYPE_CHECKING:
    from .module import Module

__all__ = [
    "find_dlpack_include_path",
    "find_include_path",
    "find_libtvm_ffi",
    "include_paths",
    "load_lib_ctypes",
    "load_lib_module",
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


def _load_runtime_ctypes(mode: int = ctypes.RTLD_GLOBAL) -> ctypes.CDLL:
    """Loads this package's ``libtvm_ffi.so`` with ctypes (globally by default, for kernels)."""
    path = find_libtvm_ffi()
    try:
        return ctypes.CDLL(path, mode=mode)
    except OSError as err:
        raise RuntimeError(f"cannot load {path}: {err}") from err


def load_lib_ctypes(package: str, target_name: str, mode: str,
                    extra_lib_paths: list[Path] | None = None) -> ctypes.CDLL:
    """Loads ``lib<target_name>.so`` of ``package`` with ctypes; ``mode`` is ``"RTLD_LOCAL"``/``"RTLD_GLOBAL"``.

    The library is searched in the distribution's files, then ``extra_lib_paths``, then next to
    the package, then on ``LD_LIBRARY_PATH``/``PATH``; ``RuntimeError`` lists where it looked.
    """
    if mode not in ("RTLD_LOCAL", "RTLD_GLOBAL"):
        raise ValueError(f"load_lib_ctypes: mode must be 'RTLD_LOCAL' or 'RTLD_GLOBAL', got {mode!r}")
    path = find_library(package, target_name, extra_lib_paths)
    try:
        return ctypes.CDLL(str(path), mode=getattr(ctypes, mode))
    except OSError as err:
        raise RuntimeError(f"cannot load {path}: {err}") from err


def load_lib_module(package: str, target_name: str, keep_module_alive: bool = True,
                    extra_lib_paths: list[Path] | None = None) -> Module:
    """Loads ``lib<target_name>.so`` of ``package`` as a :class:`tvm_ffi.Module` (found as in
    :func:`load_lib_ctypes`); the library registers its functions and types as it loads.

    >>> mod = tvm_ffi.libinfo.load_lib_module("my-extension", "my_extension")  # doctest: +SKIP
    """
    from .module import load_module

    return load_module(find_library(package, target_name, extra_lib_paths), keep_module_alive=keep_module_alive)
