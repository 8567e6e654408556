"""``pytest --refleak N`` (tests/refleak.py) catches a test that leaks FFI objects on every run
and passes one that only fills a cache once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent

LEAKY_TESTS = '''
import tvm_ffi
from leakcheck import live_objects  # noqa: F401

KEPT = []
CACHE = []


def test_leaks_an_array_per_run():
    KEPT.append(tvm_ffi.convert([1, 2, 3]))


def test_fills_a_cache_once():
    if not CACHE:
        CACHE.append(tvm_ffi.convert([1, 2, 3]))
'''


def test_refleak_mode_reports_steady_growth_only(tmp_path: Path) -> None:
    (tmp_path / "test_leaky.py").write_text(LEAKY_TESTS)
    (tmp_path / "conftest.py").write_text(
        f"import sys\nsys.path.insert(0, {str(TESTS_DIR)!r})\n"
        "from refleak import pytest_addoption, pytest_pyfunc_call  # noqa: F401\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--refleak", "3",
                           str(tmp_path)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert "1 failed, 1 passed" in proc.stdout, proc.stdout + proc.stderr
    assert "test_leaks_an_array_per_run" in proc.stdout and "live FFI objects grew on every run" in proc.stdout
