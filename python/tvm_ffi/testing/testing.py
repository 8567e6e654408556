"""Python classes of the fixture object types of ``libtvm_ffi_testing.so``.

Each class is bound with :func:`tvm_ffi.dataclasses.c_class`, as the reference binds them: it
gets its fields, methods and constructor from the type's reflection, and is a dataclass
(``fields()``, ``__match_args__``, ``inspect.signature``). The annotations only name the
reflected fields' Python types. ``__test__ = False`` keeps pytest from collecting the
``Test*`` names.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .. import _core
from .. import core as tvm_ffi_core  # noqa: F401  (the reference's alias; tests reach core through it)
from .._device import Device
from .._dtype import dtype
from ..dataclasses import IntEnum, StrEnum, entry  # noqa: F401  (importable from here, as in the reference)
from ..dataclasses.c_class import c_class
from ..registry import get_global_func
from ._locking import run_with_gpu_lock

Object = _core.Object

try:  # the skip marks need pytest; the fixture classes do not
    import pytest
except ImportError:  # pragma: no cover - exercised only where pytest is absent
    pytest = None  # type: ignore[assignment]

if TYPE_CHECKING or pytest is not None:
    requires_py310 = pytest.mark.skipif(sys.version_info < (3, 10), reason="requires Python 3.10+")
    requires_py312 = pytest.mark.skipif(sys.version_info < (3, 12), reason="requires Python 3.12+")
    requires_py313 = pytest.mark.skipif(sys.version_info < (3, 13), reason="requires Python 3.13+")

__all__ = [
    "TestCompare", "TestCustomCompare", "TestCustomHash", "TestEqWithoutHash", "TestHash",
    "TestFrozenCxx", "TestIntPair", "TestNonCopyable", "TestObjectBase", "TestObjectDerived", "TestObjectPtrHolder",
    "_TestCxxAutoInit", "_TestCxxAutoInitAllInitOff", "_TestCxxAutoInitChild",
    "_TestCxxAutoInitKwOnlyDefaults", "_TestCxxAutoInitParent", "_TestCxxAutoInitSimple",
    "_TestCxxClassBase", "_TestCxxClassDerived", "_TestCxxClassDerivedDerived", "_TestCxxInitSubset",
    "_SchemaAllTypes", "_TestCxxKwOnly", "_TestCxxNoAutoInit", "add_one", "run_with_gpu_lock",
    "create_object", "make_unregistered_object",
]


@c_class("testing.TestObjectBase")
class TestObjectBase(_core.Object):
    """Fields ``v_i64`` (rw, default 10), ``v_f64`` (ro, 10.0), ``v_str`` (rw, "hello")."""

    __test__: ClassVar[bool] = False
    __slots__ = ()
    v_i64: int
    v_f64: float
    v_str: str


@c_class("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    """Adds the required fields ``v_map`` (Map) and ``v_array`` (Array)."""

    __slots__ = ()
    v_map: Mapping[Any, Any]
    v_array: Sequence[Any]


@c_class("testing.TestObjectPtrHolder")
class TestObjectPtrHolder(_core.Object):
    """``value`` (a TestObjectBase, not None) and ``optional_value`` (default None)."""

    __test__: ClassVar[bool] = False
    __slots__ = ()
    value: TestObjectBase
    optional_value: TestObjectBase | None


@c_class("testing.TestIntPair")
class TestIntPair(_core.Object):
    """Read-only ``a`` and ``b``; ``sum()``; constructed positionally: ``TestIntPair(1, 2)``."""

    __test__: ClassVar[bool] = False
    __slots__ = ()
    a: int
    b: int


@c_class("testing.TestFrozenCxx", frozen=True)
class TestFrozenCxx(_core.Object):
    """A type the reference declares without reflection: no fields, no constructor."""

    __test__: ClassVar[bool] = False
    __slots__ = ()


@c_class("testing.TestNonCopyable")
class TestNonCopyable(_core.Object):
    """Read-only ``value``; no shallow copy."""

    __test__: ClassVar[bool] = False
    __slots__ = ()
    value: int


@c_class("testing.TestCompare")
class TestCompare(_core.Object):
    """``key``, ``name`` and ``ignored_field`` (compare=False)."""

    __test__: ClassVar[bool] = False
    __slots__ = ()
    key: int
    name: str
    ignored_field: int


@c_class("testing.TestHash")
class TestHash(_core.Object):
    """``key``, ``name`` and ``hash_ignored`` (hash=False)."""

    __test__: ClassVar[bool] = False
    __slots__ = ()
    key: int
    name: str
    hash_ignored: int


@c_class("testing.TestCustomHash")
class TestCustomHash(_core.Object):
    """``key``/``label``; its ``__ffi_hash__`` hook hashes ``key`` only."""

    __test__: ClassVar[bool] = False
    __slots__ = ()
    key: int
    label: str


@c_class("testing.TestCustomCompare")
class TestCustomCompare(_core.Object):
    """``key``/``label``; ``__ffi_hash__``, ``__ffi_eq__`` and ``__ffi_compare__`` use ``key``."""

    __test__: ClassVar[bool] = False
    __slots__ = ()
    key: int
    label: str


@c_class("testing.TestEqWithoutHash")
class TestEqWithoutHash(_core.Object):
    """``key``/``label``; an ``__ffi_eq__`` hook and deliberately no hash hook."""

    __test__: ClassVar[bool] = False
    __slots__ = ()
    key: int
    label: str


@c_class("testing.TestCxxClassBase")
class _TestCxxClassBase(_core.Object):
    """Fixture with its own ``__init__`` (it wins over the reflected one).

    Parameters
    ----------
    v_i64 : int
        Stored plus one.
    v_i32 : int
        Stored plus two.
    """

    __test__: ClassVar[bool] = False
    __slots__ = ()
    v_i64: int
    v_i32: int
    not_field_1 = 1
    not_field_2: ClassVar[int] = 2

    def __init__(self, v_i64: int, v_i32: int) -> None:
        ffi_init = _core._lookup_type_attr(type(self).__tvm_ffi_type_info__.type_index, "__ffi_init__")  # type: ignore[attr-defined]
        self.__init_handle_by_constructor__(ffi_init, v_i64 + 1, v_i32 + 2)


@c_class("testing.TestCxxClassDerived", eq=True, order=True, unsafe_hash=True)
class _TestCxxClassDerived(_TestCxxClassBase):
    """``v_f64`` and ``v_f32`` (default 8.0) after the base fields; compared by content."""

    __slots__ = ()
    v_f64: float
    v_f32: float
    __init__ = _core.Object.__init__  # the reflected constructor, not the base's


@c_class("testing.TestCxxClassDerivedDerived")
class _TestCxxClassDerivedDerived(_TestCxxClassDerived):
    """``v_str`` (default "default") and ``v_bool``."""

    __slots__ = ()
    v_str: str
    v_bool: bool


@c_class("testing.TestCxxInitSubset")
class _TestCxxInitSubset(_core.Object):
    """``required_field``; ``optional_field`` and ``note`` are init=False with defaults."""

    __slots__ = ()
    required_field: int
    optional_field: int
    note: str


@c_class("testing.TestCxxKwOnly")
class _TestCxxKwOnly(_core.Object):
    """Keyword-only ``x``, ``y``, ``z`` and ``w`` (default 100)."""

    __slots__ = ()
    x: int
    y: int
    z: int
    w: int


@c_class("testing.TestCxxAutoInit")
class _TestCxxAutoInit(_core.Object):
    """``a``; ``b`` init=False (default 42); kw-only ``c``; ``d`` (default 99)."""

    __slots__ = ()
    a: int
    b: int
    c: int
    d: int


@c_class("testing.TestCxxAutoInitSimple")
class _TestCxxAutoInitSimple(_core.Object):
    """Required ``x`` and ``y``."""

    __slots__ = ()
    x: int
    y: int


@c_class("testing.TestCxxAutoInitAllInitOff")
class _TestCxxAutoInitAllInitOff(_core.Object):
    """Every field init=False: ``x``, ``y`` with defaults, ``z`` without."""

    __slots__ = ()
    x: int
    y: int
    z: int


@c_class("testing.TestCxxAutoInitKwOnlyDefaults")
class _TestCxxAutoInitKwOnlyDefaults(_core.Object):
    """Positional and keyword-only fields, each with and without a default, and ``hidden``."""

    __slots__ = ()
    p_required: int
    p_default: int
    k_required: int
    k_default: int
    hidden: int


@c_class("testing.TestCxxNoAutoInit", init=False)
class _TestCxxNoAutoInit(_core.Object):
    """No constructor: made by ``create_object`` only."""

    __slots__ = ()
    x: int
    y: int


@c_class("testing.TestCxxAutoInitParent")
class _TestCxxAutoInitParent(_core.Object):
    """``parent_required`` and ``parent_default`` (default 5)."""

    __slots__ = ()
    parent_required: int
    parent_default: int


@c_class("testing.TestCxxAutoInitChild")
class _TestCxxAutoInitChild(_TestCxxAutoInitParent):
    """``child_required`` and kw-only ``child_kw_only`` after the parent's fields."""

    __slots__ = ()
    child_required: int
    child_kw_only: int


