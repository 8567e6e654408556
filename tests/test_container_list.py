"""tvm_ffi.List: the runtime's mutable sequence as a Python MutableSequence."""

from __future__ import annotations

import pickle

import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo)
from leakcheck import no_ffi_leaks  # noqa: F401


def test_list_reads_like_a_python_list() -> None:
    lst = tvm_ffi.List([1, "two", 3.5])
    assert len(lst) == 3 and lst[0] == 1 and lst[-1] == 3.5
    assert list(lst) == [1, "two", 3.5] and lst[1:] == ["two", 3.5] and lst[::-1] == [3.5, "two", 1]
    assert "two" in lst and "three" not in lst
    assert lst == [1, "two", 3.5] and lst == (1, "two", 3.5) and lst != [1, "two"]
    assert repr(lst) == "[1, 'two', 3.5]"
    assert len(tvm_ffi.List()) == 0


def test_list_item_assignment_and_deletion() -> None:
    lst = tvm_ffi.List(range(6))
    lst[0] = "a"
    lst[-1] = "z"
    assert lst == ["a", 1, 2, 3, 4, "z"]
    del lst[1]
    del lst[-2]
    assert lst == ["a", 2, 3, "z"]
    with pytest.raises(IndexError, match="index 4 out of range"):
        lst[4] = 0
    with pytest.raises(IndexError, match="index -5 out of range"):
        del lst[-5]
    with pytest.raises(IndexError, match="index 7 out of range"):
        lst[7]


def test_list_slice_assignment_and_deletion() -> None:
    lst = tvm_ffi.List(range(6))
    lst[1:3] = ["x", "y", "z"]
    assert lst == [0, "x", "y", "z", 3, 4, 5]
    lst[::2] = [10, 20, 30, 40]
    assert lst == [10, "x", 20, "z", 30, 4, 40]
    with pytest.raises(ValueError, match="extended slice of size 4"):
        lst[::2] = [1]
    del lst[::2]
    assert lst == ["x", "z", 4]
    del lst[1:]
    assert lst == ["x"]
    lst[:] = lst  # self-aliasing replacement
    assert lst == ["x"]


def test_list_methods() -> None:
    lst = tvm_ffi.List([1])
    lst.append(2)
    lst.insert(0, 0)
    lst.insert(-1, 1.5)
    lst.insert(100, 3)
    assert lst == [0, 1, 1.5, 2, 3]
    lst.extend(["a", "b"])
    assert lst.pop() == "b" and lst.pop(0) == 0 and lst.pop(-2) == 3
    assert lst == [1, 1.5, 2, "a"]
    lst.reverse()
    assert lst == ["a", 2, 1.5, 1]
    lst.extend(lst)
    assert len(lst) == 8
    lst += [9]
    assert lst[-1] == 9 and lst.index(9) == 8 and lst.count("a") == 2
    lst.remove("a")
    assert lst[0] == 2
    lst.clear()
    assert lst == [] and len(lst) == 0
    with pytest.raises(IndexError, match="pop from empty List"):
        lst.pop()


def test_list_mutation_is_seen_through_every_reference() -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    lst = tvm_ffi.List([1, 2])
    other = echo(lst)
    assert isinstance(other, tvm_ffi.List) and other.same_as(lst)
    other.append(3)
    other[0] = "first"
    assert lst == ["first", 2, 3]


def test_list_holds_nested_containers() -> None:
    lst = tvm_ffi.List([[1, 2], {"k": "v"}])
    assert isinstance(lst[0], tvm_ffi.Array) and isinstance(lst[1], tvm_ffi.Map)
    assert lst[1]["k"] == "v"


def test_list_pickles_by_value() -> None:
    lst = tvm_ffi.List(["x", [1, 2]])
    copy = pickle.loads(pickle.dumps(lst))
    assert isinstance(copy, tvm_ffi.List) and not copy.same_as(lst) and copy == lst


def test_list_iteration_follows_mutation() -> None:
    lst = tvm_ffi.List([1, 2, 3])
    seen = []
    for item in lst:
        seen.append(item)
        if item == 1:
            lst.pop()
    assert seen == [1, 2]
