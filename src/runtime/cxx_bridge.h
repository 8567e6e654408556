/*
 * cxx_bridge.h -- the few hidden functions shared between the C runtime and the C++ shim of
 * src/cxx_abi (the reference's exported C++ symbols). Included from C and from C++.
 *
 * Runtime-made ffi.Module objects carry one pointer-sized slot before their header: kernels
 * built against the reference's headers see a module as a C++ object whose vtable pointer sits
 * there (spec/ABI.md section 4, ModuleObj), and call its virtual functions through it. The
 * shim supplies that vtable; the runtime stores it in every module it makes.
 */
#ifndef TVM_FFI_RUNTIME_CXX_BRIDGE_H_
#define TVM_FFI_RUNTIME_CXX_BRIDGE_H_

#include <tvm/ffi/c_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes before a runtime module's header: the C++ vtable pointer slot. */
#define FFI_MODULE_VPTR_SLOT_SIZE 8

/* Defined by src/cxx_abi/module.cc: the vtable pointer of the C++ view of runtime modules. */
const void* ffi_cxx_runtime_module_vptr(void);

/* Whether `module` (a kTVMFFIModule object) was made by this runtime, as opposed to a C++
 * ModuleObj subclass defined in a kernel built against the reference's headers. */
int ffi_module_is_runtime_made(const TVMFFIObject* module);
/* The kind ("library", "system_lib") of a runtime-made module: static text. */
const char* ffi_module_kind_cstr(const TVMFFIObject* module);
/* What ffi_cxx_module_query asks a kernel-defined module. */
typedef enum {
  kFfiCxxModuleGetFunction = 0,
  kFfiCxxModuleImplementsFunction = 1,
  kFfiCxxModuleGetFunctionDoc = 2,
  kFfiCxxModuleGetFunctionMetadata = 3,
  kFfiCxxModuleKind = 4,
} FfiCxxModuleQuery;

/* Defined by src/cxx_abi/module.cc: answers `query` for a module implemented in C++ by a loaded
 * library (a ModuleObj subclass), through its own virtual functions (name and query_imports are
 * unused for kFfiCxxModuleKind). 0 with an owned *result, or -1 with the error raised. */
int ffi_cxx_module_query(TVMFFIObject* module, FfiCxxModuleQuery query, const char* name,
                         int query_imports, TVMFFIAny* result);

/* Calls visit(ctx, name, address) for each registered context symbol, in registration order,
 * on a snapshot taken under the lock; stops at and returns the first nonzero result. */
int ffi_module_visit_context_symbols(int (*visit)(void* ctx, const char* name, void* address),
                                     void* ctx);

#ifdef __cplusplus
}
#endif

#endif /* TVM_FFI_RUNTIME_CXX_BRIDGE_H_ */
