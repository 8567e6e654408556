"""Access paths: where in an object graph a value sits (used by structural mismatch reports).

A path starts at ``AccessPath.root()`` and each step goes one level down: an attribute, an
array item, a map item, or one of their ``_missing`` forms for something present on only one
side of a comparison. Paths print as ``<root>.body[1]["k"]``.

>>> from tvm_ffi.access_path import AccessPath
>>> path = AccessPath.root().attr("body").array_item(1)
>>> str(path)
'<root>.body[1]'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from . import _core
from .registry import register_object

__all__ = ["AccessKind", "AccessPath", "AccessStep"]


class AccessKind(IntEnum):
    """Kind of one access step."""

    ATTR = 0
    ARRAY_ITEM = 1
    MAP_ITEM = 2
    ATTR_MISSING = 3
    ARRAY_ITEM_MISSING = 4
    MAP_ITEM_MISSING = 5


def _method(name: str) -> Callable[..., Any]:
    """The runtime's type method ``name`` of ffi.reflection.AccessPath (no global holds it)."""
    info = _core._lookup_or_register_type_info_from_type_key("ffi.reflection.AccessPath")
    func: Callable[..., Any] = next(m.func for m in info.methods if m.name == name)
    return func


# Looked up once: a registry lookup per call cost more than the call itself.
_ROOT: Callable[..., AccessPath] = _method("_root")
_PATH_EQUAL = _method("_path_equal")
_IS_PREFIX_OF = _method("_is_prefix_of")
_ATTR: Callable[..., AccessPath] = _method("_attr")
_ATTR_MISSING: Callable[..., AccessPath] = _method("_attr_missing")
_ARRAY_ITEM: Callable[..., AccessPath] = _method("_array_item")
_ARRAY_ITEM_MISSING: Callable[..., AccessPath] = _method("_array_item_missing")
_MAP_ITEM: Callable[..., AccessPath] = _method("_map_item")
_MAP_ITEM_MISSING: Callable[..., AccessPath] = _method("_map_item_missing")
_TO_STEPS: Callable[..., Sequence[AccessStep]] = _method("_to_steps")


@register_object("ffi.reflection.AccessStep")
class AccessStep(_core.Object):
    """One step of an :class:`AccessPath`: its ``kind`` (an :class:`AccessKind` value) and ``key``."""

    __slots__ = ()

    def __init__(self) -> None:
        raise TypeError(
            "`AccessStep` cannot be constructed directly. Define a custom __init__ or use a factory method."
        )

    # Reflected fields (bound by register_object): ``kind`` (an AccessKind value, as an int)
    # and ``key`` (the attribute name, item index or map key).
    if TYPE_CHECKING:
        kind: int
        key: Any


@register_object("ffi.reflection.AccessPath")
class AccessPath(_core.Object):
    """An immutable path from a root object: a parent path plus one step."""

    __slots__ = ()

    def __init__(self) -> None:
        raise ValueError(
            "AccessPath can't be initialized directly. Use AccessPath.root() to create a path to the root object"
        )

    @staticmethod
    def root() -> AccessPath:
        """Return the empty path, which denotes the root object.

        Returns
        -------
        AccessPath
            The root path; it prints as ``<root>``.

        Examples
        --------
        >>> from tvm_ffi.access_path import AccessPath
        >>> str(AccessPath.root())
        '<root>'
        """
        return _ROOT()

    # Reflected fields: ``parent`` (the path without its last step, None for the root),
    # ``step`` (the last step, None for the root) and ``depth`` (steps from the root).
    if TYPE_CHECKING:
        parent: AccessPath | None
        step: AccessStep | None
        depth: int

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AccessPath):
            return False
        return bool(_PATH_EQUAL(self, other))

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = _core.Object.__hash__

    def is_prefix_of(self, other: AccessPath) -> bool:
        """Tell whether ``other`` starts with this path (a path is a prefix of itself).

        Parameters
        ----------
        other : AccessPath
            The longer path.

        Returns
        -------
        bool
            True when every step of this path begins ``other``.

        Examples
        --------
        >>> from tvm_ffi.access_path import AccessPath
        >>> body = AccessPath.root().attr("body")
        >>> body.is_prefix_of(body.array_item(0)), body.array_item(0).is_prefix_of(body)
        (True, False)
        """
        return bool(_IS_PREFIX_OF(self, other))

    def attr(self, attr_key: str) -> AccessPath:
        """Extend the path by an attribute access.

        Parameters
        ----------
        attr_key : str
            The attribute (reflected field) name.

        Returns
        -------
        AccessPath
            The longer path.

        Examples
        --------
        >>> from tvm_ffi.access_path import AccessPath
        >>> str(AccessPath.root().attr("body"))
        '<root>.body'
        """
        return _ATTR(self, attr_key)

    def attr_missing(self, attr_key: str) -> AccessPath:
        """Extend the path by an attribute that is absent on this side of a comparison.

        Parameters
        ----------
        attr_key : str
            The attribute name present only on the other side.

        Returns
        -------
        AccessPath
            The longer path.
        """
        return _ATTR_MISSING(self, attr_key)

    def array_item(self, index: int) -> AccessPath:
        """Extend the path by a sequence item.

        Parameters
        ----------
        index : int
            The item's position.

        Returns
        -------
        AccessPath
            The longer path.

        Examples
        --------
        >>> from tvm_ffi.access_path import AccessPath
        >>> str(AccessPath.root().attr("body").array_item(2))
        '<root>.body[2]'
        """
        return _ARRAY_ITEM(self, index)

    def array_item_missing(self, index: int) -> AccessPath:
        """Extend the path by a sequence item that is absent on this side of a comparison.

        Parameters
        ----------
        index : int
            The position present only on the other side.

        Returns
        -------
        AccessPath
            The longer path.
        """
        return _ARRAY_ITEM_MISSING(self, index)

    def map_item(self, key: Any) -> AccessPath:
        """Extend the path by a map entry.

        Parameters
        ----------
        key : Any
            The entry's key.

        Returns
        -------
        AccessPath
            The longer path.

        Examples
        --------
        >>> from tvm_ffi.access_path import AccessPath
        >>> str(AccessPath.root().map_item("k"))
        '<root>["k"]'
        """
        return _MAP_ITEM(self, key)

    def map_item_missing(self, key: Any) -> AccessPath:
        """Extend the path by a map entry that is absent on this side of a comparison.

        Parameters
        ----------
        key : Any
            The key present only on the other side.

        Returns
        -------
        AccessPath
            The longer path.
        """
        return _MAP_ITEM_MISSING(self, key)

    def to_steps(self) -> Sequence[AccessStep]:
        """List the steps from the root to here.

        Returns
        -------
        Sequence[AccessStep]
            One step per attribute, item or entry access; empty for the root.

        Examples
        --------
        >>> from tvm_ffi.access_path import AccessPath
        >>> [step.key for step in AccessPath.root().attr("body").array_item(2).to_steps()]
        ['body', 2]
        """
        steps: Sequence[AccessStep] = _TO_STEPS(self)
        return steps
