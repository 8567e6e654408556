"""@py_class: new runtime types defined from Python."""

from __future__ import annotations

import copy
import inspect
import pickle
from typing import Any, ClassVar

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import _core
from tvm_ffi.dataclasses import KW_ONLY, MISSING, field, fields, init_property, py_class, replace


@py_class("dc_test.Point")
class Point(tvm_ffi.Object):
    x: int
    y: int = 0


@py_class("dc_test.Layout")
class Layout(tvm_ffi.Object):
    b: bool
    i: int
    b2: bool
    f: float
    s: str
    by: bytes
    d: tvm_ffi.Device
    dt: tvm_ffi.dtype
    b3: bool
    o: int | None
    u: int | str
    a: Any


@py_class("dc_test.Base")
class Base(tvm_ffi.Object):
    x: int
    flag: bool


@py_class("dc_test.Child")
class Child(Base):
    y: bool
    z: int


@py_class("dc_test.Node", eq=True, order=True, unsafe_hash=True)
class Node(tvm_ffi.Object):
    v: int
    next: Node | None = None


@py_class("dc_test.Frozen", frozen=True)
class Frozen(tvm_ffi.Object):
    a: int


@py_class("dc_test.Opts")
class Opts(tvm_ffi.Object):
    a: int
    b: str = "x"
    _: KW_ONLY
    c: float
    d: bool = True
    items: list = field(default_factory=list, init=False)
    hidden: int = field(default=3, repr=False, compare=False)


def test_construct_read_write() -> None:
    p = Point(1, 2)
    assert (p.x, p.y) == (1, 2)
    p.x = 10
    assert p.x == 10
    assert Point(3).y == 0
    assert Point(y=5, x=4).y == 5
    assert repr(p) == "dc_test.Point(x=10, y=2)"


def test_type_is_registered_in_runtime() -> None:
    info = Point.__tvm_ffi_type_info__
    assert info.type_key == "dc_test.Point"
    assert _core._object_type_key_to_index("dc_test.Point") == info.type_index
    assert [(f.name, f.offset, f.size) for f in info.fields] == [("x", 24, 8), ("y", 32, 8)]
    assert info.fields[0].metadata == {"type_schema": {"type": "int"}}


def test_layout_matches_reference_rules() -> None:
    info = Layout.__tvm_ffi_type_info__
    assert [(f.offset, f.size) for f in info.fields] == [
        (24, 1), (32, 8), (40, 1), (48, 8), (56, 16), (72, 16), (88, 8), (96, 4), (100, 1), (104, 16),
        (120, 16), (136, 16)]
    assert info.total_size == 152
    child = [(f.name, f.offset) for f in Child.__tvm_ffi_type_info__.fields]
    assert child == [("y", 33), ("z", 40)]  # tail padding of the parent reused


def test_all_storage_kinds_round_trip() -> None:
    obj = Layout(True, 7, False, 2.5, "hello world, long string", b"by", tvm_ffi.device("cuda:1"),
                 tvm_ffi.dtype("float16"), True, None, "u", [1, 2])
    assert (obj.b, obj.i, obj.b2, obj.f) == (True, 7, False, 2.5)
    assert obj.s == "hello world, long string" and obj.by == b"by"
    assert str(obj.d) == "cuda:1" and str(obj.dt) == "float16"
    assert obj.o is None and obj.u == "u" and list(obj.a) == [1, 2]
    obj.o = 4
    obj.u = 5
    assert (obj.o, obj.u) == (4, 5)


def test_objects_cross_the_abi_with_class_and_identity() -> None:
    identity = tvm_ffi.get_global_func("testing.echo") if tvm_ffi.get_global_func(
        "testing.echo", allow_missing=True) else tvm_ffi.convert(lambda v: v)
    p = Point(1, 2)
    back = identity(p)
    assert type(back) is Point and back.same_as(p)
    arr = tvm_ffi.Array([p, Child(1, True, False, 3)])
    assert type(arr[0]) is Point and type(arr[1]) is Child


def test_create_object_from_runtime() -> None:
    make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
    p = make("dc_test.Point", "x", 5)
    assert type(p) is Point and (p.x, p.y) == (5, 0)


def test_inheritance_parent_fields_first() -> None:
    c = Child(1, True, False, 3)
    assert (c.x, c.flag, c.y, c.z) == (1, True, False, 3)
    assert isinstance(c, Base)
    assert [f.name for f in fields(c)] == ["x", "flag", "y", "z"]
    assert repr(c) == "dc_test.Child(x=1, flag=True, y=False, z=3)"


