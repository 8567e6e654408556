"""``to_cpp_dtype``: the C++ type name of a dtype, for generating kernel source text."""

from __future__ import annotations

import os
from typing import Any

from .extension import _detect_gpu_backend_from_torch

__all__ = ["CPU_DTYPE_MAP", "CUDA_DTYPE_MAP", "ROCM_DTYPE_MAP", "to_cpp_dtype"]

CPU_DTYPE_MAP = {
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "uint8": "uint8_t",
    "uint16": "uint16_t",
    "uint32": "uint32_t",
    "uint64": "uint64_t",
    "float32": "float",
    "float64": "double",
    "bool": "bool",
}

# Types of the CUDA headers cuda_fp16.h, cuda_bf16.h, cuda_fp8.h and cuda_fp4.h.
CUDA_DTYPE_MAP = {
    "float16": "__half",
    "bfloat16": "__nv_bfloat16",
    "float8_e4m3fn": "__nv_fp8_e4m3",
    "float8_e5m2": "__nv_fp8_e5m2",
    "float8_e8m0fnu": "__nv_fp8_e8m0",
    "float4_e2m1": "__nv_fp4_e2m1",
    "float4_e2m1fn_x2": "__nv_fp4x2_e2m1",
}

# Types of the HIP headers hip_fp16.h, hip_bf16.h, hip_fp8.h and hip_fp4.h.
ROCM_DTYPE_MAP = {
    "float16": "__half",
    "bfloat16": "__hip_bfloat16",
    "float8_e4m3fn": "__hip_fp8_e4m3",
    "float8_e4m3fnuz": "__hip_fp8_e4m3_fnuz",
    "float8_e5m2": "__hip_fp8_e5m2",
    "float8_e5m2fnuz": "__hip_fp8_e5m2_fnuz",
    "float4_e2m1": "__hip_fp4_e2m1",
    "float4_e2m1fn_x2": "__hip_fp4x2_e2m1",
}


def _gpu_backend() -> str:
    """"cuda", "rocm" or "cpu": the override, an already imported torch, then the installed toolkit."""
    import shutil  # noqa: PLC0415  (kept off `import tvm_ffi`)

    forced = os.environ.get("TVM_FFI_GPU_BACKEND", "").lower()
    if forced in ("cuda", "hip", "rocm"):
        return "cuda" if forced == "cuda" else "rocm"
    from_torch = _detect_gpu_backend_from_torch()  # an imported torch only
    if from_torch is not None:
        return "rocm" if from_torch == "hip" else "cuda"
    if shutil.which("nvcc") or os.environ.get("CUDA_HOME"):
        return "cuda"
    if shutil.which("hipcc") or os.environ.get("ROCM_HOME"):
        return "rocm"
    return "cpu"


def to_cpp_dtype(dtype_str: str | Any) -> str:
    """Name the C++ type of a dtype.

    Half and narrower float types map to the GPU toolkit's types (CUDA or HIP, whichever is in
    use).

    Parameters
    ----------
    dtype_str : str or Any
        A dtype string (``"float32"``), a ``tvm_ffi.dtype`` or a ``torch.dtype``.

    Returns
    -------
    str
        The C++ type, e.g. ``"int32_t"``.

    Raises
    ------
    ValueError
        For a dtype without a C++ counterpart.

    Examples
    --------
    >>> from tvm_ffi.cpp.dtype import to_cpp_dtype
    >>> to_cpp_dtype("int32"), to_cpp_dtype("float64")
    ('int32_t', 'double')
    """
    text = dtype_str if isinstance(dtype_str, str) else str(dtype_str)
    text = text[len("torch."):] if text.startswith("torch.") else text
    cpp = CPU_DTYPE_MAP.get(text)
    if cpp is not None:
        return cpp
    backend = _gpu_backend()
    table = CUDA_DTYPE_MAP if backend == "cuda" else ROCM_DTYPE_MAP if backend == "rocm" else {}
    cpp = table.get(text)
    if cpp is None:
        raise ValueError(f"Unsupported dtype string: {text} for {backend = }")
    return cpp
