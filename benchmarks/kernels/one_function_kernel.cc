// one_function_kernel.cc -- the compile-time benchmark's kernel: one typed function, the way the
// quickstart writes it. Built against our headers and against the reference's.
#include <tvm/ffi/tvm_ffi.h>

void AddOne(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  if (x.dtype() != DLDataType{kDLFloat, 32, 1}) {
    TVM_FFI_THROW(TypeError) << "x must be float32, but got " << x.dtype();
  }
  TVM_FFI_ICHECK_EQ(x.numel(), y.numel()) << "size mismatch";
  const float* src = static_cast<const float*>(x.data_ptr());
  float* dst = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) dst[i] = src[i] + 1.0f;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
