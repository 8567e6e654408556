"""``tvm_ffi.dtype`` and ``tvm_ffi.Device``: construction, text, equality, hashing, pickling, and
conversion from NumPy and PyTorch dtypes."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import types

import numpy as np
import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import DLDeviceType, core
from tvm_ffi._dtype import DTYPE_LITERALS, DataTypeCode

# ---- dtype ----


def test_numpy_dtype_to_str_map_names_numpy_dtypes() -> None:
    # The reference keeps this map on the class; TVM's tensor copy reads it.
    names = tvm_ffi.dtype._NUMPY_DTYPE_TO_STR
    assert names[np.dtype("float32")] == "float32" and names[np.dtype(np.bool_)] == "bool"
    assert np.dtype("int8") in names and np.dtype("complex64") not in names and "int8" not in names
    assert {np.dtype(n) for n in ("int8", "uint64", "float16", "float64")} <= set(names)
    assert all(names[key] == str(key) for key in names)
    with pytest.raises(KeyError):
        names[np.dtype("complex128")]
    assert tvm_ffi.dtype._INTEGER_CODES == {DataTypeCode.INT, DataTypeCode.UINT}
    assert DataTypeCode.BFLOAT in tvm_ffi.dtype._FLOAT_CODES


def test_dtype_texts_are_parsed_once() -> None:
    assert tvm_ffi.dtype("bfloat16") is tvm_ffi.dtype("bfloat16")

    class MyDtype(tvm_ffi.dtype):
        __slots__ = ()

    mine = MyDtype("bfloat16")
    assert type(mine) is MyDtype and mine == "bfloat16" and mine.bits == 16
    assert type(tvm_ffi.dtype("bfloat16")) is tvm_ffi.dtype
    with pytest.raises(ValueError, match="unknown dtype"):
        tvm_ffi.dtype("not_a_dtype")


def test_dtype_is_a_str() -> None:
    f32 = tvm_ffi.dtype("float32")
    assert isinstance(f32, str) and f32 == "float32" and "float32" == f32
    assert str(f32) == "float32" and f"{f32}" == "float32"
    assert repr(f32) == "dtype('float32')"
    assert hash(f32) == hash("float32")
    assert {f32: 1}["float32"] == 1
    assert f32 != "float16" and f32 != tvm_ffi.float16
    assert f32.startswith("float")  # every str method works


@pytest.mark.parametrize(
    ("text", "code", "bits", "lanes", "itemsize"),
    [
        ("float32", 2, 32, 1, 4),
        ("int8", 0, 8, 1, 1),
        ("uint16", 1, 16, 1, 2),
        ("bool", 6, 8, 1, 1),
        ("bfloat16", 4, 16, 1, 2),
        ("float32x4", 2, 32, 4, 16),
        ("float8_e4m3fn", 10, 8, 1, 1),
        ("float4_e2m1fnx2", 17, 4, 2, 1),
        ("handle", 3, 64, 1, 8),
    ],
)
def test_dtype_fields(text: str, code: int, bits: int, lanes: int, itemsize: int) -> None:
    dt = tvm_ffi.dtype(text)
    assert (dt.type_code, dt.bits, dt.lanes, dt.itemsize) == (code, bits, lanes, itemsize)
    assert dt._tvm_ffi_dtype == core.DataType(text)


def test_dtype_literals() -> None:
    assert len(DTYPE_LITERALS) == 25
    for name in DTYPE_LITERALS:
        literal = getattr(tvm_ffi, name)
        assert isinstance(literal, tvm_ffi.dtype) and literal == name
    assert tvm_ffi.bool.type_code == DataTypeCode.BOOL
    assert "bool" not in tvm_ffi.__all__  # `from tvm_ffi import *` keeps the builtin


def test_dtype_predicates() -> None:
    assert tvm_ffi.int32.is_integer and tvm_ffi.uint8.is_integer and not tvm_ffi.float32.is_integer
    assert tvm_ffi.float16.is_float and tvm_ffi.bfloat16.is_float and tvm_ffi.float8_e5m2.is_float
    assert tvm_ffi.bool.is_bool and tvm_ffi.dtype("handle").is_handle
    assert tvm_ffi.dtype.is_dtype("float32") and not tvm_ffi.dtype.is_dtype("float33x")
    assert not tvm_ffi.dtype.is_dtype(object())


def test_dtype_from_dlpack_triples_and_lanes() -> None:
    assert tvm_ffi.dtype.from_dlpack_data_type((2, 16, 1)) == "float16"
    assert tvm_ffi.dtype.from_dlpack_data_type((0, 8, 1)) == "int8"
    assert tvm_ffi.dtype.from_dlpack_data_type((6, 8, 1)) == "bool"
    assert tvm_ffi.dtype.from_dlpack_data_type((17, 4, 2)) == "float4_e2m1fnx2"
    assert tvm_ffi._dtype.float4_e2m1fn_x2 is tvm_ffi._dtype.float4_e2m1fnx2  # PyTorch's spelling
    v4 = tvm_ffi.float32.with_lanes(4)
    assert v4 == "float32x4" and isinstance(v4, tvm_ffi.dtype) and v4.lanes == 4 and v4.bits == 32
    with pytest.raises(ValueError, match=r"unsupported DLPack type code 5"):
        tvm_ffi.dtype.from_dlpack_data_type((5, 64, 1))
    with pytest.raises(ValueError, match=r"\(10, 16, 1\) is not a valid DLPack data type"):
        tvm_ffi.dtype.from_dlpack_data_type((10, 16, 1))
    for not_an_integer in ("4", 4.0, None):  # a TypeError, as the reference's
        with pytest.raises(TypeError):
            tvm_ffi.float32.with_lanes(not_an_integer)  # type: ignore[arg-type]


def test_dtype_errors() -> None:
    with pytest.raises(ValueError, match="unknown dtype `complex64`"):
        tvm_ffi.dtype("complex64")
    with pytest.raises(TypeError, match="dtype\\(\\) expects a dtype string.*got int: 3"):
        tvm_ffi.dtype(3)
    with pytest.raises(ValueError, match="got NoneType"):  # also the reference's ValueError
        tvm_ffi.dtype(None)


def test_dtype_pickle_and_copy() -> None:
    for dt in (tvm_ffi.float32, tvm_ffi.dtype("int8x4"), tvm_ffi.bfloat16):
        for restored in (pickle.loads(pickle.dumps(dt)), copy.copy(dt), copy.deepcopy(dt)):
            assert type(restored) is tvm_ffi.dtype and restored == dt
            assert (restored.type_code, restored.bits, restored.lanes) == (dt.type_code, dt.bits, dt.lanes)


def test_dtype_round_trips_through_calls() -> None:
    echo = tvm_ffi.get_global_func("ffi.Array")
    arr = echo(tvm_ffi.dtype("float16"), core.DataType("int8"))
    item = tvm_ffi.get_global_func("ffi.ArrayGetItem")
    for i, expected in enumerate(["float16", "int8"]):
        result = item(arr, i)
        assert type(result) is tvm_ffi.dtype and result == expected


def test_dtype_dlpack_data_type_protocol() -> None:
    class Foreign:
        def __dlpack_data_type__(self) -> tuple[int, int, int]:
            return (1, 32, 1)

    assert tvm_ffi.dtype(Foreign()) == "uint32"


@pytest.mark.parametrize(
    ("np_dtype", "expected"),
    [(np.float32, "float32"), (np.float64, "float64"), (np.float16, "float16"), (np.int8, "int8"),
     (np.int16, "int16"), (np.int32, "int32"), (np.int64, "int64"), (np.uint8, "uint8"),
     (np.uint16, "uint16"), (np.uint32, "uint32"), (np.uint64, "uint64"), (np.bool_, "bool")],
)
def test_dtype_from_numpy(np_dtype: type, expected: str) -> None:
    for value in (np_dtype, np.dtype(np_dtype)):
        dt = tvm_ffi.dtype(value)
        assert type(dt) is tvm_ffi.dtype and dt == expected
        assert dt.itemsize == np.dtype(np_dtype).itemsize
    assert tvm_ffi.convert(np.dtype(np_dtype)) == expected


def test_numpy_dtypes_passed_to_functions_arrive_as_dtypes() -> None:
    make_array = tvm_ffi.get_global_func("ffi.Array")
    arr = make_array(np.dtype("float32"), np.dtype(np.int8))
    assert type(arr[0]) is tvm_ffi.dtype and arr[0] == "float32" and arr[1] == "int8"
    with pytest.raises(ValueError, match="complex64"):
        make_array(np.dtype(np.complex64))


def test_framework_dtypes_are_converted_once_and_shared() -> None:
    """A NumPy dtype object maps to one ``tvm_ffi.dtype`` (its name is computed once)."""
    first = tvm_ffi.dtype(np.dtype("int16"))
    assert tvm_ffi.dtype(np.dtype("int16")) is first and first == "int16"
    assert tvm_ffi.get_global_func("testing.echo")(np.dtype("int16")) == "int16"

    class Named(tvm_ffi.dtype):
        pass

    named = Named(np.dtype("int16"))  # a subclass makes its own instance
    assert type(named) is Named and named == "int16"
    assert type(tvm_ffi.dtype(np.dtype("int16"))) is tvm_ffi.dtype


def test_dtype_from_numpy_complex_is_rejected() -> None:
    with pytest.raises(ValueError, match="complex64"):
        tvm_ffi.dtype(np.complex64)


def test_scalable_vector_lanes_read_as_negative_int16() -> None:
    # Lanes are an int16, as the reference reads them: a scalable vector's are -(its multiple).
    sve = tvm_ffi.dtype("float32xvscalex4")
    assert (sve.type_code, sve.bits, sve.lanes) == (2, 32, -4)
    assert tvm_ffi.dtype.from_dlpack_data_type((2, 32, -4)) == sve == tvm_ffi.float32.with_lanes(-4)
    assert tvm_ffi.dtype.from_dlpack_data_type((0, 8, -16)) == "int8xvscalex16"
    assert tvm_ffi.dtype("float32x40000").lanes == 40000 - 2**16  # the same 16 bits
    with pytest.raises(ValueError, match="scalable"):
        sve.itemsize  # noqa: B018
    with pytest.raises(OverflowError, match="do not fit int16"):
        tvm_ffi.dtype.from_dlpack_data_type((2, 32, 2**15))


def test_dtype_from_numpy_of_the_other_byte_order_is_rejected() -> None:
    # DLPack data types have no byte order: a big-endian int32 is no int32 (NumPy names both "int32").
    swapped = np.dtype("int32").newbyteorder()
    with pytest.raises(ValueError, match=r"unknown dtype `.i4`: not in the native byte order"):
        tvm_ffi.dtype(swapped)
    with pytest.raises(ValueError, match="native byte order"):
        tvm_ffi.get_global_func("testing.echo")(swapped)
    assert swapped not in tvm_ffi.dtype._NUMPY_DTYPE_TO_STR and np.dtype("int32") in tvm_ffi.dtype._NUMPY_DTYPE_TO_STR
    assert tvm_ffi.dtype(np.dtype("|i1")) == "int8"  # one byte: no order


def test_dtype_from_torch() -> None:
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: torch dtype conversion not tested")
    pairs = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16", torch.int8: "int8",
             torch.int64: "int64", torch.uint8: "uint8", torch.bool: "bool", torch.float64: "float64"}
    for value, expected in pairs.items():
        dt = tvm_ffi.dtype(value)
        assert type(dt) is tvm_ffi.dtype and dt == expected
        assert dt.itemsize == value.itemsize
    for name in ("float8_e4m3fn", "float8_e5m2"):
        if hasattr(torch, name):
            assert tvm_ffi.dtype(getattr(torch, name)) == name
    if hasattr(torch, "float4_e2m1fn_x2"):
        assert tvm_ffi.dtype(torch.float4_e2m1fn_x2) == "float4_e2m1fnx2"


def test_dtype_from_ml_dtypes() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed: its dtypes not tested")
    for name in ("bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3b11fnuz", "float4_e2m1fn"):
        if hasattr(ml_dtypes, name):
            dt = tvm_ffi.dtype(np.dtype(getattr(ml_dtypes, name)))
            assert type(dt) is tvm_ffi.dtype and dt == name


def test_dtype_from_torch_is_detected_without_importing_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    """PyTorch dtypes are recognised by type once `torch` is in sys.modules (a stand-in here)."""

    class FakeTorchDtype:
        def __init__(self, name: str) -> None:
            self.name = name

        def __str__(self) -> str:
            return f"torch.{self.name}"

    fake_torch = types.ModuleType("torch")
    fake_torch.dtype = FakeTorchDtype  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="FakeTorchDtype"):
        tvm_ffi.dtype(FakeTorchDtype("float32"))
    monkeypatch.setitem(sys.modules, "torch", fake_torch)
    assert tvm_ffi.dtype(FakeTorchDtype("float32")) == "float32"
    assert tvm_ffi.dtype(FakeTorchDtype("float4_e2m1fn_x2")) == "float4_e2m1fnx2"
    with pytest.raises(ValueError, match="complex64"):
        tvm_ffi.dtype(FakeTorchDtype("complex64"))


def test_import_does_not_load_numpy_or_torch() -> None:
    code = "import sys, tvm_ffi; print(sorted(m for m in ('numpy', 'torch') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# ---- device ----


def test_device_from_strings_and_codes() -> None:
    dev = tvm_ffi.device("cuda:1")
    assert isinstance(dev, tvm_ffi.Device)
    assert (dev.type, dev.index) == ("cuda", 1)
    assert str(dev) == "cuda:1" and repr(dev) == "device(type='cuda', index=1)"
    assert dev.dlpack_device_type() == DLDeviceType.kDLCUDA == 2
    assert tvm_ffi.device("cuda", 1) == dev == tvm_ffi.device(DLDeviceType.kDLCUDA, 1) == tvm_ffi.device(2, 1)
    assert tvm_ffi.device("cpu") == tvm_ffi.device("cpu", 0) == tvm_ffi.device("cpu:0")
    assert tvm_ffi.device("mps").type == "metal" and tvm_ffi.device("wgpu").type == "webgpu"
    assert tvm_ffi.device(dev) is dev


def test_device_type_codes_pickle_under_the_references_module() -> None:
    data = pickle.dumps(DLDeviceType.kDLCUDA)
    assert b"tvm_ffi.core" in data and pickle.loads(data) is DLDeviceType.kDLCUDA
    assert repr(DLDeviceType) == "<enum 'DLDeviceType'>" and DLDeviceType.__module__ == "tvm_ffi.core"


def test_device_text_for_every_name_and_index() -> None:
    # str() and repr() of the canonical names are formatted without Python's formatter: every
    # name, and indices of every width and sign, read as "type:index".
    for name in ("cpu", "cuda", "cuda_host", "opencl", "vulkan", "metal", "vpi", "rocm",
                 "rocm_host", "ext_dev", "cuda_managed", "oneapi", "webgpu", "hexagon", "maia", "trn"):
        for index in (0, 7, 123456, 2**31 - 1, -1, -(2**31)):
            dev = tvm_ffi.device(name, index)
            assert str(dev) == f"{name}:{index}"
            assert repr(dev) == f"device(type='{name}', index={index})"
    assert str(tvm_ffi.device(99, 2)) == "99:2"  # an unknown type prints its number


def test_device_index_outside_int32_is_an_overflow_and_a_value_error() -> None:
    # OverflowError as the reference raises (int32_t conversion), ValueError as this package did.
    for index in (2**31, -(2**31) - 1, 2**64, -(2**70)):
        with pytest.raises(OverflowError, match=f"Invalid device index: {index} is out of range") as caught:
            tvm_ffi.device("cuda", index)
        assert isinstance(caught.value, ValueError)
        with pytest.raises(OverflowError, match=f"Invalid device index: {index} is out of range"):
            tvm_ffi.device(f"cuda:{index}")  # written in the text, the same
    assert tvm_ffi.device("cuda", 2**31 - 1).index == 2**31 - 1


def test_device_text_takes_a_signed_index() -> None:
    # As an int index may be negative, so may one written in the text (the reference reads both).
    assert tvm_ffi.device("cuda:-1") == tvm_ffi.device("cuda", -1)
    assert tvm_ffi.device("cuda:+2").index == 2 and tvm_ffi.device(f"cpu:{-(2**31)}").index == -(2**31)
    for bad in ("cuda:-", "cuda:--1", "cuda: 1", "cuda:1.0"):
        with pytest.raises(ValueError, match="Invalid device index"):
            tvm_ffi.device(bad)


def test_device_hash_is_the_hash_of_its_type_and_index() -> None:
    # Computed in C without the tuple; it must stay the tuple's, as the reference's is.
    for device_type in (1, 2, 8, 16, 99):
        for index in (0, 1, -1, -2, 2**31 - 1, -(2**31)):
            dev = tvm_ffi.device(device_type, index)
            assert hash(dev) == hash((device_type, index))


def test_device_equality_hash_pickle() -> None:
    a, b, c = tvm_ffi.device("cuda:1"), tvm_ffi.device("cuda", 1), tvm_ffi.device("cuda", 0)
    assert a == b and hash(a) == hash(b) and a != c
    assert len({a, b, c}) == 2
    for restored in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert restored == a and type(restored) is tvm_ffi.Device


def test_device_errors() -> None:
    with pytest.raises(ValueError, match="foo"):
        tvm_ffi.device("foo")
    with pytest.raises(ValueError):
        tvm_ffi.device("cuda:x")
    with pytest.raises(ValueError, match="has index 1"):
        tvm_ffi.device(tvm_ffi.device("cuda:1"), 2)


def test_device_round_trips_through_calls() -> None:
    arr = tvm_ffi.get_global_func("ffi.Array")(tvm_ffi.device("cuda:3"))
    result = tvm_ffi.get_global_func("ffi.ArrayGetItem")(arr, 0)
    assert type(result) is tvm_ffi.Device and result == tvm_ffi.device("cuda", 3)


def test_dl_device_type_values() -> None:
    expected = {"kDLCPU": 1, "kDLCUDA": 2, "kDLCUDAHost": 3, "kDLOpenCL": 4, "kDLVulkan": 7, "kDLMetal": 8,
                "kDLVPI": 9, "kDLROCM": 10, "kDLROCMHost": 11, "kDLExtDev": 12, "kDLCUDAManaged": 13,
                "kDLOneAPI": 14, "kDLWebGPU": 15, "kDLHexagon": 16, "kDLMAIA": 17, "kDLTrn": 18}
    assert {m.name: m.value for m in DLDeviceType} == expected
    names = {1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan", 8: "metal", 9: "vpi", 10: "rocm",
             11: "rocm_host", 12: "ext_dev", 13: "cuda_managed", 14: "oneapi", 15: "webgpu", 16: "hexagon",
             17: "maia", 18: "trn"}
    for code, name in names.items():
        assert tvm_ffi.device(DLDeviceType(code)).type == name
        assert tvm_ffi.device(name, 2) == tvm_ffi.device(code, 2)
