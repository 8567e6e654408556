"""The CMake package as projects written for the reference use it: its target names, CUDA device
code compiled to CUBIN/FATBIN images with add_tvm_ffi_cubin / add_tvm_ffi_fatbin and embedded into
a kernel library with tvm_ffi_embed_bin_into (built with nvcc; run without a GPU), and
tvm_ffi_hide_static_linked_lib_symbols.
"""

from __future__ import annotations

import ctypes.util
import shutil
import subprocess
from pathlib import Path

import _cmake_project as cmake_project
import numpy as np
import pytest
import tvm_ffi
from conftest import find_nvcc

KERNEL_LIBRARY = r"""
#include <tvm/ffi/tvm_ffi.h>
int64_t AddOne(int64_t x) { return x + 1; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
"""

# Target names of the reference's build tree and of its earlier packages, which its quickstart
# and many projects link; the namespaced names of its current package.
NAMED_TARGETS_CMAKE = """
cmake_minimum_required(VERSION 3.18)
project(names LANGUAGES CXX)
find_package(tvm_ffi CONFIG REQUIRED)
add_library(plain_names SHARED lib.cc)
target_link_libraries(plain_names tvm_ffi_header)
target_link_libraries(plain_names tvm_ffi_shared)
add_library(namespaced_names SHARED lib.cc)
target_link_libraries(namespaced_names PRIVATE tvm_ffi::header tvm_ffi::shared)
get_target_property(_location tvm_ffi_shared IMPORTED_LOCATION)
message(STATUS "tvm_ffi_shared is ${_location}")
"""


@pytest.mark.parametrize("library", ["libplain_names.so", "libnamespaced_names.so"])
def test_kernel_libraries_link_by_either_target_name(tmp_path: Path, library: str) -> None:
    (tmp_path / "lib.cc").write_text(KERNEL_LIBRARY)
    (tmp_path / "CMakeLists.txt").write_text(NAMED_TARGETS_CMAKE)
    cmake_project.build(tmp_path)
    mod = tvm_ffi.load_module(str(tmp_path / "build" / library))
    assert mod.add_one(41) == 42


def test_unnamespaced_target_reads_the_imported_library(tmp_path: Path) -> None:
    (tmp_path / "lib.cc").write_text(KERNEL_LIBRARY)
    (tmp_path / "CMakeLists.txt").write_text(NAMED_TARGETS_CMAKE)
    configured = cmake_project.configure(tmp_path)
    assert configured.returncode == 0, configured.stdout + configured.stderr
    assert f"tvm_ffi_shared is {tvm_ffi.libinfo.find_libtvm_ffi()}" in configured.stdout


# ---- CUDA device code ----

KERNEL_CU = r"""
extern "C" __global__ void add_one_cuda(const float* x, float* y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + 1.0f;
}
"""

SCALE_CU = r"""
extern "C" __global__ void scale_cuda(float* y, float s, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] *= s;
}
"""

LAUNCHER_CC = r"""
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/cuda/cubin_launcher.h>
#include <tvm/ffi/function.h>

TVM_FFI_EMBED_CUBIN(env);

void AddOne(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  static auto kernel = TVM_FFI_EMBED_CUBIN_GET_KERNEL(env, "add_one_cuda");
  int64_t n = x.size(0);
  void* x_ptr = x.data_ptr();
  void* y_ptr = y.data_ptr();
  void* args[] = {&x_ptr, &y_ptr, &n};
  DLDevice device = x.device();
  auto stream = static_cast<tvm::ffi::cuda_api::StreamHandle>(
      TVMFFIEnvGetStream(device.device_type, device.device_id));
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(
      kernel.Launch(args, tvm::ffi::dim3((n + 255) / 256), tvm::ffi::dim3(256), stream));
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
"""

DEVICE_PROJECT_CMAKE = """
cmake_minimum_required(VERSION 3.18)
project(device_binaries LANGUAGES CXX CUDA)
find_package(tvm_ffi CONFIG REQUIRED)
find_package(CUDAToolkit REQUIRED)
message(STATUS "CUDA runtime library: ${CMAKE_CUDA_RUNTIME_LIBRARY}")

set(CMAKE_CUDA_ARCHITECTURES 75 80)
add_tvm_ffi_fatbin(kernels_fatbin CUDA src/kernel.cu src/scale.cu)
set(CMAKE_CUDA_ARCHITECTURES 80)
add_tvm_ffi_cubin(kernels_cubin CUDA src/kernel.cu)

add_library(launcher SHARED src/launcher.cc)
target_link_libraries(launcher PRIVATE tvm_ffi_header tvm_ffi_shared CUDA::cudart)
tvm_ffi_embed_bin_into(launcher SYMBOL env BIN "$<TARGET_OBJECTS:kernels_cubin>")
"""

FATBIN_MAGIC = bytes.fromhex("50ed55ba")  # 0xBA55ED50, little-endian
ELF_MAGIC = b"\x7fELF"


def _nvcc() -> str:
    nvcc = find_nvcc()
    if nvcc is None:
        pytest.skip("no CUDA toolkit (nvcc) on this machine")
    return nvcc


def _device_project(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "kernel.cu").write_text(KERNEL_CU)
    (root / "src" / "scale.cu").write_text(SCALE_CU)
    (root / "src" / "launcher.cc").write_text(LAUNCHER_CC)
    (root / "CMakeLists.txt").write_text(DEVICE_PROJECT_CMAKE)
    return root


