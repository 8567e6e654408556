/*
 * tvm/ffi/extra/cuda/internal/unified_api.h -- one set of names (cuda_api::LoadLibrary,
 * LaunchKernel, ...) over either the CUDA driver API (cu*) or the runtime API (cuda*), for the
 * cubin launcher.
 *
 * TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API picks the API: by default the runtime API when the
 * toolkit has the runtime library calls (CUDA 12.8+), the driver API before that. Forcing the
 * runtime API on an older toolkit is a compile error.
 */
#ifndef TVM_FFI_EXTRA_CUDA_INTERNAL_UNIFIED_API_H_
#define TVM_FFI_EXTRA_CUDA_INTERNAL_UNIFIED_API_H_

#include <cuda.h>
#include <cuda_runtime.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/cuda/base.h>

#include <cstdint>

#ifndef TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
#if CUDART_VERSION >= 12080
#define TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API 0
#else
#define TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API 1
#endif
#elif !TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API && CUDART_VERSION < 12080
#error "TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API=0 needs the CUDA runtime library API (CUDA >= 12.8)"
#endif

namespace tvm {
namespace ffi {
namespace cuda_api {

#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
using StreamHandle = CUstream;
using DeviceHandle = CUdevice;
using LibraryHandle = CUlibrary;
using KernelHandle = CUkernel;
using LaunchConfig = CUlaunchConfig;
using ResultType = CUresult;
using LaunchAttrType = CUlaunchAttribute;
using DeviceAttrType = CUdevice_attribute;
constexpr ResultType kSuccess = CUDA_SUCCESS;
#else
using StreamHandle = cudaStream_t;
using DeviceHandle = int;
using LibraryHandle = cudaLibrary_t;
using KernelHandle = cudaKernel_t;
using LaunchConfig = cudaLaunchConfig_t;
using ResultType = cudaError_t;
using LaunchAttrType = cudaLaunchAttribute;
using DeviceAttrType = cudaDeviceAttr;
constexpr ResultType kSuccess = cudaSuccess;
#endif

/*! \brief The symbolic name and the description of a CUDA status code. */
inline void GetErrorString(ResultType err, const char** name, const char** str) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  *name = "CUDA_ERROR_UNKNOWN";
  *str = "unrecognized error code";
  cuGetErrorName(err, name);  // leaves the outputs alone for an unknown code
  cuGetErrorString(err, str);
#else
  *name = cudaGetErrorName(err);
  *str = cudaGetErrorString(err);
#endif
}

/*! \brief Like TVM_FFI_CHECK_CUDA_ERROR, for calls through cuda_api (either API). */
#define TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(stmt)                                           \
  do {                                                                                          \
    ::tvm::ffi::cuda_api::ResultType _tvm_ffi_cuda_err = (stmt);                                \
    if (_tvm_ffi_cuda_err != ::tvm::ffi::cuda_api::kSuccess) {                                  \
      const char* _tvm_ffi_err_name;                                                            \
      const char* _tvm_ffi_err_str;                                                             \
      ::tvm::ffi::cuda_api::GetErrorString(_tvm_ffi_cuda_err, &_tvm_ffi_err_name,               \
                                           &_tvm_ffi_err_str);                                  \
      TVM_FFI_THROW(RuntimeError) << "CUDA Error: " << _tvm_ffi_err_name << " ("                \
                                  << static_cast<int>(_tvm_ffi_cuda_err)                        \
                                  << "): " << _tvm_ffi_err_str;                                 \
    }                                                                                           \
  } while (0)

/*! \brief Loads a cubin/fatbin image into a library (no JIT or library options). */
inline ResultType LoadLibrary(LibraryHandle* library, const void* image) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuLibraryLoadData(library, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
#else
  return cudaLibraryLoadData(library, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
#endif
}

inline ResultType UnloadLibrary(LibraryHandle library) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuLibraryUnload(library);
#else
  return cudaLibraryUnload(library);
#endif
}

/*! \brief The kernel `name` of a loaded library. */
inline ResultType GetKernel(KernelHandle* kernel, LibraryHandle library, const char* name) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuLibraryGetKernel(kernel, library, name);
#else
  return cudaLibraryGetKernel(kernel, library, name);
#endif
}

/*! \brief The handle of device ordinal `device_id` (the ordinal itself for the runtime API). */
inline DeviceHandle GetDeviceHandle(int device_id) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  CUdevice device;
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(cuDeviceGet(&device, device_id));
  return device;
#else
  return device_id;
#endif
}

