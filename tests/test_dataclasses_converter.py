"""Field type conversion at assignment: accepted values and the spec's rejection messages."""

from __future__ import annotations

import ctypes
import re
from typing import Any, Callable

import numpy as np
import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi.core import TypeSchema, _to_py_class_value
from tvm_ffi.dataclasses import py_class


@py_class("dc_conv.Other")
class Other(tvm_ffi.Object):
    v: int = 0


@py_class("dc_conv.Sub")
class Sub(Other):
    pass


@py_class("dc_conv.Holder")
class Holder(tvm_ffi.Object):
    i: int = 0
    f: float = 0.0
    b: bool = False
    s: str = ""
    by: bytes = b""
    oi: int | None = None
    u: int | str = 0
    uf: float | int = 0.0
    arr: tvm_ffi.Array[int] = ()  # type: ignore[type-arg]
    lst: list[int] = ()  # type: ignore[assignment]
    m: tvm_ffi.Map[str, int] = None  # type: ignore[type-arg,assignment]
    d: dict[str, int] = None  # type: ignore[assignment]
    tup: tuple[int, str] = (0, "")
    obj: Other | None = None
    anyobj: tvm_ffi.Object = None  # type: ignore[assignment]
    fn: Callable[[int], int] = None  # type: ignore[assignment]
    dev: tvm_ffi.Device = "cpu"  # type: ignore[assignment]
    dt: tvm_ffi.dtype = "float32"  # type: ignore[assignment]
    vp: ctypes.c_void_p = None  # type: ignore[assignment]
    a: Any = None


def _set(name: str, value: Any) -> Any:
    h = Holder(m={}, d={}, anyobj=Other(), fn=lambda x: x)
    setattr(h, name, value)
    return getattr(h, name)


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("i", 5, 5), ("i", True, 1), ("i", np.int32(3), 3),
    ("f", 1.5, 1.5), ("f", 2, 2.0), ("f", True, 1.0),
    ("b", True, True), ("b", 0, False), ("b", 2, True),
    ("s", "hi", "hi"), ("s", "x" * 20, "x" * 20),
    ("by", b"hi", b"hi"), ("by", bytearray(b"ab"), b"ab"),
    ("oi", None, None), ("oi", 3, 3), ("oi", True, 1),
    ("u", 1, 1), ("u", "a", "a"), ("u", True, 1),
    ("uf", 1, 1.0),
])
def test_scalar_accepted(name: str, value: Any, expected: Any) -> None:
    got = _set(name, value)
    assert got == expected and type(got) is type(expected) or (isinstance(got, str) and got == expected)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("i", 2**63, "integer 9223372036854775808 out of int64 range"),
    ("i", 1.0, "expected int, got float"),
    ("i", "5", "expected int, got str"),
    ("i", None, "expected int, got None"),
    ("f", "1.0", "expected float, got str"),
    ("b", 1.0, "expected bool, got float"),
    ("s", b"hi", "expected str, got bytes"),
    ("s", 1, "expected str, got int"),
    ("by", "hi", "expected bytes, got str"),
    ("oi", "x", "expected int, got str"),
    ("u", 1.5, r"expected int \| str, got float"),
    ("arr", [1, "a"], r"element \[1\]: expected int, got str"),
    ("arr", "ab", "expected Array, got str"),
    ("arr", {1: 2}, "expected Array, got ffi.Map"),
    ("lst", [None], r"element \[0\]: expected int, got None"),
    ("m", {1: 1}, "key 1: expected str, got int"),
    ("m", {"a": "b"}, "value for key 'a': expected int, got str"),
    ("m", [("a", 1)], "expected Map, got ffi.Array"),
    ("tup", (1,), "expected tuple of length 2, got Array of length 1"),
    ("tup", (1, 2), r"element \[1\]: expected str, got int"),
    ("obj", 1, "expected dc_conv.Other, got int"),
    ("anyobj", None, "expected Object, got None"),
    ("dev", "bogus", "expected Device, got invalid device string 'bogus'"),
    ("dt", "bogus", "expected dtype, got invalid dtype string 'bogus'"),
    ("vp", 16, "expected ctypes.c_void_p, got int"),
])
def test_rejected_with_message(name: str, value: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        _set(name, value)


def test_containers_convert() -> None:
    assert list(_set("arr", [1, 2])) == [1, 2] and type(_set("arr", (1, 2))) is tvm_ffi.Array
    assert list(_set("arr", [True])) == [1]
    assert type(_set("lst", (3,))) is tvm_ffi.List
    assert dict(_set("m", {"a": 1})) == {"a": 1} and type(_set("m", {"a": 1})) is tvm_ffi.Map
    assert type(_set("d", {"a": True})) is tvm_ffi.Dict and dict(_set("d", {"a": True})) == {"a": 1}
    assert type(_set("tup", [1, "a"])) is tvm_ffi.Array


def test_objects_callables_devices() -> None:
    sub = Sub(v=2)
    assert _set("obj", sub).same_as(sub) and type(_set("obj", sub)) is Sub
    assert _set("fn", lambda x: x + 1)(1) == 2
    assert str(_set("dev", "cuda:0")) == "cuda:0"
    assert str(_set("dt", "float16")) == "float16"
    assert _set("a", 2**70) == 2**70
    assert list(_set("anyobj", [1])) == [1]


def test_init_reports_field_and_default() -> None:
    with pytest.raises(TypeError, match=r"dc_conv.Holder.__ffi_init__\(\) field 'i':\n  expected int, got str"):
        Holder(i="x")


def test_schemas_spelled_with_runtime_type_keys_convert_like_their_python_spelling() -> None:
    as_list = _to_py_class_value(TypeSchema("ffi.List", (TypeSchema("int"),)).convert((1, 2)))
    assert isinstance(as_list, tvm_ffi.List) and list(as_list) == [1, 2]
    as_map = _to_py_class_value(TypeSchema("ffi.Map", (TypeSchema("str"), TypeSchema("int"))).convert({"a": 1}))
    assert isinstance(as_map, tvm_ffi.Map) and dict(as_map) == {"a": 1}


@pytest.mark.parametrize(("value", "key"), [(tvm_ffi.Device("cpu", 0), "Device"), (ctypes.c_void_p(8), "void*")])
def test_values_that_are_not_objects_do_not_pass_as_object(value: object, key: str) -> None:
    for schema in (TypeSchema.from_annotation(tvm_ffi.Object), TypeSchema("ffi.Object")):
        with pytest.raises(TypeError, match=f"Cannot cast from `{re.escape(key)}` to `ffi.Object`"):
            schema.convert(value)
    assert list(_to_py_class_value(TypeSchema.from_annotation(tvm_ffi.Object).convert([1]))) == [1]
