"""``tvm_ffi.core.TypeSchema``: parsing the type-schema JSON of reflected fields, methods and
functions, and printing it as a Python-style annotation."""

from __future__ import annotations

import json
import re
import sys
import types
from typing import Any

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core

TypeSchema = core.TypeSchema

INT = {"type": "int"}
STR = {"type": "ffi.String"}


def fn(ret: dict, *params: dict) -> dict:
    return {"type": "ffi.Function", "named_args": {"return": [ret], "params": list(params)}}


@pytest.mark.parametrize(("schema", "text"), [
    (INT, "int"), ({"type": "float"}, "float"), ({"type": "bool"}, "bool"), ({"type": "None"}, "None"),
    (STR, "str"), ({"type": "ffi.SmallStr"}, "str"), ({"type": "ffi.Bytes"}, "bytes"), ({"type": "Any"}, "Any"),
    ({"type": "Device"}, "Device"), ({"type": "DataType"}, "dtype"), ({"type": "DLTensor*"}, "Tensor"),
    ({"type": "ffi.Tensor"}, "Tensor"), ({"type": "ffi.Object"}, "Object"), ({"type": "void*"}, "ctypes.c_void_p"),
    ({"type": "testing.TestIntPair"}, "testing.TestIntPair"),
    ({"type": "Optional", "args": [INT]}, "int | None"),
    ({"type": "Optional", "args": [{"type": "DLTensor*"}]}, "Tensor | None"),
    ({"type": "ffi.Array", "args": [INT]}, "Array[int]"), ({"type": "ffi.Array"}, "Array[Any]"),
    ({"type": "ffi.List", "args": [STR]}, "List[str]"),
    ({"type": "ffi.Map", "args": [STR, {"type": "ffi.Array", "args": [INT]}]}, "Map[str, Array[int]]"),
    ({"type": "ffi.Map"}, "Map[Any, Any]"), ({"type": "ffi.Dict", "args": [STR, INT]}, "Dict[str, int]"),
    ({"type": "Variant", "args": [INT, STR]}, "int | str"),
    ({"type": "Optional", "args": [{"type": "ffi.Array", "args": [{"type": "Variant", "args": [INT, STR]}]}]},
     "Array[int | str] | None"),
    ({"type": "ffi.Function"}, "Callable[..., Any]"),
    (fn(INT, INT), "Callable[[int], int]"), (fn(INT), "Callable[[], int]"),
    (fn({"type": "None"}), "Callable[[], None]"),
    (fn({"type": "None"}, fn({"type": "None"}, INT, {"type": "float"}, {"type": "ffi.Function"})),
     "Callable[[Callable[[int, float, Callable[..., Any]], None]], None]"),
    ({"type": "ffi.Function", "args": [INT, STR]}, "Callable[[str], int]"),  # flat (ret, params...) form
    ({"type": "ffi.BigInt"}, "int"),
    ({"type": "Tuple", "args": [INT, STR]}, "tuple[int, str]"),  # C++ Tuple<int64_t, String>
])
def test_repr_of_json_schemas(schema: dict, text: str) -> None:
    parsed = TypeSchema.from_json_str(json.dumps(schema))
    assert repr(parsed) == str(parsed) == text
    assert TypeSchema.from_json_obj(schema).repr() == text


def test_schemas_of_fixture_fields_and_methods() -> None:
    import tvm_ffi.testing as t

    holder = t.TestObjectPtrHolder.__tvm_ffi_type_info__
    assert [str(f.ty) for f in holder.fields] == ["testing.TestObjectBase", "testing.TestObjectBase | None"]
    add_i64 = t.TestObjectBase.__tvm_ffi_type_info__.methods[0]
    assert str(TypeSchema.from_json_str(add_i64.metadata["type_schema"])) == (
        "Callable[[testing.TestObjectBase, int], int]")


def test_origins_type_indices_and_json_round_trip() -> None:
    array = TypeSchema.from_json_obj({"type": "ffi.Array", "args": [INT]})
    assert (array.origin, array.origin_type_index, [a.origin for a in array.args]) == ("Array", 71, ["int"])
    assert array.to_json() == {"type": "Array", "args": [{"type": "int"}]}
    assert TypeSchema.from_json_obj(array.to_json()) == array
    assert TypeSchema("Optional", (TypeSchema("int"),)).origin_type_index == -2
    assert TypeSchema("Any").origin_type_index == -1
    pair = TypeSchema("testing.TestIntPair")
    assert pair.origin_type_index >= 128 and pair.is_subtype_of("Object")
    assert not TypeSchema("int").is_subtype_of("Object")
    big = TypeSchema.from_json_obj({"type": "ffi.BigInt"})
    assert (big.origin, big.type_key, big.to_json()) == ("int", "ffi.BigInt", {"type": "ffi.BigInt"})
    assert TypeSchema("Callable", (TypeSchema("int"), TypeSchema("str"))).repr() == "Callable[[str], int]"
    assert array.repr(ty_map=lambda o: "Sequence" if o == "Array" else o) == "Sequence[int]"


