"""DATACLASSES.md 5.2, row by row: what a py_class field of each declared type does with each
value on assignment, and what ``TypeSchema.convert`` does with it directly (``(conv)``): the
value read back (type and repr) or the exception. Printed as JSON; the compat test compares it
with the reference's (tests/compat/test_dataclasses_behaviour.py)."""

from __future__ import annotations

import ctypes
import enum
import json
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Optional, Union

import numpy as np
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import Array, Dict, List, Map
from tvm_ffi.core import TypeSchema, _to_py_class_value
from tvm_ffi.dataclasses import py_class


class Color(enum.IntEnum):
    red = 3


class IntLike:
    def __tvm_ffi_int__(self) -> int:
        return 7


class FloatLike:
    def __tvm_ffi_float__(self) -> float:
        return 1.5


class ValueLike:
    def __init__(self, v: Any) -> None:
        self.v = v

    def __tvm_ffi_value__(self) -> Any:
        return self.v


@py_class("c.Other")
class Other(tvm_ffi.Object):
    v: int = 0


@py_class("c.Sub")
class Sub(Other):
    pass


class Conv(tvm_ffi.ObjectConvertible):
    def asobject(self) -> Other:
        return Other(5)


def desc(v: Any) -> str:
    """Type and value, without addresses (and tensors by dtype, shape and device)."""
    if isinstance(v, tvm_ffi.Tensor):
        return f"Tensor:{v.dtype}{list(v.shape)}@{v.device}"
    text = re.sub(r" at 0x[0-9a-f]+", "", repr(v))
    return f"{type(v).__name__}:{text}"


