"""Precompiled tvm_ffi headers in inline JIT builds (tvm_ffi/cpp/_pch.py): made on the second cold
build with one compiler and one set of flags, read by the builds after it, never a cause of failure."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import tvm_ffi.cpp
from tvm_ffi.cpp import _pch, _toolchain

pytestmark = pytest.mark.skipif(
    os.name == "nt" or not _pch._is_plain_gcc(_toolchain.cxx_compiler().argv[0]),
    reason="precompiled headers are used with GCC only",
)

KERNEL = r"""
void add_k(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  for (int64_t i = 0; i < x.size(0); ++i) {
    static_cast<float*>(y.data_ptr())[i] = static_cast<float*>(x.data_ptr())[i] + K;
  }
}
"""


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cache"
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(path))
    monkeypatch.delenv("TVM_FFI_JIT_PCH", raising=False)
    return path


def build_and_check(k: int, **kwargs: object) -> Path:
    """A cold build of a kernel adding `k` (a new source each time); returns its build.ninja."""
    module = tvm_ffi.cpp.load_inline(f"pch_k{k}", cpp_sources=f"constexpr float K = {k};\n" + KERNEL,
                                     functions="add_k", **kwargs)  # type: ignore[arg-type]
    x = np.arange(4, dtype="float32")
    y = np.zeros(4, dtype="float32")
    module.add_k(x, y)
    np.testing.assert_array_equal(y, x + k)
    (ninja,) = Path(os.environ["TVM_FFI_CACHE_DIR"]).glob(f"pch_k{k}_*/build.ninja")
    return ninja


def precompiled(cache_dir: Path) -> list[Path]:
    return sorted(cache_dir.glob("pch/*/tvm_ffi_pch.h.gch"))


def test_second_cold_build_precompiles_and_later_builds_use_it(cache_dir: Path) -> None:
    first = build_and_check(1)
    assert "-include" not in first.read_text() and precompiled(cache_dir) == []
    second = build_and_check(2)
    (gch,) = precompiled(cache_dir)
    assert f"-include {gch.parent / 'tvm_ffi_pch.h'}" in second.read_text()
    third = build_and_check(3)
    assert "-include" in third.read_text() and precompiled(cache_dir) == [gch]


def test_other_flags_get_their_own_precompiled_header(cache_dir: Path) -> None:
    build_and_check(1)
    build_and_check(2)
    build_and_check(3, extra_cflags=["-DEXTRA=1"])
    assert len(precompiled(cache_dir)) == 1  # the first build with new flags only records them
    ninja = build_and_check(4, extra_cflags=["-DEXTRA=1"])
    assert len(precompiled(cache_dir)) == 2 and "-include" in ninja.read_text()


def test_switched_off_by_environment(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TVM_FFI_JIT_PCH", "0")
    build_and_check(1)
    assert "-include" not in build_and_check(2).read_text()
    assert not (cache_dir / "pch").exists()


def test_unreadable_precompiled_header_falls_back_to_parsing(cache_dir: Path) -> None:
    build_and_check(1)
    build_and_check(2)
    (gch,) = precompiled(cache_dir)
    gch.write_bytes(gch.read_bytes()[:100_000])  # GCC: "cannot read PCH file"
    assert "-include" not in build_and_check(3).read_text()
    assert not gch.exists() and (gch.parent / "failed").exists()
    assert "-include" not in build_and_check(4).read_text()  # not made again


def test_a_cache_the_header_cannot_live_in_only_costs_time(cache_dir: Path) -> None:
    cache_dir.mkdir(parents=True)
    (cache_dir / "pch").write_text("a file where the directory would go")
    build_and_check(1)
    assert "-include" not in build_and_check(2).read_text()


def test_files_of_the_user_are_compiled_as_written(cache_dir: Path, tmp_path: Path) -> None:
    # A user's own file may set macros before its first include: no header is forced in front.
    for k in (1, 2):
        source = tmp_path / f"k{k}.cc"
        source.write_text(f"#include <tvm/ffi/tvm_ffi.h>\nconstexpr float K = {k};\n{KERNEL}\n"
                          "TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_k, add_k);\n")
        module = tvm_ffi.cpp.load(f"pch_file{k}", cpp_files=[str(source)])
        assert callable(module.add_k)
    assert not (cache_dir / "pch").exists()


def test_prune_keeps_the_most_recently_used(tmp_path: Path) -> None:
    for i in range(_pch._KEEP + 2):
        directory = tmp_path / f"key{i}"
        directory.mkdir()
        (directory / "tvm_ffi_pch.h").write_text("")
        gch = directory / "tvm_ffi_pch.h.gch"
        gch.write_text("x")
        os.utime(gch, (1000 + i, 1000 + i))
    _pch._prune(tmp_path)
    kept = sorted(p.parent.name for p in tmp_path.glob("*/tvm_ffi_pch.h.gch"))
    assert kept == [f"key{i}" for i in range(2, _pch._KEEP + 2)]
    assert len(list(tmp_path.glob("*/tvm_ffi_pch.h"))) == _pch._KEEP + 2  # headers stay
