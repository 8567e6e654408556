/*
 * tvm/ffi/extra/cuda/cubin_launcher.h -- load a compiled CUDA image (cubin/fatbin) and launch its
 * kernels from host C++ code built with an ordinary C++ compiler.
 *
 *   TVM_FFI_EMBED_CUBIN(my_kernels);   // image linked in as __tvm_ffi__cubin_my_kernels
 *   static auto kernel = TVM_FFI_EMBED_CUBIN_GET_KERNEL(my_kernels, "add_one");
 *   void* args[] = {&x_ptr, &y_ptr, &n};
 *   TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(kernel.Launch(args, dim3(blocks), dim3(256), stream));
 *
 * The image symbols come from `tvm_ffi.utils.embed_cubin` / the CMake function
 * tvm_ffi_embed_bin_into, or load_inline(embed_cubin=...). Libraries are loaded context-independently
 * (cuLibraryLoadData / cudaLibraryLoadData), so one module serves every device.
 */
#ifndef TVM_FFI_EXTRA_CUDA_CUBIN_LAUNCHER_H_
#define TVM_FFI_EXTRA_CUDA_CUBIN_LAUNCHER_H_

#include <cuda.h>
#include <cuda_runtime.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/cuda/base.h>
#include <tvm/ffi/extra/cuda/internal/unified_api.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace tvm {
namespace ffi {

/*!
 * \brief Declares the image embedded as `__tvm_ffi__cubin_<name>` (.. `_end`) and a lazily loaded
 * module for it, reached with TVM_FFI_EMBED_CUBIN_GET_KERNEL(name, "kernel").
 */
#define TVM_FFI_EMBED_CUBIN(name)                         \
  extern "C" const char __tvm_ffi__cubin_##name[];        \
  extern "C" const char __tvm_ffi__cubin_##name##_end[];  \
  namespace {                                             \
  struct EmbedCubinModule_##name {                        \
    ::tvm::ffi::CubinModule mod{__tvm_ffi__cubin_##name}; \
    static EmbedCubinModule_##name* Global() {            \
      static EmbedCubinModule_##name inst;                \
      return &inst;                                       \
    }                                                     \
  };                                                      \
  } /* anonymous namespace */

/*! \brief Like TVM_FFI_EMBED_CUBIN, for an image in a byte array or Bytes `imageBytes`. */
#define TVM_FFI_EMBED_CUBIN_FROM_BYTES(name, imageBytes) \
  namespace {                                            \
  struct EmbedCubinModule_##name {                       \
    ::tvm::ffi::CubinModule mod{imageBytes};             \
    static EmbedCubinModule_##name* Global() {           \
      static EmbedCubinModule_##name inst;               \
      return &inst;                                      \
    }                                                    \
  };                                                     \
  } /* anonymous namespace */

