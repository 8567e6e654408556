/*
 * tvm/ffi/extra/cuda/base.h -- shared pieces of the CUDA helpers: TVM_FFI_CHECK_CUDA_ERROR, which
 * turns a failed CUDA runtime call into a thrown RuntimeError, and a host-side dim3 usable without
 * nvcc. Needs the CUDA toolkit's cuda_runtime.h on the include path.
 */
#ifndef TVM_FFI_EXTRA_CUDA_BASE_H_
#define TVM_FFI_EXTRA_CUDA_BASE_H_

#include <cuda_runtime.h>
#include <tvm/ffi/error.h>

namespace tvm {
namespace ffi {

/*!
 * \brief Evaluates a CUDA runtime call; on failure throws RuntimeError
 * "CUDA Runtime Error: <name> (<code>): <description>".
 */
#define TVM_FFI_CHECK_CUDA_ERROR(stmt)                                                     \
  do {                                                                                     \
    cudaError_t _tvm_ffi_cuda_err = (stmt);                                                \
    if (_tvm_ffi_cuda_err != cudaSuccess) {                                                \
      TVM_FFI_THROW(RuntimeError) << "CUDA Runtime Error: "                                \
                                  << cudaGetErrorName(_tvm_ffi_cuda_err) << " ("           \
                                  << static_cast<int>(_tvm_ffi_cuda_err)                   \
                                  << "): " << cudaGetErrorString(_tvm_ffi_cuda_err);       \
    }                                                                                      \
  } while (0)

/*! \brief Grid or block extents (unspecified dimensions are 1), as in CUDA's dim3. */
struct dim3 {
  unsigned int x;
  unsigned int y;
  unsigned int z;
  dim3() : x(1), y(1), z(1) {}
  explicit dim3(unsigned int x_) : x(x_), y(1), z(1) {}
  dim3(unsigned int x_, unsigned int y_) : x(x_), y(y_), z(1) {}
  dim3(unsigned int x_, unsigned int y_, unsigned int z_) : x(x_), y(y_), z(z_) {}
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_CUDA_BASE_H_
