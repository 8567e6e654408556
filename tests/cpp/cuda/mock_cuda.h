// mock_cuda.h -- recording definitions of the CUDA driver and runtime calls declared by the stubs
// in fake/, for test_cuda_headers.cc. Both API families share one simulated machine (devices,
// loaded libraries, kernels), so one test body checks either build of the launcher.
#ifndef TVM_FFI_TESTS_CPP_CUDA_MOCK_CUDA_H_
#define TVM_FFI_TESTS_CPP_CUDA_MOCK_CUDA_H_

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

struct CUlib_st {
  const void* image;
};
struct CUkern_st {
  std::string name;
};

struct MockCuda {
  int device_count = 2;
  int current_device = 0;
  int max_shared_per_block = 49152;
  int kernel_static_smem = 1024;
  int fail_set_attribute = 0;  // a non-zero status returned by the set-attribute calls
  std::vector<int> set_device_calls;
  std::vector<const void*> loaded_images;
  int unload_calls = 0;
  std::map<int, int> max_dynamic_smem;  // device -> value set
  struct Launch {
    std::string kernel;
    unsigned grid[3];
    unsigned block[3];
    size_t smem;
    CUstream_st* stream;
    void** args;
    unsigned cluster_x;
  } last_launch{};
  int launches = 0;
  CUlib_st library_slot{};
  std::map<std::string, CUkern_st> kernels{{"add_one", {"add_one"}}, {"scale", {"scale"}}};
};

inline MockCuda mock;

inline int MockLoad(CUlib_st** library, const void* code) {
  if (code == nullptr) return 1;
  mock.loaded_images.push_back(code);
  mock.library_slot.image = code;
  *library = &mock.library_slot;
  return 0;
}
inline int MockGetKernel(CUkern_st** kernel, CUlib_st* library, const char* name) {
  auto it = mock.kernels.find(name);
  if (library == nullptr || it == mock.kernels.end()) return 500;
  *kernel = &it->second;
  return 0;
}
inline void MockLaunch(const CUkern_st* kernel, const unsigned grid[3], const unsigned block[3],
                       size_t smem, CUstream_st* stream, void** args, unsigned cluster_x) {
  mock.last_launch = {kernel->name, {grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]},
                      smem, stream, args, cluster_x};
  ++mock.launches;
}
inline const char* MockErrorName(int code) {
  switch (code) {
    case 0: return "cudaSuccess";
    case 1: return "cudaErrorInvalidValue";
    case 101: return "cudaErrorInvalidDevice";
    case 500: return "cudaErrorSymbolNotFound";
    default: return "cudaErrorUnknown";
  }
}
inline const char* MockErrorText(int code) {
  switch (code) {
    case 101: return "invalid device ordinal";
    case 500: return "named symbol not found";
    default: return "invalid argument";
  }
}

extern "C" {
// ---- driver API ----
CUresult cuGetErrorName(CUresult error, const char** pStr) {
  *pStr = error == CUDA_ERROR_NOT_FOUND ? "CUDA_ERROR_NOT_FOUND" : "CUDA_ERROR_INVALID_VALUE";
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult error, const char** pStr) {
  *pStr = MockErrorText(error);
  return CUDA_SUCCESS;
}
CUresult cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option*, void**,
                           unsigned int numJitOptions, CUlibraryOption*, void**,
                           unsigned int numLibraryOptions) {
  if (numJitOptions != 0 || numLibraryOptions != 0) return CUDA_ERROR_INVALID_VALUE;
  return static_cast<CUresult>(MockLoad(library, code));
}
CUresult cuLibraryUnload(CUlibrary) {
  ++mock.unload_calls;
  return CUDA_SUCCESS;
}
CUresult cuLibraryGetKernel(CUkernel* pKernel, CUlibrary library, const char* name) {
  return static_cast<CUresult>(MockGetKernel(pKernel, library, name));
}
CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (ordinal < 0 || ordinal >= mock.device_count) return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal + 100;  // driver handles differ from ordinals
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int* count) {
  *count = mock.device_count;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev) {
  if (attrib != CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK || dev < 100) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  *pi = mock.max_shared_per_block;
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz, unsigned int smem,
                        CUstream stream, void** params, void** extra) {
  if (extra != nullptr) return CUDA_ERROR_INVALID_VALUE;
  unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  MockLaunch(reinterpret_cast<CUkern_st*>(f), grid, block, smem, stream, params, 1);
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernelEx(const CUlaunchConfig* c, CUfunction f, void** params, void** extra) {
  if (extra != nullptr) return CUDA_ERROR_INVALID_VALUE;
  unsigned grid[3] = {c->gridDimX, c->gridDimY, c->gridDimZ};
  unsigned block[3] = {c->blockDimX, c->blockDimY, c->blockDimZ};
  unsigned cluster = 1;
  for (unsigned i = 0; i < c->numAttrs; ++i) {
    if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) cluster = c->attrs[i].value.clusterDim.x;
  }
  MockLaunch(reinterpret_cast<CUkern_st*>(f), grid, block, c->sharedMemBytes, c->hStream, params,
             cluster);
  return CUDA_SUCCESS;
}
CUresult cuKernelGetAttribute(int* pi, CUfunction_attribute attrib, CUkernel, CUdevice dev) {
  if (attrib != CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES || dev < 100) return CUDA_ERROR_INVALID_VALUE;
  *pi = mock.kernel_static_smem;
  return CUDA_SUCCESS;
}
CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel, CUdevice dev) {
  if (attrib != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES || dev < 100) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (mock.fail_set_attribute != 0) return static_cast<CUresult>(mock.fail_set_attribute);
  mock.max_dynamic_smem[dev - 100] = val;
  return CUDA_SUCCESS;
}

