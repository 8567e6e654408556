"""Reference balance: Python objects stored in FFI containers are held exactly while a container
holds them, and released when it lets go (sys.getrefcount returns to where it started).

A plain Python object becomes an opaque FFI value that keeps one reference to it; a callable
becomes an ffi.Function that does the same; a NumPy array becomes a Tensor that keeps the array.
Every step repeats a few times, so that a single lost or extra reference would show as a drift.
"""

from __future__ import annotations

import gc
import pickle
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo before the leak check counts objects)
from leakcheck import no_ffi_leaks  # noqa: F401

ROUNDS = 5


class Payload:
    """A Python object with no FFI conversion: it travels as an opaque reference."""


@contextmanager
def balanced(*objects: object) -> Iterator[None]:
    """Asserts that the reference counts of ``objects`` end where they started."""
    gc.collect()
    before = [sys.getrefcount(o) for o in objects]
    yield
    gc.collect()
    assert [sys.getrefcount(o) for o in objects] == before


def held(obj: object) -> int:
    """References to ``obj`` beyond the test's own (for the 'held while stored' checks)."""
    gc.collect()
    return sys.getrefcount(obj)


def test_array_holds_its_items_until_it_dies() -> None:
    payload, callback = Payload(), lambda: 1
    with balanced(payload, callback):
        start = held(payload)
        for _ in range(ROUNDS):
            arr = tvm_ffi.Array([payload, callback, [payload], {"k": payload}])
            assert held(payload) == start + 3  # one per place the array (or a nested one) holds it
            assert arr[0] is payload and arr[2][0] is payload and arr[3]["k"] is payload
            assert arr[1]() == 1
            del arr


def test_list_edits_release_what_they_replace_or_remove() -> None:
    payload, other = Payload(), Payload()
    with balanced(payload, other):
        start = held(payload)
        for _ in range(ROUNDS):
            lst = tvm_ffi.List([payload])
            lst.append(payload)
            lst.insert(0, payload)
            lst.extend([payload, other])
            assert held(payload) == start + 4
            lst[0] = other
            assert lst.pop(1) is payload
            del lst[0]
            lst[1:3] = [other]
            assert held(payload) == start + 1 and list(lst) == [payload, other]
            with pytest.raises(IndexError):
                lst[10] = payload  # a failed store keeps nothing
            lst.reverse()
            lst.clear()
            assert held(payload) == start
            lst.append(payload)
            del lst  # dies holding it


def test_map_and_dict_hold_keys_and_values() -> None:
    key, value, other = Payload(), Payload(), Payload()
    with balanced(key, value, other):
        start_key, start_value = held(key), held(value)
        for _ in range(ROUNDS):
            m = tvm_ffi.Map({key: value, "v": value})
            assert held(key) == start_key + 1 and held(value) == start_value + 2
            assert list(m.items()) == [(key, value), ("v", value)]
            del m
            d = tvm_ffi.Dict({"k": value, key: "opaque key"})
            d["k"] = other  # overwriting drops the old value
            assert held(key) == start_key + 1 and held(value) == start_value
            d["more"] = value
            assert d.pop("more") is value and d.setdefault("k", value) is other
            for i in range(8):  # grow into the dense layout and back out through clear
                d[i] = value
            assert held(value) == start_value + 8
            del d[3]
            assert held(value) == start_value + 7
            d.clear()
            assert held(key) == start_key and held(value) == start_value
            d["k"] = value
            d[key] = value
            del d  # dies holding both


def test_containers_made_from_arguments_release_their_items() -> None:
    payload = Payload()
    echo = tvm_ffi.get_global_func("testing.echo")
    with balanced(payload):
        for _ in range(ROUNDS):
            out = echo([payload, (payload,), {"k": [payload]}])
            assert out[0] is payload and out[1][0] is payload and out[2]["k"][0] is payload
            del out
            echo({"ignored": [payload] * 3})


def test_pickled_copies_hold_their_own_references() -> None:
    payload = Payload()
    with balanced(payload):
        for _ in range(ROUNDS):
            original = tvm_ffi.List([1, "x"])
            copy = pickle.loads(pickle.dumps(original))
            copy.append(payload)
            assert copy[-1] is payload
            del copy, original


def test_failed_construction_and_lookup_keep_nothing() -> None:
    payload = Payload()
    make_map = tvm_ffi.get_global_func("ffi.Map")
    with balanced(payload):
        for _ in range(ROUNDS):
            with pytest.raises(ValueError, match="odd number of arguments"):
                make_map("k", payload, "dangling")
            m = tvm_ffi.Map({"k": 1})
            with pytest.raises(KeyError):
                m[payload]
            assert payload not in m and m.get(payload) is None


@pytest.mark.parametrize("make", [tvm_ffi.Array, tvm_ffi.List], ids=["Array", "List"])
def test_numpy_arrays_in_sequences_are_kept_alive_and_released(make: Callable[..., object]) -> None:
    np = pytest.importorskip("numpy")
    if not hasattr(tvm_ffi, "from_dlpack"):
        pytest.skip("tensor support not built")
    data = np.arange(4, dtype="float32")
    with balanced(data):
        seq = make([data, {"t": data}])
        tensor = seq[0]  # type: ignore[index]
        assert isinstance(tensor, tvm_ffi.Tensor) and tensor.data_ptr() == data.ctypes.data
        assert held(data) > 2  # the tensors keep the NumPy array (through its DLPack capsule)
        del seq, tensor


def test_a_million_nested_arrays_are_freed_without_deep_recursion() -> None:
    # Each Array's deleter releases the next one: without a depth limit the C stack would have
    # to hold a million nested deleter frames.
    leaf = Payload()
    chain = tvm_ffi.Array([leaf])
    for _ in range(1_000_000):
        chain = tvm_ffi.Array([chain])
    assert sys.getrefcount(leaf) == 3  # leaf, the getrefcount argument, the innermost Array
    del chain
    assert sys.getrefcount(leaf) == 2


def test_deep_chains_of_mixed_containers_are_freed_completely() -> None:
    leaf = Payload()
    chain: object = tvm_ffi.List([leaf])
    for depth in range(300_000):
        chain = tvm_ffi.Dict({"next": chain}) if depth % 2 else tvm_ffi.List([chain, depth])
    inner = tvm_ffi.Map({"held": chain})  # a second owner for the whole chain
    del chain
    assert sys.getrefcount(leaf) == 3
    del inner
    assert sys.getrefcount(leaf) == 2
