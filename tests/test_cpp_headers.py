"""Runs every C++ header test program (tests/cpp/test_*.cc), plain and under sanitizers.

Each program is compiled with the system C++ compiler (-std=c++17 -Wall -Wextra -Werror) against
our headers and linked with the runtime under test. Companion kernel libraries in
tests/cpp/plugins/*.cc are built first and their directory is passed as argv[1]. Sanitized runs
must finish with no ASan, UBSan or leak report.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import REPO_ROOT, Runtime, compile_c

CPP_TEST_DIR = REPO_ROOT / "tests" / "cpp"
CPP_TESTS = sorted(CPP_TEST_DIR.glob("test_*.cc"))
PLUGINS = sorted((CPP_TEST_DIR / "plugins").glob("*.cc"))
SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


@pytest.fixture(scope="module")
def plugin_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Path]:
    """One plugin directory per runtime flavour (plain / sanitized), built on first use."""
    return {}


def build_plugins(runtime: Runtime, cache: dict[bool, Path], out_dir: Path) -> Path:
    if runtime.sanitized not in cache:
        out_dir.mkdir(parents=True, exist_ok=True)
        for source in PLUGINS:
            compile_c(runtime, [source], out_dir / f"{source.stem}.so", shared=True, cxx=True)
        cache[runtime.sanitized] = out_dir
    return cache[runtime.sanitized]


@pytest.mark.parametrize("source", CPP_TESTS, ids=[p.stem for p in CPP_TESTS])
def test_cpp_program(source: Path, runtime: Runtime, plugin_dirs: dict[bool, Path],
                     tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> None:
    plugins = build_plugins(runtime, plugin_dirs, tmp_path_factory.mktemp("cpp_plugins"))
    exe = compile_c(runtime, [source], tmp_path / source.stem, cxx=True, extra=["-ldl"])
    proc = subprocess.run([str(exe), str(plugins)], capture_output=True, text=True,
                          env=runtime.env(), timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "ok " in output and "FAIL" not in output, output
    for marker in SANITIZER_MARKERS:
        assert marker not in output, output
