"""jax-tvm-ffi -- JAX's bridge to FFI functions, whose extension was built against the reference
and links its libtvm_ffi.so -- runs on our runtime: kernels compiled with tvm_ffi.cpp.load_inline
and Python callbacks become JAX FFI targets called from jax.jit (hosts/run_jax_tvm_ffi.py). The
same program runs on the reference. Skips, visibly, without JAX (an optional test dependency).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from reference_package import JAX_TVM_FFI_DIR, JAX_TVM_FFI_REQUIREMENTS

from .conftest import HOSTS_DIR, Reference, install_peer, peer_env, run_program

pytest.importorskip("jax", reason="JAX is not installed (optional: pip install jax jaxlib)")


@pytest.fixture(scope="module")
def bridge_dir() -> Path:
    return install_peer(JAX_TVM_FFI_DIR, JAX_TVM_FFI_REQUIREMENTS, "jax_tvm_ffi")


@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_ffi_functions_run_as_jax_targets(runtime: str, bridge_dir: Path, reference: Reference,
                                          tmp_path: Path) -> None:
    env = peer_env(runtime, reference, bridge_dir)
    env["JAX_PLATFORMS"] = "cpu"
    output = run_program([sys.executable, HOSTS_DIR / "run_jax_tvm_ffi.py", tmp_path], env)
    for check in ("compiled kernels under jax.jit", "kernel errors reach jax", "python callbacks as targets"):
        assert f"ok {check}" in output, output
