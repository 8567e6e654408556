"""``unpack_dataclass_to_tuple``: dataclass instances to nested tuples, for positional FFI calls.

FFI functions take positional arguments; a Python dataclass argument becomes the tuple of its
fields (recursively), much like ``dataclasses.astuple`` but without deep-copying leaf values.
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from typing import Any, Callable

from .._annotations import eval_annotation, type_hints

__all__ = ["UNPACK", "DataclassToTupleSchema", "dataclass_to_tuple_schema", "unpack_dataclass_to_tuple"]

#: How each field of a dataclass unpacks, by field name: ``None`` for a field whose declared
#: type cannot hold a dataclass (taken as is), :data:`UNPACK` for one unpacked by its value.
DataclassToTupleSchema = dict  # dict[str, None | str]

#: The schema entry of a field unpacked according to its runtime value.
UNPACK = "unpack"

# Declared field types whose values are taken as is: they cannot contain a dataclass.
_LEAF_TYPES = frozenset({int, float, complex, bool, str, bytes, bytearray, type(None)})
# ``Optional[X]`` / ``X | Y`` (types.UnionType from Python 3.10).
_UNION_ORIGINS = (typing.Union, getattr(types, "UnionType", typing.Union))

# Per class: how to unpack one of its values. Filled on first sight of a class; classes are
# never mutated in ways that change their dataclass fields after creation.
_UNPACKERS: dict[type, Callable[[Any], Any]] = {}


def _identity(x: Any) -> Any:
    return x


def dataclass_to_tuple_schema(cls: type) -> dict[str, str | None]:
    """Tell, per field of a dataclass type, whether unpacking must look into its value.

    Parameters
    ----------
    cls : type
        A dataclass type.

    Returns
    -------
    DataclassToTupleSchema
        ``{field name: None or UNPACK}`` in field order; ``None`` marks fields declared as
        ``int``, ``float``, ``str``, ... (or ``Optional`` of those), which are taken as is.

    Examples
    --------
    >>> import dataclasses
    >>> from tvm_ffi.utils.unpack_dataclass import dataclass_to_tuple_schema
    >>> @dataclasses.dataclass
    ... class Item:
    ...     name: str
    ...     payload: object
    >>> dataclass_to_tuple_schema(Item)
    {'name': None, 'payload': 'unpack'}
    """
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"dataclass_to_tuple_schema expects a dataclass type, got {cls!r}")
    try:
        hints = type_hints(cls)
    except Exception:  # some annotation does not resolve: resolve them one by one
        hints = {f.name: _resolve_one(cls, f.type) for f in dataclasses.fields(cls)}
    return {f.name: None if _is_leaf_type(hints.get(f.name)) else UNPACK for f in dataclasses.fields(cls)}


def _resolve_one(cls: type, annotation: Any) -> Any:
    """A field's annotation as a type; None (so: unpacked by value) when it does not resolve."""
    if not isinstance(annotation, str):
        return annotation
    namespace = dict(vars(sys.modules[cls.__module__])) if cls.__module__ in sys.modules else {}
    try:
        return eval_annotation(annotation, namespace)
    except Exception:
        return None


def _is_leaf_type(tp: Any) -> bool:
    if tp in _LEAF_TYPES:
        return True
    # Optional[int], int | str, ...: a leaf when every member is.
    args = typing.get_args(tp)
    return typing.get_origin(tp) in _UNION_ORIGINS and all(a in _LEAF_TYPES for a in args)


def _dataclass_unpacker(cls: type) -> Callable[[Any], Any]:
    schema = dataclass_to_tuple_schema(cls)
    leaf = tuple(entry is None for entry in schema.values())
    names = tuple(schema)

    def unpack(x: Any) -> tuple[Any, ...]:
        return tuple(getattr(x, name) if is_leaf else unpack_dataclass_to_tuple(getattr(x, name))
                     for name, is_leaf in zip(names, leaf))

    return unpack


def _sequence_unpacker(cls: type) -> Callable[[Any], Any]:
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):  # named tuples take one argument per field
        return lambda x: cls(*(unpack_dataclass_to_tuple(e) for e in x))
    return lambda x: cls(unpack_dataclass_to_tuple(e) for e in x)


def _dict_unpacker(x: dict[Any, Any]) -> dict[Any, Any]:
    return {k: unpack_dataclass_to_tuple(v) for k, v in x.items()}


def _unpacker_for(cls: type) -> Callable[[Any], Any]:
    if dataclasses.is_dataclass(cls):
        return _dataclass_unpacker(cls)
    if issubclass(cls, (list, tuple)):
        return _sequence_unpacker(cls)
    if issubclass(cls, dict):
        return _dict_unpacker
    return _identity


def unpack_dataclass_to_tuple(x: Any) -> Any:
    """Replace every dataclass instance inside a value by the tuple of its fields.

    Dataclasses become tuples (fields unpacked recursively), lists and tuples keep their type
    with unpacked elements, dicts keep their keys with unpacked values, and anything else is
    returned as is (not copied).

    Parameters
    ----------
    x : Any
        The value.

    Returns
    -------
    Any
        The unpacked value.

    Examples
    --------
    >>> import dataclasses
    >>> from tvm_ffi.utils.unpack_dataclass import unpack_dataclass_to_tuple
    >>> @dataclasses.dataclass
    ... class Point:
    ...     x: int
    ...     y: int
    >>> unpack_dataclass_to_tuple([Point(1, 2), {"p": Point(3, 4)}])
    [(1, 2), {'p': (3, 4)}]
    """
    cls = type(x)
    unpack = _UNPACKERS.get(cls)
    if unpack is None:
        unpack = _UNPACKERS.setdefault(cls, _unpacker_for(cls))
    return unpack(x)