def test_signature_and_options() -> None:
    assert str(inspect.signature(Point)) == "(x, y=<MISSING>)"
    assert str(inspect.signature(Opts)) == "(a, b=<MISSING>, *, c, d=<MISSING>, hidden=<MISSING>)"
    o = Opts(1, c=2.0)
    assert (o.a, o.b, o.c, o.d, o.hidden) == (1, "x", 2.0, True, 3)
    assert list(o.items) == [] and type(o.items) is tvm_ffi.List
    assert not Opts(1, c=1.0).items.same_as(o.items)  # a fresh list per instance
    assert repr(o) == 'dc_test.Opts(a=1, b="x", c=2, d=True, items=[])'
    assert Opts.__match_args__ == ("a", "b")


def test_frozen() -> None:
    f = Frozen(1)
    with pytest.raises(AttributeError, match="has no setter|can't set attribute"):
        f.a = 2
    g = replace(f, a=5)
    assert (f.a, g.a) == (1, 5)


# Types are registered for the process: classes are defined at module level, not per test
# (the leak check counts what a test leaves behind).
@py_class("dc_test.Post")
class Post(tvm_ffi.Object):
    a: int

    def __post_init__(self) -> None:
        self.a = self.a * 2


@py_class("dc_test.UserInit")
class UserInit(tvm_ffi.Object):
    a: int

    def __init__(self, v: int) -> None:
        self.a = v + 1


@py_class("dc_test.Early")
class Early(tvm_ffi.Object):
    later: Later | None = None  # defined below: the class completes when Later is decorated


@py_class("dc_test.Later")
class Later(tvm_ffi.Object):
    v: int = 1


@py_class("dc_test.Dangling")
class Dangling(tvm_ffi.Object):
    a: Undefined123  # type: ignore[name-defined]  # noqa: F821


def test_forward_references_complete_later() -> None:
    e = Early(Later(5))
    assert e.later.v == 5 and type(e.later) is Later
    assert [f.name for f in fields(Early)] == ["later"]


def test_unresolved_forward_reference_fails_at_construction() -> None:
    with pytest.raises(TypeError, match=r"Cannot instantiate Dangling: unresolved forward references: "
                                        r"\[\"a: Undefined123 \(name 'Undefined123' is not defined\)\"\]"):
        Dangling(1)


def test_post_init_runs() -> None:
    assert Post(4).a == 8


def test_user_init() -> None:
    assert UserInit(1).a == 2
    assert str(inspect.signature(UserInit)) == "(v: 'int') -> 'None'"


def test_eq_hash_order() -> None:
    a, b = Node(1), Node(1)
    assert a == b and not (a != b) and hash(a) == hash(b)
    assert Node(1) < Node(2) <= Node(2)
    assert Node(2, Node(1)) == Node(2, Node(1))
    assert Point(1) != Point(1)  # eq=False: identity


def test_copy_deepcopy_pickle() -> None:
    n = Node(2, Node(1))
    shallow = copy.copy(n)
    assert shallow.next.same_as(n.next) and not shallow.same_as(n)
    deep = copy.deepcopy(n)
    assert type(deep) is Node and deep == n and not deep.next.same_as(n.next)
    back = pickle.loads(pickle.dumps(n))
    assert type(back) is Node and back == n


def test_conversion_errors() -> None:
    p = Point(1)
    with pytest.raises(TypeError, match="expected int, got str"):
        p.x = "a"
    with pytest.raises(TypeError, match=r"dc_test.Point.__ffi_init__\(\) field 'x':\n  expected int, got str"):
        Point("a")
    with pytest.raises(TypeError, match="missing required argument: 'x'"):
        Point()
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        Point(1, z=2)
    with pytest.raises(TypeError, match="takes at most 2 positional"):
        Point(1, 2, 3)
    with pytest.raises(TypeError, match="expected dc_test.Node, got dc_test.Point"):
        Node(1, Point(1))
    with pytest.raises(AttributeError):
        p.zz = 1  # no instance __dict__


def test_bad_usage_errors() -> None:
    with pytest.raises(TypeError, match="must inherit from a registered FFI Object type"):
        py_class("dc_test.NotObj")(type("NotObj", (), {"__annotations__": {"a": int}}))
    with pytest.raises(ValueError, match="Type key 'dc_test.Point' is already registered"):
        @py_class("dc_test.Point")
        class Again(tvm_ffi.Object):
            a: int
    with pytest.raises(ValueError, match="order=True requires eq=True"):
        py_class("dc_test.Bad", order=True)
    with pytest.raises(TypeError, match="py_class: expected str or type"):
        py_class(123)
    with pytest.raises(ValueError, match="cannot specify both default and default_factory"):
        field(default=1, default_factory=list)
    with pytest.raises(TypeError, match="default_factory must be a callable, got int"):
        field(default_factory=5)
    with pytest.raises(TypeError, match="Cannot convert <class 'set'> to TypeSchema"):
        @py_class("dc_test.SetField")
        class SetField(tvm_ffi.Object):
            a: set
    with pytest.raises(ValueError, match="duplicate parameter name: 'x'"):
        @py_class("dc_test.Shadow")
        class Shadow(Point):
            x: int


