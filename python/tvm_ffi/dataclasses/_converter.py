"""The type converter: a declared field type turns an assigned value into what is stored.

``make_converter(schema)`` gives a function ``value -> value`` that raises ``TypeError`` with
``expected <hint>, got <desc>`` (prefixed by ``element [i]: ``, ``key k: ``, ``value for key k: ``
inside containers). The runtime's field setter calls it (as an FFI function) on every write and
on construction, so values are converted exactly once, where they are assigned.
"""

from __future__ import annotations

import ctypes
from typing import Any, Callable

from .. import _core
from .._type_schema import TypeSchema
from ..container import Array, Dict, List, Map

Converter = Callable[[Any], Any]

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


class _Mismatch(TypeError):
    """A conversion failure; its message is the inner text the field's error shows."""


ConversionMismatch = _Mismatch  # what TypeSchema.convert/check_value catch


def describe(value: Any) -> str:
    """How a rejected value is named: Python scalars by kind, FFI objects by type key."""
    if value is None:
        return "None"
    for kind, name in ((bool, "bool"), (int, "int"), (float, "float"), (str, "str"),
                       (bytes, "bytes"), (bytearray, "bytes")):
        if isinstance(value, kind):
            return name
    info = getattr(type(value), "__tvm_ffi_type_info__", None)
    if info is not None and isinstance(value, _core.Object):
        return str(info.type_key)
    return type(value).__qualname__


def hint(schema: TypeSchema) -> str:
    """The expected-type text of a schema (Optional shows its inner type)."""
    if schema.origin == "Optional":
        return hint((schema.args or ())[0])
    if schema.origin == "Union":
        return " | ".join(repr(a) for a in schema.args or ())
    return schema.origin


def _fail(schema: TypeSchema, value: Any) -> _Mismatch:
    return _Mismatch(f"expected {hint(schema)}, got {describe(value)}")


def _int(schema: TypeSchema, v: Any) -> Any:
    if isinstance(v, int):
        if not _INT64_MIN <= v <= _INT64_MAX:
            raise _Mismatch(f"integer {int(v)} out of int64 range [{_INT64_MIN}, {_INT64_MAX}]")
        return int(v)
    raise _fail(schema, v)


def _float(schema: TypeSchema, v: Any) -> Any:
    if isinstance(v, (int, float)):
        return float(v)
    raise _fail(schema, v)


def _bool(schema: TypeSchema, v: Any) -> Any:
    if isinstance(v, int):
        return bool(v)
    raise _fail(schema, v)


def _str(schema: TypeSchema, v: Any) -> Any:
    if isinstance(v, str):
        return v
    raise _fail(schema, v)


def _bytes(schema: TypeSchema, v: Any) -> Any:
    if isinstance(v, (bytes, bytearray)):
        return bytes(v)
    raise _fail(schema, v)


def _none(schema: TypeSchema, v: Any) -> Any:
    if v is None:
        return None
    raise _fail(schema, v)


def _void_p(schema: TypeSchema, v: Any) -> Any:
    if v is None or isinstance(v, ctypes.c_void_p):
        return v
    raise _fail(schema, v)


def _object_of(cls: type | None, schema: TypeSchema) -> Converter:
    def convert(v: Any) -> Any:
        if isinstance(v, _core.Object) and (cls is None or isinstance(v, cls)):
            return v
        raise _fail(schema, v)

    return convert


def _instance_of(cls: type, schema: TypeSchema) -> Converter:
    def convert(v: Any) -> Any:
        if isinstance(v, cls):
            return v
        raise _fail(schema, v)

    return convert


def _optional(inner: Converter) -> Converter:
    return lambda v: None if v is None else inner(v)


def _union(schema: TypeSchema, alts: list[Converter]) -> Converter:
    def convert(v: Any) -> Any:
        for alt in alts:
            try:
                return alt(v)
            except _Mismatch:
                continue
        raise _fail(schema, v)

    return convert


def _sequence(schema: TypeSchema, item: Converter | None, make: type) -> Converter:
    def convert(v: Any) -> Any:
        if not isinstance(v, (Array, List, list, tuple)):
            raise _fail(schema, v)
        if item is None:
            return v if type(v) is make else make(list(v))
        out = []
        for i, x in enumerate(v):
            try:
                out.append(item(x))
            except _Mismatch as err:
                raise _Mismatch(f"element [{i}]: {err}") from None
        return make(out)

    return convert


