"""Direction 2: a kernel built against OUR headers runs unchanged on the REFERENCE runtime.

kernels/our_c_kernel.c is compiled against include/ and linked with our runtime without an rpath
(so it records `NEEDED libtvm_ffi.so` only). It is then loaded by

* hosts/run_on_ref.c -- a C host built against the reference headers and linked with the
  reference libtvm_ffi.so, which calls the kernel through the C ABI; and
* hosts/run_on_ref.py -- the reference Python package (`tvm_ffi.load_module`), which calls it with
  NumPy arrays and turns its errors into Python exceptions.

Both check that the reference runtime is the only libtvm_ffi mapped into the process.
"""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import INCLUDE_DIR, Runtime

from .conftest import (
    HOSTS_DIR,
    KERNELS_DIR,
    Reference,
    build_kernel,
    build_reference_host,
    expect_binds_to_loading_runtime,
    loaded_runtime,
    run_program,
)


def build_our_kernel(plain_runtime: Runtime, out_dir: Path) -> Path:
    """Our kernel, built as a user of our package would build it."""
    kernel = build_kernel(KERNELS_DIR / "our_c_kernel.c", out_dir / "our_c_kernel.so",
                          include_dir=INCLUDE_DIR, link_dir=plain_runtime.libdir)
    expect_binds_to_loading_runtime(kernel)
    return kernel


def test_our_kernel_runs_on_reference_c_host(reference: Reference, plain_runtime: Runtime,
                                             tmp_path: Path) -> None:
    kernel = build_our_kernel(plain_runtime, tmp_path)
    host = build_reference_host(reference, HOSTS_DIR / "run_on_ref.c", tmp_path / "run_on_ref")
    assert loaded_runtime(host, reference.env()) == reference.library.resolve()

    output = run_program([host, reference.library, kernel], reference.env())
    assert "ok test_check_positive" in output, output


def test_our_kernel_runs_on_reference_python(reference: Reference, plain_runtime: Runtime,
                                             tmp_path: Path) -> None:
    kernel = build_our_kernel(plain_runtime, tmp_path)
    output = run_program([sys.executable, HOSTS_DIR / "run_on_ref.py", kernel, reference.root],
                         reference.env())
    assert "ok TypeError" in output, output
