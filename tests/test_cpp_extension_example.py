"""Builds examples/cpp_extension -- a scikit-build-core package whose C++ library uses
find_package(tvm_ffi CONFIG), tvm_ffi_configure_target and tvm_ffi_install -- with pip against
the installed tvm_ffi, then imports it in a fresh interpreter and uses what it registered.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import _cmake_project as cmake_project
import pytest
from conftest import REPO_ROOT, run_checked, scripts_on_path

EXAMPLE_DIR = REPO_ROOT / "examples" / "cpp_extension"

USE_EXTENSION = r'''
import ctypes
import my_ffi_extension as m
import tvm_ffi

assert m.add_one(41) == 42
assert m.greet("you") == "hello, you"
p = m.IntPair(1, 2)
assert isinstance(p, m.IntPair)
swapped = m.swap(p)
assert isinstance(swapped, m.IntPair) and m.pair_sum(swapped) == 3
try:
    m.raise_error("boom")
except ValueError as err:
    assert str(err) == "boom", err
else:
    raise AssertionError("no ValueError")
try:
    m.add_one("x")
except TypeError as err:
    assert "Mismatched type on argument #0 when calling: `my_ffi_extension.add_one(0: int) -> int`" in str(err)
else:
    raise AssertionError("no TypeError")
meta = tvm_ffi.get_global_func_metadata("my_ffi_extension.add_one")
assert '"params":[{"type":"int"}]' in meta["type_schema"], meta


class ByteArray(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("size", ctypes.c_size_t)]


class TypeInfo(ctypes.Structure):
    _fields_ = [("type_index", ctypes.c_int32), ("type_depth", ctypes.c_int32),
                ("type_key", ByteArray), ("type_ancestors", ctypes.c_void_p),
                ("type_key_hash", ctypes.c_uint64), ("num_fields", ctypes.c_int32),
                ("num_methods", ctypes.c_int32), ("fields", ctypes.c_void_p),
                ("methods", ctypes.c_void_p), ("metadata", ctypes.c_void_p)]


lib = tvm_ffi.LIB
lib.TVMFFIGetTypeInfo.restype = ctypes.POINTER(TypeInfo)
key = b"my_ffi_extension.IntPair"
index = ctypes.c_int32()
assert lib.TVMFFITypeKeyToIndex(ctypes.byref(ByteArray(key, len(key))), ctypes.byref(index)) == 0
info = lib.TVMFFIGetTypeInfo(index).contents
names = [ByteArray.from_address(info.fields + 120 * i).data[:ByteArray.from_address(info.fields + 120 * i).size]
         for i in range(info.num_fields)]
methods = [ByteArray.from_address(info.methods + 72 * i).data[:ByteArray.from_address(info.methods + 72 * i).size]
           for i in range(info.num_methods)]
assert names == [b"a", b"b"], names
assert b"sum" in methods and b"__ffi_init__" in methods, methods
print("extension ok")
'''


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example, built and installed by pip into a private directory."""
    cmake_project.cmake()
    work = tmp_path_factory.mktemp("cpp_extension")
    source = work / "src"
    shutil.copytree(EXAMPLE_DIR, source, ignore=shutil.ignore_patterns("build", "__pycache__"))
    target = work / "site"
    env = scripts_on_path()
    # No build isolation: the build must find this environment's tvm_ffi (and scikit-build-core).
    run_checked([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                 "--target", str(target), str(source)], env=env, timeout=600)
    return target


def test_extension_package_is_built_with_the_cmake_package(installed: Path) -> None:
    library = installed / "my_ffi_extension" / "libmy_ffi_extension.so"
    assert library.is_file()
    needed = run_checked(["readelf", "-d", str(library)]).stdout if shutil.which("readelf") else ""
    assert not needed or "Shared library: [libtvm_ffi.so]" in needed