@pytest.mark.parametrize(("make", "message"), [
    (lambda: TypeSchema(""), "schema type must be a nonempty string"),
    (lambda: TypeSchema("Union", (TypeSchema("int"),)), "Union must have at least two arguments"),
    (lambda: TypeSchema("Optional"), "Optional must have exactly one argument"),
    (lambda: TypeSchema("Array", (TypeSchema("int"), TypeSchema("int"))), "Array must have 0 or 1 argument"),
    (lambda: TypeSchema("Map", (TypeSchema("int"),)), "Map must have 0 or 2 arguments"),
])
def test_malformed_schemas_are_value_errors(make, message: str) -> None:  # noqa: ANN001
    with pytest.raises(ValueError, match=message):
        make()


def test_bad_json_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="expected schema dict with 'type' key, got dict"):
        TypeSchema.from_json_obj({"args": []})
    with pytest.raises(TypeError, match="expected schema dict with 'type' key, got str"):
        TypeSchema.from_json_obj("int")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="schema type must be a string"):
        TypeSchema.from_json_obj({"type": 1})


def test_json_args_that_are_not_schemas_are_skipped() -> None:
    # std::array emits its length among the args; a malformed args value means none.
    assert TypeSchema.from_json_obj({"type": "std::vector", "args": [{"type": "int"}, 4]}) == TypeSchema(
        "Array", (TypeSchema("int"),))
    assert TypeSchema.from_json_obj({"type": "int", "args": 42}).args == ()
    assert TypeSchema.from_json_obj({"type": "int", "args": "bad"}).args == ()


def test_bare_containers_hold_any_and_lowercase_origins_convert() -> None:
    assert TypeSchema("Array") == TypeSchema("Array", (TypeSchema("Any"),))
    assert str(TypeSchema("dict")) == "dict[Any, Any]"
    assert TypeSchema("int").args == () and TypeSchema("tuple").args is None
    converted = core._to_py_class_value(TypeSchema("list", (TypeSchema("float"),)).convert([1, True]))
    assert list(converted) == [1.0, 1.0]
    with pytest.raises(TypeError, match=r"element \[0\]"):
        TypeSchema("list", (TypeSchema("int"),)).check_value(["x"])
    with pytest.raises(ValueError, match="0 or 2"):
        TypeSchema("dict", (TypeSchema("int"),))
    with pytest.raises(TypeError, match="list takes at most 1 type argument, got 2"):
        TypeSchema.from_annotation(list[int, str])  # type: ignore[misc]


def test_view_type_indices_read_as_their_values() -> None:
    names = {7: "Tensor", 8: "str", 9: "bytes", 10: "Object", 11: "str", 12: "bytes", -1: "Any"}
    assert {i: TypeSchema.from_type_index(i).origin for i in names} == names


def test_input_repr_widens_by_the_convert_schema() -> None:
    schema = TypeSchema("Dict", (TypeSchema("str"), TypeSchema("List", (TypeSchema("int"),))))
    assert schema.input_repr() == schema.output_repr() == schema.repr() == "Dict[str, List[int]]"
    assert TypeSchema.from_annotation(tvm_ffi.core.DataType) == TypeSchema("dtype")


