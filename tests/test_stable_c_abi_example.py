"""Builds examples/stable_c_abi with the installed package's flags, runs it, checks its output.

The example is both halves of a call in plain C: a kernel exporting __tvm_ffi_add_one_cpu and a
loader that calls it through TVMFFIFunctionCreate/TVMFFIFunctionCall with DLTensor arguments.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT, c_compiler, run_checked, scripts_on_path

EXAMPLE_DIR = REPO_ROOT / "examples" / "stable_c_abi"
EXPECTED_OUTPUT = [
    "x = [1, 2, 3, 4, 5]",
    "y = [2, 3, 4, 5, 6]",
    "expected error: ValueError: add_one_cpu: x and y must have the same shape, got [5] and [3]",
    "expected error: TypeError: add_one_cpu: argument #1 (y) must be a tensor, got type index 1",
]


def example_env() -> dict[str, str]:
    """The environment a user of the installed package has: its console scripts on PATH."""
    env = scripts_on_path()
    env.pop("LD_LIBRARY_PATH", None)  # the loader finds the runtime through its --rpath
    return env


def copy_example(dest: Path) -> Path:
    """A private copy of the example, so builds never write into the repository."""
    if shutil.which(c_compiler()) is None:
        pytest.skip(f"no C compiler ({c_compiler()})")
    return Path(shutil.copytree(EXAMPLE_DIR, dest / "stable_c_abi", ignore=shutil.ignore_patterns("build")))


@pytest.fixture(scope="module")
def raw_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The example built and run by raw_compile.sh: (example dir, the script's process)."""
    example = copy_example(tmp_path_factory.mktemp("raw"))
    return example, run_checked(["bash", str(example / "raw_compile.sh")], env=example_env())


