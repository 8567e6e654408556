"""Quickstart: call the C kernel add_one(x, y) with NumPy arrays, torch tensors and tvm_ffi.Tensor.

Build the kernel first (``bash build.sh``), then:
    python run.py [path/to/add_one.so]

Every call hands the kernel the caller's own memory (DLPack, no copies): the kernel writes
x + 1 straight into the output array the caller passed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import tvm_ffi


def show(values: Any) -> str:
    """A list of floats, printed the same way whichever framework holds them."""
    return "[" + ", ".join(f"{v:g}" for v in values) + "]"


def with_numpy(add_one: tvm_ffi.Function) -> None:
    x = np.arange(5, dtype=np.float32)
    y = np.empty_like(x)
    add_one(x, y)  # NumPy arrays go straight in
    print(f"numpy:   x = {show(x.tolist())} -> y = {show(y.tolist())}")


def with_torch(add_one: tvm_ffi.Function) -> None:
    try:
        import torch
    except ImportError:
        print("torch:   skipped (torch is not installed)")
        return
    x = torch.linspace(0.5, 2.5, 3, dtype=torch.float32)
    y = torch.zeros(3, dtype=torch.float32)
    add_one(x, y)  # so do torch tensors
    print(f"torch:   x = {show(x.tolist())} -> y = {show(y.tolist())}")


def with_tvm_ffi_tensors(add_one: tvm_ffi.Function) -> None:
    x_np = np.array([10, 20, 30, 40], dtype=np.float32)
    y_np = np.zeros(4, dtype=np.float32)
    x = tvm_ffi.from_dlpack(x_np)  # a tvm_ffi.Tensor viewing x_np's memory
    y = tvm_ffi.from_dlpack(y_np)
    add_one(x, y)
    # The kernel wrote through y into y_np: both name the same memory.
    shared = y.data_ptr() == y_np.ctypes.data
    print(f"tvm_ffi: x = {show(np.from_dlpack(x).tolist())} -> y = {show(y_np.tolist())}"
          f" (Tensor {y.dtype} {tuple(y.shape)}, shares y_np's memory: {shared})")


def with_a_bad_argument(add_one: tvm_ffi.Function) -> None:
    try:
        add_one(np.zeros(3, dtype=np.int32), np.zeros(3, dtype=np.float32))
    except TypeError as err:  # the kernel's error, raised as the Python exception of its kind
        print(f"error:   TypeError: {err}")


def main() -> None:
    default = Path(__file__).resolve().parent / "build" / "add_one.so"
    library = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    add_one = tvm_ffi.load_module(str(library)).add_one
    with_numpy(add_one)
    with_torch(add_one)
    with_tvm_ffi_tensors(add_one)
    with_a_bad_argument(add_one)


if __name__ == "__main__":
    main()
