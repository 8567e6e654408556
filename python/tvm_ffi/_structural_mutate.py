"""The mutate half of :mod:`tvm_ffi.structural`: ``structural_map``, ``structural_mutate``,
:class:`StructuralMutator` and :class:`InplaceMode` (re-exported there, where they belong).

Mutation runs in the C runtime (``ffi.StructuralMap`` / ``ffi.StructuralMutate``): values are
rebuilt copy-on-write, so the input is never changed unless its owner hands it over with
``obj._move()``, which lets uniquely owned containers along the path be updated in place.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from enum import IntEnum
from typing import Any

from . import _core, _ffi_api
from ._structural_visit import (
    CallbackSpec,
    DefRegionKind,
    WalkOrder,
    _order_value,
    _typed_callbacks,
    _walk_callback_lists,
)
from .registry import register_object

__all__ = ["InplaceMode", "StructuralMutator", "structural_map", "structural_mutate"]


class InplaceMode(IntEnum):
    """Whether a mutation may change a value in place (``ALLOW``) or must copy it (``DISALLOW``).

    ``structural_mutate`` callbacks that take a third argument receive it as an int:
    ``ALLOW`` only when the value is uniquely owned along its whole path from the root.
    """

    DISALLOW = 0
    ALLOW = 1


@register_object("ffi.StructuralMutator")
class StructuralMutator(_core.Object):
    """The active mutation, handed to ``structural_mutate`` callbacks and ``__s_mutate__`` hooks.

    It cannot be constructed; callbacks use it to mutate children, to run a value's default
    mutation, to record variable replacements and to scope def regions.
    """

    __slots__ = ()

    def mutate(self, value: Any) -> Any:
        """Mutate ``value`` through this mutation's callbacks, copy-on-write.

        Parameters
        ----------
        value : Any
            The value to mutate; it is never changed in place.

        Returns
        -------
        Any
            ``value`` itself when nothing changed, else the mutated copy.
        """
        return _ffi_api.StructuralMutatorMutate(self, value)

    def default_mutate(self, value: Any) -> Any:
        """Mutate ``value`` by its type's default rule, skipping the callbacks for ``value`` itself.

        Containers mutate their items (map values), reflected objects their fields; each child
        goes through this mutation's callbacks again.

        Parameters
        ----------
        value : Any
            The value whose children are mutated.

        Returns
        -------
        Any
            ``value`` itself when nothing changed, else the mutated copy.
        """
        return _ffi_api.StructuralMutatorDefaultMutate(self, value)

    def var_remap_get(self, var: _core.Object) -> Any | None:
        """The replacement recorded for the variable (or DAG node) ``var``, by identity.

        Parameters
        ----------
        var : Object
            The variable to look up.

        Returns
        -------
        Any or None
            The recorded replacement, or None when there is none.
        """
        return _ffi_api.StructuralMutatorVarRemapGet(self, var)

    def var_remap_set(self, var: _core.Object, mapped_value: Any) -> None:
        """Record ``mapped_value`` as the replacement of every later use of ``var``.

        Parameters
        ----------
        var : Object
            The variable (an object; compared by identity).
        mapped_value : Any
            Its replacement.
        """
        _ffi_api.StructuralMutatorVarRemapSet(self, var, mapped_value)

    def def_region_kind(self) -> DefRegionKind:
        """The def region the current value is mutated in.

        Returns
        -------
        DefRegionKind
            The active region.
        """
        return DefRegionKind(_ffi_api.StructuralMutatorDefRegionKind(self))

    def with_def_region_kind(self, kind: int, callback: Callable[[], Any]) -> Any:
        """Call ``callback()`` inside def region ``kind``; a ``DEF_PATTERN`` region is kept.

        Parameters
        ----------
        kind : int
            The :class:`DefRegionKind` to enter.
        callback : Callable[[], Any]
            Called without arguments while the region is active.

        Returns
        -------
        Any
            What ``callback`` returned.
        """
        return _ffi_api.StructuralMutatorWithDefRegionKind(self, kind, callback)


def structural_map(
    root: Any,
    callbacks: CallbackSpec = (),
    with_def_region_kind: CallbackSpec = (),
    order: str | WalkOrder = "post",
) -> Any:
    """Rebuild ``root`` with every matching value replaced by what its callback returns.

    A callback returns its input unchanged or a replacement; it must not change its input.
    In post-order (the default) a value's children are mapped first and the callback sees the
    rebuilt value; in pre-order the callback runs first and its result's children are mapped.
    Callbacks run at every occurrence (``None`` included). Only the changed path is copied;
    unchanged subtrees are shared with the input. Variables (FreeVar types) replaced at their
    definition are replaced at their uses too.

    Parameters
    ----------
    root : Any
        The value to map. Pass ``root._move()`` to hand it over: uniquely owned containers are
        then updated in place instead of copied.
    callbacks : callable, (type, fn), ((type, ...), fn) or a sequence of pairs
        Callbacks receiving ``value``; the first whose type matches is used (``object`` or
        ``typing.Any`` match everything).
    with_def_region_kind : same forms as ``callbacks``
        Callbacks receiving ``(value, DefRegionKind)``, tried after ``callbacks``.
    order : {"post", "pre"} or WalkOrder, optional
        When callbacks run relative to the mapping of children (default ``"post"``).

    Returns
    -------
    Any
        The mapped value: ``root`` itself when nothing changed.

    Examples
    --------
    >>> from tvm_ffi.structural import structural_map
    >>> structural_map([1, [2, "a"]], (int, lambda v: v * 10))
    (10, (20, "a"))
    """
    order_value = _order_value(order, "map")
    plain, regional = _walk_callback_lists(callbacks, with_def_region_kind, "structural_map")
    return _ffi_api.StructuralMap(root, plain, regional, order_value)


def structural_mutate(root: Any, callbacks: CallbackSpec = ()) -> Any:
    """Rebuild ``root`` with callbacks that own the mutation of the values they match.

    A matched callback receives ``(value, mutator)`` or, when it accepts a third argument,
    ``(value, mutator, inplace_mode)``; it mutates the children it wants through
    ``mutator.mutate(child)`` or ``mutator.default_mutate(value)`` and returns the result, which
    is final. Unmatched values are mutated by default (containers item by item, reflected
    objects field by field).

    Parameters
    ----------
    root : Any
        The value to mutate; pass ``root._move()`` to allow in-place mutation of uniquely owned
        values.
    callbacks : callable, (type, fn), ((type, ...), fn) or a sequence of pairs
        The callbacks, tried in order; the first whose type matches owns the value.

    Returns
    -------
    Any
        The mutated value: ``root`` itself when nothing changed.

    Examples
    --------
    >>> from tvm_ffi.structural import structural_mutate
    >>> structural_mutate([1, [2]], (int, lambda v, mutator: v + 1))
    (2, (3,))
    """
    entries = [(index, fn, _accepts_inplace_mode(fn)) for index, fn in _typed_callbacks(callbacks, "structural_mutate")]
    return _ffi_api.StructuralMutate(root, entries)


def _accepts_inplace_mode(callback: Callable[..., Any]) -> bool:
    """Whether a structural_mutate callback takes the optional third ``inplace_mode`` argument."""
    try:
        signature = inspect.signature(callback)
    except (TypeError, ValueError):  # no signature (some builtins): the two-argument form
        return False
    try:
        signature.bind(None, None, InplaceMode.DISALLOW)
    except TypeError:
        try:
            signature.bind(None, None)
        except TypeError as err:
            raise TypeError(
                "structural_mutate callback must accept (value, mutator) or "
                "(value, mutator, inplace_mode)"
            ) from err
        return False
    return True


# Public under tvm_ffi.structural, as in the reference package.
for _public in (InplaceMode, StructuralMutator, structural_map, structural_mutate):
    _public.__module__ = "tvm_ffi.structural"
del _public
