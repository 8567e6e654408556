"""apache-tvm-ffi-orcjit -- which links object files into the process with LLVM's ORC JIT and
whose extension was built against the reference and links its libtvm_ffi.so -- runs on our
runtime: a C kernel that accepts Python text only as the ABI's string values, typed C++
functions and a C++ error, all loaded from object files (hosts/run_orcjit.py). The same program
runs on the reference. Skips, visibly, when pip cannot install the package.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from reference_package import ORCJIT_DIR, ORCJIT_REQUIREMENTS

from .conftest import HOSTS_DIR, Reference, install_peer, peer_env, run_program


@pytest.fixture(scope="module")
def orcjit_dir() -> Path:
    if shutil.which("cc") is None or shutil.which("c++") is None:
        pytest.skip("needs cc and c++ to compile the object files")
    return install_peer(ORCJIT_DIR, ORCJIT_REQUIREMENTS, "tvm_ffi_orcjit")


@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_object_files_loaded_by_orcjit_run(runtime: str, orcjit_dir: Path, reference: Reference,
                                           tmp_path: Path) -> None:
    env = peer_env(runtime, reference, orcjit_dir)
    output = run_program([sys.executable, HOSTS_DIR / "run_orcjit.py", tmp_path], env)
    for check in ("python text reaches a C kernel as ABI string values", "typed C++ functions",
                  "C++ errors reach python"):
        assert f"ok {check}" in output, output
