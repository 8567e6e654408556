"""FFI containers as Python collections.

``Array`` (immutable) and ``List`` (mutable) are sequences, ``Map`` (immutable) and ``Dict``
(mutable) are insertion-ordered mappings, and ``Shape`` is a tuple of ints backed by the
runtime's shape object. Python lists/tuples passed to FFI functions become Arrays and dicts become
Maps. ``len``, integer indexing and iteration of sequences, and ``len``/lookup of mappings run in
the C extension (``_core.SeqBase`` / ``_core.MapBase``); everything else calls ``ffi.*`` globals.

Equality is by content, as in the reference package: items compare strictly by type (``1``,
``1.0`` and ``True`` differ; NaN equals NaN, -0.0 equals 0.0), an Array or List equals any
sequence with equal items (``Array([1, 2]) == [1, 2]``), a Map equals only a Map and a Dict only
a Dict (``Map({"x": 1}) == {"x": 1}`` is False: compare ``dict(m)``), and other objects compare by
identity. ``hash()`` agrees with ``==`` (List and Dict hash their current content), and
``x in seq`` is true exactly when an item ``== x``.
"""

from __future__ import annotations

import operator
import types
from collections.abc import (
    Callable,
    Iterable,
    Iterator,
    Mapping,
    MutableMapping,
    MutableSequence,
    Sequence,
)
from itertools import chain
from typing import TYPE_CHECKING, Any, ClassVar, Generic, SupportsIndex, TypeVar, overload

from . import _core, _ffi_api
from ._container_views import (  # noqa: F401  (the bases and helpers: importable from here, as in the reference)
    ItemsView,
    ItemsViewBase,
    KeysView,
    KeysViewBase,
    ValuesView,
    ValuesViewBase,
    _position,
    getitem_helper,
    normalize_index,
)
from ._core_names import PyNativeObject
from ._reflection import _lookup_or_register_type_info_from_type_key
from .registry import register_object

for _view in (KeysView, ValuesView, ItemsView):
    _view.__module__ = __name__  # shown as tvm_ffi.container.KeysView, where the reference defines it

__all__ = ["Array", "Dict", "List", "Map", "Shape"]

_content_equal: Callable[[Any, Any], bool] = _ffi_api._ContentEqual

# The "no value" sentinel (``ffi.GetInvalidObject``) under the name code imports it by.
MISSING = _core.MISSING


def _reduce_container(obj: Any, by_value: Callable[[], tuple[Any, ...]]) -> Any:
    """How a container pickles: as its JSON object graph, as every Object does (items held twice
    stay one object, and the pickle is the reference's); by value when the graph cannot hold an
    item (a tensor, a function, a Python object), with each item pickled on its own."""
    try:
        return _core.Object.__reduce__(obj)
    except TypeError:
        return by_value()


# Element, key and value types: Array[int], Map[str, Tensor], ... for type checkers; at run time
# the containers hold any FFI value.
_T = TypeVar("_T")
_K = TypeVar("_K")
_V = TypeVar("_V")
T, K, V = _T, _K, _V  # the reference's names for them


class _Seq(_core.SeqBase, Generic[_T]):
    """Reading, comparing and printing shared by Array and List."""

    __slots__ = ()

    if TYPE_CHECKING:  # implemented in C by _core.SeqBase

        def __len__(self) -> int: ...

        @overload
        def __getitem__(self, index: SupportsIndex) -> _T: ...

        @overload
        def __getitem__(self, index: slice) -> list[_T]: ...

        def __getitem__(self, index: SupportsIndex | slice) -> _T | list[_T]: ...

        def __iter__(self) -> Iterator[_T]: ...

        # By content, like == (ffi.ArrayContains / ffi.ListContains); a plain dict is never in.
        def __contains__(self, value: object) -> bool: ...

    # == and != are SeqBase's (C): by content, as the runtime compares (1, 1.0 and True
    # differ), when the other side is an Array, List, list or tuple; any other operand comes
    # here. hash() agrees with ==: an Array and a List with equal items hash equal.
    def _eq_sequence(self, other: object) -> Any:
        """``self == other`` for an operand that is not an FFI sequence, list or tuple."""
        if isinstance(other, (str, bytes, bytearray, Mapping)) or not isinstance(other, Sequence):
            return NotImplemented
        return _content_equal(self, list(other))  # range, Shape, user sequences: their items

    def __copy__(self) -> Any:
        """A new container of this type holding the same items."""
        return type(self)(self)

    def __add__(self, other: object) -> Any:
        """A new container of this type: the items of ``self``, then those of ``other``."""
        if not isinstance(other, Iterable):
            return NotImplemented
        return type(self)(chain(self, other))

    def __radd__(self, other: object) -> Any:
        """``[1] + Array([2])``: a new container of this type, ``other``'s items first."""
        if not isinstance(other, Iterable):
            return NotImplemented
        return type(self)(chain(other, self))


