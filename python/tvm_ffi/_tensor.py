"""Tensors: ``tvm_ffi.Tensor`` and ``from_dlpack``.

``Tensor`` is the C type ``_core.Tensor`` (a subclass of ``Object``), so its properties and the
DLPack export run without Python frames; this module registers it for ``ffi.Tensor`` results.
Any DLPack producer (NumPy, PyTorch, another ``Tensor``) passed to an FFI function is turned into
a tensor by ``_core`` on the call path; ``from_dlpack`` does the same explicitly.
"""

from __future__ import annotations

from typing import Any

from . import _core
from ._reflection import _type_info_of_index

__all__ = ["Tensor", "from_dlpack"]

# Static type index of ffi.Tensor (kTVMFFITensor in c_api.h).
_TENSOR_TYPE_INDEX = 70

Tensor = _core.Tensor
_core._register_object_class(_TENSOR_TYPE_INDEX, Tensor)
_type_info_of_index(_TENSOR_TYPE_INDEX).type_cls = Tensor


# from_dlpack(ext_tensor, require_alignment=0, require_contiguous=False) -> Tensor, in C.
# Imports any DLPack producer sharing its memory (versioned protocol first, legacy fallback);
# the producer lives as long as the tensor. require_alignment (bytes, 0 = any) and
# require_contiguous raise RuntimeError when unmet. Read-only producers are accepted: the
# caller must not write through such a tensor.
from_dlpack = _core.from_dlpack


def __getattr__(name: str) -> Any:
    """``Shape``, whose home this module is in the reference (pickles look it up here)."""
    if name == "Shape":
        from .container import Shape  # noqa: PLC0415 - container imports this module

        return Shape
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
