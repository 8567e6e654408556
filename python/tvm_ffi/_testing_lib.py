"""Loads ``libtvm_ffi_testing.so``, the native library that registers the ``testing.*`` globals.

``import tvm_ffi`` loads it, as the reference package does: code of other projects calls
``get_global_func("testing.echo")`` without importing :mod:`tvm_ffi.testing`. The library
registers its functions and object types in a load-time constructor, so loading it is all there
is to do.
"""

from __future__ import annotations

import ctypes
from pathlib import Path

from . import libinfo

__all__ = ["LIB", "find_libtvm_ffi_testing"]

_LIB_NAME = "libtvm_ffi_testing.so"


def find_libtvm_ffi_testing() -> str:
    """Absolute path of ``libtvm_ffi_testing.so``, installed next to ``libtvm_ffi.so``."""
    path = Path(libinfo.find_libtvm_ffi()).parent / _LIB_NAME
    if not path.is_file():
        raise RuntimeError(
            f"cannot find {_LIB_NAME}: expected it at {path}; reinstall the package from a source "
            "checkout with `pip install .`"
        )
    return str(path)


def _load() -> ctypes.CDLL:
    path = find_libtvm_ffi_testing()
    try:
        # RTLD_GLOBAL like the runtime itself: the fixtures' symbols (e.g. the link anchor
        # TVMFFITestingDummyTarget) stay visible to kernels loaded later.
        return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    except OSError as err:
        raise RuntimeError(f"cannot load {path}: {err}") from err


LIB: ctypes.CDLL = _load()
"""ctypes handle of the loaded fixture library (module import runs the load exactly once)."""