@register_object("ffi.Array")
class Array(_Seq[_T], Sequence[_T]):
    """Immutable sequence of FFI values (runtime type ``ffi.Array``).

    >>> arr = tvm_ffi.Array([1, "two", 3.0])
    >>> len(arr), arr[1], arr[-1]
    (3, 'two', 3.0)
    """

    # As collections.abc's: Array[int, str] is built as written; TypeSchema checks the arity.
    __class_getitem__: ClassVar[Any] = classmethod(types.GenericAlias)

    _ffi_ctor = _ffi_api.Array  # called by _core.SeqBase.__init__ with the items

    if TYPE_CHECKING:

        def __init__(self, input_list: Iterable[_T] = ()) -> None: ...

    def __reduce__(self) -> Any:
        return _reduce_container(self, lambda: (Array, (list(self),)))


@register_object("ffi.List")
class List(_Seq[_T], MutableSequence[_T]):
    """Mutable sequence of FFI values (runtime type ``ffi.List``), shared by reference.

    >>> lst = tvm_ffi.List([1, 2])
    >>> lst.append(3); lst[0] = "x"; lst
    ["x", 2, 3]
    """

    # As collections.abc's: Array[int, str] is built as written; TypeSchema checks the arity.
    __class_getitem__: ClassVar[Any] = classmethod(types.GenericAlias)

    _ffi_ctor = _ffi_api.List  # called by _core.SeqBase.__init__ with the items

    if TYPE_CHECKING:

        def __init__(self, input_list: Iterable[_T] = ()) -> None: ...

    @overload
    def __setitem__(self, index: SupportsIndex, value: _T) -> None: ...

    @overload
    def __setitem__(self, index: slice, value: Iterable[_T]) -> None: ...

    def __setitem__(self, index: SupportsIndex | slice, value: Any) -> None:
        size = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(size)
            if step == 1:
                _ffi_api.ListReplaceSlice(self, start, max(start, stop), List(value))
                return
            positions = range(start, stop, step)
            values = list(value)
            if len(values) != len(positions):
                raise ValueError(
                    f"attempt to assign sequence of size {len(values)} "
                    f"to extended slice of size {len(positions)}"
                )
            for position, item in zip(positions, values):
                _ffi_api.ListSetItem(self, position, item)
            return
        _ffi_api.ListSetItem(self, _position(index, size), value)

    def __delitem__(self, index: SupportsIndex | slice) -> None:
        size = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(size)
            if step == 1:
                if stop > start:
                    _ffi_api.ListEraseRange(self, start, stop)
                return
            for position in sorted(range(start, stop, step), reverse=True):
                _ffi_api.ListErase(self, position)
            return
        _ffi_api.ListErase(self, _position(index, size))

    def insert(self, index: SupportsIndex, value: _T) -> None:
        """Insert ``value`` before position ``index``, like ``list.insert``.

        Parameters
        ----------
        index : SupportsIndex
            The position; negative values count from the end, and out-of-range ones are clamped.
        value : Any
            The item, converted to an FFI value.

        Examples
        --------
        >>> lst = tvm_ffi.List([1, 3])
        >>> lst.insert(1, 2)
        >>> list(lst)
        [1, 2, 3]
        """
        size = len(self)
        i = operator.index(index)  # as list.insert: "'str' object cannot be interpreted as an integer"
        position = min(max(i + size if i < 0 else i, 0), size)
        _ffi_api.ListInsert(self, position, value)

    def append(self, value: _T) -> None:
        """Add ``value`` at the end.

        Parameters
        ----------
        value : Any
            The item, converted to an FFI value.

        Examples
        --------
        >>> lst = tvm_ffi.List([1])
        >>> lst.append("two")
        >>> lst
        [1, "two"]
        """
        _ffi_api.ListAppend(self, value)

    def extend(self, values: Iterable[_T]) -> None:
        """Add every item of ``values`` at the end (``lst.extend(lst)`` doubles it).

        Parameters
        ----------
        values : Iterable
            The items, converted to FFI values.

        Examples
        --------
        >>> lst = tvm_ffi.List([1])
        >>> lst.extend(range(2, 4))
        >>> list(lst)
        [1, 2, 3]
        """
        size = len(self)
        _ffi_api.ListReplaceSlice(self, size, size, List(values))

    def pop(self, index: SupportsIndex = -1) -> _T:
        """Remove and return the item at ``index``.

        Parameters
        ----------
        index : SupportsIndex, optional
            The position (default: the last item); negative values count from the end.

        Returns
        -------
        Any
            The removed item.

        Raises
        ------
        IndexError
            When the list is empty or ``index`` is out of range.

        Examples
        --------
        >>> lst = tvm_ffi.List([1, 2, 3])
        >>> lst.pop()
        3
        >>> lst.pop(0)
        1
        >>> list(lst)
        [2]
        """
        size = len(self)
        if size == 0:
            raise IndexError("pop from empty list")
        item: _T = _ffi_api.ListPop(self, _position(index, size))
        return item

    def clear(self) -> None:
        """Removes every item."""
        _ffi_api.ListClear(self)

    def reverse(self) -> None:
        """Reverses the items in place."""
        _ffi_api.ListReverse(self)

    def __reduce__(self) -> Any:
        return _reduce_container(self, lambda: (List, (list(self),)))


