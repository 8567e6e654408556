"""Registering a Python-defined type in the runtime's type table (through the C API, by ctypes).

Registration happens once per class, so ctypes is fast enough; what runs per call (field
access, construction) is C: the runtime's field getters/setters and generated ``__ffi_init__``.
"""

from __future__ import annotations

import ctypes
import json
from typing import Any

from .. import _core, libinfo
from ..container import Array

_LIB: ctypes.CDLL | None = None

# Type keys of the classes that Python defined (``@py_class``): such a type takes no
# ``__ffi_convert__`` second chance, and its key cannot be defined twice.
_PY_KEYS: set[str] = set()


class _ByteArray(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("size", ctypes.c_size_t)]


class _Any(ctypes.Structure):
    _fields_ = [("type_index", ctypes.c_int32), ("zero_padding", ctypes.c_uint32),
                ("v_int64", ctypes.c_int64)]


class _FieldInfo(ctypes.Structure):
    _fields_ = [("name", _ByteArray), ("doc", _ByteArray), ("metadata", _ByteArray),
                ("flags", ctypes.c_int64), ("size", ctypes.c_int64), ("alignment", ctypes.c_int64),
                ("offset", ctypes.c_int64), ("getter", ctypes.c_void_p), ("setter", ctypes.c_void_p),
                ("default_value_or_factory", _Any), ("field_static_type_index", ctypes.c_int32)]


class _MethodInfo(ctypes.Structure):
    _fields_ = [("name", _ByteArray), ("doc", _ByteArray), ("metadata", _ByteArray),
                ("flags", ctypes.c_int64), ("method", _Any)]


class _TypeMetadata(ctypes.Structure):
    _fields_ = [("doc", _ByteArray), ("creator", ctypes.c_void_p), ("total_size", ctypes.c_int32),
                ("structural_eq_hash_kind", ctypes.c_int32)]


def _lib() -> ctypes.CDLL:
    global _LIB
    if _LIB is None:
        lib = ctypes.CDLL(libinfo.find_libtvm_ffi(), mode=ctypes.RTLD_GLOBAL)
        lib.TVMFFITypeGetOrAllocIndex.restype = ctypes.c_int32
        lib.TVMFFITypeGetOrAllocIndex.argtypes = [ctypes.POINTER(_ByteArray)] + [ctypes.c_int32] * 5
        lib.TVMFFITypeRegisterField.argtypes = [ctypes.c_int32, ctypes.POINTER(_FieldInfo)]
        lib.TVMFFITypeRegisterMetadata.argtypes = [ctypes.c_int32, ctypes.POINTER(_TypeMetadata)]
        lib.TVMFFITypeRegisterMethod.argtypes = [ctypes.c_int32, ctypes.POINTER(_MethodInfo)]
        lib.TVMFFITypeRegisterAttr.argtypes = [ctypes.c_int32, ctypes.POINTER(_ByteArray), ctypes.POINTER(_Any)]
        _LIB = lib
    return _LIB


def _bytes(text: str | bytes) -> _ByteArray:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return _ByteArray(data, len(data))


def alloc_type_index(type_key: str, parent_index: int, depth: int) -> int:
    """``TVMFFITypeGetOrAllocIndex(key, -1, depth, 0, 1, parent)``: the (new or existing) index."""
    key = _bytes(type_key)
    return int(_lib().TVMFFITypeGetOrAllocIndex(ctypes.byref(key), -1, depth, 0, 1, parent_index))


def register_field(type_index: int, *, name: str, doc: str | None, metadata: dict[str, Any],
                   flags: int, size: int, alignment: int, offset: int, getter: int, setter: Any,
                   default: Any, has_default: bool, static_type_index: int) -> None:
    """``TVMFFITypeRegisterField``; errors come back as the runtime raised them."""
    info = _FieldInfo()
    keep = [name.encode(), (doc or "").encode(), json.dumps(metadata).encode()]
    info.name, info.doc, info.metadata = (_ByteArray(b, len(b)) for b in keep)
    info.flags, info.size, info.alignment, info.offset = flags, size, alignment, offset
    info.getter = getter
    info.setter = setter.__chandle__()
    holder = None
    if has_default:
        holder, info.default_value_or_factory = _as_any(default)
    info.field_static_type_index = static_type_index
    _check(_register_field_call(type_index, info), f"registering field {name!r}")
    del holder, keep


def _as_any(value: Any) -> tuple[Any, _Any]:
    """``value`` as an Any: the first item of a one-element Array, returned with the Array that
    keeps it alive (the runtime retains what it stores while registering)."""
    holder = Array([value])
    cell = ctypes.cast(holder.__chandle__() + 24, ctypes.POINTER(ctypes.c_void_p))
    return holder, ctypes.cast(cell[0], ctypes.POINTER(_Any))[0]


def register_method(type_index: int, name: str, doc: str | None, metadata: dict[str, Any],
                    func: Any, is_static: bool) -> None:
    """``TVMFFITypeRegisterMethod`` with an FFI function."""
    keep = [name.encode(), (doc or "").encode(), json.dumps(metadata).encode()]
    holder, value = _as_any(func)
    info = _MethodInfo(*(_ByteArray(b, len(b)) for b in keep), 4 if is_static else 0, value)
    _check(int(_lib().TVMFFITypeRegisterMethod(type_index, ctypes.byref(info))), f"registering method {name!r}")
    del holder


def register_type_attr(type_index: int, name: str, value: Any) -> None:
    """``TVMFFITypeRegisterAttr``: ``value`` (any FFI value) as the type's attribute ``name``."""
    holder, any_value = _as_any(value)
    attr = _bytes(name)
    rc = int(_lib().TVMFFITypeRegisterAttr(type_index, ctypes.byref(attr), ctypes.byref(any_value)))
    del holder
    _check(rc, f"registering type attribute {name!r}")


def _register_field_call(type_index: int, info: _FieldInfo) -> int:
    return int(_lib().TVMFFITypeRegisterField(type_index, ctypes.byref(info)))


def register_metadata(type_index: int, total_size: int, kind: int) -> None:
    """``TVMFFITypeRegisterMetadata({doc "", creator NULL, total_size, kind})``."""
    meta = _TypeMetadata(_bytes(""), None, total_size, kind)
    _check(int(_lib().TVMFFITypeRegisterMetadata(type_index, ctypes.byref(meta))), "registering metadata")


def _check(rc: int, what: str) -> None:
    if rc == 0:
        return
    # The runtime keeps the error in thread-local storage: a global that hands it back raises it
    # here as the Python exception of its kind.
    _core._get_global_func("ffi._PyClassRaisePending", False)()
    raise RuntimeError(f"{what} failed")
