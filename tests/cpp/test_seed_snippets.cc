// test_seed_snippets.cc -- the C++ snippets of the documentation seeds (abi_overview "Any"
// example, tensor_and_dlpack "Kernel Signatures", "Env Allocator", "Custom Allocator" and
// "Obtain Stream Context"), compiled as written except that CUDA calls become CPU ones.
#include <tvm/ffi/any.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdlib>
#include <sstream>

#include "check.h"

namespace ffi = tvm::ffi;
using ffi::Tensor;

static std::ostringstream cout_;  // stands in for std::cout so the output can be checked

void AnyExample() {
  namespace ffi = tvm::ffi;
  // Here is a managed any
  ffi::Any value = "hello world";
  // explicit cast to a specific type
  ffi::String str_value = value.cast<ffi::String>();
  // copy int to value
  value = 1;
  // copy into a view
  ffi::AnyView view = value;
  // cast view back to int
  cout_ << "Value is " << view.cast<int>() << std::endl;
  cout_ << str_value << ' ' << DLDataType{kDLFloat, 32, 1} << ' ' << DLDevice{kDLCPU, 0};
}

void MyKernel(tvm::ffi::TensorView input, tvm::ffi::TensorView output) {
  // Validate dtype & device
  if (input.dtype() != DLDataType{kDLFloat, 32, 1})
    TVM_FFI_THROW(TypeError) << "Expect float32 input, but got " << input.dtype();
  if (input.device() != DLDevice{kDLCPU, 0})
    TVM_FFI_THROW(ValueError) << "Expect input on CPU:0, but got " << input.device();
  // Access data pointer
  float* input_data_ptr = static_cast<float*>(input.data_ptr());
  float* output_data_ptr = static_cast<float*>(output.data_ptr());
  for (int64_t i = 0; i < input.numel(); ++i) output_data_ptr[i] = input_data_ptr[i];
}

struct CPUNDAlloc {  // CUDANDAlloc with malloc/free
  void AllocData(DLTensor* tensor) {
    size_t data_size = ffi::GetDataSize(*tensor);
    void* ptr = std::malloc(data_size);
    int err = ptr == nullptr ? 1 : 0;
    TVM_FFI_ICHECK_EQ(err, 0) << "malloc failed: " << data_size << " bytes";
    tensor->data = ptr;
  }
  void FreeData(DLTensor* tensor) {
    if (tensor->data != nullptr) {
      std::free(tensor->data);
      tensor->data = nullptr;
    }
  }
};

void func(ffi::TensorView input) {
  ffi::DLDevice device = input.device();
  void* stream = TVMFFIEnvGetStream(device.device_type, device.device_id);
  CHECK(stream == nullptr);  // no framework set one
}

void test_any_example() {
  AnyExample();
  CHECK_EQ(cout_.str(), "Value is 1\nhello world float32 cpu:0");
}

void test_kernel_signature_and_allocators() {
  ffi::Tensor cuda_tensor = ffi::Tensor::FromNDAlloc(
    CPUNDAlloc(),
    /*shape=*/{3, 4, 5},
    /*dtype=*/DLDataType({kDLFloat, 32, 1}),
    /*device=*/DLDevice({kDLCPU, 0})
  );
  Tensor tensor = Tensor::FromEnvAlloc(
    TVMFFIEnvTensorAlloc,
    /*shape=*/{3, 4, 5},
    /*dtype=*/DLDataType({kDLFloat, 32, 1}),
    /*device=*/DLDevice({kDLCPU, 0})
  );
  for (int64_t i = 0; i < 60; ++i) static_cast<float*>(cuda_tensor.data_ptr())[i] = 0.5f * i;
  MyKernel(cuda_tensor, tensor);
  CHECK_EQ(static_cast<float*>(tensor.data_ptr())[59], 29.5f);
  func(tensor);
  Tensor ints = Tensor::FromNDAlloc(CPUNDAlloc(), {2}, DLDataType{kDLInt, 32, 1}, DLDevice{kDLCPU, 0});
  CHECK_THROWS(MyKernel(ints, tensor), "TypeError", "Expect float32 input, but got int32");
}

int main() {
  RUN(test_any_example);
  RUN(test_kernel_signature_and_allocators);
  return CHECK_MAIN_RESULT();
}
