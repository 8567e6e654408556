"""tvm_ffi.Array: the runtime's immutable sequence as a Python Sequence."""

from __future__ import annotations

import pickle
import threading
from dataclasses import dataclass

import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo before the leak check counts objects)
from leakcheck import no_ffi_leaks  # noqa: F401


def test_array_from_python_items_reads_back() -> None:
    arr = tvm_ffi.Array([1, "two", 3.5, None])
    assert len(arr) == 4
    assert arr[0] == 1 and arr[1] == "two" and arr[2] == 3.5 and arr[3] is None
    assert arr[-1] is None and arr[-4] == 1
    assert list(arr) == [1, "two", 3.5, None]
    assert arr[1:3] == ["two", 3.5]


def test_array_index_errors_name_the_index() -> None:
    arr = tvm_ffi.Array([1, 2])
    with pytest.raises(IndexError, match=r"out of range. size: \d+, got index 2$"):
        arr[2]
    with pytest.raises(IndexError, match=r"out of range. size: \d+, got index -3$"):
        arr[-3]
    with pytest.raises(TypeError, match="integers or slices"):
        arr["0"]  # type: ignore[index]


def test_array_membership_uses_ffi_equality() -> None:
    arr = tvm_ffi.Array([1, "a long string value", 2.0])
    assert 1 in arr and "a long string value" in arr and 2.0 in arr
    assert True not in arr  # 1 and True are distinct FFI values
    assert 3 not in arr


def test_python_lists_become_arrays_when_passed_to_functions() -> None:
    echo = tvm_ffi.get_global_func("ffi.Array")
    nested = echo([1, 2], (3, "x"))
    assert isinstance(nested, tvm_ffi.Array)
    assert isinstance(nested[0], tvm_ffi.Array) and list(nested[0]) == [1, 2]
    assert nested[1] == [3, "x"] and nested[1] == (3, "x")


def test_array_equality_identity_and_hash() -> None:
    a = tvm_ffi.Array([1, 2])
    assert a == [1, 2] and a != [1, 3] and a == tvm_ffi.Array([1, 2])
    assert hash(a) == hash(a)
    assert repr(a) == "(1, 2)"


def test_array_pickles_by_value() -> None:
    a = tvm_ffi.Array(["x", 1])
    b = pickle.loads(pickle.dumps(a))
    assert isinstance(b, tvm_ffi.Array) and not b.same_as(a) and b == a


def test_empty_array() -> None:
    assert len(tvm_ffi.Array()) == 0 and list(tvm_ffi.Array()) == []
    assert not tvm_ffi.Array() and tvm_ffi.Array([0]) and tvm_ffi.Array([None])  # truth is non-emptiness


def test_array_slices_with_steps_and_negative_bounds() -> None:
    arr = tvm_ffi.Array(range(6))
    assert arr[::2] == [0, 2, 4] and arr[::-1] == [5, 4, 3, 2, 1, 0]
    assert arr[-2:] == [4, 5] and arr[10:] == []
    assert list(reversed(arr)) == [5, 4, 3, 2, 1, 0]
    assert arr.index(3) == 3 and arr.count(1) == 1


def test_array_index_error_names_huge_index() -> None:
    with pytest.raises(IndexError, match=str(2**70)):
        tvm_ffi.Array([1])[2**70]


def test_nested_arrays_are_results_and_arguments() -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    out = echo([[1, 2], ["a", [3.5]]])
    assert isinstance(out, tvm_ffi.Array) and isinstance(out[1][1], tvm_ffi.Array)
    assert out == [[1, 2], ["a", [3.5]]]
    assert echo(out).same_as(out)


