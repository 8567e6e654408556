"""tvm_ffi: Python package of an independent TVM-FFI open ABI implementation.

Importing the package loads the runtime ``libtvm_ffi.so`` with ``RTLD_GLOBAL`` before anything
else: kernels record ``NEEDED libtvm_ffi.so`` without a RUNPATH, and the dynamic linker satisfies
that from the already-loaded library, so every kernel binds to this runtime.
"""

# Re-exports: the dtype literals (tvm_ffi.float32, ...) are importable but kept out of __all__,
# since `from tvm_ffi import *` must not shadow the builtin `bool`.
# ruff: noqa: F401

from __future__ import annotations

import builtins
import ctypes
import os
import sys

from . import libinfo
from ._version import __version__, __version_tuple__

# Frontend C APIs the runtime calls back into (TVMFFIEnvCheckSignals polls for Ctrl-C).
_ENV_C_APIS = ("PyErr_CheckSignals", "PyGILState_Ensure", "PyGILState_Release")


def _running_as_config() -> builtins.bool:
    """True under ``tvm-ffi-config`` / ``python -m tvm_ffi.config``, which only print paths.

    Those commands must work even where the runtime cannot be loaded, and stay fast, so the
    package skips loading native code (and, later, optional frameworks) for them.
    """
    if sys.argv and os.path.basename(sys.argv[0]).startswith("tvm-ffi-config"):
        return True
    orig_argv = getattr(sys, "orig_argv", None)  # Python >= 3.10
    if orig_argv is None:  # 3.9 says only "-m" while the package imports
        orig_argv = _process_command_line() if sys.argv[:1] == ["-m"] else []
    return any(a == "-m" and b == "tvm_ffi.config" for a, b in zip(orig_argv, orig_argv[1:]))


def _process_command_line() -> list[str]:
    """The interpreter's own argv where the OS exposes it (Linux); empty elsewhere."""
    try:
        with open("/proc/self/cmdline", "rb") as f:
            return [os.fsdecode(a) for a in f.read().split(b"\0") if a]
    except OSError:
        return []


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

__all__ = ["LIB", "__version__", "__version_tuple__", "libinfo"]

if not _running_as_config():
    from ._dist_check import warn_if_shared

    warn_if_shared(list(__path__))  # another distribution's files in our tvm_ffi/ directory?
    LIB = libinfo._load_runtime_ctypes(ctypes.RTLD_GLOBAL)
    _register_env_c_apis(LIB)

    # The extension binds to the runtime loaded above. Then, before anything can return an
    # error or a dtype, the error hooks and the dtype class are handed to _core.
    # isort: off
    from . import _core, core
    from . import error  # installs the error hooks and the kind <-> class table
    from . import _dtype  # hands the dtype class to _core
    from . import registry, _ffi_api, module, container
    from . import _testing_lib  # registers the testing.* fixtures, as the reference does
    from . import _core_names  # core.ObjectConvertible, core.object_repr
    from . import _optional_torch_c_dlpack  # imported with the package, as in the reference

    # isort: on
    # tvm_ffi.cpp loads its build machinery on first use: importing it builds and imports nothing.
    # utils is an attribute after `import tvm_ffi` alone, as in the reference (about 2 ms).
    from . import access_path, cpp, dataclasses, serialization, stream, structural, utils
    from ._convert import convert, convert_func
    from ._core import KWARGS, MISSING, CAny, CContainerBase, Function, Object  # CAny, CContainerBase: not in __all__
    from ._device import Device, DLDeviceType, device
    from ._dtype import (
        bfloat16,
        bool,
        dtype,
        float4_e2m1fn,
        float4_e2m1fnx2,
        float6_e2m3fn,
        float6_e3m2fn,
        float8_e3m4,
        float8_e4m3,
        float8_e4m3b11fnuz,
        float8_e4m3fn,
        float8_e4m3fnuz,
        float8_e5m2,
        float8_e5m2fnuz,
        float8_e8m0fnu,
        float16,
        float32,
        float64,
        int8,
        int16,
        int32,
        int64,
        uint8,
        uint16,
        uint32,
        uint64,
    )
    from ._object_convertible import ObjectConvertible
    from ._tensor import Tensor, from_dlpack
    from .container import Array, Dict, List, Map, Shape
    from .dataclasses import method
    from .error import register_error
    from .module import Module, ModulePropertyMask, load_module, system_lib
    from .registry import (
        get_global_func,
        get_global_func_metadata,
        get_registered_type_keys,
        init_ffi_api,
        list_global_func_names,
        register_global_func,
        register_object,
        remove_global_func,
    )
    from .stream import StreamContext, get_raw_stream, use_raw_stream, use_torch_stream
    from .structural import (
        DefRegionKind,
        InplaceMode,
        StructuralKey,
        StructuralMutator,
        StructuralVisitor,
        VisitInterrupt,
        WalkOrder,
        WalkResult,
        get_first_structural_mismatch,
        structural_equal,
        structural_hash,
        structural_map,
        structural_mutate,
        structural_visit,
        structural_walk,
    )

    __all__ += ["dataclasses", "method"]

    __all__ += [
        "StructuralKey",
        "access_path",
        "get_first_structural_mismatch",
        "serialization",
        "structural",
        "structural_equal",
        "structural_hash",
    ]
    __all__ += ["DefRegionKind", "StructuralVisitor", "VisitInterrupt", "WalkOrder", "WalkResult", "structural_walk"]
    __all__ += ["InplaceMode", "StructuralMutator", "structural_map", "structural_mutate", "structural_visit"]

    __all__ += [
        "Array",
        "Dict",
        "List",
        "Map",
        "Shape",
        "KWARGS",
        "MISSING",
        "DLDeviceType",
        "Device",
        "Function",
        "Module",
        "ModulePropertyMask",
        "Object",
        "ObjectConvertible",
        "StreamContext",
        "Tensor",
        "convert",
        "convert_func",
        "core",
        "cpp",
        "device",
        "dtype",
        "error",
        "from_dlpack",
        "get_raw_stream",
        "get_global_func",
        "get_global_func_metadata",
        "get_registered_type_keys",
        "init_ffi_api",
        "list_global_func_names",
        "load_module",
        "module",
        "register_error",
        "register_global_func",
        "register_object",
        "registry",
        "remove_global_func",
        "stream",
        "system_lib",
        "use_raw_stream",
        "use_torch_stream",
    ]
