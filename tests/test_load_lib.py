"""``tvm_ffi.libinfo.load_lib_module`` / ``load_lib_ctypes``: how extension packages load the
shared library of one of their CMake targets (reference signatures)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import tvm_ffi
from _kernel_lib import build_kernel
from tvm_ffi import libinfo


@pytest.fixture(scope="module")
def lib_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding libpylayer_kernel.so, as a package's build tree would."""
    out = tmp_path_factory.mktemp("libs")
    shutil.copy(build_kernel(tmp_path_factory.mktemp("kernel")), out / "libpylayer_kernel.so")
    return out


def test_load_lib_module_from_extra_paths(lib_dir: Path) -> None:
    mod = libinfo.load_lib_module("no-such-distribution", "pylayer_kernel", extra_lib_paths=[lib_dir])
    assert isinstance(mod, tvm_ffi.Module)
    assert mod.live_objects() >= 0  # a function the kernel exports


def test_load_lib_ctypes_next_to_the_package_and_in_extra_paths(lib_dir: Path) -> None:
    runtime = libinfo.load_lib_ctypes("tvm_ffi", "tvm_ffi", "RTLD_GLOBAL")  # tvm_ffi/lib
    assert Path(runtime._name).name == "libtvm_ffi.so" and hasattr(runtime, "TVMFFIGetTypeInfo")
    kernel = libinfo.load_lib_ctypes("no-such-distribution", "pylayer_kernel", "RTLD_LOCAL", [lib_dir])
    assert Path(kernel._name) == (lib_dir / "libpylayer_kernel.so").resolve()


def test_missing_target_lists_the_searched_directories(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match=r"Cannot find library libnothing_here.so of target `nothing_here`"
                                           r"(.|\n)*" + str(tmp_path)):
        libinfo.load_lib_module("no-such-distribution", "nothing_here", extra_lib_paths=[tmp_path])


def test_argument_errors(lib_dir: Path) -> None:
    with pytest.raises(TypeError, match=r"extra_lib_paths\[0\] must be a pathlib.Path, got str"):
        libinfo.load_lib_ctypes("x", "pylayer_kernel", "RTLD_LOCAL", [str(lib_dir)])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="mode must be 'RTLD_LOCAL' or 'RTLD_GLOBAL', got 'RTLD_NOW'"):
        libinfo.load_lib_ctypes("x", "pylayer_kernel", "RTLD_NOW", [lib_dir])


def test_find_library_by_basename_searches_given_directories(tmp_path: Path) -> None:
    lib = tmp_path / "libdummy_target.so"
    lib.write_bytes(b"")
    found = tvm_ffi.libinfo._find_library_by_basename("no-such-dist", "dummy_target", extra_lib_paths=[tmp_path])
    assert found == lib.resolve()
    with pytest.raises(TypeError, match=r"extra_lib_paths\[1\] must be a pathlib\.Path"):
        tvm_ffi.libinfo._find_library_by_basename("no-such-dist", "dummy_target",
                                                  extra_lib_paths=[tmp_path, str(tmp_path)])  # type: ignore[list-item]
    with pytest.raises(RuntimeError, match="Cannot find library"):
        tvm_ffi.libinfo._find_library_by_basename("no-such-dist", "dummy_target",
                                                  use_fallback_build_path=False, use_env_path=False)


def test_a_library_shipped_with_tvm_ffi_is_found_under_the_reference_distribution_name() -> None:
    # Extension packages written for the reference name its distribution; the libraries sit next
    # to our tvm_ffi package whatever that distribution's metadata lists.
    found = tvm_ffi.libinfo._find_library_by_basename("apache-tvm-ffi", "tvm_ffi_testing", use_env_path=False)
    assert found == (Path(tvm_ffi.__file__).parent / "lib" / "libtvm_ffi_testing.so").resolve()


def test_resolve_and_validate_returns_the_first_accepted_candidate(tmp_path: Path) -> None:
    # Projects built on the reference (TVM's RPC server) call this helper by name.
    (tmp_path / "b").mkdir()
    candidates = [tmp_path / "a", tmp_path / "b" / ".." / "b", tmp_path / "c"]
    assert libinfo._resolve_and_validate(candidates, Path.is_dir) == str(tmp_path / "b")
    assert libinfo._resolve_and_validate(candidates, lambda p: p / "x") == str(tmp_path / "a" / "x")

    def refuse(path: Path) -> bool:
        raise AssertionError(f"{path} is not usable")

    assert libinfo._resolve_and_validate(candidates, refuse) is None
    assert libinfo._resolve_and_validate([], Path.is_dir) is None
