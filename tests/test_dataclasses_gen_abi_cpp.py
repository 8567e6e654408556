"""gen_abi_cpp: the C++ header of Python-defined types pins the runtime's layout."""

from __future__ import annotations

import pytest
import tvm_ffi
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
    import tvm_ffi.testing  # noqa: F401  (the C++ fixtures)

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
