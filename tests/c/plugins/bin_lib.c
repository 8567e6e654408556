/* bin_lib.c -- a valid composite library: node 0 is the library itself ("_lib") and imports
 * node 1, a module of kind "testblob" whose bytes "hello" go to the test's loader. */
#include <tvm/ffi/extra/c_env_api.h>

#include "library_bin.h"

TVM_FFI_DLL_EXPORT const unsigned char __tvm_ffi__library_bin[] = {
    U64(89),                                   /* payload bytes */
    U64(3), U64(0), U64(1), U64(1),            /* indptr: node 0 -> [0,1), node 1 -> [1,1) */
    U64(1), U64(1),                            /* child indices: node 0 imports node 1 */
    U64(4), '_', 'l', 'i', 'b',                /* node 0 */
    U64(8), 't', 'e', 's', 't', 'b', 'l', 'o', 'b',  /* node 1 kind */
    U64(5), 'h', 'e', 'l', 'l', 'o',           /* node 1 blob */
};
_Static_assert(sizeof(__tvm_ffi__library_bin) == 8 + 89, "payload size field matches");

/* call_imported(name, *rest) through the library context, as kernels do. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_call_imported(void* handle, const TVMFFIAny* args,
                                               int32_t num_args, TVMFFIAny* result) {
  (void)handle;
  if (num_args < 1 || args[0].type_index != kTVMFFIRawStr) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "call_imported expects a raw string name first");
    return -1;
  }
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, args[0].v_c_str, &f) != 0) return -1;
  return TVMFFIFunctionCall(f, (TVMFFIAny*)(args + 1), num_args - 1, result);
}
