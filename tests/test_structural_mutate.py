"""The mutate half of tvm_ffi.structural: structural_map (pre/post-order replacement callbacks,
def regions), structural_mutate (callbacks own descent, in-place mode), StructuralMutator,
InplaceMode, `__s_mutate__` hooks, copy-on-write vs in-place with ``_move()``, and errors."""

from __future__ import annotations

from typing import Any

import pytest
import tvm_ffi
import tvm_ffi.structural
import tvm_ffi.testing
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import DefRegionKind, InplaceMode, StructuralMutator, structural_map, structural_mutate
from tvm_ffi.dataclasses import field, py_class
from tvm_ffi.testing import _ffi_api as testing_api


@py_class("testing.mutate.Var", structural_eq="var")
class Var(tvm_ffi.Object):
    name: str = field(structural_eq="ignore")


@py_class("testing.mutate.Int", structural_eq="tree")
class Int(tvm_ffi.Object):
    value: int


@py_class("testing.mutate.Add", structural_eq="tree")
class Add(tvm_ffi.Object):
    lhs: Any
    rhs: Any


@py_class("testing.mutate.Func", structural_eq="tree")
class Func(tvm_ffi.Object):
    params: list = field(structural_eq="def")
    body: Any = None


@py_class("testing.mutate.Wrapped", structural_eq="tree")
class Wrapped(tvm_ffi.Object):
    """Its hook doubles the wrapped int instead of descending into it."""

    inner: Any

    def __s_mutate__(mutator, self):  # type: ignore[no-untyped-def]  # noqa: N805
        return Wrapped(self.inner * 2)


HOOK_CALLS: list[str] = []


@py_class("testing.mutate.Box", structural_eq="tree")
class Box(tvm_ffi.Object):
    """Both hooks: the in-place one runs only for a uniquely owned Box."""

    item: Any

    def __s_mutate__(mutator, self):  # type: ignore[no-untyped-def]  # noqa: N805
        HOOK_CALLS.append("copy")
        return Box(mutator.mutate(self.item))

    def __s_maybe_inplace_mutate__(mutator, self):  # type: ignore[no-untyped-def]  # noqa: N805
        HOOK_CALLS.append("in-place")
        self.item = mutator.mutate(self.item)
        return self


def fold(expr: Add) -> Any:
    if isinstance(expr.lhs, Int) and isinstance(expr.rhs, Int):
        return Int(expr.lhs.value + expr.rhs.value)
    return expr


def test_public_names_and_enum_values() -> None:
    assert [int(m) for m in InplaceMode] == [0, 1]
    for name in ("InplaceMode", "StructuralMutator", "structural_map", "structural_mutate",
                 "structural_visit"):
        assert getattr(tvm_ffi, name) is getattr(tvm_ffi.structural, name)
        assert name in tvm_ffi.structural.__all__
    assert StructuralMutator.__module__ == "tvm_ffi.structural"
    names = set(tvm_ffi.registry.list_global_func_names())
    for suffix in ("DefRegionKind", "DefaultMutate", "Mutate", "VarRemapGet", "VarRemapSet",
                   "WithDefRegionKind"):
        assert f"ffi.StructuralMutator{suffix}" in names
    assert {"ffi.StructuralMap", "ffi.StructuralMutate"} <= names


def test_map_folds_bottom_up_in_post_order() -> None:
    expr = Add(Add(Int(1), Int(2)), Int(3))
    assert repr(structural_map(expr, (Add, fold))) == "testing.mutate.Int(value=6)"


def test_map_copies_only_the_changed_path() -> None:
    expr = Add(Int(1), Int(2))
    assert structural_map(expr, (Int, lambda i: i)).same_as(expr)
    mapped = structural_map(expr, (Int, lambda i: Int(20) if i.value == 2 else i))
    assert not mapped.same_as(expr)
    assert mapped.lhs.same_as(expr.lhs)
    assert (mapped.rhs.value, expr.rhs.value) == (20, 2)  # the input is untouched


def test_map_pre_order_descends_into_the_replacement() -> None:
    grow = (tvm_ffi.Array, lambda a: tvm_ffi.Array([*a, 9]))
    assert repr(structural_map([[1]], grow, order="pre")) == "((1, 9), 9)"
    assert repr(structural_map([[1]], grow, order=tvm_ffi.WalkOrder.POSTORDER)) == "((1, 9), 9)"
    bump = (Int, lambda i: Int(i.value + 1))
    assert repr(structural_map([Int(1), [Int(2)]], bump, order="pre")) == (
        "(testing.mutate.Int(value=2), (testing.mutate.Int(value=3),))")


