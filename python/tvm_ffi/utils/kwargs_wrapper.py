"""Keyword arguments and defaults over a function that only takes positional arguments.

FFI functions are called positionally. ``make_kwargs_wrapper`` generates a small Python function
with a real signature (names, defaults, keyword-only parameters) whose body is one positional
call, so keyword calls cost what a plain Python call costs and ``inspect.signature`` shows the
parameters.
"""

from __future__ import annotations

import functools
import inspect
import keyword
import types
from collections.abc import Iterable, Sequence
from typing import Any, Callable

from .._core import MISSING  # noqa: F401  (the default sentinel, importable from here as in the reference)
from .unpack_dataclass import unpack_dataclass_to_tuple

__all__ = ["make_kwargs_wrapper", "make_kwargs_wrapper_from_signature"]

# Names the generated code uses itself; user parameters may not take them.
_TARGET = "__i_target_func"
_UNPACK = "__i_unpack"
_RESERVED = frozenset({_TARGET, _UNPACK, "__i_MISSING", "__i_arg_defaults"})


def _check_names(names: Sequence[Any], what: str) -> None:
    if len(set(names)) != len(names):
        raise ValueError(f"Duplicate {what.lower()} names found in: {list(names)}")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"{what} name must be a string, got {type(name).__name__}: {name!r}")
        if keyword.iskeyword(name):
            raise ValueError(
                f"Invalid {what.lower()} name: {name!r} is a Python keyword and cannot be used as a parameter name"
            )
        if not name.isidentifier():
            raise ValueError(f"Invalid {what.lower()} name: {name!r} is not a valid Python identifier")


def _check_arguments(
    arg_names: list[str], arg_defaults: tuple[Any, ...], kwonly_names: list[str], kwonly_defaults: dict[str, Any]
) -> None:
    _check_names(arg_names, "Argument")
    if not isinstance(arg_defaults, tuple):
        raise TypeError(f"arg_defaults must be a tuple, got {type(arg_defaults).__name__}")
    if len(arg_defaults) > len(arg_names):
        raise ValueError(
            f"arg_defaults has {len(arg_defaults)} values but only {len(arg_names)} positional arguments"
        )
    _check_names(kwonly_names, "Keyword-only argument")
    for key in kwonly_defaults:
        if key not in kwonly_names:
            raise ValueError(f"Default provided for '{key}' which is not in kwonly_names: {kwonly_names}")
    overlap = set(arg_names) & set(kwonly_names)
    if overlap:
        raise ValueError(f"Arguments cannot be both positional and keyword-only: {overlap}")
    conflicts = (set(arg_names) | set(kwonly_names)) & _RESERVED
    if conflicts:
        raise ValueError(
            f'Argument names conflict with internal names: {conflicts}. Please avoid using names starting with "__i_"'
        )


