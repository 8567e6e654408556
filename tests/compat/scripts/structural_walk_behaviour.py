"""Structural visiting scenarios, one `name: result` line each; run under the reference package
and under ours by tests/compat/test_structural_walk_compat.py, which compares the outputs.

Usage: python structural_walk_behaviour.py <ref_visit_lib.so>
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import tvm_ffi
from tvm_ffi import DefRegionKind, VisitInterrupt, WalkResult, structural_walk
from tvm_ffi.structural import structural_visit
from tvm_ffi.testing import _ffi_api as testing_api


def show(name: str, run: Callable[..., Any], *args: Any) -> None:
    try:
        result = run(*args)
    except Exception as err:  # the exception type and first line are part of the behaviour
        result = f"{type(err).__name__}: {str(err).splitlines()[0]}"
    print(f"{name}: {result!r}" if isinstance(result, str) else f"{name}: {result}")


def walk_log(root: Any, callbacks: Any = (), regional: Any = (), order: str = "pre") -> str:
    log: list[str] = []

    def plain(value: Any) -> None:
        log.append(repr(value))

    def region(value: Any, kind: DefRegionKind) -> None:
        log.append(f"{value!r}@{int(kind)}")

    cbs = [(t, plain) for t in callbacks]
    regs = [(t, region) for t in regional]
    result = structural_walk(root, cbs, regs, order=order)
    return f"{result} {log}"


def main(kernel: str) -> None:
    tvm_ffi.load_module(kernel)
    make_pair = tvm_ffi.get_global_func("demo.make_swap_pair")
    walk_regions = tvm_ffi.get_global_func("demo.walk_regions")
    walk_find_int = tvm_ffi.get_global_func("demo.walk_find_int")
    data = [1, True, 2.5, "s", "a long string value", b"b", None, tvm_ffi.Shape((1, 2)),
            {"k": [7], 5: "v"}, tvm_ffi.Dict({"d": 8}), tvm_ffi.List([9])]
    for order in ("pre", "post"):
        show(f"all {order}", walk_log, data, [object], (), order)
        for t in (int, bool, float, str, bytes, tvm_ffi.Array, tvm_ffi.Map, list, dict, tvm_ffi.Object):
            show(f"{t.__name__} {order}", walk_log, data, [t], (), order)
    plain = testing_api.make_visit_region_graph(False)
    hooked = testing_api.make_visit_region_graph(True)

    def cxx_regions(root: Any) -> list[tuple[str, int]]:
        return [(repr(v), k) for v, k in walk_regions(root)]

    def default_descent(value: Any, visitor: Any) -> Any:
        return visitor.default_visit(value)

    for name, graph in (("regions", plain), ("hook", hooked)):
        for order in ("pre", "post"):
            show(f"{name} {order}", walk_log, graph, (), [object], order)
        show(f"{name} cxx walk", cxx_regions, graph)
        show(f"{name} visit", structural_visit, graph, default_descent)
    pair = make_pair([1, 2], make_pair("x", 3))
    for order in ("pre", "post"):
        show(f"cxx hook {order}", walk_log, pair, (), [object], order)
    show("cxx walk over python containers", cxx_regions, [pair, {"a": (4,)}])
    show("cxx walk interrupt", lambda: walk_find_int([1, [2, pair]], 3))
    show("cxx walk no interrupt", lambda: walk_find_int([1, 2], 9))
    show("interrupt", lambda: structural_walk([1, [2, 3]], (int, lambda v: VisitInterrupt(v) if v > 1 else None)))
    show("interrupt in cxx hook", lambda: structural_walk(pair, (int, lambda v: VisitInterrupt(v) if v == 1 else None)))
    show("skip", lambda: walk_log([1, [2, [3]], 4], [object], order="pre") and structural_walk(
        [1, [2]], lambda v: WalkResult.SKIP if isinstance(v, tvm_ffi.Array) else None, order="pre"))
    show("bad result", lambda: structural_walk([1], lambda v: "x"))
    show("bad visit result", lambda: structural_visit([1], lambda v, visitor: 5))
    show("bad order", lambda: structural_walk([1], lambda v: None, order="in"))
    show("bad callbacks", lambda: structural_walk([1], [5]))
    show("bad type", lambda: structural_walk([1], (complex, lambda v: None)))
    walk = tvm_ffi.get_global_func("ffi.StructuralWalk")
    show("runtime arity", lambda: walk([1], [], []))
    show("runtime bad entry", lambda: walk([1], [(-1,)], [], 0))
    show("runtime bad list", lambda: walk([1], 1, [], 0))
    show("make graph arity", lambda: testing_api.make_visit_region_graph())
    show("make graph type", lambda: testing_api.make_visit_region_graph("x"))
    show("interrupt repr", lambda: repr(VisitInterrupt([1, "a"])))


if __name__ == "__main__":
    main(sys.argv[1])
