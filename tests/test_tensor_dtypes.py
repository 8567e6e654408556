"""Every DLPack dtype NumPy and PyTorch can export maps both ways through tvm_ffi.Tensor.

Each case goes framework -> tvm_ffi.from_dlpack -> (DLDataType checked against spec/ABI.md 1.5)
-> back to the framework, and must come back as the same dtype over the same memory: a write
through either side is seen by the other. A kernel call (testing.echo) must keep it as well.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo)
from _numpy_dlpack import needs_numpy_dlpack_v1
from leakcheck import no_ffi_leaks  # noqa: F401

# Framework dtype name -> (DLDataType (code, bits, lanes) per spec/ABI.md 1.5, tvm_ffi dtype text).
# Complex has no dtype text: TVMFFIDataTypeToString rejects code 5 (ABI.md 5.6), as the reference does.
ABI_DTYPES: dict[str, tuple[tuple[int, int, int], str | None]] = {
    "bool": ((6, 8, 1), "bool"),
    "int8": ((0, 8, 1), "int8"),
    "int16": ((0, 16, 1), "int16"),
    "int32": ((0, 32, 1), "int32"),
    "int64": ((0, 64, 1), "int64"),
    "uint8": ((1, 8, 1), "uint8"),
    "uint16": ((1, 16, 1), "uint16"),
    "uint32": ((1, 32, 1), "uint32"),
    "uint64": ((1, 64, 1), "uint64"),
    "float16": ((2, 16, 1), "float16"),
    "float32": ((2, 32, 1), "float32"),
    "float64": ((2, 64, 1), "float64"),
    "bfloat16": ((4, 16, 1), "bfloat16"),
    "float8_e4m3fn": ((10, 8, 1), "float8_e4m3fn"),
    "float8_e4m3fnuz": ((11, 8, 1), "float8_e4m3fnuz"),
    "float8_e5m2": ((12, 8, 1), "float8_e5m2"),
    "float8_e5m2fnuz": ((13, 8, 1), "float8_e5m2fnuz"),
    "float8_e8m0fnu": ((14, 8, 1), "float8_e8m0fnu"),
    "float4_e2m1fn_x2": ((17, 4, 2), "float4_e2m1fnx2"),  # two 4-bit values packed in a byte
    "complex32": ((5, 32, 1), None),
    "complex64": ((5, 64, 1), None),
    "complex128": ((5, 128, 1), None),
}

NUMPY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "complex64", "complex128"]
TORCH_DTYPES = [*NUMPY_DTYPES, "bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
                "float8_e8m0fnu", "float4_e2m1fn_x2", "complex32"]
SHAPE = (2, 3)
# Offset of DLTensor.dtype in a tensor object: 24-byte object header + 20 (ABI.md 1.x layout tables).
DTYPE_OFFSET = 24 + 20


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


def raw_dtype(t: tvm_ffi.Tensor) -> tuple[int, int, int]:
    """The DLDataType stored in the tensor object, read from memory (not through Tensor.dtype)."""
    field = DLDataType.from_address(t.__chandle__() + DTYPE_OFFSET)
    return (field.code, field.bits, field.lanes)


def pattern(itemsize: int, *, boolean: bool) -> np.ndarray:
    """Distinct bytes for SHAPE elements (0/1 only for bool, whose other byte values are invalid)."""
    raw = (np.arange(int(np.prod(SHAPE)) * itemsize) * 37 + 11) % 256
    return (raw % 2 if boolean else raw).astype(np.uint8)


def check_ffi_side(t: tvm_ffi.Tensor, name: str) -> None:
    """The imported tensor carries exactly the ABI's DLDataType and the matching dtype text."""
    triple, text = ABI_DTYPES[name]
    assert raw_dtype(t) == triple
    assert t.shape == SHAPE and t.ndim == 2 and t.is_contiguous()
    if text is None:
        with pytest.raises(ValueError, match="DLDataType contains unknown type_code=5"):
            _ = t.dtype
    else:
        assert t.dtype == text and isinstance(t.dtype, tvm_ffi.dtype)
        assert (t.dtype.type_code, t.dtype.bits, t.dtype.lanes) == triple


def flip_first_byte(byte_view: Any) -> int:
    """Writes byte 0 (keeping a bool a valid 0/1); returns the new value."""
    new = int(byte_view[0]) ^ 1
    byte_view[0] = new
    return new


# ---- NumPy ----


def numpy_array(name: str) -> np.ndarray:
    itemsize = np.dtype(name).itemsize
    return pattern(itemsize, boolean=name == "bool").view(name).reshape(SHAPE)


@needs_numpy_dlpack_v1
@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_numpy_dtype_round_trip(name: str) -> None:
    a = numpy_array(name)
    t = tvm_ffi.from_dlpack(a)
    check_ffi_side(t, name)
    if ABI_DTYPES[name][1] is not None:
        assert t.dtype == tvm_ffi.dtype(a.dtype)  # the dtype NumPy's own name maps to
    assert t.data_ptr() == a.ctypes.data
    back = np.from_dlpack(t)
    assert back.dtype == a.dtype and back.shape == a.shape
    assert back.ctypes.data == a.ctypes.data
    np.testing.assert_array_equal(back.view(np.uint8), a.view(np.uint8))
    written = flip_first_byte(back.reshape(-1).view(np.uint8))
    assert a.reshape(-1).view(np.uint8)[0] == written
    written = flip_first_byte(a.reshape(-1).view(np.uint8)[1:])
    assert back.reshape(-1).view(np.uint8)[1] == written


