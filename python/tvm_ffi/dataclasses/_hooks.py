"""What a ``py_class`` body hands to the runtime besides fields: ``@tvm_ffi.method`` functions
(type methods C/C++ code can call) and type-attribute hooks (``__ffi_repr__``, ``__ffi_eq__``, ...)."""

from __future__ import annotations

import inspect
from typing import Any, Callable

from .. import _core
from .._annotations import type_hints
from . import _c_registry
from ._schema import from_annotation

HOOK_NAMES = ("__ffi_repr__", "__ffi_hash__", "__ffi_eq__", "__ffi_compare__", "__ffi_convert__",
              "__ffi_convert_type_schema__", "__any_hash__", "__any_equal__", "__s_equal__", "__s_hash__",
              "__s_visit__", "__s_mutate__", "__s_maybe_inplace_mutate__", "__data_to_json__",
              "__data_from_json__")


def _convert(value: Any) -> Any:
    import tvm_ffi

    return tvm_ffi.convert(value)


def _schema_json(ann: Any) -> dict[str, Any]:
    if ann is inspect.Parameter.empty:
        return {"type": "Any"}
    try:
        return from_annotation(ann).to_json()
    except TypeError:
        return {"type": "Any"}


def method_schema(func: Callable[..., Any], owner: type, is_static: bool) -> dict[str, Any]:
    """``Callable`` schema from the type hints; the owning type first for instance methods."""
    sig = inspect.signature(func)
    params = list(sig.parameters.values())
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.KEYWORD_ONLY) for p in params):
        return {"type": "Callable"}
    try:
        hints = type_hints(func, localns={owner.__name__: owner})
    except (NameError, TypeError):
        hints = {}
    out = []
    for i, p in enumerate(params):
        if i == 0 and not is_static:
            out.append({"type": owner.__tvm_ffi_type_info__.type_key})  # type: ignore[attr-defined]
        else:
            out.append(_schema_json(hints.get(p.name, inspect.Parameter.empty)))
    ret = _schema_json(hints.get("return", inspect.Parameter.empty))
    return {"type": "Callable", "named_args": {"return": [ret], "params": out}}


def collect_py_methods(cls: type) -> list[tuple[str, Any, bool]] | None:
    """What the class body hands to the runtime besides fields, as ``(name, function or value,
    is_static)``: its hook members (type attributes) and its ``@tvm_ffi.method`` functions.
    Other members, ``__ffi_*`` names included, stay Python-only. None when there is nothing."""
    hooks = _hook_names(cls)
    out: list[tuple[str, Any, bool]] = []
    for name, value in cls.__dict__.items():
        is_static = isinstance(value, staticmethod)
        # A classmethod hides the marker on its function (``@classmethod @method``).
        target = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
        if name not in hooks and getattr(target, "__ffi_method__", False) is not True:
            continue
        if isinstance(value, classmethod):
            raise TypeError(
                f"@py_class({cls.__name__!r}): {name!r} is wrapped by @classmethod, which is incompatible "
                "with FFI registration — the cls-first arg breaks the packed-call convention. Use "
                "@staticmethod or a plain instance method. If you wrote ``@classmethod @method``, swap to "
                "``@staticmethod @method`` (or drop @classmethod).")
        out.append((name, target, is_static))
    return out or None


# Parent type attributes a py_class child gets copied unless __ffi_inherit_type_attrs__ says
# otherwise: the structural and serialization hooks.
DEFAULT_INHERIT_TYPE_ATTRS = ("__s_equal__", "__s_hash__", "__s_visit__", "__data_to_json__",
                              "__data_from_json__")


def _name_list(cls: type, attr: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """A class-level list of names (looked up along the MRO, so a base can declare it once)."""
    value = getattr(cls, attr, default)
    if not isinstance(value, (tuple, list)) or not all(isinstance(n, str) for n in value):
        raise TypeError("TypeAttr registration lists must be tuples or lists of strings")
    return tuple(value)


def _hook_names(cls: type) -> dict[str, None]:
    """The names registered as type attributes when the body defines them (ordered set)."""
    extra = _name_list(cls, "__ffi_type_attr_names__", ())
    inherited = _name_list(cls, "__ffi_inherit_type_attrs__", DEFAULT_INHERIT_TYPE_ATTRS)
    return dict.fromkeys((*HOOK_NAMES, *extra, *inherited))


def register_body_members(cls: type, type_index: int) -> None:
    """Registers what the class body hands the runtime (collect_py_methods): hook members as type
    attributes, the other ``@tvm_ffi.method`` functions as type methods. Then copies the parent's
    values of ``__ffi_inherit_type_attrs__`` the body does not define."""
    hooks = _hook_names(cls)
    for name, value, is_static in collect_py_methods(cls) or ():
        if name in hooks:  # a marked hook too: hooks are type attributes
            _c_registry.register_type_attr(type_index, name, _convert(value))
        else:
            metadata = {"type_schema": method_schema(value, cls, is_static)}
            _c_registry.register_method(type_index, name, value.__doc__, metadata, _convert(value), is_static)
    inherited = _name_list(cls, "__ffi_inherit_type_attrs__", DEFAULT_INHERIT_TYPE_ATTRS)
    info = cls.__tvm_ffi_type_info__  # type: ignore[attr-defined]
    for name in inherited:
        if name in cls.__dict__:
            continue  # the body's value wins, None included
        value = _inherited_value(info.parent_type_info, name)
        if value is not None:
            _c_registry.register_type_attr(type_index, name, value)


def _inherited_value(parent: Any, name: str) -> Any:
    """The nearest ancestor's registered value of ``name``; an ancestor whose class body set it
    (to None, say) ends the search."""
    while parent is not None:
        value = _core._lookup_type_attr(parent.type_index, name)
        if value is not None:
            return value
        if parent.type_cls is not None and name in parent.type_cls.__dict__:
            return None
        parent = parent.parent_type_info
    return None