@pytest.fixture(scope="module")
def device_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project above, configured and built once with nvcc."""
    nvcc = _nvcc()
    root = _device_project(tmp_path_factory.mktemp("device_binaries"))
    cmake_project.build(root, f"-DCMAKE_CUDA_COMPILER={nvcc}")
    return root / "build"


def _image(build: Path, target: str, name: str) -> bytes:
    found = list(build.rglob(f"CMakeFiles/{target}.dir/**/{name}"))
    assert len(found) == 1, (name, found)
    return found[0].read_bytes()


def test_fatbin_images_are_named_after_their_sources(device_build: Path) -> None:
    for name in ("kernel.fatbin", "scale.fatbin"):
        assert _image(device_build, "kernels_fatbin", name)[:4] == FATBIN_MAGIC


def test_cubin_image_is_an_elf_of_one_architecture(device_build: Path) -> None:
    # A plain "80" would ask nvcc for PTX as well, which --cubin refuses: compiled as "80-real".
    image = _image(device_build, "kernels_cubin", "kernel.cubin")
    assert image[:4] == ELF_MAGIC
    assert b"add_one_cuda" in image


def test_embedded_image_loads_lazily_and_fails_cleanly_without_a_gpu(device_build: Path) -> None:
    library = device_build / "liblauncher.so"
    image = _image(device_build, "kernels_cubin", "kernel.cubin")
    assert image in library.read_bytes()  # embedded as __tvm_ffi__cubin_env
    mod = tvm_ffi.load_module(str(library))  # loading needs no GPU: the image loads on first use
    assert mod.add_one is not None
    if ctypes.util.find_library("cuda") is not None:
        pytest.skip("a CUDA driver is installed: the kernel would run, on memory it cannot use here")
    x = np.zeros(4, dtype=np.float32)
    with pytest.raises(RuntimeError, match="CUDA"):  # the CUDA error, as an exception
        mod.add_one(x, np.zeros_like(x))


def test_cuda_runtime_defaults_to_the_shared_library(tmp_path: Path) -> None:
    nvcc = _nvcc()
    configured = cmake_project.configure(_device_project(tmp_path), f"-DCMAKE_CUDA_COMPILER={nvcc}")
    assert configured.returncode == 0, configured.stdout + configured.stderr
    assert "CUDA runtime library: Shared" in configured.stdout
    static = cmake_project.configure(tmp_path, "-DCMAKE_CUDA_RUNTIME_LIBRARY=Static")
    assert "CUDA runtime library: Static" in static.stdout


@pytest.mark.parametrize(("call", "message"), [
    ("add_tvm_ffi_cubin(k)", "add_tvm_ffi_cubin(k): CUDA source is required."),
    ("add_tvm_ffi_fatbin(k SOURCES a.cu)", "add_tvm_ffi_fatbin(k): unknown arguments SOURCES;a.cu."),
])
def test_device_binary_functions_reject_bad_arguments(tmp_path: Path, call: str, message: str) -> None:
    (tmp_path / "CMakeLists.txt").write_text(
        f"cmake_minimum_required(VERSION 3.18)\nproject(bad LANGUAGES CXX)\n"
        f"find_package(tvm_ffi CONFIG REQUIRED)\n{call}\n")
    configured = cmake_project.configure(tmp_path)
    assert configured.returncode != 0
    assert message in " ".join(configured.stderr.split())


def test_device_binary_functions_need_the_cuda_language(tmp_path: Path) -> None:
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.18)\nproject(no_cuda LANGUAGES CXX)\n"
        "find_package(tvm_ffi CONFIG REQUIRED)\nadd_tvm_ffi_fatbin(k CUDA k.cu)\n")
    configured = cmake_project.configure(tmp_path)
    assert configured.returncode != 0
    assert "the CUDA language is not enabled" in " ".join(configured.stderr.split())


# ---- symbols of bundled static libraries ----

HELPER_C = "int bundled_helper_value(void) { return 41; }\n"
BUNDLING_LIBRARY = r"""
#include <tvm/ffi/tvm_ffi.h>
extern "C" int bundled_helper_value(void);
int64_t Answer() { return bundled_helper_value() + 1; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(answer, Answer);
"""
BUNDLING_CMAKE = """
cmake_minimum_required(VERSION 3.18)
project(bundling LANGUAGES C CXX)
find_package(tvm_ffi CONFIG REQUIRED)
add_library(helper STATIC helper.c)
set_target_properties(helper PROPERTIES POSITION_INDEPENDENT_CODE ON)
foreach (name IN ITEMS hidden shown)
  add_library(${name} SHARED lib.cc)
  tvm_ffi_configure_target(${name})
  target_link_libraries(${name} PRIVATE helper)
endforeach ()
tvm_ffi_hide_static_linked_lib_symbols(hidden)
"""


def test_hide_static_linked_lib_symbols_keeps_bundled_code_private(tmp_path: Path) -> None:
    if shutil.which("nm") is None:
        pytest.skip("needs nm (GNU binutils)")
    (tmp_path / "helper.c").write_text(HELPER_C)
    (tmp_path / "lib.cc").write_text(BUNDLING_LIBRARY)
    (tmp_path / "CMakeLists.txt").write_text(BUNDLING_CMAKE)
    cmake_project.build(tmp_path)

    def exported(library: str) -> str:
        path = tmp_path / "build" / library
        return subprocess.run(["nm", "-D", "--defined-only", str(path)], capture_output=True,
                              text=True, check=True).stdout

    assert "bundled_helper_value" in exported("libshown.so")
    assert "bundled_helper_value" not in exported("libhidden.so")
    assert "__tvm_ffi_answer" in exported("libhidden.so")  # the library's own API stays
    assert tvm_ffi.load_module(str(tmp_path / "build" / "libhidden.so")).answer() == 42
