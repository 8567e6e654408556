"""DATACLASSES.md 2.9 (generated signatures) and 4 (repr, equality, hash, ordering, copy,
replace, pickle), one row each: the outcome as text. Printed as JSON; the compat test compares
it with the reference's (tests/compat/test_dataclasses_behaviour.py)."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import math
import pickle
from typing import Any, Callable

import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi.dataclasses import field, py_class, replace

OUT: dict[str, str] = {}


def row(name: str, fn: Callable[[], Any]) -> None:
    try:
        OUT[name] = f"ok: {fn()!s}"
    except Exception as err:  # noqa: BLE001 -- the outcome is the error
        OUT[name] = f"{type(err).__name__}: {err}"


@py_class("d.A")
class A(tvm_ffi.Object):
    x: int
    y: int = 0


@py_class("d.KwCls", kw_only=True)
class KwCls(tvm_ffi.Object):
    a: int
    b: int = 2
    c: int = field(default=3, kw_only=False)


@py_class("d.Marker")
class MarkerCls(tvm_ffi.Object):
    a: int
    b: str = "x"
    _: dataclasses.KW_ONLY
    c: float
    d: bool = True


@py_class("d.Order")
class DefaultFirst(tvm_ffi.Object):
    a: int = 1
    b: int = 0  # noqa: RUF009


@py_class("d.Factories")
class Factories(tvm_ffi.Object):
    items: list = field(default_factory=list)  # type: ignore[type-arg]
    m: dict = field(default_factory=dict)  # type: ignore[type-arg]
    n: int | None = field(default_factory=lambda: 5)


@py_class("d.InitOff")
class InitOff(tvm_ffi.Object):
    a: int
    b: int = field(default=5, init=False)


@py_class("d.FromBase")
class FromBase(t.TestObjectBase):
    k: int = 5


@py_class("d.Eq", eq=True)
class Eq(tvm_ffi.Object):
    a: int
    s: str = ""


@py_class("d.Hash", eq=True, unsafe_hash=True)
class Hashed(tvm_ffi.Object):
    a: int
    ignored: int = field(default=0, hash=False)


@py_class("d.Ord", eq=True, order=True)
class Ord(tvm_ffi.Object):
    a: Any
    b: Any = None


@py_class("d.Node")
class Node(tvm_ffi.Object):
    v: int
    next: Node | None = None


@py_class("d.Hidden")
class Hidden(tvm_ffi.Object):
    shown: int
    secret: int = field(default=7, repr=False)


@py_class("d.Empty")
class Empty(tvm_ffi.Object):
    pass


@py_class("d.All")
class All(tvm_ffi.Object):
    n: int | None = None
    d: tvm_ffi.Device = field(default_factory=lambda: tvm_ffi.device("cuda:1"))
    dt: tvm_ffi.dtype = field(default_factory=lambda: tvm_ffi.dtype("float32"))
    lst: list = field(default_factory=lambda: [1, "a"])  # type: ignore[type-arg]
    dd: dict = field(default_factory=lambda: {1: 2})  # type: ignore[type-arg]
    e: tuple = ()  # type: ignore[type-arg]


for cls in (A, KwCls, MarkerCls, DefaultFirst, Factories, InitOff, FromBase, t._TestCxxAutoInit):
    row(f"signature {cls.__name__}", lambda cls=cls: inspect.signature(cls))
    row(f"match_args {cls.__name__}", lambda cls=cls: cls.__match_args__)

row("repr A", lambda: repr(A(1)))
row("repr Node", lambda: repr(Node(2, Node(1))))
row("repr Empty", lambda: repr(Empty()))
row("repr Hidden", lambda: repr(Hidden(1)))
row("repr FromBase", lambda: repr(FromBase(v_i64=10)))
row("repr All", lambda: repr(All()))
row("repr floats", lambda: tvm_ffi.get_global_func("ffi.ReprPrint")(
    [2.5, 1e20, 0.1, 0.1 + 0.2, 1 / 3, 123456789.0, 9007199254740993.0, 1e-7, -0.0, 1.0, math.nan, math.inf]))
row("repr strings", lambda: tvm_ffi.get_global_func("ffi.ReprPrint")(['he said "hi"\n', "\u00e9\t\x01", b"\x00ab\xff"]))
# Both objects stay alive: hashing two temporaries in turn compares a freed object's address
# with whatever the allocator hands out next, which either package may or may not reuse.
row("eq default identity", lambda: (lambda a, b: (a == b, hash(a) == hash(b)))(A(1), A(1)))
row("eq=True content", lambda: (Eq(1) == Eq(1), Eq(1) != Eq(2), Eq(1) == 1))
row("eq=True hash is identity", lambda: hash(Eq(1)) == hash(Eq(1)))
row("unsafe_hash content", lambda: (hash(Hashed(1, 2)) == hash(Hashed(1, 3)), Hashed(1, 2) == Hashed(1, 3)))
row("order", lambda: (Ord(1) < Ord(2), Ord(1, 1) < Ord(1, 2), Ord("a") < Ord("ab"), Ord(None) < Ord(1)))
row("order kinds", lambda: Ord(1) < Ord(1.5))
row("order str vs int", lambda: Ord(1) < Ord("a"))
row("order maps", lambda: Ord({1: 2}) < Ord({1: 3}))
row("order nan", lambda: Ord(math.nan) < Ord(1.0))
row("eq nan", lambda: Ord(math.nan) == Ord(math.nan))
row("eq -0.0", lambda: (Ord(-0.0) == Ord(0.0), hash(Eq(0)) is not None))
row("eq 1 True 1.0", lambda: (Ord(1) == Ord(True), Ord(1) == Ord(1.0)))
row("order unrelated", lambda: Ord(1) < Eq(1))
row("copy", lambda: (lambda a, b: (a.x, b.x, a.same_as(b)))(A(3), copy.copy(A(3))))
row("deepcopy shares", lambda: (lambda n: (lambda c: c.next.same_as(c.next))(copy.deepcopy(n)))(Node(1, Node(2))))
row("deepcopy class", lambda: type(copy.deepcopy(A(1))).__name__)
row("replace", lambda: repr(replace(A(1, 2), y=5)))
row("pickle", lambda: repr(pickle.loads(pickle.dumps(Node(3, Node(4))))))
row("reduce", lambda: A(1).__reduce__()[2])
row("deepcopy non-copyable", lambda: copy.deepcopy(t.TestNonCopyable(1)))
print(json.dumps(OUT, indent=1, sort_keys=True))