@c_class("testing.SchemaAllTypes")
class _SchemaAllTypes(_core.Object):
    """One field of every storage kind; ``make_with(vi, vf, s)`` is its only factory."""

    __slots__ = ()
    v_bool: bool
    v_int: int
    v_float: float
    v_device: Device
    v_dtype: dtype
    v_string: str
    v_bytes: bytes
    v_opt_int: int | None
    v_opt_str: str | None
    v_arr_int: Sequence[int]
    v_arr_str: Sequence[str]
    v_map_str_int: Mapping[str, int]
    v_map_str_arr_int: Mapping[str, Sequence[int]]
    v_variant: str | Sequence[int] | Mapping[str, int]
    v_opt_arr_variant: Sequence[int | str] | None


def create_object(type_key: str, **kwargs: Any) -> _core.Object:
    """Make an object of ``type_key`` by reflection: creator, then the given fields, then defaults.

    Parameters
    ----------
    type_key : str
        A registered type with a creator.
    **kwargs : Any
        Field values by name.

    Returns
    -------
    Object
        The new object.

    Examples
    --------
    >>> from tvm_ffi.testing import create_object
    >>> pair = create_object("testing.TestIntPair", a=1, b=2)
    >>> (pair.a, pair.b)
    (1, 2)
    """
    flat: list[Any] = []
    for name, value in kwargs.items():
        flat += (name, value)
    made: _core.Object = get_global_func("ffi.MakeObjectFromPackedArgs")(type_key, *flat)
    return made


def add_one(x: int) -> int:
    """Add one with the native ``testing.add_one`` (C ``int`` arithmetic).

    Parameters
    ----------
    x : int
        The input.

    Returns
    -------
    int
        ``x + 1``.

    Examples
    --------
    >>> from tvm_ffi.testing import add_one
    >>> add_one(41)
    42
    """
    return int(get_global_func("testing.add_one")(x))


def make_unregistered_object() -> _core.Object:
    """Make a ``testing.TestUnregisteredObject`` (v1=41, v2=42): a type with no Python class.

    Returns
    -------
    Object
        The object, shown through the closest registered class.
    """
    made: _core.Object = get_global_func("testing.make_unregistered_object")()
    return made


def __getattr__(name: str) -> Any:
    """Explain that the ``requires_py3xx`` skip marks need pytest, where it is not installed.

    Parameters
    ----------
    name : str
        The attribute looked up.

    Returns
    -------
    Any
        Never returns: raises ``ModuleNotFoundError`` for the marks, ``AttributeError`` otherwise.
    """
    if name in ("requires_py310", "requires_py312", "requires_py313"):
        raise ModuleNotFoundError(f"tvm_ffi.testing.testing.{name} is a pytest mark: install pytest")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
