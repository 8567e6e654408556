"""Model-based tests: long seeded-random operation sequences on Dict, Map and List, each step
checked against a plain Python model (hypothesis-style, but deterministic and dependency-free).

FFI keys follow ABI.md's AnyEqual, not Python's ``==``: ``1``, ``True`` and ``1.0`` are three
keys, floats compare by their bits (``0.0`` and ``-0.0`` differ, a NaN finds itself), and a
string is equal to any other string with the same text, inline (<= 7 bytes) or on the heap. The
Python model is therefore keyed by ``model_key(k)``, a (kind, value) pair that encodes exactly
those rules.
"""

from __future__ import annotations

import ctypes
import random
import struct
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401

SMALL_TAG = 1 << 63  # bit 63 of the map's `slots` field (+40) marks the small layout (ABI.md 4.4)


# ---- keys ----


def model_key(value: object) -> tuple[Any, ...]:
    """The identity of ``value`` as an FFI map key (see the module docstring)."""
    if value is None:
        return ("none",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return ("float", struct.pack("<d", value))
    if isinstance(value, str):
        return ("str", str(value))
    if isinstance(value, tvm_ffi.Object):
        return ("object", value.__chandle__())  # objects without a custom hash: identity
    raise TypeError(f"no model for {type(value).__name__}")


class _HeapString:
    """A heap ``ffi.String`` object holding a short text, as a kernel may create one.

    The runtime itself always stores texts of <= 7 bytes inline, so this builds the 40-byte
    object by hand (header + TVMFFIByteArray at +24) and hands it out through a C-ABI function.
    Its strong count starts huge and it has no deleter: the runtime never frees it.
    """

    class _Object(ctypes.Structure):
        _fields_ = [  # noqa: RUF012  (ctypes layout)
            ("combined_ref_count", ctypes.c_uint64),
            ("type_index", ctypes.c_int32),
            ("padding", ctypes.c_uint32),
            ("deleter", ctypes.c_void_p),
            ("data", ctypes.c_char_p),
            ("size", ctypes.c_size_t),
        ]

    class _Any(ctypes.Structure):
        _fields_ = [("type_index", ctypes.c_int32), ("padding", ctypes.c_uint32), ("value", ctypes.c_uint64)]  # noqa: RUF012

    _SafeCall = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32, ctypes.POINTER(_Any))
    _STR_TYPE_INDEX = 65  # kTVMFFIStr
    _START_COUNT = (1 << 32) | (1 << 30)  # weak 1, strong 2**30

    def __init__(self, text: str) -> None:
        self.text = text.encode()
        self.obj = self._Object(self._START_COUNT, self._STR_TYPE_INDEX, 0, None, self.text, len(self.text))
        self.safe_call = self._SafeCall(self._return_object)
        self.function = tvm_ffi.Function.__from_extern_c__(ctypes.cast(self.safe_call, ctypes.c_void_p).value)

    def _return_object(self, _handle: int, _args: int, _num_args: int, result: Any) -> int:
        self.obj.combined_ref_count += 1  # the result is an owned reference
        result[0].type_index = self._STR_TYPE_INDEX
        result[0].padding = 0
        result[0].value = ctypes.addressof(self.obj)
        return 0

    def make(self) -> str:
        """A ``str`` whose FFI value is the heap object (passes as type index 65)."""
        value = self.function()
        assert getattr(value, "_tvm_ffi_cached_object", None) is not None
        return value

    @property
    def strong_count(self) -> int:
        return self.obj.combined_ref_count & 0xFFFFFFFF


# Kept for the whole session: maps may still hold the objects when a test fails.
_HEAP_ABC = _HeapString("abc")
_HEAP_EMPTY = _HeapString("")


def key_pool() -> list[object]:
    """Keys of every kind AnyHash/AnyEqual tell apart, including the tricky pairs."""
    return [
        0, 1, 2, -1, 7, 2**40, -(2**62),
        True, False,
        1.0, 0.0, -0.0, 2.5, float("nan"), float("inf"),
        "", "a", "abc", "seven77", "eight888", "é", "a key long enough to live on the heap",
        _HEAP_ABC.make(), _HEAP_EMPTY.make(),
        None,
    ]  # fmt: skip


def is_small_layout(mapping: tvm_ffi.Map | tvm_ffi.Dict) -> bool:
    """Reads bit 63 of the map object's `slots` field: set for the small layout."""
    slots = ctypes.c_uint64.from_address(mapping.__chandle__() + 40).value
    return bool(slots & SMALL_TAG)


