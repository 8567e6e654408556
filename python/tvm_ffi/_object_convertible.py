"""ObjectConvertible: Python objects that stand for an FFI object when passed to functions."""

from __future__ import annotations

from . import _core

__all__ = ["ObjectConvertible"]


class ObjectConvertible:
    """Mixin for Python classes that wrap an FFI object.

    Subclasses implement :meth:`asobject`; passing an instance to an FFI function passes the
    object it returns (through the ``__tvm_ffi_object__`` protocol).

    >>> class Wrapper(tvm_ffi.ObjectConvertible):
    ...     def __init__(self, obj): self.obj = obj
    ...     def asobject(self): return self.obj
    """

    def asobject(self) -> _core.Object:
        """Return the FFI object this value stands for; subclasses implement it.

        Returns
        -------
        Object
            The object passed to FFI functions in place of ``self``.

        Raises
        ------
        NotImplementedError
            When the subclass does not override it.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement asobject()")

    def __tvm_ffi_object__(self) -> _core.Object:
        return self.asobject()
