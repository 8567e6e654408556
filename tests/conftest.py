"""Shared fixtures: locating the runtime under test and compiling C programs against it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from refleak import pytest_addoption, pytest_pyfunc_call  # noqa: F401  (pytest --refleak N)

REPO_ROOT = Path(__file__).resolve().parent.parent
# tools/ holds helpers shared by tests and benchmarks (e.g. installing the reference package).
sys.path.insert(0, str(REPO_ROOT / "tools"))
INCLUDE_DIR = REPO_ROOT / "include"
RUNTIME_SOURCES = sorted((REPO_ROOT / "src" / "runtime").rglob("*.c"))
# The C++ shim compiled into the same library (the reference's exported C++ symbols).
CXX_ABI_SOURCES = sorted((REPO_ROOT / "src" / "cxx_abi").glob("*.cc"))
EXPORTS_MAP = REPO_ROOT / "src" / "runtime" / "exports.map"
C_TEST_DIR = REPO_ROOT / "tests" / "c"

SANITIZER_FLAGS = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined"]
SANITIZER_ENV = {
    "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0:strict_string_checks=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
    "LSAN_OPTIONS": "exitcode=23",
}


def c_compiler() -> str:
    """The system C compiler (what a kernel author would use)."""
    return os.environ.get("CC", "cc")


def cxx_compiler() -> str:
    """The system C++ compiler."""
    return os.environ.get("CXX", "c++")


def scripts_on_path() -> dict[str, str]:
    """This process's environment with the venv's console scripts (tvm-ffi-config, cmake, ninja)
    first on PATH, as a user of the installed package has them."""
    import sysconfig

    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([sysconfig.get_path("scripts"), env.get("PATH", "")])
    return env


def find_nvcc() -> str | None:
    """The CUDA compiler on PATH or in the toolkit's usual place, or None."""
    default = Path("/usr/local/cuda/bin/nvcc")
    return shutil.which("nvcc") or (str(default) if default.exists() else None)


@dataclass(frozen=True)
class Runtime:
    """A libtvm_ffi.so to test against, plus how to run programs linked with it."""

    library: Path
    sanitized: bool

    @property
    def libdir(self) -> Path:
        return self.library.parent

    @property
    def cflags(self) -> list[str]:
        return SANITIZER_FLAGS if self.sanitized else []

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["LD_LIBRARY_PATH"] = os.pathsep.join(filter(None, [str(self.libdir), env.get("LD_LIBRARY_PATH")]))
        if self.sanitized:
            env.update(SANITIZER_ENV)
        return env

    def link_flags(self) -> list[str]:
        return [f"-L{self.libdir}", "-ltvm_ffi", f"-Wl,-rpath,{self.libdir}", "-ldl", "-lpthread"]


def run_checked(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Runs a command, failing the test with its output when it exits non-zero."""
    proc = subprocess.run(cmd, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    if proc.returncode != 0:
        pytest.fail(f"command failed ({proc.returncode}): {' '.join(map(str, cmd))}\n{proc.stdout}\n{proc.stderr}")
    return proc


def installed_runtime_library() -> Path:
    """The runtime library of the installed package, or TVM_FFI_TEST_LIB when set (development)."""
    override = os.environ.get("TVM_FFI_TEST_LIB")
    if override:
        return Path(override).resolve()
    from tvm_ffi import libinfo

    return Path(libinfo.find_libtvm_ffi())


def build_sanitized_runtime(out_dir: Path) -> Path:
    """Compiles the runtime from source with AddressSanitizer and UBSan."""
    out_dir.mkdir(parents=True, exist_ok=True)
    library = out_dir / "libtvm_ffi.so"
    cxx_objects = []
    for source in CXX_ABI_SOURCES:
        obj = out_dir / f"{source.stem}.o"
        run_checked([cxx_compiler(), "-std=c++17", "-O1", "-g", "-fPIC", "-fvisibility=hidden",
                     "-fvisibility-inlines-hidden", *SANITIZER_FLAGS, f"-I{INCLUDE_DIR}", "-c", str(source),
                     "-o", str(obj)])
        cxx_objects.append(str(obj))
    cmd = [
        c_compiler(), "-std=c11", "-D_GNU_SOURCE", "-O1", "-g", "-fPIC", "-shared", "-fvisibility=hidden",
        *SANITIZER_FLAGS, f"-I{INCLUDE_DIR}", *map(str, RUNTIME_SOURCES), *cxx_objects,
        f"-Wl,--version-script={EXPORTS_MAP}", "-Wl,-soname,libtvm_ffi.so",
        "-o", str(library), "-ldl", "-lpthread", "-lm", "-lstdc++",
    ]
    run_checked(cmd)
    return library


@pytest.fixture(scope="session")
def plain_runtime() -> Runtime:
    """The runtime as installed (what users get)."""
    return Runtime(installed_runtime_library(), sanitized=False)


@pytest.fixture(scope="session")
def sanitized_runtime(tmp_path_factory: pytest.TempPathFactory) -> Runtime:
    """The runtime rebuilt with -fsanitize=address,undefined."""
    if shutil.which(c_compiler()) is None:
        pytest.skip(f"no C compiler ({c_compiler()}) to build the sanitized runtime")
    return Runtime(build_sanitized_runtime(tmp_path_factory.mktemp("asan")), sanitized=True)


@pytest.fixture(params=["plain", "sanitized"])
def runtime(request: pytest.FixtureRequest) -> Runtime:
    """Each C-level test runs against the installed runtime and the sanitized build."""
    return request.getfixturevalue(f"{request.param}_runtime")


def compile_c(runtime: Runtime, sources: list[Path], output: Path, *, shared: bool = False,
              extra: list[str] | None = None, cxx: bool = False) -> Path:
    """Compiles C (or C++) sources against our headers and links them with `runtime`."""
    std = "-std=c++17" if cxx else "-std=c11"
    cmd = [cxx_compiler() if cxx else c_compiler(), std, "-g", "-Wall", "-Wextra", "-Werror",
           f"-I{INCLUDE_DIR}", f"-I{C_TEST_DIR}", *runtime.cflags]
    if shared:
        cmd += ["-fPIC", "-shared"]
    cmd += [*map(str, sources), "-o", str(output), *(extra or []), *runtime.link_flags()]
    run_checked(cmd)
    return output


@pytest.fixture(scope="session")
def add_one_cpu(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """examples/stable_c_abi's add_one_cpu kernel, built against the installed package once."""
    import tvm_ffi
    from _kernel_lib import compile_kernel

    source = REPO_ROOT / "examples" / "stable_c_abi" / "src" / "add_one_cpu.c"
    library = compile_kernel(source, tmp_path_factory.mktemp("add_one") / "add_one_cpu.so")
    func = tvm_ffi.load_module(library).add_one_cpu
    yield func
    del func
