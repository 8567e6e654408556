"""Fuzz harnesses (tests/fuzz) of the parsers of external bytes, run under ASan/UBSan.

Each harness is a libFuzzer entry point (LLVMFuzzerTestOneInput) driven here by
tests/fuzz/fuzz_driver.c, a deterministic mutation driver (this machine's compiler has no
libFuzzer): seeds first, then mutants from a fixed PRNG seed, so any failure reproduces with the
same command. `make test` runs a short run of each; a long run is the same test with more runs:

    TVM_FFI_FUZZ_RUNS=1000000 .venv/bin/pytest -q tests/test_fuzz.py
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, REPO_ROOT, RUNTIME_SOURCES, SANITIZER_FLAGS, Runtime, c_compiler, run_checked

FUZZ_DIR = REPO_ROOT / "tests" / "fuzz"
RUNTIME_DIR = REPO_ROOT / "src" / "runtime"
RUNS = int(os.environ.get("TVM_FFI_FUZZ_RUNS", "20000"))
SEEDS = ("0x9E3779B97F4A7C15", "12345")
# Harnesses of public C API functions link libtvm_ffi.so; the others test internal parsers and
# are linked with the runtime's sources.
PUBLIC_API_HARNESSES = ("dtype", "dlpack")
INTERNAL_HARNESSES = ("library_bin",)


def build_harness(name: str, runtime: Runtime, out_dir: Path) -> Path:
    """Compiles tests/fuzz/fuzz_<name>.c with the driver, sanitized."""
    exe = out_dir / f"fuzz_{name}"
    cmd = [c_compiler(), "-std=c11", "-D_GNU_SOURCE", "-O1", "-g", "-Wall", "-Wextra", "-Werror", *SANITIZER_FLAGS,
           f"-I{INCLUDE_DIR}", f"-I{FUZZ_DIR}", str(FUZZ_DIR / f"fuzz_{name}.c"), str(FUZZ_DIR / "fuzz_driver.c")]
    if name in PUBLIC_API_HARNESSES:
        cmd += ["-o", str(exe), *runtime.link_flags()]
    else:
        cmd += [f"-I{RUNTIME_DIR}", *map(str, RUNTIME_SOURCES), "-o", str(exe), "-ldl", "-lpthread", "-lm"]
    run_checked(cmd)
    return exe


@pytest.mark.parametrize("name", PUBLIC_API_HARNESSES + INTERNAL_HARNESSES)
def test_fuzz_harness_finds_nothing(name: str, sanitized_runtime: Runtime, tmp_path: Path) -> None:
    if name == "library_bin" and not (RUNTIME_DIR / "module_library_bin.c").exists():
        pytest.skip("the library_bin parser has no entry point of its own in this tree")
    exe = build_harness(name, sanitized_runtime, tmp_path)
    for seed in SEEDS:
        proc = subprocess.run([str(exe), str(RUNS), seed], capture_output=True, text=True,
                              env=sanitized_runtime.env(), timeout=max(300, RUNS // 500))
        output = proc.stdout + proc.stderr
        assert proc.returncode == 0, f"fuzz_{name} {RUNS} {seed} failed (rerun with FUZZ_VERBOSE=1):\n{output}"
        assert f" mutants={RUNS} " in output, output
        for marker in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
            assert marker not in output, output


def test_fuzz_driver_reports_a_failing_harness(sanitized_runtime: Runtime, tmp_path: Path) -> None:
    """The driver really runs the mutants: a harness that aborts on one byte pattern is caught."""
    harness = tmp_path / "fuzz_trap.c"
    harness.write_text(
        '#include <stdio.h>\n#include <stdlib.h>\n#include "fuzz_harness.h"\n'
        'size_t fuzz_seed_count(void) { return 1; }\n'
        'const uint8_t* fuzz_seed(size_t i, size_t* size) { (void)i; *size = 2; return (const uint8_t*)"ab"; }\n'
        'int LLVMFuzzerTestOneInput(const uint8_t* d, size_t n) {\n'
        '  FUZZ_ASSERT(!(n >= 1 && d[0] == 0xFF));\n  return 0;\n}\n')
    exe = tmp_path / "fuzz_trap"
    run_checked([c_compiler(), "-std=c11", "-O1", *SANITIZER_FLAGS, f"-I{FUZZ_DIR}", str(harness),
                 str(FUZZ_DIR / "fuzz_driver.c"), "-o", str(exe)])
    proc = subprocess.run([str(exe), "100000"], capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    assert "fuzz invariant failed" in proc.stderr
