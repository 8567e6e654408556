"""repr/str of FFI values through the runtime's ffi.ReprPrint, as the reference prints them."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
import pytest
import tvm_ffi
from _structural_types import st_make_fixture  # noqa: F401 (the st_make fixture)

ReprPrint = tvm_ffi.get_global_func("ffi.ReprPrint")


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "None"),
        (True, "True"),
        (-5, "-5"),
        (0, "0"),
        ([2**63 - 1, -(2**63), 10, -10], "(9223372036854775807, -9223372036854775808, 10, -10)"),
        (2**70, "1180591620717411303424"),
        (-(2**70), "-1180591620717411303424"),
        (3.14159265358979, "3.14159"),
        (1234567.0, "1.23457e+06"),
        (1e20, "1e+20"),
        (1e-5, "1e-05"),
        (1.0, "1"),
        (-0.0, "-0"),
        (float("nan"), "nan"),
        (float("-inf"), "-inf"),
        ('say "hi" it\'s', '"say \\"hi\\" it\'s"'),
        ("tab\there\nnl\r\\ \x01 \x7f", '"tab\\there\\nnl\\r\\\\ \\x01 \\x7f"'),
        ("é€😀", '"\\u00e9\\u20ac\\U0001f600"'),
        ("\x1b[31mred\x1b[0m", '"\\x1b[31mred\\x1b[0m"'),
        (b"ab\x00\xff", 'b"ab\\x00\\xff"'),
        (b'quote" back\\ \n hello world', 'b"quote\\x22 back\\x5c \\x0a hello world"'),
        (b"", 'b""'),
        (tvm_ffi.dtype("int8x4"), "int8x4"),
        (tvm_ffi.Device(99, 0), "unknown:0"),
        (tvm_ffi.Device("cuda", 1), "cuda:1"),
        ([1], "(1,)"),
        ([], "()"),
        (tvm_ffi.List([1, "a"]), '[1, "a"]'),
        ({"a": 1, "b": [1, 2]}, '{"a": 1, "b": (1, 2)}'),
        ([{"k": (1, 2.5, None)}, tvm_ffi.List([True, b"z"])], '({"k": (1, 2.5, None)}, [True, b"z"])'),
        (tvm_ffi.Map({1.5: None, None: 2, True: b"x", (1,): [2]}), '{1.5: None, None: 2, True: b"x", (1,): (2,)}'),
        (tvm_ffi.Shape((2, 3)), "Shape(2, 3)"),
        (tvm_ffi.Shape(()), "Shape()"),
        (tvm_ffi.Shape((0, -3, 123456789012)), "Shape(0, -3, 123456789012)"),
        (ctypes.c_void_p(1234), "void*"),
        ([object()], "(ffi.OpaquePyObject,)"),
    ],
)
def test_repr_print_formats(value: Any, text: str) -> None:
    assert ReprPrint(value) == text


def test_python_repr_and_str_of_containers_follow_the_reference() -> None:
    assert str(tvm_ffi.convert([1, 2, 3])) == "(1, 2, 3)" == repr(tvm_ffi.convert([1, 2, 3]))
    assert str(tvm_ffi.convert({"a": 1})) == '{"a": 1}'
    assert repr(tvm_ffi.List([[1], {"k": tvm_ffi.Shape((2,))}])) == '[(1,), {"k": Shape(2)}]'
    assert repr(tvm_ffi.Shape((2, 3))) == "(2, 3)"  # Python Shape is a tuple
    assert repr(tvm_ffi.get_global_func("ffi.ReprPrint")) == "ffi.Function"


def test_tensor_prints_dtype_shape_and_device() -> None:
    t = tvm_ffi.from_dlpack(np.arange(6, dtype="float32").reshape(2, 3))
    assert ReprPrint(t) == "float32[2, 3]@cpu:0"
    assert ReprPrint(tvm_ffi.from_dlpack(np.array(3, dtype="int64"))) == "int64[]@cpu:0"


def test_sentinels() -> None:
    assert ReprPrint(tvm_ffi.MISSING) == "<MISSING>" and ReprPrint(tvm_ffi.KWARGS) == "<KWARGS>"


def test_reflected_objects_print_their_fields(st_make: Any) -> None:
    p = st_make("st.Node", 1, "x")
    assert repr(p) == 'st.Node(val=1, next="x")'
    assert ReprPrint([p, {"p": p}]) == '(st.Node(val=1, next="x"), {"p": st.Node(val=1, next="x")})'
    assert repr(st_make("st.Int", 7)) == "st.Int(value=7)"
    assert repr(st_make("st.Flags", 1, 2)) == "st.Flags(shown=1)"  # ReprOff field hidden


def test_shared_values_print_in_full_and_cycles_as_ellipsis(st_make: Any) -> None:
    a = tvm_ffi.convert([1, 2])
    assert ReprPrint([a, a]) == "((1, 2), (1, 2))"
    lst = tvm_ffi.List([1])
    lst.append(lst)
    assert repr(lst) == "[1, ...]"
    d = tvm_ffi.Dict()
    d["self"] = d
    assert repr(d) == '{"self": ...}'
    node = st_make("st.Node", 1, None)
    inner = tvm_ffi.List([node])
    node2 = st_make("st.Node", 1, inner)
    inner.append(node2)
    assert repr(node2) == "st.Node(val=1, next=[st.Node(val=1, next=None), ...])"
    lst.clear()  # break the cycles so the objects are freed
    d.clear()
    inner.clear()


def test_repr_hook_is_called_with_a_printer(st_make: Any) -> None:
    h = st_make("st.Hooked", [7, "x"])
    assert repr(h) == '<Hooked (7, "x")>'
    assert ReprPrint([h, h]) == '(<Hooked (7, "x")>, <Hooked (7, "x")>)'


def test_address_mode(monkeypatch: pytest.MonkeyPatch, st_make: Any) -> None:
    monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", "1")
    arr = tvm_ffi.convert([1, 2])
    assert ReprPrint(arr) == f"(1, 2)@{arr.__chandle__():#x}"
    node = st_make("st.Int", 3)
    assert ReprPrint(node) == f"st.Int@{node.__chandle__():#x}(value=3)"
    monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", "0")
    assert ReprPrint(arr) == "(1, 2)"


def test_fallback_when_repr_fails_and_empty_wrappers() -> None:
    assert repr(tvm_ffi.Object.__new__(tvm_ffi.Object)) == "Object(chandle=None)"
    assert repr(tvm_ffi.Tensor()) == "Tensor(chandle=None)"


def test_deep_nesting_does_not_overflow_the_stack() -> None:
    value: Any = tvm_ffi.List()
    for _ in range(100_000):
        value = tvm_ffi.List([value])
    text = ReprPrint(value)
    assert text.startswith("[[[") and len(text) == 2 * 100_001