def test_missing_is_the_core_sentinel() -> None:
    assert MISSING is _core.MISSING


def test_reflection_refresh_keeps_dataclass_facts() -> None:
    from tvm_ffi._class_binding import refresh_bound_classes

    refresh_bound_classes()  # what loading a library does
    assert [f.name for f in fields(Child)] == ["x", "flag", "y", "z"]
    with pytest.raises(AttributeError, match="has no setter|can't set attribute"):
        Frozen(1).a = 2


def test_asdict_astuple_is_dataclass() -> None:
    from tvm_ffi.dataclasses import Field, Object, asdict, astuple, is_dataclass

    n = Node(2, Node(1))
    assert asdict(n) == {"v": 2, "next": {"v": 1, "next": None}}
    assert astuple(n) == (2, (1, None))
    o = Opts(1, c=2.0)
    assert asdict(o)["items"] == [] and type(asdict(o)["items"]) is list
    assert is_dataclass(n) and is_dataclass(Node) and not is_dataclass(tvm_ffi.Array([1]))
    assert all(isinstance(f, Field) for f in fields(Node)) and Object is tvm_ffi.Object
    with pytest.raises(TypeError, match=r"asdict\(\) should be called on c_class / py_class instances"):
        asdict(Node)
    with pytest.raises(TypeError, match=r"astuple\(\) should be called"):
        astuple(1)


@py_class("test.dataclasses.AsdictHolder")
class AsdictHolder(tvm_ffi.Object):
    value: Any


def test_asdict_builds_ffi_maps_with_the_dict_factory() -> None:
    """As the reference: FFI maps inside a dataclass come out through ``dict_factory`` (astuple
    gives plain dicts); scalars, text and FFI objects that are not dataclasses stay as they are."""
    from tvm_ffi.dataclasses import asdict, astuple

    as_pairs = asdict(AsdictHolder({"k": [1, Node(3)]}), dict_factory=list)
    assert as_pairs == [("value", [("k", [1, [("v", 3), ("next", None)]])])]
    assert astuple(AsdictHolder({"k": 1})) == ({"k": 1},)
    func = tvm_ffi.get_global_func("testing.echo")
    for value in (func, 2**70, "text", b"raw", 1.5, True, None):
        assert asdict(AsdictHolder(value))["value"] is value or asdict(AsdictHolder(value))["value"] == value
    assert asdict(AsdictHolder(func))["value"].same_as(func)


def test_field_objects_after_decoration() -> None:
    by_name = {f.name: f for f in fields(Opts)}
    assert by_name["c"].kw_only is True and by_name["a"].kw_only is False
    assert by_name["hidden"].hash is False and by_name["hidden"].compare is False
    assert by_name["a"].type is int and repr(by_name["a"]._ty_schema) == "int"


def test_replace_unknown_field() -> None:
    with pytest.raises(AttributeError, match="zz"):
        replace(Point(1), zz=1)


@py_class("dc_test.Rect")
class Rect(tvm_ffi.Object):
    w: int
    h: int

    @init_property
    def area(self) -> int:
        """w * h, computed once."""
        return self.w * self.h


def test_init_property_computed_once_after_init() -> None:
    r = Rect(2, 3)
    assert r.area == 6
    r.w = 10
    assert r.area == 6  # stored, not recomputed
    assert str(inspect.signature(Rect)) == "(w, h)"
    assert repr(r) == "dc_test.Rect(w=10, h=3)"  # repr=False
    area = {f.name: f for f in fields(Rect)}["area"]
    assert (area.init, area.repr, area.compare, area.hash, area.structural_eq) == (False, False, False, False,
                                                                                  "ignore")


@py_class("dc_test.Square")
class Square(Rect):
    @init_property
    def area(self) -> int:  # a new computation for the inherited init_property field
        """w * w, computed once."""
        return self.w * self.w


def test_init_property_redefined_in_a_subclass_replaces_the_computation() -> None:
    assert Square(3, 5).area == 9  # only the subclass's function runs
    assert [f.name for f in fields(Square)] == ["w", "h", "area"]  # still one field


@py_class("dc_test.SuperUser")
class SuperUser(Point):
    z: int = 0

    def describe(self) -> str:
        return f"super:{super().__repr__()}"


def test_zero_argument_super_in_body_methods() -> None:
    assert SuperUser(1, 2, 3).describe() == "super:dc_test.SuperUser(x=1, y=2, z=3)"



