"""Container cases: building, reading and passing Array/Map through the public API."""

from __future__ import annotations

from cases import Case

_IMPORTS = "import tvm_ffi\n"
_ARR = _IMPORTS + "arr = tvm_ffi.Array([1, 2, 3])\narr2 = tvm_ffi.Array([1, 2, 3])\n"
_MAP = _IMPORTS + "m = tvm_ffi.Map({'a': 1})\n"
_BIG = _IMPORTS + "big = tvm_ffi.Array(range(1000))\n"
_NOP = _IMPORTS + "import tvm_ffi.testing\nnop = tvm_ffi.get_global_func('testing.nop')\n"

# Issue target for these cases: at most half the reference's time.
_TARGET = 0.5

CASES = [
    Case("Array([1,2,3])", _IMPORTS, "tvm_ffi.Array([1, 2, 3])", ref_target=_TARGET),
    Case("Map({'a': 1})", _IMPORTS, "tvm_ffi.Map({'a': 1})", ref_target=_TARGET),
    Case("arr[1]", _ARR, "arr[1]", ref_target=_TARGET),
    Case("len(arr)", _ARR, "len(arr)", ref_target=_TARGET),
    Case("hash(arr)", _ARR, "hash(arr)", ref_target=_TARGET),
    Case("arr == arr2", _ARR, "arr == arr2", ref_target=_TARGET),
    Case("arr == [1, 2, 3]", _ARR, "arr == [1, 2, 3]", ref_target=_TARGET),
    Case("2 in arr", _ARR, "2 in arr", ref_target=_TARGET),
    Case("m['a']", _MAP, "m['a']", ref_target=_TARGET),
    Case("iterate 1000-element Array", _BIG, "for _ in big: pass", ref_target=_TARGET),
    Case("nop([1, 2, 3])", _NOP, "nop([1, 2, 3])", ref_target=_TARGET),
    # An object in and out of a call: the result gets a Python wrapper of its own.
    Case("echo(arr)", _ARR + "echo = tvm_ffi.get_global_func('testing.echo')\n", "echo(arr)"),
    Case("'a' in m", _MAP, "'a' in m", ref_target=_TARGET),
    Case("m.items() of 20 entries", _IMPORTS + "m = tvm_ffi.Map({str(i): i for i in range(20)})\n",
         "for _ in m.items(): pass", ref_target=_TARGET),
    # A dense map (past four entries): keys read in insertion order through its linked slots.
    Case("iterate 100-key Dict", _IMPORTS + "d = tvm_ffi.Dict({i: i for i in range(100)})\n",
         "for _ in d: pass", ref_target=_TARGET),
    Case("len(m)", _MAP, "len(m)", ref_target=_TARGET),
]
