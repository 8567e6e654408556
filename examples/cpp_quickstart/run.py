"""Calls the C++ kernels of build/add_one_cpp.so from Python with NumPy (and PyTorch if present)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import tvm_ffi


def main() -> None:
    mod = tvm_ffi.load_module(str(Path(__file__).resolve().parent / "build" / "add_one_cpp.so"))
    x = np.arange(5, dtype=np.float32)
    y = np.empty_like(x)
    mod.add_one(x, y)
    print("add_one:", y.tolist())
    print("shape_of:", tuple(mod.shape_of(x)))
    print("scaled_copy:", np.from_dlpack(mod.scaled_copy(x, 2.0)).tolist())
    try:
        mod.add_one(x, np.empty(3, dtype=np.float32))
    except ValueError as err:
        print("caught ValueError:", err)
    try:
        import torch
    except ImportError:
        return
    t = torch.arange(4, dtype=torch.float32)
    out = mod.scaled_copy(t, 0.5)  # allocated by torch through the env allocator
    print("scaled_copy(torch):", type(out).__name__, out.tolist())


if __name__ == "__main__":
    main()
