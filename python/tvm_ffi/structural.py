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

from typing import TYPE_CHECKING, Any

from . import _core, _ffi_api
from ._structural_mutate import InplaceMode, StructuralMutator, structural_map, structural_mutate
from ._structural_visit import CallbackSpec as CallbackSpec
from ._structural_visit import (
    DefRegionKind,
    StructuralVisitor,
    VisitInterrupt,
    WalkOrder,
    WalkResult,
    structural_visit,
    structural_walk,
)
from .access_path import AccessPath
from .registry import register_object

# The visit and mutate halves live in their own modules (the mutate half uses the visit half's
# callback helpers); their names are public here.

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

# structural_hash and structural_equal are hot (dict keys, memo tables, caches): _core calls the
# runtime's ffi.StructuralHash / ffi.StructuralEqual directly, without a Python frame, and returns
# the hash unsigned (structural_entry.c).
structural_hash = _core.structural_hash
structural_equal = _core.structural_equal


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
