/*
 * type_registry_globals_internal.h -- the type registry's built-in global functions (type_registry_globals.c).
 */
#ifndef TVM_FFI_RUNTIME_TYPE_REGISTRY_GLOBALS_INTERNAL_H_
#define TVM_FFI_RUNTIME_TYPE_REGISTRY_GLOBALS_INTERNAL_H_

#include "runtime_base.h"

/* Registers ffi.GetRegisteredTypeKeys; init.c calls it once the type table exists. */
void ffi_register_type_globals(void);

#endif /* TVM_FFI_RUNTIME_TYPE_REGISTRY_GLOBALS_INTERNAL_H_ */
