/*
 * tvm/ffi/extra/cuda/device_guard.h -- CUDADeviceGuard: makes a CUDA device current for a scope
 * and restores the previous one when the scope ends.
 */
#ifndef TVM_FFI_EXTRA_CUDA_DEVICE_GUARD_H_
#define TVM_FFI_EXTRA_CUDA_DEVICE_GUARD_H_

#include <tvm/ffi/extra/cuda/base.h>

namespace tvm {
namespace ffi {

/*!
 * \brief `CUDADeviceGuard guard(tensor.device().device_id);` switches the current device when it
 * differs, and switches back on destruction. CUDA failures throw RuntimeError (also from the
 * destructor, hence noexcept(false)).
 */
struct CUDADeviceGuard {
  CUDADeviceGuard() = delete;
  CUDADeviceGuard(const CUDADeviceGuard&) = delete;
  CUDADeviceGuard& operator=(const CUDADeviceGuard&) = delete;
  /*! \brief Makes `device_index` current, remembering the device that was. */
  explicit CUDADeviceGuard(int device_index) : target_device_index_(device_index) {
    TVM_FFI_CHECK_CUDA_ERROR(cudaGetDevice(&original_device_index_));
    if (target_device_index_ != original_device_index_) {
      TVM_FFI_CHECK_CUDA_ERROR(cudaSetDevice(target_device_index_));
    }
  }
  ~CUDADeviceGuard() noexcept(false) {
    if (original_device_index_ != target_device_index_) {
      TVM_FFI_CHECK_CUDA_ERROR(cudaSetDevice(original_device_index_));
    }
  }

 private:
  int original_device_index_ = 0;
  int target_device_index_;
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_CUDA_DEVICE_GUARD_H_
