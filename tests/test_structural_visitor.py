"""The visitor side of structural visiting: tvm_ffi.structural.structural_visit (callbacks own
descent), StructuralVisitor (visit / default_visit / def regions), VisitInterrupt, the enums,
and the runtime's ffi.StructuralVisitor* functions."""

from __future__ import annotations

import copy
import threading
from typing import Any

import pytest
import tvm_ffi
import tvm_ffi.structural
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import DefRegionKind, StructuralVisitor, VisitInterrupt, WalkOrder, WalkResult
from tvm_ffi.dataclasses import py_class
from tvm_ffi.structural import structural_visit, structural_walk
from tvm_ffi.testing import _ffi_api as testing_api

SAVED: list[StructuralVisitor] = []


@py_class("testing.visitor.Keeper")
class Keeper(tvm_ffi.Object):
    """Its hook keeps the visitor it was called with."""

    a: Any = None

    def __s_visit__(visitor, self):  # type: ignore[no-untyped-def]  # noqa: N805
        SAVED.append(visitor)
        return visitor.visit(self.a)


@py_class("testing.visitor.BadResult")
class BadResult(tvm_ffi.Object):
    a: Any = None

    def __s_visit__(visitor, self):  # type: ignore[no-untyped-def]  # noqa: N805
        return 5


@py_class("testing.visitor.Raising")
class Raising(tvm_ffi.Object):
    a: Any = None

    def __s_visit__(visitor, self):  # type: ignore[no-untyped-def]  # noqa: N805
        raise RuntimeError("hook fail")


@py_class("testing.visitor.NotAHook")
class NotAHook(tvm_ffi.Object):
    a: Any = None
    __s_visit__ = 5


@py_class("testing.visitor.DefaultSelf")
class DefaultSelf(tvm_ffi.Object):
    a: Any = None

    def __s_visit__(visitor, self):  # type: ignore[no-untyped-def]  # noqa: N805
        return visitor.default_visit(self)


def test_enums_have_the_abi_values() -> None:
    assert [int(k) for k in DefRegionKind] == [0, 1, 2]
    assert [k.name for k in DefRegionKind] == ["NONE", "DEF_PATTERN", "DEF_SIMPLE"]
    assert (int(WalkOrder.PREORDER), int(WalkOrder.POSTORDER)) == (0, 1)
    assert (int(WalkResult.ADVANCE), int(WalkResult.SKIP)) == (0, 1)
    for name in ("DefRegionKind", "StructuralVisitor", "VisitInterrupt", "WalkOrder", "WalkResult",
                 "structural_walk"):
        assert name in tvm_ffi.__all__ and getattr(tvm_ffi, name) is getattr(tvm_ffi.structural, name)
    assert "structural_visit" in tvm_ffi.structural.__all__


def test_visit_interrupt_carries_a_read_only_payload() -> None:
    assert VisitInterrupt().value is None
    interrupt = VisitInterrupt([1, "x"])
    assert list(interrupt.value) == [1, "x"]
    assert repr(VisitInterrupt(3)) == "ffi.VisitInterrupt(value=3)"
    assert type(interrupt).__tvm_ffi_type_info__.type_index == 77  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        interrupt.value = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        VisitInterrupt(1, 2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"Expected 1 but got 0 arguments"):
        tvm_ffi.get_global_func("ffi.VisitInterrupt")()


def test_visit_interrupt_copies() -> None:
    interrupt = VisitInterrupt([1, "x"])
    shallow, deep = copy.copy(interrupt), copy.deepcopy(interrupt)
    assert shallow.value.same_as(interrupt.value) and not deep.value.same_as(interrupt.value)
    assert list(deep.value) == [1, "x"] and not shallow.same_as(interrupt)


def test_visitors_cannot_be_constructed() -> None:
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        StructuralVisitor()


def test_structural_visit_default_descent_reports_regions() -> None:
    def regions(graph: Any) -> list[tuple[Any, int]]:
        seen: list[tuple[Any, int]] = []

        def record(value: Any, visitor: StructuralVisitor) -> VisitInterrupt | None:
            seen.append((value, int(visitor.def_region_kind())))
            return visitor.default_visit(value)

        assert structural_visit(graph, record) is None
        return seen

    plain = testing_api.make_visit_region_graph(False)
    assert regions(plain) == [(plain, 0), (1, 2), (2, 1), (3, 0)]
    hooked = testing_api.make_visit_region_graph(True)
    assert regions(hooked) == [(hooked, 0), (hooked.child, 2), (1, 2), (2, 1), (3, 2), (4, 0)]


