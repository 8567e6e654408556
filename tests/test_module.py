"""Loading kernel libraries as modules: calling their functions, metadata, imports, lifetime, the
system library, and the errors for files and symbols that are not there."""

from __future__ import annotations

import ctypes
import gc
import subprocess
import sys
from pathlib import Path

import pytest
import tvm_ffi
from _kernel_lib import build_kernel, load_kernel, private_copy
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import Module, ModulePropertyMask


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kernel(tmp_path_factory.mktemp("kernel"))


@pytest.fixture(scope="module")
def mod(kernel: Path) -> Module:
    return load_kernel(kernel)


@pytest.fixture(scope="module", autouse=True)
def system_libs() -> list[Module]:
    """The system libraries the tests use: made once, they live for the whole process."""
    return [tvm_ffi.system_lib(prefix) for prefix in ("", "testing.pylayer.", "testing.pylayer.outer.")]


def mapped(path: Path) -> bool:
    """True while the library at ``path`` is mapped into this process."""
    return str(path.resolve()) in Path("/proc/self/maps").read_text()


def test_load_and_call(mod: Module) -> None:
    assert isinstance(mod, Module) and isinstance(mod, tvm_ffi.Object)
    assert mod.add_one(41) == 42
    assert mod["add_one"](1) == 2
    assert mod.get_function("add_one")(2) == 3
    assert isinstance(mod.add_one, tvm_ffi.Function)
    # attribute access caches the function on the module object
    assert mod.add_one is mod.add_one
    assert mod(20, 22) == 42  # __call__ runs `main`


def test_load_accepts_str_and_pathlike(kernel: Path) -> None:
    assert tvm_ffi.load_module(str(kernel), keep_module_alive=False).add_one(0) == 1


def test_module_properties(mod: Module) -> None:
    assert mod.kind == "library"
    assert mod.type_key == "ffi.Module"
    mask = mod.get_property_mask()
    assert mask == ModulePropertyMask.BINARY_SERIALIZABLE | ModulePropertyMask.RUNNABLE
    assert mod.is_runnable() and mod.is_binary_serializable() and not mod.is_compilation_exportable()
    assert list(mod.get_write_formats()) == []
    assert mod.inspect_source() == ""
    with pytest.raises(RuntimeError, match="does not support WriteToFile"):
        mod.write_to_file("/tmp/never-written.so")


def test_implements_function(mod: Module) -> None:
    assert mod.implements_function("add_one")
    assert not mod.implements_function("subtract_one")


def test_function_metadata_and_doc(mod: Module) -> None:
    assert mod.get_function_metadata("add_one") == {"type_schema": '{"type":"ffi.Function"}', "arity": 1}
    assert mod.get_function_doc("add_one") == "Add one to an integer."
    assert mod.get_function_metadata("main") is None
    assert mod.get_function_doc("main") is None


def test_missing_function_is_an_attribute_error(mod: Module) -> None:
    with pytest.raises(AttributeError, match="Module has no function 'subtract_one'.*__tvm_ffi_subtract_one"):
        mod.subtract_one  # noqa: B018
    with pytest.raises(AttributeError, match="Module has no function 'subtract_one'"):
        mod["subtract_one"]
    with pytest.raises(AttributeError, match="Module has no function 'subtract_one'"):
        mod.get_function("subtract_one")
    with pytest.raises(ValueError, match=r"takes a function name \(str\), got int"):
        mod[0]  # type: ignore[index]
    # dunder probes are not function lookups
    assert not hasattr(mod, "__array_interface__")


def test_kernel_errors_reach_python(mod: Module) -> None:
    with pytest.raises(TypeError, match="add_one expects one int"):
        mod.add_one("x")


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "missing.so"
    with pytest.raises(RuntimeError, match=f"Failed to load dynamic shared library {path} {path}: cannot open"):
        tvm_ffi.load_module(path)


def test_non_library_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "not_a_library.so"
    path.write_text("this is text, not ELF\n")
    failure = f"Failed to load dynamic shared library {path}.*(invalid ELF header|file too short)"
    with pytest.raises(RuntimeError, match=failure):
        tvm_ffi.load_module(path)


def test_unknown_extension_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "kernel.bin"
    path.write_bytes(b"")
    with pytest.raises(RuntimeError, match=r"Loader for `\.bin` files is not registered"):
        tvm_ffi.load_module(path)
    with pytest.raises(RuntimeError, match=f"Failed to get file format from {tmp_path / 'noext'}"):
        tvm_ffi.load_module(tmp_path / "noext")


