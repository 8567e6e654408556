"""Reflection cases: constructing a reflected object, reading a field, calling a method.

Both packages expose the fixture type `testing.TestIntPair` as `tvm_ffi.testing.TestIntPair`.
"""

from __future__ import annotations

from cases import Case

_IMPORTS = "import tvm_ffi, tvm_ffi.testing\nTestIntPair = tvm_ffi.testing.TestIntPair\n"
_PAIR = _IMPORTS + "p = TestIntPair(1, 2)\n"

CASES = [
    # Issue 11 targets: construct <= 0.3x, field read and method call <= 0.5x the reference.
    Case("TestIntPair(1, 2)", _IMPORTS, "TestIntPair(1, 2)", ref_target=0.3),
    Case("p.a", _PAIR, "p.a", ref_target=0.5, floor_target=1.3),
    Case("p.sum()", _PAIR, "p.sum()", ref_target=0.5),
]
