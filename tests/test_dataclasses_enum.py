"""Enums whose members are FFI singletons (``tvm_ffi.dataclasses.Enum/IntEnum/StrEnum``): what a
member is, how it is looked up, compared, printed, copied and serialised, attribute maps, and
fields typed with an enum. Declarations and their errors: test_dataclasses_enum_declare.py."""

from __future__ import annotations

import copy
import pickle
from typing import ClassVar

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import core, serialization
from tvm_ffi.dataclasses import Enum, EnumAttrMap, EnumState, IntEnum, StrEnum, auto, entry, py_class
from tvm_ffi.testing import _TestCxxEnumHolder, _TestCxxIntEnum, _TestCxxStrEnum


class Kind(Enum, type_key="test_enum.Kind"):
    alpha = auto()
    beta = entry()


class Color(IntEnum, type_key="test_enum.Color"):
    red = 1
    green = entry(value=2)
    crimson = 1  # the same payload: another name of red


class Op(StrEnum, type_key="test_enum.Op"):
    add = "+"
    sub = entry(value="-")


class Planet(Enum, type_key="test_enum.Planet"):
    mass: float
    moons: int
    earth = entry(mass=1.0, moons=1)
    mars = entry(mass=0.1, moons=2)


class Variant(Enum, type_key="testing.TestEnumVariant"):
    Alpha: ClassVar[Variant]
    Beta: ClassVar[Variant]


@py_class("test_enum.Pixel")
class Pixel(tvm_ffi.Object):
    color: Color
    op: Op
    kind: Kind


NOTE = Kind.def_attr("note")
NOTE[Kind.alpha] = "first"  # made here: the column lives as long as the enum
repr_print = tvm_ffi.get_global_func("ffi.ReprPrint")


def test_members_are_registered_singletons() -> None:
    assert list(Kind) == [Kind.alpha, Kind.beta] and len(Kind) == 2
    assert (Kind.alpha._int_index, Kind.alpha._str_index) == (0, "alpha")
    assert Kind.get(1).same_as(Kind.beta) and Kind.get("alpha").same_as(Kind.alpha)
    assert Color.crimson.same_as(Color.red) and len(Color) == 2
    assert list(Op.all_entries()) == [Op.add, Op.sub]
    state = core._lookup_type_attr(Color.__tvm_ffi_type_info__.type_index, "__ffi_enum__")
    assert isinstance(state, EnumState)
    assert dict(state.indexes.items()) == {1: Color.red, "red": Color.red, 2: Color.green, "green": Color.green}


def test_payload_enums_expose_name_and_value() -> None:
    green = Color.green
    assert (green.value, green.name, str(green), repr(green)) == (2, "green", "2", "Color.green")
    assert (Op.sub.value, Op.sub.name, str(Op.sub), repr(Op.sub)) == ("-", "-", "-", "Op.-")
    assert Color.red == 1 and Color.red != 2 and Color.red != 1.0 and Color.red != "red"
    assert Op.add == "+" and Op.add != "add"
    assert hash(Color.red) == hash(1) and hash(Op.add) == hash("+")


def test_plain_enums_compare_by_identity_and_print_as_type_key() -> None:
    assert repr(Kind.beta) == str(Kind.beta) == "test_enum.Kind.beta"
    assert Kind.alpha == Kind.get(0) and Kind.alpha != Kind.beta and Kind.alpha != 0
    assert not hasattr(Kind.alpha, "value")
    with pytest.raises(TypeError, match="'<' not supported"):
        assert Kind.alpha < Kind.beta


def test_calling_the_class_looks_a_member_up() -> None:
    assert Color(2).same_as(Color.green) and Color(True).same_as(Color.red) and Color("red").same_as(Color.red)
    assert Op("+").same_as(Op.add) and Kind(Kind.beta).same_as(Kind.beta)
    with pytest.raises(ValueError, match="3 is not a valid Color"):
        Color(3)
    with pytest.raises(ValueError, match="'add' is not a valid Op"):
        Op("add")
    with pytest.raises(KeyError, match="9"):
        Color.get(9)
    with pytest.raises(TypeError, match="enum index must be int or str, got float"):
        Color.get(1.5)
    with pytest.raises(OverflowError, match="outside int64"):
        Kind.get(2**70)