def test_structural_visit_callbacks_choose_the_children() -> None:
    seen: list[Any] = []

    def first_only(value: Any, visitor: StructuralVisitor) -> VisitInterrupt | None:
        seen.append(value)
        return visitor.visit(value[0]) if isinstance(value, tvm_ffi.Array) else None

    structural_visit([[1, 2], [3]], first_only)
    assert [v for v in seen if isinstance(v, int)] == [1]
    pruned: list[Any] = []
    structural_visit([1, [2]], lambda v, visitor: pruned.append(v))
    assert len(pruned) == 1  # the root's callback did not descend
    ints: list[int] = []
    structural_visit([1, [2]], (int, lambda v, visitor: ints.append(v)))  # unmatched values descend
    assert ints == [1, 2]


def test_structural_visit_results_are_none_or_interrupts() -> None:
    hit = structural_visit([1, [2]], (int, lambda v, visitor: VisitInterrupt(v) if v == 2 else None))
    assert hit is not None and hit.value == 2
    for bad in (5, WalkResult.SKIP):
        with pytest.raises(TypeError, match=r"expected Optional<ffi.VisitInterrupt>, but got int"):
            structural_visit([1], lambda v, visitor, r=bad: r)  # type: ignore[misc]


def test_def_region_scopes_nest_and_restore() -> None:
    SAVED.clear()
    structural_walk(Keeper([1]), lambda v: None)
    visitor = SAVED.pop()
    assert visitor.def_region_kind() is DefRegionKind.NONE
    assert visitor.with_def_region_kind(DefRegionKind.DEF_SIMPLE, visitor.def_region_kind) == DefRegionKind.DEF_SIMPLE
    # A pattern region is never left: entering another kind inside it keeps DEF_PATTERN.
    inner = visitor.with_def_region_kind(
        DefRegionKind.DEF_PATTERN,
        lambda: visitor.with_def_region_kind(DefRegionKind.DEF_SIMPLE, visitor.def_region_kind),
    )
    assert inner == DefRegionKind.DEF_PATTERN
    assert list(visitor.with_def_region_kind(2, lambda: [1])) == [1]
    with pytest.raises(ZeroDivisionError):
        visitor.with_def_region_kind(2, lambda: 1 / 0)
    assert visitor.def_region_kind() is DefRegionKind.NONE  # restored after the error


def test_a_kept_visitor_still_visits_with_its_callbacks() -> None:
    SAVED.clear()
    seen: list[Any] = []
    structural_walk(Keeper(1), (int, seen.append))
    visitor = SAVED.pop()
    assert seen == [1]
    assert visitor.visit([5, [6]]) is None
    assert seen == [1, 5, 6]
    assert visitor.default_visit(tvm_ffi.Map({"k": 7})) is None  # the map itself is not called back
    assert seen == [1, 5, 6, 7]
    assert repr(visitor) == "ffi.StructuralVisitor"


def test_hook_errors() -> None:
    with pytest.raises(TypeError, match=r"expected Optional<ffi.VisitInterrupt>, but got int"):
        structural_walk(BadResult(1), lambda v: None)
    with pytest.raises(RuntimeError, match="hook fail"):
        structural_walk([Raising(1)], lambda v: None)
    with pytest.raises(TypeError, match="__s_visit__ must be an opaque function pointer or ffi.Function"):
        structural_walk([NotAHook(1)], lambda v: None)


def test_default_visit_inside_its_own_hook_is_refused() -> None:
    # The reference warns this re-enters the hook until the C stack overflows; here it is a
    # cycle error.
    with pytest.raises(ValueError, match="cycle.*DefaultSelf"):
        structural_walk(DefaultSelf(1), lambda v: None)


def test_visitor_functions_check_their_arguments() -> None:
    for name in ("ffi.StructuralVisitorVisit", "ffi.StructuralVisitorDefaultVisit"):
        with pytest.raises(TypeError, match=r"argument #0 .* Expected `ffi.StructuralVisitor` but got `int`"):
            tvm_ffi.get_global_func(name)(1, 2)
    with pytest.raises(TypeError, match=r"Expected `ffi.StructuralVisitor` but got `int`"):
        tvm_ffi.get_global_func("ffi.StructuralVisitorDefRegionKind")(1)
    SAVED.clear()
    structural_walk(Keeper(1), lambda v: None)
    with pytest.raises(TypeError, match=r"argument #2 .* Expected `ffi.Function` but got `int`"):
        tvm_ffi.get_global_func("ffi.StructuralVisitorWithDefRegionKind")(SAVED.pop(), 1, 5)


def test_a_visitor_runs_on_one_thread_at_a_time() -> None:
    entered, release = threading.Event(), threading.Event()

    def wait_at_seven(value: int) -> None:
        if value == 7:
            entered.set()
            release.wait(timeout=30)

    SAVED.clear()
    walker = threading.Thread(target=structural_walk, args=(Keeper([7]), (int, wait_at_seven)))
    walker.start()
    try:
        assert entered.wait(timeout=30)
        with pytest.raises(RuntimeError, match="running a traversal on another thread"):
            SAVED[0].visit([1])
    finally:
        release.set()
        walker.join()
    assert SAVED.pop().visit([1]) is None  # idle again once the walk is over