def test_functions_keep_their_library_loaded(kernel: Path, tmp_path: Path) -> None:
    path = private_copy(kernel, tmp_path, "kept_by_function")
    mod = tvm_ffi.load_module(path, keep_module_alive=False)
    add_one = mod.add_one
    assert mapped(path)
    del mod
    gc.collect()
    assert mapped(path) and add_one(1) == 2  # the function holds the module, the module the library
    del add_one
    gc.collect()
    assert not mapped(path)  # last reference gone: unloaded


def test_keep_module_alive_keeps_the_library_for_the_process(kernel: Path, tmp_path: Path) -> None:
    # In a fresh process, so that the library kept for good does not outlive this test here.
    code = """if True:
        import gc, sys, tvm_ffi
        from pathlib import Path
        def mapped(path):
            return path in Path("/proc/self/maps").read_text()
        for path, keep in ((sys.argv[1], True), (sys.argv[2], False)):
            mod = tvm_ffi.load_module(path, keep_module_alive=keep)
            del mod
            gc.collect()
            print(mapped(path))
    """
    kept, dropped = private_copy(kernel, tmp_path, "kept"), private_copy(kernel, tmp_path, "dropped")
    out = subprocess.run([sys.executable, "-c", code, str(kept.resolve()), str(dropped.resolve())],
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False"]


def test_imports(kernel: Path, tmp_path: Path) -> None:
    base = tvm_ffi.load_module(kernel, keep_module_alive=False)
    other = tvm_ffi.load_module(private_copy(kernel, tmp_path, "imported"), keep_module_alive=False)
    base.import_module(other)
    assert base.implements_function("add_one", query_imports=True)
    with pytest.raises(RuntimeError, match="Cyclic dependency detected during import"):
        other.import_module(base)
    with pytest.raises(TypeError, match="expected a Module, got int"):
        base.import_module(1)  # type: ignore[arg-type]
    imports = base.imports
    assert len(imports) == 1 and imports[0].same_as(other)
    assert other.imports == []
    base.clear_imports()
    assert base.imports == []
    other.import_module(base)  # no cycle any more
    other.clear_imports()


def test_query_imports(tmp_path: Path, kernel: Path) -> None:
    outer = tvm_ffi.system_lib("testing.pylayer.outer.")
    assert not outer.implements_function("raise_error")
    inner = tvm_ffi.load_module(private_copy(kernel, tmp_path, "inner"), keep_module_alive=False)
    outer.import_module(inner)
    try:
        assert outer.implements_function("raise_error", query_imports=True)
        assert outer.get_function("add_one", query_imports=True)(5) == 6
        assert outer.get_function_doc("add_one", query_imports=True) == "Add one to an integer."
        with pytest.raises(AttributeError, match=r"no symbol __tvm_ffi_testing\.pylayer\.outer\.add_one or "
                                                 r"__tvm_ffi_add_one in this module\)"):
            outer.get_function("add_one", query_imports=False)
        with pytest.raises(AttributeError, match=r"__tvm_ffi_sub_one in this module or its imports"):
            outer.get_function("sub_one", query_imports=True)
    finally:
        outer.clear_imports()


def test_system_lib(kernel: Path) -> None:
    lib = ctypes.CDLL(str(kernel))
    address = ctypes.cast(lib.__tvm_ffi_add_one, ctypes.c_void_p)
    register = tvm_ffi.LIB.TVMFFIEnvModRegisterSystemLibSymbol
    register.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    assert register(b"__tvm_ffi_testing.pylayer.add_one", address) == 0

    prefixed = tvm_ffi.system_lib("testing.pylayer.")
    assert isinstance(prefixed, Module) and prefixed.kind == "library"
    assert prefixed["add_one"](41) == 42  # looks up __tvm_ffi_testing.pylayer.add_one
    assert tvm_ffi.system_lib()["testing.pylayer.add_one"](1) == 2
    assert tvm_ffi.system_lib("testing.pylayer.").same_as(prefixed)  # one module per prefix
    # The message names both symbols a prefixed library tries.
    with pytest.raises(AttributeError, match=r"Module has no function 'sub_one' \(library module; no symbol "
                                             r"__tvm_ffi_testing\.pylayer\.sub_one or __tvm_ffi_sub_one in"):
        prefixed.sub_one  # noqa: B018
    with pytest.raises(TypeError, match="symbol_prefix must be a str"):
        tvm_ffi.system_lib(1)  # type: ignore[arg-type]


def test_module_cannot_be_constructed_directly() -> None:
    with pytest.raises(TypeError, match="load_module"):
        Module()
