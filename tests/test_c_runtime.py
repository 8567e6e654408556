"""Runs every C-level runtime test program (tests/c/test_*.c), plain and under sanitizers.

Each program is compiled with the system C compiler against our headers and linked with the
runtime under test. Companion shared libraries in tests/c/plugins/*.c are built first and their
directory is passed as argv[1]. Sanitized runs must finish with no ASan, UBSan or leak report.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import C_TEST_DIR, Runtime, compile_c

C_TESTS = sorted(C_TEST_DIR.glob("test_*.c"))
PLUGINS = sorted((C_TEST_DIR / "plugins").glob("*.c"))
SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


def build_plugins(runtime: Runtime, out_dir: Path) -> Path:
    """Builds every plugin library into out_dir."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for source in PLUGINS:
        compile_c(runtime, [source], out_dir / f"{source.stem}.so", shared=True)
    return out_dir


@pytest.mark.parametrize("source", C_TESTS, ids=[p.stem for p in C_TESTS])
def test_c_program(source: Path, runtime: Runtime, tmp_path: Path) -> None:
    import subprocess

    plugin_dir = build_plugins(runtime, tmp_path / "plugins")
    exe = compile_c(runtime, [source], tmp_path / source.stem)
    proc = subprocess.run([str(exe), str(plugin_dir)], capture_output=True, text=True,
                          env=runtime.env(), timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    for marker in SANITIZER_MARKERS:
        assert marker not in output, output
