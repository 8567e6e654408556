"""Building containers from Python values: any iterable for sequences, mappings or pairs for maps."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401


def test_sequences_build_from_any_iterable() -> None:
    assert list(tvm_ffi.Array()) == []
    assert list(tvm_ffi.Array((1, 2))) == [1, 2]
    assert list(tvm_ffi.Array(range(3))) == [0, 1, 2]
    assert list(tvm_ffi.Array(x * 2 for x in range(3))) == [0, 2, 4]
    assert list(tvm_ffi.List(input_list=["a", "b"])) == ["a", "b"]
    assert list(tvm_ffi.Array(list(range(100)))) == list(range(100))  # beyond the stack snapshot
    assert list(tvm_ffi.Array(tvm_ffi.Array([1, [2]]))) == [1, [2]]


def test_maps_build_from_mappings_and_pairs() -> None:
    assert dict(tvm_ffi.Map()) == {}
    assert list(tvm_ffi.Map({"b": 1, "a": 2}).keys()) == ["b", "a"]  # insertion order
    assert dict(tvm_ffi.Map(OrderedDict(x=1))) == {"x": 1}
    assert dict(tvm_ffi.Map([("k", 1), ["j", 2]])) == {"k": 1, "j": 2}
    assert dict(tvm_ffi.Dict(input_dict={i: str(i) for i in range(20)})) == {i: str(i) for i in range(20)}
    assert dict(tvm_ffi.Dict(tvm_ffi.Map({"m": 3}))) == {"m": 3}


def test_bad_constructor_input_raises_type_errors() -> None:
    with pytest.raises(TypeError, match="not iterable"):
        tvm_ffi.Array(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\(key, value\) pairs, item #1 is `int`"):
        tvm_ffi.Map([("a", 1), 2])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="item #0"):
        tvm_ffi.Dict([("a", 1, 2)])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        tvm_ffi.Array([1], [2])  # type: ignore[call-arg]


def test_bad_constructor_input_raises_what_the_reference_raises() -> None:
    # The reference raises AttributeError for Map(x)/Dict(x) of a non-mapping (it calls x.items())
    # and ValueError for a bad Shape dimension; ours are those and TypeError at once.
    for bad in (1, None, "ab", [1, 2], [(1, 2, 3)]):
        for kind in (tvm_ffi.Map, tvm_ffi.Dict):
            if kind is tvm_ffi.Dict and bad is None:
                continue  # Dict(None) is empty there (its default argument)
            with pytest.raises(AttributeError) as caught:
                kind(bad)
            assert isinstance(caught.value, TypeError) and type(caught.value).__name__ == "NotAMappingError"
    with pytest.raises(AttributeError, match=r"expected a mapping or an iterable of \(key, value\) pairs, got `int`"):
        tvm_ffi.Map(1)  # type: ignore[arg-type]
    for bad_dims in (["a"], [1.5], [2, None]):
        with pytest.raises(ValueError, match=r"Shape dimension #\d must be an int") as caught_dim:
            tvm_ffi.Shape(bad_dims)  # type: ignore[arg-type]
        assert isinstance(caught_dim.value, TypeError)
    for bad_items in (1, None):  # Array/List of a non-iterable: TypeError, as in the reference
        for seq_kind in (tvm_ffi.Array, tvm_ffi.List):
            with pytest.raises(TypeError, match="not iterable"):
                seq_kind(bad_items)


def test_item_conversion_errors_name_the_position() -> None:
    class NotAnObject:
        def __tvm_ffi_object__(self) -> int:
            return 3

    with pytest.raises(TypeError, match="argument #1 when calling `ffi.Array`"):
        tvm_ffi.Array([1, NotAnObject()])


def test_a_list_mutated_while_converting_is_safe() -> None:
    items: list[object] = []

    class Shrinks:
        def __tvm_ffi_value__(self) -> int:
            items.clear()  # drops the list's references to every item
            return 7

    items.extend(["first string", Shrinks(), "last string"])
    assert list(tvm_ffi.Array(items)) == ["first string", 7, "last string"]


def test_generator_errors_propagate() -> None:
    def broken() -> Iterator[int]:
        yield 1
        raise RuntimeError("generator failed")

    with pytest.raises(RuntimeError, match="generator failed"):
        tvm_ffi.Array(broken())
