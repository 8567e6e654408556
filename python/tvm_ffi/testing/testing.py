"""Python classes of the fixture object types of ``libtvm_ffi_testing.so``.

Each class is bound with :func:`tvm_ffi.register_object`, so it gets its fields, methods and
constructor from the type's reflection; nothing here re-declares them. ``__test__ = False``
keeps pytest from collecting the ``Test*`` names.
"""

from __future__ import annotations

import sys
from typing import Any, ClassVar

from .. import _core
from ..registry import get_global_func, register_object
from ._locking import run_with_gpu_lock

__all__ = [
    "TestCompare", "TestCustomCompare", "TestCustomHash", "TestEqWithoutHash", "TestHash",
    "TestIntPair", "TestNonCopyable", "TestObjectBase", "TestObjectDerived", "TestObjectPtrHolder",
    "_TestCxxAutoInit", "_TestCxxAutoInitAllInitOff", "_TestCxxAutoInitChild",
    "_TestCxxAutoInitKwOnlyDefaults", "_TestCxxAutoInitParent", "_TestCxxAutoInitSimple",
    "_TestCxxClassBase", "_TestCxxClassDerived", "_TestCxxClassDerivedDerived", "_TestCxxInitSubset",
    "_SchemaAllTypes", "_TestCxxKwOnly", "_TestCxxNoAutoInit", "add_one", "run_with_gpu_lock",
    "create_object", "make_unregistered_object",
]


@register_object("testing.TestObjectBase")
class TestObjectBase(_core.Object):
    """Fields ``v_i64`` (rw, default 10), ``v_f64`` (ro, 10.0), ``v_str`` (rw, "hello")."""

    __test__: ClassVar[bool] = False
    __slots__ = ()


@register_object("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    """Adds the required fields ``v_map`` (Map) and ``v_array`` (Array)."""

    __slots__ = ()


@register_object("testing.TestObjectPtrHolder")
class TestObjectPtrHolder(_core.Object):
    """``value`` (a TestObjectBase, not None) and ``optional_value`` (default None)."""

    __test__: ClassVar[bool] = False
    __slots__ = ()


@register_object("testing.TestIntPair")
class TestIntPair(_core.Object):
    """Read-only ``a`` and ``b``; ``sum()``; constructed positionally: ``TestIntPair(1, 2)``."""

    __test__: ClassVar[bool] = False
    __slots__ = ()


@register_object("testing.TestNonCopyable")
class TestNonCopyable(_core.Object):
    """Read-only ``value``; no shallow copy."""

    __test__: ClassVar[bool] = False
    __slots__ = ()


@register_object("testing.TestCompare")
class TestCompare(_core.Object):
    """``key``, ``name`` and ``ignored_field`` (compare=False)."""

    __test__: ClassVar[bool] = False
    __slots__ = ()


@register_object("testing.TestHash")
class TestHash(_core.Object):
    """``key``, ``name`` and ``hash_ignored`` (hash=False)."""

    __test__: ClassVar[bool] = False
    __slots__ = ()


@register_object("testing.TestCustomHash")
class TestCustomHash(_core.Object):
    """``key``/``label``; its ``__ffi_hash__`` hook hashes ``key`` only."""

    __test__: ClassVar[bool] = False
    __slots__ = ()


@register_object("testing.TestCustomCompare")
class TestCustomCompare(_core.Object):
    """``key``/``label``; ``__ffi_hash__``, ``__ffi_eq__`` and ``__ffi_compare__`` use ``key``."""

    __test__: ClassVar[bool] = False
    __slots__ = ()


@register_object("testing.TestEqWithoutHash")
class TestEqWithoutHash(_core.Object):
    """``key``/``label``; an ``__ffi_eq__`` hook and deliberately no hash hook."""

    __test__: ClassVar[bool] = False
    __slots__ = ()


@register_object("testing.TestCxxClassBase")
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
    not_field_1 = 1
    not_field_2: ClassVar[int] = 2

    def __init__(self, v_i64: int, v_i32: int) -> None:
        ffi_init = _core._lookup_type_attr(type(self).__tvm_ffi_type_info__.type_index, "__ffi_init__")  # type: ignore[attr-defined]
        self.__init_handle_by_constructor__(ffi_init, v_i64 + 1, v_i32 + 2)


@register_object("testing.TestCxxClassDerived")
class _TestCxxClassDerived(_TestCxxClassBase):
    """``v_f64`` and ``v_f32`` (default 8.0) after the base fields."""

    __slots__ = ()
    __init__ = _core.Object.__init__  # the reflected constructor, not the base's


@register_object("testing.TestCxxClassDerivedDerived")
class _TestCxxClassDerivedDerived(_TestCxxClassDerived):
    """``v_str`` (default "default") and ``v_bool``."""

    __slots__ = ()


def _auto_init_class(type_key: str, name: str, init: bool = True) -> Any:
    cls = type(name, (_core.Object,), {"__slots__": (), "__test__": False, "__module__": __name__,
                                      "__doc__": f"Binding of `{type_key}` (auto-generated KWARGS init)."})
    return register_object(type_key, init=init)(cls)


_TestCxxInitSubset = _auto_init_class("testing.TestCxxInitSubset", "_TestCxxInitSubset")
_TestCxxKwOnly = _auto_init_class("testing.TestCxxKwOnly", "_TestCxxKwOnly")
_TestCxxAutoInit = _auto_init_class("testing.TestCxxAutoInit", "_TestCxxAutoInit")
_TestCxxAutoInitSimple = _auto_init_class("testing.TestCxxAutoInitSimple", "_TestCxxAutoInitSimple")
_TestCxxAutoInitAllInitOff = _auto_init_class("testing.TestCxxAutoInitAllInitOff", "_TestCxxAutoInitAllInitOff")
_TestCxxAutoInitKwOnlyDefaults = _auto_init_class(
    "testing.TestCxxAutoInitKwOnlyDefaults", "_TestCxxAutoInitKwOnlyDefaults"
)
_TestCxxAutoInitParent = _auto_init_class("testing.TestCxxAutoInitParent", "_TestCxxAutoInitParent")
_TestCxxNoAutoInit = _auto_init_class("testing.TestCxxNoAutoInit", "_TestCxxNoAutoInit")


@register_object("testing.TestCxxAutoInitChild")
class _TestCxxAutoInitChild(_TestCxxAutoInitParent):  # type: ignore[misc,valid-type]
    """``child_required`` and kw-only ``child_kw_only`` after the parent's fields."""

    __slots__ = ()


@register_object("testing.SchemaAllTypes")
class _SchemaAllTypes(_core.Object):
    """One field of every storage kind; ``make_with(vi, vf, s)`` is its only factory."""

    __slots__ = ()


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
    """``requires_py310``/``requires_py312``/``requires_py313``: pytest skip marks, made on first
    use so that importing this module does not need pytest."""
    minor = {"requires_py310": 10, "requires_py312": 12, "requires_py313": 13}.get(name)
    if minor is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import pytest

    return pytest.mark.skipif(sys.version_info < (3, minor), reason=f"requires Python 3.{minor}+")