// ---- runtime API ----
const char* cudaGetErrorName(cudaError_t error) { return MockErrorName(error); }
const char* cudaGetErrorString(cudaError_t error) { return MockErrorText(error); }
cudaError_t cudaGetDevice(int* device) {
  *device = mock.current_device;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  if (device < 0 || device >= mock.device_count) return cudaErrorInvalidDevice;
  mock.set_device_calls.push_back(device);
  mock.current_device = device;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* count) {
  *count = mock.device_count;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (attr != cudaDevAttrMaxSharedMemoryPerBlock || device >= mock.device_count) {
    return cudaErrorInvalidValue;
  }
  *value = mock.max_shared_per_block;
  return cudaSuccess;
}
cudaError_t cudaLibraryLoadData(cudaLibrary_t* library, const void* code, cudaJitOption*, void**,
                                unsigned int numJitOptions, cudaLibraryOption*, void**,
                                unsigned int numLibraryOptions) {
  if (numJitOptions != 0 || numLibraryOptions != 0) return cudaErrorInvalidValue;
  return static_cast<cudaError_t>(MockLoad(library, code));
}
cudaError_t cudaLibraryUnload(cudaLibrary_t) {
  ++mock.unload_calls;
  return cudaSuccess;
}
cudaError_t cudaLibraryGetKernel(cudaKernel_t* pKernel, cudaLibrary_t library, const char* name) {
  return static_cast<cudaError_t>(MockGetKernel(pKernel, library, name));
}
cudaError_t cudaLaunchKernel(const void* func, dim3 g, dim3 b, void** args, size_t smem,
                             cudaStream_t stream) {
  unsigned grid[3] = {g.x, g.y, g.z}, block[3] = {b.x, b.y, b.z};
  MockLaunch(static_cast<const CUkern_st*>(func), grid, block, smem, stream, args, 1);
  return cudaSuccess;
}
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* c, const void* func, void** args) {
  unsigned grid[3] = {c->gridDim.x, c->gridDim.y, c->gridDim.z};
  unsigned block[3] = {c->blockDim.x, c->blockDim.y, c->blockDim.z};
  unsigned cluster = 1;
  for (unsigned i = 0; i < c->numAttrs; ++i) {
    if (c->attrs[i].id == cudaLaunchAttributeClusterDimension) cluster = c->attrs[i].val.clusterDim.x;
  }
  MockLaunch(static_cast<const CUkern_st*>(func), grid, block, c->dynamicSmemBytes, c->stream,
             args, cluster);
  return cudaSuccess;
}
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void*) {
  std::memset(attr, 0, sizeof(*attr));
  attr->sharedSizeBytes = static_cast<size_t>(mock.kernel_static_smem);
  return cudaSuccess;
}
cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t, cudaFuncAttribute attr, int value,
                                            int device) {
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize || device >= mock.device_count) {
    return cudaErrorInvalidValue;
  }
  if (mock.fail_set_attribute != 0) return static_cast<cudaError_t>(mock.fail_set_attribute);
  mock.max_dynamic_smem[device] = value;
  return cudaSuccess;
}
}  // extern "C"

#endif  // TVM_FFI_TESTS_CPP_CUDA_MOCK_CUDA_H_
