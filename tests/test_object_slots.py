"""Object classes have no instance __dict__ unless they ask for one (the metaclass adds
`__slots__ = ()`), may derive from ABCs, and answer isinstance()/issubclass() as ABCMeta does."""

from __future__ import annotations

import abc
import collections.abc
from unittest import mock

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core


def make_derived() -> tvm_ffi.Object:
    return tvm_ffi.testing.create_object("testing.TestObjectDerived", v_i64=1, v_map={}, v_array=[])


def test_the_metaclass_is_an_abcmeta_shared_by_every_object_class() -> None:
    assert type(tvm_ffi.Object) is core._ObjectSlotsMeta
    assert issubclass(core._ObjectSlotsMeta, abc.ABCMeta)
    for cls in (tvm_ffi.Function, tvm_ffi.Tensor, tvm_ffi.Array, tvm_ffi.Map, tvm_ffi.Module):
        assert isinstance(cls, core._ObjectSlotsMeta)


def test_a_subclass_without_slots_gets_empty_slots() -> None:
    class Plain(tvm_ffi.Object):
        def describe(self) -> str:
            return "plain"

    assert Plain.__slots__ == () and Plain.__dictoffset__ == 0
    obj = Plain()
    assert not hasattr(obj, "__dict__") and obj.describe() == "plain"
    with pytest.raises(AttributeError):
        obj.extra = 1  # type: ignore[attr-defined]


def test_a_class_may_ask_for_an_instance_dict() -> None:
    class WithDict(tvm_ffi.Object):
        __slots__ = ("__dict__",)

    obj = WithDict()
    obj.note = "kept"  # type: ignore[attr-defined]
    assert obj.__dict__ == {"note": "kept"}


def test_registered_classes_and_containers_have_no_instance_dict() -> None:
    @tvm_ffi.register_object("testing.TestObjectDerived")
    class Derived(tvm_ffi.Object):
        pass

    try:
        obj = make_derived()
        assert type(obj) is Derived and not hasattr(obj, "__dict__")
        with pytest.raises(AttributeError):
            obj.not_a_field = 2  # type: ignore[attr-defined]
    finally:
        tvm_ffi.register_object("testing.TestObjectDerived")(tvm_ffi.testing.TestObjectDerived)
    for value in (tvm_ffi.Array([1]), tvm_ffi.List([1]), tvm_ffi.Map({1: 2}), tvm_ffi.Dict({1: 2})):
        assert not hasattr(value, "__dict__")


def test_object_classes_mix_with_abstract_base_classes() -> None:
    class Named(abc.ABC):
        @abc.abstractmethod
        def name(self) -> str: ...

    class Thing(tvm_ffi.Object, Named, collections.abc.Sized):
        def name(self) -> str:
            return "thing"

        def __len__(self) -> int:
            return 3

    thing = Thing()
    assert isinstance(thing, Named) and isinstance(thing, collections.abc.Sized) and len(thing) == 3
    assert Thing.__slots__ == ()


def test_isinstance_and_issubclass_follow_the_class_tree() -> None:
    arr = tvm_ffi.Array([1, 2])
    assert isinstance(arr, tvm_ffi.Object) and isinstance(arr, tvm_ffi.Array)
    assert not isinstance(arr, tvm_ffi.Map) and not isinstance(1, tvm_ffi.Object)
    assert not isinstance(arr, tvm_ffi.Function) and isinstance(arr, collections.abc.Sequence)
    assert isinstance(make_derived(), tvm_ffi.testing.TestObjectBase)
    assert not isinstance(tvm_ffi.Array([]), tvm_ffi.testing.TestObjectBase)
    assert issubclass(tvm_ffi.Array, tvm_ffi.Object) and issubclass(tvm_ffi.Function, tvm_ffi.core.CObject)
    # As in the reference: functions, tensors and errors are CObjects but not Objects.
    assert not issubclass(tvm_ffi.Function, tvm_ffi.Object) and not issubclass(tvm_ffi.Tensor, tvm_ffi.Object)
    assert not issubclass(tvm_ffi.core.Error, tvm_ffi.Object) and issubclass(tvm_ffi.Object, tvm_ffi.core.CObject)
    assert not issubclass(int, tvm_ffi.Object) and not issubclass(tvm_ffi.Map, tvm_ffi.Array)
    assert isinstance(arr, (int, tvm_ffi.Array)) and issubclass(tvm_ffi.List, (tvm_ffi.List, int))
    with pytest.raises(TypeError):
        issubclass(1, tvm_ffi.Object)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        issubclass(1, tvm_ffi.Array)  # type: ignore[arg-type]


def test_virtual_subclasses_and_spoofed_classes_count() -> None:
    class Registry(tvm_ffi.Object):
        pass

    class Outside:
        pass

    assert not isinstance(Outside(), Registry)
    Registry.register(Outside)
    assert isinstance(Outside(), Registry) and issubclass(Outside, Registry)
    # Mocks made with spec= report the class through __class__, for C and Python classes alike.
    assert isinstance(mock.Mock(spec=tvm_ffi.Function), tvm_ffi.Function)
    assert isinstance(mock.Mock(spec=tvm_ffi.Array), tvm_ffi.Array)
    assert isinstance(mock.Mock(spec=tvm_ffi.Array), tvm_ffi.Object)


def test_the_metaclass_reports_bad_class_statements() -> None:
    with pytest.raises(TypeError):
        core._ObjectSlotsMeta("OnlyAName")  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="conflicts with class variable"):
        type("Clash", (tvm_ffi.Object,), {"__slots__": ("x",), "x": 1})
