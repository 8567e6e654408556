/*
 * kernel_lib.c -- a kernel library as a C author would write one against the stable ABI:
 * exported `__tvm_ffi_<name>` safe-call functions, the `__tvm_ffi__library_ctx` slot the loader
 * fills, a context symbol, and optional metadata/doc symbols. Loaded by test_module.c.
 */
#include <string.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

/* Written by the runtime after loading: the handle LookupFromImports accepts. */
TVM_FFI_DLL_EXPORT void* __tvm_ffi__library_ctx = NULL;
/* A context symbol the test registers before loading (TVMFFIEnvModRegisterContextSymbol). */
TVM_FFI_DLL_EXPORT void* test_module_context_symbol = NULL;

static int raise(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

static void set_int(TVMFFIAny* result, int64_t v) {
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = v;
}

static void set_ptr(TVMFFIAny* result, void* p) {
  result->type_index = kTVMFFIOpaquePtr;
  result->zero_padding = 0;
  result->v_int64 = 0;
  result->v_ptr = p;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one(void* handle, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  if (handle != NULL) return raise("RuntimeError", "add_one: the loader must pass handle = NULL");
  if (num_args != 1 || args[0].type_index != kTVMFFIInt) {
    return raise("TypeError", "add_one expects one int");
  }
  set_int(result, args[0].v_int64 + 1);
  return 0;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_get_library_ctx(void* handle, const TVMFFIAny* args,
                                                 int32_t num_args, TVMFFIAny* result) {
  (void)handle, (void)args, (void)num_args;
  set_ptr(result, __tvm_ffi__library_ctx);
  return 0;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_get_context_symbol(void* handle, const TVMFFIAny* args,
                                                    int32_t num_args, TVMFFIAny* result) {
  (void)handle, (void)args, (void)num_args;
  set_ptr(result, test_module_context_symbol);
  return 0;
}

/* call_imported(name, *rest): what a kernel does to reach a function of an imported module. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_call_imported(void* handle, const TVMFFIAny* args,
                                               int32_t num_args, TVMFFIAny* result) {
  (void)handle;
  if (num_args < 1 || args[0].type_index != kTVMFFIRawStr) {
    return raise("TypeError", "call_imported expects a raw string name first");
  }
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, args[0].v_c_str, &f) != 0) return -1;
  /* f is borrowed: the module's lookup cache owns it. */
  return TVMFFIFunctionCall(f, (TVMFFIAny*)(args + 1), num_args - 1, result);
}

static int return_string(const char* text, TVMFFIAny* result) {
  TVMFFIByteArray s = {text, strlen(text)};
  return TVMFFIStringFromByteArray(&s, result);
}

TVM_FFI_DLL_EXPORT int __tvm_ffi__metadata_add_one(void* handle, const TVMFFIAny* args,
                                                   int32_t num_args, TVMFFIAny* result) {
  (void)handle, (void)args, (void)num_args;
  return return_string("{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\"}\"}", result);
}

TVM_FFI_DLL_EXPORT int __tvm_ffi__doc_add_one(void* handle, const TVMFFIAny* args,
                                              int32_t num_args, TVMFFIAny* result) {
  (void)handle, (void)args, (void)num_args;
  return return_string("Adds one to an integer.", result);
}

/* A broken doc getter: returns an int instead of a string. */
TVM_FFI_DLL_EXPORT int __tvm_ffi__doc_get_library_ctx(void* handle, const TVMFFIAny* args,
                                                      int32_t num_args, TVMFFIAny* result) {
  (void)handle, (void)args, (void)num_args;
  set_int(result, 7);
  return 0;
}
