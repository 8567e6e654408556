// test_cuda_headers.cc -- the tvm/ffi/extra/cuda headers against the recording mocks of mock_cuda.h (no
// CUDA toolkit or GPU needed). Built twice by tests/test_cpp_cuda_headers.py: with the runtime
// API (the default for CUDA >= 12.8) and with TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API=1.
#include <tvm/ffi/extra/cuda/cubin_launcher.h>
#include <tvm/ffi/extra/cuda/device_guard.h>

#include "../check.h"
#include "mock_cuda.h"

namespace ffi = tvm::ffi;

// An "embedded" image as objcopy would emit it, and one given as bytes.
extern "C" const char __tvm_ffi__cubin_demo[] = "fake cubin image";
extern "C" const char __tvm_ffi__cubin_demo_end[] = "";
TVM_FFI_EMBED_CUBIN(demo);
static const unsigned char kImageBytes[] = {0x7f, 'E', 'L', 'F'};
TVM_FFI_EMBED_CUBIN_FROM_BYTES(from_bytes, kImageBytes);

void test_check_cuda_error_and_dim3() {
  TVM_FFI_CHECK_CUDA_ERROR(cudaSuccess);
  CHECK_THROWS(TVM_FFI_CHECK_CUDA_ERROR(cudaSetDevice(9)), "RuntimeError",
               "CUDA Runtime Error: cudaErrorInvalidDevice (101): invalid device ordinal");
  ffi::dim3 d;
  CHECK(d.x == 1 && d.y == 1 && d.z == 1);
  ffi::dim3 d1(4);
  CHECK(d1.x == 4 && d1.y == 1 && d1.z == 1);
  ffi::dim3 d2(4, 5);
  CHECK(d2.y == 5 && d2.z == 1);
  ffi::dim3 d3(4, 5, 6);
  CHECK(d3.z == 6);
}

void test_device_guard_switches_and_restores() {
  mock.current_device = 0;
  mock.set_device_calls.clear();
  {
    ffi::CUDADeviceGuard guard(1);
    CHECK_EQ(mock.current_device, 1);
  }
  CHECK_EQ(mock.current_device, 0);
  CHECK((mock.set_device_calls == std::vector<int>{1, 0}));
  {
    ffi::CUDADeviceGuard same(0);  // already current: no cudaSetDevice at all
  }
  CHECK_EQ(mock.set_device_calls.size(), size_t{2});
  CHECK_THROWS(ffi::CUDADeviceGuard bad(7), "RuntimeError", "cudaErrorInvalidDevice");
  CHECK_EQ(mock.current_device, 0);
}

void test_module_loads_images_and_finds_kernels() {
  size_t loads = mock.loaded_images.size();
  int unloads = mock.unload_calls;
  {
    ffi::CubinModule from_chars(__tvm_ffi__cubin_demo);
    CHECK_EQ(mock.loaded_images.back(), static_cast<const void*>(__tvm_ffi__cubin_demo));
    ffi::CubinModule from_uchars(kImageBytes);
    ffi::Bytes blob(std::string("\x7f" "ELF blob"));
    ffi::CubinModule from_bytes(blob);
    CHECK_EQ(mock.loaded_images.size(), loads + 3);
    CHECK(from_chars.GetHandle() != nullptr);

    ffi::CubinKernel add = from_chars["add_one"];
    CHECK(add.GetHandle() != nullptr);
    ffi::CubinKernel scale = from_chars.GetKernel("scale");
    CHECK(scale.GetHandle() != add.GetHandle());
    CHECK_THROWS(from_chars.GetKernel("missing"), "RuntimeError", "CUDA Error: ");
    CHECK_THROWS(from_chars.GetKernel("missing"), "RuntimeError", "(500): named symbol not found");

    // Move-only handles: the moved-from module no longer unloads.
    ffi::CubinModule moved(std::move(from_uchars));
    CHECK(from_uchars.GetHandle() == nullptr);
    ffi::CubinKernel taken(std::move(scale));
    CHECK(scale.GetHandle() == nullptr);
    scale = std::move(taken);
    CHECK(scale.GetHandle() != nullptr);
  }
  CHECK_EQ(mock.unload_calls, unloads + 3);
  CHECK_THROWS(ffi::CubinModule(static_cast<const char*>(nullptr)), "RuntimeError", "CUDA Error");
}

