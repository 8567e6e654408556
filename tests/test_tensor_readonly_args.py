"""Read-only memory is never handed to a kernel as a writable tensor argument: a kernel that
writes would segfault (a PROT_READ mapping) or silently change data meant to be immutable.
Such arguments raise BufferError saying how to pass a copy; from_dlpack of read-only memory
still works and stays read-only (tests/test_tensor.py)."""

from __future__ import annotations

import mmap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tvm_ffi
from _numpy_dlpack import needs_numpy_dlpack_v1
from _thread_kernel import build_thread_kernel, load_thread_kernel
from leakcheck import no_ffi_leaks  # noqa: F401
from test_tensor_lifetime import NumpyVersioned


@pytest.fixture(scope="module")
def fill(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """fill(tensor, value): a kernel that writes every element of a float32 tensor."""
    return load_thread_kernel(build_thread_kernel(tmp_path_factory.mktemp("thread_kernel"))).fill


def read_only_array() -> np.ndarray:
    a = np.zeros(4, dtype="float32")
    a.setflags(write=False)
    return a


def test_read_only_array_is_refused_with_a_hint(fill: Any) -> None:
    a = read_only_array()
    with pytest.raises(BufferError, match=r"argument #0 .*read-only.*\.copy\(\)"):
        fill(a, 1.0)
    np.testing.assert_array_equal(a, np.zeros(4))  # untouched
    b = a.copy()
    fill(b, 1.0)  # what the message suggests
    np.testing.assert_array_equal(b, np.ones(4))


def test_array_over_immutable_bytes_is_refused(fill: Any) -> None:
    data = bytes(16)
    with pytest.raises(BufferError, match="read-only"):
        fill(np.frombuffer(data, dtype="float32"), 1.0)
    assert data == bytes(16)


def test_array_over_a_read_only_mapping_is_refused(fill: Any, tmp_path: Path) -> None:
    path = tmp_path / "weights.bin"
    path.write_bytes(bytes(4096))
    with path.open("rb") as f, mmap.mmap(f.fileno(), 4096, prot=mmap.PROT_READ) as mapped:
        view = np.frombuffer(mapped, dtype="float32")
        with pytest.raises(BufferError, match="read-only"):
            fill(view, 1.0)  # writing would be SIGSEGV
        del view


@needs_numpy_dlpack_v1
def test_read_only_capsule_from_another_producer_is_refused(fill: Any) -> None:
    with pytest.raises(BufferError, match="read-only"):
        fill(NumpyVersioned(read_only_array()), 1.0)


def test_read_only_arguments_inside_containers_are_refused(fill: Any) -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    with pytest.raises(BufferError, match="read-only"):
        echo([read_only_array()])


def test_writable_arrays_still_pass(fill: Any) -> None:
    a = np.zeros((2, 3), dtype="float32")
    fill(a, 2.5)
    np.testing.assert_array_equal(a, np.full((2, 3), 2.5))
