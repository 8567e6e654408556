"""tvm_ffi.Map and tvm_ffi.Dict: the runtime's insertion-ordered mappings as Python mappings."""

from __future__ import annotations

import pickle
import threading

import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo)
from leakcheck import no_ffi_leaks  # noqa: F401


def test_map_reads_like_a_dict() -> None:
    m = tvm_ffi.Map({"a": 1, 2: "b", None: [1, 2]})
    assert len(m) == 3 and m["a"] == 1 and m[2] == "b" and m[None] == [1, 2]
    assert list(m) == ["a", 2, None] and list(m.keys()) == ["a", 2, None]
    assert list(m.values())[:2] == [1, "b"] and list(m.items())[0] == ("a", 1)
    assert "a" in m and "z" not in m
    assert m.get("a") == 1 and m.get("z") is None and m.get("z", 5) == 5
    assert repr(tvm_ffi.Map({"a": 1, 2: "b"})) == "{'a': 1, 2: 'b'}"
    assert len(tvm_ffi.Map()) == 0 and list(tvm_ffi.Map()) == []


def test_map_missing_key_raises_key_error_naming_it() -> None:
    m = tvm_ffi.Map({"a": 1})
    with pytest.raises(KeyError, match="'missing'"):
        m["missing"]
    with pytest.raises(KeyError, match="42"):
        m[42]


def test_map_equality_with_dicts() -> None:
    m = tvm_ffi.Map({"a": 1, "b": [1, 2]})
    assert m == {"a": 1, "b": [1, 2]} and m == {"b": [1, 2], "a": 1}
    assert m != {"a": 1} and m != {"a": 2, "b": [1, 2]} and m != [("a", 1)]
    assert m == tvm_ffi.Map({"a": 1, "b": [1, 2]}) and hash(m) == hash(m)


def test_int_bool_and_float_are_distinct_keys() -> None:
    m = tvm_ffi.Map([(1, "int"), (True, "bool"), (1.0, "float")])
    assert len(m) == 3
    assert m[1] == "int" and m[True] == "bool" and m[1.0] == "float"
    assert list(m.keys()) == [1, True, 1.0]
    assert type(list(m.keys())[1]) is bool


def test_small_and_heap_string_keys_are_equal() -> None:
    short, long = "abc", "a key longer than seven bytes"
    m = tvm_ffi.Map({short: 1, long: 2})
    assert m[short] == 1 and m[long] == 2
    assert m[tvm_ffi.convert("abc")] == 1 and m[tvm_ffi.convert(long)] == 2
    assert m["".join(["a", "bc"])] == 1


def test_dicts_become_maps_when_passed_to_functions() -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    out = echo({"nested": {"x": [1, {"y": 2}]}, "n": 1})
    assert isinstance(out, tvm_ffi.Map) and isinstance(out["nested"], tvm_ffi.Map)
    assert isinstance(out["nested"]["x"], tvm_ffi.Array)
    assert out == {"nested": {"x": [1, {"y": 2}]}, "n": 1}
    assert echo(out).same_as(out)


def test_map_pickles_by_value_keeping_distinct_keys() -> None:
    m = tvm_ffi.Map([(1, "int"), (True, "bool"), ("s", [1])])
    copy = pickle.loads(pickle.dumps(m))
    assert isinstance(copy, tvm_ffi.Map) and not copy.same_as(m)
    assert list(copy.items()) == [(1, "int"), (True, "bool"), ("s", [1])]


def test_dict_mutation() -> None:
    d = tvm_ffi.Dict({"a": 1})
    d["b"] = 2
    d["a"] = 10
    assert d == {"a": 10, "b": 2} and list(d) == ["a", "b"]
    del d["a"]
    assert d == {"b": 2}
    with pytest.raises(KeyError, match="'a'"):
        del d["a"]
    assert d.setdefault("c", 3) == 3 and d.setdefault("c", 4) == 3
    assert d.pop("b") == 2 and d.pop("b", None) is None
    with pytest.raises(KeyError, match="'b'"):
        d.pop("b")
    d.update({"x": 1}, y=2)
    d.update([("z", 3)])
    assert d == {"c": 3, "x": 1, "y": 2, "z": 3}
    assert repr(d) == "{'c': 3, 'x': 1, 'y': 2, 'z': 3}"
    d.clear()
    assert len(d) == 0 and d == {}


def test_dict_mutation_is_seen_through_every_reference() -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    d = tvm_ffi.Dict()
    other = echo(d)
    assert isinstance(other, tvm_ffi.Dict) and other.same_as(d)
    other["k"] = [1, 2]
    assert d["k"] == [1, 2]


def test_dict_pickles_by_value() -> None:
    d = tvm_ffi.Dict({"a": [1, 2], 3: None})
    copy = pickle.loads(pickle.dumps(d))
    assert isinstance(copy, tvm_ffi.Dict) and not copy.same_as(d) and copy == d


def test_map_reads_from_many_threads() -> None:
    m = tvm_ffi.Map({f"key {i}": i for i in range(50)})
    failures: list[str] = []

    def read() -> None:
        for _ in range(200):
            if m["key 7"] != 7 or len(m) != 50 or "key 49" not in m:
                failures.append("mismatch")

    threads = [threading.Thread(target=read) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
