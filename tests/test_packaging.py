"""The installed package: where it puts things, the tvm-ffi-config command, and how importing
tvm_ffi loads the runtime."""

from __future__ import annotations

import ctypes
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import tvm_ffi
from conftest import INCLUDE_DIR, c_compiler, run_checked, scripts_on_path
from tvm_ffi import libinfo

DIST_NAME = "tvm-ffi-open"
ABI_VERSION = (0, 1, 16)
# Modules a path query must never pull in: frameworks, and (once it exists) the native extension.
HEAVY_MODULES = ("numpy", "torch", "tvm_ffi._core")


def config_commands() -> dict[str, list[str]]:
    """The two spellings of the config command in this environment."""
    script = Path(sysconfig.get_path("scripts")) / "tvm-ffi-config"
    return {"script": [str(script)], "module": [sys.executable, "-m", "tvm_ffi.config"]}


@pytest.fixture(params=["script", "module"])
def config_cmd(request: pytest.FixtureRequest) -> list[str]:
    cmd = config_commands()[request.param]
    if request.param == "script" and not Path(cmd[0]).exists():
        pytest.fail(f"console script {cmd[0]} is not installed")
    return cmd


def python(code: str, **kwargs: object) -> str:
    """Runs Python code in a fresh interpreter; returns its stdout."""
    return run_checked([sys.executable, "-c", code], **kwargs).stdout


# ---- libinfo ----

def test_libinfo_paths_exist() -> None:
    lib = Path(libinfo.find_libtvm_ffi())
    assert lib.is_file() and lib.name == "libtvm_ffi.so" and lib.parent.name == "lib"
    include = Path(libinfo.find_include_path())
    assert (include / "tvm" / "ffi" / "c_api.h").is_file()
    assert (include / "tvm" / "ffi" / "extra" / "c_env_api.h").is_file()
    assert (Path(libinfo.find_dlpack_include_path()) / "dlpack" / "dlpack.h").is_file()
    # the reference's wheel layout, which build scripts of other projects name directly
    third_party = Path(tvm_ffi.__file__).parent / "3rdparty" / "dlpack" / "include" / "dlpack" / "dlpack.h"
    assert third_party.read_bytes() == (Path(libinfo.find_dlpack_include_path()) / "dlpack" / "dlpack.h").read_bytes()
    paths = libinfo.include_paths()
    assert len(paths) == len(set(paths)) and libinfo.find_include_path() in paths
    assert libinfo.find_dlpack_include_path() in paths
    # everything lives inside the installed package
    package_dir = Path(tvm_ffi.__file__).resolve().parent
    assert lib.resolve().is_relative_to(package_dir) and include.resolve().is_relative_to(package_dir)


def test_libinfo_reports_missing_files_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(libinfo, "_PACKAGE_DIRS", [tmp_path])
    monkeypatch.setattr(libinfo, "_SOURCE_TREE", tmp_path / "checkout")
    for find in (libinfo.find_libtvm_ffi, libinfo.find_include_path, libinfo.find_dlpack_include_path,
                 libinfo.find_cmake_path, libinfo.find_source_path, libinfo.find_python_helper_include_path,
                 libinfo._load_runtime_ctypes):
        with pytest.raises(RuntimeError, match=re.escape(str(tmp_path))):
            find()


def test_libinfo_find_functions_of_the_reference() -> None:
    package_dir = Path(tvm_ffi.__file__).resolve().parent
    assert libinfo.find_source_path() == str(package_dir) and (package_dir / "src" / "runtime").is_dir()
    core_path = Path(libinfo.find_cython_lib())
    assert core_path.parent == package_dir and core_path.name.startswith("_core.") and core_path.suffix == ".so"
    # our extension is plain C: there is no Cython helper header to point at
    with pytest.raises(RuntimeError, match="tvm_ffi_python_helpers.h"):
        libinfo.find_python_helper_include_path()


