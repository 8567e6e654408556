"""ffi.ContainerFindFirstNonCPUDevice: the device whose stream a call with tensor containers uses."""

from __future__ import annotations

import numpy as np
import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
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
