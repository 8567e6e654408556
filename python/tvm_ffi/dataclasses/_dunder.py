"""Generated members of ``py_class``/``c_class`` types: ``__init__`` (and its signature),
``__eq__``/``__hash__``/ordering through the runtime's ``ffi.Recursive*`` functions,
``__replace__``, ``__match_args__``.
"""

from __future__ import annotations

import copy
import functools
from typing import Any, Callable

from .. import _core
from .._class_binding import init_signature, make_no_init, signature_of
from .._reflection import TypeField, TypeInfo

_ORDER = ("__lt__", "__le__", "__gt__", "__ge__")
_RECURSIVE = {"__lt__": "ffi.RecursiveLt", "__le__": "ffi.RecursiveLe", "__gt__": "ffi.RecursiveGt",
              "__ge__": "ffi.RecursiveGe"}


def _global(name: str) -> Any:
    return _core._get_global_func(name, True)


def _init_fields(info: TypeInfo) -> list[TypeField]:
    return [f for f in info.all_fields() if f.c_init]


def _post_init_of(cls: type) -> Callable[..., Any] | None:
    return getattr(cls, "__post_init__", None)


def make_init(cls: type, info: TypeInfo, init: bool) -> None:
    """``__init__``: the runtime's generated ``__ffi_init__`` (C), then ``__post_init__``."""
    user_init = cls.__dict__.get("__init__")
    ffi_new = _core._lookup_type_attr(info.type_index, "__ffi_new__")
    if user_init is not None:
        def wrapped(self: Any, *args: Any, **kwargs: Any) -> None:
            if self.__chandle__() == 0 and ffi_new is not None:
                self.__move_handle_from__(ffi_new())
            user_init(self, *args, **kwargs)

        functools.update_wrapper(wrapped, user_init)  # name, doc, __wrapped__ (so the signature)
        _set(cls, "__init__", wrapped)
        return
    if not init:
        cls.__init__ = make_no_init(cls)  # type: ignore[misc]
        return
    ctor: Any = cls.__dict__.get("__ffi_init__")  # the reflected constructor, bound by bind_reflection
    computed: dict[str, Callable[..., Any]] = {}  # by name: a subclass's computation replaces its base's
    for klass in reversed(cls.__mro__):
        for name, prop in klass.__dict__.get("__tvm_ffi_init_properties__", ()):
            computed[name] = prop.func
    props = list(computed.items())
    signature = signature_of(info)
    if _post_init_of(cls) is None and not props:
        cls.__init__ = ctor  # type: ignore[misc]
        ctor.__signature__ = init_signature(signature)
    else:
        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            if self.__chandle__() == 0:
                ctor(self, *args, **kwargs)
                for name, compute in props:  # computed once from the initialised fields
                    getattr(cls, name).set(self, compute(self))
                if _post_init_of(cls) is not None:
                    self.__post_init__()

        __init__.__signature__ = init_signature(signature)  # type: ignore[attr-defined]
        _set(cls, "__init__", __init__)


def _set(cls: type, name: str, func: Callable[..., Any]) -> None:
    func.__name__ = name
    func.__qualname__ = f"{cls.__qualname__}.{name}"
    func._tvm_ffi_generated = True  # type: ignore[attr-defined]
    setattr(cls, name, func)


def _comparable(a: Any, b: Any) -> bool:
    return isinstance(b, type(a)) or isinstance(a, type(b))


def _make_eq() -> tuple[Callable[..., Any], Callable[..., Any]]:
    recursive_eq = _global("ffi.RecursiveEq")

    def __eq__(self: Any, other: Any) -> Any:
        if not _comparable(self, other):
            return NotImplemented
        return bool(recursive_eq(self, other))

    def __ne__(self: Any, other: Any) -> Any:
        if not _comparable(self, other):
            return NotImplemented
        return not recursive_eq(self, other)

    return __eq__, __ne__


def _make_order(name: str) -> Callable[..., Any]:
    fn = _global(_RECURSIVE[name])

    def compare(self: Any, other: Any) -> Any:
        if not _comparable(self, other):
            return NotImplemented
        return bool(fn(self, other))

    return compare


def _make_hash() -> Callable[..., Any]:
    recursive_hash = _global("ffi.RecursiveHash")

    def __hash__(self: Any) -> int:
        return int(recursive_hash(self))

    return __hash__


def __replace__(self: Any, **changes: Any) -> Any:
    """A shallow copy with ``changes`` written through the fields (frozen ones too)."""
    cls = type(self)
    new = copy.copy(self)
    for name, value in changes.items():
        prop = getattr(cls, name)  # AttributeError names the missing field
        prop.set(new, value)
    return new


def install_dunders(cls: type, info: TypeInfo, options: dict[str, Any]) -> None:
    """Equality, hash, ordering, ``__replace__``, ``__match_args__`` and the dataclass marker."""
    body = cls.__dict__
    if options.get("eq") and "__eq__" not in body and "__ne__" not in body:
        eq, ne = _make_eq()
        _set(cls, "__eq__", eq)
        _set(cls, "__ne__", ne)
    if options.get("order") and not any(name in body for name in _ORDER):
        for name in _ORDER:
            _set(cls, name, _make_order(name))
    if options.get("unsafe_hash") and "__hash__" not in body:
        _set(cls, "__hash__", _make_hash())
    if "__replace__" not in body:
        _set(cls, "__replace__", __replace__)
    if options.get("match_args", True) and "__match_args__" not in body:
        cls.__match_args__ = tuple(f.name for f in _init_fields(info) if not f.c_kw_only)  # type: ignore[attr-defined, misc]
    cls.__ffi_is_dataclass__ = True  # type: ignore[attr-defined]
