"""Reflection: object types of C libraries become Python classes with fields, methods and
constructors (``TypeInfo``/``TypeField``/``TypeMethod``, ``register_object`` binding)."""

from __future__ import annotations

import dataclasses
import inspect

import pytest
import tvm_ffi
import tvm_ffi.testing as t
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import _class_binding, core

use_count = tvm_ffi.get_global_func("testing.object_use_count")


# ---- TypeInfo / TypeField / TypeMethod ----


def test_type_info_of_a_registered_class() -> None:
    info = t.TestObjectBase.__tvm_ffi_type_info__
    assert isinstance(info, core.TypeInfo)
    assert (info.type_key, info.type_cls, info.type_ancestors) == ("testing.TestObjectBase", t.TestObjectBase, [64])
    assert info.parent_type_info.type_key == "ffi.Object" and info.parent_type_info.type_cls is tvm_ffi.Object
    assert info.total_size == 56
    assert core._lookup_or_register_type_info_from_type_key("testing.TestObjectBase") is info


def test_type_infos_of_runtime_types_name_their_python_classes() -> None:
    type_info = core._lookup_or_register_type_info_from_type_key
    expected = {"ffi.String": core.String, "ffi.Bytes": core.Bytes, "ffi.Error": core.Error,
                "ffi.Function": tvm_ffi.Function, "ffi.Tensor": tvm_ffi.Tensor, "ffi.Shape": tvm_ffi.Shape,
                "ffi.Array": tvm_ffi.Array, "ffi.Module": tvm_ffi.Module, "ffi.Object": tvm_ffi.Object}
    assert {key: type_info(key).type_cls for key in expected} == expected
    # Shape, a tuple subclass, carries its info as the container classes do.
    assert tvm_ffi.Shape.__tvm_ffi_type_info__ is type_info("ffi.Shape")
    # Strings, bytes and shapes are values, not object wrappers: no stand-in Object subclass.
    for key in ("ffi.String", "ffi.Bytes", "ffi.Shape"):
        assert core._class_for_type_index(type_info(key).type_index) is expected[key]


def test_type_fields_describe_layout_flags_defaults_and_docs() -> None:
    v_i64, v_f64, v_str = t.TestObjectBase.__tvm_ffi_type_info__.fields
    assert isinstance(v_i64, core.TypeField)
    assert [(f.name, f.offset, f.size, f.frozen) for f in (v_i64, v_f64, v_str)] == [
        ("v_i64", 24, 8, False), ("v_f64", 32, 8, True), ("v_str", 40, 16, False)]
    assert (v_i64.doc, v_f64.doc) == ("i64 field", None)
    assert (v_i64.c_has_default, v_i64.c_default, v_f64.c_default, v_str.c_default) == (True, 10, 10.0, "hello")
    assert [str(f.ty) for f in (v_i64, v_f64, v_str)] == ["int", "float", "str"]
    assert v_i64.metadata == {"type_schema": '{"type":"int"}'}
    derived = t.TestObjectDerived.__tvm_ffi_type_info__
    assert [f.name for f in derived.fields] == ["v_map", "v_array"]  # own fields only
    assert derived.fields[0].c_default is core.MISSING
    assert [str(f.ty) for f in derived.fields] == ["Map[Any, Any]", "Array[Any]"]


def test_field_flags_of_init_and_compare_fixtures() -> None:
    a, b, c, d = t._TestCxxAutoInit.__tvm_ffi_type_info__.fields
    assert (a.c_init, b.c_init, c.c_kw_only, d.c_default) == (True, False, True, 99)
    base = t._TestCxxClassBase.__tvm_ffi_type_info__.fields
    assert [f.c_repr for f in base] == [False, False]
    assert [f.c_compare for f in t.TestCompare.__tvm_ffi_type_info__.fields] == [True, True, False]
    assert [f.c_hash for f in t.TestHash.__tvm_ffi_type_info__.fields] == [True, True, False]
    assert max(f.offset + f.size for f in base) == 36


def test_type_methods_static_and_instance() -> None:
    methods = {m.name: m for m in t.TestIntPair.__tvm_ffi_type_info__.methods}
    assert isinstance(methods["sum"], core.TypeMethod)
    assert (methods["sum"].is_static, methods["sum"].doc) == (False, "Method to compute sum of a and b")
    assert methods["__ffi_init__"].is_static and methods["__ffi_init__"].func is not None
    assert str(core.TypeSchema.from_json_str(methods["sum"].metadata["type_schema"])) == (
        "Callable[[testing.TestIntPair], int]")
    # Auto-init types have the type attribute only, not a method.
    assert "__ffi_init__" not in {m.name for m in t._TestCxxAutoInit.__tvm_ffi_type_info__.methods}
    assert core._lookup_type_attr(t._TestCxxAutoInit.__tvm_ffi_type_info__.type_index, "__ffi_init__") is not None


