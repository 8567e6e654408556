/*
 * function_internal.h -- registering the runtime's built-in global functions (function.c).
 */
#ifndef TVM_FFI_RUNTIME_FUNCTION_INTERNAL_H_
#define TVM_FFI_RUNTIME_FUNCTION_INTERNAL_H_

#include "runtime_base.h"

/* Registers a runtime-provided global function whose safe_call receives its own object as
 * handle. Registration failures at start-up are fatal. */
void ffi_register_builtin(const char* name, TVMFFISafeCallType fn);

#endif /* TVM_FFI_RUNTIME_FUNCTION_INTERNAL_H_ */