def overwrite_moves_to_end(small: bool, size: int) -> bool:
    """Whether setting a key already in a map moves it to the end of the iteration order, by the
    reference's insertion (inline in kernels too): a small map overwrites in place, but a full
    one (4 entries) first turns dense, and a dense map moves the overwritten entry to the end."""
    return not small or size == 4


def random_value(rng: random.Random) -> object:
    """A scalar value; values are compared with model_key so 1 and True stay apart."""
    return rng.choice([rng.randrange(-5, 5), rng.random(), rng.choice([True, False]), None, f"v{rng.randrange(99)}",
                       "a value that is longer than seven bytes"])  # fmt: skip


# ---- the rules, directly ----


def test_int_bool_and_float_are_distinct_keys_in_both_layouts() -> None:
    ones = [(1, "int"), (True, "bool"), (1.0, "float")]
    zeros = [(0, "zero"), (False, "false"), (0.0, "+0"), (-0.0, "-0")]
    for pairs in (ones, zeros, ones + zeros):  # 3 and 4 keys stay small, 7 keys are dense
        for mapping in (tvm_ffi.Map(pairs), tvm_ffi.Dict(pairs)):
            assert is_small_layout(mapping) == (len(pairs) <= 4)
            assert len(mapping) == len(pairs)
            for key, value in pairs:
                assert mapping[key] == value
            assert [model_key(k) for k in mapping] == [model_key(k) for k, _ in pairs]


def test_nan_key_finds_itself() -> None:
    nan = float("nan")
    for size in (1, 8):
        m = tvm_ffi.Map([(nan, "nan"), *((i, i) for i in range(size))])
        assert m[nan] == "nan" and nan in m and m[float("nan")] == "nan"


def test_small_and_heap_strings_with_the_same_text_are_one_key() -> None:
    heap = _HEAP_ABC.make()
    for filler in (0, 10):
        others = [(f"other key {i}", i) for i in range(filler)]
        small_keyed = tvm_ffi.Map([("abc", 1), *others])
        heap_keyed = tvm_ffi.Map([(heap, 2), *others])
        assert is_small_layout(small_keyed) == (filler == 0)
        assert small_keyed[heap] == 1 and heap in small_keyed
        assert heap_keyed["abc"] == 2 and "abc" in heap_keyed
        both = tvm_ffi.Map([("abc", "small"), (heap, "heap"), *others])
        assert len(both) == 1 + filler and both["abc"] == "heap"
    d = tvm_ffi.Dict({f"k{i}": i for i in range(6)})
    d[heap] = "from heap"
    d["abc"] = "from small"
    assert len(d) == 7 and d[heap] == "from small"
    del d[heap]
    assert "abc" not in d and len(d) == 6


def test_heap_string_keys_are_released_with_the_map() -> None:
    heap = _HEAP_ABC.make()
    before = _HEAP_ABC.strong_count
    d = tvm_ffi.Dict({heap: 1})
    assert _HEAP_ABC.strong_count == before + 1  # the map holds the heap object itself
    d["abc"] = 2  # same key: the stored key stays, the new one is not kept
    assert _HEAP_ABC.strong_count == before + 1
    del d
    assert _HEAP_ABC.strong_count == before


# ---- Dict: 100,000 random operations ----


