"""Pieces of tvm_ffi.cpp on their own: depfiles, ninja text, CUDA arch flags, error lines, dtypes, keys."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tvm_ffi.cpp import _cache, _errors, _flags, _ninja, _plan, _toolchain, to_cpp_dtype


def test_parse_depfile() -> None:
    text = "cpp_0.o: /src/a\\ b.cpp /inc/x.h \\\n  /inc/y.h\n/inc/x.h:\n"
    assert _cache.parse_depfile(text) == ["/src/a b.cpp", "/inc/x.h", "/inc/y.h"]
    assert _cache.parse_depfile("") == []


def test_cache_key_is_canonical() -> None:
    a = _cache.cache_key({"x": [1, 2], "blob": b"\x00\x01"})
    assert a == _cache.cache_key({"blob": b"\x00\x01", "x": [1, 2]})
    assert a != _cache.cache_key({"x": [1, 2], "blob": b"\x00\x02"})
    assert len(a) == 16
    with pytest.raises(TypeError, match="cannot hash a value of type object"):
        _cache.cache_key({"x": object()})


def test_manifest_detects_changed_inputs(tmp_path: Path) -> None:
    out, dep = tmp_path / "m.so", tmp_path / "dep.h"
    out.write_bytes(b"lib")
    dep.write_text("a")
    _cache.write_manifest(tmp_path, "k1", out, [str(dep), "missing-intermediate.o"])
    assert _cache.read_valid_manifest(tmp_path, "k1") == out
    assert _cache.read_valid_manifest(tmp_path, "k2") is None  # same directory, other flags
    # A touch (a reinstall of identical headers) is a miss for the stat-only check, but not for
    # the content check, which also refreshes the manifest for the next stat-only check.
    st = dep.stat()
    os.utime(dep, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert _cache.read_valid_manifest(tmp_path, "k1") is None
    assert _cache.read_valid_manifest(tmp_path, "k1", compare_content=True) == out
    assert _cache.read_valid_manifest(tmp_path, "k1") == out
    dep.write_text("changed")
    assert _cache.read_valid_manifest(tmp_path, "k1") is None
    assert _cache.read_valid_manifest(tmp_path, "k1", compare_content=True) is None
    (tmp_path / _cache.MANIFEST_NAME).write_text("{not json")
    assert _cache.read_valid_manifest(tmp_path, "k1") is None


def test_ninja_text_escapes_and_writes_atomically() -> None:
    step = _plan.Step("o $x.o", ("/s p/a:b.cpp",), ("c++", "-o", _plan.OUT), "o $x.o.d", "compile")
    plan = _plan.BuildPlan("o $x.o")
    plan.steps.append(step)
    flags = _flags.build_flags(_flags.Site(False, "/lib dir/libtvm_ffi.so", ["/inc"]), None, ["-DX=$Y"])
    text = _ninja.render_ninja(plan, _ninja.Compilers("c++"), flags)
    assert "build o$ $$x.o: compile /s$ p/a$:b.cpp" in text
    # the variables come first: the caller's entries verbatim, our paths quoted, `$` escaped
    assert text.startswith("ninja_required_version = 1.3\ncxx = c++\n"
                           "cxxflags = -std=c++17 -fPIC -O2 -DX=$$Y -I/inc\n"
                           "ldflags = -shared '-L/lib dir' -ltvm_ffi\n\n")
    # each output is written to a temporary and renamed into place
    assert "command = $cxx -MMD -MF $out.d -MT $out $cxxflags -c $in -o $out.tmp && mv -f $out.tmp $out" in text
    assert "rule link" not in text  # only the rules the plan uses


@pytest.mark.parametrize(
    ("arch_list", "flags"),
    [
        ("8.9", ["-gencode=arch=compute_89,code=sm_89"]),
        ("8.0 9.0a", ["-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90a,code=sm_90a"]),
        ("7.5;8.0+PTX", ["-gencode=arch=compute_75,code=sm_75", "-gencode=arch=compute_80,code=sm_80",
                         "-gencode=arch=compute_80,code=compute_80"]),
    ],
)
def test_cuda_arch_flags(monkeypatch: pytest.MonkeyPatch, arch_list: str, flags: list[str]) -> None:
    monkeypatch.setenv("TVM_FFI_CUDA_ARCH_LIST", arch_list)
    assert _toolchain.cuda_arch_flags() == flags


def test_compiler_identity_follows_the_binary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "fake-c++"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("CXX", f"{fake} -m64")
    first = _toolchain.cxx_compiler()
    assert first.argv == (str(fake), "-m64") and str(fake) in first.identity
    fake.write_text("#!/bin/sh\n# upgraded\n")
    assert _toolchain.cxx_compiler().identity != first.identity
    monkeypatch.setenv("CXX", "  ")
    with pytest.raises(RuntimeError, match=r"\$CXX is set but empty"):
        _toolchain.cxx_compiler()


def test_first_errors() -> None:
    output = (
        "In file included from /a/b.cpp:1:\n"
        "/a/x.h:3:5: error: 'foo' was not declared in this scope\n"
        "/a/b.cpp:9:1: fatal error: nope.h: No such file or directory\n"
        'k.cu(12): error: identifier "bar" is undefined\n'
        "/usr/bin/ld: b.o: in function `f': b.cpp:(.text+0x5): undefined reference to `g()'\n"
    )
    assert _errors.first_errors(output) == [
        "/a/x.h:3:5: error: 'foo' was not declared in this scope",
        "/a/b.cpp:9:1: error: nope.h: No such file or directory",
        'k.cu(12): error: identifier "bar" is undefined',
        "/usr/bin/ld: b.o: in function `f': b.cpp:(.text+0x5): undefined reference to `g()'",
    ]
    assert _errors.first_errors(output, limit=1) == ["/a/x.h:3:5: error: 'foo' was not declared in this scope"]


def test_build_error_pickles() -> None:
    import pickle

    err = _errors.BuildError("m", "c++ -c a.cpp", "/tmp/b", "a.cpp:1:2: error: boom\n", 1)
    copy = pickle.loads(pickle.dumps(err))
    assert str(copy) == str(err) and copy.errors == ["a.cpp:1:2: error: boom"]


def test_to_cpp_dtype(monkeypatch: pytest.MonkeyPatch) -> None:
    assert to_cpp_dtype("float32") == "float"
    assert to_cpp_dtype("torch.int64") == "int64_t"
    import tvm_ffi

    assert to_cpp_dtype(tvm_ffi.dtype("uint8")) == "uint8_t"
    monkeypatch.setenv("TVM_FFI_GPU_BACKEND", "cuda")
    assert to_cpp_dtype("bfloat16") == "__nv_bfloat16"
    monkeypatch.setenv("TVM_FFI_GPU_BACKEND", "hip")
    assert to_cpp_dtype("bfloat16") == "__hip_bfloat16"
    with pytest.raises(ValueError, match="Unsupported dtype string: complex64 for backend = 'rocm'"):
        to_cpp_dtype("complex64")


def test_hip_flags_from_rocm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tvm_ffi.cpp import _builder

    (tmp_path / "bin").mkdir()
    hipcc = tmp_path / "bin" / "hipcc"
    hipcc.write_text("#!/bin/sh\n")
    hipcc.chmod(0o755)
    monkeypatch.setenv("ROCM_HOME", str(tmp_path))
    monkeypatch.delenv("TVM_FFI_ROCM_ARCH_LIST", raising=False)
    with pytest.raises(RuntimeError, match="Set TVM_FFI_ROCM_ARCH_LIST"):
        _builder.site("hip")
    monkeypatch.setenv("TVM_FFI_ROCM_ARCH_LIST", "gfx90a gfx942")
    site = _builder.site("hip")
    assert site.gpu_home == str(tmp_path)
    flags = _flags.build_flags(site._replace(include_paths=["/inc"]), "hip", extra_cuda_cflags=["-DX"])
    gpu = flags.cuda_cflags.argv()
    assert ["--offload-arch=gfx90a", "--offload-arch=gfx942"] == [f for f in gpu if f.startswith("--offload")]
    assert gpu[-3:] == ["-DX", "-I/inc", f"-I{tmp_path / 'include'}"]
    assert flags.ldflags.argv()[-2:] == [f"-L{tmp_path / 'lib'}", "-lamdhip64"]
    assert _toolchain.gpu_compiler("hip").argv == (str(hipcc),)


def test_gpu_backend_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    from tvm_ffi.cpp.extension import _resolve_backend

    assert _resolve_backend(None, False) is None
    assert _resolve_backend("hip", True) == "hip"
    monkeypatch.setenv("TVM_FFI_GPU_BACKEND", "hip")
    assert _resolve_backend(None, True) == "hip"
    with pytest.raises(ValueError, match="Invalid backend: vulkan"):
        _resolve_backend("vulkan", True)


def _torch_build(monkeypatch: pytest.MonkeyPatch, cuda: str | None, hip: str | None) -> None:
    """A stand-in for an imported PyTorch built for CUDA or ROCm."""
    import types

    fake = types.ModuleType("torch")
    fake.version = types.SimpleNamespace(cuda=cuda, hip=hip)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", fake)


def _compilers_on_path(monkeypatch: pytest.MonkeyPatch, names: set[str]) -> None:
    import shutil

    monkeypatch.setattr(shutil, "which", lambda cmd, *a, **k: f"/usr/bin/{cmd}" if cmd in names else None)
    for var in ("CUDA_HOME", "CUDA_PATH", "ROCM_HOME", "ROCM_PATH", "TVM_FFI_GPU_BACKEND"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def fresh_detection() -> Iterator[None]:
    from tvm_ffi.cpp import extension

    extension._detect_gpu_backend.cache_clear()
    yield
    extension._detect_gpu_backend.cache_clear()


@pytest.mark.usefixtures("fresh_detection")
@pytest.mark.parametrize(("torch_build", "compilers", "expected"), [
    ((None, "6.0"), {"nvcc"}, "hip"),            # a ROCm PyTorch decides, whatever is on PATH
    (("12.4", None), {"nvcc", "hipcc"}, "cuda"),  # a CUDA PyTorch decides
    (None, {"hipcc"}, "hip"),                    # no PyTorch: hipcc alone means ROCm
    (None, {"nvcc", "hipcc"}, "cuda"),           # nvcc wins when both are there
    (None, set(), "cuda"),                       # nothing found: CUDA, as before
])
def test_gpu_backend_detection(monkeypatch: pytest.MonkeyPatch, torch_build: tuple[str | None, str | None] | None,
                               compilers: set[str], expected: str) -> None:
    from tvm_ffi.cpp import extension

    if torch_build is None:
        monkeypatch.setitem(sys.modules, "torch", None)
    else:
        _torch_build(monkeypatch, *torch_build)
    _compilers_on_path(monkeypatch, compilers)
    assert extension._detect_gpu_backend() == expected
    assert extension._resolve_gpu_backend(None) == expected
    assert extension._resolve_gpu_backend("hip") == "hip"


@pytest.mark.usefixtures("fresh_detection")
def test_gpu_backend_override_and_toolkit_homes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tvm_ffi.cpp import extension

    monkeypatch.setitem(sys.modules, "torch", None)
    _compilers_on_path(monkeypatch, {"hipcc"})
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "nvcc").write_text("")
    monkeypatch.setenv("CUDA_HOME", str(tmp_path))  # an nvcc off PATH still counts
    assert extension._detect_gpu_backend() == "cuda"
    monkeypatch.setenv("TVM_FFI_GPU_BACKEND", "HIP")  # read on every resolution, any case
    assert extension._resolve_gpu_backend(None) == "hip"
    assert extension._detect_gpu_backend_from_torch() is None
    with pytest.raises(ValueError, match="Invalid backend: rocm"):
        extension._resolve_gpu_backend("rocm")
    assert extension._find_cuda_home() == str(tmp_path)  # the reference's private name, used by other projects
    # The private name answers as the reference's does, with the variable as set; a build that
    # needs the toolkit checks it.
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "nowhere"))
    assert extension._find_cuda_home() == str(tmp_path / "nowhere")
    from tvm_ffi.cpp import _toolchain

    with pytest.raises(RuntimeError, match="no bin/nvcc"):
        _toolchain.cuda_home()


def test_decorate_with_tvm_ffi_adds_the_headers_and_one_export_per_function() -> None:
    from tvm_ffi.cpp import extension

    text = extension._decorate_with_tvm_ffi("int add(int a, int b) { return a + b; }",
                                            {"add": "Adds two ints.", "sub": ""})
    lines = text.splitlines()
    assert lines[0].startswith("#include <tvm/ffi/tvm_ffi.h>") and "#line" not in text
    assert "int add(int a, int b) { return a + b; }" in lines
    assert "TVM_FFI_DLL_EXPORT_TYPED_FUNC(add, add);" in lines and "TVM_FFI_DLL_EXPORT_TYPED_FUNC(sub, sub);" in lines
    assert 'TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(add, "Adds two ints.");' in lines
    assert not any(line.startswith("TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(sub") for line in lines)
