"""Dataclass-style FFI object types: ``py_class`` defines new runtime types from Python,
``c_class`` binds C/C++ ones; ``field``, ``fields``, ``replace``, ``asdict``, ``astuple``."""

from __future__ import annotations

import copy
import dataclasses as _std_dataclasses
from typing import Any, Callable

from .. import _core
from ..container import Array, Dict, List, Map
from ._enum import Enum, EnumAttrMap, EnumState, IntEnum, StrEnum, auto, entry
from .c_class import c_class
from .field import MISSING, Field, field, init_property
from .gen_abi_cpp import gen_abi_cpp
from .py_class import method, py_class

KW_ONLY = _std_dataclasses.KW_ONLY
Object = _core.Object


def is_dataclass(obj: Any) -> bool:
    """True for ``py_class``/``c_class`` types and their instances."""
    cls = obj if isinstance(obj, type) else type(obj)
    return cls.__dict__.get("__ffi_is_dataclass__", getattr(cls, "__ffi_is_dataclass__", False)) is True


def fields(obj_or_cls: Any) -> tuple[Field, ...]:
    """The ``Field``s of a dataclass type or instance, ancestors' first."""
    cls = obj_or_cls if isinstance(obj_or_cls, type) else type(obj_or_cls)
    info = getattr(cls, "__tvm_ffi_type_info__", None)
    if info is None or not is_dataclass(cls):
        got = "type" if isinstance(obj_or_cls, type) else type(obj_or_cls).__name__
        raise TypeError(f"fields() argument must be a c_class or py_class type or instance, got {got}")
    return tuple(f.dataclass_field for f in info.all_fields() if f.dataclass_field is not None)


def replace(obj: Any, /, **changes: Any) -> Any:
    """A copy of ``obj`` with ``changes`` (``obj.__replace__(**changes)``)."""
    return obj.__replace__(**changes)


def _field_names(obj: Any) -> list[str]:
    names = []
    for f in fields(obj):
        assert f.name is not None  # the decorator named every field of a defined class
        names.append(f.name)
    return names


def _plain(value: Any, factory: Callable[[Any], Any], as_tuple: bool) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        items = [(name, _plain(getattr(value, name), factory, as_tuple)) for name in _field_names(value)]
        return factory([v for _, v in items]) if as_tuple else factory(items)
    if isinstance(value, (Array, List, list, tuple)):
        return [_plain(v, factory, as_tuple) for v in value]
    if isinstance(value, (Map, Dict, dict)):
        return {_plain(k, factory, as_tuple): _plain(v, factory, as_tuple) for k, v in value.items()}
    if isinstance(value, (int, float, str, bytes, type(None))) or isinstance(value, _core.Object):
        return value
    return copy.deepcopy(value)


def asdict(obj: Any, *, dict_factory: Callable[[Any], Any] = dict) -> Any:
    """The fields of ``obj`` as a dict, recursively (containers become ``list``/``dict``)."""
    if isinstance(obj, type) or not is_dataclass(obj):
        raise TypeError("asdict() should be called on c_class / py_class instances")
    return _plain(obj, dict_factory, False)


def astuple(obj: Any, *, tuple_factory: Callable[[Any], Any] = tuple) -> Any:
    """The field values of ``obj`` as a tuple, recursively."""
    if isinstance(obj, type) or not is_dataclass(obj):
        raise TypeError("astuple() should be called on c_class / py_class instances")
    return _plain(obj, tuple_factory, True)


__all__ = ["KW_ONLY", "MISSING", "Enum", "EnumAttrMap", "EnumState", "Field", "IntEnum", "Object", "StrEnum",
           "asdict", "astuple", "auto", "c_class", "entry", "field", "fields", "gen_abi_cpp", "init_property",
           "is_dataclass", "method", "py_class", "replace"]
