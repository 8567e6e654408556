"""A custom module kind -- a C++ subclass of tvm::ffi::ModuleObj (kernels/custom_module.cc), as
compilers such as TVM define their compiled modules -- built against the reference's headers and
against ours, loads on both runtimes (ModuleObj's vtable and typeinfo come from src/cxx_abi in
ours) and works inside the kernel (its own lookups, imports, the cycle check) and from Python:
every ffi.Module* operation (property mask, write formats, source, write to file, imports in both
directions) and a composite library whose embedded description names it. All four pairings give
the same answers.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, Runtime

from .conftest import HOSTS_DIR, KERNELS_DIR, Reference, build_kernel, run_program

HOST = HOSTS_DIR / "run_custom_module.py"


@pytest.fixture(scope="module")
def kernels(reference: Reference, plain_runtime: Runtime,
            tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    """The custom module and the composite library, built against each package's headers."""
    built: dict[str, dict[str, Path]] = {}
    for headers, include_dir, link_dir in (("reference", reference.include_dir, reference.lib_dir),
                                           ("ours", INCLUDE_DIR, plain_runtime.libdir)):
        out = tmp_path_factory.mktemp(f"custom_module_{headers}")
        built[headers] = {
            "echo": build_kernel(KERNELS_DIR / "custom_module.cc", out / "echo.so",
                                 include_dir=include_dir, link_dir=link_dir),
            "other": build_kernel(KERNELS_DIR / "our_c_kernel.c", out / "other.so", include_dir=INCLUDE_DIR,
                                  link_dir=plain_runtime.libdir),
            "bin": build_kernel(KERNELS_DIR / "custom_module_bin.cc", out / "bin.so",
                                include_dir=include_dir, link_dir=link_dir),
        }
    return built


@pytest.mark.parametrize("headers", ["reference", "ours"])
@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_cxx_module_subclass_works_in_kernel_and_from_python(runtime: str, headers: str,
                                                             kernels: dict[str, dict[str, Path]],
                                                             reference: Reference, tmp_path: Path) -> None:
    env = dict(os.environ) if runtime == "ours" else reference.env()
    env.pop("TVM_FFI_TEST_LIB", None)
    built = kernels[headers]
    output = run_program([sys.executable, HOST, built["echo"], built["other"], "check_positive",
                          built["bin"], tmp_path], env)
    for check in ("inside the kernel", "from python", "module operations", "imports both ways",
                  "composite library"):
        assert f"ok {check}" in output, output
