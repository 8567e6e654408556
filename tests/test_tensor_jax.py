"""DLPack exchange with JAX (CPU): jax.Array <-> tvm_ffi.Tensor without copies, and jax arrays as
kernel arguments. The whole module skips, visibly, when JAX is not installed (`make test` installs
it when it can)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # before jax is imported: never look for a GPU
jax = pytest.importorskip("jax", reason="JAX is not installed (optional: pip install jax jaxlib)")
jnp = pytest.importorskip("jax.numpy")

import tvm_ffi  # noqa: E402
import tvm_ffi.testing  # noqa: E402, F401  (registers testing.echo)
from _kernel_lib import compile_kernel  # noqa: E402
from leakcheck import live_objects, no_ffi_leaks  # noqa: E402, F401
from test_tensor_dtypes import ABI_DTYPES, raw_dtype  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
ADD_ONE_SOURCE = REPO / "examples" / "quickstart" / "add_one.c"
# The dtypes JAX exports through DLPack without jax_enable_x64 (64-bit types are off by default).
JAX_DTYPES = ["bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float16", "float32", "bfloat16",
              "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "complex64"]


def aligned_numpy(n: int, alignment: int = 64) -> np.ndarray:
    """n float32 zeros starting on an `alignment` boundary (JAX copies CPU buffers it finds less aligned)."""
    raw = np.zeros(n * 4 + alignment, dtype=np.uint8)
    start = (-raw.ctypes.data) % alignment
    return raw[start : start + n * 4].view(np.float32)


def test_jax_array_imports_without_a_copy() -> None:
    x = jnp.arange(6, dtype=jnp.float32).reshape(2, 3)
    t = tvm_ffi.from_dlpack(x)
    assert t.data_ptr() == x.unsafe_buffer_pointer()
    assert t.shape == (2, 3) and t.strides == (3, 1) and t.dtype == "float32"
    assert t.device == tvm_ffi.device("cpu", 0)
    np.testing.assert_array_equal(np.from_dlpack(t), np.asarray(x))
    assert tvm_ffi.from_dlpack(x, require_alignment=64, require_contiguous=True).data_ptr() == t.data_ptr()


def test_tensor_exports_to_jax_without_a_copy() -> None:
    a = aligned_numpy(8)
    a[:] = np.arange(8)
    t = tvm_ffi.from_dlpack(a)
    y = jax.dlpack.from_dlpack(t)
    assert y.unsafe_buffer_pointer() == a.ctypes.data == t.data_ptr()
    assert y.dtype == jnp.float32 and y.shape == (8,)
    a[3] = 42.0  # written through NumPy, read through JAX: one buffer
    assert float(y[3]) == 42.0
    del y, t


def test_jax_round_trip_keeps_the_buffer() -> None:
    x = jnp.linspace(0.0, 1.0, 5, dtype=jnp.float32)
    back = jax.dlpack.from_dlpack(tvm_ffi.from_dlpack(x))
    assert back.unsafe_buffer_pointer() == x.unsafe_buffer_pointer()
    assert bool((back == x).all())


@pytest.mark.parametrize("name", JAX_DTYPES)
def test_jax_dtype_round_trip(name: str) -> None:
    x = jnp.zeros((2, 3), dtype=getattr(jnp, name))
    t = tvm_ffi.from_dlpack(x)
    assert raw_dtype(t) == ABI_DTYPES[name][0]  # the DLDataType of spec/ABI.md 1.5
    assert t.data_ptr() == x.unsafe_buffer_pointer()
    back = jax.dlpack.from_dlpack(t)
    assert back.dtype == x.dtype and back.unsafe_buffer_pointer() == x.unsafe_buffer_pointer()
    del back, t


def test_jax_array_deleted_first() -> None:
    x = jnp.arange(4, dtype=jnp.int32) * 3
    expected = np.asarray(x).copy()
    t = tvm_ffi.from_dlpack(x)
    x.delete()  # JAX frees the buffer only when the DLPack consumer lets go of it
    del x
    np.testing.assert_array_equal(np.from_dlpack(t), expected)
    assert t.numel() == 4


def test_jax_view_outlives_the_tensor() -> None:
    before = live_objects()
    a = aligned_numpy(4)
    a[:] = [1, 2, 3, 4]
    t = tvm_ffi.from_dlpack(a)
    y = jax.dlpack.from_dlpack(t)
    del t, a
    assert live_objects() == before + 1  # JAX's view holds the tensor, which holds the NumPy array
    assert [float(v) for v in y] == [1, 2, 3, 4]
    y.delete()
    del y
    assert live_objects() == before


@pytest.fixture(scope="module")
def add_one(tmp_path_factory: pytest.TempPathFactory) -> Any:
    library = compile_kernel(ADD_ONE_SOURCE, tmp_path_factory.mktemp("jax_kernel") / "add_one.so")
    func = tvm_ffi.load_module(library).add_one
    yield func
    del func


def test_jax_array_is_a_kernel_argument(add_one: Any) -> None:
    x = jnp.arange(5, dtype=jnp.float32) * 2
    y = np.zeros(5, dtype=np.float32)  # JAX arrays are immutable: the output is NumPy's
    before = live_objects()
    add_one(x, y)
    assert live_objects() == before  # the argument's temporary tensor is gone after the call
    np.testing.assert_array_equal(y, np.asarray(x) + 1)
    with pytest.raises(TypeError, match="1-D float32"):
        add_one(jnp.zeros(5, dtype=jnp.int32), y)


def test_echo_returns_a_tensor_over_the_jax_buffer() -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    x = jnp.ones((3, 2), dtype=jnp.bfloat16)
    t = echo(x)  # JAX publishes no C exchange API: the result is a tvm_ffi.Tensor
    assert isinstance(t, tvm_ffi.Tensor)
    assert t.data_ptr() == x.unsafe_buffer_pointer() and t.shape == (3, 2) and t.dtype == "bfloat16"
    back = jax.dlpack.from_dlpack(t)
    assert back.dtype == jnp.bfloat16 and back.unsafe_buffer_pointer() == x.unsafe_buffer_pointer()
    del echo, t, back