def test_libinfo_prefers_the_package_and_falls_back_to_a_source_checkout(monkeypatch: pytest.MonkeyPatch,
                                                                         tmp_path: Path) -> None:
    package, checkout = tmp_path / "site" / "tvm_ffi", tmp_path / "checkout"
    (checkout / "cmake").mkdir(parents=True)
    (checkout / "src").mkdir()
    (checkout / "include" / "tvm" / "ffi").mkdir(parents=True)
    (checkout / "include" / "tvm" / "ffi" / "c_api.h").touch()
    (checkout / "include" / "dlpack").mkdir()
    (checkout / "include" / "dlpack" / "dlpack.h").touch()
    package.mkdir(parents=True)
    monkeypatch.setattr(libinfo, "_PACKAGE_DIRS", [package])
    monkeypatch.setattr(libinfo, "_SOURCE_TREE", checkout)
    assert libinfo.find_cmake_path() == str(checkout / "cmake")
    assert libinfo.find_source_path() == str(checkout)
    assert libinfo.find_include_path() == libinfo.find_dlpack_include_path() == str(checkout / "include")
    (package / "share" / "cmake" / "tvm_ffi").mkdir(parents=True)
    (package / "src").mkdir()
    assert libinfo.find_cmake_path() == str(package / "share" / "cmake" / "tvm_ffi")
    assert libinfo.find_source_path() == str(package)


def test_installed_headers_equal_repository_headers() -> None:
    installed_root = Path(libinfo.find_include_path())
    repo_files = {p.relative_to(INCLUDE_DIR) for p in INCLUDE_DIR.rglob("*") if p.is_file()}
    installed_files = {p.relative_to(installed_root) for p in installed_root.rglob("*") if p.is_file()}
    assert installed_files == repo_files
    changed = [str(p) for p in sorted(repo_files)
               if (INCLUDE_DIR / p).read_bytes() != (installed_root / p).read_bytes()]
    assert not changed, f"installed headers differ from include/ (reinstall the package): {changed}"


# ---- tvm-ffi-config ----

def test_config_flags(config_cmd: list[str]) -> None:
    include, dlpack_include, lib = (libinfo.find_include_path(), libinfo.find_dlpack_include_path(),
                                    libinfo.find_libtvm_ffi())
    libdir = os.path.dirname(lib)
    expected = {
        "--includedir": include,
        "--dlpack-includedir": dlpack_include,
        "--libdir": libdir,
        "--libfiles": lib,
        "--sourcedir": libinfo.find_source_path(),
        "--cython-lib-path": libinfo.find_cython_lib(),
        # both directories even when they are one, as the reference prints them
        "--cflags": f"-I{include} -I{dlpack_include}",
        "--cxxflags": f"-I{include} -I{dlpack_include} -std=c++17",
        "--ldflags": f"-L{libdir}",  # no rpath: kernels stay relocatable
        "--rpath": f"-Wl,-rpath,{libdir}",
        "--libs": "-ltvm_ffi",
    }
    for flag, value in expected.items():
        assert run_checked([*config_cmd, flag]).stdout == value + "\n", flag
    # several flags at once: one line each, in the reference's order
    out = run_checked([*config_cmd, "--libs", "--cflags", "--ldflags", "--libdir"]).stdout
    assert out.splitlines() == [expected["--libdir"], expected["--cflags"], expected["--libs"], expected["--ldflags"]]


def test_config_cmakedir_prints_the_installed_cmake_package(config_cmd: list[str]) -> None:
    cmake_dir = Path(tvm_ffi.__file__).resolve().parent / "share" / "cmake" / "tvm_ffi"
    proc = subprocess.run([*config_cmd, "--cmakedir"], capture_output=True, text=True)
    if not cmake_dir.is_dir():  # the CMake package is installed by the C++ API's build rules
        assert proc.returncode == 1 and "cannot find the CMake package" in proc.stderr
        pytest.skip(f"this build installs no CMake package at {cmake_dir}")
    assert proc.returncode == 0 and proc.stdout == f"{cmake_dir}\n"


def test_kernels_built_with_config_flags_carry_no_rpath(config_cmd: list[str], tmp_path: Path) -> None:
    if shutil.which("readelf") is None or shutil.which(c_compiler()) is None:
        pytest.skip("needs readelf and a C compiler")
    (tmp_path / "k.c").write_text("#include <tvm/ffi/c_api.h>\nint k(void) { return TVMFFIGetTypeInfo(0) != 0; }\n")
    flags = run_checked([*config_cmd, "--cflags", "--ldflags", "--libs"]).stdout.split()
    run_checked([c_compiler(), "-shared", "-fPIC", str(tmp_path / "k.c"), "-o", str(tmp_path / "k.so"), *flags])
    dynamic = run_checked(["readelf", "-d", str(tmp_path / "k.so")]).stdout
    assert "Shared library: [libtvm_ffi.so]" in dynamic
    assert "RPATH" not in dynamic and "RUNPATH" not in dynamic, dynamic


