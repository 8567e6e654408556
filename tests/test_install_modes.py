"""Ways of installing the package beyond `pip install .`: an editable install of the checkout,
and a site-packages shared with the reference distribution (apache-tvm-ffi), which unpacks into
the same tvm_ffi/ directory."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import warnings
from pathlib import Path

import pytest
import tvm_ffi
from conftest import REPO_ROOT, run_checked
from tvm_ffi import _dist_check

EDITABLE_CHECK = """
import tvm_ffi, tvm_ffi.testing
from tvm_ffi import libinfo
print(tvm_ffi.__file__)
print(libinfo.find_libtvm_ffi())
print(libinfo.find_include_path())
print(tvm_ffi.get_global_func("testing.echo")([1, "two"])[1])
"""


def test_editable_install_imports_and_finds_its_native_files(tmp_path: Path) -> None:
    if shutil.which("cmake") is None and not (Path(sysconfig.get_path("scripts")) / "cmake").exists():
        pytest.skip("cmake is not available")
    venv = tmp_path / "venv"
    run_checked([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = Path(run_checked([str(python), "-c", purelib]).stdout.strip())
    # the build tools (scikit-build-core, cmake, ninja) come from this environment, after the venv's own packages
    (site / "zz_build_tools.pth").write_text(sysconfig.get_path("purelib") + "\n")
    run_checked([str(python), "-m", "pip", "install", "--no-build-isolation", "--no-deps", "-e", str(REPO_ROOT)])
    lines = run_checked([str(python), "-c", EDITABLE_CHECK], cwd=str(tmp_path)).stdout.splitlines()
    assert lines[0] == str(REPO_ROOT / "python" / "tvm_ffi" / "__init__.py")  # Python files from the checkout
    assert lines[1] == str((site / "tvm_ffi" / "lib" / "libtvm_ffi.so").resolve())  # built files in site-packages
    assert Path(lines[2], "tvm", "ffi", "c_api.h").is_file() and lines[3] == "two"
    config = run_checked([str(venv / "bin" / "tvm-ffi-config"), "--libdir", "--sourcedir"]).stdout.splitlines()
    assert config[0] == str(Path(lines[1]).parent) and Path(config[1], "src", "runtime", "object.c").is_file()


def test_a_reference_distribution_next_to_ours_is_reported(tmp_path: Path) -> None:
    (tmp_path / "tvm_ffi").mkdir()
    (tmp_path / "numpy-2.0.0.dist-info").mkdir()
    assert _dist_check.other_distributions(tmp_path) == []
    (tmp_path / "apache_tvm_ffi-0.1.15.post2.dist-info").mkdir()
    assert _dist_check.other_distributions(tmp_path) == [("apache-tvm-ffi", "0.1.15.post2")]
    with pytest.warns(_dist_check.DuplicateDistributionWarning) as caught:
        _dist_check.warn_if_shared([str(tmp_path / "tvm_ffi")])
    message = str(caught[0].message)
    assert "apache-tvm-ffi 0.1.15.post2" in message and "pip uninstall -y apache-tvm-ffi tvm-ffi-open" in message
    assert "--no-deps" in message and "README" in message


def test_our_own_install_is_not_reported() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _dist_check.warn_if_shared(list(tvm_ffi.__path__))


def test_import_warns_when_the_reference_shares_the_directory(tmp_path: Path) -> None:
    # a site directory where pip put both distributions: our package, and the reference's metadata
    (tmp_path / "tvm_ffi").symlink_to(Path(tvm_ffi.__file__).resolve().parent)
    (tmp_path / "apache_tvm_ffi-0.1.15.post2.dist-info").mkdir()
    code = "import tvm_ffi; print(tvm_ffi.__file__)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp_path / "tvm_ffi" / "__init__.py")
    assert "DuplicateDistributionWarning" in proc.stderr and "apache-tvm-ffi 0.1.15.post2" in proc.stderr
