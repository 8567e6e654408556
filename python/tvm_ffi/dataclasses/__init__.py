"""Dataclass-style FFI object types: ``py_class`` defines new runtime types from Python,
``c_class`` binds C/C++ ones; ``field``, ``fields``, ``replace``, ``asdict``, ``astuple``."""

from __future__ import annotations

import copy
from typing import Any, Callable

from .. import _core
from ..container import Array, Dict, List, Map
from . import _low_level  # noqa: F401  (the step-by-step py_class names on core and TypeInfo)
from ._enum import Enum, EnumAttrMap, EnumState, IntEnum, StrEnum, auto, entry
from .c_class import c_class
from .field import KW_ONLY, MISSING, Field, field, init_property
from .gen_abi_cpp import gen_abi_cpp
from .py_class import method, py_class

Object = _core.Object


def is_dataclass(obj: Any) -> bool:
    """Tell whether ``obj`` is a ``py_class``/``c_class`` type or an instance of one.

    Parameters
    ----------
    obj : Any
        A class or an instance.

    Returns
    -------
    bool
        True for FFI dataclass types and their instances.

    Examples
    --------
    >>> from tvm_ffi.dataclasses import py_class, is_dataclass
    >>> @py_class("doc.dataclasses.IsPair")
    ... class IsPair(tvm_ffi.Object):
    ...     a: int
    ...     b: int
    >>> is_dataclass(IsPair), is_dataclass(IsPair(1, 2)), is_dataclass(int)
    (True, True, False)
    """
    cls = obj if isinstance(obj, type) else type(obj)
    return getattr(cls, "__ffi_is_dataclass__", False) is True


def fields(obj_or_cls: Any) -> tuple[Field, ...]:
    """List the fields of an FFI dataclass type or instance, ancestors' first.

    Parameters
    ----------
    obj_or_cls : Any
        A ``py_class``/``c_class`` type or instance.

    Returns
    -------
    tuple of Field
        One :class:`Field` per field.

    Raises
    ------
    TypeError
        When ``obj_or_cls`` is not an FFI dataclass.

    Examples
    --------
    >>> from tvm_ffi.dataclasses import py_class, fields
    >>> @py_class("doc.dataclasses.FieldsPair")
    ... class FieldsPair(tvm_ffi.Object):
    ...     a: int
    ...     b: int
    >>> [f.name for f in fields(FieldsPair)]
    ['a', 'b']
    """
    cls = obj_or_cls if isinstance(obj_or_cls, type) else type(obj_or_cls)
    info = getattr(cls, "__tvm_ffi_type_info__", None)
    if info is None or not is_dataclass(cls):
        got = "type" if isinstance(obj_or_cls, type) else type(obj_or_cls).__name__
        raise TypeError(f"fields() argument must be a c_class or py_class type or instance, got {got}")
    found = []
    for f in info.all_fields():
        if f.dataclass_field is not None:
            found.append(f.dataclass_field)
    return tuple(found)


def replace(obj: Any, /, **changes: Any) -> Any:
    """Copy an FFI dataclass instance with some fields changed.

    Parameters
    ----------
    obj : Any
        The instance to copy.
    **changes : Any
        New values, by field name.

    Returns
    -------
    Any
        A new instance of the same type (``obj`` is unchanged).

    Examples
    --------
    >>> from tvm_ffi.dataclasses import py_class, replace
    >>> @py_class("doc.dataclasses.ReplacePair")
    ... class ReplacePair(tvm_ffi.Object):
    ...     a: int
    ...     b: int
    >>> pair = replace(ReplacePair(1, 2), b=5)
    >>> (pair.a, pair.b)
    (1, 5)
    """
    return obj.__replace__(**changes)


# Values asdict/astuple hand back as they are: immutable scalars and text (String and Bytes too).
_ATOMIC_TYPES = frozenset({type(None), bool, int, float, complex, str, bytes, _core.String, _core.Bytes})


