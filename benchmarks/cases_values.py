"""Value cases: making the small FFI values users meet everywhere, and handing an `ffi.Tensor`
to NumPy and torch through DLPack. (`String` operations are CPython's own: String is a str.)

Exports are mostly the consumer's work (NumPy or torch building its array), so their target is
parity with the reference: our part is the capsule and the `__dlpack__` keyword handling.
"""

from __future__ import annotations

from cases import Case

_IMPORTS = "import tvm_ffi\n"
_TENSOR = "import numpy as np\nimport tvm_ffi\nt = tvm_ffi.from_dlpack(np.zeros((3, 4), dtype='float32'))\n"
_TORCH = (
    _TENSOR
    + "try:\n    import torch\n"
    "except ImportError:\n    raise RuntimeError('n/a: torch is not installed') from None\n"
)

CASES = [
    Case("Shape((1, 2, 3))", _IMPORTS, "tvm_ffi.Shape((1, 2, 3))"),
    # A Shape through a call: the argument hands over the runtime object it holds, the result
    # is a new Shape (a tuple subclass) around the same object.
    Case("echo(Shape)", _IMPORTS + "echo = tvm_ffi.get_global_func('testing.echo')\n"
         "shape = tvm_ffi.Shape((1, 2, 3))\n", "echo(shape)"),
    Case("convert([1, 2, 3])", _IMPORTS + "convert = tvm_ffi.convert\n", "convert([1, 2, 3])"),
    Case("convert({'a': 1})", _IMPORTS + "convert = tvm_ffi.convert\n", "convert({'a': 1})"),
    Case("dtype('float32')", _IMPORTS + "dtype = tvm_ffi.dtype\n", "dtype('float32')"),
    # A NumPy dtype as an argument (kernel launchers pass them): converted through tvm_ffi.dtype.
    Case("echo(np.dtype)", _TENSOR + "echo = tvm_ffi.get_global_func('testing.echo')\n"
         "f32 = np.dtype('float32')\n", "echo(f32)"),
    # An int beyond int64 travels as an ffi.BigInt both ways.
    Case("echo(1 << 70)", _IMPORTS + "echo = tvm_ffi.get_global_func('testing.echo')\n"
         "big = 1 << 70\n", "echo(big)"),
    Case("device('cpu', 0)", _IMPORTS + "device = tvm_ffi.device\n", "device('cpu', 0)"),
    Case("Tensor.shape", _TENSOR, "t.shape"),
    Case("np.from_dlpack(Tensor)", _TENSOR, "np.from_dlpack(t)", ref_target=1.0),
    Case("torch.from_dlpack(Tensor)", _TORCH, "torch.from_dlpack(t)", ref_target=1.0),
]
