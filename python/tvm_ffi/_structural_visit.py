"""The structural-visit API: walks and visitors over FFI value graphs.

Public under :mod:`tvm_ffi.structural` (each name's ``__module__`` says so); this module sits
below the mutate half (``_structural_mutate.py``), which shares its callback helpers.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Union

from . import _core, _ffi_api
from ._type_schema import TypeSchema
from .registry import register_object

__all__ = [
    "CallbackSpec",
    "DefRegionKind",
    "StructuralVisitor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "structural_visit",
    "structural_walk",
]


class WalkOrder(IntEnum):
    """Whether a walk calls a value's callback before (``PREORDER``) or after its children."""

    PREORDER = 0
    POSTORDER = 1


class WalkResult(IntEnum):
    """What a walk callback asks for: ``ADVANCE`` into the children, or ``SKIP`` them.

    ``SKIP`` only matters in pre-order; return a :class:`VisitInterrupt` to stop the walk.
    """

    ADVANCE = 0
    SKIP = 1


class DefRegionKind(IntEnum):
    """The definition region a value is visited in (``TVMFFIDefRegionKind`` of the C ABI).

    Fields flagged def-pattern open ``DEF_PATTERN`` (kept by everything below them),
    def-simple fields open ``DEF_SIMPLE``; other values are in ``NONE``.
    """

    NONE = 0
    DEF_PATTERN = 1
    DEF_SIMPLE = 2


@register_object("ffi.VisitInterrupt")
class VisitInterrupt(_core.Object):
    """Returned by a walk/visit callback or hook to stop the traversal; carries ``value`` back.

    Parameters
    ----------
    value : Any, optional
        What the traversal returns to its caller (read back as ``.value``).

    Examples
    --------
    >>> from tvm_ffi.structural import VisitInterrupt, structural_walk
    >>> hit = structural_walk([1, [2, 3]], (int, lambda v: VisitInterrupt(v) if v > 1 else None))
    >>> hit.value
    2
    """

    __slots__ = ()

    if TYPE_CHECKING:
        value: Any

    def __init__(self, value: Any = None) -> None:
        self.__init_handle_by_constructor__(_ffi_api.VisitInterrupt, value)


@register_object("ffi.StructuralVisitor")
class StructuralVisitor(_core.Object):
    """The active traversal, handed to ``__s_visit__`` hooks and ``structural_visit`` callbacks.

    It cannot be constructed; hooks use it to visit children and to scope def regions.
    """

    __slots__ = ()

    def visit(self, value: Any) -> VisitInterrupt | None:
        """Visit ``value`` with this traversal's callbacks.

        Parameters
        ----------
        value : Any
            The child to visit.

        Returns
        -------
        VisitInterrupt or None
            A VisitInterrupt when a callback stopped the traversal (return it on), else None.
        """
        result: VisitInterrupt | None = _ffi_api.StructuralVisitorVisit(self, value)
        return result

    def default_visit(self, value: Any) -> VisitInterrupt | None:
        """Visit the children of ``value`` (its ``__s_visit__`` hook or its fields) only.

        Parameters
        ----------
        value : Any
            The value whose children to visit.

        Returns
        -------
        VisitInterrupt or None
            A VisitInterrupt when a callback stopped the traversal, else None.

        Raises
        ------
        ValueError
            When called on the value whose own hook is running (a cycle).
        """
        result: VisitInterrupt | None = _ffi_api.StructuralVisitorDefaultVisit(self, value)
        return result

    def def_region_kind(self) -> DefRegionKind:
        """Tell which def region the current value is visited in.

        Returns
        -------
        DefRegionKind
            The region kind (``NONE``, ``DEF_PATTERN`` or ``DEF_SIMPLE``).
        """
        return DefRegionKind(_ffi_api.StructuralVisitorDefRegionKind(self))

    def with_def_region_kind(self, kind: int, callback: Callable[[], Any]) -> Any:
        """Call ``callback()`` inside def region ``kind``.

        Inside a ``DEF_PATTERN`` region the region stays ``DEF_PATTERN``.

        Parameters
        ----------
        kind : int
            A :class:`DefRegionKind` value.
        callback : Callable[[], Any]
            What to run inside the region.

        Returns
        -------
        Any
            What ``callback`` returned.
        """
        return _ffi_api.StructuralVisitorWithDefRegionKind(self, kind, callback)