void test_launch_passes_grid_block_stream_and_args() {
  ffi::CubinModule module(__tvm_ffi__cubin_demo);
  ffi::CubinKernel kernel = module["add_one"];
  float* x = nullptr;
  int64_t n = 128;
  void* args[] = {&x, &n};
  auto* stream = reinterpret_cast<ffi::cuda_api::StreamHandle>(0x1234);
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(
      kernel.Launch(args, ffi::dim3(4, 2), ffi::dim3(256), stream, 512));
  CHECK_EQ(mock.last_launch.kernel, std::string("add_one"));
  CHECK(mock.last_launch.grid[0] == 4 && mock.last_launch.grid[1] == 2 && mock.last_launch.grid[2] == 1);
  CHECK(mock.last_launch.block[0] == 256 && mock.last_launch.block[1] == 1);
  CHECK_EQ(mock.last_launch.smem, size_t{512});
  CHECK(mock.last_launch.stream == reinterpret_cast<CUstream_st*>(stream));
  CHECK(mock.last_launch.args == args);

  ffi::cuda_api::LaunchConfig config;
  ffi::cuda_api::LaunchAttrType cluster;
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(ffi::cuda_api::ConstructLaunchConfig(
      kernel.GetHandle(), stream, 1024, ffi::dim3(8), ffi::dim3(128, 2), 2, config, cluster));
  CHECK_EQ(config.numAttrs, 1u);
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(kernel.LaunchEx(args, config));
  CHECK_EQ(mock.last_launch.cluster_x, 2u);
  CHECK(mock.last_launch.grid[0] == 8 && mock.last_launch.block[1] == 2);
  CHECK_EQ(mock.last_launch.smem, size_t{1024});
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(ffi::cuda_api::ConstructLaunchConfig(
      kernel.GetHandle(), stream, 0, ffi::dim3(1), ffi::dim3(1), 1, config, cluster));
  CHECK_EQ(config.numAttrs, 0u);  // no cluster attribute for cluster_dim 1
  CHECK(config.attrs == nullptr);

  int launches = mock.launches;
  ffi::CubinKernel embedded = TVM_FFI_EMBED_CUBIN_GET_KERNEL(demo, "scale");
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(embedded.Launch(args, ffi::dim3(), ffi::dim3(), nullptr));
  CHECK_EQ(mock.launches, launches + 1);
  CHECK_EQ(mock.last_launch.kernel, std::string("scale"));
  ffi::CubinKernel from_bytes = TVM_FFI_EMBED_CUBIN_GET_KERNEL(from_bytes, "add_one");
  CHECK(from_bytes.GetHandle() != nullptr);
  CHECK_EQ(mock.library_slot.image, static_cast<const void*>(kImageBytes));
}

void test_dynamic_shared_memory_limits() {
  ffi::CubinModule module(__tvm_ffi__cubin_demo);
  mock.max_dynamic_smem.clear();
  ffi::CubinKernel all = module.GetKernelWithMaxDynamicSharedMemory("add_one");
  // -1: everything the device offers beyond the kernel's static shared memory, on each device.
  CHECK_EQ(mock.max_dynamic_smem.size(), size_t{2});
  CHECK_EQ(mock.max_dynamic_smem[0], 49152 - 1024);
  CHECK_EQ(mock.max_dynamic_smem[1], 49152 - 1024);
  ffi::CubinKernel fixed = module.GetKernelWithMaxDynamicSharedMemory("scale", 4096);
  CHECK_EQ(mock.max_dynamic_smem[1], 4096);
  mock.fail_set_attribute = 1;
  CHECK_THROWS(module.GetKernelWithMaxDynamicSharedMemory("scale", 4096), "RuntimeError",
               "Failed to set dynamic shared memory attribute for any device");
  mock.fail_set_attribute = 0;
  mock.device_count = 0;  // no device: nothing to configure, no error
  ffi::CubinKernel none = module.GetKernelWithMaxDynamicSharedMemory("scale", 4096);
  CHECK(none.GetHandle() != nullptr);
  mock.device_count = 2;
  int value = 0;
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(ffi::cuda_api::GetDeviceAttribute(
      &value, static_cast<ffi::cuda_api::DeviceAttrType>(8), ffi::cuda_api::GetDeviceHandle(1)));
  CHECK_EQ(value, 49152);
  int count = 0;
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(ffi::cuda_api::GetDeviceCount(&count));
  CHECK_EQ(count, 2);
}

int main() {
  std::printf("api %s\n", TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API ? "driver" : "runtime");
  RUN(test_check_cuda_error_and_dim3);
  RUN(test_device_guard_switches_and_restores);
  RUN(test_module_loads_images_and_finds_kernels);
  RUN(test_launch_passes_grid_block_stream_and_args);
  RUN(test_dynamic_shared_memory_limits);
  return CHECK_MAIN_RESULT();
}
