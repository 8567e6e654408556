"""Conversions between Python values and FFI values, in both directions, through tvm_ffi._core.

Values go out through a call (Python -> TVMFFIAny) and come back as a result (TVMFFIAny ->
Python). The functions on the other side are runtime globals (``ffi.String``, ``ffi.Bytes``),
C functions of a plugin compiled for the tests (``echo``, ``type_index``), and Python callbacks
registered as globals and fetched back through ``_get_global_func``.
"""

from __future__ import annotations

import ctypes
import enum
import math
import pickle
import sys
from typing import Any

import numpy as np
import pytest
import tvm_ffi
from _core_plugin import plugin
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import _core

P = plugin()
echo = P.fn("echo")
type_index = P.fn("type_index")
ffi_string = _core._get_global_func("ffi.String", False)
ffi_bytes = _core._get_global_func("ffi.Bytes", False)

# A Python identity function registered as a global: values cross C twice per call.
_core._register_global_func("testing.core_convert.py_echo", lambda x: x, True)
py_echo = _core._get_global_func("testing.core_convert.py_echo", False)

STRINGS = ["", "a", "abcdefg", "abcdefgh", "x" * 500, "héllo", "日本語テキスト", "a\x00b", "a\x00" * 10, "\x00"]
BYTES = [b"", b"\x00", b"abcdefg", b"abcdefgh", b"y" * 500, b"a\x00b", b"\xff\xfe" * 20]


@pytest.mark.parametrize("value", STRINGS)
@pytest.mark.parametrize("fn", [ffi_string, echo, py_echo], ids=["ffi.String", "c_echo", "py_echo"])
def test_str_round_trip(fn: _core.Function, value: str) -> None:
    result = fn(value)
    assert result == value
    assert isinstance(result, str)


@pytest.mark.parametrize("value", BYTES)
@pytest.mark.parametrize("fn", [ffi_bytes, echo, py_echo], ids=["ffi.Bytes", "c_echo", "py_echo"])
def test_bytes_round_trip(fn: _core.Function, value: bytes) -> None:
    result = fn(value)
    assert result == value
    assert isinstance(result, bytes)
    assert fn(bytearray(value)) == value


def test_short_strings_are_plain_and_long_ones_keep_their_object() -> None:
    short = ffi_string("abcdefg")
    assert type(short) is str
    long = ffi_string("abcdefgh")
    assert type(long) is _core.String
    assert isinstance(long._tvm_ffi_cached_object, _core.Object)
    assert long._tvm_ffi_cached_object.type_key == "ffi.String"
    # Passing it back passes the very same object.
    assert echo(long)._tvm_ffi_cached_object.same_as(long._tvm_ffi_cached_object)
    data = ffi_bytes(b"z" * 100)
    assert type(data) is _core.Bytes
    assert data._tvm_ffi_cached_object.type_key == "ffi.Bytes"
    assert echo(data)._tvm_ffi_cached_object.same_as(data._tvm_ffi_cached_object)


def test_string_and_bytes_pickle_as_plain_values() -> None:
    value = ffi_string("p" * 50)
    restored = pickle.loads(pickle.dumps(value))
    assert restored == value and type(restored) is str
    data = ffi_bytes(b"q" * 50)
    restored_bytes = pickle.loads(pickle.dumps(data))
    assert restored_bytes == data and type(restored_bytes) is bytes


def test_argument_type_indices() -> None:
    class Opaque:
        pass

    expected = [
        (None, 0), (1, 1), (True, 2), (1.5, 3), (ctypes.c_void_p(16), 4),
        (_core.DataType("int8"), 5), (_core.Device("cpu"), 6),
        # text as the reference passes it: inline up to 7 bytes, else a String/Bytes object (never a
        # borrowed RawStr/ByteArrayPtr, which C callees written for the reference do not accept)
        ("abcdefg", 11), ("abcdefgh", 65), ("abcdefgh\x00", 65),
        (b"abcdefg", 12), (b"abcdefgh", 66), (bytearray(b"abc"), 12), (bytearray(b"abcdefgh"), 66),
        ([1, 2], 71), ((1,), 71), (lambda: None, 68), (Opaque(), 74), (ValueError("e"), 67), (2**64, 78),
        (np.int32(3), 1), (np.float64(2.5), 3), (np.float32(2.5), 3),
    ]
    for value, index in expected:
        assert type_index(value) == index, value


