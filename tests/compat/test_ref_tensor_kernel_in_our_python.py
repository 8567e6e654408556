"""A kernel library built for the REFERENCE, loaded by OUR Python package and called with
framework tensors: the everyday use of a prebuilt kernel (kernels/ref_tensor_kernel.cc).

It is built against the reference's C++ headers and linked without an rpath, so inside this
process it binds to our runtime. Torch tensors and NumPy arrays reach its `Tensor` and
`TensorView` parameters and `Array<Tensor>`; tensors it allocates with `TVMFFIEnvTensorAlloc`
come back as torch tensors when the call took torch tensors; a tensor it keeps past the call
keeps the producer's memory alive.
"""

from __future__ import annotations

import gc
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
import tvm_ffi
from leakcheck import live_objects, no_ffi_leaks  # noqa: F401

from .conftest import KERNELS_DIR, Reference, build_kernel


@pytest.fixture(scope="module")
def kernel(reference: Reference, tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("ref_tensor_kernel") / "ref_tensor_kernel.so"
    build_kernel(KERNELS_DIR / "ref_tensor_kernel.cc", out, include_dir=reference.include_dir,
                 link_dir=reference.lib_dir)
    module = tvm_ffi.load_module(str(out))
    # Every function fetched up front: the module keeps what it hands out, which the per-test
    # leak check would otherwise count against the first test that uses each one.
    names = ("doubled", "keep", "kept", "drop", "total_numel", "layout")
    return SimpleNamespace(**{name: getattr(module, name) for name in names})


def test_numpy_arrays_and_ffi_tensors_get_ffi_tensor_results(kernel: Any) -> None:
    a = np.arange(4, dtype=np.float32)
    for arg in (a, tvm_ffi.from_dlpack(a)):
        out = kernel.doubled(arg)
        assert isinstance(out, tvm_ffi.Tensor)
        assert np.from_dlpack(out).tolist() == [0.0, 2.0, 4.0, 6.0]


def test_torch_tensors_get_torch_results_from_the_env_allocator(kernel: Any) -> None:
    torch = pytest.importorskip("torch")
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    for _ in range(3):
        out = kernel.doubled(x)
        assert isinstance(out, torch.Tensor)
        assert out.shape == (2, 3) and torch.equal(out, 2 * x)


def test_a_kept_torch_tensor_outlives_the_caller_reference(kernel: Any) -> None:
    torch = pytest.importorskip("torch")
    x = torch.arange(3, dtype=torch.float32)
    address = x.data_ptr()
    kernel.keep(x)
    del x
    gc.collect()
    kept = kernel.kept()
    assert kept.data_ptr() == address
    assert np.from_dlpack(kept).tolist() == [0.0, 1.0, 2.0]
    del kept
    kernel.drop()


def test_lists_of_mixed_tensors_arrive_as_an_array_of_tensors(kernel: Any) -> None:
    torch = pytest.importorskip("torch")
    values = [torch.zeros(3), np.zeros((2, 2)), tvm_ffi.from_dlpack(np.zeros(5)), torch.ones(2, 2, 2)]
    assert kernel.total_numel(values) == 3 + 4 + 5 + 8


def test_tensor_views_see_the_exact_layout(kernel: Any) -> None:
    torch = pytest.importorskip("torch")
    y = torch.zeros(4, 6)[:, ::2].t()
    assert list(kernel.layout(y)) == [2, *y.shape, *y.stride()]
    z = np.zeros((3, 5), dtype=np.int16)[::-1][:, 1:]
    strides = [s // z.itemsize for s in z.strides]
    assert list(kernel.layout(z)) == [2, *z.shape, *strides]


def test_wrong_arguments_raise_the_kernel_errors(kernel: Any) -> None:
    with pytest.raises(TypeError, match=r"argument #0.*Expected `ffi.Tensor` but got `int`"):
        kernel.doubled(1)
    with pytest.raises(TypeError, match="contiguous float32"):
        kernel.doubled(np.zeros(3, dtype=np.int32))

