/*
 * cxx_bridge.h -- the few hidden functions shared between the C runtime and the C++ shim of
 * src/cxx_abi (the reference's exported C++ symbols). Included from C and from C++.
 *
 * Runtime-made ffi.Module objects carry one pointer-sized slot before their header: kernels
 * (built against either package's headers) see a module as a C++ object whose vtable pointer sits
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
 * ModuleObj subclass defined in a kernel or a compiler's runtime. */
int ffi_module_is_runtime_made(const TVMFFIObject* module);
/* The kind ("library", "system_lib") of a runtime-made module: static text. */
const char* ffi_module_kind_cstr(const TVMFFIObject* module);
/* What ffi_cxx_module_call asks of a module implemented in C++ by a loaded library (a
 * ModuleObj subclass): each is one of its virtual functions, or a non-virtual member of the
 * ModuleObj that walks its imports. */
typedef enum {
  kFfiCxxModuleGetFunction = 0,         /* text: name; query_imports -> Function or None */
  kFfiCxxModuleImplementsFunction = 1,  /* text: name; query_imports -> bool */
  kFfiCxxModuleGetFunctionDoc = 2,      /* text: name; query_imports -> str or None */
  kFfiCxxModuleGetFunctionMetadata = 3, /* text: name; query_imports -> str or None */
  kFfiCxxModuleKind = 4,                /* -> str */
  kFfiCxxModulePropertyMask = 5,        /* -> int */
  kFfiCxxModuleWriteFormats = 6,        /* -> Array of str */
  kFfiCxxModuleInspectSource = 7,       /* text: format -> str */
  kFfiCxxModuleWriteToFile = 8,         /* text: file name; format -> None */
  kFfiCxxModuleImportModule = 9,        /* other -> None */
  kFfiCxxModuleClearImports = 10,       /* -> None */
} FfiCxxModuleOp;

/* The operands of an FfiCxxModuleOp; unused ones are ignored. */
typedef struct {
  const char* text;     /* NUL-terminated: function name, source format or file name */
  const char* format;   /* NUL-terminated: WriteToFile's format */
  int query_imports;    /* also search the imported modules */
  TVMFFIObject* other;  /* ImportModule's module (borrowed) */
} FfiCxxModuleArgs;

/* Defined by src/cxx_abi/module.cc: performs `op` on `module`, a module implemented in C++ by
 * a loaded library (not runtime-made), through its own virtual functions. 0 with an owned
 * *result, or -1 with the error raised. */
int ffi_cxx_module_call(TVMFFIObject* module, FfiCxxModuleOp op, const FfiCxxModuleArgs* in,
                        TVMFFIAny* result);

/* Whether `target` is reachable from `from` through imports (from included), over modules of
 * both kinds (each keeps its import array at the same offset). 1, 0, or -1 with the error
 * raised. Takes the runtime's module lock. */
int ffi_module_reaches(TVMFFIObject* from, TVMFFIObject* target);

/* Calls visit(ctx, name, address) for each registered context symbol, in registration order,
 * on a snapshot taken under the lock; stops at and returns the first nonzero result. */
int ffi_module_visit_context_symbols(int (*visit)(void* ctx, const char* name, void* address),
                                     void* ctx);

/* Defined by src/cxx_abi/visit_error_context.cc: appends `node` to the ffi.VisitErrorContext of
 * `error` (both borrowed), attaching one when the error has none, as a TVM_FFI_VISIT_END of the
 * C++ headers does. The runtime's structural engines call it for each object an error unwinds
 * through, innermost first. Never fails (out of memory leaves the error as it is). */
void ffi_cxx_visit_error_record(TVMFFIObject* error, TVMFFIObject* node);

#ifdef __cplusplus
}
#endif

#endif /* TVM_FFI_RUNTIME_CXX_BRIDGE_H_ */
