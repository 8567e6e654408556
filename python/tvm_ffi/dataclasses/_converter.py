"""The type converter: a declared field type turns an assigned value into what is stored.

``make_converter(schema)`` gives a function ``value -> value`` that raises ``TypeError`` with
``expected <hint>, got <desc>`` (prefixed by ``element [i]: ``, ``key k: ``, ``value for key k: ``
inside containers). The runtime's field setter calls it (as an FFI function) on every write and
on construction, so values are converted exactly once, where they are assigned.
"""

from __future__ import annotations

import ctypes
import numbers
from typing import Any, Callable

from .. import _core
from .._object_convertible import ObjectConvertible
from .._type_schema import _ORIGIN_ALIASES, TypeSchema, install_schema_converter
from ..container import Array, Dict, List, Map
from ._c_registry import _PY_KEYS

Converter = Callable[[Any], Any]

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


class _Mismatch(TypeError):
    """A conversion failure; its message is the inner text the field's error shows."""


def describe(value: Any) -> str:
    """How a rejected value is named: Python scalars by kind, FFI objects by type key."""
    if value is None:
        return "None"
    for kind, name in ((bool, "bool"), (int, "int"), (float, "float"), (str, "str"),
                       (bytes, "bytes"), (bytearray, "bytes")):
        if isinstance(value, kind):
            return name
    if isinstance(value, _core.CObject):
        return _ffi_type_key(value)
    return type(value).__qualname__


def _ffi_type_key(value: Any) -> str:
    """The runtime type key of what ``value`` becomes as an FFI value (``ffi.SmallStr`` for a
    short str, ``ffi.Array`` for a list, the object's own key for an object)."""
    info = getattr(type(value), "__tvm_ffi_type_info__", None)
    if info is not None and isinstance(value, _core.CObject):
        return str(info.type_key)
    try:
        index = _core.CAny(value).type_index
    except Exception:  # noqa: BLE001 -- a value the FFI cannot hold is named by its class
        return type(value).__qualname__
    return str(_core._type_index_to_key(index))


def hint(schema: TypeSchema) -> str:
    """The expected-type text of a schema (Optional shows its inner type)."""
    if schema.origin == "Optional":
        return hint((schema.args or ())[0])
    if schema.origin == "Union":
        return " | ".join(repr(a) for a in schema.args or ())
    return schema.origin


def _fail(schema: TypeSchema, value: Any) -> _Mismatch:
    return _Mismatch(f"expected {hint(schema)}, got {describe(value)}")


def _integral(schema: TypeSchema, v: Any, as_type: type) -> Any:
    """A registered ``numbers.Integral`` that is not an int, read through ``int()``/``bool()``;
    what that raises is part of the message."""
    try:
        return as_type(v)
    except Exception as err:  # noqa: BLE001 -- any failure of the user's __int__/__bool__
        raise _Mismatch(f"expected {hint(schema)}, got {describe(v)} ({type(err).__name__}: {err})") from None


def _int(schema: TypeSchema, v: Any) -> Any:
    if not isinstance(v, int) and isinstance(v, numbers.Integral):
        v = _integral(schema, v, int)
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
    if isinstance(v, numbers.Integral):
        return _integral(schema, v, bool)
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
    if v is None:
        return ctypes.c_void_p(None)
    if isinstance(v, ctypes.c_void_p):
        return v
    raise _fail(schema, v)


_PY_PRIMITIVES = (bool, int, float, str, bytes, bytearray)