def test_type_info_shapes_pack_field_and_method_counts() -> None:
    """What refresh_bound_classes compares after a library loads: fields << 32 | methods << 1 |
    has_metadata per type index, read from the runtime without building the field tuples."""
    info = t.TestIntPair.__tvm_ffi_type_info__
    (shape,) = core._type_info_shapes([info.type_index])
    assert shape == len(info.fields) << 32 | len(info.methods) << 1 | (info.metadata is not None)
    assert core._type_info_shapes(()) == ()
    with pytest.raises(TypeError, match="expects a sequence of type indices"):
        core._type_info_shapes(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        core._type_info_shapes(["x"])  # type: ignore[list-item]
    for index in (-1, 10**6):
        with pytest.raises(ValueError, match="not registered"):
            core._type_info_shapes([index])


def test_lookup_of_unknown_type_key_and_missing_attr() -> None:
    with pytest.raises(ValueError, match="Cannot find type `testing.NoSuchType`"):
        core._lookup_or_register_type_info_from_type_key("testing.NoSuchType")
    assert core._lookup_type_attr(64, "__metadata__") is None


def test_make_object_from_packed_args_takes_a_type_key_or_index() -> None:
    make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
    by_key = make("testing.TestIntPair", "a", 1, "b", 2)
    # Compilers such as TVM pass the static type index they already hold.
    by_index = make(t.TestIntPair.__tvm_ffi_type_info__.type_index, "a", 3, "b", 4)
    assert type(by_index) is type(by_key) and (by_index.a, by_index.b) == (3, 4)
    assert (by_key.a, by_key.b) == (1, 2)
    with pytest.raises(ValueError, match="no type has index 1000000"):
        make(1000000)
    with pytest.raises(ValueError, match="no type has index -1"):
        make(-1)
    with pytest.raises(TypeError, match="Expected `ffi.String` but got `float`"):
        make(1.5)


# ---- fields ----


def test_field_reads_pod_string_and_objects() -> None:
    obj = t.TestObjectBase()
    assert (obj.v_i64, obj.v_f64, obj.v_str) == (10, 10.0, "hello")
    derived = t.create_object("testing.TestObjectDerived", v_i64=20, v_map={"k": 1}, v_array=[1, 2])
    assert (derived.v_i64, dict(derived.v_map), list(derived.v_array)) == (20, {"k": 1}, [1, 2])
    assert isinstance(derived, t.TestObjectBase) and derived.add_i64(1) == 21


def test_field_writes_convert_and_check_types() -> None:
    obj = t.TestObjectBase(v_i64=1)
    obj.v_i64 = 12
    obj.v_str = "a much longer string than seven bytes"
    assert (obj.v_i64, obj.v_str, obj.add_i64(1)) == (12, "a much longer string than seven bytes", 13)
    with pytest.raises(TypeError, match="Cannot convert from type `int` to `str`"):
        obj.v_str = 1
    with pytest.raises(TypeError, match="Cannot convert from type `ffi.SmallStr` to `int`"):
        obj.v_i64 = "hello"
    assert obj.v_i64 == 12  # the old value stays
    derived = t.TestObjectDerived(v_map={}, v_array=[])
    with pytest.raises(TypeError, match="Cannot convert from type `int` to `Map<Any, Any>`"):
        derived.v_map = 1
    with pytest.raises(TypeError, match="Cannot convert from type `None` to `Array<Any>`"):
        derived.v_array = None


def test_frozen_fields_are_read_only_but_settable_through_the_property() -> None:
    pair = t.TestIntPair(1, 2)
    # Worded as this Python's read-only property words it (before 3.11: "can't set attribute").
    with pytest.raises(AttributeError, match="property of 'TestIntPair' object has no setter|can't set attribute"):
        pair.a = 5
    assert t.TestIntPair.a.fset is None and t.TestIntPair.a.__doc__ == "Field `a`"
    t.TestIntPair.a.set(pair, 5)
    assert pair.a == 5
    with pytest.raises(AttributeError, match="property of 'TestIntPair' object has no deleter|can't delete attribute"):
        del pair.b


def test_reflected_fields_are_properties() -> None:
    prop = t.TestIntPair.__dict__["a"]
    assert isinstance(prop, property) and isinstance(prop, core.FieldProperty)
    assert type(prop) is core.FFIProperty and type(prop).__name__ == "FFIProperty"
    assert prop.fget is prop and prop.fdel is None and prop.name == "a" and prop.offset == 24


def test_object_fields_hold_references_and_check_their_type() -> None:
    target = t.TestObjectBase()
    assert use_count(target) == 1
    holder = t.TestObjectPtrHolder(target)
    assert use_count(target) == 2
    value = holder.value
    assert value is not target and value.same_as(target) and use_count(target) == 3
    del value
    assert use_count(target) == 2
    with pytest.raises(TypeError, match="Cannot convert from type `None` to `testing.TestObjectBase`"):
        holder.value = None
    with pytest.raises(TypeError, match="testing.TestObjectBase"):
        holder.value = t.TestIntPair(1, 2)
    assert holder.value.same_as(target) and holder.optional_value is None
    holder.optional_value = t.TestObjectDerived(v_map={}, v_array=[])  # a subtype is accepted
    assert isinstance(holder.optional_value, t.TestObjectDerived)
    del holder
    assert use_count(target) == 1


def test_any_field_round_trips_values() -> None:
    edges = t.create_object("testing.TestDeepCopyEdges", v_any=[1, "x"], v_obj=None)
    assert list(edges.v_any) == [1, "x"] and edges.v_obj is None
    edges.v_any = 3.5
    assert edges.v_any == 3.5


def test_field_access_on_an_empty_instance_is_an_error() -> None:
    bare = t.TestIntPair.__new__(t.TestIntPair)
    assert bare.__chandle__() == 0
    with pytest.raises(ValueError, match="holds no object"):
        bare.a  # noqa: B018


# ---- methods ----


def test_methods_are_bound_and_check_arity() -> None:
    pair = t.TestIntPair(3, 4)
    assert pair.sum() == 7 and t.TestIntPair.sum(pair) == 7
    assert t.TestIntPair.sum.__doc__ == "Method to compute sum of a and b"
    with pytest.raises(TypeError, match=r"Mismatched number of arguments when calling: `testing.TestIntPair"
                                        r".sum\(0: testing.TestIntPair\) -> int`. Expected 1 but got 2 arguments"):
        pair.sum(1)
    with pytest.raises(TypeError, match="Expected `testing.TestIntPair` but got `testing.TestObjectBase`"):
        t.TestIntPair.sum(t.TestObjectBase())


def test_class_body_wins_over_reflection() -> None:
    @tvm_ffi.register_object("testing.TestIntPair")
    class MyPair(tvm_ffi.Object):
        __slots__ = ()

        def sum(self) -> int:
            return -1

    try:
        pair = MyPair(1, 2)
        assert (pair.sum(), pair.a, type(pair)) == (-1, 1, MyPair)
    finally:
        tvm_ffi.register_object("testing.TestIntPair")(t.TestIntPair)
    assert type(tvm_ffi.get_global_func("testing.echo")(pair)) is t.TestIntPair


def test_type_attribute_hooks_are_class_attributes() -> None:
    hooks = {"__ffi_hash__", "__ffi_eq__", "__ffi_compare__", "__ffi_repr__"}
    assert hooks & set(vars(t.TestCustomCompare)) == {"__ffi_hash__", "__ffi_eq__", "__ffi_compare__"}
    assert hooks & set(vars(t.TestEqWithoutHash)) == {"__ffi_eq__"}
    assert t.TestCustomHash.__ffi_hash__(t.TestCustomHash(7, "x"), lambda key: key * 10) == 70


# ---- constructors ----


def test_explicit_init_is_positional() -> None:
    pair = t.TestIntPair(1, 2)
    assert (pair.a, pair.b) == (1, 2) and pair.__slots__ == () and not hasattr(pair, "__dict__")
    bare = t.TestIntPair.__new__(t.TestIntPair)
    bare.__ffi_init__(10, 20)
    assert bare.sum() == 30
    with pytest.raises(TypeError, match=r"`testing.TestIntPair.__ffi_init__\(0: int, 1: int\) -> ffi.Object`. "
                                        "Expected 2 but got 1 arguments"):
        t.TestIntPair(1)
    with pytest.raises(TypeError, match="Expected 2 but got 5 arguments"):
        t.TestIntPair(a=1, b=2)  # keywords travel in KWARGS form, which the typed init rejects
    with pytest.raises(TypeError, match="Mismatched type on argument #1 .* Expected `int` but got `ffi.SmallStr`"):
        t.TestIntPair(1, "x")


def test_auto_init_takes_positionals_and_keywords() -> None:
    obj = t._TestCxxAutoInit(1, c=3)
    assert (obj.a, obj.b, obj.c, obj.d) == (1, 42, 3, 99)
    assert t._TestCxxAutoInit(1, 2, c=3).d == 2
    assert [t._TestCxxAutoInitAllInitOff().x, t._TestCxxAutoInitAllInitOff().y, t._TestCxxAutoInitAllInitOff().z] == [
        7, 9, 1234]
    child = t._TestCxxAutoInitChild(1, 2, 3, child_kw_only=4)
    assert (child.parent_required, child.child_required, child.parent_default, child.child_kw_only) == (1, 2, 3, 4)
    assert t._TestCxxKwOnly(x=1, y=2, z=3).w == 100
    subset = t._TestCxxInitSubset(5)
    assert (subset.optional_field, subset.note) == (-1, "default")
    base = t._TestCxxClassBase(v_i64=10, v_i32=20)  # the class's own __init__ adds 1 and 2
    assert (base.v_i64, base.v_i32) == (11, 22)
    derived = t._TestCxxClassDerivedDerived(1, 2, 3.0, True)
    assert (derived.v_f32, derived.v_str, derived.v_bool) == (8.0, "default", True)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: t._TestCxxAutoInit(c=1), "missing required argument: 'a'"),
    (lambda: t._TestCxxAutoInit(1), "missing required keyword-only argument: 'c'"),
    (lambda: t._TestCxxAutoInitChild(1, 2, 3, 4), "takes at most 3 positional argument"),
    (lambda: t._TestCxxAutoInit(1, 2, c=3, d=4), "got multiple values for argument 'd'"),
    (lambda: t._TestCxxAutoInit(1, c=3, b=2), "got an unexpected keyword argument 'b'"),
    (lambda: t._TestCxxAutoInit(1, c=3, bogus=2), "got an unexpected keyword argument 'bogus'"),
    (lambda: t._TestCxxAutoInitSimple("x", 1), "field 'x':\n  Cannot convert from type `ffi.SmallStr` to `int`"),
    (lambda: t.TestObjectPtrHolder(None), "field 'value':\n  Cannot convert from type `None`"),
    (lambda: t._TestCxxNoAutoInit(), "`_TestCxxNoAutoInit` cannot be constructed directly"),
])
def test_init_errors_name_the_type_and_field(call, message: str) -> None:  # noqa: ANN001
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_ffi_init_reinitialises_a_live_object() -> None:
    obj = t._TestCxxAutoInitAllInitOff()
    obj.z = 5
    obj.__ffi_init__()
    assert obj.z == 1234
    auto = t._TestCxxAutoInit.__new__(t._TestCxxAutoInit)
    auto.__ffi_init__(a=1, c=3)
    assert (auto.a, auto.c) == (1, 3)


