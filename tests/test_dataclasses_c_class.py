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
    with pytest.raises(AttributeError, match="property of 'IntPair' object has no setter|can't set attribute"):
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


def test_fields_carry_resolved_annotations() -> None:
    # `from __future__ import annotations` makes them strings; fields() reports the types.
    assert [f.type for f in fields(IntPair)] == [int, int]
    assert [f.type for f in fields(MySimple)] == [int, None]  # `y` is not annotated


def test_init_signature_names_self_first() -> None:
    assert str(inspect.signature(IntPair.__init__)) == "(self, a, b)"
    assert str(inspect.signature(IntPair(1, 2).__init__)) == "(a, b)"


def test_decorators_are_dataclass_transforms() -> None:
    for decorator in (c_class, py_class):
        marker = decorator.__dataclass_transform__  # type: ignore[attr-defined]
        assert marker["field_specifiers"] == (tvm_ffi.dataclasses.Field, tvm_ffi.dataclasses.field)
        assert not marker["eq_default"] and not marker["order_default"]
        assert marker["kwargs"]["converter"] is tvm_ffi.dataclasses.field().converter


def test_field_objects_and_annotation_warning_helpers() -> None:
    from tvm_ffi.dataclasses.c_class import _attach_field_objects
    from tvm_ffi.registry import _warn_missing_field_annotations

    info = IntPair.__tvm_ffi_type_info__  # type: ignore[attr-defined]
    saved = [tf.dataclass_field for tf in info.fields]
    try:
        _attach_field_objects(type("Bare", (), {}), info)  # no annotations: no types
        assert [tf.dataclass_field.type for tf in info.fields] == [None, None]

        class Broken:
            a: UndefinedName  # type: ignore[name-defined]  # noqa: F821

        _attach_field_objects(Broken, info)  # unresolvable hints are dropped, not raised
        assert [tf.dataclass_field.type for tf in info.fields] == [None, None]
    finally:
        for tf, field in zip(info.fields, saved):
            tf.dataclass_field = field
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _warn_missing_field_annotations(type("Half", (), {"__annotations__": {"a": int}}), info)
        _warn_missing_field_annotations(IntPair, info)
    assert len(caught) == 1 and "does not annotate the following reflected field(s): b" in str(caught[0].message)
