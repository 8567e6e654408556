/*
 * globals.h -- lookups of runtime global functions (globals.c).
 */
#ifndef TVM_FFI_PYTHON_GLOBALS_H_
#define TVM_FFI_PYTHON_GLOBALS_H_

#include "base.h"

/* Looks up a global function; *out owned, or NULL when missing. */
int core_get_global_handle(const char* name, TVMFFIObjectHandle* out);
int core_get_global_handle_sized(const char* name, size_t size, TVMFFIObjectHandle* out);
/* A global function kept for the process in *slot; looked up again while missing. */
int core_cached_global(TVMFFIObjectHandle* slot, const char* name);

#endif /* TVM_FFI_PYTHON_GLOBALS_H_ */
