"""A C++ header test program built against both header sets and run on both runtimes.

tests/cpp/test_visit_error_paths.cc states the reference's facts about structural-walk error
records (what the engines record, what FindAccessPaths reports); run reference-on-reference it
checks those expectations themselves, and the other three combinations show that our headers and
our runtime agree with them (the program links the runtime's exported C++ functions, so each
build is linked against the runtime it runs on).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, Runtime, cxx_compiler, run_checked

from .conftest import Reference

PROGRAM = Path(__file__).resolve().parents[1] / "cpp" / "test_visit_error_paths.cc"


@pytest.fixture(scope="module")
def objects(reference: Reference, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The program compiled against each header set."""
    out = tmp_path_factory.mktemp("cpp_program")
    built = {}
    for headers, include_dir in (("ours", INCLUDE_DIR), ("reference", reference.include_dir)):
        obj = out / f"{PROGRAM.stem}.{headers}.o"
        run_checked([cxx_compiler(), "-std=c++17", "-O1", "-g", f"-I{include_dir}", f"-I{PROGRAM.parent}",
                     "-c", str(PROGRAM), "-o", str(obj)])
        built[headers] = obj
    return built


@pytest.mark.parametrize("headers", ["ours", "reference"])
@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_visit_error_records_agree(objects: dict[str, Path], headers: str, runtime: str,
                                   reference: Reference, plain_runtime: Runtime, tmp_path: Path) -> None:
    lib_dir = plain_runtime.libdir if runtime == "ours" else reference.lib_dir
    program = tmp_path / f"{PROGRAM.stem}.{headers}-on-{runtime}"
    run_checked([cxx_compiler(), str(objects[headers]), "-o", str(program), f"-L{lib_dir}", "-ltvm_ffi",
                 f"-Wl,-rpath,{lib_dir}"])
    proc = subprocess.run([str(program)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("ok ") == 4, proc.stdout
