"""Registers FFI functions as JAX FFI targets through jax-tvm-ffi (built against the reference)
and calls them from jax.jit on the CPU, through whichever `tvm_ffi` this interpreter imports;
prints one "ok <check>" line per check. The kernels are compiled with tvm_ffi.cpp.load_inline,
against the headers of that same `tvm_ffi`.

Usage: python run_jax_tvm_ffi.py <build directory>
"""

from __future__ import annotations

import os
import sys
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jax_tvm_ffi  # noqa: E402
import numpy as np  # noqa: E402
import tvm_ffi  # noqa: E402
import tvm_ffi.cpp  # noqa: E402

SOURCE = r"""
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

void add_one(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  TVM_FFI_ICHECK(x.ndim() == 1) << "x must be 1-D";
  for (int64_t i = 0; i < x.size(0); ++i) {
    static_cast<float*>(y.data_ptr())[i] = static_cast<float*>(x.data_ptr())[i] + 1;
  }
}

void scale_add(tvm::ffi::TensorView x, tvm::ffi::TensorView y, double alpha, int64_t beta) {
  for (int64_t i = 0; i < x.size(0); ++i) {
    static_cast<float*>(y.data_ptr())[i] = static_cast<float*>(x.data_ptr())[i] * alpha + beta;
  }
}

void fail(tvm::ffi::TensorView, tvm::ffi::TensorView) {
  TVM_FFI_THROW(ValueError) << "the kernel refuses";
}
"""


def call(target: str, x: Any, **attrs: Any) -> Any:
    return jax.ffi.ffi_call(target, jax.ShapeDtypeStruct(x.shape, x.dtype))(x, **attrs)


def main(build_dir: str) -> None:
    mod = tvm_ffi.cpp.load_inline(name="jax_kernels", cpp_sources=SOURCE,
                                  functions=["add_one", "scale_add", "fail"], build_directory=build_dir)
    jax_tvm_ffi.register_ffi_target("tvm_add_one", mod.add_one, platform="cpu")
    jax_tvm_ffi.register_ffi_target("tvm_scale_add", mod.scale_add, ["args", "rets", "attrs.alpha", "attrs.beta"],
                                    platform="cpu")
    jax_tvm_ffi.register_ffi_target("tvm_fail", mod.fail, platform="cpu")
    x = jnp.arange(8, dtype=jnp.float32)
    np.testing.assert_array_equal(np.asarray(call("tvm_add_one", x)), np.arange(8) + 1)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda v: call("tvm_add_one", v) * 2)(x)),
                                  (np.arange(8) + 1) * 2)
    scaled = jax.jit(lambda v: call("tvm_scale_add", v, alpha=np.float64(2.5), beta=np.int64(3)))(x)
    np.testing.assert_allclose(np.asarray(scaled), np.arange(8) * 2.5 + 3)
    print("ok compiled kernels under jax.jit")

    try:
        jax.jit(lambda v: call("tvm_fail", v))(x).block_until_ready()
    except Exception as err:  # JAX wraps the kernel's error in its own type
        assert "the kernel refuses" in str(err), err
    else:
        raise AssertionError("the kernel's error was lost")
    print("ok kernel errors reach jax")

    seen: list[tuple[str, tuple[int, ...]]] = []

    def py_add(x_in: Any, y_out: Any) -> None:
        seen.append((type(x_in).__name__, tuple(x_in.shape)))
        np.from_dlpack(y_out)[...] = np.from_dlpack(x_in) + 100

    jax_tvm_ffi.register_ffi_target("py_add", tvm_ffi.convert(py_add), platform="cpu", pass_owned_tensor=True)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda v: call("py_add", v))(x)), np.arange(8) + 100)
    assert seen == [("Tensor", (8,))], seen
    print("ok python callbacks as targets")


if __name__ == "__main__":
    main(sys.argv[1])