@py_class("dc_pytest.SuperBase")
class SuperBase(tvm_ffi.Object):
    tag: int = 5


@py_class("dc_pytest.SuperChild", init=False)
class SuperChild(SuperBase):
    name: str
    items: list  # type: ignore[type-arg]

    def __init__(self, name: str) -> None:
        super().__init__(tag=7)
        self.name = name
        self.items = [name] * 8


def test_super_init_of_a_parent_keeps_the_subclass_storage() -> None:
    # A custom __init__ whose instance is made as the subclass: the parent's generated
    # constructor sets the parent's fields on it rather than swapping in a smaller object.
    for _ in range(200):  # writes past a parent-sized object would corrupt the heap
        child = SuperChild("x")
        assert (child.tag, child.name, len(child.items)) == (7, "x", 8)
    assert type(child).__tvm_ffi_type_info__.type_key == "dc_pytest.SuperChild"  # type: ignore[attr-defined]


@py_class("dc_pytest.PlainBaseNode")
class PlainBaseNode(tvm_ffi.Object):
    x: int


class PlainBinOp(PlainBaseNode):  # not registered: its annotations are fields of subclasses
    lhs: int
    rhs: int


class PlainMixin:
    tag: str


@py_class("dc_pytest.PlainAdd")
class PlainAdd(PlainMixin, PlainBinOp):
    kind: ClassVar[str] = "add"
    scale: int

    def __init__(self, x: int, lhs: int, rhs: int, tag: str, scale: int) -> None:
        """Make an addition."""
        self.__ffi_init__(x, lhs, rhs, tag, scale)  # type: ignore[attr-defined]


class PlainOptions(PlainBaseNode):  # field() options written in a plain parent
    lhs: int
    hidden: int = field(default=99, init=False)
    _: KW_ONLY
    rhs: int


@py_class("dc_pytest.PlainOptionsAdd")
class PlainOptionsAdd(PlainOptions):
    scale: int


def test_field_options_of_a_plain_parent_apply_and_its_defaults_are_read_per_instance() -> None:
    obj = PlainOptionsAdd(0, 1, rhs=3, scale=2)
    assert (obj.x, obj.lhs, obj.hidden, obj.rhs, obj.scale) == (0, 1, 99, 3, 2)
    obj.hidden = 5  # the instance's field, not the plain class's field() object
    assert obj.hidden == 5 and PlainOptionsAdd(0, 1, rhs=3, scale=2).hidden == 99
    with pytest.raises(TypeError):
        PlainOptionsAdd(0, 1, 2, rhs=3)  # type: ignore[misc]  # rhs is keyword-only


def test_fields_of_plain_parents_classvars_and_user_init_metadata() -> None:
    add = PlainAdd(0, 1, 2, "t", 3)
    assert (add.x, add.lhs, add.rhs, add.tag, add.scale) == (0, 1, 2, "t", 3)
    assert [f.name for f in fields(PlainAdd)] == ["x", "lhs", "rhs", "tag", "scale"]
    assert PlainAdd.kind == "add"  # a ClassVar stays a class attribute, not a field
    assert PlainAdd.__init__.__doc__ == "Make an addition."
    assert str(inspect.signature(PlainAdd.__init__)).startswith("(self, x: 'int'")



def _define_mutual_pair() -> tuple[Any, Any]:
    """Two classes of one function scope (neither is a module global) naming each other: the
    first waits for the second, which names the first while it waits."""

    @py_class("dc_pytest.MutualFoo")
    class MutualFoo(tvm_ffi.Object):
        value: int
        bar: MutualBar | None

        def __init__(self, value: int) -> None:  # kept through the wait for MutualBar
            self.__ffi_init__(value, None)  # type: ignore[attr-defined]

    @py_class("dc_pytest.MutualBar")
    class MutualBar(tvm_ffi.Object):
        value: int
        foo: MutualFoo | None

    return MutualFoo, MutualBar


MutualFoo, MutualBar = _define_mutual_pair()


def test_classes_in_one_scope_may_refer_to_each_other() -> None:
    foo = MutualFoo(1)
    bar = MutualBar(value=2, foo=foo)
    foo.bar = bar
    assert (foo.value, foo.bar.value, bar.foo.value) == (1, 2, 1)
    foo.bar = None  # no cycle left behind


BrokenAnnotation = py_class("dc_pytest.BrokenAnnotation")(type(
    "BrokenAnnotation", (tvm_ffi.Object,), {"__module__": __name__, "__annotations__": {"bad": "len(1)"}}))


def test_an_annotation_that_fails_to_evaluate_is_reported_at_construction() -> None:
    with pytest.raises(TypeError, match=r"Cannot instantiate BrokenAnnotation: .*bad: len\(1\)"):
        BrokenAnnotation()