def test_arguments_are_canonical() -> None:
    """Padding and unused payload bytes are zero, bools are 0/1 (maps compare raw bytes)."""
    assert P.fn("canonical")(None, True, False, 0, -1, 1.0, "", "abc", b"xy", _core.DataType("int8"),
                             _core.Device("cuda", 3), ctypes.c_void_p(0)) == 1


@pytest.mark.parametrize("value", [0, 1, -1, 2**31, 2**63 - 1, -(2**63), True, False, None, 0.0, -2.5, 1e300])
def test_scalars_round_trip(value: object) -> None:
    for fn in (echo, py_echo):
        result = fn(value)
        assert result == value
        assert type(result) is type(value)


# Every digit-count boundary of CPython's int (30-bit digits): one-digit ints take a direct read.
DIGIT_EDGES = [v for k in (30, 31, 60, 62) for e in (2**k - 1, 2**k, 2**k + 1) for v in (e, -e)]


@pytest.mark.parametrize("value", DIGIT_EDGES + [-(2**63), 2**63 - 1, -(2**63) + 1])
def test_ints_at_digit_boundaries_keep_their_value(value: int) -> None:
    assert type_index(value) == 1  # kTVMFFIInt
    assert echo(value) == value
    assert echo(value * -1) == -value


def test_special_floats() -> None:
    assert echo(math.inf) == math.inf
    assert math.isnan(echo(math.nan))


# Word edges (64-bit words, two's complement) and ints longer than the converter's stack buffer.
@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 2**64, -(2**100), 2**1000 + 7, -(2**1000),
                                   2**64 - 1, 2**63 + 12345, 2**127, -(2**127), 2**128 - 1,
                                   -(2**128) + 1, 2**5000 + 3, -(2**5000) - 1])
def test_bigint_round_trip(value: int) -> None:
    assert type_index(value) == 78
    for fn in (echo, py_echo):
        result = fn(value)
        assert result == value and type(result) is int
    assert _core._convert(value) == value


def test_bigint_round_trips_at_every_bit_length() -> None:
    # Digits (30 bits) and words (64) meet at every offset; both signs, powers of two and their
    # neighbours, where two's complement and sign-magnitude differ most.
    for bits in range(63, 400):
        for magnitude in (1 << bits, (1 << bits) - 1, (1 << bits) + 1, (1 << bits) | 0x5A5A5A5A5A5A5A5A):
            for value in (magnitude, -magnitude):
                if -(2**63) <= value < 2**63:
                    continue
                result = echo(value)
                assert result == value and type(result) is int and hash(result) == hash(value)


def test_bigint_from_an_int_subclass() -> None:
    class Big(int):
        pass

    result = echo(Big(-(2**90) + 5))
    assert result == -(2**90) + 5 and type(result) is int


def test_int_subclasses_and_numpy_scalars() -> None:
    class Color(enum.IntEnum):
        RED = 5

    assert echo(Color.RED) == 5 and type(echo(Color.RED)) is int
    assert echo(np.int64(-7)) == -7
    assert echo(np.uint8(200)) == 200
    assert echo(np.float32(0.5)) == 0.5 and type(echo(np.float32(0.5))) is float
    assert echo(np.bool_(True)) in (True, 1)


def test_device_and_datatype() -> None:
    dev = _core.Device("cuda:1")
    for fn in (echo, py_echo):
        back = fn(dev)
        assert isinstance(back, _core.Device)
        assert back == dev and str(back) == "cuda:1"
        assert repr(back) == "device(type='cuda', index=1)"
    dtype = _core.DataType("float32x4")
    back = echo(dtype)
    assert str(back) == "float32x4"
    # The dtype class set by the package (if any) wraps the same value.
    inner = getattr(back, "_tvm_ffi_dtype", back)
    assert (inner.type_code, inner.bits, inner.lanes) == (2, 32, 4)
    assert echo(back) == back


