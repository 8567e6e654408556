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
    assert repr(lst) == '[1, "two", 3.5]'
    assert len(tvm_ffi.List()) == 0


def test_list_item_assignment_and_deletion() -> None:
    lst = tvm_ffi.List(range(6))
    lst[0] = "a"
    lst[-1] = "z"
    assert lst == ["a", 1, 2, 3, 4, "z"]
    del lst[1]
    del lst[-2]
    assert lst == ["a", 2, 3, "z"]
    with pytest.raises(IndexError, match=r"out of range. size: \d+, got index 4$"):
        lst[4] = 0
    with pytest.raises(IndexError, match=r"out of range. size: \d+, got index -5$"):
        del lst[-5]
    with pytest.raises(IndexError, match=r"out of range. size: \d+, got index 7$"):
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
    with pytest.raises(IndexError, match="pop from empty list"):
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


def test_list_pickles_its_object_graph_keeping_shared_items() -> None:
    pair = tvm_ffi.testing.TestIntPair(5, 6)
    copy = pickle.loads(pickle.dumps(tvm_ffi.List([pair, pair])))
    assert isinstance(copy, tvm_ffi.List) and copy[0].same_as(copy[1]) and copy[0].a == 5


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


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_list_pickles_nested_containers_at_every_protocol(protocol: int) -> None:
    original = tvm_ffi.List([tvm_ffi.List([1, "inner"]), [2, 3], {"k": tvm_ffi.List()}, tvm_ffi.Shape((4,)), None])
    copy = pickle.loads(pickle.dumps(original, protocol=protocol))
    assert isinstance(copy, tvm_ffi.List) and copy == original
    assert [type(x) for x in copy] == [type(x) for x in original]
    assert isinstance(copy[2]["k"], tvm_ffi.List)
    copy[0].append("only in the copy")  # a copy by value: the original's inner list is untouched
    assert original[0] == [1, "inner"]


def test_list_equality_in_both_directions() -> None:
    lst = tvm_ffi.List(["a", 1, None])
    for same in (["a", 1, None], ("a", 1, None), tvm_ffi.Array(["a", 1, None]), tvm_ffi.List(["a", 1, None])):
        assert lst == same and same == lst and not (lst != same) and not (same != lst)
    for different in (["a", 1], ["a", 1, None, None], ["b", 1, None], "a1None", 3, None):
        assert lst != different and different != lst and not (lst == different)
    lst.append(2)
    assert lst != ["a", 1, None] and lst == ["a", 1, None, 2]  # equality follows the current items


def test_list_repr_follows_mutation() -> None:
    lst = tvm_ffi.List()
    assert repr(lst) == "[]"
    lst.extend([1, "x", None, [2.5], {"k": False}])
    assert repr(lst) == '[1, "x", None, (2.5,), {"k": False}]'
    lst[0] = "it's"
    assert repr(lst).startswith('["it\'s", ')


def test_list_slices_match_python_lists() -> None:
    bounds = [None, -9, -5, -2, -1, 0, 1, 3, 6, 9]
    for start in bounds:
        for stop in bounds:
            for step in (None, 1, 2, 3, -1, -2, -4):
                s = slice(start, stop, step)
                items = list(range(7))
                lst = tvm_ffi.List(items)
                assert lst[s] == items[s], s
                replacement = [f"r{i}" for i in range(len(items[s]))][::-1]
                lst[s] = replacement
                items[s] = replacement
                assert lst == items, s
                del lst[s]
                del items[s]
                assert lst == items, s


def test_list_index_errors_name_the_index() -> None:
    lst = tvm_ffi.List([1, 2, 3])
    with pytest.raises(IndexError, match="Index out of range. size: 3, got index 3"):
        lst.pop(3)
    with pytest.raises(IndexError, match="Index out of range. size: 3, got index -4"):
        lst.pop(-4)
    with pytest.raises(IndexError, match=rf"out of range. size: \d+, got index {2**70}$"):
        lst[2**70] = 0
    with pytest.raises(IndexError, match=rf"out of range. size: \d+, got index {-(2**70)}$"):
        del lst[-(2**70)]
    with pytest.raises(TypeError, match="not str"):
        lst["0"]  # type: ignore[index]
    for bad in (None, 1.5, "0", [0]):  # what list indexing refuses, with list's TypeErrors
        with pytest.raises(TypeError, match=f"indices must be integers or slices, not {type(bad).__name__}"):
            lst[bad] = 0  # type: ignore[index]
        with pytest.raises(TypeError, match="indices must be integers"):
            del lst[bad]  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="indices must be integers"):
            lst.pop(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
            lst.insert(bad, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        lst.remove("absent")
    assert lst == [1, 2, 3]  # failed operations change nothing


def test_list_concatenation_makes_new_lists() -> None:
    lst = tvm_ffi.List([1])
    joined = lst + [2]
    assert isinstance(joined, tvm_ffi.List) and joined == [1, 2] and not joined.same_as(lst)
    left = (0,) + lst
    assert isinstance(left, tvm_ffi.List) and left == [0, 1]
    joined.append(3)
    assert lst == [1]
    lst += (5, 6)  # in place, like list +=
    assert lst == [1, 5, 6]


def test_list_membership_follows_ffi_equality() -> None:
    inner = tvm_ffi.List()
    lst = tvm_ffi.List([inner, 1, "a heap string of some length"])
    assert inner in lst and 1 in lst and "a heap string of some length" in lst
    assert True not in lst and 1.0 not in lst
    assert tvm_ffi.List() in lst and [] in lst  # by content, like ==: the empty inner List
    inner.append(1)  # same object: still found after it changes
    assert inner in lst
