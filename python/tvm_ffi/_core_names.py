"""Names the reference keeps in ``tvm_ffi.core`` that ours defines in Python modules.

``tvm_ffi.core`` is the extension module itself (see core.py); importing this module adds
``core.ObjectConvertible`` and ``core.object_repr`` to it.
"""

from __future__ import annotations

from typing import Any

from . import _core
from ._object_convertible import ObjectConvertible


def object_repr(obj: Any) -> str:
    """The runtime's text of an object (``ffi.ReprPrint``), as ``Object.__repr__`` gives it."""
    text: str = _core.Object.__repr__(obj)
    return text


for _name, _value in (("ObjectConvertible", ObjectConvertible), ("object_repr", object_repr)):
    setattr(_core, _name, _value)
