"""FFI containers as Python collections.

``Array`` is the runtime's immutable sequence (``ffi.Array``). Python lists and tuples passed to
FFI functions become Arrays automatically; Arrays returned by functions come back as this class.
Element access goes through the runtime's ``ffi.Array*`` global functions for now.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from . import _core, _ffi_api
from .registry import register_object

__all__ = ["Array"]


@register_object("ffi.Array")
class Array(_core.Object, Sequence[Any]):
    """Immutable sequence of FFI values (runtime type ``ffi.Array``).

    >>> arr = tvm_ffi.Array([1, "two", 3.0])
    >>> len(arr), arr[1], arr[-1]
    (3, 'two', 3.0)
    """

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self.__init_handle_by_constructor__(_ffi_api.Array, *items)

    def __len__(self) -> int:
        return int(_ffi_api.ArraySize(self))

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        size = len(self)
        if isinstance(index, slice):
            return [_ffi_api.ArrayGetItem(self, i) for i in range(*index.indices(size))]
        if not isinstance(index, int):
            raise TypeError(f"Array indices must be integers or slices, not {type(index).__name__}")
        position = index + size if index < 0 else index
        if not 0 <= position < size:
            raise IndexError(f"Array index {index} out of range for an Array of size {size}")
        return _ffi_api.ArrayGetItem(self, position)

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield _ffi_api.ArrayGetItem(self, i)

    def __contains__(self, value: object) -> bool:
        return bool(_ffi_api.ArrayContains(self, value))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Array) and self.same_as(other):
            return True
        if isinstance(other, (Array, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = _core.Object.__hash__

    def __repr__(self) -> str:
        return f"[{', '.join(repr(item) for item in self)}]"

    def __reduce__(self) -> Any:
        return (Array, (list(self),))
