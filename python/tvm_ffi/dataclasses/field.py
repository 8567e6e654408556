"""``field()`` and ``Field``: per-field options of a ``py_class`` (as ``dataclasses.field``)."""

from __future__ import annotations

from typing import Any

from .. import _core

MISSING = _core.MISSING

_STRUCTURAL_EQ = (None, "def", "def-pattern", "def-simple", "ignore")


def _identity(value: Any) -> Any:
    return value


class Field:
    """The options of one field; ``name``, ``type`` and ``_ty_schema`` are set by the decorator."""

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
    """Options of one field, as ``dataclasses.field`` (plus ``frozen``, ``structural_eq``, ``doc``)."""
    return Field(default=default, default_factory=default_factory, frozen=frozen, init=init, repr=repr,
                 hash=hash, compare=compare, kw_only=kw_only, metadata=metadata,
                 structural_eq=structural_eq, doc=doc, converter=converter, **extra_kwargs)


class init_property:  # noqa: N801  (the reference's name)
    """A field computed once from the others after construction: ``@init_property def f(self) -> T``.

    It is not an ``__init__`` parameter and is left out of repr, comparison and hashing.
    """

    def __init__(self, func: Any) -> None:
        if not callable(func):
            raise TypeError(f"init_property expects a function, got {type(func).__name__}")
        self.func = func
        self.__doc__ = getattr(func, "__doc__", None)
