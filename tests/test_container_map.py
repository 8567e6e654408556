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
    assert repr(tvm_ffi.Map({"a": 1, 2: "b"})) == '{"a": 1, 2: "b"}'
    assert len(tvm_ffi.Map()) == 0 and list(tvm_ffi.Map()) == []


def test_get_reads_one_key_with_a_default() -> None:
    for mapping in (tvm_ffi.Map({"a": 1, "none": None}), tvm_ffi.Dict({"a": 1, "none": None})):
        assert mapping.get("a") == 1 and mapping.get("a", 5) == 1
        assert mapping.get("none", 5) is None  # a stored None is a value, not a miss
        assert mapping.get("z") is None and mapping.get("z", 5) == 5
        assert mapping.get("z", default=[1]) == [1] and mapping.get(key="a") == 1
        with pytest.raises(TypeError, match="missing required argument 'key'"):
            mapping.get()
        with pytest.raises(TypeError, match="at most 2 positional arguments"):
            mapping.get("a", 1, 2)
        with pytest.raises(TypeError, match="unexpected keyword argument 'other'"):
            mapping.get("a", other=1)
        with pytest.raises(TypeError, match="multiple values for argument 'key'"):
            mapping.get("a", key="a")


def test_map_missing_key_raises_the_references_key_error() -> None:
    m = tvm_ffi.Map({"a": 1})
    for key in ("missing", 42):
        with pytest.raises(KeyError) as info:
            m[key]
        assert info.value.args == ("key is not in Map",)


def test_map_equality_is_by_content_between_maps() -> None:
    m = tvm_ffi.Map({"a": 1, "b": [1, 2]})
    same = tvm_ffi.Map({"b": [1, 2], "a": 1})  # order does not matter
    assert m == same and not (m != same) and hash(m) == hash(same) and len({m, same}) == 1
    assert m != tvm_ffi.Map({"a": 1}) and m != tvm_ffi.Map({"a": 1, "b": [1, 2.0]})
    # a plain dict is not a Map: == is NotImplemented both ways (as in the reference)
    assert m.__eq__({"a": 1, "b": [1, 2]}) is NotImplemented and m != {"a": 1, "b": [1, 2]}
    assert dict(m) == {"a": 1, "b": [1, 2]}  # compare as dicts explicitly


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
    assert out == tvm_ffi.Map({"nested": {"x": [1, {"y": 2}]}, "n": 1})
    assert echo(out).same_as(out)


def test_map_pickles_by_value_keeping_distinct_keys() -> None:
    m = tvm_ffi.Map([(1, "int"), (True, "bool"), ("s", [1])])
    copy = pickle.loads(pickle.dumps(m))
    assert isinstance(copy, tvm_ffi.Map) and not copy.same_as(m)
    assert list(copy.items()) == [(1, "int"), (True, "bool"), ("s", [1])]


def test_maps_pickle_their_object_graph_keeping_shared_values() -> None:
    pair = tvm_ffi.testing.TestIntPair(1, 2)
    for cls in (tvm_ffi.Map, tvm_ffi.Dict):
        copy = pickle.loads(pickle.dumps(cls({"x": pair, "y": pair})))
        assert type(copy) is cls and copy["x"].same_as(copy["y"]) and not copy["x"].same_as(pair)


def test_maps_holding_what_the_graph_cannot_pickle_by_value() -> None:
    fn = tvm_ffi.convert(len)
    with pytest.raises(TypeError, match="ffi.Function"):
        pickle.dumps(tvm_ffi.Map({"f": fn}))  # the function itself refuses, as it does alone
    m = tvm_ffi.Map([(1, "int"), (True, "bool")])
    # Keys a Python dict keeps apart travel as a dict, which the reference's Map() takes too.
    assert tvm_ffi.Map({"a": 1, 2: "b"})._reduce_by_value() == (tvm_ffi.Map, ({"a": 1, 2: "b"},))
    assert m._reduce_by_value() == (tvm_ffi.Map, ([(1, "int"), (True, "bool")],))


