/*
 * error_internal.h -- raising errors into the thread-local slot (error.c).
 */
#ifndef TVM_FFI_RUNTIME_ERROR_INTERNAL_H_
#define TVM_FFI_RUNTIME_ERROR_INTERNAL_H_

#include "runtime_base.h"

/* Raises an error of `kind` with a printf-formatted message into the thread-local slot, with a
 * backtrace captured here. Always returns -1 so callers can `return ffi_raise(...)`. */
int ffi_raise(const char* kind, const char* fmt, ...) FFI_PRINTF(2, 3);
int ffi_vraise(const char* kind, const char* fmt, va_list ap);
/* Drops the error raised on this thread, if any: for callers that try something and, when it
 * fails, go another way rather than report it. */
void ffi_discard_raised(void);

/* For the entry points that cannot report errors (spec: "fatal"): prints
 * "Exception caught during <api>: <message>" to stderr and exits with status 255. */
_Noreturn void ffi_fatal(const char* api, const char* fmt, ...) FFI_PRINTF(2, 3);


/* Stores err (an Error object, or NULL) in this thread's raised slot, stealing the reference;
 * TVMFFIErrorSetRaised (error_api.c) checks its argument first. */
void ffi_error_set_raised_steal(TVMFFIObject* err);

#endif /* TVM_FFI_RUNTIME_ERROR_INTERNAL_H_ */
