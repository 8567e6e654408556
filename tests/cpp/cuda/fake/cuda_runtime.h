/*
 * Test stub of the CUDA runtime API header: only the declarations tvm/ffi/extra/cuda headers use, with
 * the toolkit's names, signatures and enum values. The functions are defined by the test program
 * (tests/cpp/cuda/test_cuda_headers.cc) as recording mocks.
 */
#ifndef TVM_FFI_TEST_FAKE_CUDA_RUNTIME_H_
#define TVM_FFI_TEST_FAKE_CUDA_RUNTIME_H_

#include <stddef.h>

#ifndef CUDART_VERSION
#define CUDART_VERSION 12080
#endif

struct dim3 {
  unsigned int x, y, z;
#ifdef __cplusplus
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
#endif
};

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorInvalidDevice = 101,
  cudaErrorSymbolNotFound = 500
} cudaError_t;

typedef struct CUstream_st* cudaStream_t;
typedef struct CUlib_st* cudaLibrary_t;
typedef struct CUkern_st* cudaKernel_t;

enum cudaDeviceAttr { cudaDevAttrMaxSharedMemoryPerBlock = 8 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
enum cudaJitOption { cudaJitMaxRegisters = 0 };
enum cudaLibraryOption { cudaLibraryHostUniversalFunctionAndDataTable = 0 };
enum cudaLaunchAttributeID { cudaLaunchAttributeClusterDimension = 4 };

union cudaLaunchAttributeValue {
  char pad[64];
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } clusterDim;
};

struct cudaLaunchAttribute {
  enum cudaLaunchAttributeID id;
  char pad[8 - sizeof(enum cudaLaunchAttributeID)];
  union cudaLaunchAttributeValue val;
};

typedef struct cudaLaunchConfig_st {
  struct dim3 gridDim;
  struct dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  struct cudaLaunchAttribute* attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
};

const char* cudaGetErrorName(cudaError_t error);
const char* cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaLibraryLoadData(cudaLibrary_t* library, const void* code,
                                enum cudaJitOption* jitOptions, void** jitOptionsValues,
                                unsigned int numJitOptions, enum cudaLibraryOption* libraryOptions,
                                void** libraryOptionValues, unsigned int numLibraryOptions);
cudaError_t cudaLibraryUnload(cudaLibrary_t library);
cudaError_t cudaLibraryGetKernel(cudaKernel_t* pKernel, cudaLibrary_t library, const char* name);
cudaError_t cudaLaunchKernel(const void* func, struct dim3 gridDim, struct dim3 blockDim,
                             void** args, size_t sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* func);
cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, enum cudaFuncAttribute attr,
                                            int value, int device);

#ifdef __cplusplus
}
#endif

#endif  // TVM_FFI_TEST_FAKE_CUDA_RUNTIME_H_