def test_register_object_gives_the_constructor_a_signature() -> None:
    @tvm_ffi.register_object("testing.TestCxxAutoInitChild")
    class Child(t._TestCxxAutoInitParent):
        __slots__ = ()

    try:
        expected = "(parent_required, child_required, parent_default=<MISSING>, *, child_kw_only)"
        assert str(inspect.signature(Child)) == expected
        assert str(inspect.signature(Child.__init__)) == "(self, " + expected[1:]
        assert Child(1, 2, child_kw_only=4).parent_default == 5  # the runtime fills the default
    finally:
        tvm_ffi.register_object("testing.TestCxxAutoInitChild")(t._TestCxxAutoInitChild)


def test_a_field_named_by_a_python_keyword_leaves_the_constructor_without_signature() -> None:
    # C++ fields may be called `def` or `lambda` (TVM has both); no Python parameter can be.
    info = t._TestCxxAutoInitSimple.__tvm_ffi_type_info__
    renamed = dataclasses.replace(info, fields=[dataclasses.replace(f, name="def") if f.name == "x" else f
                                                for f in info.fields])
    assert _class_binding.signature_of(renamed) is None
    assert _class_binding.init_signature(None) is None
    assert str(_class_binding.signature_of(info)) == "(x, y)"


def test_a_subclass_with_its_own_init_reports_that_signature() -> None:
    class Scaled(t._TestCxxAutoInitParent):
        def __init__(self, scale, offset=0) -> None:  # noqa: ANN001
            super().__init__(scale, offset)

    assert str(inspect.signature(Scaled)) == "(scale, offset=0) -> 'None'"
    assert str(inspect.signature(t._TestCxxAutoInitParent)) == "(parent_required, parent_default=<MISSING>)"


