"""tvm_ffi.Array: the runtime's immutable sequence as a Python Sequence."""

from __future__ import annotations

import pickle

import pytest
import tvm_ffi
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
    with pytest.raises(IndexError, match="index 2 out of range"):
        arr[2]
    with pytest.raises(IndexError, match="index -3 out of range"):
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
    assert repr(a) == "[1, 2]"


def test_array_pickles_by_value() -> None:
    a = tvm_ffi.Array(["x", 1])
    b = pickle.loads(pickle.dumps(a))
    assert isinstance(b, tvm_ffi.Array) and not b.same_as(a) and b == a


def test_empty_array() -> None:
    assert len(tvm_ffi.Array()) == 0 and list(tvm_ffi.Array()) == []


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
    import tvm_ffi.testing  # noqa: F401

    echo = tvm_ffi.get_global_func("testing.echo")
    out = echo([[1, 2], ["a", [3.5]]])
    assert isinstance(out, tvm_ffi.Array) and isinstance(out[1][1], tvm_ffi.Array)
    assert out == [[1, 2], ["a", [3.5]]]
    assert echo(out).same_as(out)


def test_array_reads_from_many_threads() -> None:
    import threading

    arr = tvm_ffi.Array([f"item number {i}" for i in range(100)])
    failures: list[str] = []

    def read() -> None:
        for _ in range(200):
            if len(arr) != 100 or arr[42] != "item number 42" or list(arr)[-1] != "item number 99":
                failures.append("mismatch")

    threads = [threading.Thread(target=read) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
