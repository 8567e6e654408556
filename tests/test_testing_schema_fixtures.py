"""The ``testing.schema_*`` fixtures: typed functions whose ``type_schema`` metadata covers every
kind of parameter, and which convert their argument as a typed C++ function would."""

from __future__ import annotations

import numpy as np
import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import core
from tvm_ffi.testing import _SchemaAllTypes

# The class's type info (its field and method records, functions among them) is built once and
# kept for the process: built here, it predates the leak check of the tests that read it.
_SchemaAllTypes.__tvm_ffi_type_info__.methods  # noqa: B018

SCHEMA_TEXT = {
    "schema_id_int": "Callable[[int], int]",
    "schema_id_float": "Callable[[float], float]",
    "schema_id_bool": "Callable[[bool], bool]",
    "schema_id_device": "Callable[[Device], Device]",
    "schema_id_dtype": "Callable[[dtype], dtype]",
    "schema_id_string": "Callable[[str], str]",
    "schema_id_bytes": "Callable[[bytes], bytes]",
    "schema_id_func": "Callable[[Callable[..., Any]], Callable[..., Any]]",
    "schema_id_func_typed": "Callable[[Callable[[int, float, Callable[..., Any]], None]], "
                            "Callable[[int, float, Callable[..., Any]], None]]",
    "schema_id_any": "Callable[[Any], Any]",
    "schema_id_object": "Callable[[Object], Object]",
    "schema_id_dltensor": "Callable[[Tensor], Tensor]",
    "schema_id_tensor": "Callable[[Tensor], Tensor]",
    "schema_tensor_view_input": "Callable[[Tensor], None]",
    "schema_id_opt_int": "Callable[[int | None], int | None]",
    "schema_id_opt_str": "Callable[[str | None], str | None]",
    "schema_id_opt_obj": "Callable[[Object | None], Object | None]",
    "schema_id_arr_int": "Callable[[Array[int]], Array[int]]",
    "schema_id_arr_str": "Callable[[Array[str]], Array[str]]",
    "schema_id_arr_obj": "Callable[[Array[Object]], Array[Object]]",
    "schema_id_arr": "Callable[[Array[Any]], Array[Any]]",
    "schema_id_list_int": "Callable[[List[int]], List[int]]",
    "schema_id_list_str": "Callable[[List[str]], List[str]]",
    "schema_id_list_obj": "Callable[[List[Object]], List[Object]]",
    "schema_id_map_str_int": "Callable[[Map[str, int]], Map[str, int]]",
    "schema_id_map_str_str": "Callable[[Map[str, str]], Map[str, str]]",
    "schema_id_map_str_obj": "Callable[[Map[str, Object]], Map[str, Object]]",
    "schema_id_map": "Callable[[Map[Any, Any]], Map[Any, Any]]",
    "schema_id_dict_str_int": "Callable[[Dict[str, int]], Dict[str, int]]",
    "schema_id_dict_str_str": "Callable[[Dict[str, str]], Dict[str, str]]",
    "schema_id_variant_int_str": "Callable[[int | str], int | str]",
    "schema_packed": "Callable[..., Any]",
    "schema_arr_map_opt": "Callable[[Array[int | None], Map[str, Array[int]], str | None], Map[str, Array[int]]]",
    "schema_variant_mix": "Callable[[int | str | Array[int]], int | str | Array[int]]",
    "schema_no_args": "Callable[[], int]",
    "schema_no_return": "Callable[[int], None]",
    "schema_no_args_no_return": "Callable[[], None]",
}


def f(name: str) -> tvm_ffi.Function:
    return tvm_ffi.get_global_func(f"testing.{name}")


def test_every_schema_fixture_is_registered() -> None:
    names = {n[len("testing."):] for n in tvm_ffi.registry.list_global_func_names() if n.startswith("testing.schema")}
    assert names == set(SCHEMA_TEXT)


@pytest.mark.parametrize("name", sorted(SCHEMA_TEXT))
def test_schema_renders_as_the_reference(name: str) -> None:
    metadata = tvm_ffi.get_global_func_metadata(f"testing.{name}")
    schema = core.TypeSchema.from_json_str(metadata["type_schema"])
    assert str(schema) == SCHEMA_TEXT[name]
    assert len(metadata) == (4 if name == "schema_id_int" else 1)


