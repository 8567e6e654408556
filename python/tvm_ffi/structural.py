"""Structural equality and hashing of FFI values (containers, strings, tensors, reflected objects).

Two values are structurally equal when they have the same shape of content, as the runtime's
``ffi.StructuralEqual`` defines it: containers element-wise, maps by key, reflected objects field
by field following each type's structural kind (tree, DAG, free variable, ...). The hash agrees
with equality. Both run in the C runtime with explicit stacks, so deep graphs are fine.

``structural_walk`` calls typed callbacks on every value of a graph, before or after its
children, and tells def-region-aware callbacks whether a value sits in a definition (a def
field, see ``DefRegionKind``). Types customise their descent with a ``__s_visit__`` hook that
receives the active :class:`StructuralVisitor`.

>>> from tvm_ffi.structural import structural_equal, structural_hash
>>> structural_equal([1, {"a": 2.0}], [1, {"a": 2.0}])
True
>>> structural_hash([1, 2, 3]) == structural_hash((1, 2, 3))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Union

from . import _core, _ffi_api
from ._type_schema import TypeSchema
from .access_path import AccessPath
from .registry import register_object

__all__ = [
    "DefRegionKind",
    "InplaceMode",
    "StructuralKey",
    "StructuralMutator",
    "StructuralVisitor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "get_first_structural_mismatch",
    "structural_equal",
    "structural_hash",
    "structural_map",
    "structural_mutate",
    "structural_visit",
    "structural_walk",
]

# Bound once: these are hot (dict keys, caches), so the wrappers skip module attribute lookups
# and pass the flags only when they are set.
_STRUCTURAL_EQUAL: Callable[..., bool] = _ffi_api.StructuralEqual
_STRUCTURAL_HASH: Callable[..., int] = _ffi_api.StructuralHash
_U64 = 0xFFFFFFFFFFFFFFFF


def structural_equal(lhs: Any, rhs: Any, map_free_vars: bool = False, skip_tensor_content: bool = False) -> bool:
    """Compare two values by structure: same types and equal fields, recursively.

    Parameters
    ----------
    lhs, rhs : Any
        The values to compare (objects, containers, primitives).
    map_free_vars : bool, optional
        Let free variables of one side be mapped onto those of the other (default False).
    skip_tensor_content : bool, optional
        Compare tensors by shape and dtype only, not by their bytes (default False).

    Returns
    -------
    bool
        True when the values are structurally equal.

    Examples
    --------
    >>> from tvm_ffi.structural import structural_equal
    >>> structural_equal([1, {"a": 2}], [1, {"a": 2}])
    True
    >>> structural_equal([1, 2], [1, 3])
    False
    """
    if map_free_vars or skip_tensor_content:
        return _STRUCTURAL_EQUAL(lhs, rhs, map_free_vars, skip_tensor_content)
    return _STRUCTURAL_EQUAL(lhs, rhs)


def structural_hash(value: Any, map_free_vars: bool = False, skip_tensor_content: bool = False) -> int:
    """Hash a value by structure, consistently with :func:`structural_equal`.

    Parameters
    ----------
    value : Any
        The value to hash.
    map_free_vars : bool, optional
        Hash free variables by position rather than identity (default False).
    skip_tensor_content : bool, optional
        Hash tensors by shape and dtype only (default False).

    Returns
    -------
    int
        An unsigned 64-bit hash; structurally equal values hash equal.

    Examples
    --------
    >>> from tvm_ffi.structural import structural_hash
    >>> structural_hash([1, 2]) == structural_hash([1, 2])
    True
    """
    if map_free_vars or skip_tensor_content:
        return _STRUCTURAL_HASH(value, map_free_vars, skip_tensor_content) & _U64
    return _STRUCTURAL_HASH(value) & _U64


def get_first_structural_mismatch(
    lhs: Any, rhs: Any, map_free_vars: bool = False, skip_tensor_content: bool = False
) -> tuple[AccessPath, AccessPath] | None:
    """Locate the first place where two values differ structurally.

    Parameters
    ----------
    lhs, rhs : Any
        The values to compare.
    map_free_vars : bool, optional
        Let free variables of one side be mapped onto those of the other (default False).
    skip_tensor_content : bool, optional
        Compare tensors by shape and dtype only (default False).

    Returns
    -------
    tuple of (AccessPath, AccessPath) or None
        None when the values are equal, else the paths to the first difference in ``lhs`` and in
        ``rhs``.

    Examples
    --------
    >>> from tvm_ffi.structural import get_first_structural_mismatch
    >>> lhs_path, rhs_path = get_first_structural_mismatch([1, 2, 3], [1, 5, 3])
    >>> str(lhs_path)
    '<root>[1]'
    >>> print(get_first_structural_mismatch([1], [1]))
    None
    """
    mismatch: tuple[AccessPath, AccessPath] | None = _ffi_api.GetFirstStructuralMismatch(
        lhs, rhs, map_free_vars, skip_tensor_content
    )
    return mismatch


@register_object("ffi.StructuralKey")
class StructuralKey(_core.Object):
    """A value wrapped with its structural hash: a dict/Map key matching structurally equal values.

    Parameters
    ----------
    key : Any
        The value to wrap; it is reachable again as ``.key``.

    Examples
    --------
    >>> from tvm_ffi.structural import StructuralKey
    >>> {StructuralKey([1, 2]): "x"}[StructuralKey([1, 2])]
    'x'
    """

    __slots__ = ()

    def __init__(self, key: Any) -> None:
        self.__init_handle_by_constructor__(_ffi_api.StructuralKey, key)

    # Reflected fields: ``key`` (the wrapped value) and ``hash_i64`` (its structural hash as a
    # signed 64-bit int).
    if TYPE_CHECKING:
        key: Any
        hash_i64: int

    def __hash__(self) -> int:
        return self.hash_i64 & 0xFFFFFFFFFFFFFFFF

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StructuralKey) and bool(_ffi_api.StructuralKeyEqual(self, other))

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)


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
    if isinstance(order, WalkOrder):
        order_value = int(order)
    elif order in ("pre", "post"):
        order_value = int(WalkOrder.PREORDER if order == "pre" else WalkOrder.POSTORDER)
    else:
        raise ValueError(f"Unknown structural walk order: {order!r}")
    plain = [
        (_callback_type_index(t, "structural_walk"), fn)
        for t, fn in _callback_entries(callbacks, "structural_walk")
    ]
    regional = [
        (_callback_type_index(t, "structural_walk"), _with_region_enum(fn))
        for t, fn in _callback_entries(with_def_region_kind, "structural_walk")
    ]
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
    entries = [
        (_callback_type_index(t, "structural_visit"), fn)
        for t, fn in _callback_entries(callbacks, "structural_visit")
    ]
    result: VisitInterrupt | None = _ffi_api.StructuralVisit(root, entries)
    return result


def _with_region_enum(fn: Callable[..., Any]) -> Callable[[Any, int], Any]:
    """Hands region-aware callbacks a DefRegionKind instead of the runtime's int."""
    return lambda value, kind: fn(value, DefRegionKind(kind))


def _callback_entries(callbacks: CallbackSpec, api_name: str) -> list[tuple[Any, Callable[..., Any]]]:
    """Flattens the callback shorthands into (type, fn) pairs, in order."""
    if callable(callbacks):
        return [(Any, callbacks)]
    if isinstance(callbacks, tuple) and len(callbacks) == 2 and callable(callbacks[1]):
        pairs: Sequence[Any] = [callbacks]
    elif isinstance(callbacks, Sequence) and not isinstance(callbacks, (str, bytes)):
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
        out.extend((t, fn) for t in (types if isinstance(types, tuple) else (types,)))
    return out


def _callback_type_index(callback_type: Any, api_name: str) -> int:
    """The runtime type index a callback type selects (-1: every value)."""
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


# The mutate half lives in its own module; it uses the callback helpers above.
from ._structural_mutate import (  # noqa: E402
    InplaceMode,
    StructuralMutator,
    structural_map,
    structural_mutate,
)
