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
    # -rdynamic: the programs' own functions appear by name in runtime backtraces
    exe = compile_c(runtime, [source], tmp_path / source.stem, cxx=True, extra=["-ldl", "-rdynamic"])
    proc = subprocess.run([str(exe), str(plugins)], capture_output=True, text=True,
                          env=runtime.env(), timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "ok " in output and "FAIL" not in output, output
    for marker in SANITIZER_MARKERS:
        assert marker not in output, output


# Misuse that must fail to compile with our static_assert text as the first error.
BAD_USES = {
    "unsupported parameter": (
        "#include <vector>\nint64_t Sum(std::vector<int> xs) { return 0; }\n"
        "TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum, Sum);",
        "this parameter type cannot be converted from tvm::ffi::AnyView"),
    "mutable reference parameter": (
        "void Bump(int64_t& x) { ++x; }\nTVM_FFI_DLL_EXPORT_TYPED_FUNC(bump, Bump);",
        "typed FFI functions take parameters as T, const T& or T&&"),
    "unsupported result": (
        "struct Point { int x; };\nPoint Make() { return Point{1}; }\n"
        "TVM_FFI_DLL_EXPORT_TYPED_FUNC(make, Make);",
        "this result type cannot be converted to tvm::ffi::Any"),
    "cast to an unsupported type": (
        "struct Point { int x; };\nPoint Read(tvm::ffi::Any a) { return a.cast<Point>(); }",
        "this C++ type cannot be converted to or from tvm::ffi::Any"),
    "make_object of a non-object": (
        "struct Plain { int x; };\nvoid F() { tvm::ffi::make_object<Plain>(); }",
        "make_object<T>: T must derive from tvm::ffi::Object"),
}


@pytest.mark.parametrize("name", sorted(BAD_USES))
def test_misuse_fails_with_a_readable_static_assert(name: str, tmp_path: Path) -> None:
    import shutil

    from conftest import INCLUDE_DIR, cxx_compiler

    if shutil.which(cxx_compiler()) is None:
        pytest.skip("no C++ compiler")
    body, message = BAD_USES[name]
    source = tmp_path / "bad.cc"
    source.write_text("#include <tvm/ffi/tvm_ffi.h>\n" + body + "\n")
    proc = subprocess.run([cxx_compiler(), "-std=c++17", "-fsyntax-only", f"-I{INCLUDE_DIR}", str(source)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    first_error = next(line for line in proc.stderr.splitlines() if "error:" in line)
    assert message in first_error, proc.stderr


# Kernel sources written against the reference's headers use standard library names that those
# headers make available (none of these are included by the kernel itself).
LEANING_ON_TRANSITIVE_INCLUDES = """
void Debug(tvm::ffi::TensorView x) {
  std::cout << "ndim " << x.ndim() << std::setw(4) << std::endl;
  std::ostringstream os;
  os << x.dtype();
  std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
  std::unordered_map<std::string, int> counts{{os.str(), 1}};
  std::function<int(int)> twice = [](int v) { return 2 * v; };
  std::unique_ptr<int> owned = std::make_unique<int>(twice(counts.size()));
  std::array<int64_t, 2> pair{std::numeric_limits<int64_t>::max(), *owned};
  std::tuple<int, double> t{1, 2.0};
  if (std::strlen("x") != 1 || std::get<0>(t) != 1) throw std::runtime_error("unreachable");
  (void)pair;
}
"""


@pytest.mark.parametrize("header", ["tvm/ffi/tvm_ffi.h", "tvm/ffi/container/tensor.h"])
def test_kernels_find_the_standard_names_the_reference_headers_provide(header: str,
                                                                         tmp_path: Path) -> None:
    import shutil

    from conftest import INCLUDE_DIR, cxx_compiler

    if shutil.which(cxx_compiler()) is None:
        pytest.skip("no C++ compiler")
    source = tmp_path / "kernel.cc"
    source.write_text(f"#include <{header}>\n" + LEANING_ON_TRANSITIVE_INCLUDES)
    proc = subprocess.run([cxx_compiler(), "-std=c++17", "-fsyntax-only", f"-I{INCLUDE_DIR}", str(source)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr


def test_every_header_compiles_cleanly_with_nvcc(tmp_path: Path) -> None:
    """Kernel authors compile .cu files that include our headers with nvcc, whose C++ front end is
    stricter than GCC in places (names dependent on a template, functions that end in a throw):
    every public header, CUDA helpers included, compiles there with no warning of its own."""
    from conftest import INCLUDE_DIR, find_nvcc

    nvcc = find_nvcc()
    if nvcc is None:
        pytest.skip("no CUDA toolkit (nvcc) on this machine")
    headers = sorted(p.relative_to(INCLUDE_DIR).as_posix() for p in (INCLUDE_DIR / "tvm").rglob("*.h"))
    source = tmp_path / "all_headers.cu"
    source.write_text("".join(f"#include <{h}>\n" for h in headers) + (
        "void AddOne(tvm::ffi::TensorView x, tvm::ffi::TensorView y) { (void)x, (void)y; }\n"
        "TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);\n"))
    proc = subprocess.run([nvcc, "-std=c++17", "-c", str(source), "-o", str(tmp_path / "all.o"),
                           f"-I{INCLUDE_DIR}"], capture_output=True, text=True, timeout=600)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    ours = [line for line in output.splitlines() if str(INCLUDE_DIR) in line]
    assert not ours, "\n".join(ours)
