/*
 * call.h -- the one convert-and-call routine: Python arguments -> a stack array of TVMFFIAny
 * views -> the function's safe_call -> an owned result (call.c). Its variants differ only in
 * what the caller fixed in advance: whether the GIL is released (chosen when a Function is
 * made or its release_gil changes, see function.c) and whether the arguments are the items of
 * one container argument of an outer call.
 */
#ifndef TVM_FFI_PYTHON_CALL_H_
#define TVM_FFI_PYTHON_CALL_H_

#include "base.h"
#include "call_context.h"

/* A call of `handle` named `func_name` (str or NULL) in messages, keeping the GIL. *result is
 * owned on success; framework tensors among the arguments are reported in *fw. */
int core_call(TVMFFIObjectHandle handle, PyObject* const* args, Py_ssize_t nargs,
              PyObject* func_name, TVMFFIAny* result, CoreFramework* fw);
/* The same with the GIL released around the callee. */
int core_call_release_gil(TVMFFIObjectHandle handle, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* func_name, TVMFFIAny* result, CoreFramework* fw);
/* A call of a container constructor with the items of one argument of the call `outer`:
 * conversion errors name that argument, and framework tensors among the items count as
 * `outer`'s own. */
int core_call_with_items(TVMFFIObjectHandle ctor, PyObject* const* items, Py_ssize_t n,
                         CoreCallContext* outer, TVMFFIAny* result);

/* Registers the list/tuple and dict converters (ffi.Array / ffi.Map). */
int core_call_init(void);

#endif /* TVM_FFI_PYTHON_CALL_H_ */