def test_void_pointer() -> None:
    ptr = echo(ctypes.c_void_p(0x12345678))
    assert isinstance(ptr, ctypes.c_void_p) and ptr.value == 0x12345678
    null = echo(ctypes.c_void_p(None))
    assert isinstance(null, ctypes.c_void_p) and null.value is None


def test_opaque_python_objects_come_back_identical() -> None:
    class Thing:
        pass

    thing = Thing()
    base = sys.getrefcount(thing)
    for fn in (echo, py_echo):
        back = fn(thing)
        assert back is thing
        del back
        assert sys.getrefcount(thing) == base
    held = _core._convert(thing)
    assert held is thing
    del held
    assert sys.getrefcount(thing) == base


def test_argument_references_are_balanced() -> None:
    """Every temporary a call makes is released, on success and on failure alike."""

    class Opaque:
        pass

    values = [
        "short", "a long string value", "with\x00nul inside", b"bytes value long", bytearray(b"ba"),
        [1, "x", Opaque()], (2.5, None), Opaque(), lambda: 0, 2**80, _core.Device("cpu"),
        _core.String("native string"), _Wrapped("wrapped"), KeyError("k"),
    ]
    for value in values:
        base = sys.getrefcount(value)
        for _ in range(10):
            type_index(value)
            P.fn("num_args")(value, value, value)
            with pytest.raises(ValueError, match="argument #1"):
                type_index(value, "not UTF-8 \udcff")  # fails after converting `value`
        assert sys.getrefcount(value) == base, value


def test_string_and_bytes_reduce() -> None:
    assert _core.String("s").__reduce__() == (str, ("s",))
    assert _core.Bytes(b"b").__reduce__() == (bytes, (b"b",))


def test_lists_and_tuples_become_arrays() -> None:
    array = _core._convert([1, "two", [3.0, None], (b"four",)])
    assert isinstance(array, _core.Object)
    assert array.type_key == "ffi.Array"
    size = _core._get_global_func("ffi.ArraySize", False)
    get = _core._get_global_func("ffi.ArrayGetItem", False)
    assert size(array) == 4
    assert get(array, 1) == "two"
    assert get(get(array, 2), 0) == 3.0
    assert get(get(array, 3), 0) == b"four"
    assert size(echo([])) == 0
    assert size(echo(list(range(100)))) == 100


def test_self_containing_list_fails_cleanly() -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(RecursionError):
        echo(loop)


def test_dicts_become_maps() -> None:
    size = _core._get_global_func("ffi.MapSize", False)
    get = _core._get_global_func("ffi.MapGetItem", False)
    m = echo({"a": 1, "a longer key": [2, 3], 7: None})
    assert m.type_key == "ffi.Map" and size(m) == 3
    assert get(m, "a") == 1 and get(m, 7) is None
    assert _core._get_global_func("ffi.ArraySize", False)(get(m, "a longer key")) == 2
    with pytest.raises(KeyError):
        get(m, "missing")

    class BadInt:
        def __tvm_ffi_int__(self) -> str:
            return "not an int"

    with pytest.raises(TypeError, match="argument #0"):  # an element error names the dict argument
        echo({"bad": BadInt()})


def test_callables_become_functions() -> None:
    def add(a: int, b: int) -> int:
        return a + b

    func = _core._convert(add)
    assert isinstance(func, _core.Function)
    assert func(2, 3) == 5
    assert echo(func).same_as(func)
    assert _core._convert_to_ffi_func(add)(4, 5) == 9
    assert _core._convert_to_ffi_func(func) is func


def test_exceptions_become_errors() -> None:
    error = _core._convert(ValueError("bad value"))
    assert isinstance(error, _core.Error)
    assert (error.kind, error.message) == ("ValueError", "bad value")