def test_schema_id_int_extra_metadata() -> None:
    metadata = tvm_ffi.get_global_func_metadata("testing.schema_id_int")
    assert (metadata["bool_attr"], metadata["int_attr"], metadata["str_attr"]) == (True, 1, "hello")


def test_scalars_convert_like_typed_functions() -> None:
    assert f("schema_id_int")(True) == 1 and f("schema_id_float")(1) == 1.0 and f("schema_id_bool")(1) is True
    assert f("schema_id_device")("cuda:1") == tvm_ffi.device("cuda", 1)
    assert f("schema_id_device")("cpu") == tvm_ffi.device("cpu", 0)
    assert str(f("schema_id_dtype")("float32")) == "float32"
    assert f("schema_id_bytes")(bytearray(b"ab")) == b"ab"
    assert f("schema_id_opt_int")(None) is None and f("schema_id_opt_str")("a") == "a"
    assert f("schema_id_object")(None) is None
    assert f("schema_no_args")() == 1 and f("schema_no_return")(1) is None and f("schema_packed")(1, "x") is None


def test_containers_convert_between_kinds_and_check_elements() -> None:
    assert type(f("schema_id_arr_int")(tvm_ffi.List([1, 2]))) is tvm_ffi.Array
    assert type(f("schema_id_list_int")(tvm_ffi.Array([1]))) is tvm_ffi.List
    assert type(f("schema_id_dict_str_int")(tvm_ffi.Map({"a": 1}))) is tvm_ffi.Dict
    assert dict(f("schema_id_map_str_int")({"a": 1})) == {"a": 1}
    with pytest.raises(TypeError, match=r"Expected `Array<int>` but got `Array\[index 1: ffi.SmallStr\]`"):
        f("schema_id_arr_int")([1, "x"])
    with pytest.raises(TypeError, match=r"but got `Map\[K, some value is ffi.SmallStr\]`"):
        f("schema_id_map_str_int")({"a": "b"})
    result = f("schema_arr_map_opt")([1, None, 3], {"k": [9]}, "new")
    assert {k: list(v) for k, v in result.items()} == {"k": [9], "new": [1, 3]}
    assert list(f("schema_arr_map_opt")([1], {"k": [9]}, None)) == ["k"]


def test_bools_convert_to_ints_inside_containers_and_variants() -> None:
    given = tvm_ffi.Array([1, True])
    converted = f("schema_id_arr_int")(given)
    assert list(converted) == [1, 1] and type(converted[1]) is int and not converted.same_as(given)
    assert list(f("schema_id_list_int")([True])) == [1] and dict(f("schema_id_map_str_int")({"a": False})) == {"a": 0}
    result = f("schema_arr_map_opt")([True, None], {"k": [True]}, "new")
    assert {k: list(v) for k, v in result.items()} == {"k": [1], "new": [1]}
    assert f("schema_id_variant_int_str")(True) == 1 and type(f("schema_variant_mix")(False)) is int
    assert list(f("schema_variant_mix")(tvm_ffi.List([1, 2]))) == [1, 2]
    with pytest.raises(TypeError, match=r"but got `ffi.Array`$"):
        f("schema_variant_mix")([1, "a"])
    with pytest.raises(TypeError, match=r"some value is Array\[index 0: float\]"):
        f("schema_arr_map_opt")([1], {"k": [1.5]}, "z")


def test_nullable_references_dtype_text_and_object_pointers() -> None:
    for name in ("schema_id_func", "schema_id_func_typed", "schema_id_tensor"):
        assert f(name)(None) is None
    assert str(f("schema_id_dtype")(b"int8")) == "int8"
    with pytest.raises(ValueError, match="unknown dtype `s`"):
        f("schema_id_dtype")("s")
    typed = "(0: int, 1: float, 2: ffi.Function) -> void"
    with pytest.raises(TypeError) as err:
        f("schema_id_func_typed")(1)
    assert f"`testing.schema_id_func_typed(0: {typed}) -> {typed}`. Expected `{typed}` but got `int`" in str(err.value)
    with pytest.raises(TypeError, match="Expected `ffi.Array` but got `ffi.List`"):
        f("schema_id_arr")(tvm_ffi.List([1]))
    with pytest.raises(TypeError, match="Expected `ffi.Map` but got `ffi.Dict`"):
        f("schema_id_map")(tvm_ffi.Dict({"a": 1}))


