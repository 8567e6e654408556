"""Reading an enum class body: which names declare members, and their canonical indices.

A body declares members three ways: ``x = entry(...)`` / ``x = auto()``, a bare payload
(``red = 1`` in an IntEnum, ``add = "+"`` in a StrEnum), or a binder ``x: ClassVar[E]`` that
names a member registered elsewhere (by C++ ``EnumDef``) or, for plain enums, a new one.
"""

from __future__ import annotations

import inspect
import sys
import typing
from typing import Any

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


class EnumEntry:
    """The marker ``entry(*args, **fields)`` / ``auto()`` leave in a class body."""

    __slots__ = ("args", "kwargs")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs

    def __repr__(self) -> str:
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"entry({', '.join(parts)})"


def _is_class_var(annotation: Any) -> bool:
    if annotation is typing.ClassVar or typing.get_origin(annotation) is typing.ClassVar:
        return True
    if isinstance(annotation, str):
        return annotation.replace(" ", "").startswith(("ClassVar", "typing.ClassVar"))
    return False


def own_annotations(cls: type) -> dict[str, Any]:
    """The annotations the class body itself wrote (unevaluated strings stay strings)."""
    if sys.version_info >= (3, 10):
        return dict(inspect.get_annotations(cls))
    return dict(cls.__dict__.get("__annotations__", {}))  # 3.9: a class's own, in its dict


def collect_declarations(cls: type, payload: type | None) -> tuple[list[str], dict[str, EnumEntry]]:
    """Binder names and declared entries (removed from the class), in body order."""
    annotations = own_annotations(cls)
    binders = [name for name, ann in annotations.items()
               if not name.startswith("_") and _is_class_var(ann) and name not in cls.__dict__]
    fields = {name for name, ann in annotations.items() if not _is_class_var(ann)}
    declarations: dict[str, EnumEntry] = {}
    for name, value in list(cls.__dict__.items()):
        if name.startswith("_") or name in fields:
            continue
        if isinstance(value, EnumEntry):
            declarations[name] = value
        elif payload is not None and not (
                isinstance(value, (staticmethod, classmethod, property)) or callable(value)):
            declarations[name] = EnumEntry(value=value)
        else:
            continue
        delattr(cls, name)
    return binders, declarations


def indices_of(cls: type, alias: str, ordinal: int, declaration: EnumEntry,
               payload: type | None) -> tuple[int, str, EnumEntry]:
    """(int index, str index, the entry's remaining fields) of a declared member."""
    kwargs = dict(declaration.kwargs)
    if "_int_index" in kwargs or "_str_index" in kwargs:
        raise TypeError(f"{cls.__name__}.{alias}: enum indices are inferred")
    if payload is None:
        return ordinal, alias, declaration
    if "value" not in kwargs:
        raise TypeError(f"{cls.__name__}.{alias} requires a {payload.__name__} value")
    value: Any = kwargs.pop("value")
    if not _is_exactly(value, payload):
        raise TypeError(f"{cls.__name__}.{alias} value must be {payload.__name__}")
    rest = EnumEntry(*declaration.args, **kwargs)
    if payload is int:
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise OverflowError(f"enum integer index {value} is outside int64")
        return value, alias, rest
    return ordinal, value, rest


def _is_exactly(value: Any, kind: type) -> bool:
    return type(value) is kind  # bool is not an int payload, a str subclass not a str one


def reject_value_field(cls: type, base_name: str) -> None:
    """IntEnum/StrEnum own ``value``: a class body may not declare it."""
    if "value" in cls.__dict__ or "value" in own_annotations(cls):
        raise TypeError(f"{base_name} reserves `value` as its canonical index alias")
