"""Truncated or corrupt shared libraries are refused with a clear error before dlopen maps them
(mapping a truncated file and touching a page past its end would kill the process with SIGBUS)."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest
import tvm_ffi
from _kernel_lib import build_kernel
from leakcheck import no_ffi_leaks  # noqa: F401


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kernel(tmp_path_factory.mktemp("kernel"))


def damaged_copy(kernel: Path, out: Path, keep: int | None = None, patch: tuple[int, bytes] | None = None) -> Path:
    """A copy of the kernel library cut to its first `keep` bytes and/or with bytes overwritten."""
    data = bytearray(kernel.read_bytes())
    if patch is not None:
        offset, new = patch
        data[offset:offset + len(new)] = new
    out.write_bytes(bytes(data[:keep] if keep is not None else data))
    return out


def program_headers(data: bytes) -> list[tuple[int, int, int]]:
    """(p_type, p_offset, p_filesz) of each program header of a 64-bit little-endian ELF file."""
    (phoff,) = struct.unpack_from("<Q", data, 32)
    (phnum,) = struct.unpack_from("<H", data, 56)
    headers = []
    for i in range(phnum):
        p_type, _flags, p_offset, _vaddr, _paddr, p_filesz = struct.unpack_from("<IIQQQQ", data, phoff + 56 * i)
        headers.append((p_type, p_offset, p_filesz))
    return headers


PT_LOAD = 1


def loadable_end(kernel: Path) -> int:
    """Where the file bytes of the last loadable segment end (debug info and sections follow)."""
    return max(offset + size for kind, offset, size in program_headers(kernel.read_bytes()) if kind == PT_LOAD)


def load_in_subprocess(path: Path) -> subprocess.CompletedProcess[str]:
    """Loads `path` in a fresh interpreter: a crash there fails the test instead of the run."""
    code = ("import sys, tvm_ffi\n"
            "try:\n    tvm_ffi.load_module(sys.argv[1])\n"
            "except Exception as err:\n    print(type(err).__name__, err)\n")
    return subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("fraction", [0.25, 0.5, 0.99])
def test_truncated_library_raises_instead_of_sigbus(kernel: Path, tmp_path: Path, fraction: float) -> None:
    truncated = damaged_copy(kernel, tmp_path / "truncated.so", keep=int(loadable_end(kernel) * fraction))
    proc = load_in_subprocess(truncated)
    assert proc.returncode == 0, f"loader died with status {proc.returncode}: {proc.stderr}"
    assert proc.stdout.startswith("RuntimeError"), proc.stdout + proc.stderr
    assert "truncated or corrupt" in proc.stdout and "extends past the end of the file" in proc.stdout


def test_library_cut_inside_its_header_tables(kernel: Path, tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="shorter than an ELF header"):
        tvm_ffi.load_module(damaged_copy(kernel, tmp_path / "header.so", keep=40))
    with pytest.raises(RuntimeError, match="program header table .* extends past the end of the file"):
        tvm_ffi.load_module(damaged_copy(kernel, tmp_path / "phdrs.so", keep=100))


def test_segment_offset_beyond_the_file(kernel: Path, tmp_path: Path) -> None:
    data = kernel.read_bytes()
    (phoff,) = struct.unpack_from("<Q", data, 32)
    load = next(i for i, (kind, _, _) in enumerate(program_headers(data)) if kind == PT_LOAD)
    bogus_offset = struct.pack("<Q", 1 << 40)  # p_offset of the first PT_LOAD
    corrupt = damaged_copy(kernel, tmp_path / "corrupt.so", patch=(phoff + 56 * load + 8, bogus_offset))
    with pytest.raises(RuntimeError, match=f"loadable segment {load} .* extends past the end"):
        tvm_ffi.load_module(corrupt)


def test_whole_and_non_elf_files_are_left_to_the_loader(kernel: Path, tmp_path: Path) -> None:
    assert tvm_ffi.load_module(kernel, keep_module_alive=False).add_one(1) == 2
    text = tmp_path / "notes.so"
    text.write_text("not a library")
    with pytest.raises(RuntimeError, match="Failed to load dynamic shared library"):
        tvm_ffi.load_module(text)
    with pytest.raises(RuntimeError, match="Failed to load dynamic shared library"):
        tvm_ffi.load_module(tmp_path / "missing.so")
