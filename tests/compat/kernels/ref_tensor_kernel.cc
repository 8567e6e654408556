// ref_tensor_kernel.cc -- tensor functions written with the REFERENCE header-only C++ API and
// loaded into OUR Python package (test_ref_tensor_kernel_in_our_python.py), the way a kernel
// library built for the reference is used with framework tensors.
//
// Exports:
//   doubled(x: Tensor) -> Tensor          a new tensor from the env allocator holding 2 * x
//                                         (float32, contiguous)
//   keep(x: Tensor), kept() -> Tensor, drop()
//                                         hold one tensor past the call that passed it
//   total_numel(xs: Array<Tensor>) -> int the elements of every tensor in a list
//   layout(x: TensorView) -> Array<int>   ndim, then the shape, then the strides
#include <tvm/ffi/tvm_ffi.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstdint>

namespace {

using tvm::ffi::Array;
using tvm::ffi::Optional;
using tvm::ffi::Tensor;
using tvm::ffi::TensorView;

Tensor Doubled(Tensor x) {
  DLDataType dtype = x.dtype();
  if (dtype.code != kDLFloat || dtype.bits != 32 || dtype.lanes != 1 || !x.IsContiguous()) {
    TVM_FFI_THROW(TypeError) << "doubled expects a contiguous float32 tensor";
  }
  Tensor out = Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, x.shape(), dtype, x.device());
  const float* src = static_cast<const float*>(x.data_ptr());
  float* dst = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) dst[i] = 2.0f * src[i];
  return out;
}

Optional<Tensor>& Held() {
  static Optional<Tensor> held;
  return held;
}

void Keep(Tensor x) { Held() = x; }
Tensor Kept() { return Held().value(); }
void Drop() { Held() = std::nullopt; }

int64_t TotalNumel(Array<Tensor> xs) {
  int64_t total = 0;
  for (const Tensor& x : xs) total += x.numel();
  return total;
}

Array<int64_t> Layout(TensorView x) {
  Array<int64_t> out;
  out.push_back(x.ndim());
  for (int32_t i = 0; i < x.ndim(); ++i) out.push_back(x.size(i));
  for (int32_t i = 0; i < x.ndim(); ++i) out.push_back(x.stride(i));
  return out;
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(doubled, Doubled);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(keep, Keep);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(kept, Kept);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(drop, Drop);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(total_numel, TotalNumel);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(layout, Layout);
