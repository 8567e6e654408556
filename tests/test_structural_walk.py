"""tvm_ffi.structural_walk: typed callbacks over every value of a graph, in pre- or post-order,
with def regions, early stop and the errors of bad callbacks (reference behaviour)."""

from __future__ import annotations

import sys
from typing import Any

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import DefRegionKind, VisitInterrupt, WalkOrder, WalkResult, structural_walk
from tvm_ffi.dataclasses import field, py_class
from tvm_ffi.testing import _ffi_api as testing_api


@py_class("testing.walk.Var", structural_eq="var")
class Var(tvm_ffi.Object):
    name: str
    ty: Any = None


@py_class("testing.walk.Func")
class Func(tvm_ffi.Object):
    params: list = field(structural_eq="def")  # type: ignore[type-arg]
    body: Any = None
    comment: str = field(default="", structural_eq="ignore")


@py_class("testing.walk.FuncSimple")
class FuncSimple(tvm_ffi.Object):
    params: list = field(structural_eq="def-simple")  # type: ignore[type-arg]
    body: Any = None


@py_class("testing.walk.Node")
class Node(tvm_ffi.Object):
    child: Any = None


@py_class("testing.walk.Hooked")
class Hooked(tvm_ffi.Object):
    a: Any = None
    b: Any = None

    # A __s_visit__ hook is called as (visitor, value).
    def __s_visit__(visitor, self):  # type: ignore[no-untyped-def]  # noqa: N805
        stop = visitor.visit(self.b)
        if stop is not None:
            return stop
        return visitor.with_def_region_kind(DefRegionKind.DEF_PATTERN, lambda: visitor.visit(self.a))


@py_class("testing.walk.SelfVisit")
class SelfVisit(tvm_ffi.Object):
    x: int = 0

    def __s_visit__(visitor, self):  # type: ignore[no-untyped-def]  # noqa: N805
        return visitor.visit(self)


def collect(root: Any, order: str = "pre", types: Any = object) -> list[Any]:
    """Every value a walk hands to a callback of `types`, in call order."""
    seen: list[Any] = []
    assert structural_walk(root, (types, seen.append), order=order) is None
    return seen


def test_preorder_visits_parents_before_children_and_map_values_only() -> None:
    seen = collect([1, [2, "a"], {"k": 3.0}], order="pre")
    assert [type(v).__name__ for v in seen] == ["Array", "int", "Array", "int", "str", "Map", "float"]
    assert seen[1:] == [1, seen[2], 2, "a", seen[5], 3.0]


def test_postorder_visits_children_first() -> None:
    seen = collect([1, [2, "a"], {"k": 3.0}], order="post")
    assert [type(v).__name__ for v in seen] == ["int", "int", "str", "Array", "float", "Map", "Array"]


def test_order_accepts_walk_order_members_and_rejects_anything_else() -> None:
    assert collect([1, [2]], order=WalkOrder.PREORDER) == collect([1, [2]], order="pre")
    assert collect([1, [2]], order=WalkOrder.POSTORDER) == collect([1, [2]], order="post")
    for bad in ("in", 0):
        with pytest.raises(ValueError, match="Unknown structural walk order"):
            structural_walk([1], lambda v: None, order=bad)  # type: ignore[arg-type]


def test_callback_types_select_values_exactly() -> None:
    data = [1, True, 2.5, "s", "a long string, not inline", b"b", None, tvm_ffi.Shape((1, 2)),
            {"k": [7]}, tvm_ffi.Dict({"d": 8}), tvm_ffi.List([9])]
    assert collect(data, types=int) == [1, 7, 8, 9]  # int matches neither bool nor float
    assert collect(data, types=bool) == [True]
    assert collect(data, types=float) == [2.5]
    assert collect(data, types=str) == ["s", "a long string, not inline"]
    assert collect(data, types=bytes) == [b"b"]
    assert [type(v).__name__ for v in collect(data, types=tvm_ffi.Array)] == ["Array", "Array"]
    assert [type(v).__name__ for v in collect(data, types=tvm_ffi.Map)] == ["Map"]
    assert [type(v).__name__ for v in collect(data, types=list)] == ["List"]  # list means ffi.List
    assert [type(v).__name__ for v in collect(data, types=dict)] == ["Dict"]
    objects = collect(data, types=tvm_ffi.Object)
    assert "a long string, not inline" in objects and "s" not in objects  # heap strings are objects
    assert None not in collect(data)  # None never reaches a callback


