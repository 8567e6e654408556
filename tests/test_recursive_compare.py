"""ffi.RecursiveEq/Lt/Le/Gt/Ge/Hash: value comparison and its hash (the semantics behind
container and dataclass equality, ordering and hashing), with the reference's hash values."""

from __future__ import annotations

from typing import Any

import pytest
import tvm_ffi
from _structural_types import st_make_fixture  # noqa: F401 (the st_make fixture)

Eq, Lt, Le, Gt, Ge, Hash = (
    tvm_ffi.get_global_func(f"ffi.Recursive{name}") for name in ("Eq", "Lt", "Le", "Gt", "Ge", "Hash")
)
MASK = 2**64 - 1

VECTORS = [
    (None, 2654435769), (1, 2654435835), (True, 2654435896), (-0.0, 2654435962), ("abc", 2660953131),
    (b"abc", 2660953320), (tvm_ffi.dtype("float32"), 11093831584875), (tvm_ffi.Device("cuda", 1), 175247678514),
    ([], 16435870007801073400), ([1, 2, 3], 17463811238088708892), (tvm_ffi.List([1, 2, 3]), 10148545479347175147),
    ({}, 11694236735499009312), ({"a": 1}, 1832523115044983095), (tvm_ffi.Dict({"a": 1}), 737077992245535816),
    (tvm_ffi.Shape((2, 3)), 284796581919864661),
    # A BigInt hashes as its words' byte hash, uncombined (the reference's __ffi_hash__ hook).
    (2**80, 65536), (2**64, 1), (-(2**70), 2147483587), ([2**80, -(2**70)], 2823322377515112446),
]


@pytest.mark.parametrize(("value", "expected"), VECTORS, ids=[repr(v)[:20] for v, _ in VECTORS])
def test_hash_matches_the_reference(value: Any, expected: int) -> None:
    assert Hash(value) & MASK == expected


def test_equality_rules() -> None:
    assert Eq([1, [2, "x"]], [1, [2, "x"]]) and not Eq([1, 2], tvm_ffi.List([1, 2]))
    assert Eq(float("nan"), float("nan")) and not Eq(float("nan"), 1.0) and Eq(0.0, -0.0)
    assert Hash(0.0) == Hash(-0.0)
    assert not Eq(1, True) and not Eq(None, 0) and Eq(None, None)
    forward = tvm_ffi.Map({str(i): i for i in range(10)})
    backward = tvm_ffi.Map({str(i): i for i in reversed(range(10))})
    assert Eq(forward, backward) and Hash(forward) == Hash(backward)
    assert not Eq({"a": 1}, {"a": 2}) and not Eq({"a": 1}, {"b": 1}) and not Eq({"a": 1}, {})


def test_ordering_rules() -> None:
    assert Lt([1, 2], [1, 3]) and Lt([], [1]) and Gt([1, 2], [1]) and Le([1], [1]) and Ge([1], [1])
    assert Lt(b"\xff", b"\x01") and Lt(b"\x80", b"\x7f") and Lt("é", "a") and Lt("a", "ab")
    assert Lt(None, 0) and Gt(0, None)
    assert Lt(tvm_ffi.dtype("int32"), tvm_ffi.dtype("float16"))
    assert Lt(tvm_ffi.dtype("float16"), tvm_ffi.dtype("float32"))
    assert Lt(tvm_ffi.Shape((1, 2)), tvm_ffi.Shape((1, 3))) and Le({"a": 1}, {"a": 1})
    for lhs, rhs, message in [
        (1, True, "Cannot compare values of different types: int vs bool"),
        ("a", b"a", "ffi.SmallStr vs ffi.SmallBytes"),
        ([1], tvm_ffi.List([1]), "ffi.Array vs ffi.List"),
        (float("nan"), 1.0, "Cannot order NaN values"),
        ({"a": 1}, {"a": 2}, "Cannot order Map/Dict values"),
        ({"a": 1}, {"b": 1}, "Cannot order Map/Dict values"),
        # a key missing on the right decides before the values, whose types differ here
        ({2: b"x", "k": 1}, {2: 1.5, "j": 1}, "Cannot order Map/Dict values"),
    ]:
        with pytest.raises(TypeError, match=message):
            Lt(lhs, rhs)


