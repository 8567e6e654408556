"""Apache TVM -- a compiler whose libraries were built against the reference and link its
libtvm_ffi.so -- runs on our runtime: TIR and Relax programs compile with LLVM, run, export as a
library and load back (hosts/run_tvm.py). The same program runs on the reference, so a failure on
ours alone is ours. TVM's wheel is installed on first use into build/tvmpkg, like the reference.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from reference_package import TVM_REQUIREMENTS, TVMPKG_DIR

from .conftest import HOSTS_DIR, Reference, install_peer, peer_env, run_program


@pytest.fixture(scope="module")
def tvm_dir() -> Path:
    return install_peer(TVMPKG_DIR, TVM_REQUIREMENTS, "tvm")


@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_tvm_compiles_and_runs_on_the_runtime(runtime: str, tvm_dir: Path, reference: Reference,
                                             tmp_path: Path) -> None:
    env = peer_env(runtime, reference, tvm_dir)
    flags = ["--reference"] if runtime == "reference" else []
    output = run_program([sys.executable, HOSTS_DIR / "run_tvm.py", tmp_path, *flags], env)
    for check in ("tir compile, run, export and reload", "packed calls from jit code", "relax virtual machine",
                  "ir round trip and devices"):
        assert f"ok {check}" in output, output
