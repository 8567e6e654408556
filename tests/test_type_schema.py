"""``tvm_ffi.core.TypeSchema``: parsing the type-schema JSON of reflected fields, methods and
functions, and printing it as a Python-style annotation."""

from __future__ import annotations

import json
import types

import pytest
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
    with pytest.raises(TypeError, match="type schema must be an object with a string `type`"):
        TypeSchema.from_json_obj({"args": []})


def test_from_annotation() -> None:
    import ctypes
    from typing import Any, Callable, Optional, Union

    import tvm_ffi
    import tvm_ffi.testing as t

    cases = [
        (int, "int"), (float, "float"), (bool, "bool"), (str, "str"), (bytes, "bytes"), (None, "None"),
        (Any, "Any"), (Optional[int], "int | None"), (int | None, "int | None"), (Union[int, str], "int | str"),
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
    with pytest.raises(TypeError, match="Too many arguments"):  # Array is Generic[T]: checked on subscripting
        tvm_ffi.Array[int, int]  # type: ignore[misc]
    with pytest.raises(TypeError, match="Array requires 1 type argument, got 2"):
        TypeSchema.from_annotation(types.GenericAlias(tvm_ffi.Array, (int, int)))
    with pytest.raises(TypeError, match="dict requires 0 or 2 type arguments, got 1"):
        TypeSchema.from_annotation(dict[str])
