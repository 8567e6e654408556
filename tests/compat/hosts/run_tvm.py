"""Runs Apache TVM (built against the reference: its libtvm_runtime/libtvm_compiler link the
reference's libtvm_ffi.so) through whichever `tvm_ffi` this interpreter imports, on the CPU;
prints one "ok <check>" line per check.

What it touches of the runtime: C++ ModuleObj subclasses (TVM's LLVM module, the Relax
executable) in every ffi.Module* operation, export and reload of a library, reflection creators
called with a type index, NumPy round trips through TVM's tensor copy, device name tables.

Usage: python run_tvm.py <scratch directory>
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import tvm
import tvm.tirx
import tvm_ffi
from tvm import relax
from tvm.script import ir as I  # noqa: E741
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class AddOne:
    @T.prim_func
    def add_one(a: T.Buffer((16,), "float32"), b: T.Buffer((16,), "float32")) -> None:
        T.func_attr({"global_symbol": "add_one"})
        for i in range(16):
            b[i] = a[i] + T.float32(1)


@I.ir_module
class Dense:
    @R.function
    def main(x: R.Tensor((4, 8), "float32"), w: R.Tensor((8, 3), "float32")):  # type: ignore[no-untyped-def]
        with R.dataflow():
            y = R.nn.relu(R.matmul(x, w))
            s = R.sum(y, axis=1)
            R.output(y, s)
        return (y, s)


def check_tir(scratch: Path) -> None:
    lib = tvm.compile(AddOne, target="llvm")
    dev = tvm.cpu()
    a = tvm.runtime.tensor(np.arange(16, dtype="float32"), dev)
    b = tvm.runtime.tensor(np.zeros(16, dtype="float32"), dev)
    lib["add_one"](a, b)
    np.testing.assert_array_equal(b.numpy(), np.arange(16, dtype="float32") + 1)
    module = lib.mod  # TVM's LLVM module: a C++ ModuleObj subclass
    assert module.kind == "llvm" and module.is_compilation_exportable() and module.is_runnable()
    assert "add_one" in module.inspect_source("ll") and module.imports == []
    path = scratch / "add_one.so"
    lib.export_library(str(path))
    reloaded = tvm.runtime.load_module(str(path))
    out = tvm.runtime.tensor(np.zeros(16, dtype="float32"), dev)
    reloaded["add_one"](a, out)
    np.testing.assert_array_equal(out.numpy(), np.arange(16, dtype="float32") + 1)
    print("ok tir compile, run, export and reload")


@T.prim_func
def call_python(a: T.Buffer((1,), "int64")) -> None:
    T.func_attr({"global_symbol": "call_python"})
    a[0] = T.call_packed("testing.run_tvm.triple", T.int64(7), dtype="int64")


def check_packed_calls_from_jit_code() -> None:
    # The JIT-compiled module is its own library context (a C++ ModuleObj*): its code finds the
    # function through TVMFFIEnvModLookupFromImports, in its imports and then the registry.
    tvm_ffi.register_global_func("testing.run_tvm.triple", lambda x: 3 * x, override=True)
    lib = tvm.compile(call_python, target="llvm")
    out = tvm.runtime.tensor(np.zeros(1, dtype="int64"))
    for _ in range(2):  # the second call is served from the module's lookup cache
        lib["call_python"](out)
        assert out.numpy().tolist() == [21]
    print("ok packed calls from jit code")


def check_relax(scratch: Path) -> None:
    executable = tvm.compile(Dense, target="llvm")
    path = scratch / "dense.so"
    executable.export_library(str(path))
    for ex in (executable, tvm.runtime.load_module(str(path))):
        vm = relax.VirtualMachine(ex, tvm.cpu())
        x = np.random.default_rng(0).standard_normal((4, 8)).astype("float32")
        w = np.random.default_rng(1).standard_normal((8, 3)).astype("float32")
        y, s = vm["main"](tvm.runtime.tensor(x), tvm.runtime.tensor(w))
        expected = np.maximum(x @ w, 0)
        np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(s.numpy(), expected.sum(1), rtol=1e-5, atol=1e-5)
    print("ok relax virtual machine")


def check_ir_values() -> None:
    script = AddOne.script()
    assert tvm_ffi.structural_equal(tvm.script.from_source(script), AddOne)
    assert tvm.target.Target.from_device(tvm.cpu()).kind.name == "llvm"
    assert str(tvm.cpu(0)) == "cpu:0"
    print("ok ir round trip and devices")


def main(scratch: str) -> None:
    assert "refpkg" not in tvm_ffi.__file__ or "--reference" in sys.argv, tvm_ffi.__file__
    check_tir(Path(scratch))
    check_packed_calls_from_jit_code()
    check_relax(Path(scratch))
    check_ir_values()


if __name__ == "__main__":
    main(sys.argv[1])
