"""gen_abi_cpp: the C++ header of Python-defined types pins the runtime's layout."""

from __future__ import annotations

from pathlib import Path

import pytest
import tvm_ffi
import tvm_ffi.cpp
import tvm_ffi.testing  # noqa: F401  (the C++ fixtures, registered before the leak checks)
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi.dataclasses import gen_abi_cpp, py_class


@py_class("dc_gen.Base")
class Base(tvm_ffi.Object):
    x: int
    flag: bool


@py_class("dc_gen.Point")
class Point(Base):
    y: float
    name: str
    items: list[int]
    other: Base | None


def test_header_declares_layout() -> None:
    text = gen_abi_cpp(["dc_gen.Point", "dc_gen.Base"])  # parents come first whatever the order
    assert text.startswith("#pragma once\n\n#include <tvm/ffi/tvm_ffi.h>\n")
    assert text.index("struct alignas(8) BaseObj : public ::tvm::ffi::Object {") < text.index(
        "struct alignas(8) PointObj : public ::dc_gen::BaseObj {")
    assert 'TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("dc_gen.Point", 2);' in text
    assert "  bool flag;  // offset=32, size=1, align=1\n" in text
    assert "  ::tvm::ffi::List<int64_t> items;  // offset=64, size=8, align=8\n" in text
    assert "  ::tvm::ffi::Any other;  // offset=72, size=16, align=8\n" in text
    assert "static_assert(sizeof(PointObj) == 88);" in text
    assert "static_assert(offsetof(PointObj, name) == 48);" in text
    assert text.count("namespace dc_gen {") == 2  # forward declarations, then definitions


def test_patterns_and_unknown_selector() -> None:
    assert "PointObj" in gen_abi_cpp("dc_gen.*")
    with pytest.raises(ValueError, match="Type-key selector 'no.such' did not match any registered type"):
        gen_abi_cpp("no.such")


def test_selects_cxx_registered_types_too() -> None:
    text = gen_abi_cpp("testing.TestIntPair")  # a wildcard or a key of any registered type
    assert 'TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("testing.TestIntPair", 1);' in text
    assert "struct alignas(8) TestIntPairObj : public ::tvm::ffi::Object {" in text
    assert "TestIntPairObj" in gen_abi_cpp("testing.TestInt*")


def test_child_selection_brings_its_dynamic_ancestors() -> None:
    text = gen_abi_cpp("dc_gen.Point")
    assert "struct alignas(8) BaseObj : public ::tvm::ffi::Object {" in text
    assert "declared elsewhere" not in text


def test_selector_matching_only_static_types_is_rejected() -> None:
    with pytest.raises(ValueError, match="did not match any registered object type"):
        gen_abi_cpp("int")  # a POD type key, not an object type


@py_class("dc_gen.Leaf")
class Leaf(tvm_ffi.Object):
    value: int


@py_class("dc_gen.Holder")
class Holder(tvm_ffi.Object):
    leaf: Leaf
    leaves: list[Leaf]
    by_name: dict[str, Leaf]


@py_class("dc_gen.\u0394elta")
class Delta(tvm_ffi.Object):
    count: int


def test_object_fields_are_typed_and_what_they_name_is_declared() -> None:
    text = gen_abi_cpp("dc_gen.Holder")
    assert "  ::tvm::ffi::Arc<::dc_gen::LeafObj> leaf;  // offset=24, size=8, align=8\n" in text
    assert "  ::tvm::ffi::List<::tvm::ffi::Arc<::dc_gen::LeafObj>> leaves;" in text
    assert "  ::tvm::ffi::Dict<::tvm::ffi::String, ::tvm::ffi::Arc<::dc_gen::LeafObj>> by_name;" in text
    # Leaf is not selected: forward-declared, marked an object type, and declared lookup-only.
    assert "struct LeafObj;" in text
    assert "tvm::ffi::is_object_subclass_v<::dc_gen::LeafObj> = true;" in text
    assert ('struct LeafObj : public ::tvm::ffi::Object {\n'
            '  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("dc_gen.Leaf", 1);\n};') in text


def test_names_that_are_not_identifiers_are_escaped() -> None:
    text = gen_abi_cpp("dc_gen.\u0394elta")
    assert "struct alignas(8) __ffi_escape_ce94656c7461Obj : public ::tvm::ffi::Object {" in text
    assert 'TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("dc_gen.\\316\\224elta", 1);' in text


def test_the_runtime_own_static_types_are_refused_or_skipped() -> None:
    with pytest.raises(ValueError, match="Static TVM-FFI type 'ffi.OpaquePyObject' is not supported"):
        gen_abi_cpp("ffi.OpaquePyObject")
    assert "struct alignas" not in gen_abi_cpp("ffi.Function")  # declared by the runtime's headers


def test_fields_whose_bytes_are_ambiguous_are_refused() -> None:
    # A C++-registered Optional<int64_t> and Optional<String> share one 16-byte layout class.
    with pytest.raises(ValueError, match="Ambiguous native Optional carrier for testing.SchemaAllTypes.v_opt_int"):
        gen_abi_cpp("testing.SchemaAllTypes")


def test_the_header_compiles_and_reads_live_objects(tmp_path: Path) -> None:
    source = gen_abi_cpp(["dc_gen.Holder", "dc_gen.Leaf", "dc_gen.Point"]) + r"""
        int64_t first_leaf_value(const ::dc_gen::HolderObj* holder) { return holder->leaf->value; }
        int64_t leaf_count(const ::dc_gen::HolderObj* holder) { return holder->leaves.size(); }
        int64_t inherited_x(const ::dc_gen::PointObj* point) {
          const ::dc_gen::BaseObj* base = point;
          return base->x;
        }
        """
    module = tvm_ffi.cpp.load_inline("dc_gen_abi_view", cpp_sources=source,
                                     functions=["first_leaf_value", "leaf_count", "inherited_x"],
                                     build_directory=str(tmp_path), keep_module_alive=False)
    holder = Holder(leaf=Leaf(value=7), leaves=[Leaf(value=1), Leaf(value=2)], by_name={})
    assert module.first_leaf_value(holder) == 7
    assert module.leaf_count(holder) == 2
    assert module.inherited_x(Point(x=5, flag=True, y=1.0, name="p", items=[], other=None)) == 5
    del module