class DictModel:
    """Drives a tvm_ffi.Dict and a Python dict keyed by model_key through the same operations."""

    def __init__(self, rng: random.Random, keys: list[object]) -> None:
        self.rng = rng
        self.keys = keys
        self.ffi = tvm_ffi.Dict()
        self.model: dict[tuple[Any, ...], tuple[object, object]] = {}  # model key -> (key, value)
        self.target = 0  # the size the walk is drawn towards
        # Every spelling of each key: "abc" is also reached through the heap string "abc".
        self.spellings: dict[tuple[Any, ...], list[object]] = {}
        for key in keys:
            self.spellings.setdefault(model_key(key), []).append(key)

    def random_key(self, present: float = 0.5) -> object:
        """A key of the pool; with probability ``present`` one that is in the map now."""
        if self.model and self.rng.random() < present:
            k = self.rng.choice(list(self.model))
            return self.rng.choice(self.spellings[k])
        return self.rng.choice(self.keys)

    def check_value(self, got: object, expected: object) -> None:
        assert model_key(got) == model_key(expected)

    def check_all(self) -> None:
        assert len(self.ffi) == len(self.model)
        assert [model_key(k) for k in self.ffi] == list(self.model)
        for (key, value), (model_k, (_, expected)) in zip(self.ffi.items(), self.model.items()):
            assert model_key(key) == model_k
            self.check_value(value, expected)

    def set(self) -> None:
        key, value = self.random_key(present=0.3), random_value(self.rng)
        k = model_key(key)
        moves = k in self.model and overwrite_moves_to_end(is_small_layout(self.ffi), len(self.model))
        self.ffi[key] = value
        first = self.model.pop(k)[0] if moves else self.model.get(k, (key,))[0]
        self.model[k] = (first, value)

    def get(self) -> None:
        key = self.random_key()
        k = model_key(key)
        if k in self.model:
            self.check_value(self.ffi[key], self.model[k][1])
            self.check_value(self.ffi.get(key, "default"), self.model[k][1])
        else:
            with pytest.raises(KeyError):
                self.ffi[key]
            assert self.ffi.get(key, "default") == "default"

    def contains(self) -> None:
        key = self.random_key()
        assert (key in self.ffi) == (model_key(key) in self.model)

    def pop(self) -> None:
        key = self.random_key(present=0.8)
        k = model_key(key)
        if k in self.model:
            self.check_value(self.ffi.pop(key), self.model.pop(k)[1])
        else:
            assert self.ffi.pop(key, "absent") == "absent"

    def delete(self) -> None:
        key = self.random_key(present=0.8)
        k = model_key(key)
        if k in self.model:
            del self.ffi[key]
            del self.model[k]
        else:
            with pytest.raises(KeyError):
                del self.ffi[key]

    def setdefault(self) -> None:
        key, value = self.random_key(), random_value(self.rng)
        k = model_key(key)
        expected = self.model.setdefault(k, (key, value))[1]
        self.check_value(self.ffi.setdefault(key, value), expected)

    def length(self) -> None:
        assert len(self.ffi) == len(self.model)

    def clear(self) -> None:
        self.ffi.clear()
        self.model.clear()

    def step(self) -> None:
        """One operation, drawn so the size drifts towards self.target."""
        grow = len(self.model) < self.target
        writes: list[tuple[Callable[[], None], int]] = [
            (self.set, 6 if grow else 2), (self.setdefault, 1),
            (self.pop, 1 if grow else 4), (self.delete, 1 if grow else 4),
        ]  # fmt: skip
        reads: list[tuple[Callable[[], None], int]] = [(self.get, 4), (self.contains, 3), (self.length, 1)]
        ops, weights = zip(*(writes + reads))
        self.rng.choices(ops, weights)[0]()


def test_dict_random_operations_match_a_python_dict() -> None:
    rng = random.Random(20240611)
    keys = key_pool() + list(range(100, 160))  # the extra ints let the map grow past a few rehashes
    model = DictModel(rng, keys)
    targets = [0, 1, 3, 4, 5, 6, 12, 30, 80]
    switches = {"to dense": 0, "to small": 0}
    max_size = 0
    was_small = True
    for op in range(100_000):
        if op % 500 == 0:
            model.target = rng.choice(targets)
            # Erasing never shrinks a dense map; clearing is what brings back the small layout.
            if model.target <= 4 and rng.random() < 0.7:
                model.clear()
        model.step()
        if op % 97 == 0:
            model.check_all()
        small = is_small_layout(model.ffi)
        if small != was_small:
            switches["to small" if small else "to dense"] += 1
        was_small = small
        if small:
            assert len(model.ffi) <= 4  # the small layout never holds more than 4 entries
        max_size = max(max_size, len(model.model))
    model.check_all()
    assert min(switches.values()) >= 20, f"too few layout switches: {switches}"
    assert max_size >= 50  # and the dense table was rehashed several times on the way


# ---- Map: built from random dicts and pair lists ----


def _random_pairs(rng: random.Random, keys: list[object]) -> list[tuple[object, object]]:
    size = rng.choice([0, 1, 2, 3, 4, 5, 6, 9, 17, 40])
    return [(rng.choice(keys), random_value(rng)) for _ in range(size)]


def _expected_entries(pairs: list[tuple[object, object]]) -> tuple[dict[tuple[Any, ...], tuple[object, object]], bool]:
    """The entries of Map(pairs) under FFI key rules, inserted one by one (a repeated key keeps
    its first spelling and takes the last value; see overwrite_moves_to_end for its place), and
    whether the map is still small (no insert ever met it full)."""
    entries: dict[tuple[Any, ...], tuple[object, object]] = {}
    small = True
    for key, value in pairs:
        k = model_key(key)
        moves = k in entries and overwrite_moves_to_end(small, len(entries))
        small = small and len(entries) < 4
        first = entries.pop(k)[0] if moves else entries.get(k, (key,))[0]
        entries[k] = (first, value)
    return entries, small


