"""ffi.ContainerFindFirstNonCPUDevice: the device whose stream a call with tensor containers uses."""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing
from leakcheck import no_ffi_leaks  # noqa: F401
from test_tensor import ENV_KERNELS_SOURCE, _c_kernels
from test_tensor_lifetime import OnDevice

find_device = tvm_ffi.get_global_func("ffi.ContainerFindFirstNonCPUDevice")
CPU = tvm_ffi.device("cpu", 0)


def cuda_tensor() -> tvm_ffi.Tensor:
    """A tensor whose metadata says cuda:0 (its memory is never read)."""
    return tvm_ffi.from_dlpack(OnDevice([1.0, 2.0], versioned=True))


def cpu_tensor() -> tvm_ffi.Tensor:
    return tvm_ffi.from_dlpack(np.zeros(3, dtype="float32"))


def test_the_first_non_cpu_tensor_in_order_wins() -> None:
    gpu = cuda_tensor()
    assert find_device(tvm_ffi.Array([cpu_tensor(), 1, "x", gpu])) == tvm_ffi.device("cuda", 0)
    assert find_device(tvm_ffi.List([gpu])) == tvm_ffi.device("cuda", 0)
    assert tvm_ffi._ffi_api.ContainerFindFirstNonCPUDevice(gpu) == tvm_ffi.device("cuda", 0)


def test_nested_containers_and_map_values_are_searched() -> None:
    nested = tvm_ffi.Array([tvm_ffi.List([]), tvm_ffi.Map({"a": tvm_ffi.Array([cuda_tensor()])})])
    assert find_device(nested) == tvm_ffi.device("cuda", 0)
    assert find_device(tvm_ffi.Dict({"k": [cpu_tensor(), cuda_tensor()]})) == tvm_ffi.device("cuda", 0)


def test_without_a_non_cpu_tensor_the_answer_is_cpu() -> None:
    assert find_device(tvm_ffi.Array([cpu_tensor(), 2.5, None])) == CPU
    assert find_device(tvm_ffi.Map({})) == CPU
    assert find_device(7) == CPU and find_device("not a container") == CPU


def test_a_list_holding_itself_is_walked_once() -> None:
    loop = tvm_ffi.List([cpu_tensor()])
    loop.append(loop)
    shared = tvm_ffi.Array([cpu_tensor()])
    diamond = tvm_ffi.List([shared] * 2000)  # the shared child is walked once, not 2000 times
    assert find_device(loop) == CPU and find_device(diamond) == CPU
    loop.append(cuda_tensor())
    assert find_device(loop) == tvm_ffi.device("cuda", 0)
    loop.clear()  # break the cycle so the list can be freed


def test_nesting_past_a_thousand_levels_is_a_recursion_error() -> None:
    deep: object = cuda_tensor()
    for _ in range(1100):
        deep = tvm_ffi.Array([deep])
    with pytest.raises(RecursionError, match="nested deeper than 1000 levels"):
        find_device(deep)


def test_wrong_argument_count_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        find_device()


# ---- a container returned in a framework's call brings its tensors' stream into later calls ----

FAKE_STREAM = 0xABC0  # what the fake framework names as its current stream of a GPU


class _Versioned(ctypes.Structure):
    pass


class _ExchangeAPI(ctypes.Structure):
    _fields_ = [
        ("version", ctypes.c_uint32 * 2),
        ("prev_api", ctypes.c_void_p),
        ("managed_tensor_allocator", ctypes.c_void_p),
        ("managed_tensor_from_py_object_no_sync",
         ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.POINTER(ctypes.c_void_p))),
        ("managed_tensor_to_py_object_no_sync", ctypes.c_void_p),
        ("dltensor_from_py_object_no_sync", ctypes.c_void_p),
        ("current_work_stream",
         ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p))),
    ]


def _export(obj: Any, out: Any) -> int:
    """managed_tensor_from_py_object_no_sync: the wrapped FFI tensor's own DLPack export."""
    capsule = obj.tensor.__dlpack__(max_version=(1, 0))
    api = ctypes.pythonapi
    api.PyCapsule_GetPointer.restype = ctypes.c_void_p
    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
    out[0] = api.PyCapsule_GetPointer(capsule, b"dltensor_versioned")
    api.PyCapsule_SetName(capsule, b"used_dltensor_versioned")  # the consumer owns it now
    return 0


def _stream(device_type: int, device_id: int, out: Any) -> int:
    out[0] = None if device_type == 1 else FAKE_STREAM + device_id
    return 0


_FAKE_API = _ExchangeAPI(
    version=(1, 3),
    managed_tensor_from_py_object_no_sync=_ExchangeAPI._fields_[3][1](_export),
    current_work_stream=_ExchangeAPI._fields_[6][1](_stream),
)


class FrameworkTensor:
    """A tensor of a fake framework: its exchange table exports the FFI tensor it wraps and
    names FAKE_STREAM as the current stream of every GPU."""

    __dlpack_c_exchange_api__ = ctypes.addressof(_FAKE_API)

    def __init__(self, tensor: tvm_ffi.Tensor) -> None:
        self.tensor = tensor

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.tensor.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.tensor.__dlpack_device__()


@pytest.fixture(scope="module")
def cuda0_stream(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from (k.cuda0_stream for k in _c_kernels(tmp_path_factory, "stream_kernel",
                                                   ENV_KERNELS_SOURCE, ["cuda0_stream"]))


def test_a_framework_container_sets_its_gpu_tensors_stream(cuda0_stream: Any) -> None:
    gpu = FrameworkTensor(cuda_tensor())
    assert cuda0_stream(gpu) == FAKE_STREAM  # a framework tensor argument
    assert cuda0_stream([cpu_tensor(), gpu]) == FAKE_STREAM  # inside a Python list
    returned = tvm_ffi.testing.echo([gpu])  # an Array that remembers the framework
    assert cuda0_stream(returned) == FAKE_STREAM
    assert cuda0_stream({"k": returned}) == FAKE_STREAM
    assert cuda0_stream() == 0  # only for the call


def test_containers_without_a_gpu_tensor_or_framework_set_no_stream(cuda0_stream: Any) -> None:
    on_cpu = tvm_ffi.testing.echo([FrameworkTensor(cpu_tensor())])
    assert cuda0_stream(on_cpu) == 0
    assert cuda0_stream(tvm_ffi.Array([cuda_tensor()])) == 0  # no framework to ask
