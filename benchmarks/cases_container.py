"""Container cases: building, reading and passing Array/Map through the public API."""

from __future__ import annotations

from cases import Case

_IMPORTS = "import tvm_ffi\n"
_ARR = _IMPORTS + "arr = tvm_ffi.Array([1, 2, 3])\n"
_MAP = _IMPORTS + "m = tvm_ffi.Map({'a': 1})\n"
_BIG = _IMPORTS + "big = tvm_ffi.Array(range(1000))\n"
_NOP = _IMPORTS + "import tvm_ffi.testing\nnop = tvm_ffi.get_global_func('testing.nop')\n"

CASES = [
    Case("Array([1,2,3])", _IMPORTS, "tvm_ffi.Array([1, 2, 3])"),
    Case("Map({'a': 1})", _IMPORTS, "tvm_ffi.Map({'a': 1})"),
    Case("arr[1]", _ARR, "arr[1]"),
    Case("len(arr)", _ARR, "len(arr)"),
    Case("m['a']", _MAP, "m['a']"),
    Case("iterate 1000-element Array", _BIG, "for _ in big: pass"),
    Case("nop([1, 2, 3])", _NOP, "nop([1, 2, 3])"),
]
