"""Reading fields that C/C++ types reflect in the runtime's type table.

A type registered with ``TVMFFITypeRegisterField`` describes each field by name, offset and a C
getter ``int getter(void* field_address, TVMFFIAny* result)``. ``read_field(obj, name)`` finds the
field (in the type or an ancestor) with ``TVMFFIGetTypeInfo`` and calls its getter through a small
``Function`` built once per field, so the result is converted like any call result.
"""

from __future__ import annotations

import ctypes
from typing import Any

from . import _core, libinfo

__all__ = ["field_reader", "read_field"]


class _ByteArray(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]

    def text(self) -> str:
        return ctypes.string_at(self.data, self.size).decode("utf-8", "replace") if self.size else ""


class _Any(ctypes.Structure):
    _fields_ = [("type_index", ctypes.c_int32), ("small_len", ctypes.c_uint32), ("v_int64", ctypes.c_int64)]


class _FieldInfo(ctypes.Structure):  # TVMFFIFieldInfo, 120 bytes
    _fields_ = [
        ("name", _ByteArray), ("doc", _ByteArray), ("metadata", _ByteArray),
        ("flags", ctypes.c_int64), ("size", ctypes.c_int64), ("alignment", ctypes.c_int64),
        ("offset", ctypes.c_int64), ("getter", ctypes.c_void_p), ("setter", ctypes.c_void_p),
        ("default_value_or_factory", _Any), ("field_static_type_index", ctypes.c_int32),
    ]


class _TypeInfo(ctypes.Structure):  # TVMFFITypeInfo, 72 bytes
    _fields_ = [
        ("type_index", ctypes.c_int32), ("type_depth", ctypes.c_int32), ("type_key", _ByteArray),
        ("type_ancestors", ctypes.c_void_p), ("type_key_hash", ctypes.c_uint64),
        ("num_fields", ctypes.c_int32), ("num_methods", ctypes.c_int32),
        ("fields", ctypes.POINTER(_FieldInfo)), ("methods", ctypes.c_void_p), ("metadata", ctypes.c_void_p),
    ]


_SAFE_CALL = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_Any), ctypes.c_int32,
                              ctypes.POINTER(_Any))
_GETTER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_Any))

_LIB: ctypes.CDLL | None = None
_READERS: dict[tuple[int, str], _core.Function] = {}


def _lib() -> ctypes.CDLL:
    global _LIB
    if _LIB is None:
        lib = libinfo.load_lib_ctypes()
        lib.TVMFFIGetTypeInfo.argtypes = [ctypes.c_int32]
        lib.TVMFFIGetTypeInfo.restype = ctypes.POINTER(_TypeInfo)
        _LIB = lib
    return _LIB


def _find_field(type_index: int, name: str) -> _FieldInfo | None:
    """The field ``name`` of the type or its nearest ancestor that declares it."""
    info = _lib().TVMFFIGetTypeInfo(type_index).contents
    ancestors = ctypes.cast(info.type_ancestors, ctypes.POINTER(ctypes.POINTER(_TypeInfo)))
    chain = [info] + [ancestors[d].contents for d in reversed(range(info.type_depth))]
    for type_info in chain:
        for i in range(type_info.num_fields):
            field = type_info.fields[i]
            if field.name.text() == name:
                return field
    return None


def _make_reader(offset: int, getter_address: int) -> _core.Function:
    getter = _GETTER(getter_address)

    def call(_handle: int, args: Any, _num_args: int, result: Any) -> int:
        # Callers go through read_field, which passes exactly one object of the right type.
        return int(getter(args[0].v_int64 + offset, result))

    safe_call = _SAFE_CALL(call)
    address = ctypes.cast(safe_call, ctypes.c_void_p).value
    return _core.Function.__from_extern_c__(address, keep_alive_object=safe_call)


def field_reader(type_index: int, name: str) -> _core.Function:
    """A function ``reader(obj) -> value`` for field ``name`` of objects of ``type_index``.

    Built once per (type, field) and cached for the process. Raises ``AttributeError`` when the
    runtime reflects no such field.
    """
    reader = _READERS.get((type_index, name))
    if reader is None:
        field = _find_field(type_index, name)
        if field is None or not field.getter:
            key = _core._type_index_to_key(type_index)
            raise AttributeError(f"`{key}` has no reflected field `{name}` in this runtime's type table")
        reader = _READERS.setdefault((type_index, name), _make_reader(field.offset, field.getter))
    return reader


def read_field(obj: _core.Object, name: str) -> Any:
    """The value of reflected field ``name`` of ``obj``.

    Raises ``AttributeError`` naming the type when the runtime reflects no such field.
    """
    if not isinstance(obj, _core.Object) or obj.__chandle__() == 0:
        raise TypeError(f"read_field: expected a live tvm_ffi.Object, got {obj!r}")
    return field_reader(obj.type_index, name)(obj)
