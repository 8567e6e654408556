"""Calls every function of kernels/broad_kernel.cc through whichever `tvm_ffi` this interpreter
imports (ours, or the reference with PYTHONPATH set) and prints one JSON object: for each call,
the result's type and printed form, or the exception's type and message.

Usage: python broad_kernel_observations.py <broad_kernel.so> <other_module.so>

tests/compat/test_broad_kernel.py runs it on both packages and requires equal outputs.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from typing import Any, Callable

import numpy as np
import torch
import tvm_ffi

seen: dict[str, object] = {}
ADDRESS = re.compile(r"0x[0-9a-f]+")


def describe(value: object) -> object:
    """A JSON-able, address-free description of a value returned to Python."""
    if isinstance(value, (bool, int, float, str, type(None))):
        return [type(value).__name__, value]
    if isinstance(value, bytes):
        return ["bytes", list(value)]
    if isinstance(value, (np.ndarray, torch.Tensor)):
        return [type(value).__name__, value.tolist()]
    if isinstance(value, tvm_ffi.Tensor):
        return ["Tensor", str(value.dtype), list(value.shape), np.from_dlpack(value).tolist()]
    text = ADDRESS.sub("0x?", repr(value))
    return [type(value).__name__, text]


def observe(name: str, thunk: Callable[[], object], throw_site_in_traceback: bool = False) -> None:
    """Records what thunk() returns, or the type and message of what it raises; with
    `throw_site_in_traceback`, also whether the kernel's source file is among the frames (errors
    thrown by the kernel's own code carry their throw site; where the headers throw, only a
    runtime that walks the native stack shows the kernel file)."""
    try:
        seen[name] = describe(thunk())
    except Exception as err:  # noqa: BLE001 - the exception is the observation
        record: list[object] = ["raises", type(err).__name__, [c.__name__ for c in type(err).__mro__[1:3]],
                                ADDRESS.sub("0x?", str(err))]
        if throw_site_in_traceback:
            record.append("broad_kernel.cc" in "".join(traceback.format_exception(err)))
        seen[name] = record


def main(kernel_path: str, other_path: str) -> None:  # noqa: PLR0915 - one observation a line
    mod = tvm_ffi.load_module(kernel_path)
    f32 = np.arange(6, dtype=np.float32)

    observe("add_scalars", lambda: mod.add_scalars(1, 2.5, True))
    observe("add_scalars bool as int", lambda: mod.add_scalars(True, 1, False))
    observe("add_scalars str", lambda: mod.add_scalars("1", 2.5, True))
    observe("add_scalars float as int", lambda: mod.add_scalars(1.5, 2.5, True))
    observe("add_scalars too few", lambda: mod.add_scalars(1))
    observe("dtype_name str", lambda: mod.dtype_name("bfloat16"))
    observe("dtype_name dtype", lambda: mod.dtype_name(tvm_ffi.dtype("float8_e4m3fn")))
    observe("dtype_name torch", lambda: mod.dtype_name(torch.float16))
    observe("dtype_name numpy", lambda: mod.dtype_name(np.dtype("int8")))
    observe("dtype_name bad", lambda: mod.dtype_name("floaty"))
    observe("widen_dtype", lambda: mod.widen_dtype("int16x4"))
    observe("widen_dtype type", lambda: type(mod.widen_dtype("int16")).__name__)
    observe("device_info", lambda: mod.device_info(tvm_ffi.device("cuda", 3)))
    observe("device_info str", lambda: mod.device_info("cpu"))
    observe("device_info torch", lambda: mod.device_info(torch.device("cpu")))
    observe("device_info int", lambda: mod.device_info(1))
    observe("make_device", lambda: mod.make_device(2, 1))
    observe("make_device fields", lambda: (lambda d: (d.dlpack_device_type(), d.index, d.type))(mod.make_device(2, 1)))
    observe("opt_len str", lambda: mod.opt_len("abcd"))
    observe("opt_len None", lambda: mod.opt_len(None))
    observe("opt_len int", lambda: mod.opt_len(3))
    observe("opt_half even", lambda: mod.opt_half(8))
    observe("opt_half odd", lambda: mod.opt_half(7))
    observe("variant int", lambda: mod.variant_kind(5))
    observe("variant str", lambda: mod.variant_kind("s"))
    observe("variant list", lambda: mod.variant_kind([1, 2, 3]))
    observe("variant float", lambda: mod.variant_kind(1.5))
    observe("sum_nested", lambda: mod.sum_nested([[1, 2], [3], []]))
    observe("sum_nested tuple", lambda: mod.sum_nested(((1, 2), tvm_ffi.Array([3]))))
    observe("sum_nested bad", lambda: mod.sum_nested([[1, "2"]]))
    items = tvm_ffi.List([1])
    observe("list_append", lambda: (mod.list_append(items, 2), list(items))[1])
    observe("list_append pylist", lambda: mod.list_append([1], 2))
    observe("sorted_keys", lambda: mod.sorted_keys({"b": 1, "a": 2}))
    observe("sorted_keys Map", lambda: mod.sorted_keys(tvm_ffi.Map({"z": 1})))
    observe("sorted_keys bad value", lambda: mod.sorted_keys({"b": "x"}))
    observe("sorted_keys bad key", lambda: mod.sorted_keys({1: 1}))
    d = tvm_ffi.Dict({"a": 1})
    observe("dict_set", lambda: (mod.dict_set(d, "b", [1, 2]), sorted(d.keys()), d["b"])[1:])
    observe("group_by_parity", lambda: mod.group_by_parity([1, 2, 3, 4, 5]))
    observe("group_by_parity items", lambda: sorted((k, list(v)) for k, v in mod.group_by_parity([1, 2]).items()))
    observe("make_tuple", lambda: mod.make_tuple(3))
    observe("make_tuple list", lambda: list(mod.make_tuple(3)))
    observe("shape_of", lambda: mod.shape_of(np.zeros((2, 3, 4), dtype=np.int8)))
    observe("shape_of tuple", lambda: tuple(mod.shape_of(np.zeros((2, 3)))))
    observe("concat", lambda: mod.concat("héllo ", "wörld" * 3))
    observe("concat bytes", lambda: mod.concat(b"x", "y"))
    observe("bytes_len", lambda: mod.bytes_len(b"ab\x00cd"))
    observe("bytes_len bytearray", lambda: mod.bytes_len(bytearray(b"abc")))
    observe("bytes_len str", lambda: mod.bytes_len("abc"))
    observe("make_bytes short", lambda: mod.make_bytes(4))
    observe("make_bytes long", lambda: mod.make_bytes(20))
    for name, value in [("int", 1), ("float", 1.0), ("bool", True), ("None", None), ("str", "s"),
                        ("long str", "s" * 40), ("bytes", b"b"), ("list", [1]), ("tuple", (1,)),
                        ("dict", {"a": 1}), ("ndarray", f32), ("torch", torch.zeros(2)),
                        ("dtype", tvm_ffi.dtype("int8")), ("device", tvm_ffi.device("cpu")),
                        ("function", mod.add_scalars), ("shape", tvm_ffi.Shape((1, 2))),
                        ("List", tvm_ffi.List([1])), ("Dict", tvm_ffi.Dict({}))]:
        observe(f"any_type_key {name}", lambda v=value: mod.any_type_key(v))
        observe(f"any_echo {name}", lambda v=value: mod.any_echo(v))
    observe("call_callback", lambda: mod.call_callback(lambda x: [x, x], 3))
    observe("call_callback returns tensor", lambda: mod.call_callback(lambda x: x, f32))
    observe("call_typed", lambda: mod.call_typed(lambda a, b: a * b))
    observe("call_typed bad return", lambda: mod.call_typed(lambda a, b: "no"))
    observe("make_adder", lambda: mod.make_adder(10)(5))
    observe("make_adder type", lambda: type(mod.make_adder(10)).__name__)
    observe("make_adder bad arg", lambda: mod.make_adder(10)("x"))

    def fail(exc: BaseException) -> Callable[..., None]:
        def raiser(*_args: object) -> None:
            raise exc
        return raiser

    for exc in [ValueError("bad value"), KeyError("k"), IndexError("i"), TypeError("t"), AttributeError("a"),
                NotImplementedError("n"), RuntimeError("r"), ZeroDivisionError("z"), OSError("o")]:
        observe(f"callback raises {type(exc).__name__}", lambda e=exc: mod.call_callback(fail(e), 0))
        observe(f"catch_callback_error {type(exc).__name__}", lambda e=exc: mod.catch_callback_error(fail(e)))

    @tvm_ffi.register_global_func("broad_test.py_double", override=True)
    def py_double(x: Any) -> Any:
        return x * 2

    observe("call_global python", lambda: mod.call_global("broad_test.py_double", 21))
    observe("call_global registered in C++", lambda: mod.call_global("broad.count_args", 1))
    observe("call_global missing", lambda: mod.call_global("broad_test.no_such", 1))
    observe("has_global", lambda: (mod.has_global("broad.make_point"), mod.has_global("broad_test.none")))
    for kind in ["ValueError", "TypeError", "RuntimeError", "IndexError", "KeyError", "AttributeError",
                 "NotImplementedError", "InternalError", "std::runtime_error", "icheck", "check", "MyCustomError"]:
        observe(f"raise {kind}", lambda k=kind: mod.raise_error(k, "message of " + k), True)
    observe("arange", lambda: mod.arange(4))
    observe("arange empty", lambda: mod.arange(0))
    observe("scale numpy", lambda: mod.scale(f32, 2))
    observe("scale torch", lambda: mod.scale(torch.arange(3, dtype=torch.float32), 0.5))
    observe("scale int", lambda: mod.scale(np.arange(3, dtype=np.int32), 2))
    observe("scale strided", lambda: mod.scale(f32[::2], 2))
    observe("scale not tensor", lambda: mod.scale([1.0], 2))
    t = torch.ones(2, 2)
    observe("keep torch identity", lambda: mod.keep(t) is t)
    observe("keep torch type", lambda: type(mod.keep(t)).__name__)
    observe("keep numpy", lambda: mod.keep(f32))
    ffi_tensor = tvm_ffi.from_dlpack(f32)
    observe("keep ffi tensor identity", lambda: mod.keep(ffi_tensor) is ffi_tensor)
    observe("tensor_facts", lambda: mod.tensor_facts(np.zeros((3, 4), dtype=np.float64)[:, ::2]))
    observe("tensor_facts torch", lambda: mod.tensor_facts(torch.zeros(5, dtype=torch.int16)))
    observe("tensor_facts from_dlpack", lambda: mod.tensor_facts(tvm_ffi.from_dlpack(torch.zeros(2, 3))))
    observe("stream_of cpu", lambda: mod.stream_of(tvm_ffi.device("cpu")))
    with tvm_ffi.use_raw_stream(tvm_ffi.device("cuda", 0), 0x1234):
        observe("stream_of in use_raw_stream", lambda: mod.stream_of(tvm_ffi.device("cuda", 0)))
        observe("stream_of other device", lambda: mod.stream_of(tvm_ffi.device("cuda", 1)))
    observe("stream_of after", lambda: mod.stream_of(tvm_ffi.device("cuda", 0)))
    observe("check_signals", lambda: mod.check_signals())

    @tvm_ffi.register_object("broad.Point")
    class Point(tvm_ffi.Object):
        """A point reflected from C++."""

    @tvm_ffi.register_object("broad.LabeledPoint")
    class LabeledPoint(Point):
        """A labeled point."""

    p = Point(3, 4)
    observe("Point fields", lambda: (p.x, p.y, p.norm2()))
    observe("Point repr", lambda: p)
    observe("Point str", lambda: str(p))
    observe("Point origin", lambda: Point.origin())
    observe("Point set y", lambda: (setattr(p, "y", 5), p.y)[1])
    observe("Point set x", lambda: setattr(p, "x", 5))
    observe("Point set y str", lambda: setattr(p, "y", "s"))
    observe("Point bad init", lambda: Point(1))
    observe("Point doc", lambda: (Point.x.__doc__, Point.norm2.__doc__))
    observe("LabeledPoint", lambda: LabeledPoint(1, 2, "a"))
    observe("LabeledPoint fields", lambda: (lambda q: (q.x, q.y, q.label, q.norm2()))(LabeledPoint(1, 2, "a")))
    observe("LabeledPoint isinstance", lambda: isinstance(LabeledPoint(1, 2, "a"), Point))
    observe("global make_point", lambda: tvm_ffi.get_global_func("broad.make_point")(1, 2))
    observe("global translate", lambda: tvm_ffi.get_global_func("broad.translate")(p, 10).x)
    observe("global count_args", lambda: tvm_ffi.get_global_func("broad.count_args")(1, "a", None))
    observe("translate kernel", lambda: mod.translate(LabeledPoint(1, 2, "q"), 1))
    observe("translate wrong type", lambda: mod.translate(tvm_ffi.Array([1]), 1))
    observe("sum_x", lambda: mod.sum_x([Point(1, 0), LabeledPoint(2, 0, "b")]))
    observe("sum_x bad", lambda: mod.sum_x([Point(1, 0), 2]))
    observe("label_of", lambda: [mod.label_of(o) for o in (p, LabeledPoint(0, 0, "L"), tvm_ffi.Array([]))])
    observe("Point type info", lambda: [f.name for f in Point.__tvm_ffi_type_info__.fields])
    observe("Point methods", lambda: sorted(m.name for m in Point.__tvm_ffi_type_info__.methods))

    other = tvm_ffi.load_module(other_path)
    mod.import_module(other)
    observe("imports", lambda: len(mod.imports))
    observe("call_imported", lambda: (mod.call_imported("square", 7), mod.call_imported("shout", "abc")))
    observe("call_imported missing", lambda: mod.call_imported("nope", 1))
    observe("module kind", lambda: mod.kind)
    observe("module implements", lambda: (mod.implements_function("scale"), mod.implements_function("nope")))
    observe("module getattr missing", lambda: mod.no_such_function)
    observe("module get_function missing", lambda: mod.get_function("no_such_function"))
    observe("module [] missing", lambda: mod["no_such_function"])
    observe("system_lib function", lambda: tvm_ffi.system_lib().broad_sys_add(1, 2.0, True))
    observe("system_lib prefix", lambda: tvm_ffi.system_lib("broad_").sys_add(1, 2.0, False))
    observe("system_lib prefix missing", lambda: tvm_ffi.system_lib("broad_").add_scalars(1, 2.0, False))
    observe("module repr", lambda: ADDRESS.sub("0x?", repr(mod)).replace(kernel_path, "<path>"))
    print(json.dumps(seen, indent=1, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
