"""Structural mutation scenarios, one `name: result` line each; run under the reference package
and under ours by tests/compat/test_structural_mutate_compat.py, which compares the outputs.

Usage: python structural_mutate_behaviour.py <ref_mutate_lib.so>
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import tvm_ffi
from tvm_ffi import DefRegionKind, InplaceMode, StructuralMutator, structural_map, structural_mutate
from tvm_ffi import _ffi_api as ffi_api
from tvm_ffi.dataclasses import field, py_class
from tvm_ffi.testing import TestCompare, TestIntPair, TestObjectDerived
from tvm_ffi.testing import _ffi_api as testing_api


@py_class("compat.mutate.Var", structural_eq="var")
class Var(tvm_ffi.Object):
    name: str = field(structural_eq="ignore")


@py_class("compat.mutate.Int", structural_eq="tree")
class Int(tvm_ffi.Object):
    value: int


@py_class("compat.mutate.Add", structural_eq="tree")
class Add(tvm_ffi.Object):
    lhs: Any
    rhs: Any


@py_class("compat.mutate.Func", structural_eq="tree")
class Func(tvm_ffi.Object):
    params: list = field(structural_eq="def")
    body: Any = None


@py_class("compat.mutate.Let", structural_eq="tree")
class Let(tvm_ffi.Object):
    var: Any = field(structural_eq="def-simple")
    value: Any = None
    body: Any = None


@py_class("compat.mutate.Frozen", structural_eq="tree", frozen=True)
class Frozen(tvm_ffi.Object):
    x: Any


@py_class("compat.mutate.Hooked", structural_eq="tree")
class Hooked(tvm_ffi.Object):
    inner: Any

    def __s_mutate__(mutator, self):  # type: ignore[no-untyped-def]  # noqa: N805
        return Hooked(mutator.mutate(self.inner) * 2)


def show(name: str, run: Callable[..., Any], *args: Any) -> None:
    try:
        result = run(*args)
    except Exception as err:  # the exception type and first line are part of the behaviour
        result = f"{type(err).__name__}: {str(err).splitlines()[0]}"
    print(f"{name}: {result!r}" if isinstance(result, str) else f"{name}: {result}")


def fold(expr: Add) -> Any:
    if isinstance(expr.lhs, Int) and isinstance(expr.rhs, Int):
        return Int(expr.lhs.value + expr.rhs.value)
    return expr


def region_log(root: Any, types: tuple, order: str = "post") -> str:
    log: list[str] = []

    def record(value: Any, kind: DefRegionKind) -> Any:
        log.append(f"{value!r}@{int(kind)}:{type(kind).__name__}")
        return value

    result = structural_map(root, with_def_region_kind=(types, record), order=order)
    return f"{result.same_as(root) if isinstance(root, tvm_ffi.Object) else result} {log}"


def call_log(root: Any, order: str) -> str:
    log: list[str] = []

    def record(value: Any) -> Any:
        log.append(repr(value))
        return value

    structural_map(root, record, order=order)
    return str(log)


def identity_and_sharing() -> str:
    a = Add(Int(1), Int(2))
    same = structural_map(a, (Int, lambda i: i)).same_as(a)
    changed = structural_map(a, (Int, lambda i: Int(20) if i.value == 2 else i))
    return f"{same} {changed} {changed.lhs.same_as(a.lhs)} {a}"


def moved(make: Callable[[], Any], callbacks: Any) -> str:
    value = make()
    handle = value.__chandle__()
    result = structural_map(value._move(), callbacks)
    return f"{result} in_place={result.__chandle__() == handle} source_handle={value.__chandle__()}"


def mutate_modes(root: Any) -> str:
    modes: list[str] = []

    def record(value: Any, m: StructuralMutator, mode: int) -> Any:
        modes.append(f"{type(value).__name__}:{mode}:{type(mode).__name__}")
        return m.default_mutate(value)

    result = structural_mutate(root, [(Add, record), (Int, record)])
    return f"{result} {modes}"


def mutator_methods() -> str:
    out: list[Any] = []

    def probe(value: Any, m: StructuralMutator) -> Any:
        out.append(m.def_region_kind())
        out.append(m.with_def_region_kind(DefRegionKind.DEF_SIMPLE, lambda: m.def_region_kind()))
        out.append(m.with_def_region_kind(7, lambda: ffi_api.StructuralMutatorDefRegionKind(m)))
        out.append(m.var_remap_get(value))
        m.var_remap_set(value, Int(99))
        out.append(m.var_remap_get(value))
        out.append(m.mutate([3, "s"]))
        out.append(m.default_mutate(5))
        out.append(repr(m))
        return value

    structural_mutate(Int(1), (Int, probe))
    return str(out)


def rename_func() -> str:
    x = Var("x")
    f = Func([x], Add(x, Int(1)))

    def rename(value: Any, m: StructuralMutator) -> Any:
        if isinstance(value, Func):
            m.var_remap_set(value.params[0], Var("y"))
        return m.default_mutate(value)

    r = structural_mutate(f, (Func, rename))
    return f"{r} {r.params[0].same_as(r.body.lhs)}"


def rename_let() -> str:
    x = Var("x")
    let = Let(x, Int(1), Add(x, x))
    renamed = structural_map(let, with_def_region_kind=(Var, lambda v, k: Var("y") if k == 2 else v))
    return f"{renamed} {renamed.body.lhs.same_as(renamed.var)} {renamed.body.rhs.same_as(renamed.var)}"


def kernel_scenarios(kernel: str) -> None:
    """The C++ library built against the reference headers: its native hook, its engines."""
    tvm_ffi.load_module(kernel)
    make_pair = tvm_ffi.get_global_func("demo.make_mut_pair")
    map_add = tvm_ffi.get_global_func("demo.map_add")
    mutate_negate = tvm_ffi.get_global_func("demo.mutate_negate")
    pair = make_pair(1, [2, Int(3)])
    show("hook", structural_map, [pair], (int, lambda v: v + 10))
    show("hook same", lambda: structural_map(pair, (float, lambda v: v)).same_as(pair))
    show("hook regions", region_log, pair, (int,))
    show("hook mutate", structural_mutate, pair, (Int, lambda v, m: Int(-v.value)))
    graph = [1, [2, 2.5], {"k": 3}, TestIntPair(4, 5), Add(Int(6), None), None, "s", pair]
    show("cxx map", map_add, graph, 100)
    show("cxx map same", lambda: map_add(tvm_ffi.Array(["a"]), 1))
    show("cxx map region fixture", map_add, testing_api.make_visit_region_graph(False), 1)
    show("cxx mutate", mutate_negate, [1, [2, (3,)], {"k": 4}])
    show("cxx map error", map_add, tvm_ffi.Shape((1, 2)), 1)


def main() -> None:
    show("fold", structural_map, Add(Add(Int(1), Int(2)), Int(3)), (Add, fold))
    show("identity", identity_and_sharing)
    bump = (Int, lambda i: Int(i.value + 1))
    show("pre bump", structural_map, [Int(1), [Int(2)]], bump, (), "pre")
    grow = (tvm_ffi.Array, lambda a: tvm_ffi.Array([*a, 9]))
    show("pre grow", structural_map, [[1]], grow, (), "pre")
    show("post grow", structural_map, [[1]], grow, (), "post")
    show("enum order", structural_map, [1], (int, lambda v: v + 1), (), tvm_ffi.WalkOrder.PREORDER)
    for order in ("pre", "post"):
        show(f"calls {order}", call_log, [1, {"k": None}, (2.5, "s")], order)
    double = (int, lambda v: v * 2)
    show("array", structural_map, [1, 2, "a", None, True], double)
    show("map", structural_map, {"a": 1, "b": [2]}, double)
    show("dict", structural_map, tvm_ffi.Dict({"a": 1}), double)
    show("list", structural_map, tvm_ffi.List([1, 2]), double)
    show("int root", structural_map, 5, lambda v: v)
    show("none root", structural_map, None, lambda v: 7)
    show("str", structural_map, "abc", (str, lambda v: v + "!"))
    show("bytes", structural_map, b"ab", (bytes, lambda v: v + b"!"))
    show("bigint", structural_map, [2**70], (int, lambda v: v))
    show("regions func", region_log, Func([Var("x")], Add(Var("z"), Int(1))), (Var, int))
    show("regions let", region_log, Let(Var("x"), Int(1), Int(2)), (Var, Int), "pre")
    show("regions fixture", region_log, testing_api.make_visit_region_graph(False), (int,))
    show("rename let", rename_let)
    show("rename func", rename_func)
    show("fixture bump", structural_map, testing_api.make_visit_region_graph(False), double)
    show("pair", structural_map, TestIntPair(1, 2), (int, lambda v: v + 1))
    show("derived", structural_map, TestObjectDerived(v_map={"a": 1}, v_array=[1, "x"]), double)
    show("compare", structural_map, TestCompare(1, "x", 100), double)
    show("frozen", structural_map, Frozen(Int(1)), (Int, lambda i: Int(2)))
    show("hooked", structural_map, [Hooked(3)], (int, lambda v: v + 1))
    show("mutate", structural_mutate, Add(Int(1), Int(2)), (Int, lambda v, m: Int(v.value + 100)))
    show("mutate prune", structural_mutate, [[1]], [(tvm_ffi.Array, lambda v, m: v), (int, print)])
    show("mutate children", structural_mutate, [1, [2]],
         (tvm_ffi.Array, lambda v, m: [m.mutate(x) for x in v]))
    show("modes", mutate_modes, Add(Int(1), Int(2)))
    show("modes moved", lambda: mutate_modes(Add(Int(1), Int(2))._move()))
    show("methods", mutator_methods)
    show("list moved", moved, lambda: tvm_ffi.List([1, 2]), (int, lambda v: v + 1))
    show("array moved", moved, lambda: tvm_ffi.Array([1, [2]]), (int, lambda v: v + 1))
    show("dict moved", moved, lambda: tvm_ffi.Dict({"a": 1}), (int, lambda v: v + 1))
    show("object moved", moved, lambda: Add(Int(1), Int(2)), (int, lambda v: v + 1))
    show("list kept", lambda: (lambda x: f"{structural_map(x, double)} {x}")(tvm_ffi.List([1])))
    print(f"enum: {list(InplaceMode)}")
    # errors
    show("callback raises", structural_map, [1], (int, lambda v: (_ for _ in ()).throw(ValueError("boom"))))
    show("bad order", structural_map, 1, (), (), "x")
    show("bad type", structural_map, [1], (3, lambda v: v))
    show("bad seq", structural_map, [1], [3])
    show("bad callbacks", structural_mutate, [1], 3)
    show("bad arity", structural_mutate, 1, (int, lambda: 1))
    show("bad result", structural_map, TestIntPair(1, 2), (int, lambda v: "s"))
    show("remap key", structural_mutate, Int(1), (Int, lambda v, m: m.var_remap_set(1, 2)))
    show("remap get key", structural_mutate, Int(1), (Int, lambda v, m: m.var_remap_get("s")))
    show("shape", structural_map, tvm_ffi.Shape((1, 2)), lambda v: v)
    show("construct", StructuralMutator)
    show("raw map args", ffi_api.StructuralMap, 1, 2, [], 0)
    show("raw map order", ffi_api.StructuralMap, 1, [], [], "x")
    show("raw map arity", ffi_api.StructuralMap, 1)
    show("raw mutate pair", ffi_api.StructuralMutate, 1, [(1, print)])
    show("raw mutate int", ffi_api.StructuralMutate, 1, 5)
    for name in ("Mutate", "DefaultMutate", "VarRemapGet"):
        show(f"raw {name}", getattr(ffi_api, f"StructuralMutator{name}"), 1, 2)
    show("raw VarRemapSet", ffi_api.StructuralMutatorVarRemapSet, 1, 2, 3)
    show("raw DefRegionKind", ffi_api.StructuralMutatorDefRegionKind, 1)
    names = sorted(n for n in tvm_ffi.registry.list_global_func_names()
                   if n.startswith(("ffi.StructuralMutat", "ffi.StructuralMap")))
    print(f"globals: {names}")


if __name__ == "__main__":
    main()
    kernel_scenarios(sys.argv[1])
