// custom_module_bin.cc -- a composite library (built against either package's headers): its
// __tvm_ffi__library_bin makes node 0 the library itself ("_lib") and has it import node 1, an
// "echo" module (a C++ ModuleObj subclass) that the loader of custom_module.cc builds from
// the bytes "hi". Load custom_module.so first so that the loader is registered.
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdint>

#include "call_from_imports.h"

namespace ffi = tvm::ffi;

// One little-endian u64 of the description.
#define U64(v)                                                                        \
  (unsigned char)((uint64_t)(v)), (unsigned char)((uint64_t)(v) >> 8),                \
      (unsigned char)((uint64_t)(v) >> 16), (unsigned char)((uint64_t)(v) >> 24),     \
      (unsigned char)((uint64_t)(v) >> 32), (unsigned char)((uint64_t)(v) >> 40),     \
      (unsigned char)((uint64_t)(v) >> 48), (unsigned char)((uint64_t)(v) >> 56)

extern "C" TVM_FFI_DLL_EXPORT const unsigned char __tvm_ffi__library_bin[] = {
    U64(82),                               // payload bytes
    U64(3), U64(0), U64(1), U64(1),        // indptr: node 0 -> [0,1), node 1 -> [1,1)
    U64(1), U64(1),                        // child indices: node 0 imports node 1
    U64(4), '_', 'l', 'i', 'b',            // node 0
    U64(4), 'e', 'c', 'h', 'o',            // node 1 kind
    U64(2), 'h', 'i',                      // node 1 blob
};
static_assert(sizeof(__tvm_ffi__library_bin) == 8 + 82, "payload size field matches");

extern "C" TVM_FFI_DLL_EXPORT void* __tvm_ffi__library_ctx = nullptr;

namespace {

// Calls `name` (no arguments) as a kernel reaches its imports: through its library context.
ffi::Any CallImported(ffi::String name) {
  return CallFromImports(__tvm_ffi__library_ctx, name.c_str(), nullptr, 0);
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_imported, CallImported);
