"""The structural services on the testing fixture types (tvm_ffi.testing), with the reference's
printed forms, documents and comparison results (spec STRUCTURAL.md)."""

from __future__ import annotations

import copy
import pickle

import pytest
import tvm_ffi
from tvm_ffi import testing
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str

ReprPrint = tvm_ffi.get_global_func("ffi.ReprPrint")
RecursiveEq, RecursiveLt, RecursiveLe, RecursiveGe, RecursiveHash = (
    tvm_ffi.get_global_func(f"ffi.Recursive{name}") for name in ("Eq", "Lt", "Le", "Ge", "Hash")
)


def test_repr_of_fixture_objects() -> None:
    assert repr(testing.TestIntPair(1, 2)) == "testing.TestIntPair(a=1, b=2)"
    nested = [testing.TestIntPair(1, 2), {"p": testing.TestIntPair(3, 4)}]
    assert ReprPrint(nested) == '(testing.TestIntPair(a=1, b=2), {"p": testing.TestIntPair(a=3, b=4)})'
    assert repr(testing.TestObjectBase()) == 'testing.TestObjectBase(v_i64=10, v_f64=10, v_str="hello")'
    derived = testing.TestObjectDerived(v_map={"a": 1}, v_array=[1])
    assert repr(derived) == ('testing.TestObjectDerived(v_i64=10, v_f64=10, v_str="hello", v_map={"a": 1}, '
                             "v_array=(1,))")
    assert repr(testing.TestCompare(1, "x", 100)) == 'testing.TestCompare(key=1, name="x", ignored_field=100)'
    p = testing.TestIntPair(1, 2)
    assert ReprPrint([p, p]) == "(testing.TestIntPair(a=1, b=2), testing.TestIntPair(a=1, b=2))"


def test_repr_of_an_object_cycle_through_an_array() -> None:
    derived = testing.TestObjectDerived(v_map={}, v_array=[])
    derived.v_array = [derived]
    assert repr(derived) == ('testing.TestObjectDerived(v_i64=10, v_f64=10, v_str="hello", v_map={}, '
                             "v_array=(...,))")
    derived.v_array = []  # break the cycle


def test_json_documents_of_fixture_objects() -> None:
    p = testing.TestIntPair(1, 2)
    assert to_json_graph_str(p) == '{"root_index":0,"nodes":[{"type":"testing.TestIntPair","data":{"a":1,"b":2}}]}'
    text = to_json_graph_str([p, p, testing.TestIntPair(1, 2)])
    assert text == ('{"root_index":2,"nodes":[{"type":"testing.TestIntPair","data":{"a":1,"b":2}},'
                    '{"type":"testing.TestIntPair","data":{"a":1,"b":2}},{"type":"ffi.Array","data":[0,0,1]}]}')
    back = from_json_graph_str(text)
    assert back[0].same_as(back[1]) and not back[0].same_as(back[2]) and back[0].a == 1
    derived = testing.TestObjectDerived(v_map={"a": 1}, v_array=[1, "hello"])
    assert to_json_graph_str(derived) == (
        '{"root_index":5,"nodes":[{"type":"ffi.String","data":"hello"},{"type":"ffi.String","data":"a"},'
        '{"type":"int","data":1},{"type":"ffi.Map","data":[1,2]},{"type":"ffi.Array","data":[2,0]},'
        '{"type":"testing.TestObjectDerived","data":{"v_i64":10,"v_f64":10.0,"v_str":0,"v_map":3,"v_array":4}}]}'
    )
    assert repr(from_json_graph_str(to_json_graph_str(derived))) == repr(derived)
    for big in (10**15, -(10**15)):
        assert from_json_graph_str(to_json_graph_str(testing.TestIntPair(big, 1))).a == big


def test_fixtures_declare_no_structural_kind() -> None:
    # As in the reference, the C++ fixtures register no structural eq/hash kind, so the
    # structural services refuse them (even an object against itself).
    p = testing.TestIntPair(1, 2)
    message = "_type_s_eq_hash_kind is not set for type `testing.TestIntPair`"
    with pytest.raises(TypeError, match=message):
        tvm_ffi.structural_equal(p, p)
    with pytest.raises(TypeError, match=message):
        tvm_ffi.structural_hash(p)
    with pytest.raises(TypeError, match="`testing.TestObjectBase`"):
        tvm_ffi.structural_equal([testing.TestObjectBase()], [testing.TestObjectBase()])


