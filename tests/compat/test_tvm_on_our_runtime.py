"""Apache TVM -- a compiler whose libraries were built against the reference and link its
libtvm_ffi.so -- runs on our runtime: TIR and Relax programs compile with LLVM, run, export as a
library and load back (hosts/run_tvm.py). The same program runs on the reference, so a failure on
ours alone is ours. TVM's wheel is installed on first use into build/tvmpkg, like the reference.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from reference_package import TVM_REQUIREMENTS, TVMPKG_DIR, install_reference

from .conftest import HOSTS_DIR, Reference, run_program


@pytest.fixture(scope="module")
def tvm_dir() -> Path:
    error = install_reference(TVMPKG_DIR, requirements=TVM_REQUIREMENTS, package="tvm")
    if error is not None:
        pytest.skip(f"cannot install {' '.join(TVM_REQUIREMENTS)} into {TVMPKG_DIR}: {error}")
    return TVMPKG_DIR


@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_tvm_compiles_and_runs_on_the_runtime(runtime: str, tvm_dir: Path, reference: Reference,
                                             tmp_path: Path) -> None:
    env = dict(os.environ) if runtime == "ours" else reference.env()
    env.pop("TVM_FFI_TEST_LIB", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH"), str(tvm_dir)]))
    flags = ["--reference"] if runtime == "reference" else []
    output = run_program([sys.executable, HOSTS_DIR / "run_tvm.py", tmp_path, *flags], env)
    for check in ("tir compile, run, export and reload", "packed calls from jit code", "relax virtual machine",
                  "ir round trip and devices"):
        assert f"ok {check}" in output, output
