"""Assigns each value of a fixed grid to every field of kernels/field_setter_kernel.cc's object
through whichever `tvm_ffi` this interpreter imports, and prints one JSON object: the field
schemas, and for each "<field> <value>" the value read back or the exception's type and message.

Usage: python field_setter_observations.py <field_setter_kernel.so>

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
VALUES: list[tuple[str, Any]] = [
    ("0", 0), ("-1", -1), ("2**40", 2**40), ("2**70", 2**70), ("True", True), ("1.5", 1.5), ("'abc'", "abc"),
    ("long str", "x" * 30), ("b'xy'", b"xy"), ("None", None), ("[1, 2]", [1, 2]), ("[1, 'a']", [1, "a"]),
    ("[None, 1]", [None, 1]), ("(3, 's')", (3, "s")), ("{'a': 1}", {"a": 1}), ("{1: 2}", {1: 2}),
    ("Shape", tvm_ffi.Shape((1, 2))), ("dtype", tvm_ffi.dtype("int8")), ("'float16'", "float16"),
    ("device", tvm_ffi.device("cuda", 1)), ("ndarray", np.zeros(2)), ("lambda", lambda: 1), ("object()", object()),
    ("np.int32", np.int32(7)), ("np.float64", np.float64(2.5)), ("Array", tvm_ffi.Array([1])),
    ("Map", tvm_ffi.Map({"k": 1})), ("c_void_p", ctypes.c_void_p(8)),
]


def outcome(call: Callable[[], object]) -> str:
    try:
        value = call()
    except Exception as err:  # noqa: BLE001 -- the observation is the exception
        return f"{type(err).__name__}: {ADDRESS.sub('0x?', str(err))}"
    if isinstance(value, tvm_ffi.Tensor):
        return f"OK Tensor {tuple(value.shape)} {value.dtype}"
    return f"OK {type(value).__name__} {ADDRESS.sub('0x?', repr(value))}"


def main() -> None:
    tvm_ffi.load_module(sys.argv[1])

    @tvm_ffi.register_object("setters.AllFields")
    class AllFields(tvm_ffi.Object):
        """The kernel's object type."""

    info = AllFields.__tvm_ffi_type_info__  # type: ignore[attr-defined]
    seen: dict[str, str] = {f"schema {f.name}": str(f.ty) for f in info.fields}
    obj = AllFields()
    for field in info.fields:
        for label, value in VALUES:
            seen[f"{field.name} {label}"] = outcome(
                lambda: (setattr(obj, field.name, value), getattr(obj, field.name))[1])  # noqa: B023
    json.dump(seen, sys.stdout, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
