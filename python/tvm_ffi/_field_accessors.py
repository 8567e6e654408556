"""``core.FieldGetter`` / ``core.FieldSetter``: a reflected field's C accessors, callable.

``TypeField.getter`` / ``.setter`` hold the addresses of the field's C getter and setter. They
are ints (the descriptor machinery passes them to C as such) that can also be called, as in the
reference: ``field.getter(obj)`` reads the field of ``obj``, ``field.setter(obj, value)`` writes
it, frozen or not.
"""

from __future__ import annotations

from typing import Any

from . import _core

__all__ = ["FieldGetter", "FieldSetter"]


class _FieldAccessor(int):
    """An accessor address bound to the field it belongs to (set by ``bind``)."""

    _field: Any = None
    _property: Any = None

    def bind(self, field: Any) -> _FieldAccessor:
        """Attach the ``TypeField`` whose accessor this is; returns ``self``."""
        self._field = field
        return self

    def _descriptor(self, obj: Any) -> Any:
        if not isinstance(obj, _core.CObject):
            raise TypeError(f"Argument 'obj' has incorrect type (expected tvm_ffi.core.CObject, "
                            f"got {type(obj).__name__})")
        if self._field is None or int(self) == 0:
            raise AttributeError(f"{type(self).__name__} is not bound to a field accessor")
        if self._property is None:
            self._property = self._field.as_property(type(obj))
        return self._property


class FieldGetter(_FieldAccessor):
    """The C getter of a reflected field: its address as an int, and callable on an object.

    Examples
    --------
    >>> from tvm_ffi.testing import TestIntPair
    >>> field = TestIntPair.__tvm_ffi_type_info__.fields[0]
    >>> field.getter(TestIntPair(1, 2))
    1
    """

    def __call__(self, obj: Any) -> Any:
        """Read the field of ``obj``.

        Parameters
        ----------
        obj : Object
            An object of the field's type.

        Returns
        -------
        Any
            The field's value.
        """
        return self._descriptor(obj).__get__(obj, type(obj))


class FieldSetter(_FieldAccessor):
    """The C setter of a reflected field: its address as an int, and callable on an object.

    Examples
    --------
    >>> from tvm_ffi.testing import TestObjectBase
    >>> obj = TestObjectBase()
    >>> TestObjectBase.__tvm_ffi_type_info__.fields[0].setter(obj, 5)
    >>> obj.v_i64
    5
    """

    def __call__(self, obj: Any, value: Any) -> None:
        """Write ``value`` into the field of ``obj``, even where the field is frozen for Python.

        Parameters
        ----------
        obj : Object
            An object of the field's type.
        value : Any
            The new value, converted to the field's type.
        """
        self._descriptor(obj).set(obj, value)
