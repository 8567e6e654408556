"""Enums whose members are FFI singletons: ``Enum``, ``IntEnum``, ``StrEnum``.

``class Color(IntEnum, type_key="en.Color")`` binds the runtime type ``en.Color``: a type a
C/C++ library registered (its ``EnumDef`` entries are bound by name) or, when the key is new,
one defined here with ``py_class``. Every member is one object of that type, recorded in the
type's ``__ffi_enum__`` attribute (an ``ffi.EnumState``) so C++ code and other frontends see
the same singletons: ``entries`` in declaration order, ``indexes`` from both canonical indices
(int and str) to the member, and ``attrs`` with per-member attribute columns.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Callable

from .. import _core
from ..container import Dict, List
from . import _c_registry
from ._enum_declare import EnumEntry, collect_declarations, indices_of, reject_value_field
from ._enum_fields import MEMBER_CACHE, member_cache
from .c_class import c_class
from .py_class import _PY_KEYS, py_class

__all__ = ["ENUM_STATE_ATTR", "Enum", "EnumAttrMap", "EnumState", "IntEnum", "StrEnum", "auto",
           "entry"]

ENUM_STATE_ATTR = "__ffi_enum__"
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


@c_class("ffi.EnumState")
class EnumState(_core.Object):
    """The members of one enum type: ``entries``, ``indexes`` (int and str) and ``attrs``."""

    __slots__ = ()
    entries: List[Any]
    indexes: Dict[Any, Any]
    attrs: Dict[str, Dict[Any, Any]]


def entry(*args: Any, **kwargs: Any) -> Any:
    """Declare an enum member in a class body.

    Parameters
    ----------
    *args : Any
        Positional values of the member's fields.
    **kwargs : Any
        Field values by name (``value=`` gives an IntEnum/StrEnum member its payload).

    Returns
    -------
    Any
        A declaration the enum class turns into the member when the class is made.

    Examples
    --------
    >>> from tvm_ffi.dataclasses import IntEnum, entry
    >>> class Level(IntEnum, type_key="doc.Level"):
    ...     low = entry(value=1)
    >>> Level.low.value
    1
    """
    return EnumEntry(*args, **kwargs)


def auto() -> Any:
    """Declare an enum member whose indices come from its name and declaration order.

    Returns
    -------
    Any
        A declaration the enum class turns into the member when the class is made.
    """
    return EnumEntry()


def normalize_index(index: Any) -> int | str:
    """A canonical index as stored in ``indexes``: bool becomes int; ints must fit int64."""
    if isinstance(index, bool):
        return int(index)
    if isinstance(index, int):
        if not _INT64_MIN <= index <= _INT64_MAX:
            raise OverflowError(f"enum integer index {index} is outside int64")
        return index
    if isinstance(index, str):
        return index
    raise TypeError(f"enum index must be int or str, got {type(index).__name__}")


def enum_state(cls: type, *, create: bool = False) -> Any:
    """The ``ffi.EnumState`` of an enum class's type (made and registered when ``create``)."""
    state = cls.__dict__.get("_ffi_enum_state")
    if state is not None:
        return state
    info = getattr(cls, "__tvm_ffi_type_info__", None)
    if info is None:
        return None
    state = _core._lookup_type_attr(info.type_index, ENUM_STATE_ATTR)
    if state is None and create:
        _c_registry.register_type_attr(info.type_index, ENUM_STATE_ATTR, EnumState())
        state = _core._lookup_type_attr(info.type_index, ENUM_STATE_ATTR)
    if state is not None and info.type_cls is cls:
        # A type attribute is set once for good: the class keeps it for fast lookups.
        type.__setattr__(cls, "_ffi_enum_state", state)
    return state


def lookup_member(state: Any, key: int | str) -> Any:
    """The member under canonical index ``key`` in ``state``, or None."""
    try:
        return state.indexes[key]
    except KeyError:
        return None


