"""core.DLTensorTestWrapper: a Tensor seen as a foreign framework's tensor, for DLPack tests.

It exposes the DLPack protocol, __tvm_ffi_env_stream__ and a DLPack exchange-API capsule, so
FFI calls take it through the exchange-API import and hand results back through the table's
to-Python function, as for a framework tensor.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi.core import DLTensorTestWrapper


def make_tensor() -> tvm_ffi.Tensor:
    return tvm_ffi.from_dlpack(np.arange(6, dtype="float32").reshape(2, 3))


def test_wrapper_publishes_the_dlpack_protocols() -> None:
    tensor = make_tensor()
    wrapper = DLTensorTestWrapper(tensor)
    assert wrapper.__dlpack_device__() == (1, 0) and wrapper.__tvm_ffi_env_stream__() == 0
    assert "dlpack_exchange_api" in repr(DLTensorTestWrapper.__dlpack_c_exchange_api__)
    assert "dltensor_versioned" in repr(wrapper.__dlpack__(max_version=(1, 0)))
    np.testing.assert_array_equal(np.from_dlpack(wrapper), np.arange(6, dtype="float32").reshape(2, 3))
    wrapper.note = "instances take attributes"
    assert wrapper.__dict__ == {"note": "instances take attributes"}


def test_calls_import_wrappers_through_the_exchange_api() -> None:
    tensor = make_tensor()
    echoed = tvm_ffi.testing.echo(DLTensorTestWrapper(tensor))
    assert isinstance(echoed, tvm_ffi.Tensor) and echoed.shape == (2, 3)
    assert echoed.data_ptr() == tensor.data_ptr()  # the same memory, through a DLPack export
    (inside,) = tvm_ffi.testing.make_array_with_tensor(DLTensorTestWrapper(tensor))
    assert inside.data_ptr() == tensor.data_ptr()


def test_wrapper_keeps_its_tensor_alive() -> None:
    wrapper = DLTensorTestWrapper(make_tensor())  # the wrapper holds the only reference
    gc.collect()
    np.testing.assert_array_equal(np.from_dlpack(wrapper)[1], [3, 4, 5])
    assert tvm_ffi.testing.echo(wrapper).shape == (2, 3)


def test_torch_reads_a_wrapper() -> None:
    torch = pytest.importorskip("torch")
    assert torch.from_dlpack(DLTensorTestWrapper(make_tensor())).tolist() == [[0, 1, 2], [3, 4, 5]]


def test_bad_construction_and_calls() -> None:
    with pytest.raises(TypeError, match="DLTensorTestWrapper expects a tvm_ffi.Tensor, got `int`"):
        DLTensorTestWrapper(1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        DLTensorTestWrapper()  # type: ignore[call-arg]
    wrapper = DLTensorTestWrapper(make_tensor())
    with pytest.raises(TypeError, match="keyword arguments only"):
        wrapper.__dlpack__(None)  # type: ignore[call-arg]
    uninitialised = DLTensorTestWrapper.__new__(DLTensorTestWrapper)
    with pytest.raises(ValueError, match="holds no tensor"):
        uninitialised.__dlpack_device__()
    with pytest.raises(ValueError, match="holds no tensor"):
        tvm_ffi.testing.echo(uninitialised)