def test_config_without_flags_prints_usage(config_cmd: list[str]) -> None:
    proc = subprocess.run(config_cmd, capture_output=True, text=True)
    assert proc.returncode == 0 and "usage: tvm-ffi-config" in proc.stdout
    for flag in ("--cmakedir", "--sourcedir", "--cython-lib-path", "--rpath"):
        assert flag in proc.stdout
    proc = subprocess.run([*config_cmd, "--no-such-flag"], capture_output=True, text=True)
    assert proc.returncode == 2 and "unrecognized arguments" in proc.stderr


def test_config_imports_nothing_heavy(config_cmd: list[str]) -> None:
    # the same command under -X importtime, which logs every module it imports on stderr
    script_or_module = config_cmd[1:] if config_cmd[0] == sys.executable else config_cmd
    proc = run_checked([sys.executable, "-X", "importtime", *script_or_module, "--libdir"])
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert "tvm_ffi" in imported, proc.stderr
    heavy = sorted(m for m in imported if m in HEAVY_MODULES or m.split(".")[0] in HEAVY_MODULES)
    assert not heavy, f"{' '.join(config_cmd)} imported {heavy}"


def test_importing_config_as_the_command_does_stays_light() -> None:
    # what the console script does: argv[0] names the command, then it imports tvm_ffi.config
    code = ("import json, sys; sys.argv[0] = '/somewhere/bin/tvm-ffi-config'; import tvm_ffi.config, tvm_ffi; "
            "print(json.dumps(sorted(sys.modules))); print(hasattr(tvm_ffi, 'LIB'))")
    modules_line, has_lib = python(code).splitlines()
    modules = set(json.loads(modules_line))
    assert not [m for m in HEAVY_MODULES if m in modules]
    assert has_lib == "False"  # path queries do not even load the runtime


# ---- the runtime library ----

def test_library_soname_is_exactly_libtvm_ffi_so() -> None:
    if shutil.which("readelf") is None:
        pytest.skip("readelf (binutils) is not available")
    dynamic = run_checked(["readelf", "-d", libinfo.find_libtvm_ffi()]).stdout
    sonames = re.findall(r"\(SONAME\)\s+Library soname: \[([^\]]*)\]", dynamic)
    assert sonames == ["libtvm_ffi.so"], dynamic


def test_version_is_consistent() -> None:
    class Version(ctypes.Structure):
        _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("patch", ctypes.c_uint32)]

    version = Version()
    tvm_ffi.LIB.TVMFFIGetVersion(ctypes.byref(version))
    assert (version.major, version.minor, version.patch) == ABI_VERSION
    header = (INCLUDE_DIR / "tvm" / "ffi" / "c_api.h").read_text()
    macros = tuple(int(re.search(rf"#define TVM_FFI_VERSION_{part}\s+(\d+)", header).group(1))  # type: ignore[union-attr]
                   for part in ("MAJOR", "MINOR", "PATCH"))
    assert macros == ABI_VERSION
    assert tvm_ffi.__version_tuple__ == ABI_VERSION
    assert tvm_ffi.__version__ == importlib.metadata.version(DIST_NAME) == ".".join(map(str, ABI_VERSION))


def test_lib_handle_is_the_packaged_library() -> None:
    assert isinstance(tvm_ffi.LIB, ctypes.CDLL)
    assert Path(tvm_ffi.LIB._name).resolve() == Path(libinfo.find_libtvm_ffi()).resolve()


# ---- import tvm_ffi makes the runtime globally visible ----

# Stand-ins for kernels linked without -ltvm_ffi: they load only if the process already has a
# libtvm_ffi.so in its global symbol scope (ctypes loads with RTLD_NOW, so any unresolved
# TVMFFI* reference fails the load).
VERSION_PROBE_C = r"""
#include <tvm/ffi/c_api.h>

int probe_version(void) {
  TVMFFIVersion v;
  TVMFFIGetVersion(&v);
  return (int)(v.major * 10000 + v.minor * 100 + v.patch);
}
"""

