"""Names the reference keeps in ``tvm_ffi.core`` that ours defines in Python modules.

``tvm_ffi.core`` is the extension module itself (see core.py); importing this module adds
``core.ObjectConvertible``, ``core.object_repr`` and the reference's class names below to it.
"""

from __future__ import annotations

from abc import ABCMeta
from typing import Any

from . import _core
from ._device import DLDeviceType
from ._field_accessors import FieldGetter, FieldSetter
from ._object_convertible import ObjectConvertible

#: The root class of FFI object wrappers (functions, tensors, errors and ``Object`` derive from
#: it), as in the reference; ``_core`` defines it, this names it among the re-exports.
CObject = _core.CObject

#: The reference's name of the data descriptor of a reflected field.
FFIProperty = _core.FieldProperty


class PyNativeObject(metaclass=ABCMeta):  # noqa: B024 (virtual base: no abstract methods)
    """Python builtin values that also carry an FFI object: ``String``, ``Bytes`` and ``Shape``.

    ``isinstance(core.String("a"), PyNativeObject)`` is true, as in the reference, where this is
    the mixin base of those classes; here they are registered as its virtual subclasses.

    Examples
    --------
    >>> from tvm_ffi import core
    >>> isinstance(core.String("abc"), core.PyNativeObject), isinstance("abc", core.PyNativeObject)
    (True, False)
    """

    __slots__ = ()


PyNativeObject.register(_core.String)
PyNativeObject.register(_core.Bytes)


def object_repr(obj: Any) -> str:
    """The runtime's text of an object (``ffi.ReprPrint``), as ``Object.__repr__`` gives it."""
    text: str = _core.CObject.__repr__(obj)
    return text


for _name, _value in (("ObjectConvertible", ObjectConvertible), ("object_repr", object_repr),
                      ("FFIProperty", FFIProperty), ("PyNativeObject", PyNativeObject),
                      ("FieldGetter", FieldGetter), ("FieldSetter", FieldSetter), ("DLDeviceType", DLDeviceType)):
    setattr(_core, _name, _value)