_NO_MEMBERS: dict[Any, Any] = {}


def member_of(cls: type, key: int | str) -> Any:
    """The member of enum class ``cls`` under canonical index ``key``, or None (hits are kept in
    the class's member cache, ``_enum_fields.member_cache``)."""
    cache = member_cache(cls)
    member = cache.get(key)
    if member is None:
        state = enum_state(cls)
        member = None if state is None else lookup_member(state, key)
        if member is not None:
            cache[key] = member
    return member


def _members(cls: type) -> list[Any]:
    state = enum_state(cls)
    return [] if state is None else list(state.entries)


class _ClassProperty:
    """A read-only property of the class itself (``Color.attr_dict``)."""

    def __init__(self, fget: Callable[[type], Any]) -> None:
        self.fget = fget
        self.__doc__ = fget.__doc__

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        return self.fget(owner if owner is not None else type(instance))


class _EnumMeta(_core._ObjectSlotsMeta):
    """Iteration over the members; ``E(index)`` looks a member up (slots stay empty, as for
    every object class)."""

    def __iter__(cls) -> Iterator[Any]:
        return iter(_members(cls))

    def __len__(cls) -> int:
        return len(_members(cls))

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and not kwargs:
            value = args[0]
            if type(value) is int or type(value) is str:  # a canonical index seen before: one dict hit
                member = cls.__dict__.get(MEMBER_CACHE, _NO_MEMBERS).get(value)
                if member is not None:
                    return member
            if isinstance(value, cls):
                return value
            if isinstance(value, (int, str)):
                try:
                    return cls.get(value)  # type: ignore[attr-defined]  # Enum.get (this makes Enums)
                except KeyError:
                    raise ValueError(f"{value!r} is not a valid {cls.__name__}") from None
        return super().__call__(*args, **kwargs)


@c_class("ffi.Enum", init=False)
class Enum(_core.Object, metaclass=_EnumMeta):
    """Base of enums whose members are FFI singletons (``class Kind(Enum, type_key=...)``)."""

    _int_index: int
    _str_index: str

    def __init_subclass__(cls, *, type_key: str | None = None, frozen: bool = True, init: bool = True,
                          repr: bool = True, **kwargs: Any) -> None:  # noqa: A002
        super().__init_subclass__(**kwargs)
        if type_key is None:
            return  # an abstract base: its members stay entry() markers
        payload = _payload_type(cls)
        user_repr = "__repr__" in cls.__dict__
        binders, declarations = collect_declarations(cls, payload)
        index = _core._object_type_key_to_index(type_key)
        if type_key in _PY_KEYS:  # defined by Python already: a second class cannot define it again
            raise ValueError(f"Type key {type_key!r} is already registered")
        if index is not None:
            previous = _core._class_for_type_index(index)
            c_class(type_key, init=init, repr=repr)(cls)
        else:
            py_class(type_key, frozen=frozen, structural_eq="singleton")(cls)
        if payload is not None:
            _install_payload_behaviour(cls, payload, user_repr)
        try:
            _bind_members(cls, binders, declarations, type_key, index is not None, payload)
        except BaseException:
            if index is not None:  # objects of the C++ type come back as before the failed binding
                _core._register_object_class(index, previous)
            raise

    @classmethod
    def get(cls, index: int | str) -> Any:
        """Look a member up by its canonical index.

        Parameters
        ----------
        index : int or str
            The member's int index or its name.

        Returns
        -------
        Any
            The member (a runtime singleton).

        Raises
        ------
        KeyError
            When no member has that index.
        """
        key = normalize_index(index)
        member = member_of(cls, key)
        if member is None:
            raise KeyError(key)
        return member

    @classmethod
    def all_entries(cls) -> Iterator[Any]:
        """Iterate over the members.

        Returns
        -------
        Iterator[Any]
            The members in registration order.
        """
        return iter(_members(cls))

    @_ClassProperty
    def attr_dict(cls: type) -> Any:  # noqa: N805
        """The live attribute columns: ``{name: {member: value}}``."""
        state = enum_state(cls)
        return Dict({}) if state is None else state.attrs

    @classmethod
    def def_attr(cls, name: str, *, default: Any = _core.MISSING) -> EnumAttrMap:
        """Declare (or reopen) an attribute column of this enum.

        Parameters
        ----------
        name : str
            The column's name.
        default : Any, optional
            The value of members the column has no entry for; without it they raise ``KeyError``.

        Returns
        -------
        EnumAttrMap
            A live view of the column: ``m[member] = value`` writes it.
        """
        return EnumAttrMap(cls, name, default=default)