def test_first_matching_entry_wins_and_grouped_types_share_a_callback() -> None:
    seen: list[tuple[str, Any]] = []
    structural_walk(
        [1, "s", 2.0],
        [((int, str), lambda v: seen.append(("leaf", v))), (object, lambda v: seen.append(("any", type(v).__name__)))],
        order="pre",
    )
    assert seen == [("any", "Array"), ("leaf", 1), ("leaf", "s"), ("any", "float")]


def test_plain_callbacks_come_before_def_region_callbacks() -> None:
    seen: list[Any] = []
    structural_walk([1, "a"], (int, lambda v: seen.append(("plain", v))),
                    (object, lambda v, kind: seen.append(("region", v, kind))), order="pre")
    assert seen == [("region", seen[0][1], DefRegionKind.NONE), ("plain", 1), ("region", "a", DefRegionKind.NONE)]


def test_skip_prunes_children_in_preorder_only() -> None:
    tree = [1, [2, [3]], 4]

    def skip_pairs(value: Any) -> WalkResult | None:
        seen.append(value)
        return WalkResult.SKIP if isinstance(value, tvm_ffi.Array) and len(value) == 2 else None

    seen: list[Any] = []
    structural_walk(tree, skip_pairs, order="pre")
    assert [v for v in seen if isinstance(v, int)] == [1, 4]
    seen = []
    structural_walk(tree, skip_pairs, order="post")
    assert [v for v in seen if isinstance(v, int)] == [1, 2, 3, 4]


@pytest.mark.parametrize(("result", "expected_ints"),
                         [(0, [1, 2]), (WalkResult.ADVANCE, [1, 2]), (2, [1, 2]), (1, []), (True, [])])
def test_ints_returned_by_callbacks_follow_the_walk_result_values(result: int, expected_ints: list[int]) -> None:
    seen: list[Any] = []

    def record(value: Any) -> int:
        seen.append(value)
        return result

    structural_walk([1, [2]], record, order="pre")
    assert [v for v in seen if isinstance(v, int)] == expected_ints


def test_interrupt_stops_the_walk_and_returns_its_payload() -> None:
    seen: list[Any] = []

    def find_two(value: Any) -> VisitInterrupt | None:
        seen.append(value)
        return VisitInterrupt(("found", value)) if value == 2 else None

    hit = structural_walk([1, [2, [3]], 4], find_two, order="pre")
    assert isinstance(hit, VisitInterrupt)
    assert tuple(hit.value) == ("found", 2)
    assert 3 not in seen and 4 not in seen
    assert structural_walk([1], lambda v: VisitInterrupt()).value is None  # type: ignore[union-attr]
    assert structural_walk([1, [2]], (), (int, lambda v, k: VisitInterrupt(v) if v == 2 else None)).value == 2  # type: ignore[union-attr]


def test_roots_that_are_not_containers() -> None:
    assert collect(5) == [5]
    assert collect("text") == ["text"]
    assert collect(None) == []


def test_def_region_fixture_reports_each_field_region() -> None:
    graph = testing_api.make_visit_region_graph(False)
    seen: list[Any] = []
    structural_walk(graph, (), (object, lambda v, kind: seen.append((v, kind))), order="pre")
    assert seen == [(graph, DefRegionKind.NONE), (1, DefRegionKind.DEF_SIMPLE),
                    (2, DefRegionKind.DEF_PATTERN), (3, DefRegionKind.NONE)]
    assert all(type(kind) is DefRegionKind for _, kind in seen)