#: What the callback arguments of ``structural_walk`` / ``structural_visit`` accept: a callable
#: (any value), ``(type, fn)``, ``((type, ...), fn)``, or a sequence of such pairs.
CallbackSpec = Union[Callable[..., Any], "tuple[Any, ...]", Sequence[Any]]


def structural_walk(
    root: Any,
    callbacks: CallbackSpec = (),
    with_def_region_kind: CallbackSpec = (),
    order: str | WalkOrder = "post",
) -> VisitInterrupt | None:
    """Calls the first matching callback on every value reachable from ``root``.

    ``callbacks`` receive ``value``; ``with_def_region_kind`` callbacks receive
    ``(value, DefRegionKind)`` and are tried after ``callbacks``. A type selects builtins
    (``int`` does not match ``bool``), FFI object classes (and their subclasses) or everything
    (``object``/``typing.Any``). ``order`` is ``"pre"``/``"post"`` or a :class:`WalkOrder`.
    Containers, map values and reflected fields are descended (``None`` never reaches a
    callback); every occurrence of a shared value is visited. A callback returns ``None`` or a
    :class:`WalkResult` (``SKIP`` prunes a pre-order value's children), or a
    :class:`VisitInterrupt`, which stops the walk and is returned.

    Parameters
    ----------
    root : Any
        Where the walk starts.
    callbacks : callable, (type, fn), or a sequence of such pairs
        Called with ``value``.
    with_def_region_kind : callable, (type, fn), or a sequence of such pairs
        Called with ``(value, DefRegionKind)``.
    order : {"pre", "post"} or WalkOrder
        Whether a value is seen before or after its children.

    Returns
    -------
    VisitInterrupt or None
        The VisitInterrupt a callback returned, else None.

    Raises
    ------
    ValueError
        When ``order`` is not a known order.

    Examples
    --------
    >>> from tvm_ffi.structural import structural_walk
    >>> seen = []
    >>> structural_walk([1, ["a", 2]], (int, seen.append), order="pre")
    >>> seen
    [1, 2]
    """
    order_value = _order_value(order, "walk")
    plain, regional = _walk_callback_lists(callbacks, with_def_region_kind, "structural_walk")
    result: VisitInterrupt | None = _ffi_api.StructuralWalk(root, plain, regional, order_value)
    return result


def structural_visit(root: Any, callbacks: CallbackSpec = ()) -> VisitInterrupt | None:
    """Visits ``root`` with callbacks that own the descent into the values they match.

    A matched callback receives ``(value, visitor)``; it may call ``visitor.visit(child)`` on
    the children it wants or ``visitor.default_visit(value)``, and returns ``None`` or a
    :class:`VisitInterrupt`. Values no callback matches descend by default.

    Parameters
    ----------
    root : Any
        Where the visit starts.
    callbacks : callable, (type, fn), or a sequence of such pairs
        Called with ``(value, visitor)``.

    Returns
    -------
    VisitInterrupt or None
        The VisitInterrupt a callback returned, else None.

    Examples
    --------
    >>> from tvm_ffi.structural import structural_visit
    >>> seen = []
    >>> structural_visit([[1, 2], [3]], (int, lambda v, visitor: seen.append(v)))
    >>> seen
    [1, 2, 3]
    """
    result: VisitInterrupt | None = _ffi_api.StructuralVisit(root, _typed_callbacks(callbacks, "structural_visit"))
    return result


_ORDER_TEXTS = {"pre": int(WalkOrder.PREORDER), "post": int(WalkOrder.POSTORDER)}


def _order_value(order: str | WalkOrder, what: str) -> int:
    """The runtime's int for an order given as ``"pre"``/``"post"`` or a WalkOrder."""
    if isinstance(order, WalkOrder):
        return int(order)
    value = _ORDER_TEXTS.get(order) if isinstance(order, str) else None
    if value is None:
        raise ValueError(f"Unknown structural {what} order: {order!r}")
    return value


