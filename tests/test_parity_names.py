"""Names of the reference package that code written for it imports: tvm_ffi.core's classes,
tvm_ffi.testing's extras, the dataclasses.common / dataclasses.enum modules, the container views
and index helpers, and the utils constants. (DLTensorTestWrapper: test_dltensor_test_wrapper.py;
cpp.nvrtc: test_cpp_nvrtc.py.)"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any, Optional

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core
from tvm_ffi.container import (
    ItemsView,
    ItemsViewBase,
    KeysView,
    KeysViewBase,
    ValuesView,
    ValuesViewBase,
    getitem_helper,
    normalize_index,
)
from tvm_ffi.testing import TestIntPair, TestObjectBase
from tvm_ffi.testing.testing import requires_py310


def test_testing_int_pair_sum_is_the_sum_method_as_a_global() -> None:
    assert tvm_ffi.testing.TestIntPairSum(TestIntPair(3, 4)) == 7
    assert tvm_ffi.get_global_func("testing.TestIntPairSum")(TestIntPair(-1, 1)) == 0
    with pytest.raises(TypeError, match=r"Mismatched type on argument #0 when calling: "
                                        r"`testing.TestIntPairSum\(0: testing.TestIntPair\) -> int`. "
                                        r"Expected `testing.TestIntPair` but got `int`"):
        tvm_ffi.testing.TestIntPairSum(1)
    with pytest.raises(TypeError, match="Expected `testing.TestIntPair` but got `testing.TestObjectBase`"):
        tvm_ffi.testing.TestIntPairSum(TestObjectBase())


def test_testing_module_marks_and_reexports() -> None:
    from tvm_ffi.testing import testing

    assert testing.requires_py310.name == "skipif" and testing.requires_py310.args == (sys.version_info < (3, 10),)
    assert testing.requires_py313.kwargs == {"reason": "requires Python 3.13+"}
    assert testing.tvm_ffi_core is core and testing.Object is tvm_ffi.Object
    assert (testing.IntEnum, testing.StrEnum, testing.entry) == (
        tvm_ffi.dataclasses.IntEnum, tvm_ffi.dataclasses.StrEnum, tvm_ffi.dataclasses.entry)


@requires_py310
def test_requires_py310_marks_a_test() -> None:
    assert sys.version_info >= (3, 10)


def test_core_class_names() -> None:
    assert isinstance(tvm_ffi.Array([1]), core.CObject) and isinstance(tvm_ffi.convert(len), core.CObject)
    assert not isinstance(1, core.CObject)
    assert isinstance(TestObjectBase.__dict__["v_i64"], core.FFIProperty)
    assert isinstance(core.String("abc"), core.PyNativeObject) and isinstance(core.Bytes(b"x"), core.PyNativeObject)
    assert not isinstance("abc", core.PyNativeObject)
    assert core.DLDeviceType is tvm_ffi.DLDeviceType and core.DLDeviceType.kDLCUDA == 2


def test_field_getter_and_setter_read_and_write_fields() -> None:
    v_i64, v_f64, _ = TestObjectBase.__tvm_ffi_type_info__.fields
    assert isinstance(v_i64.getter, core.FieldGetter) and isinstance(v_i64.setter, core.FieldSetter)
    assert isinstance(v_i64.getter, int) and v_i64.getter != 0  # still the C function's address
    obj = TestObjectBase(v_i64=5)
    assert v_i64.getter(obj) == 5 and v_f64.getter(obj) == 10.0
    v_f64.setter(obj, 2.5)  # v_f64 is read-only for Python; the setter writes anyway
    assert obj.v_f64 == 2.5
    with pytest.raises(TypeError, match=r"expected tvm_ffi.core.CObject, got int"):
        v_i64.getter(1)
    with pytest.raises(AttributeError):
        obj.v_f64 = 1.0


def test_dataclasses_common_and_enum_modules() -> None:
    from tvm_ffi.dataclasses import common, enum

    pair = TestIntPair(1, 2)
    assert common.is_dataclass(pair) and [f.name for f in common.fields(pair)] == ["a", "b"]
    assert common.astuple(pair) == (1, 2) and common.asdict(pair) == {"a": 1, "b": 2}
    assert common.Field is tvm_ffi.dataclasses.Field and common.Map is tvm_ffi.Map

    class Color(enum.IntEnum, type_key="testing.parity.Color"):
        red = enum.entry(value=1)
        green = enum.entry(value=2)

    assert Color.get("red").value == 1 and [c.name for c in Color] == ["red", "green"]
    state = core._lookup_type_attr(Color.__tvm_ffi_type_info__.type_index, enum.ENUM_STATE_ATTR)
    assert enum.ENUM_STATE_ATTR == "__ffi_enum__" and isinstance(state, enum.EnumState)
    assert enum.Enum is tvm_ffi.dataclasses.Enum and enum.py_class is tvm_ffi.dataclasses.py_class


def test_map_views_are_the_references_classes() -> None:
    m = tvm_ffi.Map({"a": 1, "b": 2})
    keys, values, items = m.keys(), m.values(), m.items()
    assert (type(keys), type(values), type(items)) == (KeysView, ValuesView, ItemsView)
    assert isinstance(keys, KeysViewBase) and isinstance(values, ValuesViewBase) and isinstance(items, ItemsViewBase)
    assert list(keys) == ["a", "b"] and list(values) == [1, 2] and list(items) == [("a", 1), ("b", 2)]
    assert "a" in keys and "z" not in keys and ("b", 2) in items and ("b", 3) not in items
    assert keys == {"a", "b"} and len(items) == 2 and repr(KeysView).endswith("tvm_ffi.container.KeysView'>")
    d = tvm_ffi.Dict({"x": 1})
    d["y"] = 2
    assert list(d.keys()) == ["x", "y"] and list(d.values()) == [1, 2]


def test_views_walk_with_a_given_iterator_functor() -> None:
    m = tvm_ffi.Map({"a": 1, "b": 2})
    view = ItemsView(m, tvm_ffi.get_global_func("ffi.MapForwardIterFunctor"))
    assert list(view) == [("a", 1), ("b", 2)]
    assert list(KeysView(tvm_ffi.Map({}), tvm_ffi.get_global_func("ffi.MapForwardIterFunctor"))) == []


def test_normalize_index_and_getitem_helper() -> None:
    assert normalize_index(3, 0) == 0 and normalize_index(3, -1) == 2
    with pytest.raises(IndexError, match="Index out of range. size: 3, got index 5"):
        normalize_index(3, 5)
    with pytest.raises(IndexError, match="got index -4"):
        normalize_index(3, -4)
    with pytest.raises(TypeError, match="indices must be integers or slices, not float"):
        normalize_index(3, 1.5)  # type: ignore[arg-type]

    def read(seq: Any, i: int) -> Any:
        return seq[i]

    assert getitem_helper("abc", read, 3, -1) == "c"
    assert getitem_helper("abc", read, 3, slice(None, None, -1)) == ["c", "b", "a"]
    assert getitem_helper("abc", read, 3, slice(5, 9)) == []


def test_utils_constants() -> None:
    from tvm_ffi.utils import kwargs_wrapper, unpack_dataclass

    assert kwargs_wrapper.MISSING is core.MISSING
    assert unpack_dataclass.UNPACK == "unpack" and unpack_dataclass.DataclassToTupleSchema is dict


def test_dataclass_to_tuple_schema_marks_fields_that_need_unpacking() -> None:
    from tvm_ffi.utils.unpack_dataclass import UNPACK, dataclass_to_tuple_schema, unpack_dataclass_to_tuple

    @dataclasses.dataclass
    class Inner:
        x: int

    @dataclasses.dataclass
    class Outer:
        name: str
        size: Optional[int]  # noqa: UP045 (the typing spelling is what is tested)
        inner: Inner
        rest: list

    assert dataclass_to_tuple_schema(Outer) == {"name": None, "size": None, "inner": UNPACK, "rest": UNPACK}
    assert unpack_dataclass_to_tuple(Outer("a", None, Inner(1), [Inner(2)])) == ("a", None, (1,), [(2,)])
    with pytest.raises(TypeError, match="expects a dataclass type"):
        dataclass_to_tuple_schema(Outer("a", 1, Inner(1), []))  # type: ignore[arg-type]


def test_remove_global_func_returns_none() -> None:
    tvm_ffi.register_global_func("testing.parity.tmp", lambda: 1)
    assert tvm_ffi.remove_global_func("testing.parity.tmp") is None
    assert tvm_ffi.get_global_func("testing.parity.tmp", allow_missing=True) is None
