"""The reference package (PyPI apache-tvm-ffi, pinned) as a peer to compare against.

Tests (tests/compat, tests/test_abi_layout.py) and benchmarks install it with
`pip install --target build/refpkg`, never into the environment that holds our package: putting
that directory first on PYTHONPATH imports the reference `tvm_ffi`, leaving it out imports ours.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REFERENCE_REQUIREMENT = "apache-tvm-ffi==0.1.15.post2"
# typing-extensions is a runtime dependency of the reference Python package; it goes into the
# same target directory so `PYTHONPATH=build/refpkg` alone makes `import tvm_ffi` work.
REFERENCE_PYTHON_DEPS = ("typing-extensions>=4.13",)
REPO_ROOT = Path(__file__).resolve().parent.parent
REFPKG_DIR = REPO_ROOT / "build" / "refpkg"
# Apache TVM, a compiler built on the reference (its libraries link the reference's libtvm_ffi.so),
# for tests/compat/test_tvm_on_our_runtime.py: a large real project run on our runtime. Its wheel
# is installed without its dependency on apache-tvm-ffi; ml_dtypes (its other dependency besides
# NumPy) goes into the same directory.
TVM_REQUIREMENTS = ("apache-tvm==0.27.0.post1", "ml_dtypes>=0.5")
TVMPKG_DIR = REPO_ROOT / "build" / "tvmpkg"
# jax-tvm-ffi, JAX's bridge to FFI functions (its extension links the reference's libtvm_ffi.so),
# for tests/compat/test_jax_tvm_ffi_on_our_runtime.py; JAX itself comes from the test venv.
JAX_TVM_FFI_REQUIREMENTS = ("jax-tvm-ffi==0.1.3",)
JAX_TVM_FFI_DIR = REPO_ROOT / "build" / "jaxtvmffipkg"
# apache-tvm-ffi-orcjit, which loads object files with LLVM's ORC JIT (its extension links the
# reference's libtvm_ffi.so), for tests/compat/test_orcjit_on_our_runtime.py.
ORCJIT_REQUIREMENTS = ("apache-tvm-ffi-orcjit==0.1.3",)
ORCJIT_DIR = REPO_ROOT / "build" / "orcjitpkg"


def install_reference(target: Path = REFPKG_DIR, python: str = sys.executable,
                      requirements: tuple[str, ...] = (REFERENCE_REQUIREMENT, *REFERENCE_PYTHON_DEPS),
                      package: str = "tvm_ffi") -> str | None:
    """Installs the reference (or another peer's `requirements`, whose top-level Python package
    is `package`) into `target` with `python -m pip` unless it is there already.

    Returns None on success, else pip's error text. The install goes to a staging directory that
    is renamed into place, so a concurrent session never sees half a package.
    """
    if (target / package).is_dir():
        return None
    staging = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    cmd = [python, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check", "--target",
           str(staging), *requirements]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as err:
        shutil.rmtree(staging, ignore_errors=True)
        return str(err)
    if proc.returncode != 0 or not (staging / package).is_dir():
        shutil.rmtree(staging, ignore_errors=True)
        return (proc.stderr or proc.stdout).strip()[-2000:] or f"pip exited with {proc.returncode}"
    if target.exists() and not (target / package).is_dir():
        shutil.rmtree(target, ignore_errors=True)  # leftover of an interrupted install
    try:
        staging.rename(target)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)  # another session installed it first
    return None