def _plain(value: Any, factory: Callable[[Any], Any], as_tuple: bool) -> Any:
    """``value`` as plain Python data: dataclasses through ``factory``, containers as list/dict."""
    kind = type(value)
    if kind in _ATOMIC_TYPES:
        return value
    if getattr(kind, "__ffi_is_dataclass__", False) is True:  # an instance (a class's type is its metaclass)
        names = [f.name for f in fields(value) if f.name is not None]  # a defined class names all
        if as_tuple:
            return factory([_plain(getattr(value, name), factory, True) for name in names])
        return factory([(name, _plain(getattr(value, name), factory, False)) for name in names])
    if isinstance(value, (Array, List, list, tuple)):
        return [_plain(v, factory, as_tuple) for v in value]
    if isinstance(value, (Map, Dict)) and not as_tuple:  # asdict builds FFI maps with the factory too
        return factory([(_plain(k, factory, False), _plain(v, factory, False)) for k, v in value.items()])
    if isinstance(value, (Map, Dict, dict)):
        return {_plain(k, factory, as_tuple): _plain(v, factory, as_tuple) for k, v in value.items()}
    if isinstance(value, (_core.CObject, int, float, str, bytes)):
        return value
    return copy.deepcopy(value)


def asdict(obj: Any, *, dict_factory: Callable[[Any], Any] = dict) -> Any:
    """Convert an FFI dataclass instance to a dict, recursively.

    Nested dataclasses become dicts and FFI containers become ``list``/``dict``.

    Parameters
    ----------
    obj : Any
        The instance.
    dict_factory : Callable, optional
        Builds each mapping from a list of ``(name, value)`` pairs (default ``dict``).

    Returns
    -------
    Any
        What ``dict_factory`` returns for ``obj``.

    Raises
    ------
    TypeError
        When ``obj`` is not an FFI dataclass instance.

    Examples
    --------
    >>> from tvm_ffi.dataclasses import py_class, asdict
    >>> @py_class("doc.dataclasses.AsdictPair")
    ... class AsdictPair(tvm_ffi.Object):
    ...     a: int
    ...     b: int
    >>> asdict(AsdictPair(1, 2))
    {'a': 1, 'b': 2}
    """
    if isinstance(obj, type) or not is_dataclass(obj):
        raise TypeError("asdict() should be called on c_class / py_class instances")
    return _plain(obj, dict_factory, False)


def astuple(obj: Any, *, tuple_factory: Callable[[Any], Any] = tuple) -> Any:
    """Convert an FFI dataclass instance to a tuple of its field values, recursively.

    Parameters
    ----------
    obj : Any
        The instance.
    tuple_factory : Callable, optional
        Builds each sequence from a list of values (default ``tuple``).

    Returns
    -------
    Any
        What ``tuple_factory`` returns for ``obj``.

    Raises
    ------
    TypeError
        When ``obj`` is not an FFI dataclass instance.

    Examples
    --------
    >>> from tvm_ffi.dataclasses import py_class, astuple
    >>> @py_class("doc.dataclasses.AstuplePair")
    ... class AstuplePair(tvm_ffi.Object):
    ...     a: int
    ...     b: int
    >>> astuple(AstuplePair(1, 2))
    (1, 2)
    """
    if isinstance(obj, type) or not is_dataclass(obj):
        raise TypeError("astuple() should be called on c_class / py_class instances")
    return _plain(obj, tuple_factory, True)


__all__ = ["KW_ONLY", "MISSING", "Enum", "EnumAttrMap", "EnumState", "Field", "IntEnum", "Object", "StrEnum",
           "asdict", "astuple", "auto", "c_class", "entry", "field", "fields", "gen_abi_cpp", "init_property",
           "is_dataclass", "method", "py_class", "replace"]

# The reference's module layout: tvm_ffi.dataclasses.common / .enum re-export the names above.
from . import common, enum  # noqa: E402, F401