def test_map_over_containers_and_leaves() -> None:
    double = (int, lambda v: v * 2)
    assert repr(structural_map([1, 2, "a"], double)) == '(2, 4, "a")'
    assert repr(structural_map({"a": 1, "b": 2}, double)) == '{"a": 2, "b": 4}'
    assert repr(structural_map(tvm_ffi.Dict({"a": 1}), double)) == '{"a": 2}'
    assert repr(structural_map(tvm_ffi.List([1, 2]), double)) == "[2, 4]"
    assert structural_map(5, lambda v: v) == 5
    assert structural_map(None, lambda v: 7) == 7  # callbacks see None too
    assert structural_map("abc", (str, lambda v: v + "!")) == "abc!"
    assert structural_map(2**70, lambda v: v) == 2**70


def test_map_reports_def_regions_and_renames_uses_of_a_variable() -> None:
    x = Var("x")
    func = Func([x], Add(x, Int(1)))
    seen: list[tuple[str, DefRegionKind]] = []

    def record(var: Var, kind: DefRegionKind) -> Var:
        seen.append((var.name, kind))
        return var

    assert structural_map(func, with_def_region_kind=(Var, record)).same_as(func)
    assert seen == [("x", DefRegionKind.DEF_PATTERN), ("x", DefRegionKind.NONE)]
    assert all(type(kind) is DefRegionKind for _, kind in seen)

    def rename(value: Any, m: StructuralMutator) -> Any:
        if isinstance(value, Func):
            m.var_remap_set(value.params[0], Var("y"))
        return m.default_mutate(value)

    renamed = structural_mutate(func, (Func, rename))
    assert renamed.params[0].name == renamed.body.lhs.name == "y"
    assert renamed.params[0].same_as(renamed.body.lhs)


def test_region_fixture_fields_and_setters() -> None:
    graph = testing_api.make_visit_region_graph(False)
    kinds: list[tuple[int, int]] = []
    structural_map(graph, with_def_region_kind=(int, lambda v, k: kinds.append((v, int(k))) or v))
    assert kinds == [(1, 2), (2, 1), (3, 0)]
    assert repr(structural_map(graph, (int, lambda v: v + 1))) == (
        "testing.TestVisitRegions(simple=2, pattern=3, ordinary=4)")


def test_mutate_callbacks_own_descent() -> None:
    assert repr(structural_mutate(Add(Int(1), Int(2)), (Int, lambda v, m: Int(v.value + 100)))) == (
        "testing.mutate.Add(lhs=testing.mutate.Int(value=101), rhs=testing.mutate.Int(value=102))")
    # A matched callback that does not descend prunes the subtree.
    seen: list[int] = []
    root = tvm_ffi.Array([[1]])
    pruned = structural_mutate(root, [(tvm_ffi.Array, lambda v, m: v), (int, lambda v, m: seen.append(v))])
    assert pruned.same_as(root) and seen == []
    nested = structural_mutate([1, [2]], (tvm_ffi.Array, lambda v, m: [m.mutate(x) for x in v]))
    assert repr(nested) == "(1, (2,))"
    assert structural_mutate(5, (int, lambda v, m: m.default_mutate(v))) == 5


def test_mutate_passes_the_inplace_mode_to_callbacks_that_take_it() -> None:
    modes: list[int] = []

    def record(value: Any, m: StructuralMutator, mode: int) -> Any:
        modes.append(mode)
        return m.default_mutate(value)

    expr = Add(Int(1), Int(2))
    structural_mutate(expr, (Add, record))
    structural_mutate(Add(Int(1), Int(2))._move(), (Add, record))
    assert modes == [InplaceMode.DISALLOW, InplaceMode.ALLOW]
    assert all(type(mode) is int for mode in modes)


def test_moved_containers_are_updated_in_place() -> None:
    items = tvm_ffi.List([1, 2, 3])
    copied = structural_map(items, (int, lambda v: v + 1))
    assert (list(copied), list(items)) == ([2, 3, 4], [1, 2, 3])
    handle = items.__chandle__()
    moved = structural_map(items._move(), (int, lambda v: v + 1))
    assert list(moved) == [2, 3, 4] and moved.__chandle__() == handle
    assert items.__chandle__() == 0
    array = tvm_ffi.Array([1, 2])
    handle = array.__chandle__()
    assert structural_map(array._move(), (int, lambda v: v + 1)).__chandle__() == handle
    # Reflected objects have no in-place hook: they are copied even when moved.
    expr = Add(Int(1), Int(2))
    handle = expr.__chandle__()
    assert structural_map(expr._move(), (int, lambda v: v + 1)).__chandle__() != handle


