// cpp_kernel.cc -- a kernel library built against our headers (with metadata exports) for
// test_module.cc: exported typed functions, a docstring, and a global registered at load time.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

namespace ffi = tvm::ffi;

int64_t Scale(int64_t x, double factor) { return static_cast<int64_t>(x * factor); }
ffi::String Describe(ffi::TensorView t) {
  return ffi::String("ndim=" + std::to_string(t.ndim()));
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(scale, Scale);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(scale, "Scales x by factor, rounding toward zero.");
TVM_FFI_DLL_EXPORT_TYPED_FUNC(describe, Describe);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(main, [](int64_t x) { return x + 1; });

TVM_FFI_STATIC_INIT_BLOCK() {
  ffi::reflection::GlobalDef().def("test.cpp_kernel.loaded", []() { return true; });
}