def test_repeated_lookups_are_one_dict_hit_and_misses_stay_misses() -> None:
    for _ in range(3):
        assert Color(2) is Color(2) and Color(2).same_as(Color.green)
        assert Color.get("green") is Color("green") and Op("-") is Op("-")
        assert Color(True).same_as(Color.red)
        with pytest.raises(ValueError, match="3 is not a valid Color"):
            Color(3)
    pixel = Pixel(color=2, op="+", kind=Kind.alpha)
    for _ in range(3):
        pixel.color = 1
        assert pixel.color.same_as(Color.red)
        with pytest.raises(TypeError, match="expected test_enum.Color, got int"):
            pixel.color = 3


def test_other_calls_make_unregistered_objects() -> None:
    loose = Color(_int_index=9, _str_index="x")
    assert repr(loose) == "Color.x" and loose.value == 9
    assert Color.get(1).same_as(Color.red) and 9 not in [c.value for c in Color]


def test_members_with_fields() -> None:
    assert (Planet.mars.mass, Planet.mars.moons, Planet.earth._int_index) == (0.1, 2, 0)
    fields = [(f.name, f.offset, f.frozen) for f in Planet.__tvm_ffi_type_info__.fields]
    assert fields == [("mass", 48, True), ("moons", 56, True)]  # after _int_index @24, _str_index @32
    with pytest.raises(AttributeError):
        Planet.earth.moons = 3


def test_runtime_layout_of_the_enum_types() -> None:
    def layout(key: str) -> list[tuple[str, int, int]]:
        info = core._lookup_or_register_type_info_from_type_key(key)
        return [(f.name, f.offset, f.size) for f in info.fields]

    assert layout("ffi.Enum") == [("_int_index", 24, 8), ("_str_index", 32, 16)]
    assert layout("ffi.IntEnum") == [("value", 24, 8)] and layout("ffi.StrEnum") == [("value", 32, 16)]
    assert layout("ffi.EnumState") == [("entries", 24, 8), ("indexes", 32, 8), ("attrs", 40, 8)]
    assert repr(EnumState()) == "ffi.EnumState(entries=[], indexes={}, attrs={})"


def test_cxx_entries_bind_by_name() -> None:
    get = tvm_ffi.get_global_func("testing.enum_variant_get")
    assert Variant.Alpha.same_as(get("Alpha")) and Variant.get("Beta").same_as(Variant.Beta)
    assert Variant.get(0).same_as(Variant.Alpha) and repr(Variant.Beta) == "testing.TestEnumVariant.Beta"
    assert Variant.attr_dict["code"][Variant.Alpha] == 10 and Variant.def_attr("code")[Variant.Beta] == 20
    with pytest.raises(ValueError, match="Enum `testing.TestEnumVariant` has no instance with index missing"):
        get("missing")
    with pytest.raises(TypeError, match="Expected `str` but got `int`"):
        get(1)


def test_attribute_maps() -> None:
    assert isinstance(NOTE, EnumAttrMap) and NOTE.name == "note"
    assert NOTE[Kind.alpha] == "first" and Kind.alpha in NOTE and Kind.beta not in NOTE
    assert NOTE.get(Kind.beta) is None and NOTE.get(Kind.beta, "-") == "-"
    assert Kind.def_attr("note", default="?")[Kind.beta] == "?"
    assert Kind.attr_dict["note"][Kind.alpha] == "first" and len(Op.attr_dict) == 0
    with pytest.raises(KeyError, match="test_enum.Kind.beta has no extensible attribute 'note'"):
        NOTE[Kind.beta]
    with pytest.raises(TypeError, match="expected Kind, got Color"):
        NOTE[Color.red]
    assert Color.red not in NOTE


def test_copy_deepcopy_pickle_and_json_keep_the_singleton() -> None:
    for member in (Kind.beta, Color.green, Op.sub, Variant.Alpha, Planet.mars):
        assert copy.deepcopy(member).same_as(member)
        assert pickle.loads(pickle.dumps(member)).same_as(member)
        assert tvm_ffi.get_global_func("ffi.DeepCopy")(member).same_as(member)
        assert serialization.from_json_graph_str(serialization.to_json_graph_str(member)).same_as(member)
        assert not copy.copy(member).same_as(member)  # a shallow copy is a new object
    graph = '{"root_index":0,"nodes":[{"type":"test_enum.Color","data":2}]}'
    assert serialization.to_json_graph_str(Color.green) == graph
    assert serialization.to_json_graph_str(Op.sub) == '{"root_index":0,"nodes":[{"type":"test_enum.Op","data":"-"}]}'
    with pytest.raises(ValueError, match="Enum `test_enum.Color` has no instance with index 99"):
        serialization.from_json_graph_str('{"root_index":0,"nodes":[{"type":"test_enum.Color","data":99}]}')
    with pytest.raises(TypeError, match="Cannot convert from type `int` to `str`"):
        serialization.from_json_graph_str('{"root_index":0,"nodes":[{"type":"test_enum.Kind","data":1}]}')


