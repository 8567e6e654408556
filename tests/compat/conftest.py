"""Fixtures of the binary-compatibility tests.

The reference package (PyPI apache-tvm-ffi, pinned below) is installed on first use into
`build/refpkg` with `pip install --target` -- never into the test environment -- and reused by
later runs (`build/` is git-ignored). Its headers and `libtvm_ffi.so` build and serve the
"reference" side; our headers and runtime (tests/conftest.py fixtures) the other. When the
package cannot be installed, the compatibility tests are skipped with pip's error as the reason.

This directory is a package (`__init__.py`) so that this file does not shadow `tests/conftest.py`
as the top-level module `conftest`, which the C runtime tests import helpers from.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import SANITIZER_FLAGS, c_compiler, cxx_compiler, run_checked
from reference_package import REFERENCE_REQUIREMENT, REFPKG_DIR, install_reference

COMPAT_DIR = Path(__file__).resolve().parent
KERNELS_DIR = COMPAT_DIR / "kernels"
HOSTS_DIR = COMPAT_DIR / "hosts"


@dataclass(frozen=True)
class Reference:
    """The installed reference package: headers, runtime library, Python package."""

    root: Path  # the pip --target directory; put it on PYTHONPATH to import the reference

    @property
    def include_dir(self) -> Path:
        return self.root / "tvm_ffi" / "include"

    @property
    def lib_dir(self) -> Path:
        return self.root / "tvm_ffi" / "lib"

    @property
    def library(self) -> Path:
        return self.lib_dir / "libtvm_ffi.so"

    def env(self) -> dict[str, str]:
        """Environment of a process served by the reference: its lib dir is searched first (an
        rpath does not beat LD_LIBRARY_PATH) and Python imports the reference `tvm_ffi` first."""
        env = dict(os.environ)
        env["LD_LIBRARY_PATH"] = os.pathsep.join(filter(None, [str(self.lib_dir), env.get("LD_LIBRARY_PATH")]))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(self.root), env.get("PYTHONPATH")]))
        env.pop("TVM_FFI_TEST_LIB", None)
        return env


@pytest.fixture(scope="session")
def reference() -> Reference:
    """The reference package, installed into build/refpkg on first use."""
    error = install_reference(REFPKG_DIR)
    if error is not None:
        pytest.skip(f"cannot install the reference package {REFERENCE_REQUIREMENT} into {REFPKG_DIR}: "
                    f"{error}")
    ref = Reference(REFPKG_DIR)
    for path in (ref.include_dir / "tvm" / "ffi" / "c_api.h", ref.library):
        if not path.exists():
            pytest.fail(f"reference package in {REFPKG_DIR} lacks {path}; delete the directory to reinstall")
    return ref


def build_kernel(source: Path, output: Path, *, include_dir: Path, link_dir: Path,
                 sanitized: bool = False) -> Path:
    """Builds a kernel library the way a kernel author would: -O2 -fPIC -shared against
    `include_dir`, linked with `-L<link_dir> -ltvm_ffi` and deliberately without an rpath, so it
    records `NEEDED libtvm_ffi.so` and binds to whichever runtime the loading process has.
    With `sanitized`, the kernel is instrumented like the sanitized host that loads it."""
    cxx = source.suffix == ".cc"
    cmd = [cxx_compiler() if cxx else c_compiler(), "-std=c++17" if cxx else "-std=c11",
           "-O2", "-g", "-fPIC", "-shared", "-Wall", "-Wextra"]
    if not cxx:
        cmd.append("-Werror")  # the reference C++ headers are not ours to keep warning-free
    if sanitized:
        cmd += SANITIZER_FLAGS
    cmd += [f"-I{include_dir}", str(source), "-o", str(output), f"-L{link_dir}", "-ltvm_ffi"]
    run_checked(cmd)
    return output


def run_behaviour_script(script: Path, lib: Path, env: dict[str, str], cwd: Path) -> list[str]:
    """Runs a behaviour script (scripts/*.py) on a kernel library; its printed observations."""
    import sys

    proc = subprocess.run([sys.executable, str(script), str(lib)], capture_output=True, text=True,
                          env=env, cwd=str(cwd), timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.splitlines()


def our_package_env() -> dict[str, str]:
    """This process's environment without the paths that would select the reference package."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}


def run_json_script(script: Path, args: list[str], env: dict[str, str]) -> Any:
    """Runs an observation script that prints one JSON document; returns the document."""
    proc = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout)


def observe_on_both_runtimes(script: Path, lib: Path, reference: Reference, cwd: Path,
                             min_lines: int) -> list[str]:
    """Runs a behaviour script on `lib` under our package and under the reference; fails with
    every differing line unless both print the same more than `min_lines` observations, which
    are returned."""
    ours = run_behaviour_script(script, lib, our_package_env(), cwd)
    ref = run_behaviour_script(script, lib, reference.env(), cwd)
    assert len(ours) == len(ref) > min_lines
    differences = [f"ours:      {a}\nreference: {b}" for a, b in zip(ours, ref) if a != b]
    assert not differences, "\n".join(differences)
    return ours


def observe_built_with_our_headers(script: Path, source: Path, built_with_reference: Path,
                                   our_libdir: Path, reference: Reference, tmp_path: Path) -> list[str]:
    """Builds `source` (written for the reference headers) against ours and runs `script` on it
    under our package and under the reference; the observations must be those of the
    reference-header build under our package."""
    from conftest import INCLUDE_DIR

    ours_lib = build_kernel(source, tmp_path / f"ours_{source.stem}.so", include_dir=INCLUDE_DIR,
                            link_dir=our_libdir)
    env = our_package_env()
    observed = run_behaviour_script(script, ours_lib, env, tmp_path)
    assert observed == run_behaviour_script(script, built_with_reference, env, tmp_path)
    assert observed == run_behaviour_script(script, ours_lib, reference.env(), tmp_path)
    return observed


def build_reference_host(reference: Reference, source: Path, output: Path) -> Path:
    """Builds a host program against the reference headers, linked with the reference runtime."""
    cmd = [c_compiler(), "-std=c11", "-g", "-Wall", "-Wextra", "-Werror", f"-I{reference.include_dir}",
           str(source), "-o", str(output), f"-L{reference.lib_dir}", "-ltvm_ffi",
           f"-Wl,-rpath,{reference.lib_dir}", "-ldl"]
    run_checked(cmd)
    return output


def dynamic_section(binary: Path) -> str:
    """`readelf -d` of a binary (its NEEDED, RPATH and RUNPATH entries)."""
    if shutil.which("readelf") is None:
        pytest.skip("readelf (binutils) is not available")
    return run_checked(["readelf", "-d", str(binary)]).stdout


def expect_binds_to_loading_runtime(kernel: Path) -> None:
    """A kernel needs `libtvm_ffi.so` by soname and carries no search path of its own."""
    dynamic = dynamic_section(kernel)
    assert "Shared library: [libtvm_ffi.so]" in dynamic, dynamic
    assert "(RPATH)" not in dynamic and "(RUNPATH)" not in dynamic, dynamic


def loaded_runtime(program: Path, env: dict[str, str]) -> Path:
    """The libtvm_ffi.so that the dynamic loader picks for `program` under `env` (from ldd)."""
    for line in run_checked(["ldd", str(program)], env=env).stdout.splitlines():
        name, _, location = line.strip().partition(" => ")
        if name == "libtvm_ffi.so":
            return Path(location.split(" (")[0]).resolve()
    pytest.fail(f"{program} does not load libtvm_ffi.so")


def run_program(cmd: list[str | Path], env: dict[str, str]) -> str:
    """Runs a host program; fails with its output unless it exits 0 with no sanitizer report."""
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env, timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"exit status {proc.returncode}\n{output}"
    for marker in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
        assert marker not in output, output
    return output


def install_peer(target: Path, requirements: tuple[str, ...], package: str) -> Path:
    """A project built against the reference (TVM, jax-tvm-ffi), installed on first use into
    `target` like the reference package; skips the test when pip cannot install it."""
    error = install_reference(target, requirements=requirements, package=package)
    if error is not None:
        pytest.skip(f"cannot install {' '.join(requirements)} into {target}: {error}")
    return target


def peer_env(runtime: str, reference: Reference, peer_dir: Path) -> dict[str, str]:
    """Environment of a host running a peer project on `runtime` ("ours" or "reference")."""
    env = dict(os.environ) if runtime == "ours" else reference.env()
    env.pop("TVM_FFI_TEST_LIB", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH"), str(peer_dir)]))
    return env