def test_tensors_and_mismatches() -> None:
    x = np.zeros(2)
    assert isinstance(f("schema_id_tensor")(x), tvm_ffi.Tensor) and f("schema_tensor_view_input")(x) is None
    with pytest.raises(RuntimeError, match="DLTensor\\* cannot be held in Any"):
        f("schema_id_dltensor")(x)
    with pytest.raises(TypeError, match=r"`testing.schema_id_int\(0: int\) -> int`. Expected `int` but got `float`"):
        f("schema_id_int")(1.5)
    with pytest.raises(TypeError, match="Expected `bytes` but got `ffi.SmallStr`"):
        f("schema_id_bytes")("s")
    with pytest.raises(TypeError, match="Expected `Variant<int, str>` but got `None`"):
        f("schema_id_variant_int_str")(None)
    with pytest.raises(TypeError, match="Expected 1 but got 2 arguments"):
        f("schema_id_int")(1, 2)


# ---- testing.SchemaAllTypes: one field of every storage kind ----

FIELD_SCHEMAS = [
    ("v_bool", 24, 1, "bool"), ("v_int", 32, 8, "int"), ("v_float", 40, 8, "float"),
    ("v_device", 48, 8, "Device"), ("v_dtype", 56, 4, "dtype"), ("v_string", 64, 16, "str"),
    ("v_bytes", 80, 16, "bytes"), ("v_opt_int", 96, 16, "int | None"), ("v_opt_str", 112, 16, "str | None"),
    ("v_arr_int", 128, 8, "Array[int]"), ("v_arr_str", 136, 8, "Array[str]"),
    ("v_map_str_int", 144, 8, "Map[str, int]"), ("v_map_str_arr_int", 152, 8, "Map[str, Array[int]]"),
    ("v_variant", 160, 16, "str | Array[int] | Map[str, int]"),
    ("v_opt_arr_variant", 176, 8, "Array[int | str] | None"),
]


def test_schema_all_types_fields_and_methods() -> None:
    info = _SchemaAllTypes.__tvm_ffi_type_info__
    assert info.type_cls is _SchemaAllTypes and info.parent_type_info.type_cls is tvm_ffi.Object
    assert [(f.name, f.offset, f.size, str(f.ty)) for f in info.fields] == FIELD_SCHEMAS
    assert info.total_size == 184 and info.fields[0].doc == "bool field"
    assert len(info.fields[0].metadata) == 4 and info.fields[0].metadata["bool_attr"] is True
    methods = {m.name: m for m in info.methods}
    assert methods["make_with"].is_static and methods["add_int"].metadata["str_attr"] == "hello"
    assert str(core.TypeSchema.from_json_str(methods["make_with"].metadata["type_schema"])) == (
        "Callable[[int, float, str], testing.SchemaAllTypes]")


def test_a_static_method_is_the_runtime_function_named_after_its_class() -> None:
    make_with = _SchemaAllTypes.make_with
    assert isinstance(make_with, tvm_ffi.Function)  # as in the reference: no Python wrapper
    methods = {m.name: m for m in _SchemaAllTypes.__tvm_ffi_type_info__.methods}
    assert make_with is methods["make_with"].func
    assert (make_with.__name__, make_with.__qualname__) == ("make_with", "_SchemaAllTypes.make_with")
    assert make_with.__module__ == _SchemaAllTypes.__module__
    assert make_with.__doc__ == "Constructor with subset of fields"
    assert make_with(1, 2.0, "s").v_int == 1


def test_method_errors_show_the_signature_and_the_last_bad_argument() -> None:
    # As from the reference's typed C++ methods (GCC converts arguments right to left).
    obj = _SchemaAllTypes.make_with(1, 2.0, "s")
    with pytest.raises(TypeError) as err:
        _SchemaAllTypes.append_int(None, None, None)
    assert str(err.value) == (
        "Mismatched type on argument #2 when calling: `testing.SchemaAllTypes.append_int(0: "
        "testing.SchemaAllTypes, 1: Array<int>, 2: int) -> Array<int>`. Expected `int` but got `None`")
    with pytest.raises(TypeError, match=r"`testing.SchemaAllTypes.add_int\(0: testing.SchemaAllTypes, "
                                        r"1: int\) -> int`. Expected 2 but got 1 arguments"):
        obj.add_int()
    with pytest.raises(TypeError, match=r"argument #2 .*make_with\(0: int, 1: float, 2: str\) -> "
                                        r"testing.SchemaAllTypes`. Expected `str` but got `None`"):
        _SchemaAllTypes.make_with(None, None, None)
    with pytest.raises(TypeError, match=r"argument #2 when calling: `testing.TestCompare.__ffi_init__"):
        tvm_ffi.testing.TestCompare(None, None, None)