def test_type_hooks_replace_default_descent() -> None:
    assert structural_map([Wrapped(3)], lambda v: v)[0].inner == 6


def test_inplace_hook_runs_only_for_uniquely_owned_values() -> None:
    HOOK_CALLS.clear()
    box = Box(1)
    copied = structural_map(box, (int, lambda v: v + 1))
    assert (copied.item, box.item, HOOK_CALLS) == (2, 1, ["copy"])
    HOOK_CALLS.clear()
    handle = box.__chandle__()
    moved = structural_map(box._move(), (int, lambda v: v + 1))
    assert (moved.item, moved.__chandle__() == handle, HOOK_CALLS) == (2, True, ["in-place"])


def test_unique_children_of_a_moved_container_are_updated_in_place_too() -> None:
    inner = tvm_ffi.List([1])
    outer = tvm_ffi.List([inner])
    inner_handle = inner.__chandle__()
    del inner  # now only `outer` holds it
    result = structural_map(outer._move(), (int, lambda v: v + 1))
    assert result[0].__chandle__() == inner_handle and list(result[0]) == [2]
    shared = tvm_ffi.List([1])
    result = structural_map(tvm_ffi.List([shared])._move(), (int, lambda v: v + 1))
    assert list(shared) == [1] and list(result[0]) == [2]  # shared with us: copied


def test_a_saved_mutator_keeps_working_after_the_mutation() -> None:
    saved: list[StructuralMutator] = []
    structural_mutate([1], (int, lambda v, m: saved.append(m) or v + 1))
    assert repr(saved[0].mutate([5, "a"])) == '(6, "a")'
    saved.clear()


def test_mutator_methods() -> None:
    results: list[Any] = []

    def probe(value: Int, m: StructuralMutator) -> Int:
        results.append(m.def_region_kind())
        results.append(m.with_def_region_kind(DefRegionKind.DEF_SIMPLE, lambda: m.def_region_kind()))
        results.append(m.var_remap_get(value))
        results.append(repr(m))
        return value

    structural_mutate(Int(1), (Int, probe))
    assert results == [DefRegionKind.NONE, DefRegionKind.DEF_SIMPLE, None, "ffi.StructuralMutator"]
    with pytest.raises(TypeError, match="cannot be constructed"):
        StructuralMutator()


def test_callback_errors_and_bad_arguments() -> None:
    with pytest.raises(ZeroDivisionError):
        structural_map([1], (int, lambda v: 1 // 0))
    with pytest.raises(ValueError, match="Unknown structural map order: 'x'"):
        structural_map(1, order="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="structural_map callback type must be a supported builtin"):
        structural_map([1], (3, lambda v: v))
    with pytest.raises(TypeError, match="callbacks within a sequence must be"):
        structural_map([1], [3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="structural_mutate callbacks must be callbacks"):
        structural_mutate([1], 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"must accept \(value, mutator\)"):
        structural_mutate(1, (int, lambda: 1))
    with pytest.raises(TypeError, match="Cannot convert from type `ffi.SmallStr` to `int`"):
        structural_map(tvm_ffi.testing.TestIntPair(1, 2), (int, lambda v: "s"))
    with pytest.raises(TypeError, match="Variable-remap key must be an object-backed value"):
        structural_mutate(Int(1), (Int, lambda v, m: m.var_remap_set(1, 2)))
    with pytest.raises(TypeError, match="__ffi_shallow_copy__ must be an ffi.Function"):
        structural_map(tvm_ffi.Shape((1, 2)), lambda v: v)
    with pytest.raises(TypeError, match=r"Expected `Array<Tuple<int, ffi.Function, bool>>`"):
        tvm_ffi.structural._ffi_api.StructuralMutate(1, [(1, print)])


def test_self_containing_values_raise_instead_of_recursing() -> None:
    items = tvm_ffi.List([1])
    items.append(items)
    try:
        with pytest.raises(ValueError, match="cycle detected"):
            structural_map(items, (int, lambda v: v + 1))
    finally:
        items.clear()  # break the cycle for the leak check


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = tvm_ffi.Array([value])
    return value


def test_deep_nesting_maps_or_raises_recursion_error() -> None:
    result = structural_map(nested(2000), (int, lambda v: v + 1))
    for _ in range(2000):
        result = result[0]
    assert result == 1
    # Far deeper than the C stack allows: a clear error, not a crash.
    with pytest.raises(RecursionError, match="structural mutation nested too deeply"):
        structural_map(nested(300_000), (int, lambda v: v + 1))
