"""Uses the custom module kind of kernels/ref_custom_module.cc (a C++ ModuleObj subclass built
against the reference's headers) inside the kernel and from Python, through whichever `tvm_ffi`
this interpreter imports; prints "ok <check>" lines.

Usage: python run_ref_custom_module.py <ref_custom_module.so> <another kernel.so> <its function>
"""

from __future__ import annotations

import sys

import tvm_ffi


def main(path: str, other: str, other_function: str) -> None:
    mod = tvm_ffi.load_module(path)
    result = list(mod.echo_inside(other, other_function))
    assert result == ["hi", False, True, "RuntimeError: Cyclic dependency detected during import", True,
                      "Returns its argument.", "echo"], result
    print("ok inside the kernel")
    echo = mod.make_echo()
    assert echo.kind == "echo"
    assert echo.echo("from python") == "from python"
    assert echo.implements_function("echo") and not echo.implements_function("missing")
    assert echo.get_function_doc("echo") == "Returns its argument."
    print("ok from python")


if __name__ == "__main__":
    main(*sys.argv[1:4])
