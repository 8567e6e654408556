"""tvm_ffi.cpp.build / load on source files: caching, invalidation, both build tools, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tvm_ffi
import tvm_ffi.cpp
from _jit_sources import ADD_SOURCE, ADD_SOURCE_C, call_in_subprocess, write
from conftest import find_nvcc
from tvm_ffi.cpp import BuildError, _toolchain

HAS_NINJA = _toolchain.find_ninja() is not None


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own empty cache."""
    path = tmp_path / "cache"
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(path))
    return path


@pytest.fixture(params=["ninja", "direct"])
def build_tool(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Runs a test with ninja and with the compilers driven directly."""
    if request.param == "ninja" and not HAS_NINJA:
        pytest.skip("ninja is not installed (pip install ninja)")
    monkeypatch.setenv("TVM_FFI_CPP_BUILD_TOOL", request.param)
    return request.param


def test_build_load_and_cache_hit(tmp_path: Path, cache_dir: Path, build_tool: str) -> None:
    src = write(tmp_path / "add.cpp", ADD_SOURCE)
    path = tvm_ffi.cpp.build("add", sources=str(src))
    assert Path(path).parent.parent == cache_dir and Path(path).name == "add.so"
    assert Path(path).parent.name.startswith("add_")
    assert tvm_ffi.cpp.load("add", sources=[str(src)]).add(1, 2) == 3
    mtime = os.stat(path).st_mtime_ns
    assert tvm_ffi.cpp.build("add", cpp_files=str(src)) == path  # alias, same key, no rebuild
    assert os.stat(path).st_mtime_ns == mtime
    manifest = json.loads((Path(path).parent / "tvm_ffi_build.json").read_text())
    assert str(src) in manifest["inputs"]
    assert any(p.endswith("tvm/ffi/c_api.h") for p in manifest["inputs"])  # headers read by the compile


def test_flag_change_builds_elsewhere(tmp_path: Path, build_tool: str) -> None:
    src = write(tmp_path / "add.cpp", ADD_SOURCE)
    plain = tvm_ffi.cpp.build("add", sources=src)
    ten = tvm_ffi.cpp.build("add", sources=src, extra_cflags=["-DOFFSET=10"])
    eleven = tvm_ffi.cpp.build("add", sources=src, extra_cflags="-DOFFSET=11")
    assert len({plain, ten, eleven}) == 3
    # One entry may hold several flags, split as a shell would (the reference's ninja file does).
    several = tvm_ffi.cpp.build("add", sources=src, extra_cflags=['-DUNUSED="a b" -DOFFSET=20', "-O1"])
    assert tvm_ffi.load_module(several).add(1, 2) == 23
    assert tvm_ffi.load_module(ten).add(1, 2) == 13
    assert tvm_ffi.load_module(eleven).add(1, 2) == 14
    assert tvm_ffi.load_module(plain).add(1, 2) == 3


def test_source_and_header_edits_rebuild(tmp_path: Path, build_tool: str) -> None:
    inc = tmp_path / "inc"
    inc.mkdir()
    write(inc / "offset.h", "#define OFFSET 100\n")
    src = write(tmp_path / "add.cpp", ADD_SOURCE)
    kwargs = {"sources": str(src), "extra_cflags": ["-DOFFSET_HEADER"], "extra_include_paths": [str(inc)]}
    path = tvm_ffi.cpp.build("add", **kwargs)
    assert call_in_subprocess(path, "add", 1, 2) == "103"
    mtime = os.stat(path).st_mtime_ns
    write(inc / "offset.h", "#define OFFSET 100\n")  # same bytes, newer mtime: nothing to rebuild
    assert tvm_ffi.cpp.build("add", **kwargs) == path and os.stat(path).st_mtime_ns == mtime
    write(inc / "offset.h", "#define OFFSET 200\n")
    assert tvm_ffi.cpp.build("add", **kwargs) == path
    assert call_in_subprocess(path, "add", 1, 2) == "203"
    write(src, ADD_SOURCE.replace("+ OFFSET;", "+ OFFSET + 1000;"))
    assert tvm_ffi.cpp.build("add", **kwargs) == path
    assert call_in_subprocess(path, "add", 1, 2) == "1203"


def test_compile_error_names_file_line_command_and_directory(tmp_path: Path, build_tool: str) -> None:
    src = write(tmp_path / "bad.cpp", "#include <tvm/ffi/c_api.h>\n\nint f() { return undeclared_name; }\n")
    with pytest.raises(BuildError) as info:
        tvm_ffi.cpp.build("bad", sources=src)
    err = info.value
    assert isinstance(err, RuntimeError)
    assert err.errors and err.errors[0].startswith(f"{src}:3:")
    assert "undeclared_name" in err.errors[0]
    assert str(src) in err.command and err.command.split()[0].endswith(("c++", "g++", "clang++"))
    assert Path(err.build_dir).is_dir() and Path(err.build_dir).name.startswith("bad_")
    text = str(err)
    assert text.startswith("Failed to build module 'bad'")
    assert f"{src}:3:" in text.splitlines()[1]
    assert f"command: {err.command}" in text and f"build directory: {err.build_dir}" in text
    # Fixing the source is enough: nothing of the failed attempt sticks.
    write(src, ADD_SOURCE)
    assert tvm_ffi.load_module(tvm_ffi.cpp.build("bad", sources=src)).add(2, 2) == 4


def test_link_error(tmp_path: Path, build_tool: str) -> None:
    src = write(tmp_path / "l.cpp", "int missing();\nextern \"C\" int use() { return missing(); }\n")
    with pytest.raises(BuildError, match="undefined reference") as info:
        tvm_ffi.cpp.build("l", sources=src, extra_ldflags=["-Wl,--no-undefined"])
    assert "-shared" in info.value.command


def test_c_sources_and_object_output(tmp_path: Path, build_tool: str) -> None:
    c_src = write(tmp_path / "add.c", ADD_SOURCE_C)
    assert tvm_ffi.load_module(tvm_ffi.cpp.build("addc", sources=c_src)).add(5, 6) == 11
    obj = tvm_ffi.cpp.build("addc", sources=c_src, output="addc.o")
    assert obj.endswith("/addc.o")
    header = Path(obj).read_bytes()[:18]
    assert header[:4] == b"\x7fELF" and int.from_bytes(header[16:18], "little") == 1  # ET_REL
    # An object is a source too: it is linked as is.
    assert tvm_ffi.load_module(tvm_ffi.cpp.build("fromobj", sources=[obj])).add(1, 1) == 2


def test_two_sources_merge_into_one_object(tmp_path: Path) -> None:
    a = write(tmp_path / "a.cpp", 'extern "C" int fa() { return 1; }\n')
    b = write(tmp_path / "b.c", "int fb(void) { return 2; }\n")
    obj = tvm_ffi.cpp.build("ab", sources=[a, b], output="ab.o")
    names = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    assert " T fa" in names and " T fb" in names


def test_explicit_build_directory(tmp_path: Path, cache_dir: Path, build_tool: str) -> None:
    src = write(tmp_path / "add.cpp", ADD_SOURCE)
    path = tvm_ffi.cpp.build("add", sources=src, build_directory=str(tmp_path / "out"))
    assert path == str(tmp_path / "out" / "add.so")
    assert call_in_subprocess(path, "add", 0, 0) == "0"
    assert not cache_dir.exists()
    # One directory, new flags: the finished build of the old flags is not a cache hit.
    assert tvm_ffi.cpp.build("add", sources=src, build_directory=tmp_path / "out", extra_cflags=["-DOFFSET=5"]) == path
    assert call_in_subprocess(path, "add", 0, 0) == "5"


def test_argument_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no sources"):
        tvm_ffi.cpp.build("x")
    with pytest.raises(FileNotFoundError, match="source file not found: .*nope.cpp"):
        tvm_ffi.cpp.build("x", sources=str(tmp_path / "nope.cpp"))
    with pytest.raises(ValueError, match="module name"):
        tvm_ffi.cpp.build("a/b", sources="x.cpp")
    with pytest.raises(TypeError, match="extra_cflags must be a str or a sequence of str, got an element of type int"):
        tvm_ffi.cpp.build("x", sources=write(tmp_path / "x.cpp", ""), extra_cflags=[1])
    with pytest.raises(ValueError, match="Invalid backend: metal"):
        tvm_ffi.cpp.build("x", sources=write(tmp_path / "x.cpp", ""), backend="metal")


def test_invalid_build_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TVM_FFI_CPP_BUILD_TOOL", "make")
    with pytest.raises(ValueError, match="TVM_FFI_CPP_BUILD_TOOL must be 'ninja' or 'direct', got 'make'"):
        tvm_ffi.cpp.build("x", sources=write(tmp_path / "x.cpp", ADD_SOURCE))


CUDA_SOURCE = r"""
#include <tvm/ffi/c_api.h>
__global__ void add_one_kernel(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}
extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi_threads(void*, const TVMFFIAny*, int32_t, TVMFFIAny* ret) {
  ret->type_index = kTVMFFIInt;
  ret->v_int64 = 256;
  return 0;
}
"""


def test_cuda_without_nvcc_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "no-cuda"))
    src = write(tmp_path / "k.cu", CUDA_SOURCE)
    with pytest.raises(RuntimeError, match=r"CUDA sources need nvcc, but CUDA_HOME=.*no-cuda has no bin/nvcc"):
        tvm_ffi.cpp.build("k", sources=src)


def test_invalid_cuda_arch_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if find_nvcc() is None:
        pytest.skip("no CUDA toolkit (nvcc) on this machine")
    monkeypatch.setenv("TVM_FFI_CUDA_ARCH_LIST", "sm80")
    with pytest.raises(ValueError, match="Invalid CUDA architecture 'sm80'"):
        tvm_ffi.cpp.build("k", sources=write(tmp_path / "k.cu", CUDA_SOURCE))


def test_cuda_compiles_with_nvcc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, build_tool: str) -> None:
    """Compiles and links (running needs a GPU, which the GPU tests cover where there is one)."""
    if find_nvcc() is None:
        pytest.skip("no CUDA toolkit (nvcc) on this machine")
    monkeypatch.setenv("TVM_FFI_CUDA_ARCH_LIST", "8.0")
    path = tvm_ffi.cpp.build("k", sources=write(tmp_path / "k.cu", CUDA_SOURCE))
    sections = subprocess.run(["readelf", "-S", path], capture_output=True, text=True, check=True).stdout
    assert ".nv_fatbin" in sections  # the device code for sm_80
    symbols = subprocess.run(["nm", "-D", path], capture_output=True, text=True, check=True).stdout
    assert "__tvm_ffi_threads" in symbols


def test_import_builds_nothing_and_imports_no_framework(tmp_path: Path) -> None:
    cache = tmp_path / "fresh-cache"
    code = "import sys, tvm_ffi.cpp, tvm_ffi.utils; print([m for m in ('torch', 'jax') if m in sys.modules])"
    env = {**os.environ, "TVM_FFI_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
    assert not cache.exists()


def test_names_and_paths_with_spaces_and_dollars(tmp_path: Path, build_tool: str) -> None:
    src_dir = tmp_path / "my $sources"
    src_dir.mkdir()
    src = write(src_dir / "add one.cpp", ADD_SOURCE)
    path = tvm_ffi.cpp.build("my $mod", sources=src)
    assert Path(path).name == "my $mod.so"
    assert tvm_ffi.load_module(path).add(3, 4) == 7


def test_log_build_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
                          build_tool: str) -> None:
    monkeypatch.setenv("TVM_FFI_CPP_EXTENSION_LOG_BUILD", "1")
    src = write(tmp_path / "warn.cpp", ADD_SOURCE + "static int unused_function() { return 1; }\n")
    with caplog.at_level("INFO", logger="tvm_ffi.cpp"):
        tvm_ffi.cpp.build("warn", sources=src, extra_cflags=["-Wall"])
    assert "build of 'warn' in" in caplog.text
    assert "unused_function" in caplog.text and "warning" in caplog.text  # the compiler's own output
    assert f"-c {src}" in caplog.text  # the commands


def test_direct_build_stops_at_the_first_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TVM_FFI_CPP_BUILD_TOOL", "direct")
    monkeypatch.setenv("MAX_JOBS", "1")
    bad = write(tmp_path / "a_bad.cpp", "int broken( {\n")
    good = write(tmp_path / "b_good.cpp", ADD_SOURCE)
    with pytest.raises(BuildError, match="a_bad.cpp:1:") as info:
        tvm_ffi.cpp.build("two", sources=[good, bad])
    assert not (Path(info.value.build_dir) / "cpp_1.o").exists()  # b_good.cpp never started


@pytest.mark.skipif(not HAS_NINJA, reason="ninja is not installed (pip install ninja)")
def test_a_wrapped_ninja_generator_rewrites_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Projects wrap the generator to edit build.ninja (flags the API cannot express); as with
    # the reference, every ninja build runs the text it returns.
    from tvm_ffi.cpp import extension

    monkeypatch.setenv("TVM_FFI_CPP_BUILD_TOOL", "ninja")
    original = extension._generate_ninja_build
    seen: list[str] = []

    def wrapped(*args: object, **kwargs: object) -> str:
        text = original(*args, **kwargs)  # type: ignore[arg-type]
        seen.append(text)
        return text.replace("cxxflags = ", "cxxflags = -DOFFSET=7 ", 1)

    monkeypatch.setattr(extension, "_generate_ninja_build", wrapped)
    src = write(tmp_path / "add.cpp", ADD_SOURCE)
    path = tvm_ffi.cpp.build("add", sources=str(src), extra_cflags=['-DUNUSED="a b"'])
    assert tvm_ffi.load_module(path).add(1, 2) == 10
    assert len(seen) == 1 and "'-DUNUSED=a b'" in seen[0]  # the caller's flag, one shell word
    assert (Path(path).parent / "build.ninja").read_text().startswith("ninja_required_version")


@pytest.mark.skipif(not HAS_NINJA, reason="ninja is not installed (pip install ninja)")
def test_generate_and_run_a_ninja_file_by_hand(tmp_path: Path) -> None:
    from tvm_ffi.cpp import extension

    src = write(tmp_path / "add.cpp", ADD_SOURCE)
    text = extension._generate_ninja_build(
        name="add", extra_cflags=["-DOFFSET=3 -O1"], extra_cuda_cflags=[], extra_ldflags=[],
        extra_include_paths=[], sources=[str(src)])
    (tmp_path / "build.ninja").write_text(text)
    extension.build_ninja(str(tmp_path))
    assert tvm_ffi.load_module(str(tmp_path / "add.so")).add(1, 2) == 6
    src.write_text(ADD_SOURCE.replace("OFFSET;", "OFFSET + undeclared;"))
    with pytest.raises(RuntimeError, match=r"(?s)ninja exited with status \d+.*undeclared"):
        extension.build_ninja(str(tmp_path))


def test_windows_ninja_file_uses_msvc(monkeypatch: pytest.MonkeyPatch) -> None:
    from tvm_ffi.cpp import extension

    monkeypatch.setattr(extension, "IS_WINDOWS", True)
    monkeypatch.setattr(extension, "find_libtvm_ffi", lambda: "C:/Program Files/py/tvm_ffi/lib/tvm_ffi.dll")
    text = extension._generate_ninja_build(
        name="k", extra_cflags=["/std:c++20"], extra_cuda_cflags=[], extra_ldflags=[],
        extra_include_paths=[], sources=["main.cc"])
    variables = dict(line.split(" = ", 1) for line in text.split("\n\n")[0].splitlines())
    assert variables["cxx"] == "cl"
    assert variables["cxxflags"].startswith("/std:c++17 /O2 /MD /EHsc /std:c++20 -I")
    assert variables["ldflags"] == '/DLL "/LIBPATH:C:/Program Files/py/tvm_ffi/lib" tvm_ffi.lib'
    assert "  command = $cxx $in /link $ldflags /out:$out" in text
    assert "build k.dll: link cpp_0.o" in text