def test_schema_all_types_typed_fields_convert_and_refuse() -> None:
    obj = _SchemaAllTypes.make_with(3, 1.5, "abc")
    obj.v_opt_int, obj.v_opt_str, obj.v_variant = True, None, [True, 2]
    assert (obj.v_opt_int, obj.v_opt_str, list(obj.v_variant)) == (1, None, [1, 2])
    obj.v_arr_int = tvm_ffi.List([1, False])
    obj.v_map_str_arr_int = {"k": [True]}
    obj.v_opt_arr_variant = [1, "a", True]
    assert type(obj.v_arr_int) is tvm_ffi.Array and list(obj.v_arr_int) == [1, 0]
    assert {k: list(v) for k, v in obj.v_map_str_arr_int.items()} == {"k": [1]}
    assert list(obj.v_opt_arr_variant) == [1, "a", 1]
    same = tvm_ffi.Array([4, 5])
    obj.v_arr_int = same  # nothing to convert: kept as it is
    assert obj.v_arr_int.same_as(same)
    refusals = [
        ("v_opt_int", "zz", "`ffi.SmallStr` to `Optional<int>`"),
        ("v_opt_str", 1.5, "`float` to `Optional<str>`"),
        ("v_arr_int", [1, 1.5], "`Array[index 1: float]` to `Array<int>`"),
        ("v_arr_str", None, "`None` to `Array<str>`"),
        ("v_map_str_int", {"a": "b"}, "`Map[K, some value is ffi.SmallStr]` to `Map<str, int>`"),
        ("v_map_str_arr_int", {"a": [1.5]}, "`Map[K, some value is Array[index 0: float]]` to `Map<str, Array<int>>`"),
        ("v_variant", 1.5, "`float` to `Variant<str, Array<int>, Map<str, int>>`"),
        ("v_opt_arr_variant", [1.5], "`Array[index 0: float]` to `Optional<Array<Variant<int, str>>>`"),
    ]
    for name, value, text in refusals:
        with pytest.raises(TypeError) as err:
            setattr(obj, name, value)
        assert str(err.value) == f"Cannot convert from type {text}", name
    assert (obj.v_opt_int, list(obj.v_arr_int)) == (1, [4, 5])  # refused values leave the old ones


def test_schema_all_types_behaviour() -> None:
    obj = _SchemaAllTypes.make_with(3, 1.5, "abc")
    assert (obj.v_bool, obj.v_int, obj.v_float, obj.v_string, obj.v_variant) == (True, 3, 1.5, "abc", "v")
    assert (obj.v_device, str(obj.v_dtype), obj.v_bytes) == (tvm_ffi.device("cpu", 0), "float32", b"")
    assert (obj.v_opt_int, list(obj.v_arr_int), dict(obj.v_map_str_int), obj.v_opt_arr_variant) == (None, [], {}, None)
    assert obj.add_int(4) == 7 and list(obj.append_int([1, 2], 3)) == [1, 2, 3]
    assert (obj.maybe_concat("a", "b"), obj.maybe_concat(None, "b"), obj.maybe_concat(None, None)) == ("ab", "b", None)
    merged = obj.merge_map({"a": [1], "b": [2]}, {"b": [3], "c": [4]})
    assert {k: list(v) for k, v in merged.items()} == {"a": [1], "b": [2, 3], "c": [4]}
    obj.v_device = tvm_ffi.device("cuda", 1)
    obj.v_bytes = b"xyz"
    assert (obj.v_device, obj.v_bytes) == (tvm_ffi.device("cuda", 1), b"xyz")
    with pytest.raises(TypeError, match="Cannot convert from type `ffi.SmallStr` to `bytes`"):
        obj.v_bytes = "x"
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        _SchemaAllTypes()  # no creator: no __ffi_init__