class _Wrapped:
    """Carries a value through the __tvm_ffi_value__ protocol."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __tvm_ffi_value__(self) -> object:
        return self.value


def test_protocols() -> None:
    class AsInt:
        def __tvm_ffi_int__(self) -> int:
            return 42

    class AsFloat:
        def __tvm_ffi_float__(self) -> float:
            return 0.25

    class AsPtr:
        def __tvm_ffi_opaque_ptr__(self) -> int:
            return 0x1000

    class AsDType:
        def __dlpack_data_type__(self) -> tuple[int, int, int]:
            return (2, 16, 1)

    class AsDevice:
        def __dlpack_device__(self) -> tuple[int, int]:
            return (2, 3)

    class AsStream:
        def __cuda_stream__(self) -> tuple[int, int]:
            return (0, 0x2000)

    array = _core._convert([1])

    class AsObject:
        def __tvm_ffi_object__(self) -> _core.Object:
            return array

    assert echo(AsInt()) == 42
    assert echo(AsFloat()) == 0.25
    assert echo(AsPtr()).value == 0x1000
    assert str(echo(AsDType())) == "float16"
    assert echo(AsDevice()) == _core.Device("cuda", 3)
    assert echo(AsStream()).value == 0x2000
    assert echo(AsObject()).same_as(array)
    assert echo(_Wrapped("long enough string")) == "long enough string"
    assert echo(_Wrapped(_Wrapped(7))) == 7
    nested = echo(_Wrapped([_Wrapped(1), _Wrapped("x")]))
    assert nested.type_key == "ffi.Array"


def test_cuda_stream_protocol_takes_a_version_or_a_name_tag() -> None:
    class Stream:
        def __init__(self, result: object) -> None:
            self.result = result

        def __cuda_stream__(self) -> object:
            return self.result

    # (version, address) as the CUDA stream protocol says, or a tag naming the kind: ("cuda", 1)
    assert echo(Stream((0, 0x2000))).value == 0x2000
    assert echo(Stream(("cuda", 1))).value == 1
    for bad, message in (((1,), "got a tuple of 1 items"), (("cuda", "x"), "int stream address, got `str`"),
                         ([0, 1], "tuple, got `list`")):
        with pytest.raises(TypeError, match=rf"argument #0 .*__cuda_stream__\(\) must return .*{message}"):
            echo(Stream(bad))


def test_bad_protocol_results_name_the_argument() -> None:
    class BadInt:
        def __tvm_ffi_int__(self) -> str:
            return "no"

    with pytest.raises(TypeError, match="argument #1 when calling function"):
        echo(1, BadInt())


def test_object_rvalue_ref_moves_the_object() -> None:
    array = _core._convert([1, 2])
    moved = P.fn("take")(array._move())
    assert moved.type_key == "ffi.Array"
    assert array.__chandle__() == 0
    with pytest.raises(ValueError, match="already moved"):
        P.fn("take")(_core.ObjectRValueRef(array))


def test_python_callback_takes_a_moved_object() -> None:
    use_count = tvm_ffi.get_global_func("testing.object_use_count")
    counts = []

    def callback(value: Any) -> Any:
        counts.append(use_count(value))
        return value

    f = tvm_ffi.convert(callback)
    array = _core._convert([1, 2])
    f(array)  # borrowed: the caller's reference and the callback's
    result = f(array._move())  # moved: the callback's value holds the only reference
    assert counts == [2, 1]
    assert array.__chandle__() == 0
    assert list(result) == [1, 2]


def test_many_arguments_use_the_heap_path() -> None:
    for n in (0, 1, 7, 8, 9, 20, 100):
        args = list(range(n))
        assert P.fn("num_args")(*args) == n
        if n:
            assert P.fn("last")(*args) == n - 1
    strings = [f"string number {i}" for i in range(30)]
    assert P.fn("last")(*strings) == strings[-1]


def test_conversion_errors() -> None:
    with pytest.raises(ValueError, match=r"argument #0 when calling `ffi.String`.*UTF-8"):
        ffi_string("bad \udcff surrogate")
    with pytest.raises(TypeError, match="does not accept keyword arguments"):
        ffi_string(value="x")
    with pytest.raises(TypeError, match=r"`ffi.String\(0: str\) -> str`. Expected `str` but got `int`"):
        ffi_string(1)


def test_callback_return_value_conversion_error() -> None:
    def bad() -> str:
        return "bad \udcff"

    with pytest.raises(ValueError, match="return value of a Python callback"):
        P.fn("call_n")(bad, 1)
