"""The native test fixtures of libtvm_ffi_testing.so, used through `tvm_ffi.testing`."""

from __future__ import annotations

import builtins
import gc
import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tvm_ffi
import tvm_ffi.testing as testing
from conftest import REPO_ROOT, Runtime, compile_c, installed_runtime_library

requires_tensor = pytest.mark.skipif(not hasattr(tvm_ffi, "from_dlpack"), reason="tensor support not built yet")

ADD_ONE_SIG = "testing.add_one(0: int) -> int"


def _schema(ret: dict[str, Any], *params: dict[str, Any]) -> dict[str, Any]:
    """A typed function's type_schema in the wheel's `named_args` shape."""
    return {"type": "ffi.Function", "named_args": {"return": [ret], "params": list(params)}}


INT = {"type": "int"}
TENSOR = {"type": "ffi.Tensor"}
ANY = {"type": "Any"}
ARRAY_ANY = {"type": "ffi.Array", "args": [ANY]}
LIST_ANY = {"type": "ffi.List", "args": [ANY]}
MAP_STR_ANY = {"type": "ffi.Map", "args": [{"type": "ffi.String"}, ANY]}
DICT_STR_ANY = {"type": "ffi.Dict", "args": [{"type": "ffi.String"}, ANY]}
PACKED = {"type": "ffi.Function"}

FIXTURE_SCHEMAS = {
    "echo": PACKED,
    "nop": PACKED,
    "apply": PACKED,
    "test_raise_error": _schema({"type": "None"}, {"type": "ffi.String"}, {"type": "ffi.String"}),
    "add_one": _schema(INT, INT),
    "object_use_count": _schema(INT, {"type": "ffi.Object"}),
    "run_check_signal": _schema({"type": "None"}, INT),
    "get_add_one_c_symbol": _schema(INT),
    "get_mlir_add_one_c_symbol": _schema(INT),
    "optional_tensor_view_has_value": _schema({"type": "bool"}, {"type": "Optional", "args": [{"type": "DLTensor*"}]}),
    "make_array_with_tensor": _schema(ARRAY_ANY, TENSOR),
    "make_array_with_mixed": _schema(ARRAY_ANY, TENSOR, INT),
    "make_nested_array_with_tensor": _schema(ARRAY_ANY, TENSOR),
    "make_empty_array_with_tensor_input": _schema(ARRAY_ANY, TENSOR),
    "make_list_with_tensor": _schema(LIST_ANY, TENSOR, INT),
    "make_map_with_tensor": _schema(MAP_STR_ANY, TENSOR),
    "make_dict_with_tensor": _schema(DICT_STR_ANY, TENSOR),
    "make_nested_map_with_tensor": _schema(MAP_STR_ANY, TENSOR, TENSOR),
}


@pytest.fixture
def no_leaked_objects() -> Iterator[None]:
    """Fails the test if runtime objects made during it outlive it."""
    live_count = tvm_ffi.get_global_func("ffi.LiveObjectCount")
    gc.collect()
    before = live_count()
    yield
    gc.collect()
    assert live_count() == before


# ---- loading ----


