"""C code reads and writes a py_class's fields through the runtime's reflection only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tvm_ffi
from conftest import REPO_ROOT, Runtime, compile_c
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi.dataclasses import py_class

SOURCE = REPO_ROOT / "tests" / "c" / "plugins" / "reflection_reader_lib.c"


@py_class("dc_crefl.Base")
class Base(tvm_ffi.Object):
    x: int
    flag: bool


@py_class("dc_crefl.Item")
class Item(Base):
    name: str
    scale: float
    items: list[int]
    child: Base | None = None


@pytest.fixture(scope="module")
def reader(plain_runtime: Runtime, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    library = compile_c(plain_runtime, [SOURCE], tmp_path_factory.mktemp("reader") / "reader.so", shared=True)
    module = tvm_ffi.load_module(Path(library))
    for name in ("field_names", "read_field", "write_field"):
        getattr(module, name)  # looked up once: the module keeps its functions
    yield module
    del module


def test_c_reads_py_class_fields(reader: Any) -> None:
    child = Base(7, False)
    item = Item(3, True, "a longer name string", 0.5, [1, 2], child)
    assert reader.field_names(item) == "x,flag,name,scale,items,child"
    assert reader.read_field(item, "x") == 3
    assert reader.read_field(item, "flag") is True
    assert reader.read_field(item, "name") == "a longer name string"
    assert reader.read_field(item, "scale") == 0.5
    assert list(reader.read_field(item, "items")) == [1, 2]
    got = reader.read_field(item, "child")
    assert type(got) is Base and got.same_as(child)  # identity and class survive the round trip


def test_c_writes_go_through_the_converter(reader: Any) -> None:
    item = Item(3, True, "n", 0.5, [])
    reader.write_field(item, "x", 10)
    reader.write_field(item, "items", [4, 5])
    assert item.x == 10 and list(item.items) == [4, 5] and type(item.items) is tvm_ffi.List
    with pytest.raises(TypeError, match="expected int, got str"):
        reader.write_field(item, "x", "no")
    with pytest.raises(TypeError, match=r"element \[0\]: expected int, got str"):
        reader.write_field(item, "items", ["a"])
