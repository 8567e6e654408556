"""Binding a Python class to a reflected FFI object type (used by ``register_object``).

From the type's reflection the class gets: a ``core.FieldProperty`` per own field, each method
(instance methods as ``core.InstanceMethod``, static ones as ``staticmethod``), ``__ffi_init__``
and an ``__init__`` calling it (a ``core.ConstructorInit``, adopting the new handle), and the type
attribute hooks (``__ffi_repr__``, ``__ffi_hash__``, ...). Names the class body (or a Python
base) defines win. Types that have no class get one synthesised under their nearest bound
ancestor, so their own fields and methods work too. Reflection registered after the class was
bound is picked up when a library loads (``load_module``), and, for types that reflected
nothing when bound, on the first attribute lookup that misses.
"""

from __future__ import annotations

import inspect
import keyword
from typing import Any, Callable

from . import _core
from ._reflection import _TYPE_INFOS, TypeInfo, _type_info_of_index

__all__ = ["bind_reflection", "forget_fallback", "init_signature", "make_fallback_class",
           "rebuild_fallbacks_under", "refresh_bound_classes", "signature_of"]

_HOOK_ATTRS = ("__ffi_repr__", "__ffi_hash__", "__ffi_eq__", "__ffi_compare__", "__ffi_convert__")


def _find_init(info: TypeInfo) -> Any:
    """The constructor function: an explicit ``__ffi_init__`` method, else the type attribute."""
    for method in info.methods:
        if method.name == "__ffi_init__" and method.func is not None:
            return method.func
    return _core._lookup_type_attr(info.type_index, "__ffi_init__")


def signature_of(info: TypeInfo) -> inspect.Signature | None:
    """How the type's constructor is called, from its fields' init flags: positional required,
    positional defaulted, keyword-only required, keyword-only defaulted (defaults show as
    ``MISSING``: the runtime fills them in). None when a field's name cannot name a Python
    parameter (a C++ field called ``def``, say): such a constructor has no signature to show."""
    groups: list[list[inspect.Parameter]] = [[], [], [], []]
    for f in info.all_fields():
        if not f.c_init:
            continue
        if not f.name.isidentifier() or keyword.iskeyword(f.name):
            return None
        kind = inspect.Parameter.KEYWORD_ONLY if f.c_kw_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
        default = _core.MISSING if f.c_has_default else inspect.Parameter.empty
        groups[2 * f.c_kw_only + f.c_has_default].append(inspect.Parameter(f.name, kind, default=default))
    return inspect.Signature([p for group in groups for p in group])


def init_signature(signature: inspect.Signature | None) -> inspect.Signature | None:
    """The signature of ``__init__`` for a class called with ``signature``: ``self`` first."""
    if signature is None:
        return None
    this = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return signature.replace(parameters=[this, *signature.parameters.values()])


def _make_init(cls: type, ffi_init: Any, name: str, signature: inspect.Signature | None) -> Any:
    """``__init__``/``__ffi_init__`` in C: (self, *args, **kwargs) -> the FFI constructor, with
    the signature (``self`` first) that ``inspect.signature`` (and so ``help``) reports."""
    ctor = _core.ConstructorInit(ffi_init, f"{cls.__qualname__}.{name}")
    ctor.__signature__ = signature
    return ctor


def make_no_init(cls: type) -> Callable[..., None]:
    """An ``__init__`` for types without a constructor: raises a clear ``TypeError``."""
    name = cls.__name__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            f"`{name}` cannot be constructed directly. Define a custom __init__ or use a factory method."
        )

    return _generated(__init__, cls)


def _defines(cls: type, name: str) -> bool:
    return name in cls.__dict__