def _object_of(cls: type | None, schema: TypeSchema) -> Converter:
    """Objects of ``cls`` (any object for ``Object``, which also holds opaque Python objects).
    A target type with a ``__ffi_convert__`` type attribute (``ffi.Object``, C++ types) gets a
    second chance through it; its failure text is appended. A None it lets through (nullable
    types) is still refused: the schema is not Optional."""
    index = schema.origin_type_index if cls is not None else 64
    convert_attr = _core._lookup_type_attr(index, "__ffi_convert__") if index >= 64 else None
    python_defined = schema.origin in _PY_KEYS

    def convert(v: Any) -> Any:
        if isinstance(v, _core.CObject) and (cls is None or isinstance(v, cls)):
            return v
        if cls is None and v is not None and not isinstance(v, _PY_PRIMITIVES):
            converted = _core._convert(v)  # lists become Arrays, ...; other Python objects stay opaque
            if isinstance(converted, _core.CObject):
                return converted
            v = converted  # a value that is no object (a Device, a pointer): refused below
        if python_defined:
            raise _fail(schema, v)
        if convert_attr is not None:
            try:
                converted = convert_attr(v)
            except Exception as err:  # noqa: BLE001 -- its text joins ours
                reason = getattr(err, "__tvm_ffi_error__", None)
                text = reason.message if reason is not None else str(err)
            else:
                if converted is None:  # a nullable type's None: not a value of a plain schema
                    raise _fail(schema, v)
                return converted
        else:  # no second chance: the plain mismatch
            raise _fail(schema, v)
        raise _Mismatch(f"{_fail(schema, v)}\n  __ffi_convert__ failed:\n    {text}")

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
            return v if isinstance(v, make) else make(list(v))
        out = []
        changed = not isinstance(v, make)
        for i, x in enumerate(v):
            try:
                y = item(x)
            except _Mismatch as err:
                raise _Mismatch(f"element [{i}]: {err}") from None
            changed = changed or y is not x
            out.append(y)
        return make(out) if changed else v  # nothing to change: the container itself (no copy)

    return convert


def _mapping(schema: TypeSchema, key: Converter | None, value: Converter | None, make: type) -> Converter:
    def convert(v: Any) -> Any:
        if not isinstance(v, (Map, Dict, dict)):
            raise _fail(schema, v)
        if key is None and value is None:
            return v if isinstance(v, make) else make(dict(v.items()))
        out = {}
        changed = not isinstance(v, make)
        for k, x in v.items():
            try:
                k2 = k if key is None else key(k)
            except _Mismatch as err:
                raise _Mismatch(f"key {k!r}: {err}") from None
            try:
                x2 = x if value is None else value(x)
            except _Mismatch as err:
                raise _Mismatch(f"value for key {k!r}: {err}") from None
            changed = changed or k2 is not k or x2 is not x
            out[k2] = x2
        return make(out) if changed else v  # nothing to change: the container itself (no copy)

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


# Converters for object types with a special input form (payload enums take their payload),
# registered by the modules that know them: factory(cls, schema) -> Converter | None.
_OBJECT_CONVERTER_FACTORIES: list[Callable[[Any, TypeSchema], Converter | None]] = []


def register_object_converter(factory: Callable[[Any, TypeSchema], Converter | None]) -> None:
    """Let ``factory`` make the converter of the object types it knows (None: not one of them)."""
    _OBJECT_CONVERTER_FACTORIES.append(factory)


def make_converter(schema: TypeSchema) -> Converter | None:
    """The converter of ``schema``; ``None`` when every value is accepted unchanged (``Any``)."""
    # A schema built directly may spell its origin the runtime's way ("ffi.List").
    origin, args = _ORIGIN_ALIASES.get(schema.origin, schema.origin), list(schema.args or ())
    if not args and origin != schema.origin and schema.origin.startswith("ffi."):
        # A core type spelled by its type key ("ffi.Array") is that object type, converted by
        # its __ffi_convert__ (whose failure text the message shows), as in the reference.
        index = _core._object_type_key_to_index(schema.origin)
        if index is not None and _core._lookup_type_attr(index, "__ffi_convert__") is not None:
            return _object_of(_core._class_for_type_index(index), schema)
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
    if origin in ("Array", "List", "list"):  # "list": Python's spelling of a List
        return _sequence(schema, make_converter(args[0]) if args else None, Array if origin == "Array" else List)
    if origin in ("Map", "Dict", "dict"):
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
        cls = _core._class_for_type_index(index)
        for factory in _OBJECT_CONVERTER_FACTORIES:
            special = factory(cls, schema)
            if special is not None:
                return special
        return _object_of(cls, schema)
    raise TypeError(f"unknown TypeSchema origin: {origin!r}")


_UNWRAP_LIMIT = 64
_CONVERTIBLE_PROTOCOL = ObjectConvertible.__tvm_ffi_object__


