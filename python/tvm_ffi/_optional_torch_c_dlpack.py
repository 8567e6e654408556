"""Optional faster DLPack exchange for PyTorch tensors.

PyTorch publishes its C DLPack exchange table (``DLPackExchangeAPI``) on ``torch.Tensor`` as
``__dlpack_c_exchange_api__``; releases without it can get the table from the ``torch-c-dlpack-ext``
addon, which publishes it under the older name ``__c_dlpack_exchange_api__`` (an int address).
Calls read either name, so nothing needs loading for speed. This module keeps the reference
package's entry point for code that calls it: it imports the addon when PyTorch lacks the table
and mirrors the older attribute under the current name.

Unlike the reference package, nothing is compiled here: without the table and without the addon,
PyTorch tensors travel through ``__dlpack__`` as every other framework's do.
"""

from __future__ import annotations

import ctypes
import importlib
from typing import Any

__all__ = ["load_torch_c_dlpack_extension"]

_CAPSULE_NAME = b"dlpack_exchange_api"


def _capsule_of_address(address: int) -> Any:
    """A PyCapsule named ``dlpack_exchange_api`` holding ``address`` (no destructor)."""
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new_capsule(ctypes.c_void_p(address), _CAPSULE_NAME, None)


def _publish_current_name(tensor_cls: type) -> bool:
    """Tell whether ``tensor_cls`` publishes an exchange table, copying the older name to the new."""
    if hasattr(tensor_cls, "__dlpack_c_exchange_api__"):
        return True
    legacy = getattr(tensor_cls, "__c_dlpack_exchange_api__", None)
    if legacy is None:
        return False
    table = _capsule_of_address(legacy) if isinstance(legacy, int) else legacy
    tensor_cls.__dlpack_c_exchange_api__ = table  # type: ignore[attr-defined]
    return True


def load_torch_c_dlpack_extension() -> Any:
    """Make sure ``torch.Tensor`` publishes PyTorch's C DLPack exchange table, when it can.

    Imports ``torch`` (the caller asks for it); when the tensor class has no table, imports the
    ``torch-c-dlpack-ext`` addon if installed, then publishes the table under the current name.

    Returns
    -------
    None
        Always: the table lives on ``torch.Tensor``, not in a library handle to keep alive.

    Examples
    --------
    >>> from tvm_ffi._optional_torch_c_dlpack import load_torch_c_dlpack_extension
    >>> load_torch_c_dlpack_extension()  # doctest: +SKIP
    """
    try:
        import torch  # noqa: PLC0415
    except ImportError:
        return None
    if _publish_current_name(torch.Tensor):
        return None
    try:
        importlib.import_module("torch_c_dlpack_ext")
    except (ImportError, AttributeError):  # not installed, or built for another PyTorch
        return None
    _publish_current_name(torch.Tensor)
    return None
