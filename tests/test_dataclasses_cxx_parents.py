"""py_class types derived from C++ (fixture) types: fields parent-first, the auto keyword init
over all fields, and C++ methods of a final parent rejecting the Python-defined child."""

from __future__ import annotations

import pytest
import tvm_ffi.testing as t
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi.dataclasses import py_class


@py_class("dc_cxx.SubPair")
class SubPair(t.TestIntPair):
    c: int


@py_class("dc_cxx.SubBase")
class SubBase(t.TestObjectBase):
    k: int = 5


def test_child_of_a_final_cxx_type_gets_all_fields_but_not_its_methods() -> None:
    sub = SubPair(1, 2, 3)
    assert (sub.a, sub.b, sub.c) == (1, 2, 3) and repr(sub) == "dc_cxx.SubPair(a=1, b=2, c=3)"
    # TestIntPair is final in C++: its methods accept exactly that type.
    with pytest.raises(TypeError, match="Mismatched type on argument #0 when calling: `testing.TestIntPair.sum"
                                        r".*Expected `testing.TestIntPair` but got `dc_cxx.SubPair`"):
        sub.sum()
    assert t.TestIntPair(1, 2).sum() == 3


def test_child_of_a_non_final_cxx_type_uses_its_methods() -> None:
    sub = SubBase(v_i64=12)
    assert sub.add_i64(1) == 13 and sub.k == 5