/*! \brief The kernel `kernel_name` of the embedded module `name` (loaded on first use). */
#define TVM_FFI_EMBED_CUBIN_GET_KERNEL(name, kernel_name) \
  (EmbedCubinModule_##name::Global()->mod[kernel_name])

class CubinKernel;

/*! \brief A loaded CUDA library (move-only; unloaded on destruction). */
class CubinModule {
 public:
  /*! \brief Loads the image held by `bytes`; RuntimeError on a CUDA failure. */
  explicit CubinModule(const Bytes& bytes) { Load(bytes.data()); }
  /*! \brief Loads the image starting at `code` (the image carries its own size). */
  explicit CubinModule(const char* code) { Load(code); }
  explicit CubinModule(const unsigned char* code) { Load(code); }
  ~CubinModule() {
    if (library_ != nullptr) cuda_api::UnloadLibrary(library_);  // no throw from a destructor
  }
  CubinModule(const CubinModule&) = delete;
  CubinModule& operator=(const CubinModule&) = delete;
  CubinModule(CubinModule&& other) noexcept : library_(other.library_) { other.library_ = nullptr; }
  CubinModule& operator=(CubinModule&& other) noexcept {
    if (this != &other) {
      if (library_ != nullptr) cuda_api::UnloadLibrary(library_);
      library_ = other.library_;
      other.library_ = nullptr;
    }
    return *this;
  }

  /*! \brief The kernel `name`; RuntimeError when the library has none. */
  CubinKernel GetKernel(const char* name);
  /*!
   * \brief The kernel `name`, allowed `dynamic_smem_max` bytes of dynamic shared memory on every
   * device (-1: all the shared memory the device has beyond the kernel's static use).
   */
  CubinKernel GetKernelWithMaxDynamicSharedMemory(const char* name, int64_t dynamic_smem_max = -1);
  /*! \brief Same as GetKernel(name). */
  CubinKernel operator[](const char* name);
  /*! \brief The underlying library handle. */
  cuda_api::LibraryHandle GetHandle() const { return library_; }

 private:
  void Load(const void* image) {
    TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(cuda_api::LoadLibrary(&library_, image));
  }
  cuda_api::LibraryHandle library_ = nullptr;
};

/*! \brief A kernel of a CubinModule (a handle; valid while its module is loaded). */
class CubinKernel {
 public:
  /*! \brief Looks up `name` in `library`; RuntimeError when it is missing. */
  CubinKernel(cuda_api::LibraryHandle library, const char* name) {
    TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(cuda_api::GetKernel(&kernel_, library, name));
  }
  ~CubinKernel() = default;
  CubinKernel(const CubinKernel&) = delete;
  CubinKernel& operator=(const CubinKernel&) = delete;
  CubinKernel(CubinKernel&& other) noexcept : kernel_(other.kernel_) { other.kernel_ = nullptr; }
  CubinKernel& operator=(CubinKernel&& other) noexcept {
    if (this != &other) {
      kernel_ = other.kernel_;
      other.kernel_ = nullptr;
    }
    return *this;
  }

  /*!
   * \brief Launches with `args` (pointers to each kernel argument), returning the CUDA status.
   * \param dyn_smem_bytes Dynamic shared memory per block.
   */
  cuda_api::ResultType Launch(void** args, dim3 grid, dim3 block, cuda_api::StreamHandle stream,
                              uint32_t dyn_smem_bytes = 0) {
    return cuda_api::LaunchKernel(kernel_, args, grid, block, stream, dyn_smem_bytes);
  }
  /*! \brief Launches with a full configuration (cuda_api::ConstructLaunchConfig). */
  cuda_api::ResultType LaunchEx(void** args, const cuda_api::LaunchConfig& config) {
    return cuda_api::LaunchKernelEx(kernel_, args, config);
  }
  /*! \brief The underlying kernel handle. */
  cuda_api::KernelHandle GetHandle() const { return kernel_; }

 private:
  friend class CubinModule;

  // Sets the dynamic shared memory limit on each device that accepts it; RuntimeError when there
  // are devices and none accepted it. No visible device: nothing to do.
  void SetMaxDynamicSharedMemory(int64_t dynamic_smem_max) {
    int device_count = 0;
    if (cuda_api::GetDeviceCount(&device_count) != cuda_api::kSuccess || device_count == 0) return;
    // cudaDevAttrMaxSharedMemoryPerBlock == CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK == 8
    const cuda_api::DeviceAttrType kMaxSharedPerBlock = static_cast<cuda_api::DeviceAttrType>(8);
    bool any_set = false;
    for (int device_id = 0; device_id < device_count; ++device_id) {
      cuda_api::DeviceHandle device = cuda_api::GetDeviceHandle(device_id);
      int device_max = 0;
      if (cuda_api::GetDeviceAttribute(&device_max, kMaxSharedPerBlock, device) !=
          cuda_api::kSuccess) {
        continue;
      }
      int64_t limit = dynamic_smem_max;
      if (limit == -1) {
        int static_smem = 0;
        if (cuda_api::GetKernelSharedMem(kernel_, static_smem, device) != cuda_api::kSuccess) {
          continue;
        }
        limit = static_cast<int64_t>(device_max) - static_smem;
        if (limit < 0) limit = 0;
      }
      if (cuda_api::SetKernelMaxDynamicSharedMem(kernel_, static_cast<int>(limit), device) ==
          cuda_api::kSuccess) {
        any_set = true;
      }
    }
    if (!any_set) {
      TVM_FFI_THROW(RuntimeError) << "Failed to set dynamic shared memory attribute for any device";
    }
  }

  cuda_api::KernelHandle kernel_ = nullptr;
};

inline CubinKernel CubinModule::GetKernel(const char* name) { return CubinKernel(library_, name); }

inline CubinKernel CubinModule::GetKernelWithMaxDynamicSharedMemory(const char* name,
                                                                    int64_t dynamic_smem_max) {
  CubinKernel kernel(library_, name);
  kernel.SetMaxDynamicSharedMemory(dynamic_smem_max);
  return kernel;
}

inline CubinKernel CubinModule::operator[](const char* name) { return GetKernel(name); }

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_CUDA_CUBIN_LAUNCHER_H_
