"""Builds examples/cpp_quickstart with CMake (find_package(tvm_ffi CONFIG) from
`tvm-ffi-config --cmakedir`), runs its C++ loader, and calls the same kernel library from Python.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import tvm_ffi
from conftest import REPO_ROOT, run_checked, scripts_on_path

EXAMPLE_DIR = REPO_ROOT / "examples" / "cpp_quickstart"


def user_env() -> dict[str, str]:
    """A user's shell: the package's console scripts (tvm-ffi-config, cmake) on PATH."""
    env = scripts_on_path()
    env.pop("LD_LIBRARY_PATH", None)
    return env


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the example, configured and built by its build.sh."""
    if shutil.which("cmake", path=user_env()["PATH"]) is None:
        pytest.skip("cmake is not installed")
    copy = tmp_path_factory.mktemp("cpp_quickstart") / "cpp_quickstart"
    shutil.copytree(EXAMPLE_DIR, copy, ignore=shutil.ignore_patterns("build"))
    run_checked(["bash", str(copy / "build.sh")], env=user_env())
    return copy


def test_cmake_package_is_found_next_to_the_headers() -> None:
    cmake_dir = Path(run_checked([sys.executable, "-m", "tvm_ffi.config", "--cmakedir"]).stdout.strip())
    assert (cmake_dir / "tvm_ffi-config.cmake").is_file()
    assert (cmake_dir / "../../../include/tvm/ffi/tvm_ffi.h").resolve().is_file()


def test_cpp_loader_runs_the_kernels(built: Path) -> None:
    out = run_checked([str(built / "build" / "run_example"), str(built / "build" / "add_one_cpp.so")],
                      env=user_env()).stdout
    assert "add_one: 1 2 3 4 5" in out
    assert "shape_of: 5 elements in 1 dimension(s)" in out
    assert "caught ValueError: Check failed: (x.size(0) == y.size(0)) is false: x has 5 elements but y has 3" in out


def test_python_calls_the_cmake_built_library(built: Path) -> None:
    mod = tvm_ffi.load_module(str(built / "build" / "add_one_cpp.so"))
    x = np.arange(4, dtype=np.float32)
    y = np.zeros_like(x)
    mod.add_one(x, y)
    assert y.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert tuple(mod.shape_of(x)) == (4,)
    assert np.from_dlpack(mod.scaled_copy(x, 3.0)).tolist() == [0.0, 3.0, 6.0, 9.0]
    with pytest.raises(TypeError, match="x must be float32, but got int32"):
        mod.add_one(x.astype(np.int32), y)
    with pytest.raises(TypeError, match=r"Mismatched type on argument #1 when calling: "
                                        r"`scaled_copy\(0: DLTensor\*, 1: float\) -> ffi.Tensor`"):
        mod.scaled_copy(x, "two")


def test_run_py_prints_results(built: Path) -> None:
    proc = subprocess.run([sys.executable, str(built / "run.py")], capture_output=True, text=True,
                          env=user_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "add_one: [1.0, 2.0, 3.0, 4.0, 5.0]" in proc.stdout
    assert "scaled_copy: [0.0, 2.0, 4.0, 6.0, 8.0]" in proc.stdout