def test_array_reads_from_many_threads() -> None:
    # Heap strings and nested arrays as items: every read takes and drops object references.
    items = [f"item number {i}" if i % 2 else [i, f"nested {i} long string"] for i in range(100)]
    arr = tvm_ffi.Array(items)
    get_item = tvm_ffi.get_global_func("ffi.ArrayGetItem")
    get_item.release_gil = True  # runtime reads run truly in parallel
    start = threading.Barrier(8)
    failures: list[str] = []

    def read(seed: int) -> None:
        start.wait()
        for round_ in range(200):
            i = (seed * 31 + round_) % 100
            if arr[i] != items[i] or arr[i - 100] != items[i] or get_item(arr, i) != items[i]:
                failures.append(f"item {i}")
            if round_ % 20 == 0 and (list(arr) != items or arr[::-7] != items[::-7] or "item number 99" not in arr):
                failures.append("whole array")
            if len(arr) != 100:
                failures.append("length")

    threads = [threading.Thread(target=read, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert arr == items  # still intact afterwards


def test_array_pickles_its_object_graph_keeping_shared_items() -> None:
    pair = tvm_ffi.testing.TestIntPair(1, 2)
    copy = pickle.loads(pickle.dumps(tvm_ffi.Array([pair, [pair]])))
    assert copy[0].same_as(copy[1][0]) and not copy[0].same_as(pair)
    assert (copy[0].a, copy[0].b) == (1, 2)


@dataclass
class Note:
    """A plain Python value: an Array holds it as an opaque Python object."""

    text: str


def test_array_of_python_objects_pickles_by_value() -> None:
    # The graph holds no Python object; the items then pickle one by one, as a list's do.
    copy = pickle.loads(pickle.dumps(tvm_ffi.Array([Note("x"), 2])))
    assert isinstance(copy, tvm_ffi.Array) and list(copy) == [Note("x"), 2]


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_array_pickles_nested_containers_at_every_protocol(protocol: int) -> None:
    original = tvm_ffi.Array(
        [1, 2.5, None, True, "short", "a string that lives on the heap", [1, [2]], tvm_ffi.List([3]),
         {"k": [4]}, tvm_ffi.Dict({5: "v"}), tvm_ffi.Shape((2, 3))]
    )  # fmt: skip
    copy = pickle.loads(pickle.dumps(original, protocol=protocol))
    assert isinstance(copy, tvm_ffi.Array) and not copy.same_as(original)
    assert [type(x) for x in copy] == [type(x) for x in original]  # Array stays Array, List stays List, ...
    assert copy == original
    assert copy[6][1] == [2] and dict(copy[8]) == {"k": [4]} and copy[10] == (2, 3)


def test_array_equality_in_both_directions() -> None:
    arr = tvm_ffi.Array([1, "two", [3]])
    for same in ([1, "two", [3]], (1, "two", (3,)), tvm_ffi.Array([1, "two", [3]]), tvm_ffi.List([1, "two", [3]])):
        assert arr == same and same == arr
        assert not (arr != same) and not (same != arr)
    for different in ([1, "two"], [1, "two", [4]], [1, "two", [3], None], []):
        assert arr != different and different != arr
        assert not (arr == different) and not (different == arr)
    for unrelated in (1, "1two[3]", {1: "two"}, None):
        assert arr != unrelated and unrelated != arr and not (arr == unrelated)
    assert tvm_ffi.Array() == [] and tvm_ffi.Array() == ()


def test_array_repr_prints_like_the_reference() -> None:
    arr = tvm_ffi.Array([1, -2.5, None, True, "s", "it's", [], [[1]], {"k": (1,)}])
    assert repr(arr) == '(1, -2.5, None, True, "s", "it\'s", (), ((1,),), {"k": (1,)})'
    assert str(arr) == repr(arr)
    assert repr(tvm_ffi.Array()) == "()"


def test_array_slices_match_python_lists() -> None:
    items = list(range(7))
    arr = tvm_ffi.Array(items)
    bounds = [None, *range(-9, 10)]
    for start in bounds:
        for stop in bounds:
            for step in (None, 1, 2, 3, 8, -1, -2, -3, -8):
                s = slice(start, stop, step)
                assert arr[s] == items[s], s
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        arr[::0]


def test_array_concatenation_makes_new_arrays() -> None:
    arr = tvm_ffi.Array([1, 2])
    joined = arr + [3] + (4,)
    assert isinstance(joined, tvm_ffi.Array) and joined == [1, 2, 3, 4] and arr == [1, 2]
    left = [0] + arr
    assert isinstance(left, tvm_ffi.Array) and left == [0, 1, 2]
    assert arr + tvm_ffi.Array(["x"]) == [1, 2, "x"]
    with pytest.raises(TypeError):
        arr + 1  # type: ignore[operator]


def test_array_bad_index_types_and_missing_values() -> None:
    arr = tvm_ffi.Array([1, 2])
    with pytest.raises(TypeError, match="not float"):
        arr[1.0]  # type: ignore[index]
    with pytest.raises(TypeError, match="not NoneType"):
        arr[None]  # type: ignore[index]
    assert arr[True] == 2  # bool is an int index, like for list
    with pytest.raises(ValueError):
        arr.index(3)


def test_array_membership_follows_ffi_equality() -> None:
    inner = tvm_ffi.Array([1])
    arr = tvm_ffi.Array([inner, "abc", "a heap string of some length", None, 0.0])
    assert inner in arr and "abc" in arr and "a heap string of some length" in arr and None in arr
    assert [1] in arr and (1,) in arr and tvm_ffi.List([1]) in arr  # containers by content, like ==
    assert [1.0] not in arr and [True] not in arr
    assert -0.0 in arr and False not in arr and 0 not in arr  # -0.0 == 0.0; bool/int/float differ
    assert "ab" not in arr and "a heap string of some length!" not in arr


def test_nested_arguments_keep_tensors_and_strings_at_any_depth() -> None:
    np = pytest.importorskip("numpy")
    if not hasattr(tvm_ffi, "from_dlpack"):
        pytest.skip("tensor support not built")
    echo = tvm_ffi.get_global_func("testing.echo")
    data = np.arange(3, dtype="float32")
    tensor = tvm_ffi.from_dlpack(data)
    out = echo([tensor, ("short", "a long string kept on the heap"), {"t": [data, {"deep": (tensor,)}]}])
    assert isinstance(out, tvm_ffi.Array) and isinstance(out[2], tvm_ffi.Map)
    assert out[1] == ["short", "a long string kept on the heap"]
    for got in (out[0], out[2]["t"][0], out[2]["t"][1]["deep"][0]):
        assert isinstance(got, tvm_ffi.Tensor) and got.data_ptr() == data.ctypes.data
    nested: object = [tensor, "bottom"]
    for level in range(300):
        nested = [nested, level] if level % 2 else {"down": nested}
    walked = echo(nested)
    for level in reversed(range(300)):
        walked = walked[0] if level % 2 else walked["down"]
    assert walked[0].same_as(tensor) and walked[1] == "bottom"
