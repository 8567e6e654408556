"""Configuring and building small CMake projects against the installed tvm_ffi's CMake package,
as a user's project would (``find_package(tvm_ffi CONFIG)``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_checked, scripts_on_path


def cmake() -> str:
    """The cmake executable; the test is skipped without one."""
    found = shutil.which("cmake", path=scripts_on_path()["PATH"])
    if found is None:
        pytest.skip("cmake is not installed")
    return found


def configure(project: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """Configures the CMake project in `project` (build tree `project/build`) against the
    installed tvm_ffi's CMake package, without failing on a configure error."""
    import tvm_ffi.libinfo

    return subprocess.run([cmake(), "-S", str(project), "-B", str(project / "build"),
                           f"-Dtvm_ffi_ROOT={tvm_ffi.libinfo.find_cmake_path()}",
                           f"-DPython3_EXECUTABLE={sys.executable}",
                           f"-DPython_EXECUTABLE={sys.executable}", *options],
                          capture_output=True, text=True, env=scripts_on_path(), timeout=300)


def build(project: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """Configures and builds the CMake project in `project`, failing the test on any error."""
    configured = configure(project, *options)
    assert configured.returncode == 0, configured.stdout + configured.stderr
    return run_checked([cmake(), "--build", str(project / "build")], env=scripts_on_path(), timeout=300)