def test_from_annotation() -> None:
    import ctypes
    from typing import Any, Callable, Optional, Union

    import tvm_ffi
    import tvm_ffi.testing as t

    cases = [
        (int, "int"), (float, "float"), (bool, "bool"), (str, "str"), (bytes, "bytes"), (None, "None"),
        (Any, "Any"), (Optional[int], "int | None"), (Union[int, str], "int | str"),
        *([(eval("int | None"), "int | None")] if sys.version_info >= (3, 10) else []),  # PEP 604
        (Union[int, str, None], "int | str | None"), (list, "List[Any]"), (list[int], "List[int]"),
        (dict, "Dict[Any, Any]"), (dict[str, int], "Dict[str, int]"), (tuple, "tuple"),
        (tuple[int, str], "tuple[int, str]"), (tuple[int, ...], "Array[int]"),
        (tvm_ffi.Array[int], "Array[int]"), (tvm_ffi.Map[str, int], "Map[str, int]"), (tvm_ffi.Array, "Array[Any]"),
        (Callable, "Callable[..., Any]"), (Callable[[int, str], float], "Callable[[int, str], float]"),
        (Callable[..., int], "Callable[..., int]"), (tvm_ffi.Function, "Callable[..., Any]"),
        (tvm_ffi.Object, "Object"), (t.TestIntPair, "testing.TestIntPair"), (tvm_ffi.Tensor, "Tensor"),
        (tvm_ffi.Device, "Device"), (tvm_ffi.dtype, "dtype"), (ctypes.c_void_p, "ctypes.c_void_p"),
    ]
    for annotation, text in cases:
        assert str(TypeSchema.from_annotation(annotation)) == text, annotation
    for bad in (set, complex, object, "int"):
        with pytest.raises(TypeError, match="to TypeSchema"):
            TypeSchema.from_annotation(bad)
    with pytest.raises(TypeError, match="Array requires 1 type argument, got 2"):
        TypeSchema.from_annotation(types.GenericAlias(tvm_ffi.Array, (int, int)))
    with pytest.raises(TypeError, match="dict requires 0 or 2 type arguments, got 1"):
        TypeSchema.from_annotation(dict[str])


def test_convert_keeps_ffi_containers_whose_elements_already_match() -> None:
    arr = tvm_ffi.Array([1, 2, 3])
    assert core._to_py_class_value(TypeSchema.from_annotation(tuple[int, ...]).convert(arr)).same_as(arr)
    lst = tvm_ffi.List([1, 2])
    assert core._to_py_class_value(TypeSchema.from_annotation(list[int]).convert(lst)).same_as(lst)
    d = tvm_ffi.Dict({"a": 1})
    assert core._to_py_class_value(TypeSchema.from_annotation(dict[str, int]).convert(d)).same_as(d)
    # An element that converts (int -> float) makes a new container.
    floats = core._to_py_class_value(TypeSchema.from_annotation(list[float]).convert(lst))
    assert not floats.same_as(lst) and list(floats) == [1.0, 2.0]


def test_protocol_failures_are_type_errors_naming_the_protocol() -> None:
    class BrokenObject:
        def __tvm_ffi_object__(self) -> Any:
            raise RuntimeError("broken")

    class BrokenConvertible(tvm_ffi.ObjectConvertible):
        def asobject(self) -> Any:
            raise RuntimeError("broken asobject")

    class BrokenValue:
        def __tvm_ffi_value__(self) -> Any:
            raise RuntimeError("broken")

    class SelfValue:
        def __tvm_ffi_value__(self) -> Any:
            return self

    with pytest.raises(TypeError, match=r"__tvm_ffi_object__\(\) failed: RuntimeError: broken"):
        TypeSchema("Any").check_value(BrokenObject())
    with pytest.raises(TypeError, match=r"asobject\(\) failed: RuntimeError: broken asobject"):
        TypeSchema("Object").check_value(BrokenConvertible())
    with pytest.raises(TypeError, match="expected int, got .*BrokenValue"):  # judged as itself
        TypeSchema("int").check_value(BrokenValue())
    with pytest.raises(TypeError, match="expected int, got .*SelfValue"):
        TypeSchema("int").check_value(SelfValue())
    with pytest.raises(TypeError, match="failed to convert Any from .*SelfValue"):
        TypeSchema("Any").convert(SelfValue())


def test_registered_integrals_convert_through_int() -> None:
    import numbers

    class Broken:
        def __int__(self) -> int:
            raise OverflowError("too big")

    class Seven:
        def __int__(self) -> int:
            return 7

    numbers.Integral.register(Broken)
    numbers.Integral.register(Seven)
    assert core._to_py_class_value(TypeSchema("int").convert(Seven())) == 7
    with pytest.raises(TypeError, match="OverflowError: too big"):
        TypeSchema("int").convert(Broken())


def test_payload_enums_convert_from_their_payload() -> None:
    level = tvm_ffi.testing._TestCxxIntEnum
    schema = TypeSchema.from_annotation(level)
    assert core._to_py_class_value(schema.convert(level.high.value)).same_as(level.high)
    assert core._to_py_class_value(schema.convert(level.low)).same_as(level.low)
    with pytest.raises(TypeError, match="expected"):
        schema.check_value(123456)