TARGETS: dict[str, Any] = {
    "int": int,
    "float": float,
    "bool": bool,
    "str": str,
    "bytes": bytes,
    "Optional[int]": Optional[int],
    "Optional[float]": Optional[float],
    "Union[int,str]": Union[int, str],
    "Union[float,int]": Union[float, int],
    "Union[str,Object]": Union[str, tvm_ffi.Object],
    "Array[int]": Array[int],
    "List[int]": List[int],
    "list[int]": list[int],
    "Map[str,int]": Map[str, int],
    "Dict[str,int]": Dict[str, int],
    "dict[str,int]": dict[str, int],
    "Array": Array,
    "list": list,
    "dict": dict,
    "tuple[int,str]": tuple[int, str],
    "tuple[int,...]": tuple[int, ...],
    "tuple": tuple,
    "Other": Other,
    "Optional[TestIntPair]": Optional[t.TestIntPair],
    "Object": tvm_ffi.Object,
    "Tensor": tvm_ffi.Tensor,
    "Callable": Callable[[int], int],
    "Any": Any,
    "Device": tvm_ffi.Device,
    "dtype": tvm_ffi.dtype,
    "c_void_p": ctypes.c_void_p,
}
VALUES: dict[str, list[tuple[str, Callable[[], Any]]]] = {
    "int": [
        ("5", lambda: 5),
        ("True", lambda: True),
        ("np.int32(3)", lambda: np.int32(3)),
        ("np.int64(-2)", lambda: np.int64(-2)),
        ("IntEnum", lambda: Color.red),
        ("__tvm_ffi_int__", IntLike),
        ("__tvm_ffi_value__", lambda: ValueLike(9)),
        ("2**63", lambda: 2**63),
        ("-2**63-1", lambda: -(2**63) - 1),
        ("2**70", lambda: 2**70),
        ("np.uint64 max", lambda: np.uint64(2**64 - 1)),
        ("1.0", lambda: 1.0),
        ("np.float64(1)", lambda: np.float64(1)),
        ("Fraction(3,1)", lambda: Fraction(3, 1)),
        ('"5"', lambda: "5"),
        ("None", lambda: None),
        ("np.True_", lambda: np.True_),
        ("Decimal(1)", lambda: Decimal(1)),
    ],
    "float": [
        ("1.5", lambda: 1.5),
        ("2", lambda: 2),
        ("True", lambda: True),
        ("np.float32(.5)", lambda: np.float32(0.5)),
        ("np.int8(3)", lambda: np.int8(3)),
        ("Fraction(1,2)", lambda: Fraction(1, 2)),
        ("__tvm_ffi_float__", FloatLike),
        ("nan", lambda: float("nan")),
        ('"1.0"', lambda: "1.0"),
        ("None", lambda: None),
        ('Decimal("1.5")', lambda: Decimal("1.5")),
    ],
    "bool": [
        ("True", lambda: True),
        ("0", lambda: 0),
        ("2", lambda: 2),
        ("np.int64(0)", lambda: np.int64(0)),
        ("1.0", lambda: 1.0),
        ('"True"', lambda: "True"),
        ("None", lambda: None),
        ("np.True_", lambda: np.True_),
    ],
    "str": [
        ('"hi"', lambda: "hi"),
        ("20 chars", lambda: "x" * 20),
        ('String("abc")', lambda: tvm_ffi.core.String("abc")),
        ("__tvm_ffi_value__", lambda: ValueLike("vv")),
        ('b"hi"', lambda: b"hi"),
        ("1", lambda: 1),
        ("None", lambda: None),
    ],
    "bytes": [
        ('b"hi"', lambda: b"hi"),
        ("bytearray", lambda: bytearray(b"ab")),
        ('"hi"', lambda: "hi"),
        ("1", lambda: 1),
        ("None", lambda: None),
        ("memoryview", lambda: memoryview(b"ab")),
    ],
    "Optional[int]": [("None", lambda: None), ("3", lambda: 3), ("True", lambda: True), ('"x"', lambda: "x")],
    "Optional[float]": [("1", lambda: 1)],
    "Union[int,str]": [
        ("1", lambda: 1),
        ('"a"', lambda: "a"),
        ("True", lambda: True),
        ("1.5", lambda: 1.5),
        ("None", lambda: None),
        ('b"x"', lambda: b"x"),
    ],
    "Union[float,int]": [("1", lambda: 1), ("True", lambda: True)],
    "Union[str,Object]": [
        ('"s"', lambda: "s"),
        ("TestIntPair", lambda: t.TestIntPair(1, 2)),
        ("[1]", lambda: [1]),
        ("1", lambda: 1),
    ],
    "Array[int]": [
        ("[1,2]", lambda: [1, 2]),
        ("(1,2)", lambda: (1, 2)),
        ("Array", lambda: Array([1, 2])),
        ("List", lambda: List([1, 2])),
        ("[True]", lambda: [True]),
        ('[1,"a"]', lambda: [1, "a"]),
        ("[1.5]", lambda: [1.5]),
        ('"ab"', lambda: "ab"),
        ("{1:2}", lambda: {1: 2}),
        ("None", lambda: None),
        ("np array", lambda: np.zeros(2)),
    ],
    "List[int]": [
        ("[1,2]", lambda: [1, 2]),
        ("(3,)", lambda: (3,)),
        ("Array([1])", lambda: Array([1])),
        ("[None]", lambda: [None]),
    ],
    "list[int]": [("[1,2]", lambda: [1, 2])],
    "Map[str,int]": [
        ('{"a":1}', lambda: {"a": 1}),
        ("Map", lambda: Map({"a": 1})),
        ("Dict", lambda: Dict({"a": 1})),
        ("{1:1}", lambda: {1: 1}),
        ('{"a":"b"}', lambda: {"a": "b"}),
        ('[("a",1)]', lambda: [("a", 1)]),
        ("None", lambda: None),
    ],
    "Dict[str,int]": [
        ('{"a":1}', lambda: {"a": 1}),
        ("Map", lambda: Map({"a": 1})),
        ('{"a":True}', lambda: {"a": True}),
        ("{1:1}", lambda: {1: 1}),
    ],
    "dict[str,int]": [('{"a":1}', lambda: {"a": 1})],
    "Array": [('[1,"a"]', lambda: [1, "a"]), ("1", lambda: 1)],
    "list": [('[1,"a"]', lambda: [1, "a"])],
    "dict": [("{1:2}", lambda: {1: 2})],
    "tuple[int,str]": [
        ('(1,"a")', lambda: (1, "a")),
        ('[1,"a"]', lambda: [1, "a"]),
        ("(1,)", lambda: (1,)),
        ("(1,2)", lambda: (1, 2)),
    ],
    "tuple[int,...]": [('("a",)', lambda: ("a",)), ("(1,2)", lambda: (1, 2))],
    "tuple": [("5", lambda: 5), ("(1,)", lambda: (1,))],
    "Other": [
        ("Other", lambda: Other(1)),
        ("Sub", lambda: Sub(1)),
        ("Conv", Conv),
        ("TestIntPair", lambda: t.TestIntPair(1, 2)),
        ("None", lambda: None),
        ("1", lambda: 1),
        ('{"v":1}', lambda: {"v": 1}),
    ],
    "Optional[TestIntPair]": [
        ("None", lambda: None),
        ("TestIntPair", lambda: t.TestIntPair(1, 2)),
        ("(1,2)", lambda: (1, 2)),
        ("3", lambda: 3),
    ],
    "Object": [
        ("[1]", lambda: [1]),
        ('{"a":1}', lambda: {"a": 1}),
        ("lambda", lambda: lambda x: x),
        ("None", lambda: None),
        ("1", lambda: 1),
        ('"str"', lambda: "str"),
        ("object()", lambda: object()),
    ],
    "Tensor": [
        ("np array", lambda: np.zeros(3, "float32")),
        ("None", lambda: None),
        ("[1.0]", lambda: [1.0]),
        ("1", lambda: 1),
    ],
    "Callable": [
        ("lambda", lambda: lambda x: x),
        ("print", lambda: print),
        ("None", lambda: None),
        ("1", lambda: 1),
        ("FFI object", lambda: Other(1)),
        ('"f"', lambda: "f"),
    ],
    "Any": [
        ("1", lambda: 1),
        ("2**70", lambda: 2**70),
        ("[1]", lambda: [1]),
        ("(1,)", lambda: (1,)),
        ("{}", lambda: {}),
        ("np.int32(1)", lambda: np.int32(1)),
        ("object()", lambda: object()),
    ],
    "Device": [
        ("Device", lambda: tvm_ffi.device("cuda:0")),
        ('"cpu"', lambda: "cpu"),
        ('"bogus"', lambda: "bogus"),
        ("1", lambda: 1),
        ("None", lambda: None),
        ("(1,0)", lambda: (1, 0)),
    ],
    "dtype": [
        ('"float16"', lambda: "float16"),
        ('np.dtype("float32")', lambda: np.dtype("float32")),
        ('"bogus"', lambda: "bogus"),
        ("np.float32", lambda: np.float32),
        ("1", lambda: 1),
        ("None", lambda: None),
    ],
    "c_void_p": [("c_void_p(16)", lambda: ctypes.c_void_p(16)), ("None", lambda: None), ("16", lambda: 16)],
}

