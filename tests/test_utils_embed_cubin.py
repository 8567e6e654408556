"""tvm_ffi.utils.embed_cubin: a blob embedded into an object file, readable from the linked library."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tvm_ffi.utils.embed_cubin import cubin_symbol_names, embed_cubin, main

pytestmark = pytest.mark.skipif(
    shutil.which("ld") is None or shutil.which("objcopy") is None, reason="needs GNU ld and objcopy"
)

# What a kernel source using TVM_FFI_EMBED_CUBIN(kernels) sees: two symbols around the bytes.
READER = r"""
#include <stddef.h>
extern const unsigned char __tvm_ffi__cubin_kernels[];
extern const unsigned char __tvm_ffi__cubin_kernels_end[];
const unsigned char* blob(size_t* size) {
  *size = (size_t)(__tvm_ffi__cubin_kernels_end - __tvm_ffi__cubin_kernels);
  return __tvm_ffi__cubin_kernels;
}
"""


def _compile_reader(tmp_path: Path) -> Path:
    src = tmp_path / "reader.c"
    src.write_text(READER)
    obj = tmp_path / "reader.o"
    subprocess.run([os.environ.get("CC", "cc"), "-fPIC", "-c", str(src), "-o", str(obj)], check=True)
    return obj


def _read_blob(library: Path) -> bytes:
    lib = ctypes.CDLL(str(library))
    lib.blob.restype = ctypes.POINTER(ctypes.c_ubyte)
    lib.blob.argtypes = [ctypes.POINTER(ctypes.c_size_t)]
    size = ctypes.c_size_t()
    ptr = lib.blob(ctypes.byref(size))
    return ctypes.string_at(ptr, size.value)


def _link(objects: list[Path], out: Path) -> Path:
    subprocess.run([os.environ.get("CC", "cc"), "-shared", *map(str, objects), "-o", str(out)], check=True)
    return out


def test_embedded_bytes_are_readable_and_local(tmp_path: Path) -> None:
    payload = bytes(range(256)) * 40 + b"\0tail"
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(payload)
    merged = tmp_path / "merged.o"
    embed_cubin(cubin, _compile_reader(tmp_path), merged, "kernels")
    assert _read_blob(_link([merged], tmp_path / "libblob.so")) == payload
    symbols = subprocess.run(["nm", str(merged)], capture_output=True, text=True, check=True).stdout
    start, end = cubin_symbol_names("kernels")
    kinds = {line.split()[-1]: line.split()[-2] for line in symbols.splitlines() if len(line.split()) >= 2}
    assert kinds[start] == "r" and kinds[end] == "r"  # local, read-only: two objects may embed one name


def test_command_line(tmp_path: Path) -> None:
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(b"abc")
    reader = _compile_reader(tmp_path)
    out = tmp_path / "sub" / "out.o"
    args = ["--output-obj", str(out), "--input-obj", str(reader), "--cubin", str(cubin), "--name", "kernels"]
    proc = subprocess.run([sys.executable, "-m", "tvm_ffi.utils.embed_cubin", *args], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert _read_blob(_link([out], tmp_path / "libcli.so")) == b"abc"


def test_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reader = _compile_reader(tmp_path)
    with pytest.raises(FileNotFoundError, match="CUBIN file not found"):
        embed_cubin(tmp_path / "missing.cubin", reader, tmp_path / "o.o", "kernels")
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(b"x")
    with pytest.raises(FileNotFoundError, match="Input object file not found"):
        embed_cubin(cubin, tmp_path / "missing.o", tmp_path / "o.o", "kernels")
    with pytest.raises(ValueError, match="must be a C identifier"):
        embed_cubin(cubin, reader, tmp_path / "o.o", "not-an-identifier")
    not_an_object = tmp_path / "text.o"
    not_an_object.write_text("not an object file")
    with pytest.raises(RuntimeError, match=r"ld -r \(merge\) failed"):
        embed_cubin(cubin, not_an_object, tmp_path / "o.o", "kernels")
    assert main(["--output-obj", "o.o", "--input-obj", "nope.o", "--cubin", str(cubin), "--name", "k"]) == 1
    assert "Input object file not found" in capsys.readouterr().err