@c_class("ffi.IntEnum", init=False)
class IntEnum(Enum):
    """Enum whose ``value`` is its int64 index (``red = 1``); ``name`` is its attribute name."""

    value: int
    _ffi_enum_payload = int  # fields of these types accept the payload (_enum_fields.py)
    if TYPE_CHECKING:
        name: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        reject_value_field(cls, "IntEnum")
        super().__init_subclass__(**kwargs)


@c_class("ffi.StrEnum", init=False)
class StrEnum(Enum):
    """Enum whose ``value`` and ``name`` are its str index (``add = "+"``)."""

    value: str
    _ffi_enum_payload = str
    if TYPE_CHECKING:
        name: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        reject_value_field(cls, "StrEnum")
        super().__init_subclass__(**kwargs)


def _payload_type(cls: type) -> type | None:
    if issubclass(cls, IntEnum):
        return int
    return str if issubclass(cls, StrEnum) else None


class EnumAttrMap:
    """One attribute column of an enum: ``m[member] = value``, ``m[member]``, ``in``, ``get``.

    Parameters
    ----------
    enum_cls : type
        The enum class whose members are the keys.
    name : str
        The column's name (shared by every view of it).
    default : Any, optional
        The value of members without an entry; without it they raise ``KeyError``.
    """

    __slots__ = ("_default", "_enum_cls", "_name")

    def __init__(self, enum_cls: type, name: str, *, default: Any = _core.MISSING) -> None:
        self._enum_cls, self._name, self._default = enum_cls, name, default

    @property
    def name(self) -> str:
        """The attribute name."""
        return self._name

    def _check(self, member: object) -> None:
        if not isinstance(member, self._enum_cls):
            raise TypeError(f"expected {self._enum_cls.__name__}, got {type(member).__name__}")

    def _column(self, create: bool) -> Any:
        state = enum_state(self._enum_cls, create=create)
        if state is None:
            return None
        column = state.attrs.get(self._name)
        if column is None and create:
            column = Dict({})
            state.attrs[self._name] = column
        return column

    def __setitem__(self, member: object, value: Any) -> None:
        self._check(member)
        self._column(True)[member] = value

    def __getitem__(self, member: object) -> Any:
        self._check(member)
        column = self._column(False)
        if column is not None and member in column:
            return column[member]
        if self._default is not _core.MISSING:
            return self._default
        raise KeyError(f"{member!r} has no extensible attribute {self._name!r}")

    def __contains__(self, member: object) -> bool:
        if not isinstance(member, self._enum_cls):
            return False
        column = self._column(False)
        return column is not None and member in column

    def get(self, variant: object, default: Any = None) -> Any:
        """Read the column for one member.

        Parameters
        ----------
        variant : object
            A member of the enum (the reference's parameter name).
        default : Any, optional
            What to return when the column has no entry for ``variant``.

        Returns
        -------
        Any
            The member's value in this column, else ``default``.
        """
        return self[variant] if variant in self else default