def _with_region_enum(fn: Callable[..., Any]) -> Callable[[Any, int], Any]:
    """Hands region-aware callbacks a DefRegionKind instead of the runtime's int."""
    return lambda value, kind: fn(value, DefRegionKind(kind))


def _callback_entries(callbacks: CallbackSpec, api_name: str) -> list[tuple[Any, Callable[..., Any]]]:
    """Flattens the callback shorthands into (type, fn) pairs, in order."""
    if callable(callbacks):
        return [(Any, callbacks)]
    if isinstance(callbacks, tuple) and len(callbacks) == 2 and callable(callbacks[1]):
        pairs: Sequence[Any] = [callbacks]
    # list and tuple first: the Sequence ABC check costs more than the rest of a call's setup
    elif isinstance(callbacks, (list, tuple)) or (
        isinstance(callbacks, Sequence) and not isinstance(callbacks, (str, bytes))
    ):
        pairs = callbacks
        for pair in pairs:
            if not (isinstance(pair, tuple) and len(pair) == 2 and callable(pair[1])):
                raise TypeError(f"{api_name} callbacks within a sequence must be (type, callback) tuples")
    else:
        raise TypeError(
            f"{api_name} callbacks must be callbacks, (type, callback) entries, "
            "((type1, type2, ...), callback) entries, or sequences of tuple entries"
        )
    out: list[tuple[Any, Callable[..., Any]]] = []
    for types, fn in pairs:
        if isinstance(types, tuple):
            out.extend((t, fn) for t in types)
        else:
            out.append((types, fn))
    return out


def _typed_callbacks(callbacks: CallbackSpec, api_name: str) -> list[tuple[int, Callable[..., Any]]]:
    """The callbacks of a spec as (runtime type index, fn) pairs, in order."""
    return [(_callback_type_index(t, api_name), fn) for t, fn in _callback_entries(callbacks, api_name)]


def _walk_callback_lists(
    callbacks: CallbackSpec, with_def_region_kind: CallbackSpec, api_name: str
) -> tuple[list[tuple[int, Callable[..., Any]]], list[tuple[int, Callable[..., Any]]]]:
    """The plain and the region-aware callback lists the runtime's walk and map take (the
    region-aware ones handed a DefRegionKind)."""
    plain = _typed_callbacks(callbacks, api_name)
    regional = [(index, _with_region_enum(fn)) for index, fn in _typed_callbacks(with_def_region_kind, api_name)]
    return plain, regional


# The type index of each class whose answer cannot change: builtins, and FFI classes bound to a
# type of their own (a subclass that is not registered yet would answer with its base's index).
# Weak keys: classes made and dropped at run time go with their entries.
_TYPE_INDEX_CACHE: weakref.WeakKeyDictionary[type, int] = weakref.WeakKeyDictionary()


def _callback_type_index(callback_type: Any, api_name: str) -> int:
    """The runtime type index a callback type selects (-1: every value)."""
    if isinstance(callback_type, type):
        cached = _TYPE_INDEX_CACHE.get(callback_type)
        if cached is not None:
            return cached
        index = _uncached_type_index(callback_type, api_name)
        if callback_type.__module__ == "builtins" or "__tvm_ffi_type_info__" in callback_type.__dict__:
            _TYPE_INDEX_CACHE[callback_type] = index
        return index
    return _uncached_type_index(callback_type, api_name)


def _uncached_type_index(callback_type: Any, api_name: str) -> int:
    annotation = Any if callback_type is object else callback_type
    try:
        index = int(TypeSchema.from_annotation(annotation).origin_type_index)
    except TypeError as err:
        raise TypeError(
            f"{api_name} callback type must be a supported builtin, "
            "typing.Any/object, or an FFI-registered object class"
        ) from err
    if index < 0 and annotation is not Any:
        raise TypeError(
            f"{api_name} callback type_index is negative, the only "
            "acceptable negative type_index is -1 for Any"
        )
    return index


# Public under tvm_ffi.structural, as in the reference package.
for _public in (DefRegionKind, StructuralVisitor, VisitInterrupt, WalkOrder, WalkResult, structural_visit,
                structural_walk):
    _public.__module__ = "tvm_ffi.structural"
del _public
