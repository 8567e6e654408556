"""Views and index helpers of the FFI containers (re-exported by :mod:`tvm_ffi.container`).

``KeysView`` / ``ValuesView`` / ``ItemsView`` are what ``Map.keys()`` / ``values()`` / ``items()``
return; ``normalize_index`` and ``getitem_helper`` implement list-style indexing for sequences
that can read one element at a position.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from collections.abc import ItemsView as ItemsViewBase
from collections.abc import KeysView as KeysViewBase
from collections.abc import ValuesView as ValuesViewBase
from typing import Any, SupportsIndex, TypeVar

__all__ = ["ItemsView", "ItemsViewBase", "KeysView", "KeysViewBase", "ValuesView", "ValuesViewBase",
           "getitem_helper", "normalize_index"]

_T = TypeVar("_T")
_K = TypeVar("_K")
_V = TypeVar("_V")
# Makes the runtime iterator functor of a Map/Dict (``ffi.MapForwardIterFunctor`` style).
_IterFunctorGetter = Callable[..., Callable[[int], Any]]


def _position(index: SupportsIndex, size: int) -> int:
    """Non-negative position of ``index`` in a sequence of ``size``; IndexError worded as the reference's."""
    try:
        i = operator.index(index)
    except TypeError:
        raise TypeError(f"indices must be integers or slices, not {type(index).__name__}") from None
    position = i + size if i < 0 else i
    if not 0 <= position < size:
        raise IndexError(f"Index out of range. size: {size}, got index {i}")
    return position


def normalize_index(length: int, idx: SupportsIndex) -> int:
    """Check an index against a sequence length and make it non-negative, as list indexing does.

    Parameters
    ----------
    length : int
        The sequence length.
    idx : SupportsIndex
        The index; negative counts from the end.

    Returns
    -------
    int
        The position, in ``[0, length)``.

    Raises
    ------
    TypeError
        When ``idx`` is not an integer.
    IndexError
        When it is out of range.

    Examples
    --------
    >>> from tvm_ffi.container import normalize_index
    >>> normalize_index(3, -1)
    2
    """
    try:
        index = operator.index(idx)
    except TypeError:
        raise TypeError(f"indices must be integers or slices, not {type(idx).__name__}") from None
    return _position(index, length)


def getitem_helper(obj: Any, elem_getter: Callable[[Any, int], _T], length: int,
                   idx: SupportsIndex | slice) -> _T | list[_T]:
    """``__getitem__`` for a sequence that can only read one element at a position.

    Parameters
    ----------
    obj : Any
        The sequence, passed on to ``elem_getter``.
    elem_getter : Callable[[Any, int], T]
        Reads the element at a non-negative position.
    length : int
        The sequence length.
    idx : SupportsIndex or slice
        What ``__getitem__`` was given.

    Returns
    -------
    T or list of T
        The element, or a list of the elements a slice selects.

    Examples
    --------
    >>> from tvm_ffi.container import getitem_helper
    >>> getitem_helper("abc", lambda s, i: s[i], 3, slice(None, None, -1))
    ['c', 'b', 'a']
    """
    if isinstance(idx, slice):
        return [elem_getter(obj, i) for i in range(*idx.indices(length))]
    return elem_getter(obj, normalize_index(length, idx))


def _functor_entries(mapping: Any, iter_functor_getter: _IterFunctorGetter) -> Iterator[tuple[Any, Any]]:
    """(key, value) pairs of a Map/Dict walked with the iterator functor ``iter_functor_getter``
    returns (``f(0)`` key, ``f(1)`` value, ``f(2)`` advance), as the reference does."""
    size = len(mapping)
    if size == 0:
        return
    step = iter_functor_getter(mapping)
    for _ in range(size):
        yield step(0), step(1)
        if not step(2):
            break


class KeysView(KeysViewBase[_K]):
    """``m.keys()``: the keys of a Map or Dict in insertion order, set-like.

    Parameters
    ----------
    backend_map : Map or Dict
        The mapping viewed.
    iter_functor_getter : Callable, optional
        Makes the runtime iterator of ``backend_map`` (``ffi.MapForwardIterFunctor`` style);
        by default the mapping's own.

    Examples
    --------
    >>> keys = tvm_ffi.Map({"a": 1, "b": 2}).keys()
    >>> list(keys), "a" in keys, len(keys)
    (['a', 'b'], True, 2)
    """

    def __init__(self, backend_map: Any, iter_functor_getter: _IterFunctorGetter | None = None) -> None:
        self._mapping = backend_map  # what MappingView.__init__ sets, without the call (a frame)
        self._backend_map = backend_map
        self._iter_functor_getter = iter_functor_getter

    def __iter__(self) -> Iterator[_K]:
        if self._iter_functor_getter is None:
            return self._backend_map._iter_entries(0)  # type: ignore[no-any-return]
        return (key for key, _ in _functor_entries(self._backend_map, self._iter_functor_getter))

    def __contains__(self, key: object) -> bool:
        return key in self._backend_map


class ValuesView(ValuesViewBase[_V]):
    """``m.values()``: the values of a Map or Dict in insertion order (one walk, no lookups).

    Parameters
    ----------
    backend_map : Map or Dict
        The mapping viewed.
    iter_functor_getter : Callable, optional
        Makes the runtime iterator of ``backend_map``; by default the mapping's own.

    Examples
    --------
    >>> list(tvm_ffi.Map({"a": 1, "b": 2}).values())
    [1, 2]
    """

    def __init__(self, backend_map: Any, iter_functor_getter: _IterFunctorGetter | None = None) -> None:
        self._mapping = backend_map  # what MappingView.__init__ sets, without the call (a frame)
        self._backend_map = backend_map
        self._iter_functor_getter = iter_functor_getter

    def __iter__(self) -> Iterator[_V]:
        if self._iter_functor_getter is None:
            return self._backend_map._iter_entries(1)  # type: ignore[no-any-return]
        return (value for _, value in _functor_entries(self._backend_map, self._iter_functor_getter))


class ItemsView(ItemsViewBase[_K, _V]):
    """``m.items()``: the (key, value) pairs of a Map or Dict in insertion order, set-like.

    A key read back is not always usable for a lookup (an opaque Python object converts to a
    new FFI object each time), so iteration walks the entries instead of looking keys up.

    Parameters
    ----------
    backend_map : Map or Dict
        The mapping viewed.
    iter_functor_getter : Callable, optional
        Makes the runtime iterator of ``backend_map``; by default the mapping's own.

    Examples
    --------
    >>> list(tvm_ffi.Map({"a": 1}).items()), ("a", 1) in tvm_ffi.Map({"a": 1}).items()
    ([('a', 1)], True)
    """

    def __init__(self, backend_map: Any, iter_functor_getter: _IterFunctorGetter | None = None) -> None:
        self._mapping = backend_map  # what MappingView.__init__ sets, without the call (a frame)
        self._backend_map = backend_map
        self._iter_functor_getter = iter_functor_getter

    def __iter__(self) -> Iterator[tuple[_K, _V]]:
        if self._iter_functor_getter is None:
            return self._backend_map._iter_entries(2)  # type: ignore[no-any-return]
        return _functor_entries(self._backend_map, self._iter_functor_getter)

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, tuple) or len(item) != 2:
            return False  # as dict.items(): only a (key, value) pair can be a member
        key, value = item
        try:
            actual = self._backend_map[key]
        except KeyError:
            return False
        return actual is value or bool(actual == value)