def _unwrap_protocols(v: Any) -> Any:
    """What a Python value stands for as an FFI value: ``__tvm_ffi_object__``/``asobject()``
    and (repeated) ``__tvm_ffi_value__`` results, ``__tvm_ffi_int__``/``__tvm_ffi_float__``,
    and NumPy scalars as Python numbers."""
    for _ in range(_UNWRAP_LIMIT):
        if isinstance(v, (_core.CObject, *_PY_PRIMITIVES)) or v is None:
            return v
        object_protocol = getattr(type(v), "__tvm_ffi_object__", None)
        convertible = isinstance(v, ObjectConvertible) and object_protocol is _CONVERTIBLE_PROTOCOL
        if object_protocol is not None and not convertible:
            v = _call_protocol(v, "__tvm_ffi_object__")
        elif callable(getattr(v, "asobject", None)) and not hasattr(v, "__tvm_ffi_value__"):
            # ObjectConvertible (or its duck type); a value protocol wins over it
            v = _call_protocol(v, "asobject")
        elif hasattr(v, "__tvm_ffi_value__"):
            try:
                stands_for = v.__tvm_ffi_value__()
            except Exception:  # noqa: BLE001 -- no value to stand for: the value itself is judged
                return v
            if stands_for is v:  # stands for itself: judged as it is
                return v
            v = stands_for
        elif hasattr(v, "__tvm_ffi_int__"):
            return int(v.__tvm_ffi_int__())
        elif hasattr(v, "__tvm_ffi_float__"):
            return float(v.__tvm_ffi_float__())
        elif _is_numpy_scalar(v) and type(v).__name__ not in ("bool_", "bool"):  # np.True_ stays a bool
            return v.item()  # np.int32(3) -> 3, np.float32(.5) -> 0.5
        else:
            return v
    raise _Mismatch(f"__tvm_ffi_value__ cycle: no FFI value after {_UNWRAP_LIMIT} steps from {describe(v)}")


def _call_protocol(v: Any, name: str) -> Any:
    try:
        return getattr(v, name)()
    except Exception as err:  # noqa: BLE001 -- a broken protocol is a conversion failure
        raise _Mismatch(f"{name}() failed: {type(err).__name__}: {err}") from None


def _is_numpy_scalar(v: Any) -> bool:
    return type(v).__module__ == "numpy" and getattr(v, "ndim", None) == 0


def convert_direct(converter: Converter, value: Any) -> Any:
    """``TypeSchema.convert``: the Python value converted (protocols unwrapped first); values
    the converter only takes as FFI values (a lambda for ``Callable``, a NumPy array for
    ``Tensor``, a ``Fraction`` for ``float``) get a second try after argument conversion. The
    first failure is the one reported."""
    value = _unwrap_protocols(value)
    try:
        return converter(value)
    except _Mismatch:
        if value is None or isinstance(value, (_core.CObject, *_PY_PRIMITIVES)) or _is_numpy_scalar(value):
            raise
        try:
            marshalled = _core._convert(value)
        except Exception:  # noqa: BLE001 -- not an FFI value at all: the first failure stands
            marshalled = value
        if marshalled is value:
            raise
        try:
            return converter(marshalled)
        except _Mismatch:
            pass
        raise


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


def _convert_to_schema(schema: TypeSchema, value: object, what: str) -> Any:
    """``TypeSchema.convert``/``check_value``: ``value`` as ``schema``'s type, or TypeError after ``what``."""
    converter = make_converter(schema)  # TypeError for an unknown origin
    if converter is None:
        try:  # Any: what the value stands for (a protocol may fail or never settle)
            unwrapped = _unwrap_protocols(value)
            if hasattr(unwrapped, "__tvm_ffi_value__") and not isinstance(unwrapped, _core.CObject):
                raise _Mismatch(f"failed to convert Any from {describe(unwrapped)}")
            return unwrapped
        except _Mismatch as err:
            raise TypeError(f"{what} for {schema.repr()}: {err}") from None
    try:
        return convert_direct(converter, value)
    except _Mismatch as err:
        raise TypeError(f"{what} for {schema.repr()}: {err}") from None


install_schema_converter(_convert_to_schema)