def _user_defined(cls: type, name: str) -> bool:
    """True when ``cls`` or a base defines ``name`` itself (not as reflection bound here)."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            value = klass.__dict__[name]
            if isinstance(value, staticmethod):
                value = value.__func__
            return not (isinstance(value, (_core.FieldProperty, _core.InstanceMethod))
                        or getattr(value, "_tvm_ffi_generated", False))
    return False


def _has_user_init(cls: type) -> bool:
    """True when ``cls`` defines or inherits an ``__init__`` that this module did not generate."""
    init = cls.__init__  # type: ignore[misc]
    if isinstance(init, _core.ConstructorInit) or getattr(init, "_tvm_ffi_generated", False):
        return False
    return init not in (object.__init__, _core.Object.__init__)


def _generated(func: Callable[..., None], cls: type) -> Callable[..., None]:
    func.__qualname__ = f"{cls.__qualname__}.{func.__name__}"
    func.__module__ = cls.__module__
    func._tvm_ffi_generated = True  # type: ignore[attr-defined]
    return func


def _bind_members(cls: type, info: TypeInfo) -> None:
    for field in info.fields or ():
        if not _user_defined(cls, field.name):
            setattr(cls, field.name, field.as_property(cls))
    for method in info.methods:
        if method.name == "__ffi_init__" or _user_defined(cls, method.name):
            continue
        setattr(cls, method.name, method.as_callable(cls))
    for attr in _HOOK_ATTRS:
        if not _defines(cls, attr):
            hook = _core._lookup_type_attr(info.type_index, attr)
            if hook is not None:
                setattr(cls, attr, hook)


def bind_reflection(cls: type, info: TypeInfo, init: bool) -> None:
    """Puts the reflected fields, methods, constructor and hooks of ``info`` on ``cls``."""
    info.type_cls = cls
    cls.__tvm_ffi_type_info__ = info  # type: ignore[attr-defined]
    _bind_members(cls, info)
    ffi_init = _find_init(info)
    signature = init_signature(signature_of(info)) if ffi_init is not None else None
    if ffi_init is not None and not _defines(cls, "__ffi_init__"):
        cls.__ffi_init__ = _make_init(cls, ffi_init, "__ffi_init__", signature)  # type: ignore[attr-defined]
    if init and not _has_user_init(cls):
        cls.__init__ = _make_init(cls, ffi_init, "__init__", signature) if ffi_init is not None else make_no_init(cls)  # type: ignore[misc]
    # A type that reflects nothing yet may get its reflection later (a library registering it
    # after the class was bound): its misses look again. Only then, because a __getattr__
    # slows every attribute access of the class (about a third of an enum member's `.value`).
    # A type with metadata has had its reflection registered (ObjectDef registers the metadata
    # first), even if it declared no fields or methods of its own, as enums do.
    dynamic = info.type_index >= 128  # the runtime's own types never gain reflection later
    reflects_nothing = not info.fields and not info.methods and not info.metadata
    if dynamic and reflects_nothing and not hasattr(cls, "__getattr__"):
        cls.__getattr__ = _late_reflection_getattr  # type: ignore[attr-defined]


_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE


def _bindable(cls: type) -> bool:
    """Whether reflection can be put on ``cls``: a Python-made object class. The runtime's C
    types (Tensor, Function, String, ...) are immutable and value classes (Shape, DataType) are
    no objects; their type infos name them all the same."""
    return cls is not _core.Object and bool(cls.__flags__ & _HEAP_TYPE) and issubclass(cls, _core.CObject)


# The type indices known to Python and their reflection shapes (_core._type_info_shapes) when
# refresh_bound_classes last ran: a library that registers nothing new costs one C call.
_last_refresh: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())


def refresh_bound_classes() -> None:
    """Binds reflection registered since classes were bound (called after a library loads)."""
    global _last_refresh
    indices = _last_refresh[0]
    if len(indices) != len(_TYPE_INFOS):  # entries are only ever added
        indices = tuple(_TYPE_INFOS)
    shapes = _core._type_info_shapes(indices)
    if (indices, shapes) == _last_refresh:
        return
    for info in list(_TYPE_INFOS.values()):
        # Every info is brought up to date (the snapshot below promises it), bound or not yet.
        changed = info._refresh()
        cls = info.type_cls
        if changed and cls is not None and _bindable(cls):
            _bind_members(cls, info)
            _drop_late_hook(cls, info)
    _last_refresh = (indices, shapes)


def _drop_late_hook(cls: type, info: TypeInfo) -> None:
    if (info.fields or info.methods) and cls.__dict__.get("__getattr__") is _late_reflection_getattr:
        del cls.__getattr__  # type: ignore[attr-defined]


def _late_reflection_getattr(self: Any, name: str) -> Any:
    """On a miss: bind reflection registered since the class was bound, then look again."""
    cls = type(self)
    if not name.startswith("__") and _refresh_class(cls):
        return object.__getattribute__(self, name)
    raise AttributeError(f"'{cls.__name__}' object has no attribute '{name}'")


def _refresh_class(cls: type) -> bool:
    changed = False
    for klass in cls.__mro__:
        info = klass.__dict__.get("__tvm_ffi_type_info__")
        if isinstance(info, TypeInfo) and info._refresh():
            _bind_members(klass, info)
            _drop_late_hook(klass, info)
            changed = True
    return changed


def make_fallback_class(type_index: int) -> type:
    """A class for a type no Python code bound: under its parent's class, with its reflection."""
    info = _type_info_of_index(type_index)
    parent_index = info.type_ancestors[-1] if info.type_ancestors else None
    parent_cls = _core._class_for_type_index(parent_index) if parent_index is not None else _core.Object
    module, _, name = info.type_key.rpartition(".")
    namespace = {
        "__slots__": (),
        "__module__": module or "tvm_ffi",
        "__qualname__": info.type_key,
        "__doc__": f"Auto-generated fallback class for the FFI type `{info.type_key}` "
                   "(no Python class is registered for it).",
    }
    cls = type(name, (parent_cls,), namespace)
    _core._register_object_class(type_index, cls)
    _FALLBACKS[type_index] = cls
    bind_reflection(cls, info, init=True)
    rebuild_fallbacks_under(type_index)
    return cls


# Classes made above, by type index: they go when their type gets a class of its own, and are
# made again under a new class of an ancestor.
_FALLBACKS: dict[int, type] = {}


def rebuild_fallbacks_under(type_index: int) -> None:
    """Remakes the synthesised classes of ``type_index``'s descendants (their parent changed)."""
    for index in sorted(_FALLBACKS, key=lambda i: len(_TYPE_INFOS[i].type_ancestors)):
        if type_index in _TYPE_INFOS[index].type_ancestors:
            del _FALLBACKS[index]
            make_fallback_class(index)


def forget_fallback(type_index: int) -> None:
    """``type_index`` got a class of its own: its synthesised one (if any) is dropped."""
    _FALLBACKS.pop(type_index, None)


# Objects of types without a class come back as classes made here (see type_table.c).
_core._fallback_class_factory = make_fallback_class