def test_dict_mutation() -> None:
    d = tvm_ffi.Dict({"a": 1})
    d["b"] = 2
    d["a"] = 10
    assert dict(d) == {"a": 10, "b": 2} and list(d) == ["a", "b"]
    del d["a"]
    assert dict(d) == {"b": 2}
    with pytest.raises(KeyError, match="'a'"):
        del d["a"]
    assert d.setdefault("c", 3) == 3 and d.setdefault("c", 4) == 3
    assert d.pop("b") == 2 and d.pop("b", None) is None
    with pytest.raises(KeyError, match="'b'"):
        d.pop("b")
    d.update({"x": 1}, y=2)
    d.update([("z", 3)])
    assert dict(d) == {"c": 3, "x": 1, "y": 2, "z": 3}
    assert repr(d) == '{"c": 3, "x": 1, "y": 2, "z": 3}'
    d.clear()
    assert len(d) == 0 and dict(d) == {}


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


def test_maps_read_from_many_threads() -> None:
    # A small-layout map (3 entries) and a dense one, with heap-string and nested values.
    contents = {
        "small": {"a": "value of a that is long", 2: [2], None: "n"},
        "dense": {f"key {i}": (f"heap value number {i}" if i % 2 else [i]) for i in range(50)},
    }
    maps = {name: tvm_ffi.Map(c) for name, c in contents.items()}
    get_item = tvm_ffi.get_global_func("ffi.MapGetItem")
    get_item.release_gil = True  # runtime lookups run truly in parallel
    start = threading.Barrier(8)
    failures: list[str] = []

    def read(seed: int) -> None:
        start.wait()
        for round_ in range(150):
            for name, m in maps.items():
                expected = contents[name]
                keys = list(expected)
                key = keys[(seed + round_) % len(keys)]
                if m[key] != expected[key] or get_item(m, key) != expected[key] or key not in m:
                    failures.append(f"{name}[{key!r}]")
                if "absent key" in m or m.get("absent key", 0) != 0 or len(m) != len(expected):
                    failures.append(f"{name} absent")
                if round_ % 25 == 0 and list(m.items()) != list(expected.items()):
                    failures.append(f"{name} items")

    threads = [threading.Thread(target=read, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert all(dict(maps[name]) == contents[name] for name in maps)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_maps_pickle_nested_at_every_protocol(protocol: int) -> None:
    inner_dict = tvm_ffi.Dict({"d": [1]})
    original = tvm_ffi.Map(
        [(1, "int"), (True, "bool"), (1.0, "float"), ("map", {"x": {"y": None}}), ("dict", inner_dict),
         ("seq", [tvm_ffi.List([2]), tvm_ffi.Shape((3,))]), (None, "none")]
    )  # fmt: skip
    copy = pickle.loads(pickle.dumps(original, protocol=protocol))
    assert isinstance(copy, tvm_ffi.Map) and not copy.same_as(original) and len(copy) == 7
    assert [(type(k), k) for k in copy] == [(type(k), k) for k in original]
    assert isinstance(copy["map"]["x"], tvm_ffi.Map) and copy["map"]["x"]["y"] is None
    assert isinstance(copy["dict"], tvm_ffi.Dict) and not copy["dict"].same_as(inner_dict)
    assert isinstance(copy["seq"][0], tvm_ffi.List) and copy["seq"][1] == (3,)
    assert copy == original
    d = tvm_ffi.Dict({"k": tvm_ffi.Dict({"inner": 1}), 2: [3]})
    d_copy = pickle.loads(pickle.dumps(d, protocol=protocol))
    assert isinstance(d_copy, tvm_ffi.Dict) and d_copy == d
    d_copy["k"]["inner"] = 2  # copied by value
    assert d["k"]["inner"] == 1


def test_map_and_dict_equality_in_both_directions() -> None:
    content = {"a": 1, 2: [3], None: {"n": "v"}}
    for kind in (tvm_ffi.Map, tvm_ffi.Dict):
        mapping = kind(content)
        for same in (kind(content), kind(dict(reversed(list(content.items()))))):
            assert mapping == same and same == mapping and not (mapping != same) and not (same != mapping)
            assert hash(mapping) == hash(same)
        for different in ({"a": 1, 2: [3]}, {**content, "extra": 0}, {**content, "a": 2}, {"a": 1, 2: [3], 0: {}}):
            assert mapping != kind(different) and kind(different) != mapping and not (mapping == kind(different))
        # neither a plain dict nor the other kind of FFI mapping is equal (as in the reference)
        for unrelated in (content, list(content), list(content.items()), "a", 1, None):
            assert mapping != unrelated and unrelated != mapping and not (mapping == unrelated)
    assert tvm_ffi.Map(content) != tvm_ffi.Dict(content) and tvm_ffi.Dict(content) != tvm_ffi.Map(content)
    assert tvm_ffi.Map() == tvm_ffi.Map() and tvm_ffi.Map() != {} and tvm_ffi.Dict() != tvm_ffi.Map()
    assert not tvm_ffi.Map() and not tvm_ffi.Dict() and tvm_ffi.Map({0: 0}) and tvm_ffi.Dict({None: None})


def test_map_and_dict_repr_print_like_the_reference() -> None:
    content = {"a": 1, 2: "two", None: [1.5, None], 3.5: {"nested": True}, "it's": "a value longer than seven"}
    shown = '{"a": 1, 2: "two", None: (1.5, None), 3.5: {"nested": True}, "it\'s": "a value longer than seven"}'
    for mapping in (tvm_ffi.Map(content), tvm_ffi.Dict(content)):
        assert repr(mapping) == shown and str(mapping) == shown
    assert repr(tvm_ffi.Map()) == "{}" and repr(tvm_ffi.Dict()) == "{}"


@pytest.mark.parametrize(
    "key, shown",
    [("missing", "'missing'"), ("a missing key on the heap", "'a missing key on the heap'"), (42, "42"),
     (-7, "-7"), (2.5, "2.5"), (None, "None"), (True, "True")],
)  # fmt: skip
def test_missing_key_errors(key: object, shown: str) -> None:
    """m[key] raises the reference's KeyError('key is not in Map'); Dict.pop and del name the key."""
    for mapping in (tvm_ffi.Map({1: "x", "present": 2}), tvm_ffi.Dict({1: "x", "present": 2})):
        with pytest.raises(KeyError) as info:
            mapping[key]
        assert str(info.value) == "'key is not in Map'"
    d = tvm_ffi.Dict({1: "x"})
    for remove in (d.pop, d.__delitem__):
        with pytest.raises(KeyError) as info:
            remove(key)
        assert shown in str(info.value)
    assert dict(d) == {1: "x"}


def test_membership_and_views() -> None:
    m = tvm_ffi.Map({"a": 1, 1: "int one", "heap key of some length": None})
    assert "a" in m and 1 in m and "heap key of some length" in m
    assert True not in m and 1.0 not in m and "b" not in m and None not in m
    assert ("a", 1) in m.items() and ("a", 2) not in m.items() and ("zz", 1) not in m.items()
    empty = tvm_ffi.Dict(None)  # None is the reference's default argument of Dict
    assert type(empty) is tvm_ffi.Dict and len(empty) == 0
    with pytest.raises(AttributeError):  # a Map needs a mapping (the reference's AttributeError)
        tvm_ffi.Map(None)  # type: ignore[arg-type]
    for not_a_pair in (None, "a", ["a", 1], ("a", 1, 2), ()):  # as dict.items(): no error, not a member
        assert not_a_pair not in m.items()
    assert m.keys() == {"a", 1, "heap key of some length"} and m.keys() & {"a", "q"} == {"a"}
    assert list(m.values()) == [1, "int one", None] and None in m.values()
    assert len(m.keys()) == len(m.items()) == len(m.values()) == 3


def test_dict_views_and_iteration_follow_mutation() -> None:
    d = tvm_ffi.Dict({"a": 1})
    keys, items = d.keys(), d.items()
    d["b"] = 2
    assert list(keys) == ["a", "b"] and list(items) == [("a", 1), ("b", 2)]
    assert d.popitem() == ("a", 1) and list(d) == ["b"]
    # Like dict, a loop that changes the size fails (here once the iterator's place goes stale).
    with pytest.raises(RuntimeError, match="Dict changed"):
        for key in d:
            d[key + "!"] = 0
    grown = tvm_ffi.Dict({"x": 1, "y": 2})
    with pytest.raises(RuntimeError, match="changed size during iteration"):
        for key in grown:
            if key == "y":
                grown["z"] = 3  # added behind the last step: caught when the loop ends
    dense = tvm_ffi.Dict({i: i for i in range(8)})
    with pytest.raises(RuntimeError, match="changed"):
        for key in dense:
            del dense[key]  # the entry under the iterator goes away
    assert len(dense) < 8


def test_loops_read_small_and_dense_maps_in_insertion_order() -> None:
    # Loops read the map's memory (a small map's pair array, a dense map's linked slots); a
    # dict kept alongside says what order the runtime's insertion rules give.
    model: dict[object, object] = {}
    d = tvm_ffi.Dict()
    for i in range(40):  # past four entries the layout turns dense
        d[i], model[i] = f"v{i}", f"v{i}"
    for i in range(0, 40, 3):  # erasing relinks the insertion list
        del d[i], model[i]
    for key in ("late", "later"):
        d[key], model[key] = key.upper(), key.upper()
    assert list(d) == list(model)
    assert list(d.values()) == list(model.values())
    assert list(d.items()) == list(model.items())
    assert len(d) == len(model)
    small = tvm_ffi.Map({"b": 1, "a": 2})
    assert list(small) == ["b", "a"] and list(small.items()) == [("b", 1), ("a", 2)]
    assert list(tvm_ffi.Map(model).items()) == list(model.items())
    assert list(tvm_ffi.Map()) == [] and list(tvm_ffi.Dict().values()) == []


def test_a_loop_over_a_dict_fails_when_the_dict_shrinks() -> None:
    d = tvm_ffi.Dict({"a": 1, "b": 2, "c": 3})
    seen = []
    with pytest.raises(RuntimeError, match="Dict changed size during iteration"):
        for key, _ in d.items():
            seen.append(key)
            d.pop("c")
    assert seen == ["a"] and dict(d.items()) == {"a": 1, "b": 2}


def test_dict_update_from_every_kind_of_source() -> None:
    d = tvm_ffi.Dict()
    d.update(tvm_ffi.Map({"m": 1}))
    d.update([("pairs", 2)])
    d.update({"dict": 3}, kw=4)
    d.update(tvm_ffi.Dict({"m": "overwritten"}))
    # Overwriting a key of a full small or a dense Dict moves it to the end, as the reference's
    # insertion (also inline in kernels) does; a Python dict would keep its place.
    assert list(d.items()) == [("pairs", 2), ("dict", 3), ("kw", 4), ("m", "overwritten")]
    d.clear()
    d["after clear"] = 1  # the cleared dict is usable again
    assert dict(d) == {"after clear": 1}


def test_views_walk_entries_without_looking_keys_up() -> None:
    # An opaque Python key converts to a new FFI object on every call, so a lookup with it
    # cannot succeed; items() and values() must still list every entry.
    key = object()
    for mapping in (tvm_ffi.Map({key: "v", "s": 1}), tvm_ffi.Dict({key: "v", "s": 1})):
        assert list(mapping) == [key, "s"]
        assert list(mapping.items()) == [(key, "v"), ("s", 1)] and list(mapping.values()) == ["v", 1]
        assert repr(mapping) == '{ffi.OpaquePyObject: "v", "s": 1}'