def test_core_object_types_convert_through_their_convert_attribute() -> None:
    for key in ("ffi.Object", "ffi.String", "ffi.Bytes", "ffi.Error", "ffi.Function", "ffi.Shape",
                "ffi.Tensor", "ffi.Array", "ffi.List", "ffi.Map", "ffi.Dict"):
        assert core._lookup_type_attr(core._object_type_key_to_index(key), "__ffi_convert__") is not None, key
    shape = TypeSchema("ffi.Shape")
    for value in ([1, 2, 3], tvm_ffi.Array([1, 2, 3]), tvm_ffi.List([1, 2, 3])):
        converted = core._to_py_class_value(shape.convert(value))
        assert isinstance(converted, tvm_ffi.Shape) and tuple(converted) == (1, 2, 3)
    with pytest.raises(TypeError, match="Cannot cast from `ffi.Array` to `ffi.Shape`"):
        shape.convert(["a"])
    convert_shape = core._lookup_type_attr(core._object_type_key_to_index("ffi.Shape"), "__ffi_convert__")
    with pytest.raises(TypeError, match="Cannot cast from `ffi.Map` to `ffi.Shape`"):
        convert_shape(tvm_ffi.Map({"a": 1}))
    TypeSchema.from_annotation(core.Error).check_value(ValueError("an exception is an ffi.Error"))


def test_core_convert_attributes_bridge_the_two_container_forms_and_name_cpp_types() -> None:
    def convert(key: str, value: object) -> object:
        attr = core._lookup_type_attr(core._object_type_key_to_index(key), "__ffi_convert__")
        return attr(value)

    as_list = convert("ffi.List", tvm_ffi.Array([1, 2]))
    assert isinstance(as_list, tvm_ffi.List) and list(as_list) == [1, 2]
    as_array = convert("ffi.Array", tvm_ffi.List([3]))
    assert isinstance(as_array, tvm_ffi.Array) and list(as_array) == [3]
    as_dict = convert("ffi.Dict", tvm_ffi.Map({"a": 1, "b": 2}))
    assert isinstance(as_dict, tvm_ffi.Dict) and list(as_dict.items()) == [("a", 1), ("b", 2)]
    assert dict(convert("ffi.Map", tvm_ffi.Dict({"a": 1})).items()) == {"a": 1}  # type: ignore[attr-defined]
    for nullable in ("ffi.Object", "ffi.Function", "ffi.Tensor"):
        assert convert(nullable, None) is None
    for key, name in (("ffi.Array", "Array<Any>"), ("ffi.Map", "Map<Any, Any>"), ("ffi.String", "str"),
                      ("ffi.Bytes", "bytes"), ("ffi.Shape", "ffi.Shape")):
        with pytest.raises(TypeError, match=f"^Cannot cast from `int` to `{re.escape(name)}`$"):
            convert(key, 1)


def test_schemas_spelled_by_type_key_show_why_the_conversion_failed() -> None:
    with pytest.raises(TypeError, match=r"got RuntimeError\n  __ffi_convert__ failed:\n    "
                                        r"Cannot cast from `ffi\.Error` to `Array<Any>`$"):
        TypeSchema("ffi.Array").check_value(RuntimeError("x"))
    TypeSchema("ffi.List").check_value(tvm_ffi.Array([1]))  # converts
    with pytest.raises(TypeError, match="^type check failed for ffi.Function: expected ffi.Function, got None$"):
        TypeSchema("ffi.Function").check_value(None)  # not Optional, though the C++ type is nullable
    with pytest.raises(TypeError, match="^type check failed for ffi.Module: expected ffi.Module, got int$"):
        TypeSchema("ffi.Module").check_value(1)  # no __ffi_convert__: no second chance to explain


def test_unregistered_object_subclasses_have_no_schema() -> None:
    class Unregistered(tvm_ffi.testing.TestIntPair):
        pass

    with pytest.raises(TypeError, match="is not registered in TYPE_CLS_TO_INFO; use @register_object"):
        TypeSchema.from_annotation(Unregistered)


def test_container_annotations_are_built_as_written_and_checked_by_type_schema() -> None:
    alias = tvm_ffi.Array[int, str]  # type: ignore[type-arg]
    assert isinstance(alias, types.GenericAlias)
    with pytest.raises(TypeError, match="Array requires 1 type argument, got 2"):
        TypeSchema.from_annotation(alias)
    with pytest.raises(TypeError, match="Dict requires 2 type arguments, got 1"):
        TypeSchema.from_annotation(tvm_ffi.Dict[int])  # type: ignore[type-arg]
    assert str(TypeSchema.from_annotation(tvm_ffi.Map[str, int])) == "Map[str, int]"
