"""tvm_ffi.access_path: building, printing and comparing access paths."""

from __future__ import annotations

import copy

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi.access_path import AccessKind, AccessPath, AccessStep


def test_paths_print_from_the_root() -> None:
    root = AccessPath.root()
    assert str(root) == "<root>" and root.depth == 0 and root.parent is None and root.step is None
    p = root.attr("a").array_item(2).map_item("k").array_item(3).map_item(None).map_item(1.5).map_item(True)
    assert str(p) == '<root>.a[2]["k"][3][None][1.5][True]'
    missing = root.attr_missing("x").array_item_missing(4).map_item_missing("y").array_item_missing(7)
    assert str(missing) == '<root>[<missing:"x">][<missing:4>][<missing:"y">][<missing:7>]'
    assert str(root.map_item((1, 2))) == "<root>[(1, 2)]"
    assert str(root.map_item('a"b\n')) == '<root>["a\\"b\\n"]'
    assert str(root.array_item(-1)) == "<root>[-1]"
    assert str(root.attr("with space").attr("")) == "<root>.with space."


def test_steps_and_kinds() -> None:
    p = AccessPath.root().attr("a").map_item("k")
    steps = p.to_steps()
    assert [s.kind for s in steps] == [AccessKind.ATTR, AccessKind.MAP_ITEM]
    assert [s.key for s in steps] == ["a", "k"]
    assert isinstance(steps[0], AccessStep) and repr(steps[0]) == ".a" and repr(steps[1]) == '["k"]'
    assert list(AccessPath.root().to_steps()) == []
    assert p.parent == AccessPath.root().attr("a") and p.depth == 2


def test_equality_and_prefix() -> None:
    root = AccessPath.root()
    a = root.attr("a")
    assert a == root.attr("a") and a != root.attr("b") and a != "a"
    assert root.map_item(1) != root.map_item(True) and root.map_item(1) != root.map_item(1.0)
    assert root.map_item("abc") == root.map_item(tvm_ffi.convert("abc"))
    child = a.array_item(0)
    assert a.is_prefix_of(child) and a.is_prefix_of(a) and root.is_prefix_of(child)
    assert not child.is_prefix_of(a) and not root.attr("b").is_prefix_of(child)
    assert root.attr("a").is_prefix_of(child)


def test_construction_errors() -> None:
    with pytest.raises(ValueError, match="AccessPath.root"):
        AccessPath()
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        AccessStep()
    with pytest.raises(TypeError, match="argument #1"):
        AccessPath.root().array_item("x")  # type: ignore[arg-type]


def test_argument_errors_name_the_typed_method() -> None:
    # The reference's text: its AccessPath methods are typed C++ functions.
    with pytest.raises(TypeError) as err:
        AccessPath.root().attr(None)  # type: ignore[arg-type]
    assert str(err.value) == (
        "Mismatched type on argument #1 when calling: `ffi.reflection.AccessPath._attr(0: "
        "ffi.reflection.AccessPath, 1: str) -> ffi.reflection.AccessPath`. Expected `str` but got `None`")


def test_reflection_carries_the_type_schemas() -> None:
    info = AccessPath.__tvm_ffi_type_info__
    assert [(f.name, str(f.ty)) for f in info.fields] == [
        ("parent", "Object | None"), ("step", "ffi.reflection.AccessStep | None"), ("depth", "int")]
    methods = {m.name: m for m in info.methods}
    schema = tvm_ffi.core.TypeSchema.from_json_str(methods["_to_steps"].metadata["type_schema"])
    assert str(schema) == "Callable[[ffi.reflection.AccessPath], Array[ffi.reflection.AccessStep]]"
    assert methods["_root"].is_static
    # An empty instance from the native creator, as the reference registers for such types.
    empty = tvm_ffi.core._lookup_type_attr(info.type_index, "__ffi_new__")()
    assert type(empty) is AccessPath and empty.depth == 0
    # Type methods only: the reference registers no global functions for them.
    assert not [name for name in tvm_ffi.registry.list_global_func_names() if "AccessPath" in name
                and name != "ffi.VisitErrorContext.FindAccessPaths"]


def test_paths_and_steps_copy() -> None:
    path = AccessPath.root().attr("x").array_item(2)
    shallow = copy.copy(path)  # a new path over the same parent and step objects
    assert not shallow.same_as(path) and shallow == path and str(shallow) == "<root>.x[2]"
    assert shallow.parent.same_as(path.parent) and shallow.step.same_as(path.step) and shallow.depth == 2
    deep = copy.deepcopy(path)
    assert deep == path and not deep.parent.same_as(path.parent)
    step = copy.copy(path.step)
    assert not step.same_as(path.step) and (step.kind, step.key) == (AccessKind.ARRAY_ITEM, 2)
    assert copy.copy(AccessPath.root()).depth == 0
