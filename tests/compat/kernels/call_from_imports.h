// call_from_imports.h -- what the custom-module kernels share: calling a function found the way
// a kernel reaches its imports (TVMFFIEnvModLookupFromImports on a library context or on a C++
// module that is its own context). Works with either package's headers.
#ifndef TVM_FFI_COMPAT_KERNELS_CALL_FROM_IMPORTS_H_
#define TVM_FFI_COMPAT_KERNELS_CALL_FROM_IMPORTS_H_

#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/tvm_ffi.h>

// Looks `name` up from `context` (the handle is borrowed: the runtime caches it) and calls it.
inline tvm::ffi::Any CallFromImports(void* context, const char* name, const TVMFFIAny* args,
                                     int32_t num_args) {
  TVMFFIObjectHandle f = nullptr;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIEnvModLookupFromImports(context, name, &f));
  TVMFFIAny raw;
  raw.type_index = kTVMFFINone;
  raw.zero_padding = 0;
  raw.v_int64 = 0;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionCall(f, const_cast<TVMFFIAny*>(args), num_args, &raw));
  return tvm::ffi::details::AnyUnsafe::MoveTVMFFIAnyToAny(&raw);
}

#endif  // TVM_FFI_COMPAT_KERNELS_CALL_FROM_IMPORTS_H_
