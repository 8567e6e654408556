"""Structural equality and hashing (tvm_ffi.structural_equal / structural_hash /
get_first_structural_mismatch), with the reference's hash values and mismatch paths."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import tvm_ffi
from _structural_types import st_make_fixture  # noqa: F401 (the st_make fixture)
from tvm_ffi import get_first_structural_mismatch, structural_equal, structural_hash
from tvm_ffi.dataclasses import field, py_class


def _nested_pairs(depth: int) -> Any:
    value: Any = 0
    for i in range(depth):
        value = [i, value]
    return value


# Measured on the reference package (spec STRUCTURAL.md section 3.6), unsigned. The nested
# values cover both the direct recursion (shallow) and the walk past its depth (200 levels).
HASH_VECTORS: list[tuple[Any, int]] = [
    (None, 2654435769),
    (0, 2654435832),
    (1, 2654435835),
    (-1, 2654435833),
    (True, 2654435896),
    (False, 2654435899),
    (1.0, 4607182421454453370),
    (0.0, 2654435962),
    (-0.0, 9223372039509211770),
    (float("nan"), 9221120239695526522),
    ("abc", 2660953131),
    ("", 2654440008),
    ("a long string > 7", 2959297896),
    (b"abc", 2660949777),
    (tvm_ffi.dtype("float32"), 2654509817),
    (tvm_ffi.Device("cuda", 1), 6949403450),
    ([], 16435870007801073400),
    ([1, 2, 3], 17457834911281713904),
    (tvm_ffi.List([1, 2, 3]), 10149262102335927069),
    ({}, 11694236735499009312),
    ({"a": 1}, 8690073498391192266),
    (tvm_ffi.Dict({"a": 1}), 11172378485020937918),
    (tvm_ffi.Shape((2, 3)), 284796581919864661),
    (2**70, 2654440898),
    ([[1, "a"], [[2.5], []]], 8564874616036692267),
    (_nested_pairs(2), 17906303580671804438),
    (_nested_pairs(200), 9953144360107074768),
    ([{"a": 1, "b": [2, 3]}, {}], 2247256897067509629),
    (tvm_ffi.Dict({"x": tvm_ffi.Map({1: 2.5, 2: "s"}), "y": None}), 5017705995003572653),
    ({i: [i] for i in range(70)}, 16002749606020454754),
    # leaves inside containers (hashed by the item loops' inline path)
    ([0, -7, True, None], 4358203229368705808),
    ([1.5, -0.0, float("nan")], 977334287352538868),
    (["", "abc", "abcdefg", "abcdefgh", "x" * 20], 1261253057901406794),
    ({"k": 1, "abcdefgh": 2.5}, 12997928791507781635),
]


@pytest.mark.parametrize(("value", "expected"), HASH_VECTORS, ids=[repr(v)[:20] for v, _ in HASH_VECTORS])
def test_hash_matches_the_reference(value: Any, expected: int) -> None:
    assert structural_hash(value) == expected


def test_flags_by_position_or_keyword_as_bools_or_ints() -> None:
    a = tvm_ffi.from_dlpack(np.arange(4, dtype="float32"))
    b = tvm_ffi.from_dlpack(np.ones(4, dtype="float32"))
    skipped = structural_hash(a, skip_tensor_content=True)
    assert structural_hash(a, False, True) == skipped == structural_hash(value=b, skip_tensor_content=1)
    assert structural_hash(a, map_free_vars=0) == structural_hash(a) != skipped
    assert structural_equal(a, b, False, True) and structural_equal(lhs=a, rhs=b, skip_tensor_content=1)
    assert not structural_equal(a, b) and not structural_equal(a, b, skip_tensor_content=0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: structural_hash(), r"structural_hash\(\) missing required argument 'value' \(pos 1\)"),
        (lambda: structural_hash(1, False, False, 4), r"takes at most 3 positional arguments \(4 given\)"),
        (lambda: structural_hash(1, free_vars=True), "unexpected keyword argument 'free_vars'"),
        (lambda: structural_hash(1, value=2), "multiple values for argument 'value'"),
        (lambda: structural_equal(1), r"structural_equal\(\) missing required argument 'rhs' \(pos 2\)"),
        (lambda: structural_equal(1, 2, map_free_vars=True, rhs=3), "multiple values for argument 'rhs'"),
    ],
)
def test_bad_calls_raise_type_error(call: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        call()


def test_flags_are_bools_or_ints() -> None:
    # Anything else is refused by the runtime's argument check, in the reference's words (a
    # truthy string or list is no flag).
    with pytest.raises(TypeError, match=r"argument #1 when calling: `ffi.StructuralHash\(0: Any, 1: bool, 2: bool\) "
                                        r"-> int`. Expected `bool` but got `None`"):
        structural_hash([1], None)
    with pytest.raises(TypeError, match="argument #3 .* Expected `bool` but got `ffi.SmallStr`"):
        structural_equal([1], [1], False, "yes")
    with pytest.raises(TypeError, match="argument #2 .* Expected `bool` but got `ffi.Array`"):
        structural_hash([1], skip_tensor_content=[])


def test_tensor_hash_and_content_compare() -> None:
    a = tvm_ffi.from_dlpack(np.arange(3, dtype="float32"))
    assert structural_hash(a) == 5983373823213910253
    b = tvm_ffi.from_dlpack(np.arange(3, dtype="float32") + 1)
    c = tvm_ffi.from_dlpack(np.arange(3, dtype="float32"))
    assert structural_equal(a, c) and not structural_equal(a, b)
    assert structural_equal(a, b, skip_tensor_content=True)
    assert structural_hash(a, skip_tensor_content=True) == structural_hash(b, skip_tensor_content=True)
    lhs, rhs = get_first_structural_mismatch([a], [b])
    assert str(lhs) == "<root>[0]" == str(rhs)
    assert get_first_structural_mismatch([a], [b], skip_tensor_content=True) is None
    strided = tvm_ffi.from_dlpack(np.arange(6, dtype="float32")[::2])
    with pytest.raises(RuntimeError, match="contiguous"):
        structural_hash(strided)


def test_pod_and_container_equality_rules() -> None:
    assert structural_equal(float("nan"), -float("nan"))
    assert not structural_equal(0.0, -0.0)
    assert not structural_equal(1, True) and not structural_equal(1, 1.0) and not structural_equal(None, 0)
    assert not structural_equal("abc", b"abc")
    assert structural_equal("abc", tvm_ffi.convert("abc"))
    long = "x" * 30
    assert structural_equal(long, tvm_ffi.convert(long))
    assert structural_hash(long) == structural_hash(tvm_ffi.convert(long))
    assert not structural_equal([1, 2], tvm_ffi.List([1, 2]))
    assert not structural_equal({"a": 1}, tvm_ffi.Dict({"a": 1}))
    assert not structural_equal(tvm_ffi.Shape((1, 2)), [1, 2])
    forward = tvm_ffi.Map({str(i): i for i in range(10)})
    backward = tvm_ffi.Map({str(i): i for i in reversed(range(10))})
    assert structural_equal(forward, backward) and structural_hash(forward) == structural_hash(backward)
    assert structural_hash({"a": 1}) != structural_hash({"a": 2})


@pytest.mark.parametrize(
    ("lhs", "rhs", "paths"),
    [
        ([1, 2], [1, 2], None),
        (1, 2, ("<root>", "<root>")),
        (1, "a", ("<root>", "<root>")),
        ([1, 2, 3], [1, 5, 3], ("<root>[1]", "<root>[1]")),
        ([1, 2, 3], [1, 2], ("<root>[2]", "<root>[<missing:2>]")),
        ([1], [1, 2], ("<root>[<missing:1>]", "<root>[1]")),
        ({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}, ('<root>["a"][1]["b"]', '<root>["a"][1]["b"]')),
        ({"a": 1, "b": 2}, {"a": 1, "c": 2}, ('<root>["b"]', '<root>[<missing:"b">]')),
        ({"a": 1, "b": 2}, {"a": 1}, ('<root>["b"]', '<root>[<missing:"b">]')),
        ({"a": 1}, {"a": 1, "z": 2}, ('<root>[<missing:"z">]', '<root>["z"]')),
        ([tvm_ffi.Shape((1, 2))], [tvm_ffi.Shape((1, 3))], ("<root>[0]", "<root>[0]")),
    ],
)
def test_first_mismatch_paths(lhs: Any, rhs: Any, paths: tuple[str, str] | None) -> None:
    result = get_first_structural_mismatch(lhs, rhs)
    if paths is None:
        assert result is None and structural_equal(lhs, rhs)
    else:
        assert result is not None and (str(result[0]), str(result[1])) == paths
        assert not structural_equal(lhs, rhs)


def test_object_fields_and_ignored_fields(st_make: Any) -> None:
    assert structural_equal(st_make("st.Int", 5), st_make("st.Int", 5))
    assert structural_hash(st_make("st.Int", 5)) == structural_hash(st_make("st.Int", 5))
    func = st_make("st.Func", [], [st_make("st.Node", 1, [st_make("st.Int", 1), st_make("st.Int", 2)])])
    other = st_make("st.Func", [], [st_make("st.Node", 1, [st_make("st.Int", 1), st_make("st.Int", 3)])])
    lhs, rhs = get_first_structural_mismatch(func, other)
    assert str(lhs) == "<root>.body[0].next[1].value" == str(rhs)
    assert str(get_first_structural_mismatch(st_make("st.Node", 1), st_make("st.Node", "1"))[0]) == "<root>.val"


def test_free_vars_and_def_regions(st_make: Any) -> None:
    x, y, a, b = (st_make("st.Var", name) for name in "xyab")
    assert not structural_equal(x, y) and structural_equal(x, y, map_free_vars=True)
    assert structural_hash(x, map_free_vars=True) == structural_hash(y, map_free_vars=True)
    assert structural_hash(x) != structural_hash(y)
    assert structural_equal([x, x], [y, y], map_free_vars=True)
    assert not structural_equal([x, y], [a, a], map_free_vars=True)
    f1 = st_make("st.Func", [x], [st_make("st.Int", 1), x], "c1")
    f2 = st_make("st.Func", [y], [st_make("st.Int", 1), y], "c2")
    assert structural_equal(f1, f2) and structural_hash(f1) == structural_hash(f2)
    assert not structural_equal(st_make("st.Func", [x, y], [x, y]), st_make("st.Func", [a, b], [b, a]))
    assert not structural_equal(st_make("st.Func", [x], [y]), st_make("st.Func", [a], [b]))
    assert structural_equal(st_make("st.Func", [x], [y]), st_make("st.Func", [a], [b]), map_free_vars=True)
    assert structural_equal(st_make("st.FuncS", [x], [x]), st_make("st.FuncS", [y], [y]))
    lhs, _ = get_first_structural_mismatch(st_make("st.Func", [x], [st_make("st.Int", 1), x]),
                                           st_make("st.Func", [x], [st_make("st.Int", 1), st_make("st.Int", 2)]))
    assert str(lhs) == "<root>.body[1]"


def test_dag_nodes_are_bound_one_to_one(st_make: Any) -> None:
    s = st_make("st.Bind", "s", 1)
    c1, c2 = st_make("st.Bind", "c1", 1), st_make("st.Bind", "c2", 1)
    assert not structural_equal([s, s], [c1, c2])
    assert structural_equal([s, s], [c1, c1])
    assert structural_hash([s, s]) != structural_hash([c1, c2])
    lhs, rhs = get_first_structural_mismatch([c1, c2], [c1, c1])
    assert str(lhs) == "<root>[1]"


def test_unsupported_types_raise(st_make: Any) -> None:
    pair = st_make("st.Pair", 1, 2)
    message = "_type_s_eq_hash_kind is not set for type `st.Pair`, so StructuralHash is not supported"
    with pytest.raises(TypeError, match=message):
        structural_hash(pair)
    with pytest.raises(TypeError, match=message):
        structural_equal(pair, pair)
    with pytest.raises(TypeError, match="Type metadata is not set for type `ffi.Function`"):
        structural_hash(tvm_ffi.get_global_func("ffi.ReprPrint"))


def test_cycles_raise_instead_of_crashing(st_make: Any) -> None:
    lst = tvm_ffi.List([1])
    lst.append(lst)
    with pytest.raises(ValueError, match="cycle"):
        structural_hash(lst)
    with pytest.raises(ValueError, match="cycle"):
        structural_equal(lst, lst)
    lst.clear()
    inner = tvm_ffi.List([1])  # a cycle below the root, held only by its own members
    inner.append(tvm_ffi.List([inner]))
    root = tvm_ffi.List([inner])
    del inner
    with pytest.raises(ValueError, match="cycle"):
        structural_hash(root)
    with pytest.raises(ValueError, match="cycle"):
        structural_equal(root, root)
    root[0].clear()


def _nested_lists(depth: int, leaf: int) -> Any:
    node: Any = tvm_ffi.List([leaf])
    for i in range(depth):
        node = tvm_ffi.List([i, node])
    return node


def test_deep_values_past_the_cycle_tracking_depth() -> None:
    """Open values are tracked for cycles only past a depth (64): deeper acyclic values still
    compare and hash, and a cycle deep down is still caught."""
    for depth in (63, 64, 65, 300):
        a, b = _nested_lists(depth, 1), _nested_lists(depth, 1)
        assert structural_equal(a, b) and structural_hash(a) == structural_hash(b)
        assert not structural_equal(a, _nested_lists(depth, 2))
        shared = tvm_ffi.List([7])  # one value met twice at every level: not a cycle
        dag: Any = shared
        for _ in range(depth):
            dag = tvm_ffi.List([dag, shared])
        assert structural_equal(dag, dag) and structural_hash(dag) == structural_hash(dag)
    tail = tvm_ffi.List([1])
    deep = tvm_ffi.List([0, tail])
    for i in range(100):
        deep = tvm_ffi.List([i, deep])
    tail.append(deep)  # the innermost list now holds the outermost
    with pytest.raises(ValueError, match="cycle"):
        structural_hash(deep)
    with pytest.raises(ValueError, match="cycle"):
        structural_equal(deep, deep)
    tail.clear()


def _chain_dag(depth: int) -> Any:
    node: Any = tvm_ffi.List([0])
    for i in range(depth):
        node = tvm_ffi.List([node, node, i])  # each level shares its child twice: 2**depth paths
    return node


def test_deep_shared_dag_in_linear_time() -> None:
    dag = _chain_dag(10_000)
    same = _chain_dag(10_000)
    assert structural_hash(dag) == structural_hash(same)
    assert structural_equal(dag, same)


def test_deep_nesting_does_not_overflow_the_stack() -> None:
    value: Any = 0
    for _ in range(200_000):
        value = tvm_ffi.List([value])
    assert structural_equal(value, value) and structural_hash(value) > 0


def _node_chain(st_make: Any, depth: int, leaf: Any) -> Any:
    node = st_make("st.Int", leaf)
    for i in range(depth):
        node = st_make("st.Node", i, [st_make("st.Int", i), node])
    return node


def test_object_trees_of_any_depth(st_make: Any) -> None:
    """Trees are settled by a recursive comparison bounded at 128 levels; deeper ones, and the
    paths of mismatches, come from the walk, with the same answers at every depth."""
    for depth in (3, 127, 128, 129, 400):
        a, b = _node_chain(st_make, depth, 1), _node_chain(st_make, depth, 1)
        assert structural_equal(a, b) and structural_equal(a, a)
        assert get_first_structural_mismatch(a, b) is None
        other = _node_chain(st_make, depth, 2)
        assert not structural_equal(a, other)
        lhs, rhs = get_first_structural_mismatch(a, other)
        assert str(lhs) == "<root>" + ".next[1]" * depth + ".value" == str(rhs)


def test_first_difference_decides_before_later_unsupported_values(st_make: Any) -> None:
    pair = st_make("st.Pair", 1, 2)
    assert not structural_equal([st_make("st.Int", 1), pair], [st_make("st.Int", 2), pair])
    with pytest.raises(TypeError, match="StructuralHash is not supported"):
        structural_equal([st_make("st.Int", 1), pair], [st_make("st.Int", 1), pair])


def test_free_vars_and_hooks_below_tree_nodes(st_make: Any) -> None:
    """A tree whose leaves hold free vars needs the bindings: equal only when mapped."""
    x, y = st_make("st.Var", "x"), st_make("st.Var", "y")
    lhs = st_make("st.Node", 0, [st_make("st.Int", 1), st_make("st.Node", 1, [x, x])])
    rhs = st_make("st.Node", 0, [st_make("st.Int", 1), st_make("st.Node", 1, [y, y])])
    assert not structural_equal(lhs, rhs) and structural_equal(lhs, rhs, map_free_vars=True)
    mixed = st_make("st.Node", 0, [st_make("st.Int", 1), st_make("st.Node", 1, [y, x])])
    assert not structural_equal(lhs, mixed, map_free_vars=True)


def test_maps_inside_trees(st_make: Any) -> None:
    def tree(attrs: Any) -> Any:
        return st_make("st.Node", 0, [st_make("st.Int", 1), attrs])

    base = tree({"a": 1, "b": [2, 3]})
    assert structural_equal(base, tree({"b": [2, 3], "a": 1}))
    assert structural_hash(base) == structural_hash(tree({"b": [2, 3], "a": 1}))
    for other, path in [
        ({"a": 1, "b": [2, 4]}, '<root>.next[1]["b"][1]'),
        ({"a": 1}, '<root>.next[1]["b"]'),
        ({"a": 1, "b": [2, 3], "c": 0}, '<root>.next[1][<missing:"c">]'),
        ({"a": 1, "c": [2, 3]}, '<root>.next[1]["b"]'),
    ]:
        assert not structural_equal(base, tree(other))
        lhs, _ = get_first_structural_mismatch(base, tree(other))
        assert str(lhs) == path
    key = st_make("st.Int", 7)  # object keys match by identity
    assert structural_equal({key: 1}, {key: 1}) and not structural_equal({key: 1}, {st_make("st.Int", 7): 1})
    assert structural_hash({key: [1]}) == structural_hash({key: [1]})


def test_shared_tree_nodes_are_compared_once() -> None:
    """Each level shares its child twice (2**100 paths): equal in linear time."""
    a, b = _chain_dag(100), _chain_dag(100)
    assert structural_equal(a, b)
    assert not structural_equal(a, _chain_dag(99))


def test_structural_key_as_dict_and_map_key(st_make: Any) -> None:
    from tvm_ffi import StructuralKey

    k0, k1 = StructuralKey([1, 2, 3]), StructuralKey([1, 2, 3])
    assert k0.hash_i64 == -988909162427837712 and k0.__hash__() == 17457834911281713904
    assert k0 == k1 and k0 != StructuralKey([1, 2]) and k0 != [1, 2, 3]
    assert {k0: "x"}[k1] == "x"
    m = tvm_ffi.Map({k0: 1, k1: 2})
    assert len(m) == 1 and m[k0] == 2
    assert StructuralKey("abc") == StructuralKey(tvm_ffi.convert("abc"))
    assert StructuralKey(st_make("st.Var", "x")) != StructuralKey(st_make("st.Var", "y"))
    assert repr(StructuralKey([1, "a"])) == 'ffi.StructuralKey(key=(1, "a"), hash_i64=2823322240268049326)'
    assert list(StructuralKey([1]).key) == [1]
    with pytest.raises(TypeError, match="_type_s_eq_hash_kind is not set for type `st.Pair`"):
        StructuralKey(st_make("st.Pair", 1, 2))
    text = tvm_ffi.serialization.to_json_graph_str(k0)
    assert '{"type":"ffi.StructuralKey","data":{"key":3,"hash_i64":-988909162427837712}}' in text
    assert tvm_ffi.serialization.from_json_graph_str(text) == k0


def test_structural_key_reflection_is_the_reference_s() -> None:
    info = tvm_ffi.StructuralKey.__tvm_ffi_type_info__
    assert [(f.name, str(f.ty)) for f in info.fields] == [("key", "Any"), ("hash_i64", "int")]
    (init,) = info.methods
    assert init.name == "__ffi_init__" and init.is_static
    assert init.doc == "Constructor that takes any key and computes its structural hash"
    assert init.func([1]) == tvm_ffi.StructuralKey([1])
    with pytest.raises(TypeError, match=r"`ffi.StructuralKey.__ffi_init__\(0: Any\) -> ffi.Object`. "
                                        r"Expected 1 but got 0 arguments"):
        init.func()
    (value,) = tvm_ffi.structural.VisitInterrupt.__tvm_ffi_type_info__.fields
    assert str(value.ty) == "Any" and value.c_has_default and value.c_default is None


def test_custom_structural_hooks(st_make: Any) -> None:
    # st.SEq's __s_equal__/__s_hash__ look at `key` only (the field walk would see `b` too).
    a1, b1, a2 = st_make("st.SEq", 1, "a"), st_make("st.SEq", 1, "b"), st_make("st.SEq", 2, "a")
    assert structural_equal(a1, b1) and structural_hash(a1) == structural_hash(b1)
    assert not structural_equal(a1, a2) and structural_hash(a1) != structural_hash(a2)
    lhs, rhs = get_first_structural_mismatch([a1], [a2])
    assert str(lhs) == "<root>[0].key" == str(rhs)
    x, y = st_make("st.Var", "x"), st_make("st.Var", "y")
    # Through the hook, free variables bind like anywhere else.
    assert structural_equal(st_make("st.SEq", x, 0), st_make("st.SEq", y, 0), map_free_vars=True)
    assert not structural_equal(st_make("st.SEq", x, 0), st_make("st.SEq", y, 0))


def test_maps_with_object_keys(st_make: Any) -> None:
    # Object keys match only when identical or bound; distinct equal keys are "missing".
    lhs, rhs = tvm_ffi.Map({st_make("st.Int", 1): 1}), tvm_ffi.Map({st_make("st.Int", 1): 1})
    assert not structural_equal(lhs, rhs)
    paths = get_first_structural_mismatch(lhs, rhs)
    assert paths is not None and str(paths[0]) == "<root>[st.Int(value=1)]"
    assert str(paths[1]) == "<root>[<missing:st.Int(value=1)>]"
    key = st_make("st.Int", 1)
    assert structural_equal(tvm_ffi.Map({key: 1}), tvm_ffi.Map({key: 1}))
    # Object keys not hashed before are left out of the map hash (reference rule).
    assert structural_hash(tvm_ffi.Map({st_make("st.Int", 1): 1})) == structural_hash(
        tvm_ffi.Map({st_make("st.Int", 2): 5})
    )
    # Free variables bound earlier translate map keys.
    x, y = st_make("st.Var", "x"), st_make("st.Var", "y")
    assert structural_equal([x, {x: 1}], [y, {y: 1}], map_free_vars=True)


@py_class("test_structural.Var", structural_eq="var")
class _Var(tvm_ffi.Object):
    name: str = field(structural_eq="ignore")


@py_class("test_structural.Let", structural_eq="dag")
class _Let(tvm_ffi.Object):
    var: _Var = field(structural_eq="def")
    value: int


@py_class("test_structural.Fn", structural_eq="tree")
class _Fn(tvm_ffi.Object):
    params: list = field(structural_eq="def")
    body: list


def _deep(value: Any, depth: int = 150) -> Any:
    """The value below `depth` single-item lists: past the direct recursion, so the walk decides."""
    for _ in range(depth):
        value = tvm_ffi.List([value])
    return value


def test_bindings_and_def_regions_at_any_depth() -> None:
    """Free vars, DAG nodes and def regions give the same answers whether the value is shallow
    (the direct recursion decides) or deep (the walk does)."""
    x, y, z = _Var("x"), _Var("y"), _Var("z")
    lx, ly = _Let(x, 1), _Let(y, 1)
    cases = [
        (_Fn([x], [x, 1]), _Fn([y], [y, 1]), True, True),
        (_Fn([x], [x, z]), _Fn([y], [y, z]), True, True),
        (_Fn([x], [x, z]), _Fn([y], [y, x]), False, True),  # mapped: z binds to rhs x
        (_Fn([x, y], [x, y]), _Fn([y, x], [y, x]), True, True),
        (_Fn([x, y], [x, y]), _Fn([y, x], [x, y]), False, False),
        ([x, x], [y, y], False, True),
        ([x, y], [z, z], False, False),
        (_Fn([x], [{x: 1}]), _Fn([y], [{y: 1}]), True, True),
        (_Fn([x], [{x: 1}]), _Fn([y], [{x: 1}]), False, False),
        ([lx, lx], [ly, ly], True, True),
        ([lx, lx], [ly, _Let(y, 1)], False, False),
        ([lx, _Let(x, 1)], [ly, ly], False, False),
        ({"a": [lx, x]}, {"a": [ly, y]}, True, True),
    ]
    for lhs, rhs, equal, equal_mapped in cases:
        for value_l, value_r in [(lhs, rhs), (_deep(lhs), _deep(rhs))]:
            assert structural_equal(value_l, value_r) is equal, (lhs, rhs)
            assert structural_equal(value_l, value_r, map_free_vars=True) is equal_mapped, (lhs, rhs)
            assert (get_first_structural_mismatch(value_l, value_r) is None) is equal
            if equal:
                assert structural_hash(value_l) == structural_hash(value_r)
            if equal_mapped:
                assert structural_hash(value_l, map_free_vars=True) == structural_hash(value_r, map_free_vars=True)


def test_hash_of_bindings_matches_the_reference() -> None:
    """DAG nodes and defined vars are numbered in the order they finish (measured on the
    reference package with the same classes)."""
    x, y = _Var("x"), _Var("y")
    let = _Let(y, 3)
    fn = _Fn([x], [x, let, let, {"k": let}])
    assert structural_hash(fn) == structural_hash(fn, map_free_vars=True) == 15549796253637609880
    assert structural_hash([x, y, x], map_free_vars=True) == 14892112806827988795
    assert structural_hash([let, _Let(x, 3), let]) == 16763368350877426446

