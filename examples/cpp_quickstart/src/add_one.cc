// add_one.cc -- kernels written with the TVM-FFI C++ API. Each TVM_FFI_DLL_EXPORT_TYPED_FUNC
// exports a __tvm_ffi_<name> symbol that checks and converts its arguments, so the library can
// be called from Python (tvm_ffi.load_module), C++ (Module::LoadFromFile) or any ABI user.
#include <tvm/ffi/tvm_ffi.h>

namespace ffi = tvm::ffi;

namespace {

void CheckFloat32Vector(const ffi::TensorView& t, const char* name) {
  if (t.dtype() != DLDataType{kDLFloat, 32, 1}) {
    TVM_FFI_THROW(TypeError) << name << " must be float32, but got " << t.dtype();
  }
  if (t.ndim() != 1 || !t.IsContiguous()) {
    TVM_FFI_THROW(ValueError) << name << " must be a contiguous 1-D tensor, but has shape "
                              << t.shape();
  }
  if (t.device().device_type != kDLCPU) {
    TVM_FFI_THROW(ValueError) << name << " must be on the CPU, but is on " << t.device();
  }
}

// y[i] = x[i] + 1, writing into a tensor the caller allocated (the recommended style).
void AddOne(ffi::TensorView x, ffi::TensorView y) {
  CheckFloat32Vector(x, "x");
  CheckFloat32Vector(y, "y");
  TVM_FFI_CHECK(x.size(0) == y.size(0), ValueError)
      << "x has " << x.size(0) << " elements but y has " << y.size(0);
  const float* src = static_cast<const float*>(x.data_ptr());
  float* dst = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.size(0); ++i) dst[i] = src[i] + 1.0f;
}

// A new tensor from the environment's allocator (torch.empty when called with torch tensors).
ffi::Tensor ScaledCopy(ffi::TensorView x, double factor) {
  CheckFloat32Vector(x, "x");
  ffi::Tensor out = ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, x.shape(), x.dtype(), x.device());
  const float* src = static_cast<const float*>(x.data_ptr());
  float* dst = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) dst[i] = static_cast<float>(src[i] * factor);
  return out;
}

ffi::Shape ShapeOf(ffi::TensorView x) { return ffi::Shape(x.shape()); }

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(scaled_copy, ScaledCopy);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(shape_of, ShapeOf);
