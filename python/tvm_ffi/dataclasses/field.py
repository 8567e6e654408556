"""``field()`` and ``Field``: per-field options of a ``py_class`` (as ``dataclasses.field``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from .. import _core

MISSING = _core.MISSING


class _KwOnlyMarker:
    """The keyword-only marker where the standard library has none (Python 3.9)."""


# ``_: KW_ONLY`` in a class body makes the fields after it keyword-only: the standard marker
# (Python 3.10+), so code written for ``dataclasses`` works unchanged.
KW_ONLY: Any = getattr(dataclasses, "KW_ONLY", _KwOnlyMarker)

_STRUCTURAL_EQ = (None, "def", "def-pattern", "def-simple", "ignore")


def _identity(value: Any) -> Any:
    return value


class Field:
    """The options of one field of an FFI dataclass, as ``dataclasses.Field``.

    ``name`` and ``type`` are filled in by the decorator; the other options come from
    :func:`field`.

    Parameters
    ----------
    name : str, optional
        The field name.
    default : Any, optional
        The default value.
    default_factory : Callable, optional
        Makes the default value for each instance.
    frozen : bool
        Read-only after construction.
    init : bool
        Whether ``__init__`` takes the field.
    repr : bool
        Whether ``repr`` shows the field.
    hash : bool or None
        Whether hashing includes the field (None: follow ``compare``).
    compare : bool
        Whether comparisons include the field.
    kw_only : bool or None
        Whether ``__init__`` takes it by keyword only (None: the class's setting).
    metadata : Any
        Free-form metadata.
    structural_eq : str or None
        How structural equality treats it: ``"def"``, ``"def-pattern"``, ``"def-simple"``,
        ``"ignore"``, or None.
    doc : str or None
        Documentation of the field.
    converter : Callable
        Applied to values assigned to the field.
    **extra_kwargs : Any
        Options of newer versions, kept as given.

    Attributes
    ----------
    type : Any
        The field's annotation, set by the decorator.

    Raises
    ------
    ValueError
        When both defaults are given or ``structural_eq`` is unknown.
    TypeError
        When ``default_factory`` is not callable.
    """

    __slots__ = ("name", "_ty_schema", "type", "default", "default_factory", "frozen", "init", "repr",
                 "hash", "compare", "kw_only", "metadata", "structural_eq", "doc", "converter",
                 "extra_kwargs")

    def __init__(self, name: str | None = None, _ty_schema: Any = None, *, default: Any = MISSING,
                 default_factory: Any = MISSING, frozen: bool = False, init: bool = True,
                 repr: bool = True, hash: bool | None = True, compare: bool = False,  # noqa: A002
                 kw_only: bool | None = False, metadata: Any = None, structural_eq: str | None = None,
                 doc: str | None = None, converter: Any = _identity, **extra_kwargs: Any) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        if default_factory is not MISSING and not callable(default_factory):
            raise TypeError(f"default_factory must be a callable, got {type(default_factory).__name__}")
        if structural_eq not in _STRUCTURAL_EQ:
            raise ValueError("structural_eq must be one of [None, 'def', 'def-pattern', 'def-simple', "
                             f"'ignore'], got {structural_eq!r}")
        self.name, self._ty_schema, self.type = name, _ty_schema, None
        self.default, self.default_factory = default, default_factory
        self.frozen, self.init, self.repr, self.hash, self.compare = frozen, init, repr, hash, compare
        self.kw_only, self.metadata, self.structural_eq, self.doc = kw_only, metadata, structural_eq, doc
        self.converter, self.extra_kwargs = converter, dict(extra_kwargs)

    def __repr__(self) -> str:
        return (f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r}, "
                f"default_factory={self.default_factory!r}, init={self.init}, repr={self.repr}, "
                f"hash={self.hash}, compare={self.compare}, kw_only={self.kw_only}, frozen={self.frozen})")

    def __copy__(self) -> Field:
        new = Field.__new__(Field)
        for slot in Field.__slots__:
            setattr(new, slot, getattr(self, slot))
        new.extra_kwargs = dict(self.extra_kwargs)
        return new

    @property
    def has_default(self) -> bool:
        """True when the field has a default value or factory."""
        return self.default is not MISSING or self.default_factory is not MISSING


def field(*, default: Any = MISSING, default_factory: Any = MISSING, frozen: bool = False,
          init: bool = True, repr: bool = True, hash: bool | None = None,  # noqa: A002
          compare: bool = True, kw_only: bool | None = None, metadata: Any = None,
          structural_eq: str | None = None, doc: str | None = None, converter: Any = _identity,
          **extra_kwargs: Any) -> Any:
    """Declare the options of one field of a ``py_class``, as ``dataclasses.field``.

    Parameters
    ----------
    default : Any, optional
        The default value.
    default_factory : Callable, optional
        Makes the default value for each instance (for mutable defaults).
    frozen : bool, optional
        Read-only after construction (default False).
    init : bool, optional
        Whether ``__init__`` takes the field (default True).
    repr : bool, optional
        Whether ``repr`` shows the field (default True).
    hash : bool or None, optional
        Whether hashing includes the field (default: follow ``compare``).
    compare : bool, optional
        Whether comparisons include the field (default True).
    kw_only : bool or None, optional
        Whether ``__init__`` takes it by keyword only (default: the class's setting).
    metadata : Any, optional
        Free-form metadata.
    structural_eq : str or None, optional
        How structural equality treats the field: ``"def"``, ``"def-pattern"``,
        ``"def-simple"``, ``"ignore"``, or None (compare normally).
    doc : str or None, optional
        Documentation of the field.
    converter : Callable, optional
        Applied to values assigned to the field.
    **extra_kwargs : Any
        Options of newer versions, kept as given.

    Returns
    -------
    Field
        The options, to assign as the field's class attribute.

    Examples
    --------
    >>> from tvm_ffi.dataclasses import field
    >>> field(default=0, kw_only=True).kw_only
    True
    """
    return Field(default=default, default_factory=default_factory, frozen=frozen, init=init, repr=repr,
                 hash=hash, compare=compare, kw_only=kw_only, metadata=metadata,
                 structural_eq=structural_eq, doc=doc, converter=converter, **extra_kwargs)


class init_property:  # noqa: N801  (the reference's name)
    """A field computed once from the others after construction: ``@init_property def f(self) -> T``.

    It is not an ``__init__`` parameter and is left out of repr, comparison and hashing.

    Parameters
    ----------
    func : Callable
        Computes the value from the constructed instance.

    Raises
    ------
    TypeError
        When ``func`` is not callable.
    """

    def __init__(self, func: Any) -> None:
        if not callable(func):
            raise TypeError(f"init_property expects a function, got {type(func).__name__}")
        self.func = func
        self.__doc__ = getattr(func, "__doc__", None)
