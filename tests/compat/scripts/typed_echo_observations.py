"""Calls every function of kernels/typed_echo_kernel.cc with each value of a fixed grid through
whichever `tvm_ffi` this interpreter imports, and prints one JSON object: for each
"<function> <value>" the result's type and printed form, or the exception's type and message.

Usage: python typed_echo_observations.py <typed_echo_kernel.so>

tests/compat/test_header_grids.py compares the kernel built against either header set.
"""

from __future__ import annotations

import ctypes
import json
import re
import sys
from typing import Any, Callable

import numpy as np
import tvm_ffi

ADDRESS = re.compile(r"0x[0-9a-f]+")


class Index:
    """Not an int, but usable as one (``__index__``)."""

    def __index__(self) -> int:
        return 5


VALUES: list[tuple[str, Any]] = [
    ("0", 0), ("-1", -1), ("2**31", 2**31), ("2**63-1", 2**63 - 1), ("2**63", 2**63), ("2**70", 2**70),
    ("300", 300), ("-129", -129), ("True", True), ("1.5", 1.5), ("nan", float("nan")), ("inf", float("inf")),
    ("'abc'", "abc"), ("''", ""), ("long str", "x" * 40), ("b'xy'", b"xy"), ("bytearray", bytearray(b"q")),
    ("None", None), ("[1, 2]", [1, 2]), ("[1, 'a']", [1, "a"]), ("[]", []), ("(1, 's')", (1, "s")),
    ("[[1], [2]]", [[1], [2]]), ("[1.5]", [1.5]), ("[True]", [True]), ("{'a': 1}", {"a": 1}), ("{1: 2}", {1: 2}),
    ("{1: 2.5}", {1: 2.5}), ("{}", {}), ("Array", tvm_ffi.Array([1, 2])), ("List", tvm_ffi.List([1])),
    ("Map", tvm_ffi.Map({"a": 1})), ("Dict", tvm_ffi.Dict({"a": 1})), ("Shape", tvm_ffi.Shape((1, 2))),
    ("dtype", tvm_ffi.dtype("float32")), ("'int8x4'", "int8x4"), ("device", tvm_ffi.device("cpu", 0)),
    ("'cuda:1'", "cuda:1"), ("ndarray", np.arange(3, dtype="int32")), ("np.float32", np.float32(1.5)),
    ("np.int64", np.int64(3)), ("np.bool_", np.bool_(True)), ("np.dtype", np.dtype("float16")),
    ("lambda", lambda x: x + 1), ("global func", tvm_ffi.get_global_func("testing.echo")), ("object()", object()),
    ("__index__", Index()), ("Tensor", tvm_ffi.from_dlpack(np.arange(4, dtype="float64"))), ("set", {1, 2}),
    ("c_void_p", ctypes.c_void_p(16)), ("c_void_p(None)", ctypes.c_void_p(None)),
]
FUNCTIONS = ["e_i64", "e_i32", "e_i8", "e_u64", "e_u8", "e_f64", "e_f32", "e_bool", "e_str", "e_stdstr", "e_bytes",
             "e_dtype", "e_dev", "e_opt_i", "e_opt_s", "e_opt_ai", "e_arr_i", "e_arr_any", "e_arr_s", "e_arr_arr",
             "e_arr_f", "e_arr_b", "e_list_i", "e_map_si", "e_map_aa", "e_dict_sa", "e_var_is", "e_var_sa",
             "e_var_fi", "e_tup", "e_shape", "e_tensor", "e_func", "e_obj", "e_any", "e_vptr", "e_vec_i", "e_vec_s",
             "e_stdopt_i", "e_stdmap", "e_stdumap", "e_stdtup", "e_stdvar", "e_stdvec_vec", "e_stdopt_vec",
             "e_typed", "e_tview", "e_dltensor", "e_calltyped"]
# The reference's headers call a null TypedFunction made from None (a crash): not observed.
SKIPPED = {("e_calltyped", "None")}


def describe(value: object) -> str:
    if isinstance(value, tvm_ffi.Tensor):
        return f"Tensor {tuple(value.shape)} {value.dtype}"
    if isinstance(value, tvm_ffi.Function):
        try:
            return f"Function returning {value(4)!r}"
        except Exception as err:  # noqa: BLE001 -- the observation is the exception
            return f"Function raising {type(err).__name__}"
    return f"{type(value).__name__} {ADDRESS.sub('0x?', repr(value))}"


def outcome(call: Callable[[], object]) -> str:
    try:
        return "OK " + describe(call())
    except Exception as err:  # noqa: BLE001 -- the observation is the exception
        return f"{type(err).__name__}: {ADDRESS.sub('0x?', str(err))}"


def main() -> None:
    lib = tvm_ffi.load_module(sys.argv[1])
    seen: dict[str, str] = {}
    for name in FUNCTIONS:
        func = lib[name]
        for label, value in VALUES:
            if (name, label) not in SKIPPED:
                seen[f"{name} {label}"] = outcome(lambda: func(value))  # noqa: B023 -- called at once
        seen[f"{name} no args"] = outcome(lambda: func())  # noqa: B023
        seen[f"{name} two args"] = outcome(lambda: func(1, 2))  # noqa: B023
    two = lib["e_two"]
    for args in [(1, "ab"), ("ab", 1), (1,), (1.5, None)]:
        seen[f"e_two {args!r}"] = outcome(lambda: two(*args))  # noqa: B023
    json.dump(seen, sys.stdout, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