OUT: dict[str, str] = {}
for tname, ann in TARGETS.items():
    cls = py_class(f"cv.T{len(OUT)}")(type("T", (tvm_ffi.Object,), {"__annotations__": {"f": ann}}))
    obj = cls.__new__(cls)
    try:
        ffi_new = tvm_ffi.core._lookup_type_attr(cls.__tvm_ffi_type_info__.type_index, "__ffi_new__")
        obj.__move_handle_from__(ffi_new())
    except Exception as e:  # noqa: BLE001
        OUT[f"{tname} <new>"] = f"{type(e).__name__}: {e}"
        continue
    schema = TypeSchema.from_annotation(ann)
    for vname, make in VALUES.get(tname, []):
        try:
            obj.f = make()
            OUT[f"{tname} <- {vname}"] = desc(obj.f)
        except Exception as e:  # noqa: BLE001
            OUT[f"{tname} <- {vname}"] = f"{type(e).__name__}: {e}"
        try:
            OUT[f"{tname} <- {vname} (conv)"] = desc(_to_py_class_value(schema.convert(make())))
        except Exception as e:  # noqa: BLE001
            OUT[f"{tname} <- {vname} (conv)"] = f"{type(e).__name__}: {e}"
# Schemas spelled with runtime type keys ("ffi.Array") are those object types, converted by
# their __ffi_convert__ (a refusal's text joins the message); types without one refuse plainly.
KEYED = ["ffi.Array", "ffi.List", "ffi.Map", "ffi.Dict", "ffi.String", "ffi.Bytes", "ffi.Function",
         "ffi.Tensor", "ffi.Shape", "ffi.Error", "ffi.Object", "ffi.Module", "testing.TestObjectBase",
         "testing.TestIntPair"]
KEYED_VALUES: list[tuple[str, Callable[[], Any]]] = [
    ("RuntimeError", lambda: RuntimeError("x")),
    ("1", lambda: 1),
    ("None", lambda: None),
    ("20 chars", lambda: "x" * 20),
    ("[1]", lambda: [1]),
    ('{"a":1}', lambda: {"a": 1}),
    ("Array", lambda: Array([1, 2])),
    ("List", lambda: List([1, 2])),
    ("Map", lambda: Map({"a": 1})),
    ("Dict", lambda: Dict({"a": 1})),
    ("TestIntPair", lambda: t.TestIntPair(1, 2)),
]
for key in KEYED:
    convert = tvm_ffi.core._lookup_type_attr(tvm_ffi.core._object_type_key_to_index(key), "__ffi_convert__")
    OUT[f"{key} has __ffi_convert__"] = str(convert is not None)
    for vname, make in KEYED_VALUES:
        try:
            TypeSchema(key).check_value(make())
            OUT[f"{key} check {vname}"] = "ok"
        except Exception as e:  # noqa: BLE001
            OUT[f"{key} check {vname}"] = f"{type(e).__name__}: {e}"
        if convert is not None:
            try:
                OUT[f"{key} __ffi_convert__ {vname}"] = desc(convert(make()))
            except Exception as e:  # noqa: BLE001
                OUT[f"{key} __ffi_convert__ {vname}"] = f"{type(e).__name__}: {e}"


class Unregistered(t.TestIntPair):  # a plain subclass: no type of its own
    pass


for name, ann in [("unregistered subclass", Unregistered), ("set", set)]:
    try:
        OUT[f"from_annotation {name}"] = repr(TypeSchema.from_annotation(ann))
    except Exception as e:  # noqa: BLE001
        OUT[f"from_annotation {name}"] = f"{type(e).__name__}: {e}"
print(json.dumps(OUT, indent=1, sort_keys=True, default=str))