def test_json_reader_errors_on_fixture_types() -> None:
    with pytest.raises(TypeError, match="Required field `b` not set in type `testing.TestIntPair`"):
        from_json_graph_str('{"root_index":0,"nodes":[{"type":"testing.TestIntPair","data":{"a":1}}]}')
    with pytest.raises(TypeError, match="`ffi.SmallStr` to `int`"):
        from_json_graph_str('{"root_index":0,"nodes":[{"type":"testing.TestIntPair","data":{"a":"x","b":1}}]}')
    with pytest.raises(TypeError, match="Type `testing.TestNonCopyable` does not support ToJSONGraph"):
        to_json_graph_str(testing.TestNonCopyable(1))
    with pytest.raises(RuntimeError, match="does not support reflection creation"):
        from_json_graph_str('{"root_index":0,"nodes":[{"type":"testing.TestNonCopyable","data":{}}]}')


def test_copy_and_pickle_of_fixture_objects() -> None:
    derived = testing.TestObjectDerived(v_map={"a": 1}, v_array=[1])
    shallow = copy.copy(derived)
    assert not shallow.same_as(derived) and shallow.v_map.same_as(derived.v_map)
    deep = copy.deepcopy(derived)
    assert not deep.v_map.same_as(derived.v_map) and repr(deep) == repr(derived)
    p = testing.TestIntPair(1, 2)
    shared = tvm_ffi.get_global_func("ffi.DeepCopy")([p, p, {"k": p}])
    assert shared[0].same_as(shared[1]) and shared[0].same_as(shared[2]["k"]) and not shared[0].same_as(p)
    cyclic = testing.TestObjectDerived(v_map={}, v_array=[])
    cyclic.v_array = [cyclic]  # object -> Array -> the same object
    cyclic_copy = copy.deepcopy(cyclic)
    assert cyclic_copy.v_array[0].same_as(cyclic_copy) and not cyclic_copy.same_as(cyclic)
    cyclic.v_array = []
    cyclic_copy.v_array = []
    assert pickle.loads(pickle.dumps(p)).b == 2
    with pytest.raises(RuntimeError, match='"testing.TestNonCopyable" because it is not copy-constructible'):
        copy.deepcopy(testing.TestNonCopyable(1))
    with pytest.raises(TypeError, match="does not support copy"):
        copy.copy(testing.TestNonCopyable(1))


def test_recursive_comparison_of_fixture_objects() -> None:
    assert RecursiveLt(testing.TestIntPair(1, 2), testing.TestIntPair(1, 3))
    assert not RecursiveLt(testing.TestIntPair(2, 0), testing.TestIntPair(1, 3))
    assert RecursiveEq(testing.TestCompare(1, "x", 100), testing.TestCompare(1, "x", 999))
    a, b = testing.TestHash(1, "a", 2), testing.TestHash(1, "a", 3)
    assert not RecursiveEq(a, b) and RecursiveHash(a) == RecursiveHash(b)
    custom_a, custom_b = testing.TestCustomHash(1, "a"), testing.TestCustomHash(1, "b")
    assert not RecursiveEq(custom_a, custom_b) and RecursiveHash(custom_a) == RecursiveHash(custom_b)
    alpha, beta = testing.TestCustomCompare(42, "alpha"), testing.TestCustomCompare(42, "beta")
    assert RecursiveEq(alpha, beta) and not RecursiveLt(alpha, beta) and RecursiveLe(alpha, beta)
    assert RecursiveGe(alpha, beta)
    no_hash_a, no_hash_b = testing.TestEqWithoutHash(42, "alpha"), testing.TestEqWithoutHash(42, "beta")
    assert RecursiveEq(no_hash_a, no_hash_b) and RecursiveLt(no_hash_a, no_hash_b)
    with pytest.raises(ValueError, match="type 'testing.TestEqWithoutHash' defines __ffi_eq__"):
        RecursiveHash([no_hash_a])
    with pytest.raises(TypeError, match="testing.TestObjectBase vs testing.TestObjectDerived"):
        RecursiveLt(testing.TestObjectBase(), testing.TestObjectDerived(v_map={}, v_array=[]))
