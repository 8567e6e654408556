/*
 * library_bin.h -- helpers for plugins that embed a `__tvm_ffi__library_bin` description
 * (spec/ABI.md section 7.3: little-endian u64 fields, vec = count + values, str = length + bytes).
 */
#ifndef TVM_FFI_TESTS_PLUGINS_LIBRARY_BIN_H_
#define TVM_FFI_TESTS_PLUGINS_LIBRARY_BIN_H_

#include <tvm/ffi/c_api.h>

/* The eight little-endian bytes of a small u64. */
#define U64(x) (unsigned char)((x) & 0xFF), (unsigned char)(((x) >> 8) & 0xFF), 0, 0, 0, 0, 0, 0

TVM_FFI_DLL_EXPORT void* __tvm_ffi__library_ctx = (void*)0;

/* own_fn() -> 100: proves the host library itself is part of the loaded module tree. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_own_fn(void* handle, const TVMFFIAny* args, int32_t num_args,
                                        TVMFFIAny* result) {
  (void)handle, (void)args, (void)num_args;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = 100;
  return 0;
}

#endif /* TVM_FFI_TESTS_PLUGINS_LIBRARY_BIN_H_ */
