"""The runtime's registries seen from Python: global functions and object types.

Global functions live in one process-wide table keyed by name (``"ffi.Array"``,
``"testing.add_one"``, ...): C, C++ and Python register and look up functions there. Object
types are registered by their type key in C or C++; ``register_object`` binds a Python class to
one so that objects of that type come back from calls as instances of the class.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Sequence
from typing import Any, Callable, Literal, TypeVar, overload

from . import _core
from ._class_binding import bind_reflection, forget_fallback, rebuild_fallbacks_under
from ._reflection import _type_info_of_index

__all__ = [
    "get_global_func",
    "get_global_func_metadata",
    "get_registered_type_keys",
    "init_ffi_api",
    "list_global_func_names",
    "register_global_func",
    "register_object",
    "remove_global_func",
]

_T = TypeVar("_T", bound=type)
_F = TypeVar("_F", bound=Callable[..., Any])


# ---- object types ----


def register_object(type_key: str | type | None = None, *, init: bool = True) -> Any:
    """Bind a Python class to a runtime object type: objects of that type come back as the class.

    The type must already be registered in the runtime (by C/C++ code). The class should derive
    from :class:`tvm_ffi.Object`; subclasses of a registered class are used for derived runtime
    types that have no class of their own. The class gets the type's reflected fields (data
    descriptors), methods, ``__ffi_init__`` and type-attribute hooks; names its body defines win.

    Parameters
    ----------
    type_key : str or type, optional
        The runtime type key; defaults to the class name. Used bare (``@register_object``), this
        is the class itself.
    init : bool, optional
        Give a class that defines no ``__init__`` one that calls the type's ``__ffi_init__``, or
        raises ``TypeError`` when the type has none (default True).

    Returns
    -------
    Callable[[type], type] or type
        The class decorator, or the bound class when used bare.

    Raises
    ------
    TypeError
        When ``type_key`` is neither a str nor a class.
    ValueError
        When no runtime type is registered under the key.

    Examples
    --------
    >>> @tvm_ffi.register_object("testing.TestIntPair")
    ... class IntPair(tvm_ffi.Object):
    ...     pass
    >>> pair = IntPair(1, 2)
    >>> (pair.a, pair.b)
    (1, 2)
    """
    if isinstance(type_key, type):  # used bare: @register_object
        return _bind_class(type_key, type_key.__name__, init)
    if type_key is not None and not isinstance(type_key, str):
        raise TypeError(f"register_object: type_key must be a str, got {type(type_key).__name__}")

    def decorator(cls: _T) -> _T:
        return _bind_class(cls, type_key if type_key is not None else cls.__name__, init)

    return decorator


def _bind_class(cls: _T, type_key: str, init: bool) -> _T:
    if not isinstance(cls, type):
        raise TypeError(f"register_object({type_key!r}) decorates classes, got {cls!r}")
    type_index = _core._object_type_key_to_index(type_key)
    if type_index is None:
        # The reference's text (users match on it); the type must be registered in C/C++ first.
        raise ValueError(f"Cannot find object type index for {type_key}")
    _core._register_object_class(type_index, cls)
    cls.__tvm_ffi_type_key__ = type_key  # type: ignore[attr-defined]
    cls.__tvm_ffi_type_index__ = type_index  # type: ignore[attr-defined]
    if issubclass(cls, _core.CObject):
        bind_reflection(cls, _type_info_of_index(type_index), init)
    forget_fallback(type_index)
    rebuild_fallbacks_under(type_index)  # classes synthesised under the old class of this type
    return cls


def _add_class_attrs(type_cls: type, type_info: Any, type_attr_names: Any = ()) -> type:
    """Put the type's reflected fields, methods and ``__ffi_init__`` on ``type_cls`` (the step
    of ``@py_class`` that binds a class, for code that builds classes by hand)."""
    del type_attr_names  # type attributes are read through the type info on demand
    bind_reflection(type_cls, type_info, init=False)
    return type_cls


def _warn_missing_field_annotations(cls: type, type_info: Any, *, stacklevel: int = 2) -> None:
    """Warn (UserWarning) when ``cls`` does not annotate some of its type's own reflected fields.

    Annotations make the fields visible to type checkers and give ``fields()`` their types;
    fields of parent types are the parents' concern.
    """
    annotations = cls.__dict__.get("__annotations__", {})
    missing = [tf.name for tf in type_info.fields or () if tf.name not in annotations]
    if missing:
        warnings.warn(f"class `{cls.__name__}` ({type_info.type_key}) does not annotate the following "
                      f"reflected field(s): {', '.join(missing)}. Add type annotations for them.",
                      UserWarning, stacklevel=stacklevel + 1)


def get_registered_type_keys() -> Sequence[str]:
    """Type keys of every type in the runtime's type table (POD types included).

    Returns
    -------
    Sequence[str]
        The keys, such as ``"ffi.Array"`` or the keys a loaded library registered, in type
        index order: the runtime's ``Array`` itself, as the reference returns it (no copy).

    Examples
    --------
    >>> "ffi.Array" in tvm_ffi.get_registered_type_keys()
    True
    """
    keys: Sequence[str] = get_global_func("ffi.GetRegisteredTypeKeys")()
    return keys


def array_to_list(array: _core.Object) -> list[Any]:
    """The items of an ``ffi.Array`` (read with the runtime's own accessors)."""
    if isinstance(array, _core.SeqBase):  # the Array class reads its cells in C
        return list(array)
    size, item = get_global_func("ffi.ArraySize"), get_global_func("ffi.ArrayGetItem")
    return [item(array, i) for i in range(size(array))]


# ---- global functions ----


@overload
def register_global_func(func_name: _F, f: None = None, override: bool = False) -> _core.Function: ...


@overload
def register_global_func(
    func_name: str, f: None = None, override: bool = False
) -> Callable[[Callable[..., Any]], _core.Function]: ...


@overload
def register_global_func(func_name: str, f: Callable[..., Any], override: bool = False) -> _core.Function: ...


def register_global_func(
    func_name: str | Callable[..., Any], f: Callable[..., Any] | None = None, override: bool = False
) -> Any:
    """Registers ``f`` as the global function ``func_name``; returns the registered ``Function``.

    Forms: ``register_global_func("ns.name", f)``, ``@register_global_func("ns.name")`` and
    ``@register_global_func`` (named after the function). An existing name raises
    ``RuntimeError`` unless ``override=True``. The decorated name is bound to the ``Function``.

    Parameters
    ----------
    func_name : str or callable
        The global name (``"namespace.name"``), or the function itself when used as a bare
        decorator.
    f : callable, optional
        The Python function; omitted when used as a decorator.
    override : bool
        Replace a function already registered under that name.

    Returns
    -------
    Function or callable
        The registered ``Function``; with ``f`` omitted, a decorator that registers and
        returns it.

    Raises
    ------
    RuntimeError
        The name is taken and ``override`` is false.
    TypeError
        ``func_name`` is neither a str nor a named function, or ``f`` is not callable.

    Examples
    --------
    >>> @tvm_ffi.register_global_func("demo.add_one")
    ... def add_one(x): return x + 1
    >>> tvm_ffi.get_global_func("demo.add_one")(1)
    2
    """
    if not isinstance(func_name, str):
        if f is not None or not callable(func_name):
            raise TypeError(
                f"register_global_func: expected a function name (str), got {type(func_name).__name__}"
            )
        f = func_name
        func_name = getattr(f, "__name__", "")
        if not isinstance(func_name, str) or not func_name:
            raise TypeError(f"register_global_func: {f!r} has no __name__; pass the name explicitly")
    name: str = func_name

    def register(func: Callable[..., Any]) -> Any:
        if not callable(func):
            raise TypeError(f"register_global_func({name!r}): expected a callable, got {type(func).__name__}")
        return _core._register_global_func(name, func, bool(override))

    return register if f is None else register(f)


@overload
def get_global_func(name: str, allow_missing: Literal[False] = False) -> _core.Function: ...


@overload
def get_global_func(name: str, allow_missing: bool) -> _core.Function | None: ...


def get_global_func(name: str, allow_missing: bool = False) -> _core.Function | None:
    """The global function ``name``: a ``Function``, or ``None`` when missing and ``allow_missing``.

    Parameters
    ----------
    name : str
        The registered name, such as ``"testing.add_one"``.
    allow_missing : bool
        Return ``None`` instead of raising when no function has that name.

    Returns
    -------
    Function or None
        The function; ``None`` only with ``allow_missing``.

    Raises
    ------
    ValueError
        ``"Cannot find global function <name>"`` when missing without ``allow_missing``.

    Examples
    --------
    >>> tvm_ffi.get_global_func("testing.add_one")(41)
    42
    >>> tvm_ffi.get_global_func("no.such.function", allow_missing=True) is None
    True
    """
    return _core._get_global_func(name, bool(allow_missing))


def remove_global_func(name: str) -> None:
    """Removes the global function ``name``; nothing happens when none is registered.

    Parameters
    ----------
    name : str
        The registered name.

    Examples
    --------
    >>> _ = tvm_ffi.register_global_func("demo.temporary", lambda: 1)
    >>> tvm_ffi.remove_global_func("demo.temporary")
    >>> tvm_ffi.get_global_func("demo.temporary", allow_missing=True) is None
    True
    """
    get_global_func("ffi.FunctionRemoveGlobal")(name)


def list_global_func_names() -> list[str]:
    """Names of all registered global functions.

    Returns
    -------
    list[str]
        Every name :func:`get_global_func` finds.

    Examples
    --------
    >>> "testing.add_one" in tvm_ffi.list_global_func_names()
    True
    """
    names = get_global_func("ffi.FunctionListGlobalNamesFunctor")()
    return [names(i) for i in range(names(-1))]


def get_global_func_metadata(name: str) -> dict[str, Any]:
    """Metadata of a global function as a dict (e.g. ``type_schema`` JSON); ``{}`` when it has none.

    Parameters
    ----------
    name : str
        The registered name.

    Returns
    -------
    dict[str, Any]
        The decoded metadata JSON.

    Raises
    ------
    RuntimeError
        ``"Global Function is not found: <name>"`` when no function has that name.

    Examples
    --------
    >>> tvm_ffi.get_global_func_metadata("testing.add_one")["type_schema"]
    '{"type":"ffi.Function","named_args":{"return":[{"type":"int"}],"params":[{"type":"int"}]}}'
    """
    text = get_global_func("ffi.GetGlobalFuncMetadata")(name)
    return json.loads(text) if text else {}


def init_ffi_api(namespace: str, target_module_name: str | None = None) -> None:
    """Set every global function ``<namespace>.<name>`` as attribute ``<name>`` of a module.

    The usual use is ``init_ffi_api("mylib", __name__)`` in a package's ``_ffi_api.py``. Names with
    further dots (``mylib.sub.f``) are left for the submodule. A leading ``tvm.`` of the namespace
    is dropped, as in TVM.

    Parameters
    ----------
    namespace : str
        The prefix of the global function names, without the trailing dot.
    target_module_name : str, optional
        The module that receives the functions (default: ``namespace``); it must be imported
        already.

    Raises
    ------
    ValueError
        When the target module is not imported.

    Examples
    --------
    >>> import sys, types
    >>> sys.modules["doc_testing_api"] = types.ModuleType("doc_testing_api")
    >>> tvm_ffi.init_ffi_api("testing", "doc_testing_api")
    >>> sys.modules["doc_testing_api"].add_one(41)
    42
    """
    module_name = target_module_name if target_module_name else namespace
    module = sys.modules.get(module_name)
    if module is None:
        raise ValueError(f"init_ffi_api({namespace!r}): module {module_name!r} is not imported")
    prefix = (namespace[4:] if namespace.startswith("tvm.") else namespace) + "."
    for full_name in list_global_func_names():
        if not full_name.startswith(prefix) or "." in full_name[len(prefix) :]:
            continue
        short_name = full_name[len(prefix) :]
        func: Any = get_global_func(full_name)
        func.__name__ = short_name  # kept in the Function's __dict__, as the reference does
        setattr(module, short_name, func)
