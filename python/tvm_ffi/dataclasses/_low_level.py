"""The step-by-step form of ``@py_class``, for code that builds FFI classes by hand.

The reference package exposes these steps under private names that tools and tests call
directly; they are provided under the same names:

- ``core._type_cls_to_type_info(cls)``: the type info a class is bound to;
- ``core._register_py_class(parent_info, type_key, cls)``: a new runtime type for ``cls``;
- ``TypeInfo._register_fields(fields)``: lays out and registers a type's own fields;
- ``registry._add_class_attrs(cls, info)`` (in registry.py): fields, methods, ``__ffi_init__``;
- ``_dunder._install_dataclass_dunders(cls, ...)``: ``__init__`` and the dataclass dunders.
"""

from __future__ import annotations

import functools
from typing import Any

from .. import _core
from .._class_binding import forget_fallback
from .._reflection import TypeInfo, _type_info_of_index
from . import _c_registry
from ._dunder import install_dunders, make_init
from .field import Field
from .py_class import _PY_KEYS, _attach_declared_fields, _register_layout

_OBJECT_INDEX = 64


@functools.cache
def _builtin_class_indices() -> dict[type, int]:
    """The classes of the runtime's built-in types, by their static type index (c_api.h).

    C types cannot carry a ``__tvm_ffi_type_info__`` attribute and ``Shape`` is a tuple, so
    these are looked up here.
    """
    from ..container import Shape  # noqa: PLC0415 - container imports the dataclasses package

    return {_core.DataType: 5, _core.Device: 6, _core.String: 65, _core.Bytes: 66,
            _core.Error: 67, _core.Function: 68, Shape: 69, _core.Tensor: 70}


def type_cls_to_type_info(cls: Any) -> TypeInfo | None:
    """The type info ``cls`` is bound to (``Object``'s for ``Object``), or None."""
    if cls is _core.Object:
        return _type_info_of_index(_OBJECT_INDEX)
    if not isinstance(cls, type):
        return None
    info = cls.__dict__.get("__tvm_ffi_type_info__")
    if isinstance(info, TypeInfo):
        return info
    index = _builtin_class_indices().get(cls)
    if index is None:
        return None
    info = _type_info_of_index(index)
    info.type_cls = cls  # again on every lookup: a fallback class made for the index replaces it
    return info


def register_py_class(parent_info: TypeInfo, type_key: str, cls: type) -> TypeInfo:
    """Allocate the runtime type ``type_key`` under ``parent_info`` and bind ``cls`` to it.

    Raises ValueError when the key is already registered. Fields come next, through
    ``TypeInfo._register_fields``.
    """
    if type_key in _PY_KEYS or _core._object_type_key_to_index(type_key) is not None:
        raise ValueError(f"Type key {type_key!r} is already registered")
    index = _c_registry.alloc_type_index(type_key, parent_info.type_index, parent_info.type_depth + 1)
    info = _type_info_of_index(index)
    info.type_cls = cls
    info.fields = None  # until _register_fields
    cls.__tvm_ffi_type_key__, cls.__tvm_ffi_type_index__ = type_key, index  # type: ignore[attr-defined]
    _core._register_object_class(index, cls)
    forget_fallback(index)
    _PY_KEYS.add(type_key)
    return info


def register_fields(info: TypeInfo, fields: list[Field], structural_eq: str | None = "tree") -> None:
    """Lay out and register ``fields`` (named, with ``_ty_schema``) as the type's own fields."""
    parent = info.parent_type_info
    if parent is None:
        raise ValueError(f"{info.type_key}: a type without a parent cannot get fields")
    for f in fields:
        if f.name is None or f._ty_schema is None:
            raise ValueError("each field needs a name and a type schema (_ty_schema)")
        f.kw_only = bool(f.kw_only)
        if f.hash is None:
            f.hash = f.compare
        f.frozen = bool(f.frozen)
    _register_layout(info.type_index, parent, fields, structural_eq)
    _attach_declared_fields(info, fields)


def install_dataclass_dunders(cls: type, *, init: bool, repr: bool, eq: bool, order: bool,  # noqa: A002
                              unsafe_hash: bool, match_args: bool = True, py_class_mode: bool = False) -> None:
    """``__init__`` from the reflected constructor and the dataclass dunders (user ones stay)."""
    del repr, py_class_mode  # objects print through the runtime's repr either way
    info = type_cls_to_type_info(cls)
    if info is None:
        raise TypeError(f"{cls.__name__} is not bound to an FFI type (register it first)")
    make_init(cls, info, init)
    install_dunders(cls, info, {"eq": eq, "order": order, "unsafe_hash": unsafe_hash, "match_args": match_args})


# The names the reference package gives these steps (declared in _core.pyi).
_core._type_cls_to_type_info = type_cls_to_type_info
_core._register_py_class = register_py_class
TypeInfo._register_fields = register_fields  # type: ignore[attr-defined]

__all__ = ["install_dataclass_dunders", "register_fields", "register_py_class",
           "type_cls_to_type_info"]
