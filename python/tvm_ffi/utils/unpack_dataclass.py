"""``unpack_dataclass_to_tuple``: dataclass instances to nested tuples, for positional FFI calls.

FFI functions take positional arguments; a Python dataclass argument becomes the tuple of its
fields (recursively), much like ``dataclasses.astuple`` but without deep-copying leaf values.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

__all__ = ["unpack_dataclass_to_tuple"]

# Per class: how to unpack one of its values. Filled on first sight of a class; classes are
# never mutated in ways that change their dataclass fields after creation.
_UNPACKERS: dict[type, Callable[[Any], Any]] = {}


def _identity(x: Any) -> Any:
    return x


def _dataclass_unpacker(cls: type) -> Callable[[Any], Any]:
    names = tuple(f.name for f in dataclasses.fields(cls))

    def unpack(x: Any) -> tuple[Any, ...]:
        return tuple(unpack_dataclass_to_tuple(getattr(x, name)) for name in names)

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
