"""The step-by-step form of ``@py_class`` that code building classes by hand calls:
``core._register_py_class``, ``TypeInfo._register_fields``, ``registry._add_class_attrs`` and
``_dunder._install_dataclass_dunders``."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core
from tvm_ffi._dunder import _install_dataclass_dunders
from tvm_ffi.core import TypeSchema
from tvm_ffi.dataclasses import MISSING, Field, fields
from tvm_ffi.registry import _add_class_attrs

_KEYS = itertools.count()


def _make(name: str, field_list: list[Field], *, eq: bool = False) -> Any:
    parent_info = core._type_cls_to_type_info(core.Object)
    assert parent_info is not None and parent_info.type_key == "ffi.Object"
    cls = type(name, (core.Object,), {"__slots__": ()})
    info = core._register_py_class(parent_info, f"low_level_test.{name}_{next(_KEYS)}", cls)
    assert info.fields is None  # nothing registered yet
    info._register_fields(field_list)  # type: ignore[attr-defined]
    cls.__tvm_ffi_type_info__ = info  # type: ignore[attr-defined]
    _add_class_attrs(cls, info)
    _install_dataclass_dunders(cls, init=True, repr=True, eq=eq, order=False, unsafe_hash=False)
    return cls


def test_a_class_built_step_by_step_works_like_a_py_class() -> None:
    Point = _make("Point", [Field(name="x", _ty_schema=TypeSchema("int"), default=MISSING, compare=True),
                            Field(name="label", _ty_schema=TypeSchema("str"), default="p")], eq=True)
    p = Point(3)
    assert (p.x, p.label) == (3, "p")
    assert p == Point(3, "p") and p != Point(4)
    assert [f.name for f in fields(Point)] == ["x", "label"]
    assert core._type_cls_to_type_info(Point) is Point.__tvm_ffi_type_info__
    # The object crosses the ABI and comes back as the class.
    assert type(tvm_ffi.get_global_func("testing.echo")(p)) is Point


def test_a_key_registers_once() -> None:
    parent_info = core._type_cls_to_type_info(core.Object)
    assert parent_info is not None
    key = f"low_level_test.Once_{next(_KEYS)}"
    core._register_py_class(parent_info, key, type("First", (core.Object,), {"__slots__": ()}))
    with pytest.raises(ValueError, match="already registered"):
        core._register_py_class(parent_info, key, type("Second", (core.Object,), {"__slots__": ()}))
    assert core._type_cls_to_type_info(int) is None


def test_a_multi_line_conversion_error_keeps_its_nesting_under_the_field() -> None:
    Sized = _make("Sized", [Field(name="shape", _ty_schema=TypeSchema("ffi.Shape"), default=MISSING)])
    with pytest.raises(TypeError) as err:
        Sized(shape=[1, "x"])
    message = str(err.value)
    assert message.startswith("low_level_test.Sized_")
    assert message.endswith(".__ffi_init__() field 'shape':\n"
                            "  expected ffi.Shape, got ffi.Array\n"
                            "    __ffi_convert__ failed:\n"
                            "      Cannot cast from `ffi.Array` to `ffi.Shape`")


@pytest.mark.parametrize(("cls", "type_key", "parent"), [
    (tvm_ffi.Tensor, "ffi.Tensor", tvm_ffi.Object),
    (core.DataType, "DataType", None),
    (tvm_ffi.Device, "Device", None),
    (tvm_ffi.Shape, "ffi.Shape", tvm_ffi.Object),
    (tvm_ffi.Function, "ffi.Function", tvm_ffi.Object),
    (core.Error, "ffi.Error", tvm_ffi.Object),
    (core.String, "ffi.String", tvm_ffi.Object),
    (core.Bytes, "ffi.Bytes", tvm_ffi.Object),
    (tvm_ffi.Module, "ffi.Module", tvm_ffi.Object),
    (tvm_ffi.Array, "ffi.Array", tvm_ffi.Object),
    (tvm_ffi.testing.TestObjectDerived, "testing.TestObjectDerived", tvm_ffi.testing.TestObjectBase),
])
def test_every_builtin_class_knows_its_type_info(cls: type, type_key: str, parent: type | None) -> None:
    info = core._type_cls_to_type_info(cls)
    assert info is not None and info.type_cls is cls and info.type_key == type_key
    if parent is None:
        assert info.parent_type_info is None
    else:
        assert info.parent_type_info is not None and info.parent_type_info.type_cls is parent


def test_classes_outside_the_ffi_have_no_type_info() -> None:
    assert core._type_cls_to_type_info(int) is None
    assert core._type_cls_to_type_info("ffi.Array") is None


def test_reflection_refresh_leaves_the_builtin_classes_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from tvm_ffi import _class_binding
    from tvm_ffi._reflection import TypeInfo

    builtins = (tvm_ffi.Tensor, core.String, tvm_ffi.Shape, core.DataType)
    for cls in builtins:
        assert core._type_cls_to_type_info(cls) is not None
    # As if a library had registered new reflection for every type: C types are immutable and
    # value classes are no objects, so nothing is bound on them.
    bound: list[type] = []
    monkeypatch.setattr(TypeInfo, "_refresh", lambda self: True)
    monkeypatch.setattr(_class_binding, "_bind_members", lambda cls, info: bound.append(cls))
    monkeypatch.setattr(_class_binding, "_drop_late_hook", lambda cls, info: None)
    _class_binding.refresh_bound_classes()
    assert bound and not set(bound) & set(builtins)
    assert tvm_ffi.Array in bound
