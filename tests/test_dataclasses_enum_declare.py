"""Declaring enums (``class E(Enum|IntEnum|StrEnum, type_key=...)``): how members are declared and
registered, and every declaration error. Each declaration registers runtime types for good, so
this module does not use the per-test leak check."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from tvm_ffi import core
from tvm_ffi.dataclasses import Enum, IntEnum, StrEnum, auto, entry


def declare(name: str, base: type, body: dict[str, Any], **options: Any) -> Any:
    return type(name, (base,), body, **options)


def test_binders_auto_and_entries_in_declaration_order() -> None:
    class Shape(Enum, type_key="test_enum_decl.Shape"):
        circle: ClassVar[Shape]  # binders come first: a new member for a plain enum
        square = auto()
        hexagon = entry()

    assert [m._str_index for m in Shape] == ["circle", "square", "hexagon"]
    assert [m._int_index for m in Shape] == [0, 1, 2]
    assert Shape.__tvm_ffi_type_info__.type_key == "test_enum_decl.Shape"
    assert "square" not in Shape.__dict__ or Shape.__dict__["square"].same_as(Shape.square)


def test_methods_and_private_names_are_not_members() -> None:
    class Level(IntEnum, type_key="test_enum_decl.Level"):
        low = 1
        _scale = 10

        def scaled(self) -> int:
            return self.value * self._scale

        @property
        def doubled(self) -> int:
            return self.value * 2

    assert len(Level) == 1 and Level.low.scaled() == 10 and Level.low.doubled == 2


def test_a_body_repr_wins_and_frozen_fields() -> None:
    class Tone(StrEnum, type_key="test_enum_decl.Tone"):
        high = "h"

        def __repr__(self) -> str:
            return f"<tone {self.value}>"

    assert repr(Tone.high) == "<tone h>" and Tone.high.name == "h"


def test_without_type_key_nothing_is_registered() -> None:
    class Abstract(Enum):
        x = entry(1, label="a")

    assert repr(Abstract.__dict__["x"]) == "entry(1, label='a')"
    assert len(Abstract) == 0 and repr(auto()) == "entry()"
    assert Abstract.__tvm_ffi_type_info__.type_key == "ffi.Enum"


def test_state_is_registered_as_the_type_attribute() -> None:
    class Mode(Enum, type_key="test_enum_decl.Mode"):
        on = auto()

    state = core._lookup_type_attr(Mode.__tvm_ffi_type_info__.type_index, "__ffi_enum__")
    assert list(state.entries) == [Mode.on] and len(state.attrs) == 0


@pytest.mark.parametrize(("name", "base", "body", "error", "message"), [
    ("E1", IntEnum, {"a": "x"}, TypeError, "E1.a value must be int"),
    ("E2", IntEnum, {"a": entry()}, TypeError, "E2.a requires a int value"),
    ("E4", StrEnum, {"a": 1}, TypeError, "E4.a value must be str"),
    ("E5", IntEnum, {"__annotations__": {"value": int}}, TypeError,
     "IntEnum reserves `value` as its canonical index alias"),
    ("E5s", StrEnum, {"value": "v"}, TypeError, "StrEnum reserves `value` as its canonical index alias"),
    ("E6", Enum, {"a": entry(_int_index=3)}, TypeError, "E6.a: enum indices are inferred"),
    ("E7", IntEnum, {"a": 2**64}, OverflowError, "enum integer index 18446744073709551616 is outside int64"),
    ("E8", IntEnum, {"__annotations__": {"a": "ClassVar[E8]"}}, TypeError, "E8.a requires an integer value"),
    ("E10", Enum, {"a": entry(nope=1)}, TypeError,
     "E10.a: invalid enum entry: test_enum_decl.E10.__ffi_init__() got an unexpected keyword argument 'nope'"),
])
def test_declaration_errors(name: str, base: type, body: dict[str, Any], error: type[Exception],
                            message: str) -> None:
    with pytest.raises(error) as err:
        declare(name, base, body, type_key=f"test_enum_decl.{name}")
    assert str(err.value) == message


def test_binding_a_name_cxx_did_not_register() -> None:
    get = core._get_global_func("testing.enum_variant_get", False)
    bound_before = type(get("Alpha"))
    with pytest.raises(RuntimeError, match="'testing.TestEnumVariant' has no enum at string index 'Missing'"):
        declare("V", Enum, {"__annotations__": {"Missing": "ClassVar[V]"}}, type_key="testing.TestEnumVariant")
    assert type(get("Alpha")) is bound_before  # the failed declaration left the binding alone


def test_cxx_backed_entries_take_keyword_fields_only() -> None:
    with pytest.raises(TypeError, match=r"Hue.x: invalid enum entry: .*keyword fields only"):
        declare("Hue", IntEnum, {"x": entry(1, value=3)}, type_key="testing.TestCxxIntEnum")


def test_a_key_python_already_defined_cannot_be_declared_again() -> None:
    declare("Once", Enum, {"a": auto()}, type_key="test_enum_decl.Once")
    with pytest.raises(ValueError, match="Type key 'test_enum_decl.Once' is already registered"):
        declare("Twice", Enum, {"a": auto()}, type_key="test_enum_decl.Once")


def test_entry_and_auto_leave_markers_that_show_their_arguments() -> None:
    from tvm_ffi.dataclasses.enum import _EnumEntry

    marker = entry(3, label="three")
    assert isinstance(marker, _EnumEntry)
    assert (marker.args, marker.kwargs) == ((3,), {"label": "three"})
    assert repr(marker) == "entry(3, label='three')"
    first, second = auto(), auto()
    assert first is not second and (first.args, first.kwargs) == ((), {})