def test_raw_compile_script(raw_build: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    example, proc = raw_build
    assert proc.stdout.splitlines() == EXPECTED_OUTPUT
    assert "warning:" not in proc.stderr, proc.stderr
    assert (example / "build" / "add_one_cpu.so").is_file()


def test_readme_shows_the_real_output() -> None:
    readme = (EXAMPLE_DIR / "README.md").read_text()
    assert "\n".join(EXPECTED_OUTPUT) in readme


def test_cmake_build(tmp_path: Path) -> None:
    example_copy = copy_example(tmp_path)
    env = example_env()
    cmake = shutil.which("cmake", path=env["PATH"])
    if cmake is None:
        pytest.skip("cmake is not installed")
    build = example_copy / "build"
    generator = ["-G", "Ninja"] if shutil.which("ninja", path=env["PATH"]) else []
    run_checked([cmake, "-S", str(example_copy), "-B", str(build), *generator], env=env)
    run_checked([cmake, "--build", str(build)], env=env)
    proc = subprocess.run([str(build / "load"), str(build / "add_one_cpu.so")], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == EXPECTED_OUTPUT


def test_loader_reports_missing_library(raw_build: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    example, _ = raw_build
    proc = subprocess.run([str(example / "build" / "load"), str(example / "nope.so")],
                          capture_output=True, text=True, env=example_env(), timeout=60)
    assert proc.returncode == 1 and "cannot load" in proc.stderr


# ---- the kernel's other input form, driven directly through ctypes ----

class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class TensorObject(ctypes.Structure):
    """A tensor object as the ABI lays it out: 24-byte object header, then the DLTensor."""

    _fields_ = [("combined_ref_count", ctypes.c_uint64), ("type_index", ctypes.c_int32),
                ("padding", ctypes.c_uint32), ("deleter", ctypes.c_void_p), ("tensor", DLTensor)]


class ByteArray(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]

    def text(self) -> str:
        return ctypes.string_at(self.data, self.size).decode()


class Any(ctypes.Structure):
    _fields_ = [("type_index", ctypes.c_int32), ("zero_padding", ctypes.c_uint32), ("v_ptr", ctypes.c_void_p)]


K_TVMFFI_DLTENSOR_PTR, K_TVMFFI_TENSOR = 7, 70


def float_vector(values: list[float], stride: int = 1) -> tuple[DLTensor, ctypes.Array[ctypes.c_float], list[object]]:
    """A 1-D float32 CPU DLTensor viewing every `stride`-th element of a fresh buffer."""
    buffer = (ctypes.c_float * (len(values) * stride))()
    for i, v in enumerate(values):
        buffer[i * stride] = v
    shape, strides = (ctypes.c_int64 * 1)(len(values)), (ctypes.c_int64 * 1)(stride)
    tensor = DLTensor(ctypes.cast(buffer, ctypes.c_void_p), 1, 0, 1, 2, 32, 1, shape, strides, 0)
    return tensor, buffer, [shape, strides]


def test_kernel_accepts_tensor_objects_and_strides(raw_build: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    import tvm_ffi  # the kernel binds to the runtime this import loads globally

    kernel = ctypes.CDLL(str(raw_build[0] / "build" / "add_one_cpu.so"))
    add_one = kernel.__tvm_ffi_add_one_cpu
    add_one.argtypes = [ctypes.c_void_p, ctypes.POINTER(Any), ctypes.c_int32, ctypes.POINTER(Any)]

    x, _x_buf, _x_dims = float_vector([1.0, 2.5, -1.0], stride=2)
    y, y_buf, _y_dims = float_vector([0.0, 0.0, 0.0])
    x_obj = TensorObject(1, K_TVMFFI_TENSOR, 0, None, x)  # never released, so no deleter needed
    args = (Any * 2)(Any(K_TVMFFI_TENSOR, 0, ctypes.addressof(x_obj)),
                     Any(K_TVMFFI_DLTENSOR_PTR, 0, ctypes.addressof(y)))
    result = Any(0, 0, None)
    assert add_one(None, args, 2, ctypes.byref(result)) == 0
    assert list(y_buf) == [2.0, 3.5, 0.0] and result.type_index == 0
    assert x_obj.combined_ref_count == 1  # the kernel only borrowed its arguments

    # a wrong dtype comes back as -1 with a TypeError in the thread-local error slot
    y.bits = 64
    assert add_one(None, args, 2, ctypes.byref(result)) == -1
    error = ctypes.c_void_p()
    tvm_ffi.LIB.TVMFFIErrorMoveFromRaised(ctypes.byref(error))
    assert error.value
    kind, message = ctypes.cast(error.value + 24, ctypes.POINTER(ByteArray * 2)).contents  # error cell at +24
    assert kind.text() == "TypeError"
    assert message.text() == "add_one_cpu: y must be float32, got dtype code=2 bits=64 lanes=1"
    tvm_ffi.LIB.TVMFFIObjectDecRef(error)


def test_python_quickstart_runs(raw_build: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """examples/python_quickstart loads the example kernel, calls back into Python, shows an error."""
    example, _ = raw_build
    script = REPO_ROOT / "examples" / "python_quickstart" / "quickstart.py"
    proc = run_checked([sys.executable, str(script), str(example / "build" / "add_one_cpu.so")])
    assert "exports add_one_cpu: True" in proc.stdout
    assert "hello, kernel author" in proc.stdout
    assert "TypeError: Mismatched type on argument #0 when calling: `testing.add_one(0: int) -> int`" in proc.stdout


def test_readme_python_quickstart_runs(raw_build: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """The README's Python quickstart block runs as written (against a freshly built kernel)."""
    import re

    example, _ = raw_build
    readme = (REPO_ROOT / "README.md").read_text()
    source = re.search(r"```python\n(.*?)```", readme, flags=re.S).group(1)  # type: ignore[union-attr]
    source = source.replace("examples/stable_c_abi/build/add_one_cpu.so", str(example / "build" / "add_one_cpu.so"))
    run_checked([sys.executable, "-c", source])
