"""Annotations to ``TypeSchema`` and schemas to field storage (size, alignment, static index)."""

from __future__ import annotations

import collections.abc
import ctypes
import types
import typing
from typing import Any

from .. import _core
from .._type_schema import TypeSchema
from ..container import Array, Dict, List, Map

_ATOMS: dict[Any, str] = {int: "int", float: "float", bool: "bool", str: "str", bytes: "bytes",
                          type(None): "None", None: "None", typing.Any: "Any",
                          ctypes.c_void_p: "ctypes.c_void_p"}
_CONTAINERS: dict[Any, str] = {Array: "Array", List: "List", Map: "Map", Dict: "Dict",
                               list: "List", dict: "Dict"}
_ARITY = {"Array": 1, "List": 1, "Map": 2, "Dict": 2}


def _named_atoms() -> dict[Any, str]:
    import tvm_ffi

    names = dict(_ATOMS)
    for attr, origin in (("Device", "Device"), ("dtype", "dtype"), ("Tensor", "Tensor"), ("Function", "Callable")):
        names[getattr(tvm_ffi, attr)] = origin
    for attr, origin in (("String", "str"), ("Bytes", "bytes")):
        cls = getattr(_core, attr, None)
        if cls is not None:
            names[cls] = origin
    names[collections.abc.Callable] = "Callable"
    names[typing.Callable] = "Callable"  # type: ignore[index]
    return names


def from_annotation(ann: Any) -> TypeSchema:
    """The schema of a field annotation; ``TypeError`` for annotations the FFI cannot hold."""
    atoms = _named_atoms()
    if ann in atoms and not isinstance(ann, str):
        return TypeSchema(atoms[ann])
    if ann is _core.Object:
        return TypeSchema("Object")
    if ann is tuple:
        return TypeSchema("tuple")
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if origin in (typing.Union, types.UnionType):
        alts = [a for a in args if a is not type(None)]
        inner = (from_annotation(alts[0]) if len(alts) == 1
                 else TypeSchema("Union", tuple(from_annotation(a) for a in alts)))
        return TypeSchema("Optional", (inner,)) if len(alts) < len(args) else inner
    if ann in _CONTAINERS or origin in _CONTAINERS:
        name = _CONTAINERS[ann if ann in _CONTAINERS else origin]
        if not args:
            return TypeSchema(name, (TypeSchema("Any"),) * _ARITY[name])
        if len(args) != _ARITY[name]:
            want = "1 type argument" if _ARITY[name] == 1 else "0 or 2 type arguments"
            label = name if ann not in (list, dict) and origin not in (list, dict) else origin.__name__
            raise TypeError(f"{label} requires {want}, got {len(args)}")
        return TypeSchema(name, tuple(from_annotation(a) for a in args))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return TypeSchema("Array", (from_annotation(args[0]),))
        return TypeSchema("tuple", tuple(from_annotation(a) for a in args if a != ()))
    if origin is collections.abc.Callable:
        return TypeSchema("Callable")
    if isinstance(ann, type):
        info = ann.__dict__.get("__tvm_ffi_type_info__")
        if info is not None:
            return TypeSchema(info.type_key, origin_type_index=info.type_index)
        if hasattr(ann, "__dlpack__"):
            return TypeSchema("Tensor")
    raise TypeError(f"Cannot convert {ann!r} to TypeSchema")


# origin -> (size, alignment, field static type index)
_STORAGE = {"int": (8, 8, 1), "float": (8, 8, 3), "bool": (1, 1, 2), "ctypes.c_void_p": (8, 8, 4),
            "dtype": (4, 2, 5), "Device": (8, 4, 6)}
_ANY_STORED = ("Any", "str", "bytes", "Optional", "Union", "None")


def storage_of(schema: TypeSchema) -> tuple[int, int, int]:
    """How a field of this schema is laid out: (size, alignment, field static type index)."""
    if schema.origin in _STORAGE:
        return _STORAGE[schema.origin]
    if schema.origin in _ANY_STORED:
        return 16, 8, -1
    return 8, 8, 64