def _mapping(schema: TypeSchema, key: Converter | None, value: Converter | None, make: type) -> Converter:
    def convert(v: Any) -> Any:
        if not isinstance(v, (Map, Dict, dict)):
            raise _fail(schema, v)
        if key is None and value is None:
            return v if type(v) is make else make(dict(v.items()))
        out = {}
        for k, x in v.items():
            try:
                k2 = k if key is None else key(k)
            except _Mismatch as err:
                raise _Mismatch(f"key {k!r}: {err}") from None
            try:
                out[k2] = x if value is None else value(x)
            except _Mismatch as err:
                raise _Mismatch(f"value for key {k!r}: {err}") from None
        return make(out)

    return convert


def _tuple(schema: TypeSchema, items: list[Converter] | None) -> Converter:
    def convert(v: Any) -> Any:
        if not isinstance(v, (Array, List, list, tuple)):
            raise _fail(schema, v)
        if items is None:
            return Array(list(v))
        if len(v) != len(items):
            got = "Array" if isinstance(v, (Array, List)) else type(v).__name__
            raise _Mismatch(f"expected tuple of length {len(items)}, got {got} of length {len(v)}")
        out = []
        for i, (conv, x) in enumerate(zip(items, v)):
            try:
                out.append(conv(x))
            except _Mismatch as err:
                raise _Mismatch(f"element [{i}]: {err}") from None
        return Array(out)

    return convert


def _device(schema: TypeSchema, v: Any) -> Any:
    import tvm_ffi

    if isinstance(v, tvm_ffi.Device):
        return v
    if isinstance(v, str):
        try:
            return tvm_ffi.device(v)
        except (ValueError, TypeError):
            raise _Mismatch(f"expected Device, got invalid device string {v!r}") from None
    raise _fail(schema, v)


def _dtype(schema: TypeSchema, v: Any) -> Any:
    import tvm_ffi

    if isinstance(v, tvm_ffi.dtype):
        return v
    if isinstance(v, str):
        try:
            return tvm_ffi.dtype(v)
        except (ValueError, TypeError):
            raise _Mismatch(f"expected dtype, got invalid dtype string {v!r}") from None
    raise _fail(schema, v)


_SCALARS: dict[str, Callable[[TypeSchema, Any], Any]] = {
    "int": _int, "float": _float, "bool": _bool, "str": _str, "bytes": _bytes, "None": _none,
    "ctypes.c_void_p": _void_p, "Device": _device, "dtype": _dtype,
}


def make_converter(schema: TypeSchema) -> Converter | None:
    """The converter of ``schema``; ``None`` when every value is accepted unchanged (``Any``)."""
    origin, args = schema.origin, list(schema.args or ())
    if origin == "Any":
        return None
    scalar = _SCALARS.get(origin)
    if scalar is not None:
        return lambda v: scalar(schema, v)
    if origin == "Optional":
        inner = make_converter(args[0])
        return None if inner is None else _optional(inner)
    if origin == "Union":
        return _union(schema, [make_converter(a) or (lambda v: v) for a in args])
    if origin in ("Array", "List"):
        return _sequence(schema, make_converter(args[0]) if args else None, Array if origin == "Array" else List)
    if origin in ("Map", "Dict"):
        key = make_converter(args[0]) if args else None
        value = make_converter(args[1]) if args else None
        return _mapping(schema, key, value, Map if origin == "Map" else Dict)
    if origin == "tuple":
        return _tuple(schema, None if schema.args is None else [make_converter(a) or (lambda v: v) for a in args])
    if origin == "Object":
        return _object_of(None, schema)
    if origin in ("Tensor", "Callable"):
        import tvm_ffi

        return _instance_of(tvm_ffi.Tensor if origin == "Tensor" else tvm_ffi.Function, schema)
    index = schema.origin_type_index
    if index >= 64:
        return _object_of(_core._class_for_type_index(index), schema)
    raise TypeError(f"unknown TypeSchema origin: {origin!r}")


def as_ffi_converter(schema: TypeSchema) -> Any:
    """The converter as an FFI function for ``ffi.MakeFieldSetter`` (``None`` for ``Any``)."""
    conv = make_converter(schema)
    if conv is None:
        return None
    import tvm_ffi

    def ffi_convert(value: Any) -> Any:
        try:
            return conv(value)
        except _Mismatch as err:
            raise TypeError(str(err)) from None

    return tvm_ffi.convert(ffi_convert)
