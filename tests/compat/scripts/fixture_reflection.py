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


class _TypeInfo(ctypes.Structure):
    _fields_ = [("type_index", ctypes.c_int32), ("type_depth", ctypes.c_int32), ("type_key", _Bytes),
                ("ancestors", ctypes.c_void_p), ("type_key_hash", ctypes.c_uint64),
                ("num_fields", ctypes.c_int32), ("num_methods", ctypes.c_int32),
                ("fields", ctypes.POINTER(_Field)), ("methods", ctypes.c_void_p),
                ("metadata", ctypes.POINTER(_Metadata))]


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
        fields = [{"name": f.name.data[: f.name.size].decode(), "flags": f.flags, "size": f.size,
                   "offset": f.offset, "static_type_index": f.static_type_index}
                  for f in info.fields[: info.num_fields]]
        out[key] = {"kind": None if meta is None else meta.kind,
                    "total_size": None if meta is None else meta.total_size, "fields": fields}
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
