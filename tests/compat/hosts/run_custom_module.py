"""Uses the custom module kind of kernels/custom_module.cc (a C++ ModuleObj subclass, built
against either package's headers) inside the kernel and from Python, through whichever `tvm_ffi`
this interpreter imports; prints "ok <check>" lines.

Usage: python run_custom_module.py <custom_module.so> <another kernel.so> <its function>
                                   <custom_module_bin.so> <scratch directory>
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import tvm_ffi


def check_inside_the_kernel(mod: tvm_ffi.Module, other: str, other_function: str) -> None:
    result = list(mod.echo_inside(other, other_function))
    assert result == ["hi", False, True, "RuntimeError: Cyclic dependency detected during import", True,
                      "Returns its argument.", "echo"], result
    print("ok inside the kernel")


def check_queries(echo: tvm_ffi.Module) -> None:
    assert echo.kind == "echo"
    assert echo.echo("from python") == "from python"
    assert echo.implements_function("echo") and not echo.implements_function("missing")
    assert echo.get_function_doc("echo") == "Returns its argument."
    print("ok from python")


def check_module_operations(echo: tvm_ffi.Module, scratch: Path) -> None:
    assert echo.get_property_mask() == 0b101
    assert echo.is_compilation_exportable() and echo.is_binary_serializable() and not echo.is_runnable()
    assert list(echo.get_write_formats()) == ["txt"]
    assert echo.inspect_source("txt") == "echo source (txt)"
    target = scratch / "echo.txt"
    echo.write_to_file(str(target), "txt")
    assert target.read_text() == "hello"
    with pytest.raises(ValueError, match="echo writes only txt"):
        echo.write_to_file(str(target), "bin")
    print("ok module operations")


def check_imports_both_ways(echo: tvm_ffi.Module, other: str, other_function: str) -> None:
    library = tvm_ffi.load_module(other)
    library.import_module(echo)  # a runtime-made module importing a C++ one
    assert [m.kind for m in library.imports] == ["echo"]
    assert library.get_function("echo", query_imports=True)("x") == "x"
    assert library.implements_function("echo", True) and not library.implements_function("echo")
    assert library.get_function_doc("echo", True) == "Returns its argument."
    with pytest.raises(RuntimeError, match="Cyclic dependency"):
        echo.import_module(library)
    library.clear_imports()
    assert library.imports == [] or len(library.imports) == 0
    echo.import_module(library)  # a C++ module importing a runtime-made one
    assert [m.kind for m in echo.imports] == ["library"]
    # The C++ module as its own library context: its imports, then the global registry.
    call_from_imports = echo.get_function("call_from_imports")
    assert call_from_imports(other_function, 5) == 5
    assert call_from_imports(other_function, 6) == 6  # the cached function
    assert call_from_imports("ffi.String", "text") == "text"
    with pytest.raises(RuntimeError, match="Cannot find function no_such_function"):
        call_from_imports("no_such_function")
    assert echo.get_function(other_function, query_imports=True) is not None
    assert not echo.implements_function(other_function)
    with pytest.raises(RuntimeError, match="Cyclic dependency"):
        library.import_module(echo)
    echo.clear_imports()
    assert len(echo.imports) == 0
    print("ok imports both ways")


def check_composite(bin_lib: str) -> None:
    composite = tvm_ffi.load_module(bin_lib)
    assert composite.kind == "library"
    assert [m.kind for m in composite.imports] == ["echo"]
    assert composite.get_function("greeting", query_imports=True)() == "hi"
    assert composite.call_imported("greeting") == "hi"
    print("ok composite library")


def main(path: str, other: str, other_function: str, bin_lib: str, scratch: str) -> None:
    mod = tvm_ffi.load_module(path)
    check_inside_the_kernel(mod, other, other_function)
    echo = mod.make_echo()
    check_queries(echo)
    check_module_operations(echo, Path(scratch))
    check_imports_both_ways(echo, other, other_function)
    check_composite(bin_lib)


if __name__ == "__main__":
    main(*sys.argv[1:6])