def test_members_print_inside_containers_and_objects() -> None:
    assert repr_print(tvm_ffi.Array([Color.red, Op.add, Kind.beta])) == \
        "(test_enum.Color.red, test_enum.Op.+, test_enum.Kind.beta)"
    assert tvm_ffi.structural.structural_equal(Color.red, Color.red)
    assert not tvm_ffi.structural.structural_equal(Color(_int_index=1, _str_index="red"), Color.red)


def test_enum_typed_fields_accept_payloads() -> None:
    pixel = Pixel(color=1, op="+", kind=Kind.beta)
    assert pixel.color.same_as(Color.red) and pixel.op.same_as(Op.add)
    pixel.color = 2
    pixel.op = "-"
    assert pixel.color.same_as(Color.green) and pixel.op.same_as(Op.sub)
    pixel.color = True
    assert pixel.color.same_as(Color.red)
    with pytest.raises(TypeError, match="conversion failed for test_enum.Color: expected test_enum.Color, got int"):
        pixel.color = 3
    with pytest.raises(TypeError, match="expected test_enum.Color, got test_enum.Op"):
        pixel.color = Op.add
    with pytest.raises(TypeError, match="expected test_enum.Op, got str"):
        pixel.op = "add"
    with pytest.raises(TypeError, match="expected test_enum.Kind, got int"):
        pixel.kind = 1  # plain enums take members only
    with pytest.raises(TypeError, match="type conversion failed for test_enum.Color"):
        Pixel(color=7, op="+", kind=Kind.beta)
    assert pixel.color.same_as(Color.red)  # the failed writes kept the old value
    back = serialization.from_json_graph_str(serialization.to_json_graph_str(pixel))
    assert back.color.same_as(Color.red) and back.op.same_as(Op.sub)
    assert repr(pixel) == "test_enum.Pixel(color=test_enum.Color.red, op=test_enum.Op.-, kind=test_enum.Kind.beta)"


def test_testing_enum_fixtures() -> None:
    assert (_TestCxxIntEnum.high.value, _TestCxxIntEnum.high.name, _TestCxxStrEnum.mul.name) == (20, "high", "*")
    assert _TestCxxIntEnum(20).same_as(_TestCxxIntEnum.high) and _TestCxxStrEnum("*").same_as(_TestCxxStrEnum.mul)
    assert repr_print(_TestCxxIntEnum.low) == "testing.TestCxxIntEnum.low"
    assert repr_print(_TestCxxStrEnum.mul) == "testing.TestCxxStrEnum.*"
    holder = _TestCxxEnumHolder(priority=20, opcode="*")
    assert holder.priority.same_as(_TestCxxIntEnum.high) and holder.opcode.same_as(_TestCxxStrEnum.mul)
    assert _TestCxxEnumHolder(10, "+").opcode.same_as(_TestCxxStrEnum.add)
    holder.priority = 10
    assert holder.priority.same_as(_TestCxxIntEnum.low)
    message = ("type conversion failed for testing.TestCxxIntEnum: expected testing.TestCxxIntEnum, got int\n"
               "  __ffi_convert__ failed:\n    Cannot cast from `int` to `testing.TestCxxIntEnum`")
    with pytest.raises(TypeError) as err:
        holder.priority = 99
    assert str(err.value) == message
    with pytest.raises(TypeError, match="expected testing.TestCxxStrEnum, got str"):
        holder.opcode = "/"
    assert holder.priority.same_as(_TestCxxIntEnum.low) and holder.opcode.same_as(_TestCxxStrEnum.mul)
    back = serialization.from_json_graph_str(serialization.to_json_graph_str(holder))
    assert back.priority.same_as(_TestCxxIntEnum.low) and back.opcode.same_as(_TestCxxStrEnum.mul)


def test_enum_type_attributes_in_the_runtime() -> None:
    for key in ("ffi.IntEnum", "testing.TestCxxIntEnum"):
        convert = core._lookup_type_attr(core._object_type_key_to_index(key), "__ffi_convert__")
        assert convert(_TestCxxIntEnum.low).same_as(_TestCxxIntEnum.low)
        with pytest.raises(TypeError, match=f"Cannot cast from `int` to `{key}`"):
            convert(10)
    new = core._lookup_type_attr(core._object_type_key_to_index("ffi.StrEnum"), "__ffi_new__")
    assert repr_print(new()) == "ffi.StrEnum."
    with pytest.raises(TypeError, match="Expected 0 but got 1 arguments"):
        new(1)