class _MapReader(_core.MapBase, Generic[_K, _V]):
    """Reading, comparing and printing shared by Map and Dict."""

    __slots__ = ()

    if TYPE_CHECKING:  # implemented in C by _core.MapBase

        def __len__(self) -> int: ...

        def __getitem__(self, key: _K) -> _V: ...

        def _entry_list(self) -> list[tuple[_K, _V]]: ...

        def __contains__(self, key: object) -> bool: ...  # the runtime's count of key

        # The keys, read from the map's memory in one walk; like dict's, a loop that changes
        # the size fails rather than silently skipping entries.
        def __iter__(self) -> Iterator[_K]: ...

    # A key read back is not always usable for a lookup (an opaque Python object converts to
    # a new FFI object each time, and objects compare by identity), so the views never look up.
    def keys(self) -> KeysView[_K]:
        """A view of the keys in insertion order."""
        return KeysView(self)

    def items(self) -> ItemsView[_K, _V]:
        """A view of the (key, value) pairs in insertion order."""
        return ItemsView(self)

    def values(self) -> ValuesView[_V]:
        """A view of the values in insertion order."""
        return ValuesView(self)

    # == and != are MapBase's (C): entry by entry, by content; a Map equals only a Map and a
    # Dict only a Dict (a plain dict gets NotImplemented, so ``Map({"x": 1}) == {"x": 1}`` is
    # False). hash() agrees with ==.

    def __copy__(self) -> Any:
        """A new mapping of this type holding the same entries."""
        return type(self)(self._entry_list())

    def __reduce__(self) -> Any:
        return _reduce_container(self, self._reduce_by_value)

    def _reduce_by_value(self) -> tuple[Any, ...]:
        # A dict, which the reference's constructor takes too (pickles travel between the two
        # packages); pairs when keys Python merges (1, 1.0, True) are distinct entries here.
        pairs = self._entry_list()
        as_dict = dict(pairs)
        return (type(self), (as_dict if len(as_dict) == len(pairs) else pairs,))


@register_object("ffi.Map")
class Map(_MapReader[_K, _V], Mapping[_K, _V]):
    """Immutable, insertion-ordered mapping of FFI values (runtime type ``ffi.Map``).

    >>> m = tvm_ffi.Map({"a": 1, 2: "b"})
    >>> m["a"], list(m.keys())
    (1, ['a', 2])
    """

    # As collections.abc's: Array[int, str] is built as written; TypeSchema checks the arity.
    __class_getitem__: ClassVar[Any] = classmethod(types.GenericAlias)

    _ffi_ctor = _ffi_api.Map  # called by _core.MapBase.__init__ with k0, v0, k1, v1, ...

    if TYPE_CHECKING:

        def __init__(self, input_dict: Mapping[_K, _V] | Iterable[tuple[_K, _V]] = ()) -> None: ...


@register_object("ffi.Dict")
class Dict(_MapReader[_K, _V], MutableMapping[_K, _V]):
    """Mutable, insertion-ordered mapping of FFI values (``ffi.Dict``), shared by reference.

    >>> d = tvm_ffi.Dict({"a": 1})
    >>> d["b"] = 2; del d["a"]; d
    {"b": 2}
    """

    # As collections.abc's: Array[int, str] is built as written; TypeSchema checks the arity.
    __class_getitem__: ClassVar[Any] = classmethod(types.GenericAlias)

    _ffi_ctor = _ffi_api.Dict  # called by _core.MapBase.__init__ with k0, v0, k1, v1, ...
    _none_is_empty = True  # Dict(None) is an empty Dict, as the reference's default argument

    if TYPE_CHECKING:

        def __init__(self, input_dict: Mapping[_K, _V] | Iterable[tuple[_K, _V]] | None = ()) -> None: ...

    def __setitem__(self, key: _K, value: _V) -> None:
        _ffi_api.DictSetItem(self, key, value)

    def __delitem__(self, key: _K) -> None:
        if key not in self:
            raise KeyError(key)
        _ffi_api.DictErase(self, key)

    def pop(self, key: _K, *args: Any) -> Any:
        """Remove ``key`` and return its value.

        Parameters
        ----------
        key : Any
            The key.
        *args : Any
            At most one: the default returned when ``key`` is absent.

        Returns
        -------
        Any
            The removed value, or the default.

        Raises
        ------
        KeyError
            When ``key`` is absent and no default is given (the error names the key).
        """
        if len(args) > 1:
            raise TypeError(f"pop expected at most 2 arguments, got {1 + len(args)}")
        if key in self:
            value = self[key]
            _ffi_api.DictErase(self, key)
            return value
        if args:
            return args[0]
        raise KeyError(key)

    def clear(self) -> None:
        """Removes every entry."""
        _ffi_api.DictClear(self)

    def update(self, other: Any = (), **kwargs: _V) -> None:
        """Sets the entries of ``other`` (a mapping or key/value pairs), then of ``kwargs``.

        ``other`` also binds by name, as the reference's ``update(other)``: ``d.update(other=m)``
        merges ``m`` rather than setting a key called ``"other"``.

        Parameters
        ----------
        other : Mapping or iterable of (key, value), optional
            The entries to set.
        **kwargs
            More entries, keyed by their names.
        """
        MutableMapping.update(self, other, **kwargs)


