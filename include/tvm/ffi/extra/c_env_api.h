/*
 * tvm/ffi/extra/c_env_api.h -- what a kernel asks of its embedding environment: the current
 * stream per device, a tensor allocator, signal checks, and module context symbols.
 * All stream and allocator state is per thread.
 */
#ifndef TVM_FFI_EXTRA_C_ENV_API_H_
#define TVM_FFI_EXTRA_C_ENV_API_H_

#include <tvm/ffi/c_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An opaque device stream (a cudaStream_t for CUDA). */
typedef void* TVMFFIStreamHandle;

/* Sets this thread's stream for a device; the previous one goes to *opt_out_original_stream. */
TVM_FFI_DLL int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id,
                                   TVMFFIStreamHandle stream,
                                   TVMFFIStreamHandle* opt_out_original_stream);
/* This thread's stream for a device, NULL when none was set. */
TVM_FFI_DLL TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id);

/* Sets this thread's tensor allocator (and the process default when write_to_global_context). */
TVM_FFI_DLL int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original_allocator);
/* This thread's allocator, else the process default, else NULL. */
TVM_FFI_DLL DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void);
/* Allocates a tensor shaped like prototype (dtype, ndim, shape, device) with the env allocator. */
TVM_FFI_DLL int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out);

/* Runs the frontend's signal check; -1 means a frontend exception (e.g. KeyboardInterrupt) is
 * pending and the caller should unwind. */
TVM_FFI_DLL int TVMFFIEnvCheckSignals(void);
/* Hands the runtime a frontend C API symbol, e.g. "PyErr_CheckSignals". */
TVM_FFI_DLL int TVMFFIEnvRegisterCAPI(const char* name, void* symbol);

/* Finds func_name among the imports of the module behind library_ctx, then the global registry.
 * *out is borrowed: the module keeps it alive. */
TVM_FFI_DLL int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx,
                                              const char* func_name, TVMFFIObjectHandle* out);
/* Every library loaded later that exports a data symbol `name` gets `symbol` written into it. */
TVM_FFI_DLL int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol);
/* Records name -> address for the system library (statically linked kernels). */
TVM_FFI_DLL int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif /* TVM_FFI_EXTRA_C_ENV_API_H_ */
