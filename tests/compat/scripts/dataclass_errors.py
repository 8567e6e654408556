"""DATACLASSES.md 7 (bad usage) and neighbouring rows of 3 and 8, one case each: what defining or
using a dataclass wrongly raises (type and message) or returns. Printed as JSON; the compat
test compares it with the reference's (tests/compat/test_dataclasses_behaviour.py)."""

from __future__ import annotations

import contextlib
import copy
import io
import json

import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import method
from tvm_ffi.dataclasses import asdict, astuple, c_class, field, fields, py_class, replace

OUT: dict[str, str] = {}


def case(name: str):
    def run(fn):
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                r = fn()
            OUT[name] = f"ok: {r!r}"
        except Exception as e:  # noqa: BLE001
            OUT[name] = f"{type(e).__name__}: {e}"
        if err.getvalue():
            OUT[name] += f" | stderr: {err.getvalue().strip()}"
        return fn

    return run


@py_class("x.Dup")
class Dup(tvm_ffi.Object):
    a: int


@py_class("b.Point")
class Point(tvm_ffi.Object):
    x: int
    y: int = 0


@py_class("b.KW", kw_only=True)
class KW(tvm_ffi.Object):
    a: int


@py_class("x.O20")
class O20(tvm_ffi.Object):
    a: Dup


@py_class("x.Frozen", frozen=True)
class Frozen(tvm_ffi.Object):
    a: int


@py_class("e.Ord", eq=True, order=True)
class Ord(tvm_ffi.Object):
    a: int


@py_class("e.OrdChild", eq=True, order=True)
class OrdChild(Ord):
    pass


@case("1 base not registered")
def _():
    return py_class("x.NotObj")(type("NotObj", (), {"__annotations__": {"a": int}}))


@case("2 duplicate key")
def _():
    @py_class("x.Dup")
    class Dup2(tvm_ffi.Object):
        a: int


@case("2b duplicate C++ key known to Python")
def _():
    @py_class("testing.TestIntPair")
    class P(tvm_ffi.Object):
        a: int


@case("3 order without eq")
def _():
    return py_class("x.O3", order=True)


@case("4 bad class structural_eq")
def _():
    return py_class("x.O4", structural_eq="bogus")


@case("5 py_class(123)")
def _():
    return py_class(123)


@case("6 default + factory")
def _():
    return field(default=1, default_factory=list)


@case("7 factory not callable")
def _():
    return field(default_factory=5)


@case("8 unknown field option")
def _():
    @py_class("x.O3b")
    class O3(tvm_ffi.Object):
        a: int = field(foo=1)


@case("9 bad field structural_eq")
def _():
    return field(structural_eq="bogus")


@case("10 unresolved forward ref")
def _():
    @py_class("x.O16")
    class O16(tvm_ffi.Object):
        a: Undefined123  # noqa: F821

    return O16(1)


@case("11 unsupported annotation")
def _():
    @py_class("x.O11")
    class O11(tvm_ffi.Object):
        a: set


@case("12 missing argument")
def _():
    return Point()


@case("13 missing kw-only")
def _():
    return KW()


@case("14 too many positionals")
def _():
    return Point(1, 2, 3)


@case("15 unknown keyword")
def _():
    return Point(1, z=2)


@case("16 duplicate argument")
def _():
    return Point(1, x=2)


@case("17 wrong type in init")
def _():
    return Point("a")


@case("18 None for object field")
def _():
    return O20(None)


@case("19 frozen write")
def _():
    f = Frozen(1)
    f.a = 2


@case("20 wrong type on assignment")
def _():
    p = Point(1)
    p.x = "s"


@case("21 unknown attribute")
def _():
    p = Point(1)
    p.z = 1


@case("21b del field")
def _():
    d = Dup(1)
    del d.a


@case("22 bad default")
def _():
    @py_class("x.O7b")
    class O7b(tvm_ffi.Object):
        a: int = "s"

    return O7b()


@case("23 init=False class called")
def _():
    @py_class("x.O15", init=False)
    class O15(tvm_ffi.Object):
        a: int

    return O15()


@case("24 re-declared parent field")
def _():
    @py_class("x.O10")
    class O10(Dup):
        a: int


@case("25 fields(int)")
def _():
    return fields(int)


@case("25b fields(Array)")
def _():
    return fields(tvm_ffi.Array([1]))


@case("26 asdict(cls)")
def _():
    return asdict(Point)


@case("26b astuple(1)")
def _():
    return astuple(1)


@case("27 replace unknown")
def _():
    return replace(Dup(1), zz=1)


@case("28 method classmethod")
def _():
    return method(classmethod(lambda c: 1))


@case("28b method non-callable")
def _():
    return method(5)


@case("29 c_class unknown key")
def _():
    return c_class("no.such.Key")(type("K", (tvm_ffi.Object,), {}))


@case("29b register_object unknown key")
def _():
    return tvm_ffi.register_object("no.such.Key")(type("K2", (tvm_ffi.Object,), {}))


@case("30 create_object missing")
def _():
    return t.create_object("b.Point")


@case("30b create_object bad")
def _():
    return t.create_object("b.Point", x="s")


@case("31 ordering parent vs child")
def _():
    return Ord(1) < OrdChild(2)


@case("31b eq parent vs child")
def _():
    return Ord(1) == OrdChild(1)


@case("32 copy non-copyable")
def _():
    return copy.copy(t.TestNonCopyable(1))


@case("34 malformed type attr names")
def _():
    @py_class("x.O34")
    class O34(tvm_ffi.Object):
        __ffi_type_attr_names__ = "abc"
        a: int


@case("hook classmethod")
def _():
    @py_class("x.O17")
    class O17(tvm_ffi.Object):
        a: int

        @classmethod
        def __ffi_repr__(cls, fn):
            return "x"


@case("c_class super init")
def _():
    @c_class("testing.TestCxxAutoInitSimple")
    class Par(tvm_ffi.Object):
        x: int
        y: int

    return Par(1, 2)


@case("c_class frozen no effect")
def _():
    @c_class("testing.TestCxxAutoInitParent", frozen=True)
    class FP(tvm_ffi.Object):
        parent_required: int
        parent_default: int

    o = FP(1)
    o.parent_required = 5
    return (o.parent_required, fields(FP)[0].frozen)


@case("c_class no init")
def _():
    return t._TestCxxNoAutoInit()


@case("c_class conversion error init")
def _():
    return t.TestObjectBase(v_i64="s")


@case("c_class readonly write")
def _():
    p = t.TestIntPair(1, 2)
    p.a = 3


if "refpkg" not in tvm_ffi.__file__:  # the reference segfaults here (DATACLASSES.md 8)

    @case("NULL handle field read")
    def _():
        return Point.__new__(Point).x


@case("Object() repr")
def _():
    return repr(tvm_ffi.Object())


print(json.dumps(OUT, indent=1, sort_keys=True))
