/*
 * convert_args.h -- Python values -> TVMFFIAny views for calls (convert_args.c).
 */
#ifndef TVM_FFI_PYTHON_CONVERT_ARGS_H_
#define TVM_FFI_PYTHON_CONVERT_ARGS_H_

#include "base.h"
#include "call_context.h"

/* Writes a view of `value` into *out. New FFI objects and Python objects the view borrows from
 * go to the call's temporaries; errors name ctx->site. */
int core_convert_arg(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx);

/* Converts `value` like an argument and makes the result owned (callback results, convert and
 * containers). *out is owned on success, None on failure. */
int core_py_to_owned_any(PyObject* value, TVMFFIAny* out, const CoreArgSite* site);

/* Anything as an OpaquePyObject argument (the fallback of every converter). */
int core_convert_opaque(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx);

/* Registers the converters of the kinds this file owns. */
int core_convert_init(void);

#endif /* TVM_FFI_PYTHON_CONVERT_ARGS_H_ */
