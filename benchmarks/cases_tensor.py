"""Tensor cases: importing DLPack producers and passing tensors to a compiled kernel.

The kernel is `add_one_cpu` from examples/stable_c_abi, compiled once per runtime library (ours
and the reference's differ) against this repository's C headers, which describe the same ABI.
PyTorch cases need torch in the worker's environment; without it they report an error saying
"n/a".
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from cases import Case

_REPO = Path(__file__).resolve().parents[1]
_KERNEL_SOURCE = _REPO / "examples" / "stable_c_abi" / "src" / "add_one_cpu.c"
_kernels: dict[str, Any] = {}


def add_one_cpu_kernel() -> Any:
    """The add_one_cpu kernel as a Function of the tvm_ffi package this worker imported."""
    import tvm_ffi  # noqa: PLC0415  (the worker decides which package this is)
    from tvm_ffi import libinfo  # noqa: PLC0415

    lib = Path(libinfo.find_libtvm_ffi())
    if str(lib) not in _kernels:
        tag = hashlib.sha1(str(lib).encode()).hexdigest()[:12]
        out = Path(tempfile.gettempdir()) / f"tvm_ffi_bench_add_one_{tag}.so"
        if not out.exists():
            tmp = out.with_suffix(f".{id(out)}.tmp.so")
            cmd = ["cc", "-std=c11", "-O2", "-fPIC", "-shared", f"-I{_REPO / 'include'}",
                   str(_KERNEL_SOURCE), "-o", str(tmp), f"-L{lib.parent}", "-ltvm_ffi",
                   f"-Wl,-rpath,{lib.parent}"]
            subprocess.run(cmd, check=True, stdout=sys.stderr)
            tmp.replace(out)
        _kernels[str(lib)] = tvm_ffi.load_module(str(out)).add_one_cpu
    return _kernels[str(lib)]


_NUMPY = "import numpy as np\nimport tvm_ffi\nx = np.zeros(4, dtype='float32')\ny = np.zeros(4, dtype='float32')\n"
_TORCH = (
    "import tvm_ffi\n"
    "try:\n    import torch\n"
    "except ImportError:\n    raise RuntimeError('n/a: torch is not installed') from None\n"
    "x = torch.zeros(4)\ny = torch.zeros(4)\n"
)
_KERNEL = "from cases_tensor import add_one_cpu_kernel\nf = add_one_cpu_kernel()\n"
_FFI_TENSORS = _NUMPY + _KERNEL + "x = tvm_ffi.from_dlpack(x)\ny = tvm_ffi.from_dlpack(y)\n"

# Issue target for these cases: at most half the reference's time.
_TARGET = 0.5

CASES = [
    Case("from_dlpack(numpy)", _NUMPY + "from_dlpack = tvm_ffi.from_dlpack\n", "from_dlpack(x)", ref_target=_TARGET),
    Case("from_dlpack(torch)", _TORCH + "from_dlpack = tvm_ffi.from_dlpack\n", "from_dlpack(x)", ref_target=_TARGET),
    Case("add_one_cpu(numpy, numpy)", _NUMPY + _KERNEL, "f(x, y)", ref_target=_TARGET),
    # Issue 18 target for the framework tensor most users pass: 0.3x the reference.
    Case("add_one_cpu(torch, torch)", _TORCH + _KERNEL, "f(x, y)", ref_target=0.3),
    Case("add_one_cpu(Tensor, Tensor)", _FFI_TENSORS, "f(x, y)", ref_target=_TARGET),
]
