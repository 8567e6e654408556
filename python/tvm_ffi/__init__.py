"""tvm_ffi: Python package of an independent TVM-FFI open ABI implementation.

Importing the package loads the runtime ``libtvm_ffi.so`` with ``RTLD_GLOBAL`` before anything
else: kernels record ``NEEDED libtvm_ffi.so`` without a RUNPATH, and the dynamic linker satisfies
that from the already-loaded library, so every kernel binds to this runtime.
"""

from __future__ import annotations

import ctypes
import os
import sys

from . import libinfo

__version__ = "0.1.16"
__version_tuple__ = (0, 1, 16)

# Frontend C APIs the runtime calls back into (TVMFFIEnvCheckSignals polls for Ctrl-C).
_ENV_C_APIS = ("PyErr_CheckSignals", "PyGILState_Ensure", "PyGILState_Release")


def _running_as_config() -> bool:
    """True under ``tvm-ffi-config`` / ``python -m tvm_ffi.config``, which only print paths.

    Those commands must work even where the runtime cannot be loaded, and stay fast, so the
    package skips loading native code (and, later, optional frameworks) for them.
    """
    if sys.argv and os.path.basename(sys.argv[0]).startswith("tvm-ffi-config"):
        return True
    orig_argv = getattr(sys, "orig_argv", [])  # Python >= 3.10
    return any(a == "-m" and b == "tvm_ffi.config" for a, b in zip(orig_argv, orig_argv[1:]))


def _register_env_c_apis(lib: ctypes.CDLL) -> None:
    """Hands the runtime the CPython entry points it needs for signal checks."""
    register = lib.TVMFFIEnvRegisterCAPI
    register.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    register.restype = ctypes.c_int
    for name in _ENV_C_APIS:
        address = ctypes.cast(getattr(ctypes.pythonapi, name), ctypes.c_void_p).value
        if register(name.encode(), address) != 0:
            raise RuntimeError(f"TVMFFIEnvRegisterCAPI({name!r}) failed in {libinfo.find_libtvm_ffi()}")


LIB: ctypes.CDLL
"""ctypes handle of the loaded ``libtvm_ffi.so`` (absent under ``tvm-ffi-config``)."""

if not _running_as_config():
    LIB = libinfo.load_lib_ctypes(ctypes.RTLD_GLOBAL)
    _register_env_c_apis(LIB)

__all__ = ["LIB", "__version__", "__version_tuple__", "libinfo"]
