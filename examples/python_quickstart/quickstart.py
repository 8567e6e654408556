"""Python quickstart: load a compiled kernel, call it, register a Python callback, handle errors.

Run after `make demo` has built examples/stable_c_abi (it provides build/add_one_cpu.so):
    .venv/bin/python examples/python_quickstart/quickstart.py [path/to/add_one_cpu.so]
"""

from __future__ import annotations

import sys
from pathlib import Path

import tvm_ffi
import tvm_ffi.testing  # the reference's `testing.*` fixture functions

default_kernel = Path(__file__).resolve().parent.parent / "stable_c_abi" / "build" / "add_one_cpu.so"
kernel = Path(sys.argv[1]) if len(sys.argv) > 1 else default_kernel
mod = tvm_ffi.load_module(str(kernel))
print("loaded", kernel.name, "kind:", mod.kind, "exports add_one_cpu:", mod.implements_function("add_one_cpu"))


@tvm_ffi.register_global_func("demo.greet")
def greet(name: str) -> str:
    return f"hello, {name}"


apply = tvm_ffi.get_global_func("testing.apply")  # a C function that calls its first argument
print(apply(tvm_ffi.get_global_func("demo.greet"), "kernel author"))  # Python -> C -> Python

try:
    tvm_ffi.get_global_func("testing.add_one")("not an int")
except TypeError as err:
    print("TypeError:", err)
