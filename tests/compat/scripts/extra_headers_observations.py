"""Calls every function of kernels/extra_headers_kernel.cc through whichever `tvm_ffi` this
interpreter imports (ours, or the reference with PYTHONPATH set) and prints one JSON object: for
each call, the result as plain data, or the exception's type and message.

Usage: python extra_headers_observations.py <extra_headers_kernel.so>

tests/compat/test_extra_headers_both_ways.py compares the outputs of the two header builds.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import tvm_ffi

BIG = 2**100 + 7
NEG = -(2**70) + 3


def plain(value: object) -> object:
    """Results as JSON data; str subclasses (String) and small/heap strings compare equal."""
    if isinstance(value, (bool, int, float, type(None))):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bytes):
        return ["bytes", list(value)]
    if isinstance(value, tvm_ffi.Map):
        return {"map": sorted([[plain(k), plain(v)] for k, v in value.items()], key=repr)}
    if isinstance(value, (tvm_ffi.Array, list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, BaseException):
        return ["error", type(value).__name__, str(value)]
    return [type(value).__name__, str(value)]


def main() -> None:
    mod = tvm_ffi.load_module(sys.argv[1])
    out: dict[str, Any] = {}

    def observe(label: str, name: str, *args: object) -> None:
        try:
            out[label] = plain(getattr(mod, name)(*args))
        except Exception as err:  # noqa: BLE001 - the exception is the observation
            out[label] = ["raises", type(err).__name__, str(err)]

    observe("stl_sum", "stl_sum", [1, 2, 3])
    observe("stl_sum mismatch", "stl_sum", [1, "x"])
    observe("stl_reverse", "stl_reverse", ["a", "b", "c"])
    observe("stl_split", "stl_split", 42)
    observe("stl_invert", "stl_invert", {"a": 1, "b": 2})
    observe("stl_optional none", "stl_optional", None)
    observe("stl_optional value", "stl_optional", 4)
    observe("stl_optional mismatch", "stl_optional", "x")
    observe("stl_variant int", "stl_variant", 1)
    observe("stl_variant float", "stl_variant", 1.5)
    observe("stl_variant str", "stl_variant", "s")
    observe("stl_variant mismatch", "stl_variant", None)
    observe("stl_apply", "stl_apply", lambda a, b: a * b, 3)
    observe("stl_array", "stl_array", [1, 2, 3.5])
    observe("stl_array length", "stl_array", [1, 2])
    observe("stl_nested", "stl_nested", 3)
    observe("expected_divide ok", "expected_divide", 7, 2)
    observe("expected_divide error", "expected_divide", 7, 0)
    observe("call_expected ok", "call_expected", lambda x: x * 2, 5)
    observe("call_expected raises", "call_expected", lambda x: 1 // 0, 5)
    observe("call_expected mismatch", "call_expected", lambda x: "s", 5)
    observe("base64_encode", "base64_encode", b"foobar")
    observe("base64_decode", "base64_decode", "Zm9vYg==")
    observe("base64_decode bad length", "base64_decode", "abc")
    observe("dtype_traits", "dtype_traits")
    observe("byteswap32", "byteswap32", 0x11223344)
    observe("bigint_ops wide", "bigint_ops", BIG, NEG)
    observe("bigint_ops small", "bigint_ops", -7, 2)
    observe("bigint_ops zero divisor", "bigint_ops", 7, 0)
    observe("bigint_text", "bigint_text", -(3**90))
    observe("bigint_to_double", "bigint_to_double", 2**100)
    observe("bigint_to_double overflow", "bigint_to_double", 2**1024)
    observe("bigint_from_double", "bigint_from_double", 1e30)
    observe("bigint_parse", "bigint_parse", "-123456789012345678901234567890")
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
