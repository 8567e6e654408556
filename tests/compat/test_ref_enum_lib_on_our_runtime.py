"""A C++ library built against the REFERENCE's headers declares enums with ``refl::EnumDef``
(kernels/ref_enum_lib.cc): its members, canonical indices and ``degrees`` attribute, made by
the library at load time, are bound and extended from OUR Python package on OUR runtime, and
the library's own lookups (``EnumObj::_GetByIntIndex`` / ``_GetByStrIndex``, ``IsDefined``)
see the members Python adds."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
import tvm_ffi
from tvm_ffi.dataclasses import Enum, IntEnum, StrEnum, c_class, entry

from .conftest import KERNELS_DIR, Reference, build_kernel


@pytest.fixture(scope="module")
def demo(reference: Reference, tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("ref_enum_lib")
    build_kernel(KERNELS_DIR / "ref_enum_lib.cc", out / "libdemo_enum.so",
                 include_dir=reference.include_dir, link_dir=reference.lib_dir)
    tvm_ffi.libinfo.load_lib_module("demo-enum", "demo_enum", extra_lib_paths=[out])

    class Direction(Enum, type_key="demo.Direction"):
        North: ClassVar[Direction]
        East: ClassVar[Direction]
        South: ClassVar[Direction]

    class Level(IntEnum, type_key="demo.Level"):
        low: ClassVar[Level]
        high: ClassVar[Level]
        mid = entry(value=5)  # a member Python adds to the C++ enum

    class Unit(StrEnum, type_key="demo.Unit"):
        Meter: ClassVar[Unit]
        Second: ClassVar[Unit]

    @c_class("demo.Reading")
    class Reading(tvm_ffi.Object):
        level: IntEnum
        unit: StrEnum

    return type("Demo", (), {"Direction": Direction, "Level": Level, "Unit": Unit, "Reading": Reading})


def test_cxx_entries_are_bound_in_registration_order(demo: Any) -> None:
    assert list(demo.Direction) == [demo.Direction.North, demo.Direction.East, demo.Direction.South]
    assert repr(demo.Direction.East) == "demo.Direction.East"
    assert (demo.Direction.South._int_index, demo.Direction.South._str_index) == (2, "South")
    assert (demo.Level.low.value, demo.Level.high.value, demo.Level.high.name) == (1, 10, "high")
    assert (demo.Unit.Second.value, demo.Unit.Second._int_index) == ("Second", 1)


def test_cxx_attributes_are_readable_and_extensible(demo: Any) -> None:
    degrees = demo.Direction.def_attr("degrees")
    assert [degrees[d] for d in demo.Direction] == [0, 90, 180]
    assert demo.Direction.attr_dict["degrees"][demo.Direction.East] == 90
    label = demo.Direction.def_attr("label", default="?")
    label[demo.Direction.North] = "up"
    assert (label[demo.Direction.North], label[demo.Direction.South]) == ("up", "?")


def test_the_library_finds_members_python_added(demo: Any) -> None:
    level_by_value = tvm_ffi.get_global_func("demo.level_by_value")
    assert level_by_value(10).same_as(demo.Level.high)
    assert level_by_value(5).same_as(demo.Level.mid)
    assert tvm_ffi.get_global_func("demo.direction_by_name")("South").same_as(demo.Direction.South)
    assert tvm_ffi.get_global_func("demo.is_defined")("East") is True
    assert tvm_ffi.get_global_func("demo.is_defined")("West") is False
    assert tvm_ffi.get_global_func("demo.describe")(demo.Level.mid) == "mid#5"
    with pytest.raises(ValueError, match="Enum `demo.Level` has no instance with index 7"):
        level_by_value(7)


def test_lookup_by_payload_and_fields(demo: Any) -> None:
    assert demo.Level(10).same_as(demo.Level.high)
    assert demo.Unit("Meter").same_as(demo.Unit.Meter)
    with pytest.raises(ValueError, match="7 is not a valid Level"):
        demo.Level(7)
    reading = demo.Reading(level=demo.Level.mid, unit=demo.Unit.Second)
    assert reading.level.same_as(demo.Level.mid)
    graph = tvm_ffi.serialization.to_json_graph_str(reading)
    back = tvm_ffi.serialization.from_json_graph_str(graph)
    assert back.level.same_as(demo.Level.mid) and back.unit.same_as(demo.Unit.Second)