def test_ints_and_bigints_order_numerically() -> None:
    big = 2**80
    values = [-(2**200), -(2**128) - 1, -(2**127), -big, -(2**64), -(2**63) - 1, -(2**63), -5, 0, 7,
              2**63 - 1, 2**63, 2**64, 2**64 + 1, big, 2**127 - 1, 2**128, 2**200]
    for x in values:  # BigInt vs BigInt and int vs BigInt, as Python orders them
        for y in values:
            assert (Lt(x, y), Le(x, y), Eq(x, y), Gt(x, y), Ge(x, y)) == (x < y, x <= y, x == y, x > y, x >= y)
    assert Lt([5, big], [5, 2 * big]) and not Eq(big, 5)
    with pytest.raises(TypeError, match="Cannot compare values of different types: ffi.BigInt vs bool"):
        Lt(big, True)


def test_objects_compare_field_by_field(st_make: Any) -> None:
    assert Eq(st_make("st.Node", 1, "x"), st_make("st.Node", 1, "x"))
    assert Lt(st_make("st.Node", 1, 3), st_make("st.Node", 1, 4))
    assert Gt(st_make("st.Node", 2, 0), st_make("st.Node", 1, 3))
    assert Hash(st_make("st.Node", 1, "x")) == Hash(st_make("st.Node", 1, "x"))
    assert not Eq(st_make("st.Node", 1, 2), st_make("st.Flags", 1, 2))
    with pytest.raises(TypeError, match="Cannot compare values of different types: st.Node vs st.Flags"):
        Lt(st_make("st.Node", 1, 2), st_make("st.Flags", 1, 2))
    # SEqHashIgnore does not apply here: the ignored name still counts.
    assert not Eq(st_make("st.Var", "x"), st_make("st.Var", "y"))


def test_cycles() -> None:
    a, b = tvm_ffi.List([1]), tvm_ffi.List([1])
    a.append(a)
    b.append(b)
    assert Eq(a, b) and Hash(a) == Hash(b)
    with pytest.raises(ValueError, match="cyclic reference detected in ordering"):
        Lt(a, b)
    a.clear()
    b.clear()


@pytest.mark.parametrize("make", [tvm_ffi.List, tvm_ffi.Dict])
def test_a_self_loop_equals_every_cycle_it_unrolls_into(make: Any) -> None:
    # One node whose two edges point at itself, against two nodes whose edges go either way:
    # unrolled, both are the same infinite binary tree, so they compare equal (as in the
    # reference), in both argument orders, and the comparison ends at the first repeated pair.
    def node_with_edges(node: Any, targets: list[Any]) -> None:
        for key, target in zip("xy", targets):
            if make is tvm_ffi.List:
                node.append(target)
            else:
                node[key] = target

    loop = make()
    node_with_edges(loop, [loop, loop])
    for edges in [(0, 1, 0, 0), (1, 0, 1, 1), (1, 1, 0, 1), (0, 1, 1, 0)]:
        a, b = make(), make()
        node_with_edges(a, [(a, b)[i] for i in edges[:2]])
        node_with_edges(b, [(a, b)[i] for i in edges[2:]])
        assert Eq(loop, a) and Eq(a, loop)
        a.clear()
        b.clear()
    loop.clear()


def test_deep_values() -> None:
    x: Any = 0
    y: Any = 0
    for _ in range(100_000):
        x, y = tvm_ffi.List([x]), tvm_ffi.List([y])
    assert Eq(x, y) and Le(x, y) and Hash(x) == Hash(y)