def make_kwargs_wrapper(
    target_func: Callable[..., Any],
    arg_names: list[str],
    arg_defaults: tuple[Any, ...] = (),
    kwonly_names: list[str] | None = None,
    kwonly_defaults: dict[str, Any] | None = None,
    prototype: Callable[..., Any] | None = None,
    map_dataclass_to_tuple: list[str] | None = None,
) -> Callable[..., Any]:
    """Make a function with a given signature that calls ``target_func`` with every argument positionally.

    The call passes positional parameters first, then keyword-only ones, in declaration order, so
    an FFI function (which takes positional arguments only) gets a Python signature with keywords
    and defaults.

    Parameters
    ----------
    target_func : Callable
        The function to call.
    arg_names : list of str
        The positional-or-keyword parameters, in order.
    arg_defaults : tuple, optional
        Defaults of the last ``len(arg_defaults)`` of them (like ``__defaults__``).
    kwonly_names : list of str, optional
        Keyword-only parameters, after a ``*``.
    kwonly_defaults : dict, optional
        Defaults of some keyword-only parameters (like ``__kwdefaults__``); the others are required.
    prototype : Callable, optional
        Lends its ``__name__``, ``__doc__``, ``__module__``, ``__qualname__`` and annotations.
    map_dataclass_to_tuple : list of str, optional
        Arguments that go through :func:`unpack_dataclass_to_tuple` first.

    Returns
    -------
    Callable
        The wrapper.

    Raises
    ------
    ValueError, TypeError
        For invalid names or defaults, before anything is generated.

    Examples
    --------
    >>> from tvm_ffi.utils.kwargs_wrapper import make_kwargs_wrapper
    >>> add = make_kwargs_wrapper(lambda a, b, c: a + b + c, ["a", "b"], (10,), ["c"], {"c": 100})
    >>> add(1), add(1, b=2, c=3)
    (111, 6)
    """
    kwonly_names = list(kwonly_names or [])
    kwonly_defaults = dict(kwonly_defaults or {})
    unpacked = set(map_dataclass_to_tuple or ())
    _check_arguments(arg_names, arg_defaults, kwonly_names, kwonly_defaults)

    params = list(arg_names) + (["*", *kwonly_names] if kwonly_names else [])
    call = [f"{_UNPACK}({name})" if name in unpacked else name for name in [*arg_names, *kwonly_names]]
    # Only validated identifiers reach the generated text; default values never do (they are
    # attached below as __defaults__ / __kwdefaults__, exactly as `def` would store them).
    code = f"def wrapper({', '.join(params)}):\n    return {_TARGET}({', '.join(call)})\n"
    namespace: dict[str, Any] = {}
    exec(code, {_TARGET: target_func, _UNPACK: unpack_dataclass_to_tuple}, namespace)
    wrapper: types.FunctionType = namespace["wrapper"]
    wrapper.__defaults__ = arg_defaults or None
    wrapper.__kwdefaults__ = kwonly_defaults or None
    if prototype is not None:
        functools.update_wrapper(wrapper, prototype, updated=())
    return wrapper


def make_kwargs_wrapper_from_signature(
    target_func: Callable[..., Any],
    signature: inspect.Signature,
    prototype: Callable[..., Any] | None = None,
    exclude_arg_names: Iterable[str] | None = None,
    map_dataclass_to_tuple: list[str] | None = None,
) -> Callable[..., Any]:
    """Make a :func:`make_kwargs_wrapper` wrapper with the parameters of an ``inspect.Signature``.

    Parameters
    ----------
    target_func : Callable
        The function to call.
    signature : inspect.Signature
        The signature the wrapper takes.
    prototype : Callable, optional
        Lends its name, docstring and annotations.
    exclude_arg_names : Iterable of str, optional
        Parameters of ``signature`` to leave out.
    map_dataclass_to_tuple : list of str, optional
        Arguments that go through :func:`unpack_dataclass_to_tuple` first.

    Returns
    -------
    Callable
        The wrapper.

    Raises
    ------
    ValueError
        For ``*args``/``**kwargs`` parameters, or a required positional parameter after one with
        a default.

    Examples
    --------
    >>> import inspect
    >>> from tvm_ffi.utils.kwargs_wrapper import make_kwargs_wrapper_from_signature
    >>> def scale(x, factor=2): ...
    >>> f = make_kwargs_wrapper_from_signature(lambda x, factor: x * factor, inspect.signature(scale))
    >>> f(3), f(3, factor=10)
    (6, 30)
    """
    skip = set(exclude_arg_names or ())
    arg_names: list[str] = []
    arg_defaults: list[Any] = []
    kwonly_names: list[str] = []
    kwonly_defaults: dict[str, Any] = {}
    for name, param in signature.parameters.items():
        if name in skip:
            continue
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            raise ValueError("*args not supported in wrapper generation")
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            raise ValueError("**kwargs not supported in wrapper generation")
        has_default = param.default is not inspect.Parameter.empty
        if param.kind is inspect.Parameter.KEYWORD_ONLY:
            kwonly_names.append(name)
            if has_default:
                kwonly_defaults[name] = param.default
            continue
        if arg_defaults and not has_default:
            raise ValueError(f"Required positional parameter '{name}' cannot follow parameters with defaults")
        arg_names.append(name)
        if has_default:
            arg_defaults.append(param.default)
    return make_kwargs_wrapper(
        target_func, arg_names, tuple(arg_defaults), kwonly_names, kwonly_defaults, prototype, map_dataclass_to_tuple
    )