class CapsuleProducer:
    """A producer handing out a capsule made beforehand (at module level: see the note below)."""

    def __init__(self, capsule: Any) -> None:
        self.capsule = capsule

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.capsule


# A module-level class rather than one made inside a test, so that every test sees one type.


@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_numpy_dtype_survives_calls_and_our_capsules(name: str) -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    a = numpy_array(name)
    t = echo(a)  # NumPy carries no exchange API: the result is a tvm_ffi.Tensor
    assert isinstance(t, tvm_ffi.Tensor)
    check_ffi_side(t, name)
    assert t.data_ptr() == a.ctypes.data
    again = echo(t)
    assert raw_dtype(again) == raw_dtype(t) and again.data_ptr() == a.ctypes.data
    assert np.from_dlpack(again).dtype == a.dtype
    # tvm_ffi.Tensor as the producer, with a legacy and a versioned capsule
    for capsule in (t._to_dlpack(), t._to_dlpack_versioned()):
        imported = tvm_ffi.from_dlpack(CapsuleProducer(capsule))
        assert raw_dtype(imported) == ABI_DTYPES[name][0]
        assert imported.data_ptr() == a.ctypes.data and not imported.same_as(t)
    del echo, t, again, imported


def test_numpy_extension_dtypes_are_refused_like_numpy_does() -> None:
    """ml_dtypes' bfloat16/float8 arrays: NumPy cannot export them, so neither can we."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    for name in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
        a = np.zeros(3, dtype=getattr(ml_dtypes, name))
        with pytest.raises(BufferError) as numpy_error:
            a.__dlpack__()
        with pytest.raises(BufferError) as our_error:
            tvm_ffi.from_dlpack(a)
        assert str(our_error.value) == str(numpy_error.value)


# ---- PyTorch ----


def torch_dtype(name: str) -> Any:
    torch = pytest.importorskip("torch")
    dtype = getattr(torch, name, None)
    if dtype is None:
        pytest.skip(f"this torch has no torch.{name}")
    return dtype


def torch_tensor(name: str) -> Any:
    dtype = torch_dtype(name)  # skips the test when torch or this dtype is missing
    import torch

    raw = torch.from_numpy(pattern(dtype.itemsize, boolean=name == "bool"))
    return raw.view(dtype).reshape(SHAPE)


def torch_bytes(x: Any) -> Any:
    import torch

    return x.reshape(-1).view(torch.uint8)


@pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental")
@pytest.mark.parametrize("name", TORCH_DTYPES)
def test_torch_dtype_round_trip(name: str) -> None:
    torch = pytest.importorskip("torch")
    x = torch_tensor(name)
    t = tvm_ffi.from_dlpack(x)
    check_ffi_side(t, name)
    if ABI_DTYPES[name][1] is not None:
        assert t.dtype == tvm_ffi.dtype(x.dtype)  # the dtype torch's own name maps to
    assert t.data_ptr() == x.data_ptr()
    back = torch.from_dlpack(t)
    assert back.dtype == x.dtype and tuple(back.shape) == SHAPE
    assert back.data_ptr() == x.data_ptr()
    assert torch.equal(torch_bytes(back), torch_bytes(x))
    written = flip_first_byte(torch_bytes(back))
    assert int(torch_bytes(x)[0]) == written
    written = flip_first_byte(torch_bytes(x)[1:])
    assert int(torch_bytes(back)[1]) == written
    from torch.utils.dlpack import from_dlpack as from_capsule

    legacy = from_capsule(t._to_dlpack())  # a pre-1.0 "dltensor" capsule
    assert legacy.dtype == x.dtype and legacy.data_ptr() == x.data_ptr()


@pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental")
@pytest.mark.parametrize("name", TORCH_DTYPES)
def test_torch_dtype_survives_a_call(name: str) -> None:
    torch = pytest.importorskip("torch")
    echo = tvm_ffi.get_global_func("testing.echo")
    x = torch_tensor(name)
    y = echo(x)  # torch's exchange API turns the result back into a torch tensor
    assert type(y) is torch.Tensor
    assert y.dtype == x.dtype and y.data_ptr() == x.data_ptr() and tuple(y.shape) == SHAPE
    t = echo(tvm_ffi.from_dlpack(x))  # no framework argument: a tvm_ffi.Tensor
    assert isinstance(t, tvm_ffi.Tensor)
    check_ffi_side(t, name)
    del echo, t


def test_numpy_and_torch_agree() -> None:
    """NumPy -> tvm_ffi -> torch: the DLDataType alone carries the type across frameworks."""
    torch = pytest.importorskip("torch")
    for name in NUMPY_DTYPES:
        a = numpy_array(name)
        x = torch.from_dlpack(tvm_ffi.from_dlpack(a))
        assert x.dtype == getattr(torch, name) and x.data_ptr() == a.ctypes.data
        assert torch.equal(torch_bytes(x), torch.from_numpy(a.reshape(-1).view(np.uint8)))


def test_a_complex_tensor_has_a_repr() -> None:
    t = tvm_ffi.from_dlpack(np.zeros(2, dtype="complex64"))
    try:
        text = repr(t)
    except ValueError as err:  # kept as text: the exception holds an FFI error object (leak check)
        text = f"ValueError: {err}"
    del t  # a failing assert keeps this frame, and so t, alive in pytest's report (leak check)
    assert text == "(code=5, bits=64, lanes=1)[2]@cpu:0"  # a dtype without a name shows its fields
