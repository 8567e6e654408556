"""core.CAny (an owned FFI value) and TypeSchema.convert / check_value, which return and
check values through the field type converter."""

from __future__ import annotations

from typing import Optional

import pytest
import tvm_ffi
import tvm_ffi.testing
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi.core import CAny, TypeSchema, _to_py_class_value


@pytest.mark.parametrize(("value", "type_index", "back"), [
    (None, 0, None), (1, 1, 1), (True, 2, True), (2.5, 3, 2.5), ("ab", 11, "ab"), ("x" * 30, 65, "x" * 30),
    (b"ab", 12, b"ab"), ([1], 71, (1,)), ({"a": 1}, 72, {"a": 1}),
])
def test_cany_holds_the_converted_value(value: object, type_index: int, back: object) -> None:
    held = CAny(value)
    assert held.type_index == type_index
    result = _to_py_class_value(held)
    assert result == back or list(result) == list(back)  # type: ignore[call-overload]


def test_cany_strings_come_back_as_ffi_strings_and_reprs() -> None:
    assert type(_to_py_class_value(CAny("ab"))) is tvm_ffi.core.String
    assert type(_to_py_class_value(CAny(b"ab"))) is tvm_ffi.core.Bytes
    assert CAny().type_index == 0 and repr(CAny()) == "CAny(None)"
    assert repr(CAny(1)) == "CAny(int=1)" and repr(CAny(2.5)) == "CAny(float=2.5)"
    assert repr(CAny(True)) == "CAny(bool=True)" and repr(CAny("ab")) == "CAny(type_index=11)"
    assert repr(CAny([1])) == "CAny(object, type_index=71)"
    opaque = object()
    assert CAny(opaque).type_index == 74 and _to_py_class_value(CAny(opaque)) is opaque
    with pytest.raises(TypeError, match="expects a CAny, got `int`"):
        _to_py_class_value(1)  # type: ignore[arg-type]


def test_type_schema_convert_returns_a_cany() -> None:
    int_schema = TypeSchema.from_annotation(int)
    converted = int_schema.convert(True)
    assert isinstance(converted, CAny) and converted.type_index == 1 and _to_py_class_value(converted) == 1
    assert TypeSchema.from_annotation(list[int]).convert((1, 2)).type_index == 75  # a List
    assert _to_py_class_value(TypeSchema.from_annotation(Optional[str]).convert(None)) is None
    with pytest.raises(TypeError, match="^type conversion failed for int: expected int, got str$"):
        int_schema.convert("x")
    with pytest.raises(TypeError, match=r"failed for Array\[int\]: element \[1\]: expected int, got str"):
        TypeSchema.from_annotation(tvm_ffi.Array[int]).convert([1, "a"])
    with pytest.raises(TypeError, match="^unknown TypeSchema origin: 'Foo.Bar'$"):
        TypeSchema("Foo.Bar").convert(1)


def test_type_schema_check_value() -> None:
    schema = TypeSchema.from_annotation(int)
    assert schema.check_value(3) is None
    with pytest.raises(TypeError, match="^type check failed for int: expected int, got str$"):
        schema.check_value("x")


def test_is_subtype_of_takes_a_class() -> None:
    pair = TypeSchema.from_annotation(tvm_ffi.testing.TestIntPair)
    assert pair.is_subtype_of(tvm_ffi.Object) and pair.is_subtype_of(tvm_ffi.testing.TestIntPair)
    assert not pair.is_subtype_of(tvm_ffi.testing.TestObjectBase) and not pair.is_subtype_of(int)
    assert not TypeSchema.from_annotation(int).is_subtype_of(tvm_ffi.Object)


class _IntLike:
    def __tvm_ffi_int__(self) -> int:
        return 7


def test_convert_unwraps_python_values_first() -> None:
    import numpy as np

    int_schema = TypeSchema.from_annotation(int)
    assert _to_py_class_value(int_schema.convert(np.int32(3))) == 3
    assert _to_py_class_value(int_schema.convert(_IntLike())) == 7
    with pytest.raises(TypeError, match="expected int, got bool"):
        int_schema.convert(np.True_)
    assert CAny(lambda: 1).type_index == 68  # as an argument would
    assert TypeSchema.from_annotation(tvm_ffi.Object).convert([1]).type_index == 71  # a list is an Array


def test_object_targets_hold_opaque_objects_and_name_the_cast() -> None:
    opaque = object()
    assert _to_py_class_value(TypeSchema.from_annotation(tvm_ffi.Object).convert(opaque)) is opaque
    with pytest.raises(TypeError, match="expected Object, got int\n  __ffi_convert__ failed:\n    "
                                        "Cannot cast from `int` to `ffi.Object`"):
        TypeSchema.from_annotation(tvm_ffi.Object).convert(1)
    with pytest.raises(TypeError, match="expected testing.TestIntPair, got int\n  __ffi_convert__ failed:\n    "
                                        "Cannot cast from `int` to `testing.TestIntPair`"):
        TypeSchema.from_annotation(tvm_ffi.testing.TestIntPair).convert(3)