def _install_payload_behaviour(cls: type, payload: type, user_repr: bool) -> None:
    """IntEnum/StrEnum members compare, hash and print as their value."""

    def __eq__(self: Any, other: object) -> Any:
        if isinstance(other, type(self)):
            return self.value == other.value
        if isinstance(other, payload):
            return self.value == other
        return NotImplemented

    def __ne__(self: Any, other: object) -> Any:
        equal = __eq__(self, other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self: Any) -> int:
        return hash(self.value)

    def __str__(self: Any) -> str:
        return str(self.value)

    def name(self: Any) -> str:
        """The member's name (its canonical str index)."""
        return str(self._str_index)

    for method in (__eq__, __ne__, __hash__, __str__):
        if method.__name__ not in cls.__dict__:
            method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
            setattr(cls, method.__name__, method)
    if "name" not in cls.__dict__:
        cls.name = property(name)  # type: ignore[attr-defined]
    if not user_repr:
        def __repr__(self: Any) -> str:
            return f"{type(self).__name__}.{self.name}"

        __repr__.__qualname__ = f"{cls.__qualname__}.__repr__"
        setattr(cls, "__repr__", __repr__)  # noqa: B010 -- a method, not an instance attribute


def _bind_members(cls: type, binders: list[str], declarations: dict[str, EnumEntry], type_key: str,
                  cxx_backed: bool, payload: type | None) -> None:
    """Binds ``x: ClassVar[E]`` names to existing members, then defines the declared ones."""
    state = enum_state(cls, create=True)
    entries, indexes = state.entries, state.indexes
    for alias in binders:
        member = indexes.get(alias)
        if member is None:
            if cxx_backed:
                raise RuntimeError(f"{type_key!r} has no enum at string index {alias!r}")
            if payload is int:
                raise TypeError(f"{cls.__name__}.{alias} requires an integer value")
            member = _create(cls, len(entries), alias, EnumEntry(), cxx_backed)
            _record(entries, indexes, member)
        setattr(cls, alias, member)
    for alias, declaration in declarations.items():
        int_index, str_index, fields = indices_of(cls, alias, len(entries), declaration, payload)
        member = indexes.get(int_index if payload is int else str_index)
        if member is None:  # a repeated payload makes the name an alias of the first member
            if int_index in indexes or str_index in indexes:
                raise ValueError(f"duplicate enum index in {cls.__name__}.{alias}")
            member = _create(cls, int_index, str_index, fields, cxx_backed)
            _record(entries, indexes, member)
        setattr(cls, alias, member)


def _create(cls: type, int_index: int, str_index: str, declaration: EnumEntry, cxx_backed: bool) -> Any:
    try:
        if not cxx_backed:
            return cls(*declaration.args, _int_index=int_index, _str_index=str_index, **declaration.kwargs)
        if declaration.args:
            raise TypeError("entries of a C++-backed enum take keyword fields only")
        ffi_new = _core._lookup_type_attr(cls.__tvm_ffi_type_info__.type_index, "__ffi_new__")  # type: ignore[attr-defined]
        if ffi_new is None:
            raise TypeError("the enum type has no __ffi_new__ allocator")
        member = ffi_new()
        for name, value in {"_int_index": int_index, "_str_index": str_index, **declaration.kwargs}.items():
            prop = inspect.getattr_static(cls, name, None)
            if not hasattr(prop, "set"):
                raise TypeError(f"field {name!r} has no reflected setter")
            prop.set(member, value)
        return member
    except Exception as err:  # noqa: BLE001 -- any failure is a bad declaration
        raise TypeError(f"{cls.__name__}.{str_index}: invalid enum entry: {err}") from None


def _record(entries: Any, indexes: Any, member: Any) -> None:
    entries.append(member)
    indexes[member._int_index] = member
    indexes[member._str_index] = member


def payload_enum_type(cls: Any) -> type | None:
    """``int`` / ``str`` for IntEnum / StrEnum classes bound to a type, else ``None``."""
    if not isinstance(cls, type) or not issubclass(cls, Enum) or cls in (Enum, IntEnum, StrEnum):
        return None
    return _payload_type(cls)

