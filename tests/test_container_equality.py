"""Equality, hashing and `in` of Array, List, Map and Dict: by content, agreeing with each other,
as code written for the reference package expects (sets and dict keys of equal containers
collapse; `x in arr` holds exactly when some item == x)."""

from __future__ import annotations

import math

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import Array, Dict, List, Map

contains = tvm_ffi.get_global_func("ffi.ArrayContains")


def test_equal_arrays_hash_equal_and_collapse_in_sets() -> None:
    a, b = Array([1, 2, 3]), Array([1, 2, 3])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert {a: "first"}[b] == "first"
    assert hash(Array([1, 2, 3])) != hash(Array([3, 2, 1]))  # order matters to sequences
    assert hash(List([1, "x"])) == hash(Array([1, "x"])) and List([1, "x"]) == Array([1, "x"])


def test_hash_follows_content_through_nesting() -> None:
    nested = Array([1, "a string longer than seven bytes", [2.5, None], {"k": [b"bytes"]}])
    again = Array([1, "a string longer than seven bytes", [2.5, None], {"k": [b"bytes"]}])
    assert nested == again and hash(nested) == hash(again)
    assert Map({"a": [1], "b": 2}) == Map({"b": 2, "a": [1]})  # entry order does not matter
    assert hash(Map({"a": [1], "b": 2})) == hash(Map({"b": 2, "a": [1]}))
    assert hash(Dict({"a": 1})) == hash(Dict({"a": 1})) and Dict({"a": 1}) == Dict({"a": 1})


def test_mutable_containers_hash_their_current_content() -> None:
    lst = List([1])
    before = hash(lst)
    lst.append(2)
    assert hash(lst) == hash(List([1, 2])) and hash(lst) != before
    d = Dict({"a": 1})
    d["b"] = 2
    assert hash(d) == hash(Dict({"b": 2, "a": 1}))


def test_values_compare_strictly_by_type_as_the_runtime_does() -> None:
    assert Array([1]) != Array([1.0]) and Array([1]) != Array([True]) and Array([1]) != [1.0]
    assert Array(["a"]) != Array([b"a"])
    nan = float("nan")
    assert Array([nan]) == Array([nan]) and hash(Array([nan])) == hash(Array([math.nan]))
    assert Array([-0.0]) == Array([0.0]) and hash(Array([-0.0])) == hash(Array([0.0]))
    assert Array([tvm_ffi.Shape((2, 3))]) == Array([tvm_ffi.Shape((2, 3))])


def test_other_objects_compare_by_identity() -> None:
    f = tvm_ffi.convert(lambda: None)
    g = tvm_ffi.convert(lambda: None)
    assert Array([f]) == Array([f]) and hash(Array([f])) == hash(Array([f]))
    assert Array([f]) != Array([g])


def test_in_compares_like_equality() -> None:
    arr = Array([("B", 128), [1, 2], "name", 3, Map({"k": 1}), List([4])])
    assert ("B", 128) in arr and arr[0] == ("B", 128)
    assert [1, 2] in arr and (1, 2) in arr and Array([1, 2]) in arr and List([1, 2]) in arr
    assert Map({"k": 1}) in arr and [4] in arr and (4,) in arr
    assert 3 in arr and 3.0 not in arr and True not in arr and ("B", 129) not in arr
    # a plain dict never == a Map, so it is not `in` either
    assert {"k": 1} not in arr and arr[4] != {"k": 1}
    lst = List(list(arr))
    probes = [(("B", 128), True), ((1, 2), True), ("name", True), (3, True), (Map({"k": 1}), True),
              ((4,), True), (3.0, False), (("B", 129), False), ((1, 2.0), False)]
    for probe, expected in probes:
        assert (probe in arr) is expected and (probe in lst) is expected, probe
        assert contains(arr, probe) is expected, probe  # the runtime function agrees with `in`
        if not isinstance(probe, (int, float, str)):  # items that are containers: `in` is `==`
            assert any(item == probe for item in arr) is expected, probe


def test_equality_against_python_sequences_and_mappings() -> None:
    arr = Array([1, 2, 3])
    assert arr == [1, 2, 3] and arr == (1, 2, 3) and [1, 2, 3] == arr and arr != [1, 2]
    assert arr.__eq__(range(1, 4)) is True and arr == range(1, 4) and arr != range(1, 3)
    assert arr.__ne__(range(1, 4)) is False and List([1, 2, 3]) == range(1, 4)
    for unrelated in ("123", b"123", 123, None, {1: 2}):
        assert arr.__eq__(unrelated) is NotImplemented and arr != unrelated
    m = Map({"x": 1})
    assert m.__eq__({"x": 1}) is NotImplemented and m != {"x": 1} and {"x": 1} != m
    assert m.__eq__(Dict({"x": 1})) is NotImplemented and m != Dict({"x": 1})
    assert m.__ne__({"x": 1}) is NotImplemented
    assert dict(m) == {"x": 1}


def test_cyclic_lists_compare_and_hash_without_crashing() -> None:
    a, b = List([1]), List([1])
    a.append(a)
    b.append(b)
    assert a == a and hash(a) == hash(b)
    with pytest.raises(RecursionError, match="maximum nesting depth"):
        _ = a == b
    a.clear()
    b.clear()


def test_python_objects_inside_compare_by_the_object_they_hold() -> None:
    payload = object()
    arr = Array([payload])
    assert arr == [payload] and arr == Array([payload]) and payload in arr
    assert hash(arr) == hash(Array([payload]))
    assert arr != [object()] and object() not in arr