# ---- classes for types without one ----


def test_unregistered_types_get_a_fallback_class_with_their_reflection() -> None:
    obj = t.make_unregistered_object()
    cls = type(obj)
    assert (cls.__name__, cls.__module__, cls.__qualname__) == (
        "TestUnregisteredObject", "testing", "testing.TestUnregisteredObject")
    assert "Auto-generated fallback class" in cls.__doc__
    assert (obj.v1, obj.v2, obj.get_v1_plus_one(), obj.get_v2_plus_two()) == (41, 42, 42, 44)
    assert "Get (v1 + 1) from TestUnregisteredBaseObject" in cls.get_v1_plus_one.__doc__
    assert cls.__mro__[1].__name__ == "TestUnregisteredBaseObject"
    assert cls.__tvm_ffi_type_info__.type_key == "testing.TestUnregisteredObject"
    assert type(t.make_unregistered_object()) is cls
    again = cls(1, 2)  # its explicit __ffi_init__ is bound too
    assert (again.v1, again.v2) == (1, 2)


# ---- tvm_ffi.testing helpers ----


def test_run_with_gpu_lock_runs_and_propagates(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    from tvm_ffi.testing import _locking

    monkeypatch.setenv("TVM_FFI_TEST_LOCK_DIR", str(tmp_path / "locks"))
    monkeypatch.setattr(_locking, "_LOCK_PATH", None)
    assert t.run_with_gpu_lock(lambda a, b=0: a + b, 1, b=2) == 3
    assert (tmp_path / "locks" / "gpu.lock").exists()
    with pytest.raises(ValueError, match="boom"):
        t.run_with_gpu_lock(lambda: (_ for _ in ()).throw(ValueError("boom")))
    assert t.run_with_gpu_lock(lambda: "again") == "again"  # released after the error


def test_python_version_marks_and_pytest_opt_out() -> None:
    from tvm_ffi.testing import testing as fixtures

    assert fixtures.requires_py310.name == "skipif"
    assert all(getattr(cls, "__test__", True) is False for cls in (t.TestIntPair, t.TestObjectBase, t.TestCompare))
    assert t.TestObjectBase.__slots__ == () and not hasattr(t.TestObjectBase(), "__dict__")


def test_python_bases_win_over_reflection_of_subtypes() -> None:
    class Named(tvm_ffi.Object):
        __slots__ = ()

        def get_v1_plus_one(self) -> str:  # same name as a reflected method of the subtype
            return "python"

    tvm_ffi.register_object("testing.TestUnregisteredBaseObject")(Named)
    try:
        obj = t.make_unregistered_object()
        assert isinstance(obj, Named) and obj.get_v1_plus_one() == "python" and obj.get_v2_plus_two() == 44
    finally:  # back to a synthesised class (and its child under it) for the other tests
        from tvm_ffi._class_binding import make_fallback_class

        make_fallback_class(core._lookup_or_register_type_info_from_type_key("testing.TestUnregisteredBaseObject").type_index)
    assert type(t.make_unregistered_object()).__mro__[1].__name__ == "TestUnregisteredBaseObject"


def test_field_descriptor_rejects_non_objects() -> None:
    pair = t.TestIntPair(1, 2)
    assert t.TestIntPair.a.__get__(pair) == 1  # remembers the checked type
    with pytest.raises(TypeError, match="field `a` needs a tvm_ffi Object, got `int`"):
        t.TestIntPair.a.__get__(5)
    with pytest.raises(TypeError, match="needs a tvm_ffi Object"):
        t.TestIntPair.a.set("not an object", 1)
    assert t.TestIntPair.a.__get__(None, t.TestIntPair) is t.TestIntPair.a


def test_the_runtime_reflects_the_visit_error_record() -> None:
    from tvm_ffi.core import _lookup_or_register_type_info_from_type_key

    info = _lookup_or_register_type_info_from_type_key("ffi.VisitErrorContext")
    assert [(f.name, f.offset, f.frozen) for f in info.fields] == [
        ("reverse_visit_pattern", 24, True), ("prev_error_context", 32, True)]
    assert core._lookup_type_attr(info.type_index, "__ffi_type_final__") is True
