"""@c_class: C/C++-registered types (the testing fixtures) used as dataclasses."""

from __future__ import annotations

import copy
import inspect
import warnings
from collections.abc import Iterator

import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers the fixtures)
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import _core
from tvm_ffi._reflection import _type_info_of_index
from tvm_ffi.dataclasses import c_class, fields, is_dataclass, py_class, replace

_REBOUND = ("testing.TestIntPair", "testing.TestCxxAutoInitSimple")
_ORIGINAL = {key: _core._class_for_type_index(_core._object_type_key_to_index(key)) for key in _REBOUND}


@pytest.fixture(autouse=True, scope="module")
def _restore_fixture_classes() -> Iterator[None]:
    """c_class re-binds the fixtures' keys; later test modules expect tvm_ffi.testing's classes."""
    yield
    for key, cls in _ORIGINAL.items():
        index = _core._object_type_key_to_index(key)
        _core._register_object_class(index, cls)
        _type_info_of_index(index).type_cls = cls


@c_class("testing.TestIntPair")
class IntPair(tvm_ffi.Object):
    a: int
    b: int


@py_class("dc_ctest.SubPair")
class SubPair(IntPair):
    c: int


with warnings.catch_warnings(record=True) as _caught:
    warnings.simplefilter("always")

    @c_class("testing.TestCxxAutoInitSimple")
    class MySimple(tvm_ffi.Object):
        x: int


def test_c_class_fields_init_repr() -> None:
    p = IntPair(1, 2)
    assert (p.a, p.b) == (1, 2)
    assert repr(p) == "testing.TestIntPair(a=1, b=2)"
    assert [f.name for f in fields(p)] == ["a", "b"]
    assert str(inspect.signature(IntPair)) == "(a, b)"
    assert IntPair.__match_args__ == ("a", "b")
    assert is_dataclass(p) and is_dataclass(IntPair)


def test_c_class_read_only_fields() -> None:
    p = IntPair(1, 2)
    with pytest.raises(AttributeError, match="property of 'IntPair' object has no setter"):
        p.a = 3


def test_c_class_copy_and_replace() -> None:
    p = IntPair(1, 2)
    assert repr(copy.copy(p)) == repr(copy.deepcopy(p)) == "testing.TestIntPair(a=1, b=2)"
    assert repr(replace(p, b=7)) == "testing.TestIntPair(a=1, b=7)"


def test_py_class_child_of_c_type() -> None:
    s = SubPair(1, 2, 3)
    assert (s.a, s.b, s.c) == (1, 2, 3)
    assert str(inspect.signature(SubPair)) == "(a, b, c)"
    assert repr(s) == "dc_ctest.SubPair(a=1, b=2, c=3)"


def test_auto_init_type_and_unannotated_warning() -> None:
    assert any("does not annotate the following reflected field(s): y" in str(w.message) for w in _caught)
    assert str(inspect.signature(MySimple)) == "(x, y)"
    assert repr(MySimple(x=1, y=2)) == "testing.TestCxxAutoInitSimple(x=1, y=2)"


def test_unknown_key() -> None:
    with pytest.raises(ValueError, match="Cannot find object type index for no.such.Key"):
        c_class("no.such.Key")(type("K", (tvm_ffi.Object,), {}))


def test_fields_rejects_non_dataclasses() -> None:
    with pytest.raises(TypeError, match="got type"):
        fields(int)
    with pytest.raises(TypeError, match="got Array"):
        fields(tvm_ffi.Array([1]))