def test_native_hook_fixture_visits_its_child_in_a_simple_region_then_four() -> None:
    graph = testing_api.make_visit_region_graph(True)
    seen: list[Any] = []
    structural_walk(graph, (), (object, lambda v, kind: seen.append((v, int(kind)))), order="pre")
    assert seen == [(graph, 0), (graph.child, 2), (1, 2), (2, 1), (3, 2), (4, 0)]
    seen = []
    structural_walk(graph, (), (object, lambda v, kind: seen.append((v, int(kind)))), order="post")
    assert seen == [(1, 2), (2, 1), (3, 2), (graph.child, 2), (4, 0), (graph, 0)]
    # An interrupt raised below a native hook comes back through it.
    assert structural_walk(graph, (int, lambda v: VisitInterrupt(v) if v == 3 else None)).value == 3  # type: ignore[union-attr]


def test_def_fields_open_regions_and_free_vars_in_simple_regions_visit_fields_as_uses() -> None:
    x, y = Var("x", 1), Var("y", 2)

    def regions(root: Any) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        structural_walk(root, (), (object, lambda v, kind: out.append((repr(v), int(kind)))), order="pre")
        return out

    pattern = regions(Func([x], [x, y], "ignored comment"))
    assert [k for _, k in pattern] == [0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    assert "'ignored comment'" not in [text for text, _ in pattern]  # structural_eq="ignore" field
    simple = regions(FuncSimple([x], [x, y]))
    assert [k for _, k in simple][:5] == [0, 2, 2, 0, 0]  # the var defined, its fields are uses


def test_python_hook_owns_descent_and_scopes_regions() -> None:
    seen: list[Any] = []
    structural_walk(Hooked([1], 2), (), (object, lambda v, kind: seen.append((repr(v), int(kind)))), order="pre")
    assert seen[1:] == [("2", 0), ("(1,)", 1), ("1", 1)]
    assert structural_walk(Hooked([1], 2), (int, lambda v: VisitInterrupt(v) if v == 1 else None)).value == 1  # type: ignore[union-attr]


def test_bad_callback_results_raise_type_error() -> None:
    for bad, name in (("x", "ffi.SmallStr"), (1.5, "float"), ([1], "ffi.Array")):
        with pytest.raises(TypeError, match=f"expected WalkResult, but got {name}"):
            structural_walk([1], lambda v, r=bad: r)  # type: ignore[misc]


def test_exceptions_of_callbacks_propagate_unchanged() -> None:
    def boom(value: Any) -> None:
        if value == 3:
            raise KeyError("boom at 3")

    with pytest.raises(KeyError, match="boom at 3"):
        structural_walk(testing_api.make_visit_region_graph(True), boom)


def test_a_callbacks_exception_comes_back_itself_with_the_walks_record() -> None:
    raised = ValueError("mine")
    pair = tvm_ffi.testing.TestIntPair(1, 2)
    root = tvm_ffi.convert([1, [2, pair]])

    def refuse(value: Any) -> None:
        raise raised

    for walk in (lambda: structural_walk(root, [(tvm_ffi.testing.TestIntPair, refuse)]),
                 lambda: tvm_ffi.structural_map(root, [(tvm_ffi.testing.TestIntPair, refuse)])):
        with pytest.raises(ValueError) as info:
            walk()
        # The same exception object, although the engine recorded the objects the error
        # unwound through (pair, inner array, outer array) in its ffi.VisitErrorContext.
        assert info.value is raised


def test_bad_callback_arguments_are_rejected_before_walking() -> None:
    with pytest.raises(TypeError, match="callbacks must be callbacks"):
        structural_walk([1], 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"within a sequence must be \(type, callback\) tuples"):
        structural_walk([1], [5])
    with pytest.raises(TypeError, match=r"within a sequence must be \(type, callback\) tuples"):
        structural_walk([1], (int, 5))
    with pytest.raises(TypeError, match="callback type must be a supported builtin"):
        structural_walk([1], (complex, lambda v: None))
    with pytest.raises(TypeError, match="type_index is negative"):
        structural_walk([1], (tuple, lambda v: None))


def test_runtime_function_checks_its_arguments() -> None:
    walk = tvm_ffi.get_global_func("ffi.StructuralWalk")
    with pytest.raises(TypeError, match=r"Expected 4 but got 3 arguments"):
        walk([1], [], [])
    with pytest.raises(TypeError, match=r"argument #1 .* but got `Array\[index 0: Array\[size=1\]\]`"):
        walk([1], [(-1,)], [], 0)
    with pytest.raises(TypeError, match=r"argument #2 .* but got `int`"):
        walk([1], [], 7, 0)
    with pytest.raises(TypeError, match=r"argument #3 .* Expected `int`"):
        walk([1], [], [], "pre")
    with pytest.raises(TypeError, match=r"argument #1 "):  # checked in argument order
        walk([1], 5, [], "pre")
    seen: list[Any] = []
    assert walk([1, [2]], [(-1, seen.append)], [], 5) is None  # any order other than 0 is post
    assert seen[-1] == tvm_ffi.convert([1, [2]])


def test_cycles_raise_instead_of_looping() -> None:
    cyclic = tvm_ffi.List([1])
    cyclic.append(cyclic)
    with pytest.raises(ValueError, match="cycle.*ffi.List"):
        structural_walk(cyclic, lambda v: None)
    cyclic.clear()  # break the reference cycle
    node = Node()
    node.child = [node]
    with pytest.raises(ValueError, match="cycle.*testing.walk.Node"):
        structural_walk(node, lambda v: None, order="post")
    node.child = None
    # Shared (acyclic) values are fine and visited at every occurrence.
    shared = [1]
    assert collect([shared, shared], types=int) == [1, 1]


def test_hook_visiting_its_own_value_is_a_cycle() -> None:
    with pytest.raises(ValueError, match="cycle.*SelfVisit"):
        structural_walk(SelfVisit(), lambda v: None)


@pytest.mark.parametrize("order", ["pre", "post"])
def test_deep_graphs_do_not_use_the_c_stack(order: str) -> None:
    depth = 100_000
    nested: Any = tvm_ffi.List([0])
    for i in range(1, depth):
        nested = tvm_ffi.List([i, nested])
    assert collect(nested, order=order, types=int) == list(range(depth - 1, -1, -1))
    lists = collect(nested, order=order, types=list)
    assert len(lists) == depth
    assert lists[0][0] == (depth - 1 if order == "pre" else 0)  # post-order: innermost first
    chain: Any = None
    for _ in range(depth):
        chain = Node(chain)
    assert len(collect(chain, order=order, types=Node)) == depth
    del chain, nested  # freeing the deep graphs must not recurse either


def test_walk_over_a_shared_subgraph_does_not_leak_on_interrupt_or_error() -> None:
    shared = tvm_ffi.convert({"a": [1, 2, 3]})
    graph = tvm_ffi.List([shared, shared, Node(shared)])
    for _ in range(3):
        assert structural_walk(graph, (int, lambda v: VisitInterrupt([v]) if v == 3 else None)) is not None
        with pytest.raises(RuntimeError):
            structural_walk(graph, (int, lambda v: (_ for _ in ()).throw(RuntimeError("x"))))
    assert sys.getrefcount(shared) >= 2


def test_callback_types_resolve_alike_on_every_walk() -> None:
    seen: list[Any] = []
    for _ in range(3):
        structural_walk([1, [2]], (tvm_ffi.Array, seen.append))
    assert len(seen) == 6

    class Unregistered(tvm_ffi.Array):  # type: ignore[type-arg]
        pass

    for _ in range(2):  # a class without a type of its own is refused every time
        with pytest.raises(TypeError, match="callback type must be"):
            structural_walk([1], (Unregistered, seen.append))
