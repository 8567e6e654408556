"""Prints, as JSON, what the runtime records for every ``testing.*`` object type: the type
metadata's structural kind and total size, and each field's flags, size and offset.

tests/compat/test_fixture_structural_kinds.py runs it under our package and the reference.
"""

from __future__ import annotations

import ctypes
import json

import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (binds the fixture classes)


class _Bytes(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("size", ctypes.c_size_t)]


class _Any(ctypes.Structure):
    _fields_ = [("type_index", ctypes.c_int32), ("zero_padding", ctypes.c_uint32), ("v", ctypes.c_int64)]


class _Field(ctypes.Structure):
    _fields_ = [("name", _Bytes), ("doc", _Bytes), ("metadata", _Bytes), ("flags", ctypes.c_int64),
                ("size", ctypes.c_int64), ("alignment", ctypes.c_int64), ("offset", ctypes.c_int64),
                ("getter", ctypes.c_void_p), ("setter", ctypes.c_void_p), ("default", _Any),
                ("static_type_index", ctypes.c_int32)]


class _Metadata(ctypes.Structure):
    _fields_ = [("doc", _Bytes), ("creator", ctypes.c_void_p), ("total_size", ctypes.c_int32),
                ("kind", ctypes.c_int32)]


class _Method(ctypes.Structure):
    _fields_ = [("name", _Bytes), ("doc", _Bytes), ("metadata", _Bytes), ("flags", ctypes.c_int64),
                ("method", _Any)]


class _TypeInfo(ctypes.Structure):
    _fields_ = [("type_index", ctypes.c_int32), ("type_depth", ctypes.c_int32), ("type_key", _Bytes),
                ("ancestors", ctypes.c_void_p), ("type_key_hash", ctypes.c_uint64),
                ("num_fields", ctypes.c_int32), ("num_methods", ctypes.c_int32),
                ("fields", ctypes.POINTER(_Field)), ("methods", ctypes.POINTER(_Method)),
                ("metadata", ctypes.POINTER(_Metadata))]


def _text(b: _Bytes) -> str:
    return (b.data or b"")[: b.size].decode()


def _json(b: _Bytes) -> object:
    text = _text(b)
    return json.loads(text) if text else None


def _pod(a: _Any) -> object:
    """A default value: POD payloads as numbers, objects by type index only."""
    if a.type_index in (1, 2):
        return a.v
    if a.type_index == 3:
        return ctypes.c_double.from_buffer_copy(ctypes.c_int64(a.v)).value
    return f"type_index {a.type_index}"


def main() -> None:
    lib = tvm_ffi.LIB
    lib.TVMFFIGetTypeInfo.restype = ctypes.POINTER(_TypeInfo)
    lib.TVMFFITypeKeyToIndex.argtypes = [ctypes.POINTER(_Bytes), ctypes.POINTER(ctypes.c_int32)]
    out: dict[str, object] = {}
    for key in sorted(k for k in tvm_ffi.registry.get_registered_type_keys() if k.startswith("testing.")):
        raw = key.encode()
        index = ctypes.c_int32()
        if lib.TVMFFITypeKeyToIndex(ctypes.byref(_Bytes(raw, len(raw))), ctypes.byref(index)) != 0:
            continue
        info = lib.TVMFFIGetTypeInfo(index.value).contents
        meta = info.metadata.contents if info.metadata else None
        fields = [{"name": _text(f.name), "flags": f.flags, "size": f.size, "offset": f.offset,
                   "static_type_index": f.static_type_index, "doc": _text(f.doc), "metadata": _json(f.metadata),
                   "default": _pod(f.default) if f.flags & 2 else None}
                  for f in info.fields[: info.num_fields]]
        methods = [{"name": _text(m.name), "doc": _text(m.doc), "flags": m.flags, "metadata": _json(m.metadata)}
                   for m in info.methods[: info.num_methods]]
        out[key] = {"kind": None if meta is None else meta.kind,
                    "total_size": None if meta is None else meta.total_size, "fields": fields,
                    "methods": methods}
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