def test_extension_registers_functions_and_a_reflected_type(installed: Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(installed), env.get("PYTHONPATH")]))
    proc = subprocess.run([sys.executable, "-c", USE_EXTENSION], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "extension ok" in proc.stdout


STUB_PROJECT_SOURCE = r"""
#include <tvm/ffi/tvm_ffi.h>
TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::GlobalDef().def("stubdemo.add_one", [](int64_t x) { return x + 1; });
}
"""

STUB_PROJECT_CMAKE = """
cmake_minimum_required(VERSION 3.18)
project(stubdemo LANGUAGES CXX)
find_package(tvm_ffi CONFIG REQUIRED)
add_library(stubdemo SHARED lib.cc)
tvm_ffi_configure_target(stubdemo {stub_args})
install(TARGETS stubdemo LIBRARY DESTINATION stubdemo)
tvm_ffi_install(stubdemo)
"""


def _write_stub_project(tmp_path: Path, stub_args: str) -> Path:
    (tmp_path / "lib.cc").write_text(STUB_PROJECT_SOURCE)
    (tmp_path / "CMakeLists.txt").write_text(STUB_PROJECT_CMAKE.format(stub_args=stub_args))
    return tmp_path


def test_configure_target_generates_python_stubs_after_each_build(tmp_path: Path) -> None:
    cmake_project.build(_write_stub_project(tmp_path, 'STUB_DIR "./python" STUB_INIT ON'))
    api = (tmp_path / "python" / "stubdemo" / "_ffi_api.py").read_text()
    assert 'LIB = _FFI_LOAD_LIB("stubdemo", "stubdemo")' in api
    assert "def add_one(_0: int, /) -> int: ..." in api
    assert "from ._ffi_api import *" in (tmp_path / "python" / "stubdemo" / "__init__.py").read_text()


@pytest.mark.parametrize(("stub_args", "message"), [
    ("STUB_INIT ON", "STUB_INIT=ON requires STUB_DIR to be set."),
    ('STUB_DIR "./python" STUB_PKG other', "STUB_PKG/STUB_PREFIX cannot be set when STUB_INIT is OFF."),
    ("STUB_PREFIX other.", "STUB_PKG/STUB_PREFIX require STUB_DIR to be set."),
])
def test_configure_target_rejects_inconsistent_stub_options(tmp_path: Path, stub_args: str,
                                                            message: str) -> None:
    configured = cmake_project.configure(_write_stub_project(tmp_path, stub_args))
    assert configured.returncode != 0
    assert message in " ".join(configured.stderr.split())  # CMake wraps long messages


EMBED_PROJECT_SOURCE = r"""
#include <tvm/ffi/tvm_ffi.h>
extern "C" const unsigned char __tvm_ffi__cubin_payload[];
extern "C" const unsigned char __tvm_ffi__cubin_payload_end[];
TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::GlobalDef()
      .def("embeddemo.size", []() -> int64_t { return __tvm_ffi__cubin_payload_end - __tvm_ffi__cubin_payload; })
      .def("embeddemo.byte", [](int64_t i) -> int64_t { return __tvm_ffi__cubin_payload[i]; })
      .def("embeddemo.file", []() { return std::string(__FILE__); });
}
"""

EMBED_PROJECT_CMAKE = """
cmake_minimum_required(VERSION 3.18)
project(embeddemo LANGUAGES CXX)
find_package(tvm_ffi CONFIG REQUIRED)
add_library(embeddemo SHARED src/lib.cc)
tvm_ffi_configure_target(embeddemo)
tvm_ffi_embed_bin_into(embeddemo SYMBOL payload BIN "${CMAKE_CURRENT_SOURCE_DIR}/payload.bin")
"""


@pytest.mark.skipif(shutil.which("objcopy") is None, reason="needs GNU binutils")
def test_embed_bin_into_puts_the_bytes_in_the_library(tmp_path: Path) -> None:
    import tvm_ffi

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.cc").write_text(EMBED_PROJECT_SOURCE)
    (tmp_path / "CMakeLists.txt").write_text(EMBED_PROJECT_CMAKE)
    blob = bytes([7, 0, 255, 42]) * 50
    (tmp_path / "payload.bin").write_bytes(blob)
    cmake_project.build(tmp_path)
    tvm_ffi.load_module(str(tmp_path / "build" / "libembeddemo.so"))
    assert tvm_ffi.get_global_func("embeddemo.size")() == len(blob)
    assert [tvm_ffi.get_global_func("embeddemo.byte")(i) for i in (0, 2, 3, 199)] == [7, 255, 42, 42]
    # tvm_ffi_configure_target maps the source directory away: paths read as the project's own.
    assert tvm_ffi.get_global_func("embeddemo.file")() == "src/lib.cc"