/*! \brief Launches `kernel` with argument pointers `args` on `stream`. */
inline ResultType LaunchKernel(KernelHandle kernel, void** args, tvm::ffi::dim3 grid,
                               tvm::ffi::dim3 block, StreamHandle stream,
                               uint32_t dyn_smem_bytes = 0) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  // A CUkernel is accepted wherever a CUfunction is (CUDA 12 context-independent loading).
  return cuLaunchKernel(reinterpret_cast<CUfunction>(kernel), grid.x, grid.y, grid.z, block.x,
                        block.y, block.z, dyn_smem_bytes, stream, args, nullptr);
#else
  return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), ::dim3(grid.x, grid.y, grid.z),
                          ::dim3(block.x, block.y, block.z), args, dyn_smem_bytes, stream);
#endif
}

/*! \brief The kernel's static shared memory in bytes (into `out`). */
inline ResultType GetKernelSharedMem(KernelHandle kernel, int& out, DeviceHandle device) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuKernelGetAttribute(&out, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel, device);
#else
  (void)device;  // the runtime reports the attribute for the current device
  cudaFuncAttributes attrs;
  cudaError_t err = cudaFuncGetAttributes(&attrs, reinterpret_cast<const void*>(kernel));
  if (err == cudaSuccess) out = static_cast<int>(attrs.sharedSizeBytes);
  return err;
#endif
}

/*! \brief Allows the kernel up to `shmem` bytes of dynamic shared memory on `device`. */
inline ResultType SetKernelMaxDynamicSharedMem(KernelHandle kernel, int shmem,
                                               DeviceHandle device) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shmem, kernel,
                              device);
#else
  return cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         shmem, device);
#endif
}

/*! \brief Launches with a full launch configuration (e.g. from ConstructLaunchConfig). */
inline ResultType LaunchKernelEx(KernelHandle kernel, void** args, const LaunchConfig& config) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuLaunchKernelEx(&config, reinterpret_cast<CUfunction>(kernel), args, nullptr);
#else
  return cudaLaunchKernelExC(&config, reinterpret_cast<const void*>(kernel), args);
#endif
}

/*!
 * \brief Fills `config` for a launch; a cluster_dim above 1 adds a cluster-dimension attribute
 * stored in `attr`, which must outlive the launch.
 */
inline ResultType ConstructLaunchConfig(KernelHandle kernel, StreamHandle stream,
                                        uint32_t smem_size, tvm::ffi::dim3 grid,
                                        tvm::ffi::dim3 block, int cluster_dim, LaunchConfig& config,
                                        LaunchAttrType& attr) {
  (void)kernel;  // part of the signature for API symmetry; the config does not name the kernel
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  config.gridDimX = grid.x;
  config.gridDimY = grid.y;
  config.gridDimZ = grid.z;
  config.blockDimX = block.x;
  config.blockDimY = block.y;
  config.blockDimZ = block.z;
  config.sharedMemBytes = smem_size;
  config.hStream = stream;
  config.attrs = nullptr;
  config.numAttrs = 0;
  if (cluster_dim > 1) {
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = static_cast<unsigned int>(cluster_dim);
    attr.value.clusterDim.y = 1;
    attr.value.clusterDim.z = 1;
    config.attrs = &attr;
    config.numAttrs = 1;
  }
#else
  config.gridDim = ::dim3(grid.x, grid.y, grid.z);
  config.blockDim = ::dim3(block.x, block.y, block.z);
  config.dynamicSmemBytes = smem_size;
  config.stream = stream;
  config.attrs = nullptr;
  config.numAttrs = 0;
  if (cluster_dim > 1) {
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = static_cast<unsigned int>(cluster_dim);
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    config.attrs = &attr;
    config.numAttrs = 1;
  }
#endif
  return kSuccess;
}

/*! \brief The number of visible CUDA devices. */
inline ResultType GetDeviceCount(int* count) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuDeviceGetCount(count);
#else
  return cudaGetDeviceCount(count);
#endif
}

/*! \brief A device attribute's value. */
inline ResultType GetDeviceAttribute(int* value, DeviceAttrType attr, DeviceHandle device) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuDeviceGetAttribute(value, attr, device);
#else
  return cudaDeviceGetAttribute(value, attr, device);
#endif
}

}  // namespace cuda_api
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_CUDA_INTERNAL_UNIFIED_API_H_