# Exercises the env C APIs that `import tvm_ffi` registers: a signal raised inside C must reach
# the Python handler through TVMFFIEnvCheckSignals, while still inside the C call.
SIGNAL_PROBE_C = r"""
#include <signal.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

static volatile int handler_ran = 0;

void probe_mark_handler_ran(void) { handler_ran = 1; }

int probe_signal_reaches_python(void) {
  handler_ran = 0;
  raise(SIGUSR1);
  if (TVMFFIEnvCheckSignals() != 0) return -1;
  return handler_ran;
}
"""


def build_probe(out: Path, name: str, source_text: str) -> Path:
    """Compiles a probe library against our headers, deliberately without -ltvm_ffi."""
    if shutil.which(c_compiler()) is None:
        pytest.skip(f"no C compiler ({c_compiler()})")
    source = out / f"{name}.c"
    source.write_text(source_text)
    library = out / f"{name}.so"
    run_checked([c_compiler(), "-std=c11", "-fPIC", "-shared", f"-I{INCLUDE_DIR}", str(source), "-o", str(library)])
    return library


@pytest.fixture(scope="module")
def version_probe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_probe(tmp_path_factory.mktemp("probe"), "version_probe", VERSION_PROBE_C)


def test_probe_needs_a_global_runtime(version_probe: Path) -> None:
    # control: without tvm_ffi imported the probe cannot load, so the next test means something
    code = f"import ctypes\ntry:\n    ctypes.CDLL({str(version_probe)!r})\nexcept OSError as e:\n    print(e)"
    assert "undefined symbol: TVMFFIGetVersion" in python(code)


def test_import_loads_runtime_with_rtld_global(version_probe: Path) -> None:
    code = f"import tvm_ffi, ctypes\nprint(ctypes.CDLL({str(version_probe)!r}).probe_version())"
    assert python(code).strip() == "116"


def test_import_registers_env_c_apis(tmp_path: Path) -> None:
    probe = build_probe(tmp_path, "signal_probe", SIGNAL_PROBE_C)
    code = (
        "import ctypes, signal, tvm_ffi\n"
        f"probe = ctypes.CDLL({str(probe)!r})\n"
        "signal.signal(signal.SIGUSR1, lambda *_: probe.probe_mark_handler_ran())\n"
        "print(probe.probe_signal_reaches_python())\n"
    )
    assert python(code).strip() == "1", "TVMFFIEnvCheckSignals did not run the Python signal handler"


# ---- the README quickstart is true ----

def test_readme_quickstart(tmp_path: Path) -> None:
    # square.so binds to the runtime that `import tvm_ffi` (top of this file) loaded globally
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    source = re.search(r"```c\n(.*?)```", readme, flags=re.S).group(1)  # type: ignore[union-attr]
    command = re.search(r"```bash\n(cc -shared.*?)```", readme, flags=re.S).group(1)  # type: ignore[union-attr]
    (tmp_path / "square.c").write_text(source)
    env = scripts_on_path()
    run_checked(["bash", "-c", f"set -e; {command.replace('cc ', 'cc -Wall -Wextra -Werror ', 1)}"],
                cwd=tmp_path, env=env)

    class Any(ctypes.Structure):
        _fields_ = [("type_index", ctypes.c_int32), ("zero_padding", ctypes.c_uint32), ("v_int64", ctypes.c_int64)]

    square = ctypes.CDLL(str(tmp_path / "square.so")).__tvm_ffi_square
    args, result = Any(1, 0, 12), Any(0, 0, 0)
    assert square(None, ctypes.byref(args), 1, ctypes.byref(result)) == 0
    assert (result.type_index, result.v_int64) == (1, 144)
    assert square(None, ctypes.byref(args), 0, ctypes.byref(result)) == -1
    error = ctypes.c_void_p()
    tvm_ffi.LIB.TVMFFIErrorMoveFromRaised(ctypes.byref(error))
    assert error.value
    tvm_ffi.LIB.TVMFFIObjectDecRef(error)