class ShapeDimensionError(ValueError, TypeError):
    """A Shape dimension that is not an int: a ValueError (as the reference raises) and a TypeError."""


# The ffi.Shape constructor (a module attribute: mypy mistakes the name for the class below).
_make_shape: Any = _ffi_api.Shape


class Shape(tuple):  # type: ignore[type-arg]
    """Tuple of ints backed by the runtime's shape object (``ffi.Shape``).

    >>> s = tvm_ffi.Shape((2, 3))
    >>> s, s[0]
    ((2, 3), 2)
    """

    # The runtime shape object; None until this Shape is first passed to a function (shapes
    # read off tensors are made without one).
    _tvm_ffi_object: _core.CObject | None = None

    def __new__(cls, content: Iterable[SupportsIndex] = ()) -> Shape:
        """Builds the runtime shape from ``content``; TypeError for items that are not ints."""
        if cls is Shape:  # the runtime checks the dimensions itself; on failure the loop below names the culprit
            dims = content if type(content) is tuple else tuple(content)
            try:
                return _make_shape(*dims)  # type: ignore[no-any-return]
            except (TypeError, ValueError):
                content = dims
        values: list[int] = []
        for position, dim in enumerate(content):
            if isinstance(dim, bool) or not hasattr(dim, "__index__"):
                raise ShapeDimensionError(
                    f"Shape dimension #{position} must be an int, got {type(dim).__name__}"
                )
            values.append(dim.__index__())
        made = _make_shape(*values)
        return cls._from_object(tuple(values), getattr(made, "_tvm_ffi_object", made))

    @classmethod
    def _from_object(cls, dims: tuple[int, ...], obj: _core.CObject) -> Shape:
        """Instance holding ``obj`` (an ffi.Shape object) whose items are ``dims``."""
        self = tuple.__new__(cls, dims)
        self._tvm_ffi_object = obj
        return self

    def __tvm_ffi_object__(self) -> _core.CObject:
        """The runtime shape object, passed when this Shape is an FFI argument."""
        obj = self._tvm_ffi_object
        if obj is None:
            made = _make_shape(*self)
            obj = self._tvm_ffi_object = getattr(made, "_tvm_ffi_object", made)
        return obj

    @property
    def _tvm_ffi_cached_object(self) -> _core.CObject:
        """The runtime shape object (the reference's name for it; made on first use)."""
        return self.__tvm_ffi_object__()

    def __repr__(self) -> str:
        return tuple.__repr__(self)

    def __copy__(self) -> Shape:
        return self  # immutable

    def __deepcopy__(self, memo: Any) -> Shape:
        return self

    def __reduce__(self) -> Any:
        return (Shape, (tuple(self),))

    def __setstate__(self, state: Any) -> None:
        """Takes the runtime object from the state of the reference's pickles, when present."""
        obj = state.get("_tvm_ffi_cached_object") if isinstance(state, dict) else None
        if isinstance(obj, _core.CObject):
            self._tvm_ffi_object = obj


# Pickles name the class `tvm_ffi._tensor.Shape`, its home in the reference, so that either
# package loads the other's (tvm_ffi._tensor resolves the name to this class).
Shape.__module__ = "tvm_ffi._tensor"
_core._set_class_shape(Shape)
Shape.__tvm_ffi_type_info__ = _lookup_or_register_type_info_from_type_key("ffi.Shape")  # type: ignore[attr-defined]
Shape.__tvm_ffi_type_info__.type_cls = Shape  # type: ignore[attr-defined]
PyNativeObject.register(Shape)  # a builtin value carrying an FFI object, as String and Bytes