def test_import_tvm_ffi_alone_registers_the_fixtures() -> None:
    # As with the reference: other projects' tests call testing.* without importing tvm_ffi.testing.
    code = (
        "import tvm_ffi, sys\n"
        "assert 'libtvm_ffi_testing.so' in open('/proc/self/maps').read()\n"
        "assert 'tvm_ffi.testing' not in sys.modules\n"
        "assert tvm_ffi.get_global_func('testing.echo')(3) == 3\n"
        "assert tvm_ffi.get_global_func('testing.add_one')(1) == 2\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("name", sorted(FIXTURE_SCHEMAS))
def test_every_fixture_is_a_module_attribute(name: str) -> None:
    assert name in testing._ffi_api.__all__
    assert isinstance(getattr(testing._ffi_api, name), tvm_ffi.Function)
    assert callable(getattr(testing, name))


@pytest.mark.parametrize("name", sorted(FIXTURE_SCHEMAS))
def test_fixture_metadata_carries_type_schema(name: str) -> None:
    metadata = tvm_ffi.get_global_func_metadata(f"testing.{name}")
    assert list(metadata) == ["type_schema"]
    assert json.loads(metadata["type_schema"]) == FIXTURE_SCHEMAS[name]


def test_type_schema_json_is_compact() -> None:
    metadata = tvm_ffi.get_global_func_metadata("testing.add_one")
    assert metadata["type_schema"] == (
        '{"type":"ffi.Function","named_args":{"return":[{"type":"int"}],"params":[{"type":"int"}]}}'
    )


def test_library_exports_typed_kernels_with_metadata_and_doc() -> None:
    from tvm_ffi._testing_lib import find_libtvm_ffi_testing

    lib = tvm_ffi.load_module(find_libtvm_ffi_testing())
    assert lib["testing_dll_schema_id_int"](7) == 7
    assert lib["testing_dll_test_add_with_docstring"](40, 2) == 42
    assert lib.get_function_metadata("testing_dll_schema_id_int") == {
        "type_schema": json.dumps(_schema({"type": "int"}, {"type": "int"}), separators=(",", ":"))
    }
    doc = lib.get_function_doc("testing_dll_test_add_with_docstring")
    assert doc is not None and doc.startswith("Add two integers and return the sum.\n\nParameters\n")
    assert lib.get_function_doc("testing_dll_schema_id_int") is None
    with pytest.raises(TypeError, match=r"argument #1 when calling: `testing_dll_test_add_with_docstring"
                       r"\(0: int, 1: int\) -> int`. Expected `int` but got `ffi.SmallStr`"):
        lib["testing_dll_test_add_with_docstring"](1, "a")


# ---- echo / nop / apply ----


@pytest.mark.parametrize("value", [None, True, False, 0, -7, 2**62, 1.5, "hello", b"abc", "x" * 500, b"y" * 500])
def test_echo_round_trips_values(value: object) -> None:
    result = testing.echo(value)
    assert result == value
    if isinstance(value, (str, bytes)):
        assert isinstance(result, type(value))  # long ones come back as String / Bytes subclasses
    else:
        assert type(result) is type(value)


def test_echo_returns_the_same_object() -> None:
    nop = tvm_ffi.get_global_func("testing.nop")
    assert testing.echo(nop).same_as(nop)
    marker = object()
    assert testing.echo(marker) is marker


def test_echo_ignores_extra_arguments_and_needs_one() -> None:
    assert testing.echo(1, 2, 3) == 1
    with pytest.raises(TypeError):
        testing.echo()


def test_nop_accepts_anything_and_returns_none() -> None:
    assert testing.nop() is None
    assert testing.nop(1, "two", None, [3]) is None


def test_apply_calls_its_first_argument_with_the_rest() -> None:
    assert testing.apply(tvm_ffi.get_global_func("testing.add_one"), 1) == 2
    assert testing.apply(lambda x, y: x + y, 1, 2) == 3
    assert testing.apply(lambda: None) is None


@pytest.mark.parametrize("bad, key", [(1, "int"), (None, "None")])
def test_apply_rejects_a_non_function(bad: object, key: str) -> None:
    with pytest.raises(TypeError, match=f"Cannot convert from type `{key}` to `ffi.Function`"):
        testing.apply(bad)
    with pytest.raises(TypeError):
        testing.apply()


# ---- errors ----


@pytest.mark.parametrize(
    "kind",
    ["ValueError", "TypeError", "RuntimeError", "KeyError", "IndexError", "AttributeError", "AssertionError",
     "MemoryError"],
)
def test_raise_error_maps_kind_to_builtin_exception(kind: str) -> None:
    with pytest.raises(getattr(builtins, kind)) as info:
        testing.test_raise_error(kind, "error XYZ")
    assert type(info.value) is getattr(builtins, kind)
    err = info.value.__tvm_ffi_error__
    assert err.kind == kind
    assert err.message == "error XYZ"
    assert "TestRaiseError" in err.backtrace


def test_a_repeated_raise_carries_the_same_backtrace() -> None:
    # The first raise on a thread learns where the interpreter starts; later ones stop there.
    texts = set()
    for _ in range(5):
        with pytest.raises(ValueError) as info:
            testing.test_raise_error("ValueError", "again")
        texts.add(info.value.__tvm_ffi_error__.backtrace)
    (text,) = texts
    assert "TestRaiseError" in text and "_PyEval" not in text


def test_raise_error_key_error_text_is_quoted() -> None:
    with pytest.raises(KeyError) as info:
        testing.test_raise_error("KeyError", "error XYZ")
    assert str(info.value) == "'error XYZ'"


@pytest.mark.parametrize("kind", ["InternalError", "SomethingUnheardOf"])
def test_raise_error_unknown_kind_is_a_runtime_error(kind: str) -> None:
    with pytest.raises(RuntimeError, match="error XYZ") as info:
        testing.test_raise_error(kind, "error XYZ")
    assert info.value.__tvm_ffi_error__.kind == kind


def test_raise_error_through_python_lambda() -> None:
    def wrapper() -> None:
        (lambda: testing.test_raise_error("TypeError", "error XYZ"))()

    with pytest.raises(TypeError, match="error XYZ"):
        wrapper()


def test_raise_error_checks_argument_types() -> None:
    with pytest.raises(TypeError) as info:
        testing.test_raise_error("ValueError", 1)
    assert str(info.value) == (
        "Mismatched type on argument #1 when calling: `testing.test_raise_error(0: str, 1: str) -> void`. "
        "Expected `str` but got `int`"
    )
    with pytest.raises(TypeError, match="Expected 2 but got 1 arguments"):
        testing.test_raise_error("ValueError")


def test_error_raised_in_callback_keeps_its_frames_in_order() -> None:
    seen: list[Any] = []

    def py_fn() -> None:
        try:
            (lambda: testing.test_raise_error("ValueError", "error XYZ"))()
        except ValueError as err:
            seen.append(err.__tvm_ffi_error__)
            raise

    with pytest.raises(ValueError, match="error XYZ") as info:
        testing.apply(py_fn)
    err = info.value.__tvm_ffi_error__
    assert err.same_as(seen[0])
    backtrace = err.backtrace
    # The raw backtrace lists the innermost frame first.
    assert backtrace.count("TestRaiseError") == 1
    assert backtrace.count("TestApply") == 1
    assert backtrace.count("<lambda>") == 1
    assert backtrace.index("TestRaiseError") < backtrace.index("<lambda>") < backtrace.index("TestApply")


# ---- add_one ----


@pytest.mark.parametrize(
    "x, expected", [(41, 42), (-1, 0), (True, 2), (2**31 - 1, -(2**31)), (2**31, -2147483647)]
)
def test_add_one_uses_c_int_arithmetic(x: int, expected: int) -> None:
    assert testing.add_one(x) == expected
    assert testing._ffi_api.add_one(x) == expected


@pytest.mark.parametrize("bad, key", [(1.5, "float"), ("s", "ffi.SmallStr"), (None, "None"),
                                      (object(), "ffi.OpaquePyObject")])
def test_add_one_reports_mismatched_type(bad: object, key: str) -> None:
    with pytest.raises(TypeError) as info:
        testing.add_one(bad)  # type: ignore[arg-type]
    assert (
        f"Mismatched type on argument #0 when calling: `{ADD_ONE_SIG}`. Expected `int` but got `{key}`"
        in str(info.value)
    )


def test_add_one_reports_argument_count() -> None:
    add_one = tvm_ffi.get_global_func("testing.add_one")
    with pytest.raises(TypeError) as info:
        add_one(1, 2)
    assert str(info.value) == (
        f"Mismatched number of arguments when calling: `{ADD_ONE_SIG}`. Expected 1 but got 2 arguments"
    )


# ---- object_use_count ----


def test_object_use_count_counts_strong_references() -> None:
    arr = tvm_ffi.convert([1, 2])
    assert testing.object_use_count(arr) == 1
    again = testing.echo(arr)
    assert testing.object_use_count(arr) == 2
    del again
    gc.collect()
    assert testing.object_use_count(arr) == 1
    assert testing.object_use_count("x" * 100) == 1  # a long str stands for a fresh heap String


@pytest.mark.parametrize("bad, key", [(1, "int"), ("ab", "ffi.SmallStr"), (None, "None")])
def test_object_use_count_needs_an_object(bad: object, key: str) -> None:
    with pytest.raises(TypeError, match=f"Expected `ffi.Object` but got `{key}`"):
        testing.object_use_count(bad)


# ---- run_check_signal ----


def test_run_check_signal_finishes_without_signal(capfd: pytest.CaptureFixture[str]) -> None:
    assert testing.run_check_signal(0) is None
    assert capfd.readouterr().out == "Function finished without catching signal\n"


class _Alarm(Exception):
    pass


def _raise_alarm(signum: int, frame: object) -> None:
    raise _Alarm


def test_run_check_signal_raises_the_pending_python_exception(capfd: pytest.CaptureFixture[str]) -> None:
    previous = signal.signal(signal.SIGALRM, _raise_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(_Alarm):
            testing.run_check_signal(10)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert "finished" not in capfd.readouterr().out


# ---- raw C entry points ----


def test_add_one_c_symbol_wraps_as_function() -> None:
    address = testing.get_add_one_c_symbol()
    assert isinstance(address, int) and address != 0
    add_one = tvm_ffi.Function.__from_extern_c__(address)
    assert add_one(1) == 2
    assert add_one(2) == 3
    with pytest.raises(TypeError, match="Cannot convert from type `None` to `int`"):
        add_one(None)


def test_mlir_add_one_symbol_wraps_as_function() -> None:
    add_one = tvm_ffi.Function.__from_mlir_packed_safe_call__(testing.get_mlir_add_one_c_symbol())
    assert add_one(1) == 2
    assert add_one(2) == 3
    with pytest.raises(TypeError, match="Cannot convert from type `None` to `int`"):
        add_one(None)


def test_c_symbol_constructors_take_the_reference_parameter_names() -> None:
    import inspect

    assert str(inspect.signature(tvm_ffi.Function.__from_extern_c__)) == "(c_symbol, *, keep_alive_object=None)"
    mlir = tvm_ffi.Function.__from_mlir_packed_safe_call__
    assert str(inspect.signature(mlir)) == "(mlir_packed_symbol, *, keep_alive_object=None)"
    assert mlir(mlir_packed_symbol=testing.get_mlir_add_one_c_symbol())(1) == 2


@pytest.mark.parametrize("wrap", ["__from_extern_c__", "__from_mlir_packed_safe_call__"])
def test_c_symbol_keep_alive_object_lives_as_long_as_the_function(wrap: str) -> None:
    getter = testing.get_add_one_c_symbol if wrap == "__from_extern_c__" else testing.get_mlir_add_one_c_symbol
    keep: list[int] = []
    base = sys.getrefcount(keep)
    func = getattr(tvm_ffi.Function, wrap)(getter(), keep_alive_object=keep)
    assert sys.getrefcount(keep) == base + 1
    assert func(41) == 42
    del func
    gc.collect()
    assert sys.getrefcount(keep) == base


def test_system_lib_exposes_add_one() -> None:
    assert tvm_ffi.system_lib("testing.")["add_one"](41) == 42
    assert tvm_ffi.system_lib()["testing.add_one"](1) == 2
    with pytest.raises(TypeError, match="Cannot convert from type `None` to `int`"):
        tvm_ffi.system_lib("testing.")["add_one"](None)


# ---- tensors and arrays ----


def test_optional_tensor_view_has_value_without_tensor() -> None:
    assert testing.optional_tensor_view_has_value(None) is False
    with pytest.raises(TypeError, match=r"Expected `Optional<DLTensor\*>` but got `int`"):
        testing.optional_tensor_view_has_value(1)


@requires_tensor
def test_optional_tensor_view_has_value_with_tensor() -> None:
    np = pytest.importorskip("numpy")
    assert testing.optional_tensor_view_has_value(np.zeros((2, 3), "float32")) is True
    assert testing.optional_tensor_view_has_value(tvm_ffi.from_dlpack(np.zeros(3, "float32"))) is True


def test_array_builders_accept_none_for_the_tensor() -> None:
    assert list(testing.make_array_with_tensor(None)) == [None]
    assert list(testing.make_array_with_mixed(None, 7)) == [None, 7, "hello"]
    nested = testing.make_nested_array_with_tensor(None)
    assert len(nested) == 2 and list(nested[0]) == [None, 42] and nested[1] is None
    assert len(testing.make_empty_array_with_tensor_input(None)) == 0


def test_array_builders_return_ffi_arrays() -> None:
    result = testing.make_array_with_mixed(None, 7)
    assert isinstance(result, tvm_ffi.Array)
    assert testing.echo(result).same_as(result)


@pytest.mark.parametrize(
    "name", ["make_array_with_tensor", "make_nested_array_with_tensor", "make_empty_array_with_tensor_input"]
)
def test_array_builders_reject_non_tensors(name: str) -> None:
    with pytest.raises(TypeError) as info:
        getattr(testing, name)(1)
    assert str(info.value) == (
        f"Mismatched type on argument #0 when calling: `testing.{name}(0: ffi.Tensor) -> Array<Any>`. "
        "Expected `ffi.Tensor` but got `int`"
    )


def test_make_array_with_mixed_checks_the_int() -> None:
    with pytest.raises(TypeError, match="argument #1 .* Expected `int` but got `float`"):
        testing.make_array_with_mixed(None, 1.5)


@requires_tensor
def test_array_builders_hold_the_tensor() -> None:
    np = pytest.importorskip("numpy")
    tensor = tvm_ffi.from_dlpack(np.arange(6, dtype="float32").reshape(2, 3))
    single = testing.make_array_with_tensor(tensor)
    assert len(single) == 1 and single[0].same_as(tensor)
    mixed = testing.make_array_with_mixed(tensor, 7)
    assert len(mixed) == 3 and mixed[0].same_as(tensor) and mixed[1] == 7 and mixed[2] == "hello"
    nested = testing.make_nested_array_with_tensor(tensor)
    assert len(nested) == 2 and len(nested[0]) == 2
    assert nested[0][0].same_as(tensor) and nested[0][1] == 42 and nested[1].same_as(tensor)
    assert len(testing.make_empty_array_with_tensor_input(tensor)) == 0
    assert testing.make_array_with_tensor(np.zeros(3, "float32"))[0].shape == (3,)


def test_list_map_dict_builders_accept_none_for_the_tensor() -> None:
    lst = testing.make_list_with_tensor(None, 7)
    assert isinstance(lst, tvm_ffi.List) and list(lst) == [None, 7]
    m = testing.make_map_with_tensor(None)
    assert isinstance(m, tvm_ffi.Map) and list(m.items()) == [("tensor", None), ("value", 42), ("name", "test")]
    d = testing.make_dict_with_tensor(None)
    assert isinstance(d, tvm_ffi.Dict) and list(d.items()) == [("tensor", None), ("value", 42)]
    nested = testing.make_nested_map_with_tensor(None, None)
    assert list(nested) == ["array", "map", "scalar"]
    assert isinstance(nested["array"], tvm_ffi.Array) and list(nested["array"]) == [None, None]
    assert isinstance(nested["map"], tvm_ffi.Map) and dict(nested["map"]) == {"t": None}
    assert nested["scalar"] == 99


def test_list_and_dict_builders_return_shared_mutable_containers() -> None:
    lst = testing.make_list_with_tensor(None, 1)
    echoed = testing.echo(lst)
    echoed.append("added")
    assert echoed.same_as(lst) and list(lst) == [None, 1, "added"]
    d = testing.make_dict_with_tensor(None)
    testing.echo(d)["extra"] = 5
    assert d["extra"] == 5 and len(d) == 3


@pytest.mark.parametrize(
    "name, signature, rest",
    [
        ("make_list_with_tensor", "(0: ffi.Tensor, 1: int) -> List<Any>", [1]),
        ("make_map_with_tensor", "(0: ffi.Tensor) -> Map<str, Any>", []),
        ("make_dict_with_tensor", "(0: ffi.Tensor) -> Dict<str, Any>", []),
        ("make_nested_map_with_tensor", "(0: ffi.Tensor, 1: ffi.Tensor) -> Map<str, Any>", [None]),
    ],
)
def test_container_builders_reject_non_tensors(name: str, signature: str, rest: list[object]) -> None:
    with pytest.raises(TypeError) as info:
        getattr(testing, name)(1.5, *rest)
    assert str(info.value) == (
        f"Mismatched type on argument #0 when calling: `testing.{name}{signature}`. "
        "Expected `ffi.Tensor` but got `float`"
    )


def test_container_builders_check_the_other_arguments() -> None:
    with pytest.raises(TypeError, match="argument #1 .* Expected `int` but got `float`"):
        testing.make_list_with_tensor(None, 2.5)
    with pytest.raises(TypeError, match="argument #1 .* Expected `ffi.Tensor` but got `int`"):
        testing.make_nested_map_with_tensor(None, 3)
    with pytest.raises(TypeError, match="Expected 1 but got 2 arguments"):
        testing.make_map_with_tensor(None, None)


@requires_tensor
def test_container_builders_hold_the_tensor() -> None:
    np = pytest.importorskip("numpy")
    data = np.arange(6, dtype="float32").reshape(2, 3)
    tensor = tvm_ffi.from_dlpack(data)
    other = tvm_ffi.from_dlpack(np.zeros(4, dtype="int32"))

    def is_input(value: object, source: Any) -> bool:
        return isinstance(value, tvm_ffi.Tensor) and value.data_ptr() == source.data_ptr()

    lst = testing.make_list_with_tensor(tensor, 7)
    assert len(lst) == 2 and is_input(lst[0], tensor) and lst[1] == 7
    m = testing.make_map_with_tensor(tensor)
    assert list(m) == ["tensor", "value", "name"]
    assert is_input(m["tensor"], tensor) and m["value"] == 42 and m["name"] == "test"
    d = testing.make_dict_with_tensor(tensor)
    assert list(d) == ["tensor", "value"] and is_input(d["tensor"], tensor) and d["value"] == 42
    nested = testing.make_nested_map_with_tensor(tensor, other)
    assert len(nested) == 3 and nested["scalar"] == 99
    assert len(nested["array"]) == 2 and is_input(nested["array"][0], tensor) and is_input(nested["array"][1], other)
    assert len(nested["map"]) == 1 and is_input(nested["map"]["t"], tensor)
    # NumPy arrays convert on the way in; the element reads back as a tvm_ffi.Tensor on the same memory.
    from_numpy = testing.make_map_with_tensor(data)["tensor"]
    assert isinstance(from_numpy, tvm_ffi.Tensor) and from_numpy.data_ptr() == data.ctypes.data
    assert from_numpy.shape == (2, 3)


# ---- leaks ----


def test_fixtures_release_everything_they_make(no_leaked_objects: None) -> None:
    for _ in range(10):
        testing.make_nested_array_with_tensor(None)
        testing.make_array_with_mixed(None, 3)
        testing.make_nested_map_with_tensor(None, None)
        testing.make_list_with_tensor(None, 3)
        testing.make_dict_with_tensor(None)
        testing.echo("z" * 100)
        with pytest.raises(ValueError):
            testing.test_raise_error("ValueError", "boom")
        with pytest.raises(ValueError):
            testing.apply(testing.test_raise_error, "ValueError", "boom")
        with pytest.raises(TypeError):
            testing.add_one("not an int")


# ---- the library from C, plain and under AddressSanitizer / UBSan ----

# A kernel-style C program: links the fixture library (through its link anchor) and calls the
# fixtures through the C ABI only, so leaks and memory errors in the library itself show up.
C_DRIVER = r"""
#include "check.h"

int TVMFFITestingDummyTarget(void);
int __tvm_ffi_testing_dll_schema_id_int(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
int __tvm_ffi__metadata_testing_dll_schema_id_int(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
int __tvm_ffi_testing_dll_test_add_with_docstring(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
int __tvm_ffi__metadata_testing_dll_test_add_with_docstring(void*, const TVMFFIAny*, int32_t,
                                                            TVMFFIAny*);
int __tvm_ffi__doc_testing_dll_test_add_with_docstring(void*, const TVMFFIAny*, int32_t,
                                                       TVMFFIAny*);

static void test_add_one(void) {
  TVMFFIAny r, a[2] = {any_int(2147483647), any_int(0)};
  CHECK(call_global("testing.add_one", a, 1, &r) == 0);
  CHECK_EQ_INT(r.v_int64, -2147483648LL);
  CHECK(call_global("testing.add_one", a, 2, &r) == -1);
  CHECK_RAISED("TypeError", "Expected 1 but got 2 arguments");
}

static void test_raise_and_apply(void) {
  TVMFFIAny r, a[3] = {any_str("ValueError"), any_str("a message longer than seven")};
  CHECK(call_global("testing.test_raise_error", a, 2, &r) == -1);
  CHECK_RAISED("ValueError", "a message longer than seven");
  TVMFFIByteArray key = check_ba("testing.test_raise_error");
  TVMFFIAny ap[3] = {{0}, a[0], a[1]};
  ap[0].type_index = kTVMFFIFunction;
  CHECK(TVMFFIFunctionGetGlobal(&key, (TVMFFIObjectHandle*)&ap[0].v_obj) == 0);
  CHECK(call_global("testing.apply", ap, 3, &r) == -1);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  CHECK_CONTAINS(TVMFFIErrorGetCellPtr(err)->backtrace, "TestRaiseError");
  CHECK_CONTAINS(TVMFFIErrorGetCellPtr(err)->backtrace, "TestApply");
  TVMFFIObjectDecRef(err);
  TVMFFIObjectDecRef(ap[0].v_obj);
  CHECK(call_global("testing.apply", ap, 0, &r) == -1);
  CHECK_RAISED("TypeError", "Cannot convert from type `None` to `ffi.Function`");
}

static void test_echo_and_use_count(void) {
  TVMFFIAny r, a[1] = {any_str("a string that is not small")};
  CHECK(call_global("testing.echo", a, 1, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIStr);
  TVMFFIAny held = r;
  CHECK(call_global("testing.object_use_count", &held, 1, &r) == 0);
  CHECK_EQ_INT(r.v_int64, 1);
  release(&held);
  CHECK(call_global("testing.echo", a, 0, &r) == -1);
  CHECK_RAISED("TypeError", "at least 1 argument");
}

static void test_arrays(void) {
  TVMFFIAny r, a[2] = {{0}, any_int(7)};
  CHECK(call_global("testing.make_array_with_mixed", a, 2, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIArray);
  release(&r);
  CHECK(call_global("testing.make_nested_array_with_tensor", a, 1, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIArray);
  release(&r);
  CHECK(call_global("testing.make_empty_array_with_tensor_input", a, 1, &r) == 0);
  release(&r);
  CHECK(call_global("testing.make_array_with_tensor", a + 1, 1, &r) == -1);
  CHECK_RAISED("TypeError", "Expected `ffi.Tensor` but got `int`");
}

static void test_list_map_dict(void) {
  TVMFFIAny r, a[2] = {{0}, any_int(7)}, nones[2] = {{0}, {0}};
  CHECK(call_global("testing.make_list_with_tensor", a, 2, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIList);
  release(&r);
  CHECK(call_global("testing.make_map_with_tensor", a, 1, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIMap);
  release(&r);
  CHECK(call_global("testing.make_dict_with_tensor", a, 1, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIDict);
  release(&r);
  CHECK(call_global("testing.make_nested_map_with_tensor", nones, 2, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIMap);
  release(&r);
  CHECK(call_global("testing.make_nested_map_with_tensor", a, 2, &r) == -1);
  CHECK_RAISED("TypeError", "argument #1 when calling");
}

static void test_c_symbols(void) {
  TVMFFIAny r, a[1] = {any_int(41)}, none = {0};
  CHECK(call_global("testing.get_mlir_add_one_c_symbol", a, 0, &r) == 0);
  void (*mlir)(void**) = (void (*)(void**))(intptr_t)r.v_int64;
  void* handle = NULL;
  const TVMFFIAny* args = a;
  int32_t n = 1;
  TVMFFIAny out = {0};
  TVMFFIAny* outp = &out;
  int ret = -5;
  void* packed[5] = {&handle, &args, &n, &outp, &ret};
  mlir(packed);
  CHECK_EQ_INT(ret, 0);
  CHECK_EQ_INT(out.v_int64, 42);
  args = &none;
  mlir(packed);
  CHECK_EQ_INT(ret, -1);
  CHECK_RAISED("TypeError", "Cannot convert from type `None` to `int`");
}

/* The DLL-exported typed functions C++ tests link against by name. */
static void test_exported_kernels(void) {
  TVMFFIAny r = {0}, a[2] = {any_int(40), any_int(2)};
  CHECK(__tvm_ffi_testing_dll_schema_id_int(NULL, a, 1, &r) == 0);
  CHECK_EQ_INT(r.v_int64, 40);
  CHECK(__tvm_ffi_testing_dll_test_add_with_docstring(NULL, a, 2, &r) == 0);
  CHECK_EQ_INT(r.v_int64, 42);
  CHECK(__tvm_ffi_testing_dll_test_add_with_docstring(NULL, a, 1, &r) == -1);
  CHECK_RAISED("TypeError", "`testing_dll_test_add_with_docstring(0: int, 1: int) -> int`. "
                            "Expected 2 but got 1 arguments");
  CHECK(__tvm_ffi__metadata_testing_dll_schema_id_int(NULL, NULL, 0, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIStr);
  CHECK_CONTAINS(*TVMFFIBytesGetByteArrayPtr(r.v_obj), "\\\"params\\\":[{");
  release(&r);
  CHECK(__tvm_ffi__doc_testing_dll_test_add_with_docstring(NULL, NULL, 0, &r) == 0);
  CHECK_CONTAINS(*TVMFFIBytesGetByteArrayPtr(r.v_obj), "Add two integers");
  release(&r);
}

int main(void) {
  CHECK(TVMFFITestingDummyTarget() == 0);
  RUN(test_exported_kernels);
  RUN(test_add_one);
  RUN(test_raise_and_apply);
  RUN(test_echo_and_use_count);
  RUN(test_arrays);
  RUN(test_list_map_dict);
  RUN(test_c_symbols);
  CHECK(check_no_error_pending());
  return CHECK_MAIN_RESULT();
}
"""


def test_fixture_library_from_c(runtime: Runtime, tmp_path: Path) -> None:
    sources = sorted((REPO_ROOT / "src" / "testing").glob("*.c"))
    flags = ["-D_GNU_SOURCE", "-fvisibility=hidden", "-Wl,-soname,libtvm_ffi_testing.so"]
    compile_c(runtime, sources, tmp_path / "libtvm_ffi_testing.so", shared=True, extra=flags)
    driver = tmp_path / "driver.c"
    driver.write_text(C_DRIVER)
    exe = compile_c(runtime, [driver], tmp_path / "driver",
                    extra=[f"-L{tmp_path}", "-ltvm_ffi_testing", f"-Wl,-rpath,{tmp_path}"])
    proc = subprocess.run([str(exe)], capture_output=True, text=True, env=runtime.env(), timeout=120)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    for marker in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
        assert marker not in output, output


# A host that does not link the fixture library but loads it as a Module, drops the Module and
# loads it again (the reference's C++ module test does this): the library's registrations must
# stay valid, so it is never unmapped, and the second load registers nothing twice.
RELOAD_DRIVER = r"""
#include "check.h"

static TVMFFIObjectHandle load(const char* path) {
  TVMFFIAny r, a[1] = {any_str(path)};
  CHECK(call_global("ffi.ModuleLoadFromFile", a, 1, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIModule);
  return r.v_obj;
}

int main(int argc, char** argv) {
  CHECK(argc == 2);
  for (int round = 0; round < 2; ++round) {
    TVMFFIObjectHandle mod = load(argv[1]);
    TVMFFIObjectDecRef(mod);
    TVMFFIAny r, a[1] = {any_int(41)};
    CHECK(call_global("testing.add_one", a, 1, &r) == 0);
    CHECK_EQ_INT(r.v_int64, 42);
  }
  CHECK(check_no_error_pending());
  return CHECK_MAIN_RESULT();
}
"""


def test_fixture_library_survives_module_unload(tmp_path: Path) -> None:
    from tvm_ffi._testing_lib import find_libtvm_ffi_testing

    runtime = Runtime(installed_runtime_library(), sanitized=False)
    driver = tmp_path / "reload.c"
    driver.write_text(RELOAD_DRIVER)
    exe = compile_c(runtime, [driver], tmp_path / "reload")
    proc = subprocess.run([str(exe), find_libtvm_ffi_testing()], capture_output=True, text=True,
                          env=runtime.env(), timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "failed" not in proc.stderr, proc.stderr

