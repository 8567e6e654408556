"""Field annotations to ``TypeSchema`` and schemas to field storage (size, alignment, static index)."""

from __future__ import annotations

from typing import Any

from .._type_schema import TypeSchema


def from_annotation(ann: Any) -> TypeSchema:
    """The schema of a field annotation; ``TypeError`` for annotations the FFI cannot hold."""
    return TypeSchema.from_annotation(ann)


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