def _check_map(m: tvm_ffi.Map, expected: dict[tuple[Any, ...], tuple[object, object]], keys: list[object]) -> None:
    assert len(m) == len(expected)
    assert [model_key(k) for k in m] == list(expected)
    assert [(model_key(k), model_key(v)) for k, v in m.items()] == [(k, model_key(v)) for k, (_, v) in expected.items()]
    for key in keys:
        k = model_key(key)
        assert (key in m) == (k in expected)
        if k in expected:
            assert model_key(m[key]) == model_key(expected[k][1])
        else:
            with pytest.raises(KeyError):
                m[key]


def test_map_built_from_random_pairs_matches_the_model() -> None:
    rng = random.Random(7)
    keys = key_pool() + list(range(100, 140))
    for _ in range(400):
        pairs = _random_pairs(rng, keys)
        m = tvm_ffi.Map(pairs)
        expected, small = _expected_entries(pairs)
        assert isinstance(m, tvm_ffi.Map) and is_small_layout(m) == small
        _check_map(m, expected, keys)


def test_map_from_random_python_dicts_matches_the_dict() -> None:
    rng = random.Random(8)
    make_array = tvm_ffi.get_global_func("ffi.Array")
    keys = [k for k in key_pool() if not isinstance(k, (bool, float))] + list(range(100, 140))
    for _ in range(300):
        source = dict(_random_pairs(rng, keys))  # Python dict: keys unique under ==
        expected, _ = _expected_entries(list(source.items()))
        for m in (tvm_ffi.Map(source), make_array(source)[0]):  # the constructor and argument conversion
            assert isinstance(m, tvm_ffi.Map)
            _check_map(m, expected, keys)
            assert m == tvm_ffi.Map(source) and m != source  # a plain dict never equals a Map


# ---- List: random edits against a Python list ----


def _norm(items: Iterator[object] | list[object]) -> list[tuple[Any, ...]]:
    return [model_key(x) for x in items]


def test_list_random_operations_match_a_python_list() -> None:
    rng = random.Random(99)
    lst = tvm_ffi.List()
    model: list[object] = []

    def index(allow_end: bool = False) -> int:
        n = len(model) + (1 if allow_end else 0)
        return rng.randrange(-n, n)

    def random_slice() -> slice:
        n = len(model) + 2
        parts = [rng.choice([None, rng.randrange(-n, n)]) for _ in range(2)]
        return slice(parts[0], parts[1], rng.choice([None, 1, 2, 3, -1, -2, -3]))

    for _ in range(20_000):
        op = rng.randrange(11)
        value = random_value(rng)
        if op == 0:
            lst.append(value)
            model.append(value)
        elif op == 1:
            position = rng.randrange(-len(model) - 3, len(model) + 3)  # out of range clamps
            lst.insert(position, value)
            model.insert(position, value)
        elif op == 2 and model:
            position = index()
            assert model_key(lst.pop(position)) == model_key(model.pop(position))
        elif op == 3 and model:
            position = index()
            lst[position] = value
            model[position] = value
        elif op == 4 and model:
            position = index()
            del lst[position]
            del model[position]
        elif op == 5:
            s = random_slice()
            assert _norm(lst[s]) == _norm(model[s])
        elif op == 6:
            s = random_slice()
            if s.step in (None, 1):
                replacement = [random_value(rng) for _ in range(rng.randrange(4))]
            else:
                replacement = [random_value(rng) for _ in range(len(range(*s.indices(len(model)))))]
            lst[s] = replacement
            model[s] = replacement
        elif op == 7 and len(model) > 30:
            s = random_slice()
            del lst[s]
            del model[s]
        elif op == 8 and model:
            position = index()
            assert model_key(lst[position]) == model_key(model[position])
        elif op == 9:
            probe = random_value(rng)
            assert (probe in lst) == (model_key(probe) in _norm(model))
        elif op == 10 and rng.random() < 0.05:
            extra = [random_value(rng) for _ in range(rng.randrange(5))]
            lst.extend(extra)
            model.extend(extra)
            if rng.random() < 0.3:
                lst.reverse()
                model.reverse()
        assert len(lst) == len(model)
        if len(model) > 60:
            del lst[:30]
            del model[:30]
    assert _norm(lst) == _norm(model)
