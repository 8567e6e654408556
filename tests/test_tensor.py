"""tvm_ffi.Tensor and from_dlpack: zero-copy DLPack exchange with NumPy (and PyTorch if present)."""

from __future__ import annotations

import ctypes
import threading
import types
import weakref
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo)
from _kernel_lib import compile_kernel
from _numpy_dlpack import needs_numpy_dlpack_v1
from leakcheck import live_objects, no_ffi_leaks  # noqa: F401

# ---- a DLPack producer written with ctypes, to count deleter calls ----


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensor(ctypes.Structure):
    pass


class DLManagedTensorVersioned(ctypes.Structure):
    pass


LEGACY_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
VERSIONED_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", LEGACY_DELETER)]
DLManagedTensorVersioned._fields_ = [
    ("major", ctypes.c_uint32),
    ("minor", ctypes.c_uint32),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", VERSIONED_DELETER),
    ("flags", ctypes.c_uint64),
    ("dl_tensor", DLTensor),
]

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class CountingProducer:
    """Exports a float64 buffer through DLPack and counts how often the consumer frees it."""

    def __init__(self, values: list[float], *, versioned: bool, byte_offset: int = 0) -> None:
        self.buffer = (ctypes.c_double * len(values))(*values)
        self.shape = (ctypes.c_int64 * 1)(len(values) - byte_offset // 8)
        self.strides = (ctypes.c_int64 * 1)(1)
        self.deleted = 0
        self.versioned = versioned
        self.byte_offset = byte_offset

    def _fill(self, t: DLTensor) -> None:
        t.data = ctypes.addressof(self.buffer)
        t.device = DLDevice(1, 0)
        t.ndim = 1
        t.dtype = DLDataType(2, 64, 1)
        t.shape = self.shape
        t.strides = self.strides
        t.byte_offset = self.byte_offset

    def _on_delete(self, _: Any) -> None:
        self.deleted += 1

    def make_capsule(self) -> Any:
        if self.versioned:
            self.managed = DLManagedTensorVersioned(major=1, minor=0)
            self.managed.deleter = self._deleter = VERSIONED_DELETER(self._on_delete)
            name = b"dltensor_versioned"
        else:
            self.managed = DLManagedTensor()
            self.managed.deleter = self._deleter = LEGACY_DELETER(self._on_delete)
            name = b"dltensor"
        self._fill(self.managed.dl_tensor)
        return _capsule_new(ctypes.addressof(self.managed), name, None)


class VersionedProducer(CountingProducer):
    def __dlpack__(self, *, stream: Any = None, max_version: tuple[int, int] | None = None) -> Any:
        assert max_version is not None and max_version[0] >= 1
        return self.make_capsule()


class LegacyProducer(CountingProducer):
    """A pre-1.0 producer: __dlpack__ takes no max_version (TypeError on it)."""

    def __dlpack__(self) -> Any:
        return self.make_capsule()


# ---- Tensor properties ----


def test_tensor_properties_mirror_the_numpy_array() -> None:
    a = np.arange(12, dtype="float32").reshape(3, 4)
    t = tvm_ffi.from_dlpack(a)
    assert isinstance(t, tvm_ffi.Tensor) and isinstance(t, tvm_ffi.core.CObject) and not isinstance(t, tvm_ffi.Object)
    assert t.shape == (3, 4)
    assert t.strides == (4, 1)
    assert t.ndim == 2
    assert t.dtype == tvm_ffi.dtype("float32")
    assert t.device == tvm_ffi.device("cpu", 0)
    assert t.data_ptr() == a.ctypes.data
    assert t.byte_offset == 0
    assert t.numel() == 12
    assert t.size(0) == 3 and t.size(-1) == 4
    assert t.is_contiguous()
    assert t.__dlpack_device__() == (1, 0)
    assert repr(t) == str(t) == "float32[3, 4]@cpu:0"  # the runtime's printed form, as in the reference
    with pytest.raises(IndexError):
        t.size(2)


def test_non_contiguous_view_keeps_its_strides() -> None:
    a = np.arange(24, dtype="int32").reshape(4, 6)
    view = a[::2, 1::2]
    t = tvm_ffi.from_dlpack(view)
    assert t.shape == (2, 3)
    assert t.strides == (12, 2)
    assert not t.is_contiguous()
    assert t.data_ptr() == view.ctypes.data
    np.testing.assert_array_equal(np.from_dlpack(t), view)
    transposed = tvm_ffi.from_dlpack(a.T)
    assert transposed.strides == (1, 6) and not transposed.is_contiguous()


def test_zero_dim_and_empty_arrays() -> None:
    scalar = tvm_ffi.from_dlpack(np.array(2.5))
    assert scalar.shape == () and scalar.strides == () and scalar.ndim == 0
    assert scalar.numel() == 1 and scalar.is_contiguous()
    assert np.from_dlpack(scalar) == 2.5
    empty = tvm_ffi.from_dlpack(np.zeros((0, 3), dtype="int8"))
    assert empty.shape == (0, 3) and empty.numel() == 0 and empty.is_contiguous()


@pytest.mark.parametrize(
    "dtype",
    ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"],
)
def test_dtypes_round_trip(dtype: str) -> None:
    a = (np.arange(6) % 2).astype(dtype).reshape(2, 3)
    t = tvm_ffi.from_dlpack(a)
    assert t.dtype == tvm_ffi.dtype(dtype)
    back = np.from_dlpack(t)
    assert back.dtype == a.dtype
    np.testing.assert_array_equal(back, a)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_data_round_trips(dtype: str) -> None:
    a = np.array([1 + 2j, 3 - 4j], dtype=dtype)
    np.testing.assert_array_equal(np.from_dlpack(tvm_ffi.from_dlpack(a)), a)


# ---- zero copy and lifetime ----


@needs_numpy_dlpack_v1
def test_zero_copy_in_both_directions() -> None:
    a = np.zeros(4, dtype="float64")
    t = tvm_ffi.from_dlpack(a)
    b = np.from_dlpack(t)
    b[1] = 7.0
    assert a[1] == 7.0
    a[2] = 5.0
    assert b[2] == 5.0
    assert b.ctypes.data == a.ctypes.data == t.data_ptr()


def test_producer_may_die_first() -> None:
    a = np.arange(5, dtype="int64")
    alive = weakref.ref(a)
    t = tvm_ffi.from_dlpack(a)
    del a
    assert alive() is not None  # the tensor keeps the array alive
    np.testing.assert_array_equal(np.from_dlpack(t), np.arange(5))
    del t
    assert alive() is None  # released exactly when the tensor goes


def test_consumer_outlives_the_tensor() -> None:
    before = live_objects()
    t = tvm_ffi.from_dlpack(np.arange(3, dtype="int16"))
    view = np.from_dlpack(t)
    del t
    assert live_objects() == before + 1  # the NumPy view holds the tensor
    np.testing.assert_array_equal(view, [0, 1, 2])
    del view
    assert live_objects() == before


def test_dlpack_capsule_names_follow_max_version() -> None:
    t = tvm_ffi.from_dlpack(np.ones(2))
    assert "dltensor" in repr(t.__dlpack__())
    assert '"dltensor_versioned"' in repr(t.__dlpack__(max_version=(1, 0)))
    assert '"dltensor"' in repr(t.__dlpack__(max_version=(0, 8)))
    assert '"dltensor"' in repr(t._to_dlpack())
    assert '"dltensor_versioned"' in repr(t._to_dlpack_versioned())
    assert '"dltensor"' in repr(t.__dlpack__(stream=None, dl_device=(1, 0), copy=False))


class DeviceProducer(VersionedProducer):
    """The same buffer described as living on another device, or with other element bits."""

    def __init__(self, device: tuple[int, int], dtype: tuple[int, int, int]) -> None:
        super().__init__([1.0, 2.0], versioned=True)
        self.device, self.dtype = device, dtype

    def _fill(self, t: DLTensor) -> None:
        super()._fill(t)
        t.device, t.dtype = DLDevice(*self.device), DLDataType(*self.dtype)


@pytest.mark.parametrize("max_version", [None, pytest.param((1, 0), marks=needs_numpy_dlpack_v1)])
def test_dlpack_copy_true_hands_out_a_fresh_copy(max_version: tuple[int, int] | None) -> None:
    a = np.arange(12, dtype="float32").reshape(3, 4)
    for source in (a, a[:, ::2], a.T, a[1:, 1:], a[::-1], np.zeros((0, 3)), np.array(5.0)):
        t = tvm_ffi.from_dlpack(source)
        copied = np.from_dlpack(_CapsuleHolder(t.__dlpack__(copy=True, max_version=max_version)))
        np.testing.assert_array_equal(copied, source)
        assert copied.flags.c_contiguous and not np.shares_memory(copied, source)
        assert copied.flags.writeable == (max_version is not None)  # NumPy keeps legacy imports read-only
    if max_version is not None:  # NumPy asks for the copy itself (its own __dlpack__ protocol)
        copied = np.from_dlpack(tvm_ffi.from_dlpack(a), copy=True)
        copied[0, 0] = -1
        assert a[0, 0] == 0


class _CapsuleHolder:
    """Hands a ready capsule to np.from_dlpack (which asks an object, not a capsule)."""

    def __init__(self, capsule: Any) -> None:
        self.capsule = capsule

    def __dlpack__(self, **_: Any) -> Any:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


def test_dlpack_copy_true_refuses_what_it_cannot_copy() -> None:
    on_gpu = tvm_ffi.from_dlpack(DeviceProducer((2, 0), (2, 64, 1)))
    with pytest.raises(BufferError, match="only CPU tensors are copied"):
        on_gpu.__dlpack__(copy=True)
    packed = tvm_ffi.from_dlpack(DeviceProducer((1, 0), (0, 4, 1)))
    with pytest.raises(BufferError, match="smaller than a byte"):
        packed.__dlpack__(copy=True, max_version=(1, 0))
    claims_too_much = HugeProducer([1.0, 2.0], versioned=True)
    with pytest.raises(MemoryError, match="too large to copy"):
        tvm_ffi.from_dlpack(claims_too_much).__dlpack__(copy=True)


class HugeProducer(VersionedProducer):
    """Describes its two doubles as a 2^31 x 2^31 tensor: 2^65 bytes (a shape is not trusted)."""

    def _fill(self, t: DLTensor) -> None:
        super()._fill(t)
        self.huge = (ctypes.c_int64 * 2)(1 << 31, 1 << 31)
        self.huge_strides = (ctypes.c_int64 * 2)(1 << 31, 1)
        t.ndim, t.shape, t.strides = 2, self.huge, self.huge_strides


def test_dlpack_rejects_other_devices() -> None:
    t = tvm_ffi.from_dlpack(np.ones(2))
    with pytest.raises(BufferError, match="device"):
        t.__dlpack__(dl_device=(2, 0))
    with pytest.raises(TypeError, match="max_version"):
        t.__dlpack__(max_version=1)


def test_dlpack_takes_its_arguments_by_keyword_only() -> None:
    t = tvm_ffi.from_dlpack(np.ones(2))
    with pytest.raises(TypeError, match="unexpected keyword argument 'stream_ptr'"):
        t.__dlpack__(stream_ptr=None)
    with pytest.raises(TypeError, match="takes no positional arguments"):
        t.__dlpack__(None)
    keywords = {"max" + "_version": (1, 0)}  # a name built at run time is not interned
    assert '"dltensor_versioned"' in repr(t.__dlpack__(**keywords))
    np.testing.assert_array_equal(np.from_dlpack(t), np.ones(2))


def test_unconsumed_capsule_releases_the_tensor() -> None:
    before = live_objects()
    t = tvm_ffi.from_dlpack(np.ones(2))
    capsules = [t.__dlpack__(), t.__dlpack__(max_version=(1, 1))]
    del t
    assert live_objects() == before + 1  # held by the capsules
    del capsules
    assert live_objects() == before


@needs_numpy_dlpack_v1
@pytest.mark.parametrize("producer_class", [VersionedProducer, LegacyProducer])
def test_foreign_deleter_runs_exactly_once(producer_class: type[CountingProducer]) -> None:
    producer = producer_class([1.0, 2.0, 3.0], versioned=producer_class is VersionedProducer)
    t = tvm_ffi.from_dlpack(producer)
    assert t.shape == (3,) and t.data_ptr() == ctypes.addressof(producer.buffer)
    view = np.from_dlpack(t)
    view[0] = 10.0
    assert producer.buffer[0] == 10.0
    assert producer.deleted == 0
    del t
    assert producer.deleted == 0  # the NumPy view still holds it
    del view
    assert producer.deleted == 1


def test_byte_offset_is_kept() -> None:
    producer = VersionedProducer([1.0, 2.0, 3.0, 4.0], versioned=True, byte_offset=16)
    t = tvm_ffi.from_dlpack(producer)
    assert t.byte_offset == 16 and t.shape == (2,)
    assert t.data_ptr() == ctypes.addressof(producer.buffer)
    np.testing.assert_array_equal(np.from_dlpack(t), [3.0, 4.0])
    del t
    assert producer.deleted == 1


def test_a_capsule_is_consumed_once() -> None:
    producer = VersionedProducer([1.0], versioned=True)
    capsule = producer.make_capsule()

    class Replay:
        def __dlpack__(self, **kwargs: Any) -> Any:
            return capsule

    t = tvm_ffi.from_dlpack(Replay())
    assert '"used_dltensor_versioned"' in repr(capsule)
    with pytest.raises(ValueError, match="used_dltensor_versioned"):
        tvm_ffi.from_dlpack(Replay())
    del t
    assert producer.deleted == 1


# ---- from_dlpack errors and requirements ----


def test_from_dlpack_rejects_non_producers() -> None:
    with pytest.raises(TypeError, match="DLPack.*`object`"):
        tvm_ffi.from_dlpack(object())
    with pytest.raises(TypeError, match="`list`"):
        tvm_ffi.from_dlpack([1, 2])

    class BadProducer:
        def __dlpack__(self, **kwargs: Any) -> Any:
            return 42

    with pytest.raises(TypeError, match="PyCapsule"):
        tvm_ffi.from_dlpack(BadProducer())


@needs_numpy_dlpack_v1
def test_from_dlpack_consumes_a_capsule_once() -> None:
    # Code written for the reference hands over capsules (torch.utils.dlpack.to_dlpack(t)).
    array = np.arange(6, dtype="int16").reshape(2, 3)
    for capsule in (array.__dlpack__(), array.__dlpack__(max_version=(1, 0))):
        tensor = tvm_ffi.from_dlpack(capsule)
        assert tensor.shape == (2, 3) and tensor.data_ptr() == array.ctypes.data
        assert "used_dltensor" in repr(capsule)
        with pytest.raises(ValueError, match="capsule is named 'used_dltensor.*consumed only once"):
            tvm_ffi.from_dlpack(capsule)
    np.testing.assert_array_equal(np.from_dlpack(tvm_ffi.from_dlpack(array.__dlpack__())), array)


def test_from_dlpack_requirements() -> None:
    a = np.arange(12, dtype="float32").reshape(3, 4)
    assert tvm_ffi.from_dlpack(a, require_contiguous=True).is_contiguous()
    with pytest.raises(RuntimeError, match="contiguous"):
        tvm_ffi.from_dlpack(a[:, ::2], require_contiguous=True)
    raw = np.zeros(64 + 8, dtype="uint8")
    start = (-raw.ctypes.data) % 64
    aligned = raw[start : start + 8]
    assert tvm_ffi.from_dlpack(aligned, require_alignment=64).data_ptr() % 64 == 0
    with pytest.raises(RuntimeError, match="align"):
        tvm_ffi.from_dlpack(raw[start + 1 : start + 5], require_alignment=64)
    with pytest.raises(ValueError, match="require_alignment"):
        tvm_ffi.from_dlpack(a, require_alignment=-1)


@needs_numpy_dlpack_v1
def test_read_only_arrays_are_shared_and_stay_read_only() -> None:
    a = np.arange(4.0)
    a.flags.writeable = False
    t = tvm_ffi.from_dlpack(a)
    assert t.data_ptr() == a.ctypes.data
    back = np.from_dlpack(t)  # a versioned capsule flagged read-only
    np.testing.assert_array_equal(back, a)
    assert not back.flags.writeable
    with pytest.raises(BufferError, match="read-only"):
        t.__dlpack__()  # the legacy struct cannot say read-only


def test_tensor_from_tensor_shares_memory() -> None:
    a = np.arange(3.0)
    t = tvm_ffi.from_dlpack(a)
    again = tvm_ffi.from_dlpack(t)
    assert again.data_ptr() == t.data_ptr() and not again.same_as(t)


# ---- tensors as call arguments ----


def test_kernel_takes_numpy_arrays_directly(add_one_cpu: Any) -> None:
    x = np.arange(5, dtype="float32")
    y = np.zeros(5, dtype="float32")
    add_one_cpu(x, y)
    np.testing.assert_array_equal(y, x + 1)
    strided = np.zeros(10, dtype="float32")
    add_one_cpu(x, strided[::2])
    np.testing.assert_array_equal(strided[::2], x + 1)


def test_kernel_takes_tensors(add_one_cpu: Any) -> None:
    x = np.arange(4, dtype="float32")
    y = np.zeros(4, dtype="float32")
    add_one_cpu(tvm_ffi.from_dlpack(x), tvm_ffi.from_dlpack(y))
    np.testing.assert_array_equal(y, [1, 2, 3, 4])
    add_one_cpu(tvm_ffi.from_dlpack(y), y)  # mixed
    np.testing.assert_array_equal(y, [2, 3, 4, 5])


def test_kernel_errors_reach_python(add_one_cpu: Any) -> None:
    with pytest.raises(TypeError, match="float32"):
        add_one_cpu(np.zeros(3, dtype="int32"), np.zeros(3, dtype="float32"))
    with pytest.raises(TypeError, match="must be a tensor"):
        add_one_cpu(1, np.zeros(3, dtype="float32"))


def test_argument_temporaries_are_released(add_one_cpu: Any) -> None:
    x = np.arange(3, dtype="float32")
    alive = weakref.ref(x)
    before = live_objects()
    add_one_cpu(x, np.zeros(3, dtype="float32"))
    assert live_objects() == before
    del x
    assert alive() is None


def test_python_callbacks_receive_tensors() -> None:
    seen: list[Any] = []
    echo = tvm_ffi.convert_func(lambda value: seen.append(value) or value)
    a = np.arange(6, dtype="uint8").reshape(2, 3)
    result = echo(a)
    assert isinstance(seen[0], tvm_ffi.Tensor)
    assert isinstance(result, tvm_ffi.Tensor) and result.shape == (2, 3)
    np.testing.assert_array_equal(np.from_dlpack(result), a)
    seen.clear()
    del echo, result


def test_convert_makes_a_tensor() -> None:
    t = tvm_ffi.convert(np.ones((2, 2)))
    assert isinstance(t, tvm_ffi.Tensor) and t.shape == (2, 2)


def test_eight_threads_convert_concurrently(add_one_cpu: Any) -> None:
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            for _ in range(200):
                x = np.full(16, seed, dtype="float32")
                y = np.empty(16, dtype="float32")
                add_one_cpu(x, tvm_ffi.from_dlpack(y))
                assert (y == seed + 1).all()
                assert np.from_dlpack(tvm_ffi.from_dlpack(x))[0] == seed
        except BaseException as err:  # reported in the main thread
            errors.append(err)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


# ---- PyTorch (only when installed) ----


def test_torch_tensors_zero_copy(add_one_cpu: Any) -> None:
    torch = pytest.importorskip("torch")
    x = torch.arange(4, dtype=torch.float32)
    t = tvm_ffi.from_dlpack(x)
    assert t.shape == (4,) and t.dtype == tvm_ffi.dtype("float32") and t.data_ptr() == x.data_ptr()
    back = torch.from_dlpack(t)
    back[0] = 42.0
    assert x[0].item() == 42.0
    y = torch.zeros(4)
    add_one_cpu(x, y)
    assert y.tolist() == [43.0, 2.0, 3.0, 4.0]
    assert not tvm_ffi.from_dlpack(x[::2]).is_contiguous()


def test_torch_exchange_api_skips_the_python_protocol() -> None:
    torch = pytest.importorskip("torch")
    if not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
        pytest.skip("this torch has no C exchange API")

    class NoPythonDLPack(torch.Tensor):
        def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError("the C exchange API should be used")

    x = torch.arange(3, dtype=torch.int32).as_subclass(NoPythonDLPack)
    t = tvm_ffi.from_dlpack(x)
    assert t.shape == (3,) and t.data_ptr() == x.data_ptr()


# ---- NumPy arrays travel through the buffer protocol: every detail must match __dlpack__ ----


@pytest.mark.parametrize(
    "dtype",
    [
        "bool",
        "int8",
        "uint8",
        "int16",
        "uint16",
        "int32",
        "uint32",
        "int64",
        "uint64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ],
)
def test_numpy_arrays_match_their_dlpack_export(dtype: str) -> None:
    a = np.arange(12).astype(dtype).reshape(3, 4)[:, ::2]
    t = tvm_ffi.from_dlpack(a)
    if not dtype.startswith("complex"):  # complex dtypes have no dtype string
        assert str(t.dtype) == dtype
    assert t.shape == a.shape and t.strides == tuple(s // a.itemsize for s in a.strides)
    assert t.data_ptr() == a.ctypes.data
    np.testing.assert_array_equal(np.from_dlpack(t), a)


def test_numpy_special_layouts() -> None:
    reversed_view = np.arange(5, dtype="int32")[::-1]
    t = tvm_ffi.from_dlpack(reversed_view)
    assert t.strides == (-1,) and t.data_ptr() == reversed_view.ctypes.data
    np.testing.assert_array_equal(np.from_dlpack(t), reversed_view)
    big_endian = np.arange(3, dtype=">i4")
    with pytest.raises(BufferError):  # not expressible in DLPack: numpy's own error
        tvm_ffi.from_dlpack(big_endian)
    record = np.zeros(2, dtype=[("a", "i4"), ("b", "f4")])
    with pytest.raises(BufferError):
        tvm_ffi.from_dlpack(record)


def test_numpy_array_stays_alive_while_shared() -> None:
    a = np.zeros(4, dtype="float32")
    t = tvm_ffi.from_dlpack(a)
    alive = weakref.ref(a)
    del a
    assert alive() is not None
    del t
    assert alive() is None


# ---- a kernel that allocates through the environment (TVMFFIEnvTensorAlloc) ----

ENV_KERNELS_SOURCE = r"""
#include <stdint.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

/* alloc_like(x) -> a new tensor shaped like x, from the current env allocator. */
int __tvm_ffi_alloc_like(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  if (n != 1 || args[0].type_index != kTVMFFITensor) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "alloc_like(x: Tensor)");
    return -1;
  }
  TVMFFIObjectHandle out = NULL;
  if (TVMFFIEnvTensorAlloc(TVMFFITensorGetDLTensorPtr(args[0].v_obj), &out) != 0) return -1;
  result->type_index = kTVMFFITensor;
  result->zero_padding = 0;
  result->v_obj = (TVMFFIObject*)out;
  return 0;
}

/* env_stream(x) -> the env stream of x's device during the call, as an int. */
int __tvm_ffi_env_stream(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  if (n != 1 || args[0].type_index != kTVMFFITensor) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "env_stream(x: Tensor)");
    return -1;
  }
  DLDevice dev = TVMFFITensorGetDLTensorPtr(args[0].v_obj)->device;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = (int64_t)(intptr_t)TVMFFIEnvGetStream(dev.device_type, dev.device_id);
  return 0;
}

/* cuda0_stream(*args) -> the env stream of cuda:0 during the call, as an int. */
int __tvm_ffi_cuda0_stream(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  (void)args;
  (void)n;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = (int64_t)(intptr_t)TVMFFIEnvGetStream(kDLCUDA, 0);
  return 0;
}

/* env_allocator(*args) -> the address of the current env allocator, as an int. */
int __tvm_ffi_env_allocator(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  (void)args;
  (void)n;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = (int64_t)(intptr_t)TVMFFIEnvGetDLPackManagedTensorAllocator();
  return 0;
}
"""


def _c_kernels(tmp_path_factory: pytest.TempPathFactory, name: str, source: str,
               functions: list[str]) -> Iterator[Any]:
    """Compiles and loads a C kernel library; yields its functions, all fetched up front (the
    leak check counts what a test creates)."""
    workdir = tmp_path_factory.mktemp(name)
    path = workdir / f"{name}.c"
    path.write_text(source)
    module = tvm_ffi.load_module(compile_kernel(path, workdir / f"{name}.so"))
    kernels = types.SimpleNamespace(**{f: module.get_function(f) for f in functions})
    yield kernels
    del kernels, module


@pytest.fixture(scope="module")
def env_kernels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from _c_kernels(tmp_path_factory, "env_kernels", ENV_KERNELS_SOURCE,
                          ["alloc_like", "env_allocator", "env_stream"])


@needs_numpy_dlpack_v1
def test_env_alloc_uses_the_builtin_cpu_allocator_without_a_framework(env_kernels: Any) -> None:
    x = np.zeros((2, 3), dtype="int16")
    y = env_kernels.alloc_like(x)
    assert isinstance(y, tvm_ffi.Tensor)
    assert y.shape == (2, 3) and y.dtype == tvm_ffi.dtype("int16") and y.device.type == "cpu"
    np.from_dlpack(y)[:] = 7  # the memory is real and writable
    assert int(np.from_dlpack(y).sum()) == 42


def _torch_exchange_api_allocator(torch: Any) -> int:
    """Address of torch's managed_tensor_allocator, read from its exchange-API capsule."""
    capsule = torch.Tensor.__dlpack_c_exchange_api__
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    table = get_pointer(capsule, b"dlpack_exchange_api")
    # header (version: 8 bytes, prev_api: 8 bytes), then managed_tensor_allocator
    return int(ctypes.c_void_p.from_address(table + 16).value or 0)


def _torch_with_exchange_api() -> Any:
    torch = pytest.importorskip("torch")
    if not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
        pytest.skip("this torch has no C exchange API")
    return torch


def test_torch_call_returns_torch_tensors() -> None:
    torch = _torch_with_exchange_api()
    echo = tvm_ffi.get_global_func("testing.echo")
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    y = echo(x)
    assert type(y) is torch.Tensor
    assert y.data_ptr() == x.data_ptr() and y.shape == x.shape
    t = tvm_ffi.from_dlpack(x)
    assert isinstance(echo(t), tvm_ffi.Tensor)  # no framework argument: an FFI tensor
    assert isinstance(echo(np.zeros(2)), tvm_ffi.Tensor)


def test_torch_allocator_is_installed_for_the_call_only(env_kernels: Any) -> None:
    torch = _torch_with_exchange_api()
    torch_alloc = _torch_exchange_api_allocator(torch)
    assert torch_alloc != 0
    before = env_kernels.env_allocator()
    assert env_kernels.env_allocator(torch.zeros(1)) == torch_alloc
    assert env_kernels.env_allocator() == before  # restored after the call
    x = torch.ones(4, 2, dtype=torch.float64)
    y = env_kernels.alloc_like(x)
    assert type(y) is torch.Tensor and y.shape == (4, 2) and y.dtype == torch.float64
    y.fill_(3.0)
    assert float(y.sum()) == 24.0


def test_torch_allocator_is_restored_after_a_failing_call(env_kernels: Any) -> None:
    torch = _torch_with_exchange_api()
    before = env_kernels.env_allocator()
    with pytest.raises(TypeError):
        env_kernels.alloc_like(torch.zeros(1), 1)
    assert env_kernels.env_allocator() == before


def test_torch_current_stream_is_the_env_stream_during_the_call(env_kernels: Any) -> None:
    torch = _torch_with_exchange_api()
    if not torch.cuda.is_available():
        pytest.skip("needs CUDA")
    x = torch.zeros(4, device="cuda")
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        assert env_kernels.env_stream(x) == stream.cuda_stream
    assert env_kernels.env_stream(x) == torch.cuda.current_stream().cuda_stream
    assert env_kernels.env_stream(tvm_ffi.from_dlpack(x)) == 0  # no framework: env default
    assert env_kernels.env_stream(torch.zeros(1)) == 0  # CPU tensors: nothing to set


def test_tensor_shape_is_a_shape_that_passes_as_the_runtime_shape() -> None:
    t = tvm_ffi.from_dlpack(np.zeros((2, 3), dtype="int8"))
    assert isinstance(t.shape, tvm_ffi.Shape) and t.shape == (2, 3)
    assert tvm_ffi.get_global_func("testing.echo")(t.shape) == (2, 3)


# ---- DLTensor* values: a kernel hands out raw tensor pointers (kTVMFFIDLTensorPtr) ----

DLTENSOR_PTR_SOURCE = r"""
#include <tvm/ffi/c_api.h>

static void set_ptr(TVMFFIAny* out, const TVMFFIAny* tensor) {
  out->type_index = kTVMFFIDLTensorPtr;
  out->zero_padding = 0;
  out->v_ptr = TVMFFITensorGetDLTensorPtr(tensor->v_obj);
}

/* call_with_ptr(f, x) -> f(&x's DLTensor), as C++ `f(DLTensor*)` passes it. */
int __tvm_ffi_call_with_ptr(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  if (n != 2 || args[0].type_index != kTVMFFIFunction || args[1].type_index != kTVMFFITensor) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "call_with_ptr(f: Function, x: Tensor)");
    return -1;
  }
  TVMFFIAny arg;
  set_ptr(&arg, &args[1]);
  return TVMFFIFunctionCall(args[0].v_obj, &arg, 1, result);
}

/* as_ptr(x) -> x's DLTensor*, a raw pointer result. */
int __tvm_ffi_as_ptr(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  if (n != 1 || args[0].type_index != kTVMFFITensor) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "as_ptr(x: Tensor)");
    return -1;
  }
  set_ptr(result, &args[0]);
  return 0;
}
"""


@pytest.fixture(scope="module")
def ptr_kernels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from _c_kernels(tmp_path_factory, "ptr_kernels", DLTENSOR_PTR_SOURCE, ["call_with_ptr", "as_ptr"])


@needs_numpy_dlpack_v1
def test_a_dltensor_pointer_argument_reaches_python_as_a_tensor_view(ptr_kernels: Any) -> None:
    x = tvm_ffi.from_dlpack(np.arange(6, dtype="float32").reshape(2, 3))
    seen = []

    def callback(view: Any) -> Any:
        seen.append((type(view), view.shape, view.dtype, view.device.type, view.data_ptr()))
        np.from_dlpack(view)[0, 0] = 42  # the same memory, for the callback's duration
        return tvm_ffi.get_global_func("testing.echo")(view).shape  # and it goes back into calls

    assert ptr_kernels.call_with_ptr(callback, x) == (2, 3)
    assert seen == [(tvm_ffi.Tensor, (2, 3), tvm_ffi.dtype("float32"), "cpu", x.data_ptr())]
    assert np.from_dlpack(x)[0, 0] == 42


def test_a_dltensor_pointer_result_is_a_tensor_view(ptr_kernels: Any) -> None:
    array = np.arange(4, dtype="int32")
    x = tvm_ffi.from_dlpack(array)
    view = ptr_kernels.as_ptr(x)
    assert isinstance(view, tvm_ffi.Tensor) and view.shape == (4,) and view.data_ptr() == x.data_ptr()
    assert np.from_dlpack(view).tolist() == [0, 1, 2, 3]
