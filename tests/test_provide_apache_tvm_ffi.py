"""The metadata-only ``apache-tvm-ffi`` wheel: requirements on the reference's distribution name
and ``importlib.metadata`` lookups of it find our package, and nothing of ours is overwritten."""

from __future__ import annotations

import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import tvm_ffi
from conftest import run_checked
from tvm_ffi import _dist_check
from tvm_ffi.utils import provide_apache_tvm_ffi


def test_the_wheel_holds_only_metadata_naming_our_version(tmp_path: Path) -> None:
    wheel = provide_apache_tvm_ffi.build_wheel(tmp_path)
    assert wheel.name == f"apache_tvm_ffi-{tvm_ffi.__version__}-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    dist_info = f"apache_tvm_ffi-{tvm_ffi.__version__}.dist-info"
    assert sorted(names) == [f"{dist_info}/{name}" for name in ("METADATA", "RECORD", "WHEEL")]
    metadata = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA").decode()
    assert "Name: apache-tvm-ffi\n" in metadata and f"Version: {tvm_ffi.__version__}\n" in metadata
    assert f"Requires-Dist: tvm-ffi-open=={tvm_ffi.__version__}\n" in metadata


def test_pip_installs_it_and_importlib_metadata_finds_the_name(tmp_path: Path) -> None:
    wheel = provide_apache_tvm_ffi.build_wheel(tmp_path / "wheels")
    target = tmp_path / "site"
    run_checked([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--target", str(target),
                 str(wheel)])
    assert not (target / "tvm_ffi").exists()  # nothing of ours to overwrite
    lookup = "import importlib.metadata as m; print(m.version('apache-tvm-ffi'))"
    found = run_checked([sys.executable, "-c", lookup], env={"PYTHONPATH": str(target)})
    assert found.stdout.strip() == tvm_ffi.__version__
    # the import-time check tells it from the reference by its RECORD: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _dist_check.other_distributions(target) == []
        _dist_check.warn_if_shared([str(target / "tvm_ffi")])


def test_a_requirement_on_the_reference_name_is_then_already_satisfied(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    run_checked([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = str(venv / "bin" / "python")
    wheel = provide_apache_tvm_ffi.build_wheel(tmp_path / "wheels")
    pip = [sys.executable, "-m", "pip", "--python", python]
    run_checked([*pip, "install", "--no-deps", "--no-index", str(wheel)])
    # --no-index: were the requirement unmet, pip would have to download the reference and fail
    check = run_checked([*pip, "install", "--no-deps", "--no-index", "apache-tvm-ffi>=0.1.14"])
    assert "Requirement already satisfied: apache-tvm-ffi" in check.stdout
    unmet = subprocess.run([*pip, "install", "--no-deps", "--no-index", "apache-tvm-ffi<0.1.10"],
                           capture_output=True, text=True)
    assert unmet.returncode != 0  # a requirement that excludes our version is not papered over


def test_the_command_line_writes_the_wheel_where_asked(tmp_path: Path) -> None:
    proc = run_checked([sys.executable, "-m", "tvm_ffi.utils.provide_apache_tvm_ffi", "--wheel-dir", str(tmp_path)])
    assert Path(proc.stdout.strip()).is_file() and Path(proc.stdout.strip()).parent == tmp_path
