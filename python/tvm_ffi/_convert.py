"""``convert`` / ``convert_func``: turn Python values into FFI values explicitly.

Calls convert their arguments automatically; these helpers do the same conversion up front, e.g.
to keep the FFI object (a ``String``, an ``Array``, a ``Function``) and pass it many times.
"""

from __future__ import annotations

import ctypes
from numbers import Number
from typing import Any, Callable

from . import _core
from ._dtype import dtype

__all__ = ["convert", "convert_func"]

# Values passed through unchanged: they already are FFI values, or plain values a call passes by
# value, or protocol objects a call understands directly.
_PASS_THROUGH = (_core.CObject, _core.String, _core.Bytes, _core.Device, bool, Number, ctypes.c_void_p, dtype)
_PROTOCOLS = ("__cuda_stream__", "__tvm_ffi_opaque_ptr__", "__dlpack_device__", "__tvm_ffi_int__",
              "__tvm_ffi_float__")


def _convert_by_rules(value: Any) -> Any:
    """What :func:`convert` gives for ``value``: the rules, in order.

    :func:`convert` itself is ``_core.convert``, which answers the common values (FFI objects,
    ``None``, numbers, ``str``, plain functions) in C and hands every other value to this.
    """
    if value is None or isinstance(value, _PASS_THROUGH):
        return value
    if isinstance(value, str):
        return _core.String(value)
    if isinstance(value, (bytes, bytearray)):
        return _core.Bytes(bytes(value))
    if isinstance(value, BaseException):
        return _core._convert_to_ffi_error(value)
    if isinstance(value, tuple) and hasattr(value, "__tvm_ffi_object__"):
        return value  # a tvm_ffi.Shape is already the FFI value (it carries its runtime object)
    if hasattr(value, "__tvm_ffi_object__"):
        return value.__tvm_ffi_object__()
    if isinstance(value, (list, tuple, dict)) or hasattr(value, "__dlpack__"):
        return _core._convert(value)
    if callable(value):  # classes too, as the reference: convert(list) is a Function
        return _core._convert_to_ffi_func(value)
    if dtype.is_dtype(value):
        return dtype(value)
    if any(hasattr(value, name) for name in _PROTOCOLS):
        return value
    return _to_opaque(value)


_core._set_convert_rules(_convert_by_rules)
# The public function: C for the common values, the rules above for the rest.
convert = _core.convert


def _to_opaque(value: Any) -> Any:
    """``value`` wrapped as an ``OpaquePyObject`` when _core offers that, else as a call passes it."""
    wrap = getattr(_core, "_convert_to_opaque_object", None)
    return wrap(value) if wrap is not None else _core._convert(value)


def convert_func(pyfunc: Callable[..., Any], tensor_cls: type | None = None) -> _core.Function:
    """Wrap a Python callable as a :class:`tvm_ffi.Function` that any language can call.

    Parameters
    ----------
    pyfunc : Callable
        The callable; its arguments arrive as Python values, and its result is converted back.
    tensor_cls : type, optional
        Deliver tensor arguments as this framework's tensors (e.g. ``torch.Tensor``): the class
        must publish ``__dlpack_c_exchange_api__``. By default they arrive as
        :class:`tvm_ffi.Tensor`.

    Returns
    -------
    Function
        The FFI function.

    Raises
    ------
    TypeError
        When ``pyfunc`` is not callable, or ``tensor_cls`` publishes no usable
        ``__dlpack_c_exchange_api__``.

    Examples
    --------
    >>> f = tvm_ffi.convert_func(lambda x, y: x * y)
    >>> f(6, 7)
    42
    """
    if not callable(pyfunc):
        raise TypeError(f"convert_func: expected a callable, got {type(pyfunc).__name__}")
    if tensor_cls is not None:
        if not hasattr(tensor_cls, "__dlpack_c_exchange_api__"):
            raise TypeError(f"convert_func: tensor_cls {tensor_cls!r} has no __dlpack_c_exchange_api__")
        return _core._convert_to_ffi_func_in_framework(pyfunc, tensor_cls)
    return _core._convert_to_ffi_func(pyfunc)
